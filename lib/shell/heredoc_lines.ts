/**
 * Lines tree-sitter cannot read after a heredoc start: a second heredoc on the line (`cat <<A
 * <<B`, `cmd <<A 3<<B`, `cat <<A && cat <<B`), a `&` that puts the command in the background
 * (`cat <<EOF > f &`), a `;;` or a `)` after it (`a) cat <<EOF;;`, `(cat <<EOF)`). bash reads the
 * whole line first, then the bodies of its heredocs in order, each up to its delimiter's line;
 * tree-sitter takes nothing after a heredoc start but a pipe, `&&`, `||`, redirects and words, yet
 * goes on reading a line after a heredoc's end (`EOF <<B`, `EOF > f &`) as the same line. Such a
 * line is parsed with the text after its first heredoc's word moved to the end of that heredoc's
 * end line (`cat <<A⏎a⏎A <<B⏎b⏎B`): the same length, every body where it was, the tokens in bash's
 * order. Repeated for the heredocs the moved text holds.
 *
 * Moved only where tree-sitter's reading of the moved text is surely bash's of the line: the line
 * read as bash reads it (quotes, escapes, comments, parentheses), the moved text closed on it (no
 * open quote, `\` at its end, backquote, `((`, `$[`, no `)` closing a substitution, no `<<` or
 * `;` bash reads as part of a word, heredoc_scan.ts), redirects
 * alone between the heredoc and the next operator or heredoc (a word there would be read as a
 * command), and a body bash ends at a line of the delimiter where no line before starts with it
 * (tree-sitter would end it there) nor an unquoted line ends in `\`. The heredocs moved are ended
 * where tree-sitter must end them (`ends`, checked against the tree by source_tree.ts).
 *
 * @module
 */
import { braceEnd, opaqueAt } from "./heredoc_scan.ts";
import { unquoted, wholeQuoted } from "./heredocs.ts";

/** A move: the source after it, the offsets of the moved end lines' delimiters, its range. */
export interface LineMove {
  source: string;
  ends: number[];
  from: number;
  to: number;
}

/** The most lines moved in one command. */
const MAX_MOVES = 8;

/**
 * `source` with the text after the first heredoc of each line tree-sitter cannot read moved to
 * that heredoc's end line (see the module); null where none is.
 */
export function heredocLinesMoved(source: string): LineMove | null {
  let out: LineMove | null = null;
  for (let n = 0; n < MAX_MOVES; n++) {
    const next = moveOne(out?.source ?? source, out?.ends ?? []);
    if (next === null) break;
    out = out === null
      ? next
      : { ...next, from: Math.min(out.from, next.from), to: Math.max(out.to, next.to) };
  }
  return out;
}

/** A heredoc start on a line: where its word ends, its delimiter, `<<-`, a quoted word. */
interface Start {
  wordStart: number;
  wordEnd: number;
  delimiter: string;
  dash: boolean;
  quoted: boolean;
}

/** What a line (or the rest of a moved end line) holds: its heredocs, whether to move it. */
interface Segment {
  starts: Start[];
  move: boolean;
  /** Parentheses open at its end (`(` and substitutions), for the line's moved rest. */
  stack: Paren[];
}

/** An open parenthesis: a subshell or group `(`, or a substitution `$(`, `<(`, `>(`. */
type Paren = "group" | "sub";

