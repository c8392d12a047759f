/**
 * The pi extension: wires pi's events to the gate. A tool call is decided by the engine, its
 * evals classified and the session's breakers applied (`extension_state.ts`), under the config as
 * it is now (`extension_config.ts`); this module turns the result into pi effects (block, the ask
 * dialog, a nudge in the tool's result, notifications, the footer), saves approvals and writes
 * the log. `/controls` shows the state and switches the mode.
 *
 * @example
 * ```ts
 * export default function (pi: PiApi) {
 *   createExtension(pi);
 * }
 * ```
 *
 * @module
 */
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { approvalRulesFor, saveApprovalRules } from "./approvals.ts";
import { CHOICES } from "./ask_choices.ts";
import {
  type BashParser,
  loadBashParser,
  type ParserChoice,
  ParserPending,
  type WasmSource,
} from "./shell/parser.ts";
import { agentDirFrom, formatConfigError } from "./config.ts";
import { shellEnvironment } from "./pi_settings.ts";
import { runConfigTests } from "./config_tests.ts";
import {
  blockingErrors,
  type ConfigView,
  decideEffective,
  effectiveConfig,
  type ProjectConfig,
} from "./config_view.ts";
import { brokenConfigVerdict, informNotification } from "./policy/verdicts.ts";
import { storedTrust } from "./trust.ts";
import type { ClassifiedVerdict } from "./evals.ts";
import { realFs } from "./policy/fs_facts.ts";
import { machineNow } from "./policy/this_machine.ts";
import { appendLog, decisionLine } from "./log.ts";
import type { Applied } from "./session.ts";
import {
  allowedForSession,
  allowForSession,
  applyBreakers,
  classifyInSession,
  type ContentBlock,
  type ExtensionState,
  holdNudge,
  isProtectionAsk,
  type Mode,
  MODES,
  newExtensionState,
  nudgedContent,
  parseMode,
  remember,
  startSession,
  takeNudge,
} from "./extension_state.ts";
import {
  approvalFile,
  cwdPolicy,
  type ExtensionConfig,
  keepAccepted,
  newExtensionConfig,
  projectTrust,
  settleProjectTrust,
  startupReport,
  trustText,
  viewOf,
} from "./extension_config.ts";
import {
  newSandboxState,
  runsSandboxed,
  sandboxBlocker,
  sandboxCall,
  sandboxReady,
  sandboxResult,
  sandboxStartupNote,
  type SandboxState,
  stopSandbox,
} from "./extension_sandbox.ts";
import { networkText } from "./policy/sandbox_network.ts";
import type { SandboxProbe } from "./sandbox_runner.ts";
import type { NetworkProxy } from "./sandbox_proxy.ts";
import type { Action, Config, Context, FsFacts, Verdict } from "./types.ts";

export { CHOICES, type Mode };

/** The parts of pi's ExtensionContext the extension uses. */
export interface PiContext {
  cwd: string;
  hasUI: boolean;
  /** pi 1.x: whether the user trusts the project (absent on pi 0.7x). */
  isProjectTrusted?: () => boolean;
  signal?: AbortSignal;
  ui: {
    notify(message: string, type?: "info" | "warning" | "error"): void;
    select(
      title: string,
      options: string[],
      opts?: { signal?: AbortSignal },
    ): Promise<string | undefined>;
    setStatus(key: string, text: string | undefined): void;
  };
}

/** The parts of pi's ExtensionAPI the extension uses. */
export interface PiApi {
  on(event: string, handler: (event: never, ctx: PiContext) => unknown): void;
  registerCommand(name: string, options: {
    description?: string;
    getArgumentCompletions?: (prefix: string) => { value: string; label: string }[] | null;
    handler: (args: string, ctx: PiContext) => Promise<void> | void;
  }): void;
}

interface ToolCallEvent {
  toolName: string;
  toolCallId: string;
  input: Record<string, unknown>;
}

interface ToolResultEvent {
  toolName: string;
  toolCallId: string;
  content: ContentBlock[];
}

/** The choices offered when a trusted project's config changed in a way that can loosen. */
const APPLY_PROJECT = "Apply the changed project config";
const TIGHTEN_ONLY = "Let it only tighten my policy";

