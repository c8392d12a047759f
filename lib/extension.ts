/**
 * The pi extension: turns the engine's verdicts into pi effects (block, ask dialog, nudge, notify),
 * keeps session state (breakers, session allows, modes), saves approvals and writes the log.
 */
import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { approvalRulesFor, saveApprovalRules } from "./approvals.ts";
import { CHOICES } from "./ask_choices.ts";
import { type BashParser, loadBashParser, type WasmBytes } from "./shell/parser.ts";
import { agentDirFrom, discoverConfigFiles, formatConfigError, type LoadResult } from "./config.ts";
import { runConfigTests } from "./config_tests.ts";
import {
  blockingErrors,
  type ConfigView,
  configWatcher,
  decideEffective,
  effectiveConfig,
  type ProjectConfig,
} from "./config_view.ts";
import { brokenConfigVerdict, informNotification } from "./policy/engine.ts";
import { pinnedHash, storedTrust, updateFolderTrust } from "./trust.ts";
import { classify, evalSessionTexts, newEvalCache } from "./evals.ts";
import { realFs } from "./policy/fs_facts.ts";
import { locate, locationIndex } from "./policy/locations.ts";
import { appendLog, decisionLine } from "./log.ts";
import { noConfigWarning, nudgeText } from "./policy/messages.ts";
import { applySession, newSession, type SessionState } from "./session.ts";
import type { Action, Context, Verdict } from "./types.ts";

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
  content: { type: string; text?: string }[];
}

/** The three modes of `/controls`. */
export type Mode = "enforce" | "inform" | "ignore";
const MODES: Mode[] = ["enforce", "inform", "ignore"];

export { CHOICES };

/** The choices offered when a trusted project's config changed in a way that can loosen. */
const APPLY_PROJECT = "Apply the changed project config";
const TIGHTEN_ONLY = "Let it only tighten my policy";

/** Options of the extension (tests inject the environment and the embedded WASM). */
export interface ExtensionOptions {
  env?: Record<string, string | undefined>;
  wasm?: WasmBytes;
  now?: () => number;
  /** The file the extension's code was loaded from (protected as one of the gate's files). */
  codeFile?: string;
}

