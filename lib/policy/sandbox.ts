/**
 * The sandbox's boundaries, built from the config (RULINGS, "The sandbox action"): a place is
 * writable where the policy governing it would let pi's `write` tool proceed there; pathProtection
 * `deny` paths and places whose policy denies `read` are hidden; every other protected path, the
 * gate's own files and the files that run code later (git hooks and config, shell start-up files)
 * are read-only; the rest is readable. A pure function of the config and the filesystem facts: the
 * runner (lib/sandbox_runner.ts) turns it into bubblewrap's mounts, `explain` and
 * `pi-controls sandbox --print` show it.
 *
 * @example
 * ```ts
 * import { sandboxBoundaries } from "./sandbox.ts";
 * // const b = sandboxBoundaries(config, ctx); b.writable, b.readOnly, b.hidden
 * ```
 *
 * @module
 */
import { dirname, join } from "node:path";
import { decide } from "./engine.ts";
import { locationIndex } from "./locations.ts";
import { protectionPair } from "./protection.ts";
import { isWithin } from "../shell/paths.ts";
import { networkText, strictestNetwork } from "./sandbox_network.ts";
import type { Action, Config, Context, SandboxNetwork } from "../types.ts";

/** One place of the boundaries and why it is there. */
export interface SandboxPlace {
  /** The absolute path (symlinks followed, where it exists). */
  path: string;
  /** What put it there: a policy, a protection glob, the gate's own files, ... */
  why: string;
  /** Whether the path is a directory (false: a file, or it does not exist). */
  dir: boolean;
  /** Read-only places that do not exist yet: an empty read-only directory is made there. */
  absent?: true;
}

/** The boundaries of the sandbox for one cwd. */
export interface SandboxBoundaries {
  /** Places commands may write (the rest of the filesystem is read-only). */
  writable: SandboxPlace[];
  /** Places inside writable ones that stay read-only. */
  readOnly: SandboxPlace[];
  /** Places that cannot be read (an empty, read-only directory or file stands in for them). */
  hidden: SandboxPlace[];
  network: SandboxNetwork;
  /** What the boundaries cannot enforce (a glob over any depth, a path that may be created). */
  unenforced: string[];
  /**
   * False when a protected path may have been missed (the listing ran over its bounds): a call
   * the config sandboxes then asks.
   */
  complete: boolean;
}

/** How many directory entries a protection glob's listing may read. */
const MAX_ENTRIES = 50_000;

/**
 * Trees of installed or generated files the listing does not enter (a project's dependencies
 * alone can hold more entries than the bound): reported as not searched.
 */
const NOT_SEARCHED = new Set(["node_modules", ".git", ".venv", "__pycache__", ".tox", ".cache"]);

/** Actions of pi's write tool that let it proceed (a place is writable where they apply). */
const WRITES: ReadonlySet<Action> = new Set(["allow", "log", "nudge"]);

/**
 * Files in a writable place that run code later, outside the sandbox: git's hooks and config
 * (`core.fsmonitor`, `core.hooksPath`), and the shell's and git's start-up files in a home.
 */
const RUN_LATER_IN_PROJECT = [".git/hooks", ".git/config"];
const RUN_LATER_IN_HOME = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".gitconfig",
  ".config/git",
];

/** A name no protection glob is written for, to ask a policy about a place itself. */
const PROBE = "pi-controls-sandbox-probe";

/** The action pi's tool `tool` gets at `dir` under the config. */
function toolAction(config: Config, ctx: Context, tool: string, dir: string): Action {
  const call = { tool, input: { path: join(dir, PROBE), content: "" } };
  return decide(config, call, ctx, { parser: null }).action;
}

