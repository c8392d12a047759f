import assert from "node:assert/strict";
import { cLong, perlInteger } from "./option_numbers.ts";
import { readOptions } from "./argv.ts";

Deno.test("cLong: a word strtol reads whole as a 64-bit long (ag's -A, -B, -C)", () => {
  for (const w of ["3", "+3", "-3", " 3", "\t\n3", "0003", "9223372036854775807"]) {
    assert.equal(cLong(w), true, w);
  }
  assert.equal(cLong("-9223372036854775808"), true);
  assert.equal(cLong("00000000000000000000009223372036854775807"), true);
  for (
    const w of [
      "",
      " ",
      "-",
      "+",
      "3 ",
      "3x",
      "0x3",
      "+-3",
      "\u0663",
      "\u00a03",
      "9223372036854775808",
      "-9223372036854775809",
      "99999999999999999999",
    ]
  ) assert.equal(cLong(w), false, JSON.stringify(w));
});

Deno.test("perlInteger: Getopt::Long's integer (ack's -A, -B, -C, -p)", () => {
  for (const w of ["3", "+3", "-3", "1_000", "_3", "3_", "99999999999999999999", "3\n"]) {
    assert.equal(perlInteger(w), true, JSON.stringify(w));
  }
  for (const w of ["", " 3", "3 ", "0x3", "3x", "KEY", "-", "3\n\n"]) {
    assert.equal(perlInteger(w), false, JSON.stringify(w));
  }
});

Deno.test("readOptions: a numbered option takes the next word only where it is a number", () => {
  const g = {
    flags: "v",
    numbered: { short: "A", long: new Set(["--after"]), number: cLong },
    longOptional: new Set(["--after"]),
  };
  const kinds = (line: (string | null)[]) =>
    readOptions(line, g).map((t) => `${t.kind}${t.valueAt ?? t.glued ?? ""}`);
  assert.deepEqual(kinds(["-A", "3", "KEY"]), ["valued1", "operand"]);
  assert.deepEqual(kinds(["-A", "99999999999999999999", "KEY"]), ["valued", "operand", "operand"]);
  assert.deepEqual(kinds(["-vA", "KEY", "f"]), ["flag", "valued", "operand", "operand"]);
  assert.deepEqual(kinds(["-A5", "KEY"]), ["valued5", "operand"]);
  assert.deepEqual(kinds(["--after", "3", "KEY"]), ["valued1", "operand"]);
  assert.deepEqual(kinds(["--after=x", "KEY"]), ["valuedx", "operand"]);
  assert.deepEqual(kinds(["-A", null, "KEY"]), ["valued", "dynamic", "operand"]);
  assert.deepEqual(kinds(["-A", "-v", "KEY"]), ["valued", "flag", "operand"]);
});
