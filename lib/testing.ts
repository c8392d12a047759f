/** Helpers shared by the tests: a config from text, a context on a fake filesystem. */
import { loadBashParser } from "./shell/parser.ts";
import { formatConfigError, loadConfigTexts } from "./config.ts";
import { decide } from "./policy/engine.ts";
import { gateFileEntries } from "./gate_files.ts";
import { fakeFs } from "./policy/fs_facts.ts";
import type { Config, Context, Verdict } from "./types.ts";

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
    home?: string;
    env?: Record<string, string>;
  } = {},
): Context {
  const home = opts.home ?? "/home/user";
  return {
    cwd,
    home,
    env: { HOME: home, ...opts.env },
    fs: fakeFs({ files: opts.files, links: opts.links }),
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

/** A seeded generator (mulberry32): the same sequence on every run. */
export function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of the generated tests: `PI_CONTROLS_FUZZ_SEED` when set, else `fallback`. */
export function fuzzSeed(fallback: number): number {
  return Number(Deno.env.get("PI_CONTROLS_FUZZ_SEED") ?? fallback);
}

let bashPath: Promise<string> | null = null;

/**
 * Run a script with `bash -s` in `cwd` and nothing but `env` in its environment (bash is found
 * on this process's PATH, so `env.PATH` may name no programs); resolves to its standard output.
 */
export async function runBash(
  script: string,
  opts: { cwd: string; env: Record<string, string> },
): Promise<string> {
  bashPath ??= new Deno.Command("bash", { args: ["-c", "command -v bash"] }).output()
    .then((o) => new TextDecoder().decode(o.stdout).trim());
  const child = new Deno.Command(await bashPath, {
    args: ["-s"],
    cwd: opts.cwd,
    env: opts.env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  return new TextDecoder().decode((await child.output()).stdout);
}

/**
 * The lines of a script in which a recorder ran: the script writes `M<i>` and a record separator
 * to the log before line `i`, the recorder writes `A` and one when it runs.
 */
export function linesThatRan(log: string): Set<number> {
  const ran = new Set<number>();
  let at = -1;
  for (const record of log.split("\x1e")) {
    const mark = /^M(\d+)$/.exec(record);
    if (mark) at = Number(mark[1]);
    else if (record === "A") ran.add(at);
  }
  return ran;
}
