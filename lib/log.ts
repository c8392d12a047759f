/**
 * The decision log: JSON Lines at <agentDir>/extensions/pi-controls.log; never breaks a call.
 *
 * @module
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { type ClassifiedVerdict, evalSummary } from "./evals.ts";
import type { Action, Verdict } from "./types.ts";

/** What one decision line records. */
export interface DecisionRecord {
  tool: string;
  toolCallId?: string;
  verdict: Verdict;
  /** The action after escalation and the user's answer. */
  final: Action;
  escalation?: string;
  /** For asks: what the user chose (or why nobody could). */
  choice?: string;
  mode: string;
  input: Record<string, unknown>;
}

/** Append one JSON line; returns false (and never throws) when the log cannot be written. */
export function appendLog(file: string, entry: Record<string, unknown>): boolean {
  try {
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, JSON.stringify({ ts: new Date().toISOString(), ...entry }) + "\n");
    return true;
  } catch {
    return false;
  }
}

/** The log line of a decision: tool, command or targets, policy per target, winning rule, final action. */
export function decisionLine(r: DecisionRecord): Record<string, unknown> {
  const v = r.verdict;
  const line: Record<string, unknown> = {
    event: "decision",
    mode: r.mode,
    tool: r.tool,
    toolCallId: r.toolCallId,
  };
  if (r.tool === "bash") line.command = r.input.command;
  line.engineAction = v.action;
  line.action = r.final;
  if (r.escalation) line.escalation = r.escalation;
  if (r.choice) line.choice = r.choice;
  line.policies = v.policies;
  line.targets = v.stages.flatMap((s) =>
    s.targets.map((t) => ({
      stage: s.command,
      kind: t.kind,
      path: t.path,
      policy: t.policy,
      rule: t.rule,
      action: t.action,
      ...(t.protection ? { protection: t.protection } : {}),
      ...(t.approval ? { approval: t.approval } : {}),
    }))
  );
  const evals = evalSummary(v as ClassifiedVerdict);
  if (evals) {
    // Eval classification ran: the location verdict's action, then what each eval decided.
    line.locationAction = (v as ClassifiedVerdict).locationAction;
    line.evals = evals;
  }
  if (v.configErrors) line.configErrors = v.configErrors;
  if (v.parseError) line.parseError = v.parseError;
  return line;
}
