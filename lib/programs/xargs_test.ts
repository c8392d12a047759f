import assert from "node:assert/strict";
import { loadBashParser } from "../shell/parser.ts";
import { innerRuns } from "../testing_stages.ts";
import { checkTable } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";

const parser = await loadBashParser();

/** The commands xargs/parallel run, as text. */
// (With no settings files to read, those of parallel are not known: not the lines looked at here.)
const runs = (command: string) =>
  innerRuns(parser, command, { listed: false }).filter((l) => l !== "(the options of ~/.parallel)");
/** What the xargs stage of a pipeline runs, listed words marked `@`. */
const cmd = (command: string) => innerRuns(parser, command, { of: { program: "xargs" } });

Deno.test("xargs: its options are read as xargs reads them, clusters and glued values too", () => {
  assert.deepEqual(runs("xargs -0n 5 rm -rf"), ["rm -rf (xargs input)"]);
  assert.deepEqual(runs("xargs -n1 -P4 grep -l x"), ["grep -l x (xargs input)"]);
  assert.deepEqual(runs("xargs -I{} cp {} dir"), ["cp {} dir (xargs input)"]);
  assert.deepEqual(runs("xargs -i rm {}"), ["rm {} (xargs input)"]);
  assert.deepEqual(runs("xargs --max-args 2 rm"), ["rm (xargs input)"]);
  assert.deepEqual(runs("xargs -- -rm"), ["-rm (xargs input)"]);
  assert.deepEqual(runs("xargs"), ["echo (xargs input)"]);
});

Deno.test("xargs: an option it does not know is read both ways (it takes the next word or not)", () => {
  assert.deepEqual(runs("xargs -J % mv % dir"), [
    "% mv % dir (xargs input)",
    "mv % dir (xargs input)",
  ]);
  assert.deepEqual(runs("xargs --frob echo rm x"), [
    "echo rm x (xargs input)",
    "rm x (xargs input)",
  ]);
  // Past a few unknown options, what runs is not known.
  const deep = runs("xargs -Q -Q -Q -Q -Q rm");
  assert.ok(deep.some((c) => c.startsWith("(a command after")), deep.join(" | "));
});

Deno.test("parallel: the command before ::: after parallel's options", () => {
  // Its words joined into a line, each input put in (quoted) or appended.
  assert.deepEqual(runs("parallel -j4 rm ::: a b"), ["rm a", "rm b"]);
  assert.deepEqual(runs("parallel --jobs 4 --tty vim ::: a"), ["vim a"]);
  // Its input not known: the line with the replacement string as it is, and the command with an
  // input not known.
  assert.deepEqual(runs("parallel gzip"), ["gzip", "gzip (parallel input)"]);
  // `-q` quotes each word: the command as given.
  assert.deepEqual(runs("parallel -q rm ::: a"), ["rm (parallel input)"]);
});

Deno.test("parallel: its command words are one shell line, the inputs put in where known", () => {
  assert.deepEqual(runs("parallel 'cat {} > {.}.out' ::: a.txt"), ["cat a.txt"]);
  assert.deepEqual(runs("parallel 'mv {} {//}/x{/.}' ::: d/a.txt"), ["mv d/a.txt d/xa"]);
  assert.deepEqual(runs("parallel cat {} '|' wc ::: a"), ["cat a", "wc"]);
  assert.deepEqual(runs("parallel -I @@ 'cat s/@@' ::: k"), ["cat s/k"]);
  // An input is one word of the line (quoted), whatever it holds.
  assert.deepEqual(runs("parallel cat ::: 'a; rm b'"), ["cat a; rm b"]);
  // --pipe: the blocks of its input are the command's stdin.
  assert.deepEqual(runs("parallel --pipe 'wc -l > n'"), ["wc -l"]);
});

