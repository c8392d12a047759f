/**
 * What the `sandbox` action does to a verdict, decided with it (so `check`, `explain` and pi
 * agree): with an enabled sandbox block, a bash target that asks only because it cannot be seen
 * (an unknown value, a glob over its bounds, a command or script that cannot be read) is
 * sandboxed instead (unless it may reach beyond the cwd where a `deny` glob of any depth could
 * match, which the sandbox cannot hide there), while an ask that a rule or a protection gives stays an ask; a tool other
 * than bash runs in pi's own process, outside any sandbox: the read tools proceed where the
 * sandbox would let a command read (the verdict says no policy denies it), every other tool asks.
 *
 * @example
 * ```ts
 * import { applySandbox } from "./sandbox_action.ts";
 * // after the stages are decided: applySandbox(config, ctx.cwd, "bash", stages);
 * ```
 *
 * @module
 */
import { RESTRICTIVENESS, strictest } from "./action.ts";
import { globMatch } from "./glob.ts";
import { isWithin } from "../shell/paths.ts";
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
export function asksUnseen(
  config: Config,
  cwd: string,
  s: StageVerdict,
  t: TargetVerdict,
): boolean {
  if (t.action !== "ask") return false;
  if (t.protection && t.protection.action === t.action) return false;
  if (t.rule && t.rule.action === t.action) return false;
  const unseen = t.kind === "dynamic" || t.kind === "glob";
  // What may reach beyond the cwd may reach a `deny` glob of any depth (`.env`, `*.pem`), which
  // the sandbox hides only below the cwd.
  if ((unseen || s.dynamic) && !isWithin(t.path || "/", cwd) && anyDepthDeny(config)) return false;
  if (!s.dynamic) return unseen;
  const policy = t.policy === null ? undefined : config.policies[t.policy];
  if (!policy) return false;
  if (policy.rules.some((r) => r.action === "ask" && globMatch(r.tool, "bash"))) return false;
  return unseen || RESTRICTIVENESS[policy.defaultAction] < RESTRICTIVENESS.ask;
}

/** Whether a pathProtection `deny` glob matches at any depth (no absolute or project base). */
function anyDepthDeny(config: Config): boolean {
  return config.pathProtection.some((e) =>
    e.action === "deny" && e.base === null && !e.glob.startsWith("/") && !e.glob.startsWith("~")
  );
}

/** Apply the sandbox action to decided stages (in place); each stage's action follows. */
export function applySandbox(
  config: Config,
  cwd: string,
  tool: string,
  stages: StageVerdict[],
): void {
  if (!config.sandbox?.enabled) return;
  for (const s of stages) {
    let changed = false;
    for (const t of s.targets) {
      if (tool === "bash" && asksUnseen(config, cwd, s, t)) {
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
