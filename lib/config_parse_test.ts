/** Parsing config texts: JSONC, syntax errors with positions, and keys written twice. */
import assert from "node:assert/strict";
import { formatConfigError } from "./config.ts";
import { assertHasError, assertOnlyError, lines, ok, OPEN, P, project } from "./testing_config.ts";

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
