/**
 * Backup files written beside what a program changes, named after it: `cp -b -S .json x f`
 * renames the old `f` to `f.json`, `sed -i.json … f` keeps `f.json`, and a suffix holding `*`
 * is a name pattern (`sed -i'.pi/*' … f` keeps `.pi/f`). Each is a file the program writes.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { copyBackups } from "./backups.ts";
 * copyBackups(["cp", "-b", "-S", ".json", "x", "f"].map(literal)); // [{ path: "f.json", … }]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile } from "./spec.ts";
import { programName } from "./words.ts";
import { type OptionGrammar, type OptionToken, readOptions } from "./argv.ts";
import { COPY_GRAMMARS } from "./copy_options.ts";

/**
 * The backup suffix the stage's own environment sets (`SIMPLE_BACKUP_SUFFIX=.json cp -b …`, read
 * by coreutils and GNU patch): undefined when it sets none, null when its value is not known.
 */
export function environmentSuffix(stage: Stage | undefined): string | null | undefined {
  let suffix: string | null | undefined;
  for (const w of stage?.assignments ?? []) {
    if (!/^SIMPLE_BACKUP_SUFFIX=/.test(w.prefix)) continue;
    suffix = w.kind === "static" ? w.value.slice(21) : null;
  }
  return suffix;
}

/**
 * The backup of `file` a program keeps under `suffix`; under one not known (null), a file with
 * a name of its own beside it: below its directory.
 */
export function backupNamed(file: string, suffix: string | null, source: string): NamedFile {
  if (suffix !== null) return { path: backupOf(file, suffix), source };
  const at = file.lastIndexOf("/");
  return { path: at < 0 ? "." : file.slice(0, at) || "/", source, below: true };
}

/** The backup of `file` under `suffix` (a `*` in it stands for the file's base name). */
function backupOf(file: string, suffix: string): string {
  if (!suffix.includes("*")) return file + suffix;
  const at = file.lastIndexOf("/");
  const name = suffix.replaceAll("*", file.slice(at + 1));
  // (A pattern with a `/` names a path from the cwd; one without, a name beside the file.)
  return name.includes("/") || at < 0 ? name : file.slice(0, at + 1) + name;
}

/** sed's long options (as in copy_options.ts: `=` takes a value, `?` one only after `=`). */
const SED_LONG = "binary debug expression= file= follow-symlinks help in-place? line-length= " +
  "null-data posix quiet regexp-extended sandbox separate silent unbuffered version " +
  "zero-terminated";

/** sed's grammar: `-e`, `-f`, `-l` take a value; `-i[SUF]` its suffix only glued. */
const SED: OptionGrammar = (() => {
  const names = SED_LONG.split(" ");
  const named = (end: string) =>
    new Set(names.filter((n) => n.endsWith(end)).map((n) => "--" + n.slice(0, -1)));
  return {
    valued: "efl",
    gluedOnly: "i",
    longValued: named("="),
    longOptional: named("?"),
    longFlags: new Set(names.filter((n) => /[a-z]$/.test(n)).map((n) => "--" + n)),
    abbreviations: "all",
  };
})();

/** The option grammar of `program` (cp, mv, install, ln: copy_options.ts; sed). */
function grammarOf(program: "cp" | "mv" | "install" | "ln" | "sed"): OptionGrammar {
  return program === "sed" ? SED : COPY_GRAMMARS[program];
}

/** A stage's option tokens under `program`'s grammar, with the words they read (null: not static). */
function tokensOf(
  argv: Word[],
  program: "cp" | "mv" | "install" | "ln" | "sed",
): { tokens: OptionToken[]; words: (string | null)[] } {
  const words = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  return { tokens: readOptions(words, grammarOf(program)), words };
}

/** A valued token's value: glued, the next word's (null when not static), undefined when none. */
function valueOf(t: OptionToken, words: (string | null)[]): string | null | undefined {
  return t.glued ?? (t.valueAt === undefined ? undefined : words[t.valueAt]);
}

/** The program a stage runs, by its base name, when it is one of `names`. */
function programOf<N extends string>(argv: Word[], names: N[]): N | undefined {
  const name = programName(argv[0]);
  return names.find((n) => name === n);
}

/**
 * cp, mv, install and ln with `-b`/`--backup`, or a suffix (`-S SUF`, `--suffix=SUF`, which
 * asks for backups too): the destination's backup, under that suffix (else the environment's,
 * else `~`), at the destination or, into a directory (its last operand, or `-t DIR`), at each
 * source's name there. Options are read as getopt_long reads them: `-bS.json`, `-bS .json`,
 * `--suff=.json`, `--back`.
 */
