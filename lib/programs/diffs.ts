/**
 * The files a patch changes (`patch`, `git apply`, `git am`), read from its diff: the paths of its
 * `---`/`+++`/`***`/`Index:` lines and of git's `diff --git`, `rename to` and `copy to` lines,
 * each with the leading components `-pN` strips, and also as written (the strip count is the
 * program's to choose: without `-p`, patch takes the base name). The diff is read where it is
 * given inline (a here-document or here-string) or from a file (`-i`, `<`, git's operands) as it
 * will be when the command runs; from a pipe, a file another stage of the command writes or one
 * not read, its names are not known, and the program may write anything below its directory.
 *
 * @example
 * ```ts
 * import { patchedFiles } from "./diffs.ts";
 * patchedFiles("--- a/src/x.ts\n+++ b/src/x.ts\n@@ -1 +1 @@\n-a\n+b", 1);
 * // ["src/x.ts"]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { staticValue } from "./command_words.ts";
import type { MadeLink, NamedFile, NamedFilesGiven, ReadFile } from "./spec.ts";
import { dirname, join, resolve } from "node:path";
import { inputText } from "./words.ts";
import { backupNamed, environmentSuffix } from "./backups.ts";
import { binaryLiteral, gitHeaderNames, unquotedName } from "./git_patch_text.ts";

/** A `---`/`+++` line of a diff, the name its first group. */
const HEADER = /^(?:\+\+\+|---|\*\*\*|Index:) ("(?:[^"\\]|\\.)*"|[^\t\n]+?)(?:\t.*)?$/;
/** git's lines that name a file without a prefix to strip. */
const GIT_NAMES = /^(?:rename|copy) to (.+)$/;

/** The path with `strip` leading components removed (null: none left). */
function stripped(path: string, strip: number): string | null {
  const parts = path.split("/").filter((p, i) => p !== "" || i === 0);
  if (strip >= parts.length) return null;
  return strip === 0 ? path : parts.slice(strip).join("/");
}

/**
 * The forms of a name a diff gives: with `strip` leading components removed when given, else as
 * written, with one removed and as a base name (what patch and git apply may make of it); a name
 * not `prefixed` (git's `rename to`) as written.
 */
function nameForms(raw: string, strip: number | null, prefixed = true): string[] {
  const path = unquotedName(raw);
  if (path === "" || path === "/dev/null") return [];
  const forms = !prefixed
    ? [path]
    : strip === null
    ? [path, stripped(path, 1), path.slice(path.lastIndexOf("/") + 1)]
    : [stripped(path, strip)];
  return forms.filter((f, i): f is string => !!f && forms.indexOf(f) === i);
}

/**
 * The paths a diff's text names, each with `strip` leading components removed when given, else
 * as written, with one removed and as a base name (see `nameForms`).
 */
export function patchedFiles(text: string, strip: number | null): string[] {
  const out = new Set<string>();
  const add = (raw: string, prefixed = true) => {
    for (const f of nameForms(raw, strip, prefixed)) out.add(f);
  };
  for (const line of text.split("\n")) {
    const header = gitHeaderNames(line);
    if (header) {
      add(header[0]);
      add(header[1]);
      continue;
    }
    const m = HEADER.exec(line);
    if (m) add(m[1]);
    else {
      const named = GIT_NAMES.exec(line);
      if (named) add(named[1], false);
    }
  }
  return [...out];
}

/** git's lines that make a symlink of the file: its mode, 120000 (the old one's, reversed). */
const LINK_MODES = [
  /^(?:new file mode|new mode|index [0-9a-f]+\.\.[0-9a-f]+) 120000$/,
  /^(?:deleted file mode|old mode|index [0-9a-f]+\.\.[0-9a-f]+) 120000$/,
];

/** git's lines that name a file's old (`from`, `---`) or new (`to`, `+++`) name. */
const GIT_NAMED = /^(?:(rename|copy) (from|to) (.+)|(---|\+\+\+) ("(?:[^"\\]|\\.)*"|[^\t]+))/;

/** A link a diff makes: its name as the diff gives it (`prefixed`: one `-p` strips), its target. */
interface LinkPatched {
  name: string;
  prefixed: boolean;
  target: string | null;
}

/**
 * The symlinks a git diff's sections make (see `patchedLinks`): each section's name (the new one,
 * the old one reversed: from `diff --git`, then `---`/`+++`, `rename`/`copy` lines), and its
 * target, the line its hunk adds or the content of its `GIT binary patch` literal (the second
 * hunk, reversed); null where that is not known (a delta, `Binary files … differ`).
 */
