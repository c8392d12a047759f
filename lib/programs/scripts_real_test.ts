/**
 * awk and sed as the oracle: generated programs that make the real awk and sed run `./a1` (a
 * script that records that it ran) through `system()`, pipes, `getline`, sed's `e` command and
 * `s///e`, spelt several ways. Whenever `./a1` ran, the engine must have seen a stage running it
 * (or not allowed the line).
 */
import assert from "node:assert/strict";
import { decide } from "../policy/engine.ts";
import { realFs } from "../policy/fs_facts.ts";
import { loadBashParser } from "../shell/parser.ts";
import { configFrom, fuzzSeed, linesThatRan, runBash, seededRandom } from "../testing.ts";

const parser = await loadBashParser();

/** Which of awk, gawk, sed are installed. */
async function installed(names: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const n of names) {
    const o = await new Deno.Command("bash", { args: ["-c", `command -v ${n}`] }).output();
    if (o.success) out.push(n);
  }
  return out;
}

const programs = await installed(["awk", "gawk", "sed"]);

Deno.test({
  name: "awk and sed: a command a generated program makes the real program run is a stage",
  ignore: programs.length === 0,
  async fn() {
    const rand = seededRandom(fuzzSeed(19) + 7);
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
    const awk = () => pick(programs.filter((p) => p !== "sed").concat(["awk"]));
    const run = () => pick(["./a1 k", "./a1", "sh ./a1"]);
    const templates: (() => string)[] = [
      () => `${awk()} 'BEGIN{system("${run()}")}'`,
      () => `${awk()} 'BEGIN { system ( "${run()}" ) }'`,
      () => `${awk()} 'BEGIN{print "x" | "${run()}"}'`,
      () => `${awk()} 'BEGIN{"${run()}" | getline x; print x}'`,
      () => `${awk()} 'BEGIN{c = "${run()}"; system(c)}'`,
      () => `${awk()} -v c='${run()}' 'BEGIN{system(c)}'`,
      () => `echo '${run()}' | ${awk()} '{system($0)}'`,
      () => `${awk()} '{ print | "${run()}" }' f`,
      () => `printf 'BEGIN{system("./a1")}' > p.awk; ${awk()} -f p.awk`,
      () => `sed 'e ${run()}' f`,
      () => `sed '1e ${run()}' f`,
      () => `sed -n 's/.*/.\\/a1/ep' f`,
      () => `sed 's/x/.\\/a1 k/e' f`,
      () => `sed -e '1{' -e 'e ./a1' -e '}' f`,
      () => `sed --expression='e ./a1' f`,
      () => `printf './a1\\n' | sed e`,
      () => `sed -n '1e ./a1' f`,
    ];
    const usable = programs.includes("sed")
      ? templates
      : templates.filter((t) => !t().startsWith("sed"));
    const lines = Array.from({ length: 100 }, () => pick(usable)());
    const dir = await Deno.makeTempDir({ prefix: "pi-controls-scripts-" });
    try {
      await Deno.mkdir(`${dir}/t`);
      await Deno.writeTextFile(`${dir}/t/a1`, `#!/bin/sh\nprintf 'A\\036' >> "${dir}/log"\n`);
      await Deno.chmod(`${dir}/t/a1`, 0o755);
      await Deno.writeTextFile(`${dir}/t/f`, "x\n");
      const script = lines.map((line, i) =>
        `cd ${dir} && rm -rf w && cp -r t w && cd w && printf 'M${i}\\036' >> ${dir}/log && ` +
        `(${line}) </dev/null >/dev/null 2>&1\n`
      ).join("");
      await runBash(script, {
        cwd: dir,
        env: { LC_ALL: "C", HOME: dir, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
      });
      const ran = linesThatRan(await Deno.readTextFile(`${dir}/log`));
      const config = configFrom({
        policies: { p: { defaultAction: "allow", rules: [] } },
        locations: { "/": "p" },
      });
      const ctx = { cwd: `${dir}/w`, home: dir, env: { HOME: dir }, fs: realFs() };
      const wrong: string[] = [];
      for (const i of ran) {
        const v = decide(config, { tool: "bash", input: { command: lines[i] } }, ctx, { parser });
        const seen = v.stages.some((s) => /^(sh )?\.\/a1( |$)/.test(s.command ?? ""));
        if (!seen && v.action === "allow") wrong.push(lines[i]);
      }
      assert.deepEqual(wrong, []);
      assert.ok(ran.size > lines.length / 2, `./a1 ran for ${ran.size} of ${lines.length} lines`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
