/**
 * The files curl's words name in spellings of its own: its URL globbing (`{a,b}`, `[a-z]`,
 * `[001-100:2]`, off with `-g`), which makes several URLs of one (`file:///p/secr{e}ts/key` reads
 * `secrets/key`) and several uploads of one `-T` (`-T '{.env,README.md}'`), whose parts `-o`
 * names with `#N` (`-o '#1' 'http://x/{.pi/settings.json}'` writes the gate's own file); a
 * `file:` URL's path (`%`-escapes decoded); the files `--data-urlencode` and `--url-query` read
 * (`@FILE`, `NAME@FILE`) and `-F` sends (`NAME=@FILE`, `NAME=<FILE`, quoted, in a comma list,
 * with `;type=`/`;filename=` after, `;headers=@FILE`).
 *
 * @example
 * ```ts
 * import { curlGlob, formFiles } from "./curl_files.ts";
 * curlGlob("file:///p/secr{e,x}ts/key")!.map((g) => g.text);
 * // ["file:///p/secrets/key", "file:///p/secrxts/key"]
 * formFiles('f=@"secrets/key";type=text/plain');
 * // ["secrets/key"]
 * ```
 *
 * @module
 */
import { basename } from "node:path";

/** A URL: its scheme, and the path its base name comes from. */
export const URL_PATH = /^[a-zA-Z][\w+.-]*:\/\/[^/?#]*(\/[^?#]*)?/;

/** The file name a URL is saved under (a directory's: `index.html`); null for no URL. */
export function urlName(value: string, page = "index.html"): string | null {
  const m = URL_PATH.exec(value);
  if (!m) return null;
  const name = basename(m[1] ?? "");
  if (name === "") return page;
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** One URL a glob makes, and the text each of its globs gave (`#1` is `parts[0]`). */
export interface Globbed {
  text: string;
  parts: string[];
  /** The parts of named globs (curl 8.x's `{<name>a,b}`, `#<name>`). */
  named: Record<string, string>;
}

/** A piece of a glob: fixed text, or the values one glob takes (and its name, if any). */
type Piece = string | { values: string[]; name?: string };

/** How many URLs a glob may make before its names are not computed. */
const GLOB_LIMIT = 256;

/** A range's values (`a-z`, `1-10:2`, `001-100`), or null where curl refuses it. */
function rangeValues(body: string): string[] | null {
  const alpha = /^([a-zA-Z])-([a-zA-Z])(?::(\d+))?$/.exec(body);
  if (alpha) {
    const [min, max] = [alpha[1].charCodeAt(0), alpha[2].charCodeAt(0)];
    const step = alpha[3] === undefined ? 1 : Number(alpha[3]);
    if (!step || min > max || (min !== max && step > max - min) || max - min > 25) return null;
    const out: string[] = [];
    for (let c = min; c <= max && out.length <= GLOB_LIMIT; c += step) {
      out.push(String.fromCharCode(c));
    }
    return out;
  }
  const num = /^(\d+)-\s*(\d+)(?::(\d+))?$/.exec(body);
  if (!num) return null;
  const [min, max] = [Number(num[1]), Number(num[2])];
  const step = num[3] === undefined ? 1 : Number(num[3]);
  if (!step || min > max || (min !== max && step > max - min)) return null;
  // (A leading zero pads every value to the first number's width.)
  const pad = num[1].startsWith("0") ? num[1].length : 0;
  const out: string[] = [];
  for (let n = min; n <= max && out.length <= GLOB_LIMIT; n += step) {
    out.push(String(n).padStart(pad, "0"));
  }
  return out;
}

/** An IPv6 literal at the start of `text` (`[::1]`): curl leaves it as it is. */
const IPV6 = /^\[[0-9a-fA-F:.]*:[0-9a-fA-F:.]*:[0-9a-fA-F:.]*(%[\w.~-]+)?\]/;

/**
 * A URL's glob as curl (tool_urlglob.c) reads it: its pieces; null where curl refuses it (an
 * unmatched or nested brace, a bad range). `named`: curl 8.x's glob names (`{<n>a,b}`).
 */
function globPieces(text: string, named: boolean): Piece[] | null {
  const pieces: Piece[] = [];
  let fixed = "";
  for (let i = 0; i < text.length;) {
    const c = text[i];
    if (c === "[") {
      const v6 = IPV6.exec(text.slice(i))?.[0] ?? (text[i + 1] === "]" ? "[]" : "");
      if (v6) {
        fixed += v6;
        i += v6.length;
        continue;
      }
    }
    if (c === "}" || c === "]") return null;
    if (c === "\\" && /[{}[\]]/.test(text[i + 1] ?? "")) {
      fixed += text[i + 1];
      i += 2;
      continue;
    }
    if (c !== "{" && c !== "[") {
      fixed += c;
      i++;
      continue;
    }
    if (fixed) pieces.push(fixed);
    fixed = "";
    i++;
    let name: string | undefined;
    const m = named ? /^<([^>]{1,64})>/.exec(text.slice(i)) : null;
    if (m) {
      name = m[1];
      i += m[0].length;
    }
    if (c === "[") {
      const end = text.indexOf("]", i);
      const values = end < 0 ? null : rangeValues(text.slice(i, end));
      if (values === null) return null;
      pieces.push({ values, name });
      i = end + 1;
      continue;
    }
    // A set: its elements up to `}`, `\` escaping any character.
    const values: string[] = [];
    let element = "";
    for (;;) {
      const d = text[i];
      if (d === undefined || d === "{" || d === "[" || d === "]") return null;
      if (d === "}" || d === ",") {
        values.push(element);
        element = "";
        i++;
        if (d === "}") break;
        continue;
      }
      if (d === "\\" && i + 1 < text.length) i++;
      element += text[i++];
    }
    if (values.length === 1 && values[0] === "") return null;
    pieces.push({ values, name });
  }
  if (fixed) pieces.push(fixed);
  return pieces;
}

/** The URLs pieces make, or null for more than the limit. */
function expand(pieces: Piece[]): Globbed[] | null {
  let out: Globbed[] = [{ text: "", parts: [], named: {} }];
  for (const p of pieces) {
    if (typeof p === "string") {
      for (const g of out) g.text += p;
      continue;
    }
    if (out.length * p.values.length > GLOB_LIMIT) return null;
    out = out.flatMap((g) =>
      p.values.map((v) => ({
        text: g.text + v,
        parts: [...g.parts, v],
        named: p.name === undefined ? g.named : { ...g.named, [p.name]: v },
      }))
    );
  }
  return out;
}

/**
 * The URLs (or `-T` names) curl makes of `text` by its globbing: one, itself, where it has none
 * or curl refuses it (it then fetches nothing); null where they are too many to list. A glob with
 * names is read both as curl 8.x does and as before (the name then part of the text).
 */
export function curlGlob(text: string): Globbed[] | null {
  if (!/[{[]/.test(text)) return [{ text, parts: [], named: {} }];
  const pieces = globPieces(text, true);
  if (pieces === null) return [{ text, parts: [], named: {} }];
  const all = expand(pieces);
  if (all === null) return null;
  if (!pieces.some((p) => typeof p !== "string" && p.name !== undefined)) return all;
  const unnamed = globPieces(text, false);
  const more = unnamed === null ? [] : expand(unnamed);
  return more === null ? null : [...all, ...more];
}

/**
 * A glob of the names a globbed text makes (each glob a `*`), for where they are too many to list;
 * null where a glob's values may hold a `/` (names in other directories) or it is not read.
 */
export function curlGlobPattern(text: string): string | null {
  const pieces = globPieces(text, true);
  if (pieces === null) return null;
  let out = "";
  for (const p of pieces) {
    if (typeof p === "string") out += p.replace(/[*?[\]\\]/g, "\\$&");
    else if (p.values.some((v) => v.includes("/"))) return null;
    else out += "*";
  }
  return out;
}

/**
 * `-o`'s name for one globbed URL: `#N` is the text of its Nth glob, `#<name>` of a named one
 * (a `#` that names none stays as it is).
 */
export function outputName(out: string, g: Globbed): string {
  return out.replace(
    /#(\d+)|#<([^>]{1,64})>/g,
    (all, n, name) => n !== undefined ? (g.parts[Number(n) - 1] ?? all) : (g.named[name] ?? all),
  );
}

/**
 * The local path of a `file:` URL (`file:///p/x`, `file://localhost/p/x`, `file:/p/x`, any case),
 * its `%`-escapes decoded and its query and fragment left off; null for another URL.
 */
export function fileUrlPath(url: string): string | null {
  const m = /^file:(\/\/[^/]*)?(\/[^?#]*)/i.exec(url);
  if (!m) return null;
  try {
    return decodeURIComponent(m[2]);
  } catch {
    return m[2];
  }
}

/**
 * The file `--data-urlencode` or `--url-query` reads: its value's `@FILE` or `NAME@FILE` (an `@`
 * before any `=`; `--url-query`'s leading `+` left off); null where it sends text (`=TEXT`,
 * `NAME=TEXT`, `TEXT`) or the input (`@-`).
 */
export function urlencodeFile(value: string): string | null {
  const v = value.replace(/^\+/, "");
  const at = /[=@]/.exec(v);
  if (at === null || at[0] !== "@") return null;
  const file = v.slice(at.index + 1);
  return file === "-" || file === "" ? null : file;
}

/** curl's blanks (ISSPACE): space, tab, newline, vertical tab, form feed, carriage return. */
const BLANKS = " \t\n\v\f\r";

/** The index of the first character at or after `i` that is not a blank. */
function skipBlanks(text: string, i: number): number {
  while (i < text.length && BLANKS.includes(text[i])) i++;
  return i;
}

/**
 * A `-F` word at `i` as curl's get_param_word reads it: quoted (`"a\"b"`, the text after the
 * closing quote up to the next `;` or `end` left out) or up to `;` or `end`, trailing blanks left
 * off where it is not quoted; and where it ends.
 */
function formWord(text: string, i: number, end: string): [string, number] {
  if (text[i] === '"') {
    let out = "";
    let j = i + 1;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === "\\" && (text[j + 1] === '"' || text[j + 1] === "\\")) j++;
      out += text[j];
    }
    if (j < text.length) {
      while (j < text.length && text[j] !== ";" && text[j] !== end) j++;
      return [out, j];
    }
    // (A quote not closed: the word is read as not quoted.)
  }
  let j = i;
  while (j < text.length && text[j] !== ";" && text[j] !== end) j++;
  let k = j;
  while (k > i && BLANKS.includes(text[k - 1])) k--;
  return [text.slice(i, k), j];
}

/** The index after a `;type=MAJOR/MINOR` type at `i` (sscanf's `%[^/ ]/%[^;, \n]`). */
function typeEnd(text: string, i: number): number {
  const m = /^[^/ ]+\/[^;, \n]+/.exec(text.slice(i));
  return m ? i + m[0].length : i;
}

/**
 * One part of a `-F` value at `i` as curl's get_param_part reads it (`end` ends it besides `;`:
 * `,` between the files of `@a,b`): its data (blanks before it skipped), the headers files its
 * `;headers=@F` (or `<F`) parameters read, and where it ends.
 */
function formPart(text: string, i: number, end: string): [string, string[], number] {
  const [data, first] = formWord(text, skipBlanks(text, i), end);
  const headers: string[] = [];
  let p = first;
  // (After `;type=`, text up to the next `;` is the type's, `,` too where it does not end.)
  let inType = false;
  while (text[p] === ";") {
    p = skipBlanks(text, p + 1);
    const param = /^(type|filename|headers|encoder)=/i.exec(text.slice(p, p + 9))?.[1]
      ?.toLowerCase();
    if (param === "type" && !inType) {
      p = typeEnd(text, skipBlanks(text, p + 5));
      while (p < text.length && text[p] !== ";" && text[p] !== end) p++;
      inType = true;
      continue;
    }
    if (param === "headers" && /[@<]/.test(text[p + 8] ?? "")) {
      const [file, next] = formWord(text, skipBlanks(text, p + 9), end);
      headers.push(file);
      p = next;
    } else if (param && param !== "type") {
      p = formWord(text, skipBlanks(text, p + param.length + 1), end)[1];
    } else if (inType) {
      while (p < text.length && text[p] !== ";" && text[p] !== end) p++;
      continue;
    } else p = formWord(text, p, end)[1];
    inType = false;
  }
  return [data, headers, p];
}

/**
 * The files a `-F NAME=VALUE` sends, as curl's formparse reads it: `@FILE` (uploaded; several,
 * `@a,b`), `<FILE` (its text as the value), each name quoted or not, blanks before it skipped
 * (`@ secrets/key`), and the headers of `;headers=@FILE` (or `<FILE`) after a name or a value
 * (`,` ends a part only after `@`: `a=x;b,c;headers=@F` reads F). `-` is the input.
 */
export function formFiles(value: string): string[] {
  const eq = value.indexOf("=");
  if (eq < 0) return [];
  const content = value.slice(eq + 1);
  const out: string[] = [];
  const add = (file: string) => file !== "-" && file !== "" && out.push(file);
  const files = content[0] === "@";
  let i = files || content[0] === "<" ? 1 : 0;
  for (;;) {
    const [data, headers, end] = formPart(content, i, files ? "," : "");
    if (i > 0) add(data);
    headers.forEach(add);
    if (!files || content[end] !== ",") break;
    i = end + 1;
  }
  return out;
}
