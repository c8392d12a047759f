/**
 * Shell source to a syntax tree: the plain-command reader's tree when it can read the command,
 * else tree-sitter's, copied into plain nodes (the same shape either way), with the `<>`
 * operators tree-sitter does not know.
 *
 * @module
 */
import { heredocLinesMoved } from "./heredoc_lines.ts";
import { heredocRedirectOrder } from "./heredoc_redirects.ts";
import { heredocTailsMoved } from "./heredoc_tails.ts";
import { heredocRepair, MAX_RENAMES, unquoted } from "./heredocs.ts";
import type { BashParser, SyntaxNode } from "./parser.ts";
import { simpleTree } from "./simple_tree.ts";
import { type LiteNode, liteTree } from "./syntax_tree.ts";

/** No `<>` operators (shared; never changed). */
const NO_OFFSETS: ReadonlySet<number> = new Set();

type Tree = NonNullable<ReturnType<BashParser["parse"]>>;

/** A parsed command: its tree, the source the tree is of, and where `<>` operators were. */
export interface ParsedSource {
  root: LiteNode;
  /** The source parsed (each `<>` read as `>>`, same length). */
  source: string;
  /** Offsets of the `<>` operators. */
  readWrite: ReadonlySet<number>;
  /** Why the tree is not the command bash reads, when it is known not to be. */
  error?: string;
  /** The offsets `[from, to)` whose text heredoc_lines.ts moved (line continuations must not be). */
  moved?: [number, number];
}

/**
 * Parse shell source. tree-sitter-bash does not know `<>` (open read-write): such operators are
 * parsed as `>>` (same length, so offsets hold) and their offsets returned. Heredocs it would end
 * before bash does are parsed with another delimiter of the same length (heredocs.ts).
 */
export function parseSource(
  parser: BashParser,
  text: string,
): ParsedSource | null {
  // Plain commands (most of them) are read without tree-sitter, into the very same tree.
  const simple = simpleTree(text);
  if (simple) return { root: simple, source: text, readWrite: NO_OFFSETS };
  let source = text;
  let tree: Tree | null = parser.parse(source);
  if (!tree) return null;
  // A quoted heredoc whose body starts with `\` is read by tree-sitter as the body going on the
  // line it starts on: parsed with a letter there (the body is literal text to bash, so the tree
  // is the same), kept only where that letter is then inside a heredoc's body, the text given
  // back to the tree as it is.
  let hidden = text.includes("<<") && text.includes("\n\\")
    ? leadingBackslashes(tree.rootNode, text)
    : [];
  if (hidden.length) {
    for (const i of hidden) source = source.slice(0, i) + "x" + source.slice(i + 1);
    const repaired = parser.parse(source);
    if (repaired && hidden.every((i) => inHeredocBody(repaired.rootNode, i))) {
      tree.delete();
      tree = repaired;
    } else {
      repaired?.delete();
      source = text;
      hidden = [];
    }
  }
  try {
    const readWrite = readWriteOps(tree.rootNode, source);
    if (readWrite.size) {
      for (const i of readWrite) source = source.slice(0, i) + ">>" + source.slice(i + 2);
      tree.delete();
      tree = parser.parse(source);
      if (!tree) return null;
    }
    let error: string | undefined;
    // Commands after a heredoc behind a `;` on its line are moved after its body, as bash runs
    // them (heredoc_tails.ts); not where a `<>` or a hidden `\` lies in what moves.
    if (tree.rootNode.hasError && source.includes("<<")) {
      const moved = heredocTailsMoved(source);
      const still = (i: number) => moved !== null && (i < moved.from || i >= moved.to);
      if (moved && [...readWrite].every(still) && hidden.every(still)) {
        // Kept where tree-sitter reads each heredoc the scanner saw where it saw it.
        const next = parser.parse(moved.source);
        if (next && heredocsRead(next.rootNode, moved.heredocs)) {
          tree.delete();
          tree = next;
          source = moved.source;
        } else next?.delete();
      }
    }
    // Redirects after a heredoc start that tree-sitter reads into an error before a pipe are
    // parsed before it, where bash's order allows (heredoc_redirects.ts).
    if (tree.rootNode.hasError && source.includes("<<")) {
      const order = heredocRedirectOrder(tree.rootNode, source);
      if (order?.kind === "error") error = order.error;
      else if (order) {
        const moved = parser.parse(order.source);
        if (moved && !moved.rootNode.hasError) {
          tree.delete();
          tree = moved;
          source = order.source;
        } else moved?.delete();
      }
    }
    // Lines tree-sitter cannot read after a heredoc start (a second heredoc, `&`, `;;`, `)`) are
    // parsed with their rest moved to the end line of the heredoc (heredoc_lines.ts), kept where
    // tree-sitter ends each moved heredoc there.
    let ends: ReadonlySet<number> = NO_OFFSETS;
    let moved: [number, number] | undefined;
    if (
      error === undefined && source.includes("<<") &&
      (tree.rootNode.hasError || heredocInHeredoc(tree.rootNode))
    ) {
      const lines = heredocLinesMoved(source);
      const still = (i: number) => lines !== null && (i < lines.from || i >= lines.to);
      if (lines && [...readWrite].every(still) && hidden.every(still)) {
        const next = parser.parse(lines.source);
        if (next && endsRead(next.rootNode, lines.ends)) {
          tree.delete();
          tree = next;
          source = lines.source;
          ends = new Set(lines.ends);
          moved = [lines.from, lines.to];
        } else next?.delete();
      }
    }
    // Heredocs tree-sitter ends too early get delimiters it reads as bash does (heredocs.ts).
    for (let n = 0; source.includes("<<"); n++) {
      const repair = heredocRepair(tree.rootNode, source, ends);
      if (repair === null) break;
      if (repair.kind === "error" || n === MAX_RENAMES) {
        error = repair.kind === "error" ? repair.error : "too many heredocs the parser misreads";
        break;
      }
      source = repair.source;
      tree.delete();
      tree = parser.parse(source);
      if (!tree) return null;
    }
    for (const i of hidden) source = source.slice(0, i) + "\\" + source.slice(i + 1);
    // One cursor pass copies the tree into plain objects; the WASM tree is freed at once.
    const root = liteTree(tree.rootNode, source);
    const out: ParsedSource = { root, source, readWrite };
    if (error) out.error = error;
    if (moved) out.moved = moved;
    return out;
  } finally {
    tree?.delete();
  }
}

