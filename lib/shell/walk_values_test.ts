import assert from "node:assert/strict";
import { decide } from "../policy/engine.ts";
import { loadPrecisionConfig, PRECISION_CONFIGS, precisionContext } from "../precision.ts";
import { checkEveryday, checkTable } from "../testing_adversarial.ts";
import type { Action, Config } from "../types.ts";
import { analyzeBash } from "./analyze.ts";
import { loadBashParser } from "./parser.ts";
import { markedStages } from "./analyze_testing.ts";

const parser = await loadBashParser();
const env = { cwd: "/p", home: "/h", env: { HOME: "/h" }, carriesCommand: () => false };

/** The stages of a command as text (see `markedStages`). */
function stages(command: string): string[] {
  return markedStages(command, env);
}

Deno.test("values: a variable assigned static text by a statement that surely runs has it", () => {
  assert.deepEqual(stages("X=src; cat $X/a.py"), ["cat src/a.py"]);
  assert.deepEqual(stages('X=src && cat "$X"/a.py'), ["cat src/a.py"]);
  assert.deepEqual(stages("X=a Y=$X/b; cat $Y"), ["cat a/b"]);
  assert.deepEqual(stages("X=~/k; cat $X"), ["cat /h/k"]);
  assert.deepEqual(stages("X=a; X+=/b; cat $X"), ["cat a/b"]);
  assert.deepEqual(stages('X="a b"; cat "$X"'), ["cat a b"]);
  // Unquoted, bash splits and globs the value: blanks make it unknown, `*` a glob.
  assert.deepEqual(stages("X='a b'; cat $X"), ["cat ?$X"]);
  assert.deepEqual(stages("X='*.py'; cat $X; cat \"$X\""), ["cat ~*.py", "cat *.py"]);
  // `$(pwd)` is the effective cwd.
  assert.deepEqual(stages("cat $(pwd)/a"), ["pwd", "cat /p/a"]);
  assert.deepEqual(stages('cd s && cat "$(pwd)/a"'), ["cd s", "pwd", "cat /p/s/a"]);
});

Deno.test("values: printf -v assigns what it prints of known words", () => {
  assert.deepEqual(stages("X=a; printf -vX b; cat $X"), ["printf -vX b", "cat b"]);
  assert.deepEqual(stages("X=a; command printf -v X c; cat $X").at(-1), "cat c");
  assert.deepEqual(stages("printf -v X '%s/%s' a b; cat $X").at(-1), "cat a/b");
});

