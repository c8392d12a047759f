/**
 * Tests as stages: `[ … ]` is the test builtin, a command whose words bash expands as any
 * command's (globs, splitting), and `[[ … ]]` a conditional command whose words it expands
 * without splitting or globs. Each is a stage (`[` or `[[` and its words), so the files it tests
 * are judged as `test`'s are (lib/programs/test_expr.ts places its operands).
 *
 * @module
 */
import type { Cwds } from "./cwds.ts";
import { type Redirect, type Stage, staticWord, type Word } from "./model.ts";
import { Lite, type LiteNode } from "./syntax_tree.ts";
import type { WalkContext } from "./walk_context.ts";
import { testEvaluation } from "./walk_evaluation.ts";
import { decodeWord } from "./walk_words.ts";

/**
 * A test command: `[ … ]` is the command `[`; `[[ … ]]` (what it evaluates noted) a stage of its
 * own after its substitutions. Returns the cwds after it (a test moves none).
 */
export function testCommand(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  origin: string,
  redirects: Redirect[],
): Cwds {
  const open = node.children[0]?.type;
  if (open === "[") {
    bracketTest(ctx, node, cwds, origin, redirects);
    return cwds;
  }
  testEvaluation(ctx, node, cwds);
  const after = ctx.sequence(node.namedChildren, cwds, origin, redirects);
  if (open === "[[") conditionalStage(ctx, node, cwds, origin, redirects);
  return after;
}

/**
 * `[ … ]`: tree-sitter reads an expression, bash a command named `[` (`[ a < f ]` reads f, `[ -e
 * ~/.ssh/* ]` expands the glob). Its text is walked again as that command (`\[ …`), its stage
 * given back the test's text and the redirects around it.
 */
function bracketTest(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  origin: string,
  redirects: Redirect[],
): void {
  const mark = ctx.stages.length;
  // (tree-sitter reads what follows `==` or `=~` in a command as a pattern: escaped, each is the
  // word it is to bash.)
  let text = node.text;
  for (const at of patternOperators(node, []).reverse()) {
    const i = at - node.startIndex;
    text = text.slice(0, i) + "\\" + text.slice(i);
  }
  ctx.source("\\" + text, cwds, origin);
  // (Its words' substitutions come before it: the test is the last stage named `\[`.)
  for (let i = ctx.stages.length - 1; i >= mark; i--) {
    const s = ctx.stages[i];
    if (s.argv[0]?.text !== "\\[" || s.origin !== origin) continue;
    ctx.stages[i] = {
      ...s,
      argv: [{ ...s.argv[0], text: "[" }, ...s.argv.slice(1).map(unescaped)],
      redirects: [...redirects, ...s.redirects],
      text: node.text,
    };
    return;
  }
}

/** A word as the test wrote it, where its operator was escaped for the parser. */
function unescaped(w: Word): Word {
  return w.text === "\\==" || w.text === "\\=~" ? { ...w, text: w.text.slice(1) } : w;
}

/** The offsets of the `==` and `=~` operators of a test's expression, in order, into `out`. */
function patternOperators(node: LiteNode, out: number[]): number[] {
  for (const c of node.children) {
    if (c.type === "==" || c.type === "=~") out.push(c.startIndex);
    else if (EXPRESSIONS.has(c.type)) patternOperators(c, out);
  }
  return out;
}

/** The expression nodes of a conditional command, whose words are the leaves below them. */
const EXPRESSIONS = new Set([
  "binary_expression",
  "unary_expression",
  "parenthesized_expression",
  "ternary_expression",
  "postfix_expression",
  "ERROR",
]);

/**
 * `[[ … ]]`: a stage `[[ WORDS ]]`, its operators as written and each operand one word, a glob's
 * text as it stands (no pathname expansion there). Its substitutions are walked apart.
 */
function conditionalStage(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  origin: string,
  redirects: Redirect[],
): void {
  const argv: Word[] = [staticWord("[[")];
  for (const c of node.children) {
    if (c.type !== "[[" && c.type !== "]]") conditionWords(ctx, c, cwds, argv);
  }
  argv.push(staticWord("]]"));
  const stage: Stage = { argv, redirects, text: node.text, origin, cwds };
  ctx.stages.push(stage);
}

/** The words of a node of a conditional command, in order, into `out`. */
function conditionWords(ctx: WalkContext, node: LiteNode, cwds: Cwds, out: Word[]): void {
  if (node.isMissing) return;
  // (tree-sitter reads `~/x` there as an operator `~` before `/x`: one word to bash.)
  if (node.type === "unary_expression" && node.children[0]?.type === "~") {
    out.push(tildeWord(ctx, node, cwds));
    return;
  }
  if (EXPRESSIONS.has(node.type)) {
    for (const c of node.children) conditionWords(ctx, c, cwds, out);
    return;
  }
  if (!node.isNamed || node.type === "test_operator") {
    out.push(staticWord(node.text));
    return;
  }
  // (The right side of `=~` and of `==` is a pattern: text.)
  if (node.type === "regex" || node.type === "extglob_pattern") {
    out.push({ ...staticWord(node.text), text: node.text });
    return;
  }
  const w = decodeWord(ctx, node, cwds);
  out.push(literal(w));
}

/** A word as its text stands: a glob's is no pattern in a conditional command. */
function literal(w: Word): Word {
  if (w.kind !== "glob") return w;
  const { pattern: _, ...rest } = w;
  return { ...rest, kind: "static", prefix: w.value };
}

/** A `~` word of a conditional command: its home directory where it is plain text after `~`. */
function tildeWord(ctx: WalkContext, node: LiteNode, cwds: Cwds): Word {
  const rest = node.children[1];
  const text = node.text;
  if (
    node.children.length !== 2 || rest.type !== "word" || rest.startIndex !== node.startIndex + 1
  ) {
    return { value: text, kind: "dynamic", prefix: "", text };
  }
  const w = decodeWord(ctx, new Lite(text, -1, "word", true, false, 0, text.length, null), cwds);
  return literal(w);
}
