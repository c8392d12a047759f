/**
 * What awk and sed programs run and touch: the shell commands they start (`system("…")`,
 * `print | "cmd"`, `"cmd" | getline`, sed's `e`), the files they write (`print > "f"`, sed's `w f`)
 * and the files they read (`getline < "f"`, sed's `r f`; gawk's `/inet/…` names are network
 * connections, places not known). A program that cannot be read here (from a file, with
 * includes, or past what this reader knows) is opaque: it may do anything.
 *
 * @module
 */
import type { Redirect, Stage, Word } from "../shell/model.ts";
import type { Program, Runner } from "./spec.ts";
import { derived, inheritInput, literal, programName, unknownWord } from "./words.ts";
import { sedBackups } from "./backups.ts";

/** A value a program uses: its static text, or null when the program computes it. */
export type Value = string | null;

/** A shell command line a program runs (null: one it computes), and whether it is fed output. */
export interface Command {
  text: Value;
  /** The program writes to its standard input (`print | "sh"`). */
  piped: boolean;
}

/** What a program does besides reading its input and printing. */
export interface ScriptEffects {
  /** Shell command lines it runs. */
  commands: Command[];
  /** Files it writes. */
  writes: Value[];
  /** Files it reads. */
  reads: Value[];
  /** Why the program cannot be seen, when it cannot (it may then run or touch anything). */
  opaque: string | null;
  /** It edits its file operands in place (sed `-i`, `--in-place`). */
  inPlace?: boolean;
}

/** The awk implementations (their programs share the language read here). */
export const AWKS = new Set(["awk", "gawk", "mawk", "nawk", "original-awk"]);
/** The sed implementations. */
export const SEDS = new Set(["sed", "gsed"]);

/** A word of the command as the reader needs it: its value when static, else null. */
export type Arg = string | null;

function none(): ScriptEffects {
  return { commands: [], writes: [], reads: [], opaque: null };
}

function opaque(why: string): ScriptEffects {
  return { ...none(), opaque: why };
}

// ---------------------------------------------------------------------------------------------
// awk

/** awk options that take no value (POSIX, gawk, mawk). */
// deno-fmt-ignore
const AWK_FLAGS = new Set([
  "-b", "--characters-as-bytes", "-c", "--traditional", "-C", "--copyright", "-g", "--gen-pot",
  "-h", "--help", "-M", "--bignum", "-N", "--use-lc-numeric", "-n", "--non-decimal-data", "-O",
  "--optimize", "-P", "--posix", "-r", "--re-interval", "-s", "--no-optimize", "-S", "--sandbox",
  "-t", "--lint-old", "-V", "--version", "--lint",
]);
/** awk options whose value is data (a field separator, a variable's value). */
const AWK_VALUED = new Set(["-F", "--field-separator", "-v", "--assign"]);

/** Where a command's program is: its texts, and the arguments that are code or data. */
interface Located {
  texts: string[];
  /**
   * The indexes (in the arguments) of the words that are code or data, not files: the program
   * operand, and the words of `-e`, `--source`, `-v`, `-F` with their values.
   */
  strings: number[];
  opaque: string | null;
  /** sed edits its files in place (`-i`, `--in-place`). */
  inPlace?: boolean;
  /** The first text is an operand only BSD sed reads as the script (GNU: a file). */
  alsoWithout?: boolean;
}

