/** Words as bash reads them: quotes, escapes, expansions, `~`, globs, split and glued words. */
import assert from "node:assert/strict";
import { analyze, C, commands, ENV, stage, stagesOf, type TestEnv } from "./analyze_testing.ts";
import { fuzzSeed, runBash, seededRandom } from "./testing.ts";

Deno.test("words: quotes and escapes are removed, ANSI-C decoded, continuations joined", () => {
  const cases: [string, string][] = [
    ["'r''m' a", "rm a"],
    ['"r"m a', "rm a"],
    ["r\\m a", "rm a"],
    ["\\rm a", "rm a"],
    ["$'\\x72\\x6d' a", "rm a"],
    ["$'\\162\\155' a", "rm a"],
    ["$'\\u0072m' a", "rm a"],
    ["$'rm\\0junk' a", "rm a"],
    [`r${C}m a`, "rm a"],
    [`rm ${C}-rf ${C}/`, "rm -rf /"],
    [`"r${C}m" a`, "rm a"],
    ["r''m a", "rm a"],
    ['r""m a', "rm a"],
    ['echo \'a  b\' "c\\"d"', 'echo a  b c"d'],
  ];
  for (const [cmd, want] of cases) assert.deepEqual(commands(cmd), [want], cmd);
  // Single-quoted text keeps its backslash-newline.
  assert.equal(stage(`echo 'a${C}b'`, `echo a${C}b`).argv[1].value, `a${C}b`);
});

Deno.test("words: $HOME, $PWD, $TMPDIR and ~ are expanded; other expansions are dynamic", () => {
  const s = stage(
    'echo $HOME ${HOME} $PWD $TMPDIR ~ ~/x ~+/y "$HOME/z"',
    "echo " + [
      "/home/u",
      "/home/u",
      "/proj",
      "/tmp/t",
      "/home/u",
      "/home/u/x",
      "/proj/y",
      "/home/u/z",
    ].join(" "),
  );
  assert.ok(s.argv.every((w) => w.kind === "static"));
  const dyn = stagesOf('echo $X ${X:-y} $(id) `id` $1 $@ ${#X} ~user/x ~-/y $((x+1)) a$X "$X"')
    .find((st) => st.argv[0].value === "echo")!;
  assert.deepEqual(dyn.argv.slice(1).map((w) => w.kind), Array(12).fill("dynamic"));
  // Special parameters are digits or flags, never paths; constant arithmetic is a number.
  assert.ok(
    stage("echo $? $$ $# $((1+2))", "echo $? $$ $# $((1+2))").argv.every((w) =>
      w.kind === "static"
    ),
  );
  // Quoted `~` is literal.
  assert.equal(stage("echo '~' \"~/x\"", "echo ~ ~/x").argv[1].value, "~");
});

Deno.test("words: ~NAME of the user running the command is that user's home", () => {
  const env = { ...ENV, env: { HOME: "/home/u", USER: "u" } };
  const s = stagesOf("cat ~u/.ssh/id_rsa ~u ~root/x ~uu/x", env)[0];
  assert.deepEqual(s.argv.slice(1).map((w) => [w.value, w.kind]), [
    ["/home/u/.ssh/id_rsa", "static"],
    ["/home/u", "static"],
    ["~root/x", "dynamic"],
    ["~uu/x", "dynamic"],
  ]);
  // (bash asks the user database: an assignment of HOME does not move it.)
  assert.equal(stagesOf("HOME=/tmp; cat ~u/x", env).at(-1)!.argv[1].value, "/home/u/x");
  assert.equal(
    stagesOf("cat ~u/x", { ...ENV, env: { HOME: "/h", LOGNAME: "u" } })[0].argv[1].value,
    "/h/x",
  );
  // No name known: not known.
  assert.equal(stagesOf("cat ~u/x")[0].argv[1].kind, "dynamic");
});

Deno.test("words: a `$` alone is text; one tree-sitter split off an expansion is not known", () => {
  const grep = stage("grep -v ^$ f", "grep -v ^$ f");
  assert.deepEqual([grep.argv[2].value, grep.argv[2].kind], ["^$", "static"]);
  assert.deepEqual(stage("echo $ x", "echo $ x").argv.map((w) => w.kind), Array(3).fill("static"));
  // tree-sitter reads `$HOME/$X/id_rsa` as `$HOME/$` and `X/id_rsa`.
  const split = stagesOf("cat $HOME/$X/id_rsa")[0];
  assert.equal(split.argv[1].kind, "dynamic");
});

