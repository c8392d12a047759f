/**
 * What bash's `read` builtin assigns when the text it reads is known: a here-string or a
 * here-document of static text (`read -r f <<< secrets/key`, `IFS=: read -r a b <<< "x:y"`), as
 * bash(1) and its read.def do it:
 *
 * - it reads up to the delimiter (a newline; `-d D` the first character of D, `-d ''` a NUL), or
 *   at most N characters with `-n N` (a delimiter still ends it), or exactly N with `-N N`
 *   (delimiters read as text, the whole text to the first name, not split); a here-string ends
 *   with a newline;
 * - the line is split by `IFS` (a `IFS=…` before `read`, else blank, tab and newline): IFS
 *   whitespace at both ends is dropped, each name but the last takes one field (a field ends at
 *   IFS whitespace and at most one other IFS character), and the last takes the rest, with its
 *   separators, unless the rest is one field and a separator (`x:` gives `x`); names left over are
 *   empty.
 *
 * `read -a NAME` fills the array with every field of the line (`readArray`), and `mapfile`/`readarray`
 * with its lines (`mapfileArray`).
 *
 * Not known: without `-r` where the text holds a backslash (escapes and continued lines), text
 * beyond ASCII with `-n`/`-N` (characters in a UTF-8 locale, bytes in the C locale) or a `-d` of
 * one (its first byte ends the line), `-t` (`-t 0` assigns nothing), `-u`, `-e`, `-i`, `-E`, an
 * option not known, a
 * name or option value not static.
 *
 * @module
 */
import type { Redirect, Word } from "./model.ts";
import { GRAMMARS, readOptions as builtinOptions } from "./builtin_options.ts";

