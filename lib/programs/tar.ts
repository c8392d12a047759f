/**
 * tar: `-C dir` (it works there), the options that run a command (`-I`/`--use-compress-program`,
 * `--to-command`, `--checkpoint-action=exec=…`, even in the old bundled form `tar xIf CMD a.tar`),
 * what it does to a directory it is given (it extracts over the files below), and its listing
 * form (`tar -tf a.tar`), which only reads.
 *
 * @module
 */
import { hasOption, type OptionGrammar, readOptions } from "./argv.ts";
import { optionCommands } from "./option_commands.ts";
import type { Program } from "./spec.ts";
import { filesFromList } from "./file_lists.ts";
import { extractsHere } from "./extractors.ts";
import { tarRemoval, tarRemovesFiles } from "./archive_moves.ts";

/** tar's valued letters (and its old bundled first word), as far as finding `-h` needs them. */
const TAR_OPTIONS = { valued: "bCfFgHIKLNTVX", bundled: true };

/** The long options of a listing that take a value. */
const LIST_VALUED = new Set([
  "--file",
  "--directory",
  "--blocking-factor",
  "--record-size",
  "--files-from",
  "--exclude",
  "--quoting-style",
  "--occurrence",
]);

/** Letters a listing may have: list, verbose, the decompressors (built in), and the valued above. */
const LIST_LETTERS = "tvzjJZabCfT";

/** Long options a listing may have; any other may extract, write, or run a program. */
const LIST_LONG = new Set([
  "--list",
  "--verbose",
  "--file",
  "--gzip",
  "--gunzip",
  "--ungzip",
  "--bzip2",
  "--xz",
  "--lzma",
  "--lzip",
  "--lzop",
  "--zstd",
  "--auto-compress",
  "--directory",
  "--force-local",
  "--wildcards",
  "--no-wildcards",
  "--anchored",
  "--no-anchored",
  "--ignore-case",
  "--exclude",
  "--numeric-owner",
  "--full-time",
  "--utc",
  "--quoting-style",
  "--show-transformed-names",
  "--files-from",
  "--null",
  "--occurrence",
  "--blocking-factor",
  "--record-size",
  "--no-recursion",
  "--recursion",
]);

/** tar's grammar as its listing check reads it (any other long option is unknown: not a listing). */
const LIST_GRAMMAR: OptionGrammar = {
  valued: "bCfT",
  bundled: true,
  longValued: LIST_VALUED,
  longFlags: new Set([...LIST_LONG].filter((l) => !LIST_VALUED.has(l))),
  abbreviations: true,
};

/**
 * Whether tar's arguments only list an archive (`tar -tvf a.tar`, `tar tzf a.tgz`, `tar --list
 * --file=a.tar`): the list mode, no other mode, only the options above, and an archive that is a
 * local file (`-f host:a.tar` runs a remote shell unless `--force-local`).
 */
export function tarListsOnly(args: (string | null)[]): boolean {
  let list = false;
  let local = false;
  const archives: string[] = [];
  for (const t of readOptions(args, LIST_GRAMMAR)) {
    if (t.kind === "dynamic" || t.kind === "unknown") return false;
    if (t.kind === "operand" || t.kind === "end") continue;
    const long = t.name.startsWith("--") ? "--" + t.name.slice(2).split("=")[0] : null;
    const full = long && [...LIST_LONG].find((l) => l.startsWith(long));
    if (long ? !full : !LIST_LETTERS.includes(t.name[1])) return false;
    if (t.name === "-t" || full === "--list") list = true;
    if (full === "--force-local") local = true;
    if (t.name === "-f" || full === "--file") {
      const value = t.glued ?? (t.valueAt === undefined ? null : args[t.valueAt]);
      if (value === null || value === undefined) return false;
      archives.push(value);
    }
  }
  return list && (local || archives.every((a) => !a.includes(":")));
}

const tarList = filesFromList({ valued: ["--files-from"], letters: "T" });
const tarHere = extractsHere("tar");

/** The commands tar's options name. */
const tarCommands = optionCommands({
  shortWithArg: "bCfFgHIKLNTVX",
  // (The compressor reads the archive on its standard input: a shell there runs it.)
  short: { I: "compressor", F: "line" },
  long: {
    "--to-command": "filter",
    "--use-compress-program": "compressor",
    "--info-script": "line",
    "--new-volume-script": "line",
    "--rsh-command": "program",
  },
  keyed: { "--checkpoint-action": { exec: "line" } },
  bundled: true,
});

/** tar. */
export const TAR: Program = {
  // (gtar, gnutar: GNU tar's names where tar is another's, on the BSDs and macOS.)
  names: ["tar", "gtar", "gnutar"],
  chdir: { options: ["-C", "--directory"] },
  optionCommands: (stage, run) => {
    tarCommands(stage, run);
    tarRemoval(stage, run);
  },
  // `tar -czf x.tgz -T LIST`: the files it archives are named in LIST.
  // Without -C, it extracts into the cwd (extractors.ts).
  namedFiles: (argv) => [...tarList(argv), ...tarHere(argv)],
  // `tar -tf a.tar`: a listing only reads.
  readOnly: { "": { accepts: tarListsOnly } },
  // `tar -h`: what the links inside the tree lead to is archived.
  followsLinks: (argv) => hasOption(argv, TAR_OPTIONS, ["-h", "--dereference"]),
  treesNamed: () => true,
  // `tar -cf x.tar --remove-files src`: what it archives is deleted.
  replacesTrees: tarRemovesFiles,
};
