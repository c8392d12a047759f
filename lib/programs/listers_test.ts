/**
 * Programs that print paths a later stage reads (issue 20, class 4): `ls`, `fd`, and `xargs` fed
 * by one of them running a program that lists what it is given (`… | xargs grep -l x | xargs
 * …`). Their listings, and hostile spellings of each at their verdicts.
 */
import assert from "node:assert/strict";
import { analyzeBash } from "../shell/analyze.ts";
import { loadBashParser } from "../shell/parser.ts";
import { innerRuns } from "../testing_stages.ts";
import { checkTable } from "../testing_adversarial.ts";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import type { Action } from "../types.ts";
import { carriesCommand } from "./env.ts";
import { withLines } from "./expand.ts";

const parser = await loadBashParser();

/** What the last stage of a pipeline runs, listed words marked `@`. */
const runs = (command: string) => innerRuns(parser, command, { of: "last" });

Deno.test("ls: what it prints into a pipe is names a reader opens in its own cwd", () => {
  // deno-fmt-ignore
  const rows: [string, string][] = [
    // A directory's entries by their bare names (`./NAME`), not hidden; a file operand as it is.
    ["ls src | xargs cat", "cat src @./(paths ls lists)/*"],
    ["ls -1 | xargs cat", "cat @./(paths ls lists)/*"],
    ["ls -A | xargs cat", "cat @./(paths ls lists)/"],
    ["ls --color=never -t src | xargs cat", "cat src @./(paths ls lists)/*"],
    // -d: the operands themselves (a glob: its matches).
    ["ls -d src/* | xargs cat", "cat src/*"],
    ["ls -d */ | xargs du -sh", "du -sh */"],
    ["ls -d | xargs cat", "cat ."],
    // Headers (`src:`, `.:`) with several operands or -R, hidden when an operand is.
    ["ls src tests | xargs cat", "cat src tests @./(paths ls lists)/*"],
    ["ls -R | xargs cat", "cat .: @./(paths ls lists)/*"],
    ["ls -R .github | xargs cat", "cat .github @./(paths ls lists)/"],
    // Anything else it may print: not said.
    ["ls -a | xargs cat", "cat (xargs input)"], // `..`
    ["ls -l src | xargs cat", "cat (xargs input)"],
    ["ls -F src | xargs cat", "cat (xargs input)"], // `dir/`, `link@`
    ["ls -p | xargs cat", "cat (xargs input)"],
    ["ls -Q | xargs cat", "cat (xargs input)"],
    ["ls -m | xargs cat", "cat (xargs input)"],
    ["ls -s | xargs cat", "cat (xargs input)"],
    ["ls -i | xargs cat", "cat (xargs input)"],
    ["ls -b | xargs cat", "cat (xargs input)"],
    ["ls -C | xargs cat", "cat (xargs input)"],
    ["ls --color | xargs cat", "cat (xargs input)"],
    ["ls --colo=always | xargs cat", "cat (xargs input)"],
    ["ls --format=long | xargs cat", "cat (xargs input)"],
    ["ls --hyperlink | xargs cat", "cat (xargs input)"],
    ["ls $D | xargs cat", "cat (xargs input)"],
    ["ls *.py | xargs cat", "cat (xargs input)"], // `*` may match `-l`
    ["ls -- -l | xargs cat", "cat (xargs input)"],
    ["ls src ../x | xargs cat", "cat (xargs input)"], // a header `../x:` leaves the cwd
    ["ls -R ~ | xargs cat", "cat (xargs input)"],
  ];
  for (const [command, want] of rows) assert.deepEqual(runs(command), [want], command);
});