function linkSections(text: string, reverse: boolean): LinkPatched[] {
  const out: LinkPatched[] = [];
  let name: { name: string; prefixed: boolean } | null = null;
  let [link, hunk, done] = [false, false, false];
  // (The binary hunks read: their lines, and which one is this side's.)
  let binary: string[][] | null = null;
  const [mode, added, side] = reverse ? [LINK_MODES[1], "-", "from"] : [LINK_MODES[0], "+", "to"];
  const flush = (target: string | null) => {
    if (link && !done && name && name.name !== "/dev/null") out.push({ ...name, target });
    done = true;
  };
  for (const line of text.split("\n")) {
    const header = gitHeaderNames(line);
    if (header) {
      if (binary) flush(binaryTarget(binary, reverse));
      name = { name: header[reverse ? 0 : 1], prefixed: true };
      [link, hunk, done, binary] = [false, false, false, null];
      continue;
    }
    if (name === null || done) continue;
    if (binary) {
      const last = binary[binary.length - 1];
      if (line === "") binary.push([]);
      else if (last.length || /^(literal|delta) \d+$/.test(line)) last.push(line);
      continue;
    }
    if (mode.test(line)) link = true;
    else if (line.startsWith("@@")) hunk = true;
    else if (hunk) {
      if (line.startsWith(added) && !/^(\+\+\+|---) /.test(line)) flush(line.slice(1));
    } else if (line === "GIT binary patch") {
      // (Of a file that is no link, a picture: not read.)
      if (link) binary = [[]];
      else done = true;
    } else if (/^Binary files .* differ$/.test(line)) flush(null);
    else {
      const m = GIT_NAMED.exec(line);
      const old = m?.[2] === "from" || m?.[4] === "---";
      if (m && old === (side === "from")) {
        const given = unquotedName(m[3] ?? m[5]);
        if (given !== "/dev/null") name = { name: given, prefixed: m[4] !== undefined };
      }
    }
  }
  if (binary) flush(binaryTarget(binary, reverse));
  return out;
}

/** The target a link's binary hunks give (the second one, reversed), or null: not known. */
function binaryTarget(hunks: string[][], reverse: boolean): string | null {
  const hunk = hunks.filter((h) => h.length)[reverse ? 1 : 0];
  return hunk ? binaryLiteral(hunk) : null;
}

/**
 * The symlinks a diff makes (git's `new file mode 120000`, a mode changed to it, a link given
 * another target), each where the file is (the forms `patchedFiles` gives; a name from `rename
 * to` as written) and leading where its hunk (or binary literal) says, null where that is not
 * known; a reversed diff (`-R`) makes those it removes.
 */
export function patchedLinks(
  text: string,
  strip: number | null,
  reverse = false,
): { path: string; target: string | null }[] {
  const out: { path: string; target: string | null }[] = [];
  for (const { name, prefixed, target } of linkSections(text, reverse)) {
    if (target === "") continue;
    for (const path of nameForms(name, strip, prefixed)) out.push({ path, target });
  }
  return out;
}

/** GNU patch's options (2.7). */
export const PATCH_OPTIONS: OptionGrammar = {
  flags: "bcefElnNRstTuvZ",
  valued: "BdDFgiopVrxYz",
  longFlags: new Set([
    "--backup",
    "--backup-if-mismatch",
    "--no-backup-if-mismatch",
    "--context",
    "--dry-run",
    "--ed",
    "--remove-empty-files",
    "--force",
    "--help",
    "--ignore-whitespace",
    "--normal",
    "--forward",
    "--posix",
    "--reverse",
    "--silent",
    "--quiet",
    "--batch",
    "--set-time",
    "--unified",
    "--version",
    "--verbose",
    "--set-utc",
    "--follow-symlinks",
  ]),
  longValued: new Set([
    "--prefix",
    "--directory",
    "--ifdef",
    "--fuzz",
    "--get",
    "--input",
    "--output",
    "--strip",
    "--reject-file",
    "--version-control",
    "--debug",
    "--basename-prefix",
    "--suffix",
    "--quoting-style",
    "--read-only",
    "--reject-format",
  ]),
  longOptional: new Set(["--merge"]),
  abbreviations: true,
};

/**
 * What `patch` writes by names its diff gives: the files the diff names (read from a
 * here-document, from the file `-i` or `<` names, as it is when the command runs) and their
 * backups where `-B`/`-Y` put them elsewhere. Where the names cannot be known (a pipe, a file
 * another stage writes, an unknown option, `-d`), everything below its directory: GNU patch
 * takes no absolute name and no `..`. Given the file to patch (`patch f.c fix.diff`), or `-o`,
 * or `--dry-run`, it writes no file its diff names.
 */