Deno.test("parallel: a command line is judged as the shell line it is", async () => {
  await checkTable([
    ["parallel 'cp {} ~/.ssh/authorized_keys' ::: x", "deny", "deny"],
    ["parallel -j4 'cat {}' ::: .env", "deny", "deny"],
    ["parallel -j4 'cat keys/{}' ::: id_rsa", "deny", "deny"],
    ["ls | parallel 'cat keys/{}'", "deny", "deny"],
    ["parallel --pipe 'cat > ~/.ssh/authorized_keys'", "deny", "deny"],
    ["parallel --xapply 'rm {1}' ::: a ::: b", "deny", "deny"],
    ["parallel 'echo {}; rm -rf src' ::: a", "deny", "deny"],
    ["parallel -q cat ::: .env", "deny", "deny"],
    // Everyday.
    ["parallel gzip ::: notes.txt README.md", "deny", "allow"],
    ["parallel 'wc -l {}' ::: src/main.ts", "deny", "allow"],
  ]);
});

/** [command, under read-only, under the deny-list]: hostile spellings of xargs's options. */
const HOSTILE: [string, Action, Action][] = [
  ["find . | xargs -0n 5 rm -rf", "deny", "deny"],
  ["find . | xargs -n1 -J X rm X", "deny", "deny"],
  ["find . | xargs --frob echo rm -rf", "deny", "deny"],
  ["ls | xargs -I{} sh -c 'rm {}'", "deny", "deny"],
  ["ls | xargs -P 2 -L 1 curl -d @-", "deny", "deny"],
  ["parallel -j 4 rm ::: a", "deny", "deny"],
  // `--replace`, `--eof`, `--max-lines` take a value only after `=` (xargs(1)).
  ["echo x | xargs --replace rm README.md", "deny", "deny"],
  ["echo x | xargs --eof rm -rf src", "deny", "deny"],
  ["echo x | xargs --max-lines curl evil", "deny", "deny"],
  ["echo x | xargs --replace=@ cat @ .env", "deny", "deny"],
  ["find . | xargs -n 1 grep -l TODO", "deny", "deny"],
];

Deno.test("xargs and parallel: hostile option spellings get their verdicts", async () => {
  await checkTable(HOSTILE);
});

Deno.test("xargs: a shell given one item a run is run once per listed word, that word alone", () => {
  // (`-I`, `-i`, `--replace`: a line a run; `-n 1`, `--max-args=1`: an item a run.)
  const shells = (c: string) => cmd(c).filter((r) => /^(sh|bash|dash) /.test(r));
  const alone = (c: string) =>
    shells(c).length === 3 && shells(c).every((r) => r.split("@").length === 2);
  for (
    const c of [
      "find . -name '*.md' | xargs -I{} sh -c 'cat \"$1\"' _ {}",
      "find . -name '*.md' | xargs -i bash -c 'cat \"$1\"' _ {}",
      "find . -name '*.md' -print0 | xargs -0 -n1 sh -c 'cat \"$1\"' _",
      "find . -name '*.md' -print0 | xargs -0 --max-args=1 dash -c 'cat \"$1\"' _",
      "find . -name '*.md' | xargs -n 1 sh -c 'cat \"$1\"' _",
    ]
  ) assert.ok(alone(c), c);
  // Several items a run, a limit of another kind beside it, another program: as before.
  assert.deepEqual(shells("find . -name '*.md' | xargs -n2 sh -c 'cat \"$1\"' _"), [
    'sh -c cat "$1" _ @./(paths find lists)/*.md @./(paths find lists)/.*.md ' +
    "@./(paths find lists)/.md",
  ]);
  for (
    const c of [
      "find . -name '*.md' | xargs sh -c 'cat \"$1\"' _",
      "find . -name '*.md' | xargs -I{} -n1 sh -c 'cat \"$1\"' _ {}",
      "find . -name '*.md' | xargs -n1 -L1 sh -c 'cat \"$1\"' _",
      "find . -name '*.md' | xargs -n1 cat",
    ]
  ) assert.equal(shells(c).length + cmd(c).filter((r) => r.startsWith("cat @")).length, 1, c);
});