Deno.test("words tree-sitter puts in a redirect after the command are its arguments", () => {
  // tree-sitter reads `--force origin` as more destinations of `2>`; bash passes them to git.
  const git = stage("git push 2>/dev/null --force origin", "git push --force origin");
  assert.deepEqual(git.argv.map((w) => w.value), ["git", "push", "--force", "origin"]);
  assert.deepEqual(git.redirects.map((r) => r.target?.value), ["/dev/null"]);
  assert.ok(commands("ls | rm 2>/dev/null -rf x").includes("rm -rf x"));
  assert.ok(commands("find . > out -name $(id)").includes("id"));
  // After a group bash refuses them: an error, so never allowed.
  assert.notEqual(analyze("{ ls; } 2>/dev/null -rf").error, null);
});

Deno.test("words tree-sitter splits where bash does not are one word again", () => {
  const argv = (command: string) => stagesOf(command).map((s) => s.argv.map((w) => w.value));
  // After a quote, an expansion or a substitution, tree-sitter starts a new word at a `\`.
  assert.deepEqual(argv('git push "--for"\\ce origin'), [["git", "push", "--force", "origin"]]);
  assert.deepEqual(argv("'r'\\m -rf x"), [["rm", "-rf", "x"]]);
  assert.deepEqual(argv('echo a"b"\\c"d"\\e'), [["echo", "abcde"]]);
  assert.equal(stage("cat $X\\y", "cat $Xy").argv[1].kind, "dynamic");
  // It drops escaped blanks between nodes, and after a command's last word.
  assert.deepEqual(argv('grep "a"\\ b f'), [["grep", "a b", "f"]]);
  assert.deepEqual(argv('echo "a"\\  b\\ '), [["echo", "a ", "b "]]);
  assert.deepEqual(argv("tr \\  x"), [["tr", " ", "x"]]);
  assert.deepEqual(argv('find . -name "*.c" \\ -print'), [[
    "find",
    ".",
    "-name",
    "*.c",
    " -print",
  ]]);
  assert.deepEqual(argv("cd \\ ; ls"), [["cd", " "], ["ls"]]);
  assert.deepEqual(argv('echo "a"\\ >f'), [["echo", "a "]]);
  // A split assignment takes the command name tree-sitter made of its end.
  const s = stage('x="a"\\b rm -rf y', "rm -rf y");
  assert.deepEqual(s.assignments?.map((w) => w.value), ["x=ab"]);
  assert.deepEqual(argv('export X="a"\\b Y'), [["export", "X=ab", "Y"]]);
  // Redirect destinations, and the words after them that are bash's arguments.
  const cat = stage('cat > ".en"\\v', "cat > .env");
  assert.deepEqual(cat.redirects.map((r) => r.target?.value), [".env"]);
  assert.deepEqual(argv('git push 2>/dev/null "--for"\\ce'), [["git", "push", "--force"]]);
  // A word glued to a herestring tree-sitter ended early: its body is not known.
  assert.notEqual(analyze('cat <<< "a"\\b').error, null);
  // A number glued to a redirect tree-sitter reads as an argument, and text it leaves out of its
  // tree without an error: the command is not what it read.
  assert.notEqual(analyze("echo \\  2>f").error, null);
  // (A lone `-` before a numbered redirect is put back: repairs.ts droppedDash.)
  assert.equal(analyze("printf x -\t2>/dev/null").error, null);
  assert.deepEqual(argv("printf x -\t-\t2>/dev/null"), [["printf", "x", "-", "-"]]);
  assert.equal(analyze("echo a 2>f").error, null);
  // Tildes as bash expands them: not after `""` or with a quote in the prefix, and in a word
  // shaped like an assignment after the `=` and every `:`.
  assert.deepEqual(argv('echo ~"x" ""~ ~:a ~/"x"'), [[
    "echo",
    "~x",
    "~",
    "/home/u:a",
    "/home/u/x",
  ]]);
  assert.deepEqual(argv("dd if=~/a x=a:~/b:~"), [["dd", "if=/home/u/a", "x=a:/home/u/b:/home/u"]]);
  // One word per node where blanks separate them, as before.
  assert.deepEqual(argv("echo \"a\" 'b' $c"), [["echo", "a", "b", "$c"]]);
});

