/**
 * How foreman and honcho read their files, each as its own language does: a Procfile's lines
 * (honcho: Python's `str.splitlines` and its `re`'s `\s`; foreman: Ruby's `split("\n")` after
 * `\r\n` is made `\n`, and Ruby's `\s`), and the variables an env file gives honcho (each line's
 * Python `shlex` tokens: `NAME = VALUE…`), whose `PROCFILE` names the Procfile it reads.
 *
 * @module
 */

/** Python's line breaks (`str.splitlines`). */
// deno-lint-ignore no-control-regex
const PYTHON_LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/** The characters Python's `str.isspace` (and its `re`'s `\s`) takes for whitespace. */
const PYTHON_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029" +
  "\\u202f\\u205f\\u3000";

/** A Procfile's line as honcho matches it (`^([A-Za-z0-9_-]+):\s*(.+)$`, Python's `\s`). */
const HONCHO_LINE = new RegExp(`^([A-Za-z0-9_-]+):[${PYTHON_SPACE}]*([^]+)$`);

/** A Procfile's line as foreman matches it (Ruby's `\s`; its `.` is all but `\n`). */
const FOREMAN_LINE = /^([A-Za-z0-9_-]+):[ \t\r\n\f\v]*([^\n]+)$/;

/** Python's `str.strip()`: the text without its whitespace at either end. */
const PYTHON_STRIP = new RegExp(`^[${PYTHON_SPACE}]+|[${PYTHON_SPACE}]+$`, "g");

/** A text as Python's `str.strip()` leaves it. */
export function pythonStrip(text: string): string {
  return text.replace(PYTHON_STRIP, "");
}

/** The lines of a text as Python's `str.splitlines` makes them. */
export function pythonLines(text: string): string[] {
  const lines = text.split(PYTHON_LINE_BREAK);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** The lines of a text as foreman splits its Procfile (`gsub("\r\n","\n").split("\n")`). */
export function foremanLines(text: string): string[] {
  const lines = text.replaceAll("\r\n", "\n").split("\n");
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** A Procfile's processes (`NAME: COMMAND`, in order) as honcho or foreman reads them. */
export function procfileEntries(text: string, honcho: boolean): [string, string][] {
  const out: [string, string][] = [];
  for (const line of honcho ? pythonLines(text) : foremanLines(text)) {
    const m = (honcho ? HONCHO_LINE : FOREMAN_LINE).exec(line);
    if (m) out.push([m[1], m[2]]);
  }
  return out;
}

/** Python's `shlex` word characters in POSIX mode. */
const SHLEX_WORD = new Set(
  "abcdfeghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_" +
    "ßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞ",
);
const SHLEX_SPACE = new Set(" \t\r\n");

/**
 * The tokens of a line as `list(shlex.shlex(line, posix=True))` makes them (words, quotes joined
 * in, `#` comments, every other character a token of its own); null where shlex raises (a quote
 * or escape left open).
 */
export function shlexTokens(line: string): string[] | null {
  const out: string[] = [];
  const chars = [...line];
  // (state: " " between tokens, "a" in a word, a quote inside it.)
  let state = " ";
  let token = "";
  let quoted = false;
  const emit = () => {
    if (token || quoted) out.push(token);
    token = "";
    quoted = false;
    state = " ";
  };
  for (let i = 0; i <= chars.length; i++) {
    const c = chars[i];
    if (state === "'" || state === '"') {
      quoted = true;
      if (c === undefined) return null;
      if (c === state) state = "a";
      else if (c === "\\" && state === '"') {
        const next = chars[++i];
        if (next === undefined) return null;
        token += next === '"' || next === "\\" ? next : `\\${next}`;
      } else token += c;
      continue;
    }
    if (c === undefined || c === "#") break;
    if (SHLEX_SPACE.has(c)) {
      if (state === "a") emit();
    } else if (c === "\\") {
      const next = chars[++i];
      if (next === undefined) return null;
      token += next;
      state = "a";
    } else if (c === "'" || c === '"') state = c;
    else if (SHLEX_WORD.has(c)) {
      token += c;
      state = "a";
    } else {
      if (state === "a") emit();
      out.push(c);
    }
  }
  if (state === "a") emit();
  return out;
}

/**
 * The value an env file's text gives `name` as honcho reads it (`environ.parse`: each line's
 * shlex tokens `NAME`, `=`, then the value's tokens joined; the last line wins): undefined where
 * none does, null where that cannot be known (a line shlex cannot read: honcho stops; a
 * backslash, which honcho's versions turn into other characters).
 */
export function honchoEnvValue(text: string, name: string): string | null | undefined {
  let found: string | null | undefined;
  for (const line of pythonLines(text)) {
    const tokens = shlexTokens(line);
    if (tokens === null) return null;
    if (tokens.length < 3 || tokens[0] !== name || tokens[1] !== "=") continue;
    const value = tokens.slice(2).join("");
    found = value.includes("\\") ? null : value;
  }
  return found;
}
