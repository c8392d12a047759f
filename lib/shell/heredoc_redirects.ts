/**
 * Redirects after a heredoc start that tree-sitter cannot read before a pipe. bash takes the
 * redirects that follow `<<EOF` on its line as the command's (`python3 - <<'EOF' 2>&1 | tail`);
 * tree-sitter reads `2>&1 | tail` as one redirect with an error in it. Where those redirects
 * touch no descriptor the heredoc feeds (nor duplicate one), their order against it changes
 * nothing bash does: they are moved before the heredoc (same length, so the offsets of its body
 * hold), where tree-sitter reads the pipe after it (`python3 - 2>&1 <<'EOF' | tail`). Where they
 * touch it (`cat <<E 0<f | x`, `<<E <&3`), the order would change what the command reads: the
 * command stays one not fully analysed.
 *
 * @module
 */
import type { SyntaxNode } from "./parser.ts";

/** What to do about the redirects after the heredoc starts of a tree with an error. */
export type RedirectOrder =
  | { kind: "moved"; source: string }
  | { kind: "error"; error: string };

/** One redirect of a heredoc's line: where it is, and the descriptors it touches. */
interface Token {
  start: number;
  end: number;
  heredoc: boolean;
  fds: number[];
}

/** Redirect operators, longest first. */
const OPS = ["<<-", "<<<", "<<", "&>>", "&>", ">>", ">|", ">&", "<&", "<>", ">", "<"];

/**
 * `source` with the plain redirects after each heredoc start that holds an error moved before it,
 * or why they cannot be; null where there is nothing to move.
 */
export function heredocRedirectOrder(root: SyntaxNode, source: string): RedirectOrder | null {
  let out = source;
  let moved = false;
  for (const node of root.descendantsOfType("heredoc_redirect")) {
    // (A descriptor glued before it, `3<<E`, is read as an argument: see walk_redirects.ts.)
    if (!node?.hasError || !/[ \t]/.test(source[node.startIndex - 1] ?? "")) continue;
    const tokens = lineRedirects(source, node.startIndex);
    if (tokens === null) continue;
    const heredocs = tokens.filter((t) => t.heredoc);
    const plain = tokens.filter((t) => !t.heredoc);
    const first = tokens.findIndex((t) => !t.heredoc);
    if (first < 0 || heredocs.length === 0) continue;
    const fed = new Set(heredocs.flatMap((t) => t.fds));
    if (plain.some((t) => t.fds.some((fd) => fed.has(fd)))) {
      return {
        kind: "error",
        error: `a redirect after a heredoc that touches its descriptor, at column ${
          plain[0].start + 1
        }`,
      };
    }
    const from = tokens[0].start;
    const to = tokens[tokens.length - 1].end;
    const text = [...plain, ...heredocs].map((t) => source.slice(t.start, t.end)).join(" ");
    if (text.length > to - from) continue;
    out = out.slice(0, from) + text.padEnd(to - from, " ") + out.slice(to);
    moved = true;
  }
  return moved ? { kind: "moved", source: out } : null;
}

/**
 * The redirects from `at` (a heredoc's `<<`) to the end of the command on that line, when that
 * is all there is before an operator, a `)`, a comment or the line's end; null otherwise (a word
 * after them, a descriptor named `{var}`, an expansion that runs something).
 */
function lineRedirects(source: string, at: number): Token[] | null {
  const tokens: Token[] = [];
  let i = at;
  for (;;) {
    while (source[i] === " " || source[i] === "\t") i++;
    const c = source[i];
    if (c === undefined || c === "\n" || c === "|" || c === ";" || c === ")" || c === "#") break;
    if (c === "&" && source[i + 1] !== ">") break;
    const token = redirectAt(source, i);
    if (token === null) return null;
    tokens.push(token);
    i = token.end;
  }
  return tokens.length ? tokens : null;
}

/** The redirect that starts at `i`, or null where none does (or one this does not read). */
function redirectAt(source: string, i: number): Token | null {
  const start = i;
  let digits = "";
  while (/[0-9]/.test(source[i] ?? "")) digits += source[i++];
  const op = OPS.find((o) => source.startsWith(o, i));
  if (!op || (digits && op.startsWith("&"))) return null;
  i += op.length;
  while (source[i] === " " || source[i] === "\t") i++;
  const end = wordEnd(source, i);
  if (end === null || end === i) return null;
  const word = source.slice(i, end);
  const heredoc = op === "<<" || op === "<<-";
  const reads = op.startsWith("<");
  const fd = digits ? Number(digits) : null;
  const fds: number[] = [];
  if (op.startsWith("&") || (op === ">&" && fd === null && !/^(\d+|-)$/.test(word))) {
    fds.push(1, 2);
  } else fds.push(fd ?? (reads ? 0 : 1));
  // (A duplicate touches the descriptor it copies: `2<&0`, `>&0`.)
  if ((op === ">&" || op === "<&") && /^\d+-?$/.test(word)) fds.push(parseInt(word));
  return { start, end, heredoc, fds };
}

/**
 * Where a word starting at `i` ends: quotes and escapes read as bash does; null for a word with
 * an expansion that may run something or change a value (`$(…)`, `` `…` ``, `${x:=v}`), so its
 * order against the heredoc's body stays as written.
 */
function wordEnd(source: string, i: number): number | null {
  for (;;) {
    const c = source[i];
    if (c === undefined || " \t\n|&;<>()".includes(c)) return i;
    if (c === "`") return null;
    if (c === "\\") i += 2;
    else if (c === "'") {
      const close = source.indexOf("'", i + 1);
      if (close < 0) return null;
      i = close + 1;
    } else if (c === "$") {
      const name = /^\$(?:[A-Za-z_]\w*|\{[A-Za-z_]\w*\}|[0-9?#$!@*-])/.exec(source.slice(i));
      if (!name) return null;
      i += name[0].length;
    } else if (c === '"') {
      i++;
      for (; source[i] !== '"'; i++) {
        if (source[i] === undefined || source[i] === "`") return null;
        if (source[i] === "\\") i++;
        else if (source[i] === "$") {
          const name = /^\$(?:[A-Za-z_]\w*|\{[A-Za-z_]\w*\}|[0-9?#$!@*-])/.exec(
            source.slice(i),
          );
          if (!name) return null;
          i += name[0].length - 1;
        }
      }
      i++;
    } else i++;
  }
}
