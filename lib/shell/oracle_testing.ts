/**
 * What the tests that hold the analysis to bash itself share: generated lines of statements, each
 * run by bash as a script of its own, and the complete analyses of a command to compare.
 *
 * @module
 */
import { walkedAnalysis } from "./analyze.ts";
import type { BashAnalysis, BashEnv } from "./model.ts";
import { loadBashParser } from "./parser.ts";
import { plainAnalysis } from "./plain_analysis.ts";
import { runBash } from "./testing.ts";

const parser = await loadBashParser();

/** A generated line, and the heredoc bodies its `<<E` heredocs read (to follow it). */
export interface Line {
  line: string;
  bodies: string;
}

/**
 * `count` lines of one to five statements of `pool` joined by operators of `ops`, each `REC` in a
 * line replaced by `record(line, k)` (its k-th recorder).
 */
export function generatedLines(
  random: () => number,
  opts: { count: number; pool: string[]; ops: string[]; record?: (n: number, k: number) => string },
): Line[] {
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const out: Line[] = [];
  for (let n = 0; n < opts.count; n++) {
    let line = pick(opts.pool);
    for (let k = Math.floor(random() * 5); k > 0; k--) line += pick(opts.ops) + pick(opts.pool);
    let k = 0;
    if (opts.record) line = line.replaceAll("REC", () => opts.record!(n, k++));
    out.push(withBodies(line));
  }
  return out;
}

/** A line with the bodies its `<<E` heredocs read. */
export function withBodies(line: string): Line {
  return { line, bodies: "x\nE\n".repeat(line.split("<<E").length - 1) };
}

/**
 * Run each script in `dir` by bash, one process each (a script bash cannot read fails alone),
 * standard streams closed.
 */
export async function runScripts(
  dir: string,
  scripts: string[],
  env: Record<string, string> = {},
): Promise<void> {
  for (let i = 0; i < scripts.length; i++) await Deno.writeTextFile(`${dir}/${i}.sh`, scripts[i]);
  await runBash(scripts.map((_, i) => `bash ${i}.sh </dev/null >/dev/null 2>&1\n`).join(""), {
    cwd: dir,
    env: { LC_ALL: "C", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env },
  });
}

/** How many analyses a comparison looked at, and how many it passed over as not fully analysed. */
export interface Tally {
  compared: number;
  unread: number;
}

/**
 * The complete analyses of a command, the walk's and the shortcut's (when it reads it), by name;
 * one not fully analysed is passed over (the gate asks about such a command) and counted.
 */
export function analysesOf(
  command: string,
  env: Omit<BashEnv, "carriesCommand">,
  tally: Tally,
): [string, BashAnalysis][] {
  const full = { ...env, carriesCommand: () => false };
  const out: [string, BashAnalysis][] = [];
  for (
    const [by, a] of [["walk", walkedAnalysis(command, full, parser)], [
      "shortcut",
      plainAnalysis(command, full),
    ]] as const
  ) {
    if (!a) continue;
    if (a.error) tally.unread++;
    else {
      tally.compared++;
      out.push([by, a]);
    }
  }
  return out;
}
