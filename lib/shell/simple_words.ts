/**
 * The words of the plain-command reader: unquoted runs, quotes, `$'…'`, `$NAME` and plain
 * `${…}` expansions, `$(…)`, `<(…)` and backtick substitutions, read exactly as tree-sitter-bash
 * splits them (anything it reads oddly is left to it). The base of the reader
 * (`simple_reader.ts`), which reads the statements inside substitutions.
 *
 * @module
 */
import {
  CLASS,
  type Closer,
  type ExpansionOp,
  isNumber,
  OUTSIDE,
  type Piece,
  type Statement,
  type WordTok,
} from "./simple_shapes.ts";

/** The characters of a plain word after a `${NAME:-`-style operator. */
const WORD_CHARS = /[A-Za-z0-9_.\/~@+,-]/;
/** ... of a plain pattern after `%`, `#` (globs and `/` too) and after `/` (no `/`). */
const PATTERN_CHARS = /[A-Za-z0-9_.\/~@+,*?-]/;
const REPLACE_PATTERN_CHARS = /[A-Za-z0-9_.~@+,*?-]/;

/** The word or pattern node of a `${…}` operator, or null when it is empty. */
function valueOf(
  type: "word" | "regex",
  start: number,
  end: number,
): ExpansionOp["value"] {
  return end > start ? { type, start, end } : null;
}

/** Reads words; the statements of substitutions are the subclass's. */
export abstract class WordReader {
  pos = 0;
  /** Nesting of `( … )` and `$( … )` being read. */
  depth = 0;
  /** Inside a `` `…` ``: a backtick closes it, and backslashes are not read here. */
  inTicks = false;
  /** Backtick substitutions read so far. */
  ticksSeen = 0;
  /** Where a comment that ends the command starts. */
  comment: number | null = null;
  constructor(readonly src: string) {}

  /**
   * The keyword of `words` at the current position, or null. Keywords that statements follow
   * (`do`, `then`, ...) need a blank after them; `done`, `fi` and `}` may also end at an operator.
   */
  keywordAt(words: readonly string[]): string | null {
    const s = this.src;
    for (const w of words) {
      if (!s.startsWith(w, this.pos)) continue;
      const after = s[this.pos + w.length];
      if (after === " " || after === "\t") return w;
      if (
        (w === "done" || w === "fi" || w === "}") &&
        (after === undefined || ";|&<>)`".includes(after))
      ) {
        return w;
      }
    }
    return null;
  }

  /** The next non-blank position (does not move). */
  skipBlanks(): void {
    const s = this.src;
    while (this.pos < s.length && (s[this.pos] === " " || s[this.pos] === "\t")) this.pos++;
  }

