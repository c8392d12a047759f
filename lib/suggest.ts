/**
 * `pi-controls suggest`: the approval rules that would have removed the asks and denies the user
 * let through, read from the decision log or from recorded pi sessions.
 *
 * What counts as answered with allow:
 * - a `decision` line of the log whose engine action (`engineAction`) is ask or deny and whose
 *   final action is allow through the user's choice in the ask dialog: Allow once, Allow for
 *   session (also a later call it let through: `allowed for session`), Allow for Project or Allow
 *   Globally (saved or not). A deny reaches the dialog only through agentTimeout's escalation;
 * - a call of a pi session that the engine asks or denies under the config today, and that ran:
 *   the session records its tool result, and that result is not a block (an error whose text is
 *   pi-controls' reason, `Access denied by …`, `pi-controls could not decide …`, or pi's own
 *   `Tool execution was blocked`, `Tool … not found`, or an argument validation failure). A call
 *   that ran and failed (a command's non-zero exit) ran. A call with no result (the session ended
 *   first) is not counted.
 *
 * What a call proposes is what a persistent approval of it saves ({@linkcode approvalRulesFor},
 * for every policy that asked or denied it, its denies read as asks). A call proposes nothing when
 * that is too broad (`approvalRulesFor` answers null), when a target carries a protection
 * (pathProtection or the gate's own files) or, for a recorded verdict, lies under one in today's
 * config, when a stage cannot be seen (a glob or unknown command: approvals never make those
 * allowed), or when the rules are already in `approvalRules`. A replayed call is decided again
 * with its rules added, and proposes them only when the ask or deny is gone.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { approvalRulesFor, saveApprovalRules } from "./approvals.ts";
import { loadBashParser } from "./shell/parser.ts";
import type { CliIo } from "./cli_io.ts";
import { agentDirFrom, formatConfigError } from "./config.ts";
import {
  blockingErrors,
  type ConfigView,
  configWatcher,
  decideEffective,
  effectiveConfig,
} from "./config_view.ts";
import { CHOICES } from "./ask_choices.ts";
import { ACTIONS as RULE_ACTIONS } from "./config_keys.ts";
import { realFs } from "./policy/fs_facts.ts";
import { machineNow } from "./policy/this_machine.ts";
import { protectionPair } from "./policy/protection.ts";
import {
  findSessionFiles,
  readSession,
  type RecordedSession,
  type ReplayRow,
  replaySessions,
} from "./replay.ts";
import { stricter } from "./policy/action.ts";
import { untrustedReason } from "./trust.ts";
import { blocking, CauseTally } from "./verdict_cause.ts";
import type {
  Action,
  Config,
  Context,
  Rule,
  StageVerdict,
  TargetVerdict,
  ToolCall,
  Verdict,
} from "./types.ts";

/** One call the user let run although the policy asked for confirmation or denied it. */
export interface AnsweredCall {
  /** Where it was found: `file:line`. */
  where: string;
  /** The command, or the tool and its target paths, in one line. */
  example: string;
  /** What the engine did with it. */
  action: "ask" | "deny";
  /** The verdict: as the log recorded it, or as the engine decides it today (sessions). */
  verdict: Verdict;
  /** Whether the verdict was recorded in the past (the log) rather than decided today. */
  recorded: boolean;
  /** For replayed calls: the call and its cwd, to decide it again with the proposed rules. */
  call?: ToolCall & { cwd: string };
}

/** One proposed approval rule and what it would have removed. */
export interface Suggestion {
  rule: Rule;
  asks: number;
  denies: number;
  /** Up to three of the calls it covers, first seen first. */
  examples: string[];
  /** Rules of other stages or policies some of its calls need as well. */
  together: Rule[];
}

/** Answered calls that propose no rule, by why. */
export interface Skipped {
  reason: string;
  asks: number;
  denies: number;
  example: string;
}

/** What `suggest` found. */
export interface Suggestions {
  /** Every ask and deny answered with allow. */
  answered: { asks: number; denies: number };
  /** The rules, most removed first. */
  rules: Suggestion[];
  skipped: Skipped[];
}

