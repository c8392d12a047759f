/**
 * Redirects as bash reads them: file redirects with their file descriptor and operator (`<>`
 * too), heredocs and herestrings with their bodies decoded like words, and the commands
 * tree-sitter hangs inside a heredoc node (`cat <<E | sh`), given back to the walk in order.
 *
 * @module
 */
import type { Cwds } from "./cwds.ts";
import { type Redirect, staticWord, type Word } from "./model.ts";
import { heredocQuoted, isRedirect, lastCommand, rootOf } from "./nodes.ts";
import { fdBefore, flatten, splitHerestring, trailingBlanks } from "./repairs.ts";
import type { LiteNode } from "./syntax_tree.ts";
import type { WalkContext, WordGroup } from "./walk_context.ts";
import { quotedStrings } from "./walk_evaluation.ts";
import { backtickBodies, fromParts, groupWord, textParts, wordGroups } from "./walk_words.ts";
import { unescapeHeredoc } from "./words.ts";

/** Operators that write their target. */
const WRITE_OPS = new Set([">", ">>", "&>", "&>>", ">|", "<>"]);
/** The operators that may join commands after a heredoc start. */
const LIST_OPS = new Set(["&&", "||", "|", "|&", ";", "&"]);

/**
 * The redirects of a redirected statement (words tree-sitter put after them noted for the command
 * they follow), the commands it hung in a heredoc of them into `after` (`cat <<E | sh`).
 */
export function redirectsOf(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  origin: string,
  after: [string, LiteNode][],
): Redirect[] {
  const own: Redirect[] = [];
  const stray: (LiteNode | WordGroup)[] = [];
  // (A herestring after a compound command, `while …; done <<<x`, is no `redirect` child to
  // tree-sitter: every redirect node but the body is one.)
  const body = node.childForFieldName("body");
  const list = node.namedChildren.filter((c): c is LiteNode =>
    !!c && c.id !== body?.id && isRedirect(c)
  );
  list.forEach((c, i) => {
    // Escaped blanks after the last one are bash's (tree-sitter ends the statement before).
    const to = i === list.length - 1 ? trailingBlanks(node) : null;
    if (c) own.push(...redirect(ctx, c, cwds, origin, after, stray, to));
  });
  if (stray.length) {
    // They are arguments of the command the redirect follows; after a group, bash refuses them.
    const command = body && lastCommand(body);
    if (command) (ctx.strayWords ??= new Map()).set(command.id, stray);
    else ctx.error ??= "words after a redirect that no command takes";
  }
  return own;
}

/**
 * A statement of redirects alone, as a stage of `:` (what bash runs: it opens, creates or
 * truncates their files, `> f`), or of `cat` in a substitution that reads a file (`$(< f)` is
 * the file's text).
 */
export function commandless(
  ctx: WalkContext,
  node: LiteNode,
  own: Redirect[],
  cwds: Cwds,
  origin: string,
  redirects: Redirect[],
): void {
  if (!own.length) return;
  // bash runs them as `:` would; in a substitution, a file it reads is its output, as `cat`'s.
  const reads = origin.endsWith("substitution") && own.some((r) => r.kind === "read");
  const argv = [staticWord(reads ? "cat" : ":")];
  ctx.stages.push({ argv, redirects: [...redirects, ...own], text: node.text, origin, cwds });
}

/**
 * The redirects of one redirect node. tree-sitter puts what follows a heredoc start on its line
 * (`| sh`, `&& cd x`, `> out`) inside the heredoc node: redirects come back as redirects, commands
 * go to `after` with their operator, flattened so they chain left to right as bash runs them.
 */
export function redirect(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  origin: string,
  after: [string, LiteNode][],
  stray: (LiteNode | WordGroup)[],
  to: number | null = null,
): Redirect[] {
  if (
    (node.type === "heredoc_redirect" || node.type === "herestring_redirect") && fdBefore(node)
  ) {
    // `0<<<x`: tree-sitter made an argument of the descriptor (see below).
    ctx.error ??= "a file descriptor the parser read as an argument";
  }
  if (node.type === "heredoc_redirect") return heredoc(ctx, node, cwds, origin, after, stray);
  // (Also a here-string tree-sitter split after another redirect: `cat > f <<<'x'`.)
  if (node.type === "herestring_redirect" || splitHerestring(node)) {
    const [first, ...rest] = wordGroups(ctx, node, node.namedChildren);
    for (const c of node.namedChildren) if (c) ctx.walk(c, cwds, origin, []);
    const body = first ? groupWord(ctx, first, cwds, false) : staticWord("");
    stray.push(...rest);
    return [{ op: "<<<", kind: "herestring", target: null, body }];
  }
  let fd = "";
  let op = "";
  let opEnd: number | null = null;
  const dests: LiteNode[] = [];
  for (const c of node.children) {
    if (!c) continue;
    if (c.type === "file_descriptor") fd = c.text;
    else if (!c.isNamed) {
      op += ctx.readWrite.has(c.startIndex) ? "<>" : c.text;
      opEnd = c.endIndex;
    } else dests.push(c);
  }
  if (!fd && fdBefore(node)) {
    // A number glued to the operator is its file descriptor to bash (`\  2>f`): tree-sitter
    // made an argument of it, so the redirect is not the one it read.
    ctx.error ??= "a file descriptor the parser read as an argument";
  }
  // The first word is the destination; tree-sitter's further destinations are bash's arguments.
  // (Escaped blanks right after the operator begin the destination: `> \ a` writes ` a`.)
  const [dest, ...rest] = wordGroups(ctx, node, dests, opEnd, to, true);
  stray.push(...rest);
  if (dest) {
    for (const n of "nodes" in dest ? dest.nodes : [dest]) ctx.walk(n, cwds, origin, []);
  }
  if (op === ">&-" || op === "<&-") return [{ op: fd + op, kind: "dup", target: null }];
  const target = dest ? groupWord(ctx, dest, cwds, false) : null;
  let out: Redirect;
  if (op === ">&" || op === "<&") {
    if (!target || (target.kind === "static" && /^(\d+|-)$/.test(target.value))) {
      return [{ op: fd + op, kind: "dup", target: null }];
    }
    out = { op: fd + op, kind: op === ">&" ? "write" : "read", target };
  } else out = { op: fd + op, kind: WRITE_OPS.has(op) ? "write" : "read", target };
  if (dest && VARIABLES_ONLY.test(groupText(dest))) late.set(out, dest);
  return [out];
}

