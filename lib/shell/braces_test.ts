import assert from "node:assert/strict";
import { checkTable } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";
import { analyzeBash } from "./analyze.ts";
import { braceChars, expandBraces, MAX_BRACE_WORDS } from "./braces.ts";
import { loadBashParser } from "./parser.ts";

const parser = await loadBashParser();
const env = { cwd: "/p", home: "/h", env: { HOME: "/h" }, carriesCommand: () => false };

/** The words bash expands unquoted text into (null: not expanded here). */
function expand(raw: string): string[] | null {
  return expandBraces(braceChars(raw))?.map((w) => w.map((c) => c.ch).join("")) ?? null;
}

/** A command's words (`~` before a glob with a pattern, `*` before a glob of its prefix). */
function words(command: string): string[] {
  const a = analyzeBash(command, env, parser);
  assert.equal(a.error, null, command);
  return a.stages.flatMap((s) =>
    s.argv.map((w) => (w.kind === "glob" ? (w.pattern ? "~" : "*") : "") + w.value)
  );
}

Deno.test("braces: lists, nested, preamble and postscript, in bash's order", () => {
  assert.deepEqual(expand("{a,b}"), ["a", "b"]);
  assert.deepEqual(expand("x{a,b}y"), ["xay", "xby"]);
  assert.deepEqual(expand("{a,{b,c}d}e"), ["ae", "bde", "cde"]);
  assert.deepEqual(expand("{a,b}{c,d}"), ["ac", "ad", "bc", "bd"]);
  assert.deepEqual(expand("x{,}"), ["x", "x"]);
  assert.deepEqual(expand("{a{b,c}}"), ["{ab}", "{ac}"]);
});

Deno.test("braces: sequences of numbers and letters, with steps and zero padding", () => {
  assert.deepEqual(expand("x{1..3}"), ["x1", "x2", "x3"]);
  assert.deepEqual(expand("{3..1}"), ["3", "2", "1"]);
  assert.deepEqual(expand("{01..10..3}"), ["01", "04", "07", "10"]);
  assert.deepEqual(expand("{-1..1}"), ["-1", "0", "1"]);
  assert.deepEqual(expand("{a..e..2}"), ["a", "c", "e"]);
  // Not taken here: from one case to the other, a step of 0, more words than the bound.
  assert.equal(expand("{Z..a}"), null);
  assert.equal(expand("{1..3..0}"), null);
  assert.equal(expand(`{1..${MAX_BRACE_WORDS + 1}}`), null);
  assert.equal(expand("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}"), null);
});

Deno.test("braces: what opens no brace expression stays literal", () => {
  for (const w of ["{x}", "{}", "a{b,c", "${x}", "\\{a,b\\}", "{a\\,b}", "{1..}", "{a..bc}"]) {
    assert.deepEqual(expand(w)?.length ?? 1, 1, w);
  }
});

Deno.test("braces: a command's words are expanded before globs and `~`", () => {
  assert.deepEqual(words("cat {README,CHANGES}.md"), ["cat", "README.md", "CHANGES.md"]);
  assert.deepEqual(words("ls src/{a,b}/*.ts"), ["ls", "~src/a/*.ts", "~src/b/*.ts"]);
  assert.deepEqual(words("rm -f build/{x,y}.o"), ["rm", "-f", "build/x.o", "build/y.o"]);
  assert.deepEqual(words("cat {,~/.ssh/}id_rsa"), ["cat", "id_rsa", "/h/.ssh/id_rsa"]);
  assert.deepEqual(words("cat ~/{a,b}"), ["cat", "/h/a", "/h/b"]);
  assert.deepEqual(words('echo {a,"b c"} "{x,y}" \'{x,y}\' \\{x,y\\}'), [
    "echo",
    "a",
    "b c",
    "{x,y}",
    "{x,y}",
    "{x,y}",
  ]);
  assert.deepEqual(words("sed -{i,n} p f"), ["sed", "-i", "-n", "p", "f"]);
  assert.deepEqual(words('for f in {a,b}.ts; do cat "$f"; done'), ["cat", "a.ts", "cat", "b.ts"]);
  // Not known: a part not known, a `~` past the start, over the bound: a glob of the prefix.
  assert.deepEqual(words("cat $X{a,b}"), ["cat", "$X{a,b}"]);
  assert.deepEqual(words("cat a{b,=~/x}"), ["cat", "*a{b,=~/x}"]);
  assert.deepEqual(words("cat x{1..100}"), ["cat", "*x{1..100}"]);
});

// deno-fmt-ignore
const ROWS: [string, Action, Action][] = [
  ["cat {,~/.ssh/}id_rsa", "deny", "deny"],
  ["cat {~,x}/.ssh/id_rsa", "deny", "deny"],
  ["cat ~{,/.ssh/id_rsa}", "deny", "deny"],
  ["cat {.env,x}", "deny", "deny"],
  ["cat {,.}env", "deny", "deny"],
  ["cat {/,}etc/shadow", "deny", "deny"],
  ["cat {src,keys}/x", "deny", "deny"],
  ["cat conf/{a,hosts}", "deny", "deny"],
  ["cat x{1..3}.pem", "deny", "deny"],
  ["cat {a,b}/{c,d}/{e,f}/{g,h}/{i,j}/{k,l}/{m,n}", "deny", "deny"],
  ['for f in {README.md,.env}; do cat "$f"; done', "deny", "deny"],
  ["cat {~root,x}/.ssh/id_rsa", "ask", "ask"],
  ["sed -{i,n} p README.md", "deny", "allow"],
  ["sort -{o,x} README.md", "deny", "allow"],
  ["rm -f build/{x,y}.o", "deny", "deny"],
  ["echo {a,b}", "allow", "allow"],
  ["cat {README,notes}.{md,txt}", "allow", "allow"],
  ["ls src/{a,b}/*.ts", "allow", "allow"],
];

Deno.test("braces: hostile and everyday spellings get their verdicts", async () => {
  await checkTable(ROWS);
});
