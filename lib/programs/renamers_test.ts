/**
 * Renamers that compute the new names (Perl's `rename`, util-linux's `rename FROM TO FILE…`):
 * what they write is judged where it lands, computed where it can be, else not known.
 */
import assert from "node:assert/strict";
import { checkGateTable } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";
import { literal } from "./words.ts";
import type { Action } from "../types.ts";
import type { Word } from "../shell/model.ts";
import { perlEdits } from "./perl_substitutions.ts";
import { programNamed } from "./registry.ts";

const P = "/home/user/project";
const ctx = ctxIn(P, {
  files: [
    `${P}/x.js`,
    `${P}/a.txt`,
    `${P}/key.pub`,
    `${P}/settings.json`,
    `${P}/src/a.js`,
    `${P}/.pi/settings.json`,
    `${P}/.env`,
  ],
});

/** [command, under the deny-list, under the gate's own-file protection] */
const ROWS: [string, Action, Action][] = [
  // Perl's expression builds a path elsewhere: into the gate's files, ~/.ssh, above the cwd.
  ["rename 's,^,.pi/extensions/,' x.js", "allow", "ask"],
  ["prename 's,^,.pi/extensions/,' x.js", "allow", "ask"],
  ["file-rename -v 's/^/.pi\\/extensions\\//' x.js", "allow", "ask"],
  ["rename 's,^,/home/user/.ssh/authorized_,; s,key\\.pub,keys,' key.pub", "deny", "allow"],
  ["rename -e 's,^,../.ssh/authorized_,' -e 's,key\\.pub,keys,' key.pub", "deny", "allow"],
  ["rename 's/x.js/.env/' x.js", "deny", "allow"],
  ["rename 's/\\.js$/.pem/' x.js", "deny", "allow"],
  // Code it cannot reproduce, names from stdin, globs it may move elsewhere: not known.
  [`rename '$_=chr(46)."env"' x.js`, "ask", "ask"],
  ["rename 's/x/chr(46)/e' x.js", "ask", "ask"],
  ["rename 's/^/./' *.js", "allow", "allow"],
  ["rename 's/src/..\\/.ssh/' src/*.js", "deny", "allow"],
  ["find . -name '*.js' | rename 's/a/b/'", "ask", "ask"],
  ["rename -u 's/a/b/' x.js", "ask", "ask"],
  // util-linux: FROM put as TO, in the last name or (older) the whole path.
  ["rename.ul settings .pi/settings settings.json", "allow", "ask"],
  ["rename settings .pi/settings settings.json", "ask", "ask"],
  ["rename.ul x ../.ssh/authorized_keys x.js", "deny", "allow"],
  ["rename.ul -s a b x.js", "ask", "ask"],
  ["rename.ul x.js .env *.js", "deny", "allow"],
  ["rename.ul -s x .x *.js", "ask", "ask"],
  ["rename 's/\\.js/.pem/' *.js", "deny", "allow"],
  ["echo x.js | rename 's,^,.pi/,'", "ask", "ask"],
  ["rename 's/^x/.e/' x*", "allow", "allow"],
  ["rename 's/^x.js/.e/;s/e$/env/' x*", "deny", "allow"],
  ["rename 's/^src/.pi/' src*", "allow", "ask"],
  // Everyday renames stay allowed (`-n` renames nothing; no input, no names).
  ["rename 's/^fgh/jkl/' fgh*", "allow", "allow"],
  ["rename 's/0000/000/' F0000*", "allow", "allow"],
  ["rename 's/^123_//' *.txt", "allow", "allow"],
  ["rename -n 's,^,.pi/extensions/,' x.js", "allow", "allow"],
  ["rename 's/ /_/g'", "allow", "allow"],
  ["rename -v 's/\\.JPG/\\.jpeg/' *.JPG", "allow", "allow"],
  ["rename -v 's#/a##' src/a.js", "allow", "allow"],
  ["rename 's/\\.txt$/.md/' *.txt", "allow", "allow"],
  ["rename 's/\\.js$/.ts/' src/*.js", "allow", "allow"],
  ["rename -n 's/x/y/' x.js", "allow", "allow"],
  ["rename 's/(\\w+)\\.js/$1.ts/' x.js", "allow", "allow"],
  ["rename 'y/a-z/A-Z/' x.js", "allow", "allow"],
  ["rename.ul .js .ts *.js", "allow", "allow"],
  ["rename .js .ts *.js", "allow", "allow"],
  ["rename.ul -a .js .ts src/*.js", "allow", "allow"],
  ["rename .htm .html a.txt", "allow", "allow"],
];

Deno.test("renamers: the names they compute are judged where they land", async () => {
  await checkGateTable(ctx, ROWS);
});

