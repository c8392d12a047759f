/**
 * Commands after a heredoc on its line, behind a `;`: bash runs `cat <<EOF; echo done` (the
 * body on the lines after) as `cat <<EOF`, then `echo done`; tree-sitter takes nothing after a
 * heredoc's start but a pipe, `&&`, `||` or redirects, and reads the `;` as an error. Such a line
 * is parsed with the text after the `;` moved to a line of its own after the heredoc's end line
 * (`cat <<EOF⏎body⏎EOF⏎ echo done`): the `;` becomes that line's newline, so the length holds
 * (the offsets before the `;` and after the end line too), and bash runs both texts alike
 * (heredoc_tails_test.ts runs them). Not moved, the command staying one with an error: a `&`
 * (the command would no longer be put in the background), `;;`/`;&` (a `case` item's end), two
 * heredocs before the `;`, a line whose words go on past it (an open quote or parenthesis, a
 * `\` at its end, a backquote, `((`), a heredoc bash ends nowhere. A `<<` or `;` bash reads as
 * part of a word (in `${…}`, `$[…]`, `[[…]]`, a subscript) is skipped, or the line not moved
 * (heredoc_scan.ts).
 *
 * @module
 */
import { braceEnd, opaqueAt } from "./heredoc_scan.ts";
import { unquoted } from "./heredocs.ts";

/**
 * A move: the source after it, the range of offsets that moved (`[from, to)`), and where each
 * heredoc whose tail moved starts (its `<<`) and ends (its delimiter on its end line) in it.
 */
export interface TailMove {
  source: string;
  from: number;
  to: number;
  heredocs: { start: number; end: number }[];
}

/** The most lines moved in one command. */
const MAX_MOVES = 8;

/**
 * `source` with the text after a `;` that follows a heredoc's start on its line moved after the
 * heredoc's end (repeated for each such line, the lines moved included); null where none is.
 */
export function heredocTailsMoved(source: string): TailMove | null {
  let out: TailMove | null = null;
  for (let n = 0; n < MAX_MOVES; n++) {
    const next = moveOne(out?.source ?? source);
    if (next === null) break;
    if (out === null) {
      out = { ...next.move, heredocs: [next.heredoc] };
      continue;
    }
    const { tail, eol, end } = next;
    const to = (p: number) =>
      p <= tail || p >= end ? p : p > eol ? p - (eol - tail) : p + (end - eol);
    out = {
      ...next.move,
      from: Math.min(out.from, next.move.from),
      to: Math.max(out.to, next.move.to),
      heredocs: [
        ...out.heredocs.map((h) => ({ start: to(h.start), end: to(h.end) })),
        next.heredoc,
      ],
    };
  }
  return out;
}

/** One move: the source after it, and the offsets it was made at. */
interface OneMove {
  move: Omit<TailMove, "heredocs">;
  heredoc: { start: number; end: number };
  tail: number;
  eol: number;
  end: number;
}

/**
 * The first line's tail moved (see `heredocTailsMoved`), or null. The lines are read in bash's
 * order from the first, the bodies of heredocs skipped; a line not read (an open quote, a `\` at
 * its end, a part heredoc_scan.ts bails on) ends the search, bash's next line being unknown.
 */
function moveOne(source: string): OneMove | null {
  for (let at = 0; at < source.length;) {
    let eol = source.indexOf("\n", at);
    if (eol < 0) eol = source.length;
    const line = scanLine(source, at, eol);
    if (line === null) return null;
    if (line.tail !== null) {
      const [{ delimiter, dash, start }] = line.heredocs;
      const end = bodyEnd(source, eol, delimiter, dash);
      if (end === null) return null;
      const { tail } = line;
      const moved = source.slice(0, tail) + "\n" + source.slice(eol + 1, end) + "\n" +
        source.slice(tail + 1, eol) + source.slice(end);
      return {
        move: { source: moved, from: tail, to: end },
        heredoc: { start, end: end - delimiter.length - (eol - tail) },
        tail,
        eol,
        end,
      };
    }
    // The bodies of the line's heredocs, one after the other.
    let next = eol;
    for (const h of line.heredocs) {
      const end = bodyEnd(source, next, h.delimiter, h.dash);
      if (end === null) return null;
      next = end;
    }
    at = next + 1;
  }
  return null;
}

/** A heredoc start on a line: its `<<`, its delimiter, whether it is `<<-`. */
interface Start {
  start: number;
  delimiter: string;
  dash: boolean;
}

/** What a line holds: its heredocs, and the `;` whose tail is moved (after the first alone). */
interface TailLine {
  heredocs: Start[];
  tail: number | null;
}

/**
 * The heredoc starts of the line `[at, eol)` read as bash reads it, and the `;` after the first
 * whose tail is to be moved, if any; null where the line is not read here (see the module).
 */
