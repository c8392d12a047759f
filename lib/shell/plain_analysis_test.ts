import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { walkedAnalysis } from "./analyze.ts";
import type { BashEnv } from "./model.ts";
import { loadBashParser } from "./parser.ts";
import { plainAnalysis } from "./plain_analysis.ts";
import { fuzzSeed, seededRandom } from "./testing.ts";

const parser = await loadBashParser();
const env: BashEnv = {
  cwd: "/w/p",
  home: "/h",
  env: { HOME: "/h" },
  carriesCommand: (a) => a.startsWith("PAGER="),
};
/** Another place, for the examples. */
const w = { cwd: "/w", home: "/h", env: { HOME: "/h" } };
const corpusDir = new URL("../../testdata/corpus/", import.meta.url);
const nl2bash = readFileSync(new URL("nl2bash.txt", corpusDir), "utf8").split("\n")
  .filter((l) => l.trim());
const agents = readFileSync(new URL("agents.jsonl", corpusDir), "utf8").split("\n")
  .filter((l) => l.trim()).map((l) => JSON.parse(l).command as string);

/** The commands the lane reads, each held to the walk's analysis; how many it read. */
function agreeing(commands: string[], e: BashEnv = env): number {
  let read = 0;
  for (const c of commands) {
    const plain = plainAnalysis(c, e);
    if (!plain) continue;
    read++;
    assert.deepEqual(plain, walkedAnalysis(c, e, parser), JSON.stringify(c));
  }
  return read;
}

Deno.test("plainAnalysis: every corpus command it reads gets the walk's exact analysis", () => {
  const read = agreeing(nl2bash);
  const readAgents = agreeing(agents);
  // It must keep reading the everyday commands, or it stops paying for itself.
  assert.ok(read > nl2bash.length * 0.3, `NL2Bash: read ${read} of ${nl2bash.length}`);
  assert.ok(readAgents > agents.length * 0.2, `agents: read ${readAgents} of ${agents.length}`);
});

Deno.test("plainAnalysis: `!` and a closing `$` in double quotes are themselves", () => {
  for (
    const [c, words] of [
      ['grep ":$" f', ["grep", ":$", "f"]],
      ['echo "Done!"', ["echo", "Done!"]],
      ['grep -E "^a.*(b|c)$" src/x.py', ["grep", "-E", "^a.*(b|c)$", "src/x.py"]],
      ['python3 -c "print(1 != 2)"', ["python3", "-c", "print(1 != 2)"]],
      ['echo "$"', ["echo", "$"]],
    ] as const
  ) {
    const a = plainAnalysis(c, env);
    assert.ok(a, c);
    assert.deepEqual(
      a.stages[0].argv.map((w) => [w.kind, w.value]),
      words.map((w) => ["static", w]),
    );
  }
});

Deno.test("plainAnalysis: a cd moves the commands after it, as bash runs them", () => {
  for (
    const [c, cwds] of [
      ["cd /repo && python -m pytest tests -x 2>&1 | tail -20", [["/w"], ["/repo"], ["/repo"]]],
      ["cd src; ls", [["/w"], ["/w/src", "/w"]]],
      ["cd src || ls", [["/w"], ["/w"]]],
      ["cd src || exit 1; ls", [["/w"], ["/w"], ["/w/src"]]],
      ["exit; ls", [["/w"], [null]]],
      ["cd /a && cd b && ls", [["/w"], ["/a"], ["/a/b"]]],
      ["cd /a || true && ls", [["/w"], ["/w"], ["/a", "/w"]]],
      ["cd /a | ls && ls", [["/w"], ["/w"], ["/w"]]],
      ["cd .. && ls", [["/w"], ["/", "/w/.."]]],
      ["cd && ls", [["/w"], ["/h"]]],
      ['cd "$(git rev-parse --show-toplevel)" && ls', [["/w"], ["/w"], [null]]],
      ["cd /tmp && echo $PWD", [["/w"], ["/tmp"]]],
      // tree-sitter reads `a && b 2>&1 | c` as `(a && b) 2>&1 | c`: bash runs c where b runs.
      ["cd /r && b 2>&1 | c; d", [["/w"], ["/r"], ["/r"], ["/r", "/w"]]],
      ["cd /r || b > f | c && d", [["/w"], ["/w"], ["/w"], ["/r", "/w"]]],
    ] as const
  ) {
    const a = plainAnalysis(c, w);
    assert.ok(a, c);
    assert.deepEqual(a.stages.map((s) => s.cwds), cwds, c);
    assert.deepEqual(a, walkedAnalysis(c, { ...w, carriesCommand: () => false }, parser), c);
  }
  assert.equal(plainAnalysis("cd /tmp && echo $PWD", w)?.stages[1].argv[1].value, "/tmp");
  // `cd -` goes where OLDPWD says, which the walk follows.
  for (const c of ["cd - && ls", "cd /a && cd - && ls", "builtin cd -- - ; ls"]) {
    assert.ok(!plainAnalysis(c, w), c);
  }
});

