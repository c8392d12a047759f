import assert from "node:assert/strict";
import { lesskeyDecode, lesskeyLines, lesskeyVariables } from "./lesskey.ts";

const names = (text: string, content = false) =>
  lesskeyVariables(text, content).map((v) => `${v.name}=${v.value}`);

Deno.test("lesskey: a section opens where a line starts with its name, as less 590 reads it", () => {
  // (Each checked against less 590: the LESSOPEN below ran, or did not.)
  assert.deepEqual(names("#environment\nLESSOPEN=|x %s\n"), ["LESSOPEN=|x %s"]);
  assert.deepEqual(names("#envx\nLESSOPEN=|x %s\n"), ["LESSOPEN=|x %s"]);
  assert.deepEqual(names("#env foo\nLESSOPEN=|x %s\n"), ["LESSOPEN=|x %s"]);
  assert.deepEqual(names("#env\n  #command\nLESSOPEN=|x %s\n"), ["LESSOPEN=|x %s"]);
  assert.deepEqual(names("#env\n#commandx\nLESSOPEN=|x %s\n"), []);
  assert.deepEqual(names("#env\n#line-editor\nLESSOPEN=|x %s\n"), []);
  assert.deepEqual(names("  #env\nLESSOPEN=|x %s\n"), []);
  assert.deepEqual(names("#env\rLESSOPEN=|x %s\n"), []);
  assert.deepEqual(names("#command\nLESSOPEN=|x %s\n"), []);
  assert.deepEqual(names("LESSOPEN=|x %s\n"), []);
});

Deno.test("lesskey: names and values are decoded; a CR, a comment end them", () => {
  assert.deepEqual(names("#env\nLESS\\117PEN=|x %s\n"), ["LESSOPEN=|x %s"]);
  assert.deepEqual(names("#env\nLESS\\OPEN = |x %s\n"), ["LESSOPEN=|x %s"]);
  assert.deepEqual(names("#env\n\\LESSOPEN\t=\t|x %s\n"), ["LESSOPEN=|x %s"]);
  assert.deepEqual(names("#env\nLESSOPEN=|x\\073 y %s # note\n"), ["LESSOPEN=|x; y %s "]);
  assert.deepEqual(names("#env\nLESSOPEN=|x %s\rjunk\n"), ["LESSOPEN=|x %s"]);
  assert.deepEqual(names("#env\nLESSOPEN=|x \\#1 %s\n"), ["LESSOPEN=|x #1 %s"]);
  assert.equal(lesskeyDecode("a^Ab\\e\\0c\\"), "a\x01b\x1bc");
});

Deno.test("lesskey: `+=` adds to the variable set last; #version's rest is a line", () => {
  assert.deepEqual(names("#env\nLESSOPEN=|x \nX += %s\n"), ["LESSOPEN=|x ", "LESSOPEN=|x %s"]);
  assert.deepEqual(names("#env\n#version >= 500 LESSOPEN=|x %s\n"), ["LESSOPEN=|x %s"]);
  assert.deepEqual(names("#version >= 500\n#env\nLESSOPEN=|x %s\n"), ["LESSOPEN=|x %s"]);
});

Deno.test("lesskey: lines are cut as less reads them (1023 bytes; `;` in content)", () => {
  const long = "#env\n#" + "a".repeat(1022) + "LESSOPEN=|x %s\n";
  assert.deepEqual(names(long), ["LESSOPEN=|x %s"]);
  assert.equal(lesskeyLines("é".repeat(600), false).length, 2);
  assert.deepEqual(names("#env;LESSOPEN=|x %s", true), ["LESSOPEN=|x %s"]);
  assert.deepEqual(names("#env\nLESSOPEN=|x\\; y %s", true), ["LESSOPEN=|x; y %s"]);
  assert.deepEqual(names("#env;LESSOPEN=|x %s", false), []);
});
