/**
 * The search programs grep (egrep, fgrep), rg and ag (its own module, ag.ts): the grammar that says which of their
 * arguments are text (the pattern, `-e`, `--include=*.ts`) and which stay files (`-f pats`), rg's
 * options that run a program (`--pre`), what keeps their `$safe-bash` patterns read-only, and the
 * file names `grep -l` prints (for `grep -rl X src | xargs …`).
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { hasOption, type OptionToken, readOptions } from "./argv.ts";
import { optionCommands } from "./option_commands.ts";
import { namedBelow } from "./find.ts";
import {
  givesPattern,
  grammarOf,
  optionValues,
  type SearchSpec,
  searchTextOf,
} from "./search_text.ts";
import type { Listing, Program, Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";
import { AG_PROGRAM } from "./ag.ts";
import { type LineFilter, passedLines } from "./line_filters.ts";
import { searchesInput } from "./search_input.ts";

/**
 * grep's options that leave each line it prints as it read it: those its line filter takes
 * (`GREP_FILTER`: `find . | grep -v test | xargs …` prints paths of find's listing).
 */
// deno-fmt-ignore
const KEEPS_LINES = {
  flags: "vEFGPiwxsqhaUI",
  textValued: "m",
  longFlags: [
    "--invert-match", "--extended-regexp", "--fixed-strings", "--basic-regexp", "--perl-regexp",
    "--ignore-case", "--no-ignore-case", "--word-regexp", "--line-regexp", "--no-messages",
    "--quiet", "--silent", "--no-filename", "--text",
  ],
  longText: ["--max-count"],
};

/** grep's options, one table for every reader (the text, the targets, the listing, the filter). */
const GREP: SearchSpec = {
  flags: KEEPS_LINES.flags + "yzVbnHoRrLlcTZ",
  textValued: KEEPS_LINES.textValued + "ABCdD",
  fileValued: "",
  patternShort: "e",
  patternFileShort: "f",
  // deno-fmt-ignore
  longFlags: new Set([
    ...KEEPS_LINES.longFlags, "--null-data", "--version", "--help", "--byte-offset",
    "--line-number", "--no-line-number", "--line-buffered", "--with-filename", "--only-matching",
    "--recursive", "--dereference-recursive", "--files-without-match", "--files-with-matches",
    "--count", "--initial-tab", "--null", "--binary", "--no-group-separator",
  ]),
  // deno-fmt-ignore
  longText: new Set([
    ...KEEPS_LINES.longText, "--label", "--binary-files", "--directories", "--devices",
    "--include", "--exclude", "--exclude-dir", "--before-context", "--after-context", "--context",
    "--group-separator",
  ]),
  longFile: new Set(["--exclude-from"]),
  longOptional: new Set(["--color", "--colour"]),
  longPattern: new Set(["--regexp"]),
  longPatternFile: new Set(["--file"]),
  digits: true,
  noPattern: new Set(),
  // (GNU grep reads its options with getopt_long: `--recu` is `--recursive`.)
  abbreviations: true,
};

const RG: SearchSpec = {
  flags: "abcFhHIiLlNnoPpqSsUuVvwxz0.",
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
    "--no-require-git", "--version", "--help", "--pcre2-version",
  ]),
  // deno-fmt-ignore
  longText: new Set([
    "--glob", "--iglob", "--type", "--type-not", "--type-add", "--type-clear", "--max-count",
    "--after-context", "--before-context", "--context", "--max-columns", "--threads",
    "--max-depth", "--max-filesize", "--encoding", "--engine", "--replace", "--sort", "--sortr",
    "--colors", "--context-separator", "--path-separator", "--pre-glob", "--dfa-size-limit",
    "--regex-size-limit", "--field-context-separator", "--field-match-separator",
    "--hyperlink-format", "--generate",
  ]),
  longFile: new Set(["--ignore-file", "--pre", "--hostname-bin"]),
  longOptional: new Set(["--color"]),
  longPattern: new Set(["--regexp"]),
  longPatternFile: new Set(["--file"]),
  digits: false,
  noPattern: new Set(["--files", "--type-list"]),
};

/** grep's options that make it print file names (one to a line), and those it may list with. */
const NAMES_ONLY = new Set(["-l", "-L", "--files-with-matches", "--files-without-match"]);
/** Options that change what a `grep -l` prints: a count, a label for standard input. */
const NOT_NAMES = new Set(["-c", "--count", "--label"]);