/** Options of the extension (tests inject the environment and the embedded WASM). */
export interface ExtensionOptions {
  /** The environment. @default a copy of process.env */
  env?: Record<string, string | undefined>;
  /** The tree-sitter WASM. @default the file next to the parser module */
  wasm?: WasmSource;
  /** The clock, in ms. @default Date.now */
  now?: () => number;
  /**
   * The file the extension's code was loaded from (protected as one of the gate's files).
   * @default undefined
   */
  codeFile?: string;
  /** Whether the sandbox can start. @default starting bubblewrap once */
  sandboxProbe?: () => SandboxProbe;
  /** How to start the network proxy of an allow list. @default lib/sandbox_proxy.ts */
  sandboxProxy?: () => Promise<NetworkProxy>;
}

/** The gate of one pi process: its environment, state and config, and what pi last showed. */
interface Gate {
  env: Record<string, string | undefined>;
  now: () => number;
  home: string;
  agentDir: string;
  logFile: string;
  wasm?: WasmSource;
  state: ExtensionState;
  config: ExtensionConfig;
  /** Failures already shown once this process (the log, the parser). */
  shown: Set<string>;
  lastCtx: PiContext | null;
  parser: BashParser | null;
  parserPromise: Promise<void> | null;
  /** Whether loading the parser has ended (then a null parser means it failed). */
  parserSettled: boolean;
  sandbox: SandboxState;
  /**
   * The real filesystem, one for the session: its directory listings are kept while their
   * directories are unchanged (checked on every call), so a glob or a walk lists only what changed.
   */
  fs: FsFacts;
}

/** Tell the user once per process about a failure they must know of. */
function showOnce(g: Gate, key: string, message: string): void {
  if (g.shown.has(key)) return;
  g.shown.add(key);
  const ctx = g.lastCtx;
  if (!ctx) return;
  try {
    ctx.ui.notify(message, "error");
  } catch { /* no UI */ }
  if (!ctx.hasUI) {
    try {
      process.stderr.write(`${message}\n`);
    } catch { /* no stderr */ }
  }
}

function log(g: Gate, entry: Record<string, unknown>): void {
  if (!appendLog(g.logFile, entry)) {
    showOnce(
      g,
      "log",
      `pi-controls: cannot write the decision log ${g.logFile}; decisions are still enforced, ` +
        `but not recorded`,
    );
  }
}

function ensureParser(g: Gate): Promise<void> {
  g.parserPromise ??= loadBashParser(g.wasm).then((p) => {
    g.parser = p;
    g.parserSettled = true;
  }, (e) => {
    g.parserSettled = true;
    log(g, { event: "parser-unavailable", error: String(e) });
    showOnce(
      g,
      "parser",
      `pi-controls: the bash parser (tree-sitter WASM) did not load (${e}); a simpler ` +
        `splitter reads bash commands, and what it cannot read asks`,
    );
  });
  return g.parserPromise;
}

function context(g: Gate, cwd: string): Context {
  const env = shellEnvironment(g.env, { agentDir: g.agentDir, cwd, fs: g.fs });
  return { cwd, home: g.home, env, fs: g.fs, machine: machineNow };
}

/** Whether the folder of a project config is trusted: pi 1.x says; else pi-controls' store. */
function folderTrusted(g: Gate, ctx: PiContext): (p: ProjectConfig) => boolean {
  return (p) => {
    if (typeof ctx.isProjectTrusted === "function") {
      try {
        return ctx.isProjectTrusted() === true;
      } catch {
        return false;
      }
    }
    return storedTrust(g.agentDir, p.root);
  };
}

/**
 * Whether the project config of a view may loosen the global policy (see `projectTrust`); a
 * changed config that can loosen is asked about once with a UI, and told about without one.
 */