/** Where the gate is not sure it reads the words as the renamer does: not known, never nothing. */
const UNSURE: [string, Action, Action][] = [
  // Perl's code runs with `-n` and with no name to rename (compiled first, run before `-n`).
  [`rename -n 'system("rm -rf ~")' x.js`, "ask", "ask"],
  [`rename -e 'system("rm -rf ~")' -n x.js`, "ask", "ask"],
  [`rename --nono 'unlink "x.js"' x.js`, "ask", "ask"],
  ["rename 'BEGIN{system(q(id))}'", "ask", "ask"],
  ["rename -n 's/x/y/;BEGIN{system(q(id))}'", "ask", "ask"],
  ["prename -n 's/x/y/ and system(1)' x.js", "ask", "ask"],
  // File::Rename's options as Getopt::Long reads them: a long name after one dash, `--e`,
  // `--no-path`; one it does not know is not known (another version's, a misspelling).
  ["rename -force 's/x.js/.e/;s/e$/env/' x.js", "deny", "allow"],
  ["rename -nono 's/x.js/.e/;s/e$/env/' x.js", "allow", "allow"],
  ["rename --e 's/x.js/.e/;s/e$/env/' x.js", "deny", "allow"],
  ["rename --E 's,^,.pi/extensions/,' x.js", "allow", "ask"],
  ["rename -es,^,.pi/extensions/, x.js", "allow", "ask"],
  ["rename --no-path 's/x.js/.e/;s/e$/env/' x.js", "deny", "allow"],
  ["rename -nopath 's,^,.pi/extensions/,' x.js", "allow", "ask"],
  ["rename -verbose -path 's/.*/..\\/.ssh\\/authorized_keys/' x.js", "deny", "allow"],
  ["file-rename -filename 's,^,../.ssh/,' src/a.js", "allow", "allow"],
  ["file-rename -fullpath 's,^,../.ssh/,' src/a.js", "deny", "allow"],
  ["rename --frobnicate 's/a/b/' x.js", "ask", "ask"],
  ["rename --constructor 's/a/b/' x.js", "ask", "ask"],
  ["rename --verb 's,^,.pi/,' x.js", "ask", "ask"],
  ["perl-rename --sanitize x.js", "ask", "ask"],
  ["rename -u utf8 's/a/b/' x.js", "ask", "ask"],
  // Regex and replacement syntax Perl reads otherwise than JavaScript: not known.
  ["rename 's/^[[:lower:]]\\.js$/.e/;s/e$/env/' x.js", "ask", "ask"],
  ["rename 's/x.js/.env$10/' x.js", "ask", "ask"],
  ["rename 's/(x).js/.env${2}/' x.js", "ask", "ask"],
  ["rename 's/x\\.js/\\u.env/' x.js", "ask", "ask"],
  ["rename 's/\\Qx.js\\E/.e/;s/e$/env/' x.js", "ask", "ask"],
  ["rename 's/(?<n>x)\\.js/$+{n}.e/;s/e$/env/' x.js", "ask", "ask"],
  ["rename 's/x.js/.e/x;s/e$/env/' x.js", "ask", "ask"],
  ["rename 's/x.js/q(.e)/ee;s/e$/env/' x.js", "ask", "ask"],
  ["rename 's/x.js/.e/r;s/e$/env/' x.js", "ask", "ask"],
  ["rename 's/x/z/;s//.e/;s/e$/env/' x.js", "ask", "ask"],
  ["rename 's/x@a/.e/;s/e$/env/' x.js", "ask", "ask"],
  ["rename 's/x\\K.js/.e/;s/e$/env/' x.js", "ask", "ask"],
  ["rename 's/x{,3}.js/.e/;s/e$/env/' x.js", "ask", "ask"],
  ["rename 's/x.js$)/.e/;s/e$/env/' x.js", "ask", "ask"],
  // util-linux's getopt_long reads options among the operands: `-s` after them too.
  ["rename.ul x y x.js -s", "ask", "ask"],
  ["rename.ul x y x.js --symlink", "ask", "ask"],
  ["rename.ul x .pi/extensions/x x.js -v", "allow", "ask"],
  ["rename.ul s .ssh/s *.js", "allow", "allow"],
  ["rename.ul x ../.ssh/x *.js", "deny", "allow"],
  // A glob's matches moved out of its directory by a regex spanning the `/` (Perl edits the
  // whole path): each match renamed as it is.
  ["rename 's/c(?=.a)/.pi\\/c/' src/*.js", "allow", "allow"],
  ["rename 's/src(?=.a)/.pi\\/extensions/' src/*.js", "allow", "ask"],
  ["rename 's/\\.zz|src\\/a/.pi/' src/*.js", "allow", "ask"],
  // Everyday renames stay allowed.
  ["rename 's/\\.txt$/.md/' *.txt", "allow", "allow"],
  ["rename s/foo/bar/ foo.c", "allow", "allow"],
  ["rename -n 's/ /_/g' *", "allow", "allow"],
  ["rename -vn 's/ /_/g' *.txt", "allow", "allow"],
  ["rename.ul .htm .html *.htm", "allow", "allow"],
  ["rename.ul .htm .html *.htm -v", "allow", "allow"],
  ["rename -f 's/\\.JPG$/.jpg/i' *.JPG", "allow", "allow"],
  ["rename -- 's/(\\d+)-(\\d+)/$2-$1/' a.txt", "allow", "allow"],
  ["rename -v 's/\\s+/_/g; y/A-Z/a-z/' a.txt", "allow", "allow"],
  ["rename 's/_h.png/_half.png/' *.png", "allow", "allow"],
  ["rename 's/a(?=.txt)/b/' *.txt", "allow", "allow"],
  ["rename -h", "allow", "allow"],
  // With `g`, Perl tries an empty match's place again for a longer one, JavaScript moves on:
  // `s/x??//g` removes every x in Perl (`.exnxv` is `.env`), none in JavaScript.
  ["rename 's/x??//g' .exnxv", "ask", "ask"],
  ["rename 's/[x]*?//g' .exnxv", "ask", "ask"],
  ["rename 's/(|x)+/$1/g' .exnxv", "ask", "ask"],
  ["rename 's/x*//g' .exnxv", "ask", "ask"],
  ["rename 's/ /_/g' x.js", "allow", "allow"],
];

