/**
 * Validating one config file on its own: the type, allowed keys and allowed values of every
 * field, each problem reported where it was written. What needs the merged config (policies that
 * must exist, fields that may come from the other file) is checked in config_merge.ts.
 *
 * @module
 */
import {
  ACTIONS,
  AGENT_TIMEOUT_KEYS,
  DECISION_ACTIONS,
  DECISIONS_KEYS,
  DEFAULT_ACTIONS,
  NUDGE_TIMEOUT_KEYS,
  POLICY_KEYS,
  PROTECTION_ACTIONS,
  RULE_KEYS,
  SAFE_BASH,
  SANDBOX_KEYS,
  SANDBOX_NETWORK,
  SANDBOX_NETWORK_KEYS,
  TEST_KEYS,
  TOP_KEYS,
  WEIGHT_KEYS,
} from "./config_keys.ts";
import { at, describe, didYouMean, list, q } from "./config_messages.ts";
import { entryProblem } from "./policy/sandbox_network.ts";
import {
  type Diag,
  effective,
  err,
  type FileInfo,
  get,
  num,
  type PArray,
  type ParsedFile,
  type PObject,
  type PValue,
  type Seg,
  str,
} from "./config_tree.ts";

function checkKeys(obj: PObject, allowed: readonly string[], segs: Seg[], d: Diag): void {
  for (const p of obj.props) {
    if (allowed.includes(p.key)) continue;
    const where = segs.length === 0 ? "unknown top-level key" : `${at(segs)}unknown key`;
    err(
      d,
      p.keyPos,
      `${where} ${q(p.key)} (allowed keys: ${list(allowed)})${didYouMean(p.key, allowed)}`,
    );
  }
}

function expectObject(v: PValue, segs: Seg[], d: Diag, what = "an object"): PObject | undefined {
  if (v.kind === "object") return v;
  err(d, v.pos, `${at(segs)}expected ${what}, found ${describe(v)}`);
  return undefined;
}

function expectArray(v: PValue, segs: Seg[], d: Diag, what = "an array"): PArray | undefined {
  if (v.kind === "array") return v;
  err(d, v.pos, `${at(segs)}expected ${what}, found ${describe(v)}`);
  return undefined;
}

function expectString(v: PValue, segs: Seg[], d: Diag, what: string): string | undefined {
  const s = str(v);
  if (s === undefined) {
    err(d, v.pos, `${at(segs)}expected ${what}, found ${describe(v)}`);
    return undefined;
  }
  if (s.trim() === "") {
    err(d, v.pos, `${at(segs)}must not be empty; expected ${what}`);
    return undefined;
  }
  return s;
}

function expectEnum(
  v: PValue,
  allowed: readonly string[],
  segs: Seg[],
  d: Diag,
  what: string,
  hint?: (s: string) => string | undefined,
): string | undefined {
  const s = str(v);
  if (s === undefined) {
    err(d, v.pos, `${at(segs)}expected one of ${list(allowed)}, found ${describe(v)}`);
    return undefined;
  }
  if (allowed.includes(s)) return s;
  const extra = hint?.(s);
  err(
    d,
    v.pos,
    `${at(segs)}${q(s)} is not a valid ${what}${extra === undefined ? "" : ` (${extra})`}; ` +
      `expected one of ${list(allowed)}${didYouMean(s, allowed)}`,
  );
  return undefined;
}

type NumberKind = "positiveInteger" | "positive" | "nonNegative" | "unit";

const NUMBER_TEXT: Record<NumberKind, string> = {
  positiveInteger: "a positive integer",
  positive: "a positive number",
  nonNegative: "a non-negative number",
  unit: "a number from 0 to 1",
};

function expectNumber(v: PValue, kind: NumberKind, segs: Seg[], d: Diag): number | undefined {
  const n = num(v);
  const what = NUMBER_TEXT[kind];
  if (n === undefined) {
    err(d, v.pos, `${at(segs)}expected ${what}, found ${describe(v)}`);
    return undefined;
  }
  const ok = Number.isFinite(n) &&
    (kind === "positiveInteger"
      ? Number.isInteger(n) && n > 0
      : kind === "positive"
      ? n > 0
      : kind === "nonNegative"
      ? n >= 0
      : n >= 0 && n <= 1);
  if (!ok) {
    err(d, v.pos, `${at(segs)}${n} is out of range; expected ${what}`);
    return undefined;
  }
  return n;
}

