/**
 * ls: it looks at a directory's names (never at the files below it), follows the links inside a
 * tree with `-RL`, and what it prints into a pipe (`ls src | xargs wc -l`): one name to a line,
 * the names of a directory's entries as they are (bare, so a program reading them opens them in
 * its own cwd, not in the directory), a file operand as it is written.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { recursiveDereference } from "./simple.ts";
import type { Listing, Program } from "./spec.ts";
import { literal } from "./words.ts";

/**
 * The options of GNU (and BSD) ls that leave what it prints into a pipe one plain name to a line.
 * A letter or long option not here (`-l`, `-s`, `-i`, `-m`, `-x`, `-C`, `-Q`, `-F`, `-p`, `-b`,
 * `-q`, `--format`, `--hyperlink`, `-a`, `-f`, ...) is unknown: what it prints is then not said.
 */
const LS: OptionGrammar = {
  flags: "1ABGHLNRSUXcdhkrtuvA",
  valued: "ITw",
  // deno-fmt-ignore
  longFlags: new Set(["--almost-all", "--ignore-backups", "--dereference",
    "--dereference-command-line", "--dereference-command-line-symlink-to-dir", "--literal",
    "--recursive", "--reverse", "--directory", "--group-directories-first", "--human-readable",
    "--si", "--kibibytes", "--no-group", "--zero"]),
  longValued: new Set(["--ignore", "--hide", "--sort", "--time", "--width", "--tabsize"]),
  longOptional: new Set(["--color", "--colour"]),
  abbreviations: true,
};

/** `--color=WHEN` values that print no escape codes into a pipe (bare `--color` is `always`). */
const PLAIN_COLOR = /^(never|no|none|auto|tty|if-tty)$/;

/** A relative path that stays below the cwd as it is written (no `..`, no `~`). */
function staysBelow(w: Word): boolean {
  return !/^[/~]/.test(w.value) && !/(^|\/)\.\.(\/|$)/.test(w.value);
}

/**
 * What ls prints into a pipe: with `-d`, its operands as they are (`.` without one); otherwise a
 * file operand as it is and the entries of a directory operand (or of the cwd) by their bare
 * names, which a reader opens in its own cwd (`ls src | xargs cat` reads `./NAME`): paths below
 * the cwd, not hidden unless `-A` (with `-a` it prints `..` too: not said). With several
 * operands, a glob or `-R` it prints `DIR:` headers as well, which stay below the cwd only when
 * every operand does. Null when an option may print anything else or an operand is not known.
 */
function lsListing(stage: Stage): Listing[] | null {
  const args = stage.argv.slice(1);
  // (A glob that may match a name ls reads as options is not known: one with a prefix, or one
  // whose matches end with `/`, which no option of ls does, cannot.)
  const values = args.map((w) =>
    w.kind === "static" || (w.kind === "glob" && (w.prefix !== "" || w.value.endsWith("/")))
      ? w.value
      : null
  );
  let all = false;
  let directories = false;
  let recursive = false;
  const operands: Word[] = [];
  for (const t of readOptions(values, LS)) {
    if (t.kind === "unknown" || t.kind === "dynamic") return null;
    if (t.kind === "operand") {
      // (A name that may be read as an option by the program it is given to: not said.)
      if (args[t.at].value.startsWith("-")) return null;
      operands.push(args[t.at]);
    }
    if (t.kind !== "flag" && t.kind !== "valued") continue;
    if (/^--colou?r$/.test(t.name) && !PLAIN_COLOR.test(t.glued ?? "always")) return null;
    if (t.name === "-A" || t.name === "--almost-all") all = true;
    if (t.name === "-d" || t.name === "--directory") directories = true;
    if (t.name === "-R" || t.name === "--recursive") recursive = true;
  }
  const named = operands.map((under): Listing => ({ under, exact: true }));
  if (directories) return operands.length ? named : [{ under: literal("."), exact: true }];
  const headers = recursive || operands.length > 1 || operands.some((w) => w.kind === "glob");
  if (headers && !operands.every(staysBelow)) return null;
  // A header names a directory as written (`src:`, `./sub:`), hidden when it is (`.:` for the
  // cwd): then no filter of the names. (A glob matches hidden names only when its last part
  // starts with `.`, as bash's does without `dotglob`.)
  const cwd = !operands.length || operands.some((w) => /^\.\/*$/.test(w.value));
  const hiddenHeader = operands.some((w) =>
    !/^\.\/*$/.test(w.value) && /(^|\/)\.([^/]|$)/.test(w.value.replace(/\/+$/, ""))
  );
  const names = all || (headers && hiddenHeader) ? undefined : "*";
  const dot = headers && cwd ? [{ under: literal(".:"), exact: true }] : [];
  // (ls prints the names as they are: `-x`.)
  return [...named, ...dot, { under: literal("."), names, bare: true }];
}

/** ls. */
export const LS_PROGRAM: Program = {
  names: ["ls"],
  metadataOnly: true,
  followsLinks: recursiveDereference,
  lists: lsListing,
};
