/**
 * What a verdict says beyond its action: the stage and target that decided it, the notification
 * it gets when its action changes (a breaker, inform mode), and the verdicts made without
 * deciding (a broken config denies every call, no config allows it).
 *
 * @module
 */
import { brokenConfig, type Decider, notification } from "./messages.ts";
import type { Action, ConfigError, StageVerdict, ToolCall, Verdict } from "../types.ts";

/** The stage and target that produced the final action (first one, preferring a named path). */
export function findDecider(tool: string, stages: StageVerdict[], action: Action): Decider | null {
  for (const stage of stages) {
    const hits = stage.targets.filter((t) => t.action === action);
    if (!hits.length) continue;
    const target = hits.find((t) => t.rule?.pattern) ?? hits.find((t) => t.protection) ??
      hits.find((t) => t.kind !== "cwd") ?? hits[0];
    return { tool, stage, target };
  }
  return null;
}

/** The notification a verdict gets when its action becomes `action` (breakers, inform mode). */
export function notificationFor(
  v: Verdict,
  action: Action,
  opts: { inform?: boolean } = {},
): string | null {
  const d = findDecider(v.tool, v.stages, v.action);
  return d ? notification(d, action, opts) : null;
}

/** The inform-mode notification (`pi-controls: would-deny [policy]: …`) for a verdict. */
export function informNotification(v: Verdict, action: Action): string | null {
  return notificationFor(v, action, { inform: true });
}

/** The verdict for any call while the config is broken: denied, naming file:line:col. */
export function brokenConfigVerdict(errors: ConfigError[], call: ToolCall): Verdict {
  const texts = brokenConfig(errors);
  return {
    action: "deny",
    tool: call.tool,
    policies: [],
    reason: texts.reason,
    notification: texts.notification,
    stages: [],
    configErrors: errors,
  };
}

/** The verdict for any call when no config exists: allowed (fail open). */
export function unconfiguredVerdict(call: ToolCall): Verdict {
  return {
    action: "allow",
    tool: call.tool,
    policies: [],
    reason: null,
    notification: null,
    stages: [],
  };
}
