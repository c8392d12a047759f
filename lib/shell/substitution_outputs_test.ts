/**
 * Substitutions whose output the walk knows (substitution_outputs.ts): `basename`/`dirname` of a
 * known word as text, of a loop's glob as each match made so; `mktemp` as a new name in a known
 * directory and `which`/`command -v`/`type -P` as a program's path (`Word.output`).
 */
import assert from "node:assert/strict";
import { basenameOf, dirnameOf } from "./affixes.ts";
import { ENV, stage, stagesOf } from "./analyze_testing.ts";
import type { Word } from "./model.ts";
import { mktempOutput } from "./substitution_outputs.ts";
import { runBash } from "./testing.ts";

/** The words of the stage whose command is `cmd` (as the test names it). */
function argv(command: string, cmd: string): Word[] {
  return stage(command, cmd).argv;
}

/** The last word of the command's last stage that reads (`cat`, `cp`, `ldd`, `file`). */
function lastWord(command: string): Word {
  const stages = stagesOf(command).filter((s) => /^(cat|cp|ldd|file)$/.test(s.argv[0]?.value));
  return stages[stages.length - 1].argv.at(-1)!;
}

const NAMES = [
  "",
  "/",
  "//",
  "///",
  "a",
  "a/",
  "a//",
  "/a",
  "//a",
  "a/b",
  "a/b/",
  "a//b",
  "/a/b//",
  ".",
  "..",
  "./a",
  "a/.",
  "a.md",
  ".md",
  "x/.md",
  "x/a.md/",
  "-x",
];

Deno.test("basename and dirname: what coreutils prints, trailing slashes, `/`, a suffix", async () => {
  const suffixes = ["", ".md", "a", "/"];
  let script = "";
  for (const n of NAMES) {
    script += `dirname -- '${n}'\n`;
    for (const s of suffixes) script += `basename -- '${n}' '${s}'\n`;
  }
  const real = await runBash(script, { cwd: "/", env: { PATH: Deno.env.get("PATH") ?? "" } });
  const mine = NAMES.map((n) =>
    [dirnameOf(n), ...suffixes.map((s) => basenameOf(n, s))].join("\n") + "\n"
  ).join("");
  assert.equal(mine, real);
});

Deno.test("basename and dirname of a known word are text", () => {
  const rows: [string, string, string][] = [
    ["cat $(basename /a/b.md .md)", "cat b", "b"],
    ['cat "$(dirname src/x/y.ts)/z"', "cat src/x/z", "src/x/z"],
    ['cat "$(basename -s .pub ~/.ssh/id_rsa.pub)"', "cat id_rsa", "id_rsa"],
    ['cat "$(basename --suffix=.pub /x/k.pub)"', "cat k", "k"],
    ['cat "$(basename -as .pub /x/k.pub)"', "cat k", "k"],
    ["cat $(dirname $(dirname /a/b/c))/k", "cat /a/k", "/a/k"],
    ['cat "$(basename -- -x)"', "cat -x", "-x"],
    ['cat "$(basename -z a/b/)"', "cat b", "b"],
    ['cat "$(dirname -- //)"', "cat /", "/"],
    ['X=/srv/app/.env; cat "$(basename "$X")"', "cat .env", ".env"],
    ['f=$(basename /a/b/README.md); cat "$f"', "cat README.md", "README.md"],
  ];
  for (const [command, cmd, want] of rows) {
    const w = argv(command, cmd).at(-1)!;
    assert.deepEqual([w.kind, w.value], ["static", want], command);
  }
});

Deno.test("basename and dirname: not known where the word, the form or the program is not", () => {
  const rows = [
    'cat "$(basename -a /x/a /y/b)"',
    'cat "$(basename /x/a /y/b .md)"',
    'cat "$(basename -q /x/a)"',
    'cat "$(dirname /x/a /y/b)"',
    'cat "$(dirname -s x /x/a)"',
    'cat "$(basename "$X")"',
    'cat "$(basename {a,b})"',
    'cat "$(basename *.md)"',
    'cat "$(basename /x/a 2>/dev/null)"',
    'cat "$(LC_ALL=C basename /x/a)"',
    'cat "$(basename /x/a | tr a b)"',
    'basename() { echo ~/.ssh/id_rsa; }; cat "$(basename x)"',
    'PATH=~/bin:$PATH; cat "$(basename /x/a)"',
    'alias basename=echo; cat "$(basename /x/a)"',
    // (Unquoted, bash splits what it prints.)
    'cat $(basename "/x/a b")',
    'cat "$(basename /x/$$)"',
  ];
  for (const command of rows) assert.equal(lastWord(command).kind, "dynamic", command);
});

