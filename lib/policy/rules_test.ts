import assert from "node:assert/strict";
import { stricter } from "./action.ts";
import { evaluatePolicy } from "./rules.ts";
import type { Policy } from "../types.ts";

const bash = (policy: Policy, command: string) =>
  evaluatePolicy(policy, {
    tool: "bash",
    forms: [command],
    stage: { argv: command.split(" "), writes: false },
  });

Deno.test("the more specific pattern wins: git commit -m fix asks, git status is allowed", () => {
  const p: Policy = {
    defaultAction: "deny",
    rules: [{ action: "allow", tool: "bash", pattern: "git *" }, {
      action: "ask",
      tool: "bash",
      pattern: "git commit *",
    }],
  };
  const r = bash(p, 'git commit -m "fix"');
  assert.equal(r.action, "ask");
  assert.equal(r.score, 11);
  assert.equal(bash(p, "git status").action, "allow");
  assert.equal(bash(p, "git status").score, 4);
  assert.equal(bash(p, "ls").action, "deny");
  assert.equal(bash(p, "ls").rule, null);
});

Deno.test("tie-break at equal score: allow > nudge > ask > deny > log", () => {
  const tie = (a: Policy["rules"][number]["action"], b: Policy["rules"][number]["action"]) =>
    bash({
      defaultAction: "deny",
      rules: [
        { action: a, tool: "bash", pattern: "git *", message: "m" },
        { action: b, tool: "bash", pattern: "git *", message: "m" },
      ],
    }, "git x").action;
  assert.equal(tie("allow", "deny"), "allow");
  assert.equal(tie("deny", "allow"), "allow");
  assert.equal(tie("nudge", "deny"), "nudge");
  assert.equal(tie("ask", "deny"), "ask");
  assert.equal(tie("deny", "log"), "deny");
  assert.equal(tie("log", "ask"), "ask");
  assert.equal(tie("nudge", "ask"), "nudge");
});

Deno.test("tool globs score by their literal prefix; a bash rule without pattern scores 0", () => {
  const p: Policy = {
    defaultAction: "allow",
    rules: [
      { action: "ask", tool: "github_create_pull_request" },
      { action: "deny", tool: "github_delete_*" },
      { action: "log", tool: "github_*" },
      { action: "deny", tool: "bash" },
      { action: "allow", tool: "bash", pattern: "ls *" },
    ],
  };
  const tool = (name: string) => evaluatePolicy(p, { tool: name });
  assert.equal(tool("github_create_pull_request").action, "ask");
  assert.equal(tool("github_create_pull_request").score, 26);
  assert.equal(tool("github_delete_repo").action, "deny");
  assert.equal(tool("github_list_issues").action, "log");
  assert.equal(tool("github_list_issues").score, 7);
  assert.equal(tool("read").action, "allow");
  assert.equal(bash(p, "ls -la").action, "allow");
  assert.equal(bash(p, "cat x").action, "deny");
  assert.equal(bash(p, "cat x").score, 0);
});

Deno.test("pattern rules never match non-bash tools; tool '*' matches everything", () => {
  const p: Policy = { defaultAction: "allow", rules: [{ action: "deny", tool: "*" }] };
  assert.equal(evaluatePolicy(p, { tool: "read" }).action, "deny");
  assert.equal(bash(p, "ls").action, "deny");
});

Deno.test("every form of a command is matched; the most restrictive winner counts", () => {
  const p: Policy = {
    defaultAction: "allow",
    rules: [{ action: "deny", tool: "bash", pattern: "rm *" }, {
      action: "allow",
      tool: "bash",
      pattern: "/bin/*",
    }],
  };
  const r = evaluatePolicy(p, {
    tool: "bash",
    forms: ["/bin/rm -rf x", "rm -rf x"],
    stage: { argv: ["/bin/rm", "-rf", "x"], writes: false },
  });
  assert.equal(r.action, "deny");
});

Deno.test("an unknown command gets the worst bash action of the policy, at least ask", () => {
  const p: Policy = {
    defaultAction: "allow",
    rules: [{ action: "log", tool: "bash", pattern: "x *" }],
  };
  assert.equal(evaluatePolicy(p, { tool: "bash", unknown: true }).action, "ask");
  const q: Policy = {
    defaultAction: "allow",
    rules: [{ action: "deny", tool: "bash", pattern: "rm *" }],
  };
  assert.equal(evaluatePolicy(q, { tool: "bash", unknown: true }).action, "deny");
});

Deno.test("$safe-bash rules do not match when the stage's flags write", () => {
  const p: Policy = {
    defaultAction: "deny",
    rules: [{ action: "allow", tool: "bash", pattern: "sort *", preset: "$safe-bash" }],
  };
  const sub = (argv: string[], writes = false) =>
    evaluatePolicy(p, { tool: "bash", forms: [argv.join(" ")], stage: { argv, writes } }).action;
  assert.equal(sub(["sort", "-k2", "f"]), "allow");
  assert.equal(sub(["sort", "-o", "f", "f"]), "deny");
  assert.equal(sub(["sort", "f"], true), "deny");
});

Deno.test("restrictiveness: deny > ask > log > nudge > allow", () => {
  assert.equal(stricter("allow", "nudge"), "nudge");
  assert.equal(stricter("nudge", "log"), "log");
  assert.equal(stricter("log", "ask"), "ask");
  assert.equal(stricter("deny", "ask"), "deny");
});
