/**
 * The config as the files are now, and the project's trust applied to it.
 *
 * Every decision asks {@linkcode ConfigWatcher.current}: a stat of each config file (device,
 * inode, size, times) and of the `.pi/extensions` directories discovery walks; the files are read
 * again only when one of those changed. An untrusted project config can only tighten: each call
 * gets the most restrictive of its verdict under the global config alone and under the merged one.
 *
 * @module
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { discoverConfigFiles, loadConfig, type LoadResult } from "./config.ts";
import { decide, type DecideOptions } from "./policy/engine.ts";
import { racilyClean } from "./policy/fs_facts.ts";
import { strictestNetwork } from "./policy/sandbox_network.ts";
import { RESTRICTIVENESS } from "./policy/action.ts";
import { contentHash, loosening } from "./trust.ts";
import type { Config, ConfigError, Context, ToolCall, Verdict } from "./types.ts";

const CONFIG_NAMES = ["pi-controls.jsonc", "pi-controls.json"];

/** The project config file in a view, and what it could loosen. */
export interface ProjectConfig {
  file: string;
  /** The folder the config belongs to (the one holding `.pi/`). */
  root: string;
  /** sha256 of its text. */
  hash: string;
  /** What it sets that can loosen the global policy (empty: it can only tighten). */
  loosens: string[];
}

/** The config of one place, as the files are now. */
export interface ConfigView {
  /** Global and project merged (or exactly the files given). */
  load: LoadResult;
  /** The global config alone, when a project config is merged over one (else null). */
  base: LoadResult | null;
  /** The project config merged in, if any. */
  project: ProjectConfig | null;
  /** The stat signature the view was read at. */
  signature: string;
}

/** Where a watcher looks. */
export interface WatchOptions {
  home: string;
  agentDir: string;
  /** Exactly these files (`--config`); absent: discovery from the cwd. @default undefined */
  files?: string[];
  /** pi-controls' own code file (protected as one of the gate's files). @default undefined */
  codeFile?: string;
}

/** Reads config when its files change. */
export interface ConfigWatcher {
  /** The view for a cwd: re-read when a stat says a file changed, appeared or went away. */
  current(cwd: string): ConfigView;
  /** Forget what was read (the next call reads the files again). */
  reset(): void;
}

/** A view kept for a cwd, with what it was read from. */
interface Kept {
  view: ConfigView;
  /**
   * While the files changed too recently for their stamps to tell a rewrite (`racilyClean`):
   * their text when the view was read.
   */
  racy?: { files: string[]; text: string; newest: number };
}

/** A watcher over the config files of any cwd. */
export function configWatcher(opts: WatchOptions): ConfigWatcher {
  const views = new Map<string, Kept>();
  return {
    current(cwd: string): ConfigView {
      const stamps = new Stamps();
      const signature = opts.files
        ? opts.files.map((f) => stamps.of(resolve(cwd, f))).join("|")
        : discoverySignature(cwd, opts.agentDir, stamps);
      const known = views.get(cwd);
      if (known && known.view.signature === signature) {
        if (!known.racy) return known.view;
        if (textOf(known.racy.files) === known.racy.text) {
          // Seen unchanged at a time no later write can share the files' stamps: stamps suffice.
          if (!racilyClean(known.racy.newest)) known.racy = undefined;
          return known.view;
        }
      }
      // (The text is taken before the view: a write between the two reads it again next time.)
      const racy = racilyClean(stamps.newest)
        ? { files: stamps.files, text: textOf(stamps.files), newest: stamps.newest }
        : undefined;
      const view = readView(cwd, opts, signature);
      if (views.size > 64) views.clear();
      views.set(cwd, { view, racy });
      return view;
    },
    reset() {
      views.clear();
    },
  };
}

/** The stamps of one look at the config files: which files, and the newest change among them. */
class Stamps {
  files: string[] = [];
  newest = 0;

