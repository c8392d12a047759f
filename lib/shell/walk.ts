/**
 * The walk of a bash syntax tree: every simple command bash may run becomes a stage, in the
 * directories the statements before it may have led to. This module holds the control flow
 * (lists, pipelines, groups, loops, functions, substitutions) and the cwd flow; words,
 * redirects, evaluation and tree-sitter's misreads are their own modules, which get the walker
 * as a {@linkcode WalkContext}.
 *
 * @module
 */
import {
  builtinAt,
  cdTarget,
  cdUnknown,
  type Cwds,
  ENDED,
  endsShell,
  exitBuiltin,
  type Flow,
  joinedFlow,
  reached,
  same,
  startAfter,
  union,
} from "./cwds.ts";
import { plainNames } from "./trap.ts";
import {
  type BashEnv,
  type Redirect,
  redirectsStdin,
  type Stage,
  staticWord,
  type Word,
} from "./model.ts";
import { nextNode, patternMayRun, withoutComments } from "./nodes.ts";
import type { BashParser } from "./parser.ts";
import {
  reservedMisread,
  stripKeywords,
  syntaxErrorAt,
  VALUE_MISREAD,
  valueMisread,
} from "./repairs.ts";
import { parseSource } from "./source_tree.ts";
import { aliasUse, functionNames, shadowed } from "./walk_aliases.ts";
import type { LiteNode } from "./syntax_tree.ts";
import type { Evaluation, WalkContext, WordGroup } from "./walk_context.ts";
import {
  argumentAssignments,
  arithmeticText,
  assigned,
  builtinEvaluation,
  inArithmetic,
  loopEvaluation,
  quotedStrings,
  readsNames,
  runsNothing,
  substitutionEvaluation,
} from "./walk_evaluation.ts";
import { DirStack, unsetAtStart } from "./dir_stack.ts";
import { commandless, lateTail, redirect, redirectsOf } from "./walk_redirects.ts";
import { testCommand } from "./walk_tests.ts";
import { redirected, regroupedPipeline } from "./walk_pipelines.ts";
import {
  conditionCommand,
  loopInput,
  pipelinePart,
  simpleCommand,
  type WalkedCommand,
} from "./walk_lines.ts";
import { readLine, Values } from "./walk_values.ts";
import { backtickBodies, backtickPairs, decodeWord, touchedNames } from "./walk_words.ts";
import { Calls } from "./walk_calls.ts";
import { assignValue } from "./walk_assign.ts";
import { type CommandParts, commandParts, loopWords } from "./walk_word_lists.ts";
import { arrayDeclaration, arrayEffect } from "./walk_arrays.ts";
import { LineStops } from "./line_stops.ts";

const MAX_STAGES = 1000;
/** Nodes walked per command at most (loops and function bodies are walked more than once). */
const MAX_STEPS = 20_000;

const LOOPS = new Set([
  "while_statement",
  "until_statement",
  "for_statement",
  "c_style_for_statement",
]);
/** Nodes whose children are statements separated by `;`, `&` or newlines. */
const STATEMENT_LISTS = new Set([
  "program",
  "compound_statement",
  "do_group",
  "else_clause",
  "elif_clause",
  "case_item",
]);

/**
 * Walks the tree of one command; sub-walkers (backtick bodies parsed apart, function probes)
 * share its stages and step budget.
 */