/** The first segment's move (see `heredocLinesMoved`), or null. */
function moveOne(source: string, ends: number[]): LineMove | null {
  const moved = new Set(ends);
  let at = 0;
  let stack: Paren[] = [];
  while (at < source.length) {
    let eol = source.indexOf("\n", at);
    if (eol < 0) eol = source.length;
    const segment = scanSegment(source, at, eol, stack);
    if (segment === null) return null;
    // The bodies, one after the other from the next line (bash ends each).
    const bodies: BodyEnd[] = [];
    for (const [k, start] of segment.starts.entries()) {
      const from = k === 0 ? eol + 1 : bodies[k - 1].lineEnd + 1;
      const end = bodyEnd(source, from, start, moved, k === 0 && segment.move);
      if (end === null) return null;
      bodies.push(end);
    }
    let next = eol + 1;
    stack = [];
    for (const [k, start] of segment.starts.entries()) {
      const end = bodies[k];
      if (k === 0 && segment.move) {
        const cut = start.wordEnd;
        const shift = eol - cut;
        // (A word quoted in part, `"E"OF`, quoted whole: tree-sitter reads it in part.)
        const word = source.slice(start.wordStart, cut);
        const d = start.delimiter;
        const plain = [d, `'${d}'`, `"${d}"`, `\\${d}`].includes(word) ? word : wholeQuoted(word);
        if (plain === null) return null;
        const out = source.slice(0, start.wordStart) + plain + source.slice(eol, end.lineEnd) +
          source.slice(cut, eol) + source.slice(end.lineEnd);
        const to = (i: number) => (i >= eol && i < end.lineEnd ? i - shift : i);
        return {
          source: out,
          ends: [...ends.map(to), end.delimiterAt - shift],
          from: cut,
          to: end.lineEnd,
        };
      }
      next = end.lineEnd + 1;
      if (moved.has(end.delimiterAt)) {
        // A moved end line goes on with the rest of the line it was moved from.
        if (k !== segment.starts.length - 1) return null;
        next = end.delimiterAt + start.delimiter.length;
        stack = segment.stack;
      }
    }
    at = next;
  }
  return null;
}

/** A heredoc's end line: where it starts and ends, where its delimiter is. */
interface BodyEnd {
  lineStart: number;
  delimiterAt: number;
  lineEnd: number;
}

/** Where bash ends a heredoc whose body starts at `from` (see `BodyEnd`). */
function bodyEnd(
  source: string,
  from: number,
  start: Start,
  moved: ReadonlySet<number>,
  strict: boolean,
): BodyEnd | null {
  const { delimiter, dash } = start;
  for (let at = from; at < source.length;) {
    let nl = source.indexOf("\n", at);
    if (nl < 0) nl = source.length;
    const line = source.slice(at, nl);
    const bare = dash ? line.replace(/^\t+/, "") : line;
    const delimiterAt = at + line.length - bare.length;
    if (bare === delimiter || (moved.has(delimiterAt) && bare.startsWith(delimiter))) {
      return { lineStart: at, delimiterAt, lineEnd: nl };
    }
    // (tree-sitter ends a body at a line that starts with its delimiter after blanks; bash
    // joins an unquoted body's line ending in `\` to the next.)
    if (strict && line.trimStart().startsWith(delimiter)) return null;
    if (!start.quoted && line.endsWith("\\")) return null;
    at = nl + 1;
  }
  return null;
}

/** Redirect operators, longest first (a `<<` heredoc is read apart). */
const REDIRECT_OPS = ["<<<", "&>>", "&>", ">>", ">|", ">&", "<&", "<>", ">", "<"];
/** Control operators, longest first. */
const CONTROL_OPS = [";;&", ";;", ";&", "&&", "||", "|&", "|", ";", "&"];

/**
 * The heredoc starts of the segment `[at, eol)` read as bash reads it, and whether the text after
 * the first is to be moved; null where the segment is not read here (see the module).
 */
