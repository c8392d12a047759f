/**
 * foreman's and honcho's reading of their files, held to what Python 3 (`str.splitlines`,
 * `shlex.shlex(line, posix=True)`, `re`) and foreman's Ruby make of the same text (the expected
 * values are Python's output, recorded).
 */
import assert from "node:assert/strict";
import {
  foremanLines,
  honchoEnvValue,
  procfileEntries,
  pythonLines,
  pythonStrip,
  shlexTokens,
} from "./procfile_text.ts";

Deno.test("procfile text: Python's splitlines, foreman's split", () => {
  const text = "a\rb\r\nc\vd\fe\x1cf\x1dg\x1eh\x1fi\x85j\u2028k\u2029l\n\nm\n";
  assert.deepEqual(pythonLines(text), [
    "a",
    "b",
    "c",
    "d",
    "e",
    "f",
    "g",
    "h\x1fi",
    "j",
    "k",
    "l",
    "",
    "m",
  ]);
  // (foreman: `\r\n` made `\n`, then `\n` alone breaks a line.)
  assert.deepEqual(foremanLines("a\rb\r\nc\x1cd\u2028e\n\nf\n\n"), [
    "a\rb",
    "c\x1cd\u2028e",
    "",
    "f",
  ]);
  assert.equal(pythonStrip(" \x1f\u3000a b\x85\t"), "a b");
  assert.equal(pythonStrip("\ufeffa"), "\ufeffa");
});

Deno.test("procfile text: a Procfile's processes as each matches them", () => {
  const honcho = (line: string) => procfileEntries(line, true);
  assert.deepEqual(honcho("web: npm start"), [["web", "npm start"]]);
  assert.deepEqual(honcho("web:\x1f\xa0 x"), [["web", "x"]]);
  assert.deepEqual(honcho("web:   "), [["web", " "]]);
  assert.deepEqual(honcho("we b: x"), []);
  assert.deepEqual(honcho("a-b:x"), [["a-b", "x"]]);
  assert.deepEqual(honcho("web:"), []);
  assert.deepEqual(honcho("web: a\x1cclean: rm -rf src"), [["web", "a"], ["clean", "rm -rf src"]]);
  // (Ruby's `\s` is ASCII's; its `.` all but `\n`.)
  const foreman = (text: string) => procfileEntries(text, false);
  assert.deepEqual(foreman("web: a\x1cclean: rm x\n"), [["web", "a\x1cclean: rm x"]]);
  assert.deepEqual(foreman("web:\v\f\rrm x\r\n"), [["web", "rm x"]]);
  assert.deepEqual(foreman("web: a\rclean: b"), [["web", "a\rclean: b"]]);
  assert.deepEqual(foreman("web:\xa0x"), [["web", "\xa0x"]]);
});

Deno.test("procfile text: Python's shlex tokens", () => {
  const cases: [string, string[] | null][] = [
    ["PROCFILE=Procfile.evil", ["PROCFILE", "=", "Procfile", ".", "evil"]],
    ['PROCFILE = "a b" # c', ["PROCFILE", "=", "a b"]],
    ['"PROC"FILE=x', ["PROCFILE", "=", "x"]],
    ["PROC\\FILE=x", ["PROCFILE", "=", "x"]],
    ["A='it''s'", ["A", "=", "its"]],
    ['A="x\\"y\\\\z\\q"', ["A", "=", 'x"y\\z\\q']],
    ["export A=1", ["export", "A", "=", "1"]],
    ["A=a/b.c-d", ["A", "=", "a", "/", "b", ".", "c", "-", "d"]],
    ["A=é\xa0ł", ["A", "=", "é", "\xa0", "ł"]],
    ["A=#x", ["A", "="]],
    ["A=x#y", ["A", "=", "x"]],
    ["A=''", ["A", "=", ""]],
    ['A="open', null],
    ["A=\\", null],
  ];
  for (const [line, tokens] of cases) assert.deepEqual(shlexTokens(line), tokens, line);
});

Deno.test("procfile text: the PROCFILE an env file gives honcho", () => {
  assert.equal(honchoEnvValue("PROCFILE=Procfile.dev\n", "PROCFILE"), "Procfile.dev");
  assert.equal(honchoEnvValue("PROCFILE = a b # c\nPORT=1\n", "PROCFILE"), "ab");
  assert.equal(honchoEnvValue("PROCFILE=a\nPROCFILE=b\n", "PROCFILE"), "b");
  assert.equal(honchoEnvValue("PORT=1\rPROCFILE=x\n", "PROCFILE"), "x");
  assert.equal(honchoEnvValue("PORT=1\nexport PROCFILE=x\n#PROCFILE=y\n", "PROCFILE"), undefined);
  assert.equal(honchoEnvValue("PROCFILE='a\\nb'\n", "PROCFILE"), null);
  assert.equal(honchoEnvValue("A='open\nPROCFILE=x\n", "PROCFILE"), null);
});
