/** Values bash evaluates as code: never read as harmless. */
import assert from "node:assert/strict";
import { analyze } from "./analyze_testing.ts";
import { checkTable } from "../testing_adversarial.ts";
import { fuzzSeed, linesThatRan, runBash, seededRandom } from "./testing.ts";

/**
 * Run each line in real bash, in `dir` with a script `a1` on the PATH that records it ran: the
 * indexes of the lines that ran it.
 */
async function linesRunningA1(dir: string, lines: string[]): Promise<Set<number>> {
  await Deno.writeTextFile(`${dir}/a1`, `#!/bin/sh\nprintf 'A\\036' >> "${dir}/log"\n`);
  await Deno.chmod(`${dir}/a1`, 0o755);
  const script = lines.map((line, i) =>
    `printf 'M${i}\\036' >> ${dir}/log; (${line}) </dev/null >/dev/null 2>&1\n`
  ).join("");
  await runBash(script, {
    cwd: dir,
    env: { LC_ALL: "C", PATH: `${dir}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}` },
  });
  return linesThatRan(await Deno.readTextFile(`${dir}/log`));
}

Deno.test("evaluation: a value bash evaluates as code is never read as harmless", async () => {
  // A variable set to `a[$(a1)]` (spelt and set in generated ways) and then used where bash
  // evaluates it: arithmetic, subscripts, `[[ -eq ]]`, `${!x}`, `let`, `declare -i`, names
  // given as text, `eval` and a child bash. bash runs `a1`, a script that records it ran. When
  // it ran, the analysis must have an error or a stage running `a1`. The same uses of numbers
  // (`x=5`, `$(… | wc -l)`, `for x in 1 2`) must stay errors-free. Set PI_CONTROLS_FUZZ_SEED.
  const rand = seededRandom(fuzzSeed(13));
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const code = ["'a[$(a1)]'", '"a[\\$(a1)]"', "a\\[\\$\\(a1\\)\\]", "$'a[\\x24(a1)]'", "'a[`a1`]'"];
  const sets = (v: string) =>
    pick([
      `x=${v}`,
      `declare x=${v}`,
      `local x=${v} 2>/dev/null || x=${v}`,
      `read -r x <<< ${v}`,
      `y=${v}; x=y`,
      `x=$(printf %s ${v})`,
      `export x=${v}`,
    ]);
  const numbers = ["x=5", "x=-3", "x=$(printf '1\\n' | wc -l)", "x=0x1f", "x=$(nproc)"];
  const uses = [
    "echo $((x))",
    "echo $(( x + 1 ))",
    "(( x ))",
    "let x",
    "let 'z = x + 1'",
    "[[ x -eq 1 ]]",
    "[[ 1 -lt $x ]]",
    "declare -i n=x",
    "echo ${b[x]}",
    "b[x]=1",
    "s=abc; echo ${s:x}",
    "s=abc; echo ${s:0:x}",
    'echo "$((x))"',
    "case $((x)) in *) ;; esac",
    "for ((i=x; i<1; i++)); do :; done",
    "eval 'echo $((x))'",
    "bash -c 'echo $((x))'",
  ];
  const names = [
    'printf -v "$x" 1',
    'read "$x" <<< 1',
    'declare "$x=1"',
    'test -v "$x"',
    "echo ${!x}",
  ];
  const lines: { line: string; numeric: boolean }[] = [];
  for (let i = 0; i < 400; i++) {
    const numeric = rand() < 0.25;
    const use = numeric ? pick(uses) : pick([...uses, ...names]);
    const set = numeric ? pick(numbers) : sets(pick(code));
    const line = rand() < 0.2 ? `for q in 1; do ${set}; ${use}; done` : `${set}; ${use}`;
    lines.push({ line, numeric });
  }
  const dir = await Deno.makeTempDir({ prefix: "pi-controls-evaluation-" });
  try {
    const ran = await linesRunningA1(dir, lines.map(({ line }) => line));
    const wrong: string[] = [];
    lines.forEach(({ line, numeric }, i) => {
      const a = analyze(line, { cwd: dir, home: "/home/u", env: { HOME: "/home/u" } });
      const seen = a.stages.some((s) => s.argv[0]?.value === "a1");
      if (ran.has(i) && !a.error && !seen) wrong.push(`ran unseen: ${line}`);
      if (numeric && a.error) wrong.push(`numbers only: ${line}: ${a.error}`);
    });
    assert.deepEqual(wrong, []);
    assert.ok(ran.size > 100, `a1 ran for only ${ran.size} of ${lines.length} lines`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("evaluation: quotes where bash reads them as characters hide nothing", async () => {
  // In `(( … ))` a single quote is a character and what it holds is expanded; in a subscript
  // that `let`, `unset`, `declare -i` or `[[ -eq ]]` evaluate, quotes are characters too; so
  // is a single quote in the word of a double-quoted `${x:-…}` (or one in a heredoc body), where
  // a `$'…'` is decoded first. bash runs `a1` (a script that records it ran); the analysis must
  // then have an error or a1.
  const lines = [
    `echo "\${x:-'$(a1)'}"`,
    `echo "\${x='$(a1)'}"`,
    "x=1; echo \"${x:+'`a1`'}\"",
    `echo "a\${x:-b'$(a1)'c}d"`,
    `echo "\${x:-\${y:-'$(a1)'}}"`,
    `echo "\${x:-$'$(a1)'}"`,
    `echo "\${x:-$'\\x24(a1)'}"`,
    `echo "\${x:-$'\\'$(a1)\\''}"`,
    `echo "\${x:-'}$(a1)'}"`,
    `y="\${x:-'$(a1)'}"`,
    `a=("\${x:-'$(a1)'}")`,
    `[[ "\${x:-'$(a1)'}" ]]`,
    `case "\${x:-'$(a1)'}" in *) ;; esac`,
    `echo $(( \${x:-'$(a1)'} ))`,
    `echo $[ \${x:-'$(a1)'} ]`,
    `arr=([ '$(a1)' ]=1)`,
    `arr=([ "\\$(a1)" ]=1)`,
    // (The heredoc ends on a line of its own: the harness puts `)` after the line.)
    `cat <<E\n\${x:-'$(a1)'}\nE\n`,
    "(( 'a[$(a1)]' ))",
    "(( '$(a1)' ))",
    "(( x = '`a1`' ))",
    "(( x = 'a[$(a1)]' + 1 ))",
    "echo $(( '$(a1)' ))",
    // Inside `${x:-…}` tree-sitter reads `$(( … ))` as a subshell; bash reads arithmetic.
    "echo ${x:-$(( '$(a1)' ))}",
    "echo \"${x:-$(( '$(a1)' ))}\"",
    "echo ${x:-$(( 'a[$(a1)]' ))}",
    "y=${x:-$(( 1 + '`a1`' ))}",
    "let \"a['\\$(a1)']=1\"",
    "let 'a[$(a1)]=1'",
    "let \"b['\\`a1\\`']++\"",
    "unset \"a['\\$(a1)']\"",
    "declare -i n=\"a['\\$(a1)']\"",
    "[[ \"a['\\$(a1)']\" -eq 1 ]]",
    "for ((i='$(a1)'; i<1; i++)); do :; done",
  ];
  const dir = await Deno.makeTempDir({ prefix: "pi-controls-evaluation-" });
  try {
    const ran = await linesRunningA1(dir, lines);
    const wrong: string[] = [];
    lines.forEach((line, i) => {
      const a = analyze(line, { cwd: dir, home: "/home/u", env: { HOME: "/home/u" } });
      const seen = a.stages.some((s) => s.argv[0]?.value === "a1");
      if (ran.has(i) && !a.error && !seen) wrong.push(`ran unseen: ${line}`);
    });
    assert.deepEqual(wrong, []);
    // (Most of them do run it: the table is about real holes.)
    assert.ok(ran.size >= 20, `a1 ran for only ${ran.size} of ${lines.length} lines`);
    // Where quotes are quotes, nothing is read into them.
    for (
      const line of [
        `echo "\${x:-'plain'}"`,
        `echo \${x:-'$(a1)'}`,
        `echo "\${H:-'/tmp'}/x"`,
        // (Arithmetic is no command: `1 + 2` runs nothing.)
        "echo ${x:-$(( 1 + 2 ))}",
        "echo ${N:-$((n * 2))}",
      ]
    ) {
      const a = analyze(line, { cwd: dir, home: "/home/u", env: { HOME: "/home/u" } });
      assert.equal(a.error, null, line);
      assert.ok(!a.stages.some((s) => s.argv[0]?.value === "a1"), line);
      assert.ok(a.stages.every((s) => s.argv[0]?.value === "echo"), line);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("evaluation: positional parameters the command sets, and integer variables set any way", async () => {
  await checkTable([
    // `set --` and a function's arguments are the command's own values.
    ["set -- 'a[$(rm -rf src)]'; echo $(( $1 ))", "deny", "deny"],
    ["set -- 'a[$(rm -rf src)]'; echo $[ $@ ]", "deny", "deny"],
    ["set -- 'a[$(rm -rf src)]'; [[ $1 -eq 0 ]]", "deny", "deny"],
    ["set -- 'a[$(rm -rf src)]'; echo ${a[$1]}", "deny", "deny"],
    ["f(){ echo $(( $1 )); }; f 'a[$(rm -rf src)]'", "deny", "deny"],
    ["f(){ a[$1]=1; }; f 'a[$(rm -rf src)]'", "deny", "deny"],
    ["f(){ [[ $1 -eq 1 ]]; }; f 'a[$(rm -rf src)]'", "deny", "deny"],
    // An integer variable evaluates whatever is assigned to it, however.
    ["declare -i y; read y <<<'a[$(rm -rf src)]'", "deny", "deny"],
    ["declare -i y; printf -v y %s 'a[$(rm -rf src)]'", "deny", "deny"],
    ["declare -i y=0; x='a[$(rm -rf src)]'; y=x", "deny", "deny"],
    // A valued option's value glued to it, whatever the word holds after the letter.
    ["sleep 0 & wait -np'a[$(rm -rf src)]'", "deny", "deny"],
    ["sleep 0 & wait -p'a[$(rm -rf src)]' $!", "deny", "deny"],
    ["printf -v'a[$(rm -rf src)]' x", "deny", "deny"],
    ["read -ra'a[$(rm -rf src)]' <<< x", "deny", "deny"],
    ['wait -p"$n" $!', "deny", "deny"],
    ["sleep 0 & wait -n -p id $!; echo $id", "allow", "allow"],
    ["OPTIND='a[$(rm -rf src)]'", "deny", "deny"],
    ["RANDOM='a[$(rm -rf src)]'", "deny", "deny"],
    // Numbers stay plain.
    ["declare -i n=0; n=5", "deny", "allow"],
    ["OPTIND=1", "allow", "allow"],
    ['f(){ echo "$1"; }; f hello', "allow", "allow"],
    // A counter only arithmetic sets is a number; an arithmetic command of names runs nothing.
    ["count=0; for f in src/*.ts; do count=$((count+1)); done; echo $count", "allow", "allow"],
    ['i=0; while [ "$i" -lt 3 ]; do i=$((i+1)); done', "allow", "allow"],
    ["((count+=1))", "allow", "allow"],
    ["(( x > 10 )) && echo big", "allow", "allow"],
    ["x='a[$(rm -rf src)]'; (( x ))", "deny", "deny"],
    ["((a['$(rm -rf src)']))", "deny", "deny"],
    ["read x; (( x ))", "deny", "deny"],
    // A `$'…'` is decoded first: an escaped `$` still makes a substitution.
    ["(( $'a[\\x24(rm -rf src)]' ))", "deny", "deny"],
    ["[[ $'a[\\x24(rm -rf src)]' -eq 0 ]]", "deny", "deny"],
    ["[[ 0 -lt $'a[\\044(rm -rf src)]' ]]", "deny", "deny"],
  ]);
});

Deno.test("evaluation: a builtin's name inside a value is no evaluation (localhost, /usr/local)", async () => {
  // [command, read-only, deny-list]: `declare`, `local`, `typeset`, `let` count where a command
  // may start, not as part of a word (`localhost`, `/usr/local`, `redeclare`).
  await checkTable([
    ["export DATABASE_URL=postgres://u:p@localhost:5432/app", "deny", "allow"],
    ["export API_URL=http://localhost:3000 && npm run dev", "deny", "allow"],
    ['export BASE="http://localhost:3000" PORT=3000', "deny", "allow"],
    ["export FOO=/usr/local/bin && echo hi", "deny", "allow"],
    ["export JAVA_HOME=/usr/local/jdk; echo $JAVA_HOME", "deny", "allow"],
    // hostile: the builtins as commands
    ["declare -i n; export n='a[$(rm -rf src)]'", "deny", "deny"],
    ["bash -c 'local x; x=$1; echo $(( x ))' _ 'a[$(rm -rf src)]'", "deny", "deny"],
    ["x='a[$(rm -rf src)]'; bash -c 'declare -i y; y=$0' \"$x\"", "deny", "deny"],
    ["x='a[$(rm -rf src)]'; bash -c '{ typeset -i y; y=$0; }' \"$x\"", "deny", "deny"],
    ["x='a[$(rm -rf src)]'; bash -c 'true&&let y=$0' \"$x\"", "deny", "deny"],
  ]);
});

Deno.test("evaluation: values bash sets itself are the command's (REPLY, BASH_REMATCH, $_)", async () => {
  // [command, read-only, deny-list]: text the command chose, set by bash (read, mapfile, getopts,
  // `[[ =~ ]]`, every command's last word), `set --` through builtin or command, a child shell's
  // arguments: evaluated where bash evaluates a value, they run what they hold.
  await checkTable([
    ["[[ 'a[$(rm -rf src)]' =~ .* ]]; echo $(( BASH_REMATCH ))", "deny", "deny"],
    ["[[ 'a[$(rm -rf src)]' =~ .* ]]; echo ${!BASH_REMATCH}", "deny", "deny"],
    ["read -r <<<'a[$(rm -rf src)]'; echo $(( REPLY ))", "deny", "deny"],
    ["read -r <<<'a[$(rm -rf src)]'; [[ -v $REPLY ]]", "deny", "deny"],
    ["echo 'a[$(rm -rf src)]' | while read -r; do echo $(( REPLY )); done", "deny", "deny"],
    ["builtin read -r <<<'a[$(rm -rf src)]'; echo $(( REPLY ))", "deny", "deny"],
    ["echo 'a[$(rm -rf src)]' >/dev/null; echo $(( $_ ))", "deny", "deny"],
    [": 'a[$(rm -rf src)]'; (( _ ))", "deny", "deny"],
    ["mapfile <<<'a[$(rm -rf src)]'; echo $(( MAPFILE ))", "deny", "deny"],
    ["getopts a: o -a 'a[$(rm -rf src)]'; echo $(( OPTARG ))", "deny", "deny"],
    ["builtin set -- 'a[$(rm -rf src)]'; echo $(( $1 ))", "deny", "deny"],
    ["command set -- 'a[$(rm -rf src)]'; echo $(( $1 ))", "deny", "deny"],
    ["bash -c 'echo $(( $1 ))' _ 'a[$(rm -rf src)]'", "deny", "deny"],
    ["bash -c 'echo $(( $0 ))' 'a[$(rm -rf src)]'", "deny", "deny"],
    // the value bash gives BASH_REMATCH replaces the command's
    ["BASH_REMATCH=src; [[ keys =~ .* ]]; cat $BASH_REMATCH/id_rsa", "ask", "ask"],
    // everyday: numbers, and these values where nothing evaluates them
    ["bash -c 'echo $(( $1 + 1 ))' _ 5", "deny", "allow"],
    ["read -r line < README.md; echo $line", "allow", "allow"],
    ["[[ abc =~ b ]] && echo ${BASH_REMATCH[0]}", "allow", "allow"],
    ["for i in 1 2 3; do echo $(( i * 2 )); done", "allow", "allow"],
  ]);
});

Deno.test("evaluation: bash's own copies of the command's text and words are the command's", async () => {
  // [command, read-only, deny-list]: under `bash -c` the whole command, comments included, is in
  // BASH_EXECUTION_STRING and each simple command in BASH_COMMAND; pushd's words in DIRSTACK, a
  // function's arguments in BASH_ARGV, `$0` after BASH_ARGV0, a directory cd took in PWD/OLDPWD.
  await checkTable([
    ["echo $(( ${BASH_EXECUTION_STRING##*#} )) #a[$(rm -rf src)]", "deny", "deny"],
    ["echo ${a[${BASH_EXECUTION_STRING##*#}]} #b[$(rm -rf src)]", "deny", "deny"],
    ["[[ -v ${BASH_EXECUTION_STRING##*#} ]] #a[$(rm -rf src)]", "deny", "deny"],
    ["[[ ${BASH_EXECUTION_STRING##*#} -eq 0 ]] #a[$(rm -rf src)]", "deny", "deny"],
    ["echo $(( ${BASH_COMMAND:35:18} )) 'a[$(rm -rf src)]'", "deny", "deny"],
    ["trap 'echo $(( ${BASH_COMMAND:3:18} ))' EXIT; : 'a[$(rm -rf src)]'", "deny", "deny"],
    ["pushd -n 'a[$(rm -rf src)]'; echo $(( DIRSTACK[1] ))", "deny", "deny"],
    ["pushd -n 'a[$(rm -rf src)]' >/dev/null; echo ${!DIRSTACK[1]}", "deny", "deny"],
    ["BASH_ARGV0='a[$(rm -rf src)]'; echo $(( $0 ))", "deny", "deny"],
    ["read BASH_ARGV0 <<<'a[$(rm -rf src)]'; echo $(( $0 ))", "deny", "deny"],
    ["printf -v BASH_ARGV0 %s 'a[$(rm -rf src)]'; echo ${!0}", "deny", "deny"],
    ["shopt -s extdebug; f() { echo $(( BASH_ARGV )); }; f 'a[$(rm -rf src)]'", "deny", "deny"],
    ["cd 'a[$(cd ..;rm -rf src)]'; echo $(( ${PWD##*/} ))", "deny", "deny"],
    [
      "mkdir 'a[$(rm -rf src)]'; cd 'a[$(rm -rf src)]'; cd ..; echo $(( ${OLDPWD##*/} ))",
      "deny",
      "deny",
    ],
    // ... and given to a child shell as env's words, whatever wraps env
    ["env x='a[$(rm -rf src)]' bash -c 'echo $((x))'", "deny", "deny"],
    ["env -i x='a[$(rm -rf src)]' bash -c '[[ -v $x ]]'", "deny", "deny"],
    ["nice env x='a[$(rm -rf src)]' bash -c 'echo ${!x}'", "deny", "deny"],
    // everyday: their lengths, and where nothing evaluates them
    ["echo $(( ${#BASH_EXECUTION_STRING} ))", "allow", "allow"],
    ['echo "${BASH_EXECUTION_STRING}" >/dev/null', "allow", "allow"],
    ['cd src && echo "${PWD##*/}"', "allow", "allow"],
    ["cd src; echo $(( ${#PWD} ))", "allow", "allow"],
    ['pushd -n src >/dev/null; echo "${DIRSTACK[1]}"', "allow", "allow"],
    ["echo $(( $(date +%s) - 5 ))", "allow", "allow"],
    ["env N=5 bash -c 'echo $((N+1))'", "deny", "allow"],
    ["env NODE_ENV=test npm test", "deny", "allow"],
  ]);
});

Deno.test("a command that prints a number gives a number where a word needs one", async () => {
  // [command, read-only, deny-list]: `$(nproc)` is a job count, not a word that may be anything
  await checkTable([
    ["make -j$(nproc)", "deny", "allow"],
    ['make -j"$(nproc)"', "deny", "allow"],
    ["make -j $(nproc)", "deny", "allow"],
    ["make -j$(getconf _NPROCESSORS_ONLN)", "deny", "allow"],
    ["cmake --build build -j$(nproc)", "deny", "allow"],
    ["echo $(nproc)", "allow", "allow"],
    // a command whose output may be anything stays not known
    ["make -j$(cat jobs.txt)", "deny", "deny"],
    ["make $(nproc --help)", "deny", "ask"],
    // grep's `-c` with names (`-l`, `-L`, `-H`, several files, `--label`), date's `--help`: text
    ["cat $(echo x | grep -cl --label=innocent.txt x)", "ask", "ask"],
    ["cat $(echo x | grep --count -l x)", "ask", "ask"],
    ["cat $(echo x | grep -cL x)", "ask", "ask"],
    ["cat $(grep -c x notes.txt README.md)", "ask", "ask"],
    ["cat $(grep -cH x notes.txt)", "ask", "ask"],
    ["cat $(grep -rc x .)", "ask", "ask"],
    ["cat $(date --help +%s)", "ask", "ask"],
    ["cat $(date --he +%s)", "ask", "ask"],
    ["make -j$(grep -c ^processor /proc/cpuinfo)", "deny", "allow"],
    ["make -j$(grep -ch x notes.txt README.md)", "deny", "allow"],
    ["make -j$(date -ud '2003-08-02 17:24:33' +%s)", "deny", "allow"],
  ]);
});