  /** A file's identity and version: device, inode, size and times; "-" when it is not there. */
  of(path: string): string {
    const s = statSync(path, { throwIfNoEntry: false, bigint: false });
    if (!s) return "-";
    this.files.push(path);
    this.newest = Math.max(this.newest, s.mtimeMs, s.ctimeMs);
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.isFile() ? "f" : "o"}`;
  }
}

/** The files' text, one after another ("" for one that cannot be read). */
function textOf(files: string[]): string {
  return files.map((f) => {
    try {
      return readFileSync(f, "utf8");
    } catch {
      return "";
    }
  }).join("\0");
}

/** The stamps discovery depends on: the global files, and each `.pi/extensions` up to a project file. */
function discoverySignature(cwd: string, agentDir: string, stamps: Stamps): string {
  const global = join(resolve(agentDir), "extensions");
  let sig = CONFIG_NAMES.map((n) => stamps.of(join(global, n))).join(",");
  let dir = resolve(cwd);
  for (;;) {
    const ext = join(dir, ".pi", "extensions");
    const d = statSync(ext, { throwIfNoEntry: false });
    if (d?.isDirectory()) {
      const files = CONFIG_NAMES.map((n) => stamps.of(join(ext, n)));
      sig += `;${files.join(",")}`;
      if (files.some((f) => f !== "-" && f.endsWith(":f"))) break;
    } else sig += ";";
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return sig;
}

function readView(cwd: string, opts: WatchOptions, signature: string): ConfigView {
  const base = { cwd, home: opts.home, agentDir: opts.agentDir, codeFile: opts.codeFile };
  const load = loadConfig({ ...base, files: opts.files });
  const refs = opts.files ? null : discoverConfigFiles({ cwd, agentDir: opts.agentDir });
  const projectRef = refs?.find((r) => r.role === "project");
  const globalRef = refs?.find((r) => r.role === "global");
  let project: ProjectConfig | null = null;
  if (projectRef) {
    let text = "";
    try {
      text = readFileSync(projectRef.file, "utf8");
    } catch {
      // Unreadable: the load above fails closed on it.
    }
    project = {
      file: projectRef.file,
      root: projectRef.root!,
      hash: contentHash(text),
      loosens: loosening(text),
    };
  }
  const globalAlone = projectRef && globalRef
    ? loadConfig({ ...base, files: [globalRef.file] })
    : null;
  return { load, base: globalAlone, project, signature };
}

/** The errors that block every call of a view: its own, or the global config's alone. */
export function blockingErrors(view: ConfigView): ConfigError[] {
  if (view.load.status === "error") return view.load.errors;
  if (view.base?.status === "error") return view.base.errors;
  return [];
}

/** How the project config of a view is treated. */
export interface TrustState {
  /** Whether the project config may loosen the global policy. */
  trusted: boolean;
}

const untrustedConfigs = new WeakMap<Config, Config>();

/**
 * The config decisions use: the merged one, except that an untrusted project cannot change the
 * session settings (agentTimeout, nudgeTimeout, decisions): those are the global config's.
 * `base` is set when each call must also be decided under the global config alone.
 */
export function effectiveConfig(
  view: ConfigView,
  trust: TrustState,
): { config: Config; base: Config | null } | null {
  if (view.load.status !== "ok") return null;
  const merged = view.load.config;
  if (trust.trusted || !view.project || view.project.loosens.length === 0) {
    return { config: merged, base: null };
  }
  // The global config alone does not load (it names a policy only the project defines): an
  // untrusted project cannot be held to it, so every call fails closed (blockingErrors).
  if (!view.base) return { config: merged, base: null }; // no global config: nothing to loosen
  if (view.base.status !== "ok") return null;
  const base = view.base.config;
  let config = untrustedConfigs.get(merged);
  if (!config) {
    config = {
      ...merged,
      agentTimeout: base.agentTimeout,
      nudgeTimeout: base.nudgeTimeout,
      decisions: base.decisions,
      // (Whether the sandbox is on is the global config's too; its network the stricter of the
      // two: the project may narrow it, not widen it.)
      sandbox: base.sandbox && {
        ...base.sandbox,
        network: strictestNetwork(base.sandbox.network, merged.sandbox?.network ?? "unrestricted"),
      },
    };
    untrustedConfigs.set(merged, config);
  }
  return { config, base };
}

/**
 * Decide a call under an effective config: with a `base`, the most restrictive of the verdicts
 * under the global config alone and under the merged one (the merged one at equal
 * restrictiveness), marked when the untrusted project's verdict was overruled.
 */
export function decideEffective(
  eff: { config: Config; base: Config | null },
  call: ToolCall,
  ctx: Context,
  opts: DecideOptions & { project?: string },
): Verdict {
  const merged = decide(eff.config, call, ctx, opts);
  if (!eff.base) return merged;
  const alone = decide(eff.base, call, ctx, opts);
  const overruled = RESTRICTIVENESS[alone.action] > RESTRICTIVENESS[merged.action];
  const v = overruled ? alone : merged;
  v.trust = {
    project: opts.project ?? "",
    trusted: false,
    overruled,
    ...(overruled ? { projectAction: merged.action } : {}),
  };
  return v;
}
