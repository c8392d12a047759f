/**
 * The other recursive searchers: ack (ack-grep), pt (the platinum searcher) and ugrep (ug). Each
 * searches the cwd's tree when it names no path (ugrep only with `-r`, `-R` or `-d recurse`, or
 * where its standard input is a terminal: `script -c`'s, `< /dev/tty`, `inputMayBeTerminal`; else
 * it reads standard input, as pi gives a command no terminal), and ack and pt search their
 * standard input instead where it is a pipe or a here-document (`searchesInput`), as ag does.
 * Their option grammars say which words are paths; an option a grammar does not know may take
 * the next word, and then no word is taken for a path (the cwd counts as read).
 *
 * What they run: ack's pager (`--pager=CMD`, any abbreviation Getopt::Long takes, and the
 * `--pager` of its settings: `~/.ackrc` or `$ACKRC`, `/etc/ackrc`, a project `.ackrc`,
 * `$ACK_OPTIONS`; `--noenv` leaves them all out), ugrep's `--filter=COMMANDS`, `--pager`,
 * `--view` and `-Q` (its query screen opens files in a viewer), and the settings ugrep reads
 * (`--config[=F]`, `---F`, and `ug`'s `.ugrep` in the cwd or the home) or writes
 * (`--save-config[=F]`): commands not known. pt runs none.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { SEARCHERS } from "./searchers.ts";
 * SEARCHERS[0].treesNamed!(["ack", "KEY", "src"].map(literal)); // true
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { readOptions } from "./argv.ts";
import { givesPattern, grammarOf, type SearchSpec, searchText } from "./search_text.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";
import { inputMayBeTerminal, searchesInput } from "./search_input.ts";
import { optionValue, unknownWord } from "./words.ts";
import { perlInteger } from "./option_numbers.ts";

/**
 * How one searcher reads its words: its options in one table (`spec`: which take a value, which
 * values are text, which give the pattern), and what some of them do.
 */
interface Searcher {
  spec: SearchSpec;
  /** Options after which it prints and ends, or lists names only (no file is searched). */
  nothing: RegExp;
  /** The options that make it follow the symlinks it meets below what it searches. */
  follows: ReadonlySet<string>;
  /** Options that make it search the cwd's tree where no path is named (ugrep's `-r`). */
  recursion?: (name: string, value: string | null) => boolean;
}

/** ack's long options with an optional integer (Getopt::Long `:i`: see ACK's `numbered`). */
const ACK_NUMBERED = new Set(["--after-context", "--before-context", "--context", "--proximate"]);

// deno-fmt-ignore
const ACK: Searcher = {
  spec: {
    flags: "iISvwxQ1cfhHlLnrRsoPk",
    textValued: "mtT",
    fileValued: "",
    patternShort: "g",
    patternFileShort: "",
    // (Getopt::Long's `:i`: the next word where it is an integer, `ack -A KEY f` searches f.)
    numbered: { short: "ABCp", long: ACK_NUMBERED, number: perlInteger },
    longFlags: new Set([
      "--ignore-case", "--smart-case", "--nosmart-case", "--no-smart-case", "--invert-match",
      "--word-regexp", "--line-regexp", "--literal", "--count", "--files-with-matches",
      "--files-without-matches", "--no-filename", "--with-filename", "--filename", "--nofilename",
      "--recurse", "--no-recurse", "--norecurse", "--follow", "--nofollow", "--no-follow",
      "--column", "--nocolumn", "--no-column", "--heading", "--noheading", "--no-heading",
      "--break", "--nobreak", "--no-break", "--group", "--nogroup", "--no-group", "--color",
      "--nocolor", "--no-color", "--colour", "--nocolour", "--sort-files", "--flush", "--print0",
      "--passthru", "--env", "--noenv", "--nopager", "--no-pager", "--ignore-ack-defaults",
      "--known-types", "--show-types", "--underline", "--nounderline", "--help", "--help-types",
      "--help-colors", "--help-rgb-colors", "--man", "--version", "--dump", "--create-ackrc",
      "--thpppt", "--bar", "--cathy", "--only-matching", "--not-proximate",
    ]),
    longText: new Set([
      "--max-count", "--type", "--type-del", "--ignore-dir", "--noignore-dir",
      "--ignore-directory", "--noignore-directory", "--output", "--range-start", "--range-end",
      "--color-filename", "--color-match", "--color-lineno", "--color-colno", "--and", "--or",
      "--not",
    ]),
    longFile: new Set([
      "--type-set", "--type-add", "--ignore-file", "--pager", "--ackrc", "--files-from",
    ]),
    longOptional: ACK_NUMBERED,
    longPattern: new Set(["--match"]),
    longPatternFile: new Set(),
    digits: false,
    // (`-f` lists the files it would search.)
    noPattern: new Set(["-f"]),
    abbreviations: true,
    permutes: true,
  },
  follows: new Set(["--follow"]),
  nothing: /^(?:-[fgh]|--(?:help.*|man|version|dump|create-ackrc|thpppt|bar|cathy))$/,
};

