/**
 * The order of actions, defined once: how restrictive each is
 * (deny > ask > sandbox > log > nudge > allow),
 * the tie-break between rules of equal specificity (least disruptive first), and the rank of
 * pathProtection actions. "Strictest wins" anywhere in pi-controls is a max over this order.
 *
 * @example
 * ```ts
 * import { stricter, strictest } from "./action.ts";
 * stricter("allow", "ask"); // "ask"
 * strictest(["log", "nudge"]); // "log"
 * ```
 *
 * @module
 */
import type { Action, ProtectionAction } from "../types.ts";

/**
 * Restrictiveness across targets and stages: deny > ask > sandbox > log > nudge > allow (a
 * sandboxed call proceeds, inside boundaries: less than asking, more than running freely).
 */
export const RESTRICTIVENESS: Readonly<Record<Action, number>> = {
  allow: 0,
  nudge: 1,
  log: 2,
  sandbox: 3,
  ask: 4,
  deny: 5,
};

/**
 * Tie-break at equal specificity, least disruptive first: allow > nudge > sandbox > ask > deny >
 * log.
 */
export const TIE_BREAK: Readonly<Record<Action, number>> = {
  allow: 0,
  nudge: 1,
  sandbox: 2,
  ask: 3,
  deny: 4,
  log: 5,
};

/** The rank of pathProtection actions, in the same order as RESTRICTIVENESS. */
export const PROTECTION_RANK: Readonly<Record<ProtectionAction, number>> = {
  log: RESTRICTIVENESS.log,
  ask: RESTRICTIVENESS.ask,
  deny: RESTRICTIVENESS.deny,
};

/** Whether `a` is strictly more restrictive than `b`. */
export function isStricter(a: Action, b: Action): boolean {
  return RESTRICTIVENESS[a] > RESTRICTIVENESS[b];
}

/** The more restrictive of two actions (the first of equals). */
export function stricter(a: Action, b: Action): Action {
  return RESTRICTIVENESS[b] > RESTRICTIVENESS[a] ? b : a;
}

/** The most restrictive action of a list (`allow` for an empty one). */
export function strictest(actions: Iterable<Action>): Action {
  let out: Action = "allow";
  for (const a of actions) out = stricter(out, a);
  return out;
}
