/**
 * Helpers for tests that generate commands and hold the analysis to bash itself: a seeded random
 * generator, the fuzz seed, running a script in bash, and reading which lines of it ran. (Test
 * support: it runs bash through `Deno.Command`.) `lib/testing.ts` re-exports them.
 *
 * @module
 */

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

/**
 * Names the tests read as variables whose value is not known (a hostile value, a user's setting):
 * the environment of their contexts holds them, since a name it does not hold may be surely
 * unset (parameter_ops.ts).
 */
export const HELD: Readonly<Record<string, string>> = Object.fromEntries(
  [
    ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    ..."fmt pid cmd dir file out var name path code src dst arg args opts key val tmp url"
      .split(" "),
    ..."CMD CODE DIR FILE VAR OUT NAME URL KEY SRC DST ARGS OPTS TARGET PAYLOAD PROG SCRIPT BODY FMT KV VERSION CERT CA W KC"
      .split(" "),
  ].map((n) => [n, "held"]),
);
