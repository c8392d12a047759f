/**
 * The words of a command and of a `for` loop's list as bash expands them: each group of word
 * nodes is one word (or several, by its braces), and a group that is a whole list of words the
 * walk knows (`"$@"` of a function called with static words, `"${arr[@]}"` of an array of static
 * words; see walk_calls.ts and walk_arrays.ts) is those words.
 *
 * @module
 */
import type { Cwds } from "./cwds.ts";
import { type Redirect, staticWord, type Word } from "./model.ts";
import { isRedirect } from "./nodes.ts";
import { droppedDash, trailingBlanks } from "./repairs.ts";
import type { LiteNode } from "./syntax_tree.ts";
import type { WalkContext, WordGroup } from "./walk_context.ts";
import { redirect } from "./walk_redirects.ts";
import { arrayList } from "./walk_arrays.ts";
import type { Known } from "./walk_values.ts";
import { groupWord, groupWords, wordGroups } from "./walk_words.ts";

/** A `for` loop's body is walked once per word of its list up to this many words. */
const MAX_ROUNDS = 8;

/** The parts of a command node. */
export interface CommandParts {
  /** Its words, keywords and all. */
  words: Word[];
  /** Its `NAME=value` prefixes. */
  assignments: Word[];
  /** Its own redirects. */
  own: Redirect[];
  /** Statements tree-sitter hung in its heredocs, with the operator before each. */
  after: [string, LiteNode][];
}

/**
 * The words a group that is a whole list of known words stands for (`first`: in a command's
 * place), or null.
 */
function listed(
  ctx: WalkContext,
  g: LiteNode | WordGroup,
  first: boolean,
  cwds: Cwds,
): Word[] | null {
  if ("nodes" in g) return null;
  const words = ctx.calls?.bound ? ctx.calls.list(g.text, first) : null;
  return words ?? (ctx.values.lists ? arrayList(ctx, g.text, first, cwds) : null);
}

/** The words, assignments, redirects and heredoc followers of a command node. */
export function commandParts(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  origin: string,
): CommandParts {
  const words: Word[] = [];
  const assignments: Word[] = [];
  const own: Redirect[] = [];
  const after: [string, LiteNode][] = [];
  // Word nodes come in runs between redirects: a run is grouped into bash's words.
  let run: LiteNode[] = [];
  let boundary: number | null = null;
  const flush = (to: number | null) => {
    if (run.length || (boundary !== null && to !== null)) {
      for (const g of wordGroups(ctx, node, run, boundary, to)) {
        const first = "nodes" in g ? g.nodes[0] : g;
        const assignment = node.type === "command" && first?.type === "variable_assignment";
        // (A command's arguments are brace-expanded into several words; declarations' not.)
        if (assignment) assignments.push(groupWord(ctx, g, cwds, true));
        else if (node.type !== "command") words.push(groupWord(ctx, g, cwds, true));
        else words.push(...(listed(ctx, g, !words.length, cwds) ?? groupWords(ctx, g, cwds, true)));
      }
    }
    run = [];
  };
  for (const c of node.children) {
    if (!c) continue;
    if (!c.isNamed) {
      // A `$` alone is an anonymous token, but an argument all the same (`echo $ x`), and so
      // are the test operators tree-sitter makes of `==` and `=~` (`test $a == b`).
      if (c.type === "$" || c.type === "==" || c.type === "=~") {
        run.push(c);
        continue;
      }
      // declaration_command and unset_command keywords are anonymous tokens.
      flush(null);
      if (node.type !== "command" && words.length === 0) words.push(staticWord(c.text));
      boundary = null;
      continue;
    }
    if (c.type === "comment") continue;
    if (c.type === "regex") {
      // After `==`/`=~` in a plain command (inside `( )` or `$(…)`), tree-sitter reads the rest
      // as a pattern, `|` and the next command included (`( x ==|rm -rf / )`).
      ctx.error ??= "the parser read the rest of a command as a pattern";
    }
    if (isRedirect(c)) {
      flush(c.startIndex);
      const stray: (LiteNode | WordGroup)[] = [];
      own.push(...redirect(ctx, c, cwds, origin, after, stray));
      for (const g of stray) words.push(groupWord(ctx, g, cwds, true));
      boundary = c.endIndex;
      continue;
    }
    run.push(c);
  }
  // tree-sitter ends a command before escaped blanks after its last word (`cd \ ;`): they are
  // still bash's, a word of their own or the end of the last one.
  flush(trailingBlanks(node));
  if (node.parent?.type === "redirected_statement" && droppedDash(node.parent)) {
    words.push(staticWord("-"));
  }
  for (const g of ctx.strayWords?.get(node.id) ?? []) words.push(groupWord(ctx, g, cwds, true));
  return { words, assignments, own, after };
}

/**
 * The values a `for` loop's variable takes: its list's words (a glob's word stands for its
 * matches), or one unknown value when a word is not known or there are many.
 */
export function loopWords(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
): { name: string; values: (Known | null)[] } {
  const kids = node.children;
  const name = node.childForFieldName("variable")?.text ?? "";
  const inAt = kids.findIndex((c) => c.type === "in");
  const words = inAt < 0
    ? []
    : kids.slice(inAt + 1).filter((c) =>
      c.isNamed && c.type !== "do_group" && c.type !== "comment" &&
      c.type !== "compound_statement"
    );
  // (tree-sitter may split a bash word into nodes: `-'s p'\;` is one word.)
  const values = wordGroups(ctx, node, words)
    .flatMap((g) => listed(ctx, g, false, cwds) ?? groupWords(ctx, g, cwds, false))
    .map((d): Known | null => {
      if (d.kind === "dynamic") return null;
      return d.kind === "glob"
        ? { value: d.value, kind: "glob", pattern: d.pattern, at: cwds }
        : { value: d.value, kind: "text" };
    });
  // (One walk where the body does not use the variable, or nothing is followed.)
  const body = node.childForFieldName("body")?.text ?? "";
  const used = body.includes("$" + name) || body.includes("${" + name);
  if (
    inAt < 0 || values.length === 0 || values.length > MAX_ROUNDS || values.includes(null) ||
    !used || !ctx.values.following
  ) {
    return { name, values: [null] };
  }
  return { name, values };
}