/** Create the extension's handlers on a pi API object. */
export function createExtension(pi: PiApi, opts: ExtensionOptions = {}): void {
  // A plain copy: every read of process.env is a call into the runtime, on every tool call.
  const env = opts.env ?? ({ ...process.env } as Record<string, string | undefined>);
  const now = opts.now ?? Date.now;
  const home = env.HOME || homedir();
  const agentDir = agentDirFrom(env, home);
  const logFile = join(agentDir, "extensions", "pi-controls.log");
  let mode: Mode = "enforce";
  const watcher = configWatcher({ home, agentDir, codeFile: opts.codeFile });
  /** Project config texts (by hash) the user accepted, or refused, to loosen the global policy. */
  const reviewed = new Map<string, boolean>();
  /** Failures already shown once this process (the log, the parser). */
  const shown = new Set<string>();
  let session: SessionState = newSession();
  let sessionAllows = new Set<string>();
  // Eval classification: one reply cache and one Decisions session id per pi session.
  let evalCache = newEvalCache();
  let evalSession: string = randomUUID();
  const nudges = new Map<string, string>();
  const recent: string[] = [];
  let parser: BashParser | null = null;
  let parserPromise: Promise<void> | null = null;

  let lastCtx: PiContext | null = null;

  /** Tell the user once per process about a failure they must know of. */
  function showOnce(key: string, message: string): void {
    if (shown.has(key)) return;
    shown.add(key);
    const ctx = lastCtx;
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

  function log(entry: Record<string, unknown>): void {
    if (!appendLog(logFile, entry)) {
      showOnce(
        "log",
        `pi-controls: cannot write the decision log ${logFile}; decisions are still enforced, ` +
          `but not recorded`,
      );
    }
  }

  function ensureParser(): Promise<void> {
    parserPromise ??= loadBashParser(opts.wasm).then((p) => {
      parser = p;
    }, (e) => {
      log({ event: "parser-unavailable", error: String(e) });
      showOnce(
        "parser",
        `pi-controls: the bash parser (tree-sitter WASM) did not load (${e}); a simpler ` +
          `splitter reads bash commands, and what it cannot read asks`,
      );
    });
    return parserPromise;
  }

  /** A path as the user would write it: `~/…` when it is inside the home directory. */
  function tilde(path: string): string {
    const h = home.replace(/\/+$/, "");
    return h && path.startsWith(h + "/") ? "~" + path.slice(h.length) : path;
  }

  function context(cwd: string): Context {
    return { cwd, home, env, fs: realFs() };
  }

  /** The config files as they are now (a stat per file; read again only when one changed). */
  function view(cwd: string): ConfigView {
    return watcher.current(cwd);
  }

  function config(cwd: string): LoadResult {
    return view(cwd).load;
  }

  /** Whether the folder of a project config is trusted: pi 1.x says; else pi-controls' store. */
  function folderTrusted(ctx: PiContext, p: ProjectConfig): boolean {
    if (typeof ctx.isProjectTrusted === "function") {
      try {
        return ctx.isProjectTrusted() === true;
      } catch {
        return false;
      }
    }
    return storedTrust(agentDir, p.root);
  }

  function pin(p: ProjectConfig): void {
    try {
      updateFolderTrust(agentDir, p.root, (e) => ({ ...e, pinned: p.hash }));
    } catch (e) {
      log({ event: "pin-failed", file: p.file, error: (e as Error).message });
    }
  }

  /**
   * Whether the project config of a view may loosen the global policy: its folder is trusted,
   * and its content is the one last accepted. A trusted folder's first config is accepted (pi's
   * trust is the user's answer); a later text that can loosen is asked about once (with a UI),
   * and until accepted it only tightens.
   */
  async function projectTrusted(ctx: PiContext, v: ConfigView): Promise<boolean> {
    const p = v.project;
    if (!p || p.loosens.length === 0) return true;
    if (!folderTrusted(ctx, p)) return false;
    const known = reviewed.get(p.hash);
    if (known !== undefined) return known;
    const was = pinnedHash(agentDir, p.root);
    if (was === undefined || was === p.hash) {
      if (was === undefined) pin(p);
      reviewed.set(p.hash, true);
      return true;
    }
    reviewed.set(p.hash, false);
    const question = `pi-controls: the project config ${p.file} changed since you last let it ` +
      `loosen your global policy. It sets: ${p.loosens.join(", ")}. Apply it?`;
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
    log({ event: "project-config-changed", file: p.file, accepted, loosens: p.loosens });
    if (accepted) pin(p);
    reviewed.set(p.hash, accepted);
    return accepted;
  }

  /** What the footer and /controls say of the project config's trust. */
  function trustText(ctx: PiContext, v: ConfigView): string | null {
    const p = v.project;
    if (!p || !v.base) return null;
    if (p.loosens.length === 0) return `project config ${p.file}: only tightens`;
    const trusted = folderTrusted(ctx, p) && reviewed.get(p.hash) !== false;
    return trusted
      ? `project config ${p.file}: trusted, merged over the global config`
      : `project config ${p.file}: not trusted, it can only tighten the global policy`;
  }

  function cwdPolicy(cwd: string): string {
    const l = config(cwd);
    if (l.status === "absent") return "unconfigured";
    if (l.status === "error") return "config error";
    const p = locate(locationIndex(l.config, context(cwd)), cwd);
    return p.policy ?? "unrestricted";
  }

  function showStatus(ctx: PiContext): void {
    try {
      ctx.ui.setStatus("pi-controls", `controls: ${mode} · ${cwdPolicy(ctx.cwd)}`);
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

  function startup(ctx: PiContext): void {
    session = newSession();
    sessionAllows = new Set();
    evalCache = newEvalCache();
    evalSession = randomUUID();
    nudges.clear();
    lastCtx = ctx;
    const v = view(ctx.cwd);
    const l = v.load;
    const line: Record<string, unknown> = { event: "startup", cwd: ctx.cwd, files: l.files, mode };
    const trust = trustText(ctx, v);
    if (trust) line.trust = trust;
    if (l.status === "absent") {
      line.loaded = "0 policies, 0 locations, defaultPolicy=null";
      announce(
        ctx,
        noConfigWarning(tilde(join(agentDir, "extensions", "pi-controls.jsonc"))),
        "warning",
      );
    } else if (l.status === "error") {
      line.errors = l.errors.map(formatConfigError);
      announce(
        ctx,
        `pi-controls: config error — every tool call is blocked until it is fixed:\n` +
          l.errors.map(formatConfigError).join("\n"),
        "error",
      );
    } else {
      const c = l.config;
      line.loaded =
        `${Object.keys(c.policies).length} policies, ${c.locations.length} locations, ` +
        `defaultPolicy=${c.defaultPolicy}`;
      for (const w of l.warnings) {
        announce(ctx, `pi-controls: warning — ${formatConfigError(w)}`, "warning");
      }
      if (c.tests.length) {
        void ensureParser().then(() => {
          const failed = runConfigTests(c, context(ctx.cwd), { parser }).filter((r) => !r.ok);
          for (const f of failed) {
            const msg =
              `pi-controls: config example fails: ${f.test.tool} ${JSON.stringify(f.test.input)} ` +
              `expected ${f.test.expect}, got ${f.actual}`;
            announce(ctx, msg, "warning");
            log({ event: "config-test-failed", message: msg });
          }
        });
      }
    }
    log(line);
    showStatus(ctx);
  }

  function remember(text: string): void {
    recent.push(`${new Date(now()).toISOString().slice(11, 19)} ${text}`);
    if (recent.length > 10) recent.shift();
  }

  /**
   * A key for "Allow for session". Other tools: the tool and its targets (lexical and resolved).
   * Bash: each stage's command and the directory it runs in, and the policies that asked. Not the
   * bash targets themselves: a bare operand is a target only once the file exists, so `touch x`
   * would never match itself after it ran; the same command in the same place touches the same
   * files, and a symlink that now leads into another asking policy changes the key.
   */
  function sessionKey(v: Verdict): string {
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

  function isProtectionAsk(v: Verdict): boolean {
    return v.stages.some((s) =>
      s.targets.some((t) => t.action === "ask" && t.protection?.action === "ask")
    );
  }

  async function ask(
    v: Verdict,
    notification: string,
    ctx: PiContext,
  ): Promise<{ allowed: boolean; choice: string }> {
    if (!ctx.hasUI) return { allowed: false, choice: "no UI to answer" };
    if (ctx.signal?.aborted) return { allowed: false, choice: "turn aborted" };
    const askedPolicies = [
      ...new Set(
        v.stages.flatMap((s) =>
          s.targets.filter((t) => t.action === "ask" && t.policy).map((t) => t.policy!)
        ),
      ),
    ];
    // A protected path (pathProtection, the gate's own files) is only ever allowed once.
    const protectedAsk = isProtectionAsk(v);
    const persistable = !protectedAsk && askedPolicies.length > 0 &&
      askedPolicies.every((p) => approvalRulesFor(v, p) !== null);
    const options: string[] = [CHOICES.once];
    if (!protectedAsk) options.push(CHOICES.session);
    if (persistable) {
      // (Saved into an untrusted project config, an approval could not loosen anything.)
      const here = view(ctx.cwd);
      if (await projectTrusted(ctx, here)) options.push(CHOICES.project);
      // (A policy only the project defines cannot be named in the global config.)
      const globalAlone = here.project ? here.base : here.load;
      if (
        !here.project || !here.base ||
        (globalAlone?.status === "ok" &&
          askedPolicies.every((p) => Object.hasOwn(globalAlone.config.policies, p)))
      ) options.push(CHOICES.global);
    }
    options.push(CHOICES.deny);
    let choice: string | undefined;
    try {
      choice = await ctx.ui.select(notification, options, { signal: ctx.signal });
    } catch {
      choice = undefined;
    }
    if (ctx.signal?.aborted) return { allowed: false, choice: "turn aborted" };
    if (choice === CHOICES.once) return { allowed: true, choice };
    if (choice === CHOICES.session) {
      sessionAllows.add(sessionKey(v));
      return { allowed: true, choice };
    }
    if (choice === CHOICES.project || choice === CHOICES.global) {
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
      const file = approvalFile(choice === CHOICES.project ? "project" : "global", ctx.cwd);
      try {
        const before = view(ctx.cwd).project;
        saveApprovalRules(file, rules);
        const after = view(ctx.cwd).project;
        // The user wrote this change: an accepted project config stays accepted with it.
        if (after && before && after.file === before.file && reviewed.get(before.hash)) {
          reviewed.set(after.hash, true);
          pin(after);
        }
        const rendered = rules.map((r) => r.pattern ?? r.tool).join(", ");
        ctx.ui.notify(`pi-controls: saved allow ${rendered} [${policy}] to ${file}`, "info");
        return { allowed: true, choice: `${choice} (${rendered} -> ${file})` };
      } catch (e) {
        // Not saved: the user is told so, and the choice still holds for this session.
        sessionAllows.add(sessionKey(v));
        ctx.ui.notify(
          `pi-controls: could not save the approval (it holds for this session only): ` +
            (e as Error).message,
          "error",
        );
        return { allowed: true, choice: `${choice} (not saved: ${(e as Error).message})` };
      }
    }
    return { allowed: false, choice: choice ?? "dismissed" };
  }

  function approvalFile(where: "project" | "global", cwd: string): string {
    const found = discoverConfigFiles({ cwd, agentDir });
    const existing = found.find((f) => f.role === where);
    if (existing) return existing.file;
    return where === "global"
      ? join(agentDir, "extensions", "pi-controls.jsonc")
      : join(cwd, ".pi", "extensions", "pi-controls.jsonc");
  }

  async function onToolCall(
    event: ToolCallEvent,
    ctx: PiContext,
  ): Promise<{ block: true; reason: string } | undefined> {
    if (mode === "ignore") return undefined;
    lastCtx = ctx;
    const call = { tool: event.toolName, input: event.input ?? {} };
    const v = view(ctx.cwd);
    const l = v.load;
    if (l.status === "absent") return undefined;
    let verdict: Verdict;
    const eff = l.status === "ok"
      ? effectiveConfig(v, { trusted: await projectTrusted(ctx, v) })
      : null;
    if (l.status === "error" || !eff) {
      verdict = brokenConfigVerdict(blockingErrors(v), call);
    } else {
      if (call.tool === "bash") await ensureParser();
      verdict = decideEffective(eff, call, context(ctx.cwd), {
        parser,
        project: v.project?.file,
      });
      // Inline code evals (only with a decisions block): upgrade-only, before session state.
      verdict = await classify(verdict, eff.config, context(ctx.cwd), {
        cache: evalCache,
        sessionId: evalSession,
        signal: ctx.signal,
        origin: "extension",
        toolCallId: event.toolCallId,
        log: (entry) => log(entry),
        skip: sessionAllows.has(sessionKey(verdict)) && !isProtectionAsk(verdict)
          ? "allowed for session"
          : null,
      });
    }
    const applied = eff
      ? evalSessionTexts(applySession(session, verdict, eff.config, now()), verdict)
      : { action: verdict.action, reason: verdict.reason, notification: verdict.notification };
    let final: Action = applied.action;
    let choice: string | undefined;
    const record = () => {
      log(
        decisionLine({
          tool: call.tool,
          toolCallId: event.toolCallId,
          verdict,
          final,
          escalation: "escalation" in applied ? applied.escalation : undefined,
          choice,
          mode,
          input: call.input,
        }),
      );
      remember(
        `${final} ${call.tool} ${
          call.tool === "bash"
            ? String(call.input.command).slice(0, 60)
            : verdict.policies.join(",")
        }`,
      );
    };
    if (mode === "inform") {
      if (final !== "allow") {
        const text = informNotification(verdict, final) ??
          (applied.notification ?? "").replace(/^pi-controls: (\w+)/, "pi-controls: would-$1");
        ctx.ui.notify(text, final === "deny" || final === "ask" ? "warning" : "info");
      }
      choice = "inform mode: not enforced";
      record();
      return undefined;
    }
    let block: { block: true; reason: string } | undefined;
    switch (final) {
      case "allow":
        break;
      case "log":
        ctx.ui.notify(applied.notification ?? `pi-controls: log ${call.tool}`, "info");
        break;
      case "nudge":
        ctx.ui.notify(applied.notification ?? "", "warning");
        if (verdict.nudge) nudges.set(event.toolCallId, verdict.nudge.message);
        break;
      case "ask": {
        if (sessionAllows.has(sessionKey(verdict)) && !isProtectionAsk(verdict)) {
          choice = "allowed for session";
          final = "allow";
          break;
        }
        const answer = await ask(
          verdict,
          applied.notification ?? `pi-controls: ask ${call.tool}`,
          ctx,
        );
        choice = answer.choice;
        if (answer.allowed) {
          final = "allow";
        } else {
          final = "deny";
          const why = choice === "no UI to answer"
            ? " Confirmation was required and nobody could give it (pi runs without a UI)."
            : choice === "turn aborted"
            ? " The turn was aborted before anyone answered."
            : " The user denied it.";
          block = {
            block: true,
            reason: (verdict.reason ?? "Access denied by policy.").replace(
              / This call needs the user's confirmation, and it was not given\.$/,
              "",
            ) + why,
          };
        }
        break;
      }
      case "deny":
        ctx.ui.notify(applied.notification ?? `pi-controls: deny ${call.tool}`, "warning");
        block = { block: true, reason: applied.reason ?? "Access denied by policy." };
        break;
    }
    record();
    return block;
  }

  pi.on("session_start", async (_e: never, ctx: PiContext) => {
    startup(ctx);
    void ensureParser();
    // A trusted project's config that changed since it was accepted is asked about now.
    const v = view(ctx.cwd);
    if (v.load.status === "ok") {
      try {
        await projectTrusted(ctx, v);
      } catch { /* asked again at the first call */ }
      showStatus(ctx);
    }
  });

  pi.on("tool_call", async (event: never, ctx: PiContext) => {
    const e = event as ToolCallEvent;
    try {
      return await onToolCall(e, ctx);
    } catch (err) {
      // A failure inside the gate never lets a call through.
      const reason = `pi-controls could not decide this call (${
        (err as Error)?.message ?? err
      }); it is blocked to be safe.`;
      log({
        event: "error",
        tool: e.toolName,
        error: String((err as Error)?.stack ?? err),
      });
      try {
        ctx.ui.notify(`pi-controls: internal error — ${reason}`, "error");
      } catch { /* no UI */ }
      return { block: true, reason };
    }
  });

  pi.on("tool_result", (event: never) => {
    const e = event as ToolResultEvent;
    const message = nudges.get(e.toolCallId);
    if (message === undefined) return undefined;
    nudges.delete(e.toolCallId);
    // pi's providers join a result's text blocks with "\n": put the nudge into the first text
    // block so the model sees exactly the nudge, a blank line, then the output.
    const content = [...(e.content ?? [])];
    const first = content[0];
    if (first?.type === "text") {
      content[0] = { ...first, text: `${nudgeText(message)}\n\n${first.text ?? ""}` };
    } else content.unshift({ type: "text", text: nudgeText(message) });
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
    handler: (args: string, ctx: PiContext) => {
      const arg = args.trim();
      if (arg) {
        if (!MODES.includes(arg as Mode)) {
          ctx.ui.notify(
            `pi-controls: unknown mode "${arg}"; use enforce, inform or ignore`,
            "error",
          );
          return;
        }
        mode = arg as Mode;
        log({ event: "mode", mode });
        ctx.ui.notify(`pi-controls: mode ${mode}`, "info");
        showStatus(ctx);
        return;
      }
      // The state as the files are now, without side effects.
      const v = view(ctx.cwd);
      const l = v.load;
      const files = l.files.length ? l.files.join("\n  ") : "(none)";
      const trust = trustText(ctx, v);
      const lines = [
        `pi-controls: mode ${mode}`,
        `config files:\n  ${files}${trust ? `\n${trust}` : ""}`,
        `policy for ${ctx.cwd}: ${cwdPolicy(ctx.cwd)}`,
        `log: ${logFile}`,
        `last decisions:\n  ${recent.length ? recent.join("\n  ") : "(none yet)"}`,
      ];
      if (l.status === "error") {
        lines.splice(2, 0, `errors:\n  ${l.errors.map(formatConfigError).join("\n  ")}`);
      }
      ctx.ui.notify(lines.join("\n"), l.status === "error" ? "error" : "info");
      showStatus(ctx);
    },
  });
}
