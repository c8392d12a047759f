/**
 * schema/pi-controls.schema.json against the validator in lib/config.ts: every shipped config
 * validates; the schema's keys and enums are the validator's; and generated configs (valid, and
 * with one mutation each) get the same answer from both wherever a schema can decide. Where it
 * cannot (what needs the merged config or the file's role), the schema accepts and the validator
 * rejects with its documented message: the validator is the authority and fails closed.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import { parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import { formatConfigError, loadConfigTexts, type LoadResult } from "./config.ts";
import { STARTER_CONFIG } from "./starter.ts";
import { fuzzSeed, seededRandom } from "./testing.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SCHEMA_FILE = path.join(ROOT, "schema", "pi-controls.schema.json");
const HOME = "/home/me";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

/** Editor annotations (VS Code's) the schema carries: ajv must know them, they do not validate. */
const EDITOR_KEYWORDS = [
  "markdownDescription",
  "enumDescriptions",
  "markdownEnumDescriptions",
  "patternErrorMessage",
  "defaultSnippets",
  "allowComments",
  "allowTrailingCommas",
];

const schema = JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8"));

let compiled: ValidateFunction | undefined;
function schemaValidator(): ValidateFunction {
  if (compiled !== undefined) return compiled;
  const ajv = new Ajv({ allErrors: true, strict: true });
  ajv.addVocabulary(EDITOR_KEYWORDS);
  const validate = ajv.compile(schema);
  compiled = validate;
  return validate;
}

function schemaErrors(value: unknown): string[] {
  const validate = schemaValidator();
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
}

/** Strip JSONC (comments, trailing commas) the way the config loader reads it. */
function parseJsonc(text: string, file: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  assert.deepEqual(
    errors.map((e) => `${printParseErrorCode(e.error)} at ${e.offset}`),
    [],
    `${file} does not parse`,
  );
  return value;
}

type Role = "global" | "project";

function load(text: string, role: Role): LoadResult {
  const source = role === "global"
    ? { file: "/g/pi-controls.jsonc", text, role, root: null }
    : { file: "/proj/.pi/extensions/pi-controls.jsonc", text, role, root: "/proj" };
  return loadConfigTexts([source], { home: HOME });
}

function validatorErrors(text: string, role: Role): string[] {
  const r = load(text, role);
  if (r.status === "error") return r.errors.map(formatConfigError);
  assert.equal(r.status, "ok");
  return [];
}

/** The shipped config files: the sample, and every golden case's config (testdata/cases/). */
function shippedConfigs(): string[] {
  const files = [path.join(ROOT, "examples", "sample.jsonc")];
  const cases = path.join(ROOT, "testdata", "cases");
  for (const name of fs.readdirSync(cases).sort()) {
    for (const f of fs.readdirSync(path.join(cases, name)).sort()) {
      // case.json describes the case (files, expectations); the rest are pi-controls configs.
      if (/\.jsonc?$/.test(f) && f !== "case.json") files.push(path.join(cases, name, f));
    }
  }
  return files;
}

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
  ];
  for (const [where, place, schemaEnum] of places) {
    const config = base();
    place(config, "zzzz");
    assert.ok(schemaErrors(config).length > 0, `${where}: the schema accepts "zzzz"`);
    const values = enumFromMessage(validatorErrors(JSON.stringify(config), "project"));
    assert.deepEqual(schemaEnum, values, where);
  }
  assert.deepEqual(def("action").enum, ["allow", "nudge", "ask", "deny", "log"]);
  assert.deepEqual(def("defaultAction").enum, ["allow", "ask", "deny", "log"]);
  assert.deepEqual(def("protectionAction").enum, ["deny", "ask", "log"]);
  assert.deepEqual(decisions.unavailableAction.enum, ["allow", "ask", "deny"]);
});

// ---------------------------------------------------------------------------------------------
// Generated configs: valid ones, and ones with one mutation each.

type Rand = () => number;

const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)];
const chance = (r: Rand, p: number): boolean => r() < p;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** Set an own property, "__proto__" included (plain assignment would set the prototype). */
function setOwn(obj: Obj, key: string, value: Json): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

