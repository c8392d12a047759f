/**
 * `pi-controls init`, `validate` and `test`: the starter config, errors as file:line:col, the
 * config's own examples.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG, run, tempTree } from "./testing_cli.ts";

Deno.test("validate prints file:line:col for a typo and exits 1; a good config exits 0", async () => {
  const t = tempTree();
  const bad = join(t.root, "bad.jsonc");
  writeFileSync(
    bad,
    '{\n  "policies": {\n    "p": { "defaultAciton": "deny", "rules": [] }\n  }\n}\n',
  );
  const r = await run(["validate", bad], { home: t.home, cwd: t.root });
  assert.equal(r.code, 1);
  assert.match(
    r.out,
    new RegExp(
      `^${bad.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:3:12: .*defaultAciton.*defaultAction`,
      "m",
    ),
  );
  const good = join(t.root, "good.jsonc");
  writeFileSync(good, CONFIG);
  const ok = await run(["validate", good], { home: t.home, cwd: t.root });
  assert.equal(ok.code, 0, ok.out);
});

Deno.test("test runs the config's own examples and exits 1 when one fails", async () => {
  const t = tempTree();
  const cfg = join(t.root, "cfg.jsonc");
  writeFileSync(cfg, CONFIG);
  const r = await run(["test", "--config", cfg, "--cwd", t.project], { home: t.home, cwd: t.root });
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /2 passed, 0 failed/);
  writeFileSync(cfg, CONFIG.replace('"expect": "ask"', '"expect": "allow"'));
  const f = await run(["test", "--config", cfg, "--cwd", t.project], { home: t.home, cwd: t.root });
  assert.equal(f.code, 1);
  assert.match(f.out, /FAIL bash {"command":"git commit -m x"}: expected allow, got ask/);
});

Deno.test("init writes the commented starter config, which validates and passes its tests; never overwrites", async () => {
  const t = tempTree();
  const r = await run(["init"], { home: t.home, cwd: t.project });
  assert.equal(r.code, 0, r.err);
  const file = join(t.agent, "extensions", "pi-controls.jsonc");
  const text = readFileSync(file, "utf8");
  assert.match(text, /^\/\/ pi-controls config/);
  assert.equal((await run(["validate", file], { home: t.home, cwd: t.root })).code, 0);
  const tested = await run(["test", "--cwd", t.project], { home: t.home, cwd: t.root });
  assert.equal(tested.code, 0, tested.out);
  writeFileSync(file, text + "\n// my edit\n");
  const again = await run(["init"], { home: t.home, cwd: t.project });
  assert.equal(again.code, 1);
  assert.match(readFileSync(file, "utf8"), /my edit/);
});

Deno.test("examples/sample.jsonc validates and passes its own examples", async () => {
  const t = tempTree();
  const sample = new URL("../examples/sample.jsonc", import.meta.url).pathname;
  const v = await run(["validate", sample], { home: t.home, cwd: t.root });
  assert.equal(v.code, 0, v.out + v.err);
  const r = await run(["test", "--config", sample, "--cwd", t.project], {
    home: t.home,
    cwd: t.root,
  });
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /8 passed, 0 failed/);
});
