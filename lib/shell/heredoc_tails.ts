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
 * `\` at its end, a backquote, `((`), a heredoc bash ends nowhere.
 *
 * @module
 */
import { unquoted } from "./heredocs.ts";

/** A move: the source after it, and the range of offsets that moved (`[from, to)`). */
export interface TailMove {
  source: string;
  from: number;
  to: number;
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
    out = out === null
      ? next
      : { ...next, from: Math.min(out.from, next.from), to: Math.max(out.to, next.to) };
  }
  return out;
}

/** The first line's tail moved (see `heredocTailsMoved`), or null. */
function moveOne(source: string): TailMove | null {
  for (let at = 0; at < source.length;) {
    let eol = source.indexOf("\n", at);
    if (eol < 0) eol = source.length;
    const line = scanLine(source, at, eol);
    if (line !== null) {
      const end = bodyEnd(source, eol, line.delimiter, line.dash);
      if (end !== null) {
        const { tail } = line;
        const moved = source.slice(0, tail) + "\n" + source.slice(eol + 1, end) + "\n" +
          source.slice(tail + 1, eol) + source.slice(end);
        return { source: moved, from: tail, to: end };
      }
    }
    at = eol + 1;
  }
  return null;
}

/** What a line with a tail to move holds: where its `;` is, its heredoc's delimiter. */
interface TailLine {
  tail: number;
  delimiter: string;
  dash: boolean;
}

/**
 * The `;` after the one heredoc start of the line `[at, eol)`, read as bash reads the line, and
 * that heredoc's delimiter; null where the line has none, or one not moved (see the module).
 */
function scanLine(source: string, at: number, eol: number): TailLine | null {
  let heredoc: { delimiter: string; dash: boolean } | null = null;
  let depth = 0;
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
    if (c === "'" || (c === "$" && source[i + 1] === "'")) {
      const close = quoteEnd(source, c === "$" ? i + 1 : i, eol, c === "$");
      if (close === null) return null;
      i = close;
      wordStart = false;
      continue;
    }
    if (c === '"') {
      const close = doubleQuoteEnd(source, i, eol);
      if (close === null) return null;
      i = close;
      wordStart = false;
      continue;
    }
    if (c === "#" && wordStart) break;
    if (c === "(") {
      if (source[i + 1] === "(") return null;
      depth++;
    } else if (c === ")") depth--;
    if (c === "<" && source.startsWith("<<", i) && source[i + 2] !== "<") {
      if (heredoc !== null) return null;
      const dash = source[i + 2] === "-";
      let j = i + (dash ? 3 : 2);
      while (source[j] === " " || source[j] === "\t") j++;
      const end = wordEnd(source, j, eol);
      const delimiter = end === null || end === j ? null : unquoted(source.slice(j, end));
      if (delimiter === null || delimiter === "") return null;
      heredoc = { delimiter, dash };
      depth = 0;
      i = end! - 1;
      wordStart = false;
      continue;
    }
    if (c === "<" && source[i + 1] === "<") {
      // (A herestring `<<<`.)
      i += 2;
      continue;
    }
    if ((c === ";" || c === "&") && heredoc !== null) {
      if (c === "&" && (source[i + 1] === "&" || source[i + 1] === ">")) {
        i++;
        wordStart = true;
        continue;
      }
      if (c === "&" && /[<>]$/.test(source.slice(at, i))) continue;
      if (c === "&" || source[i + 1] === ";" || source[i + 1] === "&") return null;
      return restClosed(source, i + 1, eol)
        ? { tail: i, delimiter: heredoc.delimiter, dash: heredoc.dash }
        : null;
    }
    wordStart = " \t;&|()<>".includes(c);
  }
  return null;
}

/**
 * Whether the text `[from, eol)` after the `;` ends on its line: no quote left open, no `(`
 * opened and not closed, no `\` at its end, no backquote, no `((` (bash would read the heredoc's
 * body after a later newline, or the text would not be the same command moved).
 */
function restClosed(source: string, from: number, eol: number): boolean {
  let depth = 0;
  for (let i = from; i < eol; i++) {
    const c = source[i];
    if (c === "`") return false;
    if (c === "\\") {
      if (i + 1 >= eol) return false;
      i++;
    } else if (c === "'" || (c === "$" && source[i + 1] === "'")) {
      const close = quoteEnd(source, c === "$" ? i + 1 : i, eol, c === "$");
      if (close === null) return false;
      i = close;
    } else if (c === '"') {
      const close = doubleQuoteEnd(source, i, eol);
      if (close === null) return false;
      i = close;
    } else if (c === "#" && /[\s;&|()]/.test(source[i - 1] ?? " ")) break;
    else if (c === "(") {
      if (source[i + 1] === "(") return false;
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
    else if (c === "`" || (c === "$" && source[j + 1] === "(")) return null;
    else if (c === '"') return j;
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
