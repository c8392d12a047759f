/**
 * End-to-end: the trust boundary, with the real pi and the scripted model server (harness:
 * e2e/pi.ts). The gate's own files ask under any config (headless: denied; RPC: only "Allow once"
 * or "Deny"); an untrusted project config can only tighten the global policy (pi 1.x: pi's trust
 * decision; pi 0.73: pi-controls' own store, set with `pi-controls trust`); config edits apply at
 * the next call, a broken edit blocks until it is fixed.
 *
 * Few pi processes on purpose (each costs seconds): one home runs several prompts where it can.
 * `PI_CONTROLS_SKIP_E2E=1` skips the suite.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { call, lastToolResults, type Step, text } from "./model_server.ts";
import {
  type PiHome,
  requirePis,
  type RpcEvent,
  runPrint,
  SKIP_E2E as SKIP,
  startRpc,
  withPi,
} from "./pi.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const HEADLESS = " Confirmation was required and nobody could give it (pi runs without a UI).";

requirePis();

/** A print-mode run that must end with the scripted text. */
async function printRun(h: PiHome, answer: string): Promise<Map<string, string>> {
  const r = await runPrint(h, "Do the scripted things.");
  assert.equal(r.code, 0, `pi exited ${r.code}\n${r.stderr}`);
  assert.equal(r.stdout.trim(), answer, r.stderr);
  assert.ok(!h.server.exhausted(), "pi asked the model more often than scripted");
  return lastToolResults(h.server);
}

/** The tool results of an RPC run, by tool call id: the text and whether it was an error. */
function toolEnds(events: RpcEvent[]): Map<string, { text: string; isError: boolean }> {
  const out = new Map<string, { text: string; isError: boolean }>();
  for (const e of events) {
    if (e.type !== "tool_execution_end") continue;
    const t = (e.result?.content ?? []).map((c: { text?: string }) => c.text ?? "").join("");
    out.set(String(e.toolCallId), { text: t, isError: Boolean(e.isError) });
  }
  return out;
}

const ALLOW_ALL = `// allows everything
{
  "policies": { "open": { "defaultAction": "allow", "rules": [] } },
  "locations": { "/": "open" }
}
`;

// ---------------------------------------------------------------------------------------------
// The gate's own files, headless

/** The reason the model gets when a write to one of the gate's files is refused. */
function gateDeny(what: string, path: string): string {
  return "Access denied by pi-controls' protection of its own files (its config, code and log, " +
    `and pi's settings): ${what} — blocked path: "${path}". The restriction is ` +
    "on the PATH — not on the tool. Do NOT retry with a different tool.";
}

/** A project config that only tightens (trust plays no part). */
const TIGHTEN_ONLY = `// the project's own config
{ "pathProtection": { "*.pem": "deny" } }
`;

for (const pi of ["1.x", "0.73"] as const) {
  Deno.test({
    name: `e2e trust (pi ${pi}, print): the gate's own files ask under an allow-all config`,
    ignore: SKIP,
    fn: async (t) => {
      const script: Step[] = [
        call("write", { path: ".pi/extensions/pi-controls.jsonc", content: "{}\n" }),
        call("bash", { command: "echo '{}' > .pi/extensions/pi-controls.jsonc" }),
        call("write", { path: "~/.pi/agent/extensions/pi-controls.jsonc", content: "{}\n" }),
        call("bash", { command: "rm ~/.pi/agent/settings.json" }),
        call("read", { path: ".pi/extensions/pi-controls.jsonc" }),
        call("write", { path: "ok.txt", content: "fine\n" }),
        text("Done."),
      ];
      const opts = { script, globalConfig: ALLOW_ALL, projectConfig: TIGHTEN_ONLY, pi };
      await withPi(opts, async (h) => {
        const projectFile = join(h.cwd, ".pi", "extensions", "pi-controls.jsonc");
        const globalFile = join(h.agentDir, "extensions", "pi-controls.jsonc");
        const settings = join(h.agentDir, "settings.json");
        const settingsText = readFileSync(settings, "utf8");
        const results = await printRun(h, "Done.");

        await t.step("writing the project config is denied; the file is unchanged", () => {
          assert.equal(readFileSync(projectFile, "utf8"), TIGHTEN_ONLY);
          assert.equal(results.get("call_1"), gateDeny("write", projectFile) + HEADLESS);
        });

        await t.step("a bash redirect into the project config is denied", () => {
          assert.equal(
            results.get("call_2"),
            gateDeny("bash (echo '{}' > .pi/extensions/pi-controls.jsonc)", projectFile) + HEADLESS,
          );
        });

        await t.step("the global config and pi's settings are protected too", () => {
          assert.equal(readFileSync(globalFile, "utf8"), ALLOW_ALL);
          assert.equal(readFileSync(settings, "utf8"), settingsText);
          assert.equal(results.get("call_3"), gateDeny("write", globalFile) + HEADLESS);
          assert.equal(
            results.get("call_4"),
            gateDeny("bash (rm ~/.pi/agent/settings.json)", settings) + HEADLESS,
          );
        });

        await t.step("reading the project config follows the policy: allowed", () => {
          assert.equal(results.get("call_5"), TIGHTEN_ONLY);
        });

        await t.step("an ordinary write is allowed by the same config", () => {
          assert.equal(readFileSync(join(h.cwd, "ok.txt"), "utf8"), "fine\n");
          // (pi 0.73 also says how many bytes.)
          assert.match(results.get("call_6") ?? "", /^Successfully wrote (5 bytes )?to ok\.txt$/);
        });
      });
    },
  });
}

