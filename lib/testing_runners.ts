/**
 * The real-program check of the runner modules' tests: real programs that run a command given in
 * their arguments (make, fakeroot, vim, gdb, sqlite3, tmux: those installed) run `./a1`, a script
 * that records that it ran, through generated spellings; whenever `./a1` ran, the engine must
 * have seen a stage running it, or not allow the line.
 */
import assert from "node:assert/strict";
import { decide } from "./policy/engine.ts";
import { realFs } from "./policy/fs_facts.ts";
import { loadBashParser } from "./shell/parser.ts";
import { configFrom, fuzzSeed, linesThatRan, runBash, seededRandom } from "./testing.ts";

const parser = await loadBashParser();

/** The templates of each program: a line that may make it run `./a1`. */
export type Templates = Record<string, ((pick: <T>(xs: T[]) => T) => string)[]>;

/** Quoted shell text, spelt one of several ways. */
export const quoted = (pick: <T>(xs: T[]) => T, text: string) =>
  pick([`'${text}'`, `"${text}"`, text.replace(/[ ;|&]/g, "\\$&"), `$'${text}'`]);

/** The templates of make, fakeroot and prlimit. */
export const RUNNER_TEMPLATES: Templates = {
  make: [
    (p) => `make -f M CC=${quoted(p, p(["./a1", "./a1 k", "true; ./a1"]))}`,
    (p) => `make -f M CFLAGS=${quoted(p, p(["x; ./a1", "x && ./a1", "x | ./a1", "`./a1`"]))}`,
    (p) => `make -f M ${p(["SHELL=./a1", "SHELL='./a1'"])}`,
    (p) => `make -f M ${quoted(p, p(["X=$(shell ./a1)", "X=${shell ./a1}", "X!=./a1"]))}`,
    (p) => `make -f M ${p(["--eval=", "--ev=", "-E", "-E "])}${quoted(p, "y:;@./a1")} y`,
    (p) => `gmake -f M CC=./a1 ${p(["", "-j2", "-s"])}`,
  ],
  fakeroot: [
    (p) => `fakeroot ${p(["", "-- ", "-u ", "-l libfakeroot-sysv.so "])}./a1 ${p(["", "x", "-y"])}`,
  ],
  prlimit: [
    (p) => `prlimit ${p(["--nofile=1024 ", "-n1024 ", "--cpu=100:200 ", "-c0 ", ""])}./a1 x`,
  ],
};

/** A program's templates, for those installed (a bare build sandbox may have none). */
async function installed(templates: Templates): Promise<string[]> {
  const out: string[] = [];
  for (const tool of Object.keys(templates)) {
    const o = await new Deno.Command("bash", { args: ["-c", `command -v ${tool}`] }).output();
    if (o.success) out.push(tool);
  }
  return out;
}

/**
 * Run generated lines of the installed programs in a fresh directory each, then check that every
 * line that ran `./a1` is not allowed unless the engine saw a stage running `./a1`.
 */
export async function checkRealRunners(
  templates: Templates,
  seed: number,
  setup: string[],
  count = 120,
): Promise<void> {
  const tools = await installed(templates);
  if (tools.length === 0) return;
  const rand = seededRandom(fuzzSeed(19) + seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const lines = Array.from({ length: count }, () => pick(templates[pick(tools)])(pick));
  const dir = await Deno.makeTempDir({ prefix: "pi-controls-runners-" });
  const debug = Deno.env.get("PI_CONTROLS_RUNNERS_DEBUG");
  try {
    await Deno.mkdir(`${dir}/t`);
    await Deno.writeTextFile(`${dir}/t/a1`, `#!/bin/sh\nprintf 'A\\036' >> "${dir}/log"\n`);
    await Deno.chmod(`${dir}/t/a1`, 0o755);
    const script = [`cd ${dir}/t`, ...setup].map((s) => s + " >/dev/null 2>&1\n").join("") +
      lines.map((line, i) =>
        `cd ${dir} && rm -rf w && cp -r t w && cd w && printf 'M${i}\\036' >> ${dir}/log && ` +
        `(${line}\n) </dev/null >/dev/null 2>&1\n`
      ).join("");
    await runBash(script, {
      cwd: dir,
      env: { LC_ALL: "C", HOME: dir, TERM: "dumb", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    });
    if (debug) await Deno.writeTextFile(debug, script);
    const ran = linesThatRan(await Deno.readTextFile(`${dir}/log`).catch(() => ""));
    const config = configFrom({
      policies: { p: { defaultAction: "allow", rules: [] } },
      locations: { "/": "p" },
    });
    const ctx = { cwd: `${dir}/w`, home: dir, env: { HOME: dir }, fs: realFs() };
    const wrong: string[] = [];
    for (const i of ran) {
      const v = decide(config, { tool: "bash", input: { command: lines[i] } }, ctx, { parser });
      const seen = v.stages.some((s) => /(^|\/)a1( |$)/.test(s.command ?? ""));
      if (!seen && v.action === "allow") wrong.push(lines[i]);
    }
    assert.deepEqual(wrong, []);
    assert.ok(
      ran.size > lines.length / 3,
      `./a1 ran for ${ran.size} of ${lines.length} lines (programs: ${tools.join(", ")})`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
