import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  agentDirFrom,
  discoverConfigFiles,
  formatConfigError,
  loadConfig,
  loadConfigTexts,
  type LoadResult,
} from "./config.ts";
import type { Config } from "./types.ts";

const HOME = "/home/me";

/** Join lines with newlines, so line and column numbers in a test are easy to read off. */
function lines(...ls: string[]): string {
  return ls.join("\n") + "\n";
}

function project(text: string, file = "/proj/.pi/extensions/pi-controls.jsonc"): LoadResult {
  return loadConfigTexts([{ file, text, role: "project", root: "/proj" }], { home: HOME });
}

function globalOnly(text: string, file = "/g/pi-controls.jsonc"): LoadResult {
  return loadConfigTexts([{ file, text, role: "global", root: null }], { home: HOME });
}

function ok(r: LoadResult): Config {
  if (r.status !== "ok") {
    const why = r.status === "error" ? r.errors.map(formatConfigError).join("\n") : r.status;
    assert.fail(`expected status ok, got ${why}`);
  }
  return r.config;
}

function errors(r: LoadResult): string[] {
  assert.equal(r.status, "error", `expected status error, got ${r.status}`);
  return r.status === "error" ? r.errors.map(formatConfigError) : [];
}

/** Assert the result has exactly one error, at `where` (file:line:col), containing every part. */
function assertOnlyError(r: LoadResult, where: string, ...parts: string[]): void {
  const errs = errors(r);
  assert.equal(errs.length, 1, `expected one error, got:\n${errs.join("\n")}`);
  assertHasError(r, where, ...parts);
}

/** Assert some error is at `where` (file:line:col) and contains every part. */
function assertHasError(r: LoadResult, where: string, ...parts: string[]): void {
  const errs = errors(r);
  const hit = errs.find((e) => e.startsWith(`${where}: `) && parts.every((p) => e.includes(p)));
  assert.ok(
    hit,
    `no error at ${where} containing ${JSON.stringify(parts)}; got:\n${errs.join("\n")}`,
  );
}

const P = "/proj/.pi/extensions/pi-controls.jsonc";
const G = "/g/pi-controls.jsonc";

/** A minimal valid policy block for configs that test something else. */
const OPEN = '"policies": { "open": { "defaultAction": "allow", "rules": [] } }';

async function tempDir(): Promise<string> {
  return fs.realpathSync(await Deno.makeTempDir({ prefix: "pi-controls-config-" }));
}

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

// ---------------------------------------------------------------------------------------------
// agentDir and discovery

Deno.test("agentDirFrom honours PI_CODING_AGENT_DIR with ~ expanded, else ~/.pi/agent", () => {
  assert.equal(agentDirFrom({}, HOME), "/home/me/.pi/agent");
  assert.equal(agentDirFrom({ PI_CODING_AGENT_DIR: "" }, HOME), "/home/me/.pi/agent");
  assert.equal(agentDirFrom({ PI_CODING_AGENT_DIR: "/opt/agent" }, HOME), "/opt/agent");
  assert.equal(agentDirFrom({ PI_CODING_AGENT_DIR: "~/agent" }, HOME), "/home/me/agent");
  assert.equal(agentDirFrom({ PI_CODING_AGENT_DIR: "~" }, HOME), HOME);
});

Deno.test("discovery prefers .jsonc over .json and falls back to .json", async () => {
  const tmp = await tempDir();
  const agentDir = path.join(tmp, "agent");
  const json = write(path.join(agentDir, "extensions", "pi-controls.json"), "{}");
  const cwd = path.join(tmp, "work");
  fs.mkdirSync(cwd);
  assert.deepEqual(discoverConfigFiles({ cwd, agentDir }), [
    { file: json, role: "global", root: null },
  ]);
  const jsonc = write(path.join(agentDir, "extensions", "pi-controls.jsonc"), "{}");
  assert.deepEqual(discoverConfigFiles({ cwd, agentDir }), [
    { file: jsonc, role: "global", root: null },
  ]);
  // Same for the project file.
  const pjson = write(path.join(cwd, ".pi", "extensions", "pi-controls.json"), "{}");
  assert.deepEqual(discoverConfigFiles({ cwd, agentDir })[1], {
    file: pjson,
    role: "project",
    root: cwd,
  });
  const pjsonc = write(path.join(cwd, ".pi", "extensions", "pi-controls.jsonc"), "{}");
  assert.deepEqual(discoverConfigFiles({ cwd, agentDir })[1], {
    file: pjsonc,
    role: "project",
    root: cwd,
  });
});

