/**
 * Helpers for the tests of the bash analysis: an environment, a predicate for the assignments
 * that carry a command (the real one is program knowledge, which the shell layer has none of), and
 * short ways to get the stages, command strings and cwds of a command.
 *
 * @module
 */
import assert from "node:assert/strict";
import { HELD } from "./testing.ts";
import { analyzeBash } from "./analyze.ts";
import { type BashAnalysis, type BashEnv, commandString, type Stage } from "./model.ts";
import { loadBashParser } from "./parser.ts";

export const parser = await loadBashParser();

/**
 * The assignments that carry a command in these tests: `PAGER` and `EDITOR` (the full list is
 * `carriesCommand` of lib/programs/wrappers.ts, and its tests are there).
 */
export function carriesCommand(assignment: string): boolean {
  return /^(PAGER|EDITOR)\+?=/.test(assignment);
}

/** A BashEnv for the tests; `carriesCommand` is the one above unless given. */
export type TestEnv = Omit<BashEnv, "carriesCommand"> & Partial<Pick<BashEnv, "carriesCommand">>;

export { HELD };

export const ENV: BashEnv = {
  cwd: "/proj",
  home: "/home/u",
  env: { HOME: "/home/u", TMPDIR: "/tmp/t", ...HELD },
  carriesCommand,
};
export const NL = "\n";
export const C = "\\\n"; // a line continuation

export function analyze(command: string, env: TestEnv = ENV): BashAnalysis {
  return analyzeBash(command, { carriesCommand, ...env }, parser);
}

/** The stages of a command that must analyse cleanly. */
export function stagesOf(command: string, env: TestEnv = ENV): Stage[] {
  const a = analyze(command, env);
  assert.equal(a.error, null, `${command}: ${a.error}`);
  return a.stages;
}

/**
 * The stages of a command that must analyse cleanly, each as its words' values joined (`?` before
 * a word not known, `~` before a glob's).
 */
export function markedStages(command: string, env: TestEnv = ENV): string[] {
  return stagesOf(command, env).map((s) =>
    s.argv.map((w) => (w.kind === "dynamic" ? "?" : w.kind === "glob" ? "~" : "") + w.value)
      .join(" ")
  );
}

/** The command strings of every stage, sorted (the walk order is not part of the contract). */
export function commands(command: string): string[] {
  return stagesOf(command).map(commandString).sort();
}

/** The one stage whose command string is `cmd`. */
export function stage(command: string, cmd: string, env: TestEnv = ENV): Stage {
  const found = stagesOf(command, env).filter((s) => commandString(s) === cmd);
  assert.equal(found.length, 1, `${command}: no single stage ${JSON.stringify(cmd)}`);
  return found[0];
}

/** The cwds the stage `cmd` of `command` may run in. */
export function cwdsOf(command: string, cmd: string, env: TestEnv = ENV): (string | null)[] {
  return [...stage(command, cmd, env).cwds].sort();
}
