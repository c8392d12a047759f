/**
 * Where bash really is after a list: generated lists of `cd`, pipelines, `|&`, `&&`, `||`, `;` and
 * redirects are run by bash, and the directory it is in afterwards must be one of the cwds the
 * analysis gives the command after them, the walk's and the shortcut's alike (or unknown). This
 * is how tree-sitter's misreadings of such lists (`cd d && b 2>&1 | c` read as
 * `(cd d && b) 2>&1 | c`) were found.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { analysesOf, generatedLines, runScripts, type Tally } from "./oracle_testing.ts";
import { fuzzSeed, seededRandom } from "./testing.ts";

/** Commands that move the shell, fail, or carry redirects tree-sitter may read apart. */
// deno-fmt-ignore
const COMMANDS = ["cd d1", "cd d2", "cd d1/d3", "cd ..", "cd nowhere", "cd", "cd -", "true", "false",
  "true 2>&1", "false 2>/dev/null", ": >/dev/null", "true >&2", "cd d2 2>/dev/null",
  "cd nowhere 2>/dev/null", "cd d1 >/dev/null", "ls >/dev/null", "cat /dev/null 2>&1", "REC", "REC",
  // Compound commands (the walk alone reads them).
  "( cd d1 )", "{ cd d2; }", "{ cd d1 && REC; } 2>&1", "if cd d1; then REC; fi", "if false; then cd d2; else cd d1; fi",
  "while false; do cd d1; done", "for x in a; do cd d2; done", "{ ! cd d1; }", "time cd d2", "case a in a) cd d2;; esac",
  "f() { cd d1; }; f", "cd $(echo d1)", "cd d1 2>&1 >/dev/null", "echo $(cd d2; REC)", "cd d2 <<< x", "{ REC; } | REC",
  "{ cd d1; } > /dev/null", "( cd d2 ) 2>&1", "if cd d1; then REC; fi 2>/dev/null", "cd d1 & REC", "( cd d1 | REC )",
  "cd d2 && REC 2>&1 |& REC", "{ cd d1 || REC; } 2>&1", "while cd d1; do break; done 2>&1",
  // Other ways to move.
  "pushd d1 >/dev/null", "popd >/dev/null 2>&1", "D=d2; cd $D", "eval cd d1", "eval 'cd d2 && REC'", "builtin cd d2",
  "command cd d1", "CDPATH=d1 cd d3", "cd -P d1/..", "cd d1/../d2", "cd ./d1", "cd \"d2\"", "cd d1/",
  "source ./go.sh", ". ./go.sh", "coproc cd d1", "time -p cd d2", "command -p cd d1", "cd -L d1", "cd -- d2",
  "cd -e d1", "CDPATH=:d1 cd d3", "OLDPWD=d2 cd -", "PWD=/ cd ..", "pushd -n d1 >/dev/null", "exec 3>/dev/null",
  "X=d1; cd \"$X\"", "cd ~+", "cd ~-", "cd $PWD/d2", "cd \"$(pwd)/d1\"", "cd d1 || cd d2 || cd d1/d3",
  "shopt -s cdable_vars", "V=d2", "cd V", "trap 'cd d1' DEBUG", "trap 'cd d2' ERR", "trap - DEBUG",
  "set -o errtrace", "set -T", "export CDPATH=d1", "cd d3", "cd",
  // Spellings of cd and its operand.
  "\\cd d1", "'cd' d2", "c\\d d1", "\"c\"d d2", "${CD:-cd} d1", "cd d1 d2", "cd ''", "cd /proc/self/cwd/d1",
  "cd d1/./", "cd .//d2", "cd d1/d3/../..", "cd \"\"d2", "cd $'d1'", "cd d{1,2}", "cd d[1]", "cd d?",
  // `exit`: nothing after it runs in this shell; in a subshell, a pipeline or the background, it
  // ends that alone (a line whose shell exits records nothing).
  "cd nowhere || exit", "cd d1 || exit 1", "cd d2 || { REC; exit; }", "( exit )", "exit 3 | REC",
  "{ exit; } | REC", "exit & REC", "if cd d1; then REC; else exit; fi", "f() { exit; }",
  // Heredocs (tree-sitter hangs what follows one on its line inside it).
  "cat <<E >/dev/null", "cat <<E | cat >/dev/null", "cd d2 <<E", "REC <<E", "cat <<E | REC"];
const OPS = [" && ", " || ", "; ", " | ", " |& ", " && ", " | "];

Deno.test("cwds: after generated lists of cd, pipes and redirects, bash is where the analysis says", async () => {
  await compared(20261204, COMMANDS, OPS, { count: 800, shortcut: 50, recorded: 150 });
});