/** The program of an awk command (`-e`/`--source` texts, else the first operand). */
function awkProgramOf(args: Arg[]): Located {
  const texts: string[] = [];
  const strings: number[] = [];
  const fail = (why: string): Located => ({ texts, strings: [], opaque: why });
  /** The value of the option at `i`: glued (`-F:`, `--source=…`) or the next word. */
  const valueAt = (i: number, glued: string | null): [Arg | undefined, number] => {
    strings.push(i);
    if (glued !== null) return [glued, i];
    if (i + 1 < args.length) strings.push(i + 1);
    return [args[i + 1], i + 1];
  };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === null) return fail("an awk option that is not known before it runs");
    if (a === "--") {
      i++;
      break;
    }
    if (!a.startsWith("-") || a === "-") break;
    const eq = a.indexOf("=");
    const long = a.startsWith("--") ? (eq > 0 ? a.slice(0, eq) : a) : null;
    const opt = long ?? a.slice(0, 2);
    const glued = long !== null
      ? (eq > 0 ? a.slice(eq + 1) : null)
      : a.length > 2
      ? a.slice(2)
      : null;
    if (AWK_FLAGS.has(opt) && glued === null) continue;
    if (AWK_VALUED.has(opt) || opt === "-e" || opt === "--source") {
      const [value, last] = valueAt(i, glued);
      i = last;
      // (`-v ARGV[1]=.env`: the files it reads, changed before it starts.)
      if (
        (opt === "-v" || opt === "--assign") && typeof value === "string" &&
        /^ARG[VC]\b/.test(value)
      ) {
        return fail("an awk assignment to ARGV or ARGC (the files it reads)");
      }
      if (opt === "-e" || opt === "--source") {
        if (value === null || value === undefined) return fail(`awk ${opt} without its text`);
        texts.push(value);
      }
      continue;
    }
    return fail(`awk ${a} (a program or file this reader does not follow)`);
  }
  if (texts.length || i >= args.length) return { texts, strings, opaque: null };
  const program = args[i];
  if (program === null) return fail("an awk program that is not known before it runs");
  strings.push(i);
  return { texts: [program], strings, opaque: null };
}

/**
 * The effects of an awk command from its arguments (after the program name). Programs read from
 * files (`-f`, `-E`, `-i`, `--include`) or libraries (`-l`) are opaque; so is an option this
 * reader does not know (gawk's `-d`, `-o`, `-p` write files; mawk's `-W` has many).
 */
export function awkEffects(args: Arg[]): ScriptEffects {
  const p = awkProgramOf(args);
  if (p.opaque) return opaque(p.opaque);
  const out = none();
  for (const text of p.texts) {
    const e = awkProgram(text);
    if (e.opaque) return e;
    out.commands.push(...e.commands);
    out.writes.push(...e.writes);
    out.reads.push(...e.reads);
  }
  // (gawk --sandbox refuses what this finds; it is counted anyway, as other awks run it.)
  return out;
}

/**
 * The arguments (indexes after the program name) of an awk or sed command that are code or data,
 * not files: its program and the values of its options. None when the program cannot be read.
 */
export function scriptStrings(name: string, args: Arg[]): number[] {
  const p = AWKS.has(name) ? awkProgramOf(args) : SEDS.has(name) ? sedScriptOf(args) : null;
  return p && !p.opaque ? p.strings : [];
}

type TokKind = "str" | "regex" | "name" | "num" | "punct" | "end";

interface Tok {
  kind: TokKind;
  /** The text (a string's decoded value). */
  text: string;
}

/** Tokens after which `/` divides (an operand ends there); elsewhere it starts a regex. */
function endsOperand(t: Tok | undefined): boolean {
  if (!t) return false;
  if (t.kind === "str" || t.kind === "regex" || t.kind === "num") return true;
  if (t.kind === "name") return !AWK_KEYWORDS.has(t.text);
  return t.text === ")" || t.text === "]" || t.text === "$" || t.text === "++" ||
    t.text === "--";
}

/** Keywords after which an expression starts (so `/` begins a regex). */
// deno-fmt-ignore
const AWK_KEYWORDS = new Set([
  "BEGIN", "END", "BEGINFILE", "ENDFILE", "if", "else", "while", "for", "do", "in", "return",
  "print", "printf", "next", "nextfile", "exit", "delete", "function", "func", "break",
  "continue", "case", "default", "switch",
]);

/** Two-character operators (the longest match is taken). */
// deno-fmt-ignore
const AWK_OPERATORS = new Set([
  ">>", "||", "&&", "|&", "==", "!=", "<=", ">=", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=",
  "**",
]);

