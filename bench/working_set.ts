/**
 * How much of a decision's time is the memory it touches: `deno task bench:working-set`. A sample
 * of the corpus (every 40th command) is decided twelve times per command in a row, each time with
 * fresh padding (a fresh analysis), and its bare parse likewise; before each, nothing else runs, or
 * 1 MB or 4 MB of other memory is read and written (which pushes the decision's code and data out of
 * the core's caches, as deciding the rest of the corpus does), or another corpus command is decided.
 * Prints the median over commands of each command's median, for the decision and the parse. A
 * change that makes decisions touch less shows as a smaller gap between the first row and the
 * others; `bench:ab` tells whether the corpus as a whole got faster.
 *
 * @example
 * ```sh
 * deno task bench:working-set
 * ```
 *
 * @module
 */
import { decide } from "../lib/policy/engine.ts";
import { loadBashParser } from "../lib/shell/parser.ts";
import { median, nl2bash, ROOT } from "./corpus.ts";
import { BENCH_CONFIG, benchContext } from "./fixture.ts";

const corpus = nl2bash();
const parser = await loadBashParser();
const ctx = benchContext(ROOT);
const decideOne = (command: string) =>
  decide(BENCH_CONFIG, { tool: "bash", input: { command } }, ctx, { parser });
// Two passes over the corpus first: V8's code settles and the path answers are remembered.
for (const pad of [" ", "  "]) for (const c of corpus) decideOne(c + pad);

const memory = new Float64Array(1 << 19); // 4 MB
let touched = 0;
/** Read and write every cache line of `bytes` of memory. */
function touch(bytes: number): void {
  for (let i = 0; i < bytes / 8; i += 8) touched += memory[i]++;
}
let other = 0;
const before: [string, () => void][] = [
  ["nothing", () => {}],
  ["1 MB of other memory", () => touch(1 << 20)],
  ["4 MB of other memory", () => touch(1 << 22)],
  ["another command's decision", () => decideOne(corpus[(other += 7919) % corpus.length] + "   ")],
];
const sample = corpus.filter((_, i) => i % 40 === 0);
const rows: string[] = [];
for (const [label, run] of before) {
  const decisions: number[] = [];
  const parses: number[] = [];
  for (const c of sample) {
    const d: number[] = [];
    const p: number[] = [];
    for (let r = 0; r < 12; r++) {
      const command = c + " ".repeat(r + 5);
      run();
      let t = performance.now();
      decideOne(command);
      d.push(performance.now() - t);
      run();
      t = performance.now();
      parser.parse(command)!.delete();
      p.push(performance.now() - t);
    }
    // (The first four settle the command's own caches.)
    decisions.push(median(d.slice(4)));
    parses.push(median(p.slice(4)));
  }
  const dm = median(decisions) * 1000;
  const pm = median(parses) * 1000;
  rows.push(
    `${label.padEnd(28)} decision ${dm.toFixed(1).padStart(6)} µs   parse ${
      pm.toFixed(1).padStart(6)
    } µs   ${(dm / pm).toFixed(2)}x`,
  );
}
console.log(`Before each of ${sample.length} commands' decisions and parses (12 each):`);
console.log(rows.join("\n"));
if (touched < 0) console.log(touched); // (keeps the touching from being optimised away)
