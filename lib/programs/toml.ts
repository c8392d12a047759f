/**
 * A small TOML reader for the settings files whose values name programs and places (cargo's
 * `.cargo/config.toml`, its `--config KEY=VALUE`; pytest's `pyproject.toml` and `pytest.toml`):
 * every `key = value` as the dotted key of its table and the value (strings with their escapes,
 * arrays and inline tables over lines, dates and times). Text it does not read as TOML (a string
 * left open, an escape TOML does not have) is null: what it would hide is not known rather than
 * missed. `tomlKeys` adds the keys inline tables set (`tool = { pytest = { addopts = "-x" } }`).
 *
 * @example
 * ```ts
 * import { tomlEntries } from "./toml.ts";
 * tomlEntries('[alias]\nship = "publish"');
 * // [{ path: ["alias", "ship"], value: "publish" }]
 * ```
 *
 * @module
 */

/** A TOML value: a string, a number or boolean, an array, an inline table. */
export type TomlValue = string | number | boolean | TomlValue[] | { [key: string]: TomlValue };

/** One `key = value` of a TOML text: its table's key parts, then its own. */
export interface TomlEntry {
  path: string[];
  value: TomlValue;
}

/** Where the reader is in the text. */
interface At {
  s: string;
  i: number;
}

/** Skips spaces and tabs, and with `lines` newlines and comments too. */
function skip(p: At, lines: boolean): void {
  for (; p.i < p.s.length; p.i++) {
    const c = p.s[p.i];
    if (c === " " || c === "\t") continue;
    if (lines && (c === "\n" || c === "\r")) continue;
    if (lines && c === "#") {
      const end = p.s.indexOf("\n", p.i);
      p.i = end < 0 ? p.s.length : end;
      continue;
    }
    return;
  }
}

/** The escapes of a basic string. */
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

/** A string at `p` (`"…"`, `'…'`, `"""…"""`, `'''…'''`); null where there is none. */
function readString(p: At): string | null {
  const q = p.s[p.i];
  if (q !== '"' && q !== "'") return null;
  const multi = p.s.startsWith(q.repeat(3), p.i);
  const close = multi ? q.repeat(3) : q;
  p.i += close.length;
  // (A newline right after the opening quotes is not part of a multi-line string.)
  if (multi && p.s[p.i] === "\n") p.i++;
  else if (multi && p.s.startsWith("\r\n", p.i)) p.i += 2;
  let out = "";
  while (p.i < p.s.length) {
    if (p.s.startsWith(close, p.i)) {
      // (Up to two quotes more before the closing three are text: `"""a""""` is `a"`.)
      let run = close.length;
      while (multi && run < 5 && p.s[p.i + run] === q) run++;
      p.i += run;
      return out + q.repeat(run - close.length);
    }
    const c = p.s[p.i++];
    if (!multi && c === "\n") return null;
    if (c !== "\\" || q === "'") {
      out += c;
      continue;
    }
    const e = p.s[p.i++];
    if (e in ESCAPES) out += ESCAPES[e];
    else if (e === "u" || e === "U") {
      const n = e === "u" ? 4 : 8;
      const hex = p.s.slice(p.i, p.i + n);
      const code = parseInt(hex, 16);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n || code > 0x10ffff) return null;
      out += String.fromCodePoint(code);
      p.i += n;
    } else if (e === "x") {
      // (TOML 1.1's `\xHH`, which cargo reads.)
      const hex = p.s.slice(p.i, p.i + 2);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return null;
      out += String.fromCharCode(parseInt(hex, 16));
      p.i += 2;
    } else if (multi && /^[ \t]*\r?\n/.test(p.s.slice(p.i - 1, p.i + 256))) {
      // (A line-ending backslash joins the lines, with the blanks and newlines after it: never
      // a comment, `# x` on the next line is the string's text.)
      p.i--;
      while (p.i < p.s.length && " \t\r\n".includes(p.s[p.i])) p.i++;
    } else return null;
  }
  return null;
}

/** A dotted key at `p` (`a.b`, `"a.b".c`, `target.'cfg(unix)'`); null where there is none. */
function readKey(p: At): string[] | null {
  const parts: string[] = [];
  for (;;) {
    skip(p, false);
    const bare = /^[A-Za-z0-9_-]+/.exec(p.s.slice(p.i, p.i + 256));
    let part: string | null;
    if (bare) {
      part = bare[0];
      p.i += part.length;
    } else if (p.s.startsWith('"""', p.i) || p.s.startsWith("'''", p.i)) return null;
    else part = readString(p);
    if (part === null) return null;
    parts.push(part);
    skip(p, false);
    if (p.s[p.i] !== ".") return parts;
    p.i++;
  }
}

