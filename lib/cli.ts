/**
 * The pi-controls CLI: check, explain, validate, test, replay, init and trust, over the same engine
 * the extension uses. Run with `deno task pi-controls <command>`; `pi-controls <command> --help`
 * says what each takes. The exit statuses are EXIT.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { loadBashParser } from "./shell/parser.ts";
import {
  agentDirFrom,
  formatConfigError,
  loadConfig,
  loadConfigTexts,
  type LoadResult,
} from "./config.ts";
import {
  blockingErrors,
  type ConfigView,
  configWatcher,
  decideEffective,
  effectiveConfig,
} from "./config_view.ts";
import { brokenConfigVerdict, unconfiguredVerdict } from "./policy/engine.ts";
import { cmdSuggest, groupCauses } from "./suggest.ts";
import { folderKey, untrustedReason, updateFolderTrust } from "./trust.ts";
import { classify, type ClassifyOptions, newEvalCache } from "./evals.ts";
import { explainVerdict } from "./explain.ts";
import { realFs } from "./policy/fs_facts.ts";
import { appendLog } from "./log.ts";
import { noConfigWarning } from "./policy/messages.ts";
import {
  findSessionFiles,
  readSession,
  type RecordedSession,
  type ReplayRow,
  replaySessions,
  replaySessionsClassified,
} from "./replay.ts";
import { STARTER_CONFIG } from "./starter.ts";
import { cliVersion, EXAMPLES_DIR, exampleSessions } from "./cli_assets.ts";
import { runConfigTests } from "./config_tests.ts";
import type { Action, Config, Context, ToolCall, Verdict } from "./types.ts";

/** Where the CLI writes and what it sees of the world (injectable for tests). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  cwd: string;
  stdin(): Promise<string>;
  /** Whether stderr is a terminal (replay draws a progress bar there). */
  errIsTTY?: boolean;
}

/**
 * The exit statuses. `check` says its verdict with them: allow, nudge and log are 0, ask 3, deny
 * 4; `check --jsonl` exits with the most restrictive over its lines (see SEVERITY).
 */
export const EXIT = {
  /** Done; or, for check, the call is allowed (also nudge and log). */
  ok: 0,
  /** A broken config, a failed config test, a line not understood, or another failure. */
  failure: 1,
  /** The command line is wrong (an unknown command or option, a missing or bad value). */
  usage: 2,
  /** check: the call would be asked about. */
  ask: 3,
  /** check: the call would be denied. */
  deny: 4,
} as const;

/** Exit statuses from the least to the most restrictive, for `check --jsonl`. */
const SEVERITY: readonly number[] = [EXIT.ok, EXIT.ask, EXIT.deny, EXIT.failure];

/** The exit status of a verdict's action. */
export function exitFor(action: Action): number {
  return action === "deny" ? EXIT.deny : action === "ask" ? EXIT.ask : EXIT.ok;
}

interface Flags {
  configs: string[];
  cwd?: string;
  tool?: string;
  input?: string;
  jsonl: boolean;
  json: boolean;
  project: boolean;
  trustProject: boolean;
  revoke: boolean;
  rest: string[];
}

/** A command line the CLI cannot run (exit 2). */
class UsageError extends Error {}

/** A failure the user can act on, its message already saying what and where (exit 1). */
class CliFailure extends Error {}

/** The config became broken while a replay ran. */
class ReplayConfigError extends Error {}

/** Parse a command's flags; a flag the command does not take is a usage error. */
function parseFlags(args: string[], command: Command): Flags {
  const f: Flags = {
    configs: [],
    jsonl: false,
    json: false,
    project: false,
    trustProject: false,
    revoke: false,
    rest: [],
  };
  const takes = new Map<string, string>();
  for (const o of command.options ?? []) {
    takes.set(o.flag, o.flag);
    if (o.alias) takes.set(o.alias, o.flag);
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("-") || a === "-") {
      f.rest.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const written = a.startsWith("--") && eq > 0 ? a.slice(0, eq) : a;
    const inline = a.startsWith("--") && eq > 0 ? a.slice(eq + 1) : undefined;
    const name = takes.get(written);
    if (!name) {
      throw new UsageError(
        ALL_FLAGS.has(written)
          ? `${command.name} does not take ${written}`
          : `unknown option ${written}`,
      );
    }
    const value = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= args.length) throw new UsageError(`${written} needs a value`);
      return args[++i];
    };
    switch (name) {
      case "--config":
        f.configs.push(value());
        break;
      case "--cwd":
        f.cwd = value();
        break;
      case "--tool":
        f.tool = value();
        break;
      case "--input":
        f.input = value();
        break;
      case "--jsonl":
        f.jsonl = true;
        break;
      case "--json":
        f.json = true;
        break;
      case "--project":
        f.project = true;
        break;
      case "--trust-project":
        f.trustProject = true;
        break;
      case "--revoke":
        f.revoke = true;
        break;
    }
    if (inline !== undefined && !command.options?.find((o) => o.flag === name)?.value) {
      throw new UsageError(`${written} takes no value`);
    }
  }
  const most = command.operands?.max ?? 0;
  if (f.rest.length > most) {
    throw new UsageError(
      most === 0
        ? `${command.name} takes no arguments (got ${JSON.stringify(f.rest[0])})`
        : `${command.name} takes at most ${most} argument${most === 1 ? "" : "s"}`,
    );
  }
  return f;
}

