/**
 * The examples a config carries for itself (`tests`): each call must get its expected action.
 *
 * @module
 */
import { resolve } from "node:path";
import { decide, type DecideOptions } from "./policy/engine.ts";
import type { Action, Config, ConfigTest, Context } from "./types.ts";

/** The outcome of one config example. */
export interface ConfigTestResult {
  test: ConfigTest;
  actual: Action;
  ok: boolean;
}

/** Run a config's examples; a test's `cwd` resolves against the context's cwd. */
export function runConfigTests(
  config: Config,
  ctx: Context,
  opts: DecideOptions,
): ConfigTestResult[] {
  return config.tests.map((test) => {
    const cwd = test.cwd ? resolve(ctx.cwd, test.cwd.replace(/^~(?=$|\/)/, ctx.home)) : ctx.cwd;
    const v = decide(config, { tool: test.tool, input: test.input }, { ...ctx, cwd }, opts);
    return { test, actual: v.action, ok: v.action === test.expect };
  });
}
