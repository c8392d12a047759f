/**
 * Shell text as bash reads it: line continuations, escapes, ANSI-C strings, a fallback splitter.
 *
 * @module
 */
import { RESERVED_WORDS } from "./keywords.ts";

/** A word quoted for bash (single quotes where it needs any): bash reads it back as `word`. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./=:@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The text with line continuations joined, and where each removed one was (offsets in `text`). */
export interface JoinedLines {
  text: string;
  joined: number[];
}

/**
 * Remove backslash-newline line continuations where bash removes them: everywhere except inside
 * single quotes, `$'…'`, comments and the bodies of heredocs with a quoted delimiter. Bash joins
 * `r\<newline>m` into `rm` before it splits words; tree-sitter does not, so we join first.
 */
export function joinContinuations(src: string): string {
  return joinLines(src).text;
}

/** joinContinuations, also reporting where it joined (so the caller can check the result). */
export function joinLines(src: string): JoinedLines {
  if (!src.includes("\\\n")) return { text: src, joined: [] };
  const j = new LineJoiner(src);
  j.run();
  return { text: j.out, joined: j.joined };
}

/** A nesting level of the scanner: quotes, `$(…)`, arithmetic, subshell parens, backticks. */
type Level = "'" | "$'" | '"' | "`" | "$(" | "((" | "(";

interface PendingHeredoc {
  delim: string;
  quoted: boolean;
  strip: boolean;
}

class LineJoiner {
  out = "";
  joined: number[] = [];
  private i = 0;
  private stack: Level[] = [];
  private pending: PendingHeredoc[] = [];
  private wordStart = true;
  /** Whether the last character copied was an unquoted, unescaped `$` (so `'` starts `$'…'`). */
  private dollar = false;

  constructor(private src: string) {}

  run(): void {
    while (this.i < this.src.length) {
      const top = this.stack[this.stack.length - 1];
      const wasDollar = this.dollar;
      this.dollar = false;
      if (top === "'" || top === "$'") this.quoted(top);
      else if (this.src[this.i] === "\\") this.backslash(wasDollar);
      else if (top === '"') this.doubleQuoted();
      else this.unquoted(top, wasDollar);
    }
  }

  private copy(n = 1): void {
    this.out += this.src.slice(this.i, this.i + n);
    this.i += n;
  }

  /** Inside `'…'` nothing is special; inside `$'…'` a backslash escapes the next character. */
  private quoted(top: "'" | "$'"): void {
    const ch = this.src[this.i];
    if (top === "$'" && ch === "\\") return this.copy(2);
    if (ch === "'") this.stack.pop();
    this.copy();
  }

  private backslash(wasDollar: boolean): void {
    if (this.src[this.i + 1] === "\n") {
      this.i += 2;
      this.joined.push(this.out.length);
      this.dollar = wasDollar; // `$\<newline>'…'` is still `$'…'`
      return;
    }
    this.copy(2);
    this.wordStart = false;
  }

  private doubleQuoted(): void {
    const ch = this.src[this.i];
    if (ch === '"') {
      this.stack.pop();
      return this.copy();
    }
    if (ch === "`") this.stack.push("`");
    else if (this.src.startsWith("$((", this.i)) return this.open("((", 3);
    else if (this.src.startsWith("$(", this.i)) return this.open("$(", 2);
    this.copy();
  }

  private open(level: Level, n: number): void {
    this.stack.push(level);
    this.copy(n);
    this.wordStart = true;
  }

  private unquoted(top: Level | undefined, wasDollar: boolean): void {
    const src = this.src;
    const ch = src[this.i];
    const arith = this.stack.includes("((");
    if (ch === "'") {
      this.stack.push(wasDollar ? "$'" : "'");
    } else if (ch === '"') {
      this.stack.push('"');
    } else if (ch === "`") {
      if (top === "`") this.stack.pop();
      else this.stack.push("`");
    } else if (src.startsWith("$((", this.i)) {
      return this.open("((", 3);
    } else if (src.startsWith("$(", this.i)) {
      return this.open("$(", 2);
    } else if (ch === "(" && src[this.i + 1] === "(" && this.wordStart && !arith) {
      return this.open("((", 2);
    } else if (ch === "(") {
      return this.open("(", 1);
    } else if (ch === ")") {
      if (top === "((" && src[this.i + 1] === ")") {
        this.stack.pop();
        return this.copy(2);
      }
      if (top === "(" || top === "$(") this.stack.pop();
      if (top === "$(") {
        // `$(…)` ends inside a word: a `#` right after it is not a comment.
        this.copy();
        this.wordStart = false;
        return;
      }
    } else if (ch === "#" && this.wordStart && !arith) {
      return this.comment();
    } else if (ch === "<" && src.startsWith("<<", this.i) && src[this.i + 2] !== "<" && !arith) {
      if (this.heredocStart()) return;
    } else if (ch === "\n" && this.pending.length) {
      this.copy();
      this.heredocBodies();
      this.wordStart = true;
      return;
    }
    this.dollar = ch === "$";
    this.wordStart = /[\s;&|()<>]/.test(ch);
    this.copy();
  }