function homeOf(io: CliIo): string {
  return io.env.HOME || homedir();
}

/** The config of a cwd as the CLI uses it: the view, and the project's trust applied. */
interface Loaded {
  view: ConfigView;
  load: LoadResult;
  eff: { config: Config; base: Config | null } | null;
  /** Why the project config may only tighten, or null when it is trusted or absent. */
  untrusted: string | null;
}

function loadView(io: CliIo, flags: Flags, cwd: string): Loaded {
  const home = homeOf(io);
  const agentDir = agentDirFrom(io.env, home);
  const view = configWatcher({
    home,
    agentDir,
    files: flags.configs.length ? flags.configs.map((c) => resolve(io.cwd, c)) : undefined,
  }).current(cwd);
  const p = view.project;
  const untrusted = p && view.base && p.loosens.length && !flags.trustProject
    ? untrustedReason(agentDir, p)
    : null;
  const eff = effectiveConfig(view, { trusted: untrusted === null });
  return { view, load: view.load, eff, untrusted };
}

function load(io: CliIo, flags: Flags, cwd: string): LoadResult {
  const home = homeOf(io);
  return loadConfig({
    cwd,
    home,
    agentDir: agentDirFrom(io.env, home),
    files: flags.configs.length ? flags.configs.map((c) => resolve(io.cwd, c)) : undefined,
  });
}

function context(io: CliIo, cwd: string): Context {
  return { cwd, home: homeOf(io), env: io.env, fs: realFs() };
}