Deno.test("xargs: words a listing program before it prints are paths below its places", () => {
  assert.deepEqual(cmd("find src | xargs cat"), ["cat @src/(paths find lists)/"]);
  // find's `*` matches a leading dot, and nothing (`.py` itself), bash's does not: each is kept.
  assert.deepEqual(cmd("find src tests -name '*.py' | xargs grep -l x"), [
    "grep -l x @src/(paths find lists)/*.py @src/(paths find lists)/.*.py " +
    "@src/(paths find lists)/.py @tests/(paths find lists)/*.py " +
    "@tests/(paths find lists)/.*.py @tests/(paths find lists)/.py",
  ]);
  assert.deepEqual(cmd("find . -name 'a*' -o -name b | xargs cat"), [
    "cat @./(paths find lists)/a* @./(paths find lists)/b",
  ]);
  assert.deepEqual(cmd("find . ! -name 'a*' | xargs cat"), ["cat @./(paths find lists)/"]);
  assert.deepEqual(cmd("find . | xargs -I{} cp {} /x/{}.bak"), [
    "cp @./(paths find lists)/ /x/{}.bak",
  ]);
  assert.deepEqual(cmd("find . | xargs -i rm {}"), ["rm @./(paths find lists)/"]);
  // Anything else that may be printed, or read, is not known.
  assert.deepEqual(cmd("find . -printf '/etc/%p\\n' | xargs cat"), ["cat (xargs input)"]);
  assert.deepEqual(cmd("find . -ls | xargs cat"), ["cat (xargs input)"]);
  assert.deepEqual(cmd("find . -exec echo {} ; | xargs cat"), ["cat (xargs input)"]);
  assert.deepEqual(cmd("find . $X | xargs cat"), ["cat (xargs input)"]);
  assert.deepEqual(cmd("find $D | xargs cat"), ["cat (xargs input)"]);
  assert.deepEqual(cmd("find . | xargs -a list cat"), ["cat (xargs input)"]);
  assert.deepEqual(cmd("cat list | xargs cat"), ["cat (xargs input)"]);
  assert.deepEqual(cmd("find . | sed p | xargs cat"), ["cat (xargs input)"]);
  // (A filter that prints some of its lines unchanged passes the listing on.)
  assert.deepEqual(cmd("find . | sort | xargs cat"), ["cat @./(paths sort lists)/"]);
  // (`--replace` alone is `-I {}`: its value only after `=`.)
  assert.deepEqual(cmd("find . | xargs --replace cat {}"), ["cat @./(paths find lists)/"]);
  assert.deepEqual(cmd("find . | xargs --replace=@ cat @"), ["cat @./(paths find lists)/"]);
});

Deno.test("xargs: paths listed before it are judged where they lie", async () => {
  // deno-fmt-ignore
  const rows: [string, Action, Action][] = [
    ["find ~/.ssh | xargs cat", "deny", "deny"],
    // (A protected path that may be among those listed asks; one surely reached denies.)
    ["find ~ -name id_rsa | xargs cat", "ask", "ask"],
    ["find . | xargs cat", "deny", "deny"], // .env is below
    ["find . -name '*env' | xargs cat", "ask", "ask"], // find's `*` matches `.env`
    ["find . -name '?env' | xargs cat", "deny", "deny"],
    ["find src -name '*.ts' | xargs rm", "deny", "deny"],
    ["find . -name '*.txt' | xargs cat", "deny", "deny"], // innocent.txt is a link to the key
    ["find src -name '*.ts' | xargs cat", "allow", "allow"], // (xargs is judged by its command)
    ["find src | xargs wc -l", "allow", "allow"], // no `.env` is below src (the tree is looked at)
    ["tar xf a.tar -C src; find src | xargs wc -l", "deny", "ask"], // ... unless one may be put
    ["find keys/ | xargs cat", "deny", "deny"], // a link to ~/.ssh
    ["find . | xargs -I{} cat {}/../../x", "ask", "ask"],
    ["find . -printf '/etc/%p\\n' | xargs cat", "ask", "ask"],
    ["cat list.txt | xargs rm", "deny", "deny"],
    // (Echo's words are what xargs reads: judged as the command spelled directly is.)
    ["echo /etc/passwd | xargs cat", "allow", "allow"],
    ["cat /etc/passwd", "allow", "allow"],
    ["echo .env | xargs cat", "deny", "deny"],
    ["cat .env", "deny", "deny"],
    ["echo \"$X\" | xargs cat", "ask", "ask"],
    ["find /proc/self/root/etc | xargs cat", "ask", "ask"],
    ["find src | xargs -a notes.txt cat", "ask", "ask"],
    ["git ls-files | xargs cat", "deny", "deny"], // the links in the tree lead to the key
    ["git ls-files ../.. | xargs cat", "ask", "ask"],
    ["git ls-files -s | xargs cat", "ask", "ask"],
  ];
  await checkTable(rows);
});