async function projectTrusted(g: Gate, ctx: PiContext, v: ConfigView): Promise<boolean> {
  const trust = projectTrust(g.config, v, folderTrusted(g, ctx));
  if (typeof trust === "boolean") return trust;
  const { project: p, question } = trust;
  let accepted = false;
  if (ctx.hasUI) {
    try {
      const answer = await ctx.ui.select(question, [APPLY_PROJECT, TIGHTEN_ONLY], {
        signal: ctx.signal,
      });
      accepted = answer === APPLY_PROJECT;
    } catch {
      accepted = false;
    }
  } else {
    announce(
      ctx,
      `${question.replace(/ Apply it\?$/, "")} With no one to ask, it can only tighten ` +
        `your policy this session.`,
      "warning",
    );
  }
  log(g, { event: "project-config-changed", file: p.file, accepted, loosens: p.loosens });
  settleProjectTrust(g.config, p, accepted);
  return accepted;
}

function showStatus(g: Gate, ctx: PiContext): void {
  try {
    ctx.ui.setStatus(
      "pi-controls",
      `controls: ${g.state.mode} · ${cwdPolicy(g.config, ctx.cwd, context(g, ctx.cwd))}`,
    );
  } catch {
    // A UI without a footer: nothing to show.
  }
}

/** A start-up message: a notification, and on stderr when pi runs without a UI (`pi -p`). */
function announce(ctx: PiContext, message: string, type: "warning" | "error"): void {
  ctx.ui.notify(message, type);
  if (!ctx.hasUI) {
    try {
      process.stderr.write(`${message}\n`);
    } catch { /* no stderr */ }
  }
}

/** A new pi session: fresh session state, the config reported, its own examples run. */
function startup(g: Gate, ctx: PiContext): void {
  startSession(g.state);
  g.lastCtx = ctx;
  const v = viewOf(g.config, ctx.cwd);
  const l = v.load;
  const line: Record<string, unknown> = {
    event: "startup",
    cwd: ctx.cwd,
    files: l.files,
    mode: g.state.mode,
  };
  const trust = trustText(g.config, v, folderTrusted(g, ctx));
  if (trust) line.trust = trust;
  const report = startupReport(g.config, v);
  Object.assign(line, report.line);
  for (const n of report.notes) announce(ctx, n.message, n.type);
  const sandboxNote = sandboxStartupNote(g.sandbox, l.status === "ok" ? l.config : null);
  if (sandboxNote) {
    announce(ctx, sandboxNote, "warning");
    line.sandbox = sandboxNote;
  }
  if (l.status === "ok" && l.config.tests.length) {
    const c = l.config;
    // The config's examples are checked once the parser is there, after a tool call already
    // waiting for it is decided (a later microtask: its continuation is queued first).
    void ensureParser(g).then(() =>
      queueMicrotask(() => {
        const failed = runConfigTests(c, context(g, ctx.cwd), { parser: g.parser })
          .filter((r) => !r.ok);
        for (const f of failed) {
          const msg =
            `pi-controls: config example fails: ${f.test.tool} ${JSON.stringify(f.test.input)} ` +
            `expected ${f.test.expect}, got ${f.actual}`;
          announce(ctx, msg, "warning");
          log(g, { event: "config-test-failed", message: msg });
        }
      })
    );
  }
  log(g, line);
  showStatus(g, ctx);
}

/** The policies that asked about a verdict. */
function askedPoliciesOf(v: Verdict): string[] {
  return [
    ...new Set(
      v.stages.flatMap((s) =>
        s.targets.filter((t) => t.action === "ask" && t.policy).map((t) => t.policy!)
      ),
    ),
  ];
}

/** The ask dialog's choices for a verdict. */
async function dialogChoices(
  g: Gate,
  v: Verdict,
  ctx: PiContext,
  askedPolicies: string[],
): Promise<string[]> {
  // A protected path (pathProtection, the gate's own files) is only ever allowed once.
  const protectedAsk = isProtectionAsk(v);
  const persistable = !protectedAsk && askedPolicies.length > 0 &&
    askedPolicies.every((p) => approvalRulesFor(v, p) !== null);
  const options: string[] = [CHOICES.once];
  if (!protectedAsk) options.push(CHOICES.session);
  if (persistable) {
    // (Saved into an untrusted project config, an approval could not loosen anything.)
    const here = viewOf(g.config, ctx.cwd);
    if (await projectTrusted(g, ctx, here)) options.push(CHOICES.project);
    // (A policy only the project defines cannot be named in the global config.)
    const globalAlone = here.project ? here.base : here.load;
    if (
      !here.project || !here.base ||
      (globalAlone?.status === "ok" &&
        askedPolicies.every((p) => Object.hasOwn(globalAlone.config.policies, p)))
    ) options.push(CHOICES.global);
  }
  options.push(CHOICES.deny);
  return options;
}

