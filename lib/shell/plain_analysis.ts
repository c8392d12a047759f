/**
 * The analysis of everyday commands without a syntax tree: simple commands joined by `|`, `&&`,
 * `||` and `;`, of plain, quoted and escaped words, `*`/`?` globs, `~` and `~/…`, variables
 * (`$NAME`, `${NAME}`, `$1`; `$HOME`, `$PWD` and `$TMPDIR` with the values the walk gives them)
 * and command substitutions of such commands (`$(…)`, one backtick pair), maybe after assignments
 * (`PYTHONPATH=. pytest`) and with file redirects after their words (`> out.txt`, `2>/dev/null`,
 * `2>&1`), a `cd` moving the commands after it as the walk moves them: `git status && ls -la src |
 * grep "a b"`, `kill $(pgrep -f srv)`, `cd /repo && pytest -x 2>&1 | tail`. For these the stages,
 * words and redirects can be read straight from the text, in one pass; building the syntax tree and
 * walking it, which every other command needs, cost more than the rest of their decision. Four in
 * five commands of NL2Bash, three in four of the agent corpus, are read here.
 *
 * Anything else returns null and takes the tree's walk: `$(pwd)` and other expansions the walk
 * works out (special parameters other than positional ones, `${x:-y}`, arithmetic, backticks with a
 * backslash or a substitution inside, two backtick pairs), a `$` closing a double-quoted text after
 * an expansion in it, a name the command assigns and uses again (`$HOME` and `~` too, when it
 * assigns HOME), `$PWD` where the stage may run in more than one place, a bracket glob (`[ab]`), a
 * brace (but `{}`), `~user`, an escaped blank, a glob word with a variable, `~`, an escape or
 * `{}`, a heredoc, other redirects (`>&-`, `<>`, one before the command or with a word after it, to
 * anything but a plain word), a comment, a subshell or group, `&`, an empty command, a character
 * outside printable ASCII, assignments alone, and every command named by a word the walk gives a
 * meaning of its own (reserved words, declaration and name-reading builtins, `pushd`, `popd`,
 * `alias`, `eval`, `source`, `exec`, `command`, `builtin`, `test`, and `set --`, which gives `$1`
 * its value), or a reserved word in a
 * command's place; a `cd` that moves the commands after it inside a substitution. Where tree-sitter reads a command its own way (a later
 * command's redirects as its pipeline's), the stages are what the walk makes of that.
 * `plain_analysis_test.ts` holds it to the walk on both corpora and on generated commands, hostile
 * and everyday: every command it reads gets the walk's exact analysis.
 *
 * @example
 * ```ts
 * import { plainAnalysis } from "./plain_analysis.ts";
 * const env = { cwd: "/w", home: "/h", env: { HOME: "/h" } };
 * plainAnalysis("ls -la ~/src | grep 'a b'", env)?.stages.map((s) => s.argv.map((w) => w.value));
 * // [["ls", "-la", "/h/src"], ["grep", "a b"]]
 * plainAnalysis("cd src && ls", env)?.stages.map((s) => s.cwds); // [["/w"], ["/w/src"]]
 * plainAnalysis("pushd src && ls", env); // null: the walk follows pushd
 * ```
 *
 * @module
 */
import {
  type CdFacts,
  cdTarget,
  type Cwds,
  ENDED,
  endsShell,
  exitBuiltin,
  type Flow,
  joinedFlow,
  same,
  sourceFacts,
  startAfter,
} from "./cwds.ts";
import { DECLARATION_BUILTINS, RESERVED_WORDS } from "./keywords.ts";
import {
  type BashAnalysis,
  type LineOf,
  type Redirect,
  redirectsStdin,
  type Stage,
  type Word,
} from "./model.ts";
import { literalPattern } from "./pathname_expansion.ts";
import { cdsBack } from "./dir_stack.ts";
import { readsNames } from "./walk_evaluation.ts";
import { OUTPUT_PROGRAMS, outputPattern } from "./run_time_parts.ts";
import {
  knownValue,
  nameChar,
  type PlainEnv,
  printable,
  singleQuoteEnd,
  splitLine,
  unsetHolds,
  type ValueReading,
  variable,
} from "./plain_values.ts";

