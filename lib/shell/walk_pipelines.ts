/**
 * Statements as bash groups them: `|` binds tighter than `&&` and `||`, which bind tighter than
 * `;` and `&`, and redirects after a list or pipeline are its last command's. tree-sitter does not
 * always see it: it reads `a && b 2>&1 | c` as `(a && b) 2>&1 | c` and `a | b && c` as
 * `a | (b && c)`, and hangs what follows a heredoc start on its line (`cat <<E | sh && ls`) inside
 * the heredoc. Where a pipeline holds a list, or a heredoc holds commands, the walk lays the
 * statements out in order and groups them again as bash does: a `cd` before a pipe moves what the
 * pipeline runs (`cd ~/.ssh && : 2>&1 | cat id_rsa` reads `~/.ssh/id_rsa`), and the statements
 * after it go on from where the whole list leaves the shell.
 *
 * @module
 */
import { type Cwds, type Flow, joinedFlow, same, startAfter, union } from "./cwds.ts";
import type { Redirect } from "./model.ts";
import { withoutComments } from "./nodes.ts";
import type { LiteNode } from "./syntax_tree.ts";
import type { WalkContext } from "./walk_context.ts";
import { commandless, redirectsOf } from "./walk_redirects.ts";

/** A statement of a pipeline or list as bash runs it, with the redirects bash gives it. */
interface Piece {
  node: LiteNode;
  tail: Redirect[];
}

/** The operators between statements. */
type Op = "|" | "|&" | "&&" | "||" | ";" | "&";

/** Statements and the operators between them, in the order of the text. */
type Token = Piece | Op;

const OPS = new Set<string>(["|", "|&", "&&", "||", ";", "&"]);

/** Where a run of statements starts, and what it knows from the statements around it. */
interface At {
  cwds: Cwds;
  origin: string;
  redirects: Redirect[];
}

/** Compound statements whose redirects, where one fails, keep the whole body from running. */
const SKIPPED = new Set([
  "compound_statement",
  "subshell",
  "if_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
]);

/** A statement with redirects after it; `redirects` are those of the statements around it. */
export function redirected(ctx: WalkContext, node: LiteNode, at: At): Flow {
  const { cwds, origin, redirects } = at;
  const body = node.childForFieldName("body");
  const after: [string, LiteNode][] = [];
  const own = redirectsOf(ctx, node, cwds, origin, after);
  if (!body) {
    // Redirects with no command (`> f`, `$(< f)`, which reads f): bash still opens the files.
    commandless(ctx, node, own, cwds, origin, redirects);
    let flow = same(cwds);
    for (const [op, n] of after) flow = ctx.then(flow, op, n, cwds, origin, redirects);
    return flow;
  }
  if (
    body.type === "function_definition" || body.type === "test_command" ||
    body.type === "case_statement"
  ) {
    // No command of its own takes them: a function's redirects open their files at each call
    // (`f(){ cat; } < .env; f`), a test's as bash runs it (`[[ x ]] > .env`), a case's whether
    // an arm with a command runs or not (`case x in *) ;; esac > .env`).
    commandless(ctx, node, own, cwds, origin, redirects);
  }
  if (!after.length) {
    if (own.length && SKIPPED.has(body.type)) {
      // Where a redirect fails (`{ …; } < /nonexistent`), bash runs nothing of the body: what it
      // assigns or defines is not sure, and its failure leaves the cwd where it was.
      const flow = ctx.values.nestedIn(() => ctx.walk(body, cwds, origin, redirects, own));
      return { ok: flow.ok, fail: union(flow.fail, cwds) };
    }
    return ctx.walk(body, cwds, origin, redirects, own);
  }
  // Commands tree-sitter hung in a heredoc: after the statement, grouped as bash groups them.
  const tokens: Token[] = [];
  const laid = lay(ctx, body, at, tokens) && withTail(tokens, own) &&
    after.every(([op, n]) => OPS.has(op) && tokens.push(op as Op) && lay(ctx, n, at, tokens));
  return laid ? runTokens(ctx, tokens, at) : unread(ctx, cwds);
}

/**
 * A pipeline that holds a list (through the redirects and pipelines around it), walked as bash
 * groups it; null when it holds none (the walk reads it as it stands).
 */
