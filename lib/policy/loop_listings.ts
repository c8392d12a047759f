/**
 * `for` loops over globs, judged as the lists they are now (RULINGS "What can be seen": globs are
 * expanded where the filesystem shows what they match). `for d in packages/*\/; do (cd "$d" &&
 * npm test); done` in a directory holding packages/a and packages/b is judged as `for d in
 * packages/a/ packages/b/; do …; done`: the walk takes each match as the variable's known value
 * for one round of the body (`BashEnv.listing`, lib/shell/walk_word_lists.ts), so `cd "$d"`,
 * `git -C "$d"`, `npm --prefix "$d"` name a known directory, and each round's targets are
 * judged, a match that is a link to `~/.ssh` or `/` included.
 *
 * That holds only where what the glob matches when bash expands the list is what it matches now:
 * the command must not set glob options (`shopt -s nullglob`, `dotglob`, a `BASHOPTS` in the
 * environment: then the loop is read as before), and no stage of it but the loop's own body,
 * which starts after the list was expanded, may create, remove or rename files where the glob
 * looks (`mkdir packages/x; for d in packages/*\/; …`, `… & ln -s ~/.ssh packages/k`, a writer in
 * an outer loop whose later round expands the list again). A stage that surely starts after the
 * list was expanded cannot change it either: a later element of the top-level list the loop is
 * in (`for d in packages/*\/; do …; done && npm run build`; see `ListedGlob.laterFrom`). Where
 * one may, the call is decided again without listings, as before. Such an analysis is never
 * cached (analysis_cache.ts): the next call lists again.
 *
 * @module
 */
import { analyzeBash } from "../shell/analyze.ts";
import type { BashAnalysis, BashEnv, Stage } from "../shell/model.ts";
import { expandPathname, globOptions } from "../shell/pathname_expansion.ts";
import type { ParserChoice } from "../shell/parser.ts";
import type { Context } from "../types.ts";
import { analyzeCached } from "./analysis_cache.ts";
import { globRegion, type GlobScope } from "./glob_scope.ts";

/** Whether a decision may list directories for its `for` loops (false: decided again without). */
export interface ListingChoice {
  parser: ParserChoice;
  listing?: false;
}

/**
 * The analysis of a command for a decision: where it may hold a `for` loop and the filesystem can
 * be listed, with `BashEnv.listing` (not cached when it listed); otherwise as cached.
 */
export function topAnalysis(
  command: string,
  env: BashEnv,
  ctx: Context,
  opts: ListingChoice,
): BashAnalysis {
  if (opts.listing === false) return analyzeBash(command, env, opts.parser);
  // (Only a command with a `for` pays: everyday commands are analysed as they were.)
  if (!ctx.fs.entries || !command.includes("for")) return analyzeCached(command, env, opts.parser);
  // A glob option the command (or the environment) may set: what a list matches is not known.
  if (Object.keys(globOptions(command, [], ctx.env)).length) {
    return analyzeCached(command, env, opts.parser);
  }
  const listing = (pattern: string, cwd: string): readonly string[] | null => {
    const found = expandPathname(pattern, cwd, ctx.fs);
    return found.kind === "matches" ? found.words : found.kind === "none" ? [] : null;
  };
  return analyzeCached(command, { ...env, listing }, opts.parser);
}

/**
 * Whether an analysis's listings hold as bash will expand them: for each glob, every stage that
 * may change what is where it looks (`globs.changers`) is one of its loop's body or surely starts
 * after the loop (`origin`: the stage of the command's shell a stage is judged for), and the loop
 * is in no loop or function that may expand it again after such a stage.
 */
export function listingsHold(
  analysis: BashAnalysis,
  globs: GlobScope,
  maps: readonly (ReadonlyMap<Stage, Stage> | undefined)[],
): boolean {
  if (!analysis.listed?.length) return true;
  const origin = (s: Stage) => maps.reduce((at, m) => m?.get(at) ?? at, s);
  for (const l of analysis.listed) {
    const region = globRegion(l.pattern, l.cwd);
    if (region === null) return false;
    const body = new Set(l.repeated ? [] : l.body);
    // (And a stage that surely starts after the loop: `… done && npm run build`.)
    const later = new Set(l.laterFrom === undefined ? [] : analysis.stages.slice(l.laterFrom));
    const before = (w: Stage) => !body.has(origin(w)) && !later.has(origin(w));
    if (globs.changers(region, undefined).some(before)) return false;
  }
  return true;
}