/** Check every field of one file on its own; problems go to `d`. */
export function validateFile(file: ParsedFile, d: Diag): void {
  const root = file.root;
  checkKeys(root, TOP_KEYS, [], d);
  for (const p of effective(root)) {
    const segs = [p.key];
    const v = p.value;
    switch (p.key) {
      case "$schema":
        // (Read by editors only, but a wrong type is still a mistake in the file.)
        expectString(v, segs, d, "the path or URL of a JSON Schema (a string)");
        break;
      case "policies":
        checkPolicies(v, segs, d);
        break;
      case "locations":
        checkLocations(v, segs, file.info, d);
        break;
      case "defaultPolicy":
        if (!(v.kind === "scalar" && v.value === null)) {
          expectString(v, segs, d, "a policy name (a string) or null");
        }
        break;
      case "approvalRules": {
        const arr = expectArray(v, segs, d, "an array of rules");
        arr?.items.forEach((item, i) => checkRuleEntry(item, [...segs, i], true, d));
        break;
      }
      case "pathProtection":
        checkProtection(v, segs, d);
        break;
      case "agentTimeout":
        checkTimeout(v, segs, AGENT_TIMEOUT_KEYS, d);
        break;
      case "nudgeTimeout":
        checkTimeout(v, segs, NUDGE_TIMEOUT_KEYS, d);
        break;
      case "decisions":
        checkDecisions(v, segs, d);
        break;
      case "sandbox":
        checkSandbox(v, segs, d);
        break;
      case "tests": {
        const arr = expectArray(v, segs, d, "an array of tests");
        arr?.items.forEach((item, i) => checkTest(item, [...segs, i], d));
        break;
      }
    }
  }
}

function checkPolicies(v: PValue, segs: Seg[], d: Diag): void {
  const obj = expectObject(v, segs, d, "an object mapping policy names to policies");
  if (obj === undefined) return;
  for (const p of effective(obj)) {
    const ps = [...segs, p.key];
    if (p.key.trim() === "") {
      err(d, p.keyPos, `${at(segs)}a policy name must not be empty`);
    }
    const policy = expectObject(
      p.value,
      ps,
      d,
      'a policy object ({ "defaultAction": …, "rules": [] })',
    );
    if (policy === undefined) continue;
    checkKeys(policy, POLICY_KEYS, ps, d);
    const def = get(policy, "defaultAction");
    if (def !== undefined) {
      expectEnum(
        def.value,
        DEFAULT_ACTIONS,
        [...ps, "defaultAction"],
        d,
        "defaultAction",
        (s) => s === "nudge" ? "nudge needs a message, use it on a rule" : undefined,
      );
    }
    const rules = get(policy, "rules");
    if (rules !== undefined) {
      const rs = [...ps, "rules"];
      const arr = expectArray(rules.value, rs, d, `an array of rules (or ${q(SAFE_BASH)})`);
      arr?.items.forEach((item, i) => checkRuleEntry(item, [...rs, i], false, d));
    }
  }
}

function checkRuleEntry(v: PValue, segs: Seg[], approval: boolean, d: Diag): void {
  if (v.kind === "object") {
    checkRule(v, segs, approval, d);
    return;
  }
  const s = str(v);
  if (s === SAFE_BASH) return;
  if (s !== undefined) {
    err(
      d,
      v.pos,
      `${at(segs)}${q(s)} is not a valid rule; the only string allowed in a rules array is ` +
        `${q(SAFE_BASH)}, anything else must be a rule object${didYouMean(s, [SAFE_BASH])}`,
    );
    return;
  }
  err(
    d,
    v.pos,
    `${at(segs)}expected a rule object ({ "action": …, "tool": … }) or ${q(SAFE_BASH)}, ` +
      `found ${describe(v)}`,
  );
}