/** Commands longer than this take the walk (as the plain-command reader leaves them to tree-sitter). */
const MAX_LENGTH = 4096;

/** Stages at most (a command of more is not an everyday one). */
const MAX_STAGES = 64;

/**
 * Characters a word may have outside quotes: those bash takes as they are written (1), and the
 * glob characters `*` and `?` (GLOB).
 */
const RUN = charSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:+%@=!-");
const GLOB = 2;
RUN[42] = RUN[63] = GLOB;

/**
 * Characters a command name's unquoted runs may have (tree-sitter misreads `name@…`, `name%…`,
 * `a,b` and `=` there), as the plain-command reader allows them.
 */
const NAME_CHARS = charSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+:-");

/** `NAME=` or `NAME+=` at the start of a word: before the command name, an assignment. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/** A command name after assignments: a plain name or a path, in one unquoted run. */
const AFTER_ASSIGNMENTS = /^([A-Za-z0-9_]+|[./][A-Za-z0-9_./-]*)$/;

/**
 * Characters that end a double-quoted text's plainness (bash expands at them), or end it. (`!` is
 * itself: bash runs commands with history expansion off.)
 */
const NOT_IN_DOUBLE = charSet('$`"');

/**
 * Command names the walk gives a meaning of its own, besides the reserved words, the declaration
 * builtins and the builtins that read variable names (`readsNames`): they move the cwd or hide
 * where it is, define or expand aliases, run their arguments as shell text, or are read as
 * something else than a simple command.
 */
const WALKED_NAMES = new Set([
  "pushd",
  "popd",
  "alias",
  "unalias",
  "eval",
  "source",
  ".",
  "exec",
  "command",
  "builtin",
  "test",
  "unset",
  "unsetenv",
  // (`enable -n echo` makes a later echo the program: the walk knows the writers it turns off.)
  "enable",
]);

export type { PlainEnv };

/** The analysis of a plain command, or null when the walk must read it (see the module). */
export function plainAnalysis(source: string, env: PlainEnv): BashAnalysis | null {
  // (A plain command defines no function: `f() {` is none. See `functionNames`.)
  // (A nested text whose variables the command around it changed: the walk reads it.)
  if (source.length > MAX_LENGTH || env.unknown?.size || env.given || env.parameters) return null;
  const r: Reading = {
    source,
    env,
    cwds: [env.cwd],
    stages: [],
    depth: 0,
    pipes: 0,
    lists: 0,
    closer: -1,
    touched: null,
  };
  if (readList(r, 0, "top") !== source.length || !assignedOnce(source, r.stages)) return null;
  if (!r.unset) return { stages: r.stages, error: null };
  // (Names taken to be unset: as the walk takes them, and kept with the analysis.)
  if (!unsetHolds(r.stages)) return null;
  return { stages: r.stages, error: null, unset: [...r.unset, "BASH_ENV"] };
}

/** What the reading of one command shares: its text, its cwds, the stages so far. */
interface Reading extends ValueReading {
  /** Where the commands being read run (a `cd` before them moves them). */
  cwds: Cwds;
  /** What a `cd` in the command needs to know (the same for all of them); made when asked. */
  cd?: CdFacts;
  /** Whether `exit` is the builtin (see `exitBuiltin`); made when asked. */
  exitBuiltin?: boolean;
  /** The stages, in the walk's order (a substitution's before its command's). */
  stages: Stage[];
  /** Substitutions open around the list being read. */
  depth: number;
  /** Pipes read so far, in substitutions too. */
  pipes: number;
  /** The character that closes the innermost substitution being read (`)`, `` ` ``); -1: none. */
  closer: number;
  /** `;`, `&&` and `||` read so far, in substitutions too. */
  lists: number;
  /** The `$(…)` read last where it is one pipeline: where it ends, and its last command's stage. */
  piped?: { end: number; stage: Stage };
}

/** Substitutions inside substitutions read here at most. */
const MAX_DEPTH = 4;