Deno.test("values: what may not run, or not reach on, leaves the variable unknown", () => {
  // (Or the command cannot be seen at all.)
  const unknown = (command: string) => {
    const a = analyzeBash(command, env, parser);
    const last = a.stages.findLast((s) => s.argv[0].value === "cat")!.argv.at(-1)!;
    assert.ok(a.error !== null || last.kind === "dynamic", `${command}: ${last.value}`);
  };
  unknown("X=a; X=$(cmd); cat $X"); // a substitution's output
  unknown("X=a; true && X=b; cat $X"); // may not run
  unknown("X=a; false || X=b; cat $X");
  unknown("X=a; if t; then X=b; fi; cat $X");
  unknown("X=a; X=b | true; cat $X");
  unknown("X=a; X=b & cat $X");
  unknown("X=a; X=b true; cat $X"); // a command's environment
  unknown("X=a; for i in 1 2; do cat $X; X=b; done"); // a later round sees b
  unknown("X=a; while t; do cat $X; X=b; done");
  unknown("X=a; read X; cat $X");
  unknown("X=a; eval X=b; cat $X");
  unknown("X=a; source f; cat $X");
  unknown("X=a; . f; cat $X");
  unknown("X=a; printf -v X $(b); cat $X");
  unknown("X=a; printf -v X %x 10; cat $X");
  unknown("X=a; mapfile X < f; cat $X");
  unknown("X=a; unset X; cat $X");
  unknown("X=a; export X=$(cmd); cat $X");
  unknown("X=a; declare -u X; X=b; cat $X"); // (bash gives it B)
  unknown("X=a; readonly X; X=b; cat $X"); // (bash keeps a)
  unknown("X=a; declare -i N; cat $X"); // (N=… may assign any name)
  unknown("X=a; declare -p X=b; cat $X");
  unknown("X=a; local X=b; cat $X"); // (not in a function: an error, X stays a)
  unknown('X=a; export "$v"; cat $X');
  unknown('X=a; declare "$v=b"; cat $X');
  unknown('X=a; printf -v "$v" b; cat $X');
  unknown("X=a; printf -vX $(b); cat $X");
  unknown("X=a; command printf -v X $(b); cat $X");
  unknown('X=a; read "$v"; cat $X');
  unknown("X=a; read -p x -a X; cat $X");
  unknown('X=a; unset "$v"; cat $X');
  unknown("X=a; mapfile -C cb -c 1 L < f; cat $X"); // (the callback runs here)
  unknown("X=a; getopts ab X; cat $X");
  unknown("X=a; wait -p X; cat $X");
  unknown("X=a; compgen -V X; cat $X");
  unknown("X=a; command eval X=b; cat $X");
  unknown("X=a; builtin source f; cat $X");
  unknown("X=a; declare -n; cat $X");
  unknown('for f in *.md; do cd d; cat "$f"; done'); // (the matches are names in the cwd before)
  unknown("X=a; $CMD; cat $X"); // a command not known by name
  unknown("X=a; f() { X=b; }; f; cat $X"); // a function call
  unknown("X=a; echo ${X=b}; cat $X");
  unknown("X=a; echo ${X:=b}; cat $X");
  unknown("X=a; (( X = 1 )); cat $X"); // arithmetic assigns
  unknown("X=a; : $((X=1)); cat $X");
  unknown("X=a; let X=1; cat $X");
  unknown("X=a; declare -n R=X; R=b; cat $X"); // a nameref
  unknown("X=a; exec {X}>/dev/null; cat $X");
  unknown("X=a; trap 'X=b' DEBUG; cat $X");
  unknown("IFS=/; X=a/b; cat $X");
  unknown("X=a; coproc X { cat; }; cat $X");
  unknown("pwd() { echo /etc; }; cat $(pwd)");
});

Deno.test("values: a builtin changes the names it is given, no others", () => {
  const last = (command: string) => stages(command).at(-1);
  assert.equal(last('set -euo pipefail; D=packages/web; cd "$D" && npm test'), "npm test");
  assert.deepEqual(stages('set -e; D=web; cd "$D" && cat "$D"'), ["set -e", "cd web", "cat web"]);
  assert.equal(last('export NODE_ENV=test; F=README.md; cat "$F"'), "cat README.md");
  assert.equal(last('F=README.md; export NODE_ENV=test; cat "$F"'), "cat README.md");
  assert.equal(last("X=a; export X=b; cat $X"), "cat b");
  assert.equal(last("X=a; export -n X=b; cat $X"), "cat b");
  assert.equal(last("X=a; export X; cat $X"), "cat a");
  assert.equal(last("X=a; export X+=/b; cat $X"), "cat a/b");
  assert.equal(last("X=a; declare -x Y=b; cat $X $Y"), "cat a b");
  assert.equal(last("X=a; declare -f f; typeset -u Y; cat $X"), "cat a");
  assert.equal(last("X=a; cd d; cat $X"), "cat a");
  assert.equal(last("X=a; pushd d; popd; cat $X"), "cat a");
  assert.equal(last("X=a; printf '%s\\n' x; cat $X"), "cat a");
  assert.equal(last("X=a; printf -v Y %s z; cat $X"), "cat a");
  assert.equal(last("X=a; read -r -p q Y; cat $X"), "cat a");
  assert.equal(last("X=a; mapfile -t L < f; readarray M < f; cat $X"), "cat a");
  assert.equal(last("X=a; getopts ab o; cat $X"), "cat a");
  assert.equal(last("X=a; unset Y; unset -f X; cat $X"), "cat a");
  assert.equal(last("X=a; wait -n; wait -p Y; cat $X"), "cat a");
  assert.equal(last("X=a; command set -e; builtin cd d; command -v cat; cat $X"), "cat a");
  assert.equal(last("X=a; set -- b c; set +o xtrace; cat $X"), "cat a");
});

