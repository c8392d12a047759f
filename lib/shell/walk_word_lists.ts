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
import { plainNames } from "./trap.ts";
import type { Known } from "./walk_values.ts";
import { groupWord, groupWords, wordGroups } from "./walk_words.ts";

/** A `for` loop's body is walked once per word of its list up to this many words. */
const MAX_ROUNDS = 8;
/** Or, where its globs were expanded by a listing (a monorepo's `packages/*\/`), this many. */
const MAX_LISTED_ROUNDS = 32;
/** Loops whose list bash may expand again after their body ran. */
const REPEATING = new Set([
  "while_statement",
  "until_statement",
  "for_statement",
  "c_style_for_statement",
  "function_definition",
]);

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
  if (droppedBefore(node)) words.push(staticWord("-"));
  for (const g of ctx.strayWords?.get(node.id) ?? []) words.push(groupWord(ctx, g, cwds, true));
  return { words, assignments, own, after };
}

/**
 * Whether a command is the one a redirected statement's body ends with whose lone `-` argument
 * tree-sitter left out (see `droppedDash`): its parent, or a list or pipeline it ends.
 */
function droppedBefore(node: LiteNode): boolean {
  let p = node.parent;
  while ((p?.type === "list" || p?.type === "pipeline") && p.endIndex === node.endIndex) {
    p = p.parent;
  }
  return p?.type === "redirected_statement" && droppedDash(p);
}

/**
 * The words of a `for` list's group. An unquoted `$(…)` alone is what it prints, split, where its
 * command is known (`for f in $(git ls-files)`): its command is walked here to be known (the
 * body's walk walks it again, as the loop's first command: its stages are those).
 */
function listWords(ctx: WalkContext, g: LiteNode | WordGroup, cwds: Cwds, used: boolean): Word[] {
  const alone = "nodes" in g ? null : g;
  if (!used || alone?.type !== "command_substitution" || !alone.text.startsWith("$(")) {
    return groupWords(ctx, g, cwds, false);
  }
  const mark = ctx.stages.length;
  const words = groupWords(ctx, g, cwds, true);
  ctx.stages.length = mark;
  return words;
}

/**
 * The values a `for` loop's variable takes: its list's words (a glob's word stands for its
 * matches, or is each of them where `env.listing` gives them), or one unknown value when a word
 * is not known or there are many. `walked`, when given, is called after the body's rounds.
 */
export function loopWords(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
): { name: string; values: (Known | null)[]; walked?: () => void } {
  const kids = node.children;
  const name = node.childForFieldName("variable")?.text ?? "";
  const inAt = kids.findIndex((c) => c.type === "in");
  const words = inAt < 0
    ? []
    : kids.slice(inAt + 1).filter((c) =>
      c.isNamed && c.type !== "do_group" && c.type !== "comment" &&
      c.type !== "compound_statement"
    );
  // (One walk where the body does not use the variable, or nothing is followed.)
  const body = node.childForFieldName("body")?.text ?? "";
  const used = body.includes("$" + name) || body.includes("${" + name);
  const expanded: { pattern: string; cwd: string }[] = [];
  const lists = used && ctx.values.following && ctx.listed !== null;
  // (tree-sitter may split a bash word into nodes: `-'s p'\;` is one word.)
  const values = wordGroups(ctx, node, words)
    .flatMap((g) => listed(ctx, g, false, cwds) ?? listWords(ctx, g, cwds, used))
    .flatMap((d): (Known | null)[] => {
      // (An unquoted `$(…)` alone: what it prints, split, a word at a time.)
      if (d.kind === "dynamic") {
        return d.line?.split ? [{ value: "$" + name, kind: "line", line: d.line }] : [null];
      }
      if (d.kind !== "glob") return [{ value: d.value, kind: "text" }];
      return (lists ? listedMatches(ctx, d, cwds, expanded) : null) ??
        [{ value: d.value, kind: "glob", pattern: d.pattern, at: cwds }];
    });
  const most = expanded.length ? MAX_LISTED_ROUNDS : MAX_ROUNDS;
  if (
    inAt < 0 || values.length === 0 || values.length > most || values.includes(null) ||
    !used || !ctx.values.following
  ) {
    return { name, values: [null] };
  }
  if (!expanded.length || !ctx.listed) return { name, values };
  // The body's stages start after bash expanded the list (unless it may be expanded again).
  const from = ctx.stages.length;
  const repeated = ancestors(node).some((a) => REPEATING.has(a.type));
  const walked = () => {
    const body = ctx.stages.slice(from);
    const later = !repeated && startsLater(node) ? { laterFrom: ctx.stages.length } : {};
    for (const l of expanded) ctx.listed!.push({ ...l, body, repeated, ...later });
  };
  return { name, values, walked };
}

/**
 * The matches of a glob word of a `for` list as bash expands it in the loop's one known cwd, each
 * a text value (none: the word as written), by `env.listing`; null when not known or too many.
 */
function listedMatches(
  ctx: WalkContext,
  d: Word,
  cwds: Cwds,
  listed: { pattern: string; cwd: string }[],
): Known[] | null {
  const cwd = cwds.length === 1 ? cwds[0] : null;
  if (!ctx.env.listing || cwd === null || !d.pattern) return null;
  const found = ctx.env.listing(d.pattern, cwd);
  if (found === null || found.length > MAX_LISTED_ROUNDS) return null;
  listed.push({ pattern: d.pattern, cwd });
  const words = found.length ? found : [d.value];
  return words.map((value): Known => ({ value, kind: "text" }));
}

/**
 * Whether what the walk reaches after a `for` loop surely runs after bash expanded its list: the
 * loop is a statement of the command's top-level program or an operand of `&&`/`||` lists that
 * are (not in a pipeline, a group, a redirected statement or a substitution), the top-level
 * statement is not sent to the background (`… done & mkdir x` runs both at once), and nothing
 * may run a later stage's text first: no function or alias (walked where defined or last, as
 * bodies may be), no trap (a handler may hold text it runs before the loop).
 */
function startsLater(node: LiteNode): boolean {
  let top = node;
  while (top.parent?.type === "list") top = top.parent;
  const program = top.parent;
  if (program?.type !== "program" || program.parent) return false;
  const kids = program.children;
  const at = kids.findIndex((c) => c.id === top.id);
  if (kids[at + 1]?.type === "&") return false;
  return plainNames(program.text) && !/\btrap\b/.test(program.text);
}

/** The nodes a node is inside, innermost first. */
function ancestors(node: LiteNode): LiteNode[] {
  const out: LiteNode[] = [];
  for (let p = node.parent; p; p = p.parent) out.push(p);
  return out;
}