/**
 * Offsets of the `\` that starts the first body line of a quoted heredoc tree-sitter found
 * (`<<'EOF'`, `<<"EOF"`, `<<\EOF`, the one heredoc its line starts), where a letter there leaves
 * that line other than the delimiter.
 */
function leadingBackslashes(root: SyntaxNode, text: string): number[] {
  const out: number[] = [];
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    for (const c of n.children) if (c) stack.push(c);
    if (n.type !== "heredoc_redirect") continue;
    const start = n.children.find((c) => c?.type === "heredoc_start");
    if (!start || !/^(['"\\])/.test(start.text)) continue;
    const from = text.lastIndexOf("\n", n.startIndex) + 1;
    const eol = text.indexOf("\n", start.endIndex);
    if (eol < 0 || text[eol + 1] !== "\\") continue;
    if ((text.slice(from, eol).match(/<</g) ?? []).length !== 1) continue;
    const end = text.indexOf("\n", eol + 1);
    const first = "x" + text.slice(eol + 2, end < 0 ? text.length : end);
    if (first !== start.text.replace(/^\\|^['"]|['"]$/g, "")) out.push(eol + 1);
  }
  return out;
}

/**
 * Whether tree-sitter read a heredoc into the line of another (`cat <<A && cat <<B`, where the
 * first body holds a line `B`): its body then is not bash's (the walk refuses it).
 */
function heredocInHeredoc(root: SyntaxNode): boolean {
  for (const n of root.descendantsOfType("heredoc_redirect")) {
    for (const c of n?.namedChildren ?? []) {
      if (c && c.type !== "heredoc_body" && c.descendantsOfType("heredoc_redirect").length) {
        return true;
      }
    }
  }
  return false;
}

/** Whether a heredoc of the tree ends at each offset, at its delimiter (heredoc_lines.ts). */
function endsRead(root: SyntaxNode, ends: number[]): boolean {
  const found = new Set<number>();
  for (const n of root.descendantsOfType("heredoc_end")) {
    if (!n || !ends.includes(n.startIndex)) continue;
    const start = n.parent?.children.find((c) => c?.type === "heredoc_start");
    if (start && unquoted(start.text) === n.text) found.add(n.startIndex);
  }
  return found.size === ends.length;
}

/**
 * Whether the tree holds a heredoc at each `start` (its `<<`) that it ends at `end` (its
 * delimiter's line), as heredoc_tails.ts saw them.
 */
function heredocsRead(root: SyntaxNode, heredocs: { start: number; end: number }[]): boolean {
  const found = root.descendantsOfType("heredoc_redirect");
  return heredocs.every(({ start, end }) =>
    found.some((n) => {
      const first = n?.children[0];
      if (!first || first.startIndex !== start || !first.type.startsWith("<<")) return false;
      const word = n!.children.find((c) => c?.type === "heredoc_start");
      const last = n!.children.find((c) => c?.type === "heredoc_end");
      return !!word && !!last && last.startIndex === end && unquoted(word.text) === last.text;
    })
  );
}

/** Whether an offset lies inside a heredoc's body in a tree. */
function inHeredocBody(root: SyntaxNode, at: number): boolean {
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.startIndex > at || n.endIndex <= at) continue;
    if (n.type === "heredoc_body") return true;
    for (const c of n.children) if (c) stack.push(c);
  }
  return false;
}

/** Offsets of `<` redirect operators directly followed by `>` (the `<>` operator). */
function readWriteOps(root: SyntaxNode, source: string): Set<number> {
  const out = new Set<number>();
  if (!source.includes("<>") || !root.hasError) return out;
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === "<" && n.parent?.type === "file_redirect" && source[n.endIndex] === ">") {
      out.add(n.startIndex);
    }
    for (const c of n.children) if (c) stack.push(c);
  }
  return out;
}