/**
 * Read the commands of a list from `at` into `r.stages`: up to the end (origin "top") or up to
 * the `r.closer` that closes a substitution (origin "substitution"); where it stopped, or -1 when
 * it is not plain.
 */
function readList(r: Reading, at: number, origin: "top" | "substitution"): number {
  const { source, stages } = r;
  const n = source.length;
  const closer = origin === "substitution";
  let argv: Word[] = [];
  /** `NAME=value` words before the command name (in its environment). */
  let assignments: Word[] = [];
  let redirects: Redirect[] = [];
  let start = -1;
  /** Where the command's last word ends, and its last redirect. */
  let end = -1;
  let redirected = -1;
  /**
   * Whether the command is the first of its statement (after `;` or at the start). tree-sitter
   * reads the redirects after a later one as the whole list's or pipeline's (`a && b > f`): the
   * walk gives them to the command, its text without them.
   */
  let leading = true;
  /** Whether a `&&` or `||` came before the command in its statement. */
  let listed = false;
  /** Whether the last operator was `|`, and the stage before then (whose output is read). */
  let piped = false;
  let feeding: Stage | null = null;
  /** The pipes read before the command: a pipeline in its substitutions makes the walk forget what feeds it. */
  let pipes = r.pipes;
  /** Whether the command name's unquoted runs are all of NAME_CHARS, its first not a `-`. */
  let nameRuns = false;
  const moves: ListMoves = { flow: null, joined: "", first: true };
  let i = at;
  for (;;) {
    // Blanks between words.
    const blank = i;
    while (i < n && (source.charCodeAt(i) === 32 || source.charCodeAt(i) === 9)) i++;
    const c = i < n ? source.charCodeAt(i) : -1;
    if (argv.length && i > blank && (c === 62 || c === 60 || c === 38 || c === 49 || c === 50)) {
      // A redirect after the words (`> out`, `2>/dev/null`, `2>&1`), after a blank.
      const rd = readRedirect(r, i);
      if (rd === undefined) return -1;
      if (rd !== null) {
        // (tree-sitter drops a lone `-` before some redirects; the walk gives it back.)
        if (argv[argv.length - 1].text === "-") return -1;
        redirects.push(rd.redirect);
        i = redirected = rd.end;
        continue;
      }
    }
    const closing = closer && c === r.closer;
    if (c === -1 || c === 124 || c === 38 || c === 59 || closing) {
      // The end of a command: at the end, `|`, `&&`, `||`, `;` or a substitution's `)`.
      if (c === -1 && closer) return -1;
      let op = "";
      if (c === 124) op = source.charCodeAt(i + 1) === 124 ? "||" : "|";
      else if (c === 38) {
        if (source.charCodeAt(i + 1) !== 38) return -1; // `&`: in the background
        op = "&&";
      } else if (c === 59) op = ";";
      // (`|&`, `;;`, `;&` and a third `|` or `&` are not plain.)
      const after = source.charCodeAt(i + op.length);
      if (op && (after === 38 || after === 59 || (after === 124 && op !== ";"))) return -1;
      if (!argv.length) return -1;
      const name = argv[0].value;
      if (
        !nameRuns || name.includes("=") || RESERVED_WORDS.has(name) ||
        // (After assignments, tree-sitter reads a name glued to more as one more: `x=1 a:b`.)
        (assignments.length && !AFTER_ASSIGNMENTS.test(argv[0].text)) ||
        DECLARATION_BUILTINS.has(name) || WALKED_NAMES.has(name) || readsNames(name) ||
        // (`set -- a b` gives `$1` and `"$@"` values the walk follows.)
        (name === "set" && argv.some((w) => w.value === "--")) || stages.length === MAX_STAGES
      ) return -1;
      const stage: Stage = {
        argv,
        redirects,
        text: source.slice(start, leading && redirects.length ? redirected : end),
        origin,
        cwds: r.cwds,
      };
      if (assignments.length) stage.assignments = assignments;
      if (!redirects.some(redirectsStdin)) {
        if (piped) stage.piped = true;
        if (feeding && r.pipes === pipes) stage.input = feeding;
      }
      stages.push(stage);
      if (c === -1 || closing) return i;
      if (op !== "|") r.lists++;
      if (!moveOn(r, moves, stage, op, closer)) return -1;
      // (A later command's redirects in a pipeline without `&&` or `||` before it are the
      // pipeline's to tree-sitter: the walk sees no command feeding the pipe then.)
      piped = op === "|";
      if (piped) r.pipes++;
      pipes = r.pipes;
      feeding = piped && (leading || !redirects.length || listed) ? stage : null;
      leading = op === ";";
      listed = !leading && (listed || op === "&&" || op === "||");
      argv = [];
      assignments = [];
      redirects = [];
      start = -1;
      i += op.length;
      continue;
    }
    // (A word after a redirect: tree-sitter reads it as the redirect's.)
    const read = redirects.length ? null : readWord(r, i, !argv.length);
    if (!read) return -1;
    if (start < 0) start = i;
    if (!argv.length && read.word.text.includes("=") && ASSIGNMENT.test(read.word.text)) {
      // An assignment: one without a glob, an escape, `{}` or anything not known.
      if (!read.literal) return -1;
      assignments.push(read.word);
    } else {
      if (!argv.length) nameRuns = read.name;
      argv.push(read.word);
    }
    i = end = read.end;
  }
}