  /** A word at the current position, or null when none starts here. */
  word(): WordTok | null {
    const s = this.src;
    const start = this.pos;
    const pieces: Piece[] = [];
    while (this.pos < s.length) {
      const code = s.charCodeAt(this.pos);
      if (code === 96) { // `
        if (this.inTicks) break; // the closing one
        const sub = this.ticks();
        // After text, tree-sitter starts a new word at a backtick unless a blank or the end
        // follows it (`a`b`c` is `a`, `` `b`c ``): not read here.
        const after = s[this.pos];
        if (pieces.length && after !== undefined && after !== " " && after !== "\t") throw OUTSIDE;
        pieces.push(sub);
      } else if (code === 39) { // '
        const close = s.indexOf("'", this.pos + 1);
        if (close < 0 || s.slice(this.pos, close).includes("\n")) throw OUTSIDE;
        pieces.push({ type: "raw_string", start: this.pos, end: close + 1 });
        this.pos = close + 1;
      } else if (code === 34) { // "
        pieces.push(this.string());
      } else if (code === 36) {
        pieces.push(this.dollar(start, pieces));
      } else if (code === 123 || code === 125) {
        // tree-sitter makes each brace a word of its own (`{a,b}` is `{`, `a,b`, `}`), except
        // in a sequence expression (`{1..3}`).
        if (code === 123 && /^\{([^{}]*\.\.|[ \t]|$)/.test(s.slice(this.pos, this.pos + 64))) {
          throw OUTSIDE; // (and `{ }` is one word to it)
        }
        // ... and a `\` after a closing brace starts a new word there (`{}\;`), and a word
        // that starts with one may run on (`} {`).
        if (code === 125 && (s[this.pos + 1] === "\\" || !pieces.length)) throw OUTSIDE;
        pieces.push({ type: "word", start: this.pos, end: ++this.pos });
      } else if (code === 91 || code === 93) {
        // Glob brackets are words of their own too (`[0-9]*` is `[`, `0-9`, `]`, `*`), with the
        // braces' quirks: `[ x` and a word that starts with `]` run on into the next word.
        const after = s[this.pos + 1];
        if (code === 91 && (after === " " || after === "\t" || after === undefined)) throw OUTSIDE;
        if (code === 93 && !pieces.length) throw OUTSIDE;
        pieces.push({ type: "word", start: this.pos, end: ++this.pos });
      } else if (code >= 128 || CLASS[code] === 1 || CLASS[code] === 4) {
        pieces.push(this.run(code, pieces));
      } else if ((code === 60 || code === 62) && s[this.pos + 1] === "(") {
        // `<(…)` and `>(…)`: glued to text before them, tree-sitter starts a new word.
        if (pieces.length) throw OUTSIDE;
        pieces.push(this.substitution());
      } else if (code < 128 && CLASS[code] === 2) {
        break;
      } else if (code === 35 && !pieces.length) {
        break; // a comment, for the caller to take or refuse
      } else {
        throw OUTSIDE;
      }
    }
    if (!pieces.length) return null;
    this.wordEnd(pieces);
    return { start, end: this.pos, pieces };
  }

  /**
   * The piece a `$` starts inside a word that began at `start` after `pieces`: a `$` alone, an
   * expansion, a substitution or a `$'…'`.
   */
  private dollar(start: number, pieces: Piece[]): Piece {
    const s = this.src;
    // A `$` before a blank or the end is plain text, a token of its own (`grep ^$`).
    const next = s[this.pos + 1];
    if (next === undefined || next === " " || next === "\t") {
      // (After a word that starts with `-`, tree-sitter makes the whole word the `$`.)
      if (s[start] === "-") throw OUTSIDE;
      return { type: "dollar", start: this.pos, end: ++this.pos };
    }
    // Inside a word, tree-sitter may read `$x` as `$` and a word (`'a'b$x`): only names after
    // plain text.
    if (
      pieces.length &&
      (/[0-9]/.test(s[this.pos + 1]) ||
        pieces.some((p) =>
          (p.type !== "word" && !p.type.endsWith("expansion")) ||
          /^[{}[\]]$/.test(s.slice(p.start, p.end))
        ))
    ) {
      throw OUTSIDE;
    }
    // `$$`, `$?`, ... glued to text are read differently: only whole words are read here.
    if ("?@#$!-*0_".includes(s[this.pos + 1])) {
      const after = s.charCodeAt(this.pos + 2);
      if (pieces.length || (this.pos + 2 < s.length && (after >= 128 || CLASS[after] !== 2))) {
        throw OUTSIDE;
      }
    }
    const after = s[this.pos + 1];
    return after === "(" ? this.substitution() : after === "'" ? this.ansiC() : this.expansion();
  }

  /** An unquoted run at the current position (its first character `code`), after `pieces`. */
  private run(code: number, pieces: Piece[]): Piece {
    const s = this.src;
    const from = this.pos;
    // tree-sitter drops an escaped blank that starts a word (`tr \  x`).
    if (code === 92 && (s[from + 1] === " " || s[from + 1] === "\t")) throw OUTSIDE;
    // ... and starts a new word at a `\` right after a quote or an expansion (`'{}'\;`).
    if (code === 92 && (pieces.length || this.inTicks)) throw OUTSIDE;
    let escaped = false;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos);
      if (c === 92) {
        // An escaped character is part of the run (`a\ b`, `\;`); the input is printable.
        // (tree-sitter drops an escaped tab; inside backticks escapes mean other things.)
        if (this.pos + 1 >= s.length || s[this.pos + 1] === "\t" || this.inTicks) {
          throw OUTSIDE;
        }
        escaped = true;
        this.pos += 2;
        continue;
      }
      if (c < 128 && CLASS[c] !== 1) break; // (other letters are text, as to tree-sitter)
      this.pos++;
    }
    // tree-sitter lexes `==` and `=~` as test operators even outside a test.
    if (s[from] === "=" && (s[from + 1] === "=" || s[from + 1] === "~")) throw OUTSIDE;
    const type = !escaped && isNumber(s, from, this.pos) ? "number" : "word";
    return { type, start: from, end: this.pos };
  }

  /** The checks on a word's pieces once it ends at the current position. */
  private wordEnd(pieces: Piece[]): void {
    const s = this.src;
    // tree-sitter splits a word in two at most punctuation after its second `$NAME` (`$A/$B/c`,
    // `$A:$B?`): not read here.
    let expansions = 0;
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i];
      if (!p.type.endsWith("expansion")) continue;
      const next = i + 1 < pieces.length ? s[p.end] : "";
      if (++expansions > 1 && p.type === "simple_expansion" && !":@%=$".includes(next)) {
        throw OUTSIDE;
      }
    }
    // tree-sitter takes any run ending in a digit glued to `<` or `>` as a descriptor (`-la2>`).
    const next = s[this.pos];
    const last = s.charCodeAt(this.pos - 1);
    if ((next === "<" || next === ">") && last >= 48 && last <= 57) throw OUTSIDE;
    // tree-sitter drops a `-` that ends a word before a digit or a `$` (`cat - 2>&1`,
    // `'a'- $$`): not read here.
    if (s[this.pos - 1] === "-" && /^[ \t]*[0-9$]/.test(s.slice(this.pos, this.pos + 8))) {
      throw OUTSIDE;
    }
  }
  /** A `"…"` at the current position: plain text and `$NAME` / `${NAME}` expansions. */
  string(): Piece {
    const s = this.src;
    const start = this.pos++;
    const parts: Piece[] = [];
    let text = this.pos;
    const content = (end: number) => {
      if (end > text) parts.push({ type: "word", start: text, end });
    };
    for (;;) {
      if (this.pos >= s.length) throw OUTSIDE;
      const c = s.charCodeAt(this.pos);
      if (c === 34) break;
      if (c === 36) {
        content(this.pos);
        if (s[this.pos + 1] === '"' || "/|).,:;=+%^]~<>&".includes(s[this.pos + 1])) {
          // A `$` before the closing quote or punctuation is a token of its own (plain text to
          // bash).
          parts.push({ type: "dollar", start: this.pos, end: ++this.pos });
        } else if (s[this.pos + 1] === "(") parts.push(this.substitution());
        else parts.push(this.expansion());
        text = this.pos;
        continue;
      }
      if (c === 92) {
        // An escape is text to tree-sitter (`\"` and `\$` included): keep it in the content.
        // (An escaped blank counts as blank to it, see below: left to tree-sitter.)
        const next = s[this.pos + 1];
        if (this.pos + 1 >= s.length || next === " " || next === "\t" || this.inTicks) {
          throw OUTSIDE;
        }
        this.pos += 2;
        continue;
      }
      if (c === 96) {
        // A backtick substitution in the string (inside backticks, the string's backtick would
        // close those: tree-sitter's business).
        if (this.inTicks) throw OUTSIDE;
        content(this.pos);
        parts.push(this.ticks());
        text = this.pos;
        continue;
      }
      // Tabs: tree-sitter's business.
      if (c < 32) throw OUTSIDE;
      this.pos++;
    }
    content(this.pos);
    this.pos++;
    // tree-sitter folds blank-only text into the next token (`"$a $b"`): left to tree-sitter
    // when an expansion is involved.
    if (
      parts.length > 1 &&
      parts.some((p) => p.type === "word" && /^[ \t]+$/.test(s.slice(p.start, p.end)))
    ) {
      throw OUTSIDE;
    }
    return { type: "string", start, end: this.pos, parts };
  }

  /** A `$'…'` at the current position: one token, its escapes (`\'` too) inside. */
  ansiC(): Piece {
    const s = this.src;
    const start = this.pos;
    let i = start + 2;
    while (i < s.length && s[i] !== "'") {
      // tree-sitter does not take `\\` as one escape here (bash does): not read here.
      if (s[i] === "\\" && s[i + 1] === "\\") throw OUTSIDE;
      i += s[i] === "\\" ? 2 : 1;
    }
    if (i >= s.length) throw OUTSIDE;
    this.pos = i + 1;
    return { type: "ansi_c_string", start, end: this.pos };
  }

  /** A `$(…)` (not `$((`, arithmetic), `<(…)` or `>(…)` at the current position. */
  substitution(): Piece {
    const start = this.pos;
    if (this.src[start + 2] === "(") throw OUTSIDE;
    const type = this.src[start] === "$" ? "command_substitution" : "process_substitution";
    this.pos += 2;
    const body = this.statements(")");
    this.pos++; // the `)`
    return { type, start, end: this.pos, body };
  }

  /** A `` `…` `` at the current position: a substitution whose text has no backslash. */
  ticks(): Piece {
    // tree-sitter lexes the closing backtick, blanks and a next opening one as one token
    // (`` `a` `b` ``): one backtick substitution per command at most.
    if (this.ticksSeen++) throw OUTSIDE;
    // ... and pairs an escaped backtick anywhere in the command with them.
    if (this.src.includes("\\`")) throw OUTSIDE;
    const start = this.pos++;
    this.inTicks = true;
    const body = this.statements("`");
    this.inTicks = false;
    this.pos++; // the closing backtick
    return { type: "command_substitution", start, end: this.pos, body, ticks: true };
  }

  /** `$NAME`, `$1`, `${…}` at the current position; anything else is tree-sitter's. */
  expansion(): Piece {
    const s = this.src;
    const start = this.pos;
    if (s[start + 1] === "{") return this.bracedExpansion();
    if ("?@#$!-*0_".includes(s[start + 1]) && !/[A-Za-z0-9_]/.test(s[start + 2] ?? "")) {
      // `$?`, `$@`, `$$`, `$0`, ...: one character, a special_variable_name.
      this.pos = start + 2;
      return {
        type: "simple_expansion",
        start,
        end: start + 2,
        name: [start + 1, start + 2],
        special: true,
      };
    }
    let i = start + 1;
    while (i < s.length && /[A-Za-z0-9_]/.test(s[i])) i++;
    // (tree-sitter's names take in other letters too.)
    if (s.charCodeAt(i) >= 128) throw OUTSIDE;
    const name = s.slice(start + 1, i);
    // `$_` and `$0` are special parameters to tree-sitter, and `$` alone is not plain either.
    if (!name || name === "_" || name === "0") throw OUTSIDE;
    this.pos = i;
    return { type: "simple_expansion", start, end: i, name: [start + 1, i] };
  }

  /**
   * A `${…}` at the current position: `${NAME}`, and with plain words `${#NAME}`, `${NAME:-word}`
   * (and `-`, `:=`, `=`, `:+`, `+`, `:?`, `?`), `${NAME%pattern}` (and `%%`, `#`, `##`) and
   * `${NAME/pattern/word}` (and `//`, `/#`, `/%`).
   */
  bracedExpansion(): Piece {
    const s = this.src;
    const start = this.pos;
    let i = start + 2;
    const ops: ExpansionOp[] = [];
    if (s[i] === "#" && /[A-Za-z_]/.test(s[i + 1] ?? "")) {
      ops.push({ start: i, end: i + 1, value: null });
      i++;
    }
    const from = i;
    while (i < s.length && /[A-Za-z0-9_]/.test(s[i])) i++;
    const name = s.slice(from, i);
    // (`_` and `0` are special parameters to tree-sitter.)
    if (!/^([A-Za-z_][A-Za-z0-9_]*|[0-9]+)$/.test(name) || name === "_" || name === "0") {
      throw OUTSIDE;
    }
    const run = (chars: RegExp) => {
      const at = i;
      while (i < s.length && chars.test(s[i])) i++;
      return at;
    };
    if (!ops.length) {
      const op = /^(:[-=+?]|[-=+?]|%%?|##?|\/[/#%]?)/.exec(s.slice(i, i + 2))?.[0];
      if (!op) {
        if (s[i] !== "}") throw OUTSIDE;
        this.pos = ++i; // a plain `${NAME}`
        return { type: "expansion", start, end: i, name: [from, from + name.length] };
      }
      const opStart = i;
      i += op.length;
      let type: "word" | "regex" = "word";
      let chars = WORD_CHARS;
      if (op[0] === "%" || op[0] === "#" || op[0] === "/") {
        type = "regex";
        chars = op[0] === "/" ? REPLACE_PATTERN_CHARS : PATTERN_CHARS;
      }
      const at = run(chars);
      ops.push({ start: opStart, end: opStart + op.length, value: valueOf(type, at, i) });
      if (op[0] === "/" && s[i] === "/") {
        const slash = i++;
        const w = run(WORD_CHARS);
        ops.push({ start: slash, end: slash + 1, value: valueOf("word", w, i) });
      }
    }
    if (s[i] !== "}") throw OUTSIDE;
    this.pos = ++i;
    return { type: "expansion", start, end: i, name: [from, from + name.length], ops };
  }

  /**
   * Statements up to the end, or (inside `(…)`, `$(…)` and `` `…` ``) up to the `closer`, which is
   * left for the caller.
   */
  abstract statements(closer: Closer): Statement[];
}
