/**
 * How the CLI's commands find the config and decide a call as pi would: the config view of a
 * cwd with the project's trust applied, the context, the bash parser, and the call from
 * `--tool`/`--input`.
 *
 * @module
 */
import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { loadBashParser } from "./shell/parser.ts";
import { agentDirFrom, formatConfigError, loadConfig, type LoadResult } from "./config.ts";
import {
  blockingErrors,
  type ConfigView,
  configWatcher,
  decideEffective,
  effectiveConfig,
} from "./config_view.ts";
import { brokenConfigVerdict, unconfiguredVerdict } from "./policy/verdicts.ts";
import { untrustedReason } from "./trust.ts";
import { type ClassifyOptions, newEvalCache } from "./evals.ts";
import { realFs } from "./policy/fs_facts.ts";
import { machineNow } from "./policy/this_machine.ts";
import { appendLog } from "./log.ts";
import { noConfigWarning } from "./policy/messages.ts";
import { type CliIo, UsageError } from "./cli_io.ts";
import type { Flags } from "./cli_flags.ts";
import type { Config, Context, ToolCall, Verdict } from "./types.ts";

export function homeOf(io: CliIo): string {
  return io.env.HOME || homedir();
}

/** The config of a cwd as the CLI uses it: the view, and the project's trust applied. */
export interface Loaded {
  view: ConfigView;
  load: LoadResult;
  eff: { config: Config; base: Config | null } | null;
  /** Why the project config may only tighten, or null when it is trusted or absent. */
  untrusted: string | null;
}

export function loadView(io: CliIo, flags: Flags, cwd: string): Loaded {
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

export function load(io: CliIo, flags: Flags, cwd: string): LoadResult {
  const home = homeOf(io);
  return loadConfig({
    cwd,
    home,
    agentDir: agentDirFrom(io.env, home),
    files: flags.configs.length ? flags.configs.map((c) => resolve(io.cwd, c)) : undefined,
  });
}

export function context(io: CliIo, cwd: string): Context {
  return { cwd, home: homeOf(io), env: io.env, fs: realFs(), machine: machineNow };
}

export function parseCall(tool: string | undefined, input: string | undefined): ToolCall {
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

export async function parser() {
  try {
    return await loadBashParser();
  } catch {
    return null;
  }
}

export function verdictFor(
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
export function isBroken(l: Loaded): boolean {
  return l.load.status === "error" || (l.load.status === "ok" && !l.eff);
}

/**
 * Eval classification for one CLI run (only used when the config has a decisions block): one reply
 * cache and Decisions session id per run; the traces go to pi's log, as in pi.
 */
export function evalOptions(io: CliIo, origin: string): ClassifyOptions {
  const logFile = join(agentDirFrom(io.env, homeOf(io)), "extensions", "pi-controls.log");
  return {
    cache: newEvalCache(),
    sessionId: randomUUID(),
    env: io.env,
    origin,
    log: (entry) => appendLog(logFile, entry),
  };
}

export function reportLoad(io: CliIo, loaded: LoadResult): void {
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
