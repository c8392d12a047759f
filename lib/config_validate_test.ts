/** Validating one config file: unknown keys, policies and rules, locations, every other field. */
import assert from "node:assert/strict";
import {
  assertHasError,
  assertOnlyError,
  errors,
  G,
  globalOnly,
  lines,
  ok,
  OPEN,
  P,
  project,
} from "./testing_config.ts";

// ---------------------------------------------------------------------------------------------
// Unknown keys and typos

Deno.test("a typo in defaultAction is reported at the key with a suggestion", () => {
  const r = project(lines(
    "{",
    '  "policies": {',
    '    "strict": {',
    '      "defaultAciton": "deny",',
    '      "rules": []',
    "    }",
    "  }",
    "}",
  ));
  assertHasError(
    r,
    `${P}:4:7`,
    'policies.strict: unknown key "defaultAciton"',
    'did you mean "defaultAction"?',
  );
  // The policy now lacks defaultAction, reported at the policy's key.
  assertHasError(r, `${P}:3:5`, 'policies.strict: missing "defaultAction"');
  assert.equal(errors(r).length, 2);
});

Deno.test("unknown keys everywhere are errors, with suggestions when close", () => {
  const r = project(lines(
    "{",
    '  "polices": {},',
    '  "policies": { "p": { "defaultAction": "deny", "rules": [',
    '    { "action": "deny", "tool": "bash", "patern": "rm *" },',
    '    { "action": "deny", "tool": "bash", "colour": "red" }',
    "  ] } },",
    '  "agentTimeout": { "maxDenies": 3, "windowSeconds": 60, "WindowSeconds": 1 },',
    '  "nudgeTimeout": { "maxNudge": 3, "windowSeconds": 60 },',
    '  "decisions": { "modle": "m" },',
    '  "tests": [ { "tool": "read", "input": {}, "expect": "allow", "expected": "deny" } ]',
    "}",
  ));
  assertHasError(r, `${P}:2:3`, 'unknown top-level key "polices"', 'did you mean "policies"?');
  assertHasError(
    r,
    `${P}:4:41`,
    'policies.p.rules[0]: unknown key "patern"',
    'did you mean "pattern"?',
  );
  assertHasError(r, `${P}:5:41`, 'policies.p.rules[1]: unknown key "colour"');
  assert.ok(!errors(r).some((e) => e.includes('"colour"') && e.includes("did you mean")));
  assertHasError(
    r,
    `${P}:7:58`,
    'agentTimeout: unknown key "WindowSeconds"',
    'did you mean "windowSeconds"?',
  );
  assertHasError(
    r,
    `${P}:8:21`,
    'nudgeTimeout: unknown key "maxNudge"',
    'did you mean "maxNudges"?',
  );
  // ...and the required maxNudges is then missing, reported at the nudgeTimeout key.
  assertHasError(r, `${P}:8:3`, 'nudgeTimeout: missing "maxNudges"');
  assertHasError(r, `${P}:9:18`, 'decisions: unknown key "modle"', 'did you mean "model"?');
  assertHasError(r, `${P}:10:64`, 'tests[0]: unknown key "expected"', 'did you mean "expect"?');
  assert.equal(errors(r).length, 8);
});

Deno.test("$schema is accepted and ignored", () => {
  const config = ok(project(`{ "$schema": "https://example.com/s.json", ${OPEN} }`));
  assert.deepEqual(Object.keys(config.policies), ["open"]);
});

// ---------------------------------------------------------------------------------------------
// Policies and rules

Deno.test("nudge as defaultAction gets the special message", () => {
  const r = project(lines(
    "{",
    '  "policies": {',
    '    "strict": { "defaultAction": "nudge", "rules": [] }',
    "  }",
    "}",
  ));
  assert.deepEqual(errors(r), [
    `${P}:3:34: policies.strict.defaultAction: "nudge" is not a valid defaultAction ` +
    `(nudge needs a message, use it on a rule); expected one of "allow", "ask", "deny", "log", ` +
    `"sandbox"`,
  ]);
});

