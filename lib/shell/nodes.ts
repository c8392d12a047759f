/**
 * Small questions about the nodes of a bash syntax tree that several parts of the walk ask: where
 * a node's tree starts, whether it is a redirect, an expansion, an assignment-shaped word, which
 * command a redirect after a list belongs to.
 *
 * @module
 */
import type { LiteNode } from "./syntax_tree.ts";

/** The start of a word shaped like an assignment (`NAME=`, `NAME+=`). */
export const ASSIGNMENT_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/** The root of the tree a node is in (its text is the whole source). */
export function rootOf(node: LiteNode): LiteNode {
  let root = node;
  while (root.parent) root = root.parent;
  return root;
}

/** The nodes of a list or pipeline, comments left out. */
export function withoutComments(nodes: (LiteNode | null)[]): LiteNode[] {
  return nodes.filter((c): c is LiteNode => !!c && c.type !== "comment");
}

/** The first non-null child after index `i`. */
export function nextNode(children: (LiteNode | null)[], i: number): LiteNode | undefined {
  for (let j = i + 1; j < children.length; j++) if (children[j]) return children[j]!;
  return undefined;
}

export function isRedirect(n: LiteNode): boolean {
  return n.type === "file_redirect" || n.type === "heredoc_redirect" ||
    n.type === "herestring_redirect";
}

/** An expansion or substitution node, or tree-sitter's lone `$`. */
export function isExpansion(node: LiteNode): boolean {
  return node.type === "$" || node.type.endsWith("expansion") || node.type.endsWith("substitution");
}

/** Whether a node starts a bash word shaped like an assignment (its value may hold `:~`). */
export function isAssignmentShaped(node: LiteNode): boolean {
  return (node.type === "word" || node.type === "concatenation") &&
    ASSIGNMENT_PREFIX.test(node.text);
}

/**
 * Whether a word may run a command when expanded: every way to do so (`$(…)`, `` `…` ``,
 * `<(…)`, `$((…))`, `${ …; }`) has a `(`, a backtick or `${` in its text. Others need no walk.
 */
export function mayRun(word: LiteNode): boolean {
  const t = word.text;
  return t.includes("(") || t.includes("`") || t.includes("${");
}

/**
 * Whether a pattern tree-sitter reads whole, substitutions and all (what follows `=~` or `==` in
 * `[[ … ]]`), may run a command when bash expands it: a substitution (`$(…)`, `` `…` ``, and
 * `<(…)`/`>(…)` even inside a word: `^<(div)>` runs `div`), arithmetic (`$((…))`, `$[…]`), or a
 * `${…}` other than a plain one (`${x}`, `${#x}`, `${x[1]}`: `${!x}`, `${x:i}`, `${a[i]}` or
 * `${x@P}` may evaluate a value as code). A regex's own parentheses and bars (`^([0-9]+)`, `(a|b)`,
 * `^\(`) run nothing; a `$` escaped or quoted is read as one that may (the stricter reading).
 */
export function patternMayRun(pattern: LiteNode): boolean {
  const t = pattern.text;
  if (!t.includes("$") && !t.includes("`") && !t.includes("(")) return false;
  return PATTERN_CODE.test(t.replace(PLAIN_EXPANSION, ""));
}

const PLAIN_EXPANSION = /\$\{#?[A-Za-z_][A-Za-z0-9_]*(?:\[[0-9]+\])?\}/g;
const PATTERN_CODE = /\$[([{]|`|[<>]\(/;

/** Whether a heredoc redirect's delimiter is quoted (its body is then literal text). */
export function heredocQuoted(redirect: LiteNode | null): boolean {
  const start = redirect?.children.find((c) => c?.type === "heredoc_start");
  return !!start && /['"\\]/.test(start.text);
}

/** The command a redirect after `node` belongs to (the last one of a list or pipeline), or null. */
export function lastCommand(node: LiteNode): LiteNode | null {
  switch (node.type) {
    case "command":
    case "declaration_command":
    case "unset_command":
      return node;
    case "list":
    case "pipeline": {
      const kids = withoutComments(node.namedChildren);
      return kids.length ? lastCommand(kids[kids.length - 1]) : null;
    }
    case "redirected_statement": {
      const body = node.childForFieldName("body");
      return body ? lastCommand(body) : null;
    }
    default:
      return null;
  }
}