Deno.test("xargs: a filter that prints some of its lines unchanged passes the listing on", async () => {
  // deno-fmt-ignore
  await checkTable([
    // sort, uniq, head/tail -n, grep [-v] PATTERN on their input: a subset of what find lists
    ["find src -name '*.ts' | sort | xargs wc -l", "allow", "allow"],
    ["find src -name '*.ts' | grep -v test | xargs wc -l", "allow", "allow"],
    ["find src -name '*.ts' | head -5 | xargs cat", "allow", "allow"],
    ["find src -name '*.ts' | sort -u | uniq | tail -n +2 | xargs wc -l", "allow", "allow"],
    ["find src -name '*.ts' | grep -E -e main -e util | xargs cat", "allow", "allow"],
    ["find src -name '*.ts' | sort -r | while read -r f; do wc -l \"$f\"; done", "allow", "allow"],
    // ... what they pass on is judged where it lies
    ["find keys/ | sort | xargs cat", "deny", "deny"],
    ["find . -name '*.txt' | head -1 | xargs cat", "deny", "deny"],
    // a filter that changes lines, reads a file or writes elsewhere: anything
    ["find src -name '*.ts' | sed 's/^/..\\/..\\//' | xargs cat", "ask", "ask"],
    ["find src -name '*.ts' | head -c 3 | xargs cat", "ask", "ask"],
    ["find src -name '*.ts' | grep -o '[a-z]*' | xargs cat", "ask", "ask"],
    ["find src -name '*.ts' | grep -n x | xargs cat", "ask", "ask"],
    ["find src -name '*.ts' | uniq -c | xargs cat", "ask", "ask"],
    ["find src -name '*.ts' | sort -z | xargs cat", "ask", "ask"],
    ["find src -name '*.ts' | grep --color=always x | xargs cat", "ask", "ask"],
    ["find src -name '*.ts' | grep x notes.txt | xargs cat", "ask", "ask"],
    ["find src -name '*.ts' | sort - notes.txt | xargs cat", "ask", "ask"],
    ["find src -name '*.ts' | sort $X | xargs cat", "ask", "ask"],
    // grep's `\.EXT$` is a name filter (not inverted, folded or fixed text)
    ["git ls-files | grep '\\.ts$' | xargs wc -l", "allow", "allow"],
    ["git ls-files | grep -E '\\.(ts|md)$' | xargs cat", "allow", "allow"],
    ["git ls-files | grep '\\.env$' | xargs cat", "ask", "ask"],
    ["find . | grep '\\.txt$' | xargs cat", "deny", "deny"],
    ["git ls-files | grep -v '\\.ts$' | xargs cat", "deny", "deny"],
    ["git ls-files | grep -F '\\.ts$' | xargs cat", "deny", "deny"],
    ["git ls-files | grep -i '\\.ts$' | xargs cat", "deny", "deny"],
  ]);
});

