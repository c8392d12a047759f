/**
 * The arguments of search programs (grep, rg, git grep) and of field tools (cut, sort, paste,
 * join, column) that are text, not files: the pattern (`grep -rn "/api/users" src` searches for
 * `/api/users`, it does not open it), the values of `-e`, delimiters (`cut -d/`), and option
 * values such as `--include=*.ts` or `-m 5`. Files of patterns (`-f`, `--exclude-from`) and
 * output files (`sort -o`) stay files. When an option is one this reader does not know, no word
 * from there on is taken as text: every one may still be a file.
 */

/** How a search program takes its options. */
interface SearchSpec {
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
}

const GREP: SearchSpec = {
  flags: "EFGPiywxzsvVbnHhoqaRrLlcTZUI",
  textValued: "mABCdD",
  fileValued: "",
  patternShort: "e",
  patternFileShort: "f",
  // deno-fmt-ignore
  longFlags: new Set([
    "--extended-regexp", "--fixed-strings", "--basic-regexp", "--perl-regexp", "--ignore-case",
    "--no-ignore-case", "--word-regexp", "--line-regexp", "--null-data", "--no-messages",
    "--invert-match", "--version", "--help", "--byte-offset", "--line-number", "--no-line-number",
    "--line-buffered", "--with-filename", "--no-filename", "--only-matching", "--quiet", "--silent",
    "--text", "--recursive", "--dereference-recursive", "--files-without-match",
    "--files-with-matches", "--count", "--initial-tab", "--null", "--binary",
    "--no-group-separator",
  ]),
  // deno-fmt-ignore
  longText: new Set([
    "--max-count", "--label", "--binary-files", "--directories", "--devices", "--include",
    "--exclude", "--exclude-dir", "--before-context", "--after-context", "--context",
    "--group-separator",
  ]),
  longFile: new Set(["--exclude-from"]),
  longOptional: new Set(["--color", "--colour"]),
  longPattern: new Set(["--regexp"]),
  longPatternFile: new Set(["--file"]),
  digits: true,
  noPattern: new Set(),
};

const RG: SearchSpec = {
  flags: "abcFHIiLlNnoPpqSsUuVvwxz0.",
  textValued: "ABCEgjmMrtTd",
  fileValued: "",
  patternShort: "e",
  patternFileShort: "f",
  // deno-fmt-ignore
  longFlags: new Set([
    "--hidden", "--no-hidden", "--no-ignore", "--ignore", "--files", "--json", "--vimgrep",
    "--column", "--no-column", "--heading", "--no-heading", "--follow", "--no-follow",
    "--smart-case", "--case-sensitive", "--ignore-case", "--fixed-strings", "--no-fixed-strings",
    "--word-regexp", "--line-regexp", "--count", "--count-matches", "--files-with-matches",
    "--files-without-match", "--invert-match", "--multiline", "--no-multiline",
    "--multiline-dotall", "--no-filename", "--with-filename", "--line-number",
    "--no-line-number", "--only-matching", "--passthru", "--pretty", "--quiet", "--stats",
    "--no-stats", "--trim", "--no-trim", "--text", "--no-text", "--binary", "--no-binary", "--null",
    "--null-data", "--one-file-system", "--search-zip", "--no-search-zip", "--sort-files",
    "--no-messages", "--messages", "--no-config", "--no-ignore-vcs", "--no-ignore-parent",
    "--no-ignore-dot", "--no-ignore-global", "--no-ignore-exclude", "--no-ignore-files",
    "--no-ignore-messages", "--unrestricted", "--crlf", "--no-crlf", "--byte-offset",
    "--auto-hybrid-regex", "--pcre2", "--no-pcre2", "--no-pcre2-unicode", "--no-unicode",
    "--mmap", "--no-mmap", "--block-buffered", "--line-buffered", "--debug", "--trace",
    "--type-list", "--glob-case-insensitive", "--include-zero", "--max-columns-preview",
    "--no-require-git", "--version", "--help",
  ]),
  // deno-fmt-ignore
  longText: new Set([
    "--glob", "--iglob", "--type", "--type-not", "--type-add", "--type-clear", "--max-count",
    "--after-context", "--before-context", "--context", "--max-columns", "--threads",
    "--max-depth", "--max-filesize", "--encoding", "--engine", "--replace", "--sort", "--sortr",
    "--colors", "--context-separator", "--path-separator", "--pre-glob", "--dfa-size-limit",
    "--regex-size-limit", "--field-context-separator", "--field-match-separator",
    "--hyperlink-format",
  ]),
  longFile: new Set(["--ignore-file", "--pre", "--hostname-bin"]),
  longOptional: new Set(["--color"]),
  longPattern: new Set(["--regexp"]),
  longPatternFile: new Set(["--file"]),
  digits: false,
  noPattern: new Set(["--files", "--type-list"]),
};

const GIT_GREP: SearchSpec = {
  flags: "aiIwvhHEGFPnlLzocpWqr",
  textValued: "ABCm",
  fileValued: "",
  patternShort: "e",
  patternFileShort: "f",
  // deno-fmt-ignore
  longFlags: new Set([
    "--text", "--ignore-case", "--word-regexp", "--invert-match", "--full-name",
    "--extended-regexp", "--basic-regexp", "--fixed-strings", "--perl-regexp", "--line-number",
    "--column", "--files-with-matches", "--name-only", "--files-without-match", "--null",
    "--only-matching", "--count", "--no-color", "--break", "--heading", "--show-function",
    "--function-context", "--and", "--or", "--not", "--all-match", "--quiet", "--cached",
    "--untracked", "--no-index", "--exclude-standard", "--no-exclude-standard",
    "--recurse-submodules", "--recursive", "--no-recursive", "--textconv", "--no-textconv",
  ]),
  // deno-fmt-ignore
  longText: new Set([
    "--max-count", "--max-depth", "--threads", "--after-context", "--before-context", "--context",
  ]),
  longFile: new Set(),
  longOptional: new Set(["--color"]),
  longPattern: new Set(["--regexp"]),
  longPatternFile: new Set(["--file"]),
  digits: false,
  noPattern: new Set(),
};

