/**
 * The pi-controls CLI: check, explain, validate, test, replay and init, over the same engine the
 * extension uses. Run with `deno task pi-controls <command>`.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { loadBashParser } from "./bash_parser.ts";
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
import { brokenConfigVerdict, unconfiguredVerdict } from "./engine.ts";
import { folderKey, readTrustStore, storedTrust, updateFolderTrust } from "./trust.ts";
import { classify, type ClassifyOptions, newEvalCache } from "./evals.ts";
import { explainVerdict } from "./explain.ts";
import { realFs } from "./fs_facts.ts";
import { appendLog } from "./log.ts";
import { noConfigWarning } from "./messages.ts";
import {
  findSessionFiles,
  readSession,
  type RecordedSession,
  type ReplayRow,
  replaySessions,
  replaySessionsClassified,
} from "./replay.ts";
import { STARTER_CONFIG } from "./starter.ts";
import { runConfigTests } from "./config_tests.ts";
import type { Config, Context, ToolCall, Verdict } from "./types.ts";

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

const USAGE = `pi-controls — policy gate for the pi coding agent

Usage:
  pi-controls check   [--config FILE]... [--cwd DIR] --tool NAME --input JSON
  pi-controls check   [--config FILE]... [--cwd DIR] --jsonl      (one call per stdin line)
  pi-controls explain [--config FILE]... [--cwd DIR] --tool NAME --input JSON
  pi-controls validate [FILE]...
  pi-controls test    [--config FILE]... [--cwd DIR]
  pi-controls replay  [--config FILE]... [--json] [SESSION.jsonl | DIR]...
  pi-controls init    [--project] [FILE]
  pi-controls trust   [--revoke] [DIR]                   (trust a project's config; pi 0.7x)

check, explain and replay take --trust-project: decide as if the project were trusted.
An untrusted project config can only tighten the global policy: each call gets the stricter of
its verdict under the global config alone and under the merged one. A project is trusted when
pi-controls' store (pi-controls trust) or pi's trust.json says so, and its config is the text
last accepted (pinned).

Without --config, the global config (<agentDir>/extensions/pi-controls.jsonc) and the project
config (.pi/extensions/pi-controls.jsonc, found by walking up from --cwd) are used, as in pi.
agentDir is $PI_CODING_AGENT_DIR or ~/.pi/agent.
`;

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
  help: boolean;
  rest: string[];
}

class UsageError extends Error {}

/** The config became broken while a replay ran. */
class ReplayConfigError extends Error {}

function parseFlags(args: string[]): Flags {
  const f: Flags = {
    configs: [],
    jsonl: false,
    json: false,
    project: false,
    trustProject: false,
    revoke: false,
    help: false,
    rest: [],
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
    switch (name) {
      case "--config":
      case "-c":
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
      case "--help":
      case "-h":
        f.help = true;
        break;
      default:
        if (a.startsWith("-") && a !== "-") throw new UsageError(`unknown option ${a}`);
        f.rest.push(a);
    }
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
  let untrusted: string | null = null;
  if (p && view.base && p.loosens.length && !flags.trustProject) {
    if (!storedTrust(agentDir, p.root)) {
      untrusted = `${p.root} is not trusted (pi-controls trust ${p.root}, or --trust-project)`;
    } else {
      let pinned: string | undefined;
      try {
        pinned = readTrustStore(agentDir).folders[folderKey(p.root)]?.pinned;
      } catch {
        pinned = undefined;
      }
      if (pinned !== undefined && pinned !== p.hash) {
        untrusted = `${p.file} changed since it was last accepted (pi-controls trust ${p.root})`;
      }
    }
  }
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
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const loaded = loadView(io, flags, cwd);
  reportLoad(io, loaded.load);
  if (loaded.untrusted) io.err(`note: ${loaded.untrusted}: its config can only tighten\n`);
  const p = await parser();
  const config = loaded.eff?.config ?? null;
  const evals = evalOptions(io, "check");
  const judge = (call: ToolCall, ctx: Context) =>
    classify(verdictFor(loaded, call, ctx, p), config, ctx, evals);
  if (!flags.jsonl) {
    const call = parseCall(flags.tool, flags.input);
    io.out(JSON.stringify(await judge(call, context(io, cwd))) + "\n");
    return 0;
  }
  const text = await io.stdin();
  let status = 0;
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
      status = 1;
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
  }
  flush();
  return status;
}

async function cmdExplain(io: CliIo, flags: Flags): Promise<number> {
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const view = loadView(io, flags, cwd);
  const loaded = view.load;
  const call = parseCall(flags.tool, flags.input);
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
  return 0;
}