Deno.test("plainAnalysis: what it leaves to the walk", () => {
  // (`$x` a value not known: the environment holds it. Unset, it may be read: below.)
  const held = { ...env, env: { ...env.env, x: "v" } };
  for (
    const c of [
      // The cwd moves, or where it is becomes unknown.
      "cd src && echo $(cd .. && ls)",
      "pushd /tmp; ls",
      "popd && ls",
      "command cd /etc; cat passwd",
      "builtin cd /etc",
      // Shell text run, aliases, names assigned or read.
      "eval rm -rf x",
      "source env.sh",
      ". env.sh",
      "alias ls=rm; ls x",
      "exec rm x",
      "read line",
      "printf -v x y",
      "declare -x A",
      "export PAGER=less",
      "unset PATH",
      // Assignments alone or not plain, or a name after them tree-sitter reads otherwise.
      "A=1",
      "A=1 B=2",
      "A=1 | cat",
      "A=* ls",
      "A=\\x ls",
      "A={} ls",
      "x=1 a:b",
      "x=1 'ls'",
      "x=1 a@b",
      // An assigned name met again: bash may evaluate its value (the walk's checks judge it).
      "A=1 ls A",
      "A=1 B=2 printf %d A",
      "A=1 x; A=2 y",
      "A=1 x | grep 'A[1]'",
      // Expansions, globs, braces, tildes, escapes, redirects, comments.
      "echo $?",
      "echo ${1",
      "echo $@",
      "echo ${x:-y}",
      "echo ${!x}",
      "echo $(pwd)",
      'echo "$(pwd -L)"',
      "echo $(pwd -P)",
      "echo $(( 1 + 2 ))",
      "echo $((1))",
      "echo $(cd x; ls)",
      "echo $(ls",
      "echo $()",
      "echo $( )",
      "echo $(a $(b $(c $(d $(e)))))",
      "$(id) x",
      "A=$(id) x",
      "ls > $(id)",
      "TMPDIR=/t; echo ${TMPDIR}",
      "$x ls",
      '"$x" ls',
      "A=$x ls",
      "echo $",
      "echo ${x",
      "echo $x*",
      'echo "$x"*',
      "echo $x\\;",
      "echo $1*",
      "echo `pwd`",
      "echo `a \\`b\\``",
      "echo `a $(b)`",
      "echo ``",
      "echo `a",
      "echo `a &`",
      "ls [ab]",
      "ls *[ab]",
      "rm \\**",
      "rm {}*",
      "*.sh x",
      "cp {a,b}",
      "ls ~user",
      "ls ~+",
      "ls ~-",
      'ls ~"x"',
      "ls a~",
      "ls ~/*.txt",
      "ls $HOME/*.txt",
      "HOME=/x; ls ~",
      "PWD=/x; ls $PWD",
      "cd /tmp; ls $PWD",
      "cat ~/x; HOME=/y",
      "ls > ~/f",
      "A=~/x ls",
      "~/bin/tool x",
      "rm a\\ b",
      "rm a\\\tb",
      "echo {a,b}",
      "echo {a}",
      "echo \\",
      "\\rm x",
      "{} x",
      // Redirects but to or from a plain word and `2>&1`-style duplications, after the words.
      "ls >&-",
      "ls 2>&-",
      "ls 2>&3",
      "ls <<EOF",
      "ls <<< x",
      "ls >| f",
      "ls > *.txt",
      "ls > a\\ b",
      "ls > {}",
      "ls >",
      "ls > ",
      "ls > | cat",
      "2>f ls",
      "> f",
      "ls>f",
      "ls 2>f>g",
      "ls > f x",
      "ls 2>&1 x",
      "ls - 2>f",
      "ls 3>f",
      "ls <> f",
      "ls &>",
      "ls > $x",
      "ls 2>&1x",
      "ls >>> f",
      "ls # note",
      'grep " $p$" f',
      // Grouping, background, odd operators, empty commands.
      "(ls)",
      "{ ls; }",
      "ls &",
      "ls |& cat",
      "ls ;; cat",
      "ls | | cat",
      "ls &&& cat",
      "| ls",
      "ls |",
      "ls;",
      "",
      "   ",
      // Reserved words and test operators anywhere, unclosed quotes, what is not ASCII.
      "if true",
      "ls then",
      "time ls",
      "! ls",
      "a | ! b",
      "a && ! b",
      "a; !x",
      "a == b",
      "a =~ b",
      "echo 'unclosed",
      'echo "unclosed',
      "echo café",
      "echo 'a\nb'",
      "ls\ncat",
      "ls\\\ncat",
    ]
  ) assert.equal(plainAnalysis(c, held), null, JSON.stringify(c));
});

