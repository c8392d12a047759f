/**
 * End-to-end: the real pi loads dist/pi-controls.js and talks to a scripted model server on
 * 127.0.0.1. Every test runs pi 1.6.0 (@earendil-works/pi-coding-agent, under Node 22); the first
 * print-mode test also runs the old line, pi 0.73.1 (@mariozechner/pi-coding-agent). Both are
 * pinned and installed by scripts/ensure_pi.ts. Print mode (`-p`) and RPC
 * mode (`--mode rpc`, the test answers the extension's dialogs). Each test checks the effect on
 * disk, what the model was sent, the log, and (for the recorded cases) that replaying the session
 * pi wrote gives the same actions.
 *
 * `PI_CONTROLS_E2E_RECORD=1 deno task test` also rewrites testdata/cases/e2e-* from these runs
 * (then run `deno task golden:update` and review golden/e2e-*.txt).
 * `PI_CONTROLS_SKIP_E2E=1` skips the suite (for machines that cannot install pi).
 * `PI_CONTROLS_E2E_BUNDLE=<file>` runs another build of the extension (e.g. a deliberately broken
 * one, to see these tests fail).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import process from "node:process";
import { parse as parseJsonc } from "jsonc-parser";
import { loadBashParser } from "../lib/shell/parser.ts";
import { loadConfig } from "../lib/config.ts";
import { realFs } from "../lib/policy/fs_facts.ts";
import { readSession, replaySessions } from "../lib/replay.ts";
import type { Action } from "../lib/types.ts";
import { type PiLine, PIS } from "../scripts/ensure_pi.ts";
import { call, lastToolResults, type Step, text } from "./model_server.ts";
import {
  type Dialog,
  type PiHome,
  readLog,
  requirePis,
  type RpcPi,
  runPiCli,
  runPrint,
  sessionFiles,
  SKIP_E2E as SKIP,
  startRpc,
  withPi,
} from "./pi.ts";
import { writeCase } from "./record.ts";

const RECORD = process.env.PI_CONTROLS_E2E_RECORD === "1";
const ASK = ["Allow once", "Allow for session", "Allow for Project", "Allow Globally", "Deny"];
const PATH_NOTE =
  "The restriction is on the PATH — not on the tool. Do NOT retry with a different tool.";

requirePis();

/** Run `body` with pi in RPC mode; pi is always closed (killed if it does not exit). */
async function withRpc(
  h: PiHome,
  answer: (d: Dialog) => string | undefined,
  body: (rpc: RpcPi) => Promise<void>,
) {
  const rpc = startRpc(h, answer);
  try {
    await body(rpc);
  } finally {
    await rpc.close();
  }
}

/** The tool results of an RPC run, by tool call id: the text and whether it was an error. */
function toolEnds(
  events: Record<string, unknown>[],
): Map<string, { text: string; isError: boolean }> {
  const out = new Map<string, { text: string; isError: boolean }>();
  for (const e of events) {
    if (e.type !== "tool_execution_end") continue;
    // deno-lint-ignore no-explicit-any
    const result = e.result as any;
    const t = (result?.content ?? []).map((c: { text?: string }) => c.text ?? "").join("");
    out.set(String(e.toolCallId), { text: t, isError: Boolean(e.isError) });
  }
  return out;
}

function decisions(h: PiHome) {
  return readLog(h).filter((l) => l.event === "decision");
}

/** Replay the session files pi wrote under `config` and return the final actions by call id. */
async function replayActions(h: PiHome, files: string[]): Promise<Record<string, Action>[]> {
  const loaded = loadConfig({ cwd: h.cwd, home: h.home, agentDir: h.agentDir });
  assert.equal(loaded.status, "ok");
  if (loaded.status !== "ok") return [];
  const parser = await loadBashParser();
  return files.map((f) => {
    const rows = replaySessions(loaded.config, [readSession(f)], {
      home: h.home,
      env: { HOME: h.home },
      fs: realFs(),
    }, { parser });
    return Object.fromEntries(rows.map((r) => [r.id, r.action]));
  });
}