// deno-fmt-ignore
const PT: Searcher = {
  spec: {
    flags: "eiSwUclohN0",
    textValued: "ABC",
    fileValued: "G",
    patternShort: "g",
    patternFileShort: "",
    longFlags: new Set([
      "--ignore-case", "--smart-case", "--word-regexp", "--hidden", "--follow",
      "--global-gitignore", "--home-ptignore", "--skip-vcs-ignores", "--color", "--nocolor",
      "--group", "--nogroup", "--column", "--null", "--numbers", "--nonumbers",
      "--files-with-matches", "--count", "--only-matching", "--help", "--version", "--vimgrep",
    ]),
    longText: new Set([
      "--depth", "--after", "--before", "--context", "--color-line-number", "--color-match",
      "--color-path", "--output-encode",
    ]),
    longFile: new Set(["--file-search-regexp", "--ignore", "--vcs-ignore"]),
    longOptional: new Set(),
    longPattern: new Set(),
    longPatternFile: new Set(),
    digits: false,
    noPattern: new Set(),
    permutes: true,
  },
  follows: new Set(["--follow"]),
  nothing: /^(?:-[gh]|--(?:help|version))$/,
};

// deno-fmt-ignore
const UGREP: Searcher = {
  spec: {
    flags: "abcEFGHhIijkLlnoPpqRrSsTUuVvWwXxYyz0%+.@",
    // (`-N PATTERN` gives a pattern too: `ugrep -N a KEY f` searches KEY and f.)
    textValued: "ABCDdJKm",
    fileValued: "gMOt",
    patternShort: "eN",
    patternFileShort: "f",
    gluedText: "Z",
    gluedFile: "Q",
    longFlags: new Set([
      "--recursive", "--dereference-recursive", "--ignore-case", "--smart-case",
      "--no-smart-case", "--line-number", "--files-with-matches", "--files-without-match",
      "--count", "--fixed-strings", "--word-regexp", "--line-regexp", "--invert-match",
      "--hidden", "--no-hidden", "--heading", "--no-heading", "--version", "--only-matching",
      "--quiet", "--silent", "--no-messages", "--with-filename", "--no-filename", "--null",
      "--json", "--csv", "--xml", "--stats", "--decompress", "--perl-regexp", "--extended-regexp",
      "--basic-regexp", "--bool", "--ignore-binary", "--no-group-separator", "--column-number",
      "--byte-offset", "--initial-tab", "--line-buffered", "--binary", "--text", "--empty",
      "--no-dereference", "--dereference", "--break", "--no-break", "--files", "--match",
      "--any-line", "--free-space", "--split", "--no-confirm", "--ungroup", "--cpp",
    ]),
    longText: new Set([
      "--after-context", "--before-context", "--context", "--max-count", "--min-count",
      "--max-depth", "--min-depth", "--binary-files", "--directories", "--devices", "--label",
      "--format", "--replace", "--encoding", "--jobs", "--group-separator", "--range",
      "--max-files", "--zmax", "--separator", "--color", "--colour", "--colors", "--tabs",
      "--width", "--sort",
    ]),
    longFile: new Set([
      "--include", "--exclude", "--include-dir", "--exclude-dir", "--glob", "--iglob",
      "--file-type", "--file-extension", "--file-magic", "--include-from", "--exclude-from",
      "--include-fs", "--exclude-fs", "--exclude-size", "--include-size",
    ]),
    longOptional: new Set(["--pretty", "--fuzzy", "--hexdump", "--tag", "--hyperlink"]),
    longOptionalFile: new Set([
      "--ignore-files", "--mmap", "--help", "--tree", "--index", "--all", "--query",
    ]),
    longPattern: new Set(["--regexp", "--and", "--andnot", "--not", "--neg-regexp"]),
    longPatternFile: new Set(["--file"]),
    digits: true,
    noPattern: new Set(),
    permutes: true,
  },
  nothing: /^(?:-V|--(?:help|version))$/,
  follows: new Set(["-R", "-S", "--dereference-recursive", "--dereference"]),
  recursion: (name, value) =>
    /^(?:-[rR]|--(?:dereference-)?recursive)$/.test(name) ||
    (/^(?:-d|--directories)$/.test(name) && (value === null || /^(?:d?recurse)$/.test(value))),
};