Deno.test("plainAnalysis: stages, pipes and lists as bash runs them", () => {
  const a = plainAnalysis(`git status  &&ls -la|grep "a b" 'c';  echo x||true`, w)!;
  assert.equal(a.error, null);
  assert.deepEqual(
    a.stages.map((s) => [s.text, s.argv.map((w) => w.value), s.piped ?? false, s.input?.text]),
    [
      ["git status", ["git", "status"], false, undefined],
      ["ls -la", ["ls", "-la"], false, undefined],
      [`grep "a b" 'c'`, ["grep", "a b", "c"], true, "ls -la"],
      ["echo x", ["echo", "x"], false, undefined],
      ["true", ["true"], false, undefined],
    ],
  );
  assert.ok(a.stages.every((s) => s.cwds.length === 1 && s.cwds[0] === "/w"));
  assert.deepEqual(
    plainAnalysis(String.raw`grep -n "args\[0\]" "a\"b\\"`, w)!.stages[0].argv.map((w) => w.value),
    ["grep", "-n", String.raw`args\[0\]`, 'a"b\\'],
  );
  // Redirects: the first command of a statement has them in its text; a later one not (tree-sitter
  // reads them as the list's, the walk gives them to the command).
  const r = plainAnalysis("python3 t.py > out.txt 2>&1 && ls 2>/dev/null; cat < in.txt", w)!;
  assert.deepEqual(r.stages.map((s) => [s.text, s.redirects]), [
    ["python3 t.py > out.txt 2>&1", [
      {
        op: ">",
        kind: "write",
        target: { value: "out.txt", kind: "static", prefix: "out.txt", text: "out.txt" },
      },
      { op: "2>&", kind: "dup", target: null },
    ]],
    ["ls", [{
      op: "2>",
      kind: "write",
      target: { value: "/dev/null", kind: "static", prefix: "/dev/null", text: "/dev/null" },
    }]],
    ["cat < in.txt", [{
      op: "<",
      kind: "read",
      target: { value: "in.txt", kind: "static", prefix: "in.txt", text: "in.txt" },
    }]],
  ]);
  // Assignments before the command are in its environment, not its argv.
  const env = plainAnalysis(`PYTHONPATH=. A="x y" python3 -m pytest`, w)!.stages[0];
  assert.deepEqual(env.argv.map((w) => w.value), ["python3", "-m", "pytest"]);
  assert.deepEqual(env.assignments!.map((w) => [w.value, w.text]), [
    ["PYTHONPATH=.", "PYTHONPATH=."],
    ["A=x y", 'A="x y"'],
  ]);
  assert.equal(env.text, `PYTHONPATH=. A="x y" python3 -m pytest`);
  assert.deepEqual(a.stages[2].argv[1], {
    value: "a b",
    kind: "static",
    prefix: "a b",
    text: '"a b"',
  });
  // `~` and `$HOME` are the home directory, `$PWD` the cwd, `$TMPDIR` when it is set.
  assert.deepEqual(plainAnalysis(`ls "$PWD/a"`, w)!.stages[0].argv[1].value, "/w/a");
  assert.deepEqual(
    plainAnalysis(`ls ~ ~/src "$HOME/a b" $TMPDIR/x`, { ...w, env: { HOME: "/hh", TMPDIR: "/t" } })!
      .stages[0].argv.map((x) => [x.value, x.kind]),
    [["ls", "static"], ["/hh", "static"], ["/hh/src", "static"], ["/hh/a b", "static"], [
      "/t/x",
      "static",
    ]],
  );
  // Globs: the literal text before the first glob character, quoted text matched literally.
  const [, o, quoted] = plainAnalysis(`rm src/*.o 'a*'b?`, w)!.stages[0].argv;
  assert.deepEqual(o, {
    value: "src/*.o",
    kind: "glob",
    prefix: "src/",
    text: "src/*.o",
    pattern: "src/*.o",
  });
  assert.deepEqual(quoted, {
    value: "a*b?",
    kind: "glob",
    prefix: "a*b",
    text: "'a*'b?",
    pattern: "a\\*b?",
  });
});

