/**
 * The reader of the arguments of search programs (grep, rg, git grep) and of field tools (cut,
 * sort, paste, join, column) that are text, not files: the pattern (`grep -rn "/api/users" src`
 * searches for `/api/users`, it does not open it), the values of `-e`, delimiters (`cut -d/`), and
 * option values such as `--include=*.ts` or `-m 5`. Files of patterns (`-f`, `--exclude-from`) and
 * output files (`sort -o`) stay files. When an option is one this reader does not know, no word
 * from there on is taken as text: every one may still be a file. Each program's grammar lives in
 * its own module (grep.ts, fields.ts, git.ts).
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { isLong, type OptionGrammar, type OptionToken, readOptions } from "./argv.ts";

/** How a search program takes its options. */
export interface SearchSpec {
  /** Short options without a value. */
  flags: string;
  /** Short options with a value that is text (glued, or the next word). */
  textValued: string;
  /** Short options whose value is a file (kept a target). */
  fileValued: string;
  /** Short options whose value is a pattern (then no operand is one). */
  patternShort: string;
  /** Short options whose value is a file of patterns (then no operand is one). */
  patternFileShort: string;
  longFlags: ReadonlySet<string>;
  /** Long options with a text value (`--opt=value` or the next word). */
  longText: ReadonlySet<string>;
  /** Long options with a file value. */
  longFile: ReadonlySet<string>;
  /** Long options whose value is optional, given only with `=` (`--color=never`). */
  longOptional: ReadonlySet<string>;
  longPattern: ReadonlySet<string>;
  longPatternFile: ReadonlySet<string>;
  /** `-5` means five lines of context (grep). */
  digits: boolean;
  /** Options that make the program take no pattern (`rg --files`: every operand is a path). */
  noPattern: ReadonlySet<string>;
  /**
   * It takes any unambiguous prefix of a long option (getopt_long: grep's `--recu`), and its long
   * options are all listed. @default false
   */
  abbreviations?: boolean;
  /** Long options whose value is optional (given with `=`) and is no text (ugrep's `--index`). */
  longOptionalFile?: ReadonlySet<string>;
  /** Short options whose value is optional, only glued, and text (ugrep's `-Z3`). */
  gluedText?: string;
  /** Short options whose value is optional, only glued, and no text (ugrep's `-Q`). */
  gluedFile?: string;
  /**
   * Options whose value is optional and a number when in a word of its own (ack's `-A`: see
   * `OptionGrammar.numbered`); their values are text. @default undefined
   */
  numbered?: OptionGrammar["numbered"];
  /**
   * Every implementation of it reads options after operands (ack, pt, ugrep): a value in a word of
   * its own there is text too (grep and rg: BSD grep stops at the first operand). @default false
   */
  permutes?: boolean;
}

/** Whether an option token gives the pattern (`-e`, `-f`, `--regexp`): then no operand is one. */
export function givesPattern(spec: SearchSpec, t: OptionToken): boolean {
  if (t.kind !== "valued") return false;
  return isLong(t)
    ? spec.longPattern.has(t.name) || spec.longPatternFile.has(t.name)
    : spec.patternShort.includes(t.name[1]) || spec.patternFileShort.includes(t.name[1]);
}

/** A field tool: every option value is text but those of `fileValued` and `longFile`. */
export function fields(spec: {
  flags: string;
  textValued: string;
  fileValued?: string;
  longFlags?: string[];
  longText?: string[];
  longFile?: string[];
}): SearchSpec {
  return {
    flags: spec.flags,
    textValued: spec.textValued,
    fileValued: spec.fileValued ?? "",
    patternShort: "",
    patternFileShort: "",
    longFlags: new Set([...(spec.longFlags ?? []), "--help", "--version"]),
    longText: new Set(spec.longText ?? []),
    longFile: new Set(spec.longFile ?? []),
    longOptional: new Set(),
    longPattern: new Set(),
    longPatternFile: new Set(),
    digits: false,
    noPattern: new Set(),
  };
}