/** The tokens of an awk program, or null when it cannot be read (an unclosed string or regex). */
function awkTokens(src: string): Tok[] | null {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "\\" && src[i + 1] === "\n") {
      i += 2;
      continue;
    }
    if (c === "\n" || c === ";") {
      out.push({ kind: "end", text: c });
      i++;
      continue;
    }
    if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    if (c === '"') {
      let value = "";
      let j = i + 1;
      for (; j < src.length && src[j] !== '"'; j++) {
        if (src[j] === "\n") return null;
        if (src[j] === "\\") {
          const n = src[++j];
          if (n === undefined) return null;
          value += n === "n" ? "\n" : n === "t" ? "\t" : n === "\n" ? "" : n;
        } else value += src[j];
      }
      if (j >= src.length) return null;
      out.push({ kind: "str", text: value });
      i = j + 1;
      continue;
    }
    if (c === "/" && !endsOperand(out[out.length - 1])) {
      let j = i + 1;
      let bracket = false;
      for (; j < src.length; j++) {
        const d = src[j];
        if (d === "\n") return null;
        if (d === "\\") j++;
        else if (d === "[") bracket = true;
        else if (d === "]") bracket = false;
        else if (d === "/" && !bracket) break;
      }
      if (j >= src.length) return null;
      out.push({ kind: "regex", text: src.slice(i + 1, j) });
      i = j + 1;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 64));
    if (name) {
      out.push({ kind: "name", text: name[0] });
      i += name[0].length;
      continue;
    }
    const num = /^(0[xX][0-9a-fA-F]+|\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)/.exec(
      src.slice(i, i + 64),
    );
    if (num) {
      out.push({ kind: "num", text: num[0] });
      i += num[0].length;
      continue;
    }
    const two = src.slice(i, i + 2);
    const op = AWK_OPERATORS.has(two) ? two : c;
    out.push({ kind: "punct", text: op });
    i += op.length;
  }
  return out;
}

/** Whether a token ends a simple statement (so a print's expression list stops there). */
function endsStatement(t: Tok | undefined): boolean {
  return !t || t.kind === "end" || (t.kind === "punct" && (t.text === "}" || t.text === "{"));
}

/** awk's assignment operators. */
const AWK_ASSIGN = new Set(["=", "+=", "-=", "*=", "/=", "%=", "^=", "++", "--"]);

/**
 * Whether the variable or array at `toks[k]` is changed there: assigned (`ARGC=2`, `ARGV[1]=x`,
 * `ARGC++`, `++ARGC`), deleted, or given whole to a function that may fill it (`split(s, ARGV)`).
 */
function changes(toks: Tok[], k: number): boolean {
  const before = toks[k - 1];
  if (before?.kind === "punct" && (before.text === "++" || before.text === "--")) return true;
  // (`delete ARGV[1]`, `getline ARGV[1] < f`: read into it.)
  if (before?.kind === "name" && (before.text === "delete" || before.text === "getline")) {
    return true;
  }
  let at = k + 1;
  if (toks[at]?.kind === "punct" && toks[at].text === "[") {
    for (let depth = 0; at < toks.length; at++) {
      if (toks[at].kind === "punct" && toks[at].text === "[") depth++;
      else if (toks[at].kind === "punct" && toks[at].text === "]" && --depth === 0) break;
    }
    at++;
  }
  // Given to a function, which may change it (`sub(/a/, "b", ARGV[1])`, `split(s, ARGV)`).
  if (toks[at]?.kind === "punct" && (toks[at].text === "," || toks[at].text === ")")) {
    return true;
  }
  const next = toks[at];
  return next?.kind === "punct" && AWK_ASSIGN.has(next.text);
}