export function patchFiles(argv: Word[], stage?: Stage, given?: NamedFilesGiven): NamedFile[] {
  const read = given?.read;
  if (!stage) return [];
  const args = argv.slice(1).map(staticValue);
  const source = "(what the patch changes)";
  const anything: NamedFile[] = [{ path: ".", source, below: true }];
  let strip: number | null = null;
  let input: string | undefined;
  let backup: string | null = null;
  let basename: string | null = null;
  // (A backup suffix, `-z SUF` or the environment's: GNU patch keeps a backup with `-b`, and of a
  // file a hunk does not fit exactly without it.)
  let suffix = environmentSuffix(stage);
  let operands = 0;
  let patched: string | null = null;
  for (const t of readOptions(args, PATCH_OPTIONS)) {
    if (t.kind === "operand") {
      if (operands++ === 0) patched = args[t.at];
      continue;
    }
    if (t.kind === "dynamic" || t.kind === "unknown") return anything;
    const value = t.kind === "valued"
      ? t.glued ?? (t.valueAt === undefined ? null : args[t.valueAt])
      : undefined;
    if (value === null) return anything;
    if (t.name === "--dry-run" || t.name === "-o" || t.name === "--output") return [];
    if (t.name === "-d" || t.name === "--directory") return anything;
    if (t.name === "-p" || t.name === "--strip") {
      strip = Number.isInteger(Number(value)) ? Number(value) : null;
    } else if (t.name === "-i" || t.name === "--input") input = value === "-" ? undefined : value!;
    else if (t.name === "-B" || t.name === "--prefix") backup = value!;
    else if (t.name === "-Y" || t.name === "--basename-prefix") basename = value!;
    else if (t.name === "-z" || t.name === "--suffix") suffix = value!;
  }
  // (Given the file to patch, that operand is the file written, judged as an argument; its
  // backups, named after it, are not.)
  const backups = (path: string): NamedFile[] => {
    const out: NamedFile[] = [];
    if (suffix !== undefined) out.push(backupNamed(path, suffix, source));
    if (backup !== null) out.push({ path: backup + path, source });
    if (basename !== null) {
      const at = path.lastIndexOf("/") + 1;
      out.push({ path: path.slice(0, at) + basename + path.slice(at), source });
    }
    return out;
  };
  if (operands > 0) {
    const kept = suffix !== undefined || backup !== null || basename !== null;
    return !kept ? [] : patched === null ? anything : backups(patched);
  }
  const text = input !== undefined ? (read ? read(input) : null) : inputText(stage, read);
  if (text === undefined) return [];
  const names = text === null ? [] : patchedFiles(text, strip);
  if (!names.length) {
    return backup === null
      ? anything
      : [...anything, { path: backupDirectory(backup), source, below: true }];
  }
  const out: NamedFile[] = [];
  for (const path of names) out.push({ path, source }, ...backups(path));
  return out;
}

/**
 * The symlinks `patch` makes from a git diff (see `patchedLinks`), read as `patchFiles` reads
 * its diff (`read`: a file's text from the stage's cwd, as it is now), for each cwd, below `-d`'s
 * directory; none where it writes no file the diff names or the diff is not known.
 */
export function patchLinks(stage: Stage, read?: ReadFile): MadeLink[] {
  const args = stage.argv.slice(1).map(staticValue);
  let strip: number | null = null;
  let input: string | undefined;
  let dir = ".";
  let reverse = false;
  for (const t of readOptions(args, PATCH_OPTIONS)) {
    if (t.kind !== "flag" && t.kind !== "valued") return [];
    const value = t.kind === "valued"
      ? t.glued ?? (t.valueAt === undefined ? null : args[t.valueAt])
      : undefined;
    if (value === null || ["--dry-run", "-o", "--output"].includes(t.name)) return [];
    if (t.name === "-p" || t.name === "--strip") strip = Number(value);
    else if (t.name === "-i" || t.name === "--input") input = value!;
    else if (t.name === "-d" || t.name === "--directory") dir = value!;
    else if (t.name === "-R" || t.name === "--reverse") reverse = true;
  }
  const text = input !== undefined && input !== "-"
    ? read?.(input.startsWith("/") ? input : join(dir, input)) ?? null
    : inputText(stage, read);
  if (!text) return [];
  const links = patchedLinks(text, Number.isInteger(strip) ? strip : null, reverse);
  return madeLinks(stage, links, dir);
}

