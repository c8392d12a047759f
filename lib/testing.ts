/**
 * Helpers shared by the tests: a config from text, a context on a fake filesystem.
 *
 * @module
 */
import { loadBashParser } from "./shell/parser.ts";
import { HELD } from "./shell/testing.ts";
import { formatConfigError, loadConfigTexts } from "./config.ts";
import { decide } from "./policy/engine.ts";
import { gateFileEntries } from "./gate_files.ts";
import { fakeFs } from "./policy/fs_facts.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import type { Action, Config, Context, Verdict } from "./types.ts";

// Seeded fuzzing and running bash: the shell layer's tests use them too, from below.
export { fuzzSeed, linesThatRan, runBash, seededRandom } from "./shell/testing.ts";

/** Load a config from JSON text or an object; throws with the errors when it does not validate. */
export function configFrom(
  src: string | object,
  opts: { root?: string; home?: string; agentDir?: string } = {},
): Config {
  const text = typeof src === "string" ? src : JSON.stringify(src);
  const loaded = loadConfigTexts(
    [{ file: "test.jsonc", text, role: "project", root: opts.root ?? null }],
    {
      home: opts.home ?? "/home/user",
      // With an agent dir: the built-in protection of the gate's files, as pi loads config.
      builtins: opts.agentDir ? gateFileEntries({ agentDir: opts.agentDir }) : undefined,
    },
  );
  if (loaded.status !== "ok") {
    throw new Error(
      loaded.status === "error" ? loaded.errors.map(formatConfigError).join("\n") : "absent",
    );
  }
  return loaded.config;
}

/** A context in `cwd` on a fake filesystem with the given files and symlinks. */
export function ctxIn(
  cwd: string,
  opts: {
    files?: string[];
    links?: Record<string, string>;
    /** Files and their text (`readText`). */
    contents?: Record<string, string>;
    /** Files and their bytes (`readBytes`). */
    bytes?: Record<string, Uint8Array>;
    home?: string;
    env?: Record<string, string>;
  } = {},
): Context {
  const home = opts.home ?? "/home/user";
  return {
    cwd,
    home,
    // (Names tests read as values not known: held, not unset.)
    env: { HOME: home, ...HELD, ...opts.env },
    fs: fakeFs({
      files: opts.files,
      links: opts.links,
      contents: opts.contents,
      bytes: opts.bytes,
    }),
  };
}

/** Decide a call with the real parser. */
export async function decideIn(
  config: Config,
  ctx: Context,
  tool: string,
  input: Record<string, unknown>,
): Promise<Verdict> {
  return decide(config, { tool, input }, ctx, { parser: await loadBashParser() });
}

/** Decide a bash command. */
export function bash(config: Config, ctx: Context, command: string): Promise<Verdict> {
  return decideIn(config, ctx, "bash", { command });
}

/** Check the action of each `[command, action]` under `config` in `ctx` (every wrong one listed). */
export async function checkActions(
  config: Config,
  ctx: Context,
  rows: readonly (readonly [string, Action])[],
): Promise<void> {
  const wrong: string[] = [];
  for (const [command, want] of rows) {
    const got = (await bash(config, ctx, command)).action;
    if (got !== want) {
      wrong.push(`${JSON.stringify(command.slice(0, 100))} got ${got}, want ${want}`);
    }
  }
  assert.deepEqual(wrong, []);
}

/**
 * The bytes of a git index (version 2, SHA-1) listing `paths` (as `ctxIn`'s `bytes` take them at
 * `…/.git/index`), for tests of what git tracks.
 */
export function gitIndexBytes(paths: string[]): Uint8Array {
  const encoder = new TextEncoder();
  const entries = [...paths].sort().map((p) => {
    const name = encoder.encode(p);
    const entry = new Uint8Array((62 + name.length + 8) & ~7);
    const view = new DataView(entry.buffer);
    view.setUint32(24, 0o100644);
    view.setUint16(60, Math.min(name.length, 0xfff));
    entry.set(name, 62);
    return entry;
  });
  const size = 12 + entries.reduce((n, e) => n + e.length, 0) + 20;
  const out = new Uint8Array(size);
  out.set(encoder.encode("DIRC"));
  const view = new DataView(out.buffer);
  view.setUint32(4, 2);
  view.setUint32(8, entries.length);
  let at = 12;
  for (const e of entries) {
    out.set(e, at);
    at += e.length;
  }
  return out;
}