// Everyday words first, then those the lane must leave to the walk or read with care.
// deno-fmt-ignore
const NAMES = ["ls", "git", "grep", "rm", "echo", "cat", "xargs", "find", "sudo", "env", "a1",
  "'ls'", '"rm"', "l's'", "./run", "/bin/ls", "a-b", "a.b", "a:b", "a+b", "true", "''", "cd", "cd",
  "cd", "cd ..", "cd -P", "cd /tmp", "cd -", "cd ~", "cd /proc/self/cwd", "cd src", "pwd", "exit",
  "exit 1", "builtin exit"];
// deno-fmt-ignore
const ASSIGNMENTS = ["HOME=/x", "TMPDIR=/t", "PWD=/p", "A=1", "PYTHONPATH=.", "PAGER=less", "A=", "B=A", "A=A", "a_1=x", "A+=1", 'A="x y"', "A='b'",
  "A=a=b", "A=-x", "1A=x", "A=~", "A=*", "A=\\x", "A={}", "A-B=1", "'A'=1", 'A"=1"', "CDPATH=/c"];

// deno-fmt-ignore
const HOSTILE_NAMES = ["$x", '"$x"', "a$x", "\\ls", "{}", "a{}", "\\if", "a,b", "a@b", "a%b", "cd", "pushd", "popd", "eval", "source", ".", "exec",
  "command", "builtin", "alias", "test", "read", "printf", "declare", "export", "local", "unset",
  "time", "coproc", "if", "done", "in", "x=1", "a=b=c", "'x=1'", "=x", "-x", "--", "1", "'if'",
  '"done"', "if'x'", "done\"\"", "{", "!"];