/** The links a patch makes below `dir` (from each cwd of `stage`), absolute. */
export function madeLinks(
  stage: Stage,
  links: { path: string; target: string | null }[],
  dir: string,
): MadeLink[] {
  const out: MadeLink[] = [];
  for (const cwd of stage.cwds) {
    if (cwd === null) continue;
    for (const { path, target } of links) {
      const link = resolve(cwd, dir, path);
      const to = target === null || target.startsWith("/") ? target : `${dirname(link)}/${target}`;
      out.push({ link, target: to, by: stage });
    }
  }
  return out;
}

/**
 * The symlinks `git apply` and `git am` (the subcommand at `at`) make from their patches (see
 * `patchedLinks`, `gitPatchFiles`), for the stages after them.
 */
export function gitPatchLinks(stage: Stage, at: number, read?: ReadFile): MadeLink[] {
  const sub = stage.argv[at];
  if (sub?.kind !== "static" || (sub.value !== "apply" && sub.value !== "am")) return [];
  const args = stage.argv.slice(at + 1).map(staticValue);
  let strip = 1;
  let root = ".";
  let reverse = false;
  let [reports, applies, ended] = [false, false, false];
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null) return [];
    if (ended || !a.startsWith("-") || a === "-") {
      if (a !== "-") files.push(a);
    } else if (a === "--") ended = true;
    else if (GIT_APPLY_REPORTS.has(a)) reports = true;
    else if (a === "--apply") applies = true;
    else if (a === "--cached") return [];
    else if (a === "-R" || a === "--reverse") reverse = true;
    else if (/^-p\d+$/.test(a)) strip = Number(a.slice(2));
    else if (a === "-p") strip = Number(args[++i] ?? "1");
    else if (a.startsWith("--directory=")) root = a.slice(12) || ".";
    else if (a === "--directory") root = args[++i] ?? ".";
  }
  if (reports && !applies) return [];
  const texts = files.length ? files.map((f) => read?.(f) ?? null) : [inputText(stage, read)];
  const links = texts.flatMap((text) => text ? patchedLinks(text, strip, reverse) : []);
  return madeLinks(stage, links, root);
}

/** The directory a backup prefix (`-B keys/`) puts backups below. */
function backupDirectory(prefix: string): string {
  const at = prefix.lastIndexOf("/");
  return at < 0 ? "." : prefix.slice(0, at) || "/";
}

/** git apply's options that apply nothing (`--stat`, `--check`) unless `--apply` is given too. */
const GIT_APPLY_REPORTS = new Set(["--stat", "--numstat", "--summary", "--check"]);

/**
 * What `git apply` and `git am` (`args`: the words after the subcommand) write by names their
 * patches give: the files the patches name (the operands, read as they are when the command runs,
 * or standard input), `-p1` unless told; everything below the cwd where those cannot be known.
 * Nothing when git only reports (`--stat`, `--check`) or applies to the index alone (`--cached`).
 */
export function gitPatchFiles(
  args: (string | null)[],
  stage: Stage | undefined,
  read: ReadFile | undefined,
): NamedFile[] {
  if (!stage) return [];
  const source = "(what the patch changes)";
  const anything: NamedFile[] = [{ path: ".", source, below: true }];
  let strip = 1;
  let root = "";
  let reports = false;
  let applies = false;
  let cached = false;
  let ended = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null) return anything;
    if (ended || !a.startsWith("-") || a === "-") {
      if (a !== "-") files.push(a);
      continue;
    }
    if (a === "--") ended = true;
    else if (GIT_APPLY_REPORTS.has(a)) reports = true;
    else if (a === "--apply") applies = true;
    else if (a === "--cached") cached = true;
    else if (/^-p\d+$/.test(a)) strip = Number(a.slice(2));
    else if (a === "-p") strip = Number(args[++i] ?? "1");
    else if (a.startsWith("--directory=")) root = a.slice(12).replace(/\/*$/, "/");
    else if (a === "--directory") root = (args[++i] ?? "").replace(/\/*$/, "/");
  }
  if ((reports && !applies) || cached) return [];
  const input = files.length ? null : inputText(stage, read);
  if (input === undefined) return [];
  const texts = files.length ? files.map((f) => (read ? read(f) : null)) : [input];
  const out: NamedFile[] = [];
  for (const text of texts) {
    const names = text === null ? [] : patchedFiles(text, Number.isInteger(strip) ? strip : null);
    if (!names.length) return anything;
    for (const path of names) out.push({ path: root + path, source });
  }
  return out;
}
