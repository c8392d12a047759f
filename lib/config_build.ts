/**
 * Building the Config the engine reads from a merged, validated config: policies with
 * `$safe-bash` expanded, locations and pathProtection with the base of their file, approval
 * rules and tests from every file in order.
 *
 * @module
 */
import { PROTECTION_RANK } from "./policy/action.ts";
import { expandSafeBash } from "./policy/safe_bash.ts";
import { SAFE_BASH } from "./config_keys.ts";
import { perFileItems, sandboxEnabled } from "./config_merge.ts";
import {
  baseOf,
  effective,
  get,
  type PArray,
  type ParsedFile,
  type PObject,
  type PValue,
  str,
} from "./config_tree.ts";
import type {
  Action,
  AgentTimeout,
  Config,
  ConfigTest,
  DecisionsConfig,
  DefaultAction,
  LocationEntry,
  NudgeTimeout,
  Policy,
  ProtectionAction,
  ProtectionEntry,
  Rule,
  SandboxConfig,
  SandboxNetwork,
} from "./types.ts";

function plain(v: PValue): unknown {
  if (v.kind === "scalar") return v.value;
  if (v.kind === "array") return v.items.map(plain);
  const out: Record<string, unknown> = {};
  for (const p of effective(v)) setOwn(out, p.key, plain(p.value));
  return out;
}

/** Set an own property even for keys like "__proto__", which plain assignment would not create. */
function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function buildRules(items: PValue[]): Rule[] {
  const rules: Rule[] = [];
  for (const item of items) {
    if (item.kind !== "object") {
      rules.push(...expandSafeBash("allow"));
      continue;
    }
    const action = str(get(item, "action")?.value) as Action;
    const pattern = str(get(item, "pattern")?.value);
    const policy = str(get(item, "policy")?.value);
    if (pattern === SAFE_BASH) {
      const expanded = expandSafeBash(action);
      rules.push(...(policy === undefined ? expanded : expanded.map((r) => ({ ...r, policy }))));
      continue;
    }
    const rule: Rule = { action, tool: str(get(item, "tool")?.value)! };
    if (pattern !== undefined) rule.pattern = pattern;
    const message = str(get(item, "message")?.value);
    if (message !== undefined) rule.message = message;
    if (policy !== undefined) rule.policy = policy;
    rules.push(rule);
  }
  return rules;
}

/** The sandbox block with its defaults, or null when the config has none. */
function sandboxOf(merged: PObject): SandboxConfig | null {
  const block = get(merged, "sandbox")?.value;
  if (block?.kind !== "object") return null;
  const value = get(block, "network")?.value;
  let network: SandboxNetwork = str(value) === "none" ? "none" : "unrestricted";
  const list = value?.kind === "object" ? get(value, "allowedDomains")?.value : undefined;
  if (list?.kind === "array") {
    network = { allowedDomains: list.items.map(str).filter((s): s is string => s !== undefined) };
  }
  return { enabled: sandboxEnabled(merged), network };
}

/** The Config of merged, validated files (only called when there are no errors). */
export function buildConfig(
  merged: PObject,
  files: ParsedFile[],
  fileNames: string[],
  builtins: ProtectionEntry[],
): Config {
  const policies: Record<string, Policy> = {};
  const policiesValue = get(merged, "policies")?.value;
  if (policiesValue?.kind === "object") {
    for (const p of effective(policiesValue)) {
      const policy = p.value as PObject;
      const rules = get(policy, "rules")!.value as PArray;
      setOwn(policies, p.key, {
        defaultAction: str(get(policy, "defaultAction")!.value) as DefaultAction,
        rules: buildRules(rules.items),
      });
    }
  }

  const locations: LocationEntry[] = [];
  const locationsValue = get(merged, "locations")?.value;
  if (locationsValue?.kind === "object") {
    for (const p of effective(locationsValue)) {
      const info = p.value.pos.info;
      locations.push({ key: p.key, policy: str(p.value)!, base: baseOf(info), file: info.file });
    }
  }

  const protection = new Map<string, ProtectionEntry>();
  for (const f of files) {
    const v = get(f.root, "pathProtection")?.value;
    if (v?.kind !== "object") continue;
    for (const p of v.props) {
      const action = str(p.value) as ProtectionAction;
      const prev = protection.get(p.key);
      if (prev === undefined || PROTECTION_RANK[action] > PROTECTION_RANK[prev.action]) {
        protection.set(p.key, { glob: p.key, action, base: baseOf(f.info), file: f.info.file });
      }
    }
  }

  const approvalRules = buildRules(perFileItems(files, "approvalRules").map((x) => x.item));

  const tests: ConfigTest[] = perFileItems(files, "tests").map(({ item }) => {
    const obj = item as PObject;
    const test: ConfigTest = {
      tool: str(get(obj, "tool")!.value)!,
      input: plain(get(obj, "input")!.value) as Record<string, unknown>,
      expect: str(get(obj, "expect")!.value) as Action,
    };
    const cwd = str(get(obj, "cwd")?.value);
    if (cwd !== undefined) test.cwd = cwd;
    return test;
  });

  const orNull = <T>(key: string): T | null => {
    const v = get(merged, key)?.value;
    return v === undefined ? null : plain(v) as T | null;
  };

  return {
    policies,
    locations,
    defaultPolicy: orNull<string>("defaultPolicy"),
    approvalRules,
    pathProtection: [...protection.values(), ...builtins],
    agentTimeout: orNull<AgentTimeout>("agentTimeout"),
    nudgeTimeout: orNull<NudgeTimeout>("nudgeTimeout"),
    decisions: orNull<DecisionsConfig>("decisions"),
    sandbox: sandboxOf(merged),
    tests,
    files: fileNames,
  };
}