/** What proposals are judged against. */
export interface SuggestOptions {
  /** The config in use today (its policies, pathProtection and approvalRules). */
  config: Config;
  /** The home directory pathProtection globs expand `~` against. */
  home: string;
  /**
   * Decide a replayed call again under the config with these approval rules added; absent: a
   * call's rules are judged from its verdict alone. @default undefined
   */
  redecide?: (call: NonNullable<AnsweredCall["call"]>, rules: Rule[]) => Verdict;
}

/** Why a call proposes nothing (the texts `suggest` prints). */
export const SKIP_REASONS = {
  broken: "the config was broken",
  protected: "a protected path (pathProtection or the gate's own files): only Allow once",
  blind: "a glob or a command that cannot be seen (approvals never allow those)",
  tooBroad:
    "too broad for an approval (a shell, interpreter or wrapper, or a program with no subcommand)",
  noRule: "not decided by a policy rule (eval classification, or no policy)",
  unknownPolicy: "a policy the config does not define",
  approved: "already in approvalRules",
  notRemoved: "an approval would not remove it (another location or check still asks)",
} as const;

/** The choices of the ask dialog that let the call run. */
const ALLOW_CHOICES = [CHOICES.once, CHOICES.session, CHOICES.project, CHOICES.global];

/** Whether a logged `choice` let the call run: an Allow of the dialog, or a session allow. */
export function isAllowChoice(choice: unknown): boolean {
  if (typeof choice !== "string") return false;
  if (choice === "allowed for session") return true;
  return ALLOW_CHOICES.some((c) => choice === c || choice.startsWith(`${c} (`));
}

function sameRule(a: Rule, b: Rule): boolean {
  return a.action === b.action && a.tool === b.tool && a.pattern === b.pattern &&
    a.policy === b.policy;
}

function ruleKey(r: Rule): string {
  return JSON.stringify([r.action, r.tool, r.pattern ?? null, r.policy ?? null]);
}

/** Rules saved for the same stage: `npm test` and `npm test *` go together as one approval. */
function stageKey(r: Rule): string {
  return JSON.stringify([r.tool, r.pattern?.replace(/ \*$/, "") ?? null, r.policy ?? null]);
}

/** The verdict with its denies read as asks: what approvalRulesFor would save had it asked. */
function asAsked(v: Verdict): Verdict {
  const ask = (a: Action): Action => (a === "deny" ? "ask" : a);
  return {
    ...v,
    action: ask(v.action),
    stages: v.stages.map((s) => ({
      ...s,
      action: ask(s.action),
      targets: s.targets.map((t) => ({ ...t, action: ask(t.action) })),
    })),
  };
}

/** Whether a stage cannot be seen: its command name or a path of it is unknown, or a glob. */
function isBlind(s: StageVerdict): boolean {
  return s.dynamic === true || s.targets.some((t) => t.kind === "dynamic" || t.kind === "glob");
}

/** The rules a call's approval saves, or why it saves none. */
function neededRules(
  v: Verdict,
  recorded: boolean,
  opts: SuggestOptions,
): Rule[] | string {
  if (v.configErrors) return SKIP_REASONS.broken;
  const targets = v.stages.flatMap((s) => s.targets);
  if (targets.some((t) => t.protection)) return SKIP_REASONS.protected;
  if (
    recorded &&
    targets.some((t) => t.path && protectionPair(opts.config, t.path, opts.home).write !== null)
  ) return SKIP_REASONS.protected;
  if (v.parseError || v.stages.some((s) => blocking(s.action) && isBlind(s))) {
    return SKIP_REASONS.blind;
  }
  const asked = targets.filter((t) => blocking(t.action));
  if (!asked.length || asked.some((t) => t.policy === null)) return SKIP_REASONS.noRule;
  const policies = [...new Set(asked.map((t) => t.policy!))];
  if (policies.some((p) => !Object.hasOwn(opts.config.policies, p))) {
    return SKIP_REASONS.unknownPolicy;
  }
  const question = asAsked(v);
  const rules: Rule[] = [];
  for (const policy of policies) {
    const saved = approvalRulesFor(question, policy);
    if (!saved) return SKIP_REASONS.tooBroad;
    for (const r of saved) if (!rules.some((x) => sameRule(x, r))) rules.push(r);
  }
  const fresh = rules.filter((r) => !opts.config.approvalRules.some((x) => sameRule(x, r)));
  return fresh.length ? fresh : SKIP_REASONS.approved;
}

