/**
 * What a builtin changes of the shell's variables, as bash(1) says, for the values the walk keeps
 * (walk_values.ts): each builtin changes the names it is given and nothing else, or (`eval`,
 * `source`, `declare -n`, a name not known) may change any of them.
 *
 * - `set` changes options and the positional parameters (walk_calls.ts keeps those), and
 *   `set -o posix` (`+o`) sets (unsets) `POSIXLY_CORRECT`, as `shopt -so posix` does: with
 *   words, `POSIXLY_CORRECT` is not known; `shopt` with a word not known may be `-so posix`.
 * - `export`/`declare`/`typeset`/`local`/`readonly` assign the names they are given (`NAME=value`:
 *   its text where known; `local`, which fails outside a function, none known); an attribute that
 *   changes later assignments (`-l`, `-u`, `-a`, `-A`, `-r`, …) leaves the name not known from
 *   there on; `-i` (later assignments are arithmetic, which may assign any name) and `-n` (a
 *   nameref aliases another variable) leave every name not known; `-f`/`-F`, `export -n` and
 *   `export -p` change no value.
 * - `cd`/`pushd`/`popd` change `PWD`, `OLDPWD` and `DIRSTACK` (not followed here) and the cwd: a
 *   value that is a glob's matches or a line of a stage's output, found in the cwd, is forgotten.
 * - `printf -v NAME` (and `%n`'s names: not known), `read` (what it reads of a static here-string
 *   or heredoc: read_builtin.ts), `mapfile`/`readarray`, `getopts`, `wait -p NAME`, `compgen -V NAME`:
 *   the names they assign; `unset`: the names it unsets (`-f`: functions only).
 * - `command X` and `builtin X` do what X does; `command -v`/`-V` only describe.
 *
 * @module
 */
import { builtinAt } from "./cwds.ts";
import { arithmeticNumber } from "./parameter_ops.ts";
import type { Word } from "./model.ts";
import { printedText } from "./printed_text.ts";
import { mapfileArray, readArray, readValues } from "./read_builtin.ts";
import { type Grammar, GRAMMARS, type Reading, readOptions } from "./builtin_options.ts";

/** What a builtin changes of the variables (null from {@linkcode builtinEffect}: anything). */
export interface BuiltinEffect {
  /**
   * Names assigned: their text where known, else null (not known from here on), and whether it
   * is appended to the value before (`export PATH+=:bin`).
   */
  assigns: [name: string, value: string | null, append?: boolean][];
  /** Names given an attribute that changes later assignments: never known from here on. */
  attributed?: string[];
  /** The cwd moves: values found in the cwd (a glob's matches, a line) are forgotten. */
  moves?: true;
  /**
   * An array filled with known words (`read -a NAME`, `mapfile NAME` of known text), also among
   * `assigns` (walk_arrays.ts `fillArray` decides whether its words are kept).
   */
  fills?: [name: string, words: string[]];
  /**
   * An element unset (`unset 'a[1]'`, a literal index, read as bash's arithmetic does: null where
   * it is no number, `a[08]`): walk_arrays.ts `dropElement`.
   */
  drops?: [name: string, index: number | null];
  /** Names exported from here on (`export NAME[=value]`). */
  exports?: string[];
  /**
   * Names that may no longer be exported: `export -n`, and any `declare`/`typeset` given `x`
   * (`-x` or `+x` alike: which of them is not told apart here).
   */
  unexports?: string[];
}

/** The names of builtins that may change variables (anything else changes none). */
export const MAY_ASSIGN: ReadonlySet<string> = new Set([
  "read",
  "mapfile",
  "readarray",
  "printf",
  "getopts",
  "unset",
  "let",
  "wait",
  "eval",
  "source",
  ".",
  "builtin",
  "command",
  "compgen",
  "enable",
  "jobs",
  "fc",
  "set",
  "shopt",
  "export",
  "readonly",
  "declare",
  "typeset",
  "local",
  "alias",
  "trap",
  "cd",
  "pushd",
  "popd",
  "exec",
]);

/** Builtins whose values the walk may know from a here-string or heredoc they read. */
export const READS_TEXT: ReadonlySet<string> = new Set(["read", "mapfile", "readarray"]);

const NOTHING: BuiltinEffect = Object.freeze({ assigns: [] }) as BuiltinEffect;
const MOVES: BuiltinEffect = Object.freeze({ assigns: [], moves: true }) as BuiltinEffect;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What the builtin `argv` runs changes of the variables; null when it may change any (it runs
 * code in this shell, makes a nameref, or a name or option is not known).
 */