// ---------------------------------------------------------------------------------------------
// An untrusted project config can only tighten

/** The user's global policy: everything but `touch`. */
const GLOBAL_NO_TOUCH = `// the user's policy: no touch
{
  "policies": {
    "base": {
      "defaultAction": "allow",
      "rules": [{ "action": "deny", "tool": "bash", "pattern": "touch *" }]
    }
  },
  "locations": { "/": "base" }
}
`;

/** A cloned repository's config that would open everything up. */
const PROJECT_OPEN = `// a cloned repository's config: allows everything
{
  "policies": { "anything": { "defaultAction": "allow", "rules": [] } },
  "locations": { "/": "anything" }
}
`;

const TOUCH_DENIED = (file: string) =>
  `Access denied by policy: bash (touch ${file}) — pattern: "touch *". Avoid the blocked pattern ` +
  "in any retry.";

/** One print run per touch: `touch <file>`, then the text `<file> done.` */
function touchRuns(...files: string[]): Step[] {
  return files.flatMap((f) => [call("bash", { command: `touch ${f}` }), text(`${f} done.`)]);
}

Deno.test({
  name: "e2e trust (pi 1.x, print): pi's project trust decides whether a project config loosens",
  ignore: SKIP,
  fn: async (t) => {
    const script = touchRuns("untrusted.txt", "trusted.txt", "approved.txt");
    const opts = { script, globalConfig: GLOBAL_NO_TOUCH, projectConfig: PROJECT_OPEN };
    await withPi(opts, async (h) => {
      await t.step("untrusted (no decision saved): the global deny holds", async () => {
        const results = await printRun(h, "untrusted.txt done.");
        assert.ok(!existsSync(join(h.cwd, "untrusted.txt")), "the denied touch ran");
        assert.equal(results.get("call_1"), TOUCH_DENIED("untrusted.txt"));
      });

      await t.step("trusted in pi's trust.json: the project config applies", async () => {
        writeFileSync(join(h.agentDir, "trust.json"), JSON.stringify({ [h.cwd]: true }) + "\n");
        const results = await printRun(h, "trusted.txt done.");
        assert.ok(existsSync(join(h.cwd, "trusted.txt")), "the trusted touch did not run");
        assert.equal(results.get("call_2"), "(no output)");
      });

      await t.step("trusted by --approve (over a saved 'not trusted'): it applies", async () => {
        writeFileSync(join(h.agentDir, "trust.json"), JSON.stringify({ [h.cwd]: false }) + "\n");
        h.extensionArgs.push("--approve");
        const results = await printRun(h, "approved.txt done.");
        assert.ok(existsSync(join(h.cwd, "approved.txt")), "the approved touch did not run");
        assert.equal(results.get("call_3"), "(no output)");
      });
    });
  },
});

/** `pi-controls trust <dir>` (the CLI from this checkout) in a pi home. */
async function cliTrust(h: PiHome, dir: string): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", "lib/cli.ts", "trust", dir],
    cwd: ROOT,
    env: { HOME: h.home, PI_CODING_AGENT_DIR: h.agentDir, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, `pi-controls trust exited ${out.code}\n${stdout}${stderr}`);
  return stdout;
}

Deno.test({
  name: "e2e trust (pi 0.73, print): pi-controls' own store decides; `pi-controls trust` sets it",
  ignore: SKIP,
  fn: async (t) => {
    const script = touchRuns("untrusted.txt", "trusted.txt");
    const opts = {
      script,
      globalConfig: GLOBAL_NO_TOUCH,
      projectConfig: PROJECT_OPEN,
      pi: "0.73" as const,
    };
    await withPi(opts, async (h) => {
      await t.step("untrusted: the global deny holds", async () => {
        const results = await printRun(h, "untrusted.txt done.");
        assert.ok(!existsSync(join(h.cwd, "untrusted.txt")), "the denied touch ran");
        assert.equal(results.get("call_1"), TOUCH_DENIED("untrusted.txt"));
      });

      await t.step("after `pi-controls trust <project>`: the project config applies", async () => {
        const said = await cliTrust(h, h.cwd);
        assert.ok(said.startsWith(`trusted: ${h.cwd}\n`), said);
        const store = JSON.parse(
          readFileSync(join(h.agentDir, "extensions", "pi-controls-trust.json"), "utf8"),
        );
        assert.equal(store.folders[h.cwd]?.trusted, true, JSON.stringify(store));
        const results = await printRun(h, "trusted.txt done.");
        assert.ok(existsSync(join(h.cwd, "trusted.txt")), "the trusted touch did not run");
        assert.equal(results.get("call_2"), "(no output)");
      });
    });
  },
});

