/**
 * The syntax tree of a plain command, built without tree-sitter. Most commands an agent runs are
 * words, quotes, escapes, `$NAME`, `${NAME:-word}`-style operators, globs, `$(…)`, `<(…)`, `( … )`,
 * `{ …; }`, `while`/`until`/`for`/`if` on one line, `export`-style declarations, pipes,
 * `&&`/`||`/`;`/`&`, file redirects and a trailing comment; for those this reader builds the very
 * tree tree-sitter-bash would (node for node, with its quirks), in a fraction of the time. Anything
 * else (`case`, functions, tests, heredocs, `${…}` with quoted or nested words, arithmetic,
 * newlines, control characters, and every spot where tree-sitter's reading is odd) returns null and
 * goes to tree-sitter. `simple_tree_test.ts` holds it to tree-sitter on the corpus and on fuzz.
 */
import { RESERVED_WORDS } from "./words.ts";
import { Lite, type LiteNode } from "./syntax_tree.ts";

/**
 * A piece of a word: an unquoted run, a brace or bracket, a `'…'`, a `"…"` (its `parts`: content
 * ranges, expansions and substitutions), an expansion `$NAME` / `${NAME}` / `$?` (`name`: the range
 * of the name), or a substitution (`body`).
 */
interface Piece {
  type:
    | "word"
    | "number"
    | "raw_string"
    | "string"
    | "simple_expansion"
    | "expansion"
    | "dollar"
    | "ansi_c_string"
    | "command_substitution"
    | "process_substitution";
  start: number;
  end: number;
  name?: [number, number];
  parts?: Piece[];
  /** A `$(…)`, `` `…` ``, `<(…)` or `>(…)`: its statements. */
  body?: Statement[];
  /** A substitution written with backticks. */
  ticks?: boolean;
  /** A `$?`, `$@`, ...: the name is a special_variable_name. */
  special?: boolean;
  /** The operators of a `${…}` (`:-`, `%`, `/`, ...) with the word or pattern after each. */
  ops?: ExpansionOp[];
}

/** One operator of a `${…}`, and the word or pattern that follows it, if any. */
interface ExpansionOp {
  start: number;
  end: number;
  value: { type: "word" | "regex"; start: number; end: number } | null;
}

/** A statement and the `;` after it, if any. */
interface Statement {
  shape: Shape;
  semi: number | null;
  /** The statement ends with `&` (at `semi`) rather than `;`. */
  amp?: boolean;
}

interface WordTok {
  start: number;
  end: number;
  pieces: Piece[];
}

/** `NAME=value` (or `NAME+=value`) before a command, or alone. */
interface AssignTok {
  start: number;
  /** Where the name ends and the operator starts. */
  op: number;
  plus: boolean;
  value: WordTok | null;
  end: number;
}

interface RedirectTok {
  start: number;
  /** The file descriptor digits before the operator, as [start, end]. */
  fd: [number, number] | null;
  op: string;
  opStart: number;
  dest: WordTok;
  /** Words after the destination, which tree-sitter reads as more destinations. */
  more: WordTok[];
  end: number;
}

/** The statement structure before it becomes nodes. */
type Shape =
  | { t: "command"; words: WordTok[]; assigns: AssignTok[] }
  | { t: "assignments"; assigns: AssignTok[] }
  | { t: "subshell"; start: number; end: number; body: Statement[] }
  | { t: "redirected"; body: Shape; redirects: RedirectTok[] }
  | { t: "pipeline"; parts: Shape[]; ops: number[] }
  | { t: "list"; left: Shape; op: string; opStart: number; right: Shape }
  | {
    t: "declaration";
    start: number;
    keyword: string;
    items: DeclarationItem[];
    end: number;
  }
  | { t: "compound"; start: number; body: Statement[]; end: number }
  | { t: "while"; keyword: string; start: number; condition: Statement[]; body: DoGroup }
  | {
    t: "for";
    start: number;
    variable: [number, number];
    /** Where `in` is, and the words after it. */
    values: { at: number; words: WordTok[] } | null;
    semi: number;
    body: DoGroup;
  }
  | {
    t: "if";
    start: number;
    condition: Statement[];
    then: number;
    body: Statement[];
    elifs: { start: number; condition: Statement[]; then: number; body: Statement[] }[];
    otherwise: { start: number; body: Statement[] } | null;
    end: number;
  };