// deno-fmt-ignore
const ARGS = ["A", "'A[1]'", "-A", "PYTHONPATH", "-la", "-n", "10", "--color=never", "a", "a.txt", "src/x", "/etc/passwd", "../x",
  "./x", "'a b'", '"a b"', "''", '""', "'a'b\"c\"", "a'b c'", "'$x'", '"it\'s"', "x=y", "%s", "@x",
  "+x", ":", ",", "-", "--", "'a|b'", '"a;b"', "'&&'", "'\t'", "a=", "-e", "'-'", "x,y", "a:b:c",
  "'done'", "a,b", "{}", "\\;", "\\+", "a\\$b", "\\'", "{}x", "a{}", "\\{}", "\\\\", "\\done",
  "x\\*", "\\|", '\\"', "\\#", "*.o", "a?b", "'a b'*", '*"x"', "**", "-*", "*=x", "x=*", "?",
  "src/*.ts", "'*'", "a*'b*'c?", "$x", '"$dir/x"', "a$B", "${C}d", '"a $b c"', "$a$b", "$a-b", "$a.b",
  "$a=b", `"$a"b'c'`, "$_x", "'$x'", "${ab_1}", '"${x}y"', "$HOMEx", '"$PWDs"', "!", "!x", "x!", "!=", "a!b", "!-name", "~", "~/x", "~/a'b c'", "$HOME", "${HOME}/x", '"$HOME/a b"',
  "$TMPDIR/x", '"${TMPDIR}"', "a$HOME", "$HOME$x", "HOME", "$(id)", '"$(date +%s)"', "x$(a b)y", '"$(a | b)"',
  "$(a && b)", "$(a; b)", "$(a $(b))", '"a $(b "c") d"', "$(a 2>&1)", "$(a > f)", "$(a)$(b)", "`id`",
  '"`a | b`"', "x`a b`y", "`a`$(b)", "$(a `b`)", '"`a "b"`"', '"a!"', '"!x"', '"!"', '"a!=b"', '"x!y"',
  '":$"', '"$"', '"^a.*b$"', '"a$"b', '"$x$"', '"!$x"', '"$x!"', '"a!\\"b"', '"x$ "', '"a $ b"',
  '"$$"', '"$\\""', "$1", '"$1"', "$0", "$10", "${1}", "${10}", "a$1", '"$1/x"', "$1x", "$1*", '"$2"*',
  "${1", "${1a}", "${-1}", "$1$2"];
/** Backslashes in double quotes: before `$`, `` ` ``, `"` and `\\` they escape, else they stay. */
const DOUBLE_QUOTED_ESCAPES = [
  String.raw`"args\[0\]"`,
  String.raw`"a\$b"`,
  String.raw`"a\"b"`,
  String.raw`"a\\b"`,
  String.raw`"\\"`,
  String.raw`"x\`y"`,
  String.raw`"\n"`,
  String.raw`"a\!"`,
  String.raw`"\"`,
  String.raw`"\\\""`,
];
ARGS.push(...DOUBLE_QUOTED_ESCAPES);

// deno-fmt-ignore
const HOSTILE_ARGS = ["=x", "==", "=~", "a==b", "done", "then", "in", "done'x'", "fi\"\"", "{",
  "}", "#", "a#b", "*", "~", "$x", "a\\ b", ">", "<", "(", ")", "{a}", "{a,b}", "{}}", "{{}",
  "\\", "a\\\tb", "\\**", "{}*", "[ab]", "*[a]", "$1", "$?", "$@", "${x:-y}", "$(id)", "$HOME",
  '"$PWD"', "${TMPDIR}", "$", "${x", "$x*", "$x\\;", '"$x"*', "$1x", "${}", "$-", "$(pwd)", "$((1))", "$(cd x)", "$(a", "$()", "$(a &)", "$(a) ", "$(`a`)", "`a \\`b\\``", "`pwd`", "`a $(b)`", "`", "``",
  "`a &`", "`a", '"`a"', "~x", "~+", "~-", '~"x"', "a~", "~/*.c", "$PWD", '"$PWD"', "${PWD}"];
// deno-fmt-ignore
const REDIRECTS = [" > out", " >> log", " 2>/dev/null", " 2> err", " 2>&1", " >&2", " 1>&2", " &> all",
  " < in", " > 'a b'", ' > "x"', " 1> o", " 2>> e", " &>> a", " >f", " 2>'e'"];
