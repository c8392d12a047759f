/**
 * What the parts of the walk share: the {@linkcode WalkContext} the walker passes down to the
 * modules for words, redirects, evaluation and repairs (they never import the walker back), and
 * the state types it holds.
 *
 * @module
 */
import type { Cwds, Flow } from "./cwds.ts";
import type { BashEnv, ListedGlob, Redirect, Stage } from "./model.ts";
import type { LiteNode } from "./syntax_tree.ts";
import type { Calls } from "./walk_calls.ts";
import type { Values } from "./walk_values.ts";
import type { WalkedCommand } from "./walk_lines.ts";

/**
 * One word as bash reads it, from the nodes tree-sitter may have split it into: after a quote, an
 * expansion or a substitution it starts a new word at a `\` or a backtick (`"--for"\ce` is two
 * arguments to it, `--force` to bash), and it drops escaped blanks between nodes (`"a"\ b` is
 * one word, `a b`). `lead` and `trail` are escaped blanks at its ends; `joints` are the escaped
 * blanks between its nodes. A word of escaped blanks alone has no nodes.
 */
export interface WordGroup {
  nodes: LiteNode[];
  joints: string[];
  lead: string;
  trail: string;
  /** Its source text. */
  text: string;
}

/**
 * Where bash may evaluate a variable's value as code. In arithmetic (`$((x))`, `((…))`, `let`,
 * `declare -i`, `[[ x -eq y ]]`, an indexed array's subscript, `${s:x}`) bash takes a variable
 * holding `a[$(cmd)]` as an expression and runs `cmd` to get the subscript, and so it does for a
 * name it is given as text (`${!x}`, `read`, `printf -v`, `declare`, `test -v`, a nameref). The
 * command's own variables are watched: one set to anything but a number (`values`) that appears
 * in such a place (`texts`, `subscripts` of arrays not declared associative) makes the command
 * one that cannot be seen. (The environment's values are the user's.)
 */
export interface Evaluation {
  values: Set<string>;
  texts: string[];
  subscripts: [string, string][];
  assoc: Set<string>;
  /** Arrays given a quoted subscript that expands something (`a=(['$(cmd)']=1)`). */
  quotedCode?: string[];
  /** Variables declared integer (`declare -i n`): bash evaluates what is assigned to them. */
  integers?: Set<string>;
  /** Variables assigned a value that may hold code (a subscript that expands, a substitution). */
  codeAssigned?: Set<string>;
  /** Variables set by name (`read NAME`, `printf -v NAME`, `for NAME in`): to any string. */
  readInto?: Set<string>;
  /** The command defines a function: its positional parameters are the call's arguments. */
  functions?: boolean;
  /** `NAME=value` arguments of programs (env and its kin make them environment): the words. */
  arguments?: Map<string, Set<string>>;
}

/**
 * The walker as the concern modules see it: the state of the walk of one command and the
 * control-flow steps they hand nodes back to. (The walker itself is one; passing it down costs
 * nothing per node.)
 */
export interface WalkContext {
  /** What the analysis may assume. */
  readonly env: BashEnv;
  /** The stages found so far. */
  readonly stages: Stage[];
  /** Offsets of the `<>` operators the source had (parsed as `>>`). */
  readonly readWrite: ReadonlySet<number>;
  /** Expandable variables the command may assign (then their value is not known). */
  readonly touched: ReadonlySet<string>;
  /** Names the command may define functions of (`functionNames`). */
  readonly defined: ReadonlySet<string>;
  /** Where the command's variables may be evaluated as code (made when first needed). */
  readonly evaluation: Evaluation;
  /** The values the command gives its variables, where known at this point of the walk. */
  readonly values: Values;
  /** The calls of the functions the command defines, where walked at each call. */
  readonly calls: Calls | null;
  /** The command walked last and its stage (a substitution's, read by the word it is in). */
  readonly lastCommand: WalkedCommand | null;
  /** The first reason the command cannot be fully analysed. */
  error: string | null;
  /** The `for` lists' globs expanded by `env.listing`; null: this walker lists none. */
  listed: ListedGlob[] | null;
  /** `$OLDPWD` where the statement at `node` expands it, where known (dir_stack.ts). */
  oldpwd(node: LiteNode): string | null;
  /** Aliases the command defines, shared with sub-walkers. */
  readonly aliasBox: { map?: Map<string, string> };
  /**
   * Words tree-sitter put in a redirect after the command (`git push 2>/dev/null --force` has
   * `--force` as a second destination), by the id of the command they are arguments of.
   */
  strayWords: Map<number, (LiteNode | WordGroup)[]> | null;
  /**
   * Walk a node run in `cwds`; returns the cwds after success and after failure. `tail` are
   * redirects written after a list or pipeline (bash gives them to its last command).
   */
  walk(node: LiteNode, cwds: Cwds, origin: string, redirects: Redirect[], tail?: Redirect[]): Flow;
  /** Walk children as `;`-separated statements; the cwds after them. */
  sequence(
    children: (LiteNode | null)[],
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
    keepAll?: boolean,
  ): Cwds;
  /** Run `node` after flow `a` joined by `op` (`start`: the cwds where the pipeline began). */
  then(
    a: Flow,
    op: string,
    node: LiteNode,
    start: Cwds,
    origin: string,
    redirects: Redirect[],
    tail?: Redirect[],
  ): Flow;
  /**
   * The commands of a pipeline, all but the first reading a pipe; `tail` goes to the last, and
   * `tails` (when given) to each in turn.
   */
  pipe(
    parts: LiteNode[],
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
    tail: Redirect[],
    tails?: Redirect[][],
  ): void;
  /** Walk the `` `…` `` substitutions of text tree-sitter left as text. */
  backticks(text: string, cwds: Cwds): void;
  /** Walk text bash runs as commands (parsed apart), its stages coming from `origin`. */
  source(text: string, cwds: Cwds, origin: string): void;
}
