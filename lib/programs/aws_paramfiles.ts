/**
 * The files aws reads a parameter's value from (awscli/paramfile.py): a value that begins
 * `file://` (its text) or `fileb://` (its bytes), as a word of its own or after `--name=`, and
 * in shorthand syntax a value after `@=` (`--opt 'k@=fileb://key,x=1'`, aws v2). The prefixes are
 * matched in their case only (`FILEB://x` is a string). aws expands `~` and then `$VAR`/`${VAR}`
 * in the path itself (`os.path.expandvars(os.path.expanduser(path))`), so a quoted
 * `'file://$HOME/.aws/credentials'`, which bash leaves alone, is the home's file. The text a
 * `file://` value loads is read as shorthand in turn (not JSON: one starting `{` or `[`), whose
 * `@=` values name files too, where that text is known when the command is decided.
 *
 * @example
 * ```ts
 * import { awsParamFiles } from "./aws_paramfiles.ts";
 * import { literal } from "./words.ts";
 * awsParamFiles(["aws", "kms", "encrypt", "--plaintext", "fileb://~/k"].map(literal));
 * // [{ path: "~/k", source: "aws (a value read from fileb://~/k)" }]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { NamedFile, NamedFilesGiven } from "./spec.ts";

/** A paramfile prefix (case as written), and what follows it. */
const PREFIX = /^(fileb?):\/\//;
/** `--name=VALUE`: argparse's value. */
const LONG_VALUE = /^--[^=]+=/;
/** Shorthand's `key@=` (whitespace allowed around `@` and `=`), before the value. */
const FILE_KEY = /\s*@\s*=\s*/g;
/** An unquoted shorthand value: up to a quote, `,` (not `\,`), `]` or `}`. */
const UNQUOTED = /^(?:\\,|[^"',\]}])*/;

/** One paramfile a text names: its path as written, and whether the text ended inside it. */
interface ParamFile {
  prefix: string;
  path: string;
  open: boolean;
}

/** The paramfiles one value names (a word, or a shorthand text aws loaded). */
function paramFiles(text: string, whole: boolean): ParamFile[] {
  const out: ParamFile[] = [];
  if (whole) {
    const value = LONG_VALUE.test(text) ? text.slice(text.indexOf("=") + 1) : text;
    const m = PREFIX.exec(value);
    // (The value is the file's, read whole: no shorthand of the word itself is parsed then.)
    if (m) return [{ prefix: m[0], path: value.slice(m[0].length), open: true }];
  }
  if (!text.includes("@")) return out;
  for (const m of text.matchAll(FILE_KEY)) {
    const value = shorthandValue(text.slice(m.index + m[0].length));
    const p = PREFIX.exec(value.text);
    if (p) out.push({ prefix: p[0], path: value.text.slice(p[0].length), open: value.open });
  }
  return out;
}

/**
 * A shorthand value at the start of `rest` (awscli/shorthand.py): quoted (`'…'`, `"…"`, with
 * `\'`, `\"` and `\\` escaped) or up to a delimiter (`\,` a comma), its trailing space dropped;
 * `open` where `rest` ends inside it (a quote not closed, no delimiter after it).
 */
function shorthandValue(rest: string): { text: string; open: boolean } {
  const q = rest[0];
  if (q === "'" || q === '"') {
    let text = "";
    for (let i = 1; i < rest.length; i++) {
      const c = rest[i];
      if (c === q) return { text, open: false };
      if (c === "\\" && (rest[i + 1] === q || rest[i + 1] === "\\")) text += rest[++i];
      else text += c;
    }
    return { text, open: true };
  }
  const value = UNQUOTED.exec(rest)![0];
  return { text: value.replace(/\\,/g, ",").trimEnd(), open: value.length === rest.length };
}

/**
 * A paramfile's path as aws opens it: `~` and `~/…` the home's (`~/…`), `$HOME`/`${HOME}` at its
 * start too (bash's assignments of HOME are judged where they are made); another `~user` or
 * variable is not known (null). "" for none (`~` alone is a directory).
 */
function expanded(path: string): string | null {
  let p = path;
  if (p === "~") return "";
  if (p.startsWith("~")) {
    if (!p.startsWith("~/")) return null;
  } else {
    // (`${HOME}x`, `$HOME.old` name another directory than the home.)
    const home = /^\$(?:HOME|\{HOME\})(?=\/|$)/.exec(p);
    if (home) p = "~" + p.slice(home[0].length);
  }
  if (/\$(?:\w|\{)/.test(p)) return null;
  return p === "~" || p === "~/" ? "" : p;
}

/**
 * The files aws reads parameter values from (see the module). `read` gives a `file://` file's
 * text, whose shorthand `@=` values are files too.
 */
export function awsParamFiles(argv: Word[], given?: NamedFilesGiven): NamedFile[] {
  const out: NamedFile[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    const text = w.kind === "dynamic" ? w.prefix : w.value;
    if (!text.includes("file")) continue;
    for (const f of paramFiles(text, true)) {
      const source = `aws (a value read from ${f.prefix}${f.path})`;
      // (A path whose end is not known: any file.)
      const path = w.kind === "dynamic" && f.open ? null : expanded(f.path);
      if (path === "") continue;
      out.push({ path, source });
      if (path !== null && f.prefix === "file://") loaded(path, given, out);
    }
  }
  return out;
}

/**
 * The files the shorthand text of a loaded `file://` file names (`k@=fileb://x`), into `out`.
 * (The values `@=` loads are values, not read as shorthand again.)
 */
function loaded(path: string, given: NamedFilesGiven | undefined, out: NamedFile[]) {
  const home = given?.env?.HOME;
  const at = path.startsWith("~/") ? (home ? home + path.slice(1) : null) : path;
  const text = at === null ? null : given?.read?.(at) ?? null;
  // (JSON is read as JSON; a text not known now is left: see the module.)
  if (text === null || /^\s*[[{]/.test(text) || !text.includes("@")) return;
  for (const f of paramFiles(text, false)) {
    const inner = expanded(f.path);
    if (inner === "") continue;
    out.push({ path: inner, source: `aws (a value read from ${f.prefix}${f.path}, in ${path})` });
  }
}