/** What follows `export`, `declare`, ...: an assignment, a plain name (`name: true`) or a word. */
type DeclarationItem = { assign: AssignTok } | { word: WordTok; name: boolean };

/** A `do … done`. */
interface DoGroup {
  start: number;
  body: Statement[];
  end: number;
}

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

/** Whether a word has a `$` alone in it (`^$`): text to tree-sitter only in some places. */
function hasLoneDollar(w: WordTok): boolean {
  return w.pieces.some((p) => p.type === "dollar");
}

/** What ends a list of statements: the end, `)`, a backtick, or one of some keywords. */
type Closer = ")" | "`" | null | readonly string[];

/** Commands tree-sitter reads as a declaration_command: names and assignments after them. */
const DECLARATIONS = ["export", "declare", "typeset", "local", "readonly"];

/** Keywords that open a compound command this reader reads (a blank must follow them). */
const OPENERS = ["while", "until", "for", "if", "{"];

/**
 * Characters of an unquoted run (1), characters that end a word (2) and `\\` (4). Braces, brackets,
 * quotes and `$` are read by their own branches of `word`; anything else is not read here.
 */
const CLASS = new Uint8Array(128);
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+,=^~*?!-") {
  CLASS[c.charCodeAt(0)] = 1;
}
for (const c of " \t|&;<>)`") CLASS[c.charCodeAt(0)] = 2;
CLASS[92] = 4;

/**
 * Words that make a command something other than a simple command in the command position
 * (tree-sitter reads `time` and `coproc` as plain commands).
 */
const KEYWORDS = new Set([
  ...[...RESERVED_WORDS].filter((w) => w !== "time" && w !== "coproc"),
  ...DECLARATIONS,
  "unset",
  "unsetenv",
]);