Deno.test("xargs: a lister or filter the command defines as a function or alias prints anything", async () => {
  // deno-fmt-ignore
  await checkTable([
    ["find() { echo keys/id_rsa; }; find src -name '*.ts' | xargs cat", "ask", "ask"],
    ["function find { echo keys/id_rsa; }; find src -name '*.ts' | xargs cat", "ask", "ask"],
    ["function find() { echo keys/id_rsa; }\nfind src -name '*.ts' | xargs cat", "ask", "ask"],
    ["for i in 1 2; do find src -name '*.ts' | xargs cat; find() { echo keys/id_rsa; }; done", "ask", "ask"],
    ["sort() { echo keys/id_rsa; }; find src -name '*.ts' | sort | xargs cat", "ask", "ask"],
    ["git() { echo keys/id_rsa; }; git ls-files '*.ts' | xargs cat", "ask", "ask"],
    ["alias find='echo keys/id_rsa'\nfind src -name '*.ts' | xargs cat", "deny", "ask"],
    ["find() { command find \"$@\"; }; find src -name '*.ts' | while read -r f; do cat \"$f\"; done", "ask", "ask"],
    // Other functions leave the listing as it is (read-only: `f` is a program it does not know).
    // (The call runs its body, `echo hi`: no program read-only denies.)
    ["f() { echo hi; }; f; find src -name '*.ts' | xargs cat", "allow", "allow"],
  ]);
});

Deno.test("xargs: git ls-files lists paths below the cwd", () => {
  assert.deepEqual(cmd("git ls-files '*.py' | xargs wc -l"), [
    "wc -l @./(paths git lists)/*.py @./(paths git lists)/.*.py",
  ]);
  assert.deepEqual(cmd("git ls-files -z src | xargs -0 cat"), ["cat @src/(paths git lists)/"]);
  assert.deepEqual(cmd("git ls-files 'src/*.ts' | xargs cat"), [
    "cat @src/(paths git lists)/*.ts @src/(paths git lists)/.*.ts",
  ]);
  assert.deepEqual(cmd("git diff --name-only -- '*.ts' | xargs cat"), [
    "cat @./(paths git lists)/*.ts @./(paths git lists)/.*.ts",
  ]);
  // Output with more than paths, paths that leave the cwd, another directory: not known.
  for (const c of ["git ls-files -s", "git ls-files --full-name", "git ls-files ../x"]) {
    assert.deepEqual(cmd(`${c} | xargs cat`), ["cat (xargs input)"], c);
  }
  assert.deepEqual(cmd("git -C ~ ls-files | xargs cat"), ["cat (xargs input)"]);
  assert.deepEqual(cmd("git ls-files ':(top)' | xargs cat"), ["cat (xargs input)"]);
});

Deno.test("xargs: the file names grep -l prints are judged where they lie", async () => {
  await checkTable([
    // Below what grep searches: a protected name may be there (ask). -r skips the symlinks it
    // meets below its operands (GNU grep, checked): `innocent.txt -> ~/.ssh/id_rsa` and `keys ->
    // ~/.ssh` are never printed; -R follows them, and a link given as an operand is followed.
    ["grep -rl TODO src | xargs cat", "allow", "allow"],
    ["grep -rl x . | xargs cat", "ask", "ask"],
    ["grep -rl x --include=*.ts . | xargs cat", "allow", "allow"],
    ["grep -rl x ~ | xargs cat", "ask", "ask"],
    ["grep -rl x ../.. | xargs cat", "ask", "ask"],
    ["grep -Rl x . | xargs cat", "deny", "deny"],
    ["grep -Rl x --include=*.ts . | xargs cat", "deny", "deny"],
    ["grep -rl x --dereference-recursive --include=*.ts . | xargs cat", "deny", "deny"],
    ["grep -rl x --include=*.ts keys | xargs cat", "deny", "deny"],
    ["grep -rl x --include=*.ts k* | xargs cat", "deny", "deny"],
    ["grep -rlZ x src | xargs -0 cat", "allow", "allow"],
    ["unzip -o a.zip -d src; grep -rlZ x src | xargs -0 cat", "deny", "ask"],
    // Without -r the names are the operands themselves.
    ["grep -l x src/main.ts README.md | xargs wc -l", "allow", "allow"],
    ["grep -l x README.md | xargs rm", "deny", "deny"],
    ["grep -l x ~/.ssh/id_rsa | xargs cat", "deny", "deny"],
    ["grep -L x innocent.txt | xargs cat", "deny", "deny"],
    // Anything that may print other text than names: not known.
    ["grep -c x README.md | xargs cat", "ask", "ask"],
    ["grep -l x - | xargs cat", "ask", "ask"],
    ["grep -l x | xargs -I {} mv {} /tmp/x", "deny", "ask"],
    ["cat notes.txt | grep -l x | xargs rm", "deny", "deny"],
    ["grep -rl x --label=/etc/passwd | xargs cat", "ask", "ask"],
    ["grep -rl $X src | xargs cat", "ask", "ask"],
  ]);
});

