/** The analysis as a whole: errors, limits, the fallback splitter. */
import assert from "node:assert/strict";
import { analyzeBash, MAX_COMMAND_LENGTH } from "./analyze.ts";
import { commandString } from "./model.ts";
import { analyze, C, ENV, markedStages, NL } from "./analyze_testing.ts";
import { checkTable } from "../testing_adversarial.ts";

Deno.test("syntax errors and oversized input give an error", () => {
  for (
    const cmd of [
      'echo "unterminated',
      "if then",
      "if then fi",
      "echo $(",
      "cat <<EOF & a\nEO", // a heredoc bash ends nowhere, then a `&` tree-sitter cannot read
      "rm !(keep)",
    ]
  ) {
    assert.ok(analyze(cmd).error, cmd);
  }
  const big = analyze("echo " + "a".repeat(MAX_COMMAND_LENGTH));
  assert.match(big.error ?? "", /longer than/);
  assert.deepEqual(big.stages, []);
  assert.equal(analyze("echo " + "a ".repeat(200)).error, null);
});

Deno.test("a line continuation the joiner cannot place is an error, not a split word", () => {
  // Quotes nested in ${…} inside double quotes: bash joins `r\<newline>m`, tree-sitter would
  // read `r m`. The cross-check refuses rather than guess.
  const a = analyze(`echo "\${x:-"'"}"; r${C}m -rf / #'`);
  assert.match(a.error ?? "", /line continuation/);
  // Legitimate ones pass.
  for (
    const cmd of [
      `echo 'a${C}b'`,
      `# c ${C}`,
      `cat <<'EOF'${NL}a${C}b${NL}EOF`,
      `echo $'a${C}b'`,
      `ls ${C}-la`,
    ]
  ) {
    assert.equal(analyze(cmd).error, null, cmd);
  }
});

Deno.test("without a parser the fallback splitter is used, and cd still counts", () => {
  const plain = analyzeBash("ls -la | wc -l && git status", ENV, null);
  assert.equal(plain.error, null);
  assert.deepEqual(plain.stages.map(commandString), ["ls -la", "wc -l", "git status"]);
  const cd = analyzeBash("cd /x && rm a", ENV, null);
  assert.deepEqual([...cd.stages[1].cwds].sort(), ["/proj", "/x"]);
  for (const cmd of ["echo $X", "rm *", "if true; then rm a; fi", "ls > f"]) {
    assert.ok(analyzeBash(cmd, ENV, null).error, cmd);
  }
});

Deno.test("pathological input ends in an error, not a hang or a crash", () => {
  const cases = [
    "echo " + "$(".repeat(3000) + "x" + ")".repeat(3000), // deeper than the stack
    Array(2000).fill("a").join(";"), // too many stages
    "while a; do ".repeat(300) + "cd ..; " + "done; ".repeat(300), // too much to walk
    `cat <<EOF${NL}` + `$(x)${NL}`.repeat(2000) + "EOF",
  ];
  for (const cmd of cases) {
    const t0 = performance.now();
    assert.ok(analyze(cmd).error, cmd.slice(0, 40));
    assert.ok(performance.now() - t0 < 5000, cmd.slice(0, 40));
  }
});

Deno.test("an assignment alone is an environment stage when the caller's predicate says it carries a command", () => {
  const a = analyze("PAGER='less -R'; FOO=1; git log");
  assert.equal(a.error, null);
  assert.deepEqual(a.environment?.map((s) => s.assignments![0].value), ["PAGER=less -R"]);
  assert.deepEqual(a.stages.map((s) => s.argv[0].value), ["git"]);
  assert.equal(analyze("FOO=1").environment, undefined);
});

Deno.test("a carriage return is a word character: a # after one starts no comment", async () => {
  // (bash runs `rm` in each: `x\r#` is one word, then `;`, `|`, `&` or a redirect.)
  await checkTable([
    ["echo x\r#; rm -rf src", "deny", "deny"],
    ["echo x\r#|rm -rf src", "deny", "deny"],
    ["echo x\r#&rm -rf src", "deny", "deny"],
    ["x=1\r#; rm -rf src", "deny", "deny"],
    ["echo x\r#;cat .env", "deny", "deny"],
    ["echo\r#;cd keys;cat id_rsa", "deny", "deny"],
    ["bash -c $'echo x\\r#; rm -rf src'", "deny", "deny"],
    ["sh <<E\necho x\r#; rm -rf src\nE", "deny", "deny"],
    ["eval $'echo x\\r#; rm -rf src'", "deny", "deny"],
    // A # after a blank still starts one.
    ["echo x\r #; rm -rf src", "allow", "allow"],
    ["echo x # ; rm -rf src", "allow", "allow"],
  ]);
});