/** The dialog's answer: whether the call may run, and the choice as the log records it. */
interface Answer {
  allowed: boolean;
  choice: string;
}

/** Allow for Project or Allow Globally: the approval saved (into which policy, if several asked). */
async function saveApproval(
  g: Gate,
  v: Verdict,
  ctx: PiContext,
  choice: string,
  askedPolicies: string[],
): Promise<Answer> {
  let policy = askedPolicies[0];
  if (askedPolicies.length > 1) {
    const picked = await ctx.ui.select(
      "pi-controls: save the approval in which policy?",
      askedPolicies,
      { signal: ctx.signal },
    );
    if (!picked) return { allowed: false, choice: `${choice}: no policy chosen` };
    policy = picked;
  }
  const rules = approvalRulesFor(v, policy);
  if (!rules) return { allowed: true, choice: CHOICES.once };
  const where = choice === CHOICES.project ? "project" : "global";
  const file = approvalFile(g.config, where, ctx.cwd);
  try {
    const before = viewOf(g.config, ctx.cwd).project;
    saveApprovalRules(file, rules);
    // The user wrote this change: an accepted project config stays accepted with it.
    keepAccepted(g.config, before, viewOf(g.config, ctx.cwd).project);
    const rendered = rules.map((r) => r.pattern ?? r.tool).join(", ");
    ctx.ui.notify(`pi-controls: saved allow ${rendered} [${policy}] to ${file}`, "info");
    return { allowed: true, choice: `${choice} (${rendered} -> ${file})` };
  } catch (e) {
    // Not saved: the user is told so, and the choice still holds for this session.
    allowForSession(g.state, v);
    ctx.ui.notify(
      `pi-controls: could not save the approval (it holds for this session only): ` +
        (e as Error).message,
      "error",
    );
    return { allowed: true, choice: `${choice} (not saved: ${(e as Error).message})` };
  }
}

/** The ask dialog (none without a UI or once the turn is aborted). */
async function ask(g: Gate, v: Verdict, notification: string, ctx: PiContext): Promise<Answer> {
  if (!ctx.hasUI) return { allowed: false, choice: "no UI to answer" };
  if (ctx.signal?.aborted) return { allowed: false, choice: "turn aborted" };
  const askedPolicies = askedPoliciesOf(v);
  const options = await dialogChoices(g, v, ctx, askedPolicies);
  let choice: string | undefined;
  try {
    choice = await ctx.ui.select(notification, options, { signal: ctx.signal });
  } catch {
    choice = undefined;
  }
  if (ctx.signal?.aborted) return { allowed: false, choice: "turn aborted" };
  if (choice === CHOICES.once) return { allowed: true, choice };
  if (choice === CHOICES.session) {
    allowForSession(g.state, v);
    return { allowed: true, choice };
  }
  if (choice === CHOICES.project || choice === CHOICES.global) {
    return await saveApproval(g, v, ctx, choice, askedPolicies);
  }
  return { allowed: false, choice: choice ?? "dismissed" };
}

/** A call decided: the engine's verdict with its evals classified, and the breakers applied. */
async function decideCall(
  g: Gate,
  event: ToolCallEvent,
  ctx: PiContext,
  v: ConfigView,
): Promise<
  {
    verdict: ClassifiedVerdict;
    applied: Applied;
    eff: { config: Config; base: Config | null } | null;
  }