/** A field tool: every option value is text but those of `fileValued` and `longFile`. */
function fields(spec: {
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

// deno-fmt-ignore
const FIELD_TOOLS: Record<string, SearchSpec> = {
  cut: fields({
    flags: "snz", textValued: "bcdf",
    longFlags: ["--complement", "--only-delimited", "--zero-terminated"],
    longText: ["--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter"],
  }),
  sort: fields({
    flags: "bdfghiMmnRrsuVcCz", textValued: "ktS", fileValued: "oT",
    longFlags: [
      "--ignore-leading-blanks", "--dictionary-order", "--ignore-case", "--general-numeric-sort",
      "--ignore-nonprinting", "--month-sort", "--human-numeric-sort", "--numeric-sort",
      "--random-sort", "--reverse", "--version-sort", "--check", "--merge", "--stable",
      "--unique", "--zero-terminated", "--debug",
    ],
    longText: ["--key", "--field-separator", "--buffer-size", "--parallel", "--batch-size", "--sort"],
    longFile: [
      "--output", "--temporary-directory", "--files0-from", "--random-source", "--compress-program",
    ],
  }),
  paste: fields({
    flags: "sz", textValued: "d",
    longFlags: ["--serial", "--zero-terminated"], longText: ["--delimiters"],
  }),
  join: fields({
    flags: "iz", textValued: "aeotvj12",
    longFlags: ["--ignore-case", "--check-order", "--nocheck-order", "--header", "--zero-terminated"],
  }),
  column: fields({
    flags: "tnxe", textValued: "sco",
    longFlags: ["--table", "--fillrows"], longText: ["--separator", "--output-separator", "--output-width"],
  }),
};

/** The search programs by name. */
const SEARCHERS: Record<string, SearchSpec> = {
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: RG,
};

/** Whether a program is one whose text arguments `searchText` knows. */
export function isSearcher(program: string): boolean {
  return Object.hasOwn(SEARCHERS, program) || Object.hasOwn(FIELD_TOOLS, program);
}

/**
 * The indexes (in `args`, the words after the program name, or after `git grep`) that are text:
 * the pattern operand, `-e` patterns, and text option values (with their option words). Words
 * not statically known are files to this reader (null in `args`).
 */
export function searchText(program: string, args: (string | null)[]): number[] {
  const spec = program === "git grep"
    ? GIT_GREP
    : Object.hasOwn(SEARCHERS, program)
    ? SEARCHERS[program]
    : Object.hasOwn(FIELD_TOOLS, program)
    ? FIELD_TOOLS[program]
    : null;
  if (!spec) return [];
  const searches = spec.patternShort !== "";
  // (A value in a word of its own after an operand stays a possible file: an implementation
  // that stops reading options at the first operand, as BSD's do, takes it as one.)
  const text: number[] = [];
  // After an option this reader does not know: a search program's words may all be files (its
  // pattern cannot be placed); a field tool's words before it keep what was found.
  const unknown = () => (searches ? [] : text);
  let patternGiven = false;
  let firstOperand = -1;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null || !options || !a.startsWith("-") || a === "-") {
      if (firstOperand < 0) firstOperand = i;
      continue;
    }
    if (a === "--") {
      options = false;
      continue;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const long = eq > 0 ? a.slice(0, eq) : a;
      if (spec.noPattern.has(long)) patternGiven = true;
      if (spec.longFlags.has(long) && eq < 0) continue;
      if (spec.longOptional.has(long)) {
        text.push(i);
        continue;
      }
      const takesText = spec.longText.has(long) || spec.longPattern.has(long);
      const takesFile = spec.longFile.has(long) || spec.longPatternFile.has(long);
      if (!takesText && !takesFile) return unknown(); // not known: every word may be a file
      if (spec.longPattern.has(long) || spec.longPatternFile.has(long)) patternGiven = true;
      if (takesText) text.push(i);
      if (eq < 0) {
        i++;
        if (takesText && i < args.length && firstOperand < 0) text.push(i);
      }
      continue;
    }
    if (spec.digits && /^-\d+$/.test(a)) continue; // -5: context lines
    // A cluster of short options; a valued one takes the rest of it or the next word.
    let known = true;
    for (let j = 1; j < a.length; j++) {
      const o = a[j];
      if (spec.flags.includes(o)) continue;
      const isText = spec.textValued.includes(o) || spec.patternShort.includes(o);
      const isFile = spec.fileValued.includes(o) || spec.patternFileShort.includes(o);
      if (!isText && !isFile) {
        known = false;
        break;
      }
      if (spec.patternShort.includes(o) || spec.patternFileShort.includes(o)) patternGiven = true;
      const glued = j < a.length - 1;
      if (isText) {
        // (A file glued to its option, `-fpats.txt`, stays in its word: the word is kept.)
        text.push(i);
        if (!glued && i + 1 < args.length && firstOperand < 0) text.push(i + 1);
      }
      if (!glued) i++;
      break;
    }
    if (!known) return unknown();
  }
  if (searches && !patternGiven && firstOperand >= 0 && args[firstOperand] !== null) {
    text.push(firstOperand);
  }
  return text;
}
