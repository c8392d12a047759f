/**
 * What a builtin changes of the shell's variables, as bash(1) says, for the values the walk keeps
 * (walk_values.ts): each builtin changes the names it is given and nothing else, or (`eval`,
 * `source`, `declare -n`, a name not known) may change any of them.
 *
 * - `set` changes options and the positional parameters (walk_calls.ts keeps those): no name.
 * - `export`/`declare`/`typeset`/`local`/`readonly` assign the names they are given (`NAME=value`:
 *   its text where known; `local`, which fails outside a function, none known); an attribute that
 *   changes later assignments (`-l`, `-u`, `-a`, `-A`, `-r`, …) leaves the name not known from
 *   there on; `-i` (later assignments are arithmetic, which may assign any name) and `-n` (a
 *   nameref aliases another variable) leave every name not known; `-f`/`-F`, `export -n` and
 *   `export -p` change no value.
 * - `cd`/`pushd`/`popd` change `PWD`, `OLDPWD` and `DIRSTACK` (not followed here) and the cwd: a
 *   value that is a glob's matches or a line of a stage's output, found in the cwd, is forgotten.
 * - `printf -v NAME` (and `%n`'s names: not known), `read`, `mapfile`/`readarray`, `getopts`, `wait -p NAME`, `compgen -V NAME`:
 *   the names they assign; `unset`: the names it unsets (`-f`: functions only).
 * - `command X` and `builtin X` do what X does; `command -v`/`-V` only describe.
 *
 * @module
 */
import { builtinAt } from "./cwds.ts";
import type { Word } from "./model.ts";
import { printedText } from "./printed_text.ts";

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

const NOTHING: BuiltinEffect = Object.freeze({ assigns: [] }) as BuiltinEffect;
const MOVES: BuiltinEffect = Object.freeze({ assigns: [], moves: true }) as BuiltinEffect;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * What the builtin `argv` runs changes of the variables; null when it may change any (it runs
 * code in this shell, makes a nameref, or a name or option is not known).
 */
export function builtinEffect(argv: Word[]): BuiltinEffect | null {
  const at = builtinAt(argv);
  if (at < 0) return NOTHING; // `command -v`/`-V` only describes
  const w = argv[at];
  if (w === undefined) return NOTHING; // `command`, `builtin` alone
  if (w.kind !== "static") return null;
  const args = argv.slice(at + 1);
  switch (w.value) {
    case "set":
      return NOTHING;
    case "cd":
    case "pushd":
    case "popd":
      return MOVES;
    case "export":
    case "declare":
    case "typeset":
    case "local":
    case "readonly":
      return declaration(w.value, args);
    case "printf":
      return printfEffect(args);
    case "read":
      return reader(args, "adinNptu", "a", "REPLY", "Eers");
    case "mapfile":
    case "readarray":
      return reader(args, "dnOsuc", "", "MAPFILE", "t");
    case "getopts":
      return getopts(args);
    case "unset":
      return unset(args);
    case "wait":
      return reader(args, "p", "p", null, "fn", true);
    case "compgen":
      return compgen(args);
    default:
      return MAY_ASSIGN.has(w.value) ? null : NOTHING;
  }
}

/** Options of a declaration builtin that it knows, and those that change later assignments. */
const DECLARATION_OPTIONS: Record<string, string> = {
  export: "fnp",
  declare: "aAfFgiIlnprtux",
  typeset: "aAfFgiIlnprtux",
  local: "aAiIlnprtux",
  readonly: "aAfp",
};
const ATTRIBUTES = /[aAIlrtuc]/;