/**
 * Lines bash stops at an expansion error or an assignment to a readonly name: the rest of the
 * line (a `cd`, one whose failure exits) never runs, the next line does.
 */
// deno-fmt-ignore
const STOPPING = ["cd d1", "cd d2", "cd ..", "cd d1 || exit", "cd d2 || exit 1", "REC", "REC", "REC",
  ": $((1/0))", "X=$((1/0)) cd d1", "{ Y=$((1/0)); cd d2 || exit; }", "cd $((1/0))", ": ${Z:0:-5}",
  "readonly R=1", "R=2", "UID=1", ": ${!Z}", "Z=ab", "( : $((1/0)) )", "N=2", "cd d$((N-1))",
  "f() { : $((1/0)); }", "f", "true", "false", "pushd d1 >/dev/null || exit"];
const LINES = ["; ", "\n", "\n", " && ", " || ", "\n"];

Deno.test("cwds: after a line bash stops, bash is where the analysis says", async () => {
  await compared(20261206, STOPPING, LINES, {
    count: 600,
    shortcut: -1,
    recorded: 100,
    // (`${!Z}` and a name given as text leave many unread.)
    unread: 0.5,
  });
});

/** Run generated lines in bash: bash is in one of the cwds the analysis gives, at each recorder. */
async function compared(
  seed: number,
  pool: string[],
  ops: string[],
  min: { count: number; shortcut: number; recorded: number; unread?: number },
): Promise<void> {
  const root = Deno.realPathSync(await Deno.makeTempDir());
  // (REC records where it runs: `pwd -P > ROOT/LINE.K`.)
  const lines = generatedLines(seededRandom(fuzzSeed(seed)), {
    count: min.count,
    pool,
    ops,
    record: (n, k) => `pwd -P > ${root}/${n}.${k}`,
  });
  const start = `${root}/s/start`;
  const home = `${root}/h`;
  try {
    await Deno.mkdir(`${start}/d1/d3`, { recursive: true });
    await Deno.mkdir(`${start}/d2`, { recursive: true });
    await Deno.mkdir(home);
    await Deno.writeTextFile(`${start}/go.sh`, "cd d1\n");
    await runScripts(
      root,
      lines.map(({ line, bodies }, i) =>
        // (As a command starts in pi: OLDPWD unset, the environment holding none.)
        `cd ${start} || exit 1\nunset OLDPWD\n${line}\n${bodies}pwd -P > ${root}/${i}.pwd\n`
      ),
      { HOME: home },
    );
    const env = { cwd: start, home, env: { HOME: home } };
    const wrong: string[] = [];
    const tally: Tally = { compared: 0, unread: 0 };
    let shortcut = 0;
    let recorded = 0;
    lines.forEach(({ line, bodies }, i) => {
      const pwdFile = `${root}/${i}.pwd`;
      if (!existsSync(pwdFile)) return; // (bash could not read the line)
      const bash = Deno.readTextFileSync(pwdFile).replace(/\n$/, "");
      // (On a line of its own where the line may stop: bash's `pwd` is on one.)
      const command = bodies || ops.includes("\n") ? `${line}\n${bodies}a1` : `${line}; a1`;
      for (const [by, a] of analysesOf(command, env, tally)) {
        if (by === "shortcut") shortcut++;
        // After the list, and at each recorder in it that ran.
        const places: [string, string, (string | null)[]][] = [
          ["after it", bash, a.stages.find((s) => s.argv[0]?.value === "a1")?.cwds ?? []],
        ];
        for (const s of a.stages) {
          const file = s.argv[0]?.value === "pwd"
            ? s.redirects.find((r) => r.target?.value.startsWith(`${root}/`))?.target?.value
            : undefined;
          if (file === undefined || !existsSync(file)) continue;
          places.push([file, Deno.readTextFileSync(file).replace(/\n$/, ""), s.cwds]);
        }
        for (const [where, real, ours] of places) {
          if (!ours.includes(null) && !ours.some((c) => resolve(c!) === real)) {
            wrong.push(
              `${by}: ${JSON.stringify(line)} ${where}: ${JSON.stringify(ours)}, bash ${real}`,
            );
          }
        }
        recorded += places.length - 1;
      }
    });
    assert.deepEqual(wrong, []);
    // Both readings are exercised.
    assert.ok(shortcut > min.shortcut, `the shortcut read ${shortcut} of ${lines.length}`);
    assert.ok(recorded > min.recorded, `${recorded} recorders ran`);
    assert.ok(
      tally.unread < lines.length * (min.unread ?? 0.1),
      `${tally.unread} not fully analysed`,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