Deno.test("discovery walks up from cwd to the nearest project config, global first", async () => {
  const tmp = await tempDir();
  const agentDir = path.join(tmp, "agent");
  const globalFile = write(path.join(agentDir, "extensions", "pi-controls.jsonc"), "{}");
  const outer = path.join(tmp, "outer");
  const inner = path.join(outer, "inner");
  const deep = path.join(inner, "src", "lib");
  fs.mkdirSync(deep, { recursive: true });
  write(path.join(outer, ".pi", "extensions", "pi-controls.jsonc"), "{}");
  // The nearest directory with a config wins, even when it only has the .json fallback.
  const innerJson = write(path.join(inner, ".pi", "extensions", "pi-controls.json"), "{}");
  assert.deepEqual(discoverConfigFiles({ cwd: deep, agentDir }), [
    { file: globalFile, role: "global", root: null },
    { file: innerJson, role: "project", root: inner },
  ]);
  // Outside inner, the outer project is found.
  assert.deepEqual(discoverConfigFiles({ cwd: path.join(outer, "other"), agentDir })[1], {
    file: path.join(outer, ".pi", "extensions", "pi-controls.jsonc"),
    role: "project",
    root: outer,
  });
  // No configs at all.
  const empty = path.join(tmp, "empty");
  fs.mkdirSync(empty);
  assert.deepEqual(discoverConfigFiles({ cwd: empty, agentDir: path.join(tmp, "none") }), []);
});

Deno.test("loadConfig: no config files -> absent", async () => {
  const tmp = await tempDir();
  const r = loadConfig({ cwd: tmp, agentDir: path.join(tmp, "agent"), home: tmp });
  assert.deepEqual(r, { status: "absent", files: [] });
});

Deno.test("loadConfig finds the global file in PI_CODING_AGENT_DIR and merges the project", async () => {
  const tmp = await tempDir();
  const agentDir = agentDirFrom({ PI_CODING_AGENT_DIR: path.join(tmp, "custom-agent") }, tmp);
  const g = write(
    path.join(agentDir, "extensions", "pi-controls.jsonc"),
    '{ "policies": { "base": { "defaultAction": "ask", "rules": [] } }, "defaultPolicy": "base" }',
  );
  const root = path.join(tmp, "repo");
  const p = write(
    path.join(root, ".pi", "extensions", "pi-controls.jsonc"),
    '{ "locations": { "src": "base" } }',
  );
  const r = loadConfig({ cwd: path.join(root), agentDir, home: tmp });
  const config = ok(r);
  assert.deepEqual(config.files, [g, p]);
  assert.deepEqual(r.files, [g, p]);
  assert.equal(config.defaultPolicy, "base");
  assert.deepEqual(config.locations, [{ key: "src", policy: "base", base: root, file: p }]);
  // The default ~/.pi/agent is not consulted when PI_CODING_AGENT_DIR is set.
  write(path.join(tmp, ".pi", "agent", "extensions", "pi-controls.jsonc"), "{ broken");
  assert.equal(loadConfig({ cwd: root, agentDir, home: tmp }).status, "ok");
});

Deno.test("loadConfig with explicit files: order, roles, and missing files", async () => {
  const tmp = await tempDir();
  const agentDir = path.join(tmp, "agent");
  const a = write(
    path.join(tmp, "a.jsonc"),
    '{ "policies": { "p": { "defaultAction": "deny", "rules": [] } }, "locations": { "src": "p" } }',
  );
  const projRoot = path.join(tmp, "proj");
  const b = write(
    path.join(projRoot, ".pi", "extensions", "custom.jsonc"),
    '{ "policies": { "p": { "defaultAction": "ask" } }, "locations": { "lib": "p" } }',
  );
  const config = ok(loadConfig({ cwd: tmp, agentDir, home: tmp, files: ["a.jsonc", b] }));
  assert.deepEqual(config.files, [a, b]);
  assert.equal(config.policies.p.defaultAction, "ask"); // later file wins
  assert.deepEqual(config.locations, [
    // A plain explicit file is rooted at its own directory...
    { key: "src", policy: "p", base: tmp, file: a },
    // ...one inside .pi/extensions at the directory containing .pi.
    { key: "lib", policy: "p", base: projRoot, file: b },
  ]);

  const missing = path.join(tmp, "nope.jsonc");
  const r = loadConfig({ cwd: tmp, agentDir, home: tmp, files: [a, missing] });
  assert.equal(r.status, "error");
  assert.deepEqual(r.files, [a, missing]);
  assert.deepEqual(errors(r), [`${missing}:1:1: config file does not exist`]);
});

Deno.test("loadConfig: the global file passed explicitly keeps its global role", async () => {
  const tmp = await tempDir();
  const agentDir = path.join(tmp, "agent");
  const g = write(
    path.join(agentDir, "extensions", "pi-controls.jsonc"),
    lines(
      "{",
      '  "policies": { "p": { "defaultAction": "deny", "rules": [] } },',
      '  "locations": { "src": "p" }',
      "}",
    ),
  );
  const r = loadConfig({ cwd: tmp, agentDir, home: tmp, files: [g] });
  assertOnlyError(r, `${g}:3:18`, "relative location keys are only allowed in a project config");
});