/** The sandbox's boundaries for the context's cwd. */
export function sandboxBoundaries(config: Config, ctx: Context): SandboxBoundaries {
  const fs = ctx.fs;
  const real = (p: string) => fs.realpath(p) ?? p;
  const isDir = (p: string) => fs.isDirectory?.(p) ?? false;
  const index = locationIndex(config, ctx);
  // Every place a location or the default policy governs, outermost first.
  const dirs = [...new Set(["/", ...index.entries.map((e) => real(e.dir))])]
    .sort((a, b) => a.length - b.length);
  const writable: SandboxPlace[] = [];
  const readOnly: SandboxPlace[] = [];
  const hidden: SandboxPlace[] = [];
  const unenforced: string[] = [];
  const policyOf = (dir: string) =>
    index.entries.find((e) => real(e.dir) === dir)?.policy ?? config.defaultPolicy;
  for (const dir of dirs) {
    if (dir !== "/" && !fs.exists(dir)) continue;
    const policy = policyOf(dir) ?? "no policy (fail-open)";
    const canWrite = WRITES.has(toolAction(config, ctx, "write", dir));
    const inWritable = writable.some((w) => isWithin(dir, w.path));
    if (toolAction(config, ctx, "read", dir) === "deny") {
      if (dir === "/") {
        // The system's programs and libraries must stay readable for anything to run.
        unenforced.push(`policy "${policy}" denies read outside every location: not hidden`);
        continue;
      }
      hidden.push({ path: dir, why: `policy "${policy}" denies read`, dir: isDir(dir) });
    } else if (canWrite) {
      writable.push({ path: dir, why: `policy "${policy}" allows write`, dir: true });
    } else if (inWritable) {
      readOnly.push({ path: dir, why: `policy "${policy}" does not allow write`, dir: true });
    }
  }
  const lists = { writable, readOnly, hidden, unenforced, complete: true };
  protectedPlaces(config, ctx, lists);
  runLater(ctx, writable, readOnly);
  return {
    writable,
    readOnly: dedupe(readOnly),
    hidden: dedupe(hidden),
    network: config.sandbox?.network ?? "unrestricted",
    unenforced,
    complete: lists.complete,
  };
}

/** The first place of each path (an outer place covers what lies inside it). */
function dedupe(places: SandboxPlace[]): SandboxPlace[] {
  const out: SandboxPlace[] = [];
  for (const p of places) {
    if (!out.some((o) => o.path === p.path)) out.push(p);
  }
  return out;
}

interface Lists {
  writable: SandboxPlace[];
  readOnly: SandboxPlace[];
  hidden: SandboxPlace[];
  unenforced: string[];
  complete: boolean;
}

/**
 * The paths pathProtection and the gate's own files name: each glob's literal directory is
 * listed (an absolute glob), or the cwd's tree (a glob of any depth, `.env`, `.pi/extensions`),
 * within bounds; the top-most path each match covers is hidden (`deny`) or read-only.
 */
