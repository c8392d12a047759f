/**
 * Programs that expand the glob patterns among their operands themselves, after bash has left
 * them alone (quoted: `prettier --write '**\/*.json'`, `eslint 'src/**'`, `deno fmt '**\/*.md'`):
 * which words those are (`Program.globOperands`). A word is one where it is a static operand
 * (no option, nor the value of an option that takes the next word) holding a glob character
 * (`*`, `?`, `[`), a brace (`{a,b}`) or an extglob group (`@(…)`); one starting with `!` excludes
 * files and names none.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { globOperandsOf } from "./glob_operands.ts";
 * globOperandsOf(["prettier", "-w", "**\/*.json"].map(literal), 1, new Set(), true);
 * // { at: [2], dot: true }
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { GlobOperands } from "./spec.ts";
import { braceChars, expandBraces } from "../shell/braces.ts";

/**
 * The origin of a stage a program's settings add glob operands to (markdownlint-cli2's `globs`):
 * the program expands them before it writes anything, so its own writes come after them.
 */
export const SETTINGS_GLOBS = "its settings' globs";

/** A character the programs' glob libraries (fast-glob, minimatch, deno's) expand. */
const GLOBBY = /[*?[{]|[@!+](?=\()/;
/** A group fast-glob takes a pattern with for a glob (its `REGEX_GROUP_SYMBOLS`): `(a|b)`. */
const GROUP = /(?:^|[^!*+?@])\((?:[^()]*\|[^()]*)\)/;

/**
 * The glob operands among `argv` from `start` (the first word after a subcommand), where the
 * options in `valued` take the next word as their value; `dot`: the program's `*` matches a
 * leading `.` (fast-glob's and minimatch's `dot: true`); `backslash`: what a `\` is to it
 * (`GlobOperands.backslash`). Null where there is none.
 */
export function globOperandsOf(
  argv: Word[],
  start: number,
  valued: ReadonlySet<string>,
  dot: boolean,
  backslash: GlobOperands["backslash"] = "escape",
  groups = false,
): GlobOperands | null {
  const at: number[] = [];
  let options = true;
  for (let i = start; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") continue;
    if (options && w.value === "--") options = false;
    else if (options && w.value.startsWith("-") && w.value !== "-") {
      if (valued.has(w.value)) i++;
    } else if (
      (GLOBBY.test(w.value) || (groups && GROUP.test(w.value))) && !w.value.startsWith("!")
    ) {
      at.push(i);
    }
  }
  if (!at.length) return null;
  if (!groups) return { at, dot, backslash };
  // (picomatch matches a group's literal `.` at a name's start without `dot`: `(.env|zz)`; taken
  // to match one for every word then, where one has a group.)
  const grouped = !dot && at.some((i) => /(^|[^@!+*?\\])\(/.test(argv[i].value));
  return { at, dot: dot || grouped, backslash, groups };
}

/** The text before the first character a glob library expands, its escapes removed. */
function literalPrefix(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") out += pattern[++i] ?? "";
    else if ("*?[{(".includes(c) || ("@!+".includes(c) && pattern[i + 1] === "(")) break;
    else out += c;
  }
  return out;
}

/**
 * A fast-glob pattern's groups as extglob's (`*.(js|ts)` is `*.@(js|ts)`): picomatch reads every
 * `(` not escaped nor after `@!+*?` as a group's start, in a pattern fast-glob takes for a glob.
 */
function asExtglob(pattern: string): string {
  if (!GLOBBY.test(pattern) && !GROUP.test(pattern)) return pattern;
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      out += c + (pattern[++i] ?? "");
      continue;
    }
    out += c === "(" && (i === 0 || !"@!+*?".includes(pattern[i - 1])) ? "@(" : c;
  }
  return out;
}

/**
 * An operand as a pattern with `/` for each `\\` where the program reads one so (see
 * `GlobOperands.backslash`); joined to the cwd first, a leading one stays below it.
 */
function separated(value: string, backslash: GlobOperands["backslash"]): string {
  if (backslash === undefined || backslash === "escape" || !value.includes("\\")) return value;
  const slashed = value.replaceAll("\\", "/");
  if (backslash === "separator" || value.startsWith("/")) return slashed;
  return slashed.replace(/^\/+/, "") || ".";
}

/**
 * The glob words a glob library makes of one operand, as bash would make them: each brace
 * alternative a pattern (`{src,.pi}/**` is `src/**` and `.pi/**`); braces not read here, what lies
 * below the text before them.
 */
export function globWords(
  w: Word,
  backslash?: GlobOperands["backslash"],
  groups = false,
): Word[] {
  const value = groups ? asExtglob(separated(w.value, backslash)) : separated(w.value, backslash);
  const alternatives = expandBraces(braceChars(value));
  // (Braces not expanded here: what lies below the text before them.)
  if (alternatives === null) {
    const prefix = literalPrefix(value);
    return [{ value: prefix + "*", kind: "glob", prefix, text: w.text }];
  }
  return alternatives.map((chars) => {
    const pattern = chars.map((c) => c.raw).join("");
    const prefix = literalPrefix(pattern);
    return { value: pattern, kind: "glob", prefix, text: w.text, pattern };
  });
}
