/**
 * The files of some names a program reads in every directory of a tree it walks (rsync's
 * per-directory merge files: `.rsync-filter` for `-F`), found as they are now, with their text
 * (`NamedFilesGiven.filesNamed`).
 *
 * @module
 */
import { join, resolve } from "node:path";
import type { Stage } from "../shell/model.ts";
import type { FoundFile } from "../programs/spec.ts";
import type { Context } from "../types.ts";
import { type GlobScope, stageSettingsText } from "./glob_scope.ts";

/** Directories a walk for the files lists at most (as a walk for names). */
const LISTINGS = 64;

/** The largest file read (as a settings file). */
const READ_LIMIT = 1 << 20;

/**
 * The files named `names` in `dir` (from the stage's one cwd) and below it, and with `above` in
 * each directory from there down to `dir` (see `NamedFilesGiven.filesNamed`).
 */
export function filesNamed(
  stage: Stage,
  ctx: Context,
  globs: GlobScope | undefined,
  dir: string,
  names: readonly string[],
  above?: string,
): FoundFile[] | null {
  const cwd = stage.cwds.length === 1 ? stage.cwds[0] : null;
  if (cwd === null || !globs || !ctx.fs.entries || !ctx.fs.readText) return null;
  const top = resolve(cwd, dir);
  const out: FoundFile[] = [];
  // (A file source is no tree: none read.)
  if (!ctx.fs.exists(top) || ctx.fs.isDirectory?.(top) === false) return out;
  if (above !== undefined) parents(stage, ctx, globs, resolve(cwd, above), top, names, out);
  // (What is there when it starts: a stage after it, one that only removes, do not count.)
  if (globs.disturbed(top, stage, undefined, { removals: true, started: true })) return null;
  const queue = [top];
  for (let at = 0; at < queue.length; at++) {
    if (queue.length > LISTINGS) return null;
    const listing = ctx.fs.entries(queue[at]);
    if (!listing) return null;
    for (const e of listing) {
      const path = join(queue[at], e.name);
      if (e.dir) queue.push(path);
      else if (names.includes(e.name)) {
        out.push({ path, text: ctx.fs.readText(path, READ_LIMIT), link: e.link });
      }
    }
  }
  return out;
}

/**
 * The files of `names` in each directory from `from` down to `top` (not `top` itself) into
 * `out`, each as a settings file is read (another stage may write it first); none where `top`
 * is not below `from`.
 */
function parents(
  stage: Stage,
  ctx: Context,
  globs: GlobScope,
  from: string,
  top: string,
  names: readonly string[],
  out: FoundFile[],
): void {
  const prefix = from === "/" ? "/" : from + "/";
  if (!top.startsWith(prefix)) return;
  const steps = top.slice(prefix.length).split("/").filter((s) => s !== "");
  let dir = from;
  for (const step of steps) {
    for (const name of names) {
      const path = join(dir, name);
      const text = stageSettingsText(stage, path, ctx, globs);
      const link = (ctx.fs.readlink?.(path) ?? null) !== null;
      if (text !== "" || link) out.push({ path, text, link, above: true });
    }
    dir = join(dir, step);
  }
}