function parseCall(tool: string | undefined, input: string | undefined): ToolCall {
  if (!tool) throw new UsageError("--tool is required (e.g. --tool bash)");
  if (input === undefined) {
    throw new UsageError(`--input is required (e.g. --input '{"command":"ls"}')`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch (e) {
    throw new UsageError(`--input is not JSON: ${(e as Error).message}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new UsageError('--input must be a JSON object, e.g. {"path":"src/main.ts"}');
  }
  return { tool, input: parsed as Record<string, unknown> };
}

async function parser() {
  try {
    return await loadBashParser();
  } catch {
    return null;
  }
}

function verdictFor(
  loaded: Loaded,
  call: ToolCall,
  ctx: Context,
  p: Awaited<ReturnType<typeof parser>>,
  explain = false,
): Verdict {
  const l = loaded.load;
  if (l.status === "absent") return unconfiguredVerdict(call);
  if (l.status === "error" || !loaded.eff) {
    return brokenConfigVerdict(blockingErrors(loaded.view), call);
  }
  return decideEffective(loaded.eff, call, ctx, {
    parser: p,
    explain,
    project: loaded.view.project?.file,
  });
}

/** Whether the config is broken, so that every call is denied naming the error (exit 1). */
function isBroken(l: Loaded): boolean {
  return l.load.status === "error" || (l.load.status === "ok" && !l.eff);
}

/**
 * Eval classification for one CLI run (only used when the config has a decisions block): one reply
 * cache and Decisions session id per run; the traces go to pi's log, as in pi.
 */
function evalOptions(io: CliIo, origin: string): ClassifyOptions {
  const logFile = join(agentDirFrom(io.env, homeOf(io)), "extensions", "pi-controls.log");
  return {
    cache: newEvalCache(),
    sessionId: randomUUID(),
    env: io.env,
    origin,
    log: (entry) => appendLog(logFile, entry),
  };
}

function reportLoad(io: CliIo, loaded: LoadResult): void {
  const home = homeOf(io);
  if (loaded.status === "absent") {
    io.err(
      noConfigWarning(join(agentDirFrom(io.env, home), "extensions", "pi-controls.jsonc")) + "\n",
    );
  } else if (loaded.status === "error") {
    for (const e of loaded.errors) io.err(formatConfigError(e) + "\n");
  } else {
    for (const w of loaded.warnings) io.err("warning: " + formatConfigError(w) + "\n");
  }
}

async function cmdCheck(io: CliIo, flags: Flags): Promise<number> {
  // The command line first: a usage error is told before anything about the config.
  if (flags.jsonl && (flags.tool !== undefined || flags.input !== undefined)) {
    throw new UsageError("--jsonl reads the calls from stdin: drop --tool and --input");
  }
  const single = flags.jsonl ? null : parseCall(flags.tool, flags.input);
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const loaded = loadView(io, flags, cwd);
  reportLoad(io, loaded.load);
  if (loaded.untrusted) io.err(`note: ${loaded.untrusted}: its config can only tighten\n`);
  const p = await parser();
  const config = loaded.eff?.config ?? null;
  const evals = evalOptions(io, "check");
  const judge = (call: ToolCall, ctx: Context) =>
    classify(verdictFor(loaded, call, ctx, p), config, ctx, evals);
  if (single) {
    const v = await judge(single, context(io, cwd));
    io.out(JSON.stringify(v) + "\n");
    return isBroken(loaded) ? EXIT.failure : exitFor(v.action);
  }
  const text = await io.stdin();
  // The most restrictive over the lines: a line not understood or a broken config, then deny, ask.
  let status: number = isBroken(loaded) ? EXIT.failure : EXIT.ok;
  const worse = (code: number) => {
    if (SEVERITY.indexOf(code) > SEVERITY.indexOf(status)) status = code;
  };
  const lines = text.split("\n");
  // Verdicts go out in chunks: one write per line costs more than the decision itself.
  let pending: string[] = [];
  const emit = (line: string) => {
    pending.push(line);
    if (pending.length >= 256) flush();
  };
  const flush = () => {
    if (pending.length) io.out(pending.join(""));
    pending = [];
  };
  // The config of each other directory a line names, read once for the run.
  const others = new Map<string, Loaded>();
  for (const [i, line] of lines.entries()) {
    if (!line.trim()) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line);
      if (!entry || typeof entry !== "object" || typeof entry.tool !== "string") {
        throw new Error('expected {"tool": "...", "input": {...}}');
      }
    } catch (e) {
      emit(
        JSON.stringify({ line: i + 1, error: `stdin:${i + 1}: ${(e as Error).message}` }) + "\n",
      );
      worse(EXIT.failure);
      continue;
    }
    const input = entry.input && typeof entry.input === "object"
      ? entry.input as Record<string, unknown>
      : {};
    const lineCwd = typeof entry.cwd === "string" ? resolve(cwd, entry.cwd) : cwd;
    // (A line in another directory meets that directory's config.)
    let lineLoaded = lineCwd === cwd ? loaded : others.get(lineCwd);
    if (!lineLoaded) others.set(lineCwd, lineLoaded = loadView(io, flags, lineCwd));
    const v = await classify(
      verdictFor(lineLoaded, { tool: entry.tool as string, input }, context(io, lineCwd), p),
      lineLoaded.eff?.config ?? null,
      context(io, lineCwd),
      evals,
    );
    emit(JSON.stringify(entry.id !== undefined ? { id: entry.id, ...v } : v) + "\n");
    worse(isBroken(lineLoaded) ? EXIT.failure : exitFor(v.action));
  }
  flush();
  return status;
}

async function cmdExplain(io: CliIo, flags: Flags): Promise<number> {
  const call = parseCall(flags.tool, flags.input);
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const view = loadView(io, flags, cwd);
  const loaded = view.load;
  const p = await parser();
  const v = verdictFor(view, call, context(io, cwd), p, true);
  const files = loaded.files.length ? loaded.files.join(", ") : "(none)";
  io.out(`config: ${files}\ncwd: ${cwd}\n`);
  if (loaded.status === "absent") io.out("no config found: every call is allowed (fail-open)\n");
  if (loaded.status === "error") {
    for (const e of loaded.errors) io.out(formatConfigError(e) + "\n");
  }
  if (!p) io.out("tree-sitter could not be loaded: the fallback splitter was used\n");
  if (view.untrusted) {
    io.out(`project config: ${view.untrusted}; it can only tighten the global policy\n`);
    if (v.trust?.overruled) {
      io.out(
        `the untrusted project config was overruled: under it the call would be ` +
          `${v.trust.projectAction}; under the global config alone it is ${v.action}\n`,
      );
    }
  }
  io.out(explainVerdict(v, call, loaded.status === "ok" ? loaded.config : null) + "\n");
  return EXIT.ok;
}

function cmdValidate(io: CliIo, flags: Flags): number {
  const files = [...flags.configs, ...flags.rest];
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const loaded = load(io, { ...flags, configs: files }, cwd);
  if (loaded.status === "absent") {
    io.err("no config file found (looked for the global and the project config)\n");
    return EXIT.failure;
  }
  if (loaded.status === "error") {
    for (const e of loaded.errors) io.out(formatConfigError(e) + "\n");
    return EXIT.failure;
  }
  for (const w of loaded.warnings) io.out("warning: " + formatConfigError(w) + "\n");
  io.out(`ok: ${loaded.files.join(", ")}\n`);
  return EXIT.ok;
}

async function cmdTest(io: CliIo, flags: Flags): Promise<number> {
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const loaded = load(io, flags, cwd);
  reportLoad(io, loaded);
  if (loaded.status !== "ok") return EXIT.failure;
  const results = runConfigTests(loaded.config, context(io, cwd), { parser: await parser() });
  for (const r of results) {
    const call = `${r.test.tool} ${JSON.stringify(r.test.input)}`;
    io.out(`${r.ok ? "ok  " : "FAIL"} ${call}: expected ${r.test.expect}, got ${r.actual}\n`);
  }
  const failed = results.filter((r) => !r.ok).length;
  io.out(`${results.length - failed} passed, ${failed} failed\n`);
  return failed ? EXIT.failure : EXIT.ok;
}

async function cmdReplay(io: CliIo, flags: Flags): Promise<number> {
  const home = homeOf(io);
  const agentDir = agentDirFrom(io.env, home);
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const view = loadView(io, flags, cwd);
  let loaded = view.load;
  if (view.untrusted) io.err(`note: ${view.untrusted}: its config can only tighten\n`);
  let starter = false;
  if (loaded.status === "absent") {
    starter = true;
    loaded = loadConfigTexts([{
      file: "(built-in starter config)",
      text: STARTER_CONFIG,
      role: "project",
      root: null,
    }], { home });
  }
  if (loaded.status !== "ok") {
    if (loaded.status === "error") {
      for (const e of loaded.errors) io.err(formatConfigError(e) + "\n");
    }
    return EXIT.failure;
  }
  const sessionsDir = join(agentDir, "sessions");
  const targets = flags.rest.length ? flags.rest.map((r) => resolve(io.cwd, r)) : [sessionsDir];
  const { files, missing } = findSessionFiles(targets);
  // (The default directory missing is a fresh machine, not an error: see below.)
  if (flags.rest.length) {
    for (const m of missing) io.err(`pi-controls: no such session file or directory: ${m}\n`);
    if (missing.length && !files.length) return EXIT.failure;
  }
  let sessions: RecordedSession[];
  let examples: string | null = null;
  if (!flags.rest.length && !files.length) {
    // A fresh machine: pi has not recorded a session yet. Replay the examples that ship instead.
    const shipped = exampleSessions();
    examples = shipped.length
      ? `No pi sessions in ${sessionsDir} yet: replaying the ${shipped.length} example sessions ` +
        `that ship with pi-controls (${EXAMPLES_DIR}).`
      : `No pi sessions in ${sessionsDir} yet, and this build ships no example sessions: ` +
        `pass session files or directories to replay.`;
    sessions = shipped.map((e) => readSession(e.file, e.text));
    files.push(...shipped.map((e) => e.file));
  } else {
    sessions = files.map((f) => {
      try {
        return readSession(f);
      } catch (e) {
        throw new CliFailure(`cannot read session file ${f}: ${fsReason(e)}`);
      }
    });
  }
  for (const s of sessions) for (const p of s.problems) io.err(`warning: ${p}\n`);
  const config = view.eff?.config ?? loaded.config;
  const total = sessions.reduce((n, s) => n + s.calls.length, 0);
  let drawn = false;
  // A long replay (thousands of calls) on a terminal shows a progress bar on stderr.
  const onProgress = io.errIsTTY && total > 2000
    ? (done: number, all: number) => {
      const width = 30;
      const filled = Math.round((done / all) * width);
      io.err(`\rreplay [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${all} calls`);
      drawn = true;
    }
    : undefined;
  const base = { home, env: io.env, fs: realFs() };
  // A long replay follows edits of the config files (checked every 500 calls).
  const watcher = flags.configs.length || starter ? null : configWatcher({ home, agentDir });
  const current = watcher
    ? () => {
      const v = watcher.current(cwd);
      const eff = effectiveConfig(v, { trusted: view.untrusted === null });
      if (!eff) {
        throw new ReplayConfigError(
          blockingErrors(v).map(formatConfigError).join("\n") || "the config is broken",
        );
      }
      return eff;
    }
    : undefined;
  const decideOpts = {
    parser: await parser(),
    onProgress,
    base: view.eff?.base ?? null,
    project: view.view.project?.file,
    current,
  };
  // With a decisions block, inline code evals are classified too (the API is asked).
  let rows: ReplayRow[];
  try {
    rows = config.decisions
      ? await replaySessionsClassified(
        config,
        sessions,
        base,
        decideOpts,
        evalOptions(io, "replay"),
      )
      : replaySessions(config, sessions, base, decideOpts);
  } catch (e) {
    if (!(e instanceof ReplayConfigError)) throw e;
    io.err(`pi-controls: the config changed during the replay and is broken:\n${e.message}\n`);
    return EXIT.failure;
  }
  if (drawn) io.err("\r\x1b[2K");
  if (flags.json) {
    io.out(
      JSON.stringify({ starter, examples: examples !== null, files, summary: tally(rows), rows }) +
        "\n",
    );
    return EXIT.ok;
  }
  if (starter) {
    io.out(
      "No config found: replaying with the built-in starter config (write it with `pi-controls init`).\n",
    );
  }
  if (examples) io.out(examples + "\n");
  if (starter || examples) io.out("\n");
  io.out(table(rows));
  const t = tally(rows);
  io.out(
    `\n${rows.length} tool calls in ${files.length} session file(s): ` +
      Object.entries(t).map(([a, n]) => `${n} ${a}`).join(", ") + "\n",
  );
  // What to change: the asks and denies grouped by the rule or cause behind them.
  const causes = groupCauses(rows);
  if (causes.length) {
    io.out("\nasks and denies by cause (top ten):\n");
    for (const c of causes) {
      io.out(
        `  ${String(c.asks).padStart(5)} ask ${String(c.denies).padStart(5)} deny  ${c.cause}\n`,
      );
    }
  }
  return EXIT.ok;
}

function tally(rows: ReplayRow[]): Record<string, number> {
  const t: Record<string, number> = { allow: 0, nudge: 0, log: 0, ask: 0, deny: 0 };
  for (const r of rows) t[r.action]++;
  return t;
}

function table(rows: ReplayRow[]): string {
  const lines = ["ACTION  TOOL      POLICY            CALL"];
  for (const r of rows) {
    const action = r.escalation ? `${r.action}*` : r.action;
    const summary = r.summary.length > 100 ? r.summary.slice(0, 99) + "…" : r.summary;
    lines.push(
      `${action.padEnd(7)} ${r.tool.padEnd(9)} ${
        (r.policies.join(",") || "-").padEnd(17)
      } ${summary}`,
    );
  }
  if (rows.some((r) => r.escalation)) lines.push("* escalated by a circuit breaker");
  return lines.join("\n") + "\n";
}

/** `trust [--revoke] [DIR]`: trust (or stop trusting) a project's config, pinning its text. */
function cmdTrust(io: CliIo, flags: Flags): number {
  const home = homeOf(io);
  const agentDir = agentDirFrom(io.env, home);
  const dir = resolve(io.cwd, flags.rest[0] ?? flags.cwd ?? ".");
  if (flags.rest.length > 1) throw new UsageError("trust takes one directory");
  const view = configWatcher({ home, agentDir }).current(dir);
  const p = view.project;
  const root = p?.root ?? dir;
  if (flags.revoke) {
    updateFolderTrust(agentDir, root, () => ({ trusted: false }));
    io.out(`not trusted: ${folderKey(root)} (its config can only tighten the global policy)\n`);
    return EXIT.ok;
  }
  updateFolderTrust(agentDir, root, (e) => ({ ...e, trusted: true, pinned: p?.hash }));
  io.out(
    `trusted: ${folderKey(root)}\n` +
      (p
        ? `project config ${p.file} pinned (sha256 ${p.hash.slice(0, 12)}…); ` +
          `a later change that can loosen your policy is asked about again\n`
        : `no project config there yet\n`),
  );
  return EXIT.ok;
}

function cmdInit(io: CliIo, flags: Flags): number {
  const home = homeOf(io);
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const target = flags.rest[0]
    ? resolve(io.cwd, flags.rest[0])
    : flags.project
    ? join(cwd, ".pi", "extensions", "pi-controls.jsonc")
    : join(agentDirFrom(io.env, home), "extensions", "pi-controls.jsonc");
  if (existsSync(target)) {
    io.err(
      `pi-controls: ${target} already exists; not touching it (remove it first to start over)\n`,
    );
    return EXIT.failure;
  }
  const tmp = `${target}.tmp-${process.pid}`;
  try {
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(tmp, STARTER_CONFIG, { flag: "wx" });
    renameSync(tmp, target);
  } catch (e) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was written, or it cannot be removed either: the error below says where
    }
    throw new CliFailure(`cannot write the starter config to ${target}: ${fsReason(e)}`);
  }
  io.out(`wrote ${target}\nnext: pi-controls validate ${target} && pi-controls test\n`);
  return EXIT.ok;
}

/** What went wrong with a file operation, in words (the error's message for anything else). */
function fsReason(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  const phrase = typeof code === "string" ? FS_PHRASES[code] : undefined;
  if (phrase) return phrase;
  const message = e instanceof Error ? e.message : String(e);
  // Node's "EIO: i/o error, open '/x'": the part before the operation.
  return message.split("\n")[0].replace(/^[A-Z]+: /, "").replace(/, \w+ '.*'$/, "");
}

const FS_PHRASES: Record<string, string> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "a part of the path is not a directory",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EISDIR: "it is a directory",
  EROFS: "read-only file system",
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EEXIST: "it already exists",
  EIO: "input/output error",
  ELOOP: "too many levels of symbolic links",
  ENAMETOOLONG: "file name too long",
  EMFILE: "too many open files",
  EBUSY: "resource busy",
};

const FS_VERBS: Record<string, string> = {
  open: "open",
  read: "read",
  write: "write",
  mkdir: "create the directory",
  rename: "rename",
  scandir: "list",
  stat: "inspect",
  lstat: "inspect",
  realpath: "resolve",
  unlink: "remove",
};

/** One line saying what failed and where, for an error nothing more specific caught. */
export function describeError(e: unknown): string {
  const err = e as { code?: unknown; syscall?: unknown; path?: unknown };
  if (typeof err?.code === "string" && typeof err.path === "string") {
    const verb = typeof err.syscall === "string" ? FS_VERBS[err.syscall] ?? err.syscall : "use";
    return `cannot ${verb} ${err.path}: ${fsReason(e)}`;
  }
  if (e instanceof Error) {
    const first = e.message.split("\n")[0].trim();
    return first || e.name;
  }
  return String(e);
}

/** One option of a command: parsed by parseFlags (built-in commands), listed by --help. */
interface OptionSpec {
  flag: string;
  alias?: string;
  /** The value's name, when it takes one (FILE, DIR, ...). */
  value?: string;
  text: string;
}

/** One subcommand: its help, the flags it takes, and how it runs. */
interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Its synopses, after `pi-controls <name> `. */
  usage: string[];
  options?: OptionSpec[];
  /** Its operands: what they are, how many it takes at most (none when absent). */
  operands?: { max: number; text?: string };
  /** What its exit status says. */
  exit: string;
  examples: string[];
  /** Run it with the arguments after its name (`--help` is answered before). */
  run(io: CliIo, args: string[]): number | Promise<number>;
}

const CONFIG_OPT: OptionSpec = {
  flag: "--config",
  alias: "-c",
  value: "FILE",
  text: "use exactly this config file instead of the global and project ones pi would find " +
    "(repeatable; a later file wins, as a project file wins over the global one)",
};
const CWD_OPT: OptionSpec = {
  flag: "--cwd",
  value: "DIR",
  text: "the working directory pi would have: relative paths resolve against it, $cwd means it, " +
    "and the project config is found walking up from it (default: the current directory)",
};
const TRUST_OPT: OptionSpec = {
  flag: "--trust-project",
  text: "decide as if the project were trusted (an untrusted project config can only tighten " +
    "the global policy)",
};
const CALL_OPTS: OptionSpec[] = [
  { flag: "--tool", value: "NAME", text: "the tool called: bash, read, write, edit, an MCP tool…" },
  { flag: "--input", value: "JSON", text: `its input, a JSON object, e.g. '{"command":"ls"}'` },
];
const VERDICT_EXIT = `${EXIT.ok} allow (also nudge and log), ${EXIT.ask} ask, ${EXIT.deny} deny; ` +
  `${EXIT.failure} when the config is broken (the verdict is then deny, naming file:line:col)`;

/** The subcommands, in the order the overview lists them. A new one is one entry here. */
const COMMANDS: Command[] = [
  {
    name: "check",
    summary: "decide one tool call (or one per stdin line) and print the verdict as JSON",
    usage: [
      "[--config FILE]... [--cwd DIR] --tool NAME --input JSON",
      "[--config FILE]... [--cwd DIR] --jsonl      (one call per stdin line)",
    ],
    options: [
      CONFIG_OPT,
      CWD_OPT,
      ...CALL_OPTS,
      {
        flag: "--jsonl",
        text: `read {"id"?, "tool", "input", "cwd"?} per stdin line; print one verdict per line, ` +
          `in order, echoing id (a bad line gets {"line", "error"})`,
      },
      TRUST_OPT,
    ],
    exit: `${VERDICT_EXIT}. --jsonl: the most restrictive over the lines, ${EXIT.failure} (a ` +
      `line not understood, a broken config) above ${EXIT.deny} above ${EXIT.ask} above ${EXIT.ok}.`,
    examples: [
      `pi-controls check --tool bash --input '{"command":"git push --force origin main"}'`,
      `echo '{"tool":"read","input":{"path":"~/.ssh/id_ed25519"}}' | pi-controls check --jsonl`,
    ],
    run: (io, args) => cmdCheck(io, flagsOf("check", args)),
  },
  {
    name: "explain",
    summary: "show how a call is decided: stages, targets, locations, policies, rules",
    usage: ["[--config FILE]... [--cwd DIR] --tool NAME --input JSON"],
    options: [CONFIG_OPT, CWD_OPT, ...CALL_OPTS, TRUST_OPT],
    exit: `${EXIT.ok} when the decision was explained, whatever it is.`,
    examples: [`pi-controls explain --tool bash --input '{"command":"cd /tmp && rm -rf x"}'`],
    run: (io, args) => cmdExplain(io, flagsOf("explain", args)),
  },
  {
    name: "validate",
    summary: "check config files; print every error as file:line:col: message",
    usage: ["[FILE]..."],
    options: [CONFIG_OPT, CWD_OPT],
    operands: { max: Infinity, text: "FILE: a config file (default: the ones pi would find)" },
    exit:
      `${EXIT.ok} when the config is valid, ${EXIT.failure} when it has errors or none is found.`,
    examples: ["pi-controls validate ~/.pi/agent/extensions/pi-controls.jsonc"],
    run: (io, args) => cmdValidate(io, flagsOf("validate", args)),
  },
  {
    name: "test",
    summary: "run the examples in the config's `tests` and report each",
    usage: ["[--config FILE]... [--cwd DIR]"],
    options: [CONFIG_OPT, CWD_OPT],
    exit: `${EXIT.ok} when every example passes, ${EXIT.failure} when one fails or the config ` +
      `is broken or absent.`,
    examples: ["pi-controls test --cwd ~/work/project"],
    run: (io, args) => cmdTest(io, flagsOf("test", args)),
  },
  {
    name: "replay",
    summary: "replay recorded pi sessions: what the policy would have done, and a summary",
    usage: ["[--config FILE]... [--json] [SESSION.jsonl | DIR]..."],
    options: [
      CONFIG_OPT,
      CWD_OPT,
      { flag: "--json", text: "print one JSON object (files, summary, rows) instead of the table" },
      TRUST_OPT,
    ],
    operands: {
      max: Infinity,
      text: "SESSION.jsonl | DIR: session files, or directories searched for *.jsonl (default: " +
        "pi's sessions, ~/.pi/agent/sessions; with none there, the example sessions that ship " +
        "with pi-controls)",
    },
    exit: `${EXIT.ok} when replayed (whatever the verdicts), ${EXIT.failure} when a session file ` +
      `cannot be read or the config is broken.`,
    examples: ["pi-controls replay", "pi-controls replay --json ~/.pi/agent/sessions/--work--"],
    run: (io, args) => cmdReplay(io, flagsOf("replay", args)),
  },
  {
    name: "init",
    summary: "write the commented starter config (never overwrites a file)",
    usage: ["[--project] [FILE]"],
    options: [
      {
        flag: "--project",
        text: "write the project config, .pi/extensions/pi-controls.jsonc under --cwd",
      },
      CWD_OPT,
    ],
    operands: { max: 1, text: "FILE: where to write it (default: the global config)" },
    exit: `${EXIT.ok} when written, ${EXIT.failure} when the file exists or cannot be written.`,
    examples: ["pi-controls init", "pi-controls init --project --cwd ~/work/project"],
    run: (io, args) => cmdInit(io, flagsOf("init", args)),
  },
  {
    name: "trust",
    summary: "trust a project's config (pinning its text), or stop trusting it; for pi 0.7x",
    usage: ["[--revoke] [DIR]"],
    options: [
      { flag: "--revoke", text: "stop trusting it: its config can only tighten again" },
      CWD_OPT,
    ],
    operands: { max: 1, text: "DIR: the project, or a directory in it (default: --cwd)" },
    exit: `${EXIT.ok} when recorded, ${EXIT.failure} when the trust store cannot be written.`,
    examples: ["pi-controls trust ~/work/project", "pi-controls trust --revoke ~/work/project"],
    run: (io, args) => cmdTrust(io, flagsOf("trust", args)),
  },
  {
    name: "suggest",
    summary: "propose the narrowest approval rules that would have removed the asks you allowed",
    usage: [
      "[--config FILE]... [--cwd DIR] [--log FILE] [--apply PATH] [--json]",
      "[--config FILE]... [--cwd DIR] [--apply PATH] [--json] SESSION.jsonl|DIR...",
    ],
    options: [
      CONFIG_OPT,
      CWD_OPT,
      {
        flag: "--log",
        value: "FILE",
        text: "the decision log to read (default <agentDir>/extensions/pi-controls.log)",
      },
      {
        flag: "--apply",
        value: "PATH",
        text: "save the proposed rules into this config file (comments kept, atomic)",
      },
      { flag: "--json", text: "machine output" },
      TRUST_OPT,
    ],
    operands: {
      max: Infinity,
      text: "SESSION.jsonl | DIR: recorded pi sessions, replayed under the config (instead of " +
        "the log): calls it asks about or denies that ran",
    },
    exit: `${EXIT.ok} done (also when there is nothing to suggest), ${EXIT.failure} when the ` +
      `log, the sessions or the config cannot be read, ${EXIT.usage} usage.`,
    examples: [
      "pi-controls suggest",
      "pi-controls suggest --apply ~/.pi/agent/extensions/pi-controls.jsonc",
      "pi-controls suggest ~/.pi/agent/sessions",
    ],
    run: (io, args) => cmdSuggest(io, args),
  },
];

const HELP_OPT: OptionSpec = { flag: "--help", alias: "-h", text: "show this help" };

/** Every flag some command takes (an unknown one and a misplaced one are told apart). */
const ALL_FLAGS = new Set(
  COMMANDS.flatMap((c) => (c.options ?? []).flatMap((o) => o.alias ? [o.flag, o.alias] : [o.flag])),
);

function commandNamed(name: string): Command | undefined {
  return COMMANDS.find((c) => c.name === name);
}

function flagsOf(name: string, args: string[]): Flags {
  return parseFlags(args, commandNamed(name)!);
}

/** `prefix` and `text` wrapped to `width` columns, the lines after the first indented to the text. */
function wrap(prefix: string, text: string, width = WIDTH): string {
  const lines: string[] = [];
  let line = prefix;
  let empty = true;
  for (const word of text.split(/ +/)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = " ".repeat(prefix.length) + word;
    } else line = empty ? line + word : `${line} ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines.join("\n");
}

const WIDTH = 100;

/** `pi-controls <command> --help`. */
function commandHelp(c: Command): string {
  const out = [`pi-controls ${c.name} — ${c.summary}`, "", "Usage:"];
  for (const u of c.usage) out.push(`  pi-controls ${c.name} ${u}`);
  const opts = [...c.options ?? [], HELP_OPT];
  const names = opts.map((o) =>
    `${o.alias ? `${o.alias}, ` : "    "}${o.flag}${o.value ? ` ${o.value}` : ""}`
  );
  const col = Math.max(...names.map((n) => n.length)) + 2;
  out.push("", "Options:");
  opts.forEach((o, i) => out.push(wrap(`  ${names[i].padEnd(col)}`, o.text)));
  if (c.operands?.text) out.push("", "Arguments:", wrap("  ", c.operands.text));
  out.push("", "Exit status:", wrap("  ", c.exit));
  out.push("", c.examples.length > 1 ? "Examples:" : "Example:");
  for (const e of c.examples) out.push(`  ${e}`);
  return out.join("\n") + "\n";
}

/** `pi-controls --help`. */
function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "pi-controls — policy gate for the pi coding agent",
    "",
    "Usage:",
    ...COMMANDS.flatMap((c) => c.usage.map((u) => `  pi-controls ${c.name.padEnd(width)} ${u}`)),
    `  pi-controls COMMAND --help    (a command's options, exit status and an example)`,
    `  pi-controls --version`,
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
    "check, explain and replay take --trust-project: decide as if the project were trusted.",
    "An untrusted project config can only tighten the global policy: each call gets the stricter of",
    "its verdict under the global config alone and under the merged one. A project is trusted when",
    "pi-controls' store (pi-controls trust) or pi's trust.json says so, and its config is the text",
    "last accepted (pinned).",
    "",
    "Without --config, the global config (<agentDir>/extensions/pi-controls.jsonc) and the project",
    "config (.pi/extensions/pi-controls.jsonc, found by walking up from --cwd) are used, as in pi.",
    "agentDir is $PI_CODING_AGENT_DIR or ~/.pi/agent.",
    "",
    `Exit status: ${EXIT.ok} done; check: ${EXIT.ok} allow, nudge or log, ${EXIT.ask} ask, ` +
    `${EXIT.deny} deny.`,
    `  ${EXIT.failure} a broken config, a failed test, or another failure (one line on stderr says ` +
    `what and where).`,
    `  ${EXIT.usage} a usage error: an unknown command or option, a missing or bad value.`,
  ].join("\n") + "\n";
}

const isHelp = (a: string) => a === "--help" || a === "-h";

/** Run the CLI; returns the exit status. Never throws: a failure is one line on stderr. */
export async function main(args: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = args;
  let command: Command | undefined;
  try {
    if (name === undefined) {
      io.err(usage());
      return EXIT.usage;
    }
    if (isHelp(name)) {
      io.out(usage());
      return EXIT.ok;
    }
    if (name === "--version" || name === "-V") {
      io.out(`pi-controls ${cliVersion()}\n`);
      return EXIT.ok;
    }
    if (name === "help") {
      const topic = rest[0] === undefined ? undefined : commandNamed(rest[0]);
      if (rest[0] !== undefined && !topic) throw new UsageError(`unknown command "${rest[0]}"`);
      io.out(topic ? commandHelp(topic) : usage());
      return EXIT.ok;
    }
    command = commandNamed(name);
    if (!command) {
      throw new UsageError(
        name.startsWith("-") ? `unknown option ${name}` : `unknown command "${name}"`,
      );
    }
    if (rest.some(isHelp)) {
      io.out(commandHelp(command));
      return EXIT.ok;
    }
    return await command.run(io, rest);
  } catch (e) {
    if (e instanceof UsageError) {
      const help = command ? `pi-controls ${command.name} --help` : "pi-controls --help";
      io.err(`pi-controls: ${e.message} (see ${help})\n`);
      return EXIT.usage;
    }
    if (io.env.PI_CONTROLS_DEBUG && e instanceof Error && e.stack) io.err(e.stack + "\n");
    io.err(`pi-controls: ${e instanceof CliFailure ? e.message : describeError(e)}\n`);
    return EXIT.failure;
  }
}

/** The real process's IO. */
export function processIo(): CliIo {
  return {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    // A plain copy: every read of process.env is a call into the runtime.
    env: { ...process.env } as Record<string, string | undefined>,
    cwd: process.cwd(),
    stdin: () => Promise.resolve(readFileSync(0, "utf8")),
    errIsTTY: process.stderr.isTTY === true,
  };
}

/**
 * Run the CLI as this process (every entry point: `deno task pi-controls`, the Node bundle, the
 * compiled binary): the exit status set, and whatever escapes `main` one line on stderr.
 */
export async function runCli(): Promise<void> {
  const fatal = (e: unknown) => {
    process.stderr.write(`pi-controls: ${describeError(e)}\n`);
    process.exit(EXIT.failure);
  };
  process.on("uncaughtException", fatal);
  process.on("unhandledRejection", fatal);
  let io: CliIo;
  try {
    io = processIo();
  } catch (e) {
    // e.g. the current directory was removed
    return fatal(e);
  }
  process.exitCode = await main(process.argv.slice(2), io);
}

if (import.meta.main) await runCli();