function scanLine(source: string, at: number, eol: number): TailLine | null {
  const heredocs: Start[] = [];
  let tail: number | null = null;
  // Whether a `;` or `&` was met after the first heredoc (a later one's tail is not moved).
  let ended = false;
  let wordStart = true;
  for (let i = at; i < eol; i++) {
    const c = source[i];
    if (c === "`") return null;
    if (c === "\\") {
      if (i + 1 >= eol) return null;
      i++;
      wordStart = false;
      continue;
    }
    if (c === "'" || c === '"' || (c === "$" && source[i + 1] === "'")) {
      const close = c === '"'
        ? doubleQuoteEnd(source, i, eol)
        : quoteEnd(source, c === "$" ? i + 1 : i, eol, c === "$");
      if (close === null) return null;
      i = close;
      wordStart = false;
      continue;
    }
    if (c === "#" && wordStart) break;
    // (`${…}`, `$[…]`, `((…))`, `[[…]]`, a subscript: bash reads a `<<` or `;` in them whole.)
    const skip = opaqueAt(source, i, eol, wordStart);
    if (skip === null) return null;
    if (skip !== "read") {
      i = skip - 1;
      wordStart = false;
      continue;
    }
    if (c === "<" && source.startsWith("<<", i) && source[i + 2] !== "<") {
      const dash = source[i + 2] === "-";
      let j = i + (dash ? 3 : 2);
      while (source[j] === " " || source[j] === "\t") j++;
      const end = wordEnd(source, j, eol);
      const delimiter = end === null || end === j ? null : unquoted(source.slice(j, end));
      if (delimiter === null || delimiter === "") return null;
      heredocs.push({ start: i, delimiter, dash });
      i = end! - 1;
      wordStart = false;
      continue;
    }
    if (c === "<" && source[i + 1] === "<") {
      // (A herestring `<<<`.)
      i += 2;
      continue;
    }
    if (c === ";" || c === "&") {
      if (c === "&" && (source[i + 1] === "&" || source[i + 1] === ">")) {
        i++;
        wordStart = true;
        continue;
      }
      if (c === "&" && /[<>]$/.test(source.slice(at, i))) continue;
      if (heredocs.length === 1 && !ended && c === ";" && !";&".includes(source[i + 1])) {
        tail = restClosed(source, i + 1, eol) ? i : null;
      }
      if (heredocs.length) ended = true;
      if (source[i + 1] === ";" || source[i + 1] === "&") i++;
    }
    wordStart = " \t;&|()<>".includes(c);
  }
  return { heredocs, tail };
}

/**
 * Whether the text `[from, eol)` after the `;` ends on its line: no quote left open, no `(`
 * opened and not closed, no `\` at its end, nothing heredoc_scan.ts bails on (bash would read
 * the heredoc's body after a later newline, or the text would not be the same command moved).
 */
function restClosed(source: string, from: number, eol: number): boolean {
  let depth = 0;
  for (let i = from; i < eol; i++) {
    const c = source[i];
    if (c === "`") return false;
    if (c === "\\") {
      if (i + 1 >= eol) return false;
      i++;
      continue;
    }
    if (c === "'" || c === '"' || (c === "$" && source[i + 1] === "'")) {
      const close = c === '"'
        ? doubleQuoteEnd(source, i, eol)
        : quoteEnd(source, c === "$" ? i + 1 : i, eol, c === "$");
      if (close === null) return false;
      i = close;
      continue;
    }
    const wordStart = /[\s;&|()<>]/.test(source[i - 1] ?? " ");
    if (c === "#" && wordStart) break;
    const skip = opaqueAt(source, i, eol, wordStart);
    if (skip === null) return false;
    if (skip !== "read") i = skip - 1;
    else if (c === "(") {
      depth++;
    } else if (c === ")") depth--;
    else if (c === "{" && /[\s;&|()]/.test(source[i - 1] ?? " ")) depth++;
    else if (c === "}" && /[\s;]/.test(source[i - 1] ?? " ")) depth--;
  }
  return depth <= 0;
}

/** The offset of the `'` closing the quote opened at `i` (`$'…'`: escapes read), or null. */
function quoteEnd(source: string, i: number, eol: number, escapes: boolean): number | null {
  for (let j = i + 1; j < eol; j++) {
    if (escapes && source[j] === "\\") j++;
    else if (source[j] === "'") return j;
  }
  return null;
}

/** The offset of the `"` closing the quote opened at `i`, or null (a `$(`, a backquote). */
function doubleQuoteEnd(source: string, i: number, eol: number): number | null {
  for (let j = i + 1; j < eol; j++) {
    const c = source[j];
    if (c === "\\") j++;
    else if (c === "`" || (c === "$" && "([".includes(source[j + 1]))) return null;
    else if (c === "$" && source[j + 1] === "{") {
      const close = braceEnd(source, j, eol);
      if (close === null) return null;
      j = close - 1;
    } else if (c === '"') return j;
  }
  return null;
}

/** Where a heredoc's delimiter word starting at `i` ends (quotes read), or null. */
function wordEnd(source: string, i: number, eol: number): number | null {
  let j = i;
  while (j < eol && !" \t;&|<>()".includes(source[j])) {
    if (source[j] === "'" || source[j] === '"') {
      const close = source.indexOf(source[j], j + 1);
      if (close < 0 || close >= eol) return null;
      j = close + 1;
    } else if (source[j] === "\\") j += 2;
    else j++;
  }
  return j > eol ? null : j;
}

/**
 * The end of the line (before its newline) where bash ends a heredoc whose body starts after
 * `eol`: the first line that is the delimiter (after leading tabs, for `<<-`); null where none
 * is, or where a body line ends in `\` (an unquoted body joins it to the next).
 */
function bodyEnd(source: string, eol: number, delimiter: string, dash: boolean): number | null {
  if (eol >= source.length) return null;
  for (let at = eol + 1; at <= source.length;) {
    let nl = source.indexOf("\n", at);
    if (nl < 0) nl = source.length;
    const line = source.slice(at, nl);
    if ((dash ? line.replace(/^\t+/, "") : line) === delimiter) return nl;
    if (line.endsWith("\\")) return null;
    if (nl >= source.length) return null;
    at = nl + 1;
  }
  return null;
}
