/**
 * The Decisions API client (RULINGS "Decisions API"): one plain `fetch` POST per classification,
 * a bearer token from the environment, a timeout, and a strict check of the reply against the
 * questions that were sent. Every failure is a `DecisionsError` with a kind.
 *
 * @module
 */

/** A yes/no question: the answer is the probability of yes. */
export interface NoulQuestion {
  type: "noul";
  instructions: string;
}

/** A choice question: the answer is one of the criteria's labels. */
export interface ChoiceQuestion {
  type: "choice";
  instructions: string;
  criteria: Record<string, string>;
}

/** A question as sent to the Decisions API. */
export type Question = NoulQuestion | ChoiceQuestion;

/** A yes/no answer: `noul` is the probability of yes. */
export interface NoulAnswer {
  type: "noul";
  noul: number;
}

/** A choice answer: the chosen label, each label's probability, and the model's confidence. */
export interface ChoiceAnswer {
  type: "choice";
  choice: string;
  probabilities: Record<string, number>;
  confidence: number;
}

/** An answer, keyed in the reply by its question id. */
export type Answer = NoulAnswer | ChoiceAnswer;

/** The request body: `{model, state, questions, session_id}`. */
export interface DecisionsRequest {
  model: string;
  state: Record<string, unknown>;
  questions: Record<string, Question>;
  session_id: string;
}

/** A checked reply: every question answered with the right shape. */
export interface DecisionsReply {
  id: string | null;
  model: string | null;
  provider: string | null;
  /** The reply's usage object as sent (tokens, cost), or null. */
  usage: unknown;
  answers: Record<string, Answer>;
  /** Milliseconds the request took. */
  ms: number;
}

/** Why a classification failed. */
export type DecisionsErrorKind =
  | "no_token"
  | "auth"
  | "http"
  | "timeout"
  | "network"
  | "malformed"
  | "aborted";

/** A failed request, with the kind of failure (and the HTTP status when there was one). */
export class DecisionsError extends Error {
  /** The kind of failure. */
  readonly kind: DecisionsErrorKind;
  /** The HTTP status, for auth and http failures. */
  readonly status?: number;
  /** Creates the error. */
  constructor(kind: DecisionsErrorKind, message: string, status?: number) {
    super(message);
    this.name = "DecisionsError";
    this.kind = kind;
    if (status !== undefined) this.status = status;
  }
}

/** What a request needs besides the body. */
export interface SendOptions {
  url: string;
  /** The bearer token (never logged, never part of an error message). */
  token: string;
  timeoutMs: number;
  /** The turn's signal: aborting it aborts the request. @default undefined (only the timeout) */
  signal?: AbortSignal;
  /** The fetch to use (tests may count calls). @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** A signal that aborts when any of the given ones does. */
function anySignal(signals: AbortSignal[]): AbortSignal {
  const any = (AbortSignal as { any?: (s: AbortSignal[]) => AbortSignal }).any;
  if (any) return any.call(AbortSignal, signals);
  const controller = new AbortController();
  for (const s of signals) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener("abort", () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

/** The text with every occurrence of the token blanked out (a reply might echo the header). */
function scrub(text: string, token: string): string {
  return token ? text.split(token).join("[token]") : text;
}

/** POST one request and check the reply against the questions sent; throws DecisionsError. */
export async function sendDecisions(
  body: DecisionsRequest,
  opts: SendOptions,
): Promise<DecisionsReply> {
  if (!opts.token) throw new DecisionsError("no_token", "no bearer token");
  const doFetch = opts.fetch ?? fetch;
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? anySignal([timeout, opts.signal]) : timeout;
  const started = Date.now();
  let status: number;
  let text: string;
  try {
    const res = await doFetch(opts.url, {
      method: "POST",
      headers: {
        "Authorization": `Bearer ${opts.token}`,
        "Content-Type": "application/json",
        "Accept": "application/json",
      },
      body: JSON.stringify(body),
      signal,
    });
    status = res.status;
    text = await res.text();
  } catch (e) {
    if (opts.signal?.aborted) throw new DecisionsError("aborted", "the turn was aborted");
    if (timeout.aborted) {
      throw new DecisionsError("timeout", `no answer within ${opts.timeoutMs} ms`);
    }
    throw new DecisionsError(
      "network",
      scrub(`request failed: ${(e as Error)?.message ?? String(e)}`, opts.token),
    );
  }
  const snippet = () => scrub(text.slice(0, 200).replace(/\s+/g, " ").trim(), opts.token);
  if (status === 401 || status === 403) {
    throw new DecisionsError("auth", `HTTP ${status}: the token was refused ${snippet()}`, status);
  }
  if (status < 200 || status > 299) {
    throw new DecisionsError("http", `HTTP ${status} ${snippet()}`.trim(), status);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new DecisionsError("malformed", `the reply is not JSON: ${snippet()}`);
  }
  const answers = checkAnswers(json, body.questions);
  const reply = json as Record<string, unknown>;
  const strOrNull = (v: unknown) => (typeof v === "string" ? v : null);
  return {
    id: strOrNull(reply.id),
    model: strOrNull(reply.model),
    provider: strOrNull(reply.provider),
    usage: reply.usage ?? null,
    answers,
    ms: Date.now() - started,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isProbability(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1;
}

/** Every question answered with the shape its type needs; throws a malformed DecisionsError. */
export function checkAnswers(
  reply: unknown,
  questions: Record<string, Question>,
): Record<string, Answer> {
  const bad = (why: string) => new DecisionsError("malformed", why);
  if (!isObject(reply)) throw bad("the reply is not a JSON object");
  const answers = reply.answers;
  if (!isObject(answers)) throw bad('the reply has no "answers" object');
  const out: Record<string, Answer> = {};
  for (const [id, q] of Object.entries(questions)) {
    const a = answers[id];
    if (a === undefined) throw bad(`no answer for "${id}"`);
    if (!isObject(a)) throw bad(`the answer for "${id}" is not an object`);
    if (a.type !== undefined && a.type !== q.type) {
      throw bad(`the answer for "${id}" has type ${JSON.stringify(a.type)}, expected "${q.type}"`);
    }
    if (q.type === "noul") {
      if (!isProbability(a.noul)) {
        throw bad(`the answer for "${id}" has no "noul" probability from 0 to 1`);
      }
      out[id] = { type: "noul", noul: a.noul };
      continue;
    }
    const labels = Object.keys(q.criteria);
    if (typeof a.choice !== "string" || !labels.includes(a.choice)) {
      throw bad(
        `the answer for "${id}" chose ${JSON.stringify(a.choice)}, not one of ${labels.join(", ")}`,
      );
    }
    if (!isProbability(a.confidence)) {
      throw bad(`the answer for "${id}" has no "confidence" from 0 to 1`);
    }
    if (!isObject(a.probabilities)) {
      throw bad(`the answer for "${id}" has no "probabilities" object`);
    }
    const probabilities: Record<string, number> = {};
    for (const [label, p] of Object.entries(a.probabilities)) {
      if (!labels.includes(label)) {
        throw bad(`the answer for "${id}" has an unknown label "${label}"`);
      }
      if (!isProbability(p)) throw bad(`the answer for "${id}" gives "${label}" a bad probability`);
      probabilities[label] = p;
    }
    out[id] = { type: "choice", choice: a.choice, probabilities, confidence: a.confidence };
  }
  return out;
}