/** The rules that remove a call's ask or deny, or why none do. */
function rulesForCall(c: AnsweredCall, opts: SuggestOptions): Rule[] | string {
  const first = neededRules(c.verdict, c.recorded, opts);
  // (Decided today, a call whose rules are all in approvalRules already is asked despite them.)
  if (first === SKIP_REASONS.approved && !c.recorded) return SKIP_REASONS.notRemoved;
  if (typeof first === "string" || !c.call || !opts.redecide) return first;
  let rules: Rule[] = first;
  // Decided again with the rules: a call asked in two places needs both (a few rounds at most).
  for (let round = 0; round < 3; round++) {
    const after = opts.redecide(c.call, rules);
    if (!blocking(after.action)) return rules;
    const more = neededRules(after, false, opts);
    if (typeof more === "string") {
      return more === SKIP_REASONS.approved ? SKIP_REASONS.notRemoved : more;
    }
    const fresh = more.filter((r) => !rules.some((x) => sameRule(x, r)));
    if (!fresh.length) return SKIP_REASONS.notRemoved;
    rules = [...rules, ...fresh];
  }
  return SKIP_REASONS.notRemoved;
}

/**
 * The narrowest approval rules that would have removed the answered calls: one group per rule,
 * counting the asks and denies of the calls whose approval saves it, most removed first (first
 * seen first among equals). A call that needs rules for several stages or policies counts toward
 * each and names the others in `together`.
 */
export function suggestRules(calls: AnsweredCall[], opts: SuggestOptions): Suggestions {
  const groups = new Map<string, Suggestion>();
  const skipped = new Map<string, Skipped>();
  const answered = { asks: 0, denies: 0 };
  for (const c of calls) {
    const field = c.action === "ask" ? "asks" : "denies";
    answered[field]++;
    const rules = rulesForCall(c, opts);
    if (typeof rules === "string") {
      let s = skipped.get(rules);
      if (!s) skipped.set(rules, s = { reason: rules, asks: 0, denies: 0, example: c.example });
      s[field]++;
      continue;
    }
    for (const rule of rules) {
      const key = ruleKey(rule);
      let g = groups.get(key);
      if (!g) groups.set(key, g = { rule, asks: 0, denies: 0, examples: [], together: [] });
      g[field]++;
      if (g.examples.length < 3 && !g.examples.includes(c.example)) g.examples.push(c.example);
      for (const other of rules) {
        if (stageKey(other) !== stageKey(rule) && !g.together.some((x) => sameRule(x, other))) {
          g.together.push(other);
        }
      }
    }
  }
  const rules = [...groups.values()].sort((a, b) => b.asks + b.denies - (a.asks + a.denies));
  return { answered, rules, skipped: [...skipped.values()] };
}

// ---------------------------------------------------------------------------------------------
// The decision log

/** A one-line example of a call: the bash command, else the tool and its target paths. */
function exampleOf(tool: string, command: unknown, paths: string[]): string {
  const text = tool === "bash"
    ? String(command ?? "").replace(/\s*\n\s*/g, " ⏎ ")
    : [tool, ...new Set(paths.filter(Boolean))].join(" ");
  return text.length > 100 ? text.slice(0, 99) + "…" : text;
}

const ACTIONS = new Set<string>(RULE_ACTIONS);