/** `export`/`declare`/`typeset`/`local`/`readonly` with `args`. */
function declaration(builtin: string, args: Word[]): BuiltinEffect | null {
  let letters = "";
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") return null;
    if (a.value === "--") {
      i++;
      break;
    }
    if (!/^[-+][A-Za-z]+$/.test(a.value)) break;
    letters += a.value.slice(1);
  }
  for (const l of letters) if (!DECLARATION_OPTIONS[builtin].includes(l)) return null;
  // (`-f`/`-F`: the names are functions'.)
  if (/[fF]/.test(letters)) return NOTHING;
  // (`-n`: a nameref, but `export -n` takes the export attribute away; `-i`: see the module.)
  if ((letters.includes("n") && builtin !== "export") || letters.includes("i")) return null;
  const attributed = builtin === "readonly" || ATTRIBUTES.test(letters);
  // (`local` outside a function, and `-p`, assign nothing: where, the walk does not tell.)
  const unsure = builtin === "local" || letters.includes("p");
  const out: BuiltinEffect = { assigns: [], attributed: [] };
  for (const a of args.slice(i)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(\+?=)?/.exec(a.kind === "static" ? a.value : a.prefix);
    // (A name not known, or one with a subscript: any variable.)
    if (m === null || (a.kind !== "static" && !m[2]) || /^\[/.test(a.value.slice(m[1].length))) {
      return null;
    }
    const name = m[1];
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
  return out;
}

/**
 * `printf -v NAME …` assigns NAME (`-vNAME` too); printf alone prints. A `%n` conversion (any
 * flags, width, precision or length: `%5n`, `%*n`, `%ln`) assigns the variable its argument
 * names, with or without `-v`, the format reused while arguments remain: a format that is not
 * known or holds one may assign any name.
 */
function printfEffect(args: Word[]): BuiltinEffect | null {
  let i = 0;
  let name: string | null = null;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") return null;
    if (a.value === "--") {
      i++;
      break;
    }
    if (!a.value.startsWith("-v")) break;
    const n = a.value === "-v" ? args[++i] : { ...a, value: a.value.slice(2) };
    if (n?.kind !== "static" || !NAME.test(n.value)) return null;
    name = n.value;
  }
  const format = args[i];
  if (format !== undefined && (format.kind !== "static" || COUNT.test(format.value))) return null;
  if (name === null) return NOTHING;
  // (What it prints of known words, its newlines kept: printed_text.ts.)
  const rest = args.slice(i);
  const known = rest.every((w) => w.kind === "static");
  const text = known ? printedText("printf", ["--", ...rest.map((w) => w.value)]) : null;
  return { assigns: [[name, text]] };
}
/** A `%n` conversion: `%`, flags, width, precision and length modifiers, `n`. */
const COUNT = /%[^A-Za-z%]*[hjlLqtz]*n/;

/**
 * A builtin that assigns the names it is given after its options (`read`, `mapfile`, `wait -p`):
 * `valued` the option letters that take a value, `named` those whose value is a name it assigns,
 * `flags` the others; `dflt` the name it assigns when given none. `optionOnly`: the operands are
 * no names (`wait`'s are jobs).
 */
function reader(
  args: Word[],
  valued: string,
  named: string,
  dflt: string | null,
  flags: string,
  optionOnly = false,
): BuiltinEffect | null {
  const names: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") return null;
    if (a.value === "--") {
      i++;
      break;
    }
    if (!/^-./.test(a.value)) break;
    for (let j = 1; j < a.value.length; j++) {
      const l = a.value[j];
      if (flags.includes(l)) continue;
      if (!valued.includes(l)) return null;
      const v = j + 1 < a.value.length ? a.value.slice(j + 1) : args[++i]?.value;
      if (v === undefined || (j + 1 === a.value.length && args[i].kind !== "static")) return null;
      if (named.includes(l)) names.push(v);
      break;
    }
  }
  if (!optionOnly) {
    for (const a of args.slice(i)) {
      if (a.kind !== "static") return null;
      names.push(a.value);
    }
    if (!names.length && dflt !== null) names.push(dflt);
  }
  if (names.some((n) => !NAME.test(n))) return null;
  return { assigns: names.map((n) => [n, null]) };
}

/** `getopts OPTSTRING NAME [ARGS]`: NAME, OPTARG and OPTIND. */
function getopts(args: Word[]): BuiltinEffect | null {
  const name = args[1];
  if (name?.kind !== "static" || !NAME.test(name.value)) return null;
  return { assigns: [[name.value, null], ["OPTARG", null], ["OPTIND", null]] };
}

/** `unset [-v|-n] NAME…` unsets the names (`-f`: functions only). */
function unset(args: Word[]): BuiltinEffect | null {
  const names: string[] = [];
  let options = true;
  for (const a of args) {
    if (a.kind !== "static") return null;
    if (options && a.value === "--") options = false;
    else if (options && /^-[fvn]+$/.test(a.value)) {
      if (a.value.includes("f")) return NOTHING;
    } else if (NAME.test(a.value)) {
      options = false;
      names.push(a.value);
    } else return null;
  }
  return { assigns: names.map((n) => [n, null]) };
}

/** `compgen -V NAME` assigns NAME; `-C`/`-F` run code (a command, a function). */
function compgen(args: Word[]): BuiltinEffect | null {
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") return null;
    if (/^-[A-Za-z]*[CF]/.test(a.value)) return null;
    if (a.value === "-V") {
      const n = args[++i];
      if (n?.kind !== "static" || !NAME.test(n.value)) return null;
      names.push(n.value);
    } else if (/^-[A-Za-z]*V/.test(a.value)) return null;
  }
  return { assigns: names.map((n) => [n, null]) };
}