Deno.test("a setting that changes how bash reads the command makes it not analysed", async () => {
  await checkTable([
    // Compatibility levels: quotes in an arithmetic subscript are removed, its substitution runs.
    ["BASH_COMPAT=51; echo $(( a['$(rm -rf src)'] ))", "deny", "deny"],
    ["export BASH_COMPAT=44; echo $(( a['$(cat .env >&2)'] ))", "deny", "deny"],
    ["shopt -s compat44; echo $(( a['$(rm -rf src)'] ))", "deny", "deny"],
    // lastpipe: a pipeline's last cd moves the shell.
    ["shopt -s lastpipe; : | cd keys; cat id_rsa", "deny", "deny"],
    // A message catalog the command chooses translates $"…".
    ['TEXTDOMAINDIR=$PWD/l; TEXTDOMAIN=t; LC_ALL=C.UTF-8\n$"ls" -rf src', "deny", "deny"],
    ['echo $"hello"', "allow", "allow"],
  ]);
});

Deno.test("time before an assignment: bash keeps it in this shell, which the walk does not follow", async () => {
  await checkTable([
    ["x=src; time x=keys; cat $x/id_rsa", "deny", "deny"],
    ["x=src; time -p x=keys; cat $x/id_rsa", "deny", "deny"],
    ["x=src; time { x=keys; }; cat $x/id_rsa", "deny", "deny"],
    ["time ls", "allow", "allow"],
    ["time make test", "deny", "allow"],
  ]);
});

Deno.test("a name bash reads after quote removal counts however it is spelled", async () => {
  // [command, read-only, deny-list]: HOME, PWD, CDPATH, GLOBIGNORE, BASH_COMPAT, TEXTDOMAIN and
  // shopt's option names given with quotes or escapes are the names themselves to `read`,
  // `export`, `declare` and `shopt` (HOME, where programs find their settings, set so is a
  // command not known).
  await checkTable([
    ["read HO\\ME <<<keys; cd; cat id_rsa", "deny", "deny"],
    ["read -r HO''ME <<<keys; cd && cat id_rsa", "deny", "deny"],
    ["read $'HO\\x4dE' <<<keys; cd && cat id_rsa", "deny", "deny"],
    ['read HOM"E" <<<$PWD/keys; cat $HOME/id_rsa', "deny", "deny"],
    ["read P\\WD <<<keys; cat $PWD/id_rsa", "ask", "ask"],
    ["export CDP\\ATH=$HOME; cd .ssh; cat id_rsa", "deny", "ask"],
    ["read GLOB\\IGNORE <<<x; cat *nv", "deny", "deny"],
    ['export GLOB"IGNORE"=x; cat *nv', "deny", "deny"],
    ["read BASH_COM\\PAT <<<51; echo $(( a['$(rm -rf src)'] ))", "deny", "deny"],
    ["shopt -s dotgl\\ob; cat *nv", "deny", "deny"],
    ["shopt -s 'dot'glob; cat ?env", "deny", "deny"],
    ["shopt -s nocaseg\\lob; cat KEY[S]/id_rsa", "deny", "deny"],
    ["shopt -s $'nocase\\x67lob'; cat INNOCENT.TX[T]", "deny", "deny"],
    ["shopt -s comp\\at44; echo $(( a['$(rm -rf src)'] ))", "deny", "deny"],
    ["shopt -s lastp\\ipe; : | cd keys; cat id_rsa", "deny", "deny"],
    ["shopt -s cdable_v\\ars; ssh=keys; cd ssh; cat id_rsa", "deny", "ask"],
    ['read TEXTDOM\\AIN <<<t; $"ls" -rf src', "deny", "deny"],
    // everyday: quoting that names none of them
    ['echo "HOME is $HOME"', "allow", "allow"],
    ["cat 'README.md'", "allow", "allow"],
  ]);
});

Deno.test("a mapfile callback runs in the shell: one that may cd moves what follows", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    ["mapfile -C 'cd keys;:' -c 1 a <<< x; cat id_rsa", "deny", "ask"],
    ["readarray -C 'pushd keys >/dev/null;:' -c 1 a <<< x; cat id_rsa", "deny", "ask"],
    ["mapfile -C'\\cd keys;:' -c 1 a <<< x; cat id_rsa", "deny", "ask"],
    ["mapfile -C f -c 1 a <<< x; cat id_rsa", "deny", "ask"],
    ["mapfile -t lines < README.md; echo ${#lines[@]}", "deny", "allow"],
  ]);
});

Deno.test("names the command around a nested text changed are not known in it (BashEnv.unknown)", () => {
  const env = { ...ENV, unknown: new Set(["HOME", "PWD", "TMPDIR"]) };
  // (The plainest commands too: the shortcut leaves such a text to the walk.)
  assert.deepEqual(markedStages("cat $TMPDIR/a ~/b $HOME/c $PWD/d", env), [
    "cat ?$TMPDIR/a ?~/b ?$HOME/c ?$PWD/d",
  ]);
  assert.deepEqual(markedStages("cat $TMPDIR/a ~/b $PWD/d"), ["cat /tmp/t/a /home/u/b /proj/d"]);
  // `cd` alone goes home, and a relative one may follow a CDPATH it set.
  const cd = (unknown: string[]) =>
    analyze("cd && cd x && cat f", { ...ENV, unknown: new Set(unknown) }).stages[2].cwds;
  assert.deepEqual(cd([]), ["/home/u/x"]);
  assert.deepEqual(cd(["HOME"]), [null]);
  assert.ok(cd(["CDPATH"]).includes(null));
});
