/**
 * A small TOML reader for settings files whose few keys matter (pytest's `addopts` in a
 * `pyproject.toml`): every key a text sets, as its full dotted path (a table's header, dotted keys
 * and inline tables flattened), with its value when it is a string or an array of strings. A text
 * it cannot read (a string left open, an escape TOML does not have) is null, so what it would hide
 * is not known rather than missed.
 *
 * @example
 * ```ts
 * import { tomlEntries } from "./toml.ts";
 * tomlEntries('[tool.pytest.ini_options]\naddopts = "-q"');
 * // [{ path: ["tool", "pytest", "ini_options", "addopts"], value: "-q" }]
 * ```
 *
 * @module
 */

/** A value as read: a string, an array of strings, or something else (a number, a table). */
export type TomlValue = string | string[] | { other: true };

/** One key a text sets. */
export interface TomlEntry {
  path: string[];
  value: TomlValue;
}

/** The reader's state: the text and where it is. */
interface Cursor {
  text: string;
  at: number;
}

const OTHER: TomlValue = { other: true };

/** Skip spaces and tabs (and newlines and comments too with `lines`). */
function skip(c: Cursor, lines: boolean): void {
  while (c.at < c.text.length) {
    const ch = c.text[c.at];
    if (ch === " " || ch === "\t" || (lines && (ch === "\n" || ch === "\r"))) c.at++;
    else if (ch === "#") { while (c.at < c.text.length && c.text[c.at] !== "\n") c.at++; }
    else break;
  }
}

/** TOML's escapes in basic strings. */
const ESCAPES: Record<string, string> = {
  b: "\b",
  t: "\t",
  n: "\n",
  f: "\f",
  r: "\r",
  e: "\x1b",
  '"': '"',
  "\\": "\\",
};

/** A string at the cursor (any of the four kinds), or null when it is not one TOML reads. */
function string(c: Cursor): string | null {
  const q = c.text[c.at];
  const multi = c.text.startsWith(q.repeat(3), c.at);
  c.at += multi ? 3 : 1;
  // (A newline right after the opening delimiter is trimmed.)
  if (multi && c.text[c.at] === "\n") c.at++;
  else if (multi && c.text.startsWith("\r\n", c.at)) c.at += 2;
  let out = "";
  while (c.at < c.text.length) {
    const ch = c.text[c.at];
    if (ch === q && (!multi || c.text.startsWith(q.repeat(3), c.at))) {
      if (!multi) {
        c.at++;
        return out;
      }
      // (Up to two more quotes end a multi-line string's text: `"""a"""""` is `a""`.)
      let n = 3;
      while (n < 5 && c.text[c.at + n] === q) n++;
      c.at += n;
      return out + q.repeat(n - 3);
    }
    if (!multi && ch === "\n") return null;
    if (ch === "\\" && q === '"') {
      const e = c.text[c.at + 1];
      if (multi && /[ \t\r\n]/.test(e ?? "")) {
        // (A line-ending backslash trims the whitespace and newlines after it.)
        let k = c.at + 1;
        while (/[ \t]/.test(c.text[k] ?? "")) k++;
        if (c.text[k] !== "\n" && c.text[k] !== "\r") return null;
        while (/[ \t\r\n]/.test(c.text[k] ?? "")) k++;
        c.at = k;
        continue;
      }
      if (e === "u" || e === "U") {
        const n = e === "u" ? 4 : 8;
        const hex = c.text.slice(c.at + 2, c.at + 2 + n);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n) return null;
        const code = parseInt(hex, 16);
        if (code > 0x10ffff) return null;
        out += String.fromCodePoint(code);
        c.at += 2 + n;
        continue;
      }
      if (e === undefined || !(e in ESCAPES)) return null;
      out += ESCAPES[e];
      c.at += 2;
      continue;
    }
    out += ch;
    c.at++;
  }
  return null;
}

/** A key at the cursor (dotted, quoted parts too), or null. */
function key(c: Cursor): string[] | null {
  const parts: string[] = [];
  for (;;) {
    skip(c, false);
    const ch = c.text[c.at];
    if (ch === '"' || ch === "'") {
      if (c.text.startsWith(ch.repeat(3), c.at)) return null;
      const s = string(c);
      if (s === null) return null;
      parts.push(s);
    } else {
      const m = /^[A-Za-z0-9_-]+/.exec(c.text.slice(c.at, c.at + 256));
      if (!m) return null;
      parts.push(m[0]);
      c.at += m[0].length;
    }
    skip(c, false);
    if (c.text[c.at] !== ".") return parts;
    c.at++;
  }
}

/** A value at the cursor; inline tables' keys go to `out` below `path`. Null: not readable. */
function value(c: Cursor, path: string[], out: TomlEntry[], depth: number): TomlValue | null {
  if (depth > 32) return null;
  const ch = c.text[c.at];
  if (ch === '"' || ch === "'") return string(c);
  if (ch === "[") {
    c.at++;
    const items: string[] = [];
    let strings = true;
    for (;;) {
      skip(c, true);
      if (c.text[c.at] === "]") {
        c.at++;
        return strings ? items : OTHER;
      }
      const item = value(c, path, out, depth + 1);
      if (item === null) return null;
      if (typeof item === "string") items.push(item);
      else strings = false;
      skip(c, true);
      if (c.text[c.at] === ",") c.at++;
      else if (c.text[c.at] !== "]") return null;
    }
  }
  if (ch === "{") {
    c.at++;
    skip(c, false);
    if (c.text[c.at] === "}") {
      c.at++;
      return OTHER;
    }
    for (;;) {
      if (!pair(c, path, out, depth + 1)) return null;
      skip(c, false);
      const next = c.text[c.at++];
      if (next === "}") return OTHER;
      if (next !== ",") return null;
      skip(c, false);
    }
  }
  // (A number, a boolean, a date: up to where a value ends.)
  const m = /^[^\s,\]}#]+/.exec(c.text.slice(c.at, c.at + 256));
  if (!m) return null;
  c.at += m[0].length;
  // (A date and a time apart: `1979-05-27 07:32:00`.)
  const time = /^ \d{2}:\d{2}[^\s,\]}#]*/.exec(c.text.slice(c.at, c.at + 64));
  if (time && /^\d{4}-\d{2}-\d{2}$/.test(m[0])) c.at += time[0].length;
  return OTHER;
}

/** `key = value` at the cursor, below `table`; false when it cannot be read. */
function pair(c: Cursor, table: string[], out: TomlEntry[], depth: number): boolean {
  const k = key(c);
  if (k === null || c.text[c.at] !== "=") return false;
  c.at++;
  skip(c, false);
  const path = [...table, ...k];
  const v = value(c, path, out, depth);
  if (v === null) return false;
  out.push({ path, value: v });
  return true;
}

/** Every key `text` sets, in order; null when the text cannot be read as TOML. */
export function tomlEntries(text: string): TomlEntry[] | null {
  const c: Cursor = { text, at: 0 };
  const out: TomlEntry[] = [];
  let table: string[] = [];
  for (;;) {
    skip(c, true);
    if (c.at >= text.length) return out;
    if (text[c.at] === "[") {
      const array = text[c.at + 1] === "[";
      c.at += array ? 2 : 1;
      const k = key(c);
      if (k === null || !text.startsWith(array ? "]]" : "]", c.at)) return null;
      c.at += array ? 2 : 1;
      table = k;
    } else if (!pair(c, table, out, 0)) return null;
    skip(c, false);
    // (Each key or table ends its line.)
    if (c.at < text.length && text[c.at] !== "\n" && text[c.at] !== "\r") return null;
  }
}
