/**
 * The option grammars of the copiers and their neighbours: cp, mv, install and ln (GNU
 * coreutils, with the letters BSD and busybox give a value where GNU's getopt has none), cpio
 * (GNU's and libarchive's bsdcpio) and mktemp. GNU getopt reads `-tDIR` as `-t DIR` and `-rtDIR`
 * as flags then the letter that takes a value, the rest its value; getopt_long takes any prefix
 * of exactly one long option (`--target=DIR`, `--target-dir DIR`). Every facet that reads these
 * programs' options reads them here (backups.ts, links.ts, extractors.ts, the glued values the
 * policy judges).
 *
 * @example
 * ```ts
 * import { readOptions } from "./argv.ts";
 * import { COPY_GRAMMARS } from "./copy_options.ts";
 * readOptions(["-rtsecrets", "f"], COPY_GRAMMARS.cp).map((t) => t.glued); // [undefined, "secrets", undefined]
 * ```
 *
 * @module
 */
import type { OptionGrammar } from "./argv.ts";

/**
 * The long options, as their `--help` lists them: `=` after a name, it takes a value
 * (`--suffix=.json`, `--suffix .json`); `?`, one only after `=`. The full lists, because
 * getopt_long takes any prefix of exactly one of them (`--suff=.json`, `--b`), and a name spelled
 * in full wins over a longer one it begins (install's `--strip`).
 */
const LONG = {
  cp: "archive attributes-only backup? context? copy-contents debug dereference exchange force " +
    "help interactive keep-directory-symlink link no-clobber no-dereference no-preserve= " +
    "no-target-directory one-file-system parents preserve? recursive reflink? " +
    "remove-destination sparse= strip-trailing-slashes suffix= symbolic-link " +
    "target-directory= update? verbose version",
  mv: "backup? context debug exchange force help interactive no-clobber no-copy " +
    "no-target-directory strip-trailing-slashes suffix= target-directory= update? verbose version",
  install: "backup? compare context? debug directory group= help mode= no-target-directory " +
    "owner= preserve-context preserve-timestamps strip strip-program= suffix= " +
    "target-directory= verbose version",
  ln: "backup? directory force help interactive logical no-dereference no-target-directory " +
    "physical relative suffix= symbolic target-directory= verbose version",
  // (GNU cpio's, with bsdcpio's own: `--passphrase`, its compressors, `--insecure`.)
  cpio: "absolute-filenames append block-size= create dereference device-independent directory= " +
    "dot extract extract-over-symlinks file= force-local format= help ignore-devno " +
    "io-size= link list make-directories message= no-absolute-filenames no-preserve-owner " +
    "nonmatching null numeric-uid-gid only-verify-crc owner= pass-through pattern-file= " +
    "preserve-modification-time quiet rename rename-batch-file= renumber-inodes " +
    "reproducible reset-access-time rsh-command= sparse swap swap-bytes swap-halfwords " +
    "to-stdout unconditional usage verbose version warning= " +
    "b64encode binary grzip insecure lrzip lz4 lzma lzop passphrase= preserve-owner pwb " +
    "uuencode xz zstd",
  mktemp: "directory dry-run help quiet suffix= tmpdir? version",
} as const;

/**
 * The short options that take a value (the rest of the cluster, or the next word). Where GNU's
 * letter is a flag and another's takes a value that names no file (BSD install's `-D destdir`
 * and `-T tags`, bsdcpio's `-f pattern`, BSD mktemp's `-t prefix`), GNU's reading is kept: it is
 * the one that finds a path in the rest of the word. BSD install's own: `-B suffix`, `-f flags`,
 * `-h hash`, `-l linkflags`, `-M metalog` (a file it writes), `-N dbdir`.
 */
const SHORT_VALUED = {
  cp: "St",
  mv: "St",
  install: "Sgmot" + "BfhlMN",
  ln: "St",
  cpio: "CDEFHIMORW",
  mktemp: "p",
} as const;

/** The programs of this module. */
export type Copier = keyof typeof LONG;

function grammar(program: Copier): OptionGrammar {
  const names = LONG[program].split(" ");
  const named = (end: string) =>
    new Set(names.filter((n) => n.endsWith(end)).map((n) => "--" + n.slice(0, -1)));
  return {
    // (No `flags`: a letter not known is read as a flag, and a valued letter after it still
    // takes the rest of the word.)
    valued: SHORT_VALUED[program],
    longValued: named("="),
    longOptional: named("?"),
    longFlags: new Set(names.filter((n) => /[a-z0-9]$/.test(n)).map((n) => "--" + n)),
    abbreviations: "all",
  };
}

/** Each program's grammar, by name. */
export const COPY_GRAMMARS: Readonly<Record<Copier, OptionGrammar>> = {
  cp: grammar("cp"),
  mv: grammar("mv"),
  install: grammar("install"),
  ln: grammar("ln"),
  cpio: grammar("cpio"),
  mktemp: grammar("mktemp"),
};