/**
 * A target of text and plain variables alone (`"$X"`, `$TMP/out`, `"${PWD}/x"`): decoding it again
 * runs nothing and changes nothing.
 */
const VARIABLES_ONLY =
  /^(?=[^]*\$)(?:[^$`\\(){}\[\]]|\\.|\$(?:[A-Za-z_]\w*|\{[A-Za-z_]\w*\}|[0-9?#$!@*-]))*$/;

/** The source text of a word group. */
function groupText(g: LiteNode | WordGroup): string {
  return "nodes" in g ? g.nodes.map((n) => n.text).join("") : g.text;
}

/** The destinations of redirects whose target reads variables (see `lateTail`). */
const late = new WeakMap<Redirect, LiteNode | WordGroup>();

/**
 * The redirects tree-sitter hangs on a list or pipeline (`X=$(mktemp) && ls > "$X"`, `cd /tmp &&
 * echo > "$PWD/x"`), as bash opens them: for its last command, once the statements before it ran,
 * so a target made of variables takes their values there (and `$PWD` that command's cwd), not
 * where the list began.
 */
export function lateTail(ctx: WalkContext, tail: Redirect[], cwds: Cwds): Redirect[] {
  return tail.map((r) => {
    const dest = late.get(r);
    return dest ? { ...r, target: groupWord(ctx, dest, cwds, false) } : r;
  });
}

function heredoc(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  origin: string,
  after: [string, LiteNode][],
  stray: (LiteNode | WordGroup)[],
): Redirect[] {
  const out: Redirect[] = [];
  let body = staticWord("");
  let op = ";";
  const strip = node.children.some((c) => c?.type === "<<-");
  // tree-sitter reads a body line that starts with a backslash into the heredoc's first line
  // (`sh <<E⏎\\rm -rf /⏎E` has an empty body and `\rm` as a word to it): nothing but the body
  // and the end may reach past the line the heredoc starts on.
  const start = node.children.find((c) => c?.type === "heredoc_start");
  if (start) {
    const root = rootOf(node);
    const eol = root.text.indexOf("\n", start.endIndex - root.startIndex) + root.startIndex;
    const past = node.children.some((c) =>
      c && c.type !== "heredoc_body" && c.type !== "heredoc_end" && eol >= root.startIndex &&
      c.endIndex > eol
    );
    if (past) ctx.error ??= "a heredoc body the parser read into the line it starts on";
  }
  for (const c of node.children) {
    if (!c) continue;
    if (!c.isNamed) {
      if (LIST_OPS.has(c.type)) op = c.type;
      continue;
    }
    if (c.type === "heredoc_start" || c.type === "heredoc_end") continue;
    if (c.type === "heredoc_body") body = heredocBody(ctx, c, cwds, heredocQuoted(node), strip);
    else if (isRedirect(c)) out.push(...redirect(ctx, c, cwds, origin, after, stray));
    else flatten(c, op, after);
  }
  // (`3<<E` feeds fd 3, not the command's standard input.)
  const fd = node.children.find((c) => c?.type === "file_descriptor")?.text ?? "";
  return [{ op: fd + (strip ? "<<-" : "<<"), kind: "heredoc", target: null, body }, ...out];
}

/** A heredoc body as the command reads it; its substitutions (unquoted bodies) are stages. */
function heredocBody(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  quoted: boolean,
  strip: boolean,
): Word {
  const tabs = (t: string) => (strip ? t.replace(/^\t+/gm, "") : t);
  if (quoted) return { ...staticWord(tabs(node.text)), text: node.text };
  // (A quote in `${x:-'…'}` is a character there: see quotedStrings.)
  quotedStrings(ctx, node, cwds);
  // tree-sitter leaves backticks in the body as text: find them in the text between nodes.
  for (const c of node.namedChildren) {
    if (c && c.type !== "heredoc_content") ctx.walk(c, cwds, "substitution", []);
  }
  const parts = textParts(ctx, node, 0, 0, cwds, (t) => {
    if (backtickBodies(t)?.length === 0) return [{ value: unescapeHeredoc(t), kind: "static" }];
    ctx.backticks(t, cwds);
    const tick = /(?<!\\)(\\\\)*`/.exec(t)!;
    const at = tick.index + tick[0].length - 1;
    return [
      { value: unescapeHeredoc(t.slice(0, at)), kind: "static" },
      { value: t.slice(at), kind: "dynamic" },
    ];
  });
  const w = fromParts(parts, node.text);
  return { ...w, value: tabs(w.value), prefix: tabs(w.prefix) };
}
