/**
 * The pi extension's config, apart from pi: the config files as they are now (read again only
 * when one changed), whether a trusted project's config may loosen the global policy (asked once
 * per config text, remembered for the process and pinned in pi-controls' trust store), and what
 * the start-up, the footer and `/controls` say about it. `extension.ts` asks the user and shows
 * the texts; `extension_config_test.ts` drives it without pi.
 *
 * @example
 * ```ts
 * const config = newExtensionConfig({ home, agentDir });
 * const view = viewOf(config, cwd);
 * const trust = projectTrust(config, view, () => true);
 * if (trust !== true && trust !== false) settleProjectTrust(config, trust.project, false);
 * ```
 *
 * @module
 */
import { join } from "node:path";
import { discoverConfigFiles, formatConfigError } from "./config.ts";
import {
  type ConfigView,
  type ConfigWatcher,
  configWatcher,
  type ProjectConfig,
} from "./config_view.ts";
import { locate, locationIndex } from "./policy/locations.ts";
import { noConfigWarning } from "./policy/messages.ts";
import { pinnedHash, updateFolderTrust } from "./trust.ts";
import type { Context } from "./types.ts";

/** Where the extension's config lives. */
export interface ExtensionConfigOptions {
  home: string;
  /** pi's agent directory (`<agentDir>/extensions/pi-controls.jsonc` is the global config). */
  agentDir: string;
  /**
   * The file the extension's code was loaded from (protected as one of the gate's files).
   * @default undefined
   */
  codeFile?: string;
  /** Receives a log line when the trust store cannot be written. @default nothing is logged */
  log?: (entry: Record<string, unknown>) => void;
}

/** The extension's config state. */
export interface ExtensionConfig {
  home: string;
  agentDir: string;
  watcher: ConfigWatcher;
  /** Project config texts (by hash) the user accepted, or refused, to loosen the global policy. */
  reviewed: Map<string, boolean>;
  log: (entry: Record<string, unknown>) => void;
}

/** A fresh config state: nothing read yet, no project config reviewed. */
export function newExtensionConfig(opts: ExtensionConfigOptions): ExtensionConfig {
  return {
    home: opts.home,
    agentDir: opts.agentDir,
    watcher: configWatcher({ home: opts.home, agentDir: opts.agentDir, codeFile: opts.codeFile }),
    reviewed: new Map(),
    log: opts.log ?? (() => {}),
  };
}

/** The config files of a cwd as they are now (a stat per file; read again when one changed). */
export function viewOf(config: ExtensionConfig, cwd: string): ConfigView {
  return config.watcher.current(cwd);
}

/** Pin a project config's text as the one accepted (a failure is logged, not thrown). */
function pin(config: ExtensionConfig, p: ProjectConfig): void {
  try {
    updateFolderTrust(config.agentDir, p.root, (e) => ({ ...e, pinned: p.hash }));
  } catch (e) {
    config.log({ event: "pin-failed", file: p.file, error: (e as Error).message });
  }
}

/** A project config that changed since it was last accepted: what to ask the user. */
export interface TrustQuestion {
  project: ProjectConfig;
  question: string;
}

/**
 * Whether the project config of a view may loosen the global policy: its folder is trusted
 * (`folderTrusted`, asked only when the project config can loosen), and its content is the one
 * last accepted. A trusted folder's first config is accepted (the folder's trust is the user's
 * answer) and pinned; a later text that can loosen is a {@linkcode TrustQuestion}, and until
 * {@linkcode settleProjectTrust} accepts it, it only tightens.
 */
export function projectTrust(
  config: ExtensionConfig,
  v: ConfigView,
  folderTrusted: (p: ProjectConfig) => boolean,
): boolean | TrustQuestion {
  const p = v.project;
  if (!p || p.loosens.length === 0) return true;
  if (!folderTrusted(p)) return false;
  const known = config.reviewed.get(p.hash);
  if (known !== undefined) return known;
  const was = pinnedHash(config.agentDir, p.root);
  if (was === undefined || was === p.hash) {
    if (was === undefined) pin(config, p);
    config.reviewed.set(p.hash, true);
    return true;
  }
  // Not trusted while the user is asked (calls in parallel only tighten meanwhile).
  config.reviewed.set(p.hash, false);
  const question = `pi-controls: the project config ${p.file} changed since you last let it ` +
    `loosen your global policy. It sets: ${p.loosens.join(", ")}. Apply it?`;
  return { project: p, question };
}