/**
 * What `grep -l`/`-L` prints: the names of files among its operands, or below those it searches
 * recursively (`grep -rl X src` prints `src/…`, `grep -rl X` paths below `.`). Null when it may
 * print anything else: no `-l`/`-L`, a count, standard input, an option or operand not known.
 */
function grepListing(stage: Stage): Listing[] | null {
  const args = stage.argv.slice(1);
  // (Static words, and options that are globs to bash: `--include=*.py` stays as written. A glob
  // operand, or paths another program listed for it, stand for the files they name.)
  const read = optionValues(stage.argv, 1).map((v, i) =>
    v ?? (namesFiles(args[i]) ? args[i].value : null)
  );
  if (read.some((v) => v === null)) return null;
  const values = read as string[];
  let names = false;
  let recursive = false;
  let follows = false;
  let patternGiven = false;
  const operands: number[] = [];
  for (const t of readOptions(values, grammarOf(GREP))) {
    if (t.kind === "unknown" || t.kind === "dynamic") return null;
    if (t.kind === "operand") operands.push(t.at);
    if (t.kind !== "flag" && t.kind !== "valued") continue;
    if (NOT_NAMES.has(t.name)) return null;
    if (NAMES_ONLY.has(t.name)) names = true;
    if (recursion(t, values)) recursive = true;
    if (/^-R$|^--dereference-recursive$/.test(t.name)) follows = true;
    if (givesPattern(GREP, t)) patternGiven = true;
  }
  if (!names) return null;
  const files = patternGiven ? operands : operands.slice(1);
  // (`-` is standard input: its name is printed as a label; with no file and no -r, grep reads
  // standard input too.)
  if (files.some((i) => values[i] === "-") || (!files.length && !recursive)) return null;
  if (!recursive) {
    // The names printed are operands themselves: each file by its own name.
    return files.map((i) => ({ under: args[i], exact: true }));
  }
  // One `--include=GLOB` filters the names below (as find's `-name` does).
  const include = values.filter((v) => v.startsWith("--include="));
  const glob = include.length === 1 && !values.some((v) => v.startsWith("--exclude"))
    ? include[0].slice("--include=".length)
    : undefined;
  // (A glob with a `/` is no base name to filter by: then no filter is said.)
  const filter = glob?.includes("/") ? undefined : glob;
  const roots = files.length ? files.map((i) => args[i]) : [literal(".")];
  const listings = roots.flatMap((under) => namedBelow(under, filter));
  // -r skips the symlinks it meets below its operands (-R follows them); an operand that is a
  // glob or another program's path may be a link itself, which -r follows.
  if (!follows && roots.every((w) => w.kind === "static" && !w.listed)) {
    for (const l of listings) l.noLinks = true;
  }
  // (With no path, `grep -rl X` prints the names below the cwd as they are: `-x`.)
  if (!files.length) { for (const l of listings) l.bare = true; }
  return listings;
}

/**
 * Whether an option of grep's makes it read the directories it is given (or the cwd) as trees:
 * `-r`, `-R`, their long names, `-d recurse` (`--directories=recurse`, the value abbreviated as
 * argmatch takes it: `rec`), or `-d` given a value not known.
 */
function recursion(t: OptionToken, values: readonly (string | null)[]): boolean {
  if (/^-[rR]$|^--(dereference-)?recursive$/.test(t.name)) return true;
  if (t.name !== "-d" && t.name !== "--directories") return false;
  const value = t.glued ?? (t.valueAt === undefined ? "" : values[t.valueAt]);
  return value === null || (value.length >= 3 && "recurse".startsWith(value));
}

/** Whether grep reads trees (see `recursion`). */
function grepRecursive(argv: Word[]): boolean {
  const values = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  return readOptions(values, grammarOf(GREP)).some((t) => recursion(t, values));
}

/**
 * Whether a search names the paths it reads (`grep -R x src`, `rg KEY src/*.ts`): an operand after
 * the pattern (or any, with `-e`/`-f`/`--files`); without one it searches the cwd. A glob counts
 * as the paths it matches where it cannot be an option (under nullglob one that matches nothing is
 * no word: `StageShared.operands`); paths another program lists do not (xargs given none still
 * runs `rg KEY`). False where a word is not known.
 */
