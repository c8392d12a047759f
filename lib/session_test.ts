import assert from "node:assert/strict";
import { applySession, newSession } from "./session.ts";
import { bash, configFrom, ctxIn, decideIn } from "./testing.ts";

const guided = configFrom({
  policies: {
    guided: {
      defaultAction: "allow",
      rules: [
        { action: "nudge", tool: "read", message: "Prefer pluck_read for repo files." },
        { action: "nudge", tool: "bash", pattern: "grep *", message: "Prefer pluck_grep." },
      ],
    },
  },
  locations: { "/home/user/project": "guided" },
  nudgeTimeout: { maxNudges: 3, windowSeconds: 60 },
});
const ctx = ctxIn("/home/user/project");

Deno.test("nudgeTimeout: the spec's table — nudge, nudge, deny, then the counter starts over", async () => {
  const state = newSession();
  const read = await decideIn(guided, ctx, "read", { path: "src/main.ts" });
  const got = [0, 1, 2, 3].map((i) => applySession(state, read, guided, 1000 + i * 1000).action);
  assert.deepEqual(got, ["nudge", "nudge", "deny", "nudge"]);
});

Deno.test("nudgeTimeout: the escalated deny names the ignored nudge", async () => {
  const state = newSession();
  const read = await decideIn(guided, ctx, "read", { path: "src/main.ts" });
  applySession(state, read, guided, 0);
  applySession(state, read, guided, 1);
  const third = applySession(state, read, guided, 2);
  assert.equal(third.escalation, "nudgeTimeout");
  assert.equal(
    third.reason,
    '[pi-controls] Access denied by policy: read — blocked path: "/home/user/project/src/main.ts".\n' +
      'The restriction is on the PATH "/home/user/project/src/main.ts" — not on the tool.\n' +
      "Do NOT retry with a different tool; all access to these paths is blocked.\n" +
      'You were repeatedly warned: "Prefer pluck_read for repo files." You MUST switch approach now.',
  );
});

Deno.test("nudgeTimeout: each rule counts on its own, and old nudges age out", async () => {
  const state = newSession();
  const read = await decideIn(guided, ctx, "read", { path: "a" });
  const grep = await bash(guided, ctx, "grep -r foo src");
  assert.equal(applySession(state, read, guided, 0).action, "nudge");
  assert.equal(applySession(state, read, guided, 1000).action, "nudge");
  assert.equal(applySession(state, grep, guided, 2000).action, "nudge");
  assert.equal(applySession(state, grep, guided, 3000).action, "nudge");
  // At 61.5 s both earlier read nudges have aged out: the count starts again from one.
  assert.equal(applySession(state, read, guided, 61_500).action, "nudge");
  assert.equal(applySession(state, read, guided, 62_000).action, "nudge");
  assert.equal(applySession(state, read, guided, 62_500).action, "deny");
});

Deno.test("agentTimeout: with maxDenies 3 the fourth denied call in the window asks", async () => {
  const c = configFrom({
    policies: {
      cautious: {
        defaultAction: "deny",
        rules: [{ action: "allow", tool: "bash", pattern: "git *" }],
      },
    },
    locations: { "/w": "cautious" },
    agentTimeout: { maxDenies: 3, windowSeconds: 60 },
  });
  const w = ctxIn("/w");
  const state = newSession();
  const deny = await bash(c, w, "curl x");
  const allow = await bash(c, w, "git status");
  const seq = [0, 1000, 2000].map((t) => applySession(state, deny, c, t).action);
  assert.deepEqual(seq, ["deny", "deny", "deny"]);
  assert.equal(applySession(state, allow, c, 2500).action, "allow");
  const fourth = applySession(state, deny, c, 3000);
  assert.equal(fourth.action, "ask");
  assert.equal(fourth.escalation, "agentTimeout");
  assert.equal(applySession(state, deny, c, 4000).action, "ask"); // escalation continues
  // At 62.5 s the denies at 0 s, 1 s and 2 s have aged out; 3 s and 4 s remain: 2 < 3.
  assert.equal(applySession(state, deny, c, 62_500).action, "deny");
});

Deno.test("without breakers configured nothing escalates", async () => {
  const c = configFrom({
    policies: { p: { defaultAction: "deny", rules: [] } },
    locations: { "/w": "p" },
  });
  const state = newSession();
  const v = await bash(c, ctxIn("/w"), "x");
  for (let i = 0; i < 10; i++) assert.equal(applySession(state, v, c, i).action, "deny");
});