Deno.test("parallel: without a command, each input is a command line", async () => {
  assert.deepEqual(runs("parallel ::: 'rm -rf x' ls"), ["rm -rf x", "ls"]);
  assert.deepEqual(runs("parallel -j2 ::: make 'make test' ::: a b"), [
    "make",
    "make test",
    "(commands made with the inputs after :::)",
  ]);
  assert.deepEqual(runs("parallel < jobs.txt"), ["(commands parallel reads)"]);
  assert.deepEqual(runs("parallel :::: jobs.txt"), ["(commands parallel reads)"]);
  await checkTable([
    ["parallel ::: 'rm -rf build'", "deny", "deny"],
    ["parallel -j4 ::: ls 'curl https://evil.example'", "deny", "deny"],
    ["cat jobs.txt | parallel", "deny", "deny"],
  ]);
});

Deno.test("parallel's linked inputs (:::+, ::::+) and find -execdir's directories", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    ["parallel echo ::::+ .env", "deny", "deny"],
    ["parallel :::+ 'rm -rf src'", "deny", "deny"],
    ["parallel echo ::: a :::+ b", "deny", "allow"],
    // -execdir runs in the directory of each file found: a relative word there may be anything
    ["find src -name main.ts -execdir cat ../../.ssh/id_rsa \\;", "deny", "ask"],
    ["find ~ -name id_rsa -execdir cat id_rsa \\;", "deny", "ask"],
    ["find src -type f -okdir cat ../../.ssh/id_rsa \\;", "deny", "ask"],
    ["find . -name '*.txt' -exec cat {} +", "deny", "deny"],
  ]);
});

Deno.test("xargs: what it runs reads its standard input only with -a FILE", () => {
  const fed = (command: string) =>
    innerRuns(parser, command, { of: { program: "xargs" }, listed: false, input: true });
  // xargs gives its commands /dev/null (with -o the terminal, which pi does not give); with
  // `-a FILE` its words come from FILE and the pipe is theirs.
  assert.deepEqual(fed("find . | xargs grep X"), ["grep X ./(paths find lists)/ <nothing"]);
  assert.deepEqual(fed("xargs cat < list"), ["cat (xargs input) <nothing"]);
  assert.deepEqual(fed("xargs sh < list")[0], "sh (xargs input) <nothing");
  // (A here-string's words are known: xargs_input.ts.)
  assert.deepEqual(fed("xargs sh <<< 'rm x'")[0], "sh rm x <nothing");
  assert.deepEqual(fed("xargs -0 -n1 cat <<< 'x'"), ["cat x\n <nothing"]);
  assert.deepEqual(fed("echo a | xargs -a list cat"), ["cat (xargs input) <pipe"]);
  assert.deepEqual(fed("echo a | xargs --arg-file=list cat"), ["cat (xargs input) <pipe"]);
  assert.deepEqual(fed("echo a | xargs --arg-f list cat"), ["cat (xargs input) <pipe"]);
  assert.deepEqual(fed("xargs -a list sh <<< 'rm x'")[0], "sh (xargs input) <document");
  assert.deepEqual(fed("echo a | xargs -o -a list cat"), ["cat (xargs input) <nothing"]);
  assert.deepEqual(fed("echo a | xargs -a list --open-tty cat"), ["cat (xargs input) <nothing"]);
  // A command line xargs runs has only the input its own text gives it.
  assert.deepEqual(fed("echo a | xargs sh -c 'cat | wc -l'").slice(1), [
    "cat <nothing",
    "wc -l <pipe",
  ]);
  assert.deepEqual(fed("echo a | xargs -a f sh -c 'cat | wc -l'").slice(1), [
    "cat <pipe",
    "wc -l <pipe",
  ]);
});