export function awkProgram(src: string): ScriptEffects {
  const toks = awkTokens(src);
  if (toks === null) return opaque("an awk program this reader cannot read");
  const out = none();
  /** A static string alone in its place (nothing glued to it by concatenation), else null. */
  const alone = (at: number): Value => {
    const t = toks[at];
    if (t?.kind !== "str") return null;
    const next = toks[at + 1];
    const closes = endsStatement(next) ||
      (next.kind === "punct" && [")", ",", "||", "&&", "?", ":"].includes(next.text));
    return closes ? t.text : null;
  };
  // Where the print statement being read began its parenthesis depth (null: not in one).
  let printDepth: number | null = null;
  let depth = 0;
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
    if (t.kind === "end" || (t.kind === "punct" && (t.text === "{" || t.text === "}"))) {
      printDepth = null;
      continue;
    }
    if (t.kind === "punct" && t.text === "@") {
      return opaque("a gawk @ directive or indirect call (it may run any function)");
    }
    if (t.kind === "name" && (t.text === "ARGV" || t.text === "ARGC") && changes(toks, k)) {
      // awk opens the files ARGV names when its rules run: a program that sets ARGV or ARGC
      // (`BEGIN{ARGV[1]=".env"; ARGC=2}`) reads files this reader does not see.
      return opaque("an awk program that changes ARGV or ARGC (the files it reads)");
    }
    if (t.kind === "punct" && t.text === "(") depth++;
    else if (t.kind === "punct" && t.text === ")") depth--;
    else if (t.kind === "name" && (t.text === "print" || t.text === "printf")) {
      printDepth = depth;
    } else if (t.kind === "name" && t.text === "system") {
      const open = toks[k + 1];
      const arg = open?.kind === "punct" && open.text === "(" && toks[k + 3]?.text === ")"
        ? (toks[k + 2]?.kind === "str" ? toks[k + 2].text : null)
        : null;
      out.commands.push({ text: arg, piped: false });
    } else if (t.kind === "punct" && (t.text === "|" || t.text === "|&")) {
      const next = toks[k + 1];
      if (next?.kind === "name" && next.text === "getline") {
        // `"cmd" | getline`: the command is the string before, unless something is glued to it.
        const before = toks[k - 1];
        const glued = endsOperand(toks[k - 2]);
        const text = before?.kind === "str" && !glued ? before.text : null;
        // (gawk's `"/inet/tcp/0/host/80" |& getline` reads a connection, no command.)
        if (t.text === "|&" && isNetwork(text)) out.reads.push(text);
        else out.commands.push({ text, piped: false });
      } else if (t.text === "|&" && isNetwork(alone(k + 1))) out.writes.push(alone(k + 1));
      else out.commands.push({ text: alone(k + 1), piped: true }); // print … | "cmd"
    } else if (t.kind === "name" && t.text === "getline") {
      // `getline < "file"`, `getline var < "file"`.
      let at = k + 1;
      if (toks[at]?.kind === "name" && !AWK_KEYWORDS.has(toks[at].text)) at++;
      else if (toks[at]?.text === "$" && toks[at + 1]?.kind !== "punct") at += 2;
      if (toks[at]?.kind === "punct" && toks[at].text === "<") {
        const file = toks[at + 1]?.kind === "str" ? toks[at + 1].text : null;
        if (!isStream(file)) out.reads.push(file);
      }
    } else if (
      t.kind === "punct" && (t.text === ">" || t.text === ">>") && printDepth !== null &&
      depth === printDepth
    ) {
      const file = alone(k + 1);
      if (!isStream(file)) out.writes.push(file);
      printDepth = null;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// sed

/** sed options that take no value. */
// deno-fmt-ignore
const SED_FLAGS = new Set([
  "-n", "--quiet", "--silent", "-E", "-r", "--regexp-extended", "-s", "--separate", "-u",
  "--unbuffered", "-z", "--null-data", "--posix", "--debug", "--sandbox", "-b", "--binary",
  "--follow-symlinks", "--help", "--version",
]);

/**
 * The script of a sed command: its `-e`/`--expression` texts, else its first operand. GNU sed
 * takes options after operands too (`sed 's/a/b/' -e 'w x' f` runs `w x`, and `s/a/b/` is a
 * file), BSD sed stops at the first operand (the script, then): both readings count.
 */
function sedScriptOf(args: Arg[]): Located {
  const texts: string[] = [];
  const strings: number[] = [];
  const fail = (why: string): Located => ({ texts, strings: [], opaque: why });
  /** Operands (by index), the words BSD takes as `-i`'s suffix left out. */
  const operands: number[] = [];
  /** Where the first `-e` is. */
  let firstExpression = -1;
  /** A word was taken as BSD's suffix (to GNU, the script: the operands are files then). */
  let suffixed = false;
  let options = true;
  let inPlace = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null) {
      // Where the script would be, an unknown word is an unknown script; after it, an unknown
      // file (which could be an option to GNU, as any operand of any program could: the stage
      // is at least asked about for it).
      if (operands.length || firstExpression >= 0) {
        operands.push(i);
        continue;
      }
      return fail("a sed script that is not known before it runs");
    }
    if (!options || !a.startsWith("-") || a === "-") {
      operands.push(i);
      continue;
    }
    if (a === "--") {
      options = false;
      continue;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const long = eq > 0 ? a.slice(0, eq) : a;
      if (SED_FLAGS.has(long) && eq < 0) continue;
      if (long === "--in-place") {
        inPlace = true;
        continue;
      }
      if (long === "--line-length" || long === "--expression") {
        strings.push(i);
        const text = eq > 0 ? a.slice(eq + 1) : args[++i];
        if (eq < 0 && i < args.length && !operands.length) strings.push(i);
        if (long === "--line-length") continue;
        if (text === null || text === undefined) return fail("sed --expression without its text");
        if (firstExpression < 0) firstExpression = i;
        texts.push(text);
        continue;
      }
      return fail(`sed ${long} (a script or file this reader does not follow)`);
    }
    // A cluster of short options: `-ne 's/x/y/'`, `-i.bak`, `-l 80`.
    for (let j = 1; j < a.length; j++) {
      const o = "-" + a[j];
      if (o === "-i") {
        inPlace = true;
        // BSD takes the next word as the backup suffix when the option stands alone (`-i ''`,
        // `-i .bak`); GNU takes it as an operand (an empty script does nothing; one starting
        // with `.` is refused). Either way it runs no script of its own.
        const next = args[i + 1];
        if (j === a.length - 1 && (next === "" || next?.startsWith("."))) {
          i++;
          suffixed = true;
        }
        break; // the rest is its suffix
      }
      if (o === "-f") return fail("a sed script read from a file");
      if (o === "-e" || o === "-l") {
        strings.push(i);
        const glued = a.slice(j + 1);
        const value = glued || args[++i];
        // (After an operand, BSD sed takes the value as a file: it stays a possible one.)
        if (!glued && i < args.length && !operands.length) strings.push(i);
        if (o === "-e") {
          if (value === null || value === undefined) return fail("sed -e without its text");
          if (firstExpression < 0) firstExpression = i;
          texts.push(value);
        }
        break;
      }
      if (!SED_FLAGS.has(o)) return fail(`sed ${a} (an option this reader does not know)`);
    }
  }
  const first = operands[0];
  if (first === undefined) return { texts, strings, opaque: null, inPlace };
  if (texts.length && first > firstExpression) return { texts, strings, opaque: null, inPlace };
  // The first operand is the script: to both (no `-e`), or to BSD (an `-e` after it).
  const script = args[first];
  if (script === null) return fail("a sed script that is not known before it runs");
  if (!texts.length && !suffixed) strings.push(first);
  return {
    texts: [script, ...texts],
    strings,
    opaque: null,
    inPlace,
    alsoWithout: texts.length > 0,
  };
}

