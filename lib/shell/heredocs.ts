/**
 * Heredocs tree-sitter ends before bash does. bash ends a heredoc at the first line that is its
 * delimiter exactly (after leading tabs, for `<<-`); tree-sitter ends it at the first line that
 * starts with the delimiter after any blanks (`    EOF = "end of input"` in a Python body), and
 * reads the rest of the body as commands — or as the start of another heredoc that hides the
 * commands after bash's real end (`EOF <<X` in the body). Such a heredoc is given a delimiter of
 * the same length that no line of its body starts with, so the offsets hold and tree-sitter reads
 * it as bash does; when that cannot be done the command is not fully analysed.
 *
 * @module
 */
import type { SyntaxNode } from "./parser.ts";

/** How many heredocs of one command are renamed, at most. */
export const MAX_RENAMES = 8;

/** What to do about a command's heredocs. */
export type HeredocRepair =
  | { kind: "rename"; source: string }
  | { kind: "error"; error: string };

/**
 * The first heredoc of `root` that tree-sitter ends before bash does, repaired in `source` (a
 * new delimiter), or the reason it cannot be; null when every heredoc ends where bash ends it.
 * `ends`: where heredocs end at a line that goes on after their delimiter (heredoc_lines.ts).
 */
export function heredocRepair(
  root: SyntaxNode,
  source: string,
  ends: ReadonlySet<number> = new Set(),
): HeredocRepair | null {
  for (const redirect of root.descendantsOfType("heredoc_redirect")) {
    if (!redirect) continue;
    const start = redirect.children.find((c) => c?.type === "heredoc_start");
    const end = redirect.children.find((c) => c?.type === "heredoc_end");
    if (!start || !end) continue;
    // A delimiter word that goes on after the part tree-sitter took (`<<'E'x`, `<<"EO"F`): bash's
    // delimiter is the whole word, which tree-sitter does not end the body at.
    if (/[^\s;&|<>()]/.test(source[start.endIndex] ?? " ")) {
      // Quoted in part (`<<"E"OF`, `<<'E'x`): the whole word quoted, which tree-sitter reads.
      const to = wordEnd(source, start.startIndex);
      const whole = to === null ? null : wholeQuoted(source.slice(start.startIndex, to));
      if (whole !== null) {
        return {
          kind: "rename",
          source: source.slice(0, start.startIndex) + whole + source.slice(to!),
        };
      }
      return {
        kind: "error",
        error: `a heredoc delimiter the parser reads in part, at column ${start.startIndex + 1}`,
      };
    }
    const dash = redirect.children.some((c) => c?.type === "<<-");
    const delimiter = unquoted(start.text);
    const lineStart = source.lastIndexOf("\n", end.startIndex - 1) + 1;
    // Inside `$(…)` bash also ends it at a line `DELIM)`, and the substitution with it (`E); rm x`
    // then runs): tree-sitter reads on to a line `DELIM`.
    if (delimiter !== null && inSubstitution(redirect)) {
      const body = redirect.children.find((c) => c?.type === "heredoc_body");
      const eol = source.indexOf("\n", end.startIndex);
      const to = eol < 0 ? source.length : eol;
      const lines = source.slice(body ? body.startIndex : lineStart, to).split("\n");
      const closes = new RegExp(`^${dash ? "\\t*" : ""}${escapeRegExp(delimiter)}[ \\t]*\\)`);
      if (lines.some((l) => closes.test(l))) {
        return {
          kind: "error",
          error: `a heredoc in a substitution that bash ends at a line "${delimiter})"`,
        };
      }
    }
    if (delimiter !== null && endLine(source, lineStart, dash) === delimiter) continue;
    // (An end line the rest of the heredoc's line was moved to: heredoc_lines.ts.)
    if (ends.has(end.startIndex)) continue;
    const body = redirect.children.find((c) => c?.type === "heredoc_body");
    const from = body ? body.startIndex : lineStart;
    const renamed = delimiter === null ? null : rename(source, start, delimiter, from, dash);
    return renamed === null
      ? {
        kind: "error",
        error: `a heredoc the parser ends before bash does, at column ${end.startIndex + 1}`,
      }
      : { kind: "rename", source: renamed };
  }
  return null;
}

