/**
 * Programs that print some of the lines they read, each unchanged: `sort`, `uniq`, `head -n N`,
 * `tail -n N`, `grep [-v] PATTERN`, reading their standard input alone. After a lister
 * (`find src -name '*.ts' | grep -v test | xargs wc -l`, `git ls-files | sort | xargs cat`) what
 * they print is paths of the lister's listing, and their `lists` facet says so (`passedLines`).
 * An option not known here, one that changes a line (`uniq -c`, `grep -n`, `head -c`), a file
 * operand or a word not known statically makes the output anything.
 *
 * @example
 * ```ts
 * // In a program's entry: `lists: (stage, listingOf) => passedLines(stage, listingOf, HEAD)`.
 * ```
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { Listing, ListingOf, Program } from "./spec.ts";

/**
 * How a filter takes its options: the grammar names only those that leave every printed line one
 * it read (any other is unknown, and the output anything).
 */
export interface LineFilter {
  grammar: OptionGrammar;
  /** Its first operand is a pattern, not a file, unless one of these gives it (`-e`). */
  pattern?: ReadonlySet<string>;
  /** `-5` is a count (`head -5`, `tail -5`). @default false */
  counts?: boolean;
  /**
   * The names a line it prints surely has, from its words (grep's `\.ts$`: `*.ts`), which filter
   * a listing that has none. @default undefined (any name)
   */
  names?: (values: string[]) => string[] | null;
}

/**
 * What a filter prints of its input when the stage is one (see the module): the listing of the
 * stage writing its input, or null.
 */
export function passedLines(
  stage: Stage,
  listingOf: ListingOf,
  filter: LineFilter,
): Listing[] | null {
  if (!stage.input) return null;
  const values: string[] = [];
  for (const w of stage.argv.slice(1)) {
    if (w.kind !== "static") return null;
    values.push(w.value);
  }
  let operands = 0;
  let patternGiven = false;
  for (const t of readOptions(values, filter.grammar)) {
    if (t.kind === "operand") {
      // (`tail +5`: from the fifth line on, the old way.)
      if (!(filter.counts && operands === 0 && /^\+\d+$/.test(values[t.at]))) operands++;
    } else if (t.kind === "flag" || t.kind === "valued") {
      if (filter.pattern?.has(t.name)) patternGiven = true;
    } else if (t.kind !== "end") return null;
  }
  const allowed = filter.pattern && !patternGiven ? 1 : 0;
  if (operands !== allowed) return null;
  const listed = listingOf(stage.input);
  const names = listed && filter.names?.(values);
  if (!listed || !names) return listed;
  return listed.flatMap((l) => (l.names || l.exact ? [l] : names.map((n) => ({ ...l, names: n }))));
}

/** head and tail: `-n N`, `-N`, `--lines=N` (not `-c`: a part of a line is no path). */
const HEAD_TAIL: LineFilter = {
  grammar: {
    flags: "qv",
    valued: "n",
    longFlags: new Set(["--quiet", "--silent", "--verbose"]),
    longValued: new Set(["--lines"]),
    numbers: "option",
  },
  counts: true,
};

/** head and tail, known here for what they pass on (sort, uniq and grep in their modules). */
export const LINE_FILTER_PROGRAMS: Program[] = [
  {
    names: ["head", "tail"],
    lists: (stage, listingOf) => passedLines(stage, listingOf, HEAD_TAIL),
  },
];
