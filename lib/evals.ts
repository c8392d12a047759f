/**
 * Eval classification (spec "Eval Classification", RULINGS "Decisions API"): the inline code of
 * `python3 -c`, `node -e`, `bash -c`, heredoc-fed interpreters, … is sent to the Decisions API,
 * which answers seven questions about it; a deterministic rule table and a weighted backstop turn
 * the answers into allow / ask / deny, combined upgrade-only with the location verdict.
 *
 * The settings, the questions and the verdict engine live in evals_settings.ts,
 * evals_questions.ts and evals_rules.ts; this module asks the API and combines the outcome.
 *
 * @module
 */
import {
  DecisionsError,
  type DecisionsErrorKind,
  type DecisionsReply,
  type DecisionsRequest,
  type Question,
  sendDecisions,
} from "./decisions_client.ts";
import { QUESTIONS } from "./evals_questions.ts";
import { type Buckets, judge } from "./evals_rules.ts";
import { type DecisionsSettings, decisionsSettings, type EvalAction } from "./evals_settings.ts";
import { RESTRICTIVENESS, stricter } from "./policy/action.ts";
import { pickRule } from "./policy/rules.ts";
import type { Action, Config, Context, EvalShape, Rule, StageVerdict, Verdict } from "./types.ts";

/** What the eval classification decided for one stage. */
export interface EvalOutcome {
  /** Index of the stage in `verdict.stages`. */
  stage: number;
  command: string | null;
  interpreter: string;
  language: EvalShape["language"];
  via: string;
  /**
   * classified: the API answered; unavailable: the source is not static (no request); error: the
   * request failed; skipped: covered by a session allow or an approval, or the call is denied.
   */
  status: "classified" | "unavailable" | "error" | "skipped";
  action: EvalAction;
  /** The deciding rule id ("backstop" when the score tripped). */
  rule?: string;
  ruleText?: string;
  score?: number;
  backstopThreshold?: number;
  buckets?: Buckets;
  uncertain?: string[];
  /** Whether the answers came from the session cache (no request, no cost). */
  cached?: boolean;
  truncated?: boolean;
  error?: { kind: DecisionsErrorKind; message: string; status?: number };
  /** Why the API was not asked. */
  skipped?: string;
}

/** A verdict with eval classification applied (the engine's Verdict plus what the evals decided). */
export interface ClassifiedVerdict extends Verdict {
  /** One entry per eval stage, in stage order. */
  evals?: EvalOutcome[];
  /** The location verdict's action before eval classification. */
  locationAction?: Action;
  /** Set when an eval made the verdict stricter: the outcome that decided. */
  evalDecided?: EvalOutcome;
}

/** A per-session (extension) or per-run (CLI) cache of replies, keyed by what was asked. */
export interface EvalCache {
  entries: Map<string, Promise<DecisionsReply>>;
  /** How many requests were sent (tests and the trace use it). */
  requests: number;
}

/** A fresh cache. */
export function newEvalCache(): EvalCache {
  return { entries: new Map(), requests: 0 };
}

