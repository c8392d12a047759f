import assert from "node:assert/strict";
import { loadBashParser } from "./bash_parser.ts";
import { decide } from "./engine.ts";
import { realFs } from "./fs_facts.ts";
import { configFrom, fuzzSeed, runBash, seededRandom } from "./testing.ts";

const parser = await loadBashParser();

Deno.test("wrappers: the command a generated wrapper line runs is the stage the engine sees", async () => {
  // Real wrappers (timeout, nice, env, stdbuf, nohup, setsid, ionice, taskset: those installed)
  // with generated options, sometimes nested, run `./a1`, a script that records its argv. The
  // engine's stages must hold exactly the `./a1` commands that ran. (A wrapper that refuses its
  // options runs nothing, and the engine may still see the command: never fewer stages.)
  const rand = seededRandom(fuzzSeed(11) + 3);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const options: Record<string, string[]> = {
    timeout: ["-s KILL", "-sKILL", "--signal=TERM", "--signal TERM", "-k 1", "-k1", "-v"],
    nice: ["-n 1", "-n1", "--adjustment=1", "--adjustment 1", "-1"],
    env: ["-i", "-u X", "-uX", "--unset=X", "--unset X", "A=1", "B='x y'", "--"],
    stdbuf: ["-i0", "-eL", "-o L", "--output=0", "--input 0"],
    nohup: [],
    setsid: ["-w"],
    ionice: ["-c 3", "-c3", "-n 2", "--class 3", "-t"],
    taskset: [],
  };
  const required: Record<string, string> = { timeout: "5", taskset: "0x1", stdbuf: "-o0" };
  const which = async (tool: string) =>
    (await new Deno.Command("bash", { args: ["-c", `command -v ${tool}`] }).output()).success;
  const tools: string[] = [];
  for (const t of Object.keys(options)) if (await which(t)) tools.push(t);
  // (A bare build sandbox may have env alone: the test then runs env lines only.)
  assert.ok(tools.includes("env"), `wrappers found: ${tools}`);
  const args = () =>
    Array.from({ length: Math.floor(rand() * 3) }, () => pick(["x", "-y", "--z", "'s p'", "a=1"]));
  const commands = Array.from({ length: 300 }, () => {
    const tool = pick(tools);
    const opts = Array.from({ length: Math.floor(rand() * 3) }, () => pick(options[tool]))
      .filter(Boolean);
    const nested = rand() < 0.2 ? pick(["nice", "env", "nohup", "env -- B=2"]) : "";
    return [tool, ...opts, required[tool] ?? "", nested, "./a1", ...args()].filter(Boolean)
      .join(" ");
  });
  const dir = await Deno.makeTempDir({ prefix: "pi-controls-wrappers-" });
  try {
    await Deno.writeTextFile(
      `${dir}/a1`,
      `#!/bin/sh\n{ printf 'A\\037'; for a in "$@"; do printf '%s\\037' "$a"; done; printf '\\036'; } >> "${dir}/log"\n`,
    );
    await Deno.chmod(`${dir}/a1`, 0o755);
    const script = commands
      .map((c, i) => `printf 'M${i}\\036' >> "${dir}/log"; ${c} </dev/null`).join("\n");
    await runBash(script + "\n", {
      cwd: dir,
      env: { LC_ALL: "C", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    });
    const ran = new Map<number, string[]>();
    let at = -1;
    for (const record of (await Deno.readTextFile(`${dir}/log`)).split("\x1e")) {
      const mark = /^M(\d+)$/.exec(record);
      if (mark) ran.set(at = Number(mark[1]), []);
      else if (at >= 0 && record.startsWith("A\x1f")) {
        ran.get(at)!.push(["./a1", ...record.split("\x1f").slice(1, -1)].join(" "));
      }
    }
    const config = configFrom({
      policies: { p: { defaultAction: "allow", rules: [] } },
      locations: { "/": "p" },
    });
    const ctx = { cwd: dir, home: "/home/u", env: { HOME: "/home/u" }, fs: realFs() };
    const wrong: string[] = [];
    commands.forEach((command, i) => {
      const v = decide(config, { tool: "bash", input: { command } }, ctx, { parser });
      const seen = v.stages.map((s) => s.command ?? "").filter((c) => c.startsWith("./a1")).sort();
      const real = (ran.get(i) ?? []).sort();
      // Every command that ran is seen; one more is allowed only when nothing ran, and a line
      // the engine cannot read is never allowed.
      const ok = JSON.stringify(seen) === JSON.stringify(real) ||
        (real.length === 0 && seen.length === 1) || v.action !== "allow";
      if (!ok) wrong.push(`${command}: seen ${JSON.stringify(seen)}, ran ${JSON.stringify(real)}`);
    });
    assert.deepEqual(wrong, []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
