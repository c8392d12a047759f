/**
 * What a bash decision cannot skip, measured as the report measures a decision: the command's
 * reading alone (the shell layer's analysis, no judging) and the filesystem calls the decision
 * makes (recorded once, then replayed against the real filesystem with the caches a decision
 * finds), each timed one command at a time with another command's parse between, so each runs in
 * the state a decision of the benchmark runs in. Their sum per command, against the bare parse, is
 * the ratio no judging could go below.
 *
 * @module
 */
import { decide } from "../lib/policy/engine.ts";
import { realFs } from "../lib/policy/fs_facts.ts";
import { carriesCommand } from "../lib/programs/env.ts";
import { analyzeBash } from "../lib/shell/analyze.ts";
import type { BashParser } from "../lib/shell/parser.ts";
import type { Config, Context, FsFacts } from "../lib/types.ts";
import { median } from "./corpus.ts";

/** One filesystem call a decision made: the method and its arguments. */
type FsCall = [keyof FsFacts, unknown[]];

/** The medians (µs) of the reading, the filesystem calls, their sum and the calls' count. */
export interface Floor {
  read: number;
  fs: number;
  sum: number;
  calls: number;
  /** The 99th percentile of the sum (µs). */
  sum99: number;
}

/** FsFacts that write down each call into `log` (when set) before they answer it. */
function recording(fs: FsFacts, log: { calls: FsCall[] | null }): FsFacts {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fs)) {
    out[k] = typeof v !== "function" ? v : (...args: unknown[]) => {
      log.calls?.push([k as keyof FsFacts, args]);
      return v.apply(fs, args);
    };
  }
  return out as unknown as FsFacts;
}

/** The floor of the decisions of `corpus` under `config` in `ctx` (see the module's text). */
export function decisionFloor(
  corpus: string[],
  config: Config,
  ctx: Context,
  parser: BashParser,
): Floor {
  const log: { calls: FsCall[] | null } = { calls: null };
  const recorded: Context = { ...ctx, fs: recording(ctx.fs, log) };
  const calls: FsCall[][] = corpus.map((command) => {
    log.calls = [];
    decide(config, { tool: "bash", input: { command: command + "  " } }, recorded, { parser });
    const made = log.calls;
    log.calls = null;
    return made;
  });
  const fs = realFs();
  const replay = (i: number) => {
    for (const [k, args] of calls[i]) (fs[k] as (...a: unknown[]) => unknown)(...args);
  };
  for (let i = 0; i < corpus.length; i++) replay(i);
  const env = { cwd: ctx.cwd, home: ctx.home, env: ctx.env, carriesCommand };
  const half = Math.floor(corpus.length / 2);
  const reads: number[] = [];
  const lookups: number[] = [];
  const sums: number[] = [];
  for (let i = 0; i < corpus.length; i++) {
    const j = (i + half) % corpus.length;
    parser.parse(corpus[i] + "   ")!.delete();
    let t = performance.now();
    analyzeBash(corpus[j] + "   ", env, parser);
    const read = performance.now() - t;
    parser.parse(corpus[(i + 1) % corpus.length] + "   ")!.delete();
    t = performance.now();
    replay(j);
    const lookup = performance.now() - t;
    reads.push(read);
    lookups.push(lookup);
    sums.push(read + lookup);
  }
  return {
    read: median(reads) * 1000,
    fs: median(lookups) * 1000,
    sum: median(sums) * 1000,
    calls: median(calls.map((c) => c.length)),
    sum99: [...sums].sort((a, b) => a - b)[Math.floor(sums.length * 0.99)] * 1000,
  };
}
