/**
 * Bash's parameter expansions with operators (bash(1) "Parameter Expansion") computed where the
 * parameter's state is known (its text, or unset) and the operator's word is plain text: the
 * defaults `${p:-w}` `${p-w}` `${p:=w}` `${p=w}`, the alternates `${p:+w}` `${p+w}`, `${p:?w}` of
 * a value that is set, the length `${#p}`, substrings `${p:off}` `${p:off:len}` (digits only, a
 * leading 0 octal: `arithmeticNumber`), literal replacements `${p/s/r}` `${p//s/r}` `${p/#s/r}`
 * `${p/%s/r}`, case `${p^^}` `${p,,}` `${p^}` `${p,}`, and affixes `${p#pat}` and its kin (affixes.ts). Anything else (`${!p}`,
 * `${p@P}`, patterns with glob characters, words with quotes, `~` or expansions) is not computed.
 *
 * And when a variable is surely unset: not in the tool's environment, not one bash sets itself,
 * not named by the command but where it reads it (`neverAssigned`).
 *
 * @example
 * ```ts
 * parameterOp("${zz:-secrets/key}"); // { name: "zz", op: ":-", word: "secrets/key" }
 * applyParameterOp({ name: "zz", op: ":-", word: "x" }, null); // "x"
 * ```
 *
 * @module
 */
import { removeAffix } from "./affixes.ts";
import { unquotedText } from "./words.ts";

/** A parsed expansion with an operator. */
export interface ParameterOp {
  name: string;
  op: string;
  /** The operator's word (a default, a replacement's pattern). */
  word?: string;
  /** A replacement's string; a substring's length. */
  rest?: string;
}

/** A word bash takes as it is written inside `${…}` (no quote, `~`, `$`, glob, `}`). */
const LITERAL = "[\\w./,:+%@=-]*";
const OP_RE = new RegExp(
  `^\\$\\{(?:#([A-Za-z_]\\w*)|([A-Za-z_]\\w*)(?:(:?[-=+?])(${LITERAL})|:(\\d+)(?::(\\d+))?` +
    `|(//|/#|/%|/)([\\w.,:+@=-]+)(?:/([\\w./,:+%@=-]*))?|(\\^\\^|,,|\\^|,)` +
    `|(##|#|%%|%)([\\w./,:+@=*?-]*)))\\}$`,
);

/** The operator an expansion's text asks for, or null (a plain `${p}` too). */
export function parameterOp(text: string): ParameterOp | null {
  const m = OP_RE.exec(text);
  if (m === null) return null;
  if (m[1] !== undefined) return { name: m[1], op: "#len" };
  const name = m[2];
  if (m[3] !== undefined) return { name, op: m[3], word: m[4] };
  if (m[5] !== undefined) return { name, op: ":", word: m[5], rest: m[6] };
  if (m[7] !== undefined) return { name, op: m[7], word: m[8], rest: m[9] ?? "" };
  if (m[10] !== undefined) return { name, op: m[10] };
  return { name, op: m[11], word: m[12] };
}

/**
 * What the expansion yields of a parameter holding `value` (null: unset); null where that is not
 * certain (a value beyond ASCII, where the locale decides characters and case; `${p:?w}` of an
 * unset or empty one, which ends the shell).
 */
export function applyParameterOp(o: ParameterOp, value: string | null): string | null {
  const v = value ?? "";
  const ascii = /^[ -~\t\n]*$/.test(v);
  switch (o.op) {
    case ":-":
    case ":=":
      return v === "" ? o.word! : v;
    case "-":
    case "=":
      return value === null ? o.word! : v;
    case ":+":
      return v === "" ? "" : o.word!;
    case "+":
      return value === null ? "" : o.word!;
    case ":?":
      return v === "" ? null : v;
    case "?":
      return value === null ? null : v;
    case "#len":
      return ascii ? String(v.length) : null;
    case ":": {
      const from = arithmeticNumber(o.word!);
      const length = o.rest === undefined ? undefined : arithmeticNumber(o.rest);
      if (!ascii || from === null || length === null) return null;
      return length === undefined ? v.slice(from) : v.slice(from, from + length);
    }
    case "/":
    case "//":
    case "/#":
    case "/%":
      return ascii ? replaced(v, o.op, o.word!, o.rest!) : null;
    case "^^":
      return ascii ? v.toUpperCase() : null;
    case ",,":
      return ascii ? v.toLowerCase() : null;
    case "^":
      return ascii ? v.slice(0, 1).toUpperCase() + v.slice(1) : null;
    case ",":
      return ascii ? v.slice(0, 1).toLowerCase() + v.slice(1) : null;
    default:
      return removeAffix(v, { op: o.op as "%" | "%%" | "#" | "##", pattern: o.word! });
  }
}

/**
 * The number bash's arithmetic reads in a constant of digits (bash(1) "ARITHMETIC EVALUATION"):
 * a leading 0 makes it octal (`011` is 9), where an 8 or a 9 is an error (`08`: null), else
 * decimal; a `-` before it. (`0x1f`, `2#101`, `10#08`, names and expressions: not read here.)
 */
