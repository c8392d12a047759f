/**
 * The analyses of recent bash commands, kept so that a command an agent repeats (or a wrapper's
 * text met again) is parsed once.
 *
 * @module
 */
import { analyzeBash } from "../shell/analyze.ts";
import type { BashAnalysis, BashEnv } from "../shell/model.ts";
import type { ParserChoice } from "../shell/parser.ts";

/**
 * Analyses by the cwd, expandable environment and the names of it not known (`BashEnv.unknown`,
 * a nested text's), then by command (a pure function: parse
 * once), in two generations: a hit in the older one moves up; when the newer one is full, the
 * older is dropped. (Deleting a Map's oldest key leaves a hole its iterator skips ever after:
 * eviction grew costly.) Keyed by the command string itself, whose hash V8 keeps. Small: it is
 * for the commands an agent repeats; every analysis it keeps long is copied by the GC.
 */
let analyses = new Map<string, Map<string, BashAnalysis>>();
let olderAnalyses = new Map<string, Map<string, BashAnalysis>>();
let analysesSize = 0;
const ANALYSES_KEPT = 128;

/** The key of the last place analysed, and its parts (most calls are in the same place). */
let lastPlace = {
  where: "",
  parser: false,
  cwd: "",
  home: "",
  HOME: undefined as string | undefined,
  TMPDIR: undefined as string | undefined,
  PWD: undefined as string | undefined,
  CDPATH: undefined as string | undefined,
  unknown: "",
  nested: false,
};

/** The analyses cache key of a place: built again only when the place changes. */
function placeKey(env: BashEnv, parser: ParserChoice): string {
  const e = env.env;
  const last = lastPlace;
  const unknown = env.unknown?.size ? [...env.unknown].sort().join(",") : "";
  if (
    last.cwd === env.cwd && last.parser === (parser !== null) && last.home === env.home &&
    last.HOME === e.HOME && last.TMPDIR === e.TMPDIR && last.PWD === e.PWD &&
    last.CDPATH === e.CDPATH && last.unknown === unknown && last.nested === !!env.nested
  ) {
    return last.where;
  }
  const where = `${
    parser ? "t" : "f"
  }\0${env.cwd}\0${env.home}\0${e.HOME}\0${e.TMPDIR}\0${e.PWD}\0${e.CDPATH}\0${unknown}\0${env.nested}`;
  lastPlace = {
    where,
    parser: parser !== null,
    cwd: env.cwd,
    home: env.home,
    HOME: e.HOME,
    TMPDIR: e.TMPDIR,
    PWD: e.PWD,
    CDPATH: e.CDPATH,
    unknown,
    nested: !!env.nested,
  };
  return where;
}

export function analyzeCached(
  command: string,
  env: BashEnv,
  parser: ParserChoice,
): BashAnalysis {
  // (A nested text given values, parameters or its lists' globs listed: its own, analysed each
  // time.)
  if (env.given || env.parameters || (env.nested && env.listing)) {
    return analyzeBash(command, env, parser);
  }
  const where = placeKey(env, parser);
  let here = analyses.get(where);
  const known = here?.get(command);
  if (known && stillUnset(known, env)) return known;
  const older = olderAnalyses.get(where)?.get(command);
  const analysis = older && stillUnset(older, env) ? older : analyzeBash(command, env, parser);
  // (One that looked at the filesystem, a `for` list's glob expanded, holds for it as it was: a
  // later call lists again. Keying it by what was listed would cost the listing anyway.)
  if (analysis.listed) return analysis;
  if (analysesSize >= ANALYSES_KEPT) {
    olderAnalyses = analyses;
    analyses = new Map();
    analysesSize = 0;
    here = undefined;
  }
  if (!here) analyses.set(where, here = new Map());
  here.set(command, analysis);
  analysesSize++;
  return analysis;
}

/** Whether the names an analysis took to be unset are still not in the environment. */
function stillUnset(a: BashAnalysis, env: BashEnv): boolean {
  return a.unset === undefined || a.unset.every((n) => env.env[n] === undefined);
}
