import assert from "node:assert/strict";
import { RESTRICTIVENESS, strictest, TIE_BREAK } from "./action.ts";
import { bash, configFrom, ctxIn, decideIn } from "../testing.ts";
import { OUTSIDE_SANDBOX_NOTE } from "./sandbox_action.ts";

const withSandbox = (extra: object = {}) =>
  configFrom({
    policies: {
      project: {
        defaultAction: "allow",
        rules: [
          { action: "ask", tool: "bash", pattern: "git push *" },
          { action: "sandbox", tool: "bash", pattern: "npm test*" },
          { action: "deny", tool: "bash", pattern: "rm -rf /*" },
        ],
      },
      outside: { defaultAction: "ask", rules: [] },
      secrets: { defaultAction: "deny", rules: [] },
    },
    locations: { "/": "outside", "$cwd": "project", "~/secrets": "secrets" },
    pathProtection: { ".env": "ask", "~/.ssh/**": "deny" },
    sandbox: { enabled: true },
    ...extra,
  });

const ctx = ctxIn("/home/user/p", { files: ["/home/user/p/setup.py"] });

Deno.test("sandbox sits between log and ask; the tie-break puts it between nudge and ask", () => {
  assert.ok(RESTRICTIVENESS.log < RESTRICTIVENESS.sandbox);
  assert.ok(RESTRICTIVENESS.sandbox < RESTRICTIVENESS.ask);
  assert.equal(strictest(["allow", "sandbox", "log", "nudge"]), "sandbox");
  assert.equal(strictest(["sandbox", "ask"]), "ask");
  assert.ok(TIE_BREAK.nudge < TIE_BREAK.sandbox && TIE_BREAK.sandbox < TIE_BREAK.ask);
});

Deno.test("a sandbox rule sandboxes; a deny or an ask of the same call stays", async () => {
  const c = withSandbox();
  assert.equal((await bash(c, ctx, "npm test")).action, "sandbox");
  assert.equal((await bash(c, ctx, "npm test && git push origin main")).action, "ask");
  assert.equal((await bash(c, ctx, "npm test; rm -rf /x")).action, "deny");
  assert.equal((await bash(c, ctx, "npm test; cat ~/.ssh/id_rsa")).action, "deny");
  assert.equal((await bash(c, ctx, "npm test; cat ~/secrets/a")).action, "deny");
  assert.equal((await bash(c, ctx, "npm test > .env")).action, "ask");
});

/** No rule asks or denies: what an unknown command could meet is the policies' defaults. */
const unseenConfig = () =>
  configFrom({
    policies: {
      project: { defaultAction: "allow", rules: [] },
      outside: { defaultAction: "ask", rules: [] },
    },
    locations: { "/": "outside", "$cwd": "project" },
    pathProtection: { ".env": "ask" },
    sandbox: { enabled: true },
  });

Deno.test("what only asks because it cannot be seen runs sandboxed", async () => {
  const c = unseenConfig();
  for (
    const cmd of [
      "$CMD build",
      "./gen | bash",
      "cat $UNKNOWN",
      'sh -c "$CODE"',
      'eval "$(./gen)"',
      "cat /nowhere/x{1..100}*/x", // (a glob not expanded: braces past the bound)
    ]
  ) {
    const v = await bash(c, ctx, cmd);
    assert.equal(v.action, "sandbox", `${cmd}: ${v.action} ${JSON.stringify(v.stages)}`);
  }
});

Deno.test("what a rule or a protection asks, or a seen place's policy asks, still asks", async () => {
  for (
    const cmd of [
      "cat .env",
      "cat /etc/passwd",
      "$CMD /etc/passwd",
      "echo x > /etc/x",
      "cat $X > /etc/y",
      "$CMD > .env",
      "./gen | bash > /etc/z",
    ]
  ) {
    const v = await bash(unseenConfig(), ctx, cmd);
    assert.equal(v.action, "ask", `${cmd}: ${v.action}`);
  }
  // A user's ask rule: an unknown command could be it (`git push` runs as well in a sandbox).
  const c = withSandbox();
  for (const cmd of ["git push origin main", "$CMD x", "./gen | bash"]) {
    const v = await bash(c, ctx, cmd);
    assert.ok(v.action === "ask" || v.action === "deny", `${cmd}: ${v.action}`);
  }
  // Unseen, but where it may reach a deny: deny stays deny.
  assert.equal((await bash(c, ctx, "cat ~/secrets/$X")).action, "deny");
  assert.equal((await bash(c, ctx, "cat ~/.ssh/$X")).action, "deny");
  assert.equal((await bash(c, ctx, "$CMD x")).action, "deny");
});

Deno.test("without the sandbox block, what cannot be seen asks as before", async () => {
  const c = configFrom({
    policies: { project: { defaultAction: "allow", rules: [] } },
    locations: { "$cwd": "project" },
    defaultPolicy: "project",
  });
  assert.equal((await bash(c, ctx, "$CMD build")).action, "ask");
  assert.equal((await bash(c, ctx, "./gen | bash")).action, "ask");
});

Deno.test("pi's read tools proceed under sandbox; write, edit and other tools ask", async () => {
  const c = configFrom({
    policies: { project: { defaultAction: "sandbox", rules: [] } },
    locations: { "$cwd": "project" },
    sandbox: {},
  });
  for (const tool of ["read", "grep", "find", "ls"]) {
    const v = await decideIn(c, ctx, tool, { path: "setup.py", pattern: "x" });
    assert.equal(v.action, "sandbox", tool);
  }
  for (const tool of ["write", "edit", "web_fetch"]) {
    const v = await decideIn(c, ctx, tool, { path: "setup.py", content: "" });
    assert.equal(v.action, "ask", tool);
    assert.ok(v.stages[0].targets.some((t) => t.note === OUTSIDE_SANDBOX_NOTE), tool);
  }
  assert.equal((await bash(c, ctx, "make")).action, "sandbox");
});
