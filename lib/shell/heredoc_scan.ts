/**
 * What the heredoc repairs' line scanners (heredoc_tails.ts, heredoc_lines.ts) must not read
 * char by char: parts of a line where bash takes `<<`, `;`, `&` or a parenthesis as part of a
 * word, not as a heredoc's start or an operator. bash reads whole `${…}` (`${x:-<<z}`,
 * `${x/<</y}`), `$[…]` and `$((…))` (`$[1<<2]`), `((…))`, `[[…]]`, an array subscript in an
 * assignment word (`a[1<<2]=3` at a command's start; any word inside a compound assignment
 * `f=(a [1<<2]=b)`) and backquotes. A scanner skips the plain ones (`${…}` without quotes or
 * substitutions in it, `[[…]]` on one line, a subscript with no blank or operator in it) and
 * bails on the others: the command then stays one with an error, never moved into another order.
 *
 * @module
 */

/** What the scanner does at an offset: go on (`"read"`), skip to an offset, or bail (`null`). */
export type Opaque = "read" | number | null;

/**
 * What a line scanner does at `i` (outside quotes, before `eol`): `"read"` where nothing bash
 * reads whole starts there, the offset after it where the scanner may skip it (`${…}`, `[[…]]`),
 * null where the scanner must bail. `wordStart`: whether a word starts at `i`.
 */
export function opaqueAt(source: string, i: number, eol: number, wordStart: boolean): Opaque {
  const c = source[i];
  if (c === "`") return null;
  if (c === "$") {
    const d = source[i + 1];
    if (d === "[") return null;
    if (d === "{") return braceEnd(source, i, eol);
    return "read";
  }
  if (c === "(") {
    // `((…))`, `$((…))`; a compound assignment `f=(…)`, `f+=(…)`.
    if (source[i + 1] === "(" || source[i - 1] === "=") return null;
    return "read";
  }
  if (!wordStart) return "read";
  if (c === "[" && source[i + 1] === "[" && /[ \t]/.test(source[i + 2] ?? "")) {
    return testEnd(source, i + 2, eol);
  }
  const name = /^[A-Za-z_][A-Za-z0-9_]*\[/.exec(source.slice(i, i + 256));
  if (name) {
    // An assignment's subscript: bash reads it to its `]` (blanks, `<<`, `;` in it included).
    const from = i + name[0].length;
    const close = source.indexOf("]", from);
    if (close < 0 || close >= eol || /[\s<>;&|()'"`\\{[]/.test(source.slice(from, close))) {
      return null;
    }
  }
  return "read";
}

/**
 * The offset after the `}` closing the `${` at `i` (nested `${…}` and escapes read), or null
 * where it holds a quote, a substitution, `$[`, or does not close on the line.
 */
export function braceEnd(source: string, i: number, eol: number): number | null {
  let depth = 0;
  for (let j = i; j < eol; j++) {
    const c = source[j];
    if (c === "\\") {
      if (j + 1 >= eol) return null;
      j++;
    } else if (c === "'" || c === '"' || c === "`") return null;
    else if (c === "$" && (source[j + 1] === "(" || source[j + 1] === "[")) return null;
    else if (c === "$" && source[j + 1] === "{") {
      depth++;
      j++;
    } else if (c === "}" && --depth === 0) return j + 1;
  }
  return null;
}

/**
 * The offset after the `]]` that ends a `[[` test whose words start at `from`: the first `]]`
 * after a blank, before a blank, an operator or the line's end (quotes read); null where the test
 * holds a substitution, `$[`, `<<` or goes on past the line.
 */
function testEnd(source: string, from: number, eol: number): number | null {
  let blank = true;
  for (let j = from; j < eol; j++) {
    const c = source[j];
    if (
      blank && c === "]" && source[j + 1] === "]" &&
      (j + 2 >= eol || " \t;&|)".includes(source[j + 2]))
    ) return j + 2;
    blank = c === " " || c === "\t";
    if (c === "\\") {
      if (j + 1 >= eol) return null;
      j++;
    } else if (c === "'") {
      j = source.indexOf("'", j + 1);
      if (j < 0 || j >= eol) return null;
    } else if (c === '"') {
      for (j++; j < eol && source[j] !== '"'; j++) {
        if (source[j] === "\\") j++;
        else if (source[j] === "`" || source[j] === "$" && "([".includes(source[j + 1])) {
          return null;
        } else if (source[j] === "$" && source[j + 1] === "{") {
          const close = braceEnd(source, j, eol);
          if (close === null) return null;
          j = close - 1;
        }
      }
      if (j >= eol) return null;
    } else if (c === "$" && source[j + 1] === "{") {
      const close = braceEnd(source, j, eol);
      if (close === null) return null;
      j = close - 1;
    } else if (c === "`" || c === "$" && "([".includes(source[j + 1])) return null;
    else if (c === "<" && source[j + 1] === "<") return null;
  }
  return null;
}