/**
 * Where a list's pipelines so far leave the shell when they succeed or fail (as the walk folds
 * them), the operator before the pipeline being read, and whether its command is its first.
 */
interface ListMoves {
  flow: Flow | null;
  joined: string;
  first: boolean;
}

/**
 * After a command followed by `op` (not the list's end): where the next one runs (`r.cwds`). A
 * pipeline that ends here and is this command alone may move the shell (`cd src && make`); the
 * list goes on where it leaves it. False where the walk must read it: a `cd` in a substitution
 * that moves the commands after it there.
 */
function moveOn(r: Reading, moves: ListMoves, stage: Stage, op: string, closer: boolean): boolean {
  const argv = stage.argv;
  if (op === "|") {
    moves.first = false;
    return true;
  }
  // (`cd -` goes where an earlier move started: the walk follows OLDPWD.)
  if (moves.first && cdsBack(argv)) return false;
  const moved = moves.first ? cdTarget(argv, r.cwds, r.cd ??= cdFacts(r)) : null;
  // (`cd x || exit 1; make`: after exit nothing runs in this shell.)
  const ended = moves.first &&
    endsShell(argv, r.exitBuiltin ??= exitBuiltin(r.source), stage.redirects);
  if ((moved || ended) && closer) return false;
  const here = ended ? ENDED : moved ? { ok: moved, fail: r.cwds } : same(r.cwds);
  const flow = moves.flow === null ? here : joinedFlow(moves.flow, moves.joined, here);
  r.cwds = startAfter(flow, op);
  moves.flow = flow;
  moves.joined = op;
  moves.first = true;
  return true;
}

/** What a `cd` needs to know, as the walk tells it: the home directory, whether CDPATH is set. */
function cdFacts(r: Reading): CdFacts {
  return { home: knownValue(r, "HOME"), env: r.env, ...sourceFacts(r.source) };
}

/** Redirect operators by their text: the walk's operator, kind, and whether a word follows. */
const REDIRECTS: [text: string, op: string, kind: Redirect["kind"], target: boolean][] = [
  ["2>&1", "2>&", "dup", false],
  ["1>&2", "1>&", "dup", false],
  [">&2", ">&", "dup", false],
  ["&>>", "&>>", "write", true],
  ["&>", "&>", "write", true],
  ["2>>", "2>>", "write", true],
  ["1>>", "1>>", "write", true],
  ["2>", "2>", "write", true],
  ["1>", "1>", "write", true],
  [">>", ">>", "write", true],
  [">", ">", "write", true],
  ["<", "<", "read", true],
];

/**
 * The redirect at `at`, where it ends: null when there is none (`&&`, a word starting with a digit),
 * undefined when there is one that is not plain (`>&-`, `<<`, `>|`, a glob or an escape as the
 * file, no file).
 */