export function copyBackups(argv: Word[], stage?: Stage): NamedFile[] {
  const program = programOf(argv, ["cp", "mv", "install", "ln"]) ?? "cp";
  const { tokens, words } = tokensOf(argv, program);
  let backup = false;
  // (`-S` wins over the environment's `SIMPLE_BACKUP_SUFFIX`; the last `-S` over the others.)
  let suffix: string | null = environmentSuffix(stage) ?? "~";
  let dir: string | null | undefined;
  const ops: string[] = [];
  for (const t of tokens) {
    if (t.kind === "operand" && words[t.at] !== null) ops.push(words[t.at]!);
    if (t.name === "-b" || t.name === "--backup") backup = true;
    else if (t.name === "-S" || t.name === "--suffix") {
      backup = true;
      suffix = valueOf(t, words) ?? null;
    } else if (t.name === "-t" || t.name === "--target-directory") dir = valueOf(t, words) ?? null;
  }
  if (!backup) return [];
  const source = `(the backup ${argv[0].value} -b keeps)`;
  if (dir === null) return [backupNamed(".", null, source)];
  if (dir !== undefined) return ops.map((src) => backupNamed(into(dir!, src), suffix, source));
  const dest = ops.at(-1);
  if (ops.length < 2 || dest === undefined) return [];
  const out: NamedFile[] = [backupNamed(dest, suffix, source)];
  for (const src of ops.slice(0, -1)) out.push(backupNamed(into(dest, src), suffix, source));
  return out;
}

/** Where a copy of `src` into the directory `dir` lands: `dir/` and its base name. */
function into(dir: string, src: string): string {
  return `${dir}/${src.slice(src.lastIndexOf("/") + 1)}`;
}

/**
 * rsync's options naming a directory on the receiving side, which rsync resolves from the
 * destination directory where relative (rsync(1): `--backup-dir`, `--compare-dest`,
 * `--copy-dest`, `--link-dest` "relative to the destination directory"; `--temp-dir`'s
 * mkstemp is made there too; `--partial-dir` in each destination file's directory). What it
 * reads there (a compare, copy or link basis) is judged as written below: a hard link into the
 * destination shares the file.
 */
const RSYNC_DIRS = [
  "--backup-dir",
  "--temp-dir",
  "--partial-dir",
  "--compare-dest",
  "--copy-dest",
  "--link-dest",
];

/** rsync's short options that take a value (`-e CMD`, `-B SIZE`, `-f RULE`, `-T DIR`, `-M OPT`). */
const RSYNC_VALUED = "eBfTM";

/**
 * rsync's backups (`-b`/`--backup`, or `--backup-dir=DIR`): the destination's, under
 * `--suffix=SUF` (else `~`), beside a file it replaces or, into a directory, at each source's
 * name there; with `--backup-dir`, anywhere below DIR. And below each directory of `RSYNC_DIRS`,
 * `$RSYNC_PARTIAL_DIR` (`variable`: as the stage finds it) the partial directory of `--partial`
 * and `-P` without one (rsync(1)).
 * (Below a destination directory rsync may replace anything anyway.) Long options are read
 * abbreviated too, as some builds accept.
 */
export function rsyncBackups(
  argv: Word[],
  variable: (name: string) => string | null | undefined = () => undefined,
): NamedFile[] {
  const source = `(the backup ${argv[0].value} -b keeps)`;
  const words = argv.map((w) => (w.kind === "static" ? w.value : null));
  const long = (w: string, name: string) => w.length > 3 && name.startsWith(w.split("=")[0]);
  let backup = false;
  let partial = false;
  let suffix: string | null | undefined;
  const ops: (string | null)[] = [];
  const dirs: { value: string | null; name: string }[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === null || !w.startsWith("-") || w === "-") {
      ops.push(w);
      continue;
    }
    if (!w.startsWith("--")) {
      // (A cluster: `-b` sets backups; `-T DIR`, `-TDIR`, `-avT DIR` a temp directory.)
      const at = [...w.slice(1)].findIndex((c) => RSYNC_VALUED.includes(c)) + 1;
      if (/b/.test(at > 0 ? w.slice(1, at) : w)) backup = true;
      if (/P/.test(at > 0 ? w.slice(1, at) : w)) partial = true;
      if (at === 0) continue;
      const value = at + 1 < w.length ? w.slice(at + 1) : words[++i] ?? null;
      if (w[at] === "T") dirs.push({ value, name: "--temp-dir" });
      continue;
    }
    const isSuffix = long(w, "--suffix");
    // (`--backup` spelled in full, or a shorter prefix, is not `--backup-dir`; nor `--partial`
    // `--partial-dir`.)
    const name = isSuffix || long(w, "--backup") || long(w, "--partial")
      ? undefined
      : RSYNC_DIRS.find((d) => long(w, d));
    if (!isSuffix && name === undefined) {
      if (long(w, "--backup")) backup = true;
      if (long(w, "--partial")) partial = true;
      continue;
    }
    const value = w.includes("=") ? w.slice(w.indexOf("=") + 1) : words[++i] ?? null;
    if (isSuffix) suffix = value;
    else {
      if (name === "--backup-dir") {
        backup = true;
        suffix ??= "";
      }
      dirs.push({ value, name: name! });
    }
  }
  // (`--partial`, `-P` without `--partial-dir`: `$RSYNC_PARTIAL_DIR`, where set to a value.)
  const fromEnv = partial && !dirs.some((d) => d.name === "--partial-dir")
    ? variable("RSYNC_PARTIAL_DIR")
    : undefined;
  if (fromEnv !== undefined && fromEnv !== "") dirs.push({ value: fromEnv, name: "--partial-dir" });
  const out: NamedFile[] = dirs.flatMap(({ value, name }) =>
    receivingDirs(value, name === "--partial-dir", ops).map((path) => ({
      path,
      source: `(the directory ${argv[0].value} ${name} names)`,
      below: true,
    }))
  );
  // (Backups by the names of the operands known, the last taken for the destination, as before.)
  const known = ops.filter((o) => o !== null);
  const dest = known.at(-1);
  if (!backup || known.length < 2 || dest === undefined || /^[^/]*:/.test(dest)) return out;
  out.push(backupNamed(dest, suffix ?? "~", source));
  for (const src of known.slice(0, -1)) {
    out.push(backupNamed(into(dest, src), suffix ?? "~", source));
  }
  return out;
}

