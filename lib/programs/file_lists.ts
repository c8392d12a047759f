/**
 * Programs that take the names of the files they read or write from a list, a file or standard
 * input (`tar -T LIST`, `zip -@ < LIST`, `cpio -o < LIST`, `7z a x.7z @LIST`, `rsync
 * --files-from=LIST`): which files is not known before they run, so such a stage names a file
 * not known (asked about, RULINGS principle 3). Each program's module says which of its options
 * take a list; this reads them.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { filesFromList } from "./file_lists.ts";
 * filesFromList({ valued: ["-T", "--files-from"] })(["tar", "czf", "x", "-T", "l"].map(literal));
 * // [{ path: null, source: "-T" }]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { NamedFile } from "./spec.ts";

/** Where a program takes its list of names. */
export interface ListSpec {
  /** Options whose value (glued, `=value` or the next word) is the list file. @default [] */
  valued?: string[];
  /** Flags that make it read the list from standard input. @default [] */
  stdin?: string[];
  /** Operands `@FILE` are a list (7z). @default false */
  at?: boolean;
  /** The letters read the list from standard input (cpio's), not from the next word (tar's). */
  fromStdin?: boolean;
  /**
   * Short option letters that take the list, in a cluster too (tar's `-czT LIST` and its old
   * bundled first word `czfT`; cpio's `-ov`, `-pdm`, which read it from standard input).
   * @default undefined
   */
  letters?: string;
}

/** The `namedFiles` of a program that may take its file names from a list (see `ListSpec`). */
export function filesFromList(spec: ListSpec): (argv: Word[]) => NamedFile[] {
  return (argv) => {
    for (let i = 1; i < argv.length; i++) {
      const w = argv[i];
      const v = w.kind === "static" ? w.value : w.prefix;
      const option = spec.valued?.find((o) =>
        v === o || v.startsWith(o + "=") ||
        (o.length === 2 && !o.startsWith("--") && v.startsWith(o))
      );
      const clustered = spec.letters !== undefined && !v.startsWith("--") &&
        (v.startsWith("-") || i === 1) && /^-?[A-Za-z]+$/.test(v) &&
        [...spec.letters].some((l) => v.includes(l));
      if (option || clustered || spec.stdin?.includes(v) || (spec.at && /^@./.test(v))) {
        // The list is standard input: `-T -`, `--files-from=-`, `zip -@`, `cpio -o`.
        const value = option === undefined
          ? (clustered ? argv[i + 1]?.value : null)
          : v === option
          ? argv[i + 1]?.value
          : v.startsWith(option + "=")
          ? v.slice(option.length + 1)
          : v.slice(option.length);
        const fromInput = spec.stdin?.includes(v) === true ||
          (spec.fromStdin === true && clustered) || value === "-";
        return [{ path: null, source: option ?? w.text, ...(fromInput ? { fromInput } : {}) }];
      }
    }
    return [];
  };
}
