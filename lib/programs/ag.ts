/**
 * ag, the silver searcher, read as it reads its words (the_silver_searcher's options.c,
 * getopt_long): its pattern and the option values that are text (`-G REGEX`, `--ignore PAT`),
 * the paths it searches (its operands after the pattern; none: the cwd, as a tree), the files it
 * reads (`-p FILE`, its ignore file: a path as written), the pager it runs (`--pager CMD`, by
 * popen: shell text) and the links it follows (`-f`, `--follow`). `-z` reads compressed files
 * itself (zlib, lzma): no program runs.
 *
 * Its quirks: `-A`, `-B` and `-C` take the next word only where it is a number (`ag -A KEY`
 * searches for KEY, `ag -A 3 KEY` prints three lines after); `-g PATTERN` lists the names that
 * match and takes every operand as a path; long options may be abbreviated, and its file types
 * are long options too (`--ts`, `--html`), none of them the start of an option that takes a
 * value.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { agRead } from "./ag.ts";
 * agRead(["ag", "-A", "3", "KEY", "src"].map(literal))?.paths; // [4]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { hasOption, type OptionGrammar } from "./argv.ts";
import { optionCommands } from "./option_commands.ts";
import type { Program } from "./spec.ts";
import { searchesInput } from "./search_input.ts";
import { cLong } from "./option_numbers.ts";

/** ag's short options without a value. */
const AG_FLAGS = "aDFfHhiLlnoQRrSsvVtuUwz0c";
/** Short options whose value is required: the rest of the word, or the next word. */
const AG_VALUED = "GgmpW";
/** Short options that take the next word only where it is a number (or the rest of the word). */
const AG_NUMBERED = "ABC";

/** Long options with a required value (`--opt=v` or the next word). */
// deno-fmt-ignore
const AG_LONG_VALUED = new Set([
  "--ackmate-dir-filter", "--color-line-number", "--color-match", "--color-path", "--depth",
  "--filename-pattern", "--file-search-regex", "--ignore", "--ignore-dir", "--max-count",
  "--pager", "--path-to-ignore", "--width", "--workers",
]);
/** Long options whose value is optional, given only after `=`. */
const AG_LONG_OPTIONAL = new Set(["--after", "--before", "--context"]);
/** Long options without a value (its file types, `--ts`, are more). */
// deno-fmt-ignore
const AG_LONG_FLAGS = new Set([
  "--ackmate", "--affinity", "--all-text", "--all-types", "--break", "--case-sensitive", "--color",
  "--color-win-ansi", "--column", "--count", "--debug", "--filename", "--files-with-matches",
  "--files-without-matches", "--fixed-strings", "--follow", "--group", "--heading", "--help",
  "--hidden", "--ignore-case", "--invert-match", "--line-numbers", "--list-file-types",
  "--literal", "--match", "--mmap", "--multiline", "--no-affinity", "--noaffinity", "--no-break",
  "--nobreak", "--no-color", "--nocolor", "--no-filename", "--nofilename", "--no-follow",
  "--nofollow", "--no-group", "--nogroup", "--no-heading", "--noheading", "--no-mmap", "--nommap",
  "--no-multiline", "--nomultiline", "--no-numbers", "--nonumbers", "--no-pager", "--nopager",
  "--no-recurse", "--norecurse", "--null", "--numbers", "--only-matching", "--one-device",
  "--parallel", "--passthrough", "--passthru", "--print0", "--print-all-files",
  "--print-long-lines", "--recurse", "--search-binary", "--search-files", "--search-zip",
  "--silent", "--skip-vcs-ignores", "--smart-case", "--stats", "--stats-only", "--unrestricted",
  "--version", "--vimgrep", "--word-regexp",
]);

/**
 * ag's grammar for the readers that share one (the `$safe-bash` check, `-f`): `-A`, `-B`, `-C`
 * take the next word only where strtol reads it whole as a `long` (`cLong`), so another is read
 * as ag reads it, an option (`ag -A --pager=sh x`); its file types are options it does not list.
 */
export const AG: OptionGrammar = {
  flags: AG_FLAGS,
  valued: AG_VALUED,
  numbered: { short: AG_NUMBERED, number: cLong },
  longFlags: AG_LONG_FLAGS,
  longValued: AG_LONG_VALUED,
  longOptional: AG_LONG_OPTIONAL,
  abbreviations: "all",
};

/** What ag's words are (indexes into the argv). */
export interface AgReading {
  /** The paths it searches (none: the cwd). */
  paths: number[];
  /** Words that are text: the pattern, and the values of options that are patterns or numbers. */
  text: number[];
  /**
   * It searches file contents (not `-g`, which lists names; not `--help`, `--version`; not
   * without a pattern, unless `-l`).
   */
  searches: boolean;
  /**
   * It searches the paths it is given even where standard input is a pipe or a file:
   * `--search-files`, and `--ackmate`, `--vimgrep`, `--parallel`, which turn the stream off.
   */
  files: boolean;
}

/** The options after which ag does not search its standard input (`AgReading.files`). */
const NO_STREAM = new Set(["--search-files", "--ackmate", "--vimgrep", "--parallel"]);

