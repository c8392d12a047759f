/**
 * The texts pi-controls shows in the pi UI and sends to the model (spec, "Feedback Messages").
 *
 * @module
 */
import { resolve } from "node:path";
import { DOT_DOT } from "../shell/paths.ts";
import type { Action, ConfigError, StageVerdict, TargetVerdict } from "../types.ts";

/** What a message is about: the tool, the deciding stage (bash) and the deciding target. */
export interface Decider {
  tool: string;
  stage: StageVerdict;
  target: TargetVerdict;
}

const PATH_NOTE =
  "The restriction is on the PATH — not on the tool. Do NOT retry with a different tool.";

function label(t: TargetVerdict): string {
  if (t.protection && t.action === t.protection.action) {
    return t.protection.builtin ? "gate files" : "pathProtection";
  }
  return t.policy ?? "no policy";
}

/** The path a target stands for in messages ("/a/b", or "/a/b/…" for what lies below it). */
function shownPath(t: TargetVerdict): string {
  return t.note && t.kind !== "cwd" && t.kind !== "path" ? t.source ?? t.path : t.path;
}

/** Whether the deciding reason is the target's path rather than a rule about the command. */
function isPathRestriction(d: Decider): boolean {
  const t = d.target;
  if (t.protection && t.action === t.protection.action) return true;
  if (d.tool !== "bash") return t.kind !== "cwd" || t.rule === null;
  return t.kind !== "cwd" && t.path !== "" && (t.rule === null || !t.rule.pattern);
}

/** The part after the dash: `pattern: "git *"`, `blocked path: "/x"`, ... */
function detail(d: Decider, action: Action): string {
  const t = d.target;
  if (d.stage.dynamic || (t.kind === "dynamic" && t.path === "")) {
    return t.note ?? "the command cannot be known before it runs";
  }
  if (isPathRestriction(d)) {
    return `${action === "deny" ? "blocked path" : "path"}: "${shownPath(t)}"`;
  }
  if (d.tool === "bash") {
    if (t.rule?.pattern) return `pattern: "${t.rule.pattern}"`;
    if (t.rule) return `rule: tool "${t.rule.tool}"`;
    if (t.note) return t.note;
    return `no rule matched (defaultAction "${t.action}")`;
  }
  return `tool: "${t.rule?.tool ?? d.tool}"`;
}

/** The UI notification for a decision, or null for a silent allow. */
export function notification(
  d: Decider,
  action: Action,
  opts: { inform?: boolean } = {},
): string | null {
  if (action === "allow") return null;
  const t = d.target;
  const bash = d.tool === "bash";
  const cmd = d.stage.text ?? d.stage.command ?? "";
  if (opts.inform) {
    const subject = bash ? cmd : d.tool;
    return `pi-controls: would-${action} [${label(t)}]: ${subject} — ${detail(d, action)}`;
  }
  if (action === "nudge") return `pi-controls: nudge [${label(t)}] — ${t.rule?.message ?? ""}`;
  if (action === "deny") {
    return `pi-controls: deny [${label(t)}]: ${bash ? `bash (${cmd})` : d.tool} — ${
      detail(d, action)
    }`;
  }
  // ask and log: bash shows the command, other tools the path.
  if (bash) return `pi-controls: ${action} [${label(t)}]: bash — ${cmd}`;
  if (t.kind === "cwd" && t.rule) return `pi-controls: ${action} [${label(t)}]: ${d.tool}`;
  return `pi-controls: ${action} [${label(t)}]: ${d.tool} — path: "${shownPath(t)}"`;
}

/** The text the model receives when the call is blocked (deny, or an ask nobody approved). */
export function reason(d: Decider, action: Action): string | null {
  if (action !== "deny" && action !== "ask") return null;
  const bash = d.tool === "bash";
  const cmd = d.stage.text ?? d.stage.command ?? "";
  const subject = bash ? `bash (${cmd})` : d.tool;
  const by = d.target.protection && d.target.action === d.target.protection.action
    ? d.target.protection.builtin
      ? "pi-controls' protection of its own files (its config, code and log, and pi's settings)"
      : "pathProtection"
    : "policy";
  const head = `Access denied by ${by}: ${subject} — ${detail(d, "deny")}.`;
  let tail: string;
  if (isPathRestriction(d)) tail = ` ${PATH_NOTE}`;
  else if (bash && d.target.rule?.pattern) tail = " Avoid the blocked pattern in any retry.";
  else tail = "";
  const ask = action === "ask"
    ? " This call needs the user's confirmation, and it was not given."
    : "";
  return head + tail + ask;
}

/** The nudge text prepended to the tool result the model sees. */
export function nudgeText(message: string): string {
  return `[pi-controls nudge] ${message}`;
}

/** The deny reason when a nudge rule was ignored too often (spec, "Nudge timeout"). */
export function nudgeEscalationReason(d: Decider, message: string): string {
  const bash = d.tool === "bash";
  const cmd = d.stage.text ?? d.stage.command ?? "";
  const path = d.target.path;
  if (bash) {
    return `[pi-controls] Access denied by policy: bash (${cmd}) — pattern: "${
      d.target.rule?.pattern ?? "*"
    }".\n` +
      `You were repeatedly warned: "${message}" You MUST switch approach now.`;
  }
  return `[pi-controls] Access denied by policy: ${d.tool} — blocked path: "${path}".\n` +
    `The restriction is on the PATH "${path}" — not on the tool.\n` +
    `Do NOT retry with a different tool; all access to these paths is blocked.\n` +
    `You were repeatedly warned: "${message}" You MUST switch approach now.`;
}

/** The warning shown when no config file exists (spec, "Behavior With No Config"). */
export function noConfigWarning(globalPath: string): string {
  return `[pi-controls] No config found — all tool calls are unrestricted. Create ${globalPath} to enforce policies.`;
}

/** The UI error and the model's reason when the config is broken (RULINGS principle 4). */
export function brokenConfig(errors: ConfigError[]): { notification: string; reason: string } {
  const first = errors[0];
  const where = first
    ? `${first.file}:${first.line}:${first.column}: ${first.message}`
    : "unknown error";
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  return {
    notification:
      `pi-controls: config error — ${where}${more}. Every tool call is blocked until it is fixed.`,
    reason: `Access denied: the pi-controls config is broken (${where}${more}). ` +
      `Every tool call is blocked until the user fixes it; do not retry.`,
  };
}

/**
 * The cwds a stage may run in, as shown: each lexically (a cwd kept as the kernel walks it,
 * `/p/link/..`, is shown as `/p`; its targets show where it really leads), without repeats.
 */
export function cwdText(cwds: (string | null)[]): string {
  if (cwds.length === 1 && (cwds[0] === null || !DOT_DOT.test(cwds[0]))) {
    return cwds[0] ?? "(unknown)";
  }
  const shown = cwds.map((c) => (c === null ? "(unknown)" : DOT_DOT.test(c) ? resolve(c) : c));
  return [...new Set(shown)].join(" | ");
}