// deno-fmt-ignore
const HOSTILE_REDIRECTS = [" >&-", " 2>&3", " <<EOF", " >| f", " > *.txt", " > a\\ b", " >", " 3>f",
  " <> f", "> f", " 2>&1x", " > $x", " >>> f", " <<< w", " 2>&1 x", " > f x"];
const OPS = [" | ", "|", " && ", "&&", " || ", "||", "; ", ";", " ; "];
const HOSTILE_OPS = [" & ", " |& ", " ;; ", " | | ", "&&&", ";&", " & &"];
const BLANKS = [" ", "  ", "\t", " \t "];

Deno.test("plainAnalysis: generated commands it reads get the walk's exact analysis", () => {
  const random = seededRandom(fuzzSeed(20261203));
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const mostly = <T>(everyday: T[], hostile: T[]) => pick(random() < 0.1 ? hostile : everyday);
  const commands: string[] = [];
  for (let n = 0; n < 4000; n++) {
    let c = random() < 0.2 ? pick(BLANKS) : "";
    const parts = 1 + Math.floor(random() * 4);
    for (let p = 0; p < parts; p++) {
      if (p) c += mostly(OPS, HOSTILE_OPS);
      while (random() < 0.2) c += pick(ASSIGNMENTS) + pick(BLANKS);
      c += mostly(NAMES, HOSTILE_NAMES);
      const args = Math.floor(random() * 4);
      for (let a = 0; a < args; a++) c += pick(BLANKS) + mostly(ARGS, HOSTILE_ARGS);
      while (random() < 0.25) c += mostly(REDIRECTS, HOSTILE_REDIRECTS);
    }
    if (random() < 0.2) c += pick(BLANKS);
    commands.push(c);
  }
  // (Where the names the commands read are in the environment: not known, so read here.)
  const names = { B: "1", C: "1", HOMEx: "1", PWDs: "1", _x: "1", a: "1", ab_1: "1", b: "1" };
  const held = { HOME: "/h", TMPDIR: "/tmp/t", dir: "1", x: "1", ...names };
  const read = agreeing(commands, { ...env, env: held });
  // (Where they are not, unset: the walk's to read.)
  agreeing(commands);
  // (Where $HOME is not in the environment, and $TMPDIR is.)
  agreeing(commands, { ...env, home: "/home/u", env: { TMPDIR: "/tmp/t", CDPATH: ":/c" } });
  // Both sides of the line are exercised.
  assert.ok(read > 1000 && read < 3600, `read ${read} of ${commands.length}`);
});

Deno.test("plainAnalysis: a name surely unset is read as the walk reads it", () => {
  for (
    const c of [
      "cat se${ZZ}crets/key",
      "ls $dir/x",
      "echo $x\\;",
      "rm a$zz b",
      "cat $zz a",
    ]
  ) {
    const a = plainAnalysis(c, env);
    assert.ok(a, c);
    assert.deepEqual(a, walkedAnalysis(c, { ...env, carriesCommand: () => false }, parser), c);
    assert.ok(a.unset?.includes("BASH_ENV"), c);
  }
  assert.equal(plainAnalysis("cat se${ZZ}crets/key", env)?.stages[0].argv[1].value, "secrets/key");
  // (A word of nothing else, bash drops; a name the command may assign; nested texts: the walk.)
  for (
    const c of ["$zz ls", 'cat "$zz" a', "read zz; echo $zz", "echo $zz; read zz", "zz=1; echo $zz"]
  ) {
    assert.equal(plainAnalysis(c, env), null, c);
  }
  assert.equal(plainAnalysis("ls $dir/x", { ...env, nested: true }), null);
  // (With BASH_ENV set, a file bash reads first may set any name: not known.)
  const bashEnv = { ...env, env: { ...env.env, BASH_ENV: "/e" } };
  assert.equal(plainAnalysis("ls $dir/x", bashEnv)?.stages[0].argv[1].kind, "dynamic");
});