/**
 * The long option `written` (`--name`, without `=value`) names: in full, or the one option it
 * begins (`--pag`); "valued" where it begins several and one takes a value (ag then stops: it is
 * taken to consume the next word, which keeps that word from being an operand); null where it
 * begins none (one of ag's file types, `--ts`: a flag).
 */
function longName(written: string): string | null {
  if (AG_LONG_VALUED.has(written) || AG_LONG_FLAGS.has(written)) return written;
  if (AG_LONG_OPTIONAL.has(written)) return written;
  const all = [...AG_LONG_VALUED, ...AG_LONG_OPTIONAL, ...AG_LONG_FLAGS];
  const begun = all.filter((n) => n.startsWith(written));
  if (begun.length === 1) return begun[0];
  return begun.some((n) => AG_LONG_VALUED.has(n)) ? "valued" : null;
}

/**
 * A word of the argv as the reader takes it: its value when static; a glob or listed paths
 * (not an option: no leading `-`) as an operand (""); null for any other.
 */
function valueOf(w: Word): string | null {
  if (w.kind === "static") return w.value;
  const operand = (w.kind === "glob" || w.listed !== undefined) && w.prefix !== "" &&
    !w.prefix.startsWith("-");
  return operand ? "" : null;
}

/** ag's words read (see `AgReading`); null where one cannot be (a word not known, a letter). */
export function agRead(argv: Word[]): AgReading | null {
  const values = argv.map(valueOf);
  const operands: number[] = [];
  const text: number[] = [];
  let names = false;
  let other = false;
  let lists = false;
  let files = false;
  let options = true;
  for (let i = 1; i < values.length; i++) {
    const v = values[i];
    if (v === null) return null;
    if (!options || v === "" || v === "-" || !v.startsWith("-")) {
      operands.push(i);
      continue;
    }
    if (v === "--") {
      options = false;
      continue;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = longName(eq > 0 ? v.slice(0, eq) : v);
      if (name === "--filename-pattern") names = true;
      if (name !== null && NO_STREAM.has(name)) files = true;
      if (name === "--help" || name === "--version" || name === "--list-file-types") other = true;
      const valued = name === "valued" || (name !== null && AG_LONG_VALUED.has(name));
      // (Its value is text but for the ignore file it reads and the pager it runs; a word an
      // option not known takes stays a path.)
      const isText = name !== null && name !== "valued" && name !== "--path-to-ignore" &&
        name !== "--pager";
      if (name === "--files-with-matches") lists = true;
      if (eq > 0) {
        if (isText && (valued || AG_LONG_OPTIONAL.has(name!))) text.push(i);
      } else if (valued) {
        if (isText) text.push(i, i + 1);
        i++;
      }
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j];
      if (c === "l") lists = true;
      if (c === "h" || c === "V") other = true;
      if (AG_FLAGS.includes(c)) continue;
      if (!AG_VALUED.includes(c) && !AG_NUMBERED.includes(c)) return null;
      if (c === "g") names = true;
      const isText = c !== "p";
      if (j < v.length - 1) {
        if (isText) text.push(i);
      } else if (AG_VALUED.includes(c) || cLong(values[i + 1] ?? "")) {
        // (`-A`'s next word is its value where strtol reads it whole, with no overflow; else ag
        // reads it again: `-A 99999999999999999999` is no number.)
        if (isText) text.push(i, i + 1);
        i++;
      }
      break;
    }
  }
  // (With `-g` every operand is a path: the pattern is its value.)
  const pattern = names ? [] : operands.slice(0, 1);
  for (const at of pattern) if (values[at] !== "") text.push(at);
  return {
    paths: names ? operands : operands.slice(1),
    text: text.filter((at) => at < argv.length),
    // (With no pattern it stops, but with `-l`: it lists the files of the cwd that hold any.)
    searches: !names && !other && (operands.length > 0 || lists),
    files,
  };
}

/**
 * Whether ag, named no path, searches the cwd's tree: where it searches (`AgReading.searches`)
 * and its standard input is not one it reads instead (a pipe, a here-document: `searchesInput`),
 * or an option turns that stream off.
 */
function agReadsCwd(argv: Word[], stage?: Stage): boolean {
  const read = agRead(argv);
  if (read === null) return true;
  return read.searches && (read.files || !searchesInput(stage));
}

/** `--pager CMD`: ag opens it with popen (`sh -c`), writing what it prints to it. */
const agCommands = optionCommands({
  shortWithArg: AG_VALUED,
  long: { "--pager": "shell" },
});

/** ag. */
export const AG_PROGRAM: Program = {
  names: ["ag"],
  options: AG,
  text: (argv) => agRead(argv)?.text ?? [],
  followsLinks: (argv) => hasOption(argv, AG, ["-f", "--follow"]),
  // (Paths another program lists may be none: xargs then runs `ag KEY` on `/dev/null`.)
  treesNamed: (argv) => agRead(argv)?.paths.some((at) => argv[at].listed === undefined) ?? false,
  readsCwd: agReadsCwd,
  // (Hidden files and directories, `.git` among them, unless `--hidden` or `-u`.)
  skipsGitDir: (argv) =>
    argv.every((w) => w.kind === "static") &&
    !hasOption(argv, AG, ["--hidden", "-u", "--unrestricted"]),
  optionCommands: agCommands,
  readOnly: { "": { long: ["--pager"] } },
};
