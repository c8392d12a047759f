/** Merging the global and the project config, and the checks and warnings on the merged config. */
import assert from "node:assert/strict";
import { formatConfigError, loadConfigTexts, type LoadResult } from "./config.ts";
import { assertOnlyError, errors, G, HOME, lines, ok, OPEN, P, project } from "./testing_config.ts";

// ---------------------------------------------------------------------------------------------
// Merging global and project

function merged(globalText: string, projectText: string): LoadResult {
  return loadConfigTexts([
    { file: G, text: globalText, role: "global", root: null },
    { file: P, text: projectText, role: "project", root: "/proj" },
  ], { home: HOME });
}

Deno.test("merge: project wins, objects deep-merge, rules arrays replace", () => {
  const config = ok(merged(
    lines(
      "{",
      '  "policies": {',
      '    "base": { "defaultAction": "ask", "rules": [ { "action": "deny", "tool": "write" } ] },',
      '    "other": { "defaultAction": "deny", "rules": [] }',
      "  },",
      '  "defaultPolicy": "base"',
      "}",
    ),
    lines(
      "{",
      '  "policies": {',
      '    "base": { "rules": [ { "action": "allow", "tool": "read" } ] },',
      '    "other": { "defaultAction": "log" },',
      '    "mine": { "defaultAction": "allow", "rules": [] }',
      "  },",
      '  "defaultPolicy": "mine"',
      "}",
    ),
  ));
  assert.deepEqual(config.policies, {
    base: { defaultAction: "ask", rules: [{ action: "allow", tool: "read" }] },
    other: { defaultAction: "log", rules: [] },
    mine: { defaultAction: "allow", rules: [] },
  });
  assert.equal(config.defaultPolicy, "mine");
  assert.deepEqual(config.files, [G, P]);
});

Deno.test("merge: a policy missing a field after merging is reported where it was last defined", () => {
  const r = merged(
    `{ ${OPEN} }`,
    lines("{", '  "policies": {', '    "new": { "rules": [] }', "  }", "}"),
  );
  assertOnlyError(r, `${P}:3:5`, 'policies.new: missing "defaultAction"');
});

Deno.test("merge: errors point into the file that supplied the value", () => {
  const r = merged(
    lines(
      "{",
      '  "policies": { "g": { "defaultAction": "deny", "rules": [ { "tool": 1, "action": "allow" } ] } }',
      "}",
    ),
    lines("{", '  "locations": {', '    "/x": "nope"', "  }", "}"),
  );
  assert.deepEqual(errors(r).map((e) => e.split(": ")[0]), [`${G}:2:70`, `${P}:3:11`]);
});

Deno.test("merge: approvalRules concatenate, global first; tests concatenate", () => {
  const config = ok(merged(
    `{ ${OPEN}, "approvalRules": [ { "action": "allow", "tool": "bash", "pattern": "ls *", "policy": "open" } ], "tests": [ { "tool": "read", "input": {}, "expect": "allow" } ] }`,
    '{ "approvalRules": [ { "action": "allow", "tool": "write" } ], "tests": [ { "tool": "write", "input": {}, "expect": "deny" } ] }',
  ));
  assert.deepEqual(config.approvalRules, [
    { action: "allow", tool: "bash", pattern: "ls *", policy: "open" },
    { action: "allow", tool: "write" },
  ]);
  assert.deepEqual(config.tests.map((t) => t.tool), ["read", "write"]);
});

Deno.test("merge: an approval rule's policy may be defined in the other file", () => {
  const r = merged(
    '{ "approvalRules": [ { "action": "allow", "tool": "read", "policy": "proj" } ] }',
    '{ "policies": { "proj": { "defaultAction": "deny", "rules": [] } } }',
  );
  assert.equal(ok(r).approvalRules[0].policy, "proj");
});