/** The verdict a decision line recorded, as far as the line tells it. */
function recordedVerdict(line: Record<string, unknown>): Verdict {
  const stages: StageVerdict[] = [];
  for (const raw of line.targets as Record<string, unknown>[]) {
    const t: TargetVerdict = {
      path: typeof raw.path === "string" ? raw.path : "",
      kind: raw.kind as TargetVerdict["kind"],
      location: null,
      policy: typeof raw.policy === "string" ? raw.policy : null,
      rule: (raw.rule ?? null) as Rule | null,
      score: 0,
      action: raw.action as Action,
    };
    if (raw.protection) t.protection = raw.protection as TargetVerdict["protection"];
    if (raw.approval) t.approval = raw.approval as Rule;
    const command = typeof raw.stage === "string" ? raw.stage : null;
    const last = stages[stages.length - 1];
    if (last && last.command === command) {
      last.targets.push(t);
      last.action = stricter(last.action, t.action);
    } else stages.push({ command, cwd: "", targets: [t], action: t.action });
  }
  const v: Verdict = {
    action: line.engineAction as Action,
    tool: line.tool as string,
    policies: Array.isArray(line.policies) ? line.policies as string[] : [],
    reason: null,
    notification: null,
    stages,
  };
  if (line.configErrors) v.configErrors = line.configErrors as Verdict["configErrors"];
  if (line.parseError) v.parseError = String(line.parseError);
  return v;
}

/** What is wrong with a decision line, or null when it has what `suggest` reads. */
function lineProblem(line: Record<string, unknown>): string | null {
  if (typeof line.tool !== "string") return `a decision line without "tool"`;
  if (!ACTIONS.has(line.engineAction as string) || !ACTIONS.has(line.action as string)) {
    return `a decision line without a valid "engineAction" and "action"`;
  }
  if (
    !Array.isArray(line.targets) ||
    line.targets.some((t) =>
      !t || typeof t !== "object" || !ACTIONS.has((t as Record<string, unknown>).action as string)
    )
  ) return `a decision line without valid "targets"`;
  return null;
}

/**
 * The calls of a decision log the user answered with allow. A line that is not JSON or not a
 * readable decision line is skipped with a warning naming `file:line`; other events (startup,
 * mode, eval, error) are not decisions.
 */
export function readDecisionLog(
  file: string,
  text: string,
): { calls: AnsweredCall[]; decisions: number; warnings: string[] } {
  const calls: AnsweredCall[] = [];
  const warnings: string[] = [];
  let decisions = 0;
  text.split("\n").forEach((raw, i) => {
    if (!raw.trim()) return;
    const where = `${file}:${i + 1}`;
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(raw);
    } catch (e) {
      warnings.push(`${where}: not JSON (${(e as Error).message}); skipped`);
      return;
    }
    if (!line || typeof line !== "object" || Array.isArray(line)) {
      warnings.push(`${where}: not a JSON object; skipped`);
      return;
    }
    if (line.event !== "decision") return;
    const problem = lineProblem(line);
    if (problem) {
      warnings.push(`${where}: ${problem}; skipped`);
      return;
    }
    decisions++;
    const engine = line.engineAction as Action;
    if (!blocking(engine) || line.action !== "allow" || !isAllowChoice(line.choice)) return;
    const verdict = recordedVerdict(line);
    const paths = verdict.stages.flatMap((s) => s.targets.map((t) => t.path));
    calls.push({
      where,
      example: exampleOf(verdict.tool, line.command, paths),
      action: engine,
      verdict,
      recorded: true,
    });
  });
  return { calls, decisions, warnings };
}

// ---------------------------------------------------------------------------------------------
// Recorded pi sessions

/** Texts of tool results that mean the call was blocked before it ran. */
const BLOCKED =
  /^(Access denied by |pi-controls could not decide |Tool execution was blocked|Tool \S+ not found|Validation failed for tool )/;

/**
 * The tool calls of a pi session file that ran: those with a tool result that is not a block
 * (see the module's documentation).
 */