function protectedPlaces(config: Config, ctx: Context, lists: Lists): void {
  const roots = new Set<string>();
  let anyDepth = false;
  for (const e of config.pathProtection) {
    const glob = e.glob.startsWith("~/") ? join(ctx.home, e.glob.slice(2)) : e.glob;
    if (glob.startsWith("/") || e.base !== null) {
      const abs = glob.startsWith("/") ? glob : join(e.base!, glob);
      const literal = abs.slice(0, abs.search(/[*?[]|$/));
      roots.add(literal.endsWith("/") ? literal.slice(0, -1) || "/" : literal);
    } else {
      anyDepth = true;
      // A literal path of any depth (`.pi/extensions`) where pi looks for it: in the cwd and
      // every directory above it (a missing one may be created there).
      if (glob.includes("/") && !/[*?[]/.test(glob)) {
        for (let d = ctx.cwd;; d = dirname(d)) {
          roots.add(join(d, glob));
          if (d === dirname(d)) break;
        }
      }
    }
  }
  if (anyDepth) roots.add(ctx.cwd);
  let budget = MAX_ENTRIES;
  const skipped = new Set<string>();
  const visit = (path: string): void => {
    let pair = protectionPair(config, path, ctx.home);
    // A glob of everything below a directory (`~/.ssh/**`) covers the directory as a whole.
    if (!pair.write && !pair.read && ctx.fs.isDirectory?.(path)) {
      const below = protectionPair(config, join(path, PROBE), ctx.home);
      const glob = (below.write ?? below.read)?.glob;
      if (glob && /\/\*\*$/.test(glob) && !/[*?[]/.test(glob.slice(0, -3))) pair = below;
    }
    const hit = pair.write ?? pair.read;
    if (hit) {
      place(ctx, lists, path, hit.action === "deny" && pair.read !== null, hit.glob);
      return;
    }
    const entries = ctx.fs.entries?.(path);
    if (!entries) return;
    for (const d of entries) {
      if (--budget < 0) return;
      if (d.dir && !d.link && NOT_SEARCHED.has(d.name)) skipped.add(d.name);
      else if (d.dir && !d.link) visit(join(path, d.name));
      else if (!d.dir || d.link) {
        const child = join(path, d.name);
        const p = protectionPair(config, child, ctx.home);
        const h = p.write ?? p.read;
        if (h) place(ctx, lists, child, h.action === "deny" && p.read !== null, h.glob);
      }
    }
  };
  for (const root of roots) {
    if (ctx.fs.exists(root)) visit(root);
    else absentPlace(config, ctx, lists, root);
  }
  if (skipped.size) {
    lists.unenforced.push(
      `protection globs of any depth were not searched for in ${[...skipped].join(", ")}`,
    );
  }
  if (budget < 0) {
    lists.complete = false;
    lists.unenforced.push(
      `protected paths beyond the first ${MAX_ENTRIES} entries listed were not found`,
    );
  }
  if (anyDepth) {
    lists.unenforced.push(
      'a protection glob of any depth (".env", "*.pem") covers only the matches below the ' +
        "cwd that exist when the command starts; new ones may be created where writing is allowed",
    );
  }
}

/** A protected path that exists: hidden or read-only (read-only only matters where writable). */
function place(ctx: Context, lists: Lists, path: string, hide: boolean, glob: string): void {
  const real = ctx.fs.realpath(path) ?? path;
  const dir = ctx.fs.isDirectory?.(real) ?? false;
  if (hide) lists.hidden.push({ path: real, why: `pathProtection "${glob}" (deny)`, dir });
  else if (lists.writable.some((w) => isWithin(real, w.path))) {
    lists.readOnly.push({ path: real, why: `protected: "${glob}"`, dir });
  }
}

/**
 * A protected path that does not exist, inside a writable place. A missing directory with
 * something protected below it (`.pi` of `.pi/extensions`) is made as an empty read-only one;
 * a missing name of the gate's own files in a directory of pi's (`.pi/settings.json`, the agent
 * dir's `models.json`) makes that directory read-only; any other missing name may be created
 * (reported as not enforced: a file name cannot be held without making the file).
 */
function absentPlace(config: Config, ctx: Context, lists: Lists, path: string): void {
  const w = lists.writable.find((w) => isWithin(path, w.path));
  if (!w) return;
  const pair = protectionPair(config, path, ctx.home);
  const found = pair.write ?? pair.read;
  const glob = found?.glob ?? path;
  let missing = path;
  let parent = dirname(path);
  while (!ctx.fs.exists(parent) && parent !== dirname(parent)) {
    missing = parent;
    parent = dirname(parent);
  }
  const real = ctx.fs.realpath(parent) ?? parent;
  const why = `protected: "${glob}" (not there yet)`;
  if (missing !== path) {
    const at = join(real, missing.slice(parent.length + 1));
    lists.readOnly.push({ path: at, why, dir: true, absent: true });
  } else if (
    found?.builtin && !lists.writable.some((x) => x.path === real) && !isWithin(ctx.cwd, real)
  ) {
    lists.readOnly.push({ path: real, why, dir: true });
  } else lists.unenforced.push(`${path} (protected: "${glob}") may be created`);
}

/** Files that run code later, read-only where they lie in a writable place. */
function runLater(ctx: Context, writable: SandboxPlace[], readOnly: SandboxPlace[]): void {
  const candidates = [
    ...RUN_LATER_IN_PROJECT.map((p) => join(ctx.cwd, p)),
    ...RUN_LATER_IN_HOME.map((p) => join(ctx.home, p)),
  ];
  for (const path of candidates) {
    const real = ctx.fs.realpath(path);
    if (real === null || !writable.some((w) => isWithin(real, w.path))) continue;
    readOnly.push({
      path: real,
      why: "runs code later, outside the sandbox",
      dir: ctx.fs.isDirectory?.(real) ?? false,
    });
  }
}

/**
 * The boundaries of two configs together, the stricter of each (an untrusted project config is
 * held to the global one): writable where both let write, read-only and hidden where either says.
 */
export function strictestBoundaries(a: SandboxBoundaries, b: SandboxBoundaries): SandboxBoundaries {
  const within = (x: SandboxPlace, ys: SandboxPlace[]) => ys.some((y) => isWithin(x.path, y.path));
  return {
    writable: dedupe([
      ...a.writable.filter((w) => within(w, b.writable)),
      ...b.writable.filter((w) => within(w, a.writable)),
    ]),
    readOnly: dedupe([...a.readOnly, ...b.readOnly]),
    hidden: dedupe([...a.hidden, ...b.hidden]),
    network: strictestNetwork(a.network, b.network),
    unenforced: [...new Set([...a.unenforced, ...b.unenforced])],
    complete: a.complete && b.complete,
  };
}

/** The boundaries as lines for a person (`explain`, `pi-controls sandbox --print`). */
export function renderBoundaries(b: SandboxBoundaries): string {
  const out = ["sandbox boundaries (bubblewrap): everything is readable and read-only, except"];
  const list = (title: string, places: SandboxPlace[]) => {
    out.push(`  ${title}:${places.length ? "" : " (none)"}`);
    for (const p of places) out.push(`    ${p.path}${p.dir ? "/" : ""}  (${p.why})`);
  };
  list("writable", b.writable);
  list("read-only inside them", b.readOnly);
  list("hidden (cannot be read)", b.hidden);
  out.push(`  network: ${networkText(b.network)}`);
  for (const u of b.unenforced) out.push(`  not enforced: ${u}`);
  return out.join("\n");
}
