/**
 * What a command tells the expansion of its globs ({@linkcode GlobScope}): the glob options it
 * sets, and where its stages may create, remove or rename files. A glob is expanded against the
 * filesystem as it is now; where another stage of the same command may change what it would
 * match (`touch a.pem && cat *.pem`, `ln -s ~/.ssh k; cat k*\/*`), it is judged by its prefix.
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import { isFileTarget, type Stage, type Word } from "../shell/model.ts";
import { globOptions } from "../shell/pathname_expansion.ts";
import { isWithin, realPath } from "../shell/paths.ts";
import { programOf } from "../programs/registry.ts";
import type { Context } from "../types.ts";
import { CD_BUILTINS } from "./stage_subject.ts";
import type { GlobScope } from "./targets.ts";

/**
 * Where a stage may write: the absolute paths at or below which it creates, removes, renames or
 * changes files; null when that may be anywhere (a program not known to write only what it
 * names, code it runs, a name not known).
 */
export function writeAreas(stage: Stage, readsOnly: (s: Stage) => boolean): string[] | null {
  const areas: string[] = [];
  for (const r of stage.redirects) {
    if (r.kind !== "write" || !isFileTarget(r)) continue;
    if (!wordAreas(r.target!, stage.cwds, areas)) return null;
  }
  const name = stage.argv[0];
  if (!name) return areas;
  if (name.kind !== "static") return null;
  const program = programOf(name);
  // (A program that opens no path it is given writes none: `echo`, `shopt`, `sleep`.)
  if (CD_BUILTINS.has(name.value) || program?.noFileOperands || readsOnly(stage)) return areas;
  if (!program?.writesOnlyNamed) return null;
  // Every operand may be a name it makes (`touch new`, `ln -s T k`), existing or not.
  for (const w of stage.argv.slice(1)) {
    if (w.kind === "static" && w.value.startsWith("-")) {
      const eq = w.value.indexOf("=");
      if (eq !== -1 && !wordAreas({ ...w, value: w.value.slice(eq + 1) }, stage.cwds, areas)) {
        return null;
      }
      continue;
    }
    if (!wordAreas(w, stage.cwds, areas)) return null;
  }
  return areas;
}

/** A word's paths as areas, in each cwd (into `out`); false when it may name any place. */
function wordAreas(w: Word, cwds: (string | null)[], out: string[]): boolean {
  if (w.kind === "dynamic") return false;
  // A glob may name anything below its prefix.
  const text = w.kind === "static"
    ? w.value
    : w.prefix.endsWith("/")
    ? w.prefix
    : dirname(w.prefix || ".");
  if (w.kind !== "static" && /(^|\/)\.\.(\/|$)/.test(w.value)) return false;
  for (const c of cwds) {
    if (c === null && !text.startsWith("/")) return false;
    out.push(resolve(c ?? "/", text));
  }
  return true;
}

/**
 * The glob scope of a command's stages (`text`: the whole command). Where each stage may write
 * is worked out once, when a glob first asks.
 */
export function globScope(
  text: string,
  stages: Stage[],
  ctx: Context,
  readsOnly: (s: Stage) => boolean,
): GlobScope {
  let writers: { stage: Stage; areas: string[] | null }[] | undefined;
  return {
    options: globOptions(text, stages, ctx.env),
    disturbed(dir: string, stage: Stage | undefined): boolean {
      writers ??= stages.map((s) => ({ stage: s, areas: writeAreas(s, readsOnly) }))
        .filter((w) => w.areas === null || w.areas.length > 0);
      if (!writers.length) return false;
      // (Lexically, and where it really is: `conf/..` is the parent of where conf leads.)
      const dirs = [resolve(dir), realPath(dir, ctx.fs)];
      return writers.some((w) => {
        if (w.stage === stage) return false;
        if (w.areas === null) return true;
        return w.areas.some((a) => {
          const real = realPath(a, ctx.fs);
          return dirs.some((d) =>
            isWithin(a, d) || isWithin(d, a) || isWithin(real, d) || isWithin(d, real)
          );
        });
      });
    },
  };
}