export function callsThatRan(text: string): Set<string> {
  const ran = new Set<string>();
  for (const line of text.split("\n")) {
    if (!line.includes('"toolResult"')) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // readSession reports it
    }
    const m = entry?.type === "message" ? entry.message as Record<string, unknown> : null;
    if (!m || m.role !== "toolResult" || typeof m.toolCallId !== "string") continue;
    const content = Array.isArray(m.content) ? m.content as { type?: string; text?: string }[] : [];
    const first = content.find((c) => c?.type === "text")?.text ?? "";
    if (m.isError === true && BLOCKED.test(first)) continue;
    ran.add(m.toolCallId);
  }
  return ran;
}

/**
 * The replayed calls the engine asks or denies that ran in the session: `rows` from
 * `replaySessions` over `sessions`, `ran` the tool call ids that ran per session file.
 */
export function answeredInSessions(
  sessions: RecordedSession[],
  rows: ReplayRow[],
  ran: Map<string, Set<string>>,
): AnsweredCall[] {
  const calls = new Map(
    sessions.flatMap((s) => s.calls.map((c) => [`${s.file}\0${c.id}`, { s, c }] as const)),
  );
  const out: AnsweredCall[] = [];
  for (const row of rows) {
    if (!blocking(row.engine) || !ran.get(row.session)?.has(row.id)) continue;
    const found = calls.get(`${row.session}\0${row.id}`);
    if (!found) continue;
    const { s, c } = found;
    out.push({
      where: `${s.file}:${c.line}`,
      example: row.tool === "bash" ? exampleOf("bash", row.summary, []) : exampleOf(
        row.tool,
        null,
        row.verdict.stages.flatMap((st) => st.targets.map((t) => t.path)),
      ),
      action: row.engine,
      verdict: row.verdict,
      recorded: false,
      call: { tool: c.tool, input: c.input, cwd: s.cwd || "/" },
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// What caused a replay's asks and denies

/**
 * A replay's asks and denies (after the breakers) grouped by what caused them
 * (verdict_cause.ts): the winning rule (tool or pattern, its action and policy), a pathProtection
 * glob, the gate's own files, what could not be seen (a syntax error, an unknown command, a glob,
 * a dynamic value), or no rule matched (defaultAction); a breaker's escalation is named after it.
 * The ten most frequent, most first (first seen first among equals).
 */
export function groupCauses(rows: ReplayRow[]): { cause: string; asks: number; denies: number }[] {
  const tally = new CauseTally();
  for (const row of rows) tally.add(row.verdict, row.action, row.escalation);
  return tally.groups().slice(0, 10).map(({ cause, asks, denies }) => ({ cause, asks, denies }));
}

// ---------------------------------------------------------------------------------------------
// Rendering

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function counts(x: { asks: number; denies: number }): string {
  return `${plural(x.asks, "ask", "asks")}, ${plural(x.denies, "deny", "denies")}`;
}

/** One rule as one line of JSON: `{ "action": "allow", "tool": "bash", … }`. */
export function ruleText(rule: Rule): string {
  return `{ ${
    Object.entries(rule).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ")
  } }`;
}

/** A rule in a few words: `bash "git push *" [work]`, `write [work]`. */
function shownRule(r: Rule): string {
  return `${r.tool}${r.pattern !== undefined ? ` "${r.pattern}"` : ""} [${r.policy}]`;
}

/**
 * The suggestions as JSONC to paste into `approvalRules`: each rule on a line of its own, after a
 * `// N asks, M denies removed: e.g. <call>` comment.
 */
export function renderJsonc(s: Suggestions, source: string): string {
  const lines = [
    `// ${counts(s.answered)} answered with allow in ${source}; ` +
    `paste into "approvalRules":`,
  ];
  for (const g of s.rules) {
    let note = `// ${counts(g)} removed: e.g. ${g.examples[0]}`;
    if (g.together.length) note += ` (with ${g.together.map(shownRule).join(", ")})`;
    lines.push(note, `${ruleText(g.rule)},`);
  }
  return lines.join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------
// The command

const USAGE = `Usage:
  pi-controls suggest [--config FILE]... [--cwd DIR] [--log FILE | SESSION.jsonl|DIR ...]
                      [--apply PATH] [--json] [--trust-project]

Proposes the narrowest approval rules that would have removed the asks and denies you answered
with allow: from the decision log (default <agentDir>/extensions/pi-controls.log), or from
recorded pi sessions replayed under the config (calls it asks or denies that ran). Prints them
as JSONC for "approvalRules"; --json for machines; --apply PATH saves them into that config file
(comments kept). Exit: 0 done (also when there is nothing to suggest), 1 failure, 2 usage.
`;

class UsageError extends Error {}

/** The flags of `suggest`. */
interface SuggestFlags {
  configs: string[];
  cwd?: string;
  log?: string;
  apply?: string;
  json: boolean;
  trustProject: boolean;
  help: boolean;
  sessions: string[];
}

function parseSuggestFlags(args: string[]): SuggestFlags {
  const f: SuggestFlags = {
    configs: [],
    json: false,
    trustProject: false,
    help: false,
    sessions: [],
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = a.indexOf("=");
    const name = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith("--") && eq > 0 ? a.slice(eq + 1) : undefined;
    const value = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= args.length) throw new UsageError(`${name} needs a value`);
      return args[++i];
    };
    const once = (had: string | undefined) => {
      if (had !== undefined) throw new UsageError(`${name} is given twice`);
      return value();
    };
    switch (name) {
      case "--config":
      case "-c":
        f.configs.push(value());
        break;
      case "--cwd":
        f.cwd = once(f.cwd);
        break;
      case "--log":
        f.log = once(f.log);
        break;
      case "--apply":
        f.apply = once(f.apply);
        break;
      case "--json":
        f.json = true;
        break;
      case "--trust-project":
        f.trustProject = true;
        break;
      case "--help":
      case "-h":
        f.help = true;
        break;
      default:
        if (a.startsWith("-") && a !== "-") throw new UsageError(`unknown option ${a}`);
        f.sessions.push(a);
    }
  }
  if (f.log !== undefined && f.sessions.length) {
    throw new UsageError("give either --log FILE or session files, not both");
  }
  return f;
}

/**
 * The config as the CLI's other commands load it (`--config`, else discovery from the cwd), an
 * untrusted project config only tightening; or the one-line reasons it cannot be used.
 */
function loadSuggestConfig(
  io: CliIo,
  flags: SuggestFlags,
  cwd: string,
  home: string,
  agentDir: string,
): { config: Config; base: Config | null; view: ConfigView } | string[] {
  const view = configWatcher({
    home,
    agentDir,
    files: flags.configs.length ? flags.configs.map((c) => resolve(io.cwd, c)) : undefined,
  }).current(cwd);
  if (view.load.status === "absent") {
    return [
      `no config found (${join(agentDir, "extensions", "pi-controls.jsonc")}, or ` +
      `.pi/extensions/pi-controls.jsonc above ${cwd}): nothing asks or denies without one; ` +
      `give --config FILE`,
    ];
  }
  const p = view.project;
  const why = p && view.base && p.loosens.length && !flags.trustProject
    ? untrustedReason(agentDir, p)
    : null;
  const trusted = why === null;
  const eff = effectiveConfig(view, { trusted });
  if (!eff) return blockingErrors(view).map(formatConfigError);
  if (why) io.err(`note: ${why}: its config can only tighten\n`);
  return { ...eff, view };
}

/** The config with approval rules added. */
function withRules(config: Config, rules: Rule[]): Config {
  return { ...config, approvalRules: [...config.approvalRules, ...rules] };
}

/**
 * `pi-controls suggest`: see {@linkcode USAGE} and the module's documentation. Returns the exit
 * code: 0 done (also when there is nothing to suggest), 1 a failure (one line each, naming what
 * and where), 2 a usage error.
 */
export async function cmdSuggest(io: CliIo, args: string[]): Promise<number> {
  let flags: SuggestFlags;
  try {
    flags = parseSuggestFlags(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`pi-controls suggest: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (flags.help) {
    io.out(USAGE);
    return 0;
  }
  const fail = (text: string) => {
    io.err(`pi-controls suggest: ${text}\n`);
    return 1;
  };
  const home = io.env.HOME || homedir();
  const agentDir = agentDirFrom(io.env, home);
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const loaded = loadSuggestConfig(io, flags, cwd, home, agentDir);
  if (Array.isArray(loaded)) {
    for (const line of loaded) fail(line);
    return 1;
  }
  const { config, base } = loaded;
  let calls: AnsweredCall[];
  let source: string;
  let redecide: SuggestOptions["redecide"];
  if (flags.sessions.length) {
    const targets = flags.sessions.map((s) => resolve(io.cwd, s));
    const { files, missing } = findSessionFiles(targets);
    for (const m of missing) io.err(`warning: no such session file or directory: ${m}\n`);
    if (!files.length) return fail(`no session files in ${targets.join(", ")}`);
    const sessions: RecordedSession[] = [];
    const ran = new Map<string, Set<string>>();
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (e) {
        return fail(`cannot read the session file ${file}: ${(e as Error).message}`);
      }
      const s = readSession(file, text);
      for (const p of s.problems) io.err(`warning: ${p}\n`);
      sessions.push(s);
      ran.set(file, callsThatRan(text));
    }
    let parser = null;
    try {
      parser = await loadBashParser();
    } catch {
      io.err("warning: tree-sitter could not be loaded: the fallback splitter decides bash\n");
    }
    const ctx = { home, env: io.env, fs: realFs(), machine: machineNow };
    const rows = replaySessions(config, sessions, ctx, { parser, base });
    calls = answeredInSessions(sessions, rows, ran);
    source = plural(files.length, "session file", "session files");
    redecide = (call, rules) => {
      const context: Context = { ...ctx, cwd: call.cwd };
      const eff = { config: withRules(config, rules), base: base && withRules(base, rules) };
      return decideEffective(eff, call, context, { parser });
    };
  } else {
    const file = flags.log !== undefined
      ? resolve(io.cwd, flags.log)
      : join(agentDir, "extensions", "pi-controls.log");
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      const code = (e as { code?: string }).code;
      return fail(
        code === "ENOENT"
          ? `no decision log at ${file} (pi-controls writes it as pi runs; --log FILE reads another)`
          : `cannot read the decision log ${file}: ${(e as Error).message}`,
      );
    }
    const read = readDecisionLog(file, text);
    for (const w of read.warnings) io.err(`warning: ${w}\n`);
    calls = read.calls;
    source = file;
  }
  const found = suggestRules(calls, { config, home, redecide });
  let applied: string | undefined;
  if (flags.apply !== undefined && found.rules.length) {
    applied = resolve(io.cwd, flags.apply);
    try {
      saveApprovalRules(applied, found.rules.map((g) => g.rule));
    } catch (e) {
      return fail((e as Error).message);
    }
  }
  if (flags.json) {
    io.out(JSON.stringify({ source, ...found, ...(applied ? { applied } : {}) }) + "\n");
    return 0;
  }
  for (const s of found.skipped) {
    io.err(`note: ${counts(s)} not proposed: ${s.reason}; e.g. ${s.example}\n`);
  }
  if (!found.rules.length) {
    const { asks, denies } = found.answered;
    io.out(
      asks + denies === 0
        ? `nothing to suggest: no ask or deny in ${source} was answered with allow\n`
        : `nothing to suggest: ${counts(found.answered)} answered with allow in ${source}, ` +
          `none of which a narrow approval rule would remove\n`,
    );
    return 0;
  }
  if (applied) {
    io.out(
      `wrote ${plural(found.rules.length, "approval rule", "approval rules")} to ${applied}: ` +
        found.rules.map((g) => `allow ${shownRule(g.rule)}`).join(", ") + "\n",
    );
    return 0;
  }
  io.out(renderJsonc(found, source));
  return 0;
}