function readRedirect(
  r: Reading,
  at: number,
): { redirect: Redirect; end: number } | null | undefined {
  const source = r.source;
  for (const [text, op, kind, target] of REDIRECTS) {
    if (!source.startsWith(text, at)) continue;
    let i = at + text.length;
    const next = source.charCodeAt(i);
    if (!target) {
      // (Then a blank, an operator or the end.)
      const ends = i === source.length || next === 32 || next === 9 || next === 124 ||
        next === 38 || next === 59;
      return ends ? { redirect: { op, kind, target: null }, end: i } : undefined;
    }
    if (next === 38 || next === 62 || next === 60 || next === 124) return undefined; // >&, >>>, <<, >|
    while (source.charCodeAt(i) === 32 || source.charCodeAt(i) === 9) i++;
    const word = i < source.length ? readWord(r, i, false) : null;
    if (!word || !word.literal) return undefined;
    return { redirect: { op, kind, target: word.word }, end: word.end };
  }
  // (`&&`, and a word starting with a digit, are no redirect.)
  const c = source.charCodeAt(at);
  return c === 38 || c === 49 || c === 50 ? null : undefined;
}

/**
 * Whether every name the command assigns appears in it once, in its assignment: where else it
 * appears, bash may evaluate its value as code (`A='a[$(id)]' x; declare -i A`), which the walk's
 * evaluation checks judge.
 */
function assignedOnce(source: string, stages: Stage[]): boolean {
  for (const s of stages) {
    for (const a of s.assignments ?? []) {
      if (!once(source, a.text.slice(0, a.text.indexOf("=")).replace(/\+$/, ""))) return false;
    }
    // (And a program's `NAME=value` argument, which env and its kin make an environment.)
    for (let i = 1; i < s.argv.length; i++) {
      const v = s.argv[i].value;
      const eq = v.indexOf("=");
      if (eq > 0 && ARGUMENT_NAME.test(v.slice(0, eq)) && !once(source, v.slice(0, eq))) {
        return false;
      }
    }
  }
  return true;
}

const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `name` appears in the source once as a whole name. */
function once(source: string, name: string): boolean {
  let seen = 0;
  for (let k = source.indexOf(name); k !== -1; k = source.indexOf(name, k + 1)) {
    if (!nameChar(source.charCodeAt(k - 1)) && !nameChar(source.charCodeAt(k + name.length))) {
      seen++;
    }
  }
  return seen === 1;
}

/** A word read, where it ends, and (the first word) whether it may name a plain command. */
interface WordRead {
  word: Word;
  end: number;
  /** Its unquoted runs are all of NAME_CHARS, the first not a `-`; no glob, escape or `{}`. */
  name: boolean;
  /** No glob, escape or `{}`. */
  literal: boolean;
}

/**
 * The word at `from`: plain characters, quoted texts and variables, up to a blank or an operator;
 * null when it is not plain.
 */
