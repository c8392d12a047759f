/** `[ … ]` and `[[ … ]]` as stages: bash's words for each (walk_tests.ts). */
import assert from "node:assert/strict";
import { commands, stagesOf } from "./analyze_testing.ts";
import { checkTable } from "../testing_adversarial.ts";

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

Deno.test("[[ … =~ ]]: a regex's groups run nothing, a substitution or evaluation in it may", async () => {
  // [command, read-only, deny-list]: tree-sitter reads the pattern whole; bash expands in it
  // `$(…)`, `` `…` ``, `<(…)`/`>(…)` (even inside a word), `$((…))`, `$[…]` and `${…}`.
  await checkTable([
    ['[[ "$v" =~ ^([0-9]+) ]] && echo "${BASH_REMATCH[1]}"', "allow", "allow"],
    ["[[ $v =~ (a|b) ]]", "allow", "allow"],
    ["[[ $v =~ ^\\( ]]", "allow", "allow"],
    ["[[ $v =~ ^v([0-9]+)\\.([0-9]+)$ ]] && echo ok", "allow", "allow"],
    ["[[ $v =~ '(a)' ]]", "allow", "allow"],
    ["[[ $v =~ ^${prefix}(-[a-z]+)?$ ]]", "allow", "allow"],
    ["[[ $v =~ ^(a)$x ]]", "allow", "allow"],
    ["[[ $v =~ ^${BASH_REMATCH[1]}(a) ]]", "allow", "allow"],
    // hostile: what runs or evaluates there
    ["[[ $v =~ `rm -rf src` ]]", "deny", "deny"],
    ["[[ $v =~ (a)`rm -rf src` ]]", "deny", "deny"],
    ["[[ $v =~ <(rm -rf src) ]]", "deny", "deny"],
    ["[[ $v =~ ^<(rm -rf src)x ]]", "deny", "deny"],
    ["[[ $v =~ >(rm -rf src) ]]", "deny", "deny"],
    ["[[ $v =~ (a)$(rm -rf src) ]]", "deny", "deny"],
    ["[[ $v =~ $((a[$(rm -rf src)])) ]]", "deny", "deny"],
    ["[[ $v =~ $[a[$(rm -rf src)]] ]]", "deny", "deny"],
    ["x='a[$(rm -rf src)]'; [[ $v =~ (a)$[x] ]]", "deny", "deny"],
    ["x='a[$(rm -rf src)]'; [[ $v =~ $[x] ]]", "deny", "deny"],
    ["x='a[$(rm -rf src)]'; [[ $v =~ (${!x}) ]]", "deny", "deny"],
    ["x='a[$(rm -rf src)]'; [[ $v =~ (${a[x]}) ]]", "deny", "deny"],
    ["x='a[$(rm -rf src)]'; [[ $v =~ (${v:x}) ]]", "deny", "deny"],
    ["[[ $v =~ (${x@P}) ]]", "deny", "deny"],
    ["[[ $v =~ ${x:=$(rm -rf src)} ]]", "deny", "deny"],
    ["[[ $v =~ $(rm -rf src) ]]", "deny", "deny"],
    // (tree-sitter reads the pattern of `${f/PAT/REP}` so too)
    ['echo "${f/${dir1}/${dir2}}"', "allow", "allow"],
    ["echo ${f//${BASH_REMATCH[1]}/Bar}", "allow", "allow"],
    ["echo ${f/${d:-$(rm -rf src)}/x}", "deny", "deny"],
    ["echo ${f/`rm -rf src`/x}", "deny", "deny"],
    ["x='a[$(rm -rf src)]'; echo ${f/${!x}/y}", "deny", "deny"],
    // the rest of the line after `]]` is a command still
    ["[[ $v =~ ^(a)$ ]] && rm -rf src", "deny", "deny"],
    ["[[ $v =~ (a|b)|$(rm -rf src) ]]", "deny", "deny"],
  ]);
});

Deno.test("[[ -v NAME[SUB] ]] evaluates SUB, not NAME's values", async () => {
  await checkTable([
    ["arr=(a b); [[ -v arr[1] ]] && echo set", "allow", "allow"],
    ["arr=(a b); i=1; [[ -v arr[i] ]]", "allow", "allow"],
    ["i='a[$(rm -rf src)]'; arr=(a b); [[ -v arr[i] ]]", "deny", "deny"],
    ["i='a[$(rm -rf src)]'; [[ -v arr[i+1] ]]", "deny", "deny"],
    ["i='a[$(rm -rf src)]'; [[ -v \"arr[i]\" ]]", "deny", "deny"],
    ["[[ -v arr[$(rm -rf src)] ]]", "deny", "deny"],
    ["[[ -v arr[$i] ]]", "deny", "deny"],
    ["x='a[$(rm -rf src)]'; [[ -v $x ]]", "deny", "deny"],
    ["x='a[$(rm -rf src)]'; [[ x -eq 1 ]]", "deny", "deny"],
  ]);
});