Deno.test("policy shape: wrong types and missing fields", () => {
  const r = project(lines(
    "{",
    '  "policies": {',
    '    "a": [],',
    '    "b": { "defaultAction": 3, "rules": {} },',
    '    "c": { "rules": [] },',
    '    "d": { "defaultAction": "Deny", "rules": [] }',
    "  }",
    "}",
  ));
  assertHasError(r, `${P}:3:10`, "policies.a: expected a policy object", "found an array");
  assertHasError(
    r,
    `${P}:4:29`,
    "policies.b.defaultAction: expected one of",
    "found a number (3)",
  );
  assertHasError(r, `${P}:4:41`, "policies.b.rules: expected an array of rules", "an object");
  assertHasError(r, `${P}:5:5`, 'policies.c: missing "defaultAction"');
  assertHasError(
    r,
    `${P}:6:29`,
    '"Deny" is not a valid defaultAction',
    'did you mean "deny"?',
  );
  assert.equal(errors(r).length, 5);
  assertOnlyError(
    project('{ "policies": [] }'),
    `${P}:1:15`,
    "policies: expected an object mapping policy names to policies, found an array",
  );
});

Deno.test("rule checks: action, tool, pattern, message, policy", () => {
  const r = project(lines(
    "{",
    '  "policies": { "p": { "defaultAction": "deny", "rules": [',
    '    { "tool": "read" },',
    '    { "action": "block", "tool": "read" },',
    '    { "action": "allow" },',
    '    { "action": "allow", "tool": "" },',
    '    { "action": "allow", "tool": "read", "pattern": "*.ts" },',
    '    { "action": "nudge", "tool": "read" },',
    '    { "action": "nudge", "tool": "grep", "message": "" },',
    '    { "action": "allow", "tool": "bash", "pattern": 7 },',
    '    { "action": "allow", "tool": "read", "policy": "p" },',
    "    42",
    "  ] } }",
    "}",
  ));
  assertHasError(r, `${P}:3:5`, 'policies.p.rules[0]: missing "action"');
  assertHasError(
    r,
    `${P}:4:17`,
    'policies.p.rules[1].action: "block" is not a valid action',
    '"allow", "nudge", "ask", "deny", "log", "sandbox"',
  );
  assertHasError(r, `${P}:5:5`, 'policies.p.rules[2]: missing "tool"');
  assertHasError(r, `${P}:6:34`, "policies.p.rules[3].tool: must not be empty");
  assertHasError(
    r,
    `${P}:7:42`,
    "policies.p.rules[4].pattern: pattern is only evaluated for bash",
    'tool is "read"',
  );
  assertHasError(r, `${P}:8:5`, 'policies.p.rules[5]: missing "message"', "nudge");
  assertHasError(r, `${P}:9:53`, "policies.p.rules[6].message: must not be empty");
  assertHasError(
    r,
    `${P}:10:53`,
    "policies.p.rules[7].pattern: expected a command glob (a string), found a number (7)",
  );
  assertHasError(
    r,
    `${P}:11:42`,
    'policies.p.rules[8].policy: "policy" is only allowed in approvalRules',
  );
  assertHasError(
    r,
    `${P}:12:5`,
    'policies.p.rules[9]: expected a rule object ({ "action": …, "tool": … }) or "$safe-bash"',
    "found a number (42)",
  );
  assert.equal(errors(r).length, 10);
});

Deno.test("a message on a non-nudge rule is accepted; nudge keeps its message", () => {
  const config = ok(project(lines(
    "{",
    '  "policies": { "p": { "defaultAction": "allow", "rules": [',
    '    { "action": "deny", "tool": "write", "message": "not used" },',
    '    { "action": "nudge", "tool": "bash", "pattern": "grep *", "message": "use rg" }',
    "  ] } }",
    "}",
  )));
  assert.deepEqual(config.policies.p.rules[1], {
    action: "nudge",
    tool: "bash",
    pattern: "grep *",
    message: "use rg",
  });
  assert.equal(config.policies.p.rules[0].action, "deny");
});

Deno.test("$safe-bash expands in place, as a string and as a bash pattern", () => {
  const config = ok(project(lines(
    "{",
    '  "policies": {',
    '    "a": { "defaultAction": "deny", "rules": [',
    '      { "action": "deny", "tool": "write" },',
    '      "$safe-bash",',
    '      { "action": "ask", "tool": "edit" }',
    "    ] },",
    '    "b": { "defaultAction": "deny", "rules": [',
    '      { "action": "log", "tool": "bash", "pattern": "$safe-bash" }',
    "    ] }",
    "  }",
    "}",
  )));
  const a = config.policies.a.rules;
  assert.ok(a.length > 3);
  assert.deepEqual(a[0], { action: "deny", tool: "write" });
  assert.deepEqual(a[a.length - 1], { action: "ask", tool: "edit" });
  const expanded = a.slice(1, -1);
  assert.ok(expanded.every((r) => r.tool === "bash" && r.action === "allow"));
  assert.ok(expanded.every((r) => typeof r.pattern === "string" && r.pattern !== "$safe-bash"));
  const b = config.policies.b.rules;
  assert.equal(b.length, expanded.length);
  assert.ok(b.every((r) => r.tool === "bash" && r.action === "log"));
});