Deno.test("fd: what it prints is paths below its search paths", () => {
  // deno-fmt-ignore
  const rows: [string, string][] = [
    ["fd -e py . src tests | xargs wc -l", "wc -l @src/(paths fd lists)/*.py @tests/(paths fd lists)/*.py"],
    ["fd | xargs cat", "cat @./(paths fd lists)/*"],
    ["fdfind -0 x src | xargs -0 cat", "cat @src/(paths fdfind lists)/*"],
    ["fd --search-path src x | xargs cat", "cat @src/(paths fd lists)/*"],
    // Hidden names only with -H / -u.
    ["fd -H -e .py | xargs cat", "cat @./(paths fd lists)/*.py @./(paths fd lists)/.*.py @./(paths fd lists)/.py"],
    ["fd -u x src | xargs cat", "cat @src/(paths fd lists)/"],
    // Output that is no path list, paths relative to another directory, anything not known.
    ["fd -l . src | xargs cat", "cat (xargs input)"],
    ["fd -x echo | xargs cat", "cat (xargs input)"],
    ["fd -HX echo | xargs cat", "cat (xargs input)"],
    ["fd --format '/etc/{}' . src | xargs cat", "cat (xargs input)"],
    ["fd --base-directory ~/.ssh . | xargs cat", "cat (xargs input)"],
    ["fd --path-separator=x . src | xargs cat", "cat (xargs input)"],
    ["fd -c always . src | xargs cat", "cat (xargs input)"],
    ["fd --newer-flag . src | xargs cat", "cat (xargs input)"],
    ["fd . $D | xargs cat", "cat (xargs input)"],
  ];
  for (const [command, want] of rows) assert.deepEqual(runs(command), [want], command);
});

Deno.test("fd: -x / -X run a command on the paths it lists, in a cluster or glued too", () => {
  assert.deepEqual(runs("fd -e py -x wc -l"), ["wc -l @./(paths fd lists)/*.py"]);
  assert.deepEqual(runs("fd -Hx rm {} \\; . src"), ["rm @src/(paths fd lists)/"]);
  assert.deepEqual(runs("fd -HIX rm"), ["rm @./(paths fd lists)/"]);
  assert.deepEqual(runs("fd -xrm"), ["rm @./(paths fd lists)/*"]);
  assert.deepEqual(runs("fd . src --exec-batch=rm"), ["rm @src/(paths fd lists)/*"]);
  // (Every word after it up to `;` is the command.)
  assert.deepEqual(runs("fd --exec-batch=rm . src"), ["rm . src @./(paths fd lists)/*"]);
  assert.deepEqual(runs("fd --exec rm \\; . src"), ["rm @src/(paths fd lists)/*"]);
  // Another placeholder (`{/}` is a bare name), the path inside text: not known.
  assert.deepEqual(runs("fd -x mv {} {/.}.bak"), ["mv @./(paths fd lists)/* {/.}.bak"]);
  assert.deepEqual(runs("fd -x cat {/}"), ["cat {/}"]);
  // (The shell text with fd's path in it is not known: a stage not known runs.)
  assert.deepEqual(runs("fd -x sh -c 'rm {}'"), ["sh -c rm {}", "rm {}"]);
  // What fd lists is not known: what it finds is not.
  assert.deepEqual(runs("fd -l -x rm"), ["rm (what fd found)"]);
  // `-tx` is the type `x` (executables), no command.
  assert.deepEqual(runs("fd -tx"), []);
  // A word not known may be `-xrm`.
  assert.deepEqual(runs('fd "$p"'), ['(a command "$p" may give fd)']);
});

Deno.test("xargs: a command that lists what it is given lists what xargs gives it", () => {
  assert.deepEqual(
    runs("find src -name '*.py' | xargs grep -l foo | xargs sed -n 1p"),
    ["sed -n 1p @src/(paths find lists)/*.py @src/(paths find lists)/.*.py @src/(paths find lists)/.py"],
  );
  assert.deepEqual(runs("grep -l x src/*.py | xargs cat"), ["cat src/*.py"]);
  assert.deepEqual(runs("fd -e ts . src | xargs grep -L x | xargs wc -l"), [
    "wc -l @src/(paths fd lists)/*.ts",
  ]);
  // grep -r below the listed paths: paths below them.
  assert.deepEqual(runs("find src | xargs grep -rl x | xargs cat"), [
    "cat @src/(paths xargs lists)/",
  ]);
  // xargs echoes on one line, a count, a placeholder inside a word, input not listed: not said.
  for (
    const c of [
      "find src | xargs | xargs cat",
      "find src | xargs grep -c x | xargs cat",
      "find src | xargs -I{} grep -l x {}/.. | xargs cat",
      "cat list | xargs grep -l x | xargs cat",
      "find src | xargs -a list grep -l x | xargs cat",
      "find src | xargs grep -l x - | xargs cat",
    ]
  ) {
    assert.deepEqual(runs(c), ["cat (xargs input)"], c);
  }
});

