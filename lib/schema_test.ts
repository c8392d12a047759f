/**
 * schema/pi-controls.schema.json against the validator in lib/config.ts: every shipped config
 * validates, and the schema's keys and enums are the validator's. Generated configs (valid, and
 * with one mutation each) are in schema_mutations_test.ts.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { STARTER_CONFIG } from "./starter.ts";
import {
  type Obj,
  parseJsonc,
  ROOT,
  schema,
  SCHEMA_FILE,
  schemaErrors,
  schemaValidator,
  shippedConfigs,
  validatorErrors,
} from "./testing_schema.ts";

// ---------------------------------------------------------------------------------------------

Deno.test("the schema is draft-07, compiles in ajv's strict mode, and documents every key", () => {
  assert.equal(schema.$schema, "http://json-schema.org/draft-07/schema#");
  schemaValidator();
  const undocumented: string[] = [];
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) {
      node.forEach((n, i) => walk(n, `${where}/${i}`));
      return;
    }
    if (node === null || typeof node !== "object") return;
    const o = node as Record<string, unknown>;
    if (("description" in o) !== ("markdownDescription" in o)) {
      undocumented.push(`${where}: description and markdownDescription go together`);
    }
    for (const key of ["properties", "definitions"]) {
      const props = o[key] as Record<string, Record<string, unknown>> | undefined;
      for (const [name, sub] of Object.entries(props ?? {})) {
        // Inside if/then: conditions and refinements of a key documented where it is declared.
        if (key === "properties" && /\/(if|then)\b/.test(where)) continue;
        if (typeof sub.description !== "string" && typeof sub.$ref !== "string") {
          undocumented.push(`${where}/${key}/${name}: no description`);
        }
      }
    }
    for (const [k, v] of Object.entries(o)) {
      if (k !== "defaultSnippets") walk(v, `${where}/${k}`);
    }
  };
  walk(schema, "#");
  assert.deepEqual(undocumented, []);
});

Deno.test("the sample, the starter config and every golden config validate against the schema", () => {
  const checked: string[] = [];
  for (const file of shippedConfigs()) {
    const value = parseJsonc(fs.readFileSync(file, "utf8"), file);
    assert.deepEqual(schemaErrors(value), [], `${path.relative(ROOT, file)} fails the schema`);
    checked.push(path.relative(ROOT, file));
  }
  assert.deepEqual(schemaErrors(parseJsonc(STARTER_CONFIG, "STARTER_CONFIG")), []);
  assert.ok(checked.includes("examples/sample.jsonc"));
  assert.ok(checked.filter((f) => f.startsWith("testdata/cases/")).length >= 20, String(checked));
});

Deno.test("the starter config and the sample name the schema in $schema", () => {
  const starter = parseJsonc(STARTER_CONFIG, "STARTER_CONFIG") as Obj;
  assert.equal(starter.$schema, "../npm/node_modules/pi-controls/schema/pi-controls.schema.json");
  const sampleFile = path.join(ROOT, "examples", "sample.jsonc");
  const sample = parseJsonc(fs.readFileSync(sampleFile, "utf8"), sampleFile) as Obj;
  assert.equal(typeof sample.$schema, "string");
  // Relative to the sample itself, as editors resolve it.
  assert.equal(
    path.resolve(path.dirname(sampleFile), sample.$schema as string),
    SCHEMA_FILE,
  );
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
  assert.ok(
    pkg.files.includes("schema") || pkg.files.includes("schema/"),
    "package.json ships schema/",
  );
});

// ---------------------------------------------------------------------------------------------
// The schema's keys and enums, read off the validator's own error messages.

/** A small config that is valid on its own, for placing one wrong thing into. */
function base(): Obj {
  return {
    policies: {
      p: { defaultAction: "allow", rules: [{ action: "allow", tool: "read" }] },
    },
    locations: { "/": "p" },
  };
}

function allowedKeysFromMessage(errors: string[]): string[] {
  const m = errors.map((e) => /\(allowed keys: (.*?)\)/.exec(e)).find((x) => x !== null);
  assert.ok(m, `no "allowed keys" in:\n${errors.join("\n")}`);
  return JSON.parse(`[${m[1]}]`);
}

function enumFromMessage(errors: string[]): string[] {
  const m = errors.map((e) => /expected one of (".*?")(?:; did you mean|$)/.exec(e)).find((x) =>
    x !== null
  );
  assert.ok(m, `no "expected one of" in:\n${errors.join("\n")}`);
  return JSON.parse(`[${m[1]}]`);
}

const def = (name: string) => schema.definitions[name];