> {
  const call = { tool: event.toolName, input: event.input ?? {} };
  const eff = v.load.status === "ok"
    ? effectiveConfig(v, { trusted: await projectTrusted(g, ctx, v) })
    : null;
  if (v.load.status === "error" || !eff) {
    const verdict = brokenConfigVerdict(blockingErrors(v), call);
    return { verdict, applied: applyBreakers(g.state, verdict, null, g.now()), eff: null };
  }
  const decideWith = (parser: ParserChoice) =>
    decideEffective(eff, call, context(g, ctx.cwd), { parser, project: v.project?.file });
  // While tree-sitter loads (the first call of a session), a command read without a tree is
  // decided at once; one that needs a tree waits for the parser.
  let decided = g.parser || g.parserSettled
    ? null
    : decidedWithoutTree(() => decideWith("pending"));
  if (!decided) {
    await ensureParser(g);
    decided = decideWith(g.parser);
  }
  // Inline code evals (only with a decisions block): upgrade-only, before session state.
  const verdict = await classifyInSession(g.state, decided, eff.config, context(g, ctx.cwd), {
    signal: ctx.signal,
    toolCallId: event.toolCallId,
    log: (entry) => log(g, entry),
  });
  return { verdict, applied: applyBreakers(g.state, verdict, eff.config, g.now()), eff };
}

/** The verdict `decide` gives, or null when the call needs the parser that is still loading. */
function decidedWithoutTree(decide: () => Verdict): Verdict | null {
  try {
    return decide();
  } catch (e) {
    if (e instanceof ParserPending) return null;
    throw e;
  }
}

/** The reason a call the user was asked about is blocked. */
function deniedReason(verdict: Verdict, choice: string): string {
  const why = choice === "no UI to answer"
    ? " Confirmation was required and nobody could give it (pi runs without a UI)."
    : choice === "turn aborted"
    ? " The turn was aborted before anyone answered."
    : " The user denied it.";
  return (verdict.reason ?? "Access denied by policy.").replace(
    / This call needs the user's confirmation, and it was not given\.$/,
    "",
  ) + why;
}

/** What enforcing an action did: the final action, the dialog's choice, and a block. */
interface Enforced {
  final: Action;
  choice?: string;
  block?: { block: true; reason: string };
}

/** An ask: allowed for the session already, or the user's answer to the dialog. */
async function askUser(
  g: Gate,
  _event: ToolCallEvent,
  ctx: PiContext,
  verdict: Verdict,
  notification: string,
): Promise<Enforced> {
  if (allowedForSession(g.state, verdict)) {
    return { final: "allow", choice: "allowed for session" };
  }
  const answer = await ask(g, verdict, notification, ctx);
  if (answer.allowed) return { final: "allow", choice: answer.choice };
  const reason = deniedReason(verdict, answer.choice);
  return { final: "deny", choice: answer.choice, block: { block: true, reason } };
}

/** Enforce the action after session state: notify, nudge, ask, or block. */
async function enforce(
  g: Gate,
  event: ToolCallEvent,
  ctx: PiContext,
  verdict: Verdict,
  applied: Applied,
  sandboxBlocked: string | null,
): Promise<Enforced> {
  const tool = event.toolName;
  switch (applied.action) {
    case "allow":
      return { final: "allow" };
    case "log":
      ctx.ui.notify(applied.notification ?? `pi-controls: log ${tool}`, "info");
      return { final: "log" };
    case "nudge":
      ctx.ui.notify(applied.notification ?? "", "warning");
      if (verdict.nudge) holdNudge(g.state, event.toolCallId, verdict.nudge.message);
      return { final: "nudge" };
    case "sandbox":
      if (tool !== "bash") {
        // pi's read tools (the engine made every other tool ask): the sandbox would let a
        // command read there, so they proceed.
        ctx.ui.notify(applied.notification ?? `pi-controls: sandbox ${tool}`, "info");
        return { final: "sandbox" };
      }
      if (sandboxBlocked === null) {
        ctx.ui.notify(applied.notification ?? `pi-controls: sandbox ${tool}`, "info");
        return { final: "sandbox" };
      }
      // The sandbox cannot hold it: the call fails closed to an ask.
      return await askUser(
        g,
        event,
        ctx,
        verdict,
        `${applied.notification ?? `pi-controls: sandbox ${tool}`} (${sandboxBlocked}; so it ` +
          `asks)`,
      );
    case "ask":
      return await askUser(
        g,
        event,
        ctx,
        verdict,
        applied.notification ?? `pi-controls: ask ${tool}`,
      );
    case "deny":
      ctx.ui.notify(applied.notification ?? `pi-controls: deny ${tool}`, "warning");
      return {
        final: "deny",
        block: { block: true, reason: applied.reason ?? "Access denied by policy." },
      };
  }
}

