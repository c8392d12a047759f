/**
 * Replay: recorded pi sessions (pi's JSONL session files) through the engine and session state.
 *
 * @module
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { decideEffective } from "./config_view.ts";
import { decide, type DecideOptions } from "./policy/engine.ts";
import { classify, type ClassifyOptions, evalSessionTexts } from "./evals.ts";
import { memoFs } from "./policy/fs_facts.ts";
import { type Applied, applySession, newSession } from "./session.ts";
import type { Action, Config, Context, Verdict } from "./types.ts";

/** One tool call found in a session file. */
export interface RecordedCall {
  id: string;
  tool: string;
  input: Record<string, unknown>;
  /** Unix ms of the assistant message that made the call. */
  timestamp: number;
  /** The 1-based line of the session file. */
  line: number;
}

/** A parsed session file. */
export interface RecordedSession {
  file: string;
  cwd: string;
  calls: RecordedCall[];
  /** Lines that could not be read, as `file:line: message`. */
  problems: string[];
}

/** One replayed call. */
export interface ReplayRow {
  session: string;
  id: string;
  tool: string;
  /** The command, or the target paths, in one line. */
  summary: string;
  /** The engine's action before session state. */
  engine: Action;
  /** The action after the breakers. */
  action: Action;
  escalation?: string;
  /** The UI text and the model's reason after the breakers (what pi would have shown). */
  notification: string | null;
  reason: string | null;
  policies: string[];
  verdict: Verdict;
}

/** Parse one pi session file. Unreadable lines are reported, never fatal. */
export function readSession(file: string, text?: string): RecordedSession {
  const src = text ?? readFileSync(file, "utf8");
  const session: RecordedSession = { file, cwd: "", calls: [], problems: [] };
  src.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
    } catch (e) {
      session.problems.push(`${file}:${i + 1}: not JSON (${(e as Error).message})`);
      return;
    }
    if (entry.type === "session") {
      if (typeof entry.cwd === "string") session.cwd = entry.cwd;
      return;
    }
    const message = entry.type === "message" ? entry.message as Record<string, unknown> : null;
    if (!message || message.role !== "assistant" || !Array.isArray(message.content)) return;
    const ts = typeof message.timestamp === "number"
      ? message.timestamp
      : Date.parse(String(entry.timestamp ?? "")) || 0;
    for (const block of message.content as Record<string, unknown>[]) {
      if (block?.type !== "toolCall" || typeof block.name !== "string") continue;
      const input = block.arguments && typeof block.arguments === "object"
        ? block.arguments as Record<string, unknown>
        : {};
      session.calls.push({
        id: String(block.id ?? `line${i + 1}`),
        tool: block.name,
        input,
        timestamp: ts,
        line: i + 1,
      });
    }
  });
  if (!session.cwd) session.problems.push(`${file}:1: no session header with a cwd`);
  return session;
}

/** The session files under the given files and directories (recursively, `*.jsonl`), sorted. */
export function findSessionFiles(paths: string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  function walk(p: string, top: boolean) {
    let st;
    try {
      st = statSync(p);
    } catch {
      if (top) missing.push(p);
      return;
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p).sort()) walk(join(p, name), false);
    } else if (top || p.endsWith(".jsonl")) files.push(p);
  }
  for (const p of paths) walk(p, true);
  return { files, missing };
}

/** How sessions are replayed. */
export interface ReplayOptions extends DecideOptions {
  /** Called every 250 calls. @default undefined */
  onProgress?: (done: number, total: number) => void;
  /**
   * The global config alone, when an untrusted project config is merged into `config`: each
   * call gets the stricter of the two verdicts. @default undefined
   */
  base?: Config | null;
  /** The untrusted project config's file (shown by explain). @default undefined */
  project?: string;
  /**
   * The config as its files are now, asked before each session and every 500 calls of a long
   * run: an edit applies from there (a changed config answers a new object). It throws when the
   * config became broken, which stops the replay. @default undefined
   */
  current?: () => { config: Config; base: Config | null };
}