/**
 * The effects of a sed command from its arguments (after the program name). A script from a
 * file (`-f`) is opaque. (`-i` edits its operands in place: they are already the stage's targets.)
 */
export function sedEffects(args: Arg[]): ScriptEffects {
  const p = sedScriptOf(args);
  if (p.opaque) return opaque(p.opaque);
  const inPlace = p.inPlace === true;
  if (!p.texts.length) return { ...none(), inPlace };
  // (GNU sed --sandbox refuses what this finds; it is counted anyway, as other seds run it.)
  const joined = sedScript(p.texts.join("\n"));
  if (!p.alsoWithout) return { ...joined, inPlace };
  // An operand before `-e` is the script to BSD sed and a file to GNU's: both readings count
  // (`sed 'i\' -e 'e rm x'`: to GNU, the `e` runs).
  const gnu = sedScript(p.texts.slice(1).join("\n"));
  if (joined.opaque || gnu.opaque) return { ...(joined.opaque ? joined : gnu), inPlace };
  const more = <T>(a: T[], b: T[]) => [...a, ...b.filter((x) => !a.includes(x))];
  return {
    ...joined,
    commands: [
      ...joined.commands,
      ...gnu.commands.filter((c) => !joined.commands.some((j) => j.text === c.text)),
    ],
    writes: more(joined.writes, gnu.writes),
    reads: more(joined.reads, gnu.reads),
    inPlace,
  };
}