Deno.test("renamers: what the gate is not sure of is not known", async () => {
  await checkGateTable(ctx, UNSURE);
});

Deno.test("renamers: Perl's regex syntax translated where JavaScript reads it alike", () => {
  const named = programNamed("rename")!.namedFiles!;
  const paths = (c: string[]) =>
    named(c.map(literal)).filter((f) => !f.unchanged).map((f) => f.path);
  // (`.` is no `\r`-stopper, `$` matches before a last newline, names are edited as bytes.)
  assert.deepEqual(paths(["rename", "s/a.b/X/", "a\rb"]), ["X"]);
  assert.deepEqual(paths(["rename", "s/\\.txt$/.md/", "x.txt\n"]), ["x.md\n"]);
  assert.deepEqual(paths(["rename", "s/(.)(.)/$2$1/", "ab.c"]), ["ba.c"]);
  assert.deepEqual(paths(["rename", "s/^./x/", "été"]), [null]);
  assert.deepEqual(paths(["rename", "s/\\s/_/g", "a\u00a0b c"]), ["a\u00a0b_c"]);
  for (const code of ["s/[[:upper:]]/x/", "s/(a)/$10/", "s/a/$0/", "s/(?<=a)b//", "s/\\Qa/b/"]) {
    assert.equal(perlEdits(code), null, code);
  }
});

Deno.test("renamers: Perl expressions reproduced exactly, others not", () => {
  assert.equal(perlEdits("s/a/b/g; y/x/y/")?.length, 2);
  for (const code of ["s/a/b/e", "s/a/@{[`id`]}/", "s/(?{system 1})//", "$_=lc", "s{a}{b}"]) {
    assert.equal(perlEdits(code), null, code);
  }
  const named = programNamed("rename")!.namedFiles!;
  const paths = (c: string[]) =>
    named(c.map(literal)).filter((f) => !f.unchanged).map((f) => f.path);
  assert.deepEqual(paths(["rename", "s/(\\d+)/n$1/", "a12.txt"]), ["an12.txt"]);
  assert.deepEqual(paths(["rename.ul", "-l", "a", "b", "d/a.a"]), ["d/a.b"]);
  assert.deepEqual(paths(["rename.ul", "d", "e", "d/d"]), ["e/d", "d/e"]);
});

const D = "/home/user/work";
const dotCtx = ctxIn(D, {
  files: [
    `${D}/x.env`,
    `${D}/env`,
    `${D}/v`,
    `${D}/my file.txt`,
    `${D}/README.md`,
    `${D}/IMG.JPG`,
    `${D}/.env.bak`,
    `${D}/src/a.js`,
    "/home/user/.ssh/id_rsa",
  ],
  links: { [`${D}/keys`]: "/home/user/.ssh" },
});