Deno.test("$safe-bash misuse: wrong string, non-bash tool, nudge action", () => {
  const r = project(lines(
    "{",
    '  "policies": { "p": { "defaultAction": "deny", "rules": [',
    '    "$safe_bash",',
    '    { "action": "allow", "tool": "read", "pattern": "$safe-bash" },',
    '    { "action": "nudge", "tool": "bash", "pattern": "$safe-bash" }',
    "  ] } }",
    "}",
  ));
  assertHasError(
    r,
    `${P}:3:5`,
    'policies.p.rules[0]: "$safe_bash" is not a valid rule',
    'did you mean "$safe-bash"?',
  );
  assertHasError(
    r,
    `${P}:4:53`,
    'policies.p.rules[1].pattern: "$safe-bash" only applies to tool "bash"',
  );
  assertHasError(
    r,
    `${P}:5:17`,
    'policies.p.rules[2].action: a "$safe-bash" rule cannot be "nudge"',
  );
  assert.equal(errors(r).length, 3);
});

// ---------------------------------------------------------------------------------------------
// Locations and defaultPolicy

Deno.test("locations: keys of every kind, bases and files", () => {
  const config = ok(project(lines(
    "{",
    `  ${OPEN},`,
    '  "locations": {',
    '    "$cwd": "open", "$cwd/tmp": "open", "/srv": "open", "~": "open", "~/w": "open",',
    '    "src": "open", "../sibling": "open"',
    "  }",
    "}",
  )));
  assert.deepEqual(
    config.locations.map((l) => l.key),
    ["$cwd", "$cwd/tmp", "/srv", "~", "~/w", "src", "../sibling"],
  );
  assert.ok(config.locations.every((l) => l.base === "/proj" && l.file === P));
  assert.ok(config.locations.every((l) => l.policy === "open"));
});

Deno.test("locations: unknown policy, bad keys, wrong types", () => {
  const r = project(lines(
    "{",
    '  "policies": { "strict": { "defaultAction": "deny", "rules": [] } },',
    '  "locations": {',
    '    "/work": "strct",',
    '    "": "strict",',
    '    "$home/x": "strict",',
    '    "~bob/x": "strict",',
    '    "/srv": 3',
    "  }",
    "}",
  ));
  assertHasError(
    r,
    `${P}:4:14`,
    'locations["/work"]: policy "strct" does not exist (defined policies: "strict")',
    'did you mean "strict"?',
  );
  assertHasError(r, `${P}:5:5`, "locations: a location key must not be empty");
  assertHasError(r, `${P}:6:5`, '"$home/x" uses an unknown variable', '"$cwd"');
  assertHasError(r, `${P}:7:5`, '"~bob/x" is not supported');
  assertHasError(
    r,
    `${P}:8:13`,
    'locations["/srv"]: expected a policy name (a string), found a number (3)',
  );
  assert.equal(errors(r).length, 5);
  assertOnlyError(
    project('{ "locations": { "/x": "p" } }'),
    `${P}:1:24`,
    'policy "p" does not exist (no policies are defined)',
  );
});

Deno.test("a relative location key in the global config is an error", () => {
  const r = globalOnly(lines(
    "{",
    `  ${OPEN},`,
    '  "locations": { "/ok": "open", "src/app": "open" }',
    "}",
  ));
  assert.deepEqual(errors(r), [
    `${G}:3:33: locations: "src/app" is relative; relative location keys are only allowed in a ` +
    `project config; write an absolute path or ~/…`,
  ]);
});

