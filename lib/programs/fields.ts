/**
 * The field tools cut, sort, paste, join and column: which option values are text (`cut -d/`,
 * `sort -k2`) and which are files (`sort -o out`), sort's option that runs a program
 * (`--compress-program`), and what keeps `sort` read-only under `$safe-bash`; split's
 * `--filter=CMD`, which pipes each piece of its input to CMD.
 *
 * @module
 */
import { filesFromList } from "./file_lists.ts";
import { optionCommands } from "./option_commands.ts";
import { fields, grammarOf, type SearchSpec, searchTextOf } from "./search_text.ts";
import { csplitFiles, splitFiles } from "./splitters.ts";
import type { Program, Runner } from "./spec.ts";
import type { Stage, Word } from "../shell/model.ts";
import { shellQuote } from "../shell/words.ts";
import { staticValue } from "./command_words.ts";
import { literal } from "./words.ts";
import { type LineFilter, passedLines } from "./line_filters.ts";

// deno-fmt-ignore
const SORT = fields({
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
});

// deno-fmt-ignore
const FIELD_TOOLS: Record<string, SearchSpec> = {
  cut: fields({
    flags: "snz", textValued: "bcdf",
    longFlags: ["--complement", "--only-delimited", "--zero-terminated"],
    longText: ["--bytes", "--characters", "--delimiter", "--fields", "--output-delimiter"],
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

/**
 * `split [OPTIONS] [FILE [PREFIX]] --filter=CMD`: CMD reads each piece on its standard input (a
 * shell there runs them as commands: `split --filter=sh notes.txt`), with `$FILE` the name the
 * piece would have had (PREFIX, a suffix, `--additional-suffix`), so `gzip > $FILE.gz` writes
 * beside PREFIX.
 */
function splitFilter(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  let filter: Word | undefined;
  let suffix: string | null = "";
  const operands: (string | null)[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = staticValue(args[i]);
    if (v === "--") {
      operands.push(...args.slice(i + 1).map(staticValue));
      break;
    }
    if (v === null || v === "-" || !v.startsWith("-")) operands.push(v);
    else if (v === "--filter") filter = args[++i];
    else if (v.startsWith("--filter=")) filter = literal(v.slice("--filter=".length));
    else if (v === "--additional-suffix") suffix = staticValue(args[++i]);
    else if (v.startsWith("--additional-suffix=")) suffix = v.slice("--additional-suffix=".length);
    else if (/^-[a-z]*[abClnt]$/.test(v)) i++;
  }
  if (!filter) return;
  if (filter.kind !== "static") return run.command(filter, "filter", "split --filter");
  const prefix = operands.length > 1 ? operands[1] : "x";
  const file = prefix === null || suffix === null ? null : `${prefix}aa${suffix}`;
  const text = file === null ? filter.value : `FILE=${shellQuote(file)}; ${filter.value}`;
  run.command(literal(text), "filter", "split --filter");
}

/** sort: orders and drops lines (`-u`), never changes one; not `-o`, `-z` or a list of files. */
const SORT_FILTER: LineFilter = {
  grammar: {
    flags: "bdfgihMnRrsuV",
    // (not `-T`: a temporary directory it writes in; `-o`, `-z`: another output)
    valued: "ktS",
    longFlags: new Set([
      "--ignore-leading-blanks",
      "--dictionary-order",
      "--ignore-case",
      "--general-numeric-sort",
      "--human-numeric-sort",
      "--month-sort",
      "--numeric-sort",
      "--random-sort",
      "--reverse",
      "--stable",
      "--unique",
      "--version-sort",
    ]),
    longValued: new Set(["--key", "--field-separator", "--buffer-size", "--parallel"]),
  },
};

/** The field tools. */
export const FIELD_PROGRAMS: Program[] = [
  { names: ["split"], optionCommands: splitFilter, namedFiles: splitFiles },
  { names: ["csplit"], namedFiles: csplitFiles },
  ...Object.entries(FIELD_TOOLS).map(([name, spec]): Program => ({
    names: [name],
    text: searchTextOf(spec),
  })),
  {
    names: ["sort"],
    options: grammarOf(SORT),
    lists: (stage, listingOf) => passedLines(stage, listingOf, SORT_FILTER),
    // `--files0-from=LIST`: it reads and prints the files the list names.
    namedFiles: filesFromList({ valued: ["--files0-from"] }),
    text: searchTextOf(SORT),
    optionCommands: optionCommands({
      shortWithArg: grammarOf(SORT).valued!,
      // (It pipes its temporary data through the program: a shell there reads it as commands.)
      long: { "--compress-program": "compressor" },
    }),
    readOnly: {
      "": {
        short: SORT.fileValued,
        long: ["--output", "--compress-program", "--temporary-directory", "--files0-from"],
      },
    },
  },
];