/** The decision in the log and in `/controls`' last decisions. */
function record(
  g: Gate,
  event: ToolCallEvent,
  verdict: Verdict,
  applied: Applied,
  done: Enforced,
): void {
  const input = event.input ?? {};
  log(
    g,
    decisionLine({
      tool: event.toolName,
      toolCallId: event.toolCallId,
      verdict,
      final: done.final,
      escalation: "escalation" in applied ? applied.escalation : undefined,
      choice: done.choice,
      mode: g.state.mode,
      input,
    }),
  );
  const what = event.toolName === "bash"
    ? String(input.command).slice(0, 60)
    : verdict.policies.join(",");
  remember(g.state, `${done.final} ${event.toolName} ${what}`, g.now());
}

async function onToolCall(
  g: Gate,
  event: ToolCallEvent,
  ctx: PiContext,
): Promise<{ block: true; reason: string } | undefined> {
  if (g.state.mode === "ignore") return undefined;
  g.lastCtx = ctx;
  const v = viewOf(g.config, ctx.cwd);
  if (v.load.status === "absent") return undefined;
  const { verdict, applied, eff } = await decideCall(g, event, ctx, v);
  if (g.state.mode === "inform") {
    const final = applied.action;
    if (final !== "allow") {
      const text = informNotification(verdict, final) ??
        (applied.notification ?? "").replace(/^pi-controls: (\w+)/, "pi-controls: would-$1");
      ctx.ui.notify(text, final === "deny" || final === "ask" ? "warning" : "info");
    }
    record(g, event, verdict, applied, { final, choice: "inform mode: not enforced" });
    return undefined;
  }
  const blocked = applied.action === "sandbox" && event.toolName === "bash" && eff
    ? sandboxBlocker(g.sandbox, event.toolCallId, eff, context(g, ctx.cwd))
    : null;
  const done = await enforce(g, event, ctx, verdict, applied, blocked);
  record(g, event, verdict, applied, done);
  if (!done.block && eff && runsSandboxed(verdict, done.final)) {
    // (After the log recorded the command as the agent wrote it.)
    const input = event.input as Record<string, unknown>;
    if (await sandboxCall(g.sandbox, event.toolCallId, input, eff, context(g, ctx.cwd))) {
      log(g, { event: "sandboxed", toolCallId: event.toolCallId });
    }
  }
  return done.block;
}

/** The sandbox's state for `/controls`: off, on (with bubblewrap's path) or unable to start. */
function sandboxText(g: Gate, config: Config | null): string {
  if (!config?.sandbox?.enabled) return "off (no enabled sandbox block)";
  const probe = sandboxReady(g.sandbox);
  return probe.ok
    ? `on (${probe.bwrap}, network ${networkText(config.sandbox.network)})`
    : `cannot start: ${probe.reason}; sandboxed calls ask`;
}

/** `/controls MODE` switches the mode; `/controls` shows the state, without side effects. */
function controls(g: Gate, args: string, ctx: PiContext): void {
  const arg = args.trim();
  if (arg) {
    const mode = parseMode(arg);
    if (!mode) {
      ctx.ui.notify(`pi-controls: unknown mode "${arg}"; use enforce, inform or ignore`, "error");
      return;
    }
    g.state.mode = mode;
    log(g, { event: "mode", mode });
    ctx.ui.notify(`pi-controls: mode ${mode}`, "info");
    showStatus(g, ctx);
    return;
  }
  const v = viewOf(g.config, ctx.cwd);
  const l = v.load;
  const files = l.files.length ? l.files.join("\n  ") : "(none)";
  const trust = trustText(g.config, v, folderTrusted(g, ctx));
  const recent = g.state.recent;
  const lines = [
    `pi-controls: mode ${g.state.mode}`,
    `config files:\n  ${files}${trust ? `\n${trust}` : ""}`,
    `policy for ${ctx.cwd}: ${cwdPolicy(g.config, ctx.cwd, context(g, ctx.cwd))}`,
    `log: ${g.logFile}`,
    `sandbox: ${sandboxText(g, l.status === "ok" ? l.config : null)}`,
    `last decisions:\n  ${recent.length ? recent.join("\n  ") : "(none yet)"}`,
  ];
  if (l.status === "error") {
    lines.splice(2, 0, `errors:\n  ${l.errors.map(formatConfigError).join("\n  ")}`);
  }
  ctx.ui.notify(lines.join("\n"), l.status === "error" ? "error" : "info");
  showStatus(g, ctx);
}