Deno.test("basename and dirname of a loop's glob: each match made so, where quoted", () => {
  const w = lastWord('for f in docs/*.md; do cp "$f" "out/$(basename "${f%.md}").html"; done');
  assert.deepEqual(w.around, {
    at: "/proj",
    pattern: "docs/*.md",
    before: "out/",
    after: ".html",
    cut: [{ op: "%", pattern: ".md" }, { op: "basename", suffix: "" }],
  });
  const d = lastWord('for f in src/*/*.ts; do cat "$(dirname "$f")/index.ts"; done');
  assert.deepEqual(d.around?.cut, [{ op: "dirname" }]);
  const s = lastWord('for f in docs/*.md; do cat "$(basename "$f" .md)"; done');
  assert.deepEqual(s.around?.cut, [{ op: "basename", suffix: ".md" }]);
  // (Unquoted, a match's blanks would split it.)
  const u = lastWord('for f in docs/*.md; do cat out/$(basename "$f"); done');
  assert.equal(u.around, undefined);
  assert.equal(u.kind, "dynamic");
});

Deno.test("mktemp: where it makes its new name, as coreutils places it", () => {
  const cwds = ["/p"];
  const rows: [string[], string | null | undefined, { dir: string; name: string } | null][] = [
    [[], undefined, { dir: "/tmp", name: "tmp.??????????" }],
    [["-d"], undefined, { dir: "/tmp", name: "tmp.??????????" }],
    [[], "/var/t", { dir: "/var/t", name: "tmp.??????????" }],
    [[], "", { dir: "/tmp", name: "tmp.??????????" }],
    [["-t", "x.XXXX"], "/var/t", { dir: "/var/t", name: "x.????" }],
    [["-p", "/srv", "-t", "x.XXXX"], "/var/t", { dir: "/var/t", name: "x.????" }],
    [["-p", "/srv", "-t", "x.XXXX"], undefined, { dir: "/srv", name: "x.????" }],
    [["-p", "/srv", "x.XXXX"], "/var/t", { dir: "/srv", name: "x.????" }],
    [["-pout"], undefined, { dir: "/p/out", name: "tmp.??????????" }],
    [["-dp", "out"], undefined, { dir: "/p/out", name: "tmp.??????????" }],
    [["--tmpdir=/srv", "a/bXXX"], undefined, { dir: "/srv/a", name: "b???" }],
    [["--tmpdir", "x.XXX"], "/var/t", { dir: "/var/t", name: "x.???" }],
    [["x.XXXXXX"], "/var/t", { dir: "/p", name: "x.??????" }],
    [["../k/XXXXXX"], undefined, { dir: "/p/../k", name: "??????" }],
    [["/srv/k.XXX.pem"], undefined, { dir: "/srv", name: "k.???.pem" }],
    [["--suffix=.pem", "-u", "/srv/kXXX"], undefined, { dir: "/srv", name: "k???.pem" }],
    [["-q", "--", "/srv/kXXX"], undefined, { dir: "/srv", name: "k???" }],
    // Refused by mktemp, or not known here.
    [["-t", "a/XXX"], undefined, null],
    [["-p", "/srv", "/abs/XXX"], undefined, null],
    [["--suffix=/x", "XXX"], undefined, null],
    [["--suffix=.x", "XXXa"], undefined, null],
    [["aXX"], undefined, null],
    [["a*XXX"], undefined, null],
    [["a", "b"], undefined, null],
    [["-z"], undefined, null],
    [["-p"], undefined, null],
    [[], null, null],
  ];
  for (const [args, tmpdir, want] of rows) {
    assert.deepEqual(mktempOutput(args, tmpdir, cwds), want, args.join(" "));
  }
  assert.equal(mktempOutput(["x.XXX"], undefined, [null]), null);
  assert.equal(mktempOutput(["x.XXX"], undefined, ["/a", "/b"]), null);
  assert.deepEqual(mktempOutput(["/x/XXX"], undefined, [null]), { dir: "/x", name: "???" });
});

