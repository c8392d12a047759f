import assert from "node:assert/strict";
import { readSession, replaySessions } from "./replay.ts";
import { configFrom, ctxIn } from "./testing.ts";

const config = configFrom({
  policies: {
    project: {
      defaultAction: "allow",
      rules: [{ action: "nudge", tool: "read", message: "Prefer the index." }],
    },
    outside: { defaultAction: "deny", rules: [] },
  },
  locations: { "/": "outside", "/work/a": "project" },
  nudgeTimeout: { maxNudges: 3, windowSeconds: 60 },
});

/** A session file with one assistant message per call, a second apart. */
function session(name: string, cwd: string, calls: [string, Record<string, unknown>][]) {
  const lines = [JSON.stringify({ type: "session", version: 3, id: name, cwd })];
  calls.forEach(([tool, args], i) => {
    lines.push(JSON.stringify({
      type: "message",
      id: `m${i}`,
      message: {
        role: "assistant",
        content: [{ type: "toolCall", id: `${name}-${i}`, name: tool, arguments: args }],
        timestamp: 1_700_000_000_000 + i * 1000,
      },
    }));
  });
  return readSession(`${name}.jsonl`, lines.join("\n"));
}

const { home, env, fs } = ctxIn("/work/a", { files: ["/work/a/x.ts", "/work/b/x.ts"] });
const base = { home, env, fs };

Deno.test("replay: a repeated call gets the same verdict, and the breakers still count it", () => {
  const rows = replaySessions(
    config,
    [
      session("s", "/work/a", [["read", { path: "x.ts" }], ["read", { path: "x.ts" }], [
        "read",
        { path: "x.ts" },
      ]]),
    ],
    base,
    { parser: null },
  );
  assert.deepEqual(rows.map((r) => r.engine), ["nudge", "nudge", "nudge"]);
  assert.deepEqual(rows.map((r) => r.action), ["nudge", "nudge", "deny"]);
  assert.equal(rows[2].escalation, "nudgeTimeout");
  // The escalation lives in the row; the engine's verdict is not changed by it.
  assert.equal(rows[2].verdict.action, "nudge");
  assert.deepEqual(rows[0].verdict, rows[2].verdict);
});

Deno.test("replay: the same call in another cwd is decided there", () => {
  const rows = replaySessions(
    config,
    [
      session("a", "/work/a", [["read", { path: "x.ts" }], ["bash", { command: "cat x.ts" }]]),
      session("b", "/work/b", [["read", { path: "x.ts" }], ["bash", { command: "cat x.ts" }]]),
    ],
    base,
    { parser: null },
  );
  assert.deepEqual(rows.map((r) => [r.session, r.engine]), [
    ["a.jsonl", "nudge"],
    ["a.jsonl", "allow"],
    ["b.jsonl", "deny"],
    ["b.jsonl", "deny"],
  ]);
  assert.equal(rows[2].verdict.stages[0].targets[0].path, "/work/b/x.ts");
});

Deno.test("replay: calls differing only in their input are decided apart", () => {
  const rows = replaySessions(
    config,
    [
      session("s", "/work/a", [["read", { path: "x.ts" }], ["read", { path: "/work/b/x.ts" }], [
        "read",
        { path: "x.ts", offset: 10 },
      ]]),
    ],
    base,
    { parser: null },
  );
  assert.deepEqual(rows.map((r) => r.engine), ["nudge", "deny", "nudge"]);
});

Deno.test("replay: a config edited during a long run applies from the next check on", () => {
  const strict = configFrom({
    policies: { p: { defaultAction: "deny", rules: [] } },
    locations: { "/": "p" },
  });
  const calls: [string, Record<string, unknown>][] = Array.from(
    { length: 1200 },
    (_, i) => ["read", { path: `f${i}.ts` }],
  );
  let asked = 0;
  const rows = replaySessions(config, [session("long", "/work/a", calls)], base, {
    parser: null,
    current: () => ({ config: ++asked >= 2 ? strict : config, base: null }),
  });
  // Asked before the session, then every 500 calls: the edit shows from call 500 on.
  assert.equal(asked, 3);
  assert.equal(rows[498].engine, "nudge");
  assert.equal(rows[499].engine, "deny");
  assert.equal(rows[1199].engine, "deny");
});
