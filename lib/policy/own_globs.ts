/**
 * The glob operands a program expands itself (`Program.globOperands`: `prettier --write
 * '**\/*.json'`, bash left the quoted word alone), as glob words bash would have made of them: each
 * brace alternative a pattern (`{src,.pi}/**` is `src/**` and `.pi/**`), expanded with the
 * program's rules (`**` crosses directories, extglob groups, a leading `.` matched where it says),
 * so its matches are its targets where they can be listed, else what lies below its literal
 * prefix, as for a glob of bash's. A `\` is what the program takes it for: an escape (prettier's
 * fast-glob, eslint's minimatch, stylelint's globby) or a `/` (deno, dprint).
 *
 * @example
 * ```ts
 * import { literal } from "../programs/words.ts";
 * import { ownGlobs } from "./own_globs.ts";
 * const globs = ownGlobs({ argv: ["prettier", "-w", "{a,.b}/*"].map(literal) } as never);
 * globs?.words.get(2)?.map((w) => w.pattern); // ["a/*", ".b/*"]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { GlobOptions } from "../shell/pathname_expansion.ts";
import { programOf } from "../programs/registry.ts";
import { globWords } from "../programs/glob_operands.ts";

/** A stage's own glob operands: the glob words of each (by argv position), and their options. */
export interface OwnGlobs {
  words: Map<number, Word[]>;
  options: GlobOptions;
}

/** Text as a glob library reads it literally: its glob characters escaped. */
function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]{}()!@+|]/g, "\\$&");
}

/**
 * A word the program takes as a path from `base` (not a pattern): `base/w` where it is relative
 * (as Node's `path.resolve(base, w)`); one that may be absolute, or a base not known, reaches
 * anywhere.
 */
function belowBase(w: Word, base: string | null | undefined): Word {
  const start = w.kind === "static" ? w.value : w.prefix;
  if (base === undefined || start.startsWith("/")) return w;
  if (base === null || (w.kind !== "static" && start === "")) {
    return { value: w.value, kind: "dynamic", prefix: "", text: w.text };
  }
  const joined = `${base.replace(/\/*$/, "")}/`;
  // (A word bash expands first, a glob or a variable: below its known start, from the base.)
  return w.kind === "static"
    ? { value: joined + w.value, kind: "static", prefix: joined + w.value, text: w.text }
    : { value: joined + w.value, kind: "dynamic", prefix: joined + w.prefix, text: w.text };
}

/** The stage's own glob operands (null where its program expands none). */
export function ownGlobs(stage: Stage): OwnGlobs | null {
  const found = programOf(stage.argv[0])?.globOperands?.(stage.argv);
  if (!found) return null;
  const words = new Map<number, Word[]>();
  for (const i of found.at) {
    const w = stage.argv[i];
    // (Below a base directory, cpy's `--cwd=DIR`: `DIR/w`; a base not known reaches anywhere.)
    if (found.base === null) {
      words.set(i, [{ value: w.value, kind: "dynamic", prefix: "", text: w.text }]);
      continue;
    }
    const based = found.base === undefined || w.value.startsWith("/")
      ? w
      : { ...w, value: `${escapeGlob(found.base).replace(/\/*$/, "")}/${w.value}` };
    words.set(i, globWords(based, found.backslash, found.groups));
  }
  for (const i of found.based ?? []) words.set(i, [belowBase(stage.argv[i], found.base)]);
  return { words, options: { dotglob: found.dot, globstar: true, extglob: true } };
}
