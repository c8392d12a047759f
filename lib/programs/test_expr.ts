/**
 * The test builtin's grammar, one for its three spellings: `test EXPR`, `[ EXPR ]` and the
 * conditional command `[[ EXPR ]]` (the walk makes a stage of each `[` and `[[`,
 * lib/shell/walk_tests.ts). Its file tests' operands are paths it only looks at (`-e -f -d -s
 * -nt …`: metadata, as `stat`); everything else is text: string tests (`-n -z`, `= == != < >`, a
 * single operand), integer comparisons, `-t FD`, the option and variable names of `-o -v -R`, and
 * the `! ( ) -a -o && ||` of the expression.
 *
 * `test` and `[` read their words as bash's test.c does: by their number first (1: a string; 2:
 * `!` or a unary operator; 3: a binary operator first; 4: `!` or `( … )` around fewer), then as an
 * expression. A word whose value is not known (`"$op"`) may be any operator where the reader looks
 * at it: each reading is followed, and an operand any of them takes for a file is a path. A word
 * that may be no word or several (`$x` unquoted, `"${a[@]}"`, a glob) leaves the reading unknown:
 * every operand is then a possible path, as for a program not known. (Split, a value may also be
 * `-v NAME[…]`, whose subscript bash evaluates: never allowed unseen. A quoted word not known that
 * may be `-v` is the walk's to check: lib/shell/walk_evaluation.ts.) `[[ … ]]` is parsed by bash before anything
 * is expanded: its operators are the words written so, unquoted, and each operand is one word.
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { Program } from "./spec.ts";

/** Unary operators whose operand is a file (`-a` and `-e`, exists; `-h` and `-L`, a link, …). */
const FILE_UNARY = new Set([..."abcdefghkprsuwxGLOSN"].map((c) => "-" + c));
/** Unary operators whose operand is text: a string, an option's or a variable's name. */
const TEXT_UNARY = new Set(["-n", "-z", "-o", "-v", "-R"]);
/** Binary operators that compare two files. */
const FILE_BINARY = new Set(["-nt", "-ot", "-ef"]);
/** Binary operators that compare strings or integers (test.c's `test_binop`). */
const TEXT_BINARY = new Set(["=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
/** A word whose value is digits: `$((…))` without a nested substitution, `${#x}`, `${#a[@]}`. */
const NUMBER_WORD = /^(?:\$\(\([^()`$]*(?:\$\w+[^()`$]*)*\)\)|\$\{#\w+(?:\[[@*]\])?\})$/;
/** Readings of a dynamic word followed at once before the reading is given up (see `Reader`). */
const MAX_READINGS = 256;

/**
 * A reading of the words in progress: where it is, and the operands it took for files so far.
 * Readings branch where a word not known may be one thing or another.
 */
interface State {
  pos: number;
  paths: number[];
}

class GiveUp extends Error {}

/**
 * test.c's reader over `words` (the words between `test` or `[` and `]`; null for a word not
 * known), followed along every reading a word not known allows. A reading that ends in an error
 * keeps the files it tested before it (bash tests them as it reads).
 */
class Reader {
  private readings = 0;
  constructor(private readonly words: (string | null)[]) {}

  /** Every reading's operands taken for files. */
  all(): Set<number> {
    const out = new Set<number>();
    for (const s of this.posix()) for (const p of s.paths) out.add(p);
    return out;
  }

  /** A word not known makes one more reading (too many: the reading is given up). */
  private more(): void {
    if (++this.readings > MAX_READINGS) throw new GiveUp();
  }

  /** Follow `f` with whether word `i` is `value` (both ways for a word not known). */
  private branch(i: number, value: string, f: (yes: boolean) => State[]): State[] {
    const v = this.words[i];
    if (v === undefined) return f(false);
    if (v !== null) return f(v === value);
    this.more();
    return [...f(true), ...f(false)];
  }

  private posix(): State[] {
    const s: State = { pos: 0, paths: [] };
    switch (this.words.length) {
      case 0:
      case 1:
        return [s];
      case 2:
        return this.two(s);
      case 3:
        return this.three(s);
      case 4:
        return this.branch(0, "!", (not) => {
          if (not) return this.three({ ...s, pos: 1 });
          return this.branch(0, "(", (open) => {
            if (!open) return this.expr(s);
            return this.branch(
              3,
              ")",
              (close) => close ? this.two({ ...s, pos: 1 }) : this.expr(s),
            );
          });
        });
      default:
        return this.expr(s);
    }
  }

  /** Two words from `s.pos`: `! STRING`, or a unary operator and its operand. */
  private two(s: State): State[] {
    return this.branch(s.pos, "!", (not) => not ? [s] : this.unary(s, true));
  }

  /**
   * Three words from `s.pos`: a binary operator first, then `-a`/`-o` between two strings, then
   * `!` before two words, then `( STRING )`.
   */
  private three(s: State): State[] {
    const p = s.pos;
    return this.binaryAt(
      s,
      () =>
        this.branch(
          p + 1,
          "-a",
          (and) =>
            and
              ? [s]
              : this.branch(p + 1, "-o", (or) =>
                or
                  ? [s]
                  : this.branch(p, "!", (not) => not ? this.two({ ...s, pos: p + 1 }) : [s])),
        ),
    );
  }

  /** The binary operator word `s.pos + 1` may be (a file comparison takes both sides), else `other`. */
  private binaryAt(s: State, other: () => State[]): State[] {
    const p = s.pos;
    const op = this.words[p + 1];
    const files = { pos: p + 3, paths: [...s.paths, p, p + 2] };
    if (op === undefined) return other();
    if (op !== null) {
      if (FILE_BINARY.has(op)) return [files];
      return TEXT_BINARY.has(op) ? [{ ...s, pos: p + 3 }] : other();
    }
    this.more();
    return [files, { ...s, pos: p + 3 }, ...other()];
  }

  /**
   * A unary operator at `s.pos` and its operand, else a string (`two`: test.c's two-argument
   * reading, where a word that is no operator is an error).
   */
  private unary(s: State, two: boolean): State[] {
    const p = s.pos;
    const op = this.words[p];
    const operand = (file: boolean): State[] => {
      if (p + 1 >= this.words.length) return [s];
      return [{ pos: p + 2, paths: file ? [...s.paths, p + 1] : s.paths }];
    };
    // `-t` takes its operand only when that is a number.
    const fd = (): State[] => {
      const next = this.words[p + 1];
      if (next === undefined) return [{ ...s, pos: p + 1 }];
      if (next !== null) return [{ ...s, pos: /^\s*[-+]?\d+\s*$/.test(next) ? p + 2 : p + 1 }];
      return [{ ...s, pos: p + 2 }, { ...s, pos: p + 1 }];
    };
    const string = (): State[] => two ? [s] : [{ ...s, pos: p + 1 }];
    if (op === null) {
      this.more();
      return [...operand(true), ...operand(false), ...fd(), ...string()];
    }
    if (op === "-t") return fd();
    if (FILE_UNARY.has(op)) return operand(true);
    return TEXT_UNARY.has(op) ? operand(false) : string();
  }

  /** `expr`: `and` terms joined by `-o`. */
  private expr(s: State): State[] {
    return this.and(s).flatMap((t) => this.joined(t, "-o", (u) => this.expr(u)));
  }

  /** `and`: terms joined by `-a`. */
  private and(s: State): State[] {
    return this.term(s).flatMap((t) => this.joined(t, "-a", (u) => this.and(u)));
  }

  /** After a term: the rest when the next word is `op`, else the reading as it stands. */
  private joined(s: State, op: string, rest: (s: State) => State[]): State[] {
    if (s.pos >= this.words.length) return [s];
    return this.branch(s.pos, op, (yes) => yes ? rest({ ...s, pos: s.pos + 1 }) : [s]);
  }

  /** A term: `!` before one, `( EXPR )`, a binary or unary test, or a string. */
  private term(s: State): State[] {
    const p = s.pos;
    if (p >= this.words.length) return [s];
    return this.branch(p, "!", (not) => {
      if (not) return this.term({ ...s, pos: p + 1 });
      return this.branch(p, "(", (open) => {
        if (!open) {
          return p + 3 <= this.words.length
            ? this.binaryAt(s, () => this.unaryOr(s))
            : this.unaryOr(s);
        }
        return this.expr({ ...s, pos: p + 1 }).flatMap((t) =>
          this.branch(t.pos, ")", (close) => close ? [{ ...t, pos: t.pos + 1 }] : [t])
        );
      });
    });
  }

  /** A unary operator with room for its operand, else a string. */
  private unaryOr(s: State): State[] {
    if (s.pos + 2 > this.words.length) return [{ ...s, pos: s.pos + 1 }];
    return this.unary(s, false);
  }
}

/** `[[`'s reader: operators are the words written so; every operand is one word. */
class ConditionReader {
  pos = 0;
  readonly paths = new Set<number>();
  constructor(private readonly words: (string | null)[]) {}

  private op(value: string): boolean {
    return this.words[this.pos] === value;
  }

  expr(): void {
    this.and();
    if (this.op("||")) {
      this.pos++;
      this.expr();
    }
  }

  private and(): void {
    this.term();
    if (this.op("&&")) {
      this.pos++;
      this.and();
    }
  }

  private term(): void {
    const w = this.words[this.pos];
    if (w === undefined) throw new GiveUp();
    if (w === "(") {
      this.pos++;
      this.expr();
      if (!this.op(")")) throw new GiveUp();
      this.pos++;
      return;
    }
    if (w === "!") {
      this.pos++;
      return this.term();
    }
    if (w !== null && (FILE_UNARY.has(w) || TEXT_UNARY.has(w) || w === "-t")) {
      if (this.words.length <= this.pos + 1) throw new GiveUp();
      if (FILE_UNARY.has(w)) this.paths.add(this.pos + 1);
      this.pos += 2;
      return;
    }
    const op = this.words[this.pos + 1];
    if (
      op !== null && op !== undefined && (FILE_BINARY.has(op) || TEXT_BINARY.has(op) || op === "=~")
    ) {
      if (FILE_BINARY.has(op)) this.paths.add(this.pos).add(this.pos + 2);
      if (this.pos + 2 >= this.words.length) throw new GiveUp();
      this.pos += 3;
      return;
    }
    this.pos++;
  }
}

/**
 * Whether a word bash expands to exactly one word: known, or every expansion in it quoted and none
 * of them `@` (a `$#`, `$?`, `$$` or `$!` is digits, one word as well, and so is a number
 * `NUMBER_WORD` matches).
 */
function oneWord(w: Word): boolean {
  if (w.kind === "static") return true;
  if (w.kind === "glob") return false;
  // (A number: an arithmetic expansion, a length.)
  if (NUMBER_WORD.test(w.text)) return true;
  // (`"$@"`, `"${a[@]}"`, `"${!p@}"`: as many words as there are values.)
  if (/\$(?:@|\{[^}]*@)/.test(w.text)) return false;
  let quoted = false;
  const t = w.text;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === "\\") i++;
    else if (c === '"') quoted = !quoted;
    else if (c === "'" && !quoted) {
      const end = t.indexOf("'", i + 1);
      if (end < 0) return false;
      i = end;
    } else if ((c === "$" || c === "`") && !quoted) {
      if (!/^\$[#?$!](?![\w{[])/.test(t.slice(i, i + 3))) return false;
      i++;
    }
  }
  return true;
}

/**
 * The argv positions of a test's file operands (`test`, `[`, `[[` with their words), or null
 * where they cannot be placed (a word that may be several, a `[` whose last word is no `]`, too
 * many readings): then every operand is a possible path.
 */
export function fileOperands(argv: Word[]): Set<number> | null {
  const name = argv[0]?.value ?? "";
  const spelling = name.slice(name.lastIndexOf("/") + 1);
  if (spelling === "[[") {
    if (argv.at(-1)?.text !== "]]") return null;
    // (Operators are read before expansion: the word as written, unquoted.)
    const words = argv.slice(1, -1).map((w) => w.kind === "static" ? w.text : null);
    const r = new ConditionReader(words);
    try {
      r.expr();
      if (r.pos !== words.length) return null;
    } catch (e) {
      if (e instanceof GiveUp) return null;
      throw e;
    }
    return new Set([...r.paths].map((i) => i + 1));
  }
  let words = argv.slice(1);
  if (spelling === "[") {
    const last = words.at(-1);
    if (last?.kind !== "static" || last.value !== "]") return null;
    words = words.slice(0, -1);
  }
  if (!words.every(oneWord)) return null;
  const reader = new Reader(words.map((w) => w.kind === "static" ? w.value : null));
  try {
    return new Set([...reader.all()].map((i) => i + 1));
  } catch (e) {
    if (e instanceof GiveUp) return null;
    throw e;
  }
}

/** The words of a test that are text: every word but its file operands, where those are placed. */
function textOperands(argv: Word[]): number[] {
  const files = fileOperands(argv);
  if (files === null) return [];
  const out: number[] = [];
  for (let i = 1; i < argv.length; i++) if (!files.has(i)) out.push(i);
  return out;
}

/**
 * `test`, `[` (bash's builtins, coreutils' programs) and `[[`: they only look at the files they
 * are given (`metadataOnly`), and their other words are text.
 */
export const TEST_PROGRAM: Program = {
  names: ["test", "[", "[["],
  metadataOnly: true,
  text: textOperands,
};