/** What a searcher's words say: whether it searches, reads the cwd's tree, names a path. */
interface Reading {
  /** It searches no file (`--help`, `--version`, a listing of names). */
  nothing: boolean;
  /** Its paths, where every word could be read (null: not known). */
  paths: number | null;
  /** An option that makes it search the cwd's tree when no path is named. */
  recursive: boolean;
}

/** The words of `argv` under a searcher's grammar (see `Reading`). */
function readWords(s: Searcher, argv: Word[]): Reading {
  const values = argv.slice(1).map((w) =>
    w.kind === "static"
      ? w.value
      : w.kind === "glob" && w.listed === undefined && w.prefix !== "" && !w.prefix.startsWith("-")
      ? w.value
      : null
  );
  let operands = 0;
  let known = true;
  let pattern = false;
  let nothing = false;
  let recursive = false;
  for (const t of readOptions(values, grammarOf(s.spec))) {
    if (t.kind === "unknown" || t.kind === "dynamic") known = false;
    if (t.kind === "operand") operands++;
    if (t.kind !== "flag" && t.kind !== "valued") continue;
    if (givesPattern(s.spec, t)) pattern = true;
    if (s.nothing.test(t.name)) nothing = true;
    const value = t.glued ?? (t.valueAt === undefined ? null : values[t.valueAt]);
    if (s.recursion?.(t.name, value)) recursive = true;
  }
  const paths = known ? Math.max(0, operands - (pattern ? 0 : 1)) : null;
  return { nothing: nothing && known, paths, recursive: recursive || !known };
}

/** Whether a searcher named no path reads the cwd's tree (not its standard input). */
function readsCwd(s: Searcher): (argv: Word[], stage?: Stage) => boolean {
  return (argv, stage) => {
    const r = readWords(s, argv);
    if (r.nothing) return false;
    // (ugrep with no `-r` searches the cwd's tree where its input is a terminal.)
    if (s.recursion) return r.recursive || (stage !== undefined && inputMayBeTerminal(stage));
    return r.paths === null || !searchesInput(stage);
  };
}

/** ack's pager and settings (see the module's doc). */
function ackRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const values = args.map((w) => (w.kind === "static" ? w.value : null));
  let env = true;
  for (const t of readOptions(values, grammarOf(ACK.spec))) {
    // (An option not known whole may be `--pager=$CMD`.)
    if (t.kind === "dynamic" && args[t.at].prefix.startsWith("-")) {
      run.stage([unknownWord(args[t.at].text)], "ack");
    }
    if (t.name === "--noenv") env = false;
    if (t.name !== "--pager" && t.name !== "--ackrc") continue;
    const value = optionValue(t, args);
    if (value?.kind !== "static") run.stage([unknownWord(`(${t.name}'s value)`)], "ack");
    else if (t.name === "--pager") run.shell(value, "ack --pager");
    else ackSettings([value.value], run);
  }
  if (!env) return;
  const home = run.home(null);
  const user = run.variable("ACKRC") ?? (home === null ? null : `${home}/.ackrc`);
  ackSettings([user, "/etc/ackrc", ".ackrc"], run);
  const options = run.variable("ACK_OPTIONS");
  if (options !== undefined && /--pa/.test(options)) {
    run.stage([unknownWord("(the pager $ACK_OPTIONS names)")], "ack");
  }
}

