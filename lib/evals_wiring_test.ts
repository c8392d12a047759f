/**
 * Eval classification wired into the extension (classify after decide, skip session allows, log)
 * and into `pi-controls check` and `replay`, against a stand-in Decisions server on 127.0.0.1.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CliIo, main } from "./cli.ts";
import { createExtension, type PiApi, type PiContext } from "./extension.ts";
import { choice, yesNo } from "./testing_decisions.ts";
import { bySource, ENV_NAME, TOKEN, withStandIn } from "./testing_evals.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

// ---------------------------------------------------------------------------------------------
// Wiring: the extension and the CLI

interface Tree {
  root: string;
  home: string;
  agent: string;
  project: string;
  log: string;
}

function tree(config: object): Tree {
  const root = mkdtempSync(join(tmpdir(), "pi-controls-evals-"));
  const home = join(root, "home");
  const agent = join(home, ".pi", "agent");
  const project = join(home, "project");
  mkdirSync(join(agent, "extensions"), { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(agent, "extensions", "pi-controls.jsonc"), JSON.stringify(config));
  return { root, home, agent, project, log: join(agent, "extensions", "pi-controls.log") };
}

function readLog(t: Tree): Json[] {
  return readFileSync(t.log, "utf8").trim().split("\n").map((l) => JSON.parse(l));
}

Deno.test("evals: the extension classifies after decide, skips session allows, logs", async () => {
  const answers = {
    "steal()": { read_scope: choice("sensitive", { sensitive: 1 }), network: yesNo(1) },
    "unsure()": { write_scope: choice("unknown", { unknown: 1 }) },
  };
  await withStandIn(bySource(answers), async (s) => {
    const t = tree({
      policies: { open: { defaultAction: "allow", rules: [] } },
      locations: { "~/project": "open" },
      decisions: { url: s.url },
    });
    try {
      const handlers = new Map<string, (e: never, c: PiContext) => unknown>();
      const pi: PiApi = {
        on: (name, h) => handlers.set(name, h),
        registerCommand: () => {},
      };
      createExtension(pi, { env: { HOME: t.home, [ENV_NAME]: TOKEN } });
      const notes: string[] = [];
      let answer = "Allow for session";
      const dialogs: string[] = [];
      const offered: string[][] = [];
      const piCtx = (hasUI: boolean): PiContext => ({
        cwd: t.project,
        hasUI,
        ui: {
          notify: (m) => notes.push(m),
          select: (title, options) => {
            dialogs.push(title);
            offered.push(options);
            return Promise.resolve(answer);
          },
          setStatus: () => {},
        },
      });
      handlers.get("session_start")!({} as never, piCtx(true));
      const toolCall = (id: string, command: string, hasUI = true) =>
        handlers.get("tool_call")!(
          { toolName: "bash", toolCallId: id, input: { command } } as never,
          piCtx(hasUI),
        ) as Promise<{ block: true; reason: string } | undefined>;

      const denied = await toolCall("c1", "python3 -c 'steal()'");
      assert.equal(denied?.block, true);
      assert.match(denied!.reason, /^Access denied by eval classification: .*rule deny\.exfil/);
      assert.equal(s.requests.length, 1);

      // headless ask: denied with the eval's reason
      const headless = await toolCall("c2", "python3 -c 'unsure()'", false);
      assert.match(headless!.reason, /rule ask\.uncertain .*nobody could give it/);
      assert.equal(s.requests.length, 2);

      // ask with a UI: Allow for session; then the same call needs no request and no dialog
      const asked = await toolCall("c3", "python3 -c 'unsure()'");
      assert.equal(asked, undefined);
      assert.match(dialogs[0], /^pi-controls: ask \[eval classification\]: bash — python3 -c/);
      assert.deepEqual(offered[0], ["Allow once", "Allow for session", "Deny"]);
      assert.equal(s.requests.length, 2, "served from the session cache");
      answer = "Deny";
      const again = await toolCall("c4", "python3 -c 'unsure()'");
      assert.equal(again, undefined, "allowed for session");
      assert.equal(dialogs.length, 1);

      // a new session: a fresh cache
      handlers.get("session_start")!({} as never, piCtx(true));
      await toolCall("c5", "python3 -c 'steal()'");
      assert.equal(s.requests.length, 3);
      assert.notEqual(s.requests[2].body.session_id, s.requests[0].body.session_id);

      const log = readLog(t);
      const evalLines = log.filter((l) => l.event === "eval");
      assert.equal(evalLines.length, 4, "c4 was skipped (allowed for session)");
      assert.equal(evalLines[0].toolCallId, "c1");
      assert.equal(evalLines[0].origin, "extension");
      const decision = log.find((l) => l.event === "decision" && l.toolCallId === "c1")!;
      assert.equal(decision.action, "deny");
      assert.equal(decision.engineAction, "deny");
      assert.equal(decision.locationAction, "allow");
      assert.equal(decision.evals[0].rule, "deny.exfil");
      const skipped = log.find((l) => l.event === "decision" && l.toolCallId === "c4")!;
      assert.equal(skipped.evals[0].skipped, "allowed for session");
      assert.ok(!readFileSync(t.log, "utf8").includes(TOKEN));
    } finally {
      rmSync(t.root, { recursive: true, force: true });
    }
  });
});

async function cli(args: string[], t: Tree, stdin = "") {
  let out = "";
  let err = "";
  const io: CliIo = {
    out: (x) => out += x,
    err: (x) => err += x,
    env: { HOME: t.home, [ENV_NAME]: TOKEN },
    cwd: t.project,
    stdin: () => Promise.resolve(stdin),
  };
  const code = await main(args, io);
  return { code, out, err };
}

Deno.test("evals: pi-controls check and replay classify with a decisions block", async () => {
  const answers = {
    "steal()": { read_scope: choice("sensitive", { sensitive: 1 }), network: yesNo(1) },
  };
  await withStandIn(bySource(answers), async (s) => {
    const t = tree({
      policies: { open: { defaultAction: "allow", rules: [] } },
      locations: { "~/project": "open" },
      decisions: { url: s.url },
    });
    try {
      const one = await cli(
        ["check", "--tool", "bash", "--input", JSON.stringify({ command: "python3 -c 'steal()'" })],
        t,
      );
      assert.equal(one.code, 4, one.err); // deny
      const v = JSON.parse(one.out);
      assert.equal(v.action, "deny");
      assert.equal(v.evals[0].rule, "deny.exfil");
      assert.equal(s.requests.length, 1);

      // --jsonl: one cache per run
      const lines = [
        { id: 1, tool: "bash", input: { command: "python3 -c 'steal()'" } },
        { id: 2, tool: "bash", input: { command: "python3 -c 'steal()'" } },
        { id: 3, tool: "bash", input: { command: "ls" } },
      ].map((l) => JSON.stringify(l)).join("\n");
      const many = await cli(["check", "--jsonl"], t, lines);
      const rows = many.out.trim().split("\n").map((l) => JSON.parse(l));
      assert.deepEqual(rows.map((r) => r.action), ["deny", "deny", "allow"]);
      assert.equal(rows[1].evals[0].cached, true);
      assert.equal(s.requests.length, 2);

      // replay
      const session = join(t.root, "s.jsonl");
      const call = (id: string, command: string, ts: number) =>
        JSON.stringify({
          type: "message",
          timestamp: new Date(ts).toISOString(),
          message: {
            role: "assistant",
            content: [{ type: "toolCall", id, name: "bash", arguments: { command } }],
            timestamp: ts,
          },
        });
      writeFileSync(
        session,
        [
          JSON.stringify({ type: "session", id: "s", cwd: t.project }),
          call("r1", "python3 -c 'steal()'", 1),
          call("r2", "python3 -c 'fine()'", 2),
          call("r3", "git status", 3),
        ].join("\n"),
      );
      const replay = await cli(["replay", "--json", session], t);
      assert.equal(replay.code, 0, replay.err);
      const parsed = JSON.parse(replay.out);
      assert.deepEqual(parsed.rows.map((r: { action: string }) => r.action), [
        "deny",
        "allow",
        "allow",
      ]);
      assert.match(parsed.rows[0].reason, /rule deny\.exfil/);
      assert.equal(s.requests.length, 4);
      const table = await cli(["replay", session], t);
      assert.match(table.out, /deny +bash +open +python3 -c 'steal\(\)'/);
      assert.equal(s.requests.length, 6, "each CLI run has its own cache");

      const log = readLog(t).filter((l) => l.event === "eval");
      assert.deepEqual([...new Set(log.map((l) => l.origin))].sort(), ["check", "replay"]);
    } finally {
      rmSync(t.root, { recursive: true, force: true });
    }
  });
});

Deno.test("evals: check and replay send nothing without a decisions block", async () => {
  await withStandIn(bySource({}), async (s) => {
    const t = tree({
      policies: { open: { defaultAction: "allow", rules: [] } },
      locations: { "~/project": "open" },
    });
    try {
      const one = await cli(
        ["check", "--tool", "bash", "--input", JSON.stringify({ command: "python3 -c 'x'" })],
        t,
      );
      assert.equal(JSON.parse(one.out).evals, undefined);
      const session = join(t.root, "s.jsonl");
      writeFileSync(
        session,
        [
          JSON.stringify({ type: "session", id: "s", cwd: t.project }),
          JSON.stringify({
            type: "message",
            message: {
              role: "assistant",
              content: [{
                type: "toolCall",
                id: "a",
                name: "bash",
                arguments: { command: "node -e 1" },
              }],
              timestamp: 1,
            },
          }),
        ].join("\n"),
      );
      const replay = await cli(["replay", "--json", session], t);
      assert.equal(JSON.parse(replay.out).rows[0].verdict.evals, undefined);
      assert.equal(s.requests.length, 0);
    } finally {
      rmSync(t.root, { recursive: true, force: true });
    }
  });
});
