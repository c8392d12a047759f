/**
 * What a decision costs in instructions and cache misses, counted by valgrind's cachegrind instead
 * of timed: `deno task bench:cachegrind`. Counts do not drift with the machine's load, so a change
 * that makes decisions touch less code or data shows here even when `bench:ab` cannot tell it.
 *
 * Every 20th corpus command is decided (and, apart, parsed bare) in 3 passes and in 5 under a
 * simulated cache of this project's build machine (32 KB L1i, 48 KB L1d, 2 MB L2 as the last
 * level); the difference of the two runs, over the commands of two passes, is the steady cost of
 * one decision with V8's compiled code settled (compilation is made synchronous, so that valgrind's
 * slowness does not delay it). Parses run in WebAssembly's tiers as valgrind lets them, so their
 * instruction counts are not comparable; their misses are. Takes about ten minutes.
 *
 * @example
 * ```sh
 * deno task bench:cachegrind
 * ```
 *
 * @module
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const STEP = 20;
const FEW = 3;
const MORE = 5;
const root = new URL("..", import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), "pi-controls-cachegrind-"));

/** The event totals of one run under cachegrind (its out file's summary line). */
async function totals(mode: string, passes: number): Promise<number[]> {
  const file = join(out, `${mode}.${passes}`);
  const run = await new Deno.Command("valgrind", {
    args: [
      "--tool=cachegrind",
      "--cache-sim=yes",
      "--smc-check=all-non-file",
      "--I1=32768,8,64",
      "--D1=49152,12,64",
      "--LL=2097152,16,64",
      `--cachegrind-out-file=${file}`,
      Deno.execPath(),
      "run",
      "--allow-all",
      "--v8-flags=--no-concurrent-recompilation,--no-concurrent-sparkplug",
      join(root, "bench/cachegrind_run.ts"),
      String(passes),
      mode,
      String(STEP),
    ],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!run.success) {
    throw new Error(
      `valgrind (${mode}, ${passes} passes) failed:\n${new TextDecoder().decode(run.stderr)}`,
    );
  }
  const summary = readFileSync(file, "utf8").split("\n").find((l) => l.startsWith("summary:"));
  if (!summary) throw new Error(`no summary in ${file}`);
  return summary.slice("summary:".length).trim().split(/\s+/).map(Number);
}

try {
  const which = new Deno.Command("valgrind", {
    args: ["--version"],
    stdout: "null",
    stderr: "null",
  });
  if (!(await which.output().catch(() => ({ success: false }))).success) {
    throw new Error("valgrind is not installed (Debian: apt-get install valgrind)");
  }
  const commands = readFileSync(join(root, "testdata/corpus/nl2bash.txt"), "utf8").split("\n")
    .filter((l) => l.trim()).filter((_, i) => i % STEP === 0).length;
  const per = commands * (MORE - FEW);
  const rows: string[] = [];
  for (const mode of ["decide", "parse"]) {
    // (Two runs at once: one per core.)
    const [few, more] = await Promise.all([totals(mode, FEW), totals(mode, MORE)]);
    // Events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw.
    const d = more.map((v, i) => (v - few[i]) / per);
    const k = (x: number) => x >= 10_000 ? `${(x / 1000).toFixed(0)}k` : x.toFixed(0);
    rows.push(
      `${mode.padEnd(7)} ${k(d[0]).padStart(8)} ${k(d[1]).padStart(10)} ${k(d[2]).padStart(10)} ${
        k(d[4] + d[7]).padStart(10)
      } ${k(d[5] + d[8]).padStart(10)}`,
    );
  }
  console.log(`Per command, over ${per} commands (every ${STEP}th of the corpus, 2 passes):`);
  console.log(
    `${"".padEnd(7)} ${"instr".padStart(8)} ${"L1i miss".padStart(10)} ${"L2i miss".padStart(10)} ${
      "L1d miss".padStart(10)
    } ${"L2d miss".padStart(10)}`,
  );
  console.log(rows.join("\n"));
} finally {
  rmSync(out, { recursive: true, force: true });
}