const ACTIONS = ["allow", "nudge", "ask", "deny", "log"];
const DEFAULT_ACTIONS = ["allow", "ask", "deny", "log"];
const PROTECTION_ACTIONS = ["deny", "ask", "log"];
const DECISION_ACTIONS = ["allow", "ask", "deny"];
const POLICY_NAMES = ["project", "outside", "vault", "ci", "two words", "ünïcode", "__proto__"];
const SAFE_BASH = "$safe-bash";

interface Generated {
  config: Obj;
  role: Role;
  policies: string[];
}

function genRule(r: Rand, approval: boolean, policies: string[]): Json {
  if (chance(r, 0.1)) return SAFE_BASH;
  let rule: Obj;
  if (chance(r, 0.1)) {
    rule = { action: pick(r, DEFAULT_ACTIONS), tool: "bash", pattern: SAFE_BASH };
    if (chance(r, 0.2)) rule.message = pick(r, ["", "read-only"]);
  } else {
    const action = pick(r, ACTIONS);
    const bash = chance(r, 0.5);
    rule = {
      action,
      tool: bash ? "bash" : pick(r, ["read", "write", "github_*", "*", "mcp_?x", "bash"]),
    };
    if (rule.tool === "bash" && chance(r, 0.8)) {
      rule.pattern = pick(r, ["git push *", "rm *", "*", "grep *", "", "echo $HOME"]);
    }
    if (action === "nudge") rule.message = pick(r, ["Prefer rg.", " x ", "use the tool"]);
    else if (chance(r, 0.2)) rule.message = pick(r, ["", "why", "  "]);
  }
  if (approval && chance(r, 0.7)) rule.policy = pick(r, policies);
  // Keys in another order than the schema lists them: order must not matter.
  if (chance(r, 0.3)) rule = Object.fromEntries(Object.entries(rule).reverse());
  return rule;
}

function genDecisions(r: Rand): Obj {
  const d: Obj = {};
  const maybe = (key: string, value: () => Json) => {
    if (chance(r, 0.4)) d[key] = value();
  };
  maybe("url", () =>
    pick(r, [
      "https://openrouter.ai/api/alpha/decisions",
      "http://127.0.0.1:8080/v1",
      "HTTPS://Example.com",
      "https://example.com/a@b?q=1#f",
    ]));
  maybe("tokenEnv", () => pick(r, ["OPENROUTER_API_KEY", "_T", "k9"]));
  maybe("model", () => pick(r, ["typesafe/jev-1.13", "m"]));
  maybe("timeoutMs", () => pick(r, [1, 15000, 2147483647]));
  maybe("maxSourceBytes", () => pick(r, [1, 32768, 1e9]));
  maybe("unavailableAction", () => pick(r, DECISION_ACTIONS));
  maybe("errorAction", () => pick(r, DECISION_ACTIONS));
  maybe("choiceConfidence", () => pick(r, [0, 0.6, 1]));
  maybe("riskyMassThreshold", () => pick(r, [0, 0.35, 1]));
  maybe("backstopThreshold", () => pick(r, [0, 40, 1000.5]));
  // noThreshold ≤ yesThreshold, counting the defaults (0.3 and 0.7) for an absent one.
  const both = pick(r, [[0.7, 0.3], [0.5, 0.5], [1, 0], [0.9, 0.7], [0.3, 0.1]]);
  const which = pick(r, ["none", "yes", "no", "both"]);
  if (which === "both") [d.yesThreshold, d.noThreshold] = both;
  if (which === "yes") d.yesThreshold = pick(r, [0.3, 0.7, 1]);
  if (which === "no") d.noThreshold = pick(r, [0, 0.3, 0.7]);
  if (chance(r, 0.3)) {
    const w: Obj = {};
    for (const k of ["destructive", "network", "readUnknown", "inferenceCall"]) {
      if (chance(r, 0.5)) w[k] = pick(r, [0, 25, 100.5]);
    }
    d.weights = w;
  }
  return d;
}