function checkRule(rule: PObject, segs: Seg[], approval: boolean, d: Diag): void {
  checkKeys(rule, RULE_KEYS, segs, d);
  const actionProp = get(rule, "action");
  const toolProp = get(rule, "tool");
  const patternProp = get(rule, "pattern");
  const messageProp = get(rule, "message");
  const policyProp = get(rule, "policy");
  let action: string | undefined;
  if (actionProp === undefined) {
    err(d, rule.pos, `${at(segs)}missing "action"; a rule needs one of ${list(ACTIONS)}`);
  } else {
    action = expectEnum(actionProp.value, ACTIONS, [...segs, "action"], d, "action");
  }
  let tool: string | undefined;
  if (toolProp === undefined) {
    err(
      d,
      rule.pos,
      `${at(segs)}missing "tool"; a rule needs a tool name or glob (e.g. "bash", "github_*", "*")`,
    );
  } else {
    tool = expectString(
      toolProp.value,
      [...segs, "tool"],
      d,
      'a tool name or glob (e.g. "bash", "*")',
    );
  }
  let safeBash = false;
  if (patternProp !== undefined) {
    const ps = [...segs, "pattern"];
    const pattern = str(patternProp.value);
    if (pattern === undefined) {
      err(
        d,
        patternProp.value.pos,
        `${at(ps)}expected a command glob (a string), found ${describe(patternProp.value)}`,
      );
    } else if (pattern === SAFE_BASH) {
      safeBash = true;
      if (tool !== undefined && tool !== "bash") {
        err(
          d,
          patternProp.value.pos,
          `${at(ps)}${q(SAFE_BASH)} only applies to tool "bash", ` +
            `but this rule's tool is ${q(tool)}`,
        );
      }
      if (action === "nudge") {
        err(
          d,
          actionProp!.value.pos,
          `${at([...segs, "action"])}a ${q(SAFE_BASH)} rule cannot be "nudge" ` +
            `(its rules carry no message); expected one of ${list(DEFAULT_ACTIONS)}`,
        );
      }
    } else if (tool !== undefined && tool !== "bash") {
      err(
        d,
        patternProp.keyPos,
        `${at(ps)}pattern is only evaluated for bash, but this rule's tool is ${q(tool)}; ` +
          `remove "pattern" or set "tool" to "bash"`,
      );
    }
  }
  if (messageProp !== undefined) {
    const ms = [...segs, "message"];
    if (action === "nudge") expectString(messageProp.value, ms, d, "a message (a string)");
    else if (str(messageProp.value) === undefined) {
      err(
        d,
        messageProp.value.pos,
        `${at(ms)}expected a string, found ${describe(messageProp.value)}`,
      );
    }
  } else if (action === "nudge" && !safeBash) {
    err(
      d,
      rule.pos,
      `${at(segs)}missing "message"; a "nudge" rule needs the message to show the agent`,
    );
  }
  if (policyProp !== undefined) {
    if (!approval) {
      err(
        d,
        policyProp.keyPos,
        `${at([...segs, "policy"])}"policy" is only allowed in approvalRules; ` +
          `a rule inside a policy already belongs to that policy`,
      );
    } else {
      expectString(policyProp.value, [...segs, "policy"], d, "a policy name (a string)");
    }
  }
}

function checkLocations(v: PValue, segs: Seg[], info: FileInfo, d: Diag): void {
  const obj = expectObject(v, segs, d, "an object mapping paths to policy names");
  if (obj === undefined) return;
  for (const p of effective(obj)) {
    const ks = [...segs, p.key];
    const key = p.key;
    if (key.trim() === "") {
      err(
        d,
        p.keyPos,
        `${at(segs)}a location key must not be empty; write "$cwd", "/…", "~/…" or a relative path`,
      );
    } else if (key.startsWith("$") && key !== "$cwd" && !key.startsWith("$cwd/")) {
      err(
        d,
        p.keyPos,
        `${at(segs)}${q(key)} uses an unknown variable; the only one allowed is "$cwd" ` +
          `("$cwd" or "$cwd/…")${didYouMean(key.split("/")[0], ["$cwd"])}`,
      );
    } else if (key.startsWith("~") && key !== "~" && !key.startsWith("~/")) {
      err(
        d,
        p.keyPos,
        `${at(segs)}${q(key)} is not supported; write "~", "~/…" or an absolute path`,
      );
    } else if (isRelativeKey(key) && info.role === "global") {
      err(
        d,
        p.keyPos,
        `${at(segs)}${q(key)} is relative; relative location keys are only allowed in a project ` +
          `config; write an absolute path or ~/…`,
      );
    }
    expectString(p.value, ks, d, "a policy name (a string)");
  }
}