function pathsGiven(argv: Word[], spec: SearchSpec): boolean {
  const values = argv.slice(1).map((w) =>
    w.kind === "static" ? w.value : globOperand(w) ? w.value : null
  );
  let operands = 0;
  let patternGiven = false;
  for (const t of readOptions(values, grammarOf(spec))) {
    if (t.kind === "unknown" || t.kind === "dynamic") return false;
    if (t.kind === "operand") operands++;
    // (rg's `--files` takes no pattern: every operand is a path.)
    if (givesPattern(spec, t) || t.name === "--files") patternGiven = true;
  }
  return operands > (patternGiven ? 0 : 1);
}

/** A glob that names paths, not options: it starts with text that is no option's (`src/*.ts`). */
function globOperand(w: Word): boolean {
  return w.kind === "glob" && w.listed === undefined && w.prefix !== "" &&
    !w.prefix.startsWith("-");
}

/** rg's options that end it before it searches: its help, version, and generated texts. */
const RG_SPECIAL = /^(?:-[hV]|--(?:help|version|pcre2-version|generate))$/;

/**
 * Whether rg, named no path (`treesNamed` false), reads the files below the cwd: not with
 * `--help`, `--version`, `--generate` (it prints and ends), `--type-list` or `--files` (names
 * only); not where it searches its standard input instead (a pipe, a here-document:
 * `searchesInput`), unless `-f -` reads its patterns from there (then the cwd).
 */