/**
 * Whether real git runs here: tests that build a repository with it are skipped where it does not
 * (the Nix build sandbox has none).
 */
export const HAS_GIT: boolean = (() => {
  try {
    return spawnSync("git", ["--version"]).status === 0;
  } catch {
    return false;
  }
})();

/**
 * Allow by default, with `secrets/**` and `~/.ssh/**` denied and `.env` asked about: the config
 * the git tests judge what git shows and stores under (with `agentDir`, the gate's own files
 * built in, as in pi).
 */
export function secretsDenied(home: string, opts: { agentDir?: string } = {}): Config {
  return configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { ".env": "ask", "~/.ssh/**": "deny", "secrets/**": "deny" },
  }, { home, ...opts });
}

/**
 * Allow by default with `rm *` denied (and `curl *` where `curl`), `.env` asked about and
 * `secrets/**` denied (and `~/.ssh/**` where `ssh`), the gate's own files built in (pi's agent dir
 * in `home`): the config the program modules' tests judge the files their options name and the
 * commands they run under.
 */
export function rmDenied(home: string, opts: { ssh?: boolean; curl?: boolean } = {}): Config {
  const protection: Record<string, string> = { ".env": "ask", "secrets/**": "deny" };
  if (opts.ssh) protection["~/.ssh/**"] = "deny";
  const rules = [{ action: "deny", tool: "bash", pattern: "rm *" }];
  if (opts.curl) rules.push({ action: "deny", tool: "bash", pattern: "curl *" });
  return configFrom({
    policies: { open: { defaultAction: "allow", rules } },
    locations: { "/": "open" },
    pathProtection: protection,
  }, { agentDir: `${home}/.pi/agent`, home });
}

/** Run git in `dir` (`env` added to its environment); its output. A failure throws. */
export function runGit(dir: string, args: readonly string[], env?: Record<string, string>): string {
  const out = spawnSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: env ? { ...process.env, ...env } : process.env,
  });
  if (out.status !== 0) throw new Error(`git ${args.join(" ")}: ${out.stderr}`);
  return out.stdout;
}

/** A temporary git repository for tests that run real git (see `HAS_GIT`). */
export interface TempRepository {
  dir: string;
  /** Run git there (`env` added to its environment); its output. A failure throws. */
  git(...args: string[]): string;
  /** Write files there (relative paths), each holding `content` (default: its name). */
  write(files: readonly string[], content?: string): void;
  /**
   * Write `files` (as `write` does), stage everything in the work tree (`add -f .`) and commit
   * it on the branch checked out as `message`.
   */
  commit(message: string, files?: readonly string[], content?: string): void;
  remove(): void;
}

/**
 * A new repository (`git init` with `init`'s options) holding `files`: not added, or committed
 * as `commit` says (its message).
 */
export function tempRepository(
  files: readonly string[] = [],
  opts: { init?: string[]; env?: Record<string, string>; commit?: string } = {},
): TempRepository {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-git-"));
  const repo: TempRepository = {
    dir,
    git: (...args) => runGit(dir, args, opts.env),
    write(names, content) {
      for (const f of names) {
        mkdirSync(join(dir, dirname(f)), { recursive: true });
        writeFileSync(join(dir, f), content ?? f);
      }
    },
    commit(message, files = [], content) {
      repo.write(files, content);
      repo.git("add", "-f", ".");
      repo.git("commit", "-qm", message);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  repo.git("init", "-q", ...(opts.init ?? []));
  repo.write(files);
  if (opts.commit !== undefined) repo.commit(opts.commit);
  return repo;
}