/** The pager an ackrc file names: a command not known (a file not known may name one). */
function ackSettings(files: (string | null)[], run: Runner): void {
  for (const f of files) {
    const text = f === null ? null : run.settings(f);
    if (text === null || /^\s*--pa/m.test(text)) {
      run.stage([unknownWord(`(the pager ${f ?? "~/.ackrc"} names)`)], "ack");
    }
  }
}

/** Options of ugrep that run programs or read or write its settings. */
const UGREP_RUNS =
  /^(?:-Q|--(?:filter|pager|view|query|config|save-config)(?:=|$)|---)|^-[a-zA-Z0-9%+.@]*Q/;

/** ugrep's filters, pager, viewer and settings (see the module's doc). */
function ugrepRuns(stage: Stage, run: Runner): void {
  const argv = stage.argv;
  for (const w of argv.slice(1)) {
    if (w.kind !== "static" || UGREP_RUNS.test(w.value)) {
      if (w.kind === "static" || w.prefix.startsWith("-")) {
        run.stage([unknownWord(`(what ${w.text} has ugrep run)`)], "ugrep");
      }
    }
  }
  const name = argv[0].value.slice(argv[0].value.lastIndexOf("/") + 1);
  // (ugrep+ and ug+ filter documents through programs of their own: pdftotext, pandoc, …)
  if (name.endsWith("+")) run.stage([unknownWord(`(the filters ${name} runs)`)], name);
  // (`ug` reads `.ugrep` in the cwd, else in the home: its filters and viewer.)
  if (
    name.startsWith("ug") && !name.startsWith("ugrep") &&
    !argv.some((w) => w.value === "--no-config")
  ) {
    const home = run.home(null);
    for (const f of [".ugrep", home === null ? null : `${home}/.ugrep`]) {
      const text = f === null ? null : run.settings(f);
      if (text === null || /^\s*(?:filter|pager|view|query|config)\b/m.test(text)) {
        run.stage([unknownWord(`(what ${f ?? "~/.ugrep"} has ug run)`)], "ug");
      }
    }
  }
}

/**
 * The files ack reads by a list (`-x`: names read from standard input; `--files-from=F`, any
 * abbreviation): files not known.
 */
function ackLists(argv: Word[]): NamedFile[] {
  const values = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  for (const t of readOptions(values, grammarOf(ACK.spec))) {
    if (t.kind === "end") break;
    if (t.name === "-x") return [{ path: null, source: "ack -x", fromInput: true }];
    if (t.name === "--files-from" || t.kind === "unknown" || t.kind === "dynamic") {
      return [{ path: null, source: "ack --files-from" }];
    }
  }
  return [];
}

/** A searcher's program entry. */
function searcher(names: string[], s: Searcher, runs?: Program["runs"]): Program {
  return {
    names,
    options: grammarOf(s.spec),
    // (Its pattern and the values of `spec`'s text options; none where an option is not known.)
    text: (argv) =>
      searchText(s.spec, argv.slice(1).map((w) => (w.kind === "static" ? w.value : null)))
        .map((at) => at + 1),
    treesNamed: (argv) => (readWords(s, argv).paths ?? 0) > 0,
    readsCwd: readsCwd(s),
    followsLinks: (argv) =>
      readOptions(
        argv.slice(1).map((w) => (w.kind === "static" ? w.value : null)),
        grammarOf(s.spec),
      )
        .some((t) => s.follows.has(t.name)),
    ...(runs ? { runs } : {}),
  };
}

/** ack, pt, ugrep. */
export const SEARCHERS: Program[] = [
  { ...searcher(["ack", "ack-grep"], ACK, ackRuns), namedFiles: ackLists },
  searcher(["pt"], PT),
  searcher(["ugrep", "ug", "ugrep+", "ug+"], UGREP, ugrepRuns),
];
