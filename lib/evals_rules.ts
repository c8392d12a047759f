/**
 * The verdict engine of eval classification: the answers bucketed against the thresholds, the
 * rule table (the first deny or ask rule that holds decides), and the weighted backstop that can
 * turn an allow into an ask.
 *
 * @module
 */
import type { Answer, ChoiceAnswer } from "./decisions_client.ts";
import {
  NOUL_IDS,
  type NoulId,
  type ReadLabel,
  RISKY_LABELS,
  type WriteLabel,
} from "./evals_questions.ts";
import type { DecisionsSettings, EvalAction, Weights } from "./evals_settings.ts";

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