/**
 * Whether an awk or sed command only reads and prints, from its arguments (after the program
 * name; null: a word not known before it runs, which may be anything): it runs nothing, writes
 * no file (by its program or `-i`), and its program can be seen. Reading files it names is fine;
 * one it computes (`getline < f`) could be any.
 */
export function printsOnly(name: string, args: Arg[]): boolean {
  if (args.some((a) => a === null)) return false;
  const e = AWKS.has(name) ? awkEffects(args) : sedEffects(args);
  return e.opaque === null && !e.inPlace && !e.commands.length && !e.writes.length &&
    !e.reads.some((f) => f === null || isNetwork(f));
}

/** Commands that take no argument (after them: blanks, then `;`, `}`, `#` or a newline). */
const SED_PLAIN = new Set(["=", "d", "D", "g", "G", "h", "H", "n", "N", "p", "P", "x", "z", "F"]);

/** A position in a sed script being read. */
interface Cursor {
  src: string;
  i: number;
}

function blanks(c: Cursor): void {
  while (c.i < c.src.length && (c.src[c.i] === " " || c.src[c.i] === "\t")) c.i++;
}

/** The rest of the line (a file name, a label, text): GNU takes it whole. */
function restOfLine(c: Cursor): string {
  const end = c.src.indexOf("\n", c.i);
  const text = c.src.slice(c.i, end < 0 ? c.src.length : end);
  c.i = end < 0 ? c.src.length : end;
  return text;
}

/**
 * Skip a delimited part (`/re/`, `\cREc`, the parts of `s` and `y`); false when unclosed. In a
 * regex, a bracket expression holds the delimiter as a plain character (`s/[/]/x/`), and a
 * backslash in it is plain too (`[\]` is one backslash).
 */
function delimited(c: Cursor, delim: string, regex: boolean): boolean {
  for (; c.i < c.src.length; c.i++) {
    const ch = c.src[c.i];
    if (ch === "\\") c.i++;
    else if (ch === delim) {
      c.i++;
      return true;
    } else if (ch === "\n" && delim !== "\n") return false;
    else if (ch === "[" && regex && !bracket(c)) return false;
  }
  return false;
}

/** Skip a bracket expression at the cursor (ending on its `]`); false when unclosed. */
function bracket(c: Cursor): boolean {
  const src = c.src;
  let j = c.i + 1;
  if (src[j] === "^") j++;
  if (src[j] === "]") j++;
  for (; j < src.length; j++) {
    const ch = src[j];
    if (ch === "\n") return false;
    if (ch === "[" && (src[j + 1] === ":" || src[j + 1] === "." || src[j + 1] === "=")) {
      const close = src.indexOf(src[j + 1] + "]", j + 2);
      if (close < 0) return false;
      j = close + 1;
    } else if (ch === "]") {
      c.i = j;
      return true;
    }
  }
  return false;
}

/** Skip an address (`/re/`, `\cREc`, `$`, a line number, `first~step`); false when unclosed. */
function address(c: Cursor): boolean {
  const src = c.src;
  if (src[c.i] === "/") {
    c.i++;
    if (!delimited(c, "/", true)) return false;
  } else if (src[c.i] === "\\" && c.i + 1 < src.length) {
    const d = src[c.i + 1];
    c.i += 2;
    if (!delimited(c, d, true)) return false;
  } else if (src[c.i] === "$") c.i++;
  else if (/[0-9]/.test(src[c.i] ?? "")) {
    while (/[0-9~]/.test(src[c.i] ?? "")) c.i++;
    return true;
  } else return true; // no address
  while (src[c.i] === "I" || src[c.i] === "M") c.i++;
  return true;
}

