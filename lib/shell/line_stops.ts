/**
 * Where bash may drop the rest of a line (RULINGS principle 3, Variables): in a non-interactive
 * bash an expansion error (`$((1/0))`, `${s:0:-5}` on a short value, an invalid `${!x}`, `08`,
 * `${x:?}`), an assignment alone to a readonly variable (`R=2`, `UID=1`) or a glob that matches
 * nothing under `failglob` ends the command line it is on, after `;`, `||` or inside `{ }` alike,
 * and bash goes on with the next line (`( … )`, a pipeline's stage, `$( … )` and `&` are subshells:
 * only theirs ends). The walk takes a line that holds such a place as one whose assignments from
 * there on may not have run: what they assigned is not known after the line (walk.ts, Values).
 *
 * @module
 */
import { type Cwds, type Flow, reached, same, union } from "./cwds.ts";
import { nextNode } from "./nodes.ts";
import type { LiteNode } from "./syntax_tree.ts";

/** The values known where a statement starts (walk_values.ts' Values). */
interface Values {
  get(name: string): { kind: string; value: string } | undefined;
}

/** The walk's values as a line sees them (walk_values.ts' Values). */
interface LineValues extends Values {
  lineMayStop(): void;
  lineEnd(): void;
}

/** No value known (a function's body may run anywhere). */
const NO_VALUES: Values = { get: () => undefined };

/** bash's own readonly variables (`readonly -p` in a fresh bash 5.2). */
export const BASH_READONLY: ReadonlySet<string> = new Set([
  "BASHOPTS",
  "BASH_VERSINFO",
  "EUID",
  "PPID",
  "SHELLOPTS",
  "UID",
]);