function genConfig(r: Rand): Generated {
  const role: Role = chance(r, 0.7) ? "project" : "global";
  const names = [...new Set(Array.from({ length: int(r, 1, 3) }, () => pick(r, POLICY_NAMES)))];
  const config: Obj = {};
  if (chance(r, 0.3)) {
    config.$schema = pick(r, ["../schema/pi-controls.schema.json", "https://example.com/s.json"]);
  }
  const policies: Obj = {};
  for (const name of names) {
    const rules = Array.from({ length: int(r, 0, 5) }, () => genRule(r, false, names));
    setOwn(policies, name, { defaultAction: pick(r, DEFAULT_ACTIONS), rules });
  }
  config.policies = policies;
  if (chance(r, 0.8)) {
    const keys = ["/", "$cwd", "$cwd/sub", "~", "~/vault", "/tmp", "/srv/x"];
    if (role === "project") keys.push("vendor", "src/lib", " spaced", "./x");
    const locations: Obj = {};
    for (let i = int(r, 1, 4); i > 0; i--) locations[pick(r, keys)] = pick(r, names);
    config.locations = locations;
  }
  if (chance(r, 0.3)) config.defaultPolicy = chance(r, 0.3) ? null : pick(r, names);
  if (chance(r, 0.4)) {
    config.approvalRules = Array.from({ length: int(r, 0, 3) }, () => genRule(r, true, names));
  }
  if (chance(r, 0.5)) {
    const globs = [".env", "*.pem", "~/.ssh/**", "/etc/**", "secrets/*", "**/id_rsa"];
    const protection: Obj = {};
    for (let i = int(r, 0, 3); i > 0; i--) {
      protection[pick(r, globs)] = pick(r, PROTECTION_ACTIONS);
    }
    config.pathProtection = protection;
  }
  for (const [key, count] of [["agentTimeout", "maxDenies"], ["nudgeTimeout", "maxNudges"]]) {
    if (chance(r, 0.3)) {
      config[key] = chance(r, 0.2)
        ? null
        : { [count]: int(r, 1, 10), windowSeconds: pick(r, [0.5, 60, 3600]) };
    }
  }
  if (chance(r, 0.3)) config.decisions = chance(r, 0.2) ? null : genDecisions(r);
  if (chance(r, 0.4)) {
    config.tests = Array.from({ length: int(r, 0, 3) }, () => {
      const t: Obj = {
        tool: pick(r, ["bash", "read", "github_create_issue"]),
        input: pick<Json>(r, [{ command: "git status" }, { path: "~/.ssh/id_rsa" }, {}]),
        expect: pick(r, ACTIONS),
      };
      if (chance(r, 0.3)) t.cwd = pick(r, ["/tmp", "sub", "~"]);
      return t;
    });
  }
  return { config, role, policies: names };
}

// Where things are, in a generated config.

interface RuleRef {
  rule: Obj;
  approval: boolean;
}

function ruleObjects(c: Obj): RuleRef[] {
  const out: RuleRef[] = [];
  for (const p of Object.values(c.policies as Obj)) {
    for (const rule of (p as Obj).rules as Json[]) {
      if (typeof rule === "object") out.push({ rule: rule as Obj, approval: false });
    }
  }
  for (const rule of (c.approvalRules ?? []) as Json[]) {
    if (typeof rule === "object") out.push({ rule: rule as Obj, approval: true });
  }
  return out;
}

function ruleArrays(c: Obj): Json[][] {
  const arrays = Object.values(c.policies as Obj).map((p) => (p as Obj).rules as Json[]);
  if (Array.isArray(c.approvalRules)) arrays.push(c.approvalRules);
  return arrays;
}

function policyObjects(c: Obj): Obj[] {
  return Object.values(c.policies as Obj) as Obj[];
}

function isSafeBash(rule: Obj): boolean {
  return rule.pattern === SAFE_BASH;
}

function objectOrMake(c: Obj, key: string, make: () => Obj): Obj {
  const v = c[key];
  if (v !== null && typeof v === "object" && !Array.isArray(v)) return v as Obj;
  const made = make();
  c[key] = made;
  return made;
}

function testObjects(c: Obj): Obj[] {
  if (!Array.isArray(c.tests) || c.tests.length === 0) {
    c.tests = [{ tool: "read", input: { path: "x" }, expect: "allow" }];
  }
  return c.tests as Obj[];
}

/** A value of the wrong JSON type for a slot that allows `types`. */
function wrongValue(r: Rand, types: string[]): Json {
  const pool: Json[] = [1, 0, -1, 2.5, true, false, null, "x", "", [], ["$safe-bash"], {}, {
    a: 1,
  }];
  const typeOf = (v: Json) => v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
  return pick(r, pool.filter((v) => !types.includes(typeOf(v))));
}

