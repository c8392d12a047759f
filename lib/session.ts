/**
 * Session state on top of the engine's verdict: the agentTimeout and nudgeTimeout breakers.
 *
 * @module
 */
import { notificationFor } from "./policy/verdicts.ts";
import { nudgeEscalationReason } from "./policy/messages.ts";
import type { Action, Config, Verdict } from "./types.ts";

/** Per-session breaker state (timestamps in ms). */
export interface SessionState {
  denies: number[];
  nudges: Map<string, number[]>;
}

/** The action after session state, with what escalated it. */
export interface Applied {
  action: Action;
  /** Which breaker changed the engine's action, if any. */
  escalation?: "agentTimeout" | "nudgeTimeout";
  reason: string | null;
  notification: string | null;
}

/** A fresh session. */
export function newSession(): SessionState {
  return { denies: [], nudges: new Map() };
}

function prune(events: number[], now: number, windowSeconds: number): number[] {
  const from = now - windowSeconds * 1000;
  return events.filter((t) => t > from && t <= now);
}

/**
 * Apply the breakers to a verdict at time `now` and record the event (RULINGS: with maxNudges 3
 * the third nudge of a rule in the window is denied and its counter resets; with maxDenies 3 the
 * fourth denied call in the window becomes an ask; every policy deny is recorded).
 */
export function applySession(
  state: SessionState,
  verdict: Verdict,
  config: Config | null,
  now: number,
): Applied {
  let action = verdict.action;
  let reason = verdict.reason;
  let notification = verdict.notification;
  let escalation: Applied["escalation"];
  if (verdict.configErrors || !config) return { action, reason, notification };
  if (action === "nudge" && verdict.nudge && config.nudgeTimeout) {
    const { maxNudges, windowSeconds } = config.nudgeTimeout;
    const events = prune(state.nudges.get(verdict.nudge.key) ?? [], now, windowSeconds);
    events.push(now);
    if (events.length >= maxNudges) {
      state.nudges.delete(verdict.nudge.key);
      action = "deny";
      escalation = "nudgeTimeout";
      const stage = verdict.stages[0];
      const target = stage?.targets[0];
      reason = stage && target
        ? nudgeEscalationReason({ tool: verdict.tool, stage, target }, verdict.nudge.message)
        : `[pi-controls] Access denied. You were repeatedly warned: "${verdict.nudge.message}" You MUST switch approach now.`;
      notification =
        `pi-controls: deny (nudge ignored ${events.length}× in ${windowSeconds}s) — ${verdict.nudge.message}`;
    } else {
      state.nudges.set(verdict.nudge.key, events);
    }
  }
  if (action === "deny") {
    const protectedDeny = verdict.stages.some((s) =>
      s.targets.some((t) => t.action === "deny" && t.protection?.action === "deny")
    );
    if (config.agentTimeout) {
      const { maxDenies, windowSeconds } = config.agentTimeout;
      state.denies = prune(state.denies, now, windowSeconds);
      if (state.denies.length >= maxDenies && !protectedDeny) {
        const base = notificationFor(verdict, "ask") ?? `pi-controls: ask: ${verdict.tool}`;
        notification =
          `${base} (agentTimeout: ${state.denies.length} denied calls in ${windowSeconds}s)`;
        action = "ask";
        escalation = "agentTimeout";
      }
    }
    state.denies.push(now);
  }
  return escalation
    ? { action, escalation, reason, notification }
    : { action, reason, notification };
}