Deno.test("words: generated quoting and escaping is read as bash itself reads it", async () => {
  // Words glued from quotes, escapes, escaped blanks, `$'…'` and tildes, as arguments of printf
  // (some after a redirect, where tree-sitter takes them for more destinations). bash prints what
  // it passed; the analysis must have the same argv. Set PI_CONTROLS_FUZZ_SEED for another seed.
  const rand = seededRandom(fuzzSeed(11));
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  // deno-fmt-ignore
  const pieces = ["a", "b", "-", "--x", "=", ".", "/", ":", "@", "%", "+", ",", "~", "~/", "x=~",
    "\\a", "\\ ", "\\\t", "\\-", "\\\\", "\\'", '\\"', "'q'", "'s p'", "''", '"d"', '"d q"',
    '"\\\\"', '"\\$"', '""', "$'c'", "$'\\x41'", "$'a b'", "$HOME", "${HOME}", '"$HOME"', "\\$HOME",
    "'$HOME'", '"\\a"', '"\\`"', '"a\\\nb"', '$"t"', "\\\n", '"~"', "'~'", "\\~", "a#"];
  const word = () =>
    Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(pieces)).join("");
  const commands: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const words = Array.from({ length: 1 + Math.floor(rand() * 3) }, word);
    if (rand() < 0.2) words.splice(1, 0, "2>/dev/null");
    commands.push("printf '%s\\037' " + words.join(pick([" ", "  ", "\t"])));
  }
  const cwd = Deno.cwd();
  const out = await runBash(commands.map((c) => c + "; printf '\\036'\n").join(""), {
    cwd,
    env: { LC_ALL: "C", HOME: "/home/u", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
  });
  const printed = out.split("\x1e");
  const env: TestEnv = { cwd, home: "/home/u", env: { HOME: "/home/u" } };
  const wrong: string[] = [];
  let compared = 0;
  let errors = 0;
  commands.forEach((command, i) => {
    // tree-sitter reads `{ }` as one word (bash: two); such words name no path.
    if (/[{}][ \t]+[{}]/.test(command)) return;
    const a = analyze(command, env);
    // An analysis error is never allowed: it may be over-cautious, but it is not a misread.
    if (a.error) return errors++;
    if (a.stages.length !== 1) return wrong.push(`${command}: ${a.stages.length} stages`);
    const argv = a.stages[0].argv.slice(2);
    if (argv.some((w) => w.kind !== "static")) return; // braces are globs to the analysis
    compared++;
    const printed1 = printed[i].split("\x1f").slice(0, -1);
    // (printf with no words prints one empty one.)
    const bash = argv.length === 0 && printed1.length === 1 && printed1[0] === "" ? [] : printed1;
    const ours = argv.map((w) => w.value);
    if (JSON.stringify(ours) !== JSON.stringify(bash)) {
      wrong.push(
        `${JSON.stringify(command)}: ${JSON.stringify(ours)}, bash ${JSON.stringify(bash)}`,
      );
    }
  });
  assert.deepEqual(wrong, []);
  assert.ok(compared > 2400, `only ${compared} compared (${errors} analysis errors)`);
});

