/**
 * Merging the global and the project config (objects deep-merge, arrays replace, the later file
 * wins) and the checks that need the merged config: policies that must exist, fields a policy or
 * timeout must have, the thresholds' order, and location keys naming the same directory.
 *
 * @module
 */
import * as path from "node:path";
import { expandHome } from "./config_files.ts";
import {
  AGENT_TIMEOUT_KEYS,
  DEFAULT_ACTIONS,
  DEFAULT_NO_THRESHOLD,
  DEFAULT_YES_THRESHOLD,
  NUDGE_TIMEOUT_KEYS,
} from "./config_keys.ts";
import { at, didYouMean, list, q } from "./config_messages.ts";
import {
  baseOf,
  type Diag,
  effective,
  err,
  get,
  lineCol,
  num,
  type ParsedFile,
  type PObject,
  type Pos,
  type PProp,
  type PValue,
  type Seg,
  str,
} from "./config_tree.ts";

function mergeValue(a: PValue, b: PValue): PValue {
  if (a.kind !== "object" || b.kind !== "object") return b;
  const map = new Map<string, PProp>();
  for (const p of effective(a)) map.set(p.key, p);
  for (const p of effective(b)) {
    const prev = map.get(p.key);
    map.set(
      p.key,
      prev === undefined
        ? p
        : { key: p.key, keyPos: p.keyPos, value: mergeValue(prev.value, p.value) },
    );
  }
  return { kind: "object", props: [...map.values()], pos: b.pos };
}

/** The deep merge of all files (arrays replace; approvalRules, tests, pathProtection are read per file). */
export function mergeFiles(files: ParsedFile[]): PObject {
  let merged: PObject | undefined;
  for (const f of files) {
    merged = merged === undefined ? f.root : mergeValue(merged, f.root) as PObject;
  }
  return merged!;
}

/** Every element of a top-level array, from every file in order, with its index in that file. */
export function perFileItems(files: ParsedFile[], key: string): { item: PValue; index: number }[] {
  const out: { item: PValue; index: number }[] = [];
  for (const f of files) {
    const v = get(f.root, key)?.value;
    if (v?.kind === "array") v.items.forEach((item, index) => out.push({ item, index }));
  }
  return out;
}

/** The checks that need the merged config: policies that exist, required fields, threshold order. */
export function validateMerged(merged: PObject, files: ParsedFile[], d: Diag): void {
  const policiesValue = get(merged, "policies")?.value;
  const policies = policiesValue?.kind === "object" ? effective(policiesValue) : [];
  const names = policies.map((p) => p.key).filter((k) => k.trim() !== "");
  const exists = (name: string, pos: Pos, segs: Seg[]) => {
    if (names.includes(name)) return;
    const known = names.length === 0
      ? "no policies are defined"
      : `defined policies: ${list(names)}`;
    err(d, pos, `${at(segs)}policy ${q(name)} does not exist (${known})${didYouMean(name, names)}`);
  };

  for (const p of policies) {
    if (p.value.kind !== "object") continue;
    const ps = ["policies", p.key];
    if (get(p.value, "defaultAction") === undefined) {
      err(
        d,
        p.keyPos,
        `${at(ps)}missing "defaultAction"; a policy needs one of ${list(DEFAULT_ACTIONS)}`,
      );
    }
    if (get(p.value, "rules") === undefined) {
      err(
        d,
        p.keyPos,
        `${at(ps)}missing "rules"; a policy needs a rules array (it may be empty: [])`,
      );
    }
  }

  const locations = get(merged, "locations")?.value;
  if (locations?.kind === "object") {
    for (const p of effective(locations)) {
      const name = str(p.value);
      if (name !== undefined && name.trim() !== "") exists(name, p.value.pos, ["locations", p.key]);
    }
  }

  const defaultPolicy = str(get(merged, "defaultPolicy")?.value);
  if (defaultPolicy !== undefined && defaultPolicy.trim() !== "") {
    exists(defaultPolicy, get(merged, "defaultPolicy")!.value.pos, ["defaultPolicy"]);
  }

  for (const { item, index } of perFileItems(files, "approvalRules")) {
    if (item.kind !== "object") continue;
    const policy = get(item, "policy");
    const name = str(policy?.value);
    if (name !== undefined && name.trim() !== "") {
      exists(name, policy!.value.pos, ["approvalRules", index, "policy"]);
    }
  }

  const timeouts: [string, string[]][] = [
    ["agentTimeout", AGENT_TIMEOUT_KEYS],
    ["nudgeTimeout", NUDGE_TIMEOUT_KEYS],
  ];
  for (const [key, keys] of timeouts) {
    const prop = get(merged, key);
    if (prop?.value.kind !== "object") continue;
    for (const k of keys) {
      if (get(prop.value, k) === undefined) {
        err(
          d,
          prop.keyPos,
          `${at([key])}missing ${q(k)}; ${key} needs both ${q(keys[0])} and ${q(keys[1])}`,
        );
      }
    }
  }

  checkSandboxAction(merged, files, d);

  const decisions = get(merged, "decisions")?.value;
  if (decisions?.kind === "object") {
    const yes = get(decisions, "yesThreshold")?.value;
    const no = get(decisions, "noThreshold")?.value;
    const yesN = yes === undefined ? DEFAULT_YES_THRESHOLD : num(yes);
    const noN = no === undefined ? DEFAULT_NO_THRESHOLD : num(no);
    const inUnit = (n: number | undefined) => n !== undefined && n >= 0 && n <= 1;
    if ((yes !== undefined || no !== undefined) && inUnit(yesN) && inUnit(noN) && noN! > yesN!) {
      const pos = (no ?? yes)!.pos;
      const yesText = yes === undefined ? `${yesN} (the default)` : `${yesN}`;
      const noText = no === undefined ? `${noN} (the default)` : `${noN}`;
      err(
        d,
        pos,
        `${at(["decisions", no !== undefined ? "noThreshold" : "yesThreshold"])}noThreshold ` +
          `${noText} is above yesThreshold ${yesText}; noThreshold must be ≤ yesThreshold`,
      );
    }
  }
}

