/**
 * Extractors write the members of an archive, by names the archive chooses, below a directory:
 * the one an option or operand names, else the cwd (`tar -xf a.tar` after `cd .pi` writes into
 * `.pi`). When one extracts to disk, that directory is a file it names with `below` (what is
 * protected below it may be replaced); members it is told to extract are written at their own
 * paths there; nothing is written when it prints them (`tar -O`, `7z -so`), lists them, or
 * flattens their paths into plain names (`unzip -j`, GNU ar's members), which cannot reach below.
 * The programs with no module of their own are here too (unrar, unar, cabextract, pax, jar,
 * dpkg, and 7z's other names).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { extractsHere } from "./extractors.ts";
 * extractsHere("tar")(["tar", "-xzf", "a.tgz"].map(literal)); // [{ path: ".", below: true, … }]
 * ```
 *
 * @module
 */
import { posix } from "node:path";
import type { Word } from "../shell/model.ts";
import type { NamedFile, Program } from "./spec.ts";
import { readOptions } from "./argv.ts";
import { COPY_GRAMMARS } from "./copy_options.ts";
import { commandRemoval, moveCommand, rarMoves, sevenDeletes } from "./archive_moves.ts";

/** What an extraction's words say (the static words after the program; null: not known). */
export interface Extraction {
  /** It extracts to disk (not listing, printing, creating). */
  extracts(args: (string | null)[]): boolean;
  /**
   * The directory it extracts into when the words name one (`-C dir`, `-d dir`, `-odir`, a last
   * operand), else null (the cwd).
   */
  destination(args: (string | null)[]): string | null;
  /** The members it is told to extract (written at their paths below the destination). */
  members?(args: (string | null)[]): string[];
  /**
   * It keeps a member's absolute path or `..` (`tar -P`, `unzip -:`, GNU cpio without
   * `--no-absolute-filenames`): what it writes may be anywhere. @default never
   */
  anywhere?(args: (string | null)[]): boolean;
  /**
   * It rewrites the members' names as it extracts (bsdtar's `-s /old/new/`, GNU tar's
   * `--transform`, `--strip-components`): a member it is told to extract may land under any name
   * below the destination. @default never
   */
  renames?(args: (string | null)[]): boolean;
  /**
   * What it writes, where its own reading is finer than a destination and members (tar: see
   * `tarWrites`), once it is known to extract and to keep no absolute name.
   */
  writes?(args: (string | null)[], source: string): NamedFile[];
}

/** A short option letter in a cluster (`-xzf`), or a long option (`--extract`). */
export function has(args: (string | null)[], letters: RegExp, long: RegExp): boolean {
  return args.some((a) => a !== null && (letters.test(a) || long.test(a)));
}

/** The value of an option given as `-X value`, `-Xvalue` or `--long=value` / `--long value`. */
function valueOf(args: (string | null)[], short: string, long?: string): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null) continue;
    if (a === short || a === long) return args[i + 1] ?? null;
    if (a.startsWith(short) && a.length > short.length) return a.slice(short.length);
    if (long && a.startsWith(long + "=")) return a.slice(long.length + 1);
  }
  return null;
}

/** The operands (words not starting with `-`), after the first `skip` of them. */
function operands(args: (string | null)[], skip: number): string[] {
  return args.filter((a): a is string => a !== null && !a.startsWith("-")).slice(skip);
}

/** GNU tar's `--one-top-level=DIR` (abbreviated too), the last one given. */
const ONE_TOP = /^--one-t(o(p(-(l(e(v(el?)?)?)?)?)?)?)?=/;

/** The directory tar works in (`-C dir`, the last one given), else null (the cwd). */
function tarDirectory(args: (string | null)[]): string | null {
  let dir: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-C" || a === "--directory") dir = args[i + 1] ?? null;
    else if (a?.startsWith("--directory=")) dir = a.slice(12);
    else if (a !== null && /^-[a-zA-Z]*C$/.test(a)) dir = args[i + 1] ?? null;
  }
  return dir;
}

/** `--one-top-level=DIR`'s DIR, or null. */
function oneTopLevel(args: (string | null)[]): string | null {
  const top = args.findLast((a) => a !== null && ONE_TOP.test(a));
  return top ? top.slice(top.indexOf("=") + 1) : null;
}

/**
 * What GNU tar writes (1.34, extract.c and list.c), where the archive is not known: below the
 * directory that holds where each member it extracts lands, since an entry there may be a symlink
 * (to a name with no `..`, not absolute: those it makes as placeholders) that later entries are
 * written through (`x -> .pi/extensions`, then `x/evil.ts`). Below `--one-top-level=DIR`'s parent,
 * not DIR: an entry whose name (past leading `.` and `/` characters) begins with DIR is kept as it
 * is (`x` itself, a symlink; `.pi/…` for DIR `pi`). A member told (`tar -xf a.tar src`) lands at its
 * name, or below DIR. `--overwrite` writes through a hard link entry to any file below `-C`'s
 * directory (link names are neither moved below DIR nor limited to the members told).
 */