// ---------------------------------------------------------------------------------------------
// Print mode

const PRINT_CONFIG = `// pi-controls e2e: print mode (no UI to answer asks)
{
  "policies": {
    "project": {
      "defaultAction": "allow",
      "rules": [
        { "action": "deny", "tool": "write" },
        { "action": "allow", "tool": "bash", "pattern": "printf *" },
        { "action": "ask", "tool": "bash", "pattern": "touch *" },
        { "action": "nudge", "tool": "read", "message": "Prefer the outline tool for repo files." }
      ]
    }
  },
  "locations": { "~/project": "project" },
  "pathProtection": { ".env": "deny" }
}
`;

const PRINT_SCRIPT: Step[] = [
  // Two calls in one assistant message: pi runs them in parallel.
  {
    calls: [
      { name: "write", args: { path: "denied.txt", content: "should not exist\n" } },
      { name: "bash", args: { command: "printf '%s-%s\\n' allowed runs" } },
    ],
  },
  call("read", { path: "notes.txt" }),
  call("bash", { command: "touch asked.txt" }),
  call("read", { path: ".env" }),
  text("All done."),
];

// The one test that also runs the old line (0.73.1): the same assertions hold on both.
for (const pi of ["1.x", "0.73"] as PiLine[]) {
  Deno.test({
    name: `e2e print mode (pi ${pi}): deny, allow, nudge, headless ask, pathProtection, log`,
    ignore: SKIP,
    fn: (t) => printModeTest(t, pi),
  });
}