// ---------------------------------------------------------------------------------------------
// Edits apply at the next call; the dialog for the gate's own files

const DENY_WRITE = `// the user changed their mind: no writes
{
  "policies": {
    "open": { "defaultAction": "allow", "rules": [{ "action": "deny", "tool": "write" }] }
  },
  "locations": { "/": "open" }
}
`;

/** A save cut short: the text ends inside the policies object. */
const TRUNCATED = DENY_WRITE.slice(0, DENY_WRITE.indexOf('"rules"'));

Deno.test({
  name: "e2e trust (pi 1.x, RPC): config edits apply at the next call; gate files ask once/deny",
  ignore: SKIP,
  fn: async (t) => {
    let globalFile = "";
    const edit = (content: string) => () => writeFileSync(globalFile, content);
    const script: Step[] = [
      call("write", { path: "a.txt", content: "a\n" }),
      { ...call("write", { path: "b.txt", content: "b\n" }), before: edit(DENY_WRITE) },
      { ...call("write", { path: "c.txt", content: "c\n" }), before: edit(TRUNCATED) },
      { ...call("write", { path: "d.txt", content: "d\n" }), before: edit(ALLOW_ALL) },
      call("write", { path: ".pi/extensions/pi-controls.jsonc", content: TIGHTEN_ONLY }),
      call("bash", { command: "echo '{}' > .pi/extensions/pi-controls.jsonc" }),
      text("Edited."),
    ];
    await withPi({ script, globalConfig: ALLOW_ALL }, async (h) => {
      globalFile = join(h.agentDir, "extensions", "pi-controls.jsonc");
      const projectFile = join(h.cwd, ".pi", "extensions", "pi-controls.jsonc");
      const answers = ["Allow once", "Deny"];
      const rpc = startRpc(h, () => answers.shift());
      let ends: Map<string, { text: string; isError: boolean }>;
      try {
        ends = toolEnds(await rpc.prompt("Write the files."));
      } finally {
        await rpc.close();
      }
      assert.equal(h.server.remaining(), 0, "pi stopped before the script ended");

      await t.step("allowed before the edit", () => {
        assert.equal(readFileSync(join(h.cwd, "a.txt"), "utf8"), "a\n");
      });

      await t.step("the global config now denies write: the next write is denied", () => {
        assert.ok(!existsSync(join(h.cwd, "b.txt")), "b.txt was written");
        assert.equal(ends.get("call_2")?.isError, true);
        assert.equal(
          ends.get("call_2")?.text,
          `Access denied by policy: write — blocked path: "${h.cwd}/b.txt". The restriction is on ` +
            "the PATH — not on the tool. Do NOT retry with a different tool.",
        );
      });

      await t.step("a broken edit blocks the next call, naming file:line:col", () => {
        assert.ok(!existsSync(join(h.cwd, "c.txt")), "c.txt was written");
        const got = ends.get("call_3")?.text ?? "";
        // Line 4, column 41: where the text ends, inside the policy object.
        const where = `Access denied: the pi-controls config is broken (${globalFile}:4:41: `;
        assert.ok(got.startsWith(where), got);
        assert.equal(ends.get("call_3")?.isError, true);
      });

      await t.step("fixing it unblocks the call after", () => {
        assert.equal(readFileSync(join(h.cwd, "d.txt"), "utf8"), "d\n");
        assert.equal(ends.get("call_4")?.isError, false);
      });

      await t.step("a gate file's dialog offers only Allow once and Deny", () => {
        assert.deepEqual(rpc.dialogs.map((d) => d.title), [
          `pi-controls: ask [gate files]: write — path: "${projectFile}"`,
          "pi-controls: ask [gate files]: bash — echo '{}' > .pi/extensions/pi-controls.jsonc",
        ]);
        for (const d of rpc.dialogs) {
          assert.equal(d.method, "select");
          assert.deepEqual(d.options, ["Allow once", "Deny"]);
        }
        // Allow once: the write ran; Deny: the redirect did not.
        assert.equal(readFileSync(projectFile, "utf8"), TIGHTEN_ONLY);
        assert.equal(ends.get("call_5")?.isError, false);
        assert.equal(ends.get("call_6")?.isError, true);
        assert.equal(
          ends.get("call_6")?.text,
          gateDeny("bash (echo '{}' > .pi/extensions/pi-controls.jsonc)", projectFile) +
            " The user denied it.",
        );
      });
    });
  },
});