/** [command, under read-only, under the deny-list]: listers' hostile spellings and everyday ones. */
// deno-fmt-ignore
const ROWS: [string, Action, Action][] = [
  // ls: the names are opened in the cwd, whose tree holds links to the key (innocent.txt, keys).
  ["ls ~/.ssh | xargs cat", "deny", "deny"],
  ["ls | xargs cat", "deny", "deny"],
  ["ls -a | xargs cat", "ask", "ask"],
  ["ls -A src | xargs cat", "deny", "deny"],
  ["ls keys | xargs rm", "deny", "deny"],
  ["ls -d src/* | xargs cat", "allow", "allow"],
  ["ls -d src/* | xargs rm", "deny", "deny"],
  ["ls -d ~/.ssh/* | xargs cat", "deny", "deny"],
  ["ls -d .e* | xargs cat", "deny", "deny"],
  ["ls -d | xargs rm -rf", "deny", "deny"],
  ["ls -l src | xargs cat", "ask", "ask"],
  ["ls -F src | xargs cat", "ask", "ask"],
  ["ls --color=always | xargs cat", "ask", "ask"],
  ["ls -R ../ | xargs cat", "ask", "ask"],
  ["ls src ~ | xargs cat", "ask", "ask"],
  ["ls -I x -- -l | xargs cat", "ask", "ask"],
  // fd (not in $safe-bash: read-only denies it).
  ["fd -e ts . src | xargs cat", "deny", "allow"],
  ["fd . src | xargs cat", "deny", "ask"], // a *.pem may be below src
  ["fd . / -x rm", "deny", "deny"],
  ["fd . ~/.ssh -x cat", "deny", "deny"],
  ["fd . keys -X cat", "deny", "deny"],
  ["fd -x cat {/}", "deny", "ask"], // a bare name, opened in the cwd
  ["fd -x sh -c 'cat {}'", "deny", "deny"],
  ["fd -e ts . src -X wc -l", "deny", "allow"],
  ["fd -X rm", "deny", "deny"],
  ["fd -Hx rm", "deny", "deny"],
  ["fd -xrm", "deny", "deny"],
  ["fd --exec=rm", "deny", "deny"],
  ["fd . ~/.ssh | xargs cat", "deny", "deny"],
  ["fd . keys | xargs cat", "deny", "deny"],
  ["fd -L . src | xargs cat", "deny", "deny"],
  ["fd --base-directory ~/.ssh . | xargs cat", "deny", "deny"],
  ["fd -l . src | xargs cat", "deny", "ask"],
  // A second xargs fed by grep -l over listed paths.
  ['find src -name "*.ts" | xargs grep -l x | xargs cat', "allow", "allow"],
  ['find src -name "*.ts" | xargs grep -l x | xargs rm', "deny", "deny"],
  ['find . -name "*.txt" | xargs grep -l x | xargs cat', "deny", "deny"],
  ['find . -name "*.ts" | xargs grep -l x | xargs cat', "allow", "allow"],
  ["find ~/.ssh | xargs grep -l x | xargs cat", "deny", "deny"],
  ["find keys/ | xargs grep -l x | xargs cat", "deny", "deny"],
  ["find src | xargs grep -c x | xargs cat", "ask", "ask"],
  ['find src -name "*.ts" | xargs grep -l x | xargs -I{} cat {}/../../.env', "deny", "deny"],
  ['find src -name "*.ts" | xargs grep -l x - | xargs cat', "ask", "ask"],
  ["grep -l x src/*.ts | xargs cat", "allow", "allow"],
  ["grep -l x ~/.ssh/* | xargs cat", "deny", "deny"],
  ["grep -l x *.txt | xargs cat", "deny", "deny"],
];