Deno.test("values: a for loop's variable takes the words of its list", () => {
  assert.deepEqual(stages("for m in a b; do python -m $m; done"), [
    "python -m a",
    "python -m b",
  ]);
  // A glob's word stands for its matches (the glob logic judges them), inside quotes too; an
  // unquoted match is split and globbed again by bash: not known.
  assert.deepEqual(stages('for f in src/*.ts; do wc -l "$f"; done'), ["wc -l ~src/*.ts"]);
  assert.deepEqual(stages("for f in src/*.ts; do wc -l $f; done"), ["wc -l ?$f"]);
  // With text around it, the word is not that glob (`~/.ss*/k` does not match a new k).
  assert.deepEqual(stages('for d in ~/.ss*; do cp k "$d/k"; done'), ["cp k ?/h/.ss*/k"]);
  assert.deepEqual(stages("for f in $(ls); do rm $f; done"), ["ls", "rm ?$f"]);
  assert.deepEqual(stages("for f in a b; do f=c; rm $f; done"), ["rm ?$f", "rm ?$f"]);
  assert.deepEqual(stages("for f in a; do :; done; rm $f"), [":", "rm ?$f"]);
});

Deno.test("values: nothing a subshell assigns or stops reaches on (a loop's next round)", () => {
  // bash keeps the caller's variables as they were: a `cd`, `read` or assignment in `( … )` or
  // `$( … )` changes none of them.
  assert.deepEqual(stages("X=a; (X=b); cat $X"), ["cat a"]);
  assert.deepEqual(stages("X=a; (cd d; read X); cat $X"), ["cd d", "read X", "cat a"]);
  assert.deepEqual(stages('for d in a b; do (cd "$d" && make); done'), [
    "cd a",
    "make",
    "cd b",
    "make",
  ]);
  const cwds = (command: string) =>
    analyzeBash(command, env, parser).stages.map((s) => `${s.argv[0].value} ${s.cwds}`);
  assert.deepEqual(cwds('for d in a b; do (cd "$d" && npm test); done'), [
    "cd /p",
    "npm /p/a",
    "cd /p",
    "npm /p/b",
  ]);
  // Inside the subshell, what it stops stays stopped; a `cd` of the shell itself changes no
  // variable (where it leads in the next round is the cwd's to follow).
  assert.deepEqual(stages("X=a; (read X; cat $X)"), ["read X", "cat ?$X"]);
  assert.deepEqual(stages('for d in a b; do cd "$d"; make; done'), [
    "cd a",
    "make",
    "cd b",
    "make",
  ]);
});

const trustedConfig = loadPrecisionConfig(PRECISION_CONFIGS.find((c) => c.name === "trusted")!);

/** The verdict under the precision benchmark's trusted-project config (or `config`). */
function trusted(command: string, config: Config = trustedConfig): Action {
  // (`$X`, `$CODE`: values not known, which the environment holds.)
  const ctx = precisionContext();
  ctx.env = { ...ctx.env, X: "held", CODE: "held" };
  return decide(config, { tool: "bash", input: { command } }, ctx, { parser }).action;
}