function cmdValidate(io: CliIo, flags: Flags): number {
  const files = [...flags.configs, ...flags.rest];
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const loaded = load(io, { ...flags, configs: files }, cwd);
  if (loaded.status === "absent") {
    io.err("no config file found (looked for the global and the project config)\n");
    return 1;
  }
  if (loaded.status === "error") {
    for (const e of loaded.errors) io.out(formatConfigError(e) + "\n");
    return 1;
  }
  for (const w of loaded.warnings) io.out("warning: " + formatConfigError(w) + "\n");
  io.out(`ok: ${loaded.files.join(", ")}\n`);
  return 0;
}

async function cmdTest(io: CliIo, flags: Flags): Promise<number> {
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const loaded = load(io, flags, cwd);
  reportLoad(io, loaded);
  if (loaded.status !== "ok") return 1;
  const results = runConfigTests(loaded.config, context(io, cwd), { parser: await parser() });
  for (const r of results) {
    const call = `${r.test.tool} ${JSON.stringify(r.test.input)}`;
    io.out(`${r.ok ? "ok  " : "FAIL"} ${call}: expected ${r.test.expect}, got ${r.actual}\n`);
  }
  const failed = results.filter((r) => !r.ok).length;
  io.out(`${results.length - failed} passed, ${failed} failed\n`);
  return failed ? 1 : 0;
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
    return 1;
  }
  const targets = flags.rest.length
    ? flags.rest.map((r) => resolve(io.cwd, r))
    : [join(agentDir, "sessions")];
  const { files, missing } = findSessionFiles(targets);
  if (!flags.rest.length && missing.length) {
    // A fresh machine: pi has not recorded a session yet. Not an error; say where to look.
    io.err(
      `No pi sessions yet in ${targets[0]} (pi records every session there).\n` +
        `Replay session files or directories instead, e.g. the recorded examples of this ` +
        `repository: pi-controls replay testdata/cases\n`,
    );
  } else {
    for (const m of missing) io.err(`no such session file or directory: ${m}\n`);
    if (missing.length && !files.length) return 1;
  }
  const sessions: RecordedSession[] = files.map((f) => readSession(f));
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
    return 1;
  }
  if (drawn) io.err("\r\x1b[2K");
  if (flags.json) {
    io.out(JSON.stringify({ starter, files, summary: tally(rows), rows }) + "\n");
    return 0;
  }
  if (starter) {
    io.out(
      "No config found: replaying with the built-in starter config (write it with `pi-controls init`).\n\n",
    );
  }
  io.out(table(rows));
  const t = tally(rows);
  io.out(
    `\n${rows.length} tool calls in ${files.length} session file(s): ` +
      Object.entries(t).map(([a, n]) => `${n} ${a}`).join(", ") + "\n",
  );
  return 0;
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
    return 0;
  }
  updateFolderTrust(agentDir, root, (e) => ({ ...e, trusted: true, pinned: p?.hash }));
  io.out(
    `trusted: ${folderKey(root)}\n` +
      (p
        ? `project config ${p.file} pinned (sha256 ${p.hash.slice(0, 12)}…); ` +
          `a later change that can loosen your policy is asked about again\n`
        : `no project config there yet\n`),
  );
  return 0;
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
    io.err(`${target} already exists; not touching it (remove it first to start over)\n`);
    return 1;
  }
  mkdirSync(dirname(target), { recursive: true });
  const tmp = `${target}.tmp-${process.pid}`;
  writeFileSync(tmp, STARTER_CONFIG, { flag: "wx" });
  renameSync(tmp, target);
  io.out(`wrote ${target}\nnext: pi-controls validate ${target} && pi-controls test\n`);
  return 0;
}

/** Run the CLI; returns the exit code. */
export async function main(args: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  try {
    const flags = parseFlags(rest);
    if (!command || command === "--help" || command === "-h" || command === "help" || flags.help) {
      io.out(USAGE);
      return command ? 0 : 2;
    }
    switch (command) {
      case "check":
        return await cmdCheck(io, flags);
      case "explain":
        return await cmdExplain(io, flags);
      case "validate":
        return cmdValidate(io, flags);
      case "test":
        return await cmdTest(io, flags);
      case "replay":
        return await cmdReplay(io, flags);
      case "init":
        return cmdInit(io, flags);
      case "trust":
        return cmdTrust(io, flags);
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`pi-controls: ${e.message}\n\n${USAGE}`);
      return 2;
    }
    throw e;
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

if (import.meta.main) {
  const code = await main(process.argv.slice(2), processIo());
  process.exitCode = code;
}
