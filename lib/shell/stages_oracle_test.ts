/**
 * Every command bash runs is a stage: generated lists of commands that succeed and fail, joined by
 * `&&`, `||`, `|`, `|&`, `;` and `&`, with redirects tree-sitter reads apart, heredocs and the
 * commands it hangs in them, groups, subshells and conditionals, are run by bash under xtrace;
 * each command it ran must be a stage of the analysis (the walk's and the shortcut's), word for
 * word. (Stages that did not run are fine: the analysis cannot know which branch runs.)
 */
import assert from "node:assert/strict";
import { analysesOf, runScripts, type Tally, withBodies } from "./oracle_testing.ts";
import { fuzzSeed, seededRandom } from "./testing.ts";

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
    if (r < 0.36) {
      // Keywords and expansions that run a command of this shell (what builtins such as `eval`
      // and `trap` run is the programs' layer's: lib/programs/shells.ts).
      const c = () => `${pick(["ok", "no"])} w${n++}`;
      return pick([
        () => `time ${c()}`,
        () => `echo "$(${c()})" >/dev/null`,
        () => `x=$(${c()})`,
        () => `coproc ${c()}`,
        () => `while ${c()}; do break; done`,
        () => `for q in a; do ${c()}; done`,
        () => `case a in a) ${c()};; esac`,
        () => `f() { ${c()}; }; f`,
      ])();
    }
    return simple();
  };
  const list = (depth: number): string => {
    let s = statement(depth);
    for (let k = Math.floor(random() * 4); k > 0; k--) s += pick(OPS) + statement(depth);
    return s.replace(/ & $/, "");
  };
  const lines = Array.from(
    { length: 500 },
    () => withBodies(list(0).replace(/ & (?=[)}]|$)/g, " ")),
  );
  const dir = await Deno.makeTempDir({ prefix: "pi-controls-stages-oracle-" });
  try {
    // Traced into one file.
    await runScripts(
      dir,
      lines.map(({ line, bodies }) =>
        `ok() { return 0; }\nno() { return 1; }\nexec 5>>trace\nBASH_XTRACEFD=5\nPS4='+ '\n` +
        `set -x\n${line}\n${bodies}wait\n`
      ),
    );
    // (Each command's word is its own, `wN`: a background job traced late still counts for its
    // line.)
    const lineOf: number[] = [];
    lines.forEach(({ line }, i) => {
      for (const m of line.matchAll(/ w(\d+)/g)) lineOf[Number(m[1])] = i;
    });
    const ran = new Map<number, string[]>();
    for (const line of (await Deno.readTextFile(`${dir}/trace`)).split("\n")) {
      const m = /^\++ ((?:ok|no) w(\d+))$/.exec(line);
      if (!m) continue;
      const at = lineOf[Number(m[2])];
      ran.set(at, [...ran.get(at) ?? [], m[1]]);
    }
    const env = { cwd: dir, home: dir, env: { HOME: dir } };
    const wrong: string[] = [];
    const tally: Tally = { compared: 0, unread: 0 };
    lines.forEach(({ line, bodies }, i) => {
      for (const [by, a] of analysesOf(bodies ? `${line}\n${bodies}` : line, env, tally)) {
        const ours = new Set(a.stages.map((s) => s.argv.map((w) => w.value).join(" ")));
        const unseen = (ran.get(i) ?? []).filter((c) => !ours.has(c));
        if (unseen.length) {
          wrong.push(`${by}: ${JSON.stringify(line)}: not seen ${unseen.join(", ")}`);
        }
      }
    });
    assert.deepEqual(wrong, []);
    assert.ok(tally.compared > 300, `only ${tally.compared} compared`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
