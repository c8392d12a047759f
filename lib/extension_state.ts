/**
 * The pi extension's session state, apart from pi: the mode, and for each pi session the circuit
 * breakers (agentTimeout, nudgeTimeout), the calls allowed for the session, the eval
 * classification's reply cache and Decisions session id, the nudges waiting for their call's
 * result, and the last decisions `/controls` lists. Plain data and functions: `extension.ts`
 * wires pi's events to them, and `extension_state_test.ts` drives them without pi.
 *
 * @example
 * ```ts
 * const state = newExtensionState();
 * startSession(state);
 * const verdict = await classifyInSession(state, decided, config, ctx, { toolCallId: "c1" });
 * const applied = applyBreakers(state, verdict, config, Date.now());
 * if (applied.action === "ask" && allowedForSession(state, verdict)) {
 *   // the user allowed this call for the session: no dialog
 * }
 * ```
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import {
  type ClassifiedVerdict,
  classify,
  type EvalCache,
  evalSessionTexts,
  newEvalCache,
} from "./evals.ts";
import { nudgeText } from "./policy/messages.ts";
import { type Applied, applySession, newSession, type SessionState } from "./session.ts";
import type { Config, Context, Verdict } from "./types.ts";

/** The three modes of `/controls`: enforce the verdicts, only tell them (inform), or do nothing. */
export type Mode = "enforce" | "inform" | "ignore";

/** The modes, in the order `/controls` completes them. */
export const MODES: readonly Mode[] = ["enforce", "inform", "ignore"];

/** How many of the last decisions `/controls` lists. */
export const RECENT_DECISIONS = 10;

/** The extension's state: the mode for the process, the rest for the current pi session. */
export interface ExtensionState {
  /** What the gate does with its verdicts (kept across pi sessions). */
  mode: Mode;
  /** The agentTimeout and nudgeTimeout breakers of this pi session. */
  breakers: SessionState;
  /** The keys ({@linkcode sessionKey}) of the calls the user allowed for this session. */
  allows: Set<string>;
  /** The eval classification's replies, one cache per pi session. */
  evalCache: EvalCache;
  /** The Decisions session id of this pi session. */
  evalSession: string;
  /** Nudge messages waiting for their call's result, by tool call id. */
  nudges: Map<string, string>;
  /** The last decisions, `HH:MM:SS action tool what`, oldest first (kept across pi sessions). */
  recent: string[];
}

/** A fresh state: enforce mode and an empty session. */
export function newExtensionState(): ExtensionState {
  return {
    mode: "enforce",
    breakers: newSession(),
    allows: new Set(),
    evalCache: newEvalCache(),
    evalSession: randomUUID(),
    nudges: new Map(),
    recent: [],
  };
}

/**
 * A new pi session: the breakers, the session allows, the eval cache and session id and the
 * pending nudges start over; the mode and the last decisions stay.
 */
export function startSession(state: ExtensionState): void {
  state.breakers = newSession();
  state.allows = new Set();
  state.evalCache = newEvalCache();
  state.evalSession = randomUUID();
  state.nudges.clear();
}

/** The mode `/controls ARG` names, or null when ARG is none of them. */
export function parseMode(arg: string): Mode | null {
  return MODES.includes(arg as Mode) ? arg as Mode : null;
}

/**
 * A key for "Allow for session". Other tools: the tool and its targets (lexical and resolved).
 * Bash: each stage's command and the directory it runs in, and the policies that asked. Not the
 * bash targets themselves: a bare operand is a target only once the file exists, so `touch x`
 * would never match itself after it ran; the same command in the same place touches the same
 * files, and a symlink that now leads into another asking policy changes the key.
 */
export function sessionKey(v: Verdict): string {
  if (v.tool !== "bash") {
    const targets = v.stages.flatMap((s) =>
      s.targets.map((t) => `${t.kind}:${t.path}\u0001${t.resolved ?? ""}`)
    );
    return `${v.tool}\u0000${targets.join("\u0002")}`;
  }
  const stages = v.stages.map((s) =>
    [s.command ?? "", s.text ?? "", s.cwd, s.dynamic ? "dynamic" : ""].join("\u0001")
  );
  const policies = [
    ...new Set(
      v.stages.flatMap((s) =>
        s.targets.filter((t) => t.action === "ask").map((t) => t.policy ?? "(none)")
      ),
    ),
  ].sort();
  return `bash\u0000${stages.join("\u0002")}\u0000${policies.join("\u0002")}`;
}

