/**
 * Pipelines as bash groups them: `|` binds tighter than `&&` and `||`, which tree-sitter does not
 * always see (a list inside a pipeline), and redirects after a list or pipeline are its last
 * command's.
 *
 * @module
 */
import { type Cwds, type Flow, same, union } from "./cwds.ts";
import type { Redirect } from "./model.ts";
import { withoutComments } from "./nodes.ts";
import type { LiteNode } from "./syntax_tree.ts";
import type { WalkContext } from "./walk_context.ts";
import { ownRedirects } from "./walk_redirects.ts";

/** A statement of a pipeline or list as bash runs it, with the redirects bash gives it. */
interface Piece {
  node: LiteNode;
  tail: Redirect[];
}

/** What a pipeline's text is to bash: its statements and the operators between them, in order. */
type Token = Piece | "|" | "|&" | "&&" | "||";

/**
 * tree-sitter reads `a && b 2>&1 | c` as `(a && b) 2>&1 | c` and `a | b && c` as
 * `a | (b && c)`; bash runs `a && (b 2>&1 | c)` and `(a | b) && c`: `|` binds tighter than `&&`
 * and `||`, and redirects after a list or pipeline are its last command's. Where a pipeline holds a
 * list (through redirects and pipelines around it), walk its statements as bash groups them: a
 * `cd` before the pipe moves what the pipeline runs (`cd ~/.ssh && : 2>&1 | cat id_rsa` reads
 * `~/.ssh/id_rsa`), and the statements after it go on from where the whole list leaves the shell.
 * Null when the pipeline holds no list (the walk reads it as it stands).
 */
export function regroupedPipeline(
  ctx: WalkContext,
  node: LiteNode,
  at: { cwds: Cwds; origin: string; redirects: Redirect[]; tail: Redirect[] },
): Flow | null {
  const { cwds, origin, redirects, tail } = at;
  if (!holdsList(node)) return null;
  const tokens: Token[] = [];
  if (!pipelineTokens(ctx, node, cwds, origin, tokens)) {
    ctx.error ??= "a pipeline whose parts tree-sitter reads in an order bash does not";
    return same(cwds);
  }
  const last = tokens[tokens.length - 1] as Piece;
  last.tail = [...last.tail, ...tail];
  let flow: Flow | null = null;
  let joined = "";
  let pieces: Piece[] = [];
  const run = (from: Cwds): Flow => {
    if (pieces.length === 1) {
      return ctx.walk(pieces[0].node, from, origin, redirects, pieces[0].tail);
    }
    const parts = pieces.map((p) => p.node);
    ctx.pipe(parts, from, origin, redirects, [], pieces.map((p) => p.tail));
    return same(from);
  };
  for (let i = 0; i <= tokens.length; i++) {
    const t = tokens[i];
    if (t !== undefined && typeof t !== "string") pieces.push(t);
    if (t !== undefined && t !== "&&" && t !== "||") continue;
    // A pipeline ends: it runs where the list so far leaves the shell, as its operator says.
    if (flow === null) flow = run(cwds);
    else {
      const before: Flow = flow;
      const from = joined === "&&" ? before.ok : before.fail;
      // (What runs after `&&` or `||` may not run.)
      const f = ctx.values.nestedIn(() => run(from));
      flow = joined === "&&"
        ? { ok: f.ok, fail: union(before.fail, f.fail) }
        : { ok: union(before.ok, f.ok), fail: f.fail };
    }
    joined = t ?? "";
    pieces = [];
  }
  return flow;
}

/**
 * The statements and operators of a pipeline, list or redirected one of them (into `out`), the
 * redirects after a list or pipeline given to its last statement. False for what cannot be laid
 * out so (commands tree-sitter hangs in a heredoc, joined by `;` or `&`).
 */
function pipelineTokens(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  origin: string,
  out: Token[],
): boolean {
  const body = node.type === "redirected_statement" ? node.childForFieldName("body") : null;
  if (node.type === "pipeline" || node.type === "list") {
    for (const c of withoutComments(node.children)) {
      if (c.type === "|" || c.type === "|&" || c.type === "&&" || c.type === "||") out.push(c.type);
      else if (c.isNamed && !pipelineTokens(ctx, c, cwds, origin, out)) return false;
    }
    return true;
  }
  if (body?.type !== "pipeline" && body?.type !== "list") {
    out.push({ node, tail: [] });
    return true;
  }
  // (Its redirects are read first, as the walk of a redirected statement reads them.)
  const own = ownRedirects(ctx, node, cwds, origin);
  if (own === null || !pipelineTokens(ctx, body, cwds, origin, out)) return false;
  const last = out[out.length - 1] as Piece;
  last.tail = [...last.tail, ...own];
  return true;
}

/** Whether a pipeline holds a list, through the redirects and pipelines around it. */
function holdsList(node: LiteNode): boolean {
  if (node.type === "list") return true;
  if (node.type === "redirected_statement") {
    const body = node.childForFieldName("body");
    return body !== null && holdsList(body);
  }
  return node.type === "pipeline" && withoutComments(node.namedChildren).some(holdsList);
}
