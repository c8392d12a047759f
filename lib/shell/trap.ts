/**
 * `trap`, as bash reads it: the handler it sets and the signals it sets it for. A handler runs
 * later in this shell (before each command for `DEBUG`, after a failure for `ERR`, on a signal at
 * any time), so what it does reaches the commands after it, and where they run, unless it is
 * text that leaves the shell as it is (`handlerKeepsState`: `echo failed; exit 1`).
 *
 * @example
 * ```ts
 * import { trapHandler } from "./trap.ts";
 * import { staticWord } from "./model.ts";
 * trapHandler(["trap", "cd /x", "DEBUG"].map(staticWord))?.handler.value; // "cd /x"
 * trapHandler(["trap", "-p"].map(staticWord)); // null: it prints the traps
 * ```
 *
 * @module
 */
import type { Word } from "./model.ts";

/** `trap [-lpP] [--] HANDLER SIGNAL…`: the handler it sets, and for which signals; null for none. */
export function trapHandler(argv: Word[]): { handler: Word; signals: Word[] } | null {
  const args = argv.slice(1);
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") break;
    if (a.value === "--") {
      i++;
      break;
    }
    // `-p`/`-l`/`-P` print; a `-` alone (reset) or a signal is no option.
    if (/^-[lpP]+$/.test(a.value)) return null;
    if (!a.value.startsWith("-") || a.value === "-") break;
  }
  const handler = args[i];
  // (A lone operand is a signal to reset, `trap INT`; a `-` or "" handler sets nothing to run.)
  if (!handler || args.length === i + 1 && handler.kind === "static") return null;
  if (handler.kind === "static" && (handler.value === "-" || handler.value === "")) return null;
  return { handler, signals: args.slice(i + 1) };
}

/**
 * Whether a handler `trap` sets may run before a later command of the same shell and change it:
 * for any signal but `EXIT` (which runs when the shell ends), or one not known, unless the
 * handler is text that leaves the shell as it is (`handlerKeepsState`), for signals other than
 * `DEBUG`, where no name of the command can be a function or an alias (`plainNames`: the
 * caller's, from its source).
 */
export function trapRunsLater(argv: Word[], plainNames = false): boolean {
  const set = trapHandler(argv);
  if (set === null) return false;
  // (Not before each command: under `extdebug` a DEBUG handler's failure skips the command,
  // `cd` too.)
  const debug = set.signals.some((s) => s.kind !== "static" || /^debug$/i.test(s.value));
  if (
    plainNames && !debug && set.handler.kind === "static" && handlerKeepsState(set.handler.value)
  ) {
    return false;
  }
  // (A handler not known and no signal named: it may be either, a handler or a signal.)
  return set.signals.length === 0 ||
    set.signals.some((s) => s.kind !== "static" || !/^(SIG)?EXIT$|^0$/i.test(s.value));
}

/**
 * Whether no command name in `source` can be a function or an alias (it defines none, enables no
 * builtin), so a name a handler runs is the builtin or program it names.
 */
export function plainNames(source: string): boolean {
  return !/\(\s*\)|\bfunction\b|\b(alias|enable)\b/.test(source);
}

/**
 * The commands a handler may run and leave the shell as it is (its cwd, variables, options and
 * names), with the options that would assign a variable (`printf -v`, `wait -p`).
 */
const KEEPS_STATE: ReadonlyMap<string, RegExp | null> = new Map([
  ["echo", null],
  ["printf", /^-\w*v/],
  ["exit", null],
  ["return", null],
  ["kill", null],
  ["wait", /^-\w*p/],
  ["rm", null],
  ["true", null],
  ["false", null],
  [":", null],
]);

/**
 * Whether shell text only runs commands that leave the shell as it is (`KEEPS_STATE`: `echo
 * "failed at $LINENO" >&2; exit 1`, `kill $(jobs -p)`): simple commands joined by `; && || | &`,
 * of quoted and plain words, redirects to files or descriptors, variables read and substitutions
 * (which run in a subshell). Anything else (an assignment, `${X:=v}`, arithmetic, a group, a
 * keyword, a name not in the list: `cd`, `source`, `set`, a function) is not known to.
 */
export function handlerKeepsState(text: string): boolean {
  // The text with each quoted part and expansion as a placeholder word part `_`.
  let plain = "";
  for (let i = 0; i < text.length;) {
    const c = text[i];
    let end = i + 1;
    if (c === "'") end = text.indexOf("'", i + 1) + 1;
    else if (c === '"') end = quotedEnd(text, i);
    else if (c === "$") end = expansionEnd(text, i);
    else if (c === "\\" || c === "`") return false;
    if (end <= 0) return false;
    // (A part that may start with `-`, an expansion or quoted text that does, `"-v"`: an option
    // to what it is given, `-_`.)
    const part = text.slice(i, end);
    plain += end === i + 1 ? c : c === "$" || /^['"][-$]/.test(part) ? "-_" : "_";
    i = end;
  }
  if (/[^\w\s./%+,:=@~*?[\]^#!;|&>-]/.test(plain)) return false;
  const commands = plain.replace(/(?:\d+|&)?>>?[&|]?/g, " > ").split(/&&|\|\||[;|&\n]/);
  for (const command of commands) {
    const words = command.split(/\s+/).filter((w) => w !== "");
    let k = 0;
    while (words[k] === ">") k += 2;
    if (k >= words.length) continue;
    const name = words[k];
    if (!KEEPS_STATE.has(name)) return false;
    const assigns = KEEPS_STATE.get(name);
    // (Options come first: one that assigns, or one not known, `"-v"` or `$V`, may.)
    for (const w of assigns ? words.slice(k + 1) : []) {
      if (w === "--" || !w.startsWith("-")) break;
      if (assigns!.test(w) || w.includes("_")) return false;
    }
  }
  return true;
}

/** The end of a double-quoted part at `i` whose expansions `expansionEnd` takes; 0 if none. */
function quotedEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length;) {
    const c = text[j];
    if (c === '"') return j + 1;
    if (c === "`") return 0;
    if (c === "$") {
      j = expansionEnd(text, j);
      if (j <= 0) return 0;
    } else j += c === "\\" ? 2 : 1;
  }
  return 0;
}

/**
 * The end of an expansion at `i` that reads a variable (`$X`, `${X}`, `$?`) or runs a command in
 * a subshell (`$(jobs -p)`, of plain words); 0 for any other (`${X:=v}`, `$((…))`, `$'…'`).
 */
function expansionEnd(text: string, i: number): number {
  const m = /^\$(?:[A-Za-z_]\w*|[0-9?!$#@*-]|\{[A-Za-z_]\w*\}|\([^()'"`\\$]*\))/.exec(
    text.slice(i),
  );
  return m ? i + m[0].length : 0;
}
