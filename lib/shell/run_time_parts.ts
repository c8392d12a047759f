/**
 * The parts of a word the analysis keeps as text although bash computes them as it runs: special
 * parameters (`$?`, `$$`, `$!`, `$#`, `$-`), the count of an array's words (`${#a[@]}`), arithmetic (`$((1+3))`, `$[1+3]`) and the output of a
 * command that prints a number (`$(nproc)`). Each is a number (`$-` a few option letters), so no
 * place or option by itself, but it is a name: `cat $?` reads the file `0` of the cwd, which may
 * be a symlink to anything. `runTimePattern` gives the bash pattern of every name such a word may
 * be, for the targets to expand in the filesystem as they expand a glob.
 *
 * @module
 */

/** What a number may be: digits, a minus sign (`$((0-1))` after `--`). */
const NUMBER = "[0-9-]*";
/** What `$-` may be: the shell's option letters. */
const LETTERS = "[a-zA-Z]*";

/** The count of an array's words at the start of a text: `${#NAME[@]}`, `${#NAME[*]}`. */
const ARRAY_COUNT = /^\$\{#[A-Za-z_][A-Za-z0-9_]*\[[@*]\]\}/;

/** Characters a bash pattern reads as more than themselves, escaped in a literal part. */
const SPECIAL = /[*?[\]\\!@+()|{}]/;

/**
 * The names a static word's value may be where it runs: the bash pattern of its path up to the end
 * of the last component with a part computed as it runs (`x.$$` is `x.[0-9-]*`), and the rest of
 * the path after that component as it is (`$?/id_rsa`: `[0-9-]*` and `/id_rsa`). Null when the
 * value has no such part. A `$` that starts none is itself.
 *
 * @example
 * ```ts
 * runTimePattern("out.$$"); // { pattern: "out.[0-9-]*", rest: "" }
 * runTimePattern("notes.txt"); // null
 * ```
 */
export function runTimePattern(value: string): { pattern: string; rest: string } | null {
  if (!value.includes("$")) return null;
  let pattern = "";
  let last = -1;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "$") {
      const part = runTimePart(value, i);
      if (part !== null) {
        pattern += part.pattern;
        i = part.end - 1;
        last = part.end;
        continue;
      }
    }
    if (last >= 0 && c === "/" && !value.slice(i).includes("$")) {
      return { pattern, rest: value.slice(i) };
    }
    pattern += SPECIAL.test(c) ? "\\" + c : c;
  }
  return last < 0 ? null : { pattern, rest: "" };
}

/** The run-time part starting at `at` (a `$`): its pattern and where it ends; null: none. */
function runTimePart(value: string, at: number): { pattern: string; end: number } | null {
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
    return { pattern: end < 0 ? "*" : NUMBER, end: end < 0 ? value.length : end + 1 };
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
