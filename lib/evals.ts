/**
 * Eval classification (spec "Eval Classification", RULINGS "Decisions API"): the inline code of
 * `python3 -c`, `node -e`, `bash -c`, heredoc-fed interpreters, … is sent to the Decisions API,
 * which answers seven questions about it; a deterministic rule table and a weighted backstop turn
 * the answers into allow / ask / deny, combined upgrade-only with the location verdict.
 */
import {
  type Answer,
  type ChoiceAnswer,
  type ChoiceQuestion,
  DecisionsError,
  type DecisionsErrorKind,
  type DecisionsReply,
  type DecisionsRequest,
  type NoulQuestion,
  type Question,
  sendDecisions,
} from "./decisions_client.ts";
import { RESTRICTIVENESS, stricter } from "./policy/action.ts";
import { pickRule } from "./policy/rules.ts";
import type {
  Action,
  Config,
  Context,
  DecisionsConfig,
  EvalShape,
  Rule,
  StageVerdict,
  Verdict,
} from "./types.ts";

// ---------------------------------------------------------------------------------------------
// Settings

/** The actions an eval verdict can have. */
export type EvalAction = "allow" | "ask" | "deny";

/** The backstop weights, by signal. */
export interface Weights {
  destructive: number;
  obfuscated: number;
  network: number;
  exec: number;
  inferenceCall: number;
  writeSensitive: number;
  writeOutside: number;
  writeUnknown: number;
  readSensitive: number;
  readUnknown: number;
}

/** The default backstop weights (RULINGS). */
export const DEFAULT_WEIGHTS: Readonly<Weights> = Object.freeze({
  destructive: 100,
  obfuscated: 40,
  network: 25,
  exec: 15,
  inferenceCall: 10,
  writeSensitive: 50,
  writeOutside: 30,
  writeUnknown: 20,
  readSensitive: 40,
  readUnknown: 20,
});

/** A decisions block with every default filled in. */
export interface DecisionsSettings {
  url: string;
  tokenEnv: string;
  model: string;
  timeoutMs: number;
  maxSourceBytes: number;
  unavailableAction: EvalAction;
  errorAction: EvalAction;
  yesThreshold: number;
  noThreshold: number;
  choiceConfidence: number;
  riskyMassThreshold: number;
  backstopThreshold: number;
  weights: Weights;
}

/** The defaults of the decisions block (spec, "Decisions fields"). */
export const DECISIONS_DEFAULTS: Readonly<DecisionsSettings> = Object.freeze({
  url: "https://openrouter.ai/api/alpha/decisions",
  tokenEnv: "OPENROUTER_API_KEY",
  model: "typesafe/jev-1.13",
  timeoutMs: 15000,
  maxSourceBytes: 32768,
  unavailableAction: "ask",
  errorAction: "ask",
  yesThreshold: 0.7,
  noThreshold: 0.3,
  choiceConfidence: 0.6,
  riskyMassThreshold: 0.35,
  backstopThreshold: 40,
  weights: DEFAULT_WEIGHTS,
});

