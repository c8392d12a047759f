/**
 * Helpers for the eval classification tests: a config with a decisions block, a context with the
 * token, a stand-in Decisions server that is always stopped, and one command classified.
 *
 * @module
 */
import type { Answer } from "./decisions_client.ts";
import {
  type ClassifiedVerdict,
  classify,
  type ClassifyOptions,
  type EvalCache,
  newEvalCache,
} from "./evals.ts";
import { bash, configFrom, ctxIn } from "./testing.ts";
import { replyWith, type StandIn, type StandInReply, startStandIn } from "./testing_decisions.ts";
import type { Config, Context, DecisionsConfig } from "./types.ts";

/** The token the stand-in expects. */
export const TOKEN = "sk-or-test-0123456789";
/** The environment variable the token is read from (the default tokenEnv). */
export const ENV_NAME = "OPENROUTER_API_KEY";

/** A config: one "open" policy (allow everything) on /work, plus a decisions block. */
export function configWith(
  decisions: DecisionsConfig | null | undefined,
  extra: object = {},
): Config {
  const src: Record<string, unknown> = {
    policies: {
      open: { defaultAction: "allow", rules: [] },
      careful: {
        defaultAction: "allow",
        rules: [
          { action: "ask", tool: "bash", pattern: "python3 -c *ask*" },
          { action: "deny", tool: "bash", pattern: "python3 -c *deny*" },
        ],
      },
    },
    locations: { "/work": "open", "/careful": "careful" },
    ...extra,
  };
  if (decisions !== undefined) src.decisions = decisions;
  return configFrom(src);
}

/** A context in `cwd` with the token in its environment. */
export function ctx(cwd = "/work", env: Record<string, string> = { [ENV_NAME]: TOKEN }): Context {
  return ctxIn(cwd, { env });
}

/** Run `body` with a stand-in; the server is always stopped. */
export async function withStandIn(
  handler: Parameters<typeof startStandIn>[0],
  body: (s: StandIn) => Promise<void>,
): Promise<void> {
  const s = startStandIn(handler);
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

/** A stand-in that answers by source: `answers[source]`, quiet otherwise. */
export function bySource(answers: Record<string, Record<string, Answer> | StandInReply>) {
  return (body: { state: Record<string, unknown> }): StandInReply => {
    const a = answers[String(body.state.source)];
    if (a instanceof Response) return a;
    return replyWith((a ?? {}) as Record<string, Answer>);
  };
}

/** Classify one bash command under `decisions` pointed at the stand-in. */
export async function judgeCommand(
  s: StandIn,
  command: string,
  opts: {
    decisions?: DecisionsConfig;
    cwd?: string;
    env?: Record<string, string>;
    cache?: EvalCache;
    classify?: Partial<ClassifyOptions>;
    extra?: object;
  } = {},
): Promise<ClassifiedVerdict> {
  const config = configWith({ url: s.url, ...opts.decisions }, opts.extra);
  const c = ctx(opts.cwd, opts.env);
  const v = await bash(config, c, command);
  return await classify(v, config, c, {
    cache: opts.cache ?? newEvalCache(),
    sessionId: "test-session",
    ...opts.classify,
  });
}