  /** A comment runs to the end of the line; a backslash in it continues nothing. */
  private comment(): void {
    const end = this.src.indexOf("\n", this.i);
    this.copy((end === -1 ? this.src.length : end) - this.i);
  }

  /** `<<WORD` or `<<-WORD`: remember the delimiter; its body starts after the next newline. */
  private heredocStart(): boolean {
    let k = this.i + 2;
    const strip = this.src[k] === "-";
    if (strip) k++;
    while (this.src[k] === " " || this.src[k] === "\t") k++;
    const word = heredocWord(this.src, k);
    if (!word) return false;
    this.pending.push({ delim: word.delim, quoted: word.quoted, strip });
    this.copy(word.end - this.i);
    this.wordStart = false;
    return true;
  }

  /** Copy the bodies of the pending heredocs; unquoted ones have their continuations joined. */
  private heredocBodies(): void {
    for (const doc of this.pending) {
      while (this.i < this.src.length) {
        let line = "";
        for (;;) {
          const end = this.src.indexOf("\n", this.i);
          const phys = this.src.slice(this.i, end === -1 ? this.src.length : end);
          this.i = end === -1 ? this.src.length : end + 1;
          if (!doc.quoted && end !== -1 && oddBackslashesAtEnd(phys)) {
            line += phys.slice(0, -1);
            this.out += phys.slice(0, -1);
            this.joined.push(this.out.length);
            continue;
          }
          line += phys;
          this.out += phys + (end === -1 ? "" : "\n");
          break;
        }
        if ((doc.strip ? line.replace(/^\t+/, "") : line) === doc.delim) break;
      }
    }
    this.pending.length = 0;
  }
}

/** Whether a line ends in an odd number of backslashes (the last one escapes the newline). */
function oddBackslashesAtEnd(line: string): boolean {
  let n = 0;
  while (n < line.length && line[line.length - 1 - n] === "\\") n++;
  return n % 2 === 1;
}

/**
 * The heredoc delimiter word starting at `k`: its value after quote removal, whether any part was
 * quoted (then the body is literal), and where the word ends. Null when there is no word.
 */
export function heredocWord(
  src: string,
  k: number,
): { delim: string; quoted: boolean; end: number } | null {
  let delim = "";
  let quoted = false;
  let i = k;
  while (i < src.length && !/[\s;&|()<>]/.test(src[i])) {
    const ch = src[i];
    if (ch === "'" || ch === '"') {
      const close = ch === "'" ? src.indexOf("'", i + 1) : closingDoubleQuote(src, i + 1);
      if (close === -1) return null;
      delim += ch === "'" ? src.slice(i + 1, close) : unescapeDoubleQuoted(src.slice(i + 1, close));
      quoted = true;
      i = close + 1;
    } else if (ch === "\\") {
      quoted = true;
      delim += src[i + 1] ?? "";
      i += 2;
    } else {
      delim += ch;
      i++;
    }
  }
  return i === k ? null : { delim, quoted, end: i };
}

function closingDoubleQuote(src: string, from: number): number {
  for (let i = from; i < src.length; i++) {
    if (src[i] === "\\") i++;
    else if (src[i] === '"') return i;
  }
  return -1;
}

/** Remove quoting backslashes from an unquoted word: `\x` is `x`. */
export function unescapeUnquoted(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\([\s\S])/g, "$1");
}

/** Remove the backslashes double quotes honour: `\$ \` \" \\` (others stay). */
export function unescapeDoubleQuoted(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === "\n" ? "" : c));
}

