/**
 * Bash analysis: every simple command bash may run (a stage), its words as bash will see them,
 * its file redirects and the directories it may run in, from the tree-sitter syntax tree.
 */
import { resolve } from "node:path";
import type { BashParser, SyntaxNode } from "./parser.ts";
import { cdInto } from "./paths.ts";
import { simpleTree } from "./simple_tree.ts";
import { carriesCommand } from "../programs/env.ts";
import { type LiteNode, liteTree } from "./syntax_tree.ts";
import {
  decodeAnsiC,
  fallbackSplit,
  joinLines,
  unescapeDoubleQuoted,
  unescapeHeredoc,
  unescapeUnquoted,
} from "./words.ts";

/** A word after quote removal and the expansions the engine can know. */
export interface Word {
  /** The value bash will use; unknown parts keep their source text (`$X`, `$(…)`). */
  value: string;
  /** "static": fully known; "glob": known text with unquoted glob characters or braces; "dynamic": contains an expansion whose value is unknown. */
  kind: "static" | "glob" | "dynamic";
  /** The known literal text before the first unknown or glob part. */
  prefix: string;
  /** The source text. */
  text: string;
}

/** A redirect of a stage. */
export interface Redirect {
  /** The operator with its fd, e.g. `>`, `2>>`, `&>`, `<`, `<>`. */
  op: string;
  /** "write" and "read" have a file target; "dup" (`2>&1`), "heredoc" and "herestring" do not. */
  kind: "write" | "read" | "dup" | "heredoc" | "herestring";
  target: Word | null;
  /**
   * Heredocs and herestrings: the text fed to the command, decoded like a word (a quoted heredoc
   * is static text; an unquoted one is dynamic when it expands something unknown).
   */
  body?: Word;
}

/** One simple command of the tree. */
export interface Stage {
  argv: Word[];
  redirects: Redirect[];
  /** The stage's source text. */
  text: string;
  /** Where it sits: "top", "substitution", "subshell", "function", "compound", ... */
  origin: string;
  /** The directories it may run in; null means unknown (after `cd $X`). */
  cwds: (string | null)[];
  /** `NAME=value` words before the command (they are in its environment, not its argv). */
  assignments?: Word[];
  /** Set when its standard input comes from a pipe (`curl … | sh`, `tee >(sh)`). */
  piped?: boolean;
}

/** The analysis of one bash command. */
export interface BashAnalysis {
  stages: Stage[];
  /**
   * Assignments standing alone (`PAGER='less -R'`) of variables whose value other programs run
   * (`carriesCommand`), each as a stage without a command: not judged itself, only what it makes
   * run. Absent when there are none.
   */
  environment?: Stage[];
  /** Why the command could not be fully analysed (syntax error, too large, no parser). */
  error: string | null;
}

/** What word decoding may expand. */
export interface BashEnv {
  cwd: string;
  home: string;
  /** Known environment values ($HOME, $TMPDIR, ...). $PWD is the stage's cwd. */
  env: Record<string, string | undefined>;
}

/** No `<>` operators (shared; never changed). */
const NO_OFFSETS: ReadonlySet<number> = new Set();

/** No assigned variable names (shared; never changed). */
const NO_NAMES: ReadonlySet<string> = new Set();

/** Variables whose values the engine may expand (RULINGS principle 3). */
const EXPANDABLE = ["HOME", "PWD", "TMPDIR"];
/** Special parameters that always expand to digits or flags, never to a path. */
const NUMERIC_PARAMS = new Set(["?", "$", "#", "!", "-"]);
/** Input larger than this is not analysed (never allowed). */
export const MAX_COMMAND_LENGTH = 65536;
const MAX_STAGES = 1000;
/** Nodes walked per command at most (loops and function bodies are walked more than once). */
const MAX_STEPS = 20_000;
const MAX_CWDS = 8;

/** Analyse a bash command. Without a parser, the fallback splitter is used. */
export function analyzeBash(
  command: string,
  env: BashEnv,
  parser: BashParser | null,
): BashAnalysis {
  if (command.length > MAX_COMMAND_LENGTH) {
    return { stages: [], error: `the command is longer than ${MAX_COMMAND_LENGTH} characters` };
  }
  try {
    return parser ? analyzeTree(command, env, parser) : analyzeFallback(command, env);
  } catch (e) {
    return { stages: [], error: `the command could not be analysed: ${(e as Error).message}` };
  }
}

function analyzeTree(command: string, env: BashEnv, parser: BashParser): BashAnalysis {
  const { text, joined } = joinLines(command);
  const parsed = parseSource(parser, text);
  if (!parsed) return { stages: [], error: "the bash parser returned no tree" };
  const walker = new Walker(env, parsed.source, parsed.readWrite, parser, { steps: 0 });
  walker.run(parsed.root, [env.cwd]);
  const root = parsed.root;
  const error = walker.error ?? (root.hasError ? syntaxErrorAt(root) : null) ??
    droppedText(root) ?? continuationProblem(root, parsed.source, joined) ??
    evaluationError(walker.evaluationBox.ev, walker.stages);
  return walker.environment.length
    ? { stages: walker.stages, error, environment: walker.environment }
    : { stages: walker.stages, error };
}

type Tree = NonNullable<ReturnType<BashParser["parse"]>>;

/**
 * Parse shell source. tree-sitter-bash does not know `<>` (open read-write): such operators are
 * parsed as `>>` (same length, so offsets hold) and their offsets returned.
 */
function parseSource(
  parser: BashParser,
  text: string,
): { root: LiteNode; source: string; readWrite: ReadonlySet<number> } | null {
  // Plain commands (most of them) are read without tree-sitter, into the very same tree.
  const simple = simpleTree(text);
  if (simple) return { root: simple, source: text, readWrite: NO_OFFSETS };
  let source = text;
  let tree: Tree | null = parser.parse(source);
  if (!tree) return null;
  try {
    const readWrite = readWriteOps(tree.rootNode, source);
    if (readWrite.size) {
      for (const i of readWrite) source = source.slice(0, i) + ">>" + source.slice(i + 2);
      tree.delete();
      tree = parser.parse(source);
      if (!tree) return null;
    }
    // One cursor pass copies the tree into plain objects; the WASM tree is freed at once.
    return { root: liteTree(tree.rootNode, source), source, readWrite };
  } finally {
    tree?.delete();
  }
}

/** Offsets of `<` redirect operators directly followed by `>` (the `<>` operator). */
function readWriteOps(root: SyntaxNode, source: string): Set<number> {
  const out = new Set<number>();
  if (!source.includes("<>") || !root.hasError) return out;
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === "<" && n.parent?.type === "file_redirect" && source[n.endIndex] === ">") {
      out.add(n.startIndex);
    }
    for (const c of n.children) if (c) stack.push(c);
  }
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
      let at = n.startIndex;
      for (let i = 0; i <= kids.length; i++) {
        const to = i < kids.length ? kids[i].startIndex : n.endIndex;
        for (let j = at - base; j < to - base; j++) {
          const c = src[j];
          if (c === " " || c === "\t" || c === "\n" || c === "\r") continue;
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

function syntaxErrorAt(root: LiteNode): string {
  const stack: LiteNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.isError || n.isMissing) {
      const what = n.isMissing
        ? `missing ${n.type}`
        : `unexpected ${JSON.stringify(n.text.slice(0, 20))}`;
      return `syntax error at column ${n.startIndex + 1}: ${what}`;
    }
    for (const c of [...n.children].reverse()) if (c && c.hasError) stack.push(c);
  }
  return "syntax error";
}

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

function heredocQuoted(redirect: LiteNode | null): boolean {
  const start = redirect?.children.find((c) => c?.type === "heredoc_start");
  return !!start && /['"\\]/.test(start.text);
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
    const argv = s.words.map((w): Word => ({ value: w, kind: "static", prefix: w, text: w }));
    stages.push({ argv, redirects: [], text: s.text, origin: "top", cwds });
    cwds = union(cwds, cdTarget(argv, cwds, { home: env.env.HOME ?? env.home, env }) ?? cwds);
  }
  return { stages, error: null };
}

type Cwds = (string | null)[];
/** The cwds after a statement succeeded and after it failed. */
type Flow = { ok: Cwds; fail: Cwds };

function same(cwds: Cwds): Flow {
  return { ok: cwds, fail: cwds };
}

function union(...sets: Cwds[]): Cwds {
  // Mostly the sets are one and the same: keep the first (cwd lists are never changed in place).
  const first = sets[0];
  if (first.length === 1 || first.length <= MAX_CWDS && new Set(first).size === first.length) {
    let more = false;
    for (let i = 1; i < sets.length && !more; i++) {
      if (sets[i] !== first) more = sets[i].some((c) => !first.includes(c));
    }
    if (!more) return first;
  }
  const out: Cwds = [];
  for (const s of sets) for (const c of s) if (!out.includes(c)) out.push(c);
  if (out.length > MAX_CWDS) return [...out.slice(0, MAX_CWDS - 1), null];
  return out;
}

/** Commands that may change the cwd in ways we cannot follow (they run other shell code). */
const OPAQUE = new Set(["eval", "source", ".", "popd"]);

/** What a cd needs to know: the home directory (null: unknown) and CDPATH (unknown if assigned). */
interface CdFacts {
  home: string | null;
  env: BashEnv;
  cdpathUnknown?: boolean;
}

