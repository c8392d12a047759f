/**
 * Programs a `PATH` the command sets finds elsewhere than the tool's own `PATH`: after `export
 * PATH="$PWD/node_modules/.bin:$PATH"`, `tsc` runs `node_modules/.bin/tsc`, a file there, which is
 * judged as running that file (RULINGS "A program given by path": elsewhere, running a file is
 * reading it), as a link there to the program it reaches. A name the new directories do not hold,
 * and no stage of the command may put there, is the program the tool's `PATH` finds, judged as
 * before.
 *
 * @example
 * ```ts
 * const searched = searchCollector({ PATH: "/usr/bin:/bin" });
 * // expanding stages with `{ searchPath: searched.take }`, then:
 * // all.push(...searchedPrograms(all, searched.dirs, ctx, globs));
 * ```
 *
 * @module
 */
import { BUILTINS } from "../shell/keywords.ts";
import type { Stage, Word } from "../shell/model.ts";
import { searchedDirs } from "../programs/env.ts";
import { dirname } from "node:path";
import type { MadeLink } from "../programs/spec.ts";
import { literal, unknownWord } from "../programs/words.ts";
import type { Context } from "../types.ts";
import type { GlobScope } from "./glob_scope.ts";
import { plainDir } from "./search_path.ts";

/** The `PATH` values a command sets that the engine follows, gathered while it expands stages. */
export interface SearchCollector {
  /** Each value's directories, in order (`$PATH` standing for the tool's). */
  dirs: string[][];
  /** The source texts of the words that set them (`PATH="$HOME/bin:$PATH"`). */
  texts: Set<string>;
  /** Take a `PATH=…` word: false when its directories are not known (see `searchedDirs`). */
  take(assignment: Word): boolean;
}

/** A collector for one decision, under the tool's environment. */
export function searchCollector(env: Record<string, string | undefined>): SearchCollector {
  const out: SearchCollector = {
    dirs: [],
    texts: new Set(),
    take(assignment) {
      const dirs = searchedDirs(assignment, env.PATH);
      if (dirs === null) return false;
      out.dirs.push(dirs);
      out.texts.add(assignment.text);
      return true;
    },
  };
  return out;
}

const NONE: ReadonlySet<string> = new Set();

/** Links a directory of a PATH holds that are judged as the programs they reach, at most. */
const LINKS_JUDGED = 256;

/**
 * The stages again as the files the command's `PATH` values find their names in, where that is a
 * directory the tool's `PATH` does not hold: a file there now, or one another stage of the command
 * may put there (`globs`). Names are looked up in each value's order, a directory of the tool's
 * ending the lookup where it holds the name; with several values (`PATH=/a; PATH=$PATH:/b`, where
 * `$PATH` is no longer the tool's), every new directory is looked in. And since the programs the
 * stages run may run others by name (git its pager and ssh, xargs its command), each new directory
 * that holds anything is judged as a program there running, and each link in it (`links`: those
 * the command makes too) as the program it reaches.
 */
export function searchedPrograms(
  stages: Stage[],
  values: string[][],
  ctx: Context,
  opts: { globs: GlobScope; links: MadeLink[] },
): Stage[] {
  const tool = new Set(
    (ctx.env.PATH ?? "").split(":").filter((d) => d.startsWith("/")).map(plainDir),
  );
  const ordered = values.length === 1;
  // (A builtin is never looked up, unless the command may turn it off: `enable -n echo`.)
  const builtins = stages.some((s) => s.argv[0]?.value === "enable") ? NONE : BUILTINS;
  const runsProgram = (s: Stage) => {
    const name = s.argv[0];
    return name !== undefined && !(name.kind === "static" && builtins.has(name.value));
  };
  const out: Stage[] = [];
  for (const s of stages) {
    const name = s.argv[0];
    if (name?.kind !== "static" || name.value === "" || name.value.includes("/")) continue;
    if (builtins.has(name.value)) continue;
    const found = new Set<string>();
    for (const dirs of values) {
      for (const written of dirs) {
        const dir = plainDir(written);
        const path = within(dir, name.value);
        if (tool.has(dir)) {
          if (ordered && ctx.fs.exists(path)) break;
          continue;
        }
        const there = ctx.fs.exists(path);
        if (!found.has(path) && (there || opts.globs.disturbed(dir, s))) {
          found.add(path);
          out.push({
            ...s,
            argv: [literal(path), ...s.argv.slice(1)],
            origin: `${s.origin} (${name.value} found in ${dir})`,
          });
        }
        if (there && ordered) break;
      }
    }
  }
  const base = stages.find(runsProgram);
  if (base === undefined) return out;
  const dirs = new Set(values.flat().map(plainDir).filter((d) => !tool.has(d)));
  for (const dir of dirs) {
    const listing = ctx.fs.entries?.(dir) ?? null;
    if (!listing?.length && !opts.globs.disturbed(dir, undefined)) continue;
    const origin = `PATH (the programs in ${dir})`;
    const run = (program: Word) => {
      out.push({
        argv: [program, literal("(its arguments)")],
        redirects: [],
        text: base.text,
        origin,
        cwds: base.cwds,
      });
    };
    run(literal(within(dir, "(a program there)")));
    const linked = [
      ...(listing ?? []).filter((e) => e.link).map((e) => within(dir, e.name)),
      ...opts.links.filter((l) => dirname(l.link) === dir).map((l) => l.link),
    ];
    if (linked.length > LINKS_JUDGED) run(unknownWord(`(the programs linked in ${dir})`));
    else for (const path of linked) run(literal(path));
  }
  return out;
}

/** `name` in `dir`. */
function within(dir: string, name: string): string {
  return (dir === "/" ? "" : dir) + "/" + name;
}

/**
 * The stage without the `PATH=…` words whose directories the command follows (`texts`): what it
 * writes is its program's to say (`PATH=$PWD/bin:$PATH ls` writes nothing; what else it may run
 * is judged apart).
 */
export function withoutSearched(stage: Stage, texts: ReadonlySet<string>): Stage {
  const kept = stage.assignments?.filter((a) => !texts.has(a.text));
  if (kept === undefined || kept.length === stage.assignments!.length) return stage;
  return { ...stage, assignments: kept.length ? kept : undefined };
}