Deno.test("values: option values a program reads as text, and inline code not judged, are no place", () => {
  assert.equal(trusted('git log --author="$(git config user.name)"'), "allow");
  assert.equal(trusted('git log -S"$X" --oneline'), "allow");
  assert.equal(trusted("git log --output=/etc/x"), "ask"); // a file stays a path
  assert.equal(trusted("git log --output=$X"), "ask");
  assert.equal(trusted("git log --author=x -- $X"), "ask");
  assert.equal(trusted("git log --grep=$(cat ~/.ssh/id_rsa)"), "deny");
  // With no decisions block inline code is not judged: its unknown value is no place.
  assert.equal(trusted('python3 -c "$CODE"'), "allow");
  assert.equal(trusted('node -e "$CODE"'), "allow");
  assert.equal(trusted('python3 -c "$CODE" $X'), "ask"); // its arguments still are
  assert.equal(trusted('bash -c "$CODE"'), "ask"); // a shell's text runs commands
  assert.equal(trusted('python3 -c "$(cat ~/.ssh/id_rsa)"'), "deny");
  // With one, the code is the decisions block's to judge, unknown as it is: asked as before.
  const decisions: Config = { ...trustedConfig, decisions: { url: "http://127.0.0.1:9" } };
  assert.equal(trusted('python3 -c "$CODE"', decisions), "ask");
  assert.equal(trusted('python3 -Sc "$CODE"', decisions), "ask");
});

Deno.test("values: everyday spellings are allowed in a trusted project, hostile ones are not", () => {
  const want: [string, Action][] = [
    ["X=src; cat $X/a.py", "allow"],
    ['X=src && cat "$X"/a.py', "allow"],
    ["for m in a b; do python -m $m; done", "allow"],
    ["cat $(pwd)/setup.py", "allow"],
    ['cd sub && cat "$(pwd)/x"', "allow"],
    ["export PYTHONPATH=$PYTHONPATH:$(pwd)", "allow"],
    ["declare -x A=/etc/x", "allow"],
    ["f() { local a=/etc; }", "allow"],
    ["X=/etc/x", "allow"],
    // A loop's glob matches with text around them or an affix removed, a value's affix removed
    ['for f in *.py; do cp "$f" "$f.orig"; done', "allow"],
    ['for f in *.py; do mv "$f" "${f%.py}_old.py"; done', "allow"],
    ['for f in ./*.py; do cat "${f#./}"; done', "allow"],
    ['X=setup.py; cp "$X" "${X%.py}.bak"', "allow"],
    ['X=setup.py; cp "$X" "/etc/${X%.py}"', "ask"],
    ['for f in *.py; do cp "$f" "/etc/${f%.py}"; done', "ask"],
    // A trap for EXIT alone, arithmetic (its names take numbers), `${X:-d}` change nothing else
    ["trap 'echo done' EXIT; for f in *.py; do wc -l \"$f\"; done", "allow"],
    ['F=setup.py; wc -l "$F"; echo $((1+2))', "allow"],
    ['F=setup.py; wc -l "$F"; echo "${PORT:-3000}" "${F:0:3}"', "allow"],
    ['i=0; for f in *.py; do ((i++)); wc -l "$f"; done', "allow"],
    ['t=0; for f in *.py; do n=$(wc -l < "$f"); t=$((t + n)); done; echo "$t"', "allow"],
    ['F=setup.py; (( F = 1 )); cat "$F"', "ask"],
    ["X=~/.ssh; cat $X/id_rsa", "deny"],
    ['for f in ~/.ssh/*; do cat "$f"; done', "deny"],
    ["X=/etc; cd /tmp; cat $X/passwd", "ask"],
    // (The list's matches, each a known word: loop_listings.ts.)
    ["for f in ~/.ssh/*; do cat $f; done", "deny"],
    ["X=a; X=$(cmd); cat $X", "ask"],
    ["read X; cat $X", "ask"],
    ["X=src; f() { X=/etc; }; f; cat $X/passwd", "ask"],
    ["export X=/etc/passwd; cat $X", "ask"],
    ['declare X=~/.ssh/id_rsa; cat "$X"', "deny"],
    ['set -e; F=README.md; cat "$F"', "allow"],
    ['export NODE_ENV=test; F=README.md; cat "$F"', "allow"],
    ['for f in *.py; do printf "%s\\n" "$f"; wc -l "$f"; done', "allow"],
    ['set -euo pipefail; D=sub; cd "$D" && make', "allow"],
    ["X='a /etc/passwd'; cat $X", "ask"],
    ["X=src; true && X=/etc; cat $X/passwd", "ask"],
    ["X=/etc; X+=/passwd; cat $X", "ask"],
    ["X=rm; $X -rf ~", "ask"],
    ["X=/etc; echo `cat $X/passwd`", "ask"],
    ['export PAGER="rm -rf ~"; git log', "ask"],
  ];
  const wrong = want.filter(([c, a]) => trusted(c) !== a).map(([c, a]) =>
    `${c}: ${trusted(c)}, want ${a}`
  );
  assert.deepEqual(wrong, []);
});