/**
 * Where a `cd`/`pushd` stage leaves the shell when it succeeds; null when the stage does not change
 * directory. Relative operands may also go through CDPATH.
 */
function cdTarget(argv: Word[], cwds: Cwds, facts: CdFacts): Cwds | null {
  let i = 0;
  while (
    argv[i]?.kind === "static" && (argv[i].value === "builtin" || argv[i].value === "command")
  ) {
    i++;
  }
  const name = argv[i];
  if (!name) return null;
  if (name.kind !== "static") return union(cwds, [null]); // `$X /etc` may be `cd /etc`
  if (OPAQUE.has(name.value)) return union(cwds, [null]);
  if (name.value !== "cd" && name.value !== "pushd") return null;
  const { args, physical } = operands(argv.slice(i + 1));
  const arg = args[0];
  if (!arg) return name.value === "cd" ? [facts.home] : [null];
  if (arg.kind !== "static" || arg.value === "-" || /^[+-]\d+$/.test(arg.value)) return [null];
  const dir = arg.value;
  const into = (base: string | null) => base === null ? [null] : cdInto(base, dir, physical);
  if (dir.startsWith("/")) return into("/");
  const plain = union(...cwds.map(into));
  if (/^\.\.?(\/|$)/.test(dir)) return plain;
  if (facts.cdpathUnknown) return union(plain, [null]);
  const cdpath = facts.env.env.CDPATH;
  if (!cdpath) return plain;
  // Each CDPATH entry (an empty one is the cwd) is tried before the plain relative path.
  const bases = cdpath.split(":").flatMap((
    p,
  ) => (p === "" ? cwds : cwds.map((c) => absoluteIn(p, c))));
  return union(...bases.map(into), plain);
}

function absoluteIn(path: string, cwd: string | null): string | null {
  if (path.startsWith("/")) return path;
  return cwd === null ? null : resolve(cwd, path);
}

/**
 * The operands of cd/pushd, options (`-L`, `-P`, `-e`, `-@`) and `--` dropped, and whether the
 * last of `-L`/`-P` is `-P`.
 */
function operands(args: Word[]): { args: Word[]; physical: boolean } {
  const out: Word[] = [];
  let options = true;
  let physical = false;
  for (const w of args) {
    if (options && w.kind === "static" && w.value === "--") options = false;
    else if (options && w.kind === "static" && /^-[LPe@]+$/.test(w.value)) {
      const last = Math.max(w.value.lastIndexOf("L"), w.value.lastIndexOf("P"));
      if (last > 0) physical = w.value[last] === "P";
    } else out.push(w);
  }
  return { args: out, physical };
}

const WRITE_OPS = new Set([">", ">>", "&>", "&>>", ">|", "<>"]);
const NOT_TARGETS = /^\/dev\/(null|stdout|stderr|stdin|tty|fd\/\d+)$/;
const LOOPS = new Set([
  "while_statement",
  "until_statement",
  "for_statement",
  "c_style_for_statement",
]);
const LIST_OPS = new Set(["&&", "||", "|", "|&", ";", "&"]);
/** Nodes whose children are statements separated by `;`, `&` or newlines. */
const STATEMENT_LISTS = new Set([
  "program",
  "compound_statement",
  "do_group",
  "else_clause",
  "elif_clause",
  "case_item",
]);

/** A word part: its value, whether it is known, and whether it was unquoted. */
type Part = { value: string; kind: Word["kind"]; unquoted?: boolean };

/**
 * One word as bash reads it, from the nodes tree-sitter may have split it into: after a quote, an
 * expansion or a substitution it starts a new word at a `\` or a backtick (`"--for"\ce` is two
 * arguments to it, `--force` to bash), and it drops escaped blanks between nodes (`"a"\ b` is
 * one word, `a b`). `lead` and `trail` are escaped blanks at its ends; `joints` are the escaped
 * blanks between its nodes. A word of escaped blanks alone has no nodes.
 */
interface WordGroup {
  nodes: LiteNode[];
  joints: string[];
  lead: string;
  trail: string;
  /** Its source text. */
  text: string;
}

/**
 * The text between two word nodes as bash splits it: the escaped blanks glued to the end of the
 * first word, any words of escaped blanks alone, and those glued to the start of the second (one
 * field: both nodes are one word). Null when the gap holds anything but blanks, escaped blanks
 * and line continuations: tree-sitter left out text, and the command is not what it read.
 */
function gapFields(gap: string): string[] | null {
  const fields = [""];
  let blank = false;
  for (let i = 0; i < gap.length; i++) {
    const c = gap[i];
    if (c === " " || c === "\t") {
      if (!blank) fields.push("");
      blank = true;
    } else if (c === "\\" && (gap[i + 1] === " " || gap[i + 1] === "\t")) {
      fields[fields.length - 1] += gap[++i];
      blank = false;
    } else if (c === "\\" && gap[i + 1] === "\n") {
      i++;
    } else {
      return null;
    }
  }
  return fields;
}

/** A gap that only separates two words (one blank, the common case, needs no splitting). */
function plainGap(container: LiteNode, from: number, to: number): boolean {
  if (to - from !== 1) return false;
  const c = container.text[from - container.startIndex];
  return c === " " || c === "\t";
}

/** The last tree `trailingBlanks` looked at, and whether its source has a backslash at all. */
let slashRoot: LiteNode | null = null;
let slashIn = false;

/**
 * A `~` prefix that runs into an expansion after it (`~:$HOME`): bash expands the tilde and keeps
 * the rest of the prefix as text, the expansion unexpanded. (A quote after it stops the tilde.)
 */
function tildeTakesExpansion(node: LiteNode, next: LiteNode | undefined): boolean {
  return !!next && node.type === "word" && node.text.startsWith("~") && !node.text.includes("/") &&
    isExpansion(next);
}

/** An expansion or substitution node, or tree-sitter's lone `$`. */
function isExpansion(node: LiteNode): boolean {
  return node.type === "$" || node.type.endsWith("expansion") || node.type.endsWith("substitution");
}

/** The start of a word shaped like an assignment (`NAME=`, `NAME+=`). */
const ASSIGNMENT_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/** Whether a node starts a bash word shaped like an assignment (its value may hold `:~`). */
function isAssignmentShaped(node: LiteNode): boolean {
  return (node.type === "word" || node.type === "concatenation") &&
    ASSIGNMENT_PREFIX.test(node.text);
}

/** A node that starts its word, and one inside a word (shared: never changed). */
const FIRST: WordPlace = Object.freeze({ first: true });
const NOT_FIRST: WordPlace = Object.freeze({ first: false });

/** Where a node sits in its bash word. */
interface WordPlace {
  /** It starts the word. */
  first: boolean;
  /** The word goes on after it. */
  more?: boolean;
  /** The word is shaped like an assignment (`NAME=…`). */
  assignment?: boolean;
}

const VALUE_MISREAD = "an assignment value the parser read past escaped blanks";

/**
 * Where bash may evaluate a variable's value as code. In arithmetic (`$((x))`, `((…))`, `let`,
 * `declare -i`, `[[ x -eq y ]]`, an indexed array's subscript, `${s:x}`) bash takes a variable
 * holding `a[$(cmd)]` as an expression and runs `cmd` to get the subscript, and so it does for a
 * name it is given as text (`${!x}`, `read`, `printf -v`, `declare`, `test -v`, a nameref). The
 * command's own variables are watched: one set to anything but a number (`values`) that appears
 * in such a place (`texts`, `subscripts` of arrays not declared associative) makes the command
 * one that cannot be seen. (The environment's values are the user's.)
 */
interface Evaluation {
  values: Set<string>;
  texts: string[];
  subscripts: [string, string][];
  assoc: Set<string>;
  /** Arrays given a quoted subscript that expands something (`a=(['$(cmd)']=1)`). */
  quotedCode?: string[];
}