/** Options of a classification. */
export interface ClassifyOptions {
  cache: EvalCache;
  /** Sent as session_id (a random id per pi session or CLI run). */
  sessionId: string;
  /** The turn's signal. @default undefined (never aborted) */
  signal?: AbortSignal;
  /** Where the token is read from. @default ctx.env */
  env?: Record<string, string | undefined>;
  /**
   * Receives one trace entry per classification (for the log); never sees the token.
   * @default undefined (no trace)
   */
  log?: (entry: Record<string, unknown>) => void;
  /**
   * Why the whole call needs no classification (e.g. "allowed for session"), if it does not.
   * @default null
   */
  skip?: string | null;
  /** Recorded in the trace: who classified (extension, check, replay). @default undefined */
  origin?: string;
  /** Recorded in the trace: the call classified. @default undefined */
  toolCallId?: string;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** The source cut to at most `max` UTF-8 bytes, never inside a character. */
export function truncateSource(source: string, max: number): { text: string; truncated: boolean } {
  const bytes = new TextEncoder().encode(source);
  if (bytes.length <= max) return { text: source, truncated: false };
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return { text: new TextDecoder().decode(bytes.subarray(0, end)), truncated: true };
}

/** The `state` sent for an eval stage. */
export function evalState(
  stage: StageVerdict,
  shape: EvalShape & { source: string },
  s: DecisionsSettings,
): Record<string, unknown> {
  const cut = truncateSource(shape.source, s.maxSourceBytes);
  const state: Record<string, unknown> = {
    kind: "inline_code_eval",
    language: shape.language,
    interpreter: shape.interpreter,
    via: shape.via,
    source: cut.text,
  };
  if (cut.truncated) {
    state.truncated = true;
    state.source_bytes = new TextEncoder().encode(shape.source).length;
  }
  state.command = stage.command;
  state.cwd = stage.cwd;
  state.targets = stage.targets.filter((t) => t.path !== "").map((t) => ({
    path: t.path,
    kind: t.kind,
    ...(t.resolved ? { resolved: t.resolved } : {}),
  }));
  return state;
}

const approvalLists = new WeakMap<Config, Map<string | null, Rule[]>>();

/** The approval rules that apply in a policy (the same array each time, so rules.ts caches it). */
function approvalsIn(config: Config, policy: string | null): Rule[] {
  let byPolicy = approvalLists.get(config);
  if (!byPolicy) approvalLists.set(config, byPolicy = new Map());
  let list = byPolicy.get(policy);
  if (!list) {
    list = config.approvalRules.filter((r) => r.policy === undefined || r.policy === policy);
    byPolicy.set(policy, list);
  }
  return list;
}

/** Whether an approval rule covers the stage: a target decided by one, or one allows its command. */
function approved(config: Config, stage: StageVerdict): boolean {
  if (stage.targets.some((t) => t.approval)) return true;
  if (!config.approvalRules.length || stage.command === null || stage.dynamic) return false;
  const policies = new Set(stage.targets.map((t) => t.policy));
  for (const policy of policies) {
    const rules = approvalsIn(config, policy);
    const picked = pickRule(rules, { tool: "bash", forms: [stage.command] });
    if (picked?.action === "allow") return true;
  }
  return false;
}

function settingsTrace(s: DecisionsSettings): Record<string, unknown> {
  return {
    url: s.url,
    model: s.model,
    timeoutMs: s.timeoutMs,
    maxSourceBytes: s.maxSourceBytes,
    unavailableAction: s.unavailableAction,
    errorAction: s.errorAction,
    yesThreshold: s.yesThreshold,
    noThreshold: s.noThreshold,
    choiceConfidence: s.choiceConfidence,
    riskyMassThreshold: s.riskyMassThreshold,
    backstopThreshold: s.backstopThreshold,
    weights: s.weights,
  };
}

/** Classify one eval stage. Never throws. */
async function classifyStage(
  index: number,
  stage: StageVerdict,
  shape: EvalShape,
  s: DecisionsSettings,
  ctx: Context,
  opts: ClassifyOptions,
): Promise<EvalOutcome> {
  const outcome: EvalOutcome = {
    stage: index,
    command: stage.command,
    interpreter: shape.interpreter,
    language: shape.language,
    via: shape.via,
    status: "classified",
    action: "allow",
  };
  const trace: Record<string, unknown> = {
    event: "eval",
    origin: opts.origin,
    toolCallId: opts.toolCallId,
    stage: index,
    command: stage.command,
    interpreter: shape.interpreter,
    language: shape.language,
    via: shape.via,
    settings: settingsTrace(s),
  };
  const finish = () => {
    trace.status = outcome.status;
    trace.action = outcome.action;
    try {
      opts.log?.(trace);
    } catch { /* the log never breaks a call */ }
    return outcome;
  };
  if (shape.source === null) {
    outcome.status = "unavailable";
    outcome.action = s.unavailableAction;
    trace.note = "the inline code is not static: no request (unavailableAction)";
    return finish();
  }
  const state = evalState(stage, { ...shape, source: shape.source }, s);
  if (state.truncated) outcome.truncated = true;
  const body: DecisionsRequest = {
    model: s.model,
    state,
    questions: QUESTIONS as Record<string, Question>,
    session_id: opts.sessionId,
  };
  trace.request = { url: s.url, body };
  const token = (opts.env ?? ctx.env)[s.tokenEnv] ?? "";
  let reply: DecisionsReply;
  try {
    if (!token) {
      throw new DecisionsError("no_token", `the environment variable ${s.tokenEnv} is not set`);
    }
    const key = JSON.stringify([s.url, s.model, state]);
    let pending = opts.cache.entries.get(key);
    if (pending) outcome.cached = true;
    else {
      opts.cache.requests++;
      pending = sendDecisions(body, {
        url: s.url,
        token,
        timeoutMs: s.timeoutMs,
        signal: opts.signal,
        fetch: opts.fetch,
      });
      opts.cache.entries.set(key, pending);
      // Failures are not remembered: the next call asks again.
      pending.catch(() => {
        if (opts.cache.entries.get(key) === pending) opts.cache.entries.delete(key);
      });
    }
    reply = await pending;
  } catch (e) {
    const err = e instanceof DecisionsError
      ? e
      : new DecisionsError("network", String((e as Error)?.message ?? e));
    outcome.status = "error";
    outcome.action = s.errorAction;
    outcome.error = { kind: err.kind, message: err.message };
    if (err.status !== undefined) outcome.error.status = err.status;
    trace.error = outcome.error;
    return finish();
  }
  trace.cached = outcome.cached ?? false;
  trace.response = {
    id: reply.id,
    model: reply.model,
    provider: reply.provider,
    usage: outcome.cached ? null : reply.usage,
    ms: outcome.cached ? 0 : reply.ms,
    answers: reply.answers,
  };
  const j = judge(reply.answers, s);
  outcome.action = j.action;
  outcome.rule = j.rule;
  outcome.ruleText = j.ruleText;
  outcome.score = j.score;
  outcome.backstopThreshold = s.backstopThreshold;
  outcome.buckets = j.buckets;
  if (j.uncertain) outcome.uncertain = j.uncertain;
  trace.buckets = j.buckets;
  trace.riskyMass = j.riskyMass;
  trace.rule = j.rule;
  trace.ruleText = j.ruleText;
  trace.backstop = j.backstop;
  trace.score = j.score;
  trace.breakdown = j.breakdown;
  if (j.uncertain) trace.uncertain = j.uncertain;
  return finish();
}

/**
 * Classify the eval stages of a verdict and combine upgrade-only with it. Without a decisions
 * block, or without eval stages, the verdict comes back unchanged and nothing is sent.
 */
export async function classify(
  verdict: Verdict,
  config: Config | null,
  ctx: Context,
  opts: ClassifyOptions,
): Promise<ClassifiedVerdict> {
  if (!config?.decisions || verdict.configErrors || verdict.tool !== "bash") return verdict;
  const evalStages = verdict.stages.flatMap((stage, i) => stage.eval ? [{ stage, i }] : []);
  if (!evalStages.length) return verdict;
  const s = decisionsSettings(config.decisions);
  const skipAll = opts.skip ??
    (verdict.action === "deny" ? "the location verdict already denies" : null);
  const outcomes = await Promise.all(evalStages.map(({ stage, i }): Promise<EvalOutcome> => {
    const shape = stage.eval!;
    const skipped = skipAll ?? (approved(config, stage) ? "an approval rule allows it" : null);
    if (skipped) {
      return Promise.resolve({
        stage: i,
        command: stage.command,
        interpreter: shape.interpreter,
        language: shape.language,
        via: shape.via,
        status: "skipped",
        action: "allow",
        skipped,
      });
    }
    return classifyStage(i, stage, shape, s, ctx, opts);
  }));
  const out: ClassifiedVerdict = { ...verdict, evals: outcomes, locationAction: verdict.action };
  const evalAction = outcomes.reduce<Action>((a, o) => stricter(a, o.action), "allow");
  if (RESTRICTIVENESS[evalAction] <= RESTRICTIVENESS[verdict.action]) return out;
  const decider = outcomes.find((o) => o.action === evalAction)!;
  const texts = evalTexts(verdict.stages[decider.stage], decider, evalAction as EvalAction);
  out.action = evalAction;
  out.reason = texts.reason;
  out.notification = texts.notification;
  out.evalDecided = decider;
  delete out.nudge;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Messages

/** Round for messages: at most one decimal. */
function short(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/** What decided, after the dash: `rule deny.exfil (sensitive read + network)`, a score, … */
export function evalDetail(o: EvalOutcome): string {
  if (o.status === "unavailable") {
    return `the inline code is not known before it runs (unavailableAction "${o.action}")`;
  }
  if (o.status === "error") {
    return `the Decisions API could not classify it (${o.error?.kind}: ${o.error?.message}; ` +
      `errorAction "${o.action}")`;
  }
  if (o.rule === "backstop") {
    return `backstop score ${short(o.score ?? 0)} ≥ ${o.backstopThreshold}`;
  }
  const text = o.rule === "ask.uncertain" && o.uncertain?.length
    ? `${o.ruleText}: ${o.uncertain.join(", ")}`
    : o.ruleText;
  return `rule ${o.rule} (${text})`;
}

/** The model's reason and the UI notification when an eval made the verdict stricter. */
export function evalTexts(
  stage: StageVerdict,
  o: EvalOutcome,
  action: EvalAction,
): { reason: string | null; notification: string | null } {
  if (action === "allow") return { reason: null, notification: null };
  const cmd = stage.text ?? stage.command ?? "";
  const detail = evalDetail(o);
  const head = `Access denied by eval classification: bash (${cmd}) — ${detail}.`;
  if (action === "deny") {
    return {
      reason: `${head} Do not retry the same code in another form.`,
      notification: `pi-controls: deny [eval classification]: bash (${cmd}) — ${detail}`,
    };
  }
  return {
    reason: `${head} This call needs the user's confirmation, and it was not given.`,
    notification: `pi-controls: ask [eval classification]: bash — ${cmd} — ${detail}`,
  };
}

/**
 * The session layer's texts fixed for an eval-decided verdict: the agentTimeout breaker words its
 * ask from the location targets, which did not decide here.
 */
export function evalSessionTexts<T extends { action: Action; notification: string | null }>(
  applied: T & { escalation?: string },
  verdict: ClassifiedVerdict,
): T {
  const o = verdict.evalDecided;
  if (!o || applied.escalation !== "agentTimeout") return applied;
  const suffix = applied.notification?.match(/ \(agentTimeout: [^)]*\)$/)?.[0] ?? "";
  const ask = evalTexts(verdict.stages[o.stage], o, "ask").notification;
  return { ...applied, notification: `${ask}${suffix}` };
}

/** A short record of the evals for a decision log line. */
export function evalSummary(v: ClassifiedVerdict): Record<string, unknown>[] | undefined {
  return v.evals?.map((o) => {
    const line: Record<string, unknown> = {
      stage: o.stage,
      interpreter: o.interpreter,
      via: o.via,
      status: o.status,
      action: o.action,
    };
    if (o.rule) line.rule = o.rule;
    if (o.score !== undefined) line.score = o.score;
    if (o.cached) line.cached = true;
    if (o.error) line.error = o.error.kind;
    if (o.skipped) line.skipped = o.skipped;
    return line;
  });
}
