import assert from "node:assert/strict";
import { checkTable } from "../testing_adversarial.ts";
import { findReach, foldedName } from "./find_expression.ts";
import { loadBashParser } from "../shell/parser.ts";
import { decide } from "../policy/engine.ts";
import { configFrom, ctxIn } from "../testing.ts";
import { STARTER_CONFIG } from "../starter.ts";

const reach = (expression: string) => findReach(expression.split(" ").filter(Boolean));

Deno.test("find: the names a printing branch yields are those a name test on every path to it allows", () => {
  const names = (expression: string) => reach(expression).names;
  assert.deepEqual(names("-name *.sh -not -path ./node_modules/*"), ["*.sh"]);
  assert.deepEqual(names("-type f -name *.md ! -path */x/*"), ["*.md"]);
  assert.deepEqual(names("-name a -o -name b"), ["a", "b"]);
  assert.deepEqual(names("( -name a -o -name b ) -type f"), ["a", "b"]);
  assert.deepEqual(names("-path ./node_modules -prune -o -name *.md -print"), ["*.md"]);
  assert.deepEqual(names("-name node_modules -prune -o -name *.md"), ["node_modules", "*.md"]);
  assert.deepEqual(names("-iname *.md"), ["*.[mM][dD]"]);
  assert.deepEqual(names("-type f -name * ! -newermt 2013-12-05"), null); // (`*`: no filter)
  assert.deepEqual(names("-name ( -o -name *.md"), ["(", "*.md"]);
  // Any name: a branch without a name test prints, or the test is negated, or not read.
  for (
    const any of [
      "-name x -o -print",
      "( -name a -o -true )",
      "! -name *.md",
      "-not ( -name *.md )",
      "-path ./node_modules -prune -o -name *.md",
      "-path ./node_modules -prune -o -print",
      "-regex .*md",
      "-path *.md",
      "-name *.md , -print",
      "-name a -print -o -print",
      "-name *.md -frob",
      "( -name *.md",
      "-name *.md -o",
      "-name",
      "-name *.md -quit",
      "-iname [a]*",
      "",
    ]
  ) assert.equal(names(any), null, any);
  // `-type f`/`-type d` on every branch: no link is listed.
  assert.equal(reach("-type f -name a -o -type d").typed, true);
  assert.equal(reach("-type f -name a -o -name b").typed, false);
  assert.equal(reach("! -type f").typed, false);
  assert.equal(reach("-type l").typed, false);
});

Deno.test("find: -iname is read case-blind, and not at all where a locale may fold otherwise", () => {
  assert.equal(foldedName(".ENV"), ".[eE][nN][vV]");
  assert.equal(foldedName("*.pem"), "*.[pP][eE][mM]");
  assert.equal(foldedName("[a].env"), null);
  assert.equal(foldedName("\u212a.env"), null); // the Kelvin sign folds into `k`
});

Deno.test("find: what it prints or runs a command on is judged by the names it yields", async () => {
  // deno-fmt-ignore
  await checkTable([
    ["find . -name '*.md' -not -path './node_modules/*' | xargs wc -l", "allow", "allow"],
    ["find . -type f -name '*.md' ! -path '*/x/*' -print0 | xargs -0 wc -l", "allow", "allow"],
    ["find . -iname '*.md' | xargs wc -l", "allow", "allow"],
    ["find . -name '*.md' -o -name '*.ts' | xargs wc -l", "allow", "allow"],
    ["find . -path ./node_modules -prune -o -name '*.md' -print | xargs cat", "allow", "allow"],
    ["find . -type f -name '*.md' -not -path '*/x/*' -exec cat {} +", "deny", "allow"],
    ["find . -name x -print -o -name '*.ts' -exec cat {} +", "deny", "allow"],
    ["find -x src -name '*.ts' | xargs cat", "allow", "allow"], // (BSD's -x before the paths)
    ['find . -type f -name "*.ts" -exec cp {} "$D" \\;', "deny", "ask"], // ($D, not {}, asks)
    // an empty starting point names no file (find says so, and lists the others): an unset one
    ['find "$NOPE_UNSET" -type f -exec cat {} +', "deny", "allow"],
    ['find "" -exec cat {} +', "deny", "allow"],
    ['find "" . -exec cat {} +', "deny", "deny"],
    ['find "" "$D" -exec cat {} +', "deny", "ask"],
    // (and what it prints: nothing for xargs, where it lists the cwd before `""`)
    ['find "$NOPE_UNSET" -type f | xargs cat', "allow", "allow"],
    ['find "" -type f -name ".*" | xargs cat', "allow", "allow"],
    ['find "" . -type f -name ".*" | xargs cat', "ask", "ask"], // (as without "")
    ['find . "" -name ".e*" -print0 | xargs -0 cat', "ask", "ask"],
    // hostile: a branch that prints any name, a negated or case-blind name test of `.env`
    ["find . -name x -o -print | xargs cat", "deny", "deny"],
    ["find . \\( -name a -o -true \\) | xargs cat", "deny", "deny"],
    ["find . ! -name '*.md' | xargs cat", "deny", "deny"],
    ["find . -not -name '*.md' -not -path './x/*' | xargs cat", "deny", "deny"],
    ["find . -path ./x -prune -o -name '*.md' | xargs cat", "deny", "deny"],
    ["find . -path ./x -prune -o -print | xargs cat", "deny", "deny"],
    ["find . -regex '.*md' | xargs cat", "deny", "deny"],
    ["find . -path '*.md' | xargs cat", "deny", "deny"],
    ["find . -iname .ENV | xargs cat", "ask", "ask"], // as `-name .env` (possibly among those),
    ["find . -iname '*.ENV' -not -path './x/*' | xargs cat", "ask", "ask"],
    ["find . -iname '*.TXT' -type f -o -iname '*.TXT' | xargs cat", "deny", "deny"], // a link
    ["find . -name '*.md' -o -name '.e*' | xargs cat", "ask", "ask"],
    ["find . -name '*.md' -print -o -exec cat {} +", "deny", "deny"],
    ["find . -not \\( -name '*.md' \\) -exec cat {} +", "deny", "deny"],
    ["find . -name '*.md' , -print | xargs cat", "deny", "deny"],
    ["find . -name '*.md' -exec true \\; -o -print | xargs cat", "deny", "ask"],
    // -delete: what it removes, by the same reading
    ["find . -name '*.tmp' -not -path './x/*' -delete", "deny", "allow"],
    ["find . -iname .ENV -delete", "deny", "ask"],
    ["find . -name '*.tmp' -o -delete", "deny", "ask"],
    ["find . ! -name '*.tmp' -delete", "deny", "ask"],
    // (No name test: a whole tree, as `rm -r .`'s, where name globs do not count.)
    ["find . -delete", "deny", "allow"],
  ]);
});

