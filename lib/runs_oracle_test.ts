/**
 * Every command that runs is judged where it runs: generated lines of lists and pipelines whose
 * statements run `ok` or `no` (which record that they ran, and where) through the shell's own
 * runners (`eval`, `trap`, substitutions, groups), other shells (`bash -c`, `sh -c`), wrappers
 * (`env`, `nice`, `nohup`, `timeout`, `command`, `time`) and the programs that run commands
 * (`xargs`, `find -exec`), with redirects tree-sitter reads apart, and through runners that move it
 * (`env -C`, `cd`, `find -execdir`), are run by bash; each command that ran must be a stage of the
 * engine's verdict with the directory it ran in among its cwds, or the verdict must not allow the
 * line.
 */
import assert from "node:assert/strict";
import { decide } from "./policy/engine.ts";
import { realFs } from "./policy/fs_facts.ts";
import { loadBashParser } from "./shell/parser.ts";
import { configFrom, fuzzSeed, runBash, seededRandom } from "./testing.ts";

const parser = await loadBashParser();

/** Forms that run the command `CMD`. */
// deno-fmt-ignore
const FORMS = ["CMD", "CMD", "CMD 2>&1", "CMD >/dev/null", "eval 'CMD'", "eval \"CMD\"", "bash -c 'CMD'", "sh -c 'CMD'",
  "bash -c 'eval \"CMD\"'", "env CMD", "env -i PATH=\"$PATH\" CMD", "nice CMD", "nohup CMD >/dev/null 2>&1",
  "timeout 5 CMD", "command CMD", "time CMD", "xargs CMD <<< a", "echo a | xargs -I{} CMD {}",
  "find . -maxdepth 0 -exec CMD {} \\;", "trap 'CMD' EXIT", "( CMD )", "{ CMD; }", "echo \"$(CMD)\" >/dev/null",
  "x=$(CMD)", "bash -c 'CMD' 2>&1 | cat", "sh -c 'CMD; CMD'", "if CMD; then CMD; fi", "CMD | CMD",
  "setsid -w CMD", "stdbuf -o0 CMD", "flock .lock CMD", "script -qc 'CMD' /dev/null",
  "unshare -r CMD", "awk 'BEGIN{system(\"CMD\")}'", "echo x | sed 'e CMD'", "find . -maxdepth 0 -execdir CMD {} +",
  "printf 'a\\0' | xargs -0 CMD", "env -S 'CMD'", "nice -n1 nohup CMD >/dev/null 2>&1", "timeout -s KILL 5 CMD",
  "bash -s <<< 'CMD'", "sh <<< 'CMD'", "echo 'CMD' | sh", "echo 'CMD' | bash", "source /dev/stdin <<< 'CMD'",
  "bash 2>/dev/null <<< 'CMD'", "printf 'CMD\\n' | sh", "cat <<< 'CMD' | bash",
  "bash -c 'sh -c \"CMD\"'", "ionice -c3 CMD", "xargs -n1 CMD <<< 'a b'",
  // Runners that move where the command runs.
  "env -C d1 CMD", "(cd d1 && CMD)", "bash -c 'cd d1 && CMD'", "cd d1 && CMD", "sh -c 'cd \"$1\" && CMD' _ d1",
  "find d1 -maxdepth 0 -execdir CMD {} \\;", "cd d1; env -C .. CMD", "pushd d1 >/dev/null && CMD",
  // Commands that run later or elsewhere than they are written.
  "( trap 'CMD' EXIT; cd d1 )", "f() { CMD; }; cd d1; f", "g() { cd d1; }; g; CMD", "cat <(CMD) >/dev/null",
  "CMD > >(cat >/dev/null)", "while CMD; do cd d1; break; done", "CMD & wait", "trap 'CMD' ERR; false",
  "until CMD; do cd d1; break; done; CMD"];
const OPS = [" && ", " || ", "; ", " | ", " |& "];

Deno.test("runs: every command a generated line runs through runners is a stage of the verdict", async () => {
  const random = seededRandom(fuzzSeed(20261207));
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  let n = 0;
  const statement = () => pick(FORMS).replaceAll("CMD", () => `${pick(["ok", "no"])} w${n++}`);
  const lines = Array.from({ length: 300 }, () => {
    let line = statement();
    for (let k = Math.floor(random() * 3); k > 0; k--) line += pick(OPS) + statement();
    return line;
  });
  const dir = Deno.realPathSync(await Deno.makeTempDir({ prefix: "pi-controls-runs-" }));
  try {
    await Deno.mkdir(`${dir}/d1`);
    await Deno.mkdir(`${dir}/bin`);
    for (const [name, status] of [["ok", 0], ["no", 1]] as const) {
      await Deno.writeTextFile(
        `${dir}/bin/${name}`,
        `#!/bin/sh\nprintf '%s\\t%s\\n' "$1" "$(pwd -P)" >> "${dir}/log"\nexit ${status}\n`,
      );
      await Deno.chmod(`${dir}/bin/${name}`, 0o755);
    }
    const script = lines.map((l) => `( ${l} ) </dev/null >/dev/null 2>&1\n`).join("");
    await runBash(script, {
      cwd: dir,
      env: {
        LC_ALL: "C",
        HOME: dir,
        PATH: `${dir}/bin:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
      },
    });
    // Each command that ran, and where.
    const ran = new Map(
      (await Deno.readTextFile(`${dir}/log`)).split("\n").filter(Boolean)
        .map((l) => l.split("\t") as [string, string]),
    );
    const config = configFrom({
      policies: { p: { defaultAction: "allow", rules: [] } },
      locations: { "/": "p" },
    });
    const ctx = { cwd: dir, home: dir, env: { HOME: dir }, fs: realFs() };
    const wrong: string[] = [];
    let compared = 0;
    for (const line of lines) {
      const v = decide(config, { tool: "bash", input: { command: line } }, ctx, { parser });
      // (A line the engine does not allow is not let through unseen.)
      if (v.action !== "allow") continue;
      compared++;
      // (Seen as the command itself, not as words of the runner's stage; with the cwds it may run
      // in, "(unknown)" among them.)
      const seen = new Map<string, string[]>();
      for (const s of v.stages) {
        const w = (s.command ?? "").split(/\s+/);
        if (w[0] !== "ok" && w[0] !== "no") continue;
        seen.set(w[1], [...seen.get(w[1]) ?? [], ...s.cwd.split(" | ")]);
      }
      for (const [, w] of line.matchAll(/ (w\d+)/g)) {
        const where = ran.get(w);
        if (where === undefined) continue;
        const cwds = seen.get(w);
        if (!cwds) wrong.push(`${JSON.stringify(line)}: not seen ${w}`);
        else if (!cwds.includes(where) && !cwds.includes("(unknown)")) {
          wrong.push(
            `${JSON.stringify(line)}: ${w} ran in ${where}, judged in ${cwds.join(" | ")}`,
          );
        }
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(compared > 100, `only ${compared} lines allowed and compared`);
    assert.ok(ran.size > 300, `only ${ran.size} commands ran`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
