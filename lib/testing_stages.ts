/**
 * Test helper: the stages a stage of a command runs (`innerStages`), as text, the words another
 * program listed marked `@` (and, when asked, globs marked `*`).
 *
 * @module
 */
import { HELD } from "./shell/testing.ts";
import { analyzeBash } from "./shell/analyze.ts";
import type { BashParser } from "./shell/parser.ts";
import type { Stage } from "./shell/model.ts";
import { carriesCommand } from "./programs/env.ts";
import { innerStages } from "./programs/expand.ts";
import { standardInput } from "./programs/words.ts";

/** Which stage to look into, and how to show its words. */
export interface RunsOptions {
  /** The first stage, the last, or the first of a program. @default "first" */
  of?: "first" | "last" | { program: string };
  /** Mark listed words `@`. @default true */
  listed?: boolean;
  /** Mark globs `*`. @default false */
  globs?: boolean;
  /** Add what each reads on standard input (` <pipe`, ` <nothing`: `standardInput`). */
  input?: boolean;
  /** The text of every settings file the program reads (none known where not given). */
  settings?: string;
}

/** What a stage of `command` (in `/p`, home `/h`) runs, one line per stage run. */
export function innerRuns(parser: BashParser, command: string, opts: RunsOptions = {}): string[] {
  const env = { cwd: "/p", home: "/h", env: { HOME: "/h", ...HELD }, carriesCommand };
  const stages = analyzeBash(command, env, parser).stages;
  const of = opts.of ?? "first";
  const stage: Stage = of === "first"
    ? stages[0]
    : of === "last"
    ? stages[stages.length - 1]
    : stages.find((s) => s.argv[0].value === of.program)!;
  const analyze = (text: string) => analyzeBash(text, env, parser).stages;
  const mark = (w: Stage["argv"][number]) =>
    opts.listed !== false && w.listed ? "@" : opts.globs && w.kind === "glob" ? "*" : "";
  const text = opts.settings;
  const settings = text === undefined ? undefined : { file: () => text, project: () => null };
  return innerStages(stage, { analyze, depth: 0, settings }).map((s) =>
    s.argv.map((w) => mark(w) + w.value).join(" ") +
    (opts.input ? ` <${standardInput(s).from}` : "")
  );
}