Deno.test("the schema allows exactly the keys the validator allows, at every level", () => {
  const places: [string, (c: Obj, extra: Obj) => void, string[]][] = [
    ["top level", (c, x) => Object.assign(c, x), Object.keys(schema.properties)],
    [
      "policy",
      (c, x) => Object.assign((c.policies as Obj).p as Obj, x),
      Object.keys(def("policy").properties),
    ],
    [
      // A policy rule may not carry "policy" (its own error), so the validator lists it too.
      "rule",
      (c, x) => Object.assign(((((c.policies as Obj).p as Obj).rules) as Obj[])[0], x),
      [...Object.keys(def("rule").properties), "policy"],
    ],
    [
      "approval rule",
      (c, x) => (c.approvalRules = [{ action: "allow", tool: "read", ...x }]),
      Object.keys(def("approvalRule").properties),
    ],
    [
      "agentTimeout",
      (c, x) => (c.agentTimeout = { maxDenies: 3, windowSeconds: 60, ...x }),
      Object.keys(schema.properties.agentTimeout.properties),
    ],
    [
      "nudgeTimeout",
      (c, x) => (c.nudgeTimeout = { maxNudges: 3, windowSeconds: 60, ...x }),
      Object.keys(schema.properties.nudgeTimeout.properties),
    ],
    [
      "decisions",
      (c, x) => (c.decisions = { ...x }),
      Object.keys(schema.properties.decisions.properties),
    ],
    [
      "decisions.weights",
      (c, x) => (c.decisions = { weights: { ...x } }),
      Object.keys(schema.properties.decisions.properties.weights.properties),
    ],
    [
      "sandbox",
      (c, x) => (c.sandbox = { ...x }),
      Object.keys(schema.properties.sandbox.properties),
    ],
    [
      "test",
      (c, x) => (c.tests = [{ tool: "read", input: {}, expect: "allow", ...x }]),
      Object.keys(def("test").properties),
    ],
  ];
  for (const [where, place, schemaKeys] of places) {
    const config = base();
    place(config, { zzzz: 1 });
    assert.ok(schemaErrors(config).length > 0, `${where}: the schema accepts an unknown key`);
    const keys = allowedKeysFromMessage(validatorErrors(JSON.stringify(config), "project"));
    assert.deepEqual([...schemaKeys].sort(), [...keys].sort(), where);
  }
});

Deno.test("the schema's enums are the validator's", () => {
  const decisions = schema.properties.decisions.properties;
  const places: [string, (c: Obj, v: string) => void, string[]][] = [
    ["rule action", (c, v) => (c.approvalRules = [{ action: v, tool: "x" }]), def("action").enum],
    [
      "defaultAction",
      (c, v) => (((c.policies as Obj).p as Obj).defaultAction = v),
      def("defaultAction").enum,
    ],
    [
      "pathProtection",
      (c, v) => (c.pathProtection = { ".env": v }),
      def("protectionAction").enum,
    ],
    [
      "tests[].expect",
      (c, v) => (c.tests = [{ tool: "read", input: {}, expect: v }]),
      def("test").properties.expect.enum,
    ],
    [
      "unavailableAction",
      (c, v) => (c.decisions = { unavailableAction: v }),
      decisions.unavailableAction.enum,
    ],
    ["errorAction", (c, v) => (c.decisions = { errorAction: v }), decisions.errorAction.enum],
    [
      "sandbox.network",
      (c, v) => (c.sandbox = { network: v }),
      schema.properties.sandbox.properties.network.anyOf[0].enum,
    ],
  ];
  for (const [where, place, schemaEnum] of places) {
    const config = base();
    place(config, "zzzz");
    assert.ok(schemaErrors(config).length > 0, `${where}: the schema accepts "zzzz"`);
    const values = enumFromMessage(validatorErrors(JSON.stringify(config), "project"));
    assert.deepEqual(schemaEnum, values, where);
  }
  assert.deepEqual(def("action").enum, ["allow", "nudge", "ask", "deny", "log", "sandbox"]);
  assert.deepEqual(def("defaultAction").enum, ["allow", "ask", "deny", "log", "sandbox"]);
  assert.deepEqual(schema.properties.sandbox.properties.network.anyOf[0].enum, [
    "unrestricted",
    "none",
  ]);
  assert.deepEqual(def("protectionAction").enum, ["deny", "ask", "log"]);
  assert.deepEqual(decisions.unavailableAction.enum, ["allow", "ask", "deny"]);
});

Deno.test("the schema's url shape stays within what the validator accepts", () => {
  // The validator parses the URL (WHATWG); the schema checks its shape. On ordinary URLs they
  // agree; exotic spellings the URL parser repairs ("http:example.com") the schema refuses.
  const urls = [
    "https://openrouter.ai/api/alpha/decisions",
    "http://127.0.0.1:8080",
    "http://[::1]:9/x",
    "https://example.com?q",
    "https://example.com#f",
    "https://example.com/a@b",
  ];
  for (const url of urls) {
    const config = { ...base(), decisions: { url } };
    assert.deepEqual(schemaErrors(config), [], url);
    assert.deepEqual(validatorErrors(JSON.stringify(config), "project"), [], url);
  }
});

Deno.test("the schema's allowedDomains entries stay within what the validator accepts", () => {
  const entries = [
    "registry.npmjs.org",
    "*.github.com",
    "Example.COM.",
    "localhost",
    "10.0.0.5",
    "[::1]",
    "https://x.org",
    "x.org/p",
    "x.org:443",
    "*",
    "*.org",
    "a.*.org",
    "user@x.org",
    "x .org",
    "-x.org",
    "",
  ];
  for (const entry of entries) {
    const config = { ...base(), sandbox: { network: { allowedDomains: [entry] } } };
    const schemaOk = schemaErrors(config).length === 0;
    const validatorOk = validatorErrors(JSON.stringify(config), "project").length === 0;
    if (schemaOk) assert.ok(validatorOk, `the schema accepts ${JSON.stringify(entry)}`);
    if (validatorOk && /^(\*\.)?[a-z0-9.-]+$/i.test(entry) && !entry.startsWith("-")) {
      assert.ok(schemaOk, `the schema refuses ${JSON.stringify(entry)}`);
    }
  }
});