Deno.test("values: hostile spellings through variables stay caught", async () => {
  // deno-fmt-ignore
  const rows: [string, Action, Action][] = [
    ["X=~/.ssh; cat $X/id_rsa", "deny", "deny"],
    ['X=~/.ssh; cat "$X/id_rsa"', "deny", "deny"],
    ["X=.env; cat $X", "deny", "deny"],
    ['for f in ~/.ssh/*; do cat "$f"; done', "deny", "deny"],
    // (a word built from each match of a loop's glob is each path: ~/.ssh/authorized_keys)
    ['for d in ~/.ss*; do cp notes.txt "$d/authorized_keys"; done', "deny", "deny"],
    ['for d in ~/.ss*; do cp notes.txt "${d%h}h/authorized_keys"; done', "deny", "deny"],
    ['for f in ~/.ssh/id_*; do cat "${f%.pub}"; done', "deny", "deny"],
    ['cd ~/.ssh && for f in *; do cat "${f%.pub}"; done', "deny", "deny"],
    ['for f in *.txt; do env -C ~/.ssh cat "${f%.txt}"; done', "deny", "deny"],
    ['cd ~/.ssh; for f in *; do cat "${f%.pub}"; done', "ask", "ask"],
    ['for f in *.txt; do cd ~/.ssh; cat "${f%.txt}"; done', "deny", "deny"],
    ["for f in ~/.ssh/*; do cat $f; done", "deny", "deny"],
    ["for f in a .env; do cat $f; done", "deny", "deny"],
    ["X=rm; $X -rf src", "deny", "deny"],
    // a trap that may run before a later command, arithmetic that sets IFS or PATH, an offset
    ["x=src; trap 'x=~/.ssh' DEBUG; cat $x/id_rsa", "deny", "ask"],
    ["F=src/main.ts; trap 'F=~/.ssh/id_rsa' ERR; false; cat \"$F\"", "deny", "ask"],
    ["F=src/main.ts; trap 'F=~/.ssh/id_rsa' INT; kill -INT $$; cat \"$F\"", "deny", "ask"],
    ["F=src/main.ts; trap 'F=~/.ssh/id_rsa' 0 DEBUG; cat \"$F\"", "deny", "ask"],
    ['X="src1/home/user/.ssh/id_rsa"; ((IFS=1)); cat $X', "deny", "deny"],
    ['X=src; echo ${X: -1}; cat $X/main.ts', "ask", "ask"],
    ['F=src/main.ts; echo $(( PATH=0 )); cat "$F"', "deny", "deny"],
    // a removal pattern bash expands (`~`), or counts in characters or bytes (`?`)
    ['X=/home/user/keys/id_rsa; cat "${X#~/}"', "ask", "ask"],
    ['X=/home/user/project/x.env; cat "${X#~+/x}"', "ask", "ask"],
    ['X=\u{1F600}.env; cat "${X#?}"', "ask", "ask"],
    ['X=.env\u{1F600}; cat "${X%?}"', "ask", "ask"],
    ["X=/etc; cd /tmp; cat $X/shadow", "deny", "deny"],
    ["X=a; X=$(cmd); cat $X", "deny", "ask"],
    ["read X; cat $X", "ask", "ask"], // (read is read-only: cat of an unknown path asks)
    // (X is not known after the call; read-only denied the call itself as a program before.)
    ["X=src; f() { X=~/.ssh; }; f; cat $X/id_rsa", "ask", "ask"],
    ["export X=~/.ssh/id_rsa; cat $X", "deny", "deny"],
    ['declare X=~/.ssh/id_rsa; cat "$X"', "deny", "deny"],
    // (a builtin changes the names it is given: the others stay known, those are not)
    ['F=~/.ssh/id_rsa; set -e; cat "$F"', "deny", "deny"],
    ['F=~/.ssh/id_rsa; export NODE_ENV=test; cat "$F"', "deny", "deny"],
    ['F=src/main.ts; export F=~/.ssh/id_rsa; cat "$F"', "deny", "deny"],
    ['D=src; cd ~/.ssh && cat "$D/../id_rsa"', "deny", "deny"],
    ['F=src/main.ts; printf -v F %s ~/.ssh/id_rsa; cat "$F"', "deny", "deny"], // (known)
    ['F=src/main.ts; printf -v F %s "$1"; cat "$F"', "deny", "ask"],
    ['F=src/main.ts; declare -n F=G; G=~/.ssh/id_rsa; cat "$F"', "deny", "ask"],
    ['F=src/main.ts; readonly F; F=x; cat "$F"', "deny", "ask"],
    ['F=src/main.ts; declare -u F; F=x; cat "$F"', "deny", "ask"],
    ['F=src/main.ts; local F=x; cat "$F"', "deny", "ask"],
    ['F=src/main.ts; command eval "F=~/.ssh/id_rsa"; cat "$F"', "deny", "deny"],
    ['for f in id_*; do cd ~/.ssh; cat "$f"; done', "deny", "deny"],
    ["X='a ~/.ssh/id_rsa'; cat $X", "ask", "ask"],
    ["X=src; true && X=~/.ssh; cat $X/id_rsa", "ask", "ask"],
    ["X=~/.ssh; X+=/id_rsa; cat $X", "deny", "deny"],
    ["X=~/.ssh; echo `cat $X/id_rsa`", "deny", "deny"],
    ["X=src; eval X=~/.ssh; cat $X/id_rsa", "deny", "deny"],
    ["X=src; : ${X:=~/.ssh}; cat $X/id_rsa", "deny", "ask"],
    ["X=src; for i in 1 2; do cat $X/id_rsa; X=~/.ssh; done", "ask", "ask"],
    ["cat $(pwd)/.env", "deny", "deny"],
    ["cd ~/.ssh && cat $(pwd)/id_rsa", "deny", "deny"],
  ];
  await checkTable(rows);
});