function rgReadsCwd(argv: Word[], stage?: Stage): boolean {
  const values = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  let consumed = false;
  for (const t of readOptions(values, grammarOf(RG))) {
    // (A word not known may be any option: `-f-`, or none at all.)
    if (t.kind === "unknown" || t.kind === "dynamic") return true;
    if (t.kind !== "flag" && t.kind !== "valued") continue;
    if (RG_SPECIAL.test(t.name) || t.name === "--type-list" || t.name === "--files") return false;
    if (t.name === "-f" || t.name === "--file") {
      const value = t.glued ?? (t.valueAt === undefined ? null : values[t.valueAt]);
      if (value === null || /^(?:-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/.test(value)) {
        consumed = true;
      }
    }
  }
  return consumed || !searchesInput(stage);
}

/** rg's options that make it print file names only, and those that print more with them. */
const RG_NAMES = new Set(["-l", "--files-with-matches", "--files-without-match", "--files"]);
const RG_MORE = new Set([
  "-c",
  "--count",
  "--count-matches",
  "--json",
  "--stats",
  "--debug",
  "--trace",
]);

/**
 * What `rg -l` (`--files-without-match`, `--files`) prints: paths below the directories it
 * searches (its operands after the pattern, else the cwd), skipping the symlinks it meets unless
 * `-L`. Null when it may print anything else.
 */
function rgListing(stage: Stage): Listing[] | null {
  const args = stage.argv.slice(1);
  const values = optionValues(stage.argv, 1);
  if (values.some((v) => v === null)) return null;
  let names = false;
  let files = false;
  let follows = false;
  let patternGiven = false;
  let hidden = 0; // (`--hidden`, `-.`; `-uu`: `-u` twice)
  const operands: number[] = [];
  for (const t of readOptions(values as string[], grammarOf(RG))) {
    if (t.kind === "unknown" || t.kind === "dynamic") return null;
    if (t.kind === "operand") operands.push(t.at);
    if (t.kind !== "flag" && t.kind !== "valued") continue;
    if (RG_MORE.has(t.name)) return null;
    if (RG_NAMES.has(t.name)) names = true;
    if (t.name === "--files") files = true;
    if (t.name === "-L" || t.name === "--follow") follows = true;
    if (givesPattern(RG, t)) patternGiven = true;
    if (t.name === "--hidden" || t.name === "-.") hidden += 2;
    if (t.name === "-u" || t.name === "--unrestricted") hidden++;
  }
  if (!names) return null;
  const roots = (files || patternGiven ? operands : operands.slice(1)).map((i) => args[i]);
  if (roots.some((w) => w.value === "-")) return null;
  const listings = (roots.length ? roots : [literal(".")]).flatMap((under) =>
    namedBelow(under, undefined)
  );
  if (!follows && roots.every((w) => w.kind === "static" && !w.listed)) {
    for (const l of listings) l.noLinks = true;
  }
  // (It skips hidden files and directories below what it searches unless told not to.)
  if (hidden < 2) { for (const l of listings) l.noHidden = true; }
  // (With no path, rg prints the names below the cwd as they are: `-x`.)
  if (!roots.length) { for (const l of listings) l.bare = true; }
  return listings;
}

/**
 * How far rg reads hidden files: 2 and more with `--hidden`, `-.` or `-uu` (`-u` twice), which
 * search `.git` too; an option not read counts as that.
 */
function rgHidden(argv: Word[]): number {
  const values = optionValues(argv, 1);
  if (values.some((v) => v === null)) return 2;
  let hidden = 0;
  for (const t of readOptions(values as string[], grammarOf(RG))) {
    if (t.kind === "unknown" || t.kind === "dynamic") return 2;
    if (t.kind !== "flag" && t.kind !== "valued") continue;
    if (t.name === "--hidden" || t.name === "-.") hidden += 2;
    if (t.name === "-u" || t.name === "--unrestricted") hidden++;
    if (t.name === "--no-hidden") hidden = 0;
  }
  return hidden;
}

/**
 * A word that names files which grep prints as they are named: a glob (its matches) or paths a
 * program listed (`find src | xargs grep -l x`), when it cannot be read as an option.
 */
function namesFiles(w: Word): boolean {
  return (w.kind === "glob" || w.listed !== undefined) && !w.value.startsWith("-") &&
    w.prefix !== "" && !w.prefix.startsWith("-");
}

/**
 * The values of the options of `spec` named `names` (`--include=*.env`, `-g .env`), read as the
 * program reads its options; a `!` glob excludes, and names none.
 */
function includes(spec: SearchSpec, names: ReadonlySet<string>): (argv: Word[]) => string[] {
  return (argv) => {
    const args = argv.slice(1);
    const values = optionValues(argv, 1);
    const out: string[] = [];
    for (const t of readOptions(values, grammarOf(spec))) {
      if (t.kind !== "valued" || !names.has(t.name)) continue;
      const value = t.glued ?? (t.valueAt === undefined ? undefined : values[t.valueAt]);
      // (A value not known may name anything: every name.)
      if (value === null || (t.valueAt !== undefined && args[t.valueAt].kind !== "static")) {
        out.push("*");
      } else if (t.name === "--type-add" && value !== undefined) {
        // `NAME:GLOB,GLOB` defines a type whose files `-t NAME` reads (`NAME:include:…` joins
        // types already defined: their names are no protected ones).
        const globs = value.slice(value.indexOf(":") + 1);
        if (!globs.startsWith("include:")) out.push(...globs.split(","));
      } else if (value !== undefined && !value.startsWith("!")) {
        out.push(value);
        // (rg's `--iglob` matches in any case.)
        if (t.name === "--iglob") out.push(value.toLowerCase(), value.toUpperCase());
      }
    }
    // (`--include=$X`: a value not known may name anything.)
    for (const w of args) {
      if (w.kind === "dynamic" && [...names].some((n) => w.prefix.startsWith(n))) out.push("*");
    }
    return out;
  };
}

const rgIncludes = includes(RG, new Set(["-g", "--glob", "--iglob", "--type-add"]));

/**
 * The names the lines grep prints surely end in, for a pattern that is an extension at the end
 * (`\.ts$`, with `-E` or `-P` `\.(ts|tsx)$`) and no option that inverts, folds case or reads it
 * as fixed text: `*.ts`, `.*.ts` and `.ts` (a hidden name ends so too, and a name that is the
 * extension alone). Null otherwise.
 */
function grepNames(values: string[]): string[] | null {
  if (values.some((v) => /^-[a-zA-Z]*[vFiwx]|^--(invert|fixed|ignore-case|word|line)/.test(v))) {
    return null;
  }
  const extended = values.some((v) => /^-[a-zA-Z]*[EP]|^--(extended|perl)/.test(v));
  const words = values.filter((v) => !v.startsWith("-"));
  if (words.length !== 1) return null;
  const m = /^\\\.([A-Za-z0-9]+)\$$/.exec(words[0]) ??
    (extended ? /^\\\.\(([A-Za-z0-9]+(?:\|[A-Za-z0-9]+)*)\)\$$/.exec(words[0]) : null);
  if (!m) return null;
  return m[1].split("|").flatMap((e) => [`*.${e}`, `.*.${e}`, `.${e}`]);
}

/**
 * grep reading its input: which lines match (`-v` those that do not), printed as they are; not
 * `-o`, `-n`, `-c`, `-b`, `-H`, `-Z`, context lines, `-r`, colour, or a file operand.
 */
const GREP_FILTER: LineFilter = {
  grammar: {
    flags: KEEPS_LINES.flags,
    valued: GREP.patternShort + KEEPS_LINES.textValued,
    longFlags: new Set(KEEPS_LINES.longFlags),
    longValued: new Set([...GREP.longPattern, ...KEEPS_LINES.longText]),
  },
  pattern: new Set(["-" + GREP.patternShort, ...GREP.longPattern]),
  names: grepNames,
};

/** rg's options that name a program it runs (`--pre CMD`, `--hostname-bin PROG`). */
const RG_RUNS = { "--pre": "program", "--hostname-bin": "program" } as const;

/** The programs rg's options name (`RG_RUNS`). */
const rgCommands = optionCommands({
  shortWithArg: grammarOf(RG).valued!,
  long: RG_RUNS,
  exact: true,
});

/**
 * What a ripgrep config file does (`RIPGREP_CONFIG_PATH=F`, before rg, exported or given by
 * env): one argument a line (trimmed; blank lines and `#` lines skipped), put before the
 * command's own. Set before rg (`command`, its words), rg given both is judged, with rg's whole
 * reader: the files its options name (`--file`, `--ignore-file`), the programs they run
 * (`--pre`, `--hostname-bin`), the paths it searches and the links it follows; and a command
 * word the file makes a path (after its `-e`, `-f`, `--files` or an operand: `rg KEY` searches
 * `KEY`) is one. Set for rgs not seen, the file's options are judged so where they leave the
 * command's words as they are (given a pattern and `/dev/null`), and are options not known
 * where they do not. `--no-config` among the command's options: none read. A file not readable
 * as it will be (another stage may write it, a name not known) is options not known.
 */
export function rgConfig(file: Word, run: Runner, origin: string, command?: Word[]): void {
  const rg = command !== undefined && command[0]?.kind === "static" &&
    /(?:^|\/)rg$/.test(command[0].value);
  if (rg && hasOption(command, grammarOf(RG), ["--no-config"])) return;
  const text = file.kind === "static" ? run.settings(file.value) : null;
  if (text === null) {
    run.stage([unknownWord(`(the options the file ${file.text} gives rg)`)], origin);
    return;
  }
  const args = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  if (!args.length) return;
  if (rg) {
    run.stage([command[0], ...args.map(literal), ...command.slice(1)], origin);
    return;
  }
  for (const t of readOptions(args, grammarOf(RG))) {
    if (t.kind === "flag" || t.kind === "valued" ? RG_SHIFTS.test(t.name) : t.kind !== "end") {
      run.stage([unknownWord(`(what the options in ${file.text} make rg read)`)], origin);
      return;
    }
  }
  run.stage([
    literal("rg"),
    ...args.map(literal),
    literal("-e"),
    literal("x"),
    literal("/dev/null"),
  ], origin);
}

/**
 * Options of a config file that change what the command's own words are, or what rg reads
 * below its paths: a pattern given (then its first word is a path), names only, links followed.
 */
const RG_SHIFTS = /^(?:-[efL]|--(?:regexp|file|files|type-list|follow))$/;

/** The search programs. */
export const SEARCH_PROGRAMS: Program[] = [
  {
    names: ["grep", "egrep", "fgrep"],
    // (Its grammar reads a value glued to an option: `grep -f0` reads the patterns of `0`.)
    options: grammarOf(GREP),
    text: searchTextOf(GREP),
    treeNames: includes(GREP, new Set(["--include"])),
    lists: (stage, listingOf) => grepListing(stage) ?? passedLines(stage, listingOf, GREP_FILTER),
    followsLinks: (argv) => hasOption(argv, grammarOf(GREP), ["-R", "--dereference-recursive"]),
    treesNamed: (argv) => pathsGiven(argv, GREP),
    readsCwd: grepRecursive,
  },
  {
    names: ["rg"],
    options: grammarOf(RG),
    text: searchTextOf(RG),
    // (`--files` only lists the names.)
    treeNames: (argv) =>
      argv.some((w) => w.kind === "static" && w.value === "--files") ? [] : rgIncludes(argv),
    followsLinks: (argv) => hasOption(argv, grammarOf(RG), ["-L", "--follow"]),
    treesNamed: (argv) => pathsGiven(argv, RG),
    readsCwd: rgReadsCwd,
    lists: rgListing,
    // (Hidden files and directories, `.git` among them, unless `--hidden`, `-.`, `-uu`.)
    skipsGitDir: (argv) => rgHidden(argv) < 2,
    optionCommands: rgCommands,
    // (`-z` runs the decompressors.)
    readOnly: { "": { short: "z", long: [...Object.keys(RG_RUNS), "--search-zip"] } },
  },
  AG_PROGRAM,
];