function readWord(r: Reading, from: number, first: boolean): WordRead | null {
  const source = r.source;
  const n = source.length;
  let i = from;
  let nameRuns = first && source.charCodeAt(i) !== 45; // -
  let value = "";
  let quoted = false;
  let glob = false;
  /** An escape or `{}`: such a word is read here only when it is no glob. */
  let special = false;
  /** The word has a variable's value (not known), and its known text before that. */
  let dynamic = false;
  let prefix = "";
  /** The last command of the `$(…)` the word starts with, where it is one pipeline. */
  let piped: Reading["piped"] = undefined;
  for (;;) {
    const d = i < n ? source.charCodeAt(i) : -1;
    if (d >= 0 && d < 128 && RUN[d]) {
      // (One pass: where the run ends, whether it has a glob character, whether it may name a
      // command.)
      let j = i;
      let c = d;
      let kinds = 0;
      let named = 1;
      do {
        kinds |= RUN[c];
        named &= NAME_CHARS[c];
      } while (++j < n && (c = source.charCodeAt(j)) < 128 && RUN[c]);
      const run = source.slice(i, j);
      // tree-sitter reads a reserved word even when quotes follow it (`if"x"`, `done'…'`).
      if (i === from && j < n && !ENDS[c] && reserved(run)) return null;
      if (kinds & GLOB) glob = true;
      if (!named) nameRuns = false;
      value += run;
      i = j;
    } else if (d === 39) {
      const close = singleQuoteEnd(source, i);
      if (close < 0) return null;
      value += source.slice(i + 1, close);
      i = close + 1;
      quoted = true;
    } else if (d === 34) {
      const dq = doubleQuoted(source, i, r);
      if (!dq) return null;
      if (dq.expanded) special = true;
      if (dq.variableAt >= 0 && !dynamic) {
        prefix = value + dq.text.slice(0, dq.variableAt);
        dynamic = true;
      }
      value += dq.text;
      i = dq.end;
      quoted = true;
    } else if (d === 36 && source.charCodeAt(i + 1) !== 40) {
      // `$NAME`, `${NAME}`: its value when the walk knows it (`$HOME`), else not known.
      const v = variable(r, i);
      if (v === null) return null;
      if (v.value !== null) {
        value += v.value;
        special = true;
      } else {
        if (!dynamic) prefix = value;
        dynamic = true;
        value += source.slice(i, v.end);
      }
      i = v.end;
    } else if (d === 36 || (d === 96 && r.closer !== 96)) {
      // `$(…)`, `` `…` ``: a command's output, not known.
      const e = d === 36 ? expansionEnd(source, i, r) : backtickEnd(source, i, r);
      if (e < 0) return null;
      // (A whole word of one pipeline's `$(…)`, an argument: what it prints, split.)
      if (i === from && !first && d === 36 && r.piped?.end === e) piped = r.piped;
      if (!dynamic) prefix = value;
      dynamic = true;
      value += source.slice(i, e);
      i = e;
    } else if (d === 126 && i === from) {
      const home = tilde(r, i);
      if (home === null) return null;
      value += home;
      i++;
      special = true;
    } else if (d === 92) {
      // \X: the character X as it is (not a blank: tree-sitter reads escaped blanks its own way).
      const e = source.charCodeAt(i + 1);
      if (!(e > 32 && e < 127)) return null;
      value += source[i + 1];
      i += 2;
      quoted = true;
      special = true;
    } else if (d === 123 && source.charCodeAt(i + 1) === 125) {
      // {}: no brace expansion (find's `-exec … {} ;`).
      value += "{}";
      i += 2;
      special = true;
    } else break;
  }
  const line = piped?.end === i ? splitLine(r, piped.stage, r.stages) : undefined;
  if (line === null) return null;
  const parts = { value, quoted, glob, special, dynamic, prefix, nameRuns, line };
  return wordEnd(r, from, i, first, parts);
}

/** What `readWord` read up to where a word ends. */
interface WordParts {
  value: string;
  quoted: boolean;
  glob: boolean;
  special: boolean;
  dynamic: boolean;
  prefix: string;
  nameRuns: boolean;
  /** The word is an unquoted `$(…)` alone (`LineOf.split`). */
  line: LineOf | undefined;
}

