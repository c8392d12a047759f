/**
 * `pi-controls replay`: recorded pi sessions (or, on a fresh machine, the example sessions that
 * ship) decided under the config, as a table with a summary and the asks and denies by cause.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { agentDirFrom, formatConfigError, loadConfigTexts } from "./config.ts";
import { blockingErrors, configWatcher, effectiveConfig } from "./config_view.ts";
import { groupCauses } from "./suggest.ts";
import { realFs } from "./policy/fs_facts.ts";
import { machineNow } from "./policy/this_machine.ts";
import {
  findSessionFiles,
  readSession,
  type RecordedSession,
  type ReplayRow,
  replaySessions,
  replaySessionsClassified,
} from "./replay.ts";
import { STARTER_CONFIG } from "./starter.ts";
import { EXAMPLES_DIR, exampleSessions } from "./cli_assets.ts";
import { CliFailure, type CliIo, EXIT, fsReason } from "./cli_io.ts";
import type { Flags } from "./cli_flags.ts";
import { evalOptions, homeOf, type Loaded, loadView, parser } from "./cli_load.ts";

/** The config became broken while a replay ran. */
class ReplayConfigError extends Error {}

/** The sessions a replay reads, and the one line that says it replays the shipped examples. */
interface ToReplay {
  files: string[];
  sessions: RecordedSession[];
  examples: string | null;
}

/**
 * The session files named on the command line, else pi's sessions; on a fresh machine (no
 * sessions recorded yet) the example sessions that ship. A number is the exit status of a
 * failure already told.
 */
function sessionsToReplay(io: CliIo, flags: Flags, agentDir: string): ToReplay | number {
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
  return { files, sessions, examples };
}

/** A progress bar on stderr for a long replay (thousands of calls) on a terminal. */
function progressBar(io: CliIo, total: number) {
  const bar = {
    drawn: false,
    onProgress: undefined as ((done: number, all: number) => void) | undefined,
  };
  if (io.errIsTTY && total > 2000) {
    bar.onProgress = (done: number, all: number) => {
      const width = 30;
      const filled = Math.round((done / all) * width);
      io.err(`\rreplay [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${all} calls`);
      bar.drawn = true;
    };
  }
  return bar;
}

/** The config a long replay follows as its files are edited (null with --config or the starter). */
function followConfig(
  flags: Flags,
  view: Loaded,
  at: { home: string; agentDir: string; cwd: string; starter: boolean },
) {
  if (flags.configs.length || at.starter) return undefined;
  const watcher = configWatcher({ home: at.home, agentDir: at.agentDir });
  return () => {
    const v = watcher.current(at.cwd);
    const eff = effectiveConfig(v, { trusted: view.untrusted === null });
    if (!eff) {
      throw new ReplayConfigError(
        blockingErrors(v).map(formatConfigError).join("\n") || "the config is broken",
      );
    }
    return eff;
  };
}

/** The replay for a person: the table, the summary, and the asks and denies by cause. */
function printReplay(
  io: CliIo,
  rows: ReplayRow[],
  run: { starter: boolean; examples: string | null; files: string[] },
): void {
  if (run.starter) {
    io.out(
      "No config found: replaying with the built-in starter config (write it with `pi-controls init`).\n",
    );
  }
  if (run.examples) io.out(run.examples + "\n");
  if (run.starter || run.examples) io.out("\n");
  io.out(table(rows));
  const t = tally(rows);
  io.out(
    `\n${rows.length} tool calls in ${run.files.length} session file(s): ` +
      Object.entries(t).filter(([a, n]) => a !== "sandbox" || n > 0).map(([a, n]) => `${n} ${a}`)
        .join(", ") +
      "\n",
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
}

/** `replay [--json] [SESSION.jsonl | DIR]...`: see the command's help in cli_commands.ts. */
export async function cmdReplay(io: CliIo, flags: Flags): Promise<number> {
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
  const found = sessionsToReplay(io, flags, agentDir);
  if (typeof found === "number") return found;
  const { files, sessions, examples } = found;
  const config = view.eff?.config ?? loaded.config;
  const bar = progressBar(io, sessions.reduce((n, s) => n + s.calls.length, 0));
  const base = { home, env: io.env, fs: realFs(), machine: machineNow };
  const decideOpts = {
    parser: await parser(),
    onProgress: bar.onProgress,
    base: view.eff?.base ?? null,
    project: view.view.project?.file,
    // A long replay follows edits of the config files (checked every 500 calls).
    current: followConfig(flags, view, { home, agentDir, cwd, starter }),
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
  if (bar.drawn) io.err("\r\x1b[2K");
  if (flags.json) {
    io.out(
      JSON.stringify({ starter, examples: examples !== null, files, summary: tally(rows), rows }) +
        "\n",
    );
    return EXIT.ok;
  }
  printReplay(io, rows, { starter, examples, files });
  return EXIT.ok;
}

function tally(rows: ReplayRow[]): Record<string, number> {
  const t: Record<string, number> = { allow: 0, nudge: 0, log: 0, sandbox: 0, ask: 0, deny: 0 };
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