/** A table of an inline table's values. */
type TomlTable = { [key: string]: TomlValue };

/** Whether `v` is an inline table. */
function isTable(v: TomlValue): v is TomlTable {
  return typeof v === "object" && !Array.isArray(v);
}

/** Sets `key` (dotted: `a.b = 1` is `{ a: { b: 1 } }`) in `table`; false where TOML would not. */
function setIn(table: TomlTable, key: string[], v: TomlValue): boolean {
  let t = table;
  for (const part of key.slice(0, -1)) {
    const next = Object.hasOwn(t, part) ? t[part] : put(t, part, {});
    if (!isTable(next)) return false;
    t = next;
  }
  const last = key[key.length - 1];
  if (Object.hasOwn(t, last)) return false;
  put(t, last, v);
  return true;
}

/** Sets a table's own key (`__proto__` too, as a key). */
function put(t: TomlTable, key: string, v: TomlValue): TomlValue {
  Object.defineProperty(t, key, { value: v, enumerable: true, writable: true, configurable: true });
  return v;
}

/** A value at `p`; undefined where it is not one this reader reads. */
function readValue(p: At, depth: number): TomlValue | undefined {
  skip(p, false);
  const c = p.s[p.i];
  if (depth > 32) return undefined;
  if (c === '"' || c === "'") return readString(p) ?? undefined;
  if (c === "[") {
    p.i++;
    const out: TomlValue[] = [];
    for (;;) {
      skip(p, true);
      if (p.s[p.i] === "]") break;
      const v = readValue(p, depth + 1);
      if (v === undefined) return undefined;
      out.push(v);
      skip(p, true);
      if (p.s[p.i] === ",") p.i++;
      else if (p.s[p.i] !== "]") return undefined;
    }
    p.i++;
    return out;
  }
  if (c === "{") {
    p.i++;
    const out: { [key: string]: TomlValue } = {};
    for (;;) {
      skip(p, true);
      if (p.s[p.i] === "}") break;
      const key = readKey(p);
      skip(p, false);
      if (key === null || p.s[p.i] !== "=") return undefined;
      p.i++;
      const v = readValue(p, depth + 1);
      if (v === undefined) return undefined;
      if (!setIn(out, key, v)) return undefined;
      skip(p, true);
      if (p.s[p.i] === ",") p.i++;
      else if (p.s[p.i] !== "}") return undefined;
    }
    p.i++;
    return out;
  }
  const m = /^[^\s,\]}#]+/.exec(p.s.slice(p.i, p.i + 256));
  if (!m) return undefined;
  p.i += m[0].length;
  // (A date and a time apart: `1979-05-27 07:32:00`.)
  const time = /^ \d{2}:\d{2}[^\s,\]}#]*/.exec(p.s.slice(p.i, p.i + 64));
  if (time && /^\d{4}-\d{2}-\d{2}$/.test(m[0])) {
    p.i += time[0].length;
    return m[0] + time[0];
  }
  if (m[0] === "true" || m[0] === "false") return m[0] === "true";
  const n = Number(m[0].replace(/_/g, ""));
  // (A date or time is kept as its text.)
  return Number.isNaN(n) ? m[0] : n;
}

/** Whether `p` is at the end of a line (a comment after blanks too), moved past it. */
function lineEnd(p: At): boolean {
  skip(p, false);
  if (p.s[p.i] === "#") {
    const end = p.s.indexOf("\n", p.i);
    p.i = end < 0 ? p.s.length : end;
  }
  if (p.i >= p.s.length) return true;
  if (p.s[p.i] === "\r") p.i++;
  if (p.s[p.i] !== "\n") return false;
  p.i++;
  return true;
}

/** One line of a TOML text: a `[table]` or `[[array of tables]]` header, or a `key = value`. */
type TomlLine =
  | { header: "table" | "array"; key: string[] }
  | { header?: undefined; key: string[]; value: TomlValue };

/** The lines of a TOML text, in order; null when it is not TOML this reader reads. */
function tomlLines(text: string): TomlLine[] | null {
  const p: At = { s: text, i: 0 };
  const out: TomlLine[] = [];
  for (;;) {
    skip(p, true);
    if (p.i >= p.s.length) return out;
    if (p.s[p.i] === "[") {
      const array = p.s.startsWith("[[", p.i);
      p.i += array ? 2 : 1;
      const key = readKey(p);
      if (key === null || !p.s.startsWith(array ? "]]" : "]", p.i)) return null;
      p.i += array ? 2 : 1;
      out.push({ header: array ? "array" : "table", key });
    } else {
      const key = readKey(p);
      if (key === null || p.s[p.i] !== "=") return null;
      p.i++;
      const value = readValue(p, 0);
      if (value === undefined) return null;
      out.push({ key, value });
    }
    if (!lineEnd(p)) return null;
  }
}

