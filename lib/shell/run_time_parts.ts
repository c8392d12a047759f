/**
 * The parts of a word the analysis keeps as text although bash computes them as it runs: special
 * parameters (`$?`, `$$`, `$!`, `$#`, `$-`), the count of an array's words (`${#a[@]}`),
 * arithmetic (`$((1+3))`, `$[1+3]`), the output of a command that prints a number (`$(nproc)`,
 * also in backticks) and git's name of a commit (`$(git merge-base HEAD main)`). Each is a number
 * or hexadecimal digits (`$-` a few option letters), so no place or option by itself, but it is a
 * name: `cat $?` reads the file `0` of the cwd, which may be a symlink to anything.
 * `runTimePattern` gives the bash pattern of every name such a word may be, for the targets to
 * expand in the filesystem as they expand a glob.
 *
 * @module
 */

/**
 * What a number may be: digits, a minus sign (`$((0-1))` after `--`). (Patterns are extglob's:
 * the caller expands them with extglob on.)
 */
const NUMBER = "+([0-9-])";
/** What `$-` may be: the shell's option letters. */
const LETTERS = "+([a-zA-Z])";

/** The count of an array's words at the start of a text: `${#NAME[@]}`, `${#NAME[*]}`. */
const ARRAY_COUNT = /^\$\{#[A-Za-z_][A-Za-z0-9_]*\[[@*]\]\}/;

/** A part's names as a plain glob (no extglob) says them, widened. */
const PLAIN: Record<string, string> = {
  "+([0-9-])": "[0-9-]*",
  "+([a-zA-Z])": "[a-zA-Z]*",
  "?(^)+([0-9a-f])": "[0-9a-f^]*",
  "+([0-9._:T-])": "[0-9._:T-]*",
};

/** Characters a bash pattern reads as more than themselves, escaped in a literal part. */
const SPECIAL = /[*?[\]\\!@+()|{}]/;

/**
 * The names a static word's value may be where it runs: the bash pattern of its path up to the end
 * of the last component with a part computed as it runs (`x.$$` is `x.+([0-9-])`), and the rest of
 * the path after that component as it is (`$?/id_rsa`: `+([0-9-])` and `/id_rsa`). Null when the
 * value has no such part. A `$` that starts none is itself. A part may also print nothing (a
 * command's output: it may fail or not be found; `$!` before a job is started): `bare` is then
 * the value without those parts (`.pi/$(date -d x +%s)` may be `.pi/`).
 *
 * @example
 * ```ts
 * runTimePattern("out.$$"); // { pattern: "out.+([0-9-])", rest: "" }
 * runTimePattern("a/$(nproc)"); // { pattern: "a/+([0-9-])", rest: "", bare: "a/" }
 * runTimePattern("notes.txt"); // null
 * ```
 */
export function runTimePattern(
  value: string,
): { pattern: string; rest: string; bare?: string } | null {
  return runTimeParts(value, false);
}

/**
 * The same as a plain glob over the whole value, each part's names widened to what a glob without
 * extglob can say (`x.$$*` is `x.[0-9-]**`): for a glob word with such a part; null when it has
 * none.
 */
export function runTimeGlob(value: string): string | null {
  const parts = runTimeParts(value, true);
  return parts === null ? null : parts.pattern + parts.rest.replace(/[*?[\]\\!@+()|{}]/g, "\\$&");
}

function runTimeParts(
  value: string,
  plain: boolean,
): { pattern: string; rest: string; bare?: string } | null {
  if (!value.includes("$") && !value.includes("`")) return null;
  let pattern = "";
  let last = -1;
  let bare = "";
  let empty = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "$" || c === "`") {
      const part = runTimePart(value, i);
      if (part !== null) {
        pattern += plain ? PLAIN[part.pattern] ?? "*" : part.pattern;
        const text = value.slice(i, part.end);
        if (MAY_BE_EMPTY.test(text)) empty = true;
        else bare += text;
        i = part.end - 1;
        last = part.end;
        continue;
      }
    }
    if (last >= 0 && c === "/" && !/[$`]/.test(value.slice(i))) {
      const rest = value.slice(i);
      return empty ? { pattern, rest, bare: bare + rest } : { pattern, rest };
    }
    pattern += SPECIAL.test(c) ? "\\" + c : c;
    bare += c;
  }
  if (last < 0) return null;
  return empty ? { pattern, rest: "", bare } : { pattern, rest: "" };
}

/** A run-time part that may print nothing: a command's output, `$!` before any job. */
const MAY_BE_EMPTY = /^(`|\$\(|\$!|\$\{!\})/;

/**
 * The run-time part starting at `at` (a `$` or a backtick): its pattern and where it ends; null:
 * none.
 */
function runTimePart(value: string, at: number): { pattern: string; end: number } | null {
  if (value[at] === "`") {
    // (A backtick not closed is one bash took as a character: quoted.)
    const end = backtickEnd(value, at);
    if (end < 0) return null;
    return { pattern: outputPattern(value.slice(at, end + 1)) ?? NUMBER, end: end + 1 };
  }
  const next = value[at + 1];
  if (next === "$" || next === "!" || next === "?" || next === "#") {
    return { pattern: NUMBER, end: at + 2 };
  }
  if (next === "-") return { pattern: LETTERS, end: at + 2 };
  // (`${#NAME[@]}`: how many words an array holds.)
  const count = next === "{" ? ARRAY_COUNT.exec(value.slice(at)) : null;
  if (count !== null) return { pattern: NUMBER, end: at + count[0].length };
  if (next === "{" && value[at + 3] === "}") {
    const name = value[at + 2];
    if (name === "-") return { pattern: LETTERS, end: at + 4 };
    if ("$!?#".includes(name)) return { pattern: NUMBER, end: at + 4 };
    return null;
  }
  if (next === "(" || next === "[") {
    const end = closing(value, at + 1);
    // (Not closed: text to the end, which may be any name.)
    if (end < 0) return { pattern: "*", end: value.length };
    const output = next === "(" ? outputPattern(value.slice(at, end + 1)) : null;
    return { pattern: output ?? NUMBER, end: end + 1 };
  }
  return null;
}

/** Where the bracket opened at `open` closes (quoted text skipped), or -1. */
function closing(value: string, open: number): number {
  const opener = value[open];
  const closer = opener === "(" ? ")" : "]";
  let depth = 0;
  for (let i = open; i < value.length; i++) {
    const c = value[i];
    if (c === "'" || c === '"') {
      const end = value.indexOf(c, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (c === "\\") i++;
    else if (c === opener) depth++;
    else if (c === closer && --depth === 0) return i;
  }
  return -1;
}

/** Where the backtick substitution opened at `open` closes (`\\``: a backtick in it), or -1. */
function backtickEnd(value: string, open: number): number {
  for (let i = open + 1; i < value.length; i++) {
    if (value[i] === "\\") i++;
    else if (value[i] === "`") return i;
  }
  return -1;
}

/**
 * The programs whose output the walk may know (`numericOutput`, `outputPattern`, `$(pwd)`): a
 * function of one of their names, which the command may define, makes it not known.
 */
export const OUTPUT_PROGRAMS: ReadonlySet<string> = new Set([
  "pwd",
  "nproc",
  "getconf",
  "wc",
  "date",
  "id",
  "grep",
  "git",
  "basename",
  "dirname",
  "mktemp",
  "which",
  "command",
  "type",
  "echo",
  "printf",
]);

/**
 * What `date +FMT` prints of the time now, where FMT holds only conversions to digits (`%Y`, `%m`,
 * `%d`, `%H`, `%M`, `%S`, `%s`, `%j`, `%u`, `%V`, `%G`, `%F`, `%T`) and the characters `0-9._:T-`
 * (quoted or not: `+%Y%m%d-%H%M%S`, `'+%F'`), after `-u` alone: those characters. Null for a
 * date not now (`-d`, `-f`, `-r`: it may print nothing), `--help`, padding with blanks (`%e`).
 */
function dateOutput(args: string[]): string | null {
  const format = args.at(-1)?.replace(/^'([^']*)'$|^"([^"$`\\]*)"$/, "$1$2");
  if (!format || !args.slice(0, -1).every((a) => /^(-u|--utc|--universal)$/.test(a))) return null;
  return /^\+(%[YmdHMSsjuVGFT]|[0-9._:T-])+$/.test(format) ? "+([0-9._:T-])" : null;
}

/**
 * What a commit, tree or blob name git prints is: hexadecimal digits, `^` before them where it
 * names a commit to leave out.
 */
const HEX = "?(^)+([0-9a-f])";

/**
 * A word of a substitution that is plain text (no quote, expansion, glob, operator, brace list or
 * leading `~`).
 */
const PLAIN_WORD = /^[\w.^@{}:\/=%+-][\w.~^@{}:\/=%+-]*$/;

/**
 * A revision `git rev-parse` prints back when it names nothing (one name, no `/`), and one that
 * names one commit (not `^A`, a range `A..B`, `A^@`, `A^!`, `A^-`: more lines).
 */
const NAME_BACK = /^[\w.~@{}-][\w.~^@{}-]*$/;
const MANY = /\.\.|\^[@!-]/;

/** How many of a command's lines, at most: `-1`, `-n1`, `-n 1`, `--max-count=1`. */
function oneLine(args: string[]): boolean {
  return args.some((a, i) =>
    a === "-1" || a === "-n1" || a === "--max-count=1" || (a === "-n" && args[i + 1] === "1")
  );
}

/**
 * The names a command substitution (`$(…)` or backticks, as written) prints one of, as an extglob
 * pattern, where that is known: git's name of one commit, tree or blob (`$(git rev-parse HEAD)`,
 * `$(git merge-base HEAD main)`, `$(git rev-list -1 HEAD)`: plumbing, which no setting makes print
 * more; `git log`'s signatures would), or nothing. `git rev-parse REV` prints REV back when it names nothing (unless `--verify` or
 * `--short`): that name too. Null for anything else (a number the walk knows is the caller's).
 */
export function outputPattern(text: string): string | null {
  const body = text.startsWith("$(") ? text.slice(2, -1) : text.slice(1, -1);
  const words = body.trim().split(/[ \t]+/);
  if (words[0] === "date") return dateOutput(words.slice(1));
  if (words[0] !== "git" || !words.every((w) => PLAIN_WORD.test(w))) return null;
  let at = 1;
  if (words[at] === "--no-pager") at++;
  const sub = words[at];
  const args = words.slice(at + 1);
  const operands = args.filter((a) => !a.startsWith("-"));
  const options = args.filter((a) => a.startsWith("-"));
  const only = (allowed: RegExp) => options.every((o) => allowed.test(o));
  switch (sub) {
    case "rev-parse": {
      if (operands.length !== 1 || !only(/^(--verify|-q|--quiet|--short(=\d+)?)$/)) return null;
      const name = operands[0];
      if (!NAME_BACK.test(name) || MANY.test(name)) return null;
      if (options.some((o) => o === "--verify" || o.startsWith("--short"))) return HEX;
      return `@(${HEX}|${name.replace(/[^\w]/g, "\\$&")})`;
    }
    case "merge-base":
      return operands.length === 2 && only(/^--fork-point$/) ? HEX : null;
    case "rev-list":
      return oneLine(args) && operands.length >= 1 &&
          only(/^(-1|-n1?|--max-count=1|--first-parent|--no-merges|--merges|--)$/)
        ? HEX
        : null;
  }
  return null;
}
