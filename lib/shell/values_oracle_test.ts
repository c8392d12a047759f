/**
 * What bash expands a variable to, against what the analysis says it is: generated lists that
 * assign, unset and export a variable in every way a statement may (conditionally, in pipelines,
 * subshells, groups, functions, loops, heredocs, with redirects tree-sitter reads apart) are run by
 * bash, and each recorder in them prints `$X`. Where the analysis (the walk's or the shortcut's)
 * says the word is known, bash must have printed that value; an unknown value is always right.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { walkedAnalysis } from "./analyze.ts";
import type { BashAnalysis } from "./model.ts";
import { loadBashParser } from "./parser.ts";
import { plainAnalysis } from "./plain_analysis.ts";
import { fuzzSeed, runBash, seededRandom } from "./testing.ts";

const parser = await loadBashParser();

/** Statements that assign X, may fail, or carry redirects; REC prints `$X` into a file. */
// deno-fmt-ignore
const STATEMENTS = ["X=a", "X=b", "X=a", "X=b", "X=", "X+=c", "unset X", "export X=d", "X=e true", "true", "false",
  "true 2>&1", "false 2>/dev/null", ": >/dev/null", "X=f 2>/dev/null", "REC", "REC", "REC",
  "( X=g )", "{ X=h; }", "{ X=i && REC; } 2>&1", "if true; then X=j; fi", "if false; then X=k; else X=l; fi",
  "while false; do X=m; done", "for X in n; do :; done", "{ ! X=o; }", "case a in a) X=p;; esac",
  "f() { X=q; }; f", "X=$(echo r)", "X=`echo s`", "read X <<< t", "X=u | true", "true | X=v",
  "X=w & REC", "eval X=y", "declare X=z", "local X=1 2>/dev/null", "X=2; REC 2>&1 |& REC",
  "readonly Y=3", "X=${X:-4}", "X=\"$X\"5", "cat <<E >/dev/null", "X=6 <<E", "REC <<E", "cat <<E | REC"];
const OPS = [" && ", " || ", "; ", " | ", " |& ", " && ", "; "];

Deno.test("values: where the analysis knows $X, bash expands it to that", async () => {
  const random = seededRandom(fuzzSeed(20261205));
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const root = Deno.realPathSync(await Deno.makeTempDir());
  const lines: string[] = [];
  const bodies: string[] = [];
  for (let n = 0; n < 800; n++) {
    let line = pick(STATEMENTS);
    for (let k = Math.floor(random() * 5); k > 0; k--) line += pick(OPS) + pick(STATEMENTS);
    let k = 0;
    lines.push(line.replaceAll("REC", () => `printf '%s' "$X" > ${root}/${n}.${k++}`));
    bodies.push("x\nE\n".repeat(line.split("<<E").length - 1));
  }
  try {
    // Each line a script of its own: a line bash cannot read fails alone.
    for (let i = 0; i < lines.length; i++) {
      await Deno.writeTextFile(`${root}/${i}.sh`, `${lines[i]}\n${bodies[i]}`);
    }
    const script = lines.map((_, i) => `bash ${i}.sh </dev/null >/dev/null 2>&1\n`).join("");
    await runBash(script, {
      cwd: root,
      env: { LC_ALL: "C", HOME: root, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    });
    const env = { cwd: root, home: root, env: { HOME: root }, carriesCommand: () => false };
    const wrong: string[] = [];
    let known = 0;
    let recorded = 0;
    lines.forEach((line, i) => {
      const command = bodies[i] ? `${line}\n${bodies[i]}` : line;
      const analyses: [string, BashAnalysis | null][] = [
        ["walk", walkedAnalysis(command, env, parser)],
        ["shortcut", plainAnalysis(command, env)],
      ];
      for (const [by, a] of analyses) {
        // (A command not fully analysed is at least asked about.)
        if (!a || a.error) continue;
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
    });
    assert.deepEqual(wrong, []);
    // Known values are compared, not only unknown ones.
    assert.ok(recorded > 200, `${recorded} recorders ran`);
    assert.ok(known > 15, `${known} values known`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