/** The word `readWord` read from `from` to `i`, or null where it is not plain (see there). */
function wordEnd(
  r: Reading,
  from: number,
  i: number,
  first: boolean,
  w: WordParts,
): WordRead | null {
  const { value, quoted, glob, special, dynamic, prefix, nameRuns, line } = w;
  const source = r.source;
  const n = source.length;
  if (i === from) return null; // a character no plain command has here
  // (An unquoted word of nothing but unset names is no word: bash drops it; as the walk does, a
  // value not known here.)
  if (value === "" && !quoted) {
    const text = source.slice(from, i);
    return {
      word: { value: text, kind: "dynamic", prefix: "", text },
      end: i,
      name: false,
      literal: false,
    };
  }
  const after = i < n ? source.charCodeAt(i) : -1;
  if (
    after !== -1 && after !== 32 && after !== 9 && after !== 124 && after !== 38 && after !== 59 &&
    after !== r.closer // a substitution's `)` or `` ` ``
  ) return null;
  // An unquoted reserved word anywhere: tree-sitter may read it as one; a word starting with
  // `=` may be read as a test operator (`==`, `=~`).
  // (A `!` after the command name is an argument: `find . ! -name x`.)
  if (!quoted && (value.charCodeAt(0) === 61 || ((first || value !== "!") && reserved(value)))) {
    return null;
  }
  if ((glob && special) || (dynamic && (glob || special))) return null;
  // (A word of one unquoted run is its own text.)
  const text = !quoted && !special && value.length === i - from ? value : source.slice(from, i);
  return {
    word: dynamic
      ? { value, kind: "dynamic", prefix, text, ...(line && { line }) }
      : glob
      ? { value, kind: "glob", ...globParts(source, from, i), text }
      : { value, kind: "static", prefix: value, text },
    end: i,
    name: nameRuns && !glob && !special && !dynamic,
    literal: !glob && !special && !dynamic,
  };
}

/**
 * A double-quoted text at `at`, where it ends, where its first unknown value is in its text (-1:
 * none), and whether it expanded a known one; null when it has anything else bash expands or does
 * not end. A backslash escapes `$`, `` ` ``, `"` and `\` there, and is itself before any other
 * character.
 */
function doubleQuoted(
  source: string,
  at: number,
  r: Reading | null,
): { text: string; end: number; variableAt: number; expanded: boolean } | null {
  const n = source.length;
  let j = at + 1;
  let text = "";
  let run = j;
  let variableAt = -1;
  let expanded = false;
  for (; j < n; j++) {
    const e = source.charCodeAt(j);
    // A `$` that closes the text is itself (`grep ":$"`); after an expansion tree-sitter reads
    // the text its own way.
    if (e === 36 && source.charCodeAt(j + 1) === 34) {
      if (variableAt >= 0 || expanded) return null;
      continue;
    }
    if (e === 36 && source.charCodeAt(j + 1) !== 40) {
      // `$NAME`: its value when the walk knows it, else not known.
      const v = r === null ? null : variable(r, j, true);
      if (v === null) return null;
      text += source.slice(run, j);
      if (v.value !== null) {
        text += v.value;
        expanded = true;
      } else {
        if (variableAt < 0) variableAt = text.length;
        text += source.slice(j, v.end);
      }
      run = v.end;
      j = v.end - 1;
      continue;
    }
    if (e === 36 || e === 96) {
      const end = e === 36 ? expansionEnd(source, j, r) : backtickEnd(source, j, r);
      if (end < 0) return null;
      text += source.slice(run, j);
      if (variableAt < 0) variableAt = text.length;
      text += source.slice(j, end);
      run = end;
      j = end - 1;
      continue;
    }
    if (e === 92) {
      const f = source.charCodeAt(j + 1);
      if (!printable(f)) return null;
      if (f === 36 || f === 96 || f === 34 || f === 92) {
        text += source.slice(run, j);
        run = ++j;
      }
      continue;
    }
    if (e < 128 && NOT_IN_DOUBLE[e]) break;
    if (!printable(e)) return null;
  }
  if (source.charCodeAt(j) !== 34) return null;
  return { text: text + source.slice(run, j), end: j + 1, variableAt, expanded };
}

/**
 * Where the `$(…)` at `at` ends, a substitution of plain commands whose stages are read into `r`
 * (null: not read here); -1 for anything else.
 */
function expansionEnd(source: string, at: number, r: Reading | null): number {
  // (`$((…))` is arithmetic.)
  if (r === null || source.charCodeAt(at + 2) === 40) return -1;
  return substitutionEnd(r, at + 2, 41);
}

/**
 * Where the backtick substitution at `at` ends, its stages read into `r` (null: not read here); -1
 * when it is not one of plain commands, has a backslash or a substitution inside (bash reads those
 * its own way there), or is not the command's only one.
 */
