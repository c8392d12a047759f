/**
 * A lesskey source text read as less reads it (less's lesskey_parse.c): lines end at a newline
 * (and a `;` in `--lesskey-content`, `\;` being one), a line is cut every 1023 bytes (its
 * `fgets` buffer), and what follows a carriage return on it is dropped. A section starts where a
 * line begins (at its very first column) with `#command`, `#line-edit` or `#env` (any line that
 * starts so: `#environment` opens the variables too); any other `#` starts a comment (an
 * indented `#env` is one). A `#version OP N` line's rest is read as a line (here whatever the
 * version). In `#env`, `NAME = VALUE` sets a variable and `X += VALUE` adds to the value of the
 * variable set last (whatever `X` is); names and values are decoded (`\X` is X, `\ooo` octal,
 * `\b \e \n \r \t`, `^X` a control character).
 *
 * @example
 * ```ts
 * import { lesskeyVariables } from "./lesskey.ts";
 * lesskeyVariables("#environment\nLESS\\117PEN = |cat %s\n", false);
 * // [{ name: "LESSOPEN", value: "|cat %s", raw: "|cat %s" }]
 * ```
 *
 * @module
 */

/** A variable a lesskey text sets: its name and value decoded, and its value as written. */
export interface LesskeyVariable {
  name: string;
  value: string;
  raw: string;
}

/** The longest line less reads at once (a longer one is read as several). */
const LINE_BYTES = 1023;

/** The lines less reads of a text (`content`: `--lesskey-content`, split at `;` too). */
export function lesskeyLines(text: string, content: boolean): string[] {
  const lines = content ? contentLines(text) : text.split("\n");
  if (!lines.some((l) => l.length > LINE_BYTES / 3)) return lines;
  const out: string[] = [];
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  for (const line of lines) {
    const bytes = encoder.encode(line);
    // (`--lesskey-content` drops the byte where a line is cut.)
    const step = content ? LINE_BYTES + 1 : LINE_BYTES;
    for (let at = 0; at === 0 || at < bytes.length; at += step) {
      out.push(decoder.decode(bytes.subarray(at, at + LINE_BYTES)));
    }
  }
  return out;
}

/** `--lesskey-content`'s lines: split at a newline or a `;` (`\;` is a `;` of the line). */
function contentLines(text: string): string[] {
  const out: string[] = [];
  let line = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\" && text[i + 1] === ";") line += text[++i];
    else if (c === "\n" || c === ";") {
      out.push(line);
      line = "";
    } else line += c;
  }
  out.push(line);
  return out;
}

/** One character (or escape) of a lesskey string at `i`: what it stands for and where it ends. */
function decodeAt(s: string, i: number): [string, number] {
  const c = s[i];
  if (c === "^") return i + 1 < s.length ? [ctl(s.charCodeAt(i + 1) & 31), i + 2] : ["", i + 1];
  if (c !== "\\") return [c, i + 1];
  const d = s[i + 1];
  if (d === undefined) return ["", i + 1];
  const octal = /^[0-7]{1,3}/.exec(s.slice(i + 1, i + 4));
  if (octal) return [ctl(parseInt(octal[0], 8) & 255), i + 1 + octal[0].length];
  const named: Record<string, string> = { b: "\b", e: "\x1b", n: "\n", r: "\r", t: "\t" };
  return [named[d] ?? d, i + 2];
}

/** A character code as less adds it (a NUL adds nothing). */
function ctl(code: number): string {
  return code === 0 ? "" : String.fromCharCode(code);
}

/** A lesskey string decoded. */
export function lesskeyDecode(s: string): string {
  let out = "";
  for (let i = 0; i < s.length;) {
    const [c, next] = decodeAt(s, i);
    out += c;
    i = next;
  }
  return out;
}

/** A line without its leading blanks, what follows a CR, and its comment (`#` not after `\`). */
function cleanLine(line: string): string {
  const s = line.replace(/^[ \t]+/, "");
  let i = 0;
  for (; i < s.length && s[i] !== "\n" && s[i] !== "\r"; i++) {
    if (s[i] === "#" && (i === 0 || s[i - 1] !== "\\")) break;
  }
  return s.slice(0, i);
}

/** The variables a lesskey source text's `#env` sections set, in order (see the module). */
export function lesskeyVariables(text: string, content: boolean): LesskeyVariable[] {
  const out: LesskeyVariable[] = [];
  let env = false;
  for (let line of lesskeyLines(text, content)) {
    if (line.startsWith("#line-edit") || line.startsWith("#command")) {
      env = false;
      continue;
    }
    if (line.startsWith("#env")) {
      env = true;
      continue;
    }
    if (line.startsWith("#stop")) continue;
    const version = /^#version[ \t]*(?:[<>]=?|==?|!=?)[ \t]*[+-]?\d+/.exec(line);
    if (version) line = line.slice(version[0].length);
    else if (line.startsWith("#version")) continue;
    const p = cleanLine(line);
    if (!env || !p) continue;
    const eq = p.indexOf("=");
    if (eq > 0 && p[eq - 1] === "+") {
      // (`+=` adds to the variable set last, whatever its name.)
      const last = out.at(-1);
      const raw = p.slice(eq + 1).replace(/^[ \t]+/, "");
      if (last) out.push({ ...last, value: last.value + lesskeyDecode(raw), raw: last.raw + raw });
      continue;
    }
    let name = "";
    let i = 0;
    do {
      const [c, next] = decodeAt(p, i);
      name += c;
      i = next;
    } while (i < p.length && !/[ \t=]/.test(p[i]));
    const rest = p.slice(i).replace(/^[ \t]+/, "");
    if (!rest.startsWith("=")) continue;
    const raw = rest.slice(1).replace(/^[ \t]+/, "");
    out.push({ name, value: lesskeyDecode(raw), raw });
  }
  return out;
}
