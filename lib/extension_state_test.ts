/**
 * The extension's session state without pi: breakers tripping and starting over, session allows
 * matching, eval replies cached per session, nudges held for their result, the mode and the last
 * decisions.
 */
import assert from "node:assert/strict";
import {
  allowedForSession,
  allowForSession,
  applyBreakers,
  classifyInSession,
  holdNudge,
  isProtectionAsk,
  newExtensionState,
  nudgedContent,
  parseMode,
  RECENT_DECISIONS,
  remember,
  sessionKey,
  startSession,
  takeNudge,
} from "./extension_state.ts";
import { nudgeText } from "./policy/messages.ts";
import { bash, configFrom, ctxIn, decideIn } from "./testing.ts";
import { choice, replyWith, startStandIn } from "./testing_decisions.ts";

const CONFIG = configFrom({
  policies: {
    guarded: {
      defaultAction: "allow",
      rules: [
        { action: "ask", tool: "bash", pattern: "git push *" },
        { action: "deny", tool: "bash", pattern: "curl *" },
        { action: "nudge", tool: "bash", pattern: "grep *", message: "Prefer rg." },
      ],
    },
  },
  locations: { "/w": "guarded" },
  pathProtection: { "~/.ssh/**": "ask" },
  agentTimeout: { maxDenies: 2, windowSeconds: 60 },
  nudgeTimeout: { maxNudges: 3, windowSeconds: 60 },
});
const W = ctxIn("/w");

Deno.test("state: a fresh state enforces, with an empty session", () => {
  const s = newExtensionState();
  assert.equal(s.mode, "enforce");
  assert.equal(s.allows.size, 0);
  assert.equal(s.nudges.size, 0);
  assert.deepEqual(s.recent, []);
  assert.equal(s.evalCache.requests, 0);
  assert.match(s.evalSession, /^[0-9a-f-]{36}$/);
});

Deno.test("state: the breakers trip (nudgeTimeout, agentTimeout) and a new session resets them", async () => {
  const s = newExtensionState();
  const grep = await bash(CONFIG, W, "grep -r x src");
  const nudged = [0, 1, 2].map((i) => applyBreakers(s, grep, CONFIG, 1000 + i).action);
  assert.deepEqual(nudged, ["nudge", "nudge", "deny"]);
  const curl = await bash(CONFIG, W, "curl x");
  // The nudge escalated to a deny counts as one: one more deny fills the window, the next asks.
  assert.equal(applyBreakers(s, curl, CONFIG, 2000).action, "deny");
  const asked = applyBreakers(s, curl, CONFIG, 3000);
  assert.equal(asked.action, "ask");
  assert.equal(asked.escalation, "agentTimeout");
  assert.match(asked.notification!, /\(agentTimeout: 2 denied calls in 60s\)$/);
  startSession(s);
  assert.equal(applyBreakers(s, curl, CONFIG, 4000).action, "deny");
  assert.equal(applyBreakers(s, grep, CONFIG, 4000).action, "nudge");
});

Deno.test("state: with no config (a broken one) the verdict's own action and texts", async () => {
  const s = newExtensionState();
  const curl = await bash(CONFIG, W, "curl x");
  for (let i = 0; i < 5; i++) {
    assert.deepEqual(applyBreakers(s, curl, null, i), {
      action: "deny",
      reason: curl.reason,
      notification: curl.notification,
    });
  }
  assert.deepEqual(s.breakers.denies, []);
});

Deno.test("state: a session allow matches the same command in the same place, until the session ends", async () => {
  const s = newExtensionState();
  const push = await bash(CONFIG, W, "git push origin main");
  assert.equal(allowedForSession(s, push), false);
  allowForSession(s, push);
  assert.equal(allowedForSession(s, push), true);
  assert.equal(allowedForSession(s, await bash(CONFIG, W, "git push origin main")), true);
  assert.equal(allowedForSession(s, await bash(CONFIG, W, "git push origin dev")), false);
  const elsewhere = await bash(CONFIG, ctxIn("/w/sub"), "git push origin main");
  assert.equal(elsewhere.action, "ask");
  assert.equal(allowedForSession(s, elsewhere), false, "another directory is another key");
  startSession(s);
  assert.equal(allowedForSession(s, push), false);
});

Deno.test("state: a session key of another tool is its targets, lexical and resolved", async () => {
  const read = await decideIn(CONFIG, W, "read", { path: "a.txt" });
  assert.equal(sessionKey(read), "read\u0000path:/w/a.txt\u0001");
  const other = await decideIn(CONFIG, W, "read", { path: "b.txt" });
  assert.notEqual(sessionKey(other), sessionKey(read));
  // A symlink that now leads elsewhere is another key.
  const linked = (to: string) =>
    decideIn(CONFIG, ctxIn("/w", { files: [to], links: { "/w/l": to } }), "read", { path: "l" });
  assert.notEqual(sessionKey(await linked("/w/x")), sessionKey(await linked("/w/y")));
});

