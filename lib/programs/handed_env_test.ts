import assert from "node:assert/strict";
import { loadBashParser } from "../shell/parser.ts";
import { decide } from "../policy/engine.ts";
import { configFrom, ctxIn } from "../testing.ts";
import { literal } from "./words.ts";
import { handedBy, passedOn, stageVariable } from "./handed_env.ts";
import type { Stage } from "../shell/model.ts";

const parser = await loadBashParser();
const config = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { "secrets/**": "deny" },
});
const ctx = ctxIn("/p", { files: ["/p/README.md", "/p/a", "/p/secrets/key"] });

/**
 * What the inner `cat`'s arguments are as the engine knows them: the paths (relative to /p), or
 * null where one is not known.
 */
function engineArgs(command: string): string[] | null {
  const v = decide(config, { tool: "bash", input: { command } }, ctx, { parser, explain: true });
  const inner = (v.stages ?? []).filter((s) => s.origin !== "top" && /^cat\b/.test(s.text ?? ""));
  assert.ok(inner.length, `no inner cat stage: ${command}`);
  const out: string[] = [];
  for (const s of inner) {
    for (const t of s.targets) {
      if (t.kind === "dynamic" || t.kind === "glob") return null;
      if (t.kind === "argument" && t.path) out.push(t.path.replace(/^\/p\//, ""));
    }
  }
  return out;
}

/** What bash passes the inner `cat` (a fake one on PATH logs its arguments), in a clean env. */
async function bashArgs(command: string): Promise<string[]> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/bin`);
    await Deno.writeTextFile(
      `${dir}/bin/cat`,
      `#!/bin/sh\nfor a; do printf '%s\\n' "$a" >> "${dir}/log"; done\n: >> "${dir}/log"\n`,
    );
    await Deno.chmod(`${dir}/bin/cat`, 0o755);
    const out = await new Deno.Command("env", {
      args: ["-i", `PATH=${dir}/bin:/usr/bin:/bin`, `HOME=${dir}`, "bash", "-c", command],
      cwd: dir,
      stdout: "null",
      stderr: "null",
      stdin: "null",
    }).output();
    assert.ok(out.code !== 127, command);
    const log = await Deno.readTextFile(`${dir}/log`).catch(() => "");
    return log.split("\n").filter(Boolean);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** [command, whether the engine knows the inner arguments]: each checked against bash. */
const TABLE: [string, boolean][] = [
  // Exported: known inside.
  [`export F=secrets/key; bash -c 'cat $F'`, true],
  [`F=secrets/key; export F; bash -c 'cat "$F"'`, true],
  [`export F; F=README.md; bash -c 'cat $F'`, true],
  [`export F=a; F=README.md; sh -c 'cat $F'`, true],
  [`declare -x F=README.md; F=a; bash -c 'cat $F'`, false],
  // Prefix assignments and env's.
  [`F=README.md bash -c 'cat $F'`, true],
  [`export F=a; F=README.md bash -c 'cat $F'`, true],
  [`env F=secrets/key sh -c 'cat $F'`, true],
  [`export F=a; env F=README.md bash -c 'cat "$F"'`, true],
  [`F=README.md nice bash -c 'cat $F'`, true],
  // env's and sudo's `F+=x` set a variable named `F+` (bash's own prefix appends).
  [`export F=secrets/key; env F+=x bash -c 'cat $F'`, true],
  [`export F=secrets/key; env -- F+=x sh -c 'cat $F'`, true],
  [`env 'F x=1' F=README.md bash -c 'cat $F'`, true],
  [`export F=README; F+=.md bash -c 'cat $F'`, true],
  [`export F=README.md; timeout 5 bash -c 'cat $F'`, true],
  [`export F=README.md; bash -c 'bash -c "cat \\$F"'`, true],
  // Not exported, taken away, cleared: not known (bash: nothing, or the caller's).
  [`F=README.md; bash -c 'cat $F'`, false],
  [`export F=README.md; export -n F; bash -c 'cat $F'`, false],
  [`export F=README.md; unset F; F=a; bash -c 'cat $F'`, false],
  [`export F=README.md; declare +x F; bash -c 'cat $F'`, false],
  [`export F=README.md; env -u F bash -c 'cat $F'`, false],
  [`export F=README.md; env --unset=F bash -c 'cat $F'`, false],
  [`export F=README.md; env -i bash -c 'cat $F'`, false],
  [`(export F=README.md); bash -c 'cat $F'`, false],
  [`true && export F=README.md; bash -c 'cat $F'`, false],
  [`export F=README.md; F=$(head -1 a) bash -c 'cat $F'`, false],
  // Positional parameters.
  [`sh -c 'cat "$1"' _ secrets/key`, true],
  [`bash -c 'cat "$1" "$2"' x README.md a`, true],
  [`bash -c -- 'cat "$@"' x README.md a`, true],
  [`bash -ec 'cat "$1"' x README.md`, true],
  [`bash -c 'shift; cat "$1"' x README.md a`, true],
  [`bash -c 'cat "$1"' -- README.md a`, true],
  [`bash -c 'cat "$1"' x *.md`, false],
  [`bash -c 'cat "$1"' *.md x`, false],
  [`echo a README.md | xargs -n 2 sh -c 'cat "$1"'`, true], // (xargs's words, from echo)
  [`head -1 list | xargs -n 2 sh -c 'cat "$1"'`, false],
  // A startup file may set anything first; an interactive shell reads its rc file.
  [`export F=README.md; BASH_ENV=/dev/null bash -c 'cat $F'`, false],
  [`export F=README.md; bash -ic 'cat $F'`, false],
];

Deno.test("handed_env: what the inner shell's words are, as bash gives them", async () => {
  const wrong: string[] = [];
  for (const [command, known] of TABLE) {
    const engine = engineArgs(command);
    if ((engine !== null) !== known) wrong.push(`${command}: engine ${JSON.stringify(engine)}`);
    if (engine === null) continue;
    const real = await bashArgs(command);
    if (JSON.stringify(real) !== JSON.stringify(engine)) {
      wrong.push(`${command}: engine ${JSON.stringify(engine)}, bash ${JSON.stringify(real)}`);
    }
  }
  assert.deepEqual(wrong, []);
});

const stage = (words: string[], more: Partial<Stage> = {}): Stage => ({
  argv: words.map(literal),
  redirects: [],
  text: words.join(" "),
  origin: "top",
  cwds: ["/p"],
  ...more,
});

Deno.test("handed_env: what wrappers hand on", () => {
  const handed = new Map([["F", "x"], ["G", "y"]]);
  const of = (words: string[]) => passedOn(stage(words, { handed }));
  assert.deepEqual(of(["nice", "bash"]), handed);
  assert.equal(of(["sudo", "bash"]), undefined);
  assert.equal(of(["sudo", "-u", "bob", "bash"]), undefined);
  assert.deepEqual(of(["sudo", "-E", "bash"]), handed);
  assert.deepEqual(of(["sudo", "--preserve-env", "bash"]), handed);
  assert.deepEqual(of(["sudo", "--preserve-env=G", "bash"]), new Map([["G", "y"]]));
  assert.equal(of(["doas", "bash"]), undefined);
  assert.equal(of(["ssh", "h", "bash"]), undefined);
  assert.equal(of(["env", "-i", "bash"]), undefined);
  assert.equal(of(["env", "-", "bash"]), undefined);
  assert.deepEqual(of(["env", "-u", "F", "bash"]), new Map([["G", "y"]]));
  assert.deepEqual(of(["env", "-uF", "bash"]), new Map([["G", "y"]]));
  assert.equal(of(["env", "-C", "/", "bash"]), undefined);
  assert.equal(of(["exec", "-c", "bash"]), undefined);
  assert.deepEqual(of(["exec", "bash"]), handed);
  // Its own prefixes change what it hands.
  const own = stage(["nice", "bash"], {
    handed,
    assignments: [literal("F=z"), { ...literal("G=$X"), kind: "dynamic", prefix: "G=" }],
  });
  assert.deepEqual(handedBy(own), new Map([["F", "z"]]));
});

Deno.test("handed env: a variable as a stage's program finds it", () => {
  const dyn = { value: "V=$X", kind: "dynamic", prefix: "V=", text: "V=$X" } as const;
  const stage = (assignments: Stage["assignments"], handed?: Map<string, string>) =>
    ({
      argv: [literal("p")],
      redirects: [],
      text: "",
      origin: "top",
      cwds: ["/p"],
      assignments,
      handed,
    }) as Stage;
  const env = { V: "env" };
  assert.equal(stageVariable(stage([literal("V=own")]), "V", env), "own");
  assert.equal(stageVariable(stage([], new Map([["V", "exported"]])), "V", env), "exported");
  assert.equal(stageVariable(stage([dyn], new Map([["V", "exported"]])), "V", env), null);
  assert.equal(stageVariable(stage([literal("V+=b")], new Map([["V", "a"]])), "V", env), "ab");
  assert.equal(stageVariable(stage([literal("W=1")]), "V", env), "env");
  assert.equal(stageVariable(stage([]), "V", {}), undefined);
});