Deno.test("loadConfig reports syntax errors of discovered files with positions", async () => {
  const tmp = await tempDir();
  const agentDir = path.join(tmp, "agent");
  const g = write(
    path.join(agentDir, "extensions", "pi-controls.jsonc"),
    lines("{", '  "policies": {', '    "p" { }', "  }", "}"),
  );
  const r = loadConfig({ cwd: tmp, agentDir, home: tmp });
  assert.deepEqual(r.files, [g]);
  assertHasError(r, `${g}:3:9`, "syntax error", "colon");
});

// ---------------------------------------------------------------------------------------------
// Parsing

Deno.test("comments and trailing commas are accepted", () => {
  const config = ok(project(lines(
    "// pi-controls config",
    "{",
    "  /* policies */",
    '  "policies": {',
    '    "strict": {',
    '      "defaultAction": "deny", // the fallback',
    '      "rules": [',
    '        { "action": "allow", "tool": "read", },',
    "      ],",
    "    },",
    "  },",
    "}",
  )));
  assert.deepEqual(config.policies, {
    strict: { defaultAction: "deny", rules: [{ action: "allow", tool: "read" }] },
  });
  assert.equal(config.defaultPolicy, null);
  assert.equal(config.agentTimeout, null);
  assert.equal(config.nudgeTimeout, null);
  assert.equal(config.decisions, null);
  assert.deepEqual(config.locations, []);
  assert.deepEqual(config.approvalRules, []);
  assert.deepEqual(config.pathProtection, []);
  assert.deepEqual(config.tests, []);
});

Deno.test("syntax errors carry line and column and a readable message", () => {
  assertHasError(
    project(lines("{", '  "policies": {', '    "a": 1', '    "b": 2', "  }", "}")),
    `${P}:4:5`,
    "syntax error: expected a comma",
    "CommaExpected",
  );
  assertHasError(project('{ "a": 1,\n  "b": }'), `${P}:2:8`, "syntax error: expected a value");
});

Deno.test("an empty file and a non-object top level are errors", () => {
  assertOnlyError(project(""), `${P}:1:1`, "the config file is empty");
  assertOnlyError(project("// nothing here\n"), `${P}:1:1`, "the config file is empty");
  assertOnlyError(project("\n  []"), `${P}:2:3`, "top level", "must be an object", "an array");
  assertOnlyError(project('"x"'), `${P}:1:1`, "must be an object", 'a string ("x")');
});

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
    `(nudge needs a message, use it on a rule); expected one of "allow", "ask", "deny", "log"`,
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
    '"allow", "nudge", "ask", "deny", "log"',
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

// ---------------------------------------------------------------------------------------------
// Warnings

Deno.test("error: the same key twice in one object, at any depth (fails closed)", () => {
  const twice = project(lines(
    "{",
    `  ${OPEN},`,
    '  "locations": {',
    '    "/a": "open",',
    '    "/a": "open"',
    "  }",
    "}",
  ));
  assert.equal(twice.status, "error");
  if (twice.status !== "error") return;
  assert.deepEqual(twice.errors.map(formatConfigError), [
    `${P}:5:5: locations: duplicate key "/a" (first at line 4:5); a key may appear once in an ` +
    `object, remove one of them`,
  ]);
  // A duplicate that would flip a rule from deny to allow does not pass.
  const flip = project(lines(
    "{",
    '  "policies": { "p": { "defaultAction": "deny", "rules": [',
    '    { "tool": "bash", "pattern": "rm *", "action": "deny", "action": "allow" }',
    "  ] } },",
    '  "locations": { "/": "p" }',
    "}",
  ));
  assert.equal(flip.status, "error");
  if (flip.status === "error") {
    assert.match(
      formatConfigError(flip.errors[0]),
      /:3:60: policies\.p\.rules\[0\]: duplicate key "action" \(first at line 3:42\)/,
    );
  }
  // Top level, pathProtection and a policy's own keys count too.
  for (
    const text of [
      `{ ${OPEN}, "defaultPolicy": "open", "defaultPolicy": "open" }`,
      `{ ${OPEN}, "pathProtection": { ".env": "deny", ".env": "log" } }`,
      `{ "policies": { "open": { "defaultAction": "deny", "defaultAction": "allow", "rules": [] } } }`,
    ]
  ) assert.equal(project(text).status, "error", text);
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

Deno.test("formatConfigError renders file:line:col: message", () => {
  assert.equal(
    formatConfigError({ file: "/a/b.jsonc", line: 3, column: 7, message: "bad" }),
    "/a/b.jsonc:3:7: bad",
  );
});

Deno.test("error: $schema must be a string (editors read it; pi-controls only checks its type)", () => {
  assert.equal(project(`{ "$schema": "../schema/pi-controls.schema.json" }`).status, "ok");
  for (const bad of ["1", "true", "null", "{}", '["a"]']) {
    const r = project(`{ "$schema": ${bad} }`);
    assert.equal(r.status, "error", bad);
    if (r.status === "error") assert.match(r.errors[0].message, /^\$schema: expected the path/);
  }
});
