/**
 * tar: `-C dir` (it works there; `--dir dir`, `tar cCf dir a.tar` too), the options that run a command (`-I`/`--use-compress-program`,
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

/**
 * GNU tar's options (1.34's `tar --help`): the short ones that take a value, the long ones with a
 * value, with an optional one (after `=`) and without; getopt_long takes any prefix of one
 * (`--dir DIR`), and the old first word bundles letters whose values follow it (`tar cCf DIR a.tar`).
 */
export const TAR_GRAMMAR: OptionGrammar = {
  valued: "bCfFgHIKLNTVX",
  bundled: true,
  // deno-fmt-ignore
  longValued: new Set(["--add-file", "--after-date", "--blocking-factor", "--checkpoint-action", "--directory", "--exclude", "--exclude-from", "--exclude-ignore", "--exclude-ignore-recursive", "--exclude-tag", "--exclude-tag-all", "--exclude-tag-under", "--file", "--files-from", "--format", "--group", "--group-map", "--hole-detection", "--index-file", "--info-script", "--label", "--level", "--listed-incremental", "--mode", "--mtime", "--new-volume-script", "--newer", "--newer-mtime", "--no-quote-chars", "--owner", "--owner-map", "--pax-option", "--quote-chars", "--quoting-style", "--record-size", "--rmt-command", "--rsh-command", "--sort", "--sparse-version", "--starting-file", "--strip-components", "--suffix", "--tape-length", "--to-command", "--transform", "--use-compress-program", "--volno-file", "--warning", "--xattrs-exclude", "--xattrs-include", "--xform"]),
  // deno-fmt-ignore
  longOptional: new Set(["--atime-preserve", "--backup", "--checkpoint", "--occurrence", "--one-top-level", "--totals"]),
  // deno-fmt-ignore
  longFlags: new Set(["--absolute-names", "--acls", "--anchored", "--append", "--auto-compress", "--block-number", "--bzip2", "--catenate", "--check-device", "--check-links", "--clamp-mtime", "--compare", "--compress", "--concatenate", "--confirmation", "--create", "--delay-directory-restore", "--delete", "--dereference", "--diff", "--exclude-backups", "--exclude-caches", "--exclude-caches-all", "--exclude-caches-under", "--exclude-vcs", "--exclude-vcs-ignores", "--extract", "--force-local", "--full-time", "--get", "--gunzip", "--gzip", "--hard-dereference", "--help", "--ignore-case", "--ignore-command-error", "--ignore-failed-read", "--ignore-zeros", "--incremental", "--interactive", "--keep-directory-symlink", "--keep-newer-files", "--keep-old-files", "--list", "--lzip", "--lzma", "--lzop", "--multi-volume", "--no-acls", "--no-anchored", "--no-auto-compress", "--no-check-device", "--no-delay-directory-restore", "--no-ignore-case", "--no-ignore-command-error", "--no-null", "--no-overwrite-dir", "--no-recursion", "--no-same-owner", "--no-same-permissions", "--no-seek", "--no-selinux", "--no-unquote", "--no-verbatim-files-from", "--no-wildcards", "--no-wildcards-match-slash", "--no-xattrs", "--null", "--numeric-owner", "--old-archive", "--one-file-system", "--overwrite", "--overwrite-dir", "--portability", "--posix", "--preserve-order", "--preserve-permissions", "--read-full-records", "--recursion", "--recursive-unlink", "--remove-files", "--restrict", "--same-order", "--same-owner", "--same-permissions", "--seek", "--selinux", "--show-defaults", "--show-omitted-dirs", "--show-snapshot-field-ranges", "--show-stored-names", "--show-transformed-names", "--skip-old-files", "--sparse", "--test-label", "--to-stdout", "--touch", "--uncompress", "--ungzip", "--unlink-first", "--unquote", "--update", "--usage", "--utc", "--verbatim-files-from", "--verbose", "--verify", "--version", "--wildcards", "--wildcards-match-slash", "--xattrs", "--xz", "--zstd"]),
  abbreviations: "all",
};

/**
 * bsdtar's options (libarchive 3.6): its valued letters, its long options (any unique prefix of
 * one, as its own reader takes them), and the old bundled first word.
 */
export const BSDTAR_GRAMMAR: OptionGrammar = {
  valued: "bCfIsTWX",
  bundled: true,
  // deno-fmt-ignore
  longValued: new Set(["--block-size", "--cd", "--directory", "--exclude", "--exclude-from", "--file", "--files-from", "--format", "--gid", "--gname", "--include", "--newer", "--newer-ctime", "--newer-ctime-than", "--newer-mtime", "--newer-mtime-than", "--newer-than", "--older", "--older-ctime", "--older-ctime-than", "--older-mtime", "--older-mtime-than", "--older-than", "--options", "--passphrase", "--strip-components", "--uid", "--uname", "--use-compress-program"]),
  // deno-fmt-ignore
  longFlags: new Set(["--absolute-paths", "--acls", "--append", "--b64encode", "--bzip2", "--check-links", "--chroot", "--clear-nochange-fflags", "--compress", "--confirmation", "--create", "--dereference", "--disable-copyfile", "--exclude-vcs", "--extract", "--fast-read", "--fflags", "--grzip", "--gunzip", "--gzip", "--help", "--hfsCompression", "--ignore-zeros", "--insecure", "--interactive", "--keep-newer-files", "--keep-old-files", "--list", "--lrzip", "--lz4", "--lzip", "--lzma", "--lzop", "--mac-metadata", "--modification-time", "--no-acls", "--no-fflags", "--no-mac-metadata", "--no-read-sparse", "--no-recursion", "--no-safe-writes", "--no-same-owner", "--no-same-permissions", "--no-xattrs", "--nodump", "--norecurse", "--null", "--numeric-owner", "--one-file-system", "--preserve-permissions", "--read-sparse", "--safe-writes", "--same-owner", "--same-permissions", "--to-stdout", "--totals", "--unlink", "--unlink-first", "--update", "--uuencode", "--verbose", "--version", "--xattrs", "--xz", "--zstd"]),
  abbreviations: "all",
};

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
  chdir: { options: ["-C", "--directory"], grammar: TAR_GRAMMAR },
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
  followsLinks: (argv) => hasOption(argv, TAR_GRAMMAR, ["-h", "--dereference"]),
  treesNamed: () => true,
  // `tar -cf x.tar --remove-files src`: what it archives is deleted.
  replacesTrees: tarRemovesFiles,
};