export class Walker implements WalkContext {
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
  listed: WalkContext["listed"] = null;
  /**
   * Aliases the command defines (`alias ll='ls -l'`), shared with sub-walkers: a later command
   * named by one runs its text (bash expands them with `shopt -s expand_aliases`; judged so
   * whether or not that is set).
   */
  aliasBox: { map?: Map<string, string> } = {};
  /** Function bodies, walked last: they run wherever they are called. */
  private functions: { body: LiteNode; moves: boolean; node: LiteNode }[] = [];
  /** The command's text. */
  private text: string;
  /** Where its lines may stop (line_stops.ts; made for a program of several lines). */
  private stops: LineStops | null = null;
  /** Whether something in the command may change the cwd. */
  private moved = false;
  /** Whether the commands being walked read a pipe on their standard input. */
  private piped = false;
  /** The last simple command walked, by its node. */
  lastCommand: WalkedCommand | null = null;
  /**
   * The command node of a pipeline being walked (a simple command or a `while` loop), and the
   * stage that writes its input.
   */
  private feeding: WalkedCommand | null = null;
  /** The `read` of a `while read` loop's condition, and the stage whose lines it reads. */
  private lineRead: { node: number; from: Stage } | null = null;
  /**
   * Words tree-sitter put in a redirect after the command (`git push 2>/dev/null --force` has
   * `--force` as a second destination), by the id of the command they are arguments of.
   */
  strayWords: Map<number, (LiteNode | WordGroup)[]> | null = null;
  /** Expandable variables the command may assign (then their value is not known). */
  touched: ReadonlySet<string>;
  /** Names the command may define functions of (`functionNames`; sub-walkers take the top's). */
  defined: ReadonlySet<string>;
  /** The values the command gives its variables, where known at this point of the walk. */
  values: Values;
  /** The calls of the functions it defines (null: each body is walked after the command). */
  calls: Calls | null = null;
  private cdpathUnknown: boolean;
  /** No name of the command can be a function or an alias (lib/shell/trap.ts). */
  private plainNames: boolean;
  /** `exit` is the builtin in the whole command (see `exitBuiltin`; sub-walkers take the top's). */
  private exitBuiltin: boolean;
  /** The directory stack and OLDPWD (lib/shell/dir_stack.ts; a sub-walker's are not known). */
  private dirs: DirStack;

  constructor(
    readonly env: BashEnv,
    source: string,
    readonly readWrite: ReadonlySet<number>,
    private parser: BashParser | null,
    /** Shared by the walkers of one command: nodes walked so far. */
    private budget: { steps: number },
    private depth = 0,
    /** Walk bodies at their calls (see walk_calls.ts), where the command may define or `set --`. */
    calls = false,
  ) {
    this.text = source;
    const own = touchedNames(source);
    // (In a nested text, also what the command around it may have changed: `env.unknown`.)
    this.touched = env.unknown?.size ? new Set([...own, ...env.unknown]) : own;
    this.defined = functionNames(source);
    if (calls) this.calls = Calls.of(source, this.defined, env.parameters);
    this.values = Values.of(source, env.given);
    this.cdpathUnknown = cdUnknown(source) || (env.unknown?.has("CDPATH") ?? false);
    this.plainNames = plainNames(source);
    this.exitBuiltin = exitBuiltin(source);
    // (A successful cd, pushd or popd sets OLDPWD to PWD's value: where the command may give PWD
    // another, OLDPWD is not known: `PWD=~/.ssh; cd src && cat "$OLDPWD/config"`.)
    const touchesOld = this.touched.has("OLDPWD") || this.touched.has("PWD");
    const old = depth || touchesOld ? null : env.env.OLDPWD;
    this.dirs = new DirStack(source, old, !depth && unsetAtStart(env));
  }

  /** Walk a whole program, then the function bodies it defines. */
  run(root: LiteNode, cwds: Cwds, origin = "top"): Flow {
    const end = this.walk(root, cwds, origin, []);
    if (this.functions.length) this.dirs.forget();
    while (this.functions.length) {
      const f = this.functions.shift()!;
      if (this.calls?.called.has(f.body.id)) continue; // walked at its calls
      const seen = union(end.ok, end.fail, ...this.stages.map((s) => s.cwds));
      const cwds = f.moves || this.moved ? union(seen, [null]) : seen;
      // A call may give it any standard input (`f <<<'rm x'`, `curl … | f`): not known.
      const walk = () =>
        this.pipedWalk(true, () => {
          this.definitionRedirects(f.node, cwds);
          return this.walk(f.body, cwds, "function", []);
        });
      this.values.nestedIn(() => this.calls ? this.calls.ended(walk) : walk());
    }
    return end;
  }

  /**
   * tree-sitter leaves backticks inside `${…}` and in heredoc bodies as plain text, but bash runs
   * them: parse each `` `…` `` of such text and walk it as a substitution.
   */
  backticks(text: string, cwds: Cwds): void {
    const bodies = backtickBodies(text);
    if (bodies === null) {
      this.error ??= "an unterminated backtick";
      return;
    }
    for (const body of bodies) this.source(body, cwds, "substitution");
  }

