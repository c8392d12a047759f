/**
 * The field tools cut, sort, paste, join and column: which option values are text (`cut -d/`,
 * `sort -k2`) and which are files (`sort -o out`), sort's option that runs a program
 * (`--compress-program`), and what keeps `sort` read-only under `$safe-bash`.
 *
 * @module
 */
import { filesFromList } from "./file_lists.ts";
import { optionCommands } from "./option_commands.ts";
import { fields, grammarOf, type SearchSpec, searchTextOf } from "./search_text.ts";
import type { Program } from "./spec.ts";

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

/** The field tools. */
export const FIELD_PROGRAMS: Program[] = [
  ...Object.entries(FIELD_TOOLS).map(([name, spec]): Program => ({
    names: [name],
    text: searchTextOf(spec),
  })),
  {
    names: ["sort"],
    options: grammarOf(SORT),
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