function isRelativeKey(key: string): boolean {
  return !(key.startsWith("/") || key === "~" || key.startsWith("~/") || key === "$cwd" ||
    key.startsWith("$cwd/"));
}

function checkProtection(v: PValue, segs: Seg[], d: Diag): void {
  const obj = expectObject(v, segs, d, 'an object mapping path globs to "deny", "ask" or "log"');
  if (obj === undefined) return;
  for (const p of obj.props) {
    if (p.key.trim() === "") {
      err(d, p.keyPos, `${at(segs)}a pathProtection glob must not be empty`);
    }
    expectEnum(
      p.value,
      PROTECTION_ACTIONS,
      [...segs, p.key],
      d,
      "pathProtection action",
      (s) =>
        s === "allow"
          ? "pathProtection only protects; to leave a path unprotected, leave it out"
          : undefined,
    );
  }
}

function checkTimeout(v: PValue, segs: Seg[], keys: string[], d: Diag): void {
  if (v.kind === "scalar" && v.value === null) return;
  const obj = expectObject(v, segs, d, `null or an object with ${list(keys)}`);
  if (obj === undefined) return;
  checkKeys(obj, keys, segs, d);
  for (const p of effective(obj)) {
    if (!keys.includes(p.key)) continue;
    expectNumber(p.value, p.key === "windowSeconds" ? "positive" : "positiveInteger", [
      ...segs,
      p.key,
    ], d);
  }
}

function checkDecisions(v: PValue, segs: Seg[], d: Diag): void {
  if (v.kind === "scalar" && v.value === null) return;
  const obj = expectObject(v, segs, d, "null or an object");
  if (obj === undefined) return;
  checkKeys(obj, DECISIONS_KEYS, segs, d);
  for (const p of effective(obj)) {
    const ps = [...segs, p.key];
    switch (p.key) {
      case "url": {
        const s = expectString(p.value, ps, d, "an http or https URL (a string)");
        if (s !== undefined && !isHttpUrl(s)) {
          err(d, p.value.pos, `${at(ps)}${q(s)} is not an http or https URL`);
        } else if (s !== undefined && hasCredentials(s)) {
          err(
            d,
            p.value.pos,
            `${at(ps)}must not carry a user name or password; the token is read from the ` +
              `environment variable named by "tokenEnv"`,
          );
        }
        break;
      }
      case "tokenEnv": {
        const s = expectString(p.value, ps, d, "an environment variable name (a string)");
        if (s !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) {
          err(
            d,
            p.value.pos,
            `${at(ps)}${q(s)} is not an environment variable name; expected letters, digits and ` +
              `_ (not starting with a digit), e.g. "OPENROUTER_API_KEY"; the token itself never goes in the config`,
          );
        }
        break;
      }
      case "model":
        expectString(p.value, ps, d, "a model name (a string)");
        break;
      case "timeoutMs": {
        // Timers overflow above 2^31-1 ms and would then fire at once.
        const n = expectNumber(p.value, "positiveInteger", ps, d);
        if (n !== undefined && n > MAX_TIMEOUT_MS) {
          err(d, p.value.pos, `${at(ps)}${n} is out of range; expected at most ${MAX_TIMEOUT_MS}`);
        }
        break;
      }
      case "maxSourceBytes":
        expectNumber(p.value, "positiveInteger", ps, d);
        break;
      case "unavailableAction":
      case "errorAction":
        expectEnum(p.value, DECISION_ACTIONS, ps, d, p.key);
        break;
      case "yesThreshold":
      case "noThreshold":
      case "choiceConfidence":
      case "riskyMassThreshold":
        expectNumber(p.value, "unit", ps, d);
        break;
      case "backstopThreshold":
        expectNumber(p.value, "nonNegative", ps, d);
        break;
      case "weights": {
        const weights = expectObject(p.value, ps, d, "an object mapping signal names to numbers");
        if (weights === undefined) break;
        checkKeys(weights, WEIGHT_KEYS, ps, d);
        for (const w of effective(weights)) {
          if (WEIGHT_KEYS.includes(w.key)) expectNumber(w.value, "nonNegative", [...ps, w.key], d);
        }
        break;
      }
    }
  }
}