/** Remove the backslashes an unquoted heredoc body honours: `\$ \` \\` (others stay). */
export function unescapeHeredoc(text: string): string {
  if (!text.includes("\\")) return text;
  return text.replace(/\\([$`\\])/g, "$1");
}

/**
 * The one-character escapes of `$'…'` and of printf's format (`\n`, `\e`, `\\`, `\'`, …); echo's
 * `-e` takes these but the three quote-like ones.
 */
export const ANSI_SIMPLE: Readonly<Record<string, string>> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/**
 * The text with its quoting taken away, where a name bash reads after quote removal is looked for
 * (`read HO\ME`, `shopt -s 'dot'glob`, `read $'HO\x4dE'` name `HOME`, `dotglob`, `HOME`): `$'…'`
 * decoded, then every quote and backslash dropped. A superset of the names the command gives
 * (it may join what bash keeps apart): for finding names, never for reading words.
 */
export function unquotedText(text: string): string {
  if (text === lastQuoted) return lastUnquoted;
  if (!/['"\\]/.test(text)) return text;
  lastQuoted = text;
  let t = text;
  if (t.includes("$'")) {
    t = t.replace(/\$'((?:[^'\\]|\\[\s\S])*)'/g, (_, body: string) => decodeAnsiC(body));
  }
  if (t.includes("\\\n")) t = t.replace(/\\\n/g, "");
  return lastUnquoted = t.replace(/['"\\]/g, "");
}
/** The last text unquotedText took apart (the analysis asks it of one command several times). */
let lastQuoted = "";
let lastUnquoted = "";

/**
 * Decode the body of an ANSI-C string `$'…'` as bash does. A NUL (`\0`, `\x00`, `\c@`) ends the
 * string there, as it does in bash: `$'rm\0junk'` is `rm`.
 */
export function decodeAnsiC(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== "\\" || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const [text, used] = ansiEscape(body, i + 1);
    out += text;
    i += used;
  }
  const nul = out.indexOf("\0");
  return nul === -1 ? out : out.slice(0, nul);
}

/** One escape after a backslash at `body[k - 1]`: its text and how many characters it used. */
function ansiEscape(body: string, k: number): [string, number] {
  const n = body[k];
  const rest = body.slice(k + 1);
  if (n in ANSI_SIMPLE) return [ANSI_SIMPLE[n], 1];
  if (n === "x") {
    const braced = /^\{([0-9a-fA-F]*)\}?/.exec(rest);
    if (braced) return [byte(parseInt(braced[1] || "0", 16)), 1 + braced[0].length];
    const m = /^[0-9a-fA-F]{1,2}/.exec(rest);
    return m ? [byte(parseInt(m[0], 16)), 1 + m[0].length] : ["\\x", 1];
  }
  if (n === "u" || n === "U") {
    const m = new RegExp(`^[0-9a-fA-F]{1,${n === "u" ? 4 : 8}}`).exec(rest);
    if (!m) return ["\\" + n, 1];
    const cp = parseInt(m[0], 16);
    return [cp <= 0x10ffff ? String.fromCodePoint(cp) : "", 1 + m[0].length];
  }
  if (/[0-7]/.test(n)) {
    const m = /^[0-7]{1,3}/.exec(body.slice(k))!;
    return [byte(parseInt(m[0], 8)), m[0].length];
  }
  if (n === "c" && rest.length > 0) {
    // `\c\\` is control-backslash; `\c?` is DEL; otherwise the letter's control character.
    const c = rest[0];
    const used = c === "\\" && rest[1] === "\\" ? 3 : 2;
    return [c === "?" ? "\x7f" : String.fromCharCode(c.toUpperCase().charCodeAt(0) & 0x1f), used];
  }
  return ["\\" + n, 1];
}

function byte(n: number): string {
  return String.fromCharCode(n & 0xff);
}

/** One simple command found by the fallback splitter. */
export interface FallbackStage {
  words: string[];
  text: string;
}

/**
 * The splitter used when tree-sitter cannot load: it splits only what it can split for sure
 * (plain words, `'…'` and `"…"` without `$`, `` ` ``, `\` or `!`, and `| || && ; &` and newlines).
 * Anything else (expansions, substitutions, redirects, groups, escapes, heredocs, globs,
 * assignments, compound commands) returns null: unknown.
 */
export function fallbackSplit(src: string): FallbackStage[] | null {
  const stages: FallbackStage[] = [];
  let words: string[] = [];
  let word: string | null = null;
  let start = 0;
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const flushStage = (end: number): boolean => {
    endWord();
    if (words.length && RESERVED_WORDS.has(words[0])) return false;
    if (words.length) stages.push({ words, text: src.slice(start, end).trim() });
    words = [];
    return true;
  };
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (ch === " " || ch === "\t") {
      endWord();
    } else if (ch === "'" || ch === '"') {
      const end = src.indexOf(ch, i + 1);
      if (end === -1) return null;
      const body = src.slice(i + 1, end);
      if (/[$`\\!]/.test(body)) return null;
      word = (word ?? "") + body;
      i = end;
    } else if (ch === "\n" || ch === ";" || ch === "|" || ch === "&") {
      if (!flushStage(i)) return null;
      if ((ch === "|" || ch === "&") && src[i + 1] === ch) i++;
      start = i + 1;
    } else if (/[$`\\<>(){}\[\]*?~#!=]/.test(ch)) {
      return null;
    } else {
      word = (word ?? "") + ch;
    }
  }
  return flushStage(src.length) ? stages : null;
}
