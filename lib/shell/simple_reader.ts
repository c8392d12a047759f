/**
 * The plain-command reader: statements, lists, pipelines, simple commands with their
 * assignments and redirects, declarations, subshells and the compound commands it reads on one
 * line, as shapes for the builder. Throws OUTSIDE at anything it leaves to tree-sitter.
 *
 * @module
 */
import { COMMAND_PREFIXES, DECLARATION_BUILTINS, RESERVED_WORDS } from "./keywords.ts";
import {
  type AssignTok,
  CLASS,
  type Closer,
  type DeclarationItem,
  type DoGroup,
  hasLoneDollar,
  OUTSIDE,
  type RedirectTok,
  type Shape,
  type Statement,
  type WordTok,
} from "./simple_shapes.ts";
import { WordReader } from "./simple_words.ts";

/** Commands tree-sitter reads as a declaration_command: names and assignments after them. */
const DECLARATIONS = [...DECLARATION_BUILTINS];

/** Keywords that open a compound command this reader reads (a blank must follow them). */
const OPENERS = ["while", "until", "for", "if", "{"];

/**
 * Words that make a command something other than a simple command in the command position
 * (tree-sitter reads `time` and `coproc` as plain commands).
 */
const KEYWORDS = new Set([
  ...[...RESERVED_WORDS].filter((w) => !COMMAND_PREFIXES.has(w)),
  ...DECLARATIONS,
  "unset",
  "unsetenv",
]);

/** `NAME=` or `NAME+=` at the start of a word. */
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;

/** Reads the statements of a plain command (see `simpleTree`). */
export class Reader extends WordReader {
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