Deno.test("find -exec sh -c '… \"$1\" …' _ {} \\; is judged once per listed word, as -exec cat {} \\; is", async () => {
  const parser = await loadBashParser();
  const home = "/home/user";
  const starter = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
  const files = ["/p/README.md", "/p/docs/x.md", "/p/.env", "/p/secrets/key", `${home}/.ssh/id`];
  const ctx = ctxIn("/p", { files, home });
  const action = (c: string) =>
    decide(starter, { tool: "bash", input: { command: c } }, ctx, { parser }).action;
  const rows: [string, string, string][] = [
    // Each run's `$1` is the one path it is given: judged as the program given it.
    [
      `find . -name '*.md' -exec sh -c 'cat "$1"' _ {} \\;`,
      "find . -name '*.md' -exec cat {} \\;",
      "allow",
    ],
    [
      `find . -name '*.md' -exec bash -c 'wc -l "$1" && head -5 "$1"' sh {} \\;`,
      "find . -name '*.md' -exec cat {} \\;",
      "allow",
    ],
    [
      `find . -name '*.md' -exec sh -c 'cat "\${1}"' _ {} \\;`,
      "find . -name '*.md' -exec cat {} \\;",
      "allow",
    ],
    [
      `find . -name '*.md' -exec sh -c 'cat "$2"' _ x {} \\;`,
      "find . -name '*.md' -exec cat {} \\;",
      "allow",
    ],
    [
      `find . -name '*.md' -exec sh -c 'cat "$@"' _ {} +`,
      "find . -name '*.md' -exec cat {} +",
      "allow",
    ],
    [
      `find . -name '*.md' | xargs -I{} sh -c 'cat "$1"' _ {}`,
      "find . -name '*.md' | xargs -I{} cat {}",
      "allow",
    ],
    [
      `find . -name '*.md' -print0 | xargs -0 -n1 sh -c 'cat "$1"' _`,
      "find . -name '*.md' -print0 | xargs -0 -n1 cat",
      "allow",
    ],
    // What the listing may hold is judged there: protected names, any name, another place.
    [
      `find . -name '*.env' -exec sh -c 'cat "$1"' _ {} \\;`,
      "find . -name '*.env' -exec cat {} \\;",
      "ask",
    ],
    [`find . -exec sh -c 'cat "$1"' _ {} \\;`, "find . -exec cat {} \\;", "ask"],
    [`find ~/.ssh -exec sh -c 'cat "$1"' _ {} \\;`, "find ~/.ssh -exec cat {} \\;", "deny"],
    [
      `find . -name '*.md' -exec sh -c 'mv "$1" ~/.ssh/' _ {} \\;`,
      "find . -name '*.md' -exec mv {} ~/.ssh/ \\;",
      "deny",
    ],
    [`find . -name '*.md' -exec sh -c '"$1"' _ {} \\;`, "find . -name '*.md' -exec {} \\;", "deny"],
  ];
  for (const [shell, direct, want] of rows) {
    assert.equal(action(direct), want, direct);
    assert.equal(action(shell), want, shell);
  }
  // Not one path a run, or not a parameter known to be one: not known (asks), as before.
  for (
    const c of [
      `find . -name '*.md' -exec sh -c 'cat "$1"' _ {} +`, // (`$1`: the first of several)
      `find . -name '*.md' -exec sh -c 'cat "$2"' _ {} \\;`, // (empty: no word)
      `find . -name '*.md' -exec sh -c 'cat "$1"' {} \\;`, // (`{}` is `$0`)
      `find . -name '*.md' -exec sh -c 'cat $1' _ {} \\;`, // (split and globbed again)
      `find . -name '*.md' -exec sh -c 'cat "$1.bak"' _ {} \\;`,
      `find . -name '*.md' -exec sh -c 'shift; cat "$1"' _ {} x \\;`,
      `find . -name '*.md' | xargs -n2 sh -c 'cat "$1"' _`,
      `find . -name '*.md' -exec zsh -c 'cat "$1"' _ {} \\;`,
      `find . -name '*.md' -exec sh -ic 'cat "$1"' _ {} \\;`,
    ]
  ) assert.equal(action(c), "ask", c);
});
