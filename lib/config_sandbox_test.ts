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
    'write { "allowedDomains": ["example.com"] }',
    '"unrestricted", "none"',
  );
  assertOnlyError(
    project(`{ ${OPEN}, "sandbox": true }`),
    `${P}:1:81`,
    "sandbox: expected an object",
  );
});

Deno.test("an allow list: the hosts as written, each entry checked with its path and value", () => {
  const list = (entries: string) =>
    project(`{ ${OPEN}, "sandbox": { "network": { "allowedDomains": [${entries}] } } }`);
  assert.deepEqual(ok(list('"registry.npmjs.org", "*.GitHub.com", "10.0.0.5", "[::1]"')).sandbox, {
    enabled: true,
    network: { allowedDomains: ["registry.npmjs.org", "*.GitHub.com", "10.0.0.5", "[::1]"] },
  });
  assert.deepEqual(ok(list("")).sandbox?.network, { allowedDomains: [] });
  const bad: [string, string][] = [
    ["https://x.org", "without a scheme"],
    ["x.org/path", "without a path"],
    ["x.org:443", "without a port"],
    ["a.*.org", '"*" only at the start'],
    ["*", '"*" only at the start'],
    ["*.org", 'a name with a dot after "*."'],
    ["*.10.0.0.5", "an IP address has no subdomains"],
    ["user@x.org", "a host name (letters, digits"],
    ["x .org", "a host name (letters, digits"],
  ];
  for (const [entry, why] of bad) {
    assertOnlyError(
      list(`"ok.org", ${JSON.stringify(entry)}`),
      `${P}:1:125`,
      `sandbox.network.allowedDomains[1]: ${JSON.stringify(entry)} is not a host: expected`,
      why,
    );
  }
  assertOnlyError(list('""'), `${P}:1:115`, "allowedDomains[0]: must not be empty");
  assertOnlyError(list("3"), `${P}:1:115`, "allowedDomains[0]: expected a host name");
  assertOnlyError(
    project(`{ ${OPEN}, "sandbox": { "network": {} } }`),
    `${P}:1:94`,
    'sandbox.network: missing "allowedDomains"',
  );
  assertHasError(
    project(`{ ${OPEN}, "sandbox": { "network": { "allowedDomain": [] } } }`),
    `${P}:1:96`,
    'sandbox.network: unknown key "allowedDomain"',
    'did you mean "allowedDomains"?',
  );
  assertHasError(
    project(`{ ${OPEN}, "sandbox": { "network": { "allowedDomains": "x.org" } } }`),
    `${P}:1:114`,
    "sandbox.network.allowedDomains: expected an array of host names",
  );
});
