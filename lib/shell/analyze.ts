/**
 * Bash analysis: every simple command bash may run (a stage), its words as bash will see them,
 * its file redirects and the directories it may run in, from the syntax tree (the plain-command
 * reader's or tree-sitter's), or from the fallback splitter when there is no parser. The entry of
 * the shell layer; the model it returns is in `model.ts`.
 *
 * @example Stages, their command strings and cwds
 * ```ts ignore
 * const parser = await loadBashParser(); // parser.ts
 * const env = {
 *   cwd: "/work",
 *   home: "/home/u",
 *   env: { HOME: "/home/u" },
 *   carriesCommand: (assignment: string) => assignment.startsWith("PAGER="),
 * };
 * const { stages, error } = analyzeBash("cd src && rm -f *.o > log", env, parser);
 * // error === null
 * // stages.map(commandString) (model.ts): ["cd src", "rm -f *.o > log"]
 * // stages[1].cwds: ["/work/src"]
 * ```
 *
 * @module
 */
import { cdTarget, type Cwds, union } from "./cwds.ts";
import { type BashAnalysis, type BashEnv, type Stage, staticWord } from "./model.ts";
import { type BashParser, type ParserChoice, ParserPending } from "./parser.ts";
import { droppedDash, syntaxErrorAt } from "./repairs.ts";
import { plainAnalysis } from "./plain_analysis.ts";
import { parseSource } from "./source_tree.ts";
import type { LiteNode } from "./syntax_tree.ts";
import { heredocQuoted } from "./nodes.ts";
import { evaluationError } from "./walk_evaluation.ts";
import { rewalk } from "./walk_calls.ts";
import { Walker } from "./walk.ts";
import { fallbackSplit, joinLines, unquotedText } from "./words.ts";

/** Input larger than this is not analysed (never allowed). */
export const MAX_COMMAND_LENGTH = 65536;

/**
 * Analyse a bash command. Without a parser, the fallback splitter is used; under a "pending" one,
 * a command that needs a tree throws {@linkcode ParserPending}.
 */
export function analyzeBash(
  command: string,
  env: BashEnv,
  parser: ParserChoice,
): BashAnalysis {
  if (command.length > MAX_COMMAND_LENGTH) {
    return { stages: [], error: `the command is longer than ${MAX_COMMAND_LENGTH} characters` };
  }
  const setting = readingChanged(command);
  if (setting) return { stages: [], error: setting };
  // A carriage return is a word character to bash, a blank to the parser: `x\r#` is one word to
  // bash, and the parser's comment would hide the rest of the line (`echo x\r#; rm -rf src`).
  // The `#` after one is escaped, as bash reads it: never the start of a comment.
  if (command.includes("\r#")) command = command.replaceAll("\r#", "\r\\#");
  try {
    return parser ? analyzeTree(command, env, parser) : analyzeFallback(command, env);
  } catch (e) {
    if (e instanceof ParserPending) throw e;
    return { stages: [], error: `the command could not be analysed: ${(e as Error).message}` };
  }
}

/**
 * A setting in the command that changes how bash reads what follows it, which the analysis does
 * not follow (it reads bash 5.2's default rules): a compatibility level (`BASH_COMPAT=51`, `shopt
 * -s compat44`: quotes in an arithmetic subscript are removed and its substitutions run),
 * `lastpipe` (a pipeline's last command, `cd` too, runs in the shell), or a message catalog for
 * `$"…"` strings (`TEXTDOMAIN`: `$"ls"` may read `rm`). Null when there is none.
 */
function readingChanged(source: string): string | null {
  // (Names as bash reads them after quote removal: `shopt -s last\pipe`, `read BASH_COM\PAT`.)
  const command = unquotedText(source);
  if (
    command.includes("BASH_COMPAT") || (/\bcompat\d/.test(command) && command.includes("shopt"))
  ) {
    return "the command sets bash's compatibility level, which changes how bash reads it";
  }
  if (command.includes("lastpipe")) {
    return "the command sets lastpipe: a pipeline's last command runs in the shell itself";
  }
  if (source.includes('$"') && command.includes("TEXTDOMAIN")) {
    return 'the command chooses the message catalog its $"…" strings are translated by';
  }
  return null;
}