Deno.test("defaultPolicy: must name an existing policy, or be null", () => {
  assertOnlyError(
    project(lines("{", `  ${OPEN},`, '  "defaultPolicy": "opn"', "}")),
    `${P}:3:20`,
    'defaultPolicy: policy "opn" does not exist',
    'did you mean "open"?',
  );
  assertOnlyError(
    project(lines("{", `  ${OPEN},`, '  "defaultPolicy": true', "}")),
    `${P}:3:20`,
    "defaultPolicy: expected a policy name (a string) or null, found a boolean (true)",
  );
  assert.equal(ok(project(`{ ${OPEN}, "defaultPolicy": null }`)).defaultPolicy, null);
  assert.equal(ok(project(`{ ${OPEN}, "defaultPolicy": "open" }`)).defaultPolicy, "open");
});

// ---------------------------------------------------------------------------------------------
// approvalRules, pathProtection, timeouts, decisions, tests

Deno.test("approvalRules: rules with a policy that must exist", () => {
  const r = project(lines(
    "{",
    `  ${OPEN},`,
    '  "approvalRules": [',
    '    { "action": "allow", "tool": "bash", "pattern": "git commit *", "policy": "open" },',
    '    { "action": "allow", "tool": "bash", "pattern": "npm test", "policy": "closed" },',
    '    { "action": "allow", "tool": "read", "pattern": "x" }',
    "  ]",
    "}",
  ));
  assertHasError(r, `${P}:5:75`, 'approvalRules[1].policy: policy "closed" does not exist');
  assertHasError(r, `${P}:6:42`, "approvalRules[2].pattern: pattern is only evaluated for bash");
  assert.equal(errors(r).length, 2);
  const config = ok(project(lines(
    "{",
    `  ${OPEN},`,
    '  "approvalRules": [',
    '    { "action": "allow", "tool": "bash", "pattern": "git commit *", "policy": "open" },',
    '    { "action": "allow", "tool": "write" }',
    "  ]",
    "}",
  )));
  assert.deepEqual(config.approvalRules, [
    { action: "allow", tool: "bash", pattern: "git commit *", policy: "open" },
    { action: "allow", tool: "write" },
  ]);
  assertOnlyError(
    project('{ "approvalRules": {} }'),
    `${P}:1:20`,
    "approvalRules: expected an array of rules, found an object",
  );
});

Deno.test("pathProtection: glob to deny/ask/log", () => {
  const config = ok(project('{ "pathProtection": { ".env": "deny", "~/.ssh/**": "ask" } }'));
  assert.deepEqual(config.pathProtection, [
    { glob: ".env", action: "deny", base: "/proj", file: P },
    { glob: "~/.ssh/**", action: "ask", base: "/proj", file: P },
  ]);
  const r = project(lines(
    "{",
    '  "pathProtection": {',
    '    "*.pem": "allow",',
    '    "": "deny",',
    '    "x": "block"',
    "  }",
    "}",
  ));
  assertHasError(
    r,
    `${P}:3:14`,
    'pathProtection["*.pem"]: "allow" is not a valid pathProtection action',
    'expected one of "deny", "ask", "log"',
  );
  assertHasError(r, `${P}:4:5`, "pathProtection: a pathProtection glob must not be empty");
  assertHasError(r, `${P}:5:10`, 'pathProtection.x: "block" is not a valid pathProtection action');
  assert.equal(errors(r).length, 3);
});

Deno.test("agentTimeout and nudgeTimeout: null or both fields, positive", () => {
  const config = ok(project(
    '{ "agentTimeout": { "maxDenies": 3, "windowSeconds": 60 }, "nudgeTimeout": { "maxNudges": 2, "windowSeconds": 0.5 } }',
  ));
  assert.deepEqual(config.agentTimeout, { maxDenies: 3, windowSeconds: 60 });
  assert.deepEqual(config.nudgeTimeout, { maxNudges: 2, windowSeconds: 0.5 });
  const nulls = ok(project('{ "agentTimeout": null, "nudgeTimeout": null }'));
  assert.equal(nulls.agentTimeout, null);
  assert.equal(nulls.nudgeTimeout, null);
  const r = project(lines(
    "{",
    '  "agentTimeout": { "maxDenies": 2.5, "windowSeconds": "60" },',
    '  "nudgeTimeout": { "maxNudges": 0 }',
    "}",
  ));
  assertHasError(
    r,
    `${P}:2:34`,
    "agentTimeout.maxDenies: 2.5 is out of range; expected a positive integer",
  );
  assertHasError(
    r,
    `${P}:2:56`,
    'agentTimeout.windowSeconds: expected a positive number, found a string ("60")',
  );
  assertHasError(r, `${P}:3:3`, 'nudgeTimeout: missing "windowSeconds"');
  assertHasError(r, `${P}:3:34`, "nudgeTimeout.maxNudges: 0 is out of range");
  assert.equal(errors(r).length, 4);
  assertOnlyError(
    project('{ "agentTimeout": 5 }'),
    `${P}:1:19`,
    'agentTimeout: expected null or an object with "maxDenies", "windowSeconds", found a number (5)',
  );
});