Deno.test("listers: hostile and everyday spellings get their verdicts", async () => {
  await checkTable(ROWS);
});

Deno.test("while read: a line of a listing program's output is a path of its listing", () => {
  const env = { cwd: "/p", home: "/h", env: { HOME: "/h" }, carriesCommand };
  const stages = (command: string) =>
    analyzeBash(command, env, parser).stages.flatMap(withLines).map((s) =>
      [...s.argv, ...s.redirects.map((r) => r.target!)].map((w) => (w.listed ? "@" : "") + w.value)
        .join(" ")
    );
  assert.deepEqual(stages('find src -name "*.py" | while IFS= read -r f; do wc -l "$f"; done'), [
    "find src -name *.py",
    "read -r f",
    "wc -l @src/(paths find lists)/*.py",
    "wc -l @src/(paths find lists)/.*.py",
    "wc -l @src/(paths find lists)/.py",
  ]);
  // Every use of the line in a stage takes the same path.
  assert.deepEqual(stages('ls -d src/* | while read -r f; do cp "$f" "$f"; done').slice(2), [
    "cp src/* src/*",
  ]);
  // (A glob's match ending in `\` would join two lines without -r.)
  assert.deepEqual(stages('ls -d src/* | while read f; do cat "$f"; done').slice(2), ["cat $f"]);
  // A redirect's target too.
  assert.deepEqual(stages('git ls-files | while read f; do echo x > "$f"; done').slice(2), [
    "echo x @./(paths git lists)/",
  ]);
  // A name grep -l prints as it is given: blanks at its ends stay only with IFS=, `\` with -r.
  assert.deepEqual(stages('grep -l x " a" "b\\\\c" | while read f; do cat "$f"; done').slice(2), [
    "cat $f",
    "cat $f",
  ]);
  assert.deepEqual(
    stages('grep -l x " a" "b\\\\c" | while IFS= read -r f; do cat "$f"; done').slice(2),
    ["cat  a", "cat b\\c"],
  );
  // A program whose output is not known: the line stays unknown.
  assert.deepEqual(stages('cat list | while read f; do cat "$f"; done').slice(2), ["cat $f"]);
});

// deno-fmt-ignore
const LOOPS: [string, Action, Action][] = [
  ['find src -name "*.ts" | while IFS= read -r f; do wc -l "$f"; done', "allow", "allow"],
  ['while IFS= read -r f; do cat "$f"; done < <(find src -name "*.ts")', "allow", "allow"],
  // A write, a protected name below, the links in the tree, a place outside.
  ['find . | while read f; do rm "$f"; done', "deny", "deny"],
  ['find src -name "*.ts" | while read f; do echo x > "$f"; done', "deny", "allow"],
  ['find src | while read -r f; do cat "$f"; done', "allow", "allow"], // (no .env below src)
  ['tar xf a.tar -C src; find src | while read -r f; do cat "$f"; done', "deny", "ask"],
  ['git ls-files | while read -r f; do cat "$f"; done', "deny", "deny"],
  ['find keys/ | while read -r f; do cat "$f"; done', "deny", "deny"],
  ['ls ~/.ssh | while read f; do cat "$f"; done', "deny", "deny"],
  ['find ~/.ssh | while read f; do cat "$f"; done', "deny", "deny"],
  ['grep -l x innocent.txt | while read -r f; do cat "$f"; done', "deny", "deny"],
  // Unknown stays unknown.
  ['while read f; do cat "$f"; done < notes.txt', "ask", "ask"],
  ['while read -r f; do cat "$f"; done < <(find src; find ~/.ssh)', "ask", "ask"],
  ['find src -name "*.ts" | while read -r f; do cat "$f"; done < notes.txt', "ask", "ask"],
  ['find src -name "*.ts" | while read -r f; do cat "$f/../../.env"; done', "ask", "ask"],
  ['find src -name "*.ts" | while read f; do f=~/.ssh/id_rsa; cat "$f"; done', "ask", "ask"],
  ['find src -name "*.ts" | while read -n 3 f; do cat "$f"; done', "ask", "ask"],
  ['find src -name "*.ts" | while IFS=/ read -r f; do cat "$f"; done', "deny", "ask"],
  ["read 'a[$(rm x)]'", "deny", "deny"],
  ["read -a x", "deny", "allow"], // (an array's name may be a subscript)
];