/**
 * The indexes (in `args`, the words after the program name, or after `git grep`) that are text
 * under `spec`: the pattern operand, `-e` patterns, and text option values (with their option
 * words). Words not statically known are files to this reader (null in `args`).
 */
export function searchText(spec: SearchSpec, args: (string | null)[]): number[] {
  const searches = spec.patternShort !== "";
  // (A value in a word of its own after an operand stays a possible file: an implementation
  // that stops reading options at the first operand, as BSD's do, takes it as one.)
  const text: number[] = [];
  let patternGiven = false;
  let firstOperand = -1;
  for (const t of readOptions(args, grammarOf(spec))) {
    if (t.kind === "operand" || t.kind === "dynamic") {
      if (firstOperand < 0) firstOperand = t.at;
    } else if (t.kind === "unknown") {
      // Not known: it may take the next word. A search program's words may all be files (its
      // pattern cannot be placed); a field tool's words before it keep what was found.
      return searches ? [] : text;
    } else if (t.kind === "flag") {
      if (spec.noPattern.has(t.name)) patternGiven = true;
    } else if (t.kind === "valued") {
      if (givesPattern(spec, t)) patternGiven = true;
      // (A file glued to its option, `-fpats.txt`, stays in its word: the word is kept.)
      if (!isText(spec, t)) continue;
      text.push(t.at);
      if (t.valueAt !== undefined && (firstOperand < 0 || spec.permutes)) text.push(t.valueAt);
    }
  }
  if (searches && !patternGiven && firstOperand >= 0 && args[firstOperand] !== null) {
    text.push(firstOperand);
  }
  return text;
}

/** Whether a valued option's value is text under `spec` (see `searchText`). */
function isText(spec: SearchSpec, t: OptionToken): boolean {
  if (isLong(t)) {
    return spec.longText.has(t.name) || spec.longPattern.has(t.name) ||
      spec.longOptional.has(t.name);
  }
  const letter = t.name[1];
  return spec.textValued.includes(letter) || spec.patternShort.includes(letter) ||
    (spec.gluedText?.includes(letter) ?? false) ||
    (spec.numbered?.short.includes(letter) ?? false);
}

const grammars = new WeakMap<SearchSpec, OptionGrammar>();

/** The option grammar a spec describes (which options take a value), made once per spec. */
export function grammarOf(spec: SearchSpec): OptionGrammar {
  let g = grammars.get(spec);
  if (!g) {
    g = {
      flags: spec.flags,
      valued: spec.textValued + spec.fileValued + spec.patternShort + spec.patternFileShort,
      longFlags: spec.longFlags,
      longValued: new Set([
        ...spec.longText,
        ...spec.longFile,
        ...spec.longPattern,
        ...spec.longPatternFile,
      ]),
      longOptional: spec.longOptionalFile
        ? new Set([...spec.longOptional, ...spec.longOptionalFile])
        : spec.longOptional,
      numbers: spec.digits ? "option" : "cluster",
      abbreviations: spec.abbreviations ? "all" : false,
    };
    const glued = (spec.gluedText ?? "") + (spec.gluedFile ?? "");
    if (glued) g.gluedOnly = glued;
    if (spec.numbered) g.numbered = spec.numbered;
    grammars.set(spec, g);
  }
  return g;
}

/**
 * The words of `argv` from `from` on as an option reader sees them: static words, and globs that
 * are options (`--include=*.ts` expands to `--include=…` words); null for any other word.
 */
export function optionValues(argv: Word[], from: number): (string | null)[] {
  const out: (string | null)[] = [];
  for (let i = from; i < argv.length; i++) {
    const w = argv[i];
    out.push(
      w.kind === "static" || (w.kind === "glob" && w.prefix.startsWith("-")) ? w.value : null,
    );
  }
  return out;
}

/** The `text` facet of a program whose options `spec` reads: argv positions, 1-based. */
export function searchTextOf(spec: SearchSpec): (argv: Word[]) => number[] {
  return (argv) => searchText(spec, optionValues(argv, 1)).map((at) => at + 1);
}