Deno.test("mktemp: a new name in a known directory, followed through an assignment", () => {
  const tmp = { program: "mktemp", dir: "/tmp/t", name: "tmp.??????????" };
  assert.deepEqual(lastWord('cat "$(mktemp)"').output, { ...tmp, rest: "" });
  assert.deepEqual(lastWord("cat $(mktemp -d)").output, { ...tmp, rest: "" });
  assert.deepEqual(lastWord('T=$(mktemp -d); cat "$T/x"').output, { ...tmp, rest: "/x" });
  assert.deepEqual(lastWord('T="$(mktemp)"; cat "$T"').output, { ...tmp, rest: "" });
  assert.deepEqual(lastWord('T=$(mktemp -d)/a; cat "$T"/b').output, { ...tmp, rest: "/a/b" });
  assert.deepEqual(lastWord("T=$(mktemp); cat $T").output, { ...tmp, rest: "" });
  const rows = [
    'TMPDIR=~/.ssh; cat "$(mktemp)"',
    'export TMPDIR=~/.ssh; cat "$(mktemp)"',
    'cat "$(mktemp)".pem',
    'cat "x$(mktemp)"',
    'cat "$(mktemp -d)/../../k"',
    'cat "$(mktemp -d)/*"',
    'mktemp() { echo ~/.ssh/id_rsa; }; cat "$(mktemp)"',
    'PATH=~/bin:$PATH; cat "$(mktemp)"',
    'hash -p ~/bin/x mktemp; cat "$(mktemp)"',
    'cat "$(mktemp -p "$X")"',
    'cat $(mktemp -p "/a b")',
    'T=$(mktemp); T+=x; cat "$T"',
    'T=$(mktemp); cd /x; cat "$T"',
    'cat "${T:-$(mktemp)}"',
  ];
  for (const command of rows) {
    const w = lastWord(command);
    assert.equal(w.output, undefined, command);
    assert.equal(w.kind, "dynamic", command);
  }
});

Deno.test("which, command -v, type -P: a program's path, looked up in the tool's PATH", () => {
  const which = (name: string, split: boolean) => ({ program: "which", name, split });
  assert.deepEqual(lastWord("ldd $(which node)").output, which("node", true));
  assert.deepEqual(lastWord('ldd "$(which node)"').output, which("node", false));
  assert.deepEqual(lastWord('file "$(command -v python3)"').output, which("python3", false));
  assert.deepEqual(lastWord('file "$(type -P g++)"').output, which("g++", false));
  assert.deepEqual(lastWord('N=$(which node); ldd "$N"').output, which("node", false));
  assert.deepEqual(lastWord("N=$(which node); ldd $N").output, which("node", true));
  const rows = [
    'cat "$(command -v cd)"',
    'cat "$(command -v if)"',
    'f() { :; }; cat "$(command -v f)"',
    'cat "$(which -a node)"',
    'cat "$(which node python3)"',
    'cat "$(which ./node)"',
    'cat "$(which ~/.ssh/id_rsa)"',
    'cat "$(type node)"',
    'cat "$(command -V node)"',
    'PATH=~/.ssh:$PATH; cat "$(which id_rsa)"',
    'export PATH=~/.ssh; cat "$(which id_rsa)"',
    'hash -p ~/.ssh/id_rsa node; cat "$(command -v node)"',
    'which() { echo ~/.ssh/id_rsa; }; cat "$(which node)"',
    'cat "$(which node)/x"',
  ];
  for (const command of rows) {
    const w = lastWord(command);
    assert.equal(w.output, undefined, command);
    assert.equal(w.kind, "dynamic", command);
  }
  assert.equal(ENV.env.PATH, undefined);
});

Deno.test("an unquoted `$(…)` word of one pipeline is what its last command prints, split", () => {
  // [command, whether the last word of its last stage is the substitution's split output]
  const rows: [string, boolean][] = [
    ["cat $(find src)", true],
    ["cat $(find src | head -3)", true],
    ["cat $(find src 2>/dev/null)", true],
    ["for f in $(git ls-files); do cat $f; done", true],
    ['for f in $(git ls-files); do cat "$f"; done', true],
    // Quoted: one word of several lines. Glued to text, several substitutions, a list: not so.
    ['cat "$(find src)"', false],
    ["cat x$(find src)", false],
    ["cat $(find src)$(find lib)", false],
    ["cat $(cd src; find .)", false],
    ["cat $(find src && echo .env)", false],
    ["cat `find src`", false],
    // IFS, PATH, a function of the name: what bash splits it into, or what runs, is not known.
    ["IFS=/; cat $(find src)", false],
    ["PATH=/tmp:$PATH; cat $(find src)", false],
    ["find() { :; }; cat $(find src)", false],
    ["for f in $(find src); do cat $f.bak; done", false],
  ];
  const wrong: string[] = [];
  for (const [command, split] of rows) {
    const stages = stagesOf(command);
    const word = stages[stages.length - 1].argv.at(-1)!;
    if (!!word.line?.split !== split) wrong.push(`${command}: ${!split ? "split" : "not split"}`);
    // (From the substitution's last command, walked just before.)
    if (split && word.line!.from.text !== stages[stages.length - 2].text) {
      wrong.push(`${command}: from ${word.line!.from.text}`);
    }
  }
  assert.deepEqual(wrong, []);
});
