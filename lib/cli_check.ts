/**
 * `pi-controls check` (the verdict of one call, or one per stdin line, as JSON; the exit status
 * says it) and `pi-controls explain` (how a call is decided, for a person).
 *
 * @module
 */
import { resolve } from "node:path";
import { formatConfigError } from "./config.ts";
import { classify } from "./evals.ts";
import { explainVerdict } from "./explain.ts";
import { boundariesOf } from "./cli_sandbox.ts";
import { renderBoundaries } from "./policy/sandbox.ts";
import { realFs } from "./policy/fs_facts.ts";
import { type CliIo, EXIT, exitFor, UsageError } from "./cli_io.ts";
import type { Flags } from "./cli_flags.ts";
import {
  context,
  evalOptions,
  isBroken,
  type Loaded,
  loadView,
  parseCall,
  parser,
  reportLoad,
  verdictFor,
} from "./cli_load.ts";
import type { Context, ToolCall } from "./types.ts";

/** Exit statuses from the least to the most restrictive, for `check --jsonl`. */
const SEVERITY: readonly number[] = [EXIT.ok, EXIT.ask, EXIT.deny, EXIT.failure];

export async function cmdCheck(io: CliIo, flags: Flags): Promise<number> {
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
  // The config of each other directory a line names, read once for the run; one context per
  // directory, all on one real filesystem (its listings are kept while their directories are
  // unchanged, as in pi).
  const others = new Map<string, Loaded>();
  const fs = realFs();
  const contexts = new Map<string, Context>();
  const contextIn = (dir: string): Context => {
    let ctx = contexts.get(dir);
    if (!ctx) contexts.set(dir, ctx = { ...context(io, dir), fs });
    return ctx;
  };
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
    const ctx = contextIn(lineCwd);
    const v = await classify(
      verdictFor(lineLoaded, { tool: entry.tool as string, input }, ctx, p),
      lineLoaded.eff?.config ?? null,
      ctx,
      evals,
    );
    emit(JSON.stringify(entry.id !== undefined ? { id: entry.id, ...v } : v) + "\n");
    worse(isBroken(lineLoaded) ? EXIT.failure : exitFor(v.action));
  }
  flush();
  return status;
}

export async function cmdExplain(io: CliIo, flags: Flags): Promise<number> {
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
  const b = boundariesOf(view, context(io, cwd));
  if (b) io.out(renderBoundaries(b) + "\n");
  return EXIT.ok;
}