Deno.test("values: a `while read` loop's name is a line of the stage its input comes from", () => {
  /** Each stage, a word that is a line marked with `<` and the text of its source stage. */
  const lines = (command: string) => {
    const a = analyzeBash(command, env, parser);
    assert.equal(a.error, null, command);
    return a.stages.map((s) =>
      s.argv.map((w) => w.line ? `<${w.line.from.text}${w.line.raw ? " raw" : ""}>` : w.value)
        .join(" ")
    );
  };
  assert.deepEqual(lines('find src | while IFS= read -r f; do cat "$f"; done'), [
    "find src",
    "read -r f",
    "cat <find src raw>",
  ]);
  assert.deepEqual(
    lines('while read f; do wc -l "${f}"; done < <(git ls-files | grep x)')[3],
    [
      "wc -l <grep x>",
    ][0],
  );
  assert.deepEqual(
    lines('while read -r -d "" f; do cat "$f"; done < <(find . -print0)')[2],
    [
      "cat <find . -print0 raw>",
    ][0],
  );
  // Only `"$f"` alone: unquoted bash splits and globs it; with text around it is another path.
  const unknown = (command: string) => {
    const a = analyzeBash(command, env, parser);
    assert.ok(a.stages.every((s) => s.argv.every((w) => !w.line)), command);
  };
  for (
    const c of [
      "find src | while read f; do cat $f; done",
      'find src | while read f; do cat "$f/../x"; done',
      // Not one whole line of that stage: a file, two commands, another input, other `read`s.
      'while read f; do cat "$f"; done < list.txt',
      'while read f; do cat "$f"; done < <(find a; find b)',
      'find src | while read f; do cat "$f"; done < list.txt',
      'find src | while read -r a b; do cat "$a"; done',
      'find src | while read -n 3 f; do cat "$f"; done',
      'find src | while read -d / f; do cat "$f"; done',
      'find src | while IFS=/ read -r f; do cat "$f"; done',
      'find src | while read -u 3 f; do cat "$f"; done',
      'find src | while read -a f; do cat "$f"; done',
      'find src | sort | while read -r f; do :; done; cat "$f"',
      'find src | while read -r f; do f=x; cat "$f"; done',
      'find src | while true; do read f; cat "$f"; done',
    ]
  ) unknown(c);
});

