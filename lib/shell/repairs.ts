/**
 * Where tree-sitter reads bash otherwise than bash does, and how the walk copes: misreads it
 * repairs (`time` and `coproc` read as commands, what follows a heredoc start, escaped blanks left
 * out of a command; statements it groups otherwise are walk_pipelines.ts's) and misreads it can
 * only detect, which make the command one that is not fully analysed (a reserved word read as a
 * command, an assignment value read past escaped blanks, a file descriptor read as an argument, a
 * syntax error).
 *
 * @module
 */
import { isReservedCommandWord } from "./keywords.ts";
import type { Word } from "./model.ts";
import { ASSIGNMENT_PREFIX, lastCommand, rootOf } from "./nodes.ts";
import type { LiteNode } from "./syntax_tree.ts";

/**
 * The error of the first error or missing node in a tree that has one; null when its only ones
 * are here-strings tree-sitter split and the walk reads whole (`splitHerestring`).
 */
export function syntaxErrorAt(root: LiteNode): string | null {
  const stack: LiteNode[] = [root];
  let repaired = false;
  while (stack.length) {
    const n = stack.pop()!;
    if (n.isError && herestringStart(n)) repaired = true;
    else if (n.isError || n.isMissing) {
      const what = n.isMissing
        ? `missing ${n.type}`
        : `unexpected ${JSON.stringify(n.text.slice(0, 20))}`;
      return `syntax error at column ${n.startIndex + 1}: ${what}`;
    }
    for (const c of [...n.children].reverse()) if (c && c.hasError) stack.push(c);
  }
  return repaired ? null : "syntax error";
}

/**
 * Whether an error node is the `<<` of a here-string tree-sitter split after another redirect:
 * it reads `cat > f <<<'x'` as `> f`, an error `<<`, and `<'x'` (a redirect of a file named
 * `x`). bash reads a here-string there (`splitHerestring` is the rest of it).
 */
function herestringStart(error: LiteNode): boolean {
  const parent = error.parent;
  if (error.type !== "ERROR" || parent?.type !== "redirected_statement") return false;
  if (error.children.length !== 1 || error.children[0].type !== "<<" || fdBefore(error)) {
    return false;
  }
  const next = parent.children[parent.children.indexOf(error) + 1];
  return next?.type === "file_redirect" && next.startIndex === error.endIndex &&
    next.children[0]?.type === "<" && next.children.length === 2;
}

/**
 * Whether a file redirect `<WORD` is the rest of a here-string tree-sitter split after another
 * redirect (`cat 2>/dev/null <<<x`, see `herestringStart`): its word is the here-string's.
 */
export function splitHerestring(redirect: LiteNode): boolean {
  const parent = redirect.parent;
  if (redirect.type !== "file_redirect" || !parent) return false;
  const before = parent.children[parent.children.indexOf(redirect) - 1];
  return !!before && before.isError && herestringStart(before);
}

export const VALUE_MISREAD = "an assignment value the parser read past escaped blanks";

/**
 * Whether tree-sitter took the next word for an assignment's value: it drops escaped blanks
 * after the `=` (`v=\  git push` is `v=git` and `push` to it; bash runs `git push`).
 */
export function valueMisread(assignment: LiteNode): boolean {
  const val = assignment.childForFieldName("value");
  const eq = assignment.children.find((c) => c.type === "=" || c.type === "+=");
  return !!val && !!eq && val.startIndex !== eq.endIndex;
}

/** Whether a word of digits alone ends right where a redirect starts (bash's fd for it). */
export function fdBefore(redirect: LiteNode): boolean {
  const root = rootOf(redirect);
  const src = root.text;
  let i = redirect.startIndex - root.startIndex;
  const end = i;
  while (i > 0 && src.charCodeAt(i - 1) >= 48 && src.charCodeAt(i - 1) <= 57) i--;
  return i < end && (i === 0 || src[i - 1] === " " || src[i - 1] === "\t");
}

/**
 * Whether tree-sitter left a lone `-` argument out of a redirected command: it drops one right
 * before a heredoc or a redirect with a file descriptor (`python3 - <<'EOF'`, `printf x - 2>f`),
 * which bash passes as an argument. `statement` is a redirected_statement whose body is a
 * command, or a list or pipeline that a command ends (`cd src && python3 - <<'EOF'`: the
 * redirects are that command's), and the `-` stands alone between it and the first redirect.
 */
