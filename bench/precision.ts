/**
 * `deno task bench:precision`: the agent corpus (testdata/corpus/agents.jsonl) decided under the
 * six configs of lib/precision.ts; prints each config's allow rate (with the sandbox, also the
 * rates that proceed and that still ask) and every ask and deny by cause, with the programs
 * behind it and examples. `--json`: the counts lib/precision_test.ts
 * fixes (testdata/corpus/precision.json).
 */
import { readFileSync } from "node:fs";
import { loadBashParser } from "../lib/shell/parser.ts";
import {
  measurePrecision,
  PRECISION_CONFIGS,
  precisionCounts,
  renderPrecision,
} from "../lib/precision.ts";

const commands = readFileSync(new URL("../testdata/corpus/agents.jsonl", import.meta.url), "utf8")
  .split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l).command as string);
const t0 = performance.now();
const results = measurePrecision(PRECISION_CONFIGS, commands, await loadBashParser());
const seconds = ((performance.now() - t0) / 1000).toFixed(1);
if (Deno.args.includes("--json")) {
  console.log(JSON.stringify(precisionCounts(results), null, 2));
} else {
  console.log(
    `Precision on the agent corpus: ${commands.length} commands, cwd /testbed as the project ` +
      `(${seconds} s)\n`,
  );
  console.log(renderPrecision(results));
}