/** Whether a node lies inside `$(…)` or `<(…)`. */
function inSubstitution(node: SyntaxNode): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === "command_substitution" || p.type === "process_substitution") return true;
  }
  return false;
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}

/** The line starting at `at`, without leading tabs for `<<-`. */
function endLine(source: string, at: number, dash: boolean): string {
  let nl = source.indexOf("\n", at);
  if (nl < 0) nl = source.length;
  const line = source.slice(at, nl);
  return dash ? line.replace(/^\t+/, "") : line;
}

/** The delimiter bash takes from a heredoc start word (quotes removed); null if it expands. */
export function unquoted(word: string): string | null {
  let out = "";
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === "'") {
      const close = word.indexOf("'", i + 1);
      if (close < 0) return null;
      out += word.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < word.length && word[j] !== '"'; j++) {
        if (word[j] === "\\" && '$`"\\\n'.includes(word[j + 1])) j++;
        else if (word[j] === "$" || word[j] === "`") return null;
        out += word[j];
      }
      if (j >= word.length) return null;
      i = j;
    } else if (c === "\\") {
      out += word[++i] ?? "";
    } else if (c === "$" || c === "`") return null;
    else out += c;
  }
  return out;
}

/**
 * A quoted heredoc word (`"E"OF`, `E\\OF`, `'E'"O"F`) as one tree-sitter reads whole, of the
 * same length (blanks after it) and the same delimiter, quoted as well (its body literal): `'EOF'`,
 * or `\\EOF` where the word has no room for two quotes; null where its delimiter is no plain name.
 */
export function wholeQuoted(word: string): string | null {
  const delimiter = unquoted(word);
  if (delimiter === null || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(delimiter)) return null;
  if (!/['"\\]/.test(word)) return null;
  const whole = delimiter.length + 2 <= word.length ? `'${delimiter}'` : `\\${delimiter}`;
  return whole.length <= word.length ? whole.padEnd(word.length, " ") : null;
}

/** Where a heredoc's word starting at `i` ends (quotes and escapes read), or null. */
function wordEnd(source: string, i: number): number | null {
  let j = i;
  while (j < source.length && !" \t\n;&|<>()".includes(source[j])) {
    if (source[j] === "'" || source[j] === '"') {
      let k = j + 1;
      for (; k < source.length && source[k] !== source[j]; k++) {
        if (source[k] === "\n") return null;
        if (source[j] === '"' && source[k] === "\\") k++;
      }
      if (k >= source.length) return null;
      j = k + 1;
    } else if (source[j] === "\\") j += 2;
    else j++;
  }
  return j > source.length ? null : j;
}

/** Letters a new delimiter is made of, one per try. */
const LETTERS = "QZXJKVWYHGPMBUNL";

/**
 * `source` with the heredoc's delimiter replaced, in its start word and at the line where bash
 * ends it, by one of the same length that no line of the body starts with (after blanks, as
 * tree-sitter looks); null when the start word is not a plain or wholly quoted name.
 */
function rename(
  source: string,
  start: SyntaxNode,
  delimiter: string,
  from: number,
  dash: boolean,
): string | null {
  const word = start.text;
  const at = [delimiter, `'${delimiter}'`, `"${delimiter}"`, `\\${delimiter}`].indexOf(word);
  if (at < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(delimiter)) return null;
  const inWord = start.startIndex + (at === 0 ? 0 : 1);
  // bash's body: the lines from `from` to the first that is the delimiter (or to the end).
  const lines: string[] = [];
  let endAt = -1;
  for (let pos = from; pos < source.length;) {
    let nl = source.indexOf("\n", pos);
    if (nl < 0) nl = source.length;
    const line = source.slice(pos, nl);
    const bare = dash ? line.replace(/^\t+/, "") : line;
    if (bare === delimiter) {
      endAt = pos + (line.length - bare.length);
      break;
    }
    lines.push(line.trimStart());
    pos = nl + 1;
  }
  for (const letter of LETTERS) {
    const fresh = letter.repeat(delimiter.length);
    if (fresh === delimiter || lines.some((l) => l.startsWith(fresh))) continue;
    let out = source.slice(0, inWord) + fresh + source.slice(inWord + delimiter.length);
    if (endAt >= 0) out = out.slice(0, endAt) + fresh + out.slice(endAt + delimiter.length);
    return out;
  }
  return null;
}