Deno.test("while read: hostile and everyday loops get their verdicts", async () => {
  await checkTable(LOOPS);
});

Deno.test("find -exec: `{}` is a path of what find lists up to the primary", async () => {
  const exec = (command: string) => innerRuns(parser, command, { globs: true });
  assert.deepEqual(exec("find src -name '*.py' -exec wc -l {} +"), [
    "wc -l @src/(paths find lists)/*.py @src/(paths find lists)/.*.py @src/(paths find lists)/.py",
  ]);
  assert.deepEqual(exec("find -H /etc -name shadow -exec cat {} \\;"), [
    "cat @/etc/(paths find lists)/shadow",
  ]);
  // Tests after it filter nothing it gets; -execdir's `./NAME`, `{}` in other text: anything
  // below the start points. A second -exec gets what the tests before it let through.
  assert.deepEqual(exec("find src -exec cat {} \\; -name '*.py'"), [
    "cat @src/(paths find lists)/",
  ]);
  assert.deepEqual(exec("find src -name x -execdir cat {} \\;"), ["cat *{}"]);
  assert.deepEqual(exec("find src -name x -exec cat {}/.. \\;"), ["cat *{}/.."]);
  assert.deepEqual(exec("find src -name x -exec true \\; -exec cat {} \\;"), [
    "true",
    "cat @src/(paths find lists)/x",
  ]);
  assert.deepEqual(exec("find src -name x -exec true \\; -o -exec cat {} \\;"), [
    "true",
    "cat @src/(paths find lists)/",
  ]);
  await checkTable([
    ['find src -name "*.ts" -exec cat {} +', "deny", "allow"],
    ['find . -name "*.txt" -exec cat {} +', "deny", "deny"],
    ["find keys/ -exec cat {} +", "deny", "deny"],
    ['find src -exec cat {} \\; -name "*.ts"', "deny", "ask"],
    ['find src ! -name "*.ts" -exec cat {} +', "deny", "ask"],
    ['find src -name "*.ts" -exec cat {}/../../.env \\;', "deny", "deny"],
    ["find -H /etc -name shadow -exec cat {} \\;", "deny", "ask"],
    ['find src -name "*.ts" -ok rm {} \\;', "deny", "deny"],
  ]);
});

