/**
 * Extractors write the members of an archive, by names the archive chooses, below a directory:
 * the one an option or operand names, else the cwd (`tar -xf a.tar` after `cd .pi` writes into
 * `.pi`). For each, when it extracts and no destination is given, the cwd is a file it names
 * (`.`), judged as the directory it replaces what is below; the programs with no module of their
 * own are here too (unrar, unar, cabextract, pax, jar, dpkg, and 7z's other names).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { extractsHere } from "./extractors.ts";
 * extractsHere("tar")(["tar", "-xzf", "a.tgz"].map(literal)); // [{ path: ".", source: … }]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { NamedFile, Program } from "./spec.ts";

/** How a program's words say that it extracts, and that a destination is given. */
export interface Extraction {
  /** It extracts (the static words after the program; null for a word not known). */
  extracts(args: (string | null)[]): boolean;
  /** A word that gives the directory it extracts into (an option, or an operand). */
  destination(args: (string | null)[]): boolean;
}

/** A short option letter in a cluster (`-xzf`), a long option, or tar's bundled first word. */
export function has(args: (string | null)[], letters: RegExp, long: RegExp): boolean {
  return args.some((a) => a !== null && (letters.test(a) || long.test(a)));
}

const TAR_LIKE: Extraction = {
  extracts: (args) =>
    has(args, /^-[a-zA-Z]*x/, /^--(extract|get)$/) || /^[a-wyzA-Z]*x/.test(args[0] ?? "-"),
  destination: (args) => has(args, /^-[a-zA-Z]*C/, /^--directory(=|$)/),
};

const EXTRACTIONS: Record<string, Extraction> = {
  tar: TAR_LIKE,
  bsdtar: TAR_LIKE,
  // `7z x a.7z [-oDIR]`, `7z e`.
  "7z": {
    extracts: (args) => args.some((a) => a === "x" || a === "e"),
    destination: (args) => has(args, /^-o/, /^$/),
  },
  cpio: {
    extracts: (args) => has(args, /^-[a-zA-Z]*i/, /^--extract$/),
    destination: (args) => has(args, /^-[a-zA-Z]*D/, /^--directory(=|$)/),
  },
  ar: {
    extracts: (args) => /^-?[a-zA-Z]*x/.test(args[0] ?? ""),
    destination: (args) => has(args, /^$/, /^--output(=|$)/),
  },
  jar: {
    extracts: (args) => /^-?[a-zA-Z]*x/.test(args[0] ?? "") || has(args, /^$/, /^--extract$/),
    destination: (args) => has(args, /^-C$/, /^--dir(=|$)/),
  },
  // `unrar x a.rar [files…] [DIR/]`: a last operand that ends with a slash is where.
  unrar: {
    extracts: (args) => args[0] === "x" || args[0] === "e",
    destination: (args) => args.length > 2 && /\/$/.test(args[args.length - 1] ?? "/"),
  },
  unar: { extracts: () => true, destination: (args) => has(args, /^-o$/, /^--?output-directory/) },
  cabextract: {
    extracts: (args) => !has(args, /^-[a-zA-Z]*[lt]/, /^--(list|test)$/),
    destination: (args) => has(args, /^-[a-zA-Z]*d/, /^--directory(=|$)/),
  },
  // `pax -r < a.pax` extracts here; `pax -rw SRC… DIR` copies into its last operand.
  pax: {
    extracts: (args) => has(args, /^-[a-zA-Z]*r/, /^$/),
    destination: (args) => has(args, /^-[a-zA-Z]*w/, /^$/),
  },
};

/** 7z's other names: the same program (p7zip's `7za`, `7zr`; 7-Zip's `7zz`). */
const SEVEN_ZIP = ["7za", "7zr", "7zz"];

/**
 * The cwd as a file an extractor names when it extracts and no destination is given (see the
 * module's notes): a facet to add to its `namedFiles`.
 */
export function extractsHere(
  name: string,
  e: Extraction = EXTRACTIONS[SEVEN_ZIP.includes(name) ? "7z" : name],
): (argv: Word[]) => NamedFile[] {
  return (argv) => {
    const args = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
    return e.extracts(args) && !e.destination(args)
      ? [{ path: ".", source: `(what ${name} extracts here)` }]
      : [];
  };
}

/** Extractors with no module of their own: each replaces what is below where it extracts. */
export const EXTRACTOR_PROGRAMS: Program[] = [
  ...[...SEVEN_ZIP, "unrar", "unar", "cabextract", "pax", "jar"].map((name): Program => ({
    names: [name],
    replacesTrees: true,
    namedFiles: extractsHere(name),
  })),
  // `dpkg -x a.deb DIR` (`--extract`): the package's files below DIR; `dpkg -i` installs them.
  { names: ["dpkg"], replacesTrees: true },
];
