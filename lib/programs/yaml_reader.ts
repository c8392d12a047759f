/**
 * A small YAML reader for the settings files programs read (compose files): block mappings and
 * sequences, flow `[…]` and `{…}` (over several lines too), plain and quoted scalars, block
 * scalars (`|`, `>`), anchors, aliases and `<<` merges; tags are dropped. Scalars stay strings
 * (`null`, `~` and nothing are null). Whatever it cannot read (a complex key `?`, a plain scalar
 * over several lines, a quote not closed, an alias not defined) makes the whole text not known:
 * `undefined`.
 *
 * @example
 * ```ts
 * import { readYaml } from "./yaml_reader.ts";
 * readYaml("services:\n  web:\n    volumes: [./data:/data]\n");
 * // { services: { web: { volumes: ["./data:/data"] } } }
 * ```
 *
 * @module
 */

/** A YAML value as read here. */
export type Yaml = string | null | Yaml[] | { [key: string]: Yaml };

/** A line that holds something: its indentation and its text (no comment, no trailing space). */
interface Line {
  indent: number;
  text: string;
  /** Its index among the text's lines (for block scalars, read raw). */
  at: number;
}

/** Thrown inside the reader where the text cannot be read. */
class Unreadable extends Error {}

function fail(): never {
  throw new Unreadable();
}

/**
 * Walks `text` as YAML quotes it: `visit` is given each character outside quotes (with its index)
 * until it returns true; `opens` says whether a quote at an index starts a quoted scalar. In double
 * quotes a backslash escapes the next character, in single quotes `''` is a quote. Where `visit`
 * stopped (-1: it did not), and whether a quote is left open.
 */
function outsideQuotes(
  text: string,
  opens: (i: number) => boolean,
  visit: (c: string, i: number) => boolean,
): { at: number; open: boolean } {
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote && quote === "'" && text[i + 1] === "'") i++;
      else if (c === quote) quote = "";
    } else if ((c === '"' || c === "'") && opens(i)) quote = c;
    else if (visit(c, i)) return { at: i, open: false };
  }
  return { at: -1, open: quote !== "" };
}