  /** Walk text bash runs as commands (parsed apart), its stages coming from `origin`. */
  source(src: string, cwds: Cwds, origin: string): void {
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
    sub.aliasBox = this.aliasBox;
    sub.touched = this.touched;
    sub.defined = this.defined;
    sub.exitBuiltin = this.exitBuiltin;
    sub.calls = this.calls;
    sub.values = this.values.copy();
    sub.run(parsed.root, cwds, origin);
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
    if (!this.entered(cwds)) return same(cwds);
    if (tail.length && node.type === "list") return this.list(node, cwds, origin, redirects, tail);
    if (tail.length && node.type === "pipeline") {
      return this.pipeline(node, cwds, origin, redirects, tail);
    }
    if (tail.length) redirects = [...redirects, ...lateTail(this, tail, cwds)];
    const inner = origin === "top" ? "compound" : origin;
    switch (node.type) {
      case "comment":
        return same(cwds);
      case "word":
      case "heredoc_content":
        if (node.text.includes("`")) this.backticks(node.text, cwds);
        return same(cwds);
      case "string":
      case "heredoc_body":
        quotedStrings(this, node, cwds);
        return same(this.sequence(node.namedChildren, cwds, origin, redirects));
      case "command":
      case "declaration_command":
      case "unset_command":
        return this.command(node, cwds, origin, redirects);
      case "redirected_statement":
        return redirected(this, node, { cwds, origin, redirects });
      case "file_redirect": {
        // A redirect alone as a statement (tree-sitter's `$(< f)`).
        const after: [string, LiteNode][] = [];
        const own = redirect(this, node, cwds, origin, after, []);
        commandless(this, node, own, cwds, origin, redirects);
        let flow = same(cwds);
        for (const [op, n] of after) flow = this.then(flow, op, n, cwds, origin, redirects);
        return flow;
      }
      case "list":
        return this.list(node, cwds, origin, redirects);
      case "pipeline":
        return this.pipeline(node, cwds, origin, redirects, []);
      case "negated_command": {
        const r = this.sequenceFlow(node.children, cwds, origin, redirects);
        return { ok: r.fail, fail: r.ok };
      }
      case "subshell":
        this.values.subshell(() => this.sequence(node.children, cwds, "subshell", redirects));
        return same(cwds);
      case "command_substitution":
      case "process_substitution": {
        if (substitutionEvaluation(this, node, cwds)) return same(cwds);
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
        this.values.nestedIn(() =>
          this.pipedWalk(piped, () => this.sequence(node.children, cwds, "substitution", []))
        );
        return same(cwds);
      }
      case "function_definition": {
        // Its redirects open their files at each call (`f(){ cat; } < .env; f`).
        const after: [string, LiteNode][] = [];
        const own = redirectsOf(this, node, cwds, origin, after);
        commandless(this, node, own, cwds, origin, redirects);
        if (after.length) this.error ??= "commands after a heredoc of a function definition";
        this.evaluation.functions = true;
        return this.functionDefinition(node, cwds);
      }
      case "if_statement":
      case "case_statement":
        // Branches may run or not: every cwd they can reach stays possible.
        return same(
          this.values.nestedIn(() => this.sequence(node.children, cwds, inner, redirects, true)),
        );
      case "ERROR":
        this.error ??= syntaxErrorAt(node);
        return same(this.sequence(node.children, cwds, origin, redirects));
      case "regex":
        // tree-sitter reads what follows `==` or `=~` as a pattern, substitutions and all, even
        // in a plain command inside `$(…)`: what may run there is not seen.
        if (patternMayRun(node)) {
          this.error ??= "a substitution the parser read as part of a pattern";
        }
        return same(cwds);
      case "arithmetic_expansion":
        arithmeticText(this, node, cwds);
        return same(this.sequence(node.namedChildren, cwds, origin, redirects));
      case "test_command":
        return same(testCommand(this, node, cwds, origin, redirects));
      case "variable_assignment":
        return this.assignmentAlone(node, cwds, origin, redirects);
      case "program":
        if (this.text.includes("\n")) return same(this.lines(node, cwds, origin));
        // falls through
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
      const background = nextNode(children, i)?.type === "&";
      const at = reached(union(cur.ok, cur.fail));
      const r = background
        ? this.values.nestedIn(() => this.walk(c, at, origin, redirects))
        : this.walk(c, at, origin, redirects);
      if (!background) cur = r;
      if (keepAll) seen.push(cur.ok, cur.fail);
    }
    return keepAll ? same(union(...seen)) : cur;
  }

