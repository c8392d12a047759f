/**
 * Random valid pi-controls configs for the schema tests (a seeded generator), and where things
 * are in one: its rule objects and arrays, policies and tests, and values of the wrong type.
 *
 * @module
 */
import type { Json, Obj, Role } from "./testing_schema.ts";

/** A random source: a number in [0, 1). */
export type Rand = () => number;

/** One of the items. */
export const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)];
/** True with probability p. */
export const chance = (r: Rand, p: number): boolean => r() < p;
/** An integer from lo to hi. */
export const int = (r: Rand, lo: number, hi: number): number =>
  lo + Math.floor(r() * (hi - lo + 1));

/** Set an own property, "__proto__" included (plain assignment would set the prototype). */
export function setOwn(obj: Obj, key: string, value: Json): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The rule actions. */
export const ACTIONS = ["allow", "nudge", "ask", "deny", "log"];
/** A policy's defaultAction values. */
export const DEFAULT_ACTIONS = ["allow", "ask", "deny", "log"];
/** The pathProtection actions. */
export const PROTECTION_ACTIONS = ["deny", "ask", "log"];
/** The decisions block's unavailableAction and errorAction values. */
export const DECISION_ACTIONS = ["allow", "ask", "deny"];
/** The policy names a generated config draws from. */
export const POLICY_NAMES = [
  "project",
  "outside",
  "vault",
  "ci",
  "two words",
  "ünïcode",
  "__proto__",
];
/** The marker for the built-in safe bash rules. */
export const SAFE_BASH = "$safe-bash";

/** A generated config, the role it is loaded with and its policy names. */
export interface Generated {
  config: Obj;
  role: Role;
  policies: string[];
}

/** A valid rule (or `$safe-bash`) for a policy or, with `approval`, for approvalRules. */
export function genRule(r: Rand, approval: boolean, policies: string[]): Json {
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

/** A valid decisions block. */
export function genDecisions(r: Rand): Obj {
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

/** A valid config. */
export function genConfig(r: Rand): Generated {
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

/** A rule object and whether it is an approval rule. */
export interface RuleRef {
  rule: Obj;
  approval: boolean;
}

/** Every rule object, in policies and approvalRules. */
export function ruleObjects(c: Obj): RuleRef[] {
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

/** Every rules array, the policies' and approvalRules. */
export function ruleArrays(c: Obj): Json[][] {
  const arrays = Object.values(c.policies as Obj).map((p) => (p as Obj).rules as Json[]);
  if (Array.isArray(c.approvalRules)) arrays.push(c.approvalRules);
  return arrays;
}

/** Every policy object. */
export function policyObjects(c: Obj): Obj[] {
  return Object.values(c.policies as Obj) as Obj[];
}

/** Whether a rule is a `$safe-bash` pattern rule. */
export function isSafeBash(rule: Obj): boolean {
  return rule.pattern === SAFE_BASH;
}

/** The object at `key`, made (and set) when there is none. */
export function objectOrMake(c: Obj, key: string, make: () => Obj): Obj {
  const v = c[key];
  if (v !== null && typeof v === "object" && !Array.isArray(v)) return v as Obj;
  const made = make();
  c[key] = made;
  return made;
}

/** The tests, with one added when there are none. */
export function testObjects(c: Obj): Obj[] {
  if (!Array.isArray(c.tests) || c.tests.length === 0) {
    c.tests = [{ tool: "read", input: { path: "x" }, expect: "allow" }];
  }
  return c.tests as Obj[];
}

/** A value of the wrong JSON type for a slot that allows `types`. */
export function wrongValue(r: Rand, types: string[]): Json {
  const pool: Json[] = [1, 0, -1, 2.5, true, false, null, "x", "", [], ["$safe-bash"], {}, {
    a: 1,
  }];
  const typeOf = (v: Json) => v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
  return pick(r, pool.filter((v) => !types.includes(typeOf(v))));
}
