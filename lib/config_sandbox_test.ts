/** The sandbox block and the `sandbox` action in a config: validated, fail closed without it. */
import assert from "node:assert/strict";
import {
  assertHasError,
  assertOnlyError,
  errors,
  lines,
  ok,
  OPEN,
  P,
  project,
} from "./testing_config.ts";

Deno.test("no sandbox block: the config has none, and the spec's behaviour is unchanged", () => {
  assert.equal(ok(project(`{ ${OPEN} }`)).sandbox, null);
});

Deno.test("a sandbox block: enabled by default, network unrestricted unless it says none", () => {
  assert.deepEqual(ok(project(`{ ${OPEN}, "sandbox": {} }`)).sandbox, {
    enabled: true,
    network: "unrestricted",
  });
  assert.deepEqual(
    ok(project(`{ ${OPEN}, "sandbox": { "enabled": true, "network": "none" } }`)).sandbox,
    { enabled: true, network: "none" },
  );
  assert.equal(ok(project(`{ ${OPEN}, "sandbox": { "enabled": false } }`)).sandbox?.enabled, false);
});

Deno.test("the sandbox action as a rule's and a defaultAction: valid with an enabled block", () => {
  const c = ok(project(lines(
    "{",
    '  "policies": { "p": { "defaultAction": "sandbox", "rules": [',
    '    { "action": "sandbox", "tool": "bash", "pattern": "npm *" }',
    "  ] } },",
    '  "sandbox": { "enabled": true }',
    "}",
  )));
  assert.equal(c.policies.p.defaultAction, "sandbox");
  assert.equal(c.policies.p.rules[0].action, "sandbox");
});

Deno.test("the sandbox action without an enabled block is an error where it is written", () => {
  const text = (block: string) =>
    lines(
      "{",
      '  "policies": { "p": { "defaultAction": "sandbox", "rules": [',
      '    { "action": "sandbox", "tool": "bash", "pattern": "npm *" }',
      "  ] } },",
      '  "approvalRules": [{ "action": "sandbox", "tool": "bash", "pattern": "make" }]' + block,
      "}",
    );
  for (const block of ["", ', "sandbox": { "enabled": false }']) {
    const r = project(text(block));
    assertHasError(r, `${P}:2:41`, "policies.p.defaultAction", 'needs an enabled "sandbox" block');
    assertHasError(r, `${P}:3:17`, "policies.p.rules[0].action", 'needs an enabled "sandbox"');
    assertHasError(r, `${P}:5:33`, "approvalRules[0].action", 'needs an enabled "sandbox"');
    assert.equal(errors(r).length, 3);
  }
});

Deno.test("every key of the sandbox block is checked", () => {
  assertOnlyError(
    project(`{ ${OPEN}, "sandbox": { "enabeld": true } }`),
    `${P}:1:83`,
    'sandbox: unknown key "enabeld"',
    'did you mean "enabled"?',
  );
  assertOnlyError(
    project(`{ ${OPEN}, "sandbox": { "enabled": "yes" } }`),
    `${P}:1:94`,
    "sandbox.enabled: expected true or false",
  );
  assertOnlyError(
    project(`{ ${OPEN}, "sandbox": { "network": "example.com" } }`),
    `${P}:1:94`,
    'sandbox.network: "example.com" is not a valid sandbox network',
    "filtering proxy",
    '"unrestricted", "none"',
  );
  const domains = project(`{ ${OPEN}, "sandbox": { "network": { "allowedDomains": ["x.org"] } } }`);
  assertOnlyError(domains, `${P}:1:94`, "sandbox.network: expected", "allowedDomains", "proxy");
  assertOnlyError(
    project(`{ ${OPEN}, "sandbox": true }`),
    `${P}:1:81`,
    "sandbox: expected an object",
  );
});