/** The text a command's standard input reads where it is a static here-string or heredoc. */
export function documentText(redirects: readonly Redirect[]): string | null {
  let text: string | null = null;
  let inputs = 0;
  for (const r of redirects) {
    if (r.kind === "heredoc" || r.kind === "herestring") {
      inputs++;
      const b = r.body;
      if (b?.kind !== "static" || b.line || b.listed) return null;
      // (bash adds a newline to a here-string.)
      text = r.kind === "herestring" ? b.value + "\n" : b.value;
    } else if (/^0?</.test(r.op) || r.op === "<>" || /^0[<>]/.test(r.op)) inputs++;
  }
  return inputs === 1 ? text : null;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** How `read` was told to read: its options and names, IFS from its prefixes. */
interface ReadOptions {
  ifs: string;
  raw: boolean;
  delim: string;
  count: { n: number; exact: boolean } | null;
  /** `-a NAME`: the array the fields go to. */
  array?: string;
  names: string[];
}

/** `read ARGS` (`args` after `read`) read as its getopt does; null where not known. */
function readOptions(args: Word[], prefixes: Word[]): ReadOptions | null {
  const o: ReadOptions = { ifs: " \t\n", raw: false, delim: "\n", count: null, names: [] };
  for (const p of prefixes) {
    if (p.kind !== "static") return null;
    if (p.value.startsWith("IFS=")) o.ifs = p.value.slice(4);
  }
  // (`-e`, `-E`, `-i`: readline; `-t`: a timeout; `-u`: another descriptor: not known.)
  const r = builtinOptions(args, GRAMMARS.read);
  if (r.stop || /[eEitu]/.test(r.letters)) return null;
  o.raw = r.letters.includes("r");
  for (const [l, value] of r.values) {
    if (l === "d") o.delim = value === "" ? "\0" : value[0];
    else if (l === "a") {
      if (!NAME.test(value)) return null;
      o.array = value;
    } else if (l === "n" || l === "N") {
      if (!/^\d+$/.test(value)) return null;
      o.count = { n: Number(value), exact: l === "N" };
    }
  }
  for (const a of r.operands) {
    if (a.kind !== "static" || !NAME.test(a.value)) return null;
    o.names.push(a.value);
  }
  return o;
}

/**
 * Whether what `read` takes of `text` depends on the locale: `-n`/`-N` count characters in a UTF-8
 * locale and bytes in the C locale, and `-d` takes its delimiter's first byte (`-d é` also ends at
 * `è`), where the text goes beyond ASCII.
 */
function byLocale(o: ReadOptions, text: string): boolean {
  return (o.count !== null || o.delim > "\x7f") && /\P{ASCII}/u.test(text);
}

/** The line `read` takes of `text`, as `o` tells it (the delimiter, `-n`). */
function lineOf(o: ReadOptions, text: string): string {
  const line = text.slice(0, text.includes(o.delim) ? text.indexOf(o.delim) : text.length);
  return o.count ? line.slice(0, o.count.n) : line;
}

/**
 * The values `read ARGS` (`argv` after `read`) gives its names reading `text`, with `IFS` as the
 * `IFS=…` among `prefixes` sets it; null where not known (see the module).
 */
export function readValues(
  args: Word[],
  prefixes: Word[],
  text: string,
): [name: string, value: string][] | null {
  const o = readOptions(args, prefixes);
  if (o === null || o.array !== undefined || (!o.raw && text.includes("\\"))) return null;
  if (byLocale(o, text)) return null;
  const { names, count } = o;
  const whole = !names.length;
  if (whole) names.push("REPLY");
  if (count?.exact) {
    // (`-N`: exactly N characters, delimiters and all, unsplit, to the first name.)
    return names.map((n, k) => [n, k === 0 ? text.slice(0, count!.n) : ""]);
  }
  const line = lineOf(o, text);
  // (No name: REPLY takes the line as it is, not split, no IFS whitespace dropped.)
  if (whole) return [["REPLY", line]];
  return splitFields(line, o.ifs, names);
}

/**
 * The array `read -a NAME ARGS` fills reading `text`: each field of the line split by IFS an
 * element from 0 (bash empties the array first), IFS whitespace at both ends dropped, one
 * separator after the last field ending it (`x:` is `(x)`, `x::` is `(x "")`). Null where not
 * known (see the module; `-N`, names besides the array).
 */
export function readArray(
  args: Word[],
  prefixes: Word[],
  text: string,
): [name: string, words: string[]] | null {
  const o = readOptions(args, prefixes);
  if (o?.array === undefined || o.names.length || o.count?.exact) return null;
  if ((!o.raw && text.includes("\\")) || byLocale(o, text)) return null;
  const line = lineOf(o, text);
  const { white, field } = fields(o.ifs);
  let end = line.length;
  while (end > 0 && white(line[end - 1])) end--;
  const rest = line.slice(0, end);
  let at = 0;
  while (white(rest[at])) at++;
  const words: string[] = [];
  while (at < rest.length) {
    const [f, next] = field(rest, at);
    words.push(f);
    at = next;
  }
  return [o.array, words];
}

/**
 * The array `mapfile ARGS` / `readarray ARGS` fills reading `text` (bash(1), mapfile.def): bash
 * empties it, then each line (up to the delimiter, `-d D` the first character of D, `-d ''` a
 * NUL) is an element from 0, its delimiter kept but with `-t`, the last line without one too;
 * `-s N` skips the first N lines, `-n N` copies at most N (0: all). Null where not known: `-O`
 * (the array is not emptied: an element from the environment's scalar may stay), `-u`, `-C`,
 * `-c`, no name (MAPFILE, bash's), several names, a value not static.
 */
export function mapfileArray(args: Word[], text: string): [name: string, words: string[]] | null {
  // (`-O`, `-u`, `-C`, `-c`: not known, as the doc says.)
  const r = builtinOptions(args, GRAMMARS.mapfile);
  if (r.stop || /[OuCc]/.test(r.letters)) return null;
  const trim = r.letters.includes("t");
  let delim = "\n";
  let skip = 0;
  let most = 0;
  for (const [l, value] of r.values) {
    if (l === "d") delim = value === "" ? "\0" : value[0];
    else if (!/^\d+$/.test(value)) return null;
    else if (l === "s") skip = Number(value);
    else most = Number(value);
  }
  const name = r.operands[0];
  if (r.operands.length !== 1 || name.kind !== "static" || !NAME.test(name.value)) return null;
  const lines: string[] = [];
  for (let at = 0; at < text.length;) {
    const d = text.indexOf(delim, at);
    const end = d < 0 ? text.length : d + 1;
    lines.push(text.slice(at, trim && d >= 0 ? d : end));
    at = end;
  }
  const kept = lines.slice(skip);
  return [name.value, most ? kept.slice(0, most) : kept];
}

/** IFS's whitespace, and one field of a text from a place (at no IFS whitespace) and where the next begins. */
function fields(ifs: string) {
  const white = (c: string | undefined) =>
    c !== undefined && " \t\n".includes(c) && ifs.includes(c);
  const sep = (c: string | undefined) => c !== undefined && ifs.includes(c);
  const field = (s: string, at: number): [string, number] => {
    let end = at;
    while (end < s.length && !sep(s[end])) end++;
    let next = end;
    while (white(s[next])) next++;
    if (sep(s[next]) && !white(s[next])) {
      next++;
      while (white(s[next])) next++;
    }
    return [s.slice(at, end), next];
  };
  return { white, field };
}

/** The line split by `ifs` among `names`, as read does (see the module). */
function splitFields(line: string, ifs: string, names: string[]): [string, string][] {
  const { white, field } = fields(ifs);
  let at = 0;
  while (white(line[at])) at++;
  const out: [string, string][] = [];
  for (let k = 0; k < names.length - 1; k++) {
    const [f, next] = field(line, at);
    out.push([names[k], f]);
    at = next;
  }
  let end = line.length;
  while (end > at && white(line[end - 1])) end--;
  const rest = line.slice(at, end);
  // (The rest that is one field and a separator is that field.)
  const [f, next] = rest === "" ? ["", 0] : field(rest, 0);
  out.push([names[names.length - 1], next >= rest.length ? f : rest]);
  return out;
}
