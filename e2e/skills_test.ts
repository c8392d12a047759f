/**
 * End-to-end: the skills the pi-controls package ships (skills/, declared in package.json's "pi"
 * manifest) reach the real pi. The package is packed the way npm publishes it (`npm pack`, so only
 * package.json's "files" are in it; a copy of those files where npm is missing), unpacked into the
 * temp home and installed with `pi install <dir>`, as a user installs a package. Then:
 *
 * - pi lists both skills (RPC `get_commands`) and tells the model their names, descriptions and
 *   locations (the system prompt the scripted model server receives), on pi 1.6.0 and pi 0.73.1;
 * - `/skill:pi-controls-config` sends the skill's text to the model, and the commands the skill
 *   documents for checking a draft (`node SKILL_DIR/../../dist/pi-controls-cli.js validate …` and
 *   `… test --config …`, taken from SKILL.md itself) run under the extension, are allowed by a
 *   policy that allows them, and print `ok:` and the passing tests.
 *
 * Needs dist/pi-controls.js and dist/pi-controls-cli.js (`deno task test` builds both).
 * `PI_CONTROLS_SKIP_E2E=1` skips the suite.
 */
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { type PiLine, piRuntime } from "../scripts/ensure_pi.ts";
import { call, type ChatRequest, lastToolResults, text } from "./model_server.ts";
import { type Dialog, type PiHome, readLog, runPiCli, runPrint, setupPi, startRpc } from "./pi.ts";

const SKIP = process.env.PI_CONTROLS_SKIP_E2E === "1";
const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const CLI_BUNDLE = join(ROOT, "dist", "pi-controls-cli.js");
const SKILLS = ["pi-controls-config", "pi-controls-suggest"];

if (!SKIP && !(piRuntime("1.x") && piRuntime("0.73"))) {
  throw new Error(
    "the end-to-end tests need pi 1.6.0 with Node 22 and pi 0.73.1: run `deno task ensure-pi` " +
      "(deno task test does), or set PI_CONTROLS_SKIP_E2E=1",
  );
}

