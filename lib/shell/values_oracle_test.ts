/**
 * What bash expands a variable to, against what the analysis says it is: generated lists that
 * assign, unset and export a variable in every way a statement may (conditionally, in pipelines,
 * subshells, groups, functions, loops, heredocs, with redirects tree-sitter reads apart) are run by
 * bash, and each recorder in them prints `$X`. Where the analysis (the walk's or the shortcut's)
 * says the word is known, bash must have printed that value; an unknown value is always right.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { analysesOf, generatedLines, runScripts, type Tally } from "./oracle_testing.ts";
import { fuzzSeed, seededRandom } from "./testing.ts";

/** Statements that assign X, may fail, or carry redirects; REC prints `$X` into a file. */
// deno-fmt-ignore
const STATEMENTS = ["X=a", "X=b", "X=a", "X=b", "X=a", "X=b", "REC", "REC", "REC", "X=", "X+=c", "unset X", "export X=d", "X=e true", "true", "false",
  "true 2>&1", "false 2>/dev/null", ": >/dev/null", "X=f 2>/dev/null", "REC", "REC", "REC",
  "( X=g )", "{ X=h; }", "{ X=i && REC; } 2>&1", "if true; then X=j; fi", "if false; then X=k; else X=l; fi",
  "while false; do X=m; done", "for X in n; do :; done", "{ ! X=o; }", "case a in a) X=p;; esac",
  "f() { X=q; }; f", "X=$(echo r)", "X=`echo s`", "read X <<< t", "X=u | true", "true | X=v",
  "X=w & REC", "eval X=y", "declare X=z", "local X=1 2>/dev/null", "X=2; REC 2>&1 |& REC",
  "readonly Y=3", "X=${X:-4}", "X=\"$X\"5", "cat <<E >/dev/null", "X=6 <<E", "REC <<E", "cat <<E | REC",
  // Other ways a variable gets a value.
  "getopts ab X", "printf -v X %s z", "wait -n -p X 2>/dev/null", "echo ${X:=w} >/dev/null", ": ${X=v}",
  "mapfile -t X <<< m", "declare -n R=X; R=nn", "X=a eval 'X=b'", "trap 'X=t' DEBUG", "export X=ex",
  "let X=7", "((X=8))", "select X in a; do break; done <<< 1", "IFS= read -r X <<< rr", "unset -v X",
  "X=(a1 a2)", "X[0]=ar", "set -- s1; X=$1", "shift; X=sh", "alias X=al", "X=$'q\\x41'"];
const OPS = [" && ", " || ", "; ", " | ", " |& ", " && ", "; "];

Deno.test("values: where the analysis knows $X, bash expands it to that", async () => {
  await compared(20261205, STATEMENTS, OPS, 200, 10);
});

/**
 * Lines bash stops at an expansion error or an assignment to a readonly name (the rest of the
 * line never runs, the next line does), and printf's `%n`, which assigns the names it is given.
 */
// deno-fmt-ignore
const STOPPING = ["X=a", "X=b", "X=c", "REC", "REC", "REC", "REC", ": $((1/0))", "Y=$((1/0))",
  "{ Y=$((1/0)) X=d; }", "declare Y=$((1/0)) X=e", "export Y=$((1/0)) X=f",
  "for i in $((1/0)); do :; done", "[[ $((1/0)) ]]", ": > $((1/0))", "case $((1/0)) in *) ;; esac",
  "printf %d $((1/0)) >/dev/null", "readonly R=1", "R=2", "R+=2", "UID=1", "BASHOPTS=x",
  "Z=ab", ": ${Z:0:-5}", ": ${Z:1}", ": ${!Z}", ": $((1+))", ": $((08))", ": $[1/0]", "a[-5]=x",
  "( : $((1/0)) )", ": $((1/0)) | true", "((1/0))", "N=3", "X=$((N+1))", ": $((N+1))", "N=1/0",
  "printf %s%n ab X", "printf %n X", "printf -v Y %s%n ab X", "command printf %5n X >/dev/null",
  "builtin printf %s%-3n ab X", "printf %s ab X", "true", "false", "X=g && REC", ": ${W:?}"];
