/** The shared model: the command string rules match. */
import assert from "node:assert/strict";
import { commandString } from "./model.ts";
import { stage } from "./analyze_testing.ts";

Deno.test("commandString: argv as it runs, then file redirects", () => {
  assert.equal(commandString(stage("  rm   -rf  'a b'  ", "rm -rf a b")), "rm -rf a b");
  assert.equal(
    commandString(stage("sort x 2>&1 > out < in 2>/dev/null", "sort x > out < in")),
    "sort x > out < in",
  );
});