const MAX_TIMEOUT_MS = 2147483647;

function checkSandbox(v: PValue, segs: Seg[], d: Diag): void {
  const obj = expectObject(
    v,
    segs,
    d,
    'an object ({ "enabled": true, "network": "unrestricted" | "none" | { "allowedDomains": [...] } })',
  );
  if (obj === undefined) return;
  checkKeys(obj, SANDBOX_KEYS, segs, d);
  for (const p of effective(obj)) {
    const ps = [...segs, p.key];
    if (p.key === "enabled" && !(p.value.kind === "scalar" && typeof p.value.value === "boolean")) {
      err(d, p.value.pos, `${at(ps)}expected true or false, found ${describe(p.value)}`);
    } else if (p.key === "network" && p.value.kind === "object") {
      checkAllowList(p.value, ps, d);
    } else if (p.key === "network") {
      expectEnum(
        p.value,
        SANDBOX_NETWORK,
        ps,
        d,
        "sandbox network",
        (s) =>
          s.includes(".")
            ? `to allow single hosts, write { "allowedDomains": [${JSON.stringify(s)}] }`
            : undefined,
      );
    }
  }
}

/** `"network": { "allowedDomains": [...] }`: each entry a host, `*.` and a name, or an IP. */
function checkAllowList(obj: PObject, segs: Seg[], d: Diag): void {
  checkKeys(obj, SANDBOX_NETWORK_KEYS, segs, d);
  const list = get(obj, "allowedDomains");
  if (list === undefined) {
    err(d, obj.pos, `${at(segs)}missing "allowedDomains" (an array of host names)`);
    return;
  }
  const ps = [...segs, "allowedDomains"];
  const arr = expectArray(list.value, ps, d, 'an array of host names (["registry.npmjs.org"])');
  arr?.items.forEach((item, i) => {
    const entry = expectString(item, [...ps, i], d, "a host name");
    const problem = entry === undefined ? null : entryProblem(entry);
    if (problem !== null) {
      err(d, item.pos, `${at([...ps, i])}${q(entry!)} is not a host: expected ${problem}`);
    }
  });
}

function hasCredentials(s: string): boolean {
  try {
    const u = new URL(s);
    return u.username !== "" || u.password !== "";
  } catch {
    return false;
  }
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

function checkTest(v: PValue, segs: Seg[], d: Diag): void {
  const obj = expectObject(v, segs, d, 'a test object ({ "tool": …, "input": {…}, "expect": … })');
  if (obj === undefined) return;
  checkKeys(obj, TEST_KEYS, segs, d);
  for (const key of ["tool", "input", "expect"]) {
    if (get(obj, key) === undefined) {
      err(d, obj.pos, `${at(segs)}missing ${q(key)}; a test needs "tool", "input" and "expect"`);
    }
  }
  for (const p of effective(obj)) {
    const ps = [...segs, p.key];
    if (p.key === "tool") expectString(p.value, ps, d, "a tool name (a string)");
    else if (p.key === "input") expectObject(p.value, ps, d, "an object (the tool's input)");
    else if (p.key === "cwd") expectString(p.value, ps, d, "a directory (a string)");
    else if (p.key === "expect") expectEnum(p.value, ACTIONS, ps, d, "expected action");
  }
}