Deno.test("find -type f / -type d: no path it lists is a symlink, so no link below is reached", async () => {
  // The project holds `innocent.txt -> ~/.ssh/id_rsa` and `keys -> ~/.ssh`: find (no -L, -H,
  // -follow) never prints them with -type f and never goes into keys; `{}` and `xargs -0` pass
  // each path whole. Anything that lists links or follows them still reaches where they lead.
  await checkTable([
    // (find -exec is no $safe-bash: read-only denies it whatever it runs.)
    ['find . -type f -name "*.ts" -exec cat {} +', "deny", "allow"],
    ['find . -name "*.ts" -type f -exec wc -l {} \\;', "deny", "allow"],
    ['find . -type d -name "*.ts" -exec cat {} +', "deny", "allow"],
    ['find . -type f -name "*.ts" -print0 | xargs -0 cat', "allow", "allow"],
    ['find . -type f -name "*.ts" -print0 | xargs --null cat', "allow", "allow"],
    // Names with blanks would be split by xargs: the tree is looked at (no name splits here).
    ['find . -type f -name "*.ts" | xargs cat', "allow", "allow"],
    // .env may be among the files (a deny glob that may be reached asks).
    ["find . -type f -exec cat {} +", "deny", "ask"],
    // Links listed (by a name the filter matches: `innocent.txt`) or followed (any name).
    ['find . -name "*.txt" -exec cat {} +', "deny", "deny"],
    ['find -L . -type f -name "*.ts" -exec cat {} +', "deny", "deny"],
    ['find . -follow -type f -name "*.ts" -exec cat {} +', "deny", "deny"],
    ['find -H . -type f -name "*.txt" -exec cat {} +', "deny", "deny"],
    ['find -PH . -type f -name "*.txt" -exec cat {} +', "deny", "deny"],
    ['find . -xtype f -name "*.txt" -exec cat {} +', "deny", "deny"],
    ["find . -type l -exec cat {} +", "deny", "deny"],
    ['find . -type f,l -name "*.txt" -exec cat {} +', "deny", "deny"],
    // (Not on every branch: links named as the test says are listed; innocent.txt is one.)
    ['find . -type f -o -name "*.txt" -exec cat {} +', "deny", "deny"],
    ['find . -type f -o -name "*.ts" -exec cat {} +', "deny", "allow"],
    ['find . ! -type d -name "*.txt" -exec cat {} +', "deny", "deny"],
    ['find . -name "*.txt" -print0 | xargs -0 cat', "deny", "deny"],
    // A link of another name is not listed (find does not follow it without -L).
    ['find . -name "*.ts" -exec cat {} +', "deny", "allow"],
    ['find . -name "*.ts" -print0 | xargs -0 cat', "allow", "allow"],
    ['find . -xtype f -name "*.ts" -exec cat {} +', "deny", "allow"],
    ["find keys -type f -exec cat {} +", "deny", "deny"],
    ["find k* -type f -exec cat {} +", "deny", "deny"],
  ]);
});

Deno.test("a find name filter reaches the names a protection surely covers, as --include does", async () => {
  const config = configFrom({
    policies: { p: { defaultAction: "allow", rules: [] } },
    locations: { "/": "p" },
    pathProtection: { "id_rsa*": "ask", "*.pem": "ask", ".env": "ask" },
  });
  const A = "/home/user/app";
  const ctx = ctxIn(A, {
    files: [`${A}/setup.py`, `${A}/deploy/.env`, `${A}/certs/x.pem`, `${A}/old/id_rsa_2`],
  });
  await checkActions(config, ctx, [
    [`find astropy -name "*.py" | xargs grep -l "class X"`, "allow"],
    [`find . -name "*test*" | xargs grep -l urlize`, "allow"],
    [`find . -name "*.py" -print0 | xargs -0 cat`, "allow"],
    // a filter that may match a protected name there is
    [`find . -name "*env" | xargs cat`, "ask"],
    [`find . -name "id_rsa*" | xargs cat`, "ask"],
    [`find . -name "*.pem" | xargs cat`, "ask"],
    [`find . -name ".*" | xargs cat`, "ask"],
    [`find . -name "*" | xargs cat`, "ask"],
  ]);
  // Where no such name lies below (the tree is walked: no stage changes it first), none is
  // reached; a tree over the walk's bounds, or one a stage may change first, may hold any.
  const clean = ctxIn(A, { files: [`${A}/setup.py`, `${A}/src/a.py`] });
  const big = ctxIn(A, { files: Array.from({ length: 300 }, (_, i) => `${A}/d${i}/f.py`) });
  await checkActions(config, clean, [
    [`find . -name "*env" | xargs cat`, "allow"],
    [`find . -type f | xargs cat`, "allow"],
    [`grep -rl x . | xargs cat`, "allow"],
    [`touch src/.env; find . -type f | xargs cat`, "ask"],
    [`cp /tmp/k src/x.pem && find src | xargs cat`, "ask"],
  ]);
  await checkActions(config, big, [[`find . -name "*env" | xargs cat`, "ask"]]);
});