/** Replay sessions: each call decided in its session's cwd, the breakers applied in order. */
export function replaySessions(
  config: Config,
  sessions: RecordedSession[],
  base: Omit<Context, "cwd">,
  opts: ReplayOptions,
): ReplayRow[] {
  const total = sessions.reduce((n, s) => n + s.calls.length, 0);
  const rows: ReplayRow[] = [];
  // Replay judges history against the filesystem as it is now, and changes nothing: one answer
  // per path serves the whole run (the extension asks afresh for every call).
  const fs = memoFs(base.fs);
  const known = new Map<string, Verdict>();
  let o = opts;
  const refresh = () => {
    if (!opts.current) return;
    const now = opts.current();
    if (now.config === config && (now.base ?? null) === (o.base ?? null)) return;
    config = now.config;
    o = { ...opts, base: now.base };
    known.clear();
  };
  for (const s of sessions) {
    const state = newSession();
    const ctx: Context = { ...base, fs, cwd: s.cwd || "/" };
    refresh();
    for (const call of s.calls) {
      if (rows.length % 500 === 499) refresh();
      const verdict = decideOnce(known, config, call, ctx, o);
      rows.push(replayRow(s, call, verdict, applySession(state, verdict, config, call.timestamp)));
      if (opts.onProgress && rows.length % 250 === 0) opts.onProgress(rows.length, total);
    }
  }
  return rows;
}

/**
 * Replay sessions as `replaySessions` does, with eval classification (the config's decisions
 * block) between the engine and the breakers. The calls of a session are classified a few at a
 * time, then the breakers run over them in order.
 */
export async function replaySessionsClassified(
  config: Config,
  sessions: RecordedSession[],
  base: Omit<Context, "cwd">,
  opts: ReplayOptions,
  evals: Omit<ClassifyOptions, "toolCallId">,
): Promise<ReplayRow[]> {
  const total = sessions.reduce((n, s) => n + s.calls.length, 0);
  const rows: ReplayRow[] = [];
  const fs = memoFs(base.fs);
  const known = new Map<string, Verdict>();
  for (const s of sessions) {
    const state = newSession();
    const ctx: Context = { ...base, fs, cwd: s.cwd || "/" };
    const verdicts: Verdict[] = new Array(s.calls.length);
    let next = 0;
    const worker = async () => {
      while (next < s.calls.length) {
        const i = next++;
        const call = s.calls[i];
        const v = decideOnce(known, config, call, ctx, opts);
        verdicts[i] = await classify(v, config, ctx, { ...evals, toolCallId: call.id });
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    s.calls.forEach((call, i) => {
      const verdict = verdicts[i];
      const applied = evalSessionTexts(
        applySession(state, verdict, config, call.timestamp),
        verdict,
      );
      rows.push(replayRow(s, call, verdict, applied));
      if (opts.onProgress && rows.length % 250 === 0) opts.onProgress(rows.length, total);
    });
  }
  return rows;
}

/**
 * The engine's verdict for a call, decided once per run: with the filesystem's answers fixed for
 * the run, a verdict is a pure function of the cwd, the tool and its input, and histories repeat
 * calls (the same reads, `git status`, the test command) all the time. Verdicts are not changed
 * after the engine returns them, so rows may share one.
 */
function decideOnce(
  known: Map<string, Verdict>,
  config: Config,
  call: RecordedCall,
  ctx: Context,
  opts: ReplayOptions,
): Verdict {
  const key = `${ctx.cwd}\0${call.tool}\0${inputKey(call.input)}`;
  let verdict = known.get(key);
  if (!verdict) {
    verdict = opts.base
      ? decideEffective(
        { config, base: opts.base },
        { tool: call.tool, input: call.input },
        ctx,
        opts,
      )
      : decide(config, { tool: call.tool, input: call.input }, ctx, opts);
    if (known.size >= 100_000) known.clear();
    known.set(key, verdict);
  }
  return verdict;
}

/**
 * A call's input as a key: a bash command as it is (after a NUL, which no JSON text starts with),
 * anything else as its JSON.
 */
function inputKey(input: Record<string, unknown>): string {
  const command = input.command;
  if (typeof command === "string") {
    let keys = 0;
    for (const _ in input) keys++;
    if (keys === 1) return "\0" + command;
  }
  return JSON.stringify(input);
}

/** The row of one replayed call. */
function replayRow(
  s: RecordedSession,
  call: RecordedCall,
  verdict: Verdict,
  applied: Applied,
): ReplayRow {
  const row: ReplayRow = {
    session: s.file,
    id: call.id,
    tool: call.tool,
    summary: summarize(call.tool, call.input, verdict),
    engine: verdict.action,
    action: applied.action,
    notification: applied.notification,
    reason: applied.reason,
    policies: verdict.policies,
    verdict,
  };
  if (applied.escalation) row.escalation = applied.escalation;
  return row;
}

/** A one-line description of a call: the bash command, else its target paths. */
export function summarize(tool: string, input: Record<string, unknown>, verdict: Verdict): string {
  if (tool === "bash") {
    const command = String(input.command ?? "");
    return command.includes("\n") ? command.replace(/\s*\n\s*/g, " ⏎ ") : command;
  }
  const paths = verdict.stages.flatMap((s) => s.targets.map((t) => t.path)).filter(Boolean);
  return [...new Set(paths)].join(", ");
}