/** Whether the merged config has an enabled sandbox block (`"enabled"` defaults to true). */
export function sandboxEnabled(merged: PObject): boolean {
  const block = get(merged, "sandbox")?.value;
  if (block?.kind !== "object") return false;
  const enabled = get(block, "enabled")?.value;
  return enabled === undefined || (enabled.kind === "scalar" && enabled.value === true);
}

/**
 * The `sandbox` action (a rule's, a defaultAction) without an enabled sandbox block is an error:
 * the call could not proceed where the config means it to, so the config fails closed.
 */
function checkSandboxAction(merged: PObject, files: ParsedFile[], d: Diag): void {
  if (sandboxEnabled(merged)) return;
  const why = `"sandbox" needs an enabled "sandbox" block at the top level ` +
    `(e.g. "sandbox": { "enabled": true }); without one the call could not be sandboxed`;
  const flag = (v: PValue | undefined, segs: Seg[]) => {
    if (v !== undefined && str(v) === "sandbox") err(d, v.pos, `${at(segs)}${why}`);
  };
  const rulesOf = (v: PValue | undefined, segs: Seg[]) => {
    if (v?.kind !== "array") return;
    v.items.forEach((item, i) => {
      if (item.kind === "object") flag(get(item, "action")?.value, [...segs, i, "action"]);
    });
  };
  const policies = get(merged, "policies")?.value;
  if (policies?.kind === "object") {
    for (const p of effective(policies)) {
      if (p.value.kind !== "object") continue;
      flag(get(p.value, "defaultAction")?.value, ["policies", p.key, "defaultAction"]);
      rulesOf(get(p.value, "rules")?.value, ["policies", p.key, "rules"]);
    }
  }
  for (const f of files) rulesOf(get(f.root, "approvalRules")?.value, ["approvalRules"]);
}

/**
 * Warn when two location keys name the same directory with different policies ("~/work" and
 * "/home/me/work"): the longest-match rule cannot tell them apart, so which one wins is accidental.
 */
export function warnSameDirectory(merged: PObject, home: string, d: Diag): void {
  const locations = get(merged, "locations")?.value;
  if (locations?.kind !== "object") return;
  const seen = new Map<string, PProp>();
  for (const p of effective(locations)) {
    const key = p.key;
    if (key === "$cwd" || key.startsWith("$cwd/")) continue;
    const base = baseOf(p.value.pos.info);
    let dir: string;
    if (key === "~" || key.startsWith("~/")) dir = path.resolve(expandHome(key, home));
    else if (key.startsWith("/")) dir = path.resolve(key);
    else if (base !== null) dir = path.resolve(base, key);
    else continue;
    const prev = seen.get(dir);
    if (prev === undefined) {
      seen.set(dir, p);
      continue;
    }
    if (str(prev.value) === str(p.value)) continue;
    const { line, column } = lineCol(prev.keyPos);
    d.warnings.push({
      pos: p.keyPos,
      message: `${at(["locations", key])}names the same directory (${dir}) as ${q(prev.key)} ` +
        `(${prev.keyPos.info.file}:${line}:${column}) but maps it to another policy; ` +
        `only one of them can apply, keep one`,
    });
  }
}