/** Read an `s` command after its name: its effects into `out`; what is wrong, or null. */
function substitution(c: Cursor, out: ScriptEffects): string | null {
  const d = c.src[c.i++];
  if (d === undefined || d === "\n" || d === "\\") return "an s command";
  if (!delimited(c, d, true) || !delimited(c, d, false)) return "an unclosed s command";
  // Flags: g p i I m M e, a number, and w FILE (the rest of the line).
  for (; c.i < c.src.length; c.i++) {
    const f = c.src[c.i];
    if (/[gpiImM0-9]/.test(f)) continue;
    if (f === "e") {
      out.commands.push({ text: null, piped: false }); // runs the pattern space
      continue;
    }
    if (f === "w") {
      c.i++;
      blanks(c);
      const file = sedFile(restOfLine(c));
      if (!isStream(file)) out.writes.push(file);
    }
    break;
  }
  return null;
}

/** Read one command after its name `cmd`: its effects into `out`; what is wrong, or null. */
function sedCommand(c: Cursor, cmd: string, out: ScriptEffects): string | null {
  if (cmd === "s") return substitution(c, out);
  if (cmd === "y") {
    const d = c.src[c.i++];
    if (d === undefined || d === "\n" || d === "\\") return "a y command";
    if (!delimited(c, d, false) || !delimited(c, d, false)) return "an unclosed y command";
  } else if (cmd === "a" || cmd === "i" || cmd === "c") {
    // Text to the end of the line; `a\` and continued lines carry it on.
    for (;;) {
      const line = restOfLine(c);
      if (!/(^|[^\\])(\\\\)*\\$/.test(line) || c.i >= c.src.length) break;
      c.i++;
    }
  } else if (cmd === "r" || cmd === "R" || cmd === "w" || cmd === "W") {
    blanks(c);
    const file = sedFile(restOfLine(c));
    if (cmd === "r" || cmd === "R") {
      if (!isStream(file)) out.reads.push(file);
    } else if (!isStream(file)) out.writes.push(file);
  } else if (cmd === "e") {
    blanks(c);
    const line = restOfLine(c);
    // A bare `e` runs the pattern space.
    out.commands.push({ text: line.trim() ? line : null, piped: false });
  } else if (cmd === "b" || cmd === "t" || cmd === "T" || cmd === ":" || cmd === "v") {
    // A label (or v's version): GNU sed ends it at a blank, `;` or the end of the line, and
    // reads what follows as commands (`:a e rm x` runs rm).
    blanks(c);
    while (c.i < c.src.length && !/[\s;]/.test(c.src[c.i])) c.i++;
  } else if (cmd === "l" || cmd === "L" || cmd === "q" || cmd === "Q") {
    blanks(c);
    while (/[0-9]/.test(c.src[c.i] ?? "")) c.i++;
  } else return `the command ${JSON.stringify(cmd)}`;
  return null;
}

/** The effects of a sed script (GNU syntax, which the others' scripts are a part of). */
function sedScript(src: string): ScriptEffects {
  const out = none();
  const c: Cursor = { src, i: 0 };
  const bad = (what: string) => opaque(`a sed script this reader cannot read (${what})`);
  while (c.i < src.length) {
    blanks(c);
    const ch = src[c.i];
    if (ch === undefined) break;
    if (ch === "\n" || ch === ";" || ch === "}" || ch === "{") {
      c.i++;
      continue;
    }
    if (ch === "#") {
      restOfLine(c);
      continue;
    }
    if (!address(c)) return bad("an unclosed address");
    blanks(c);
    if (src[c.i] === ",") {
      c.i++;
      blanks(c);
      if (src[c.i] === "+" || src[c.i] === "~") c.i++;
      if (!address(c)) return bad("an unclosed address");
      blanks(c);
    }
    while (src[c.i] === "!" || src[c.i] === " " || src[c.i] === "\t") c.i++;
    const cmd = src[c.i++];
    if (cmd === undefined) break;
    if (cmd === "{" || cmd === "}" || cmd === "\n" || cmd === ";" || SED_PLAIN.has(cmd)) continue;
    const wrong = sedCommand(c, cmd, out);
    if (wrong !== null) return bad(wrong);
  }
  return out;
}