/** A failure inside the gate never lets a call through: the call is blocked, and it is told. */
function internalError(g: Gate, e: ToolCallEvent, err: unknown, ctx: PiContext) {
  const reason = `pi-controls could not decide this call (${
    (err as Error)?.message ?? err
  }); it is blocked to be safe.`;
  log(g, { event: "error", tool: e.toolName, error: String((err as Error)?.stack ?? err) });
  try {
    ctx.ui.notify(`pi-controls: internal error — ${reason}`, "error");
  } catch { /* no UI */ }
  return { block: true as const, reason };
}

/** Create the extension's handlers on a pi API object. */
export function createExtension(pi: PiApi, opts: ExtensionOptions = {}): void {
  // A plain copy: every read of process.env is a call into the runtime, on every tool call.
  const env = opts.env ?? ({ ...process.env } as Record<string, string | undefined>);
  const home = env.HOME || homedir();
  const agentDir = agentDirFrom(env, home);
  const g: Gate = {
    env,
    now: opts.now ?? Date.now,
    home,
    agentDir,
    logFile: join(agentDir, "extensions", "pi-controls.log"),
    wasm: opts.wasm,
    state: newExtensionState(),
    config: newExtensionConfig({
      home,
      agentDir,
      codeFile: opts.codeFile,
      log: (entry) => log(g, entry),
    }),
    shown: new Set(),
    lastCtx: null,
    parser: null,
    parserPromise: null,
    parserSettled: false,
    fs: realFs(),
    sandbox: newSandboxState(env, opts.sandboxProbe, opts.sandboxProxy),
  };

  pi.on("session_start", async (_e: never, ctx: PiContext) => {
    startup(g, ctx);
    void ensureParser(g);
    // A trusted project's config that changed since it was accepted is asked about now.
    const v = viewOf(g.config, ctx.cwd);
    if (v.load.status === "ok") {
      try {
        await projectTrusted(g, ctx, v);
      } catch { /* asked again at the first call */ }
      showStatus(g, ctx);
    }
  });

  // The network proxy (started by a call with an allow list) stops with the session.
  pi.on("session_shutdown", () => stopSandbox(g.sandbox));

  pi.on("tool_call", async (event: never, ctx: PiContext) => {
    const e = event as ToolCallEvent;
    try {
      return await onToolCall(g, e, ctx);
    } catch (err) {
      return internalError(g, e, err, ctx);
    }
  });

  pi.on("tool_result", (event: never, ctx: PiContext) => {
    const e = event as ToolResultEvent;
    const message = takeNudge(g.state, e.toolCallId);
    const output = (e.content ?? []).map((c) => c.text ?? "").join("\n");
    const stopped = sandboxResult(g.sandbox, e.toolCallId, output);
    if (message === undefined && !stopped) return undefined;
    let content = e.content ?? [];
    if (message !== undefined) content = nudgedContent(content, message);
    if (stopped) {
      content = [...content, { type: "text", text: stopped.message }];
      log(g, { event: "sandbox-stopped", toolCallId: e.toolCallId, message: stopped.message });
      try {
        (ctx ?? g.lastCtx)?.ui.notify(stopped.notification, "warning");
      } catch { /* no UI */ }
    }
    return { content };
  });

  pi.registerCommand("controls", {
    description: "pi-controls: show the active config, or switch mode (enforce | inform | ignore)",
    getArgumentCompletions: (prefix: string) => {
      const items = MODES.filter((m) => m.startsWith(prefix.trim())).map((m) => ({
        value: m,
        label: m,
      }));
      return items.length ? items : null;
    },
    handler: (args: string, ctx: PiContext) => controls(g, args, ctx),
  });
}