/** A skill's frontmatter fields (name, description), read the simple way SKILL.md writes them. */
function frontmatter(file: string): Record<string, string> {
  const m = readFileSync(file, "utf8").match(/^---\n([\s\S]*?)\n---\n/);
  assert.ok(m, `${file} has no frontmatter`);
  const out: Record<string, string> = {};
  for (const line of m[1].split("\n")) {
    const i = line.indexOf(":");
    if (i > 0) out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

/**
 * The package as npm would publish it, unpacked to `<dest>/package`: `npm pack` (scripts skipped:
 * the bundles are already built), else a copy of package.json and its "files".
 */
async function packedCopy(dest: string): Promise<string> {
  assert.ok(existsSync(CLI_BUNDLE), `${CLI_BUNDLE} is missing: run \`deno task bundle:cli\``);
  mkdirSync(dest, { recursive: true });
  const pkgDir = join(dest, "package");
  let packed = false;
  try {
    const out = await new Deno.Command("npm", {
      args: ["pack", "--ignore-scripts", "--json", "--pack-destination", dest],
      cwd: ROOT,
      env: { npm_config_update_notifier: "false", npm_config_fund: "false" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const [{ filename }] = JSON.parse(new TextDecoder().decode(out.stdout));
    const tar = await new Deno.Command("tar", {
      args: ["xzf", join(dest, filename), "-C", dest],
      stderr: "piped",
    }).output();
    assert.equal(tar.code, 0, new TextDecoder().decode(tar.stderr));
    packed = true;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  if (!packed) {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    for (const f of ["package.json", ...manifest.files]) {
      cpSync(join(ROOT, f), join(pkgDir, f), { recursive: true });
    }
  }
  for (const s of SKILLS) {
    assert.ok(existsSync(join(pkgDir, "skills", s, "SKILL.md")), `the package lacks skill ${s}`);
  }
  assert.ok(existsSync(join(pkgDir, "dist", "pi-controls-cli.js")), "the package lacks the CLI");
  return realpathSync(pkgDir);
}

/** Pack the package into the pi home and `pi install` it; returns the installed package dir. */
async function installPackage(h: PiHome): Promise<string> {
  const pkgDir = await packedCopy(join(h.root, "packed"));
  const installed = await runPiCli(h, ["install", pkgDir]);
  assert.equal(installed.code, 0, installed.stdout + installed.stderr);
  const settings = JSON.parse(readFileSync(join(h.agentDir, "settings.json"), "utf8"));
  const packages = (settings.packages ?? []).map((p: string | { source: string }) =>
    resolve(h.agentDir, typeof p === "string" ? p : p.source)
  );
  assert.deepEqual(packages, [pkgDir], JSON.stringify(settings));
  return pkgDir;
}

/** A message's text, whether pi sent it as a string or as parts. */
// deno-lint-ignore no-explicit-any
function messageText(m: any): string {
  if (typeof m.content === "string") return m.content;
  // deno-lint-ignore no-explicit-any
  return (m.content ?? []).map((p: any) => p.text ?? "").join("");
}

/** The system prompt of a request. */
function systemPrompt(req: ChatRequest): string {
  return req.messages.filter((m) => m.role === "system" || m.role === "developer").map(
    messageText,
  ).join("\n");
}

/** Assert the model was told about both skills: name, description and where SKILL.md is. */
function assertSkillsAdvertised(req: ChatRequest, pkgDir: string): void {
  const prompt = systemPrompt(req);
  assert.match(prompt, /<available_skills>/, prompt.slice(-3000));
  for (const s of SKILLS) {
    const file = join(pkgDir, "skills", s, "SKILL.md");
    const fm = frontmatter(file);
    assert.equal(fm.name, s);
    const entry = prompt.match(new RegExp(`<skill>\\s*<name>${s}</name>[\\s\\S]*?</skill>`));
    assert.ok(entry, `the system prompt does not list ${s}:\n${prompt.slice(-3000)}`);
    const unescape = (t: string) =>
      t.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(
        /&apos;/g,
        "'",
      ).replace(/&amp;/g, "&");
    const description = entry[0].match(/<description>([\s\S]*?)<\/description>/)?.[1];
    assert.equal(unescape(description ?? ""), fm.description);
    assert.equal(entry[0].match(/<location>([\s\S]*?)<\/location>/)?.[1], file);
  }
}

/** The commands SKILL.md documents for checking a draft, with SKILL_DIR filled in. */
function documentedCommands(skillFile: string): { validate: string; test: string } {
  const lines = readFileSync(skillFile, "utf8").split("\n").map((l) => l.trim());
  const find = (word: string) => {
    const line = lines.find((l) =>
      l.startsWith("node SKILL_DIR/../../dist/pi-controls-cli.js ") && l.includes(` ${word} `)
    );
    assert.ok(line, `${skillFile} documents no \`${word}\` command`);
    return line.replaceAll("SKILL_DIR", dirname(skillFile));
  };
  return { validate: find("validate"), test: find("test") };
}

Deno.test({
  name:
    "e2e: pi install of the packed package lists its two skills to the model (pi 1.6.0, 0.73.1)",
  ignore: SKIP,
  fn: async () => {
    for (const pi of ["1.x", "0.73"] as PiLine[]) {
      const h = setupPi({ pi, script: [text("Hello.")], install: "none" });
      try {
        const pkgDir = await installPackage(h);
        const r = await runPrint(h, "Say hello.");
        assert.equal(r.code, 0, `pi ${pi}: ${r.stderr}`);
        assert.equal(r.stdout.trim(), "Hello.", `pi ${pi}: ${r.stdout}`);
        assert.equal(h.server.requests.length, 1);
        assertSkillsAdvertised(h.server.requests[0], pkgDir);
        // The extension of the same package loaded too: its start-up line is in the log.
        assert.ok(readLog(h).some((l) => l.event === "startup"), `pi ${pi}: no startup log line`);
      } finally {
        await h.cleanup();
      }
    }
  },
});

Deno.test({
  name: "e2e: /skill:pi-controls-config reaches the model, and the CLI commands it documents run " +
    "under the extension and validate and test a draft",
  ignore: SKIP,
  fn: async () => {
    // The user's policy: read and the read-only commands anywhere, the pi-controls CLI allowed,
    // everything else asked about (so a call the policy did not expect shows up as a dialog).
    const globalConfig = JSON.stringify({
      policies: {
        work: {
          defaultAction: "ask",
          rules: [
            "$safe-bash",
            { action: "allow", tool: "read" },
            { action: "allow", tool: "bash", pattern: "node */dist/pi-controls-cli.js *" },
          ],
        },
      },
      locations: { "/": "work" },
    });
    // The draft the skill has the agent write before the user applies it.
    const draft = `// drafted by the agent
{
  "policies": {
    "project": { "defaultAction": "ask", "rules": ["$safe-bash", { "action": "allow", "tool": "read" }] },
  },
  "locations": { "$cwd": "project" },
  "pathProtection": { ".env": "deny" },
  "tests": [
    { "tool": "bash", "input": { "command": "git status" }, "expect": "allow" },
    { "tool": "bash", "input": { "command": "rm -rf build" }, "expect": "ask" },
    { "tool": "read", "input": { "path": ".env" }, "expect": "deny" },
  ],
}
`;
    const h = setupPi({
      script: [],
      globalConfig,
      install: "none",
      files: { "pi-controls.draft.jsonc": draft },
    });
    try {
      const pkgDir = await installPackage(h);
      const skillFile = join(pkgDir, "skills", "pi-controls-config", "SKILL.md");
      const cmds = documentedCommands(skillFile);
      assert.equal(
        cmds.validate,
        `node ${dirname(skillFile)}/../../dist/pi-controls-cli.js validate pi-controls.draft.jsonc`,
      );
      h.server.push(
        call("read", { path: skillFile }),
        call("bash", { command: cmds.validate }),
        call("bash", { command: cmds.test }),
        text("The draft validates and its tests pass."),
      );
      const dialogs: Dialog[] = [];
      const rpc = startRpc(h, (d) => {
        dialogs.push(d);
        return "Deny";
      });
      try {
        const listed = await rpc.command({ type: "get_commands" });
        // deno-lint-ignore no-explicit-any
        const commands: any[] = listed.data.commands;
        for (const s of SKILLS) {
          const c = commands.find((c) => c.name === `skill:${s}`);
          assert.ok(c, `get_commands lacks skill:${s}: ${JSON.stringify(commands)}`);
          assert.equal(c.source, "skill");
          const file = join(pkgDir, "skills", s, "SKILL.md");
          assert.equal(c.description, frontmatter(file).description);
          assert.equal(c.sourceInfo?.path, file, JSON.stringify(c.sourceInfo));
        }

        await rpc.prompt(
          "/skill:pi-controls-config Draft a policy for this project and check it.",
          60_000,
        );
        const first = h.server.requests[0];
        assertSkillsAdvertised(first, pkgDir);
        const user = first.messages.filter((m) => m.role === "user").map(messageText).join("\n");
        assert.match(user, /<skill name="pi-controls-config"/, user.slice(0, 500));
        assert.ok(user.includes("## You cannot write it yourself without the user"), user);
        assert.ok(user.includes("Draft a policy for this project and check it."), user);

        const results = lastToolResults(h.server);
        assert.ok(
          (results.get("call_1") ?? "").includes("# Writing a pi-controls config"),
          `the read of SKILL.md: ${results.get("call_1")}`,
        );
        assert.equal(
          (results.get("call_2") ?? "").trim(),
          `ok: ${join(h.cwd, "pi-controls.draft.jsonc")}`,
        );
        const tested = results.get("call_3") ?? "";
        assert.match(tested, /^3 passed, 0 failed$/m, tested);
        assert.doesNotMatch(tested, /FAIL/, tested);
      } finally {
        const closed = await rpc.close();
        assert.deepEqual(dialogs, [], `unexpected dialogs; stderr:\n${closed.stderr}`);
      }
      const decisions = readLog(h).filter((l) => l.event === "decision");
      assert.deepEqual(
        decisions.map((d) => [d.tool, d.action]),
        [["read", "allow"], ["bash", "allow"], ["bash", "allow"]],
        JSON.stringify(decisions),
      );
      assert.equal(h.server.remaining(), 0);
      assert.ok(!h.server.exhausted());
    } finally {
      await h.cleanup();
    }
  },
});