/** The standard streams as programs name them (`-`, `/dev/stdout`, ...): no file. */
function isStream(name: Value): boolean {
  return name !== null && /^(-|\/dev\/(stdin|stdout|stderr|fd\/\d+))$/.test(name);
}

/** gawk's network names (`/inet/tcp/0/HOST/80`, `/inet4/…`, `/inet6/…`, `/inet/udp/…`). */
export function isNetwork(name: Value): boolean {
  return name !== null && /^\/inet[46]?\//.test(name);
}

/** A sed file name (the rest of its line); an empty one is not known. */
function sedFile(name: string): Value {
  return name === "" ? null : name;
}

/**
 * What an awk or sed program runs and touches, as stages: the shell commands it starts, and one
 * stage of the program with the files it writes and reads as its redirects. A program that cannot
 * be seen is an unknown command.
 */
function scriptStages(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]);
  const values = stage.argv.slice(1).map((a) => (a.kind === "static" ? a.value : null));
  const e = AWKS.has(name) ? awkEffects(values) : sedEffects(values);
  const origin = `${name} program`;
  const unknown = (what: string, cwds = stage.cwds) =>
    run.stage([unknownWord(`(${what})`)], origin, cwds);
  if (e.opaque) {
    unknown(e.opaque);
    return;
  }
  for (const c of e.commands) {
    if (c.text === null) {
      unknown(`a command the ${name} program makes`);
      continue;
    }
    // The program runs it with `sh -c` where it runs; fed the program's output, its commands
    // read a pipe (`print | "sh"` runs what it prints), and they share the program's standard
    // input otherwise (`curl … | awk '{"sh" | getline}'`).
    const inherit = inheritInput(stage, c.piped);
    for (const cwd of stage.cwds) {
      const inner = run.analyze(c.text, cwd, origin);
      if (inner === null) unknown(c.text, [cwd]);
      else for (const s of inner) run.more(inherit(s));
    }
  }
  // The program opens names as they are: no `~` expansion (`~/x` is a directory `~` here).
  const file = (f: string | null) =>
    f === null
      ? unknownWord(`(a file the ${name} program names)`)
      : isNetwork(f)
      ? unknownWord(`(the network connection ${f})`)
      : literal(f.startsWith("~") ? "./" + f : f);
  const redirects: Redirect[] = [
    ...e.writes.map((f): Redirect => ({ op: ">", kind: "write", target: file(f) })),
    ...e.reads.map((f): Redirect => ({ op: "<", kind: "read", target: file(f) })),
  ];
  if (redirects.length) run.add({ ...derived(stage, [stage.argv[0]], origin), redirects });
}

/** awk and sed: what their programs run, write and read, and their program text (not a file). */
export const SCRIPT_PROGRAMS: Program[] = [
  {
    names: [...AWKS],
    runs: scriptStages,
    readOnly: { "": { accepts: (args) => printsOnly("awk", args) } },
    text: (argv) => scriptStrings("awk", argv.slice(1).map(staticValue)).map((at) => at + 1),
  },
  {
    names: [...SEDS],
    runs: scriptStages,
    // (`-i.bak`: the backup it keeps of each file.)
    namedFiles: sedBackups,
    readOnly: { "": { accepts: (args) => printsOnly("sed", args) } },
    text: (argv) => scriptStrings("sed", argv.slice(1).map(staticValue)).map((at) => at + 1),
  },
];

function staticValue(w: Word): string | null {
  return w.kind === "static" ? w.value : null;
}