function tarWrites(args: (string | null)[], source: string): NamedFile[] {
  const root = tarDirectory(args);
  const top = oneTopLevel(args);
  const at = (p: string) => (root === null || p.startsWith("/") ? p : `${root}/${p}`);
  const rootReach = [{ path: root ?? ".", source, below: true }];
  if (args.includes("--overwrite")) return rootReach;
  const base = top === null ? root ?? "." : posix.dirname(at(top));
  const members = TAR_LIKE.renames!(args) ? [] : tarMembers(args);
  const kept = (name: string) => {
    const rest = name.replace(/^[./]+/, "");
    return top !== null && rest.startsWith(top) && /^\/|^$/.test(rest.slice(top.length));
  };
  if (
    !members.length || members.some((m) => /[*?[]/.test(m)) ||
    (top !== null && members.some((m) => top.startsWith(m.replace(/\/+$/, "") + "/")))
  ) return [{ path: base, source, below: true }];
  return members.map((m) => {
    const lands = top === null || kept(m) ? m : `${top}/${m}`;
    return { path: posix.dirname(at(lands.replace(/\/+$/, ""))), source, below: true };
  });
}

const TAR_LIKE: Extraction = {
  extracts: (args) =>
    (has(args, /^-[a-zA-Z]*x/, /^--(extract|get)$/) || /^[a-wyzA-Z]*x/.test(args[0] ?? "-")) &&
    // (`-O`, `--to-stdout`, `--to-command`: the members go to a program, not to disk.)
    !has(args, /^-[a-zA-Z]*O/, /^--to-(stdout|command)/) &&
    !/^[a-zA-Z]*O/.test(args[0] ?? "-"),
  // (`-C dir`: where tar is when it extracts; `--one-top-level=DIR` below it: see `tarWrites`.)
  destination: (args) => {
    const dir = tarDirectory(args);
    const sub = oneTopLevel(args);
    if (sub === null) return dir;
    return sub.startsWith("/") || dir === null ? sub : `${dir}/${sub}`;
  },
  members: tarMembers,
  // (bsdtar's `-s PATTERN`, also in the old first word, `tar xsf a.tar PATTERN`: macOS's tar is
  // bsdtar, so `-s` is read so for every tar; GNU tar's `--transform`/`--xform` and
  // `--strip-components`, abbreviated too.)
  // (A bare `--one-top-level`: each member below a directory named for the archive.)
  renames: (args) =>
    has(args, /^-[a-zA-Z]*s/, /^--(tr|xf|str|one-t(o(p(-(l(e(v(el?)?)?)?)?)?)?)?$)/) ||
    /^[a-zA-Z]*s/.test(args[0] ?? "-"),
  // (`-P`/`--absolute-names`; star's `-/` and `-..`.)
  anywhere: (args) =>
    has(args, /^-[a-zA-Z]*P/, /^--ab/) || /^[a-zA-Z]*P/.test(args[0] ?? "-") ||
    args.includes("-/") || args.includes("-.."),
  writes: tarWrites,
};

/** tar's letters and long options that take a value (the next word, or the rest of a cluster). */
const TAR_VALUED = "bCfFgHIKLNTVX";
const TAR_LONG_VALUED =
  /^--(file|directory|files-from|exclude-from|exclude|transform|xform|owner|group|mode|mtime|newer|after-date|use-compress-program|to-command|checkpoint-action|format|label|volno-file|info-script|new-volume-script|rsh-command|index-file|blocking-factor|record-size|tape-length|starting-file|newer-mtime|strip-components|wildcards-match-slash|suffix|backup|quoting-style|set-mtime-command|sort)$/;

/** The members a tar command names (its operands, past the options and their values). */
function tarMembers(args: (string | null)[]): string[] {
  const out: string[] = [];
  let pending = 0; // values still owed to letters read before (`-xzf a.tgz`, `xzfC a.tgz dir`)
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (pending > 0) {
      pending--;
      continue;
    }
    if (a === null) continue;
    if (a.startsWith("--")) {
      if (!a.includes("=") && TAR_LONG_VALUED.test(a)) pending = 1;
      continue;
    }
    // (An old-style first word, `xzf`, is a cluster too.)
    if (a.startsWith("-") || i === 0) {
      const letters = a.replace(/^-/, "");
      for (let k = 0; k < letters.length; k++) {
        if (!TAR_VALUED.includes(letters[k])) continue;
        if (a.startsWith("-") && k < letters.length - 1) break; // `-fa.tgz`: the rest is it
        pending++;
      }
      continue;
    }
    out.push(a);
  }
  return out;
}