Deno.test("decisions: kept as given when valid", () => {
  const config = ok(project(lines(
    "{",
    '  "decisions": {',
    '    "url": "http://127.0.0.1:8080/decide", "tokenEnv": "MY_KEY", "model": "m/1",',
    '    "timeoutMs": 500, "maxSourceBytes": 1024, "unavailableAction": "deny",',
    '    "errorAction": "allow", "yesThreshold": 0.8, "noThreshold": 0.8,',
    '    "choiceConfidence": 1, "riskyMassThreshold": 0, "backstopThreshold": 0,',
    '    "weights": { "destructive": 90, "inferenceCall": 0 }',
    "  }",
    "}",
  )));
  assert.deepEqual(config.decisions, {
    url: "http://127.0.0.1:8080/decide",
    tokenEnv: "MY_KEY",
    model: "m/1",
    timeoutMs: 500,
    maxSourceBytes: 1024,
    unavailableAction: "deny",
    errorAction: "allow",
    yesThreshold: 0.8,
    noThreshold: 0.8,
    choiceConfidence: 1,
    riskyMassThreshold: 0,
    backstopThreshold: 0,
    weights: { destructive: 90, inferenceCall: 0 },
  });
  // No defaults are filled in.
  assert.deepEqual(ok(project('{ "decisions": {} }')).decisions, {});
  assert.equal(ok(project('{ "decisions": null }')).decisions, null);
});

Deno.test("decisions: every field is checked", () => {
  const r = project(lines(
    "{",
    '  "decisions": {',
    '    "url": "ftp://x",',
    '    "tokenEnv": "sk-abc123",',
    '    "model": "",',
    '    "timeoutMs": 0,',
    '    "maxSourceBytes": 1.5,',
    '    "unavailableAction": "log",',
    '    "errorAction": "Ask",',
    '    "yesThreshold": 1.2,',
    '    "choiceConfidence": -0.1,',
    '    "riskyMassThreshold": "0.3",',
    '    "backstopThreshold": -1,',
    '    "weights": { "destructive": -5, "network": "high", "netwrk": 1 }',
    "  }",
    "}",
  ));
  assertHasError(r, `${P}:3:12`, 'decisions.url: "ftp://x" is not an http or https URL');
  assertHasError(r, `${P}:4:17`, "decisions.tokenEnv", "is not an environment variable name");
  assertHasError(r, `${P}:5:14`, "decisions.model: must not be empty");
  assertHasError(
    r,
    `${P}:6:18`,
    "decisions.timeoutMs: 0 is out of range; expected a positive integer",
  );
  assertHasError(r, `${P}:7:23`, "decisions.maxSourceBytes: 1.5 is out of range");
  assertHasError(
    r,
    `${P}:8:26`,
    'decisions.unavailableAction: "log" is not a valid unavailableAction',
    'expected one of "allow", "ask", "deny"',
  );
  assertHasError(r, `${P}:9:20`, '"Ask" is not a valid errorAction', 'did you mean "ask"?');
  assertHasError(
    r,
    `${P}:10:21`,
    "decisions.yesThreshold: 1.2 is out of range; expected a number from 0 to 1",
  );
  assertHasError(r, `${P}:11:25`, "decisions.choiceConfidence: -0.1 is out of range");
  assertHasError(
    r,
    `${P}:12:27`,
    'decisions.riskyMassThreshold: expected a number from 0 to 1, found a string ("0.3")',
  );
  assertHasError(
    r,
    `${P}:13:26`,
    "decisions.backstopThreshold: -1 is out of range; expected a non-negative number",
  );
  assertHasError(r, `${P}:14:33`, "decisions.weights.destructive: -5 is out of range");
  assertHasError(
    r,
    `${P}:14:48`,
    'decisions.weights.network: expected a non-negative number, found a string ("high")',
  );
  assertHasError(
    r,
    `${P}:14:56`,
    'decisions.weights: unknown key "netwrk"',
    'did you mean "network"?',
  );
  assert.equal(errors(r).length, 14);
});