/** A line's text without its comment (a `#` at its start or after a blank, outside quotes). */
function uncommented(text: string): string {
  // (A quote inside a plain scalar, `it's`, is no quote.)
  const { at } = outsideQuotes(
    text,
    (i) => i === 0 || /[\s\[{,:-]/.test(text[i - 1]),
    (c, i) => c === "#" && (i === 0 || /\s/.test(text[i - 1])),
  );
  return (at < 0 ? text : text.slice(0, at)).trimEnd();
}

/** A double-quoted scalar's escapes. */
const ESCAPES: Record<string, string> = {
  "0": "\0",
  "n": "\n",
  "t": "\t",
  "r": "\r",
  '"': '"',
  "\\": "\\",
  "/": "/",
  " ": " ",
  "e": "\x1b",
};

/** Reads one text (see the module). */
class Reader {
  lines: Line[] = [];
  i = 0;
  anchors = new Map<string, Yaml>();

  constructor(readonly raw: string[]) {
    raw.forEach((line, at) => {
      if (/^\s*\t/.test(line) && line.trim()) fail(); // (tabs may not indent)
      const text = uncommented(line);
      if (!text.trim() || /^%/.test(text)) return;
      const indent = text.length - text.trimStart().length;
      this.lines.push({ indent, text: text.trimStart(), at });
    });
  }

  get line(): Line | undefined {
    return this.lines[this.i];
  }

  /** A block node starting at the current line, indented at least `min`. */
  node(min: number): Yaml {
    const l = this.line;
    if (!l || l.indent < min) return null;
    // (A flow collection alone: a document's `--- {…}`, a value on the line below its key.)
    if (/^[\[{]/.test(l.text)) return this.value(l.text, l.indent - 1);
    return isItem(l.text) ? this.sequence(l.indent) : this.mapping(l.indent);
  }

  sequence(indent: number): Yaml[] {
    const out: Yaml[] = [];
    for (let l = this.line; l && l.indent === indent && isItem(l.text); l = this.line) {
      const rest = l.text.slice(1).trimStart();
      if (!rest) {
        this.i++;
        out.push(this.node(indent + 1));
      } else if (isItem(rest) || mapKey(rest)) {
        // (`- key: value` and `- - x`: a node whose first line starts after the dash.)
        const shift = l.text.length - rest.length;
        this.lines[this.i] = { indent: indent + shift, text: rest, at: l.at };
        out.push(this.node(indent + shift));
      } else out.push(this.value(rest, indent));
    }
    return out;
  }

  mapping(indent: number): { [key: string]: Yaml } {
    const out: { [key: string]: Yaml } = {};
    const merged: Yaml[] = [];
    for (let l = this.line; l && l.indent === indent && !isItem(l.text); l = this.line) {
      const m = mapKey(l.text);
      if (!m) fail();
      const value = this.value(m.rest, indent, true);
      if (m.key === "<<") merged.push(value);
      else out[m.key] = value;
    }
    if (this.line && this.line.indent > indent) fail();
    for (const m of merged.flatMap((v) => (Array.isArray(v) ? v : [v]))) {
      if (m === null || typeof m !== "object" || Array.isArray(m)) fail();
      for (const [k, v] of Object.entries(m)) if (!(k in out)) out[k] = v;
    }
    return out;
  }

  /** The value after a key or a dash on the current line (`keyed`: after a key). */
  value(rest: string, indent: number, keyed = false): Yaml {
    let anchor = "";
    for (;;) {
      const a = /^&(\S+)\s*/.exec(rest);
      const t = /^!\S*\s*/.exec(rest);
      if (a) anchor = a[1];
      if (!a && !t) break;
      rest = rest.slice((a ?? t)![0].length);
    }
    const set = (v: Yaml) => {
      if (anchor) this.anchors.set(anchor, v);
      return v;
    };
    const at = this.i;
    this.i++;
    if (!rest) {
      const next = this.line;
      if (next && next.indent > indent) return set(this.node(indent + 1));
      // (A sequence may sit at its key's indentation.)
      if (keyed && next && next.indent === indent && isItem(next.text)) {
        return set(this.sequence(indent));
      }
      return set(null);
    }
    if (rest.startsWith("*")) {
      const name = rest.slice(1).trim();
      if (!this.anchors.has(name)) fail();
      return this.anchors.get(name)!;
    }
    if (/^[|>]/.test(rest)) return set(this.block(rest, indent, this.lines[at].at));
    if (rest.startsWith("[") || rest.startsWith("{")) {
      let text = rest;
      while (!balanced(text)) {
        const more = this.line;
        if (!more) fail();
        text += " " + more.text;
        this.i++;
      }
      const flow = new Flow(text, this.anchors);
      const v = flow.value();
      flow.end();
      return set(v);
    }
    if (this.line && this.line.indent > indent) fail(); // (a plain scalar on more lines)
    return set(scalar(rest));
  }

  /** A block scalar after `|` or `>` on raw line `at`: the lines indented more than `indent`. */
  block(header: string, indent: number, at: number): string {
    if (!/^[|>][-+0-9]*$/.test(header)) fail();
    const body: string[] = [];
    let j = at + 1;
    for (; j < this.raw.length; j++) {
      const line = this.raw[j];
      if (line.trim() && line.length - line.trimStart().length <= indent) break;
      body.push(line.trim() ? line : "");
    }
    while (this.line && this.line.at < j) this.i++;
    const strip = Math.min(
      ...body.filter(Boolean).map((l) => l.length - l.trimStart().length),
    );
    const lines = body.map((l) => l.slice(Number.isFinite(strip) ? strip : 0));
    return header.startsWith(">") ? lines.join(" ") : lines.join("\n");
  }
}

/** Whether a line is a sequence's item (`- x`, `-`). */
function isItem(text: string): boolean {
  return text === "-" || text.startsWith("- ");
}

/** A `key: rest` line's key (quotes taken off) and the rest, or null. */
function mapKey(text: string): { key: string; rest: string } | null {
  if (text.startsWith("? ")) fail();
  const q = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')\s*:(?:\s+|$)/.exec(text);
  if (q) return { key: scalar(q[1]) ?? "", rest: text.slice(q[0].length) };
  if (/^[\[{"'&*!|>]/.test(text)) return null;
  const m = /^([^#]*?)\s*:(?:\s+|$)/.exec(text);
  return m ? { key: m[1], rest: text.slice(m[0].length) } : null;
}

/** Whether the brackets of a flow text close (outside quotes). */
function balanced(text: string): boolean {
  let depth = 0;
  const { open } = outsideQuotes(text, () => true, (c) => {
    if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    return false;
  });
  return depth <= 0 && !open;
}

/** A scalar as written on one line: quotes read, `null`/`~`/nothing null. */
function scalar(text: string): string | null {
  const t = text.trim();
  if (t.startsWith("'")) {
    if (!/^'(?:[^']|'')*'$/.test(t)) fail();
    return t.slice(1, -1).replaceAll("''", "'");
  }
  if (t.startsWith('"')) {
    if (!/^"(?:[^"\\]|\\.)*"$/.test(t)) fail();
    return t.slice(1, -1).replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)/g, (_, e: string) => {
      if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
      return ESCAPES[e] ?? fail();
    });
  }
  return t === "" || t === "~" || t === "null" || t === "Null" || t === "NULL" ? null : t;
}

/** A flow collection's reader. */
class Flow {
  i = 0;
  constructor(readonly text: string, readonly anchors: Map<string, Yaml>) {}

  space(): void {
    while (/\s/.test(this.text[this.i] ?? "")) this.i++;
  }

  end(): void {
    this.space();
    if (this.i < this.text.length) fail();
  }

  value(): Yaml {
    this.space();
    const c = this.text[this.i];
    if (c === "[") return this.list();
    if (c === "{") return this.map();
    return this.scalar(false);
  }

  list(): Yaml[] {
    const out: Yaml[] = [];
    this.i++;
    for (;;) {
      this.space();
      if (this.text[this.i] === "]") break;
      out.push(this.value());
      this.space();
      if (this.text[this.i] === ",") this.i++;
      else if (this.text[this.i] !== "]") fail();
    }
    this.i++;
    return out;
  }

  map(): { [key: string]: Yaml } {
    const out: { [key: string]: Yaml } = {};
    this.i++;
    for (;;) {
      this.space();
      if (this.text[this.i] === "}") break;
      const key = this.scalar(true);
      this.space();
      let value: Yaml = null;
      if (this.text[this.i] === ":") {
        this.i++;
        value = this.value();
        this.space();
      }
      if (key === "<<" || (key !== null && typeof key !== "string")) fail();
      out[key ?? ""] = value;
      if (this.text[this.i] === ",") this.i++;
      else if (this.text[this.i] !== "}") fail();
    }
    this.i++;
    return out;
  }

  /** A scalar in flow (`key`: ends at a `:` too), or an alias. */
  scalar(key: boolean): Yaml {
    this.space();
    const rest = this.text.slice(this.i);
    const q = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')/.exec(rest);
    if (q) {
      this.i += q[0].length;
      return scalar(q[1]);
    }
    if (/^[&!]/.test(rest)) fail();
    const plain = key ? /^(?:[^,\[\]{}:]|:(?=[^\s,\]}]))*/.exec(rest)! : /^[^,\[\]{}]*/.exec(rest)!;
    this.i += plain[0].length;
    if (plain[0].startsWith("*")) {
      const name = plain[0].slice(1).trim();
      if (!this.anchors.has(name)) fail();
      return this.anchors.get(name)!;
    }
    return scalar(plain[0]);
  }
}

/**
 * The documents of a YAML text (split at `---` and `...` in the first column; what follows `---`
 * on its line is the document's first line), each read as `readYaml` reads one; empty ones left
 * out. Lines break at a LF, a CR LF or a lone CR; a NEL or a line or paragraph separator (which
 * some readers take for a break) makes the text not known: undefined.
 */
export function readYamlDocuments(text: string): Yaml[] | undefined {
  if (/[\x85\u2028\u2029]/.test(text)) return undefined;
  const docs: string[][] = [[]];
  for (const line of text.split(/\r\n|\r|\n/)) {
    const start = /^---(?=\s|$)/.exec(line);
    if (start || /^\.\.\.(?=\s|$)/.test(line)) {
      const rest = line.slice(3);
      // (`... x`: no content may follow a document's end.)
      if (!start && uncommented(rest).trim()) return undefined;
      docs.push(start ? ["   " + rest] : []);
    } else docs.at(-1)!.push(line);
  }
  const out: Yaml[] = [];
  try {
    for (const raw of docs) {
      const reader = new Reader(raw);
      if (!reader.lines.length) continue;
      const value = reader.node(0);
      if (reader.line) return undefined;
      out.push(value);
    }
  } catch (e) {
    if (e instanceof Unreadable) return undefined;
    throw e;
  }
  return out;
}

/** The value a YAML text of one document holds (null: none), or undefined (see the module). */
export function readYaml(text: string): Yaml | undefined {
  const docs = readYamlDocuments(text);
  return docs === undefined || docs.length > 1 ? undefined : docs[0] ?? null;
}
