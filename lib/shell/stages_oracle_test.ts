/**
 * Every command bash runs is a stage: generated lists of commands that succeed and fail, joined by
 * `&&`, `||`, `|`, `|&`, `;` and `&`, with redirects tree-sitter reads apart, heredocs and the
 * commands it hangs in them, groups, subshells and conditionals, are run by bash under xtrace;
 * each command it ran must be a stage of the analysis (the walk's and the shortcut's), word for
 * word. (Stages that did not run are fine: the analysis cannot know which branch runs.)
 */
import assert from "node:assert/strict";
import { walkedAnalysis } from "./analyze.ts";
import type { BashAnalysis } from "./model.ts";
import { loadBashParser } from "./parser.ts";
import { plainAnalysis } from "./plain_analysis.ts";
import { fuzzSeed, runBash, seededRandom } from "./testing.ts";

const parser = await loadBashParser();

// deno-fmt-ignore
const REDIRECTS = ["", "", "", " >/dev/null", " 2>&1", " 2>/dev/null", " >&2", " <<E", " <<E |", " <<E &&", " <<< w"];
const AFTER_GROUP = ["", "", " >/dev/null", " 2>&1", " <<E", " <<< w"];
const OPS = [" && ", " || ", " | ", " |& ", "; ", " && ", " || ", " & "];

Deno.test("stages: every command bash runs in generated conditional lists is a stage", async () => {
  const random = seededRandom(fuzzSeed(20261206));
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  let n = 0;
  const simple = (): string => {
    const command = `${pick(["ok", "no"])} w${n++}${pick(REDIRECTS)}`;
    // (A command after a heredoc start on its line: tree-sitter hangs it in the heredoc.)
    return /[|&]$/.test(command) ? `${command} ${pick(["ok", "no"])} w${n++}` : command;
  };
  const statement = (depth: number): string => {
    const r = depth < 2 ? random() : 1;
    if (r < 0.08) return `{ ${list(depth + 1)}; }${pick(AFTER_GROUP)}`;
    if (r < 0.16) return `( ${list(depth + 1)} )${pick(AFTER_GROUP)}`;
    if (r < 0.22) return `if ${simple()}; then ${list(depth + 1)}; else ${list(depth + 1)}; fi`;
    if (r < 0.26) return `! ${simple()}`;
    return simple();
  };
  const list = (depth: number): string => {
    let s = statement(depth);
    for (let k = Math.floor(random() * 4); k > 0; k--) s += pick(OPS) + statement(depth);
    return s.replace(/ & $/, "");
  };
  const lines: string[] = [];
  const bodies: string[] = [];
  for (let i = 0; i < 500; i++) {
    const line = list(0).replace(/ & (?=[)}]|$)/g, " ");
    lines.push(line);
    bodies.push("x\nE\n".repeat(line.split("<<E").length - 1));
  }
  const dir = await Deno.makeTempDir({ prefix: "pi-controls-stages-oracle-" });
  try {
    // Each line a script of its own (a line bash cannot read fails alone), traced into one file.
    for (let i = 0; i < lines.length; i++) {
      await Deno.writeTextFile(
        `${dir}/${i}.sh`,
        `ok() { return 0; }\nno() { return 1; }\nexec 2>/dev/null 5>>trace\nBASH_XTRACEFD=5\n` +
          `PS4='+ '\nset -x\n${lines[i]}\n${bodies[i]}wait\n`,
      );
    }
    const bash = Deno.env.get("BASH") ?? "bash";
    await runBash(lines.map((_, i) => `${bash} ${i}.sh`).join("\n") + "\n", {
      cwd: dir,
      env: { LC_ALL: "C", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    });
    // (Each command's word is its own, `wN`: a background job traced late still counts for its
    // line.)
    const lineOf: number[] = [];
    lines.forEach((l, i) => {
      for (const m of l.matchAll(/ w(\d+)/g)) lineOf[Number(m[1])] = i;
    });
    const ran = new Map<number, string[]>();
    for (const line of (await Deno.readTextFile(`${dir}/trace`)).split("\n")) {
      const m = /^\++ ((?:ok|no) w(\d+))$/.exec(line);
      if (!m) continue;
      const at = lineOf[Number(m[2])];
      ran.set(at, [...ran.get(at) ?? [], m[1]]);
    }
    const env = { cwd: dir, home: dir, env: { HOME: dir }, carriesCommand: () => false };
    const wrong: string[] = [];
    let compared = 0;
    lines.forEach((line, i) => {
      const command = bodies[i] ? `${line}\n${bodies[i]}` : line;
      const analyses: [string, BashAnalysis | null][] = [
        ["walk", walkedAnalysis(command, env, parser)],
        ["shortcut", plainAnalysis(command, env)],
      ];
      for (const [by, a] of analyses) {
        // (A command not fully analysed is at least asked about.)
        if (!a || a.error) continue;
        compared++;
        const ours = new Set(a.stages.map((s) => s.argv.map((w) => w.value).join(" ")));
        const unseen = (ran.get(i) ?? []).filter((c) => !ours.has(c));
        if (unseen.length) {
          wrong.push(`${by}: ${JSON.stringify(line)}: not seen ${unseen.join(", ")}`);
        }
      }
    });
    assert.deepEqual(wrong, []);
    assert.ok(compared > 300, `only ${compared} compared`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