const LINES = ["; ", "\n", "\n", " && ", " || ", "\n", "; "];

Deno.test("values: a line bash stops, printf's %n", async () => {
  await compared(20261206, STOPPING, LINES, 150, 10);
});

/** Builtins' option spellings: `--`, an option's value that looks like one, an invalid option. */
// deno-fmt-ignore
const OPTIONS = ["X=a", "X=b", "REC", "REC", "REC", "getopts -- ab X", "getopts -- X Y",
  "printf -v X -a z 2>/dev/null", "printf '- %s' X 2>/dev/null", "printf -v Y -v X %s z",
  "printf -%n X 2>/dev/null", "unset -f X", "unset -fx X 2>/dev/null", "declare -f X >/dev/null",
  "declare -fv X 2>/dev/null", "read -r -- X <<< r", "read -d -- X <<< d--", "mapfile -t -- X <<< m",
  "compgen -W -V X >/dev/null", "compgen -A file -- -C X", "wait -n -p X 2>/dev/null", "true"];

Deno.test("values: builtins' options, read as bash's getopt reads them", async () => {
  await compared(20261207, OPTIONS, OPS, 150, 10);
});

/** What a recorder prints of X: its operators (parameter_ops.ts), X perhaps unset. */
const FORMS = [
  "${X:-z}",
  "${X-z}",
  "${X:+p}",
  "${X+p}",
  "${#X}",
  "${X:0:1}",
  "${X:1}",
  "${X//a/q}",
  "${X/#a/q}",
  "${X/%a/q}",
  "${X^^}",
  "${X^}",
  "${X%a}",
  "${X:?}",
  "pre${X}",
  "${X:=k}",
  "${X=k}",
];

Deno.test("values: where the analysis knows ${X<op>…}, bash expands it to that", async () => {
  await compared(20261208, STATEMENTS, OPS, 150, 20, FORMS);
});

/** Run generated lines in bash: where the analysis knows `$X` at a recorder, bash printed that. */
async function compared(
  seed: number,
  pool: string[],
  ops: string[],
  recorders: number,
  knowns: number,
  forms = ["$X"],
): Promise<void> {
  const root = Deno.realPathSync(await Deno.makeTempDir());
  const lines = generatedLines(seededRandom(fuzzSeed(seed)), {
    count: 1000,
    pool,
    ops,
    record: (n, k) => `printf '%s' "${forms[(n + k) % forms.length]}" > ${root}/${n}.${k}`,
  });
  try {
    await runScripts(root, lines.map(({ line, bodies }) => `${line}\n${bodies}`), { HOME: root });
    const env = { cwd: root, home: root, env: { HOME: root } };
    const wrong: string[] = [];
    const tally: Tally = { compared: 0, unread: 0 };
    let known = 0;
    let recorded = 0;
    for (const { line, bodies } of lines) {
      for (const [by, a] of analysesOf(bodies ? `${line}\n${bodies}` : line, env, tally)) {
        for (const s of a.stages) {
          const file = s.argv[0]?.value === "printf"
            ? s.redirects.find((r) => r.target?.value.startsWith(`${root}/`))?.target?.value
            : undefined;
          if (file === undefined || !existsSync(file)) continue;
          recorded++;
          const word = s.argv[2];
          if (word?.kind !== "static") continue;
          known++;
          const bash = Deno.readTextFileSync(file);
          if (word.value !== bash) {
            wrong.push(
              `${by}: ${JSON.stringify(line)} ${file}: ${JSON.stringify(word.value)}, bash ${
                JSON.stringify(bash)
              }`,
            );
          }
        }
      }
    }
    assert.deepEqual(wrong, []);
    // Known values are compared, not only unknown ones.
    assert.ok(recorded > recorders, `${recorded} recorders ran`);
    assert.ok(known > knowns, `${known} values known`);
    assert.ok(tally.unread < tally.compared, `${tally.unread} not fully analysed`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