/** [command, under the deny-list (`.env`, `~/.ssh/**` denied), under the gate's protection] */
const MATCHES: [string, Action, Action][] = [
  // A glob's matches are renamed as they are now: a name the edit brings a `.` to the front of.
  ["file-rename 's/^x//' x*", "deny", "allow"],
  ["prename 's/^x//' *v", "deny", "allow"],
  ["rename 's/^x//' x*", "deny", "allow"],
  ["rename 's/x/..\\/.ssh\\//' x*", "deny", "allow"],
  ["shopt -s dotglob; rename 's/\\.bak$//' *.bak", "deny", "allow"],
  ["rename.ul x '' x*", "deny", "allow"],
  ["rename.ul x '' *.env", "deny", "allow"],
  ["rename.ul -a x '' x*", "deny", "allow"],
  ["rename.ul --last x '' x*", "deny", "allow"],
  // util-linux: an empty FROM is found first (`.en` + `v`), before the last `/` (`d` + TO +
  // `/x`); with `-a` or `-l` it never ends in 2.38.
  ["rename.ul '' .en v", "deny", "allow"],
  ["rename.ul '' . env", "deny", "allow"],
  ["rename.ul -v -o '' . env", "deny", "allow"],
  ["rename.ul --interactive '' . env", "deny", "allow"],
  ["rename.ul '' ../.ssh/ env", "deny", "allow"],
  ["rename.ul '' .pi/extensions/ env", "allow", "ask"],
  ["rename.ul -l '' . env", "ask", "ask"],
  ["rename.ul --all '' . env", "ask", "ask"],
  ["rename.ul -s '' . env", "ask", "ask"],
  ["rename.ul -n '' . env", "allow", "allow"],
  ["rename.ul --no-act '' . v*", "allow", "allow"],
  ["rename.ul x x x*", "allow", "allow"],
  // Everyday renames: a name the edit leaves as it is is not moved (`keys`, a link to ~/.ssh).
  ["prename 's/ /_/g' *", "allow", "allow"],
  ["rename 's/ /_/g' keys", "allow", "allow"],
  ["prename 's/e/E/' k*", "deny", "allow"],
  ["rename 's/^/old_/' *.md", "allow", "allow"],
  ["rename 's/$/.bak/' *.md", "allow", "allow"],
  ["rename 'y/A-Z/a-z/' *.JPG", "allow", "allow"],
  ["rename -v 's/\\.JPG$/.jpg/' *", "allow", "allow"],
  ["rename.ul .JPG .jpg *", "allow", "allow"],
];

Deno.test("renamers: a glob's matches renamed as they are now", async () => {
  await checkGateTable(dotCtx, MATCHES);
});

Deno.test("renamers: the names of matches not known include dot names and leave no directory", () => {
  const named = programNamed("rename")!.namedFiles!;
  const glob = (t: string): Word => ({
    value: t,
    kind: "glob",
    prefix: t.slice(0, t.search(/[*?]/)),
    text: t,
    pattern: t,
  });
  const made = (argv: string[], dotglob = false) =>
    named(argv.map((a) => /[*?]/.test(a) ? glob(a) : literal(a)), undefined, {
      globs: { words: () => null, dotglob },
    }).filter((f) => !f.unchanged).map((f) => f.path);
  // (An edit that may bring a `.` to the front: the dot names of each pattern.)
  assert.deepEqual(made(["prename", "s/^x//", "x*"]), ["*", ".*"]);
  assert.deepEqual(made(["prename", "s/^x//", "*v"]), ["*v", "v", ".*v"]);
  assert.deepEqual(made(["prename", "s/^123_//", "*.txt"]), ["*.txt", ".txt", ".*.txt"]);
  assert.deepEqual(made(["rename.ul", "x", "", "x*"]), ["*", ".*"]);
  assert.deepEqual(made(["rename.ul", "js", "", "*.js"]), [
    "*.",
    "*.js",
    ".*.",
    ".",
    ".*.js",
    ".js",
  ]);
  assert.deepEqual(made(["rename.ul", "", ".e", "x*"]), [".ex*"]);
  // (None can: the names' start stays, or another character is put there.)
  assert.deepEqual(made(["prename", "s/\\.txt$/.md/", "*.txt"]), ["*.md"]);
  assert.deepEqual(made(["prename", "s/^/old_/", "*.md"]), ["old_*.md"]);
  assert.deepEqual(made(["prename", "y/A-Z/a-z/", "*.JPG"]), ["*.jpg"]);
  assert.deepEqual(made(["rename.ul", ".js", ".ts", "src/*.js"]), ["src/*.ts", "src/*.js"]);
  // (Under dotglob a match may start with `.` already.)
  assert.deepEqual(made(["prename", "s/\\.bak$//", "*.bak"], true), ["*", ".*"]);
  // (A match moved out of its directory, an empty FROM before its `/`: not known.)
  for (
    const argv of [
      ["prename", "s/c(?=.a)/.pi\\/c/", "src/*.js"],
      ["prename", "s/\\.zz|rc.a/rc.pi/", "src/*.js"],
      ["prename", "s/x/..\\/.ssh\\//", "x*"],
      ["prename", "s/^/old_/", "src/*.md"],
      ["rename.ul", "c/a", ".pi/x", "src/*.js"],
      ["rename.ul", "", "A", "src/*.js"],
      ["rename.ul", "-l", "", "A", "*.js"],
    ]
  ) assert.deepEqual(made(argv), [null], argv.join(" "));
});