Deno.test("parallel: what it runs reads its standard input with --pipe, -a FILE, :::: FILE", () => {
  const fed = (command: string) =>
    innerRuns(parser, command, { of: { program: "parallel" }, input: true, settings: "" });
  // --pipe (--spreadstdin, a prefix: Getopt::Long) and --pipepart feed blocks of it, even with
  // --tty; --semaphore all of it.
  assert.deepEqual(fed("ls | parallel --pipe wc -l"), ["wc -l <pipe"]);
  assert.deepEqual(fed("ls | parallel -j2 -k --pipe wc -l"), ["wc -l <pipe"]);
  assert.deepEqual(fed("ls | parallel --spreadstdin wc -l"), ["wc -l <pipe"]);
  assert.deepEqual(fed("ls | parallel --spread wc -l")[0], "wc -l <pipe");
  assert.deepEqual(fed("ls | parallel --pipepart -a f wc -l"), ["wc -l <pipe"]);
  assert.deepEqual(fed("ls | parallel --tty --pipe wc -l"), ["wc -l <pipe"]);
  assert.deepEqual(fed("ls | parallel --semaphore wc -l")[0], "wc -l <pipe");
  // -a FILE and `:::: FILE` read the inputs from files: standard input is left to the command.
  assert.deepEqual(fed("ls | parallel -a list wc -l"), [
    "wc -l <pipe",
    "wc -l (parallel input) <pipe",
  ]);
  assert.deepEqual(fed("ls | parallel --arg-file list wc -l")[0], "wc -l <pipe");
  assert.deepEqual(fed("ls | parallel wc -l :::: list")[0], "wc -l <pipe");
  // Otherwise an empty one (`/dev/null` in older versions), with --tty/-o the terminal.
  assert.deepEqual(fed("ls | parallel wc -l"), [
    "wc -l <nothing",
    "wc -l (parallel input) <nothing",
  ]);
  assert.deepEqual(fed("ls | parallel wc -l ::: a b"), ["wc -l a <nothing", "wc -l b <nothing"]);
  assert.deepEqual(fed("ls | parallel ::: 'cat | wc -l'"), ["cat <nothing", "wc -l <pipe"]);
  assert.deepEqual(fed("ls | parallel --tty -a list wc -l")[0], "wc -l <nothing");
  assert.deepEqual(fed("ls | parallel -o wc -l :::: list")[0], "wc -l <nothing");
  assert.deepEqual(fed("parallel wc -l < list")[0], "wc -l <nothing");
});

Deno.test("xargs: known input runs the commands xargs runs, all items, -n N or a line at a time", () => {
  assert.deepEqual(cmd("echo a b c | xargs cat"), ["cat a b c"]);
  // (Where a word's place matters, `cp x d1` and `cp x d2` are not `cp x d1 d2`.)
  assert.deepEqual(cmd("echo d1 d2 | xargs -n 1 cp x"), ["cp x d1", "cp x d2"]);
  assert.deepEqual(cmd("echo a b c | xargs -n2 cat"), ["cat a b", "cat c"]);
  assert.deepEqual(cmd("printf '%s\\n' 'a b' c | xargs -I{} cp {} {}.bak"), [
    "cp a b a b.bak",
    "cp c c.bak",
  ]);
  assert.deepEqual(cmd("xargs -I% cat %/key <<< secrets"), ["cat secrets/key"]);
  // No items: one command without any (none with -r or -I).
  assert.deepEqual(cmd("echo | xargs cat"), ["cat"]);
  assert.deepEqual(cmd("echo | xargs -r cat"), []);
  assert.deepEqual(cmd("echo | xargs -I{} cat {}"), []);
  // Not followed: lines to a command, the terminal asked, a file of items.
  for (const c of ["echo a | xargs -L1 cat", "echo a | xargs -p cat", "echo a | xargs -a f cat"]) {
    assert.deepEqual(cmd(c), ["cat (xargs input)"], c);
  }
});
