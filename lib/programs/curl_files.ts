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

/** A `-F` word at `i`: quoted (`"a\"b"`) or up to one of `ends`; and where it ends. */
function formWord(text: string, i: number, ends: string): [string, number] {
  if (text[i] === '"') {
    let out = "";
    let j = i + 1;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === "\\" && (text[j + 1] === '"' || text[j + 1] === "\\")) j++;
      out += text[j];
    }
    // (Text after the closing quote up to the next separator is left out.)
    while (j < text.length && !ends.includes(text[j])) j++;
    return [out, j];
  }
  let j = i;
  while (j < text.length && !ends.includes(text[j])) j++;
  return [text.slice(i, j), j];
}

/**
 * The files a `-F NAME=VALUE` sends: `@FILE` (uploaded; several, `@a,b`), `<FILE` (its text as
 * the value), each name quoted or not, and the headers of `;headers=@FILE` (or `<FILE`) after
 * a name or a value. `-` is the input.
 */
export function formFiles(value: string): string[] {
  const eq = value.indexOf("=");
  if (eq < 0) return [];
  const content = value.slice(eq + 1);
  const out: string[] = [];
  const file = content[0] === "@" || content[0] === "<";
  const ends = content[0] === "@" ? ";," : ";";
  let i = file ? 1 : 0;
  for (;;) {
    const [word, end] = formWord(content, i, ends);
    if (file && word !== "-" && word !== "") out.push(word);
    i = end;
    // Its parameters: `;type=T`, `;filename=F`, `;headers=@F`, `;encoder=E`.
    while (content[i] === ";") {
      const [param, next] = formWord(content, i + 1, ";,");
      const m = /^\s*headers\s*=\s*([@<])/i.exec(param);
      if (m) {
        const start = i + 1 + param.indexOf(m[1]) + 1;
        const [headers, after] = formWord(content, start, ";,");
        if (headers !== "-" && headers !== "") out.push(headers);
        i = after;
      } else i = next;
    }
    if (content[i] !== "," || content[0] !== "@") break;
    i++;
  }
  return out;
}
