/**
 * The search programs grep (egrep, fgrep), rg and ag: the grammar that says which of their
 * arguments are text (the pattern, `-e`, `--include=*.ts`) and which stay files (`-f pats`), rg's
 * options that run a program (`--pre`), and what keeps their `$safe-bash` patterns read-only.
 *
 * @module
 */
import { hasOption, type OptionGrammar } from "./argv.ts";
import { optionCommands } from "./option_commands.ts";
import { grammarOf, type SearchSpec, searchTextOf } from "./search_text.ts";
import type { Program } from "./spec.ts";

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

/** ag's options that take a value, as far as finding `-f` needs them. */
const AG: OptionGrammar = { valued: "ACBGgmp", longValued: new Set(["--file-search-regex"]) };

/** The search programs. */
export const SEARCH_PROGRAMS: Program[] = [
  {
    names: ["grep", "egrep", "fgrep"],
    text: searchTextOf(GREP),
    followsLinks: (argv) => hasOption(argv, grammarOf(GREP), ["-R", "--dereference-recursive"]),
  },
  {
    names: ["rg"],
    options: grammarOf(RG),
    text: searchTextOf(RG),
    followsLinks: (argv) => hasOption(argv, grammarOf(RG), ["-L", "--follow"]),
    optionCommands: optionCommands({
      shortWithArg: grammarOf(RG).valued!,
      long: { "--pre": "program", "--hostname-bin": "program" },
      exact: true,
    }),
    readOnly: { "": { short: "z", long: ["--pre", "--search-zip", "--hostname-bin"] } },
  },
  {
    names: ["ag"],
    readOnly: { "": { long: ["--pager"] } },
    followsLinks: (argv) => hasOption(argv, AG, ["-f", "--follow"]),
  },
];