Deno.test("state: a protected path is never allowed for the session", async () => {
  const s = newExtensionState();
  const key = await decideIn(CONFIG, W, "read", { path: "/home/user/.ssh/id_ed25519" });
  assert.equal(key.action, "ask");
  assert.equal(isProtectionAsk(key), true);
  allowForSession(s, key);
  assert.equal(allowedForSession(s, key), false);
  assert.equal(isProtectionAsk(await bash(CONFIG, W, "git push origin main")), false);
});

Deno.test("state: eval replies are cached per session; a session allow is not asked about", async () => {
  const server = startStandIn(() => replyWith({ write_scope: choice("unknown", { unknown: 1 }) }));
  try {
    const config = configFrom({
      policies: { open: { defaultAction: "allow", rules: [] } },
      locations: { "/w": "open" },
      decisions: { url: server.url },
    });
    const ctx = ctxIn("/w", { env: { OPENROUTER_API_KEY: "sk-or-test-0123456789" } });
    const s = newExtensionState();
    const decided = await bash(config, ctx, "python3 -c 'unsure()'");
    const first = await classifyInSession(s, decided, config, ctx, { toolCallId: "c1" });
    assert.equal(first.action, "ask");
    const again = await classifyInSession(s, decided, config, ctx, { toolCallId: "c2" });
    assert.equal(again.action, "ask");
    assert.equal(server.requests.length, 1, "the second is served from the session's cache");
    assert.equal(s.evalCache.requests, 1);
    allowForSession(s, decided);
    const allowed = await classifyInSession(s, decided, config, ctx, { toolCallId: "c3" });
    assert.equal(allowed.action, decided.action);
    assert.equal(allowed.evals?.[0].skipped, "allowed for session");
    assert.equal(server.requests.length, 1);
    const before = s.evalSession;
    startSession(s);
    assert.notEqual(s.evalSession, before);
    await classifyInSession(s, decided, config, ctx, { toolCallId: "c4" });
    assert.equal(server.requests.length, 2, "a new session: a fresh cache");
    assert.equal(server.requests[0].body.session_id, before);
    assert.equal(server.requests[1].body.session_id, s.evalSession);
  } finally {
    await server.close();
  }
});

Deno.test("state: a nudge waits for its call's result, is taken once, and goes with the session", () => {
  const s = newExtensionState();
  holdNudge(s, "c1", "Prefer rg.");
  holdNudge(s, "c2", "Prefer fd.");
  assert.equal(takeNudge(s, "c3"), undefined);
  assert.equal(takeNudge(s, "c1"), "Prefer rg.");
  assert.equal(takeNudge(s, "c1"), undefined);
  startSession(s);
  assert.equal(takeNudge(s, "c2"), undefined);
});

Deno.test("state: the nudge goes into the first text block, or in front of the others", () => {
  const text = nudgeText("Prefer rg.");
  assert.deepEqual(
    nudgedContent([{ type: "text", text: "out" }, { type: "text", text: "more" }], "Prefer rg."),
    [
      { type: "text", text: `${text}\n\nout` },
      { type: "text", text: "more" },
    ],
  );
  const image = { type: "image" };
  const content = [image];
  assert.deepEqual(nudgedContent(content, "Prefer rg."), [{ type: "text", text }, image]);
  assert.deepEqual(content, [image], "the result's own content is not changed");
  assert.deepEqual(nudgedContent([], "Prefer rg."), [{ type: "text", text }]);
});

Deno.test("state: the modes; the mode and the last decisions outlive a session", () => {
  assert.equal(parseMode("inform"), "inform");
  assert.equal(parseMode("ignore"), "ignore");
  assert.equal(parseMode("enforce"), "enforce");
  assert.equal(parseMode("loud"), null);
  const s = newExtensionState();
  s.mode = "inform";
  remember(s, "allow bash ls", Date.UTC(2025, 0, 1, 12, 34, 56));
  startSession(s);
  assert.equal(s.mode, "inform");
  assert.deepEqual(s.recent, ["12:34:56 allow bash ls"]);
});

Deno.test("state: the last decisions keep the newest ten", () => {
  const s = newExtensionState();
  for (let i = 0; i < 15; i++) remember(s, `allow bash ${i}`, i * 1000);
  assert.equal(s.recent.length, RECENT_DECISIONS);
  assert.equal(s.recent[0], "00:00:05 allow bash 5");
  assert.equal(s.recent.at(-1), "00:00:14 allow bash 14");
});
