/**
 * The run `bench/cachegrind.ts` watches under valgrind: `passes` passes over every `step`th corpus
 * command, each deciding it (`decide`) or parsing it bare (`parse`), each pass with its own padding
 * so every decision is a fresh analysis.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decide } from "../lib/policy/engine.ts";
import { loadBashParser } from "../lib/shell/parser.ts";
import { BENCH_CONFIG, benchContext } from "./fixture.ts";

const [passes, mode, step] = [Number(Deno.args[0]), Deno.args[1], Number(Deno.args[2])];
if (!(passes >= 0) || (mode !== "decide" && mode !== "parse") || !(step >= 1)) {
  throw new Error("usage: cachegrind_run.ts PASSES decide|parse STEP");
}
const root = new URL("..", import.meta.url).pathname;
const sample = readFileSync(join(root, "testdata/corpus/nl2bash.txt"), "utf8").split("\n")
  .filter((l) => l.trim()).filter((_, i) => i % step === 0);
const parser = await loadBashParser();
const ctx = benchContext(root);
for (let p = 0; p < passes; p++) {
  const pad = " ".repeat(p + 1);
  for (const c of sample) {
    if (mode === "parse") parser.parse(c + pad)!.delete();
    else decide(BENCH_CONFIG, { tool: "bash", input: { command: c + pad } }, ctx, { parser });
  }
}
