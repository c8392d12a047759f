/**
 * Rules: which rule of a policy wins for a call (tool and pattern globs, specificity, tie-break).
 *
 * @module
 */
import { RESTRICTIVENESS, stricter, TIE_BREAK } from "./action.ts";
import { globToRegExp, specificity } from "./glob.ts";
import { presetAccepts, presetForm, type StageFacts } from "./safe_bash.ts";
import type { Action, Config, Policy, Rule } from "../types.ts";

/** A rule with its globs compiled and its score precomputed. */
export interface CompiledRule {
  rule: Rule;
  tool: RegExp;
  pattern: RegExp | null;
  /** Score against a non-bash tool (from `tool`) or a bash command (from `pattern`, 0 without). */
  score: number;
}

/** What a policy is asked about: a tool, and for bash the stage's command forms. */
export interface Subject {
  tool: string;
  /** Bash only: the forms of the stage's command (as it runs, by basename, ...). */
  forms?: string[];
  /** Bash only: the stage facts preset checks look at. */
  stage?: StageFacts;
  /** Bash only: the command cannot be known statically (any bash rule could apply). */
  unknown?: boolean;
}

/** The outcome of a policy (or approval list) for a subject. */
export interface RuleResult {
  action: Action;
  rule: Rule | null;
  score: number;
  /** The form the rule matched (bash), for explain. */
  form?: string;
  note?: string;
  /** Bash: a form no rule matched (its defaultAction then competes). */
  unmatched?: string;
  /** Every candidate that matched with its score, for explain. */
  candidates?: { rule: Rule; score: number; form?: string }[];
}

/** A compiled rule list, with the bash rules indexed by the first word of their pattern. */
interface CompiledList {
  all: CompiledRule[];
  /** Bash rules whose pattern starts with a whole literal word, by that word; then anyWord's. */
  byWord: Map<string, CompiledRule[]>;
  /** Bash rules that can match any first word (no pattern, or a wildcard inside the first word). */
  anyWord: CompiledRule[];
}

const compiledLists = new WeakMap<Rule[], CompiledList>();

/** No candidates (shared: nothing is ever pushed to it). */
const NONE: never[] = Object.freeze([]) as never[];

function compileList(rules: Rule[]): CompiledList {
  let list = compiledLists.get(rules);
  if (list) return list;
  const all = rules.map((rule) => ({
    rule,
    tool: globToRegExp(rule.tool),
    pattern: rule.pattern === undefined ? null : globToRegExp(rule.pattern),
    score: rule.pattern === undefined
      ? (rule.tool === "bash" ? 0 : specificity(rule.tool))
      : specificity(rule.pattern),
  }));
  const byWord = new Map<string, CompiledRule[]>();
  const anyWord: CompiledRule[] = [];
  for (const r of all) {
    if (!r.tool.test("bash")) continue;
    const p = r.rule.pattern;
    const literal = p === undefined ? "" : p.slice(0, specificity(p));
    const space = literal.indexOf(" ");
    const word = space >= 0 ? literal.slice(0, space) : literal === p ? literal : null;
    if (p === undefined || word === null) anyWord.push(r);
    else {
      const bucket = byWord.get(word);
      if (bucket) bucket.push(r);
      else byWord.set(word, [r]);
    }
  }
  // A word's bucket holds the rules of any word too, after its own.
  for (const [word, bucket] of byWord) byWord.set(word, [...bucket, ...anyWord]);
  list = { all, byWord, anyWord };
  compiledLists.set(rules, list);
  return list;
}

/** Compile a list of rules (cached per list). */
export function compileRules(rules: Rule[]): CompiledRule[] {
  return compileList(rules).all;
}

function better(a: CompiledRule, b: CompiledRule | null, scoreA: number, scoreB: number): boolean {
  if (!b) return true;
  if (scoreA !== scoreB) return scoreA > scoreB;
  return TIE_BREAK[a.rule.action] < TIE_BREAK[b.rule.action];
}

