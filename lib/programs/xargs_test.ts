import assert from "node:assert/strict";
import { analyzeBash } from "../shell/analyze.ts";
import { loadBashParser } from "../shell/parser.ts";
import { checkTable } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";
import { carriesCommand } from "./env.ts";
import { innerStages } from "./expand.ts";

const parser = await loadBashParser();

/** The commands xargs/parallel run, as text. */
function runs(command: string): string[] {
  const env = { cwd: "/p", home: "/h", env: { HOME: "/h" }, carriesCommand };
  const a = analyzeBash(command, env, parser);
  const analyze = (text: string) => analyzeBash(text, env, parser).stages;
  return innerStages(a.stages[0], { analyze, depth: 0 }).map((s) =>
    s.argv.map((w) => w.value).join(" ")
  );
}

Deno.test("xargs: its options are read as xargs reads them, clusters and glued values too", () => {
  assert.deepEqual(runs("xargs -0n 5 rm -rf"), ["rm -rf (xargs input)"]);
  assert.deepEqual(runs("xargs -n1 -P4 grep -l x"), ["grep -l x (xargs input)"]);
  assert.deepEqual(runs("xargs -I{} cp {} dir"), ["cp {} dir (xargs input)"]);
  assert.deepEqual(runs("xargs -i rm {}"), ["rm {} (xargs input)"]);
  assert.deepEqual(runs("xargs --max-args 2 rm"), ["rm (xargs input)"]);
  assert.deepEqual(runs("xargs -- -rm"), ["-rm (xargs input)"]);
  assert.deepEqual(runs("xargs"), ["echo (xargs input)"]);
});

Deno.test("xargs: an option it does not know is read both ways (it takes the next word or not)", () => {
  assert.deepEqual(runs("xargs -J % mv % dir"), [
    "% mv % dir (xargs input)",
    "mv % dir (xargs input)",
  ]);
  assert.deepEqual(runs("xargs --frob echo rm x"), [
    "echo rm x (xargs input)",
    "rm x (xargs input)",
  ]);
  // Past a few unknown options, what runs is not known.
  const deep = runs("xargs -Q -Q -Q -Q -Q rm");
  assert.ok(deep.some((c) => c.startsWith("(a command after")), deep.join(" | "));
});

Deno.test("parallel: the command before ::: after parallel's options", () => {
  assert.deepEqual(runs("parallel -j4 rm ::: a b"), ["rm (parallel input)"]);
  assert.deepEqual(runs("parallel --jobs 4 --tty vim ::: a"), ["vim (parallel input)"]);
});

/** [command, under read-only, under the deny-list]: hostile spellings of xargs's options. */
const HOSTILE: [string, Action, Action][] = [
  ["find . | xargs -0n 5 rm -rf", "deny", "deny"],
  ["find . | xargs -n1 -J X rm X", "deny", "deny"],
  ["find . | xargs --frob echo rm -rf", "deny", "deny"],
  ["ls | xargs -I{} sh -c 'rm {}'", "deny", "deny"],
  ["ls | xargs -P 2 -L 1 curl -d @-", "deny", "deny"],
  ["parallel -j 4 rm ::: a", "deny", "deny"],
  ["find . | xargs -n 1 grep -l TODO", "deny", "ask"],
];

Deno.test("xargs and parallel: hostile option spellings get their verdicts", async () => {
  await checkTable(HOSTILE);
});