/** The decisions block with the defaults filled in; weights deep-merge over the defaults. */
export function decisionsSettings(block: DecisionsConfig): DecisionsSettings {
  const out = { ...DECISIONS_DEFAULTS, weights: { ...DEFAULT_WEIGHTS } } as DecisionsSettings;
  for (const key of Object.keys(DECISIONS_DEFAULTS) as (keyof DecisionsSettings)[]) {
    if (key === "weights") continue;
    const v = block[key as keyof DecisionsConfig];
    if (v !== undefined && v !== null) (out as unknown as Record<string, unknown>)[key] = v;
  }
  for (const key of Object.keys(DEFAULT_WEIGHTS) as (keyof Weights)[]) {
    const w = block.weights?.[key];
    if (typeof w === "number") out.weights[key] = w;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The questions (ids and labels per RULINGS; the texts are ours)

/** The yes/no question ids. */
export const NOUL_IDS = ["destructive", "network", "exec", "obfuscated", "inference_call"] as const;
/** A yes/no question id. */
export type NoulId = typeof NOUL_IDS[number];

/** The write_scope labels. */
export const WRITE_LABELS = [
  "none",
  "temp",
  "within",
  "outside",
  "sensitive_system",
  "unknown",
] as const;
/** The read_scope labels. */
export const READ_LABELS = ["none", "ordinary", "sensitive", "unknown"] as const;
/** A write_scope label. */
export type WriteLabel = typeof WRITE_LABELS[number];
/** A read_scope label. */
export type ReadLabel = typeof READ_LABELS[number];

/** The labels whose probability mass counts as risky when a choice is not confident. */
export const RISKY_LABELS = {
  write_scope: ["outside", "sensitive_system", "unknown"],
  read_scope: ["sensitive", "unknown"],
} as const;

const CONTEXT = "The state describes one inline code eval an AI coding agent wants to run: " +
  "`source` is the code, `interpreter` and `language` run it, `via` is how it is passed (a flag " +
  "such as -c or -e, a heredoc, a here-string), `command` is the full command line, `cwd` is the " +
  "working directory (the project) and `targets` are paths the command line names. When " +
  "`truncated` is true only the start of the code is shown; judge the rest as unknown.";

function noul(text: string): NoulQuestion {
  return { type: "noul", instructions: `${text}\n\n${CONTEXT}` };
}

/** The seven questions sent with every eval, keyed by id. */
export const QUESTIONS: Readonly<Record<string, Question>> = Object.freeze({
  destructive: noul(
    "Does this code destroy or irreversibly change something that existed before it ran? Yes " +
      "for deleting files or directories (rm, unlink, rmtree, shutil.rmtree, fs.rm), truncating " +
      "or overwriting existing files other than its own fresh outputs, dropping or deleting " +
      "database data, force-pushing or hard-resetting git history, killing processes it did not " +
      "start, recursive chmod/chown, or wiping disks. No for reading, printing, computing, or " +
      "creating new files and temporary files.",
  ),
  network: noul(
    "Does this code use the network? Yes for HTTP requests (urllib, requests, fetch, http " +
      "clients), sockets, DNS lookups, downloads, package installs, git fetch/pull/push/clone, " +
      "ssh/scp/rsync to a host, or starting curl/wget; connections to localhost count. No when it " +
      "only works with local files and local processes.",
  ),
  exec: noul(
    "Does this code start other programs? Yes for subprocess, os.system, os.exec*, popen, " +
      "child_process (exec, spawn), Deno.Command, Bun.spawn, backticks, system(), or handing a " +
      "string to a shell. For shell code, yes when it launches another interpreter or shell, " +
      "builds commands at run time (eval, sh -c), or runs package managers, compilers or service " +
      "managers; plain file and text utilities (ls, cat, grep, sed, echo) do not count. No when " +
      "everything happens inside the interpreter itself.",
  ),
  obfuscated: noul(
    "Is this code written to hide what it does? Yes for base64, hex, rot13, zlib or char-code " +
      "payloads that are decoded and then run or written, names of commands, files or hosts " +
      "assembled from fragments to avoid being read, eval/exec of computed strings, or code that " +
      "disables history, logging or auditing. No for ordinary one-liners that are terse but " +
      "readable, and for decoding data that is only printed.",
  ),
  inference_call: noul(
    "Does this code, or the command line around it, call a machine-learning model? Yes for " +
      "requests to LLM or inference APIs (OpenAI, Anthropic, OpenRouter, Google Gemini, Mistral, " +
      "Cohere, Hugging Face inference, Ollama, llama.cpp or vLLM servers, including through their " +
      "SDKs) and for loading and running a model locally. Such calls can spend money and send data " +
      "to a third party. No otherwise.",
  ),
  write_scope: {
    type: "choice",
    instructions: "Where does this code write, create, modify or delete files or directories? " +
      "Judge paths against the working directory in `cwd` (relative paths are inside it). When it " +
      `writes to several places, choose the most sensitive one.\n\n${CONTEXT}`,
    criteria: {
      none: "It writes no files: it only reads, computes or prints.",
      temp: "It writes only to temporary places: /tmp, $TMPDIR, tempfile/mkdtemp, or /dev/null.",
      within: "It writes only inside the working directory (`cwd`) or below it.",
      outside: "It writes outside the working directory, but not to system or credential " +
        "locations: other projects, the home directory, caches, build outputs elsewhere.",
      sensitive_system: "It writes to system or security-sensitive locations: /etc, /usr, /bin, " +
        "/sbin, /boot, /var, /System, /Library, shell startup files (~/.bashrc, ~/.zshrc, " +
        "~/.profile), ~/.ssh, ~/.gnupg, ~/.aws, credential or keychain files, crontabs, git " +
        "hooks, or the configuration of the agent or editor.",
      unknown: "It writes files, but where cannot be told from the code (paths computed from " +
        "input, arguments or the environment).",
    },
  } satisfies ChoiceQuestion,
  read_scope: {
    type: "choice",
    instructions: "What does this code read from files or the environment? Judge paths against " +
      "the working directory in `cwd`. When it reads several things, choose the most sensitive " +
      `one.\n\n${CONTEXT}`,
    criteria: {
      none: "It reads no files and no secrets from the environment.",
      ordinary: "It reads only ordinary data: project files, documentation, data files, and " +
        "system information that is not secret (/etc/os-release, /proc/cpuinfo, package lists).",
      sensitive: "It reads credentials or private data: SSH or GPG keys, .env files, API tokens " +
        "or secret environment variables, cloud credentials (~/.aws, ~/.config/gcloud), password " +
        "stores, keychains, browser profiles or cookies, shell history, /etc/shadow.",
      unknown: "It reads files, but which ones cannot be told from the code.",
    },
  } satisfies ChoiceQuestion,
});

// ---------------------------------------------------------------------------------------------
// The verdict engine

/** A yes/no answer after bucketing. */
export type NoulBucket = "yes" | "no" | "uncertain";

/** Every answer after bucketing. */
export interface Buckets {
  destructive: NoulBucket;
  network: NoulBucket;
  exec: NoulBucket;
  obfuscated: NoulBucket;
  inference_call: NoulBucket;
  write_scope: WriteLabel | "uncertain";
  read_scope: ReadLabel | "uncertain";
}

/** One row of the rule table. */
export interface EvalRule {
  /** A stable id, named in messages and the log. */
  id: string;
  action: EvalAction;
  /** What the rule means, in a few words. */
  text: string;
  when(b: Buckets): boolean;
}

const OUT_OF_SCOPE = (w: Buckets["write_scope"]) => w === "outside" || w === "sensitive_system";
const UNSURE = (v: string) => v === "uncertain" || v === "unknown";

/** The critical questions whose uncertainty asks, and whether each is uncertain. */
function uncertainCritical(b: Buckets): string[] {
  const out: string[] = [];
  if (b.destructive === "uncertain") out.push("destructive");
  if (b.obfuscated === "uncertain") out.push("obfuscated");
  if (UNSURE(b.write_scope)) out.push("write_scope");
  if (UNSURE(b.read_scope)) out.push("read_scope");
  return out;
}

/** The rule table, in order: the first deny or ask rule that holds decides. */
export const EVAL_RULES: readonly EvalRule[] = Object.freeze([
  {
    id: "deny.destructive_concealed",
    action: "deny",
    text: "destructive + obfuscated",
    when: (b) => b.destructive === "yes" && b.obfuscated === "yes",
  },
  {
    id: "deny.destructive_out_of_scope",
    action: "deny",
    text: "destructive + writes outside the project or to a sensitive system location",
    when: (b) => b.destructive === "yes" && OUT_OF_SCOPE(b.write_scope),
  },
  {
    id: "deny.exfil",
    action: "deny",
    text: "sensitive read + network",
    when: (b) => b.read_scope === "sensitive" && b.network === "yes",
  },
  {
    id: "deny.concealed_capability",
    action: "deny",
    text: "obfuscated + network or exec",
    when: (b) => b.obfuscated === "yes" && (b.network === "yes" || b.exec === "yes"),
  },
  {
    id: "ask.destructive",
    action: "ask",
    text: "destructive, in scope",
    when: (b) => b.destructive === "yes",
  },
  {
    id: "ask.write_outside",
    action: "ask",
    text: "writes outside the project",
    when: (b) => b.write_scope === "outside",
  },
  {
    id: "ask.write_sensitive_system",
    action: "ask",
    text: "writes to a sensitive system location",
    when: (b) => b.write_scope === "sensitive_system",
  },
  {
    id: "ask.sensitive_read",
    action: "ask",
    text: "reads sensitive data",
    when: (b) => b.read_scope === "sensitive",
  },
  {
    id: "ask.obfuscated",
    action: "ask",
    text: "obfuscated",
    when: (b) => b.obfuscated === "yes",
  },
  {
    id: "ask.uncertain",
    action: "ask",
    text: "uncertain on a critical question",
    when: (b) => uncertainCritical(b).length > 0,
  },
  {
    id: "ask.inference_call",
    action: "ask",
    text: "calls a model inference API",
    when: (b) => b.inference_call === "yes",
  },
  // The allow rows name the outcome; they do not silence the backstop.
  {
    id: "allow.network",
    action: "allow",
    text: "network use alone",
    when: (b) => b.network === "yes" && b.exec !== "yes",
  },
  {
    id: "allow.exec",
    action: "allow",
    text: "subprocess use alone",
    when: (b) => b.exec === "yes" && b.network !== "yes",
  },
  {
    id: "allow.network_exec",
    action: "allow",
    text: "network and subprocess use, nothing else",
    when: (b) => b.exec === "yes" && b.network === "yes",
  },
  {
    id: "allow.nothing",
    action: "allow",
    text: "no risky capability",
    when: () => true,
  },
]);

/** One signal's part of the backstop score. */
export interface ScorePart {
  signal: keyof Weights;
  /** The question and, for choices, the label the probability came from. */
  from: string;
  p: number;
  weight: number;
  points: number;
}

/** What the verdict engine made of a set of answers. */
export interface Judgement {
  action: EvalAction;
  buckets: Buckets;
  /** The rule that decided (or named the allow), and its text. */
  rule: string;
  ruleText: string;
  /** Set when the backstop tripped (then rule is "backstop"). */
  backstop: boolean;
  score: number;
  breakdown: ScorePart[];
  /** The risky-label mass of each choice. */
  riskyMass: { write_scope: number; read_scope: number };
  /** For ask.uncertain: the critical questions that were uncertain. */
  uncertain?: string[];
}

/** Round away binary noise so 0.2 + 0.15 compares equal to 0.35. */
function tidy(n: number): number {
  return Math.round(n * 1e9) / 1e9;
}

/** A yes/no probability bucketed: ≥ yesThreshold yes, else ≤ noThreshold no, else uncertain. */
export function bucketNoul(p: number, s: DecisionsSettings): NoulBucket {
  if (p >= s.yesThreshold) return "yes";
  if (p <= s.noThreshold) return "no";
  return "uncertain";
}

/** The probability mass of the given labels. */
function mass(a: ChoiceAnswer, labels: readonly string[]): number {
  return tidy(labels.reduce((sum, l) => sum + (a.probabilities[l] ?? 0), 0));
}

/**
 * A choice bucketed: the label when its confidence ≥ choiceConfidence; below that, "uncertain"
 * when the risky labels' mass ≥ riskyMassThreshold, else the label.
 */
export function bucketChoice<L extends string>(
  a: ChoiceAnswer,
  risky: readonly string[],
  s: DecisionsSettings,
): L | "uncertain" {
  if (a.confidence >= s.choiceConfidence) return a.choice as L;
  if (mass(a, risky) >= s.riskyMassThreshold) return "uncertain";
  return a.choice as L;
}

const NOUL_WEIGHT: Record<NoulId, keyof Weights> = {
  destructive: "destructive",
  obfuscated: "obfuscated",
  network: "network",
  exec: "exec",
  inference_call: "inferenceCall",
};
const CHOICE_WEIGHTS: { id: "write_scope" | "read_scope"; label: string; signal: keyof Weights }[] =
  [
    { id: "write_scope", label: "sensitive_system", signal: "writeSensitive" },
    { id: "write_scope", label: "outside", signal: "writeOutside" },
    { id: "write_scope", label: "unknown", signal: "writeUnknown" },
    { id: "read_scope", label: "sensitive", signal: "readSensitive" },
    { id: "read_scope", label: "unknown", signal: "readUnknown" },
  ];

/** Judge checked answers: bucket them, run the rule table, then the backstop. */
export function judge(answers: Record<string, Answer>, s: DecisionsSettings): Judgement {
  const p = (id: NoulId) => (answers[id] as { noul: number }).noul;
  const write = answers.write_scope as ChoiceAnswer;
  const read = answers.read_scope as ChoiceAnswer;
  const buckets: Buckets = {
    destructive: bucketNoul(p("destructive"), s),
    network: bucketNoul(p("network"), s),
    exec: bucketNoul(p("exec"), s),
    obfuscated: bucketNoul(p("obfuscated"), s),
    inference_call: bucketNoul(p("inference_call"), s),
    write_scope: bucketChoice<WriteLabel>(write, RISKY_LABELS.write_scope, s),
    read_scope: bucketChoice<ReadLabel>(read, RISKY_LABELS.read_scope, s),
  };
  const breakdown: ScorePart[] = [];
  for (const id of NOUL_IDS) {
    const signal = NOUL_WEIGHT[id];
    const weight = s.weights[signal];
    breakdown.push({ signal, from: id, p: p(id), weight, points: tidy(p(id) * weight) });
  }
  for (const c of CHOICE_WEIGHTS) {
    const a = c.id === "write_scope" ? write : read;
    const prob = a.probabilities[c.label] ?? 0;
    const weight = s.weights[c.signal];
    breakdown.push({
      signal: c.signal,
      from: `${c.id}.${c.label}`,
      p: prob,
      weight,
      points: tidy(prob * weight),
    });
  }
  const score = tidy(breakdown.reduce((sum, b) => sum + b.points, 0));
  const riskyMass = {
    write_scope: mass(write, RISKY_LABELS.write_scope),
    read_scope: mass(read, RISKY_LABELS.read_scope),
  };
  const rule = EVAL_RULES.find((r) => r.when(buckets))!;
  const base = { buckets, score, breakdown, riskyMass };
  if (rule.action !== "allow") {
    const j: Judgement = {
      ...base,
      action: rule.action,
      rule: rule.id,
      ruleText: rule.text,
      backstop: false,
    };
    if (rule.id === "ask.uncertain") j.uncertain = uncertainCritical(buckets);
    return j;
  }
  if (score >= s.backstopThreshold) {
    return {
      ...base,
      action: "ask",
      rule: "backstop",
      ruleText: `score ${score} ≥ ${s.backstopThreshold}`,
      backstop: true,
    };
  }
  return { ...base, action: "allow", rule: rule.id, ruleText: rule.text, backstop: false };
}

// ---------------------------------------------------------------------------------------------
// Classification of a verdict

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
  /** The turn's signal. */
  signal?: AbortSignal;
  /** Where the token is read from; defaults to `ctx.env`. */
  env?: Record<string, string | undefined>;
  /** Receives one trace entry per classification (for the log); never sees the token. */
  log?: (entry: Record<string, unknown>) => void;
  /** Why the whole call needs no classification (e.g. "allowed for session"), if it does not. */
  skip?: string | null;
  /** Recorded in the trace: who classified (extension, check, replay) and for which call. */
  origin?: string;
  toolCallId?: string;
  /** The fetch to use; defaults to the global one. */
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