function scanSegment(source: string, at: number, eol: number, carried: Paren[]): Segment | null {
  const stack = [...carried];
  const starts: Start[] = [];
  let move = false;
  // After the first heredoc: whether only redirects may come before an operator or heredoc.
  let strictTail = false;
  let wordInTail = false;
  let base = 0;
  let wordStart = true;
  for (let i = at; i < eol;) {
    const c = source[i];
    if (c === " " || c === "\t") {
      i++;
      wordStart = true;
      continue;
    }
    if (c === "#" && wordStart) break;
    // (`${…}`, `$[…]`, `((…))`, `[[…]]`, a subscript: bash reads a `<<` or `;` in them whole.)
    const skip = opaqueAt(source, i, eol, wordStart);
    if (skip === null) return null;
    if (skip !== "read") {
      wordInTail ||= strictTail;
      i = skip;
      wordStart = false;
      continue;
    }
    if (c === "<" && source.startsWith("<<", i) && source[i + 2] !== "<") {
      const start = heredocStart(source, i, eol);
      if (start === null) return null;
      if (starts.length) move = true;
      else {
        base = stack.length;
        strictTail = true;
      }
      starts.push(start);
      i = start.wordEnd;
      wordStart = false;
      continue;
    }
    const control = CONTROL_OPS.find((o) => source.startsWith(o, i));
    if (control && !source.startsWith("&>", i)) {
      if (starts.length && (control.startsWith(";") || control === "&")) move = true;
      strictTail = false;
      i += control.length;
      wordStart = true;
      continue;
    }
    if (c === "(" || c === ")") {
      if (c === "(") stack.push("group");
      else if (starts.length) {
        // Closing a parenthesis of the line before the heredoc: a subshell alone.
        if (stack.length <= base) {
          if (stack.length === 0 || stack[stack.length - 1] !== "group") return null;
          base--;
          move = true;
        }
        stack.pop();
      } else stack.pop();
      strictTail = false;
      i++;
      wordStart = true;
      continue;
    }
    // A redirect: its descriptor, operator and word.
    const digits = /^[0-9]*/.exec(source.slice(i, i + 12))![0];
    if (digits && source.startsWith("<<", i + digits.length)) {
      i += digits.length;
      continue;
    }
    const op = REDIRECT_OPS.find((o) => source.startsWith(o, i + digits.length));
    if (op && !(digits && op.startsWith("&"))) {
      if (source[i + digits.length + op.length] === "(") {
        // A process substitution `<(…)`: a word.
        if (digits || op.length !== 1) return null;
        wordInTail ||= strictTail;
        stack.push("sub");
        i += 2;
        continue;
      }
      i += digits.length + op.length;
      while (source[i] === " " || source[i] === "\t") i++;
      const end = wordEnd(source, i, eol, stack);
      if (end === null || end === i) return null;
      i = end;
      wordStart = false;
      continue;
    }
    wordInTail ||= strictTail;
    const end = wordEnd(source, i, eol, stack);
    if (end === null) return null;
    i = end === i ? i + 1 : end;
    wordStart = false;
  }
  return { starts, move: move && !wordInTail, stack };
}

/** The heredoc start at `i` (a `<<` or `<<-`), or null where its word is not read here. */
function heredocStart(source: string, i: number, eol: number): Start | null {
  const dash = source[i + 2] === "-";
  let j = i + (dash ? 3 : 2);
  while (source[j] === " " || source[j] === "\t") j++;
  const end = wordEnd(source, j, eol, []);
  if (end === null || end === j) return null;
  const word = source.slice(j, end);
  const delimiter = unquoted(word);
  if (delimiter === null || delimiter === "" || /\s/.test(delimiter)) return null;
  return { wordStart: j, wordEnd: end, delimiter, dash, quoted: /['"\\]/.test(word) };
}

/**
 * Where a word starting at `i` ends (quotes, escapes, `${name}` read), a `$(` opening a
 * substitution pushed on `stack` (its text is scanned as commands); null for what is not read
 * here (a quote left open, `\` at the line's end, a `$(` or backquote in double quotes).
 */
function wordEnd(source: string, i: number, eol: number, stack: Paren[]): number | null {
  while (i < eol) {
    const c = source[i];
    if (" \t;&|<>()".includes(c)) return i;
    if (c === "`") return null;
    if (c === "\\") {
      if (i + 1 >= eol) return null;
      i += 2;
    } else if (c === "'" || (c === "$" && source[i + 1] === "'")) {
      const open = c === "$" ? i + 1 : i;
      let j = open + 1;
      for (; j < eol && source[j] !== "'"; j++) if (c === "$" && source[j] === "\\") j++;
      if (j >= eol) return null;
      i = j + 1;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < eol && source[j] !== '"'; j++) {
        if (source[j] === "\\") j++;
        else if (source[j] === "`" || /^\$[([]/.test(source.slice(j, j + 2))) return null;
        else if (source.startsWith("${", j)) {
          const close = braceEnd(source, j, eol);
          if (close === null) return null;
          j = close - 1;
        }
      }
      if (j >= eol) return null;
      i = j + 1;
    } else if (c === "$" && source[i + 1] === "(") {
      if (source[i + 2] === "(") return null;
      stack.push("sub");
      return i + 2;
    } else if (c === "$" && source[i + 1] === "{") {
      const close = braceEnd(source, i, eol);
      if (close === null) return null;
      i = close;
    } else if (c === "$" && source[i + 1] === "[") return null;
    else i++;
  }
  return i;
}
