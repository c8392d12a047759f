import assert from "node:assert/strict";
import { packageProgram } from "./command_words.ts";
import { literal } from "./words.ts";

Deno.test("packageProgram: a package word's version, tag, range or alias is taken off", () => {
  const npm = (w: string) => packageProgram(literal(w), "npm").value;
  assert.equal(npm("prettier@3"), "prettier");
  assert.equal(npm("prettier@latest"), "prettier");
  assert.equal(npm("prettier@^3.1.0"), "prettier");
  assert.equal(npm("prettier@>=3 <4"), "prettier@>=3 <4"); // (no spaces in one)
  assert.equal(npm("@biomejs/biome@1.9.4"), "@biomejs/biome");
  assert.equal(npm("fmt@npm:prettier@3"), "prettier");
  assert.equal(npm("fmt@npm:@biomejs/biome@1"), "@biomejs/biome");
  // Everything else as it is: no version, a file, git or URL spec, a path.
  for (const w of ["prettier", "@biomejs/biome", "x@file:x.tgz", "github:a/b", "./tool@1"]) {
    assert.equal(npm(w), w);
  }
  const uv = (w: string) => packageProgram(literal(w), "uv").value;
  assert.equal(uv("ruff@0.5.0"), "ruff");
  assert.equal(uv("ruff@latest"), "ruff");
  assert.equal(uv("ruff"), "ruff");
  assert.equal(uv("@x/y@1"), "@x/y@1");
});