  /**
   * A node is walked in `cwds`: false when the command has too many stages or steps to analyse.
   * (Where its line may have stopped, the line may end in these cwds.)
   */
  private entered(cwds: Cwds): boolean {
    if (this.stages.length > MAX_STAGES) {
      this.error ??= `the command has more than ${MAX_STAGES} stages`;
      return false;
    }
    if (++this.budget.steps > MAX_STEPS) {
      this.error ??= "the command is too complex to analyse";
      return false;
    }
    if (this.stops?.cwds) this.stops.cwds = union(this.stops.cwds, cwds);
    return true;
  }

  /** A program of several lines, line by line (line_stops.ts: where a line may stop). */
  private lines(node: LiteNode, cwds: Cwds, origin: string): Cwds {
    this.stops ??= new LineStops(this.text, this.defined.size > 0, this.values);
    return this.stops.lines(
      node.children,
      cwds,
      (c, at, background) =>
        background
          ? this.values.nestedIn(() => this.walk(c, at, origin, []))
          : this.walk(c, at, origin, []),
    );
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
    const regrouped = regroupedPipeline(this, node, { cwds, origin, redirects, tail });
    if (regrouped) return regrouped;
    this.pipe(withoutComments(node.namedChildren), cwds, origin, redirects, tail);
    return same(cwds);
  }

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
  ): void {
    // Each command of a pipeline runs in a subshell: its assignments do not reach on.
    this.values.nestedIn(() =>
      parts.forEach((c, i) => {
        const own = tails?.[i] ?? [];
        const last = i === parts.length - 1 ? [...own, ...tail] : own;
        if (i === 0) this.walk(c, cwds, origin, redirects, last);
        else {
          // A simple command after another reads its output (`find src | xargs cat`).
          const before = simpleCommand(parts[i - 1]);
          const walked = this.lastCommand;
          const prev = before && walked?.node === before.id ? walked.stage : null;
          const here = simpleCommand(c) ?? pipelinePart(c, "while_statement");
          this.feeding = prev && here && !shadowed(this, this.defined, prev)
            ? { node: here.id, stage: prev }
            : null;
          this.walkPiped(c, cwds, origin, redirects, last);
          this.feeding = null;
        }
      })
    );
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
  pipedWalk<T>(piped: boolean, walk: () => T): T {
    const was = this.piped;
    this.piped = piped;
    try {
      return walk();
    } finally {
      this.piped = was;
    }
  }

  /** Run `node` after flow `a` joined by `op` (`start`: the cwds where the pipeline began). */
  then(
    a: Flow,
    op: string,
    node: LiteNode,
    start: Cwds,
    origin: string,
    redirects: Redirect[],
    tail: Redirect[] = [],
  ): Flow {
    // What runs after `&&`, `||` or `|` may not run, or runs in a subshell.
    const nested = (f: () => Flow) => this.values.nestedIn(f);
    if (op === "&&" || op === "||") {
      const b = nested(() => this.walk(node, startAfter(a, op), origin, redirects, tail));
      return joinedFlow(a, op, b);
    }
    if (op === "|" || op === "|&") {
      nested(() => this.walkPiped(node, start, origin, redirects, tail));
      return { ok: union(a.ok, start), fail: union(a.fail, start) };
    }
    return this.walk(node, union(a.ok, a.fail), origin, redirects, tail);
  }

  /**
   * A loop: later rounds see what earlier ones assigned, so nothing known before it is known
   * inside; a `for` loop's variable takes the words of its list (a few, all known), one walk of
   * the body each.
   */
  private loop(node: LiteNode, cwds: Cwds, origin: string, redirects: Redirect[]): Flow {
    loopEvaluation(this, node);
    // `… | while read -r f; do …; done`, `while read -r f; do …; done < <(…)`: the condition's
    // `read` takes a line of what that stage prints.
    const from = node.type === "while_statement"
      ? loopInput(node, redirects, this.feeding, this.lastCommand)
      : null;
    const read = from ? conditionCommand(node) : null;
    const was = this.lineRead;
    this.lineRead = read && from ? { node: read.id, from } : null;
    try {
      return this.loopRounds(node, cwds, origin, redirects);
    } finally {
      // (After the loop, the last `read` found no line: the name holds nothing of it.)
      if (this.lineRead) this.values.forgetLines(this.lineRead.from);
      this.lineRead = was;
    }
  }

  private loopRounds(node: LiteNode, cwds: Cwds, origin: string, redirects: Redirect[]): Flow {
    const frame = this.calls?.frame;
    const before = frame?.words;
    const flow = this.loopRound(node, cwds, origin, redirects);
    if (!frame || !before || frame.words === before) return flow;
    // A later round sees what earlier ones did to the parameters (`shift`): not known then.
    frame.words = null;
    const again = this.loopRound(node, cwds, origin, redirects);
    return same(union(flow.ok, flow.fail, again.ok, again.fail));
  }

  private loopRound(node: LiteNode, cwds: Cwds, origin: string, redirects: Redirect[]): Flow {
    return this.values.nestedIn(() => {
      // (The list is expanded once, before the first round.)
      const rounds = node.type === "for_statement" ? loopWords(this, node, cwds) : null;
      this.values.forgetAll();
      if (rounds === null) return this.loopBody(node, cwds, origin, redirects);
      let out: Cwds = [];
      for (const value of rounds.values) {
        this.values.loopValue(rounds.name, value);
        out = union(out, this.loopBody(node, cwds, origin, redirects).ok);
      }
      this.values.assign(rounds.name, null);
      rounds.walked?.();
      return same(out);
    });
  }

  private loopBody(node: LiteNode, cwds: Cwds, origin: string, redirects: Redirect[]): Flow {
    const mark = this.stages.length;
    const marked = this.functions.length;
    const frame = this.calls?.frame;
    const words = frame?.words;
    const set = this.oldSet();
    const once = this.sequence(node.children, cwds, origin, redirects, true);
    const moves = !once.every((c) => cwds.includes(c));
    // (Nor where a builtin gave PWD or OLDPWD a value: later rounds' `$PWD`, `$OLDPWD` hold it.)
    if (!moves && (set || !this.oldSet())) return same(once);
    // The body moves: later rounds start where earlier ones left off, which may be anywhere.
    this.stages.length = mark;
    this.functions.length = marked;
    if (frame && words !== undefined) frame.words = words;
    const from = moves ? union(once, [null]) : cwds;
    return same(this.sequence(node.children, from, origin, redirects, true));
  }

  private functionDefinition(node: LiteNode, cwds: Cwds): Flow {
    // Calling it may assign any variable from there on.
    this.values.stop();
    const body = node.childForFieldName("body");
    if (!body) return same(cwds);
    const probe = new Walker(this.env, "", this.readWrite, this.parser, this.budget, this.depth);
    probe.exitBuiltin = this.exitBuiltin;
    probe.walk(body, cwds, "function", []);
    this.error ??= probe.error;
    const moves = probe.moved;
    this.functions.push({ body, moves, node });
    // (Walked at its calls, each moves the caller as its body does there. bash's name runs to a
    // blank or `(`: where tree-sitter's ends before, `function rm{a} {`, the name is not its.)
    const named = node.childForFieldName("name");
    let root = node;
    while (root.parent) root = root.parent;
    const after = named ? root.text[named.endIndex - root.startIndex] ?? "" : "";
    const name = named && /^[\s(]?$/.test(after) ? named.text : "";
    const left = this.calls?.define(name, body, node, this.values) ?? false;
    if (!moves || left) return same(cwds);
    this.moved = true; // calling it may move the caller
    return same(union(cwds, [null]));
  }

  /** The redirects of a function definition, which bash opens at each call, judged there. */
  definitionRedirects(node: LiteNode, cwds: Cwds): void {
    const own = redirectsOf(this, node, cwds, "function", []);
    if (own.length) commandless(this, node, own, cwds, "function", []);
  }

  command(node: LiteNode, cwds: Cwds, origin: string, redirects: Redirect[]): Flow {
    const piped = this.piped;
    // The words' substitutions do not read the pipe (set back after, even on a throw).
    this.piped = false;
    let parts: CommandParts;
    try {
      parts = commandParts(this, node, cwds, origin);
    } finally {
      this.piped = piped;
    }
    const { argv, coproc, assignments } = stripKeywords(parts.words);
    if (runsNothing(argv, parts.words, node)) argv[0] = { ...staticWord(":"), text: argv[0].text };
    const name = argv[0];
    this.error ??= reservedMisread(argv);
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
    const handed = this.values.handed();
    if (handed) stage.handed = handed;
    // (A redirect of its standard input replaces the pipe: `a | b <f` reads f.)
    if (!stage.redirects.some(redirectsStdin)) {
      if (piped) stage.piped = true;
      if (this.feeding?.node === node.id) stage.input = this.feeding.stage;
    }
    this.stages.push(stage);
    this.lastCommand = { node: node.id, stage };
    // (Also after `builtin` or `command [-p]`: `builtin read`, `command set -- …`.)
    const at = builtinAt(argv);
    if (at >= 0 && argv[at]?.kind === "static" && readsNames(argv[at].value)) {
      builtinEvaluation(this, argv[at].value, argv.slice(at + 1), cwds);
    } else if (argv.length > 1) argumentAssignments(this, argv);
    const aliasMoves = name?.kind === "static" && aliasUse(this, name, argv, cwds, stage);
    // (The condition of a `while read` loop: its name takes a line of the loop's input.)
    const reads = this.lineRead?.node === node.id
      ? readLine(argv, stage.assignments ?? [], this.lineRead.from)
      : null;
    // (`declare -a NAME=(WORDS)` alone assigns the array and gives no attribute but that.)
    const declared = node.type === "declaration_command" ? arrayDeclaration(node) : null;
    if (declared) assignValue(this, declared, cwds);
    // (`mapfile -t a <<< …`, `read -a a <<< …`, `unset 'a[1]'`: walk_arrays.ts.)
    else arrayEffect(this, this.values.afterCommand(argv, stage, reads ?? undefined));
    if (coproc) this.values.stop();
    let flow = coproc ? same(cwds) : this.cdEffect(argv, node, cwds, origin);
    if (this.calls) {
      flow = this.calls.call(this, stage, cwds) ?? flow;
      this.calls.after(argv, this.values);
    }
    // (`cd x || exit 1; make`: after exit nothing runs here; the caller knows it is this shell.)
    if (!coproc && endsShell(argv, this.exitBuiltin, stage.redirects)) flow = ENDED;
    // (An alias whose text cds moves what comes after it, to where is not followed.)
    if (aliasMoves) flow = { ok: [null], fail: union(flow.fail, [null]) };
    for (const [op, n] of parts.after) flow = this.then(flow, op, n, cwds, origin, redirects);
    return flow;
  }

  /**
   * An assignment alone (`v=1`, `a=$(x)`): its substitutions are the commands it runs, a value
   * some program runs is an environment stage, and the variable has its value from here on.
   */
  private assignmentAlone(
    node: LiteNode,
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
  ): Flow {
    // (In arithmetic, `for ((i = 0; …))`, blanks around `=` are no misreading.)
    if (valueMisread(node) && !inArithmetic(node)) this.error ??= VALUE_MISREAD;
    assigned(this, node);
    if (this.env.carriesCommand(node.text)) {
      const assignment = decodeWord(this, node, cwds);
      this.environment.push({
        argv: [],
        redirects: [],
        text: node.text,
        origin,
        cwds,
        assignments: [assignment],
      });
    }
    const flow = same(this.sequence(node.namedChildren, cwds, origin, redirects));
    assignValue(this, node, cwds);
    return flow;
  }

  oldpwd = (node: LiteNode) => this.dirs.oldpwd(node, this.values.following && !this.oldSet());

  /** A walked builtin gave PWD or OLDPWD a value (`v=PW; read "${v}D"`): OLDPWD not known. */
  private oldSet = () => this.values.assignedSoFar("PWD") || this.values.assignedSoFar("OLDPWD");

  /** Where a stage leaves the shell (unchanged for commands that do not change directory). */
  private cdEffect(argv: Word[], node: LiteNode, cwds: Cwds, origin: string): Flow {
    const home = this.touched.has("HOME") ? null : this.env.env.HOME ?? this.env.home;
    const { region, mayHaveStopped: stopped, following } = this.values;
    const next = this.dirs.effect(
      argv,
      { node, cwds, region, stopped, following, oldSet: this.oldSet() },
      () =>
        cdTarget(argv, cwds, {
          home,
          env: this.env,
          cdpathUnknown: this.cdpathUnknown,
          plainNames: this.plainNames,
        }),
    );
    if (next === null) return same(cwds);
    this.moved = true;
    this.calls?.moved(origin);
    return next;
  }
}