export function builtinEffect(
  argv: Word[],
  input?: { prefixes: Word[]; text: string | null },
): BuiltinEffect | null {
  const at = builtinAt(argv);
  if (at < 0) return NOTHING; // `command -v`/`-V` only describes
  const w = argv[at];
  if (w === undefined) return NOTHING; // `command`, `builtin` alone
  if (w.kind !== "static") return null;
  switch (w.value) {
    case "set":
    case "shopt":
      return optionEffect(w.value, argv.slice(at + 1));
    case "cd":
    case "pushd":
    case "popd":
      return MOVES;
  }
  if (input?.text != null && READS_TEXT.has(w.value)) {
    // (Known text read: the values bash gives, read_builtin.ts.)
    const args = argv.slice(at + 1);
    if (w.value === "read") {
      const values = readValues(args, input.prefixes, input.text);
      if (values) return { assigns: values };
    }
    const fills = w.value === "read"
      ? readArray(args, input.prefixes, input.text)
      : mapfileArray(args, input.text);
    if (fills) return { assigns: [[fills[0], null]], fills };
  }
  if (w.value === "unset") {
    // (An element of an array, its index literal: quoted, or bash globs the word.)
    const rest = argv.slice(at + 1).filter((a, i) => i > 0 || a.value !== "-v");
    const m = rest.length === 1 && rest[0].kind === "static"
      ? /^([A-Za-z_][A-Za-z0-9_]*)\[(-?\d+)\]$/.exec(rest[0].value)
      : null;
    // (The index is arithmetic: `unset 'a[010]'` unsets element 8.)
    if (m) return { assigns: [], drops: [m[1], arithmeticNumber(m[2])] };
  }
  const grammar = Object.hasOwn(GRAMMARS, w.value) ? GRAMMARS[w.value] : undefined;
  if (grammar === undefined) return MAY_ASSIGN.has(w.value) ? null : NOTHING;
  const read = readOptions(argv.slice(at + 1), grammar);
  // (With an inert letter nothing that follows it makes it assign.)
  if (some(read.letters, grammar.inert)) return NOTHING;
  if (read.stop === "invalid" && grammar.fixed) return NOTHING;
  if (read.stop || some(read.letters, grammar.runs)) return null;
  if (grammar.operands === "declarations") return declaration(w.value, read);
  return assigned(read, grammar);
}

/** The only variable an option sets that the walk may know a value of (see parameter_ops.ts). */
const POSIX: BuiltinEffect = Object.freeze({
  assigns: [["POSIXLY_CORRECT", null]],
}) as BuiltinEffect;

/** `set ARGS` (any may be `-o posix`) or `shopt ARGS` (`-so posix`; a word not known: any). */
function optionEffect(builtin: string, args: Word[]): BuiltinEffect | null {
  if (!args.length) return NOTHING;
  if (builtin === "set") return POSIX;
  if (args.some((a) => a.kind !== "static")) return null;
  return args.some((a) => /^[-+]\w*o/.test(a.value)) ? POSIX : NOTHING;
}

/** Whether `letters` holds one of `of`. */
const some = (letters: string, of = "") => [...letters].some((l) => of.includes(l));

/** The names a builtin that is no declaration assigns, read by its grammar. */
function assigned(read: Reading, grammar: Grammar): BuiltinEffect | null {
  const names = [...read.names];
  const { operands } = read;
  let printed: string | null = null;
  if (grammar.operands === "names") {
    for (const a of operands) {
      if (a.kind !== "static") return null;
      names.push(a.value);
    }
  } else if (grammar.operands === "second") {
    if (operands[1]?.kind !== "static") return null;
    names.push(operands[1].value);
  } else if (grammar.operands === "format") {
    const f = operands[0];
    if (f !== undefined && (f.kind !== "static" || COUNT.test(f.value))) return null;
    // (What `printf -v NAME` prints of known words, its newlines kept: printed_text.ts.)
    if (f !== undefined && names.length === 1 && operands.every((w) => w.kind === "static")) {
      printed = printedText("printf", ["--", ...operands.map((w) => w.value)]);
    }
  }
  if (!names.length && grammar.dflt) names.push(grammar.dflt);
  if (names.some((n) => !NAME.test(n))) return null;
  const assigns = [...names, ...grammar.also ?? []].map((n, i) =>
    [n, i === 0 ? printed : null] as [string, string | null]
  );
  // (A variable unset is gone with its attributes: assigned again, it is not exported.)
  return grammar === GRAMMARS.unset ? { assigns, unexports: names } : { assigns };
}

/**
 * A printf format's `%n` conversion (any flags, width, precision or length: `%5n`, `%*n`,
 * `%ln`) assigns the variable its argument names, with or without `-v`, the format reused
 * while arguments remain: a format that is not known or holds one may assign any name.
 */
const COUNT = /%[^A-Za-z%]*[hjlLqtz]*n/;

const ATTRIBUTES = /[aAIlrtuc]/;

/** `export`/`declare`/`typeset`/`local`/`readonly`, their options read. */
function declaration(builtin: string, { letters, operands }: Reading): BuiltinEffect | null {
  const attributed = builtin === "readonly" || ATTRIBUTES.test(letters);
  // (`local` outside a function, and `-p`, assign nothing: where, the walk does not tell.)
  const unsure = builtin === "local" || letters.includes("p");
  const out: BuiltinEffect = { assigns: [], attributed: [] };
  const names: string[] = [];
  for (const a of operands) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(\+?=)?/.exec(a.kind === "static" ? a.value : a.prefix);
    // (A name not known, or one with a subscript: any variable.)
    if (m === null || (a.kind !== "static" && !m[2]) || /^\[/.test(a.value.slice(m[1].length))) {
      return null;
    }
    const name = m[1];
    names.push(name);
    if (attributed) out.attributed!.push(name);
    if (m[2] === undefined) {
      if (a.value !== name) return null;
      if (attributed) out.assigns.push([name, null]);
      continue;
    }
    const value = a.kind === "static" ? a.value.slice(m[0].length) : null;
    const known = !attributed && !unsure && value !== null && !value.startsWith("(");
    out.assigns.push([name, known ? value : null, m[2] === "+="]);
  }
  exported(builtin, letters, names, out);
  return out;
}

/** What a declaration does to the export attribute of its names (see `BuiltinEffect`). */
function exported(
  builtin: string,
  letters: string,
  names: string[],
  out: BuiltinEffect,
): void {
  if (!names.length) return;
  if (builtin === "export" && !letters.includes("p")) {
    if (letters.includes("n")) out.unexports = names;
    else out.exports = names;
  } else if (letters.includes("x")) out.unexports = names;
}
