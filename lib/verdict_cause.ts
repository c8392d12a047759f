/**
 * What caused a verdict's ask or deny, named so that the same cause gets the same name in every
 * call (replay's "asks and denies by cause", the precision benchmark): the winning rule, a
 * pathProtection glob, the gate's own files, the policy's defaultAction, or what could not be
 * seen (a syntax error, an unknown command, a glob, a value not known before it runs).
 *
 * @module
 */
import type { ClassifiedVerdict } from "./evals.ts";
import type { Action, StageVerdict, TargetVerdict, Verdict } from "./types.ts";

/** Whether an action blocks the call (an ask or a deny). */
export function blocking(action: Action): action is "ask" | "deny" {
  return action === "ask" || action === "deny";
}

/**
 * What cannot be seen, in a few fixed words: the analysis error without its position or text
 * (`syntax error at column 12: unexpected ")"` is a `syntax error`).
 */
function unreadable(error: string): string {
  return error.replace(/ at column \d+[\s\S]*$/, "").replace(/:[\s\S]*$/, "");
}

/** What made one target ask or deny. */
function targetCause(v: Verdict, s: StageVerdict, t: TargetVerdict): string {
  if (t.protection && t.protection.action === t.action) {
    return t.protection.builtin
      ? "the gate's own files"
      : `pathProtection "${t.protection.glob}" (${t.protection.action})`;
  }
  // An unknown command gets the strictest rule it could meet: the command is the cause.
  if (v.parseError) return unreadable(v.parseError);
  // Where the stage sits: `top` for `$CMD x`, or the program that runs what it cannot show
  // (`shell:bash` for `bash script.sh`, `sed program` for a sed script with `e`).
  if (s.dynamic) return `unknown command (${s.origin ?? "top"})`;
  const ruled = t.rule !== null && t.rule.action === t.action;
  if (!ruled && t.kind === "glob") {
    return `glob (reaches anything below its prefix) [${t.policy}]`;
  }
  if (!ruled && t.kind === "dynamic") {
    // The notes of unknown values are fixed phrases: "a file not known", "relative to an
    // unknown directory", "the value is not known before it runs".
    return `dynamic value (${t.note ?? "not known before it runs"}) [${t.policy}]`;
  }
  if (t.policy === null) return "no policy";
  if (t.rule) {
    const what = t.rule.pattern !== undefined ? `${t.rule.tool} "${t.rule.pattern}"` : t.rule.tool;
    return `${what} (${t.rule.action}) [${t.policy}]`;
  }
  return `no rule matched (defaultAction) [${t.policy}]`;
}

/** The cause of a verdict's action and the stage it lies in (null: no stage names one). */
export function causeOf(v: Verdict): { cause: string; stage: StageVerdict | null } {
  if (v.configErrors) return { cause: "broken config", stage: null };
  const decided = (v as ClassifiedVerdict).evalDecided;
  if (decided) {
    return { cause: `eval classification (${decided.rule ?? decided.status})`, stage: null };
  }
  for (const s of v.stages) {
    const hits = s.targets.filter((t) => t.action === v.action);
    if (!hits.length) continue;
    const t = hits.find((t) => t.protection?.action === t.action) ??
      hits.find((t) => t.rule !== null && t.rule.action === t.action) ??
      hits.find((t) => t.kind === "dynamic" || t.kind === "glob") ?? hits[0];
    return { cause: targetCause(v, s, t), stage: s };
  }
  if (v.parseError) return { cause: unreadable(v.parseError), stage: null };
  return { cause: "no rule matched (defaultAction)", stage: null };
}

/** The cause of a verdict's action: its first stage with that action, the most telling target. */
export function verdictCause(v: Verdict): string {
  return causeOf(v).cause;
}

/** The asks and denies of one cause. */
export interface CauseGroup {
  cause: string;
  asks: number;
  denies: number;
  /** How many of them each program decided (the deciding stage's command name). */
  programs: Map<string, number>;
  /** The first examples given, up to the tally's `keep`. */
  examples: string[];
}

/**
 * Asks and denies counted by cause as they come: `add` each call's verdict with the action it
 * finally got (after the breakers; a breaker's escalation is named after it).
 */
export class CauseTally {
  #groups = new Map<string, CauseGroup>();
  constructor(private keep = 0) {}

  add(verdict: Verdict, action: Action, escalation?: string, example?: string): void {
    if (!blocking(action)) return;
    const { cause: named, stage } = causeOf(verdict);
    const cause = escalation ? `${named}, escalated by ${escalation}` : named;
    let g = this.#groups.get(cause);
    if (!g) {
      this.#groups.set(cause, g = { cause, asks: 0, denies: 0, programs: new Map(), examples: [] });
    }
    if (action === "ask") g.asks++;
    else g.denies++;
    // The program behind it: the stage's command name, for an unknown one its source's first
    // word (`bash` of `bash script.sh`); none for what could not be read.
    const program = verdict.parseError
      ? ""
      : (stage?.dynamic ? stage.text : stage?.command)?.split(/\s/)[0] ?? "";
    if (program) g.programs.set(program, (g.programs.get(program) ?? 0) + 1);
    if (example !== undefined && g.examples.length < this.keep) g.examples.push(example);
  }

  /** The groups, most first (first seen first among equals). */
  groups(): CauseGroup[] {
    return [...this.#groups.values()].sort((a, b) => b.asks + b.denies - (a.asks + a.denies));
  }
}
