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

/** The static operands (not options). */
function operands(argv: Word[], valued: RegExp): string[] {
  const out: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i].kind === "static" ? argv[i].value : null;
    if (v === null) continue;
    if (v.startsWith("-")) {
      if (valued.test(v)) i++;
      continue;
    }
    out.push(v);
  }
  return out;
}

/**
 * cp, mv, install and ln with `-b`/`--backup`: the destination's backup, under `-S SUF` /
 * `--suffix=SUF` (else `~`), at the destination or, into a directory, at each source's name there.
 */
export function copyBackups(argv: Word[], stage?: Stage): NamedFile[] {
  const words = argv.map((w) => (w.kind === "static" ? w.value : ""));
  if (!words.some((v, i) => i > 0 && /^(-[a-zA-Z]*b[a-zA-Z]*|--backup(=.*)?)$/.test(v))) return [];
  // (`-S` wins over the environment's `SIMPLE_BACKUP_SUFFIX`.)
  let suffix: string | null = environmentSuffix(stage) ?? "~";
  for (let i = 1; i < words.length; i++) {
    const v = words[i];
    if (v === "-S" || v === "--suffix") suffix = words[i + 1] ?? suffix;
    else if (v.startsWith("--suffix=")) suffix = v.slice(9);
    else if (/^-S./.test(v)) suffix = v.slice(2);
  }
  const ops = operands(
    argv,
    /^(-[a-zA-Z]*[StmogT]|--suffix|--target-directory|--mode|--owner|--group)$/,
  );
  const dest = ops.at(-1);
  if (ops.length < 2 || dest === undefined) return [];
  const source = `(the backup ${argv[0].value} -b keeps)`;
  const out: NamedFile[] = [backupNamed(dest, suffix, source)];
  for (const src of ops.slice(0, -1)) {
    out.push(backupNamed(`${dest}/${src.slice(src.lastIndexOf("/") + 1)}`, suffix, source));
  }
  return out;
}

/**
 * sed's and perl's in-place suffix (`-i.bak`, `-i'bak/*'`, `--in-place=SUF`): the backup of each
 * file operand.
 */
export function inPlaceBackups(argv: Word[]): NamedFile[] {
  let suffix: string | null = null;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") continue;
    // (What follows `-i` in its word is the suffix: `-i.bak`, and `-in` too, GNU sed's `n`.)
    const m = /^(?:-[a-zA-Z]*i|--in-place=)(.+)$/.exec(w.value);
    if (m) suffix = m[1];
  }
  if (suffix === null) return [];
  const source = `(the backup ${argv[0].value} -i${suffix} keeps)`;
  // (Without -e or -f, the first operand is the script: sed's text, perl's program file.)
  const scripted = argv.some((w) =>
    /^(-[a-zA-Z]*[efE][a-zA-Z]*|--expression(=.*)?|--file(=.*)?)$/.test(w.value)
  );
  const files = operands(argv, /^(-[a-zA-Z]*[efI]|--expression|--file)$/).slice(scripted ? 0 : 1);
  return files.map((f) => ({ path: backupOf(f, suffix!), source }));
}
