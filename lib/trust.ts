/**
 * Project trust: whether a project's pi-controls config may loosen the user's global policy.
 *
 * pi 1.x decides trust itself (`ctx.isProjectTrusted()`); on pi 0.7x and in the CLI pi-controls
 * decides with its own store (`pi-controls trust`) and pi's `trust.json`. A trusted folder's
 * config is also pinned by content: a later change that can loosen the global policy is applied
 * only after the user accepts it once more.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { parseTree } from "jsonc-parser";
import { withFileLock } from "./file_lock.ts";
import { TRUST_STORE } from "./gate_files.ts";

/** What pi-controls remembers of one folder. */
export interface FolderTrust {
  /** Trusted by `pi-controls trust` (pi 0.7x, the CLI). */
  trusted?: boolean;
  /** The sha256 of the project config text last accepted to loosen the global policy. */
  pinned?: string;
}

/** The store: `<agentDir>/extensions/pi-controls-trust.json`. */
export interface TrustStore {
  version: 1;
  folders: Record<string, FolderTrust>;
}

/** The store's path under an agent dir. */
export function trustStorePath(agentDir: string): string {
  return join(agentDir, "extensions", TRUST_STORE);
}

/** A folder as stores key it: its real path (the path as given when it does not exist). */
export function folderKey(dir: string): string {
  try {
    return realpathSync(resolve(dir));
  } catch {
    return resolve(dir);
  }
}

/** Read the store; a missing file is empty, a broken one throws naming the file. */
export function readTrustStore(agentDir: string): TrustStore {
  const file = trustStorePath(agentDir);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, folders: {} };
    throw new Error(`${file}: cannot read the trust store (${(e as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file}: the trust store is not valid JSON (${(e as Error).message})`);
  }
  const folders = (data as TrustStore)?.folders;
  if (typeof folders !== "object" || folders === null || Array.isArray(folders)) {
    throw new Error(`${file}: the trust store has no "folders" object`);
  }
  return { version: 1, folders: { ...folders } };
}

/**
 * Change one folder's entry in the store under the store's lock, atomically (temp file and
 * rename); returns the entry as saved.
 */
export function updateFolderTrust(
  agentDir: string,
  dir: string,
  change: (entry: FolderTrust) => FolderTrust | null,
): FolderTrust | null {
  const file = trustStorePath(agentDir);
  mkdirSync(dirname(file), { recursive: true });
  return withFileLock(file, () => {
    const store = readTrustStore(agentDir);
    const key = folderKey(dir);
    const next = change({ ...store.folders[key] });
    if (next === null || Object.keys(next).length === 0) delete store.folders[key];
    else store.folders[key] = next;
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(tmp, JSON.stringify(store, null, 2) + "\n", { mode: 0o600 });
    renameSync(tmp, file);
    return next;
  });
}

/**
 * pi's own saved decision for a folder (`<agentDir>/trust.json`: real path to true/false, the
 * nearest of the folder and its ancestors), or null when none is saved or it cannot be read.
 */
export function piTrustDecision(agentDir: string, dir: string): boolean | null {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(readFileSync(join(agentDir, "trust.json"), "utf8"));
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null) return null;
  let at = folderKey(dir);
  for (;;) {
    const v = data[at];
    if (v === true || v === false) return v;
    const parent = dirname(at);
    if (parent === at) return null;
    at = parent;
  }
}

/**
 * Whether pi-controls' own store or pi's `trust.json` trusts a folder (pi 0.7x, the CLI): the
 * nearest decision of the folder and its ancestors in either; pi-controls' own store first.
 */
export function storedTrust(agentDir: string, dir: string): boolean {
  let store: TrustStore;
  try {
    store = readTrustStore(agentDir);
  } catch {
    store = { version: 1, folders: {} };
  }
  let at = folderKey(dir);
  for (;;) {
    const v = store.folders[at]?.trusted;
    if (v === true || v === false) return v;
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  return piTrustDecision(agentDir, dir) === true;
}

/** The sha256 of a config text, as pinned. */
export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Top-level keys of a project config that cannot loosen the global policy. */
const TIGHTENING_KEYS = new Set(["$schema", "pathProtection", "tests"]);

/**
 * What a project config sets that can loosen the global policy (its keys other than
 * pathProtection, tests and `$schema`, with counts), e.g. `["policies (2)", "locations (1)"]`;
 * empty when it can only tighten. A text that does not parse names nothing (it fails closed).
 */
export function loosening(text: string): string[] {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  if (!tree || tree.type !== "object") return [];
  const out: string[] = [];
  for (const prop of tree.children ?? []) {
    const key = prop.children?.[0]?.value;
    const value = prop.children?.[1];
    if (typeof key !== "string" || TIGHTENING_KEYS.has(key) || !value) continue;
    // An empty sandbox block switches the sandbox on: what asked unseen would run sandboxed.
    if (key === "sandbox" && value.type !== "null") {
      out.push("sandbox");
      continue;
    }
    const n = value.type === "object" || value.type === "array" ? value.children?.length ?? 0 : 1;
    if (value.type === "null" || n === 0) continue;
    out.push(value.type === "object" || value.type === "array" ? `${key} (${n})` : key);
  }
  return out;
}

/** A project config as trust looks at it. */
export interface TrustedProject {
  /** The folder holding `.pi/`. */
  root: string;
  file: string;
  /** sha256 of its text. */
  hash: string;
}

/** The content pinned for a folder in pi-controls' store (undefined: none, or unreadable). */
export function pinnedHash(agentDir: string, root: string): string | undefined {
  try {
    return readTrustStore(agentDir).folders[folderKey(root)]?.pinned;
  } catch {
    return undefined;
  }
}

/**
 * Why a project config may not loosen the global policy where pi-controls decides (pi 0.7x, the
 * CLI): its folder is not trusted by pi-controls' store or pi's `trust.json`, or its text changed
 * since it was pinned; null when it is trusted.
 */
export function untrustedReason(agentDir: string, p: TrustedProject): string | null {
  if (!storedTrust(agentDir, p.root)) {
    return `${p.root} is not trusted (pi-controls trust ${p.root}, or --trust-project)`;
  }
  const pinned = pinnedHash(agentDir, p.root);
  if (pinned !== undefined && pinned !== p.hash) {
    return `${p.file} changed since it was last accepted (pi-controls trust ${p.root})`;
  }
  return null;
}