/** The user's answer to a {@linkcode TrustQuestion}: accepted, the text is pinned. */
export function settleProjectTrust(
  config: ExtensionConfig,
  p: ProjectConfig,
  accepted: boolean,
): void {
  if (accepted) pin(config, p);
  config.reviewed.set(p.hash, accepted);
}

/**
 * After the user saved an approval into a config: an accepted project config stays accepted with
 * the change (`before` and `after` are the project config around the write).
 */
export function keepAccepted(
  config: ExtensionConfig,
  before: ProjectConfig | null | undefined,
  after: ProjectConfig | null | undefined,
): void {
  if (after && before && after.file === before.file && config.reviewed.get(before.hash)) {
    config.reviewed.set(after.hash, true);
    pin(config, after);
  }
}

/** What the footer and `/controls` say of the project config's trust (null: nothing to say). */
export function trustText(
  config: ExtensionConfig,
  v: ConfigView,
  folderTrusted: (p: ProjectConfig) => boolean,
): string | null {
  const p = v.project;
  if (!p || !v.base) return null;
  if (p.loosens.length === 0) return `project config ${p.file}: only tightens`;
  const trusted = folderTrusted(p) && config.reviewed.get(p.hash) !== false;
  return trusted
    ? `project config ${p.file}: trusted, merged over the global config`
    : `project config ${p.file}: not trusted, it can only tighten the global policy`;
}

/** The policy of a cwd for the footer: its location's policy, or what stands in for one. */
export function cwdPolicy(config: ExtensionConfig, cwd: string, ctx: Context): string {
  const l = viewOf(config, cwd).load;
  if (l.status === "absent") return "unconfigured";
  if (l.status === "error") return "config error";
  const p = locate(locationIndex(l.config, ctx), cwd);
  return p.policy ?? "unrestricted";
}

/** The global config file (`<agentDir>/extensions/pi-controls.jsonc`). */
export function globalConfigFile(config: ExtensionConfig): string {
  return join(config.agentDir, "extensions", "pi-controls.jsonc");
}

/** The config file an approval saved for the project or globally goes into. */
export function approvalFile(
  config: ExtensionConfig,
  where: "project" | "global",
  cwd: string,
): string {
  const found = discoverConfigFiles({ cwd, agentDir: config.agentDir });
  const existing = found.find((f) => f.role === where);
  if (existing) return existing.file;
  return where === "global"
    ? globalConfigFile(config)
    : join(cwd, ".pi", "extensions", "pi-controls.jsonc");
}

/** A path as the user would write it: `~/…` when it is inside the home directory. */
function tilde(config: ExtensionConfig, path: string): string {
  const h = config.home.replace(/\/+$/, "");
  return h && path.startsWith(h + "/") ? "~" + path.slice(h.length) : path;
}

/** One message the start-up shows. */
export interface StartupNote {
  message: string;
  type: "warning" | "error";
}

/**
 * What the start-up says of a view: the fields of its log line (`loaded` or `errors`) and the
 * messages to show (no config, a broken config, each warning).
 */
export function startupReport(
  config: ExtensionConfig,
  v: ConfigView,
): { line: Record<string, unknown>; notes: StartupNote[] } {
  const l = v.load;
  if (l.status === "absent") {
    return {
      line: { loaded: "0 policies, 0 locations, defaultPolicy=null" },
      notes: [{
        message: noConfigWarning(tilde(config, globalConfigFile(config))),
        type: "warning",
      }],
    };
  }
  if (l.status === "error") {
    return {
      line: { errors: l.errors.map(formatConfigError) },
      notes: [{
        message: `pi-controls: config error — every tool call is blocked until it is fixed:\n` +
          l.errors.map(formatConfigError).join("\n"),
        type: "error",
      }],
    };
  }
  const c = l.config;
  return {
    line: {
      loaded: `${Object.keys(c.policies).length} policies, ${c.locations.length} locations, ` +
        `defaultPolicy=${c.defaultPolicy}`,
    },
    notes: l.warnings.map((w) => ({
      message: `pi-controls: warning — ${formatConfigError(w)}`,
      type: "warning" as const,
    })),
  };
}