/** Whether `s[from, to)` is `-?[0-9]+` (tree-sitter's number). */
function isNumber(s: string, from: number, to: number): boolean {
  const start = s[from] === "-" ? from + 1 : from;
  if (start >= to) return false;
  for (let i = start; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** `NAME=` or `NAME+=` at the start of a word. */
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;

/** Thrown inside the reader when the command is outside what it reads. */
const OUTSIDE = Symbol("outside");

class Reader {
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
        // A `$` before a blank or the end is plain text, a token of its own (`grep ^$`).
        const next = s[this.pos + 1];
        if (next === undefined || next === " " || next === "\t") {
          // (After a word that starts with `-`, tree-sitter makes the whole word the `$`.)
          if (s[start] === "-") throw OUTSIDE;
          pieces.push({ type: "dollar", start: this.pos, end: ++this.pos });
          continue;
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
        pieces.push(
          after === "(" ? this.substitution() : after === "'" ? this.ansiC() : this.expansion(),
        );
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
        pieces.push({ type, start: from, end: this.pos });
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
    return { start, end: this.pos, pieces };
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

  /**
   * Statements up to the end, or (inside `(…)`, `$(…)` and `` `…` ``) up to the `closer`, which is
   * left for the caller. None at all is not read here.
   */
  statements(closer: Closer): Statement[] {
    const s = this.src;
    const out: Statement[] = [];
    // Deeply nested groups are tree-sitter's (and keep this recursion shallow).
    if (++this.depth > 16) throw OUTSIDE;
    for (;;) {
      this.skipBlanks();
      if (this.pos >= s.length) {
        if (closer) throw OUTSIDE;
        break;
      }
      if (typeof closer === "string" && s[this.pos] === closer) break;
      if (Array.isArray(closer) && this.keywordAt(closer)) break;
      if (s[this.pos] === "#") {
        // A comment after a statement (`a; # b`) ends the command.
        if (!this.takeComment(closer) || !out.length) throw OUTSIDE;
        break;
      }
      let shape: Shape | null = null;
      let semi: number | null = null;
      let amp = false;
      // The operator between the statement so far and the element being read.
      let pending: { op: string; start: number } | null = null;
      for (;;) {
        const { element, redirects } = this.element();
        if (!shape || !pending) shape = element;
        else if (pending.op === "|") shape = pipeInto(shape, pending.start, element);
        else {
          shape = {
            t: "list",
            left: shape,
            op: pending.op,
            opStart: pending.start,
            right: element,
          };
        }
        // Redirects after a command wrap the whole statement so far.
        if (redirects.length) shape = { t: "redirected", body: shape, redirects };
        const next = this.operator(closer);
        if (!next) break;
        if (next.op === "#") {
          this.pos = next.start;
          if (!this.takeComment(closer)) throw OUTSIDE;
          break;
        }
        if (next.op === ";" || next.op === "&") {
          semi = next.start;
          amp = next.op === "&";
          break;
        }
        // tree-sitter reads `a | b | c && d` as `a | (b | c && d)`: left to tree-sitter.
        if (next.op !== "|" && shape.t !== "list" && pipedCommands(shape) > 2) throw OUTSIDE;
        pending = next;
      }
      out.push(amp ? { shape, semi, amp } : { shape, semi });
    }
    if (!out.length) throw OUTSIDE;
    this.depth--;
    return out;
  }

  /**
   * A comment at the current position: taken (to the end) when it ends the whole command after a
   * blank or `;`; anywhere else it is not read here.
   */
  takeComment(closer: Closer): boolean {
    const before = this.src[this.pos - 1];
    if (closer !== null || this.depth !== 1 || this.inTicks) return false;
    if (before !== " " && before !== "\t" && before !== ";") return false;
    // tree-sitter's lexer still pairs backticks inside a comment with ones before it.
    if (this.ticksSeen || this.src.includes("`", this.pos)) return false;
    this.comment = this.pos;
    this.pos = this.src.length;
    return true;
  }

  /** `export`, `declare`, ... at the current position, with its names and assignments. */
  declaration(keyword: string): Shape {
    const s = this.src;
    const start = this.pos;
    this.pos += keyword.length;
    const items: DeclarationItem[] = [];
    for (;;) {
      this.skipBlanks();
      const glued = this.gluedDigits(this.pos);
      if (glued === "<" || glued === "-") throw OUTSIDE;
      if (glued === ">" || this.peekRedirect()) break;
      const assign = this.assignment();
      if (assign) {
        items.push({ assign });
        continue;
      }
      const word = this.word();
      if (!word) break;
      // Names, numbers, options, and quotes or expansions standing alone; anything else
      // (`a[1]=x`, `'A'=1`, `x%y`, words of several pieces) tree-sitter reads in its own ways.
      const text = s.slice(word.start, word.end);
      const piece = word.pieces[0];
      if (word.pieces.length > 1 || piece.type === "dollar") throw OUTSIDE;
      const name = piece.type === "word" && /^[A-Za-z0-9_]+$/.test(text);
      if (piece.type === "word" && !name && !/^-[A-Za-z0-9-]*$/.test(text)) throw OUTSIDE;
      items.push({ word, name });
    }
    const last = items[items.length - 1];
    const end = !last ? start + keyword.length : "assign" in last ? last.assign.end : last.word.end;
    return { t: "declaration", start, keyword, items, end };
  }

  /** A compound command at the current position, opened by `keyword`. */
  compound(keyword: string): Shape {
    const start = this.pos;
    this.pos += keyword.length;
    if (keyword === "{") {
      const body = this.statements(["}"]);
      return { t: "compound", start, body, end: ++this.pos };
    }
    if (keyword === "while" || keyword === "until") {
      const condition = this.statements(["do"]);
      return { t: "while", keyword, start, condition, body: this.doGroup() };
    }
    if (keyword === "for") return this.forLoop(start);
    const condition = this.statements(["then"]);
    const then = this.pos;
    this.pos += 4;
    const body = this.statements(["elif", "else", "fi"]);
    const elifs = [];
    while (this.keywordAt(["elif"])) {
      const at = this.pos;
      this.pos += 4;
      const condition = this.statements(["then"]);
      const then = this.pos;
      this.pos += 4;
      elifs.push({ start: at, condition, then, body: this.statements(["elif", "else", "fi"]) });
    }
    let otherwise = null;
    if (this.keywordAt(["else"])) {
      const at = this.pos;
      this.pos += 4;
      otherwise = { start: at, body: this.statements(["fi"]) };
    }
    this.pos += 2; // `fi`
    return { t: "if", start, condition, then, body, elifs, otherwise, end: this.pos };
  }

  /** `for NAME [in WORDS]; do … done`, after the `for` at `start`. */
  forLoop(start: number): Shape {
    const s = this.src;
    this.skipBlanks();
    const from = this.pos;
    if (!/[A-Za-z_]/.test(s[from] ?? "")) throw OUTSIDE;
    while (this.pos < s.length && /[A-Za-z0-9_]/.test(s[this.pos])) this.pos++;
    const variable: [number, number] = [from, this.pos];
    this.skipBlanks();
    let values: { at: number; words: WordTok[] } | null = null;
    if (this.keywordAt(["in"])) {
      values = { at: this.pos, words: [] };
      this.pos += 2;
      for (;;) {
        this.skipBlanks();
        if (s[this.pos] === ";") break;
        const w = this.word();
        // (There tree-sitter may join a `$` alone to the next word as its name.)
        if (!w || hasLoneDollar(w)) throw OUTSIDE;
        values.words.push(w);
      }
      if (!values.words.length) throw OUTSIDE;
    }
    if (s[this.pos] !== ";") throw OUTSIDE;
    const semi = this.pos++;
    this.skipBlanks();
    if (!this.keywordAt(["do"])) throw OUTSIDE;
    return { t: "for", start, variable, values, semi, body: this.doGroup() };
  }

  /** `do … done` at the current position. */
  doGroup(): DoGroup {
    const start = this.pos;
    this.pos += 2;
    const body = this.statements(["done"]);
    this.pos += 4;
    return { start, body, end: this.pos };
  }

  /** A simple command or a `( … )` subshell, with the redirects after it. */
  element(): { element: Shape; redirects: RedirectTok[] } {
    this.skipBlanks();
    const s = this.src;
    const declares = this.keywordAt(DECLARATIONS);
    if (declares) {
      const element = this.declaration(declares);
      return { element, redirects: this.trailingRedirects() };
    }
    const opener = this.keywordAt(OPENERS);
    if (opener) {
      const element = this.compound(opener);
      // Only blanks, operators, a closer or redirects may follow it.
      const next = s.charCodeAt(this.pos);
      if (this.pos < s.length && (next >= 128 || CLASS[next] !== 2)) throw OUTSIDE;
      return { element, redirects: this.trailingRedirects() };
    }
    if (s[this.pos] !== "(") {
      const { words, assigns, redirects } = this.command();
      const element: Shape = words.length
        ? { t: "command", words, assigns }
        : { t: "assignments", assigns };
      return { element, redirects };
    }
    const start = this.pos;
    if (s[start + 1] === "(") throw OUTSIDE; // `((…))` is arithmetic
    this.pos++;
    const body = this.statements(")");
    const end = ++this.pos; // past the `)`
    // Only blanks, operators, `)` or redirects may follow it.
    const next = s.charCodeAt(this.pos);
    if (this.pos < s.length && (next >= 128 || CLASS[next] !== 2)) throw OUTSIDE;
    return { element: { t: "subshell", start, end, body }, redirects: this.trailingRedirects() };
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

  /** A redirect operator at the current position (after an optional fd), or null. */
  redirectOp(): string | null {
    const s = this.src;
    const c = s[this.pos];
    const n = s[this.pos + 1];
    let op: string;
    if (c === ">") {
      op = n === ">" ? ">>" : n === "&" ? ">&" : n === "|" ? ">|" : ">";
      if (n === "(") throw OUTSIDE;
    } else if (c === "<") {
      if (n === "<" || n === ">" || n === "(") throw OUTSIDE;
      op = n === "&" ? "<&" : "<";
    } else if (c === "&" && n === ">") {
      op = s[this.pos + 2] === ">" ? "&>>" : "&>";
    } else {
      return null;
    }
    this.pos += op.length;
    // `>&-` closes a descriptor: tree-sitter's business.
    if ((op === ">&" || op === "<&") && s[this.pos] === "-") throw OUTSIDE;
    return op;
  }

  /** The redirects at the current position (possibly none). */
  redirects(): RedirectTok[] {
    const out: RedirectTok[] = [];
    for (;;) {
      this.skipBlanks();
      const start = this.pos;
      let fd: [number, number] | null = null;
      let i = this.pos;
      while (i < this.src.length && this.src.charCodeAt(i) >= 48 && this.src.charCodeAt(i) <= 57) {
        i++;
      }
      if (i > this.pos && this.src[i] === ">") {
        fd = [this.pos, i];
        this.pos = i;
      }
      const opStart = this.pos;
      const op = this.redirectOp();
      if (op === null) {
        this.pos = start;
        return out;
      }
      this.skipBlanks();
      const dest = this.word();
      // (A `$` alone is no destination to tree-sitter.)
      if (!dest || hasLoneDollar(dest)) throw OUTSIDE;
      // tree-sitter takes the words after it (`2>/dev/null -name x`) as more destinations.
      const more: WordTok[] = [];
      for (;;) {
        const at = this.pos;
        this.skipBlanks();
        const glued = this.gluedDigits(this.pos);
        if (glued === "<" || glued === "-") throw OUTSIDE;
        const w = glued || this.peekRedirect() || this.pos === at ? null : this.word();
        if (!w) {
          this.pos = at;
          break;
        }
        if (hasLoneDollar(w)) throw OUTSIDE;
        more.push(w);
      }
      const end = more.length ? more[more.length - 1].end : dest.end;
      out.push({ start, fd, op, opStart, dest, more, end });
    }
  }

  /** The redirects that end a command or group; after them only an operator may follow. */
  trailingRedirects(): RedirectTok[] {
    const redirects = this.redirects();
    this.skipBlanks();
    if (
      redirects.length && this.pos < this.src.length &&
      CLASS[this.src.charCodeAt(this.pos)] !== 2 &&
      this.src[this.pos] !== "#"
    ) {
      throw OUTSIDE;
    }
    return redirects;
  }

  /** A simple command: its words (the first a plain name), then its redirects. */
  /** `NAME=value` at the current position, or null when none starts here. */
  assignment(): AssignTok | null {
    const m = ASSIGNMENT.exec(this.src.slice(this.pos, this.pos + 256));
    if (!m) return null;
    const start = this.pos;
    const op = start + m[1].length;
    const plus = this.src[op] === "+";
    this.pos = op + (plus ? 2 : 1);
    // An empty value: only blanks, operators, a closer or the end follow (`x=(a)` is an array).
    const c = this.src[this.pos];
    // (Right before an operator, tree-sitter reads a missing value: not read here.)
    // (A backtick starts the value, unless it closes the substitution being read.)
    if ((c !== undefined && "|&;<>)".includes(c)) || (c === "`" && this.inTicks)) throw OUTSIDE;
    // (With more backticks in the command, tree-sitter may pair that one with a later one.)
    if (c === "`" && this.src.split("`").length > 3) throw OUTSIDE;
    const empty = this.pos >= this.src.length || c === " " || c === "\t";
    const value = empty ? null : this.word();
    // (A `$` alone is no value to tree-sitter.)
    if (!empty && (!value || hasLoneDollar(value))) throw OUTSIDE;
    return { start, op, plus, value, end: value ? value.end : this.pos };
  }

  command(): { words: WordTok[]; assigns: AssignTok[]; redirects: RedirectTok[] } {
    const words: WordTok[] = [];
    const assigns: AssignTok[] = [];
    for (;;) {
      this.skipBlanks();
      const a = this.assignment();
      if (!a) break;
      assigns.push(a);
    }
    for (;;) {
      this.skipBlanks();
      const at = this.pos;
      // Digits glued to `>` are a descriptor, not a word (tree-sitter takes `-1>` as one too).
      // Digits glued to `<` are read either way depending on what came before: not read here.
      const glued = this.gluedDigits(at);
      if (glued === "<" || glued === "-") throw OUTSIDE;
      const substitution = this.src[at + 1] === "(";
      if (glued === ">" || (this.peekRedirect() && !substitution)) break;
      const w = this.word();
      if (!w) break;
      words.push(w);
    }
    if (!words.length) {
      // Assignments alone (redirects after them are tree-sitter's: it reads a missing command).
      if (!assigns.length || this.peekRedirect() || this.gluedDigits(this.pos) !== null) {
        throw OUTSIDE;
      }
      return { words, assigns, redirects: [] };
    }
    const name = words[0];
    // After assignments, tree-sitter tries a name glued to more (`x=1 a:b`) as one more: only a
    // plain name, or a path, is read here.
    if (assigns.length) {
      const text = this.src.slice(name.start, name.end);
      if (name.pieces.length !== 1 || !/^([A-Za-z0-9_]+|[./~][A-Za-z0-9_./~-]*)$/.test(text)) {
        throw OUTSIDE;
      }
    }
    for (const p of name.pieces) {
      if (p.type === "dollar" || p.type === "process_substitution") throw OUTSIDE;
      // `NAME=…` is an assignment; tree-sitter misreads `name@…`, `name%…` and `-…` there.
      const text = this.src.slice(p.start, p.end);
      if (p.type === "word" && (/[^A-Za-z0-9_./+:~-]/.test(text) || text[0] === "-")) {
        throw OUTSIDE;
      }
    }
    // tree-sitter reads a keyword even when quotes follow it (`if"x"`): its first run counts.
    const head = name.pieces[0];
    if (KEYWORDS.has(this.src.slice(head.start, head.end))) throw OUTSIDE;
    return { words, assigns, redirects: this.trailingRedirects() };
  }

  /**
   * What follows digits at `at` (`2>`: ">", `0<`: "<", `-1>` or `-1<`: "-"), or null when no
   * run of digits glued to `<` or `>` starts there.
   */
  private gluedDigits(at: number): string | null {
    const s = this.src;
    let i = s[at] === "-" ? at + 1 : at;
    const first = i;
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    if (i === first || (s[i] !== "<" && s[i] !== ">")) return null;
    return first > at ? "-" : s[i];
  }

  private peekRedirect(): boolean {
    const c = this.src[this.pos];
    return c === ">" || c === "<" || (c === "&" && this.src[this.pos + 1] === ">");
  }

  /** The control operator at the current position, or null at the end. */
  operator(closer: Closer = null): { op: string; start: number } | null {
    this.skipBlanks();
    const s = this.src;
    if (this.pos >= s.length) return null;
    const start = this.pos;
    const c = s[start];
    if (c === ")" || c === "`") {
      if (c !== closer) throw OUTSIDE;
      return null;
    }
    if (c === "#") return { op: "#", start };
    const n = s[start + 1];
    let op: string;
    if (c === "|") op = n === "|" ? "||" : n === "&" ? "|&" : "|";
    else if (c === "&") op = n === "&" ? "&&" : "&";
    else if (c === ";") op = n === ";" ? ";;" : n === "&" ? ";&" : ";";
    else throw OUTSIDE;
    if (op === "|&" || op === ";;" || op === ";&") throw OUTSIDE;
    this.pos += op.length;
    return { op, start };
  }
}

/** The commands a pipeline joins, counted through redirected groups (`a | b > f | c`: 3). */
function pipedCommands(s: Shape): number {
  if (s.t === "command" || s.t === "subshell" || s.t === "assignments") return 1;
  if (s.t === "redirected") return pipedCommands(s.body);
  if (s.t === "pipeline") return s.parts.reduce((n, p) => n + pipedCommands(p), 0);
  return 1;
}

/** Attach `| command` to the statement so far, as tree-sitter groups it. */
function pipeInto(left: Shape, opStart: number, next: Shape): Shape {
  if (left.t === "pipeline") {
    return { ...left, parts: [...left.parts, next], ops: [...left.ops, opStart] };
  }
  if (left.t === "list") return { ...left, right: pipeInto(left.right, opStart, next) };
  return { t: "pipeline", parts: [left, next], ops: [opStart] };
}

/**
 * What the reader leaves to tree-sitter wherever it is: control characters (newlines too), blanks
 * other than space and tab, invisible formatting characters and surrogate pairs. (Offsets are
 * UTF-16 indexes on both sides.)
 */
const UNREAD =
  /[^\t\x20-\x7e\xa1-\u167f\u1681-\u180d\u180f-\u1fff\u2010-\u2027\u2030-\u205e\u2070-\u2fff\u3001-\ud7ff\ue000-\ufefe\uff00-\uffef]/;

/** The tree tree-sitter-bash would build for `source`, or null when the reader cannot say. */
export function simpleTree(source: string): LiteNode | null {
  if (source.length > 4096 || UNREAD.test(source)) return null;
  const r = new Reader(source);
  let statements: Statement[];
  try {
    statements = r.statements(null);
  } catch (e) {
    if (e === OUTSIDE) return null;
    throw e;
  }
  return build(source, statements, r.comment);
}

function build(source: string, statements: Statement[], comment: number | null): LiteNode {
  const b = new Builder(source);
  const root = b.node("program", true, startOf(statements[0].shape), source.length, null, null);
  b.statements(statements, root);
  if (comment !== null) b.node("comment", true, comment, source.length, root, null);
  return root;
}

/** Makes the nodes of one tree, numbered in order. */
class Builder {
  id = 0;
  constructor(readonly source: string) {}

  node(
    type: string,
    named: boolean,
    start: number,
    end: number,
    parent: Lite | null,
    field: string | null,
  ): Lite {
    const n = new Lite(this.source, this.id++, type, named, false, start, end, parent);
    parent?.adopt(n, field);
    return n;
  }

  statements(list: Statement[], parent: Lite, field: string | null = null): void {
    for (const st of list) {
      this.shape(st.shape, parent, field);
      if (st.semi !== null) {
        this.node(st.amp ? "&" : ";", false, st.semi, st.semi + 1, parent, field);
      }
    }
  }

  /** A keyword token at `at`. */
  keyword(word: string, at: number, parent: Lite): void {
    this.node(word, false, at, at + word.length, parent, null);
  }

  doGroup(g: DoGroup, parent: Lite): void {
    const n = this.node("do_group", true, g.start, g.end, parent, "body");
    this.keyword("do", g.start, n);
    this.statements(g.body, n);
    this.keyword("done", g.end - 4, n);
  }

  piece(p: Piece, parent: Lite, field: string | null): void {
    if (p.type === "dollar") {
      this.node("$", false, p.start, p.end, parent, field);
      return;
    }
    const n = this.node(p.type, true, p.start, p.end, parent, field);
    if (p.body) {
      // `$(`, `<(`, `>(` or a backtick; then the statements and `)` or the closing backtick.
      const open = p.ticks ? "`" : this.source.slice(p.start, p.start + 2);
      this.node(open, false, p.start, p.start + open.length, n, null);
      this.statements(p.body, n);
      this.node(p.ticks ? "`" : ")", false, p.end - 1, p.end, n, null);
    } else if (p.type === "simple_expansion" || p.type === "expansion") {
      const open = p.type === "expansion" ? "${" : "$";
      this.node(open, false, p.start, p.start + open.length, n, null);
      const ops = p.ops ?? [];
      // `${#NAME}`: the operator comes first.
      const before = ops.length && ops[0].end <= p.name![0] ? 1 : 0;
      if (before) this.node("#", false, ops[0].start, ops[0].end, n, "operator");
      const name = p.special ? "special_variable_name" : "variable_name";
      this.node(name, true, p.name![0], p.name![1], n, null);
      for (const op of ops.slice(before)) {
        const text = this.source.slice(op.start, op.end);
        this.node(text, false, op.start, op.end, n, "operator");
        if (op.value) this.node(op.value.type, true, op.value.start, op.value.end, n, null);
      }
      if (p.type === "expansion") this.node("}", false, p.end - 1, p.end, n, null);
    } else if (p.type === "string") {
      this.node('"', false, p.start, p.start + 1, n, null);
      const parts = p.parts!;
      // tree-sitter gives blank-only content no node: the closing quote's token spans it.
      if (parts.length === 1 && /^[ \t]+$/.test(this.source.slice(parts[0].start, parts[0].end))) {
        this.node('"', false, p.start + 1, p.end, n, null);
        return;
      }
      for (const part of parts) {
        if (part.type === "word") this.node("string_content", true, part.start, part.end, n, null);
        else if (part.type === "dollar") this.node("$", false, part.start, part.end, n, null);
        else this.piece(part, n, null);
      }
      this.node('"', false, p.end - 1, p.end, n, null);
    }
  }

  word(w: WordTok, parent: Lite, field: string | null): void {
    if (w.pieces.length === 1) return this.piece(w.pieces[0], parent, field);
    const n = this.node("concatenation", true, w.start, w.end, parent, field);
    for (const p of w.pieces) this.piece(p, n, null);
  }

  assignment(a: AssignTok, parent: Lite, field: string | null = null): Lite {
    const n = this.node("variable_assignment", true, a.start, a.end, parent, field);
    this.node("variable_name", true, a.start, a.op, n, "name");
    this.node(a.plus ? "+=" : "=", false, a.op, a.op + (a.plus ? 2 : 1), n, null);
    if (a.value) this.word(a.value, n, "value");
    return n;
  }

  shape(s: Shape, parent: Lite, field: string | null): void {
    if (s.t === "assignments" && s.assigns.length === 1) {
      this.assignment(s.assigns[0], parent, field);
      return;
    }
    const n = this.node(typeOf(s), true, startOf(s), endOf(s), parent, field);
    switch (s.t) {
      case "declaration":
        this.keyword(s.keyword, s.start, n);
        for (const item of s.items) {
          if ("assign" in item) this.assignment(item.assign, n);
          else if (item.name) {
            this.node("variable_name", true, item.word.start, item.word.end, n, null);
          } else this.word(item.word, n, null);
        }
        return;
      case "compound":
        this.keyword("{", s.start, n);
        this.statements(s.body, n);
        this.keyword("}", s.end - 1, n);
        return;
      case "while":
        this.keyword(s.keyword, s.start, n);
        this.statements(s.condition, n, "condition");
        this.doGroup(s.body, n);
        return;
      case "for":
        this.keyword("for", s.start, n);
        this.node("variable_name", true, s.variable[0], s.variable[1], n, "variable");
        if (s.values) {
          this.keyword("in", s.values.at, n);
          for (const w of s.values.words) this.word(w, n, "value");
        }
        this.node(";", false, s.semi, s.semi + 1, n, null);
        this.doGroup(s.body, n);
        return;
      case "if": {
        this.keyword("if", s.start, n);
        this.statements(s.condition, n, "condition");
        this.keyword("then", s.then, n);
        this.statements(s.body, n);
        for (const e of s.elifs) {
          const c = this.node("elif_clause", true, e.start, endOfList(e.body), n, null);
          this.keyword("elif", e.start, c);
          this.statements(e.condition, c);
          this.keyword("then", e.then, c);
          this.statements(e.body, c);
        }
        if (s.otherwise) {
          const o = s.otherwise;
          const c = this.node("else_clause", true, o.start, endOfList(o.body), n, null);
          this.keyword("else", o.start, c);
          this.statements(o.body, c);
        }
        this.keyword("fi", s.end - 2, n);
        return;
      }
      case "subshell":
        this.node("(", false, s.start, s.start + 1, n, null);
        this.statements(s.body, n);
        this.node(")", false, s.end - 1, s.end, n, null);
        return;
      case "assignments":
        if (s.assigns.length === 1) return; // the node itself is the assignment (below)
        for (const a of s.assigns) this.assignment(a, n);
        return;
      case "command": {
        for (const a of s.assigns) this.assignment(a, n);
        const name = this.node("command_name", true, s.words[0].start, s.words[0].end, n, "name");
        this.word(s.words[0], name, null);
        for (let i = 1; i < s.words.length; i++) this.word(s.words[i], n, "argument");
        return;
      }
      case "redirected":
        this.shape(s.body, n, "body");
        for (const r of s.redirects) {
          const f = this.node("file_redirect", true, r.start, r.end, n, "redirect");
          if (r.fd) this.node("file_descriptor", true, r.fd[0], r.fd[1], f, "descriptor");
          this.node(r.op, false, r.opStart, r.opStart + r.op.length, f, null);
          this.word(r.dest, f, "destination");
          for (const w of r.more) this.word(w, f, "destination");
        }
        return;
      case "pipeline":
        s.parts.forEach((p, i) => {
          if (i > 0) this.node("|", false, s.ops[i - 1], s.ops[i - 1] + 1, n, null);
          this.shape(p, n, null);
        });
        return;
      case "list":
        this.shape(s.left, n, null);
        this.node(s.op, false, s.opStart, s.opStart + s.op.length, n, null);
        this.shape(s.right, n, null);
    }
  }
}

const TYPES: Record<Shape["t"], string> = {
  command: "command",
  assignments: "variable_assignments",
  subshell: "subshell",
  redirected: "redirected_statement",
  pipeline: "pipeline",
  list: "list",
  compound: "compound_statement",
  declaration: "declaration_command",
  while: "while_statement",
  for: "for_statement",
  if: "if_statement",
};

function typeOf(s: Shape): string {
  return TYPES[s.t];
}

/** Where a list of statements ends: at the last one's `;`, if it has one. */
function endOfList(list: Statement[]): number {
  const last = list[list.length - 1];
  return last.semi !== null ? last.semi + 1 : endOf(last.shape);
}

function startOf(s: Shape): number {
  switch (s.t) {
    case "subshell":
    case "compound":
    case "declaration":
    case "while":
    case "for":
    case "if":
      return s.start;
    case "command":
      return s.assigns.length ? s.assigns[0].start : s.words[0].start;
    case "assignments":
      return s.assigns[0].start;
    case "redirected":
      return startOf(s.body);
    case "pipeline":
      return startOf(s.parts[0]);
    case "list":
      return startOf(s.left);
  }
}

function endOf(s: Shape): number {
  switch (s.t) {
    case "subshell":
    case "compound":
    case "declaration":
    case "if":
      return s.end;
    case "while":
    case "for":
      return s.body.end;
    case "command":
      return s.words[s.words.length - 1].end;
    case "assignments":
      return s.assigns[s.assigns.length - 1].end;
    case "redirected":
      return s.redirects[s.redirects.length - 1].end;
    case "pipeline":
      return endOf(s.parts[s.parts.length - 1]);
    case "list":
      return endOf(s.right);
  }
}