/** The winning rule of a list for a subject, or null when none matches. */
export function pickRule(
  source: Rule[],
  subject: Subject,
  opts: { explain?: boolean } = {},
): RuleResult | null {
  const list = compileList(source);
  const rules = list.all;
  const isBash = subject.tool === "bash";
  // (Collected for explain only.)
  const candidates: { rule: Rule; score: number; form?: string }[] = opts.explain ? [] : NONE;
  if (!isBash) {
    let best: CompiledRule | null = null;
    for (const r of rules) {
      if (r.pattern || !r.tool.test(subject.tool)) continue;
      if (opts.explain) candidates.push({ rule: r.rule, score: r.score });
      if (better(r, best, r.score, best?.score ?? 0)) best = r;
    }
    if (!best) return null;
    return { action: best.rule.action, rule: best.rule, score: best.score, candidates };
  }
  // Bash: one winner per form; the most restrictive winner across forms decides.
  let result: RuleResult | null = null;
  let unmatchedForm: string | undefined;
  for (const form of subject.forms ?? []) {
    let best: CompiledRule | null = null;
    let bestScore = 0;
    const space = form.indexOf(" ");
    const first = space >= 0 ? form.slice(0, space) : form;
    const bucket = list.byWord.get(first);
    const pool = bucket ?? list.anyWord;
    // (The preset's patterns read git's plain options away: `git --no-pager log` is `git log`.)
    let plain: string | undefined;
    for (const r of pool) {
      if (r.pattern && !r.pattern.test(r.rule.preset ? plain ??= presetForm(form) : form)) continue;
      if (r.rule.preset && (!subject.stage || !presetAccepts(r.rule, subject.stage))) continue;
      const score = r.pattern ? r.score : 0;
      if (opts.explain) candidates.push({ rule: r.rule, score, form });
      if (better(r, best, score, bestScore)) {
        best = r;
        bestScore = score;
      }
    }
    if (!best) {
      unmatchedForm ??= form;
      continue;
    }
    if (!result || RESTRICTIVENESS[best.rule.action] > RESTRICTIVENESS[result.action]) {
      result = { action: best.rule.action, rule: best.rule, score: bestScore, form };
    }
  }
  if (result) {
    result.candidates = candidates;
    if (unmatchedForm !== undefined) result.unmatched = unmatchedForm;
  }
  return result;
}

/** The outcome of a policy for a subject: the winning rule, else the policy's defaultAction. */
export function evaluatePolicy(
  policy: Policy,
  subject: Subject,
  opts: { explain?: boolean } = {},
): RuleResult {
  if (subject.tool === "bash" && subject.unknown) {
    const rules = compileRules(policy.rules);
    // Any bash rule could apply to a command we cannot see: take the worst, at least ask.
    let action: Action = stricter(policy.defaultAction, "ask");
    let rule: Rule | null = null;
    for (const r of rules) {
      if (!r.tool.test("bash")) continue;
      if (RESTRICTIVENESS[r.rule.action] > RESTRICTIVENESS[action]) {
        action = r.rule.action;
        rule = r.rule;
      }
    }
    return { action, rule, score: 0, note: "the command cannot be known before it runs" };
  }
  const picked = pickRule(policy.rules, subject, opts);
  if (!picked) return { action: policy.defaultAction, rule: null, score: 0 };
  if (picked.unmatched !== undefined) {
    // A form no rule matched falls to the defaultAction, which may be stricter than the winner.
    if (RESTRICTIVENESS[policy.defaultAction] > RESTRICTIVENESS[picked.action]) {
      return {
        action: policy.defaultAction,
        rule: null,
        score: 0,
        note: `no rule matched the form "${picked.unmatched}"`,
        candidates: picked.candidates,
      };
    }
  }
  return picked;
}

const heads = new WeakMap<Config, ReadonlySet<string>>();

/**
 * The programs the bash rules of a config ask about or deny, by the first word of their pattern
 * (`rm` for `rm -rf *`; a pattern starting with a wildcard names none): where a program the
 * registry does not know may run one of them (`cmake -E env rm -rf src`), that line is judged.
 */
export function ruleHeads(config: Config): (name: string) => boolean {
  let set = heads.get(config);
  if (!set) {
    const out = new Set<string>();
    for (const policy of Object.values(config.policies)) {
      for (const rule of policy.rules) {
        if (rule.action === "allow" || rule.pattern === undefined || rule.preset) continue;
        if (!globToRegExp(rule.tool).test("bash")) continue;
        const word = /^[^\s*?[\]{}]+(?=\s|$)/.exec(rule.pattern);
        if (word) out.add(word[0].slice(word[0].lastIndexOf("/") + 1));
      }
    }
    heads.set(config, set = out);
  }
  return (name) => set.has(name);
}
