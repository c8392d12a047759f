/**
 * What the `sandbox` action does to a verdict, decided with it (so `check`, `explain` and pi
 * agree): with an enabled sandbox block, a bash target that asks only because it cannot be seen
 * (an unknown value, a glob over its bounds, a command or script that cannot be read) is
 * sandboxed instead, while an ask that a rule or a protection gives stays an ask; a tool other
 * than bash runs in pi's own process, outside any sandbox: the read tools proceed where the
 * sandbox would let a command read (the verdict says no policy denies it), every other tool asks.
 *
 * @example
 * ```ts
 * import { applySandbox } from "./sandbox_action.ts";
 * // after the stages are decided: applySandbox(config, "bash", stages);
 * ```
 *
 * @module
 */
import { RESTRICTIVENESS, strictest } from "./action.ts";
import { globMatch } from "./glob.ts";
import type { Config, StageVerdict, TargetVerdict } from "../types.ts";

/** pi's tools that only read: a `sandbox` verdict lets them proceed. */
const READ_TOOLS = new Set(["read", "ls", "grep", "find"]);

/** The note of a target a tool's `sandbox` verdict made ask. */
export const OUTSIDE_SANDBOX_NOTE =
  "this tool runs in pi's own process, outside the sandbox, and may write: it asks";

/** The note of a target that asks only because it cannot be seen, sandboxed instead. */
export const UNSEEN_SANDBOXED_NOTE = "cannot be seen before it runs: it runs in the sandbox";

/**
 * Whether a target asks only because something cannot be seen: not a rule's or a protection's
 * ask, and either a place the analysis could not see (an unknown value, a glob judged by its
 * prefix) or a command that cannot be seen, where neither the policy's defaultAction nor any of
 * its bash rules asks (an unknown command could be the one `ask git push *` is about).
 */
export function asksUnseen(config: Config, s: StageVerdict, t: TargetVerdict): boolean {
  if (t.action !== "ask") return false;
  if (t.protection && t.protection.action === t.action) return false;
  if (t.rule && t.rule.action === t.action) return false;
  if (!s.dynamic) return t.kind === "dynamic" || t.kind === "glob";
  const policy = t.policy === null ? undefined : config.policies[t.policy];
  if (!policy) return false;
  if (policy.rules.some((r) => r.action === "ask" && globMatch(r.tool, "bash"))) return false;
  return t.kind === "dynamic" || t.kind === "glob" ||
    RESTRICTIVENESS[policy.defaultAction] < RESTRICTIVENESS.ask;
}

/** Apply the sandbox action to decided stages (in place); each stage's action follows. */
export function applySandbox(config: Config, tool: string, stages: StageVerdict[]): void {
  if (!config.sandbox?.enabled) return;
  for (const s of stages) {
    let changed = false;
    for (const t of s.targets) {
      if (tool === "bash" && asksUnseen(config, s, t)) {
        t.action = "sandbox";
        t.note = t.note ? `${t.note}; ${UNSEEN_SANDBOXED_NOTE}` : UNSEEN_SANDBOXED_NOTE;
        changed = true;
      } else if (tool !== "bash" && t.action === "sandbox" && !READ_TOOLS.has(tool)) {
        t.action = "ask";
        t.note = OUTSIDE_SANDBOX_NOTE;
        changed = true;
      }
    }
    if (changed) s.action = strictest(s.targets.map((t) => t.action));
  }
}