const EXTRACTIONS: Record<string, Extraction> = {
  tar: TAR_LIKE,
  bsdtar: TAR_LIKE,
  star: TAR_LIKE,
  // `rar x a.rar [DIR/]` as unrar; lha, arj, zpaq and xar by their extracting commands.
  rar: {
    extracts: (args) => args[0] === "x" || args[0] === "e",
    destination: (args) => {
      const last = operands(args, 2).at(-1);
      return last !== undefined && last.endsWith("/") ? last : null;
    },
  },
  lha: {
    extracts: (args) => /^-?[a-z]*[xe]/.test(args[0] ?? ""),
    destination: (args) => /w=(.+)$/.exec(args[0] ?? "")?.[1] ?? null,
  },
  arj: {
    extracts: (args) => args[0] === "x" || args[0] === "e",
    destination: (args) => args.find((a) => a?.startsWith("-ht"))?.slice(3) ?? null,
  },
  zpaq: {
    extracts: (args) => args[0] === "x",
    destination: (args) => valueOf(args, "-to"),
  },
  xar: {
    extracts: (args) => has(args, /^-[a-zA-Z]*x/, /^$/),
    destination: (args) => valueOf(args, "-C"),
  },
  // (afio keeps absolute names, as cpio does.)
  afio: {
    extracts: (args) => has(args, /^-[a-zA-Z]*i/, /^$/),
    destination: () => null,
    anywhere: () => true,
  },
  dar: {
    extracts: (args) => has(args, /^-[a-zA-Z]*x/, /^--extract$/),
    destination: (args) => valueOf(args, "-R", "--fs-root"),
  },
  // `unsquashfs [-d DIR] img` (default `squashfs-root`).
  unsquashfs: {
    extracts: (args) => !has(args, /^-(l|ls|ll|lls|s|stat|i|info)$/, /^$/),
    destination: (args) => valueOf(args, "-d", "-dest") ?? "squashfs-root",
  },
  // `patool extract a.zip [--outdir DIR]`, `ouch decompress a.zip [--dir DIR]`.
  patool: {
    extracts: (args) => args.includes("extract"),
    destination: (args) => valueOf(args, "--outdir"),
  },
  ouch: {
    extracts: (args) => args.includes("decompress") || args.includes("d"),
    destination: (args) => valueOf(args, "-d", "--dir"),
  },
  // `7z x a.7z [-oDIR] [files…]`, `7z e`; `-so` prints.
  // (`-spf`: absolute names kept.)
  "7z": {
    extracts: (args) => args.some((a) => a === "x" || a === "e") && !args.includes("-so"),
    destination: (args) => valueOf(args, "-o"),
    members: (args) => operands(args, 2),
    anywhere: (args) => args.some((a) => a !== null && /^-spf2?$/.test(a)),
  },
  // GNU cpio keeps absolute names and `..` unless told not to (`--no-absolute-filenames`, which
  // may be abbreviated); libarchive's bsdcpio only when told to (`--insecure`).
  cpio: {
    extracts: cpioExtracts,
    destination: cpioDirectory,
    anywhere: (args) =>
      !args.some((a) => a !== null && a.length > 6 && "--no-absolute-filenames".startsWith(a)),
  },
  bsdcpio: {
    extracts: cpioExtracts,
    destination: cpioDirectory,
    anywhere: (args) => args.includes("--insecure"),
  },
  // (`-P` keeps absolute names and `..`.)
  jar: {
    extracts: (args) => /^-?[a-zA-Z]*x/.test(args[0] ?? "") || has(args, /^$/, /^--extract$/),
    destination: (args) => valueOf(args, "-C", "--dir"),
    anywhere: (args) => /^-?[a-zA-Z]*P/.test(args[0] ?? "") || args.includes("-P"),
  },
  // `unrar x a.rar [files…] [DIR/]`: a last operand that ends with a slash is where.
  unrar: {
    extracts: (args) => args[0] === "x" || args[0] === "e",
    destination: (args) => {
      const last = operands(args, 2).at(-1);
      return last !== undefined && last.endsWith("/") ? last : null;
    },
  },
  unar: {
    extracts: () => true,
    destination: (args) => valueOf(args, "-o") ?? valueOf(args, "-output-directory"),
  },
  cabextract: {
    extracts: (args) => !has(args, /^-[a-zA-Z]*[lt]/, /^--(list|test)$/),
    destination: (args) => valueOf(args, "-d", "--directory"),
  },
  // `pax -r < a.pax` extracts here, keeping absolute names; `pax -rw SRC… DIR` copies into its
  // last operand.
  pax: {
    extracts: (args) => has(args, /^-[a-zA-Z]*r/, /^$/),
    destination: (
      args,
    ) => (has(args, /^-[a-zA-Z]*w/, /^$/) ? operands(args, 0).at(-1) ?? null : null),
    // (`-s /old/new/` renames what it copies: a `..` or `/` it makes is kept.)
    anywhere: (args) => !has(args, /^-[a-zA-Z]*w/, /^$/) || has(args, /^-[a-zA-Z]*s/, /^$/),
  },
  // `dpkg -x a.deb DIR` (`--extract`).
  dpkg: {
    extracts: (args) => has(args, /^-x$/, /^--extract$/),
    destination: (args) => operands(args, 1)[0] ?? null,
  },
};

