import assert from "node:assert/strict";
import { checkActions, ctxIn, secretsDenied } from "../testing.ts";

const P = "/home/user/project";
const config = secretsDenied("/home/user");
const ctx = ctxIn(P, {
  files: [`${P}/src/main.ts`, `${P}/README.md`, `${P}/.env`, `${P}/secrets/key`],
  home: "/home/user",
});

Deno.test("ack searches the cwd's tree given no path, a pipe where it is one; its pager runs", async () => {
  await checkActions(config, ctx, [
    ["ack KEY", "ask"],
    ["ack -i KEY", "ask"],
    ["ack KEY secrets", "deny"],
    ["ack KEY src", "allow"],
    ["ack -A 3 --type=ts KEY src README.md", "allow"],
    ["cat README.md | ack KEY", "allow"],
    ["ack --version", "allow"],
    ["ack --pager='cat secrets/key' KEY src", "deny"],
    ["ack --pag='cat secrets/key' KEY src", "deny"],
    // (A command not known is asked about.)
    ['ack "--pager=$X" KEY src', "ask"],
    ["ACK_PAGER='cat secrets/key' ack KEY src", "deny"],
    ["export ACK_OPTIONS=--pager=x; ack KEY src", "ask"],
    ["echo .env | ack -x KEY", "ask"],
    ["ack --files-from=list KEY", "ask"],
  ]);
  // A settings file that names a pager: a command not known.
  const rc = ctxIn(P, {
    files: [`${P}/src/main.ts`, `${P}/.ackrc`],
    home: "/home/user",
    contents: { [`${P}/.ackrc`]: "--pager=cat secrets/key\n" },
  });
  await checkActions(config, rc, [["ack KEY src", "ask"], ["ack --noenv KEY src", "allow"]]);
});

Deno.test("pt and ugrep: the cwd's tree where no path is named; ugrep's filters run", async () => {
  await checkActions(config, ctx, [
    ["pt KEY", "ask"],
    ["pt KEY src", "allow"],
    ["cat README.md | pt KEY", "allow"],
    ["pt --version", "allow"],
    ["pt KEY secrets", "deny"],
    ["ugrep -r KEY", "ask"],
    ["ugrep -R KEY", "ask"],
    ["ugrep -d recurse KEY", "ask"],
    ["ugrep --directories=recurse KEY", "ask"],
    ["ugrep -rn KEY src", "allow"],
    ["ug -rn KEY src", "allow"],
    ["ugrep KEY README.md", "allow"],
    ["ugrep -r KEY secrets", "deny"],
    ["ugrep --version", "allow"],
    // (What ugrep runs or reads its options from is a command not known: asked about.)
    ["ugrep -r --filter='pdf:cat secrets/key' KEY src", "ask"],
    ["ugrep -Q KEY src", "ask"],
    ["ugrep -rnQ KEY src", "ask"],
    ["ugrep -r --view=vim KEY src", "ask"],
    ["ugrep --save-config", "ask"],
    ["ugrep --config=x -r KEY src", "ask"],
    ["ugrep+ -r KEY src", "ask"],
  ]);
});

Deno.test("ack, pt and ugrep: the pattern and option values are text, the rest paths", async () => {
  await checkActions(config, ctx, [
    // The pattern is no path: a name of a protected file searched for in files that are not.
    ["ack .env src", "allow"],
    ["ack -i -w .env src README.md", "allow"],
    ["ack --type=ts -A 3 secrets src", "allow"],
    ["ack -A 99999999999999999999 .env src", "allow"],
    ["ack -C 1_000 .env src", "allow"],
    ["pt .env src", "allow"],
    ["pt -A 3 --depth=2 secrets src", "allow"],
    ["ugrep -rn .env src", "allow"],
    ["ugrep -A 3 -m 1 secrets src", "allow"],
    ["ugrep -e KEY -e .env src", "allow"],
    // ack's `-A`, `-B`, `-C`, `-p` take the next word only where it is an integer
    // (Getopt::Long's `:i`): another is the pattern, and the words after it paths.
    ["ack -A KEY secrets/key", "deny"],
    ["ack -B ' 3' secrets/key", "deny"],
    ["ack --context 3x /home/user/.ssh/id_rsa", "deny"],
    ["ack -p KEY .env", "ask"],
    // Where an option gives the pattern, every operand is a path.
    ["ack --match KEY .env", "ask"],
    ["ack -f .env", "ask"],
    ["pt -g KEY secrets", "deny"],
    ["ugrep -e KEY .env", "ask"],
    ["ugrep -N x .env", "ask"],
    ["ugrep --regexp=KEY secrets/key", "deny"],
    ["ugrep -f secrets/key src", "deny"],
    // An option not known, a word not known where the pattern is: every word may be a path.
    ["ack --frobnicate .env src", "ask"],
    ['ugrep "$P" .env src', "ask"],
  ]);
});

Deno.test("one option table per searcher: the text words, the paths and the line filter read it", async () => {
  const { SEARCHERS } = await import("./searchers.ts");
  const { SEARCH_PROGRAMS } = await import("./grep.ts");
  const { literal } = await import("./words.ts");
  const [ack, pt, ugrep] = SEARCHERS;
  const text = (p: typeof ack, words: string[]) => p.text!(words.map(literal));
  // Values after an operand are text where every implementation reads options there.
  assert.deepEqual(text(ack, ["ack", "KEY", "src", "-m", "5"]), [3, 4, 1]);
  // ack's `-g` gives the pattern: every operand is a path; `-A` takes a number only.
  assert.deepEqual(text(ack, ["ack", "-g", "x", "src"]), [1, 2]);
  assert.deepEqual(text(ack, ["ack", "-A", "KEY", "src"]), [1, 2]);
  // pt's `-G` names files by a pattern: not text; `--depth` is.
  assert.deepEqual(text(pt, ["pt", "-G", "x", "--depth", "2", "KEY"]), [3, 4, 5]);
  // ugrep: `-Z3` text, `-Q` no text; `--pretty=x` text, `--ignore-files=x` a possible file.
  assert.deepEqual(text(ugrep, ["ugrep", "-Z3", "--pretty=x", "--ignore-files=f", "KEY"]), [
    1,
    2,
    4,
  ]);
  assert.deepEqual(text(ugrep, ["ugrep", "-N", "a", "KEY", "f"]), [1, 2]);
  assert.equal(ugrep.treesNamed!(["ugrep", "-N", "a", "KEY", "f"].map(literal)), true);
  const [grep, rg] = SEARCH_PROGRAMS;
  assert.equal(grep.treesNamed!(["grep", "-e", "x", "src"].map(literal)), true);
  assert.equal(grep.treesNamed!(["grep", "x", "src"].map(literal)), true);
  assert.equal(grep.treesNamed!(["grep", "x"].map(literal)), false);
  assert.equal(rg.treesNamed!(["rg", "--files", "src"].map(literal)), true);
  assert.equal(rg.treesNamed!(["rg", "--type-list", "src"].map(literal)), false);
  await checkActions(config, ctx, [
    // grep's line filter: options that keep each line as read pass find's listing on.
    ["find src | grep -v test | xargs cat", "allow"],
    ["find src | grep -i -m 3 -e main | xargs cat", "allow"],
    ["find . | grep -v test | xargs cat", "ask"],
    // -n changes the lines: what it prints is anything.
    ["find src | grep -n main | xargs cat", "ask"],
    // rg's option commands and its `$safe-bash` check read one list.
    ["rg --pre 'cat secrets/key' KEY src", "deny"],
  ]);
});