export function regroupedPipeline(
  ctx: WalkContext,
  node: LiteNode,
  at: At & { tail: Redirect[] },
): Flow | null {
  if (!holdsList(node)) return null;
  const tokens: Token[] = [];
  if (!lay(ctx, node, at, tokens) || !withTail(tokens, at.tail)) return unread(ctx, at.cwds);
  return runTokens(ctx, tokens, at);
}

/** A run of statements that cannot be laid out: not fully analysed. */
function unread(ctx: WalkContext, cwds: Cwds): Flow {
  ctx.error ??= "statements tree-sitter reads in an order bash does not";
  return same(cwds);
}

/** Give the last statement laid out `tail` as well (true, for chaining). */
function withTail(tokens: Token[], tail: Redirect[]): boolean {
  const last = tokens[tokens.length - 1];
  if (last === undefined || typeof last === "string") return false;
  if (tail.length) last.tail = [...last.tail, ...tail];
  return true;
}

/**
 * Lay out the statements and operators of a pipeline, list or redirected statement (into `out`):
 * the redirects after a list or pipeline go to its last statement, the commands hung in a heredoc
 * after the statement. False for what cannot be laid out (redirects with no command).
 */
function lay(ctx: WalkContext, node: LiteNode, at: At, out: Token[]): boolean {
  if (node.type === "pipeline" || node.type === "list") {
    for (const c of withoutComments(node.children)) {
      if (OPS.has(c.type)) out.push(c.type as Op);
      else if (c.isNamed && !lay(ctx, c, at, out)) return false;
    }
    return true;
  }
  const body = node.type === "redirected_statement" ? node.childForFieldName("body") : null;
  if (body === null) {
    if (node.type === "redirected_statement") return false;
    out.push({ node, tail: [] });
    return true;
  }
  // (Its redirects are read first, as the walk of a redirected statement reads them.)
  const after: [string, LiteNode][] = [];
  const own = redirectsOf(ctx, node, at.cwds, at.origin, after);
  if (body.type === "pipeline" || body.type === "list") {
    if (!lay(ctx, body, at, out)) return false;
  } else out.push({ node: body, tail: [] });
  return withTail(out, own) &&
    after.every(([op, n]) => OPS.has(op) && out.push(op as Op) && lay(ctx, n, at, out));
}

/**
 * Walk statements laid out in order as bash groups them: and-or lists apart at `;` and `&` (one
 * before a `&` runs in the background), pipelines apart at `&&` and `||`.
 */
function runTokens(ctx: WalkContext, tokens: Token[], at: At): Flow {
  let flow = same(at.cwds);
  let from = 0;
  for (let i = 0; i <= tokens.length; i++) {
    const t = tokens[i];
    if (t !== undefined && t !== ";" && t !== "&") continue;
    const list = tokens.slice(from, i);
    from = i + 1;
    if (!list.length) continue;
    const start = startAfter(flow, ";");
    if (t === "&") {
      ctx.values.nestedIn(() => andOr(ctx, list, { ...at, cwds: start }));
      flow = same(start);
    } else flow = andOr(ctx, list, { ...at, cwds: start });
  }
  return flow;
}

/** Walk an and-or list: each pipeline where the list so far leaves it, as its operator says. */
function andOr(ctx: WalkContext, tokens: Token[], at: At): Flow {
  const { origin, redirects } = at;
  let flow: Flow | null = null;
  let joined = "";
  let pieces: Piece[] = [];
  const run = (from: Cwds): Flow => {
    if (pieces.length === 1) {
      return ctx.walk(pieces[0].node, from, origin, redirects, pieces[0].tail);
    }
    ctx.pipe(pieces.map((p) => p.node), from, origin, redirects, [], pieces.map((p) => p.tail));
    return same(from);
  };
  for (let i = 0; i <= tokens.length; i++) {
    const t = tokens[i];
    if (t !== undefined && typeof t !== "string") pieces.push(t);
    if (t !== undefined && t !== "&&" && t !== "||") continue;
    if (flow === null) flow = run(at.cwds);
    else {
      const before: Flow = flow;
      // (What runs after `&&` or `||` may not run.)
      const f = ctx.values.nestedIn(() => run(startAfter(before, joined)));
      flow = joinedFlow(before, joined, f);
    }
    joined = t ?? "";
    pieces = [];
  }
  return flow ?? same(at.cwds);
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
