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
import { braceChars, expandBraces } from "../shell/braces.ts";
import type { Stage, Word } from "../shell/model.ts";
import type { GlobOptions } from "../shell/pathname_expansion.ts";
import { programOf } from "../programs/registry.ts";
import type { GlobOperands } from "../programs/spec.ts";

/** A stage's own glob operands: the glob words of each (by argv position), and their options. */
export interface OwnGlobs {
  words: Map<number, Word[]>;
  options: GlobOptions;
}

/** The text before the first character a glob library expands, its escapes removed. */
function literalPrefix(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") out += pattern[++i] ?? "";
    else if ("*?[{(".includes(c) || ("@!+".includes(c) && pattern[i + 1] === "(")) break;
    else out += c;
  }
  return out;
}

/**
 * An operand as a pattern with `/` for each `\\` where the program reads one so (see
 * `GlobOperands.backslash`); joined to the cwd first, a leading one stays below it.
 */
function separated(value: string, backslash: GlobOperands["backslash"]): string {
  if (backslash === undefined || backslash === "escape" || !value.includes("\\")) return value;
  const slashed = value.replaceAll("\\", "/");
  if (backslash === "separator" || value.startsWith("/")) return slashed;
  return slashed.replace(/^\/+/, "") || ".";
}

/** The glob words of one operand (see the module's description). */
function globWords(w: Word, backslash: GlobOperands["backslash"]): Word[] {
  const value = separated(w.value, backslash);
  const alternatives = expandBraces(braceChars(value));
  // (Braces not expanded here: what lies below the text before them.)
  if (alternatives === null) {
    const prefix = literalPrefix(value);
    return [{ value: prefix + "*", kind: "glob", prefix, text: w.text }];
  }
  return alternatives.map((chars) => {
    const pattern = chars.map((c) => c.raw).join("");
    const prefix = literalPrefix(pattern);
    return { value: pattern, kind: "glob", prefix, text: w.text, pattern };
  });
}

/** The stage's own glob operands (null where its program expands none). */
export function ownGlobs(stage: Stage): OwnGlobs | null {
  const found = programOf(stage.argv[0])?.globOperands?.(stage.argv);
  if (!found) return null;
  const words = new Map<number, Word[]>();
  for (const i of found.at) words.set(i, globWords(stage.argv[i], found.backslash));
  return { words, options: { dotglob: found.dot, globstar: true, extglob: true } };
}