/** A value arithmetic reads as a number: nothing in it is evaluated further. */
const NUMBER = /^[-+]?(\d+|0[xX][0-9a-fA-F]+|\d+#[0-9A-Za-z@_]+)$/;
/** A subscript that expands something (`a[$(cmd)]`, `a[$x]`): bash runs it as it reads the name. */
const SUBSCRIPT_CODE = /\[[^\]]*[$`]/;
/** Text that may hold arithmetic or a name bash evaluates (a payload of `eval` or `bash -c`). */
const EVAL_SYNTAX = /\(\(|\$\[|\blet\b|-(eq|ne|lt|le|gt|ge)\b|\$\{!|\w\[|declare|typeset|local/;
const ARITHMETIC_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
/** Builtins that take variable names (or arithmetic) as arguments, with their valued options. */
const NAME_READERS: Record<string, string> = {
  read: "adinNptu",
  mapfile: "dnOsuCc",
  readarray: "dnOsuCc",
  getopts: "",
  printf: "v",
  wait: "p",
  let: "",
  declare: "",
  typeset: "",
  local: "",
  readonly: "",
  export: "",
  test: "",
  "[": "",
  eval: "",
};
const EVALUATION_ERROR = "a value the command sets may run as code where bash evaluates it " +
  "(arithmetic, an array subscript, ${!x}, a name given as text)";

/**
 * Whether a value is the output of a command that prints a number and nothing else:
 * `$(… | wc -l)` (wc reading its input), `$(nproc)`, `$(date +%s)`, `$(id -u)`.
 */
function numericOutput(val: LiteNode): boolean {
  if (val.type !== "command_substitution") return false;
  const body = val.namedChildren;
  if (body.length !== 1) return false;
  const last = body[0].type === "pipeline" ? body[0].namedChildren.at(-1) : body[0];
  if (last?.type !== "command") return false;
  const words = last.namedChildren.map((c) => c.text);
  const [program, ...args] = words;
  if (program === "wc") return args.every((a) => /^-[lcmw]+$/.test(a));
  if (program === "nproc") return args.length === 0;
  if (program === "date") return args.length === 1 && args[0] === "+%s";
  if (program === "id") return args.length === 1 && /^-[ug]$/.test(args[0]);
  return false;
}

/** A `subscript` node (`a[i]`) as its array's name and the text of its index. */
function subscript(node: LiteNode): [string, string] {
  const t = node.text;
  return [node.namedChildren[0]?.text ?? "", t.slice(t.indexOf("[") + 1, t.lastIndexOf("]"))];
}

/** The error for a variable whose value the command sets and bash may evaluate as code. */
function evaluationError(ev: Evaluation | undefined, stages: Stage[]): string | null {
  if (!ev) return null;
  // (An associative array's subscripts are strings, not arithmetic.)
  if (ev.quotedCode?.some((a) => !ev.assoc.has(a))) return EVALUATION_ERROR;
  if (!ev.values.size) return null;
  const texts = [...ev.texts];
  for (const [array, index] of ev.subscripts) if (!ev.assoc.has(array)) texts.push(index);
  for (const s of stages) {
    for (const w of s.argv) {
      if (w.kind === "static" && EVAL_SYNTAX.test(w.value)) texts.push(w.value);
    }
  }
  if (!texts.length) return null;
  for (const name of ev.values) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    const re = new RegExp(`(^|[^A-Za-z0-9_])${name}($|[^A-Za-z0-9_])`);
    if (texts.some((t) => re.test(t))) return EVALUATION_ERROR;
  }
  return null;
}

/**
 * Whether tree-sitter took the next word for an assignment's value: it drops escaped blanks
 * after the `=` (`v=\  git push` is `v=git` and `push` to it; bash runs `git push`).
 */
function valueMisread(assignment: LiteNode): boolean {
  const val = assignment.childForFieldName("value");
  const eq = assignment.children.find((c) => c.type === "=" || c.type === "+=");
  return !!val && !!eq && val.startIndex !== eq.endIndex;
}

/** Whether a word of digits alone ends right where a redirect starts (bash's fd for it). */
function fdBefore(redirect: LiteNode): boolean {
  const root = rootOf(redirect);
  const src = root.text;
  let i = redirect.startIndex - root.startIndex;
  const end = i;
  while (i > 0 && src.charCodeAt(i - 1) >= 48 && src.charCodeAt(i - 1) <= 57) i--;
  return i < end && (i === 0 || src[i - 1] === " " || src[i - 1] === "\t");
}

/** Whether a node starts right after `from` or one blank after it. */
function plainOrNone(container: LiteNode, from: number, node: LiteNode): boolean {
  return node.startIndex === from || plainGap(container, from, node.startIndex);
}

/** The root of the tree a node is in (its text is the whole source). */
function rootOf(node: LiteNode): LiteNode {
  let root = node;
  while (root.parent) root = root.parent;
  return root;
}

/**
 * Where the blanks after a command end when an escaped blank is among them (tree-sitter leaves
 * them out of the command); null when there is none, the common case.
 */
function trailingBlanks(command: LiteNode): number | null {
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

class Walker {
  stages: Stage[] = [];
  /** Assignments alone of variables whose value a program runs (BashAnalysis.environment). */
  environment: Stage[] = [];
  /** Where the command's variables may be evaluated as code (see `evaluationError`). */
  evaluationBox: { ev?: Evaluation } = {};
  /** (Made when first needed: most commands have none of it.) */
  get evaluation(): Evaluation {
    return this.evaluationBox.ev ??= {
      values: new Set(),
      texts: [],
      subscripts: [],
      assoc: new Set(),
    };
  }
  error: string | null = null;
  /** Function bodies, walked last: they run wherever they are called. */
  private functions: { body: LiteNode; moves: boolean }[] = [];
  /** Whether something in the command may change the cwd. */
  private moved = false;
  /** Whether the commands being walked read a pipe on their standard input. */
  private piped = false;
  /**
   * Words tree-sitter put in a redirect after the command (`git push 2>/dev/null --force` has
   * `--force` as a second destination), by the id of the command they are arguments of.
   */
  private strayWords: Map<number, (LiteNode | WordGroup)[]> | null = null;
  /** Expandable variables the command may assign (then their value is not known). */
  private touched: ReadonlySet<string>;
  private cdpathUnknown: boolean;

  constructor(
    private env: BashEnv,
    source: string,
    private readWrite: ReadonlySet<number>,
    private parser: BashParser | null,
    /** Shared by the walkers of one command: nodes walked so far. */
    private budget: { steps: number },
    private depth = 0,
  ) {
    // Most commands name none of them: skip the three searches when no `HOME`, `PWD` or `TMPDIR`.
    this.touched = /HOME|PWD|TMPDIR/.test(source)
      ? new Set(EXPANDABLE.filter((n) => BARE_NAMES[n].test(source)))
      : NO_NAMES;
    this.cdpathUnknown = source.includes("CDPATH");
  }

  /** Walk a whole program, then the function bodies it defines. */
  run(root: LiteNode, cwds: Cwds, origin = "top"): Flow {
    const end = this.walk(root, cwds, origin, []);
    while (this.functions.length) {
      const f = this.functions.shift()!;
      const seen = union(end.ok, end.fail, ...this.stages.map((s) => s.cwds));
      this.walk(f.body, f.moves || this.moved ? union(seen, [null]) : seen, "function", []);
    }
    return end;
  }

  /**
   * tree-sitter leaves backticks inside `${…}` and in heredoc bodies as plain text, but bash runs
   * them: parse each `` `…` `` of such text and walk it as a substitution.
   */
  private backticks(text: string, cwds: Cwds): void {
    const bodies = backtickBodies(text);
    if (bodies === null) {
      this.error ??= "an unterminated backtick";
      return;
    }
    for (const body of bodies) this.substitute(body, cwds);
  }

  private substitute(src: string, cwds: Cwds): void {
    const parsed = this.parser && this.depth < 8 ? parseSource(this.parser, src) : null;
    if (!parsed) {
      this.error ??= "a backtick substitution could not be analysed";
      return;
    }
    const sub = new Walker(
      this.env,
      parsed.source,
      parsed.readWrite,
      this.parser,
      this.budget,
      this.depth + 1,
    );
    sub.stages = this.stages;
    sub.environment = this.environment;
    sub.evaluationBox = this.evaluationBox;
    sub.touched = this.touched;
    sub.run(parsed.root, cwds, "substitution");
    if (parsed.root.hasError) this.error ??= syntaxErrorAt(parsed.root);
    this.error ??= sub.error;
  }

  /**
   * Walk a node run in `cwds`; returns the cwds after success and after failure. `tail` are
   * redirects written after a list or pipeline: tree-sitter hangs `a | b > f` and `a && b > f` on
   * the whole, bash gives `> f` to the last command only.
   */
  walk(
    node: LiteNode,
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
    tail: Redirect[] = [],
  ): Flow {
    if (this.stages.length > MAX_STAGES) {
      this.error ??= `the command has more than ${MAX_STAGES} stages`;
      return same(cwds);
    }
    if (++this.budget.steps > MAX_STEPS) {
      this.error ??= "the command is too complex to analyse";
      return same(cwds);
    }
    if (tail.length && node.type === "list") return this.list(node, cwds, origin, redirects, tail);
    if (tail.length && node.type === "pipeline") {
      return this.pipeline(node, cwds, origin, redirects, tail);
    }
    if (tail.length) redirects = [...redirects, ...tail];
    const inner = origin === "top" ? "compound" : origin;
    switch (node.type) {
      case "comment":
        return same(cwds);
      case "word":
      case "heredoc_content":
        if (node.text.includes("`")) this.backticks(node.text, cwds);
        return same(cwds);
      case "command":
      case "declaration_command":
      case "unset_command":
        return this.command(node, cwds, origin, redirects);
      case "redirected_statement":
        return this.redirected(node, cwds, origin, redirects);
      case "list":
        return this.list(node, cwds, origin, redirects);
      case "pipeline":
        return this.pipeline(node, cwds, origin, redirects, []);
      case "negated_command": {
        const r = this.sequenceFlow(node.children, cwds, origin, redirects);
        return { ok: r.fail, fail: r.ok };
      }
      case "subshell":
        this.sequence(node.children, cwds, "subshell", redirects);
        return same(cwds);
      case "command_substitution":
      case "process_substitution": {
        if (node.text.startsWith("`") && (node.text.includes("\\") || backtickPairs(node.text))) {
          // bash removes a backslash before `` ` ``, `\` and `$` inside backticks before it
          // reads the command (`` `g\\it push` `` runs `git push`); tree-sitter reads the text
          // as it stands, and reads `` `a` `b` `` as one substitution running `a` and `b` glued
          // (`` `cat .env` `x` `` runs `cat .envx` to it). Read each body as bash does.
          this.pipedWalk(false, () => this.backticks(node.text, cwds));
          return same(cwds);
        }
        // `>(cmd)` reads what the outer command writes; `$(cmd)` and `<(cmd)` read nothing new.
        const piped = node.text.startsWith(">(");
        this.pipedWalk(piped, () => this.sequence(node.children, cwds, "substitution", []));
        return same(cwds);
      }
      case "function_definition":
        return this.functionDefinition(node, cwds);
      case "if_statement":
      case "case_statement":
        // Branches may run or not: every cwd they can reach stays possible.
        return same(this.sequence(node.children, cwds, inner, redirects, true));
      case "ERROR":
        this.error ??= syntaxErrorAt(node);
        return same(this.sequence(node.children, cwds, origin, redirects));
      case "regex":
        // tree-sitter reads what follows `==` or `=~` as a pattern, substitutions and all, even
        // in a plain command inside `$(…)`: what may run there is not seen.
        if (mayRun(node)) this.error ??= "a substitution the parser read as part of a pattern";
        return same(cwds);
      case "arithmetic_expansion":
        // (In a place no word is decoded: `case $((x)) in`.)
        this.evaluation.texts.push(node.text);
        return same(this.sequence(node.namedChildren, cwds, origin, redirects));
      case "test_command":
        this.testEvaluation(node);
        return same(this.sequence(node.namedChildren, cwds, origin, redirects));
      case "variable_assignment":
        // An assignment alone (`v=1`, `a=$(x)`): its substitutions are the commands it runs.
        if (valueMisread(node)) this.error ??= VALUE_MISREAD;
        this.assigned(node);
        if (carriesCommand(node.text)) {
          const assignment = this.word(node, cwds);
          this.environment.push({
            argv: [],
            redirects: [],
            text: node.text,
            origin,
            cwds,
            assignments: [assignment],
          });
        }
        return same(this.sequence(node.namedChildren, cwds, origin, redirects));
      default:
        if (LOOPS.has(node.type)) return this.loop(node, cwds, inner, redirects);
        // Program, groups, clauses, words, assignments, tests: the commands inside, in order.
        // (Only statement lists can hold a `&`; elsewhere the named children are enough.)
        return same(this.sequence(
          STATEMENT_LISTS.has(node.type) ? node.children : node.namedChildren,
          cwds,
          origin,
          redirects,
        ));
    }
  }

  /** Walk children as `;`-separated statements (`&` runs the previous one in a subshell). */
  sequence(
    children: (LiteNode | null)[],
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
    keepAll = false,
  ): Cwds {
    const r = this.sequenceFlow(children, cwds, origin, redirects, keepAll);
    return union(r.ok, r.fail);
  }

  private sequenceFlow(
    children: (LiteNode | null)[],
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
    keepAll = false,
  ): Flow {
    let cur: Flow = same(cwds);
    const seen: Cwds[] = [cwds];
    for (let i = 0; i < children.length; i++) {
      const c = children[i];
      if (!c || !c.isNamed) continue;
      const r = this.walk(c, union(cur.ok, cur.fail), origin, redirects);
      if (nextNode(children, i)?.type !== "&") cur = r;
      if (keepAll) seen.push(cur.ok, cur.fail);
    }
    return keepAll ? same(union(...seen)) : cur;
  }

  private list(
    node: LiteNode,
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
    tail: Redirect[] = [],
  ): Flow {
    const kids = withoutComments(node.children);
    if (!kids[2]) return this.walk(kids[0], cwds, origin, redirects, tail);
    const a = this.walk(kids[0], cwds, origin, redirects);
    return this.then(a, kids[1].type, kids[2], cwds, origin, redirects, tail);
  }

  /** Every command of a pipeline runs in a subshell: none changes the cwd. */
  private pipeline(
    node: LiteNode,
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
    tail: Redirect[],
  ): Flow {
    const parts = withoutComments(node.namedChildren);
    const last = parts[parts.length - 1];
    if (parts.length > 1 && last.type === "list") {
      return this.misreadPipeline(parts, cwds, origin, redirects, tail);
    }
    this.pipe(parts, cwds, origin, redirects, tail);
    return same(cwds);
  }

  /** The commands of a pipeline, all but the first reading a pipe; `tail` goes to the last. */
  private pipe(
    parts: LiteNode[],
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
    tail: Redirect[],
  ): void {
    parts.forEach((c, i) => {
      const last = i === parts.length - 1 ? tail : [];
      if (i === 0) this.walk(c, cwds, origin, redirects, last);
      else this.walkPiped(c, cwds, origin, redirects, last);
    });
  }

  /**
   * tree-sitter reads `a | b | c && d` as `a | (b | c && d)`; bash runs `(a | b | c) && d`, and a
   * `cd` in `d` moves the commands after it. Walk it as bash runs it: the pipeline up to the first
   * `&&`/`||` of the list, then the list's operators in order.
   */
  private misreadPipeline(
    parts: LiteNode[],
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
    tail: Redirect[],
  ): Flow {
    const chain: [string, LiteNode][] = [];
    let head = parts[parts.length - 1];
    while (head.type === "list") {
      const kids = withoutComments(head.children);
      if (!kids[2]) break;
      chain.unshift([kids[1].type, kids[2]]);
      head = kids[0];
    }
    const piped = [
      ...parts.slice(0, -1),
      ...(head.type === "pipeline" ? withoutComments(head.namedChildren) : [head]),
    ];
    this.pipe(piped, cwds, origin, redirects, []);
    let flow = same(cwds);
    chain.forEach(([op, n], i) => {
      flow = this.then(flow, op, n, cwds, origin, redirects, i === chain.length - 1 ? tail : []);
    });
    return flow;
  }

  /** Walk a command that reads a pipe (`piped` restored after). */
  private walkPiped(
    node: LiteNode,
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
    tail: Redirect[],
  ): Flow {
    const was = this.piped;
    this.piped = true;
    try {
      return this.walk(node, cwds, origin, redirects, tail);
    } finally {
      this.piped = was;
    }
  }

  /** Walk with `piped` set as given (restored after). */
  private pipedWalk<T>(piped: boolean, walk: () => T): T {
    const was = this.piped;
    this.piped = piped;
    try {
      return walk();
    } finally {
      this.piped = was;
    }
  }

  /** Run `node` after flow `a` joined by `op` (`start`: the cwds where the pipeline began). */
  private then(
    a: Flow,
    op: string,
    node: LiteNode,
    start: Cwds,
    origin: string,
    redirects: Redirect[],
    tail: Redirect[] = [],
  ): Flow {
    if (op === "&&") {
      const b = this.walk(node, a.ok, origin, redirects, tail);
      return { ok: b.ok, fail: union(a.fail, b.fail) };
    }
    if (op === "||") {
      const b = this.walk(node, a.fail, origin, redirects, tail);
      return { ok: union(a.ok, b.ok), fail: b.fail };
    }
    if (op === "|" || op === "|&") {
      this.walkPiped(node, start, origin, redirects, tail);
      return { ok: union(a.ok, start), fail: union(a.fail, start) };
    }
    return this.walk(node, union(a.ok, a.fail), origin, redirects, tail);
  }

  private loop(node: LiteNode, cwds: Cwds, origin: string, redirects: Redirect[]): Flow {
    if (node.type === "c_style_for_statement") this.evaluation.texts.push(node.text);
    if (node.type === "for_statement") {
      // The loop variable takes each word: a number from plain numbers and `{1..9}` only.
      const name = node.childForFieldName("variable")?.text;
      const values = node.childrenForFieldName("value");
      const numbers = node.children.some((c) => c.type === "in") &&
        node.children[0].type === "for" &&
        values.every((v) => NUMBER.test(v.text) || /^\{-?\d+\.\.-?\d+(\.\.-?\d+)?\}$/.test(v.text));
      if (name && !numbers) this.evaluation.values.add(name);
    }
    const mark = this.stages.length;
    const marked = this.functions.length;
    const once = this.sequence(node.children, cwds, origin, redirects, true);
    if (once.every((c) => cwds.includes(c))) return same(once);
    // The body moves: later rounds start where earlier ones left off, which may be anywhere.
    this.stages.length = mark;
    this.functions.length = marked;
    return same(this.sequence(node.children, union(once, [null]), origin, redirects, true));
  }

  private functionDefinition(node: LiteNode, cwds: Cwds): Flow {
    const body = node.childForFieldName("body");
    if (!body) return same(cwds);
    const probe = new Walker(this.env, "", this.readWrite, this.parser, this.budget, this.depth);
    probe.walk(body, cwds, "function", []);
    this.error ??= probe.error;
    const moves = probe.moved;
    this.functions.push({ body, moves });
    if (!moves) return same(cwds);
    this.moved = true; // calling it may move the caller
    return same(union(cwds, [null]));
  }

  private redirected(
    node: LiteNode,
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
  ): Flow {
    const body = node.childForFieldName("body");
    const own: Redirect[] = [];
    const after: [string, LiteNode][] = [];
    const stray: (LiteNode | WordGroup)[] = [];
    const list = node.childrenForFieldName("redirect");
    list.forEach((c, i) => {
      // Escaped blanks after the last one are bash's (tree-sitter ends the statement before).
      const to = i === list.length - 1 ? trailingBlanks(node) : null;
      if (c) own.push(...this.redirect(c, cwds, origin, after, stray, to));
    });
    if (stray.length) {
      // They are arguments of the command the redirect follows; after a group, bash refuses them.
      const command = body && lastCommand(body);
      if (command) (this.strayWords ??= new Map()).set(command.id, stray);
      else this.error ??= "words after a redirect that no command takes";
    }
    let flow = body ? this.walk(body, cwds, origin, redirects, own) : same(cwds);
    for (const [op, n] of after) flow = this.then(flow, op, n, cwds, origin, redirects);
    return flow;
  }

  /**
   * The redirects of one redirect node. tree-sitter puts what follows a heredoc start on its line
   * (`| sh`, `&& cd x`, `> out`) inside the heredoc node: redirects come back as redirects, commands
   * go to `after` with their operator, flattened so they chain left to right as bash runs them.
   */
  redirect(
    node: LiteNode,
    cwds: Cwds,
    origin: string,
    after: [string, LiteNode][],
    stray: (LiteNode | WordGroup)[],
    to: number | null = null,
  ): Redirect[] {
    if (node.type === "heredoc_redirect") return this.heredoc(node, cwds, origin, after, stray);
    if (node.type === "herestring_redirect") {
      const [first, ...rest] = this.wordGroups(node, node.namedChildren);
      for (const c of node.namedChildren) if (c) this.walk(c, cwds, origin, []);
      const body = first ? this.groupWord(first, cwds, false) : literal("");
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
        op += this.readWrite.has(c.startIndex) ? "<>" : c.text;
        opEnd = c.endIndex;
      } else dests.push(c);
    }
    if (!fd && fdBefore(node)) {
      // A number glued to the operator is its file descriptor to bash (`\  2>f`): tree-sitter
      // made an argument of it, so the redirect is not the one it read.
      this.error ??= "a file descriptor the parser read as an argument";
    }
    // The first word is the destination; tree-sitter's further destinations are bash's arguments.
    // (Escaped blanks right after the operator begin the destination: `> \ a` writes ` a`.)
    const [dest, ...rest] = this.wordGroups(node, dests, opEnd, to, true);
    stray.push(...rest);
    if (dest) {
      for (const n of "nodes" in dest ? dest.nodes : [dest]) this.walk(n, cwds, origin, []);
    }
    if (op === ">&-" || op === "<&-") return [{ op: fd + op, kind: "dup", target: null }];
    const target = dest ? this.groupWord(dest, cwds, false) : null;
    if (op === ">&" || op === "<&") {
      if (!target || (target.kind === "static" && /^(\d+|-)$/.test(target.value))) {
        return [{ op: fd + op, kind: "dup", target: null }];
      }
      return [{ op: fd + op, kind: op === ">&" ? "write" : "read", target }];
    }
    return [{ op: fd + op, kind: WRITE_OPS.has(op) ? "write" : "read", target }];
  }

  private heredoc(
    node: LiteNode,
    cwds: Cwds,
    origin: string,
    after: [string, LiteNode][],
    stray: (LiteNode | WordGroup)[],
  ): Redirect[] {
    const out: Redirect[] = [];
    let body = literal("");
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
      if (past) this.error ??= "a heredoc body the parser read into the line it starts on";
    }
    for (const c of node.children) {
      if (!c) continue;
      if (!c.isNamed) {
        if (LIST_OPS.has(c.type)) op = c.type;
        continue;
      }
      if (c.type === "heredoc_start" || c.type === "heredoc_end") continue;
      if (c.type === "heredoc_body") body = this.heredocBody(c, cwds, heredocQuoted(node), strip);
      else if (isRedirect(c)) out.push(...this.redirect(c, cwds, origin, after, stray));
      else flatten(c, op, after);
    }
    return [{ op: strip ? "<<-" : "<<", kind: "heredoc", target: null, body }, ...out];
  }

  /** A heredoc body as the command reads it; its substitutions (unquoted bodies) are stages. */
  private heredocBody(node: LiteNode, cwds: Cwds, quoted: boolean, strip: boolean): Word {
    const tabs = (t: string) => (strip ? t.replace(/^\t+/gm, "") : t);
    if (quoted) return { ...literal(tabs(node.text)), text: node.text };
    // tree-sitter leaves backticks in the body as text: find them in the text between nodes.
    for (const c of node.namedChildren) {
      if (c && c.type !== "heredoc_content") this.walk(c, cwds, "substitution", []);
    }
    const parts = this.textParts(node, 0, 0, cwds, (t) => {
      if (backtickBodies(t)?.length === 0) return [{ value: unescapeHeredoc(t), kind: "static" }];
      this.backticks(t, cwds);
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

  command(node: LiteNode, cwds: Cwds, origin: string, redirects: Redirect[]): Flow {
    const piped = this.piped;
    // The words' substitutions do not read the pipe (set back after, even on a throw).
    this.piped = false;
    let parts: ReturnType<Walker["commandParts"]>;
    try {
      parts = this.commandParts(node, cwds, origin);
    } finally {
      this.piped = piped;
    }
    const { argv, coproc, assignments } = stripKeywords(parts.words);
    const name = argv[0];
    if (
      name && name.kind === "static" && name.text === name.value && RESERVED.has(name.value) &&
      !(name.value === "}" && argv.length === 1) // the end of `time { …; }`, read on its own
    ) {
      // `! if …`, `! { …; }` and `! ! …` are plain commands named `if`, `{` and `!` to
      // tree-sitter.
      this.error ??= `the parser read the reserved word "${name.value}" as a command`;
    }
    const stage: Stage = {
      argv,
      redirects: [...redirects, ...parts.own],
      text: node.parent?.type === "redirected_statement" &&
          node.parent.childForFieldName("body")?.id === node.id
        ? node.parent.text
        : node.text,
      origin,
      cwds,
    };
    if (parts.assignments.length || assignments.length) {
      stage.assignments = [...parts.assignments, ...assignments];
    }
    if (piped) stage.piped = true;
    this.stages.push(stage);
    if (name?.kind === "static" && Object.hasOwn(NAME_READERS, name.value)) {
      this.builtinEvaluation(name.value, argv.slice(1));
    }
    let flow = same(cwds);
    if (!coproc) flow = { ok: this.cdEffect(argv, cwds), fail: cwds };
    for (const [op, n] of parts.after) flow = this.then(flow, op, n, cwds, origin, redirects);
    return flow;
  }

  /** The words, assignments, redirects and heredoc followers of a command node. */
  private commandParts(node: LiteNode, cwds: Cwds, origin: string) {
    const words: Word[] = [];
    const assignments: Word[] = [];
    const own: Redirect[] = [];
    const after: [string, LiteNode][] = [];
    // Word nodes come in runs between redirects: a run is grouped into bash's words.
    let run: LiteNode[] = [];
    let boundary: number | null = null;
    const flush = (to: number | null) => {
      if (run.length || (boundary !== null && to !== null)) {
        for (const g of this.wordGroups(node, run, boundary, to)) {
          const w = this.groupWord(g, cwds, true);
          const first = "nodes" in g ? g.nodes[0] : g;
          const assignment = node.type === "command" && first?.type === "variable_assignment";
          (assignment ? assignments : words).push(w);
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
        if (node.type !== "command" && words.length === 0) words.push(literal(c.text));
        boundary = null;
        continue;
      }
      if (c.type === "comment") continue;
      if (c.type === "regex") {
        // After `==`/`=~` in a plain command (inside `( )` or `$(…)`), tree-sitter reads the rest
        // as a pattern, `|` and the next command included (`( x ==|rm -rf / )`).
        this.error ??= "the parser read the rest of a command as a pattern";
      }
      if (isRedirect(c)) {
        flush(c.startIndex);
        const stray: (LiteNode | WordGroup)[] = [];
        own.push(...this.redirect(c, cwds, origin, after, stray));
        for (const g of stray) words.push(this.groupWord(g, cwds, true));
        boundary = c.endIndex;
        continue;
      }
      run.push(c);
    }
    // tree-sitter ends a command before escaped blanks after its last word (`cd \ ;`): they are
    // still bash's, a word of their own or the end of the last one.
    flush(trailingBlanks(node));
    for (const g of this.strayWords?.get(node.id) ?? []) words.push(this.groupWord(g, cwds, true));
    return { words, assignments, own, after };
  }

  /**
   * The words bash reads from word nodes in source order (within `container`): nodes with no
   * blank between them are one word, and escaped blanks between nodes are text of the words.
   * `from` and `to` bound the run (the end of a redirect or keyword before it, the start of a
   * redirect after it; null at the container's ends): escaped blanks there belong to its words.
   * A node that is a word alone stands for itself.
   */
  private wordGroups(
    container: LiteNode,
    nodes: LiteNode[],
    from: number | null = null,
    to: number | null = null,
    afterOperator = false,
  ): (LiteNode | WordGroup)[] {
    if (afterOperator && from !== null && nodes.length && plainOrNone(container, from, nodes[0])) {
      from = null; // `>f` and `> f`: nothing before the destination but the operator
    }
    if (from === null && to === null) {
      // The common case: one blank between the nodes, nothing glued.
      let plain = true;
      for (let i = 1; plain && i < nodes.length; i++) {
        plain = plainGap(container, nodes[i - 1].endIndex, nodes[i].startIndex);
      }
      if (plain) return nodes;
    }
    const out: (LiteNode | WordGroup)[] = [];
    const root = rootOf(container);
    const text = (a: number, b: number) =>
      root.text.slice(a - root.startIndex, b - root.startIndex);
    const blankWord = (f: string) => {
      out.push({ nodes: [], joints: [], lead: f, trail: "", text: f.replace(/[ \t]/g, "\\$&") });
    };
    const fieldsOf = (a: number, b: number): string[] | null => {
      if (b <= a) return [""];
      if (plainGap(root, a, b)) return ["", ""];
      const fields = gapFields(text(a, b));
      if (fields === null) this.error ??= "text between words that the parser left out";
      return fields;
    };
    let cur: WordGroup | null = null;
    let start = 0;
    const close = (end: number, trail: string) => {
      if (!cur) return;
      cur.trail = trail;
      cur.text = text(start, end);
      out.push(cur.nodes.length === 1 && !cur.lead && !trail ? cur.nodes[0] : cur);
      cur = null;
    };
    let lead = "";
    if (from !== null && nodes.length) {
      const fields = fieldsOf(from, nodes[0].startIndex) ?? ["", ""];
      if (afterOperator) {
        // What touches the operator begins the destination (a word of blanks when it ends).
        if (fields.length > 1 && fields[0]) blankWord(fields[0]);
      } else if (fields.length === 1 || fields[0] !== "") {
        // A word glued to the redirect before it continues the redirect's word, which tree-sitter
        // ended early (`<<< "a"\b`): what the redirect reads or writes is not what it read.
        this.error ??= "a word glued to a redirect the parser ended early";
      }
      for (const f of fields.slice(1, -1)) blankWord(f);
      lead = fields[fields.length - 1];
      if (fields.length === 1 && !afterOperator) lead = "";
    }
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      if (cur) {
        const prev = nodes[i - 1];
        const fields = fieldsOf(prev.endIndex, n.startIndex) ?? ["", ""];
        if (fields.length === 1) {
          (cur as WordGroup).joints.push(fields[0]);
          (cur as WordGroup).nodes.push(n);
          continue;
        }
        close(prev.endIndex + 2 * fields[0].length, fields[0]);
        for (const f of fields.slice(1, -1)) blankWord(f);
        lead = fields[fields.length - 1];
      }
      cur = { nodes: [n], joints: [], lead, trail: "", text: "" };
      start = n.startIndex - 2 * lead.length;
      lead = "";
    }
    if (nodes.length) {
      const endNode = nodes[nodes.length - 1].endIndex;
      const fields = to === null ? [""] : fieldsOf(endNode, to) ?? [""];
      close(endNode + 2 * fields[0].length, fields[0]);
      // A redirect operator ends a word: what touches it is a word of its own.
      for (const f of fields.slice(1)) if (f) blankWord(f);
    } else if (from !== null && to !== null) {
      for (const f of fieldsOf(from, to) ?? []) if (f) blankWord(f);
    }
    return out;
  }

  /**
   * The word of a group, its substitutions walked when `walk` (a redirect walks its own
   * destination). A node alone decodes as it always did.
   */
  private groupWord(g: LiteNode | WordGroup, cwds: Cwds, walk: boolean): Word {
    if (!("nodes" in g)) {
      if (g.type === "variable_assignment") {
        if (walk && mayRun(g)) this.sequence(g.namedChildren, cwds, "substitution", []);
        return this.word(g, cwds);
      }
      const target = g.type === "command_name" ? g.namedChildren[0] ?? g : g;
      return walk ? this.argument(target, cwds) : this.word(target, cwds);
    }
    const parts: Part[] = [];
    if (g.lead) parts.push({ value: g.lead, kind: "static" });
    const assignment = !g.lead && g.nodes.length > 0 && isAssignmentShaped(g.nodes[0]);
    for (let i = 0; i < g.nodes.length; i++) {
      const n = g.nodes[i];
      if (i > 0 && g.joints[i - 1]) parts.push({ value: g.joints[i - 1], kind: "static" });
      if (walk && mayRun(n)) {
        this.sequence(
          n.type === "variable_assignment" ? n.namedChildren : [n],
          cwds,
          "substitution",
          [],
        );
      }
      const target = n.type === "command_name" ? n.namedChildren[0] ?? n : n;
      const more = i < g.nodes.length - 1 || g.trail !== "";
      const place = { first: i === 0 && !g.lead, more, assignment };
      for (const p of this.parts(target, cwds, place)) parts.push(p);
    }
    if (g.trail) parts.push({ value: g.trail, kind: "static" });
    return braceExpanded(fromParts(parts, g.text), parts);
  }

  /** A word of a command, its substitutions walked. */
  private argument(node: LiteNode, cwds: Cwds): Word {
    if (mayRun(node)) this.sequence([node], cwds, "substitution", []);
    return this.word(node, cwds);
  }

  /** The cwds after a stage succeeds (unchanged for commands that do not change directory). */
  private cdEffect(argv: Word[], cwds: Cwds): Cwds {
    const home = this.touched.has("HOME") ? null : this.env.env.HOME ?? this.env.home;
    const next = cdTarget(argv, cwds, { home, env: this.env, cdpathUnknown: this.cdpathUnknown });
    if (next === null) return cwds;
    this.moved = true;
    return next;
  }

  /** Note an assignment (`x=…`, `a[i]=…`, `a=(…)`) for `evaluationError`. */
  private assigned(node: LiteNode): void {
    // (An assignment inside arithmetic, `for ((i = x; …))`, sets a number.)
    for (let p = node.parent; p; p = p.parent) {
      if (p.type === "c_style_for_statement" || p.type === "arithmetic_expansion") return;
      if (p.type === "program" || p.type === "command") break;
    }
    const target = node.childForFieldName("name");
    const val = node.childForFieldName("value");
    let name = target?.text ?? "";
    if (target?.type === "subscript") {
      const s = subscript(target);
      name = s[0];
      this.evaluation.subscripts.push(s);
    }
    if (val?.type === "array") {
      // `a=([i]=v …)`: an indexed array's subscripts are arithmetic, even quoted ones.
      for (const el of val.namedChildren) {
        if (!el.text.startsWith("[")) continue;
        const raw = el.text.slice(1, el.text.indexOf("]"));
        this.evaluation.subscripts.push([name, raw]);
        const t = el.text.replace(/['"\\]/g, "");
        if (raw !== t.slice(1, t.indexOf("]")) && SUBSCRIPT_CODE.test(t)) {
          (this.evaluation.quotedCode ??= []).push(name);
        }
      }
    }
    if (!val || !(NUMBER.test(val.text) || numericOutput(val))) this.evaluation.values.add(name);
  }

  /** `[[ x -eq y ]]` compares numbers: both sides are arithmetic. `[[ -v name ]]` reads a name. */
  private testEvaluation(node: LiteNode): void {
    // (`[ x -eq 1 ]` is the test builtin: it takes numbers only, and evaluates nothing.)
    if (node.type === "test_command" && node.children[0]?.type !== "[[") return;
    for (const c of node.namedChildren) {
      if (c.type === "binary_expression" || c.type === "unary_expression") {
        const op = c.children.find((k) => k.type === "test_operator")?.text ?? "";
        if (ARITHMETIC_TESTS.has(op)) this.evaluation.texts.push(c.text);
        if (op === "-v") {
          const operand = c.namedChildren[c.namedChildren.length - 1];
          const t = operand?.text.replace(/['"\\]/g, "") ?? "";
          if (SUBSCRIPT_CODE.test(t)) this.error ??= EVALUATION_ERROR;
          this.evaluation.texts.push(operand?.text ?? "");
        }
      }
      this.testEvaluation(c);
    }
  }

  /** `${!x}`, `${s:x}`, `${a[x]}` evaluate; `${x@P}` runs the substitutions in x's value. */
  private expansionEvaluation(node: LiteNode): void {
    const kids = node.children;
    for (let i = 1; i < kids.length; i++) {
      const k = kids[i];
      if (k.type === "!" && i === 1) this.evaluation.texts.push(node.text);
      else if (k.type === ":") {
        // The offset and length after the `:` are arithmetic.
        this.evaluation.texts.push(kids.slice(i + 1).map((c) => c.text).join(" "));
        break;
      } else if (k.type === "subscript") this.evaluation.subscripts.push(subscript(k));
      else if (k.type === "@" && kids[i + 1]?.text === "P") {
        this.error ??= "a prompt expansion (${x@P}) runs the command substitutions in its value";
      }
    }
  }

  /** Builtins that read names or arithmetic from their arguments (NAME_READERS). */
  private builtinEvaluation(name: string, args: Word[]): void {
    const valued = NAME_READERS[name];
    const flags: string[] = [];
    const operands: Word[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      const v = a.kind === "static" ? a.value : "";
      if (/^[-+][A-Za-z]+$/.test(v) && !operands.length) {
        flags.push(v.slice(1));
        // A valued option's value is the rest of the cluster or the next word.
        const at = [...v.slice(1)].findIndex((c) => valued.includes(c));
        if (at >= 0) {
          const value = at + 2 < v.length ? literal(v.slice(at + 2)) : args[++i];
          const opt = v[at + 1];
          // read -a NAME, printf -v NAME and wait -p NAME name a variable to set.
          const sets = (name === "read" && opt === "a") || (name === "printf" && opt === "v") ||
            (name === "wait" && opt === "p");
          if (value && sets) {
            this.nameTarget(value);
          }
        }
      } else if (v === "--" && !operands.length) continue;
      else operands.push(a);
    }
    const all = flags.join("");
    switch (name) {
      case "read":
      case "mapfile":
      case "readarray":
        for (const w of operands) this.nameTarget(w);
        return;
      case "getopts":
        if (operands[1]) this.nameTarget(operands[1]);
        return;
      case "let":
        for (const w of args) this.evaluation.texts.push(w.text);
        return;
      case "test":
      case "[":
        args.forEach((w, i) => {
          if (w.kind === "static" && w.value === "-v" && args[i + 1]) this.nameTarget(args[i + 1]);
        });
        return;
      case "eval":
        for (const w of args) if (w.kind === "static") this.evaluation.texts.push(w.value);
        return;
      case "printf":
      case "wait":
        return;
    }
    // declare, typeset, local, readonly, export: NAME or NAME=value words.
    for (const w of operands) {
      const eq = w.value.indexOf("=");
      const named = w.kind === "static" || (eq > 0 && /^[A-Za-z_]\w*$/.test(w.prefix.slice(0, eq)));
      if (!named || SUBSCRIPT_CODE.test(eq < 0 ? w.value : w.value.slice(0, eq))) {
        this.error ??= EVALUATION_ERROR;
        return;
      }
      const variable = (eq < 0 ? w.value : w.value.slice(0, eq)).replace(/\[.*$/, "");
      const value = eq < 0 ? null : w.value.slice(eq + 1);
      if (all.includes("A")) this.evaluation.assoc.add(variable);
      if (all.includes("i") && value !== null) this.evaluation.texts.push(value);
      if (all.includes("n") && value !== null) {
        // A nameref: every use of the variable reads `value` as a name.
        if (SUBSCRIPT_CODE.test(value)) this.error ??= EVALUATION_ERROR;
        this.evaluation.values.add(variable);
      }
    }
  }

  /** A word a builtin takes as the name of a variable it sets (`read NAME`). */
  private nameTarget(w: Word): void {
    if (w.kind !== "static" || SUBSCRIPT_CODE.test(w.value)) {
      this.error ??= EVALUATION_ERROR;
      return;
    }
    this.evaluation.values.add(w.value.replace(/\[.*$/, ""));
  }

  /** The one directory `$PWD` names, or null when the stage may run in several or an unknown one. */
  private pwd(cwds: Cwds): string | null {
    return cwds.length === 1 && !this.touched.has("PWD") ? cwds[0] : null;
  }

  /** Decode a word node to the value bash will use. */
  word(node: LiteNode, cwds: Cwds): Word {
    // Most words are plain text: no quotes, escapes, expansions, globs, braces or tilde.
    if (node.type === "word" && PLAIN_WORD.test(node.text)) return literal(node.text);
    const parts = this.parts(node, cwds, FIRST);
    return braceExpanded(fromParts(parts, node.text), parts);
  }

  /** The parts of a word node, placed in its bash word as `at` says (a `~` prefix needs it). */
  parts(node: LiteNode, cwds: Cwds, at: WordPlace): Part[] {
    const { first, more = false } = at;
    switch (node.type) {
      case "word":
      case "command_name": {
        const text = node.text;
        if (first && text.startsWith("~")) return this.tilde(text, cwds, { more });
        // bash expands `~` after the `=` of an argument shaped like an assignment, and after
        // each `:` of its value (`dd if=~/x`, `x=a:~/b`).
        if (first && text.includes("~") && ASSIGNMENT_PREFIX.test(text)) {
          const eq = text.indexOf("=") + 1;
          return [
            { value: text.slice(0, eq), kind: "static", unquoted: true },
            ...this.tilde(text.slice(eq), cwds, { assignment: true, more }),
          ];
        }
        if (at.assignment && !first && text.includes(":~")) {
          return this.tilde(text, cwds, { assignment: true, more, continued: true });
        }
        if (backtickBodies(text)?.length !== 0) return [{ value: text, kind: "dynamic" }];
        return [unquotedPart(text)];
      }
      case "number":
      case "test_operator":
      case "variable_name":
        return [{ value: node.text, kind: "static", unquoted: true }];
      case "raw_string":
        return [{ value: node.text.slice(1, -1), kind: "static" }];
      case "ansi_c_string":
        return [{ value: decodeAnsiC(node.text.slice(2, -1)), kind: "static" }];
      case "translated_string":
      case "string":
        return this.stringParts(node, cwds);
      case "concatenation": {
        const out: Part[] = [];
        const kids = node.children;
        const assignment = at.assignment || (first && isAssignmentShaped(kids[0]));
        if (first && assignment && node.text.includes("~") && kids.some(isExpansion)) {
          // bash expands `~` in such a word on its raw text, leaving some expansions as text
          // (`x=~${HOME}` keeps `${HOME}`): what it makes of it is not modelled.
          return [{ value: node.text, kind: "dynamic" }];
        }
        for (let i = 0; i < kids.length; i++) {
          const c = kids[i];
          if (!c.isNamed && c.type !== "$") continue;
          if (first && i === 0 && tildeTakesExpansion(c, kids[i + 1])) {
            // bash expands the `~` and keeps the expansion's text as it is (`~:$HOME`).
            out.push({ value: node.text, kind: "dynamic" });
            return out;
          }
          // `~` starts a tilde prefix only at the start of the word (not after `""`).
          const place = !more && !assignment && i === kids.length - 1
            ? (first && i === 0 ? FIRST : NOT_FIRST)
            : { first: first && i === 0, more: more || i < kids.length - 1, assignment };
          for (const p of this.parts(c, cwds, place)) out.push(p);
        }
        return out;
      }
      case "==":
      case "=~":
        // tree-sitter's test operators, as arguments of a command (`test a == b`): plain text.
        return [{ value: node.text, kind: "static", unquoted: true }];
      case "$":
        return [dollarPart(node)];
      case "simple_expansion":
      case "expansion":
        return [this.expansion(node, cwds)];
      case "arithmetic_expansion":
        // A number, but one computed from variables can run code hidden in their values.
        this.evaluation.texts.push(node.text);
        return [{
          value: node.text,
          kind: /[A-Za-z_$`]/.test(node.text.slice(2)) ? "dynamic" : "static",
        }];
      case "process_substitution":
        return [{ value: "/dev/fd/63", kind: "static" }];
      case "brace_expression":
        return [{ value: node.text, kind: "glob", unquoted: true }];
      case "variable_assignment": {
        const name = node.childForFieldName("name")?.text ?? "";
        const val = node.childForFieldName("value");
        if (valueMisread(node)) this.error ??= VALUE_MISREAD;
        this.assigned(node);
        const op = node.text.slice(name.length).startsWith("+=") ? "+=" : "=";
        // In an assignment's value, `~` starts a prefix after the `=` and after every `:`.
        const value = val?.type === "word" && val.text.startsWith("~")
          ? this.tilde(val.text, cwds, { assignment: true })
          : val
          ? this.parts(val, cwds, FIRST)
          : [];
        // (A name with an escape is text glued to a word before it: `v="a"\bx=1` is `v=abx=1`.)
        return [{ value: unescapeUnquoted(name) + op, kind: "static" }, ...value];
      }
      default:
        return [{ value: node.text, kind: "dynamic" }];
    }
  }

  /**
   * Unquoted text with `~` prefixes: at its start, and in an assignment's value after every
   * unescaped `:` (`PATH=~/bin:~/x`). `continued`: the text goes on a bash word begun before
   * it, so its start is no prefix; `more`: the word goes on after it.
   */
  private tilde(
    text: string,
    cwds: Cwds,
    opts: { assignment?: boolean; more?: boolean; continued?: boolean } = {},
  ): Part[] {
    const segments = opts.assignment ? splitUnescaped(text, ":") : [text];
    const out: Part[] = [];
    segments.forEach((seg, i) => {
      if (i > 0) out.push({ value: ":", kind: "static", unquoted: true });
      const last = i === segments.length - 1;
      const prefix = seg.startsWith("~") && !(i === 0 && opts.continued);
      const part = prefix ? this.tildePrefix(seg, cwds, last && !!opts.more) : null;
      out.push(part ?? unquotedPart(seg));
    });
    return out;
  }

  /**
   * One `~` prefix expanded, or null when bash leaves it: it runs to the first `/`, and a quoted
   * or escaped character in it stops the expansion, as does the word going on past it (`more`).
   * A `:` ends the user name (`~:x` is `$HOME:x`). `~user` and `~-` are not known.
   */
  private tildePrefix(seg: string, cwds: Cwds, more: boolean): Part | null {
    const slash = seg.indexOf("/");
    const prefix = slash === -1 ? seg : seg.slice(0, slash);
    if (prefix.includes("\\") || (slash === -1 && more)) return null;
    const colon = prefix.indexOf(":");
    const head = colon === -1 ? prefix : prefix.slice(0, colon);
    const dir = head === "~"
      ? (this.touched.has("HOME") ? null : this.env.env.HOME ?? this.env.home)
      : head === "~+"
      ? this.pwd(cwds)
      : null;
    if (dir === null) return { value: seg, kind: "dynamic" };
    const tail = unquotedPart(seg.slice(head.length));
    return { ...tail, value: dir + tail.value };
  }

  private stringParts(node: LiteNode, cwds: Cwds): Part[] {
    const body = node.type === "translated_string" ? node.namedChildren[0] ?? node : node;
    return this.textParts(body, 1, 1, cwds, (t) => [{
      value: unescapeDoubleQuoted(t),
      kind: "static",
    }]);
  }

  /**
   * The parts of quoted text with expansions inside (a string, a heredoc body): literal text
   * between and in `*_content` nodes goes through `text`; expansions are decoded, never globs.
   * `open`/`close`: delimiter lengths at either end (`"` of a string, nothing for a body).
   */
  private textParts(
    node: LiteNode,
    open: number,
    close: number,
    cwds: Cwds,
    text: (t: string) => Part[],
  ): Part[] {
    const out: Part[] = [];
    const src = node.text;
    let last = open;
    const literal = (t: string) => {
      if (t) out.push(...text(t));
    };
    for (const c of node.namedChildren) {
      if (!c) continue;
      literal(src.slice(last, c.startIndex - node.startIndex));
      if (c.type === "string_content" || c.type === "heredoc_content") literal(c.text);
      else {
        for (const p of this.parts(c, cwds, NOT_FIRST)) {
          out.push({ value: p.value, kind: p.kind === "glob" ? "static" : p.kind });
        }
      }
      last = c.endIndex - node.startIndex;
    }
    literal(src.slice(last, src.length - close));
    return out;
  }

  private expansion(node: LiteNode, cwds: Cwds): Part {
    if (node.type === "expansion") this.expansionEvaluation(node);
    const name = simpleName(node);
    if (name !== null && NUMERIC_PARAMS.has(name)) return { value: node.text, kind: "static" };
    if (name !== null && EXPANDABLE.includes(name) && !this.touched.has(name)) {
      const v = name === "PWD"
        ? this.pwd(cwds)
        : name === "HOME"
        ? (this.env.env.HOME ?? this.env.home)
        : this.env.env[name];
      if (v !== undefined && v !== null) return { value: v, kind: "static" };
    }
    return { value: node.text, kind: "dynamic" };
  }
}

/** The nodes of a list or pipeline, comments left out. */
function withoutComments(nodes: (LiteNode | null)[]): LiteNode[] {
  return nodes.filter((c): c is LiteNode => !!c && c.type !== "comment");
}

/**
 * Whether a word may run a command when expanded: every way to do so (`$(…)`, `` `…` ``,
 * `<(…)`, `$((…))`, `${ …; }`) has a `(`, a backtick or `${` in its text. Others need no walk.
 */
function mayRun(word: LiteNode): boolean {
  const t = word.text;
  return t.includes("(") || t.includes("`") || t.includes("${");
}

/**
 * The commands inside the unescaped backtick pairs of some text, with the backslashes bash removes
 * there (before `` ` ``, `\\` and `$`); null when a backtick is not closed.
 */
export function backtickBodies(text: string): string[] | null {
  const out: string[] = [];
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "`" && open === -1) open = i;
    else if (text[i] === "`") {
      out.push(text.slice(open + 1, i).replace(/\\([`\\$])/g, "$1"));
      open = -1;
    }
  }
  return open === -1 ? out : null;
}

/** Whether text holds more than one pair of backticks (`` `a` `b` ``: two substitutions). */
function backtickPairs(text: string): boolean {
  return text.indexOf("`", 1) < text.length - 1;
}

/** Text split at each `sep` not escaped by a backslash. */
function splitUnescaped(text: string, sep: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === sep) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out;
}

/** Unquoted text as a part: escapes removed, a glob when it has an unescaped `*`, `?` or `[`. */
function unquotedPart(text: string): Part {
  const glob = /(^|[^\\])(\\\\)*[*?[]/.test(text);
  return { value: unescapeUnquoted(text), kind: glob ? "glob" : "static", unquoted: true };
}

/** A word with unquoted braces that bash expands into several: a glob of its prefix. */
function braceExpanded(w: Word, parts: Part[]): Word {
  if (
    w.kind === "static" && parts.some((p) => p.unquoted && /[{}]/.test(p.value)) &&
    /\{[^{}]*(,|\.\.)[^{}]*\}/.test(w.value)
  ) {
    return { ...w, kind: "glob", prefix: w.value.slice(0, w.value.indexOf("{")) };
  }
  return w;
}

/** A word from its parts: the known prefix stops at the first unknown part or glob character. */
function fromParts(parts: Part[], text: string): Word {
  let value = "";
  let prefix = "";
  let kind: Word["kind"] = "static";
  for (const p of parts) {
    if (kind === "static" && p.kind !== "dynamic") {
      prefix += p.kind === "glob" ? p.value.slice(0, p.value.search(/[*?[{]/)) : p.value;
    }
    if (p.kind === "dynamic") kind = "dynamic";
    else if (p.kind === "glob" && kind === "static") kind = "glob";
    value += p.value;
  }
  return { value, kind, prefix, text };
}

/** A word bash takes as it is written (every character literal, none special anywhere). */
const PLAIN_WORD = /^[A-Za-z0-9_./,:+%@=-]+$/;

/** A static word for a keyword token. */
function literal(text: string): Word {
  return { value: text, kind: "static", prefix: text, text };
}

/**
 * Drop the reserved words tree-sitter reads as a command name: `time [-p]`, `coproc [NAME]` and
 * the `{` of a group after them. The stage is the command they run.
 */
function stripKeywords(argv: Word[]): { argv: Word[]; coproc: boolean; assignments: Word[] } {
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
  // `time v=1 cmd`: tree-sitter reads the assignment as an argument of `time`; to bash it is one.
  const assignments: Word[] = [];
  while (i < argv.length - 1 && ASSIGNMENT_PREFIX.test(argv[i].text)) assignments.push(argv[i++]);
  return { argv: argv.slice(i), coproc, assignments };
}

/** Words bash reserves: unquoted in a command's place, tree-sitter misread a compound command. */
const RESERVED = new Set([
  "!",
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "for",
  "case",
  "esac",
  "select",
  "function",
  "{",
  "}",
  "[[",
  "]]",
]);

/** Flatten what follows a heredoc start into `[operator, statement]` pairs, left to right. */
function flatten(node: LiteNode, op: string, out: [string, LiteNode][]): void {
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

/** The first non-null child after index `i`. */
function nextNode(children: (LiteNode | null)[], i: number): LiteNode | undefined {
  for (let j = i + 1; j < children.length; j++) if (children[j]) return children[j]!;
  return undefined;
}

function isRedirect(n: LiteNode): boolean {
  return n.type === "file_redirect" || n.type === "heredoc_redirect" ||
    n.type === "herestring_redirect";
}

/** A name used other than as `$NAME`/`${NAME}` (assigned, read into, exported, looped over). */
function bareName(name: string): RegExp {
  return new RegExp(`(?<![\\w$])(?<!\\$\\{)${name}(?!\\w)`);
}
/** bareName of each expandable variable, compiled once. */
const BARE_NAMES: Record<string, RegExp> = Object.fromEntries(
  EXPANDABLE.map((n) => [n, bareName(n)]),
);

/** `$NAME` or `${NAME}` without operators: the name; otherwise null. */
function simpleName(node: LiteNode): string | null {
  const m = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[?$#!-])\}|([A-Za-z_][A-Za-z0-9_]*|[?$#!-]))$/.exec(
    node.text,
  );
  return m ? (m[1] ?? m[2]) : null;
}

/** Whether a redirect target is a real file (not /dev/null, /dev/stdout, /dev/fd/N, ...). */
export function isFileTarget(r: Redirect): boolean {
  if (!r.target || (r.kind !== "write" && r.kind !== "read")) return false;
  return !(r.target.kind === "static" && NOT_TARGETS.test(r.target.value));
}

/** The command string rules match: the argv as it runs, then the file redirects. */
export function commandString(stage: Stage): string {
  const argv = stage.argv;
  let s = argv.length ? argv[0].value : "";
  for (let i = 1; i < argv.length; i++) s += " " + argv[i].value;
  for (const r of stage.redirects) if (isFileTarget(r)) s += ` ${r.op} ${r.target!.value}`;
  return s;
}

/**
 * A `$` tree-sitter read as plain text (`grep ^$`). When the command goes on right after it, the
 * `$` began an expansion that tree-sitter split off into the next word (`$HOME/$X/id_rsa` is read
 * as `$HOME/$` and `X/id_rsa`): its value is not known.
 */
function dollarPart(node: LiteNode): Part {
  let root = node;
  while (root.parent) root = root.parent;
  const after = root.text[node.endIndex - root.startIndex];
  const ends = after === undefined || " \t\n|&;<>()`".includes(after);
  return ends ? { value: "$", kind: "static", unquoted: true } : { value: "$", kind: "dynamic" };
}

/** The command a redirect after `node` belongs to (the last one of a list or pipeline), or null. */
function lastCommand(node: LiteNode): LiteNode | null {
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