export function arithmeticNumber(text: string): number | null {
  const m = /^(-?)(0[0-7]*|[1-9]\d*)$/.exec(text);
  if (m === null) return null;
  const n = m[2].length > 1 && m[2].startsWith("0") ? parseInt(m[2], 8) : Number(m[2]);
  return Number.isSafeInteger(n) ? (m[1] ? -n : n) : null;
}

/** A literal replacement (the pattern has no glob character, the string no `&`). */
function replaced(v: string, op: string, pat: string, rep: string): string {
  if (op === "//") return v.split(pat).join(rep);
  if (op === "/#") return v.startsWith(pat) ? rep + v.slice(pat.length) : v;
  if (op === "/%") return v.endsWith(pat) ? v.slice(0, v.length - pat.length) + rep : v;
  const at = v.indexOf(pat);
  return at < 0 ? v : v.slice(0, at) + rep + v.slice(at + pat.length);
}

/**
 * Variables bash sets itself, or may hold from its start, whatever the environment
 * (`env -i bash -c 'compgen -v'`, and those it sets as it runs, bash(1) "Shell Variables"), and
 * those an option sets: `set -o posix` (or `shopt -so posix`, `SHELLOPTS`) `POSIXLY_CORRECT`,
 * `set -o ignoreeof` `IGNOREEOF`, `set -o history` `HISTSIZE`, `shopt -s compat44`
 * `BASH_COMPAT` (`set -o NAME` and `shopt -s NAME` for each option, compared). A coprocess sets
 * `COPROC_PID` (`NAME_PID` for a named one: `onlyRead`).
 */
const BASH_OWN = new Set(
  ("BASH BASHOPTS BASHPID BASH_ALIASES BASH_ARGC BASH_ARGV BASH_ARGV0 BASH_CMDS BASH_COMMAND " +
    "BASH_EXECUTION_STRING BASH_LINENO BASH_LOADABLES_PATH BASH_REMATCH BASH_SOURCE " +
    "BASH_SUBSHELL BASH_VERSINFO BASH_VERSION COMP_WORDBREAKS COPROC DIRSTACK EPOCHREALTIME " +
    "EPOCHSECONDS EUID FUNCNAME GROUPS HISTCMD HISTFILE HOSTNAME HOSTTYPE IFS LINENO MACHTYPE " +
    "MAILCHECK MAPFILE OLDPWD OPTARG OPTERR OPTIND OSTYPE PATH PIPESTATUS PPID PS1 PS2 PS4 PWD " +
    "RANDOM REPLY SECONDS SHELL SHELLOPTS SHLVL SRANDOM TERM UID COLUMNS LINES HOME " +
    "POSIXLY_CORRECT IGNOREEOF COPROC_PID").split(" "),
);
/** Prefixes of the names bash keeps for itself. */
const BASH_PREFIX = /^(BASH|COMP_|READLINE_|HIST|PS\d|_$)/;

/**
 * Whether a name the environment does not hold is unset when bash expands it: bash does not set
 * it itself, and nothing before the command's own text could (no `BASH_ENV` to source).
 */
export function unsetInEnvironment(
  name: string,
  env: Record<string, string | undefined>,
): boolean {
  return env[name] === undefined && env.BASH_ENV === undefined && !BASH_OWN.has(name) &&
    !BASH_PREFIX.test(name);
}

/**
 * Whether a name may be taken to be unset where it is read: unset in the environment, and the text
 * is the command's own (not a nested one, whose caller may have set it) with no variable of the
 * environment changed around it. (The command must also assign it nowhere: `onlyRead`.)
 */
export function mayBeUnset(
  name: string,
  env: { env: Record<string, string | undefined>; nested?: true; unknown?: ReadonlySet<string> },
): boolean {
  return !env.nested && !env.unknown?.size && unsetInEnvironment(name, env.env);
}

/** Source text that may assign a name it does not spell: indirection, arithmetic, `let`. */
const HIDDEN_ASSIGNMENT = /\$\{!|\blet\b|\(\(|\$\[/;

/**
 * Whether the command's source names `name` only where it reads it (`$name`, `${name…}`,
 * `${#name}`), at most one of those an assigning `${name:=w}` (then the only one); and holds
 * nothing that assigns names it does not spell (see `HIDDEN_ASSIGNMENT`). Quotes and escapes are
 * removed first (`read z\z` names `zz`).
 */
export function onlyRead(source: string, name: string): boolean {
  const text = unquotedText(source);
  if (HIDDEN_ASSIGNMENT.test(text)) return false;
  // (`coproc NAME …` sets NAME_PID, a name the source need not spell.)
  if (name.endsWith("_PID") && /\bcoproc\b/.test(text)) return false;
  const re = new RegExp(`(?<![\\w])${name}(?!\\w)`, "g");
  let count = 0;
  let assigning = false;
  for (const m of text.matchAll(re)) {
    count++;
    const before = text.slice(Math.max(0, m.index - 3), m.index);
    if (!/(\$|\$\{|\$\{#)$/.test(before)) return false;
    if (/^:?=/.test(text.slice(m.index + name.length))) assigning = true;
  }
  return !(assigning && count > 1);
}