/** Whether cpio extracts (`-i`, not listing with `-t`). */
function cpioExtracts(args: (string | null)[]): boolean {
  return has(args, /^-[a-zA-Z]*i/, /^--extract$/) && !has(args, /^-[a-zA-Z]*t/, /^--list$/);
}

/**
 * The directory cpio works in (`-D DIR`, glued or in a cluster, `-iDDIR`, `--directory=DIR`,
 * `--dir DIR`; the last one given), else null (the cwd).
 */
function cpioDirectory(args: (string | null)[]): string | null {
  let dir: string | null = null;
  for (const t of readOptions(args, COPY_GRAMMARS.cpio)) {
    if (t.name !== "-D" && t.name !== "--directory") continue;
    dir = t.glued ?? (t.valueAt === undefined ? null : args[t.valueAt]);
  }
  return dir;
}

/** 7z's other names: the same program (p7zip's `7za`, `7zr`; 7-Zip's `7zz`). */
const SEVEN_ZIP = ["7za", "7zr", "7zz"];

/**
 * What an extractor writes (see the module's notes): the destination, or the cwd, written below;
 * or the members it is told to extract, at their paths there. A facet for its `namedFiles`.
 */
export function extractsHere(
  name: string,
  e: Extraction = EXTRACTIONS[SEVEN_ZIP.includes(name) ? "7z" : name],
): (argv: Word[]) => NamedFile[] {
  return (argv) => {
    const args = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
    if (!e.extracts(args)) return [];
    const source = `(what ${name} extracts)`;
    if (e.anywhere?.(args)) return [{ path: null, source }];
    if (e.writes) return e.writes(args, source);
    const dest = e.destination(args) ?? ".";
    const members = e.renames?.(args) ? [] : e.members?.(args) ?? [];
    if (members.length && !members.some((m) => /[*?[]/.test(m))) {
      return members.map((m) => ({ path: dest === "." ? m : `${dest}/${m}`, source }));
    }
    return [{ path: dest, source, below: true }];
  };
}

/** 7-Zip adds (`7z a`, `u`) what a tree's links lead to, unless `-snl` stores them as links. */
export function sevenFollows(argv: Word[]): boolean {
  const words = argv.slice(1).map((w) => w.value);
  return words.some((w) => w === "a" || w === "u") && !words.includes("-snl");
}

/** 7-Zip names the files it adds (`7z a x.7z src`, `@LIST`); with none it adds the cwd's. */
export function sevenNamed(argv: Word[]): boolean {
  const operands = argv.slice(1).filter((w) => !w.value.startsWith("-"));
  // (The command, the archive, then what it adds.)
  return operands.length > 2;
}

/** Archivers that delete what they archive when told to (archive_moves.ts). */
const MOVES: Record<string, (argv: Word[]) => boolean> = {
  rar: rarMoves,
  lha: moveCommand,
  arj: moveCommand,
};

/** Extractors with no module of their own. */
export const EXTRACTOR_PROGRAMS: Program[] = [
  ...SEVEN_ZIP,
  "unrar",
  "unar",
  "cabextract",
  "pax",
  "jar",
  "dpkg",
  "star",
  "rar",
  "lha",
  "arj",
  "zpaq",
  "xar",
  "afio",
  "dar",
  "unsquashfs",
  "patool",
  "ouch",
]
  .map((name): Program =>
    SEVEN_ZIP.includes(name)
      ? {
        names: [name],
        namedFiles: extractsHere(name),
        followsLinks: sevenFollows,
        treesNamed: sevenNamed,
        replacesTrees: sevenDeletes,
        optionCommands: commandRemoval(sevenDeletes),
      }
      : MOVES[name]
      ? {
        names: [name],
        namedFiles: extractsHere(name),
        replacesTrees: MOVES[name],
        optionCommands: commandRemoval(MOVES[name]),
      }
      : { names: [name], namedFiles: extractsHere(name) }
  );