/**
 * How a mutation is judged:
 * - `both`: a single file shows it; the schema and the validator both reject (the validator
 *   with a message matching `why`).
 * - `validator`: it needs the merged config or the file's role; the schema accepts, the
 *   validator rejects with a message matching `why`.
 * - `schema`: a known gap of the validator, reported: the schema rejects; the validator is not
 *   asserted on (it accepts today).
 */
type Judge = "both" | "validator" | "schema";

interface Mutation {
  name: string;
  judge: Judge;
  why: RegExp;
  /** Changes the config (or returns a replacement text); false when it does not apply. */
  apply(r: Rand, g: Generated): boolean | { text: string };
}

const UNKNOWN_KEYS = ["polices", "Policies", "defaultaction", "actions", "patern", "messages"]
  .concat(["timeout", "extra", "__proto__", "constructor", "sandbox", "Tool", "windowsSeconds"]);

const MUTATIONS: Mutation[] = [
  {
    name: "unknown key",
    judge: "both",
    why: /unknown (top-level )?key|"policy" is only allowed in approvalRules/,
    apply(r, g) {
      const c = g.config;
      const targets: [Obj, string[]][] = [
        [c, Object.keys(schema.properties)],
        ...policyObjects(c).map((p): [Obj, string[]] => [p, ["defaultAction", "rules"]]),
        ...ruleObjects(c).map(({ rule, approval }): [Obj, string[]] => [
          rule,
          approval ? ["action", "tool", "pattern", "message", "policy"] : [
            "action",
            "tool",
            "pattern",
            "message",
          ],
        ]),
        [objectOrMake(c, pick(r, ["agentTimeout", "nudgeTimeout"]), () => ({})), [
          "maxDenies",
          "maxNudges",
          "windowSeconds",
        ]],
        [
          objectOrMake(c, "decisions", () => ({})),
          Object.keys(
            schema.properties.decisions.properties,
          ),
        ],
        [testObjects(c)[0], ["tool", "input", "cwd", "expect"]],
      ];
      const [target, allowed] = pick(r, targets);
      const keys = [...UNKNOWN_KEYS, "policy"].filter((k) => !allowed.includes(k));
      setOwn(target, pick(r, keys), pick<Json>(r, [1, "x", null, {}, true]));
      // A timeout made here may lack its keys: fill them so only the unknown key is wrong.
      for (const key of ["agentTimeout", "nudgeTimeout"]) {
        const t = c[key] as Obj | null | undefined;
        if (t && typeof t === "object") {
          t[key === "agentTimeout" ? "maxDenies" : "maxNudges"] ??= 3;
          t.windowSeconds ??= 60;
        }
      }
      return true;
    },
  },
  {
    name: "wrong type",
    judge: "both",
    why: /expected |top level of a config file must be an object/,
    apply(r, g) {
      const c = g.config;
      const slots: [Obj, string, string[]][] = [
        [c, "policies", ["object"]],
        [c, "locations", ["object"]],
        [c, "defaultPolicy", ["string", "null"]],
        [c, "approvalRules", ["array"]],
        [c, "pathProtection", ["object"]],
        [c, "agentTimeout", ["object", "null"]],
        [c, "nudgeTimeout", ["object", "null"]],
        [c, "decisions", ["object", "null"]],
        [c, "tests", ["array"]],
        ...Object.keys(c.policies as Obj).map((name): [Obj, string, string[]] => [
          c.policies as Obj,
          name,
          ["object"],
        ]),
        ...policyObjects(c).flatMap((p): [Obj, string, string[]][] => [
          [p, "defaultAction", ["string"]],
          [p, "rules", ["array"]],
        ]),
        ...ruleObjects(c).flatMap(({ rule, approval }): [Obj, string, string[]][] => [
          [rule, "action", ["string"]],
          [rule, "tool", ["string"]],
          [rule, "pattern", ["string"]],
          [rule, "message", ["string"]],
          ...(approval ? [[rule, "policy", ["string"]] as [Obj, string, string[]]] : []),
        ]),
        [testObjects(c)[0], "tool", ["string"]],
        [testObjects(c)[0], "input", ["object"]],
        [testObjects(c)[0], "cwd", ["string"]],
        [testObjects(c)[0], "expect", ["string"]],
      ];
      const timeout = objectOrMake(c, "agentTimeout", () => ({ maxDenies: 3, windowSeconds: 60 }));
      slots.push([timeout, "maxDenies", ["number"]], [timeout, "windowSeconds", ["number"]]);
      const d = objectOrMake(c, "decisions", () => ({}));
      for (const k of ["url", "tokenEnv", "model", "unavailableAction", "errorAction"]) {
        slots.push([d, k, ["string"]]);
      }
      for (const k of ["timeoutMs", "maxSourceBytes", "yesThreshold", "backstopThreshold"]) {
        slots.push([d, k, ["number"]]);
      }
      slots.push([d, "weights", ["object"]]);
      slots.push([objectOrMake(d, "weights", () => ({})), "network", ["number"]]);
      const locations = objectOrMake(c, "locations", () => ({}));
      slots.push([locations, "/", ["string"]]);
      slots.push([objectOrMake(c, "pathProtection", () => ({})), ".env", ["string"]]);
      // A whole entry: a rules item, a test.
      const arrays = ruleArrays(c).filter((a) => a.length > 0);
      if (arrays.length > 0 && chance(r, 0.2)) {
        const arr = pick(r, arrays);
        arr[int(r, 0, arr.length - 1)] = wrongValue(r, ["string", "object"]);
        return true;
      }
      if (chance(r, 0.05)) {
        testObjects(c)[0] = wrongValue(r, ["object"]) as Obj;
        return true;
      }
      const [obj, key, types] = pick(r, slots);
      obj[key] = wrongValue(r, types);
      return true;
    },
  },
  {
    name: "bad enum value",
    judge: "both",
    why: /is not a valid|expected one of/,
    apply(r, g) {
      const c = g.config;
      const bad = ["Allow", "ALLOW", "block", "sandbox", "warn", "", " allow", "deny "];
      const slots: [Obj, string, string[]][] = [
        ...policyObjects(c).map((p): [Obj, string, string[]] => [
          p,
          "defaultAction",
          [...bad, "nudge"],
        ]),
        ...ruleObjects(c).map(({ rule }): [Obj, string, string[]] => [rule, "action", bad]),
        [testObjects(c)[0], "expect", bad],
        [objectOrMake(c, "pathProtection", () => ({})), ".env", [...bad, "allow", "nudge"]],
      ];
      const d = objectOrMake(c, "decisions", () => ({}));
      slots.push([d, "unavailableAction", [...bad, "log", "nudge"]]);
      slots.push([d, "errorAction", [...bad, "log", "nudge"]]);
      const [obj, key, values] = pick(r, slots);
      obj[key] = pick(r, values);
      return true;
    },
  },
  {
    name: "nudge without a message",
    judge: "both",
    why: /missing "message"|must not be empty/,
    apply(r, g) {
      const rules = ruleObjects(g.config).filter(({ rule }) => !isSafeBash(rule));
      if (rules.length === 0) return false;
      const { rule } = pick(r, rules);
      rule.action = "nudge";
      if (chance(r, 0.5)) delete rule.message;
      else rule.message = pick(r, ["", " ", "\n\t"]);
      return true;
    },
  },
  {
    name: "nudge as defaultAction",
    judge: "both",
    why: /nudge needs a message/,
    apply(r, g) {
      pick(r, policyObjects(g.config)).defaultAction = "nudge";
      return true;
    },
  },
  {
    name: "pattern on a rule whose tool is not bash",
    judge: "both",
    why: /pattern is only evaluated for bash/,
    apply(r, g) {
      const rules = ruleObjects(g.config);
      if (rules.length === 0) return false;
      const { rule } = pick(r, rules);
      rule.tool = pick(r, ["read", "*", "bas?", "Bash", "bash ", "b*", "github_*"]);
      rule.pattern = pick(r, ["git *", "*", ""]);
      if (rule.action === "nudge") rule.message = "m";
      return true;
    },
  },
  {
    name: "$safe-bash on a rule whose tool is not bash",
    judge: "both",
    why: /only applies to tool "bash"/,
    apply(r, g) {
      const rules = ruleObjects(g.config);
      if (rules.length === 0) return false;
      const { rule } = pick(r, rules);
      rule.tool = pick(r, ["read", "*", "bash*"]);
      rule.pattern = SAFE_BASH;
      rule.action = pick(r, DEFAULT_ACTIONS);
      return true;
    },
  },
  {
    name: "$safe-bash as a nudge",
    judge: "both",
    why: /cannot be "nudge"/,
    apply(r, g) {
      const rules = ruleObjects(g.config);
      if (rules.length === 0) return false;
      const { rule } = pick(r, rules);
      Object.assign(rule, { action: "nudge", tool: "bash", pattern: SAFE_BASH });
      if (chance(r, 0.5)) rule.message = "m";
      return true;
    },
  },
  {
    name: "a string rule other than $safe-bash",
    judge: "both",
    why: /is not a valid rule/,
    apply(r, g) {
      const arrays = ruleArrays(g.config);
      const arr = pick(r, arrays);
      const s = pick(r, ["$safe_bash", "safe-bash", "$SAFE-BASH", "allow", " $safe-bash", ""]);
      if (arr.length === 0 || chance(r, 0.3)) arr.push(s);
      else arr[int(r, 0, arr.length - 1)] = s;
      return true;
    },
  },
  {
    name: "number out of range",
    judge: "both",
    why: /out of range/,
    apply(r, g) {
      const c = g.config;
      const which = pick(r, ["agentTimeout", "nudgeTimeout", "decisions", "weights"]);
      if (which === "agentTimeout" || which === "nudgeTimeout") {
        const count = which === "agentTimeout" ? "maxDenies" : "maxNudges";
        const t = objectOrMake(c, which, () => ({ [count]: 3, windowSeconds: 60 }));
        t[count] ??= 3;
        t.windowSeconds ??= 60;
        if (chance(r, 0.5)) t[count] = pick(r, [0, -1, 1.5, 1e-9]);
        else t.windowSeconds = pick(r, [0, -5, -1e-9]);
        return true;
      }
      const d = objectOrMake(c, "decisions", () => ({}));
      if (which === "weights") {
        objectOrMake(d, "weights", () => ({}))[pick(r, ["exec", "writeOutside"])] = -0.5;
        return true;
      }
      const [key, values] = pick<[string, number[]]>(r, [
        ["timeoutMs", [0, -1, 1.5, 2147483648, 1e12]],
        ["maxSourceBytes", [0, -3, 0.5]],
        ["yesThreshold", [-0.01, 1.01, 2]],
        ["noThreshold", [-0.01, 1.01, -2]],
        ["choiceConfidence", [-1, 1.5]],
        ["riskyMassThreshold", [1.0001, -0.2]],
        ["backstopThreshold", [-1, -0.001]],
      ]);
      d[key] = pick(r, values);
      return true;
    },
  },
  {
    name: "empty string or key",
    judge: "both",
    why: /must not be empty/,
    apply(r, g) {
      const c = g.config;
      const empty = pick(r, ["", " ", "\t", "\n", "\u00a0"]);
      const name = g.policies[0];
      const choices: (() => void)[] = [
        () => setOwn(c.policies as Obj, empty, { defaultAction: "allow", rules: [] }),
        () => (objectOrMake(c, "locations", () => ({}))[empty] = name),
        () => (objectOrMake(c, "locations", () => ({}))["/x"] = empty),
        () => (c.defaultPolicy = empty),
        () => (objectOrMake(c, "pathProtection", () => ({}))[empty] = "deny"),
        () => (testObjects(c)[0].tool = empty),
        () => (testObjects(c)[0].cwd = empty),
        () => (objectOrMake(c, "decisions", () => ({})).model = empty),
        () => (objectOrMake(c, "decisions", () => ({})).url = empty),
        () => (objectOrMake(c, "decisions", () => ({})).tokenEnv = empty),
        () => (c.approvalRules = [{ action: "allow", tool: "read", policy: empty }]),
      ];
      const rules = ruleObjects(c);
      if (rules.length > 0) choices.push(() => (pick(r, rules).rule.tool = empty));
      pick(r, choices)();
      return true;
    },
  },
  {
    name: "location key with an unknown variable or ~user",
    judge: "both",
    why: /unknown variable|is not supported/,
    apply(r, g) {
      const key = pick(r, ["$HOME", "$cwdx", "$CWD", "${cwd}", "$", "~user", "~root/x", "~~"]);
      objectOrMake(g.config, "locations", () => ({}))[key] = g.policies[0];
      return true;
    },
  },
  {
    name: "tokenEnv that is not a variable name",
    judge: "both",
    why: /is not an environment variable name/,
    apply(r, g) {
      objectOrMake(g.config, "decisions", () => ({})).tokenEnv = pick(r, [
        "1ABC",
        "MY-KEY",
        "A B",
        "$X",
        "ÄB",
        "sk-or-v1-abc",
        "KEY\n",
      ]);
      return true;
    },
  },
  {
    name: "url that is not http(s), or carries credentials",
    judge: "both",
    why: /is not an http or https URL|must not carry a user name or password/,
    apply(r, g) {
      objectOrMake(g.config, "decisions", () => ({})).url = pick(r, [
        "ftp://example.com/x",
        "example.com",
        "https://user:pw@example.com/x",
        "https://token@example.com",
        "http://:pw@example.com",
        "https://",
        "file:///etc/passwd",
        "mailto:x@y",
        "//example.com",
      ]);
      return true;
    },
  },
  {
    name: "rule without action or tool",
    judge: "both",
    why: /missing "(action|tool)"/,
    apply(r, g) {
      const rules = ruleObjects(g.config);
      if (rules.length === 0) return false;
      delete pick(r, rules).rule[pick(r, ["action", "tool"])];
      return true;
    },
  },
  {
    name: "test without tool, input or expect",
    judge: "both",
    why: /missing "(tool|input|expect)"/,
    apply(r, g) {
      delete testObjects(g.config)[0][pick(r, ["tool", "input", "expect"])];
      return true;
    },
  },
  {
    name: "top level not an object",
    judge: "both",
    why: /top level of a config file must be an object/,
    apply(r) {
      return { text: pick(r, ["[]", "42", '"policies"', "null", "true", "[{}]"]) };
    },
  },
  // What needs the merged config or the file's role: the validator's alone.
  {
    name: "a policy name that does not exist",
    judge: "validator",
    why: /policy "nosuch" does not exist/,
    apply(r, g) {
      const c = g.config;
      pick<() => void>(r, [
        () => (objectOrMake(c, "locations", () => ({}))["/"] = "nosuch"),
        () => (c.defaultPolicy = "nosuch"),
        () => {
          c.approvalRules = [...(c.approvalRules ?? []) as Json[], {
            action: "allow",
            tool: "read",
            policy: "nosuch",
          }];
        },
      ])();
      return true;
    },
  },
  {
    name: "a policy without defaultAction or rules",
    judge: "validator",
    why: /missing "(defaultAction|rules)"/,
    apply(r, g) {
      const p = pick(r, policyObjects(g.config));
      const drop = pick(r, [["defaultAction"], ["rules"], ["defaultAction", "rules"]]);
      for (const k of drop) delete p[k];
      return true;
    },
  },
  {
    name: "a timeout without both keys",
    judge: "validator",
    why: /missing "(maxDenies|maxNudges|windowSeconds)"/,
    apply(r, g) {
      const key = pick(r, ["agentTimeout", "nudgeTimeout"]);
      const count = key === "agentTimeout" ? "maxDenies" : "maxNudges";
      g.config[key] = pick<Obj>(r, [{}, { [count]: 3 }, { windowSeconds: 60 }]);
      return true;
    },
  },
  {
    name: "noThreshold above yesThreshold",
    judge: "validator",
    why: /noThreshold must be ≤ yesThreshold/,
    apply(r, g) {
      const d = objectOrMake(g.config, "decisions", () => ({}));
      delete d.yesThreshold;
      delete d.noThreshold;
      const [yes, no] = pick<[number | undefined, number | undefined]>(r, [
        [0.4, 0.6],
        [0, 1],
        [undefined, 0.8],
        [0.2, undefined],
      ]);
      if (yes !== undefined) d.yesThreshold = yes;
      if (no !== undefined) d.noThreshold = no;
      return true;
    },
  },
  {
    name: "a relative location key in the global config",
    judge: "validator",
    why: /relative location keys are only allowed in a project config/,
    apply(r, g) {
      g.role = "global";
      objectOrMake(g.config, "locations", () => ({}))[pick(r, ["vendor", "./x", "a/b", " /x"])] =
        g.policies[0];
      return true;
    },
  },
  {
    name: "a key written twice",
    judge: "validator",
    why: /duplicate key/,
    apply(r, g) {
      const text = JSON.stringify(g.config, null, 2);
      const dup = pick(r, ['"policies": {', '"defaultAction": "', '"rules": [']);
      const at = text.indexOf(dup);
      if (at < 0) return false;
      // `"k": v, "k": v` by writing the same key once more, with a valid value, before it.
      const insert = dup.startsWith('"policies"')
        ? '"policies": {},\n  '
        : dup.startsWith('"defaultAction"')
        ? '"defaultAction": "deny", '
        : '"rules": [], ';
      return { text: text.slice(0, at) + insert + text.slice(at) };
    },
  },
  // Known validator gaps (reported, not fixed here): the schema rejects.
  {
    name: "$schema that is not a string",
    judge: "schema",
    why: /./,
    apply(r, g) {
      g.config.$schema = pick<Json>(r, [1, true, null, {}, ["a"]]);
      return true;
    },
  },
];