function backtickEnd(source: string, at: number, r: Reading | null): number {
  const close = source.indexOf("`", at + 1);
  if (r === null || close < 0 || r.closer === 96) return -1;
  // (tree-sitter reads two pairs apart in one word: `` `a` `b` ``. One pair in a command only.)
  if (source.indexOf("`", close + 1) >= 0 || source.lastIndexOf("`", at - 1) >= 0) return -1;
  const body = source.slice(at + 1, close);
  if (body.includes("\\") || body.includes("$(")) return -1;
  return substitutionEnd(r, at + 1, 96);
}

/**
 * Read the commands of a substitution from `from` up to its `closer`, into `r`; where the
 * substitution ends, or -1.
 */
function substitutionEnd(r: Reading, from: number, closer: number): number {
  if (r.depth === MAX_DEPTH) return -1;
  const first = r.stages.length;
  const outer = r.closer;
  const cwds = r.cwds;
  const lists = r.lists;
  r.depth++;
  r.closer = closer;
  const close = readList(r, from, "substitution");
  r.depth--;
  r.closer = outer;
  r.cwds = cwds;
  // (`$(pwd)` is the cwd to the walk: its value is known; so is a number the walk knows a
  // command prints, `$(nproc)`, `$(… | wc -l)`.)
  if (close < 0) return -1;
  // (One pipeline: its words, unquoted, may be a listing's paths; `Word.line`.)
  if (closer === 41 && r.lists === lists) r.piped = { end: close + 1, stage: r.stages.at(-1)! };
  const text = () => r.source.slice(closer === 41 ? from - 2 : from - 1, close + 1);
  for (let i = first; i < r.stages.length; i++) {
    const program = r.stages[i].argv[0]?.value;
    // (git's only where it prints a commit's name.)
    if (OUTPUT_PROGRAMS.has(program!) && (program !== "git" || outputPattern(text()))) return -1;
  }
  return close + 1;
}

/**
 * The home directory a `~` at the start of a word stands for (`~` alone or `~/…`); null for what
 * the walk reads otherwise (`~user`, `~+`, `~"x"`, HOME assigned by the command).
 */
function tilde(r: Reading, at: number): string | null {
  const e = r.source.charCodeAt(at + 1);
  if (!(e === 47 || at + 1 === r.source.length || ENDS[e] || e === r.closer)) return null;
  return knownValue(r, "HOME");
}

/**
 * A glob word's literal text before its first glob character, and the word as a pattern (its
 * quoted text matched literally), as the walk makes them (the word's pieces read again: a glob
 * word is rare, and has no escape or `{}`).
 */
function globParts(source: string, from: number, to: number): { prefix: string; pattern: string } {
  let prefix = "";
  let pattern = "";
  let glob = false;
  for (let i = from; i < to;) {
    const d = source.charCodeAt(i);
    let text: string;
    if (d === 39) {
      const close = singleQuoteEnd(source, i);
      text = source.slice(i + 1, close);
      i = close + 1;
    } else if (d === 34) {
      const dq = doubleQuoted(source, i, null)!;
      text = dq.text;
      i = dq.end;
    } else {
      let j = i + 1;
      while (j < to && source.charCodeAt(j) !== 39 && source.charCodeAt(j) !== 34) j++;
      const run = source.slice(i, j);
      i = j;
      pattern += run;
      if (glob) continue;
      const at = run.search(/[*?]/);
      prefix += at < 0 ? run : run.slice(0, at);
      glob = at >= 0;
      continue;
    }
    pattern += literalPattern(text);
    if (!glob) prefix += text;
  }
  return { prefix, pattern };
}

/** Whether a word is one of bash's reserved words (all short, of letters or `!{}[]`). */
function reserved(word: string): boolean {
  const c = word.charCodeAt(0);
  return word.length <= 8 &&
    ((c >= 97 && c <= 122) || c === 33 || c === 123 || c === 125 || c === 91 || c === 93) &&
    RESERVED_WORDS.has(word);
}

/** Characters that end a word: blanks and operators. */
const ENDS = charSet(" \t|&;<>");

/** A lookup table of ASCII characters. */
function charSet(chars: string): Uint8Array {
  const set = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) set[chars.charCodeAt(i)] = 1;
  return set;
}