/** Whether a verdict asks for a protected path (pathProtection, the gate's own files). */
export function isProtectionAsk(v: Verdict): boolean {
  return v.stages.some((s) =>
    s.targets.some((t) => t.action === "ask" && t.protection?.action === "ask")
  );
}

/** "Allow for session": calls with the same {@linkcode sessionKey} are let through from now on. */
export function allowForSession(state: ExtensionState, v: Verdict): void {
  state.allows.add(sessionKey(v));
}

/**
 * Whether the user allowed a call like this one for the session. A protected path is never
 * allowed for the session, only once.
 */
export function allowedForSession(state: ExtensionState, v: Verdict): boolean {
  return state.allows.has(sessionKey(v)) && !isProtectionAsk(v);
}

/** What a classification in the extension needs of the call. */
export interface SessionClassifyOptions {
  /** The call's id, recorded in the trace. */
  toolCallId: string;
  /** The turn's signal. @default undefined */
  signal?: AbortSignal;
  /** Receives one trace entry per classification. @default undefined */
  log?: (entry: Record<string, unknown>) => void;
}

/**
 * Classify a verdict's inline code evals (only with a decisions block; upgrade-only) with the
 * session's reply cache and Decisions session id; a call allowed for the session is not asked
 * about.
 */
export function classifyInSession(
  state: ExtensionState,
  verdict: Verdict,
  config: Config,
  ctx: Context,
  opts: SessionClassifyOptions,
): Promise<ClassifiedVerdict> {
  return classify(verdict, config, ctx, {
    cache: state.evalCache,
    sessionId: state.evalSession,
    signal: opts.signal,
    origin: "extension",
    toolCallId: opts.toolCallId,
    log: opts.log,
    skip: allowedForSession(state, verdict) ? "allowed for session" : null,
  });
}

/**
 * The action after the session's breakers at time `now` (ms), the event recorded; with no
 * config (a broken one), the verdict's own action and texts.
 */
export function applyBreakers(
  state: ExtensionState,
  verdict: ClassifiedVerdict,
  config: Config | null,
  now: number,
): Applied {
  return config
    ? evalSessionTexts(applySession(state.breakers, verdict, config, now), verdict)
    : { action: verdict.action, reason: verdict.reason, notification: verdict.notification };
}

/** Keep a nudge's message until its call's result comes back. */
export function holdNudge(state: ExtensionState, toolCallId: string, message: string): void {
  state.nudges.set(toolCallId, message);
}

/** The nudge message held for a call, taken (it is shown once), or undefined. */
export function takeNudge(state: ExtensionState, toolCallId: string): string | undefined {
  const message = state.nudges.get(toolCallId);
  if (message !== undefined) state.nudges.delete(toolCallId);
  return message;
}

/** One block of a tool result's content. */
export interface ContentBlock {
  type: string;
  text?: string;
}

/**
 * A tool result's content with the nudge in front. pi's providers join a result's text blocks
 * with "\n": the nudge goes into the first text block, so that the model sees exactly the nudge,
 * a blank line, then the output.
 */
export function nudgedContent(content: ContentBlock[], message: string): ContentBlock[] {
  const out = [...content];
  const first = out[0];
  if (first?.type === "text") {
    out[0] = { ...first, text: `${nudgeText(message)}\n\n${first.text ?? ""}` };
  } else out.unshift({ type: "text", text: nudgeText(message) });
  return out;
}

/** Record a decision for `/controls`: the last {@linkcode RECENT_DECISIONS}, stamped `HH:MM:SS`. */
export function remember(state: ExtensionState, text: string, now: number): void {
  state.recent.push(`${new Date(now).toISOString().slice(11, 19)} ${text}`);
  if (state.recent.length > RECENT_DECISIONS) state.recent.shift();
}