Deno.test("decisions: noThreshold must not exceed yesThreshold (defaults 0.7/0.3)", () => {
  assertOnlyError(
    project(lines("{", '  "decisions": { "noThreshold": 0.75 }', "}")),
    `${P}:2:33`,
    "decisions.noThreshold: noThreshold 0.75 is above yesThreshold 0.7 (the default)",
  );
  assertOnlyError(
    project(lines("{", '  "decisions": { "yesThreshold": 0.2 }', "}")),
    `${P}:2:34`,
    "decisions.yesThreshold: noThreshold 0.3 (the default) is above yesThreshold 0.2",
  );
  ok(project('{ "decisions": { "yesThreshold": 0.5, "noThreshold": 0.5 } }'));
});

Deno.test("tests: examples are checked and kept", () => {
  const config = ok(project(lines(
    "{",
    '  "tests": [',
    '    { "tool": "bash", "input": { "command": "rm -rf x" }, "cwd": "/tmp", "expect": "deny" },',
    '    { "tool": "read", "input": { "path": "a" }, "expect": "allow" }',
    "  ]",
    "}",
  )));
  assert.deepEqual(config.tests, [
    { tool: "bash", input: { command: "rm -rf x" }, cwd: "/tmp", expect: "deny" },
    { tool: "read", input: { path: "a" }, expect: "allow" },
  ]);
  const r = project(lines(
    "{",
    '  "tests": [',
    '    { "tool": "bash", "input": "rm x" },',
    '    { "tool": "", "input": {}, "expect": "denied", "cwd": 1 },',
    '    "read"',
    "  ]",
    "}",
  ));
  assertHasError(r, `${P}:3:5`, 'tests[0]: missing "expect"');
  assertHasError(
    r,
    `${P}:3:32`,
    'tests[0].input: expected an object (the tool\'s input), found a string ("rm x")',
  );
  assertHasError(r, `${P}:4:15`, "tests[1].tool: must not be empty");
  assertHasError(r, `${P}:4:42`, 'tests[1].expect: "denied" is not a valid expected action');
  assertHasError(
    r,
    `${P}:4:59`,
    "tests[1].cwd: expected a directory (a string), found a number (1)",
  );
  assertHasError(r, `${P}:5:5`, "tests[2]: expected a test object");
  assert.equal(errors(r).length, 6);
});

Deno.test("keys like __proto__ stay ordinary data", () => {
  const config = ok(project(lines(
    "{",
    '  "policies": { "__proto__": { "defaultAction": "deny", "rules": [] } },',
    '  "defaultPolicy": "__proto__",',
    '  "tests": [ { "tool": "read", "input": { "__proto__": { "x": 1 } }, "expect": "deny" } ]',
    "}",
  )));
  assert.ok(Object.hasOwn(config.policies, "__proto__"));
  assert.equal(config.policies["__proto__"].defaultAction, "deny");
  assert.ok(Object.hasOwn(config.tests[0].input, "__proto__"));
  assert.equal(Object.getPrototypeOf(config.tests[0].input), Object.prototype);
});

Deno.test("every problem is reported, sorted by position", () => {
  const r = project(lines(
    "{",
    '  "policies": { "p": { "defaultAction": "nudge", "rules": [ { "action": "x", "tool": "t" } ] } },',
    '  "locations": { "/a": "q" },',
    '  "agentTimeout": { "maxDenies": -1, "windowSeconds": 1 }',
    "}",
  ));
  const errs = errors(r);
  assert.deepEqual(errs.map((e) => e.split(": ")[0]), [
    `${P}:2:41`,
    `${P}:2:73`,
    `${P}:3:24`,
    `${P}:4:34`,
  ]);
});

Deno.test("error: $schema must be a string (editors read it; pi-controls only checks its type)", () => {
  assert.equal(project(`{ "$schema": "../schema/pi-controls.schema.json" }`).status, "ok");
  for (const bad of ["1", "true", "null", "{}", '["a"]']) {
    const r = project(`{ "$schema": ${bad} }`);
    assert.equal(r.status, "error", bad);
    if (r.status === "error") assert.match(r.errors[0].message, /^\$schema: expected the path/);
  }
});