export function droppedDash(statement: LiteNode): boolean {
  const body = statement.childForFieldName("body");
  const first = statement.childrenForFieldName("redirect")[0];
  if (!body || !first || first.startIndex <= body.endIndex) return false;
  if (body.type !== "command") {
    if (body.type !== "list" && body.type !== "pipeline") return false;
    const last = lastCommand(body);
    if (last?.type !== "command" || last.endIndex !== body.endIndex) return false;
  }
  const root = rootOf(statement);
  const gap = root.text.slice(body.endIndex - root.startIndex, first.startIndex - root.startIndex);
  return /^[ \t]+-[ \t]+$/.test(gap);
}

/** The last tree `trailingBlanks` looked at, and whether its source has a backslash at all. */
let slashRoot: LiteNode | null = null;
let slashIn = false;

/**
 * Where the blanks after a command end when an escaped blank is among them (tree-sitter leaves
 * them out of the command); null when there is none, the common case.
 */
export function trailingBlanks(command: LiteNode): number | null {
  const root = rootOf(command);
  if (root !== slashRoot) {
    slashRoot = root;
    slashIn = root.text.includes("\\");
  }
  if (!slashIn) return null;
  const src = root.text;
  let i = command.endIndex - root.startIndex;
  let escaped = false;
  for (;;) {
    const c = src[i];
    if (c === " " || c === "\t") i++;
    else if (c === "\\" && (src[i + 1] === " " || src[i + 1] === "\t")) {
      escaped = true;
      i += 2;
    } else break;
  }
  return escaped ? i + root.startIndex : null;
}

/**
 * Drop the reserved words tree-sitter reads as a command name: `time [-p]`, `coproc [NAME]` and
 * the `{` of a group after them. The stage is the command they run.
 */
export function stripKeywords(
  argv: Word[],
): { argv: Word[]; coproc: boolean; assignments: Word[] } {
  let i = 0;
  let coproc = false;
  const bare = (k: number, ...values: string[]) =>
    argv[k] !== undefined && argv[k].kind === "static" && argv[k].text === argv[k].value &&
    values.includes(argv[k].value);
  for (;;) {
    if (bare(i, "time")) {
      i++;
      while (bare(i, "-p", "--")) i++;
    } else if (bare(i, "coproc") && !coproc) {
      coproc = true;
      i++;
      if (bare(i + 1, "{")) i++; // coproc NAME { …; }
    } else if (i > 0 && bare(i, "{", "!")) {
      i++;
    } else break;
  }
  if (i === 0 || i >= argv.length) return { argv, coproc: false, assignments: [] };
  // `time x=v`: an assignment alone, which bash keeps in this shell: left as the command's name,
  // which `reservedMisread` turns away (the walk would not keep the value).
  if (argv.slice(i).every((w) => ASSIGNMENT_PREFIX.test(w.text))) {
    return { argv: argv.slice(i), coproc, assignments: [] };
  }
  // `time v=1 cmd`: tree-sitter reads the assignment as an argument of `time`; to bash it is one.
  const assignments: Word[] = [];
  while (i < argv.length - 1 && ASSIGNMENT_PREFIX.test(argv[i].text)) assignments.push(argv[i++]);
  return { argv: argv.slice(i), coproc, assignments };
}

/**
 * The error when a stage's command name is a reserved word bash reads unquoted in a command's
 * place (`! if …`, `! { …; }` and `! ! …` are plain commands named `if`, `{` and `!` to
 * tree-sitter); null otherwise. (`time` and `coproc` are stripped before.)
 */
export function reservedMisread(argv: Word[]): string | null {
  const name = argv[0];
  if (argv.length && argv.every((w) => ASSIGNMENT_PREFIX.test(w.text))) {
    return "an assignment after time, which bash keeps in this shell";
  }
  if (
    name && name.kind === "static" && name.text === name.value &&
    isReservedCommandWord(name.value) &&
    !(name.value === "}" && argv.length === 1) // the end of `time { …; }`, read on its own
  ) {
    return `the parser read the reserved word "${name.value}" as a command`;
  }
  return null;
}

/** Flatten what follows a heredoc start into `[operator, statement]` pairs, left to right. */
export function flatten(node: LiteNode, op: string, out: [string, LiteNode][]): void {
  if (node.type !== "list" && node.type !== "pipeline") {
    out.push([op, node]);
    return;
  }
  let next = op;
  for (const c of node.children) {
    if (!c || c.type === "comment") continue;
    if (!c.isNamed) next = c.type;
    else {
      flatten(c, next, out);
      next = node.type === "pipeline" ? "|" : ";";
    }
  }
}