interface Outcome {
  schema: string[];
  validator: string[];
}

function judgeBoth(text: string, value: unknown, role: Role): Outcome {
  return { schema: schemaErrors(value), validator: validatorErrors(text, role) };
}

Deno.test("generated configs: the schema and the validator agree wherever a schema can decide", () => {
  const seed = fuzzSeed(20260501);
  const r = seededRandom(seed);
  const failures: string[] = [];
  const counts = new Map<string, number>();
  const fail = (what: string, text: string, role: Role, o: Outcome) => {
    failures.push(
      `${what} (role ${role}):\n${text}\nschema: ${o.schema.join("; ") || "accepts"}\n` +
        `validator: ${o.validator.join("; ") || "accepts"}`,
    );
  };
  // Each generated config is checked as it is, then with one mutation at a time (four per
  // config, taken in turn so every mutation runs about ROUNDS * 4 / MUTATIONS.length times).
  const ROUNDS = 500;
  const PER_CONFIG = 4;
  for (let i = 0; i < ROUNDS; i++) {
    const g = genConfig(r);
    const validText = JSON.stringify(g.config, null, 2);
    const valid = judgeBoth(validText, JSON.parse(validText), g.role);
    counts.set("valid", (counts.get("valid") ?? 0) + 1);
    if (valid.schema.length > 0 || valid.validator.length > 0) {
      fail("a valid config", validText, g.role, valid);
      continue;
    }
    for (let j = 0; j < PER_CONFIG; j++) {
      const m = MUTATIONS[(i * PER_CONFIG + j) % MUTATIONS.length];
      // A fresh copy (JSON.parse keeps a "__proto__" key an own property).
      const copy: Generated = { ...g, config: JSON.parse(validText) };
      const applied = m.apply(r, copy);
      if (applied === false) continue;
      const text = applied === true ? JSON.stringify(copy.config, null, 2) : applied.text;
      counts.set(m.name, (counts.get(m.name) ?? 0) + 1);
      // The schema sees what an editor sees: the parsed JSON (for a duplicate key, the last one).
      const o = judgeBoth(text, JSON.parse(text), copy.role);
      const why = o.validator.some((e) => m.why.test(e));
      if (m.judge === "both") {
        if (o.schema.length === 0 || o.validator.length === 0 || !why) {
          fail(`"${m.name}": expected both to reject (validator: ${m.why})`, text, copy.role, o);
        }
      } else if (m.judge === "validator") {
        if (o.schema.length > 0 || !why) {
          fail(
            `"${m.name}": expected the schema to accept and the validator to say ${m.why}`,
            text,
            copy.role,
            o,
          );
        }
      } else if (o.schema.length === 0) {
        fail(`"${m.name}": expected the schema to reject`, text, copy.role, o);
      }
    }
  }
  const missing = MUTATIONS.filter((m) => !counts.has(m.name)).map((m) => m.name);
  assert.deepEqual(missing, [], `mutations never tried with seed ${seed}`);
  assert.ok(
    failures.length === 0,
    `${failures.length} disagreement(s) with seed ${seed} (PI_CONTROLS_FUZZ_SEED):\n\n` +
      failures.slice(0, 5).join("\n\n"),
  );
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
