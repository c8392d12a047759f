/** `[ … ]` and `[[ … ]]` as stages: bash's words for each (walk_tests.ts). */
import assert from "node:assert/strict";
import { commands, stagesOf } from "./analyze_testing.ts";

/** The argv values of the stage named `name` of `command`. */
function argvOf(command: string, name: string): string[] {
  const s = stagesOf(command).find((s) => s.argv[0]?.value === name);
  assert.ok(s, `${command}: no stage ${name}`);
  return s.argv.map((w) => w.value);
}

Deno.test("[ … ] is the command `[`: its words as a command's, redirects and all", () => {
  assert.deepEqual(argvOf('[ -f "a b" ]', "["), ["[", "-f", "a b", "]"]);
  assert.deepEqual(argvOf("[ x == y ] && echo same", "["), ["[", "x", "==", "y", "]"]);
  assert.deepEqual(argvOf("[ -n ~/x -a {a,b} = c ]", "["), [
    "[",
    "-n",
    "/home/u/x",
    "-a",
    "a",
    "b",
    "=",
    "c",
    "]",
  ]);
  // (bash reads `<` there as a redirect, tree-sitter as an operator.)
  const [test] = stagesOf("[ x < f ]").filter((s) => s.argv[0]?.value === "[");
  assert.deepEqual(test.argv.map((w) => w.value), ["[", "x", "]"]);
  assert.deepEqual(test.redirects.map((r) => r.target?.value), ["f"]);
  assert.equal(test.text, "[ x < f ]");
  // Its substitutions are stages before it.
  assert.deepEqual(commands('[ "$(cat f)" = x ]'), ["[ $(cat f) = x ]", "cat f"]);
});

Deno.test("[[ … ]] is a stage of its operators and operands, no glob expanded", () => {
  assert.deepEqual(argvOf("[[ -e ~/.ssh/* && $x == *.ts ]]", "[["), [
    "[[",
    "-e",
    "/home/u/.ssh/*",
    "&&",
    "$x",
    "==",
    "*.ts",
    "]]",
  ]);
  const [glob] = stagesOf("[[ -e src/* ]]").filter((s) => s.argv[0]?.value === "[[");
  assert.equal(glob.argv[2].kind, "static");
  assert.deepEqual(argvOf("[[ ! ( -f a || b -nt c ) ]]", "[["), [
    "[[",
    "!",
    "(",
    "-f",
    "a",
    "||",
    "b",
    "-nt",
    "c",
    ")",
    "]]",
  ]);
  assert.deepEqual(commands('[[ -n "$(cat f)" ]]'), ["[[ -n $(cat f) ]]", "cat f"]);
});