/**
 * Every `key = value` of a TOML text, in order, with its table's key before its own (`[alias]`
 * then `ship = "publish"`: `alias.ship`; an array of tables' entries under its key); null when
 * the text is not TOML this reader reads.
 */
export function tomlEntries(text: string): TomlEntry[] | null {
  const lines = tomlLines(text);
  if (lines === null) return null;
  const out: TomlEntry[] = [];
  let table: string[] = [];
  for (const l of lines) {
    if (l.header) table = l.key;
    else out.push({ path: [...table, ...l.key], value: l.value });
  }
  return out;
}

/** The tables and arrays a TOML document may not add to (inline ones, and headers' once done). */
interface Sealed {
  /** Inline tables and arrays (and the tables in them). */
  fixed: WeakSet<object>;
  /** Tables a `[header]` or dotted keys defined. */
  defined: WeakSet<object>;
  /** Tables dotted keys made. */
  dotted: WeakSet<object>;
}

/** Seals an inline value and everything in it. */
function fix(v: TomlValue, sealed: Sealed): void {
  if (typeof v !== "object") return;
  sealed.fixed.add(v);
  for (const x of Object.values(v)) fix(x, sealed);
}

/** The table a header's key names from `root` (the last of an array of tables); null if none. */
function headerTable(root: TomlTable, key: string[], sealed: Sealed): TomlTable | null {
  let t = root;
  for (const part of key) {
    let next = Object.hasOwn(t, part) ? t[part] : put(t, part, {});
    if (Array.isArray(next) && !sealed.fixed.has(next)) next = next[next.length - 1];
    if (!isTable(next) || sealed.fixed.has(next)) return null;
    t = next;
  }
  return t;
}

/**
 * A TOML text as the document TOML makes of it (cargo and pytest read it so): tables, arrays of
 * tables, dotted keys and inline tables merged into one table (`[env]` with `X.value = "v"` and
 * `X.relative = true` is `env.X = { value: "v", relative: true }`); null when the text is not
 * TOML this reader reads, or defines a key or table twice (cargo then reads nothing).
 */
export function tomlDocument(text: string): TomlTable | null {
  const lines = tomlLines(text);
  if (lines === null) return null;
  const root: TomlTable = {};
  const sealed: Sealed = { fixed: new WeakSet(), defined: new WeakSet(), dotted: new WeakSet() };
  let table = root;
  for (const l of lines) {
    if (l.header === "table") {
      const t = headerTable(root, l.key, sealed);
      if (t === null || sealed.defined.has(t)) return null;
      sealed.defined.add(t);
      table = t;
    } else if (l.header === "array") {
      const parent = headerTable(root, l.key.slice(0, -1), sealed);
      const last = l.key[l.key.length - 1];
      const list = parent === null
        ? null
        : Object.hasOwn(parent, last)
        ? parent[last]
        : put(parent, last, []);
      if (!Array.isArray(list) || sealed.fixed.has(list)) return null;
      table = {};
      list.push(table);
    } else if (l.header === undefined) {
      let t = table;
      for (const part of l.key.slice(0, -1)) {
        // (Dotted keys add to a table they made, never to an inline one or one a header made.)
        const made = !Object.hasOwn(t, part);
        const next = made ? put(t, part, {}) : t[part];
        if (!isTable(next) || (!made && !sealed.dotted.has(next))) return null;
        sealed.dotted.add(next);
        sealed.defined.add(next);
        t = next;
      }
      const last = l.key[l.key.length - 1];
      if (Object.hasOwn(t, last)) return null;
      fix(l.value, sealed);
      put(t, last, l.value);
    }
  }
  return root;
}

/**
 * Every key a TOML text sets, in order: each table's keys (a table's own path, then the keys in
 * it, by their full path: `tool = { pytest = { addopts = "-x" } }` and `[tool.pytest]` with
 * `addopts = "-x"` both set `tool`, `tool.pytest` and `tool.pytest.addopts`); the tables of an
 * array of tables are not walked. Null when the text is not TOML this reader reads.
 */
export function tomlKeys(text: string): TomlEntry[] | null {
  const doc = tomlDocument(text);
  if (doc === null) return null;
  const out: TomlEntry[] = [];
  const add = (path: string[], value: TomlValue) => {
    out.push({ path, value });
    if (isTable(value)) { for (const [k, v] of Object.entries(value)) add([...path, k], v); }
  };
  for (const [k, v] of Object.entries(doc)) add([k], v);
  return out;
}
