/**
 * Where a `while read` loop's lines come from (RULINGS principle 3, Pipelines of paths): the
 * stage before it in a pipeline (`find src | while read -r f; do …; done`) or the one command or
 * pipeline of a process substitution it reads (`done < <(git ls-files)`). What the lines are, only
 * the program printing them knows: the program layer reads `Word.line`.
 *
 * @module
 */
import type { Redirect, Stage } from "./model.ts";
import { withoutComments } from "./nodes.ts";
import type { LiteNode } from "./syntax_tree.ts";

/** A command node walked, with its stage. */
export interface WalkedCommand {
  node: number;
  stage: Stage;
}

/** The part of a pipeline that is a command of this type (with its redirects), or null. */
export function pipelinePart(part: LiteNode | undefined, type: string): LiteNode | null {
  if (part?.type === "redirected_statement") part = part.childForFieldName("body") ?? undefined;
  return part?.type === type ? part : null;
}

/** The one command of a `while` loop's condition, or null. */
export function conditionCommand(loop: LiteNode): LiteNode | null {
  const cond = loop.childrenForFieldName("condition").filter((c) => c?.isNamed);
  return cond.length === 1 && cond[0]?.type === "command" ? cond[0] : null;
}

/** Whether a redirect gives the command another standard input (`<`, `0<`, `<<`, `<<<`, `<&`). */
function readsStdin(r: LiteNode): boolean {
  if (r.type === "heredoc_redirect" || r.type === "herestring_redirect") return true;
  const fd = r.children.find((c) => c?.type === "file_descriptor")?.text;
  const op = r.children.find((c) => c && !c.isNamed)?.text ?? "";
  return fd === undefined ? op.startsWith("<") : fd === "0";
}

/**
 * The stage whose output a `while` loop reads: the one a process substitution it reads ends with
 * (`last`, the command walked last, when it is that one), or, with no redirect of its standard
 * input among `redirects`, the stage before it in a pipeline (`feeding`), or, for a static
 * here-string or heredoc, a stage of no command that stands for its text (the program layer reads
 * it: piped_text.ts `printedBy`); null when its input is anything else (a file, several commands).
 */
export function loopInput(
  loop: LiteNode,
  redirects: Redirect[],
  feeding: WalkedCommand | null,
  last: WalkedCommand | null,
): Stage | null {
  // (Every redirect the loop gets: its own, one tree-sitter hung on its pipeline, a group's.)
  const given = redirects.filter((r) => /^0?</.test(r.op)).length;
  const parent = loop.parent;
  const redirected = parent?.type === "redirected_statement" &&
    parent.childForFieldName("body")?.id === loop.id;
  // (A herestring is no `redirect` child to tree-sitter: every child but the body is read.)
  const inputs = redirected
    ? parent.namedChildren.filter((r): r is LiteNode =>
      !!r && r.id !== loop.id && r.type !== "comment" && readsStdin(r)
    )
    : [];
  if (!given && !inputs.length) return feeding?.node === loop.id ? feeding.stage : null;
  if (given === 1 && inputs.length === 1 && inputs[0].type !== "file_redirect") {
    // (A static here-string or heredoc: a stage of no command, that text.)
    const doc = redirects.find((r) => r.kind === "herestring" || r.kind === "heredoc");
    if (!doc?.body || doc.body.kind !== "static") return null;
    return { argv: [], redirects: [doc], text: doc.body.text, origin: "document", cwds: [] };
  }
  if (given !== 1 || inputs.length !== 1 || inputs[0].type !== "file_redirect") return null;
  const dest = inputs[0].namedChildren.filter((c) => c?.type !== "file_descriptor");
  const sub = dest.length === 1 && dest[0]?.type === "process_substitution" &&
      dest[0].text.startsWith("<(")
    ? withoutComments(dest[0].namedChildren)
    : [];
  if (sub.length !== 1) return null;
  const parts = sub[0].type === "pipeline" ? withoutComments(sub[0].namedChildren) : sub;
  const command = pipelinePart(parts[parts.length - 1], "command");
  return command && last?.node === command.id ? last.stage : null;
}

/** The simple command a pipeline part is (with its redirects), or null. */
export function simpleCommand(part: LiteNode | undefined): LiteNode | null {
  return pipelinePart(part, "command");
}