Deno.test("words: a generated redirect target is the file bash writes", async () => {
  // File names glued from quotes, escapes and escaped blanks after `>`, each written by bash in a
  // directory of its own, by printf with words before and after the redirect (which tree-sitter
  // may take for more targets): the analysis must name the file bash created, and have the words
  // printf wrote into it. (No `/` or `~`: every file stays in the scratch directory.)
  const rand = seededRandom(fuzzSeed(11) + 1);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  // deno-fmt-ignore
  const pieces = ["a", "b", "-", "=", ".x", ":", "@", "%", "+", ",", "\\a", "\\ ", "\\-", "\\'", '\\"',
    "'q'", "'s p'", '"d"', '"d q"', '"\\$"', "$'c'", "$'\\x41'", "$'a b'"];
  const name = () =>
    Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(pieces)).join("");
  const commands = Array.from({ length: 400 }, () => {
    const before = ` ${name()}`; // (printf without words prints one empty one)
    const after = rand() < 0.5 ? pick([" ", "  ", "\t"]) + name() : "";
    return `printf '%s\\037'${before} ${pick([">", "> ", ">\t", "1>"])}${name()}${after}`;
  });
  const dir = await Deno.makeTempDir({ prefix: "pi-controls-words-" });
  try {
    const script = commands.map((c, i) => `mkdir ${i} && (cd ${i} && ${c})`).join("\n");
    await runBash(script + "\n", {
      cwd: dir,
      env: { LC_ALL: "C", HOME: "/home/u", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    });
    const wrong: string[] = [];
    let compared = 0;
    for (let i = 0; i < commands.length; i++) {
      const written = [...Deno.readDirSync(`${dir}/${i}`)].map((e) => e.name);
      const a = analyze(commands[i], { cwd: `${dir}/${i}`, home: "/home/u", env: {} });
      if (a.error) continue;
      const target = a.stages[0]?.redirects[0]?.target;
      if (!target || target.kind !== "static" || written.length !== 1) {
        wrong.push(`${commands[i]}: ${JSON.stringify(target?.value)}, bash wrote ${written}`);
        continue;
      }
      compared++;
      const printed = Deno.readTextFileSync(`${dir}/${i}/${written[0]}`).split("\x1f").slice(0, -1);
      const args = a.stages[0].argv.slice(2).map((w) => w.value);
      if (target.value !== written[0] || JSON.stringify(args) !== JSON.stringify(printed)) {
        wrong.push(
          `${commands[i]}: ${JSON.stringify(target.value)} ${JSON.stringify(args)}, bash ${
            JSON.stringify(written[0])
          } ${JSON.stringify(printed)}`,
        );
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(compared > 300, `only ${compared} compared`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("words: a variable the command assigns is no longer known", () => {
  for (
    const cmd of [
      "HOME=/etc; rm -rf $HOME/passwd",
      "export HOME=/etc; rm -rf ~/passwd",
      "read HOME; rm -rf $HOME",
      "TMPDIR=/etc; rm -rf $TMPDIR/x",
      "PWD=/etc; rm -rf $PWD/x",
      "for HOME in /etc; do rm -rf ~/x; done",
    ]
  ) {
    const rm = stagesOf(cmd).find((s) => s.argv[0].value === "rm")!;
    assert.equal(rm.argv.at(-1)!.kind, "dynamic", cmd);
  }
  // Names that merely contain it are fine.
  assert.equal(stage("MYHOME=/x; ls $HOME", "ls /home/u").argv[1].kind, "static");
});

Deno.test("words: $PWD is the stage's cwd, unknown when it may be several", () => {
  assert.equal(stage("cd /x && echo $PWD", "echo /x").argv[1].kind, "static");
  assert.equal(stage("cd /x; echo $PWD", "echo $PWD").argv[1].kind, "dynamic");
  assert.equal(stage("cd $X && rm -rf $PWD", "rm -rf $PWD").argv[2].kind, "dynamic");
});

Deno.test("words: unquoted globs and braces are glob; quoted ones are static", () => {
  // (Braces bash expands are words of their own; past the bound, a glob of their prefix.)
  const s = stage(
    "ls * a? [ab] {Z..a} x{1..100} /etc/pa*",
    "ls * a? [ab] {Z..a} x{1..100} /etc/pa*",
  );
  assert.deepEqual(s.argv.slice(1).map((w) => w.kind), Array(6).fill("glob"));
  assert.deepEqual(s.argv.slice(1).map((w) => w.prefix), ["", "a", "", "", "x", "/etc/pa"]);
  const b = stage("ls {a,b} x{1..2}", "ls a b x1 x2");
  assert.deepEqual(b.argv.slice(1).map((w) => w.kind), Array(4).fill("static"));
  const q = stage(`ls "*" '?' "[x]" "{a,b}" \\* a\\?`, "ls * ? [x] {a,b} * a?");
  assert.deepEqual(q.argv.slice(1).map((w) => w.kind), Array(6).fill("static"));
  // The known prefix stops at the first unknown part.
  const d = stage("ls /etc/$X a$(id)b $X/a", "ls /etc/$X a$(id)b $X/a");
  assert.deepEqual(d.argv.slice(1).map((w) => w.prefix), ["/etc/", "a", ""]);
  // A command name that is not static is visible as such.
  for (const cmd of ["$(echo rm) x", "$CMD x", "rm${IFS}x", "r*m x"]) {
    const name = stagesOf(cmd).find((s) => s.origin === "top")!.argv[0];
    assert.notEqual(name.kind, "static", cmd);
  }
  assert.ok(analyze("{rm,x}").error); // tree-sitter cannot read it at all: not analysable
});

Deno.test("assignments before a command are kept apart from its argv", () => {
  const s = stage("LD_PRELOAD=/tmp/x.so GIT_DIR=$D ls -la", "ls -la");
  assert.deepEqual(s.assignments?.map((w) => [w.value, w.kind]), [
    ["LD_PRELOAD=/tmp/x.so", "static"],
    ["GIT_DIR=$D", "dynamic"],
  ]);
  assert.equal(stage("ls", "ls").assignments, undefined);
  assert.deepEqual(stage("export A=~/x B", "export A=/home/u/x B").argv.length, 3);
});