async function printModeTest(t: Deno.TestContext, pi: PiLine) {
  await withPi({
    script: PRINT_SCRIPT,
    globalConfig: PRINT_CONFIG,
    files: { "notes.txt": "line one\nline two\n", ".env": "SECRET=hunter2\n" },
    install: "copy", // the bundle copied into <agentDir>/extensions/, as a user installs it
    pi,
  }, async (h) => {
    const r = await runPrint(h, "Do the scripted things.");
    assert.equal(r.code, 0, `pi exited ${r.code}\n${r.stderr}`);
    assert.equal(r.stdout.trim(), "All done.");
    assert.equal(h.server.remaining(), 0, "pi stopped before the script ended");
    assert.ok(!h.server.exhausted(), "pi asked the model more often than scripted");
    const results = lastToolResults(h.server);

    await t.step("a denied write leaves no file and the model receives the deny reason", () => {
      assert.ok(!existsSync(join(h.cwd, "denied.txt")), "denied.txt was written");
      assert.equal(
        results.get("call_1"),
        `Access denied by policy: write — blocked path: "${h.cwd}/denied.txt". ${PATH_NOTE}`,
      );
    });

    await t.step("an allowed command runs and its output reaches the model", () => {
      assert.equal(results.get("call_2")?.trim(), "allowed-runs");
    });

    await t.step("a nudge's text reaches the model ahead of the tool output", () => {
      const got = results.get("call_3") ?? "";
      const nudge = "[pi-controls nudge] Prefer the outline tool for repo files.\n\n";
      assert.ok(got.startsWith(nudge), `no nudge before the result: ${JSON.stringify(got)}`);
      assert.match(got.slice(nudge.length), /^line one\nline two/);
    });

    await t.step("a headless ask is denied, saying nobody could confirm it", () => {
      assert.ok(!existsSync(join(h.cwd, "asked.txt")), "the asked command ran");
      assert.equal(
        results.get("call_4"),
        'Access denied by policy: bash (touch asked.txt) — pattern: "touch *". Avoid the blocked ' +
          "pattern in any retry. Confirmation was required and nobody could give it (pi runs " +
          "without a UI).",
      );
    });

    await t.step("pathProtection blocks, and nothing of the file reaches the model", () => {
      const got = results.get("call_5") ?? "";
      assert.equal(
        got,
        `Access denied by pathProtection: read — blocked path: "${h.cwd}/.env". ${PATH_NOTE}`,
      );
      assert.ok(!got.includes("hunter2"));
    });

    await t.step("the log holds a startup line and every decision with its final action", () => {
      const log = readLog(h);
      assert.equal(log[0]?.event, "startup");
      assert.equal(log[0].cwd, h.cwd);
      assert.deepEqual(log[0].files, [join(h.agentDir, "extensions", "pi-controls.jsonc")]);
      assert.equal(log[0].loaded, "1 policies, 1 locations, defaultPolicy=null");
      const got = decisions(h).map((
        d,
      ) => [d.toolCallId, d.tool, d.engineAction, d.action, d.choice]);
      got.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      assert.deepEqual(got, [
        ["call_1", "write", "deny", "deny", undefined],
        ["call_2", "bash", "allow", "allow", undefined],
        ["call_3", "read", "nudge", "nudge", undefined],
        ["call_4", "bash", "ask", "deny", "no UI to answer"],
        ["call_5", "read", "deny", "deny", undefined],
      ]);
      const protectedRead = decisions(h).find((d) => d.toolCallId === "call_5");
      assert.deepEqual(protectedRead?.targets[0].protection, { glob: ".env", action: "deny" });
      assert.equal(
        decisions(h).find((d) => d.toolCallId === "call_2")?.command,
        "printf '%s-%s\\n' allowed runs",
      );
    });

    await t.step("replaying the session pi wrote gives the same actions", async () => {
      const files = sessionFiles(h);
      assert.equal(files.length, 1);
      const expect: Record<string, Action> = {
        call_1: "deny",
        call_2: "allow",
        call_3: "nudge",
        call_4: "ask",
        call_5: "deny",
      };
      assert.deepEqual(await replayActions(h, files), [expect]);
      // The recorded case stays the 0.73.1 one (its golden file was reviewed against it).
      if (RECORD && pi === "0.73") {
        writeCase("e2e-print", {
          spec: `Recorded by the real pi ${PIS[pi].version} in print mode (e2e/pi_test.ts)`,
          config: PRINT_CONFIG,
          sessions: files,
          home: h.home,
          files: ["notes.txt", ".env"],
          expect: [expect],
          why: {
            call_1: "deny write (a tool rule); pi left no file",
            call_2: 'allow bash "printf *"; ran in parallel with call_1',
            call_3: "nudge read: the model got the nudge before the file",
            call_4: 'ask bash "touch *": pi -p has no UI, so the extension denied it',
            call_5: 'pathProtection ".env" beats the read nudge',
          },
        });
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// RPC mode: the ask dialog

const PROJECT_CONFIG = `// pi-controls e2e: the project's own policy.
// These comments must survive "Allow for Project".
{
  "policies": {
    "project": {
      "defaultAction": "allow",
      "rules": [
        // creating files needs a human
        { "action": "ask", "tool": "bash", "pattern": "touch *" },
        /* so does git */
        { "action": "ask", "tool": "bash", "pattern": "git *" },
      ],
    },
  },
  "locations": { ".": "project" }, // relative: the project root
}
`;

const DIALOG_SCRIPT: Step[] = [
  call("bash", { command: "touch denied.txt" }), // call_1: Deny
  call("bash", { command: "touch once.txt" }), // call_2: Allow once
  call("bash", { command: "touch once.txt" }), // call_3: asked again, Deny
  call("bash", { command: "touch session.txt" }), // call_4: Allow for session
  call("bash", { command: "touch session.txt" }), // call_5: not asked
  call("bash", { command: "touch other.txt" }), // call_6: a different call is asked: Deny
  call("bash", { command: "git init -q" }), // call_7: Allow for Project
  call("bash", { command: "git init -q" }), // call_8: the saved rule allows it
  call("bash", { command: "git status --short" }), // call_9: Allow Globally
  call("bash", { command: "git status -s" }), // call_10: the saved rule allows it
  text("Dialogs done."),
];

const ANSWERS: Record<string, string[]> = {
  "touch denied.txt": ["Deny"],
  "touch once.txt": ["Allow once", "Deny"],
  "touch session.txt": ["Allow for session"],
  "touch other.txt": ["Deny"],
  "git init -q": ["Allow for Project"],
  "git status --short": ["Allow Globally"],
};

function scriptedAnswers(): (d: Dialog) => string | undefined {
  const left = structuredClone(ANSWERS);
  return (d) => {
    const cmd = Object.keys(left).find((c) => d.title.endsWith(`— ${c}`));
    return cmd ? left[cmd].shift() : undefined;
  };
}

Deno.test({
  name: "e2e RPC: the ask dialog — Deny, Allow once, for session, for Project, Globally",
  ignore: SKIP,
  fn: async (t) => {
    // The project is the user's own: trusted, as pi 1.x's /trust records it. (Its
    // .pi/extensions/ makes pi 1.x ask for a trust decision, which RPC mode cannot show.)
    const opts = { script: DIALOG_SCRIPT, projectConfig: PROJECT_CONFIG, trusted: true };
    await withPi(opts, async (h) => {
      const projectFile = join(h.cwd, ".pi", "extensions", "pi-controls.jsonc");
      const globalFile = join(h.agentDir, "extensions", "pi-controls.jsonc");
      await withRpc(h, scriptedAnswers(), async (rpc) => {
        const events = await rpc.prompt("Answer my dialogs.");
        const ends = toolEnds(events);
        assert.equal(h.server.remaining(), 0, "pi stopped before the script ended");
        const title = (cmd: string) => `pi-controls: ask [project]: bash — ${cmd}`;

        await t.step("each asked call opens pi's select dialog with the five choices", () => {
          assert.deepEqual(rpc.dialogs.map((d) => d.title), [
            title("touch denied.txt"),
            title("touch once.txt"),
            title("touch once.txt"),
            title("touch session.txt"),
            title("touch other.txt"),
            title("git init -q"),
            title("git status --short"),
          ]);
          for (const d of rpc.dialogs) {
            assert.equal(d.method, "select");
            assert.deepEqual(d.options, ASK);
          }
        });

        await t.step("Deny: blocked, nothing ran, the model is told the user denied it", () => {
          assert.ok(!existsSync(join(h.cwd, "denied.txt")));
          assert.equal(ends.get("call_1")?.isError, true);
          assert.equal(
            ends.get("call_1")?.text,
            'Access denied by policy: bash (touch denied.txt) — pattern: "touch *". Avoid the ' +
              "blocked pattern in any retry. The user denied it.",
          );
          assert.ok(!existsSync(join(h.cwd, "other.txt")));
        });

        await t.step("Allow once: runs, and the same call is asked again", () => {
          assert.ok(existsSync(join(h.cwd, "once.txt")));
          assert.equal(ends.get("call_2")?.isError, false);
          assert.equal(ends.get("call_3")?.isError, true);
        });

        await t.step("Allow for session: runs, and the same call is not asked again", () => {
          assert.ok(existsSync(join(h.cwd, "session.txt")));
          assert.equal(ends.get("call_4")?.isError, false);
          assert.equal(ends.get("call_5")?.isError, false);
          assert.equal(rpc.dialogs.filter((d) => d.title === title("touch session.txt")).length, 1);
        });

        await t.step("Allow for Project: saved in the project config, comments intact", () => {
          assert.ok(existsSync(join(h.cwd, ".git")), "git init did not run");
          assert.equal(ends.get("call_7")?.isError, false);
          assert.equal(ends.get("call_8")?.isError, false, ends.get("call_8")?.text);
          assert.equal(rpc.dialogs.filter((d) => d.title === title("git init -q")).length, 1);
          const saved = readFileSync(projectFile, "utf8");
          for (
            const line of PROJECT_CONFIG.split("\n").filter((l) =>
              l.includes("//") || l.includes("/*")
            )
          ) {
            assert.ok(saved.includes(line.trim()), `lost: ${line.trim()}\n${saved}`);
          }
          assert.deepEqual(parseJsonc(saved).approvalRules, [
            { action: "allow", tool: "bash", pattern: "git init *", policy: "project" },
          ]);
          assert.ok(
            rpc.notifications.some((n) =>
              n.message === `pi-controls: saved allow git init * [project] to ${projectFile}`
            ),
            JSON.stringify(rpc.notifications),
          );
        });

        await t.step(
          "Allow Globally: saved in the global config (created), not asked again",
          () => {
            assert.equal(ends.get("call_9")?.isError, false, ends.get("call_9")?.text);
            assert.equal(ends.get("call_10")?.isError, false, ends.get("call_10")?.text);
            assert.deepEqual(parseJsonc(readFileSync(globalFile, "utf8")).approvalRules, [
              { action: "allow", tool: "bash", pattern: "git status *", policy: "project" },
            ]);
            assert.ok(
              !readFileSync(projectFile, "utf8").includes("git status"),
              "the global approval went into the project file",
            );
            // Both files still load: the global approval names a policy of the project file.
            const loaded = loadConfig({ cwd: h.cwd, home: h.home, agentDir: h.agentDir });
            assert.equal(loaded.status, "ok", JSON.stringify(loaded));
          },
        );

        await t.step("the log records each answer and the final action", () => {
          const got = decisions(h).map((d) => [d.toolCallId, d.engineAction, d.action, d.choice]);
          assert.deepEqual(got, [
            ["call_1", "ask", "deny", "Deny"],
            ["call_2", "ask", "allow", "Allow once"],
            ["call_3", "ask", "deny", "Deny"],
            ["call_4", "ask", "allow", "Allow for session"],
            ["call_5", "ask", "allow", "allowed for session"],
            ["call_6", "ask", "deny", "Deny"],
            ["call_7", "ask", "allow", `Allow for Project (git init * -> ${projectFile})`],
            ["call_8", "allow", "allow", undefined],
            ["call_9", "ask", "allow", `Allow Globally (git status * -> ${globalFile})`],
            ["call_10", "allow", "allow", undefined],
          ]);
          const approved = decisions(h).find((d) => d.toolCallId === "call_8")?.targets[0]
            ?.approval;
          assert.deepEqual(approved, {
            action: "allow",
            tool: "bash",
            pattern: "git init *",
            policy: "project",
          });
        });
      });
    });
  },
});

// ---------------------------------------------------------------------------------------------
// RPC mode: the circuit breakers

const BREAKER_CONFIG = `// pi-controls e2e: the circuit breakers, with the spec's counts
{
  "policies": {
    "guarded": {
      "defaultAction": "allow",
      "rules": [
        { "action": "deny", "tool": "bash", "pattern": "rm *" },
        { "action": "nudge", "tool": "bash", "pattern": "grep *", "message": "Prefer the read tool over grep." }
      ]
    }
  },
  "locations": { "~/project": "guarded" },
  "agentTimeout": { "maxDenies": 3, "windowSeconds": 600 },
  "nudgeTimeout": { "maxNudges": 3, "windowSeconds": 600 }
}
`;

const BREAKER_SCRIPT: Step[] = [
  // session 1: agentTimeout
  call("bash", { command: "rm a.txt" }, "rm_1"),
  call("bash", { command: "rm b.txt" }, "rm_2"),
  call("bash", { command: "rm c.txt" }, "rm_3"),
  call("bash", { command: "rm d.txt" }, "rm_4"), // escalated to ask: Deny
  call("bash", { command: "rm e.txt" }, "rm_5"), // escalated to ask: Allow once
  text("Denied enough."),
  // session 2: nudgeTimeout
  call("bash", { command: "grep two notes.txt" }, "grep_1"),
  call("bash", { command: "grep two notes.txt" }, "grep_2"),
  call("bash", { command: "grep two notes.txt" }, "grep_3"), // denied
  call("bash", { command: "grep two notes.txt" }, "grep_4"), // nudged again
  text("Nudged enough."),
];

Deno.test({
  name: "e2e RPC: agentTimeout (4th deny asks) and nudgeTimeout (3rd nudge denies)",
  ignore: SKIP,
  fn: async (t) => {
    const files = {
      "a.txt": "a",
      "b.txt": "b",
      "c.txt": "c",
      "d.txt": "d",
      "e.txt": "e",
      "notes.txt": "one\ntwo\n",
    };
    await withPi({ script: BREAKER_SCRIPT, globalConfig: BREAKER_CONFIG, files }, async (h) => {
      const answers = ["Deny", "Allow once"];
      await withRpc(h, () => answers.shift(), async (rpc) => {
        const first = toolEnds(await rpc.prompt("Delete things."));

        await t.step(
          "agentTimeout maxDenies 3: three silent denies, then the 4th is an ask",
          () => {
            for (const f of ["a.txt", "b.txt", "c.txt"]) assert.ok(existsSync(join(h.cwd, f)), f);
            for (const [id, f] of [["rm_1", "a.txt"], ["rm_2", "b.txt"], ["rm_3", "c.txt"]]) {
              assert.equal(
                first.get(id)?.text,
                `Access denied by policy: bash (rm ${f}) — pattern: "rm *". Avoid the blocked pattern in any retry.`,
              );
            }
            assert.equal(rpc.dialogs.length, 2, JSON.stringify(rpc.dialogs));
            assert.equal(
              rpc.dialogs[0].title,
              "pi-controls: ask [guarded]: bash — rm d.txt (agentTimeout: 3 denied calls in 600s)",
            );
            assert.ok(existsSync(join(h.cwd, "d.txt")), "the 4th rm ran although it was denied");
            assert.match(first.get("rm_4")?.text ?? "", /The user denied it\.$/);
          },
        );

        await t.step("the escalation continues; approving the dialog lets the call run", () => {
          assert.match(rpc.dialogs[1].title, /rm e\.txt \(agentTimeout: 4 denied calls in 600s\)/);
          assert.equal(first.get("rm_5")?.isError, false);
          assert.ok(!existsSync(join(h.cwd, "e.txt")), "the approved rm did not run");
        });

        await rpc.command({ type: "new_session" });
        const second = toolEnds(await rpc.prompt("Search things."));

        await t.step("nudgeTimeout maxNudges 3: nudge, nudge, deny, nudge", () => {
          const nudge = "[pi-controls nudge] Prefer the read tool over grep.\n\ntwo";
          assert.equal(second.get("grep_1")?.text.trim(), nudge);
          assert.equal(second.get("grep_2")?.text.trim(), nudge);
          assert.equal(second.get("grep_3")?.isError, true);
          assert.equal(
            second.get("grep_3")?.text,
            '[pi-controls] Access denied by policy: bash (grep two notes.txt) — pattern: "grep *".\n' +
              'You were repeatedly warned: "Prefer the read tool over grep." You MUST switch approach now.',
          );
          assert.equal(second.get("grep_4")?.text.trim(), nudge);
          // What the model was sent: the nudge, a blank line, then grep's output.
          assert.equal(lastToolResults(h.server).get("grep_1"), `${nudge}\n`);
          assert.equal(rpc.dialogs.length, 2, "a nudge deny in a fresh session must not escalate");
        });

        await t.step("the log has a startup line per session and the escalations", () => {
          const log = readLog(h);
          // One startup before the first session and one for the RPC new_session (pi 0.73.1
          // emitted session_start twice for it; pi 1.x, since 1.6.0, once).
          const kinds = log.map((l) => l.event === "decision" ? l.toolCallId : l.event);
          assert.equal(kinds[0], "startup");
          const between = kinds.slice(kinds.indexOf("rm_5") + 1, kinds.indexOf("grep_1"));
          assert.deepEqual(between, ["startup"], kinds.join(" "));
          const got = decisions(h).map((
            d,
          ) => [d.toolCallId, d.engineAction, d.action, d.escalation ?? null, d.choice ?? null]);
          assert.deepEqual(got, [
            ["rm_1", "deny", "deny", null, null],
            ["rm_2", "deny", "deny", null, null],
            ["rm_3", "deny", "deny", null, null],
            ["rm_4", "deny", "deny", "agentTimeout", "Deny"],
            ["rm_5", "deny", "allow", "agentTimeout", "Allow once"],
            ["grep_1", "nudge", "nudge", null, null],
            ["grep_2", "nudge", "nudge", null, null],
            ["grep_3", "nudge", "deny", "nudgeTimeout", null],
            ["grep_4", "nudge", "nudge", null, null],
          ]);
        });

        await t.step("replaying the sessions pi wrote gives the same actions", async () => {
          const sessions = sessionFiles(h).filter((f) => readSession(f).calls.length > 0);
          assert.equal(sessions.length, 2);
          const expect: Record<string, Action>[] = [
            { rm_1: "deny", rm_2: "deny", rm_3: "deny", rm_4: "ask", rm_5: "ask" },
            { grep_1: "nudge", grep_2: "nudge", grep_3: "deny", grep_4: "nudge" },
          ];
          const replayed = await replayActions(h, sessions);
          // Session files sort by their start time: the agentTimeout one first.
          assert.deepEqual(replayed, expect);
          if (RECORD) {
            writeCase("e2e-breakers", {
              spec: `Recorded by the real pi ${PIS[h.pi].version} in RPC mode: agentTimeout and ` +
                "nudgeTimeout (e2e/pi_test.ts)",
              config: BREAKER_CONFIG,
              sessions,
              home: h.home,
              files: Object.keys(files),
              expect,
              why: {
                rm_4:
                  "agentTimeout maxDenies 3: the 4th denied call is an ask (the user denied it)",
                rm_5:
                  "the escalation continues while the window holds 3 or more denies (the user allowed it)",
                grep_3:
                  "nudgeTimeout maxNudges 3: the 3rd nudge of the rule is a deny; the counter resets",
                grep_4: "after the reset the rule nudges again",
              },
            });
          }
        });
      });
    });
  },
});

// ---------------------------------------------------------------------------------------------
// Start-up: no config, broken config

Deno.test({
  name: "e2e RPC: no config — calls proceed and pi shows the spec's warning",
  ignore: SKIP,
  fn: async () => {
    const script = [call("write", { path: "made.txt", content: "free\n" }), text("Wrote it.")];
    await withPi({ script }, async (h) => {
      await withRpc(h, () => undefined, async (rpc) => {
        const ends = toolEnds(await rpc.prompt("Write a file."));
        assert.equal(readFileSync(join(h.cwd, "made.txt"), "utf8"), "free\n");
        assert.equal(ends.get("call_1")?.isError, false);
        assert.deepEqual(
          rpc.notifications.filter((n) => n.message.includes("pi-controls")),
          [{
            message: "[pi-controls] No config found — all tool calls are unrestricted. Create " +
              "~/.pi/agent/extensions/pi-controls.jsonc to enforce policies.",
            type: "warning",
          }],
        );
        assert.equal(rpc.dialogs.length, 0);
        const log = readLog(h);
        assert.equal(log[0]?.event, "startup");
        assert.equal(log[0].loaded, "0 policies, 0 locations, defaultPolicy=null");
      });
    });
  },
});

Deno.test({
  name: "e2e print mode: no config — calls proceed and the warning goes to stderr",
  ignore: SKIP,
  fn: async () => {
    const script = [call("bash", { command: "touch free.txt" }), text("Touched.")];
    await withPi({ script }, async (h) => {
      const r = await runPrint(h, "Touch a file.");
      assert.equal(r.code, 0, r.stderr);
      assert.ok(existsSync(join(h.cwd, "free.txt")), "the call did not run");
      assert.equal(lastToolResults(h.server).get("call_1"), "(no output)");
      assert.ok(
        r.stderr.includes(
          "[pi-controls] No config found — all tool calls are unrestricted. Create " +
            "~/.pi/agent/extensions/pi-controls.jsonc to enforce policies.\n",
        ),
        r.stderr,
      );
    });
  },
});

const BROKEN_CONFIG = `// broken on purpose: nudge cannot be a defaultAction
{
  "policies": {
    "p": { "defaultAction": "nudge", "rules": [] }
  },
  "locations": { "~/project": "p" }
}
`;

Deno.test({
  name: "e2e RPC: a broken config blocks every call, naming file:line:col",
  ignore: SKIP,
  fn: async () => {
    const script = [
      call("write", { path: "blocked.txt", content: "no\n" }),
      call("bash", { command: "touch blocked-too.txt" }),
      text("Blocked."),
    ];
    await withPi({ script, globalConfig: BROKEN_CONFIG }, async (h) => {
      const file = join(h.agentDir, "extensions", "pi-controls.jsonc");
      const where = `${file}:4:29: policies.p.defaultAction: "nudge" is not a valid defaultAction`;
      await withRpc(h, () => undefined, async (rpc) => {
        const ends = toolEnds(await rpc.prompt("Try anything."));
        assert.ok(!existsSync(join(h.cwd, "blocked.txt")));
        assert.ok(!existsSync(join(h.cwd, "blocked-too.txt")));
        for (const id of ["call_1", "call_2"]) {
          const r = ends.get(id);
          assert.equal(r?.isError, true);
          assert.ok(
            r?.text.startsWith(`Access denied: the pi-controls config is broken (${where}`),
            r?.text,
          );
        }
        const errors = rpc.notifications.filter((n) => n.type === "error");
        assert.ok(errors.some((n) => n.message.includes(where)), JSON.stringify(rpc.notifications));
        assert.deepEqual(decisions(h).map((d) => d.action), ["deny", "deny"]);
      });
    });
  },
});

Deno.test({
  name:
    "e2e: pi install <this repository> into a fresh agent dir, then pi enforces a policy from it",
  ignore: SKIP,
  fn: async () => {
    const repo = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
    const script = [
      call("write", { path: "secret.txt", content: "no\n" }),
      call("bash", { command: "echo allowed > ok.txt" }),
      text("Done."),
    ];
    const globalConfig = JSON.stringify({
      policies: {
        guard: { defaultAction: "allow", rules: [{ action: "deny", tool: "write" }] },
      },
      locations: { "~/project": "guard" },
    });
    await withPi({ script, globalConfig, install: "none" }, async (h) => {
      const installed = await runPiCli(h, ["install", repo]);
      assert.equal(installed.code, 0, installed.stdout + installed.stderr);
      const settings = JSON.parse(readFileSync(join(h.agentDir, "settings.json"), "utf8"));
      // pi records a local package by its path relative to the agent dir.
      const packages: string[] = (settings.packages ?? []).map((p: string) =>
        resolve(h.agentDir, p)
      );
      assert.deepEqual(packages, [realpathSync(repo)], JSON.stringify(settings));
      const r = await runPrint(h, "Write the files.");
      assert.equal(r.code, 0, r.stderr);
      assert.ok(
        !existsSync(join(h.cwd, "secret.txt")),
        "the denied write ran: the package did not load",
      );
      assert.equal(readFileSync(join(h.cwd, "ok.txt"), "utf8"), "allowed\n");
      assert.match(
        lastToolResults(h.server).get("call_1") ?? "",
        /^Access denied by policy: write — blocked path: ".*secret\.txt"/,
      );
    });
  },
});