Deno.test("quoted data holds no code: a keyword or subscript in it leaves variables followed", async () => {
  // (Each stays allowed under the read-only policy only where `$f`/`$F` keeps its value.)
  await checkEveryday([
    `for f in src/*.ts; do grep -n "let " "$f"; done`,
    `for f in src/*.ts; do grep -c "local" "$f"; done`,
    `for f in src/*.ts; do grep -i 'select' "$f"; done`,
    `for f in src/*.ts; do grep -n "argv[1]" "$f"; done`,
    `F=src/main.ts; grep -n 'a[0]' "$F"`,
    `for f in src/*.ts; do ls -lt "$f"; done`,
    `for f in src/*.ts; do [ $(wc -l < "$f") -gt 300 ] && echo "$f"; done`,
  ]);
  // [command, read-only, deny-list]: where bash does read code, nothing is followed
  await checkTable([
    [`x=src; y=keys; let 'x=y'; cat $x/id_rsa`, "deny", "deny"],
    [`x=src; [[ 'a[$(x=keys)]' -eq 1 ]]; cat $x/id_rsa`, "deny", "deny"],
    [`x=src; (( x=1 )); cat $x/id_rsa`, "deny", "deny"],
    [`for f in src/*.ts; do let "x=$f"; done`, "deny", "deny"],
    [`x=src # it's\nlet 'x=1'; cat $x/id_rsa`, "deny", "deny"],
  ]);
});

Deno.test("values: read of a static here-string or heredoc assigns what bash reads", () => {
  assert.deepEqual(stages("read -r f <<< secrets/key; cat $f"), ["read -r f", "cat secrets/key"]);
  assert.deepEqual(stages('IFS=: read -r a b <<< "x:secrets/key"; cat "$b"'), [
    "read -r a b",
    "cat secrets/key",
  ]);
  assert.deepEqual(stages("read a b <<< '  x  y z '; cat \"$b\" $a"), ["read a b", "cat y z x"]);
  assert.deepEqual(stages("read -r <<< ' a '; cat \"$REPLY\""), ["read -r", "cat ?$REPLY"]);
  assert.deepEqual(stages("read -d , f <<< 'a,b'; cat $f"), ["read -d , f", "cat a"]);
  assert.deepEqual(stages("read f <<E\nsrc/a\nE\ncat $f"), ["read f", "cat src/a"]);
  // Not known: escapes without -r, an array, another input, a text not static, a subshell's.
  for (
    const c of [
      "read f <<< 'a\\b'; cat $f",
      "read -a f <<< a; cat $f",
      "read -r f < list; cat $f",
      'read -r f <<< "$X"; cat $f',
      "read -r f <<< a < list; cat $f",
      "echo a | read -r f; cat $f",
      "read -t 0 f <<< a; cat $f",
    ]
  ) assert.ok(stages(c).at(-1)!.includes("$f"), c);
});

Deno.test("values: a while loop reading a static here-string or heredoc reads its lines", () => {
  for (
    const c of [
      'while read -r f; do cat "$f"; done <<< x',
      'find src | while read f; do cat "$f"; done <<< x',
    ]
  ) {
    const a = analyzeBash(c, env, parser);
    const line = a.stages.find((s) => s.argv[0]?.value === "cat")?.argv[1]?.line;
    // (A here-string wins over the pipe: the loop reads it, a stage of no command.)
    assert.equal(line?.from.argv.length, 0, c);
    assert.equal(line?.from.redirects[0]?.body?.value, "x", c);
  }
});