/** Text that may make any name readonly (`readonly`, `declare -r`, code not seen). */
const MAKES_READONLY =
  /\b(readonly|eval|source)\b|(^|[\s;&|({])\.[ \t]|\b(declare|typeset|local)\s+([-+]\w*\s+)*(-\w*r|[$"'`])/;
/** An assignment to one of bash's readonly variables. */
const BASH_READONLY_ASSIGNED =
  /(^|[^\w$])(BASHOPTS|BASH_VERSINFO|EUID|PPID|SHELLOPTS|UID)(\[[^\]]*\])?\+?=/;
/** An assignment, with a subscript or not. */
const ANY_ASSIGNMENT = /[A-Za-z_]\w*(\[[^\]]*\])?\+?=/;
/** `${x:?}`, `${x?}`, `${!x}`: may fail (or exit the shell). */
const PARAMETER_ERROR = /\$\{[^}]*\?|\$\{!/;
/** `${s:off}`, `${s:off:len}`, `${a[@]:off}`: an offset or length not surely valid. */
const SUBSTRING = /\$\{[#]?\w+(\[[^\]]*\])?:(?![-=+?]|\s*-?\d+(:\d+)?\}|\d+(:\d+)?\})/;
/** An assignment with a subscript not a plain index (`a[-5]=x`, `a[i]=x`). */
const SUBSCRIPT_ASSIGNED = /\[(?!\d+\])[^\]]*\]\+?=/;

/** What may stop a line of one command's text, and the lines' walk. */
export class LineStops {
  readonly anyName: boolean;
  readonly failglob: boolean;
  /** A function it defines may stop the line of any call: every statement may. */
  readonly always: boolean;
  /**
   * The cwds reached since the line being walked may have stopped (null: it may not): the line
   * may end in any of them (the walk adds each node's).
   */
  cwds: Cwds | null = null;

  constructor(readonly source: string, functions: boolean, readonly values: LineValues) {
    this.anyName = MAKES_READONLY.test(source);
    this.failglob = source.includes("failglob");
    this.always = functions && this.mayStop(source, NO_VALUES);
  }

  /**
   * A program's statements line by line, each walked by `walk` where the one before ended: from a
   * statement that may stop its line to the line's end, what is assigned may not have run
   * (`values`), and every cwd reached may be the one the line ends in.
   */
  lines(
    children: (LiteNode | null)[],
    cwds: Cwds,
    walk: (c: LiteNode, at: Cwds, background: boolean) => Flow,
  ): Cwds {
    let cur: Flow = same(cwds);
    let end = 0;
    for (let i = 0; i < children.length; i++) {
      const c = children[i];
      if (!c) continue;
      const gap = this.source.slice(end, c.startIndex).replaceAll("\\\n", "");
      end = Math.max(end, c.endIndex);
      if (gap.includes("\n")) cur = this.#lineEnd(cur);
      if (!c.isNamed) continue;
      const background = nextNode(children, i)?.type === "&";
      const at = reached(union(cur.ok, cur.fail));
      if (!this.cwds && !background && this.#statementMayStop(c)) {
        this.cwds = at;
        this.values.lineMayStop();
      }
      const r = walk(c, at, background);
      if (!background) cur = r;
    }
    cur = this.#lineEnd(cur);
    return union(cur.ok, cur.fail);
  }

  /** The flow at a line's end: where it may have stopped too. */
  #lineEnd(cur: Flow): Flow {
    if (!this.cwds) return cur;
    const out = { ok: union(cur.ok, this.cwds), fail: union(cur.fail, this.cwds) };
    this.cwds = null;
    this.values.lineEnd();
    return out;
  }

  /** Whether a program's statement may stop its line. */
  #statementMayStop(c: LiteNode): boolean {
    // (A subshell's stop, or a pipeline stage's, ends that subshell alone; `lastpipe`, where the
    // last stage runs in the shell, is not analysed: analyze.ts.)
    if (c.type === "subshell" || c.type === "pipeline") return false;
    return this.always || this.mayStop(c.text, this.values);
  }

  /**
   * Whether the statement `text` may stop its line: an arithmetic expansion not surely valid
   * (given the values known where it starts), a parameter's error, a substring or subscript not
   * surely valid, an assignment to a name that may be readonly.
   */
  mayStop(text: string, values: Values): boolean {
    if (this.failglob) return true;
    if (!/[$=]/.test(text)) return false;
    if (this.anyName ? ANY_ASSIGNMENT.test(text) : BASH_READONLY_ASSIGNED.test(text)) return true;
    if (PARAMETER_ERROR.test(text) || SUBSTRING.test(text) || SUBSCRIPT_ASSIGNED.test(text)) {
      return true;
    }
    return arithmeticMayFail(text, values);
  }
}

/** Names a statement's text may assign other than in arithmetic (then not surely numbers). */
const ASSIGNING_BUILTIN =
  /\b(read|mapfile|readarray|printf|getopts|declare|typeset|local|export|eval|source|let|unset|for|select|wait|compgen|shift|set)\b/;

/**
 * Whether an arithmetic expansion of `text` (`$((…))`, `$[…]`) may fail: division, modulo and
 * powers (by zero, negative), assignments (readonly), numbers with a leading 0 or a base, and
 * names not known to hold a decimal number where the statement starts and not assigned in it.
 */
export function arithmeticMayFail(text: string, values: Values): boolean {
  for (let at = text.search(/\$\(\(|\$\[/); at >= 0;) {
    const square = text[at + 1] === "[";
    const [open, close] = square ? ["[", "]"] : ["(", ")"];
    let depth = 0;
    let end = -1;
    for (let i = at + 1; i < text.length; i++) {
      if (text[i] === open) depth++;
      else if (text[i] === close && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) return true;
    const body = text.slice(at + (square ? 2 : 3), square ? end : end - 1);
    if (!surelyValid(body, text, values)) return true;
    const next = text.slice(end + 1).search(/\$\(\(|\$\[/);
    at = next < 0 ? -1 : end + 1 + next;
  }
  return false;
}

/** An arithmetic expression that surely evaluates: see `arithmeticMayFail`. */
function surelyValid(body: string, text: string, values: Values): boolean {
  const lengths = body.replace(/\$\{#\w+\}/g, "1");
  if (/[/%=]|\*\*|\+\+|--|#/.test(lengths)) return false;
  const rest = lengths.replace(
    /\$?\{?([A-Za-z_]\w*)\}?/g,
    (_, name: string) => {
      const k = values.get(name);
      if (k?.kind !== "text" || !/^(0|-?[1-9]\d*)$/.test(k.value)) return "!x";
      if (
        ASSIGNING_BUILTIN.test(text) || new RegExp(`\\b${name}(\\[[^\\]]*\\])?\\+?=`).test(text)
      ) {
        return "!x";
      }
      return "1";
    },
  );
  return !/x|\b0\d/.test(rest) && /^[\d\s+\-*()<>!&|^~?:,]*$/.test(rest);
}
