/**
 * What the benchmarks share without loading the engine (so `ab.ts` can load two versions of it
 * apart): the NL2Bash corpus they decide, and the median they report.
 *
 * @module
 */
import { readFileSync } from "node:fs";

/** The repository's root directory (with a trailing slash). */
export const ROOT = new URL("..", import.meta.url).pathname;

/** The NL2Bash corpus (testdata/corpus/nl2bash.txt), one command a line, blank lines left out. */
export function nl2bash(): string[] {
  return readFileSync(`${ROOT}testdata/corpus/nl2bash.txt`, "utf8").split("\n").filter((l) =>
    l.trim()
  );
}

/** The middle value of `xs` (the upper of the two middle ones for an even count). */
export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}
