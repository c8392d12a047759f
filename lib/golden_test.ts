import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { caseNames, GOLDEN_DIR, runCase } from "./golden.ts";

const names = caseNames();

Deno.test("there are golden cases for the spec's worked examples", () => {
  assert.ok(names.length >= 15, `only ${names.length} cases`);
});

for (const name of names) {
  Deno.test(`golden: ${name}`, async () => {
    const result = await runCase(name);
    assert.deepEqual(result.mismatches, [], "final actions differ from what the spec states");
    const file = join(GOLDEN_DIR, `${name}.txt`);
    assert.ok(existsSync(file), `${file} is missing: run deno task golden:update and review it`);
    assert.equal(result.text, readFileSync(file, "utf8"), `differs from golden/${name}.txt`);
  });
}
