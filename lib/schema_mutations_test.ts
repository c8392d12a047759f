/**
 * Generated configs (valid, and with one mutation each) get the same answer from
 * schema/pi-controls.schema.json and the validator in lib/config.ts wherever a schema can decide.
 * Where it cannot (what needs the merged config or the file's role), the schema accepts and the
 * validator rejects with its documented message: the validator is the authority and fails closed.
 */
import assert from "node:assert/strict";
import { fuzzSeed, seededRandom } from "./testing.ts";
import {
  chance,
  DEFAULT_ACTIONS,
  genConfig,
  type Generated,
  int,
  isSafeBash,
  objectOrMake,
  pick,
  policyObjects,
  type Rand,
  ruleArrays,
  ruleObjects,
  SAFE_BASH,
  setOwn,
  testObjects,
  wrongValue,
} from "./testing_generated_configs.ts";
import {
  type Json,
  type Obj,
  type Role,
  schema,
  schemaErrors,
  validatorErrors,
} from "./testing_schema.ts";

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
  .concat(["timeout", "extra", "__proto__", "constructor", "sandboxes", "Tool", "windowsSeconds"]);

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
      const bad = ["Allow", "ALLOW", "block", "sandboxed", "warn", "", " allow", "deny "];
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