function analyzeTree(
  command: string,
  env: BashEnv,
  parser: BashParser | "pending",
): BashAnalysis {
  // The plainest commands (most of an agent's) need no tree: their stages are their text's.
  const plain = plainAnalysis(command, env);
  if (plain) return plain;
  if (parser === "pending") throw new ParserPending();
  return walkedAnalysis(command, env, parser);
}

/**
 * The analysis from the syntax tree's walk, for any command (what `plainAnalysis` is held to by
 * its tests).
 */
export function walkedAnalysis(command: string, env: BashEnv, parser: BashParser): BashAnalysis {
  const { text, joined } = joinLines(command);
  const parsed = parseSource(parser, text);
  if (!parsed) return { stages: [], error: "the bash parser returned no tree" };
  // (An analysis that looked at the filesystem holds for it as it was: `listed` says so.)
  let looked = false;
  const listing = env.listing;
  if (listing) {
    env = { ...env, listing: (p, c) => (looked = true, listing(p, c)) };
  }
  let walker = new Walker(env, parsed.source, parsed.readWrite, parser, { steps: 0 }, 0, true);
  walker.listed = listing ? [] : null;
  walker.run(parsed.root, [env.cwd]);
  if (rewalk(walker.calls, walker.stages)) {
    // (Not every run of a body is a call the walk saw: each body once, as before.)
    walker = new Walker(env, parsed.source, parsed.readWrite, parser, { steps: 0 });
    walker.listed = listing ? [] : null;
    walker.run(parsed.root, [env.cwd]);
  }
  const root = parsed.root;
  // (Offsets of joined lines hold only outside the text a heredoc's line moved.)
  const movedJoin =
    parsed.moved && joined.some((q) => q >= parsed.moved![0] && q < parsed.moved![1])
      ? "a line continuation in a heredoc's line, which the parser reads moved"
      : null;
  const error = walker.error ?? parsed.error ?? movedJoin ??
    (root.hasError ? syntaxErrorAt(root) : null) ??
    droppedText(root) ?? continuationProblem(root, parsed.source, joined) ??
    evaluationError(walker.evaluationBox.ev, walker.stages);
  const out: BashAnalysis = walker.environment.length
    ? { stages: walker.stages, error, environment: walker.environment }
    : { stages: walker.stages, error };
  const unset = walker.values.unsetNames;
  if (unset.size) out.unset = [...unset, "BASH_ENV"];
  if (looked) out.listed = walker.listed!;
  return out;
}

/** Nodes whose children are all there is of them: between them only blanks may go unread. */
const STRUCTURAL = new Set([
  "program",
  "list",
  "pipeline",
  "command",
  "declaration_command",
  "unset_command",
  "redirected_statement",
  "file_redirect",
  "herestring_redirect",
  "subshell",
  "compound_statement",
  "do_group",
  "if_statement",
  "elif_clause",
  "else_clause",
  "for_statement",
  "while_statement",
  "until_statement",
  "case_statement",
  "function_definition",
  "negated_command",
]);

/**
 * Text tree-sitter left out of its tree without an error (`printf x -\t2>f` has no `-` in it):
 * the command is then not the one it read. Blanks, newlines, line continuations and escaped
 * blanks (the words take those) may go unread; anything else is an error.
 */
