/**
 * The pieces the plain-command reader reads a command into before they become nodes: words and
 * their pieces, assignments, redirects, statements and their shapes; and the tables the reader
 * shares.
 *
 * @module
 */

/**
 * A piece of a word: an unquoted run, a brace or bracket, a `'…'`, a `"…"` (its `parts`: content
 * ranges, expansions and substitutions), an expansion `$NAME` / `${NAME}` / `$?` (`name`: the range
 * of the name), or a substitution (`body`).
 */
export interface Piece {
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
export interface ExpansionOp {
  start: number;
  end: number;
  value: { type: "word" | "regex"; start: number; end: number } | null;
}

/** A statement and the `;` after it, if any. */
export interface Statement {
  shape: Shape;
  semi: number | null;
  /** The statement ends with `&` (at `semi`) rather than `;`. */
  amp?: boolean;
}

export interface WordTok {
  start: number;
  end: number;
  pieces: Piece[];
}

/** `NAME=value` (or `NAME+=value`) before a command, or alone. */
export interface AssignTok {
  start: number;
  /** Where the name ends and the operator starts. */
  op: number;
  plus: boolean;
  value: WordTok | null;
  end: number;
}

export interface RedirectTok {
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
export type Shape =
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
export type DeclarationItem = { assign: AssignTok } | { word: WordTok; name: boolean };

/** A `do … done`. */
export interface DoGroup {
  start: number;
  body: Statement[];
  end: number;
}

/** Whether a word has a `$` alone in it (`^$`): text to tree-sitter only in some places. */
export function hasLoneDollar(w: WordTok): boolean {
  return w.pieces.some((p) => p.type === "dollar");
}

/** What ends a list of statements: the end, `)`, a backtick, or one of some keywords. */
export type Closer = ")" | "`" | null | readonly string[];

/**
 * Characters of an unquoted run (1), characters that end a word (2) and `\\` (4). Braces, brackets,
 * quotes and `$` are read by their own branches of `word`; anything else is not read here.
 */
export const CLASS = new Uint8Array(128);
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+,=^~*?!-") {
  CLASS[c.charCodeAt(0)] = 1;
}
for (const c of " \t|&;<>)`") CLASS[c.charCodeAt(0)] = 2;
CLASS[92] = 4;

/** Whether `s[from, to)` is `-?[0-9]+` (tree-sitter's number). */
export function isNumber(s: string, from: number, to: number): boolean {
  const start = s[from] === "-" ? from + 1 : from;
  if (start >= to) return false;
  for (let i = start; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Thrown inside the reader when the command is outside what it reads. */
export const OUTSIDE = Symbol("outside");