/**
 * Where rsync puts a directory option's `value` (see `RSYNC_DIRS`): absolute as written; relative,
 * from the destination directory, which is the last operand (a directory) or the one it lies in
 * (a file copied to a new name), both judged; null where the destination is not known. A
 * partial directory is made in each destination directory: `../x` from one a level below also.
 * (Another machine's destination: its directories are judged as this one's, from the cwd.)
 */
function receivingDirs(
  value: string | null,
  perDir: boolean,
  ops: (string | null)[],
): (string | null)[] {
  if (value === null || value.startsWith("/")) return [value];
  const dest = ops.at(-1);
  if (dest === undefined || dest === null || ops.includes(null)) return [null];
  if (/^[^/]*:/.test(dest)) return [value];
  const trimmed = dest.replace(/\/+$/, "") || "/";
  const bases = dest.endsWith("/") ? [trimmed] : [trimmed, trimmed.replace(/\/?[^/]*$/, "") || "."];
  const values = [value];
  // (`--partial-dir=../../x` from a directory two levels below the destination is `x`.)
  for (let v = value; perDir && /^\.\.(\/|$)/.test(v);) values.push(v = v.replace(/^\.\.\/*/, ""));
  return bases.flatMap((b) => values.map((v) => (v === "" ? b : `${b === "/" ? "" : b}/${v}`)));
}

/**
 * sed's in-place suffix (`-i.bak`, `-si.bak`, `-i'bak/*'`, `--in-place=SUF`, `--in=SUF`): the
 * backup of each file operand, under each suffix given (the last wins; each is judged).
 */
export function sedBackups(argv: Word[]): NamedFile[] {
  const { tokens, words } = tokensOf(argv, "sed");
  const suffixes: string[] = [];
  let scripted = false;
  const files: string[] = [];
  for (const t of tokens) {
    if (t.kind === "operand" && words[t.at] !== null) files.push(words[t.at]!);
    if ((t.name === "-i" || t.name === "--in-place") && t.glued) suffixes.push(t.glued);
    // (Without -e or -f, the first operand is the script.)
    if (/^(-e|-f|--expression|--file)$/.test(t.name)) scripted = true;
  }
  return inPlace(argv, suffixes, scripted ? files : files.slice(1));
}

/**
 * perl's in-place suffix (`-pi.bak`, `-i.bak`): the backup of each file operand. perl reads its
 * switches as clusters up to its first operand (its script, unless `-e`/`-E` gave the code:
 * `-e CODE`, or glued, `-pe1`); a switch that takes the rest of its word ends the cluster.
 */
export function perlBackups(argv: Word[]): NamedFile[] {
  const suffixes: string[] = [];
  let scripted = false;
  let i = 1;
  for (; i < argv.length; i++) {
    const w = argv[i];
    // (A word not known may be `-e…`: what follows is then taken for files.)
    if (w.kind !== "static") {
      scripted = true;
      continue;
    }
    const v = w.value;
    if (v === "--") i++;
    if (v === "--" || !v.startsWith("-") || v === "-") break;
    for (let j = 1; j < v.length; j++) {
      const c = v[j];
      const rest = v.slice(j + 1);
      if (c === "e" || c === "E" || c === "I") {
        scripted ||= c !== "I";
        if (rest === "") i++;
        break;
      }
      if (c === "i") {
        if (rest !== "") suffixes.push(rest);
        break;
      }
      // (-x, -F, -m, -M, -d, -D and -V take the rest of the word; -0, -l and -C what fits.)
      if ("xFmMdDV".includes(c)) break;
      if (c === "0" || c === "l") j += /^(x[0-9a-fA-F]*|[0-7]*)/.exec(rest)![0].length;
      if (c === "C") j += /^[0-9IOEioSDLAa]*/.exec(rest)![0].length;
    }
  }
  const files = argv.slice(i).flatMap((w) => (w.kind === "static" ? [w.value] : []));
  return inPlace(argv, suffixes, scripted ? files : files.slice(1));
}

/** The backups of `files` under each of `suffixes`. */
function inPlace(argv: Word[], suffixes: string[], files: string[]): NamedFile[] {
  return suffixes.flatMap((suffix) => {
    const source = `(the backup ${argv[0].value} -i${suffix} keeps)`;
    return files.map((f) => ({ path: backupOf(f, suffix), source }));
  });
}