function droppedText(root: LiteNode): string | null {
  const src = root.text;
  const base = root.startIndex;
  // tree-sitter reads a line that starts with a backslash into a word of the line before
  // (`ls⏎\rm -rf /` is `ls` with the argument `⏎\rm` to it): an unquoted word never holds a
  // newline in bash (line continuations are joined before parsing).
  const lines = src.includes("\n");
  const stack: LiteNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    const kids = n.children;
    if (!kids.length) continue;
    if (lines) {
      for (const c of kids) {
        if (c.type === "word" && c.text.includes("\n")) {
          return `a word the parser read across a line break at column ${c.startIndex - base + 1}`;
        }
      }
    }
    if (STRUCTURAL.has(n.type)) {
      // The lone `-` tree-sitter drops before a redirect is an argument the walk gives back.
      const dash = n.type === "redirected_statement" && droppedDash(n)
        ? n.childForFieldName("body")!.endIndex - base
        : -1;
      let at = n.startIndex;
      for (let i = 0; i <= kids.length; i++) {
        const to = i < kids.length ? kids[i].startIndex : n.endIndex;
        for (let j = at - base; j < to - base; j++) {
          const c = src[j];
          if (c === " " || c === "\t" || c === "\n" || c === "\r") continue;
          if (c === "-" && dash >= 0 && j > dash && src.slice(dash, j).trim() === "") continue;
          if (c === "\\" && " \t\n".includes(src[j + 1]) && j + 1 < to - base) {
            j++;
            continue;
          }
          return `text the parser left out at column ${j + 1}: ${
            JSON.stringify(src.slice(j, j + 10))
          }`;
        }
        if (i < kids.length) at = kids[i].endIndex;
      }
    }
    for (const c of kids) if (c.children.length && !NO_COMMANDS.has(c.type)) stack.push(c);
  }
  return null;
}

/** Nodes with children that never hold a command (nothing structural below them). */
const NO_COMMANDS = new Set([
  "word",
  "simple_expansion",
  "raw_string",
  "ansi_c_string",
  "file_descriptor",
  "variable_name",
  "heredoc_start",
]);
/**
 * Cross-check the line continuations against the tree: the ones left in must sit where bash keeps
 * them (single quotes, `$'…'`, comments, quoted heredoc bodies), and none may have been joined
 * inside such a place. A disagreement means the joiner misread the quoting: not analysable.
 */
function continuationProblem(root: LiteNode, source: string, joined: number[]): string | null {
  if (!joined.length && !source.includes("\\\n")) return null;
  const zones = literalZones(root);
  const covers = (i: number) => zones.some(([s, e]) => s <= i && i < e);
  for (let i = source.indexOf("\\\n"); i !== -1; i = source.indexOf("\\\n", i + 1)) {
    let n = 0;
    while (source[i - n] === "\\") n++;
    if (n % 2 === 1 && !covers(i)) {
      return `a line continuation at column ${i + 1} could not be placed`;
    }
  }
  // A join strictly inside a literal zone merged a line bash keeps apart (into a comment, say).
  const bad = joined.find((q) => zones.some(([s, e]) => s < q && q < e));
  return bad === undefined ? null : `a line continuation at column ${bad + 1} could not be placed`;
}

/** Source ranges bash reads literally: quotes bash does not look into, comments, quoted heredocs. */
function literalZones(root: LiteNode): [number, number][] {
  const out: [number, number][] = [];
  const stack: LiteNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === "raw_string" || n.type === "ansi_c_string" || n.type === "comment") {
      out.push([n.startIndex, n.endIndex]);
    } else if (n.type === "heredoc_body" && heredocQuoted(n.parent)) {
      out.push([n.startIndex, n.endIndex]);
    }
    for (const c of n.children) if (c) stack.push(c);
  }
  return out;
}

function analyzeFallback(command: string, env: BashEnv): BashAnalysis {
  const split = fallbackSplit(command);
  if (!split) {
    return {
      stages: [],
      error: "the bash parser is not available and the command is not plain words",
    };
  }
  // Without the tree the operators are not known: after a cd, later stages may run in either.
  let cwds: Cwds = [env.cwd];
  const stages: Stage[] = [];
  for (const s of split) {
    const argv = s.words.map(staticWord);
    stages.push({ argv, redirects: [], text: s.text, origin: "top", cwds });
    const home = env.unknown?.has("HOME") ? null : env.env.HOME ?? env.home;
    const cdpathUnknown = env.unknown?.has("CDPATH");
    cwds = union(cwds, cdTarget(argv, cwds, { home, env, cdpathUnknown }) ?? cwds);
  }
  return { stages, error: null };
}