Deno.test("merge: pathProtection is additive and can only get stricter", () => {
  const config = ok(merged(
    '{ "pathProtection": { ".env": "deny", "~/.aws/**": "ask", "*.log": "log" } }',
    '{ "pathProtection": { ".env": "log", "~/.aws/**": "deny", "*.pem": "ask" } }',
  ));
  assert.deepEqual(config.pathProtection, [
    { glob: ".env", action: "deny", base: null, file: G },
    { glob: "~/.aws/**", action: "deny", base: "/proj", file: P },
    { glob: "*.log", action: "log", base: null, file: G },
    { glob: "*.pem", action: "ask", base: "/proj", file: P },
  ]);
});

Deno.test("merge: locations merge by key, each with the base of its file", () => {
  const config = ok(merged(
    `{ ${OPEN}, "locations": { "/srv": "open", "$cwd": "open", "~/w": "open" } }`,
    '{ "policies": { "p": { "defaultAction": "deny", "rules": [] } }, "locations": { "$cwd": "p", "lib": "open" } }',
  ));
  assert.deepEqual(config.locations, [
    { key: "/srv", policy: "open", base: null, file: G },
    { key: "$cwd", policy: "p", base: "/proj", file: P },
    { key: "~/w", policy: "open", base: null, file: G },
    { key: "lib", policy: "open", base: "/proj", file: P },
  ]);
});

Deno.test("merge: a later null replaces timeouts, decisions and defaultPolicy", () => {
  const config = ok(merged(
    `{ ${OPEN}, "defaultPolicy": "open", "agentTimeout": { "maxDenies": 3, "windowSeconds": 60 }, "nudgeTimeout": { "maxNudges": 3, "windowSeconds": 60 }, "decisions": { "model": "m" } }`,
    '{ "defaultPolicy": null, "agentTimeout": null, "nudgeTimeout": null, "decisions": null }',
  ));
  assert.equal(config.defaultPolicy, null);
  assert.equal(config.agentTimeout, null);
  assert.equal(config.nudgeTimeout, null);
  assert.equal(config.decisions, null);
});

Deno.test("merge: timeouts and decisions weights deep-merge", () => {
  const config = ok(merged(
    '{ "agentTimeout": { "maxDenies": 3, "windowSeconds": 60 }, "decisions": { "model": "m", "weights": { "destructive": 100, "network": 25 } } }',
    '{ "agentTimeout": { "maxDenies": 5 }, "decisions": { "weights": { "network": 5 } } }',
  ));
  assert.deepEqual(config.agentTimeout, { maxDenies: 5, windowSeconds: 60 });
  assert.deepEqual(config.decisions, { model: "m", weights: { destructive: 100, network: 5 } });
  // noThreshold <= yesThreshold is checked on the merged block.
  const r = merged(
    '{ "decisions": { "yesThreshold": 0.6 } }',
    '{ "decisions": { "noThreshold": 0.65 } }',
  );
  assertOnlyError(r, `${P}:1:33`, "noThreshold 0.65 is above yesThreshold 0.6");
});

Deno.test("merge: a broken global entry is reported even when the project overrides it", () => {
  const r = merged(
    '{ "agentTimeout": { "maxDenies": "three", "windowSeconds": 60 } }',
    '{ "agentTimeout": { "maxDenies": 3 } }',
  );
  assertOnlyError(r, `${G}:1:34`, "agentTimeout.maxDenies: expected a positive integer");
});

Deno.test("warning: two location keys naming the same directory with different policies", () => {
  const r = project(lines(
    "{",
    '  "policies": { "a": { "defaultAction": "allow", "rules": [] }, "b": { "defaultAction": "deny", "rules": [] } },',
    '  "locations": { "~/work": "a", "/home/me/work/": "b" }',
    "}",
  ));
  assert.equal(r.status, "ok");
  if (r.status !== "ok") return;
  assert.equal(r.warnings.length, 1);
  assert.match(
    formatConfigError(r.warnings[0]),
    /^\/proj\/\.pi\/extensions\/pi-controls\.jsonc:3:33: .*same directory \(\/home\/me\/work\) as "~\/work"/,
  );
  // A valid, unremarkable config has no warnings.
  const clean = project(`{ ${OPEN}, "locations": { "/": "open" } }`);
  assert.equal(clean.status, "ok");
  if (clean.status === "ok") assert.deepEqual(clean.warnings, []);
});
