/**
 * Calls of the functions a command defines, and the positional parameters they get. A body is
 * walked at each call (`check() { npx tsc -p "$1"; }; check packages/web`), with `$1`, `"$@"` and
 * `"$*"` standing for the call's words where they are static (a glob's word in `"$@"` for its
 * matches, as in the call), and not known otherwise; `set -- WORDS` at the top of the command
 * gives the command's own. bash saves a caller's parameters around a call, so a body's `shift` or
 * `set` changes its own only.
 *
 * This holds only where every run of a body is a call the walk sees. It is checked after the
 * walk (`rewalk`): a definition that may not run where it stands (in a branch, loop, subshell or
 * body), one named like a builtin or `command_not_found_handle`, a call bound too deep or again
 * inside itself, and anything that may run shell text or hand functions to other shells (`eval`,
 * `source`, `trap`, `alias`, `export -f`, `set -a`, `mapfile -C`, a command whose name is not
 * known) make the command walked again as before: each body once after the command, its
 * parameters not known, wherever it may be called. A function called nowhere is walked so too.
 *
 * @module
 */
import { builtinAt, type Cwds, type Flow, same, union } from "./cwds.ts";
import { redirectsStdin, type Stage, staticWord, type Word } from "./model.ts";
import { BUILTINS, RESERVED_WORDS } from "./keywords.ts";
import type { LiteNode } from "./syntax_tree.ts";
import { knownPart, type Values, withoutQuotedData } from "./walk_values.ts";

/** The positional parameters of one call (the first frame: the command's own). */
interface Frame {
  /** The words, as the call's argv has them (null: not known). */
  words: Word[] | null;
  /** Whether a command at the body's own level (not in a subshell) may have changed the cwd. */
  moved: boolean;
}

/** Calls walked inside calls at most. */
const MAX_DEPTH = 4;
/** Bodies walked at calls per command at most. */
const MAX_CALLS = 32;

/** What the calls need of the walker. */
export interface CallWalker {
  readonly calls: Calls | null;
  readonly values: Values;
  readonly stages: Stage[];
  walk(node: LiteNode, cwds: Cwds, origin: string, redirects: never[]): Flow;
  pipedWalk<T>(piped: boolean, walk: () => T): T;
  definitionRedirects(node: LiteNode, cwds: Cwds): void;
}

/** The state of the calls of one command's walk (shared with its sub-walkers). */
export class Calls {
  /** Each name's body at this point of the walk (definitions that surely ran, in order). */
  readonly bodies = new Map<string, LiteNode>();
  /** Each body's definition, whose redirects bash opens at every call. */
  private readonly definitions = new Map<number, LiteNode>();
  /** Bodies walked at a call: not walked again after the command. */
  readonly called = new Set<number>();
  /** Positional parameters: the command's own first, each call's after it. */
  private readonly frames: Frame[] = [{ words: null, moved: false }];
  /** Bodies being walked at a call. */
  private readonly active = new Set<number>();
  /** Something here is not followed: the command is walked again as before (`rewalk`). */
  broken = false;
  /** A definition was left to its calls, or `set --` gave the command's parameters. */
  used = false;
  /** Bodies are walked after the command, not at a call: calls there are not followed. */
  private ending = false;
  private walks = 0;
  /**
   * The command may set IFS, which splits an unquoted parameter and joins `"$*"`: by name, or by a
   * builtin that assigns a name it is given (`read $'I\x46S'`, `declare`, `printf -v`, `${!x=…}`).
   */
  private ifs: boolean;

  /**
   * The calls of a command that may define functions (`defined`) or `set --`, or is given its
   * positional parameters (a nested text's, `sh -c TEXT $0 $1 …`); null for none of those.
   */
  static of(
    source: string,
    defined: ReadonlySet<string>,
    parameters?: readonly Word[],
  ): Calls | null {
    return defined.size || source.includes("set") || parameters
      ? new Calls(source, parameters)
      : null;
  }

  /** `parameters`: the command's own (a nested text's, `sh -c TEXT $0 $1 …`), where known. */
  constructor(source: string, parameters?: readonly Word[]) {
    this.ifs = IFS_MAY_CHANGE.test(withoutQuotedData(source));
    if (parameters) {
      this.frames[0].words = [...parameters];
      this.used = true;
    }
  }

  /** The innermost call's parameters. */
  get frame(): Frame {
    return this.frames[this.frames.length - 1];
  }

  /** Whether the innermost call's parameters are known (then `$1` and `"$@"` may be). */
  get bound(): boolean {
    return this.frame.words !== null;
  }

  /** Run `walk` as the walk of a body after the command: its parameters not known. */
  ended<T>(walk: () => T): T {
    const was = this.ending;
    this.ending = true;
    this.frames.push({ words: null, moved: false });
    try {
      return walk();
    } finally {
      this.frames.pop();
      this.ending = was;
    }
  }

  /**
   * A definition of `name` walked where it stands; true when its calls will walk it (else it is
   * walked after the command, and the command is walked again as before).
   */
  define(name: string, body: LiteNode, node: LiteNode, values: Values): boolean {
    this.used = true;
    if (
      this.ending || this.frames.length > 1 || !values.sure || name === "" || BUILTINS.has(name) ||
      RESERVED_WORDS.has(name) || name === "command_not_found_handle"
    ) {
      this.broken = true;
      return false;
    }
    this.bodies.set(name, body);
    this.definitions.set(body.id, node);
    return true;
  }

  /**
   * Walk the body a stage calls, in the stage's cwds, with its words as the parameters; the flow
   * after it when the body may have moved the caller (a `cd` at its own level), else null (also
   * for a stage that calls no function defined so far: a program of that name runs).
   */
  call(w: CallWalker, stage: Stage, cwds: Cwds): Flow | null {
    const name = stage.argv[0];
    const body = name?.kind === "static" ? this.bodies.get(name.value) : undefined;
    if (body === undefined || this.ending) return null;
    if (this.active.has(body.id) || this.frames.length > MAX_DEPTH || this.walks >= MAX_CALLS) {
      this.broken = true;
      return null;
    }
    this.walks++;
    this.called.add(body.id);
    this.active.add(body.id);
    const words = stage.argv.slice(1);
    const frame: Frame = { words, moved: false };
    const mark = w.stages.length;
    this.frames.push(frame);
    // (Its commands read what the call reads: a pipe or a redirect, not known to them.)
    const piped = stage.piped === true || stage.redirects.some(redirectsStdin);
    let flow: Flow;
    try {
      flow = w.values.nestedIn(() =>
        w.pipedWalk(piped, () => {
          w.definitionRedirects(this.definitions.get(body.id)!, cwds);
          return w.walk(body, cwds, "function", []);
        })
      );
    } finally {
      this.frames.pop();
      this.active.delete(body.id);
    }
    if (frame.moved && stage.origin === "function") this.frame.moved = true;
    // No program of that name runs: the call is nothing but its redirects (as `:`'s) when the
    // body used its words in ways followed, judged there. (Its environment, `X=1 f`, is its
    // commands', which a program of that name stands for.)
    if (
      frame.words === words && !stage.assignments && words.every(known) &&
      w.stages.slice(mark).every(allKnown)
    ) {
      const at = w.stages.lastIndexOf(stage, mark - 1);
      if (stage.redirects.length) w.stages[at] = { ...stage, argv: [staticWord(":")] };
      else w.stages.splice(at, 1);
    }
    if (!frame.moved) return null;
    // (It ends at its end or at a `return`, wherever that stands.)
    const returns = w.stages.slice(mark).filter((s) =>
      s.origin === "function" && s.argv[builtinAt(s.argv)]?.value === "return"
    );
    return same(union(flow.ok, flow.fail, ...returns.map((s) => s.cwds)));
  }

  /** A command at a body's own level may have changed the cwd. */
  moved(origin: string): void {
    if (origin === "function") this.frame.moved = true;
  }

  /** What a command does to the parameters: `set`, `shift`, and those that may do either. */
  after(argv: Word[], values: Values): void {
    const words = this.frame.words;
    const at = builtinAt(argv);
    const name = argv[at];
    if (at < 0 || name === undefined) return;
    if (name.kind !== "static") {
      if (words !== null) this.frame.words = null; // it may be `set` or `shift`
      return;
    }
    switch (name.value) {
      case "set": {
        const args = argv.slice(at + 1);
        if (!args.some(setsParameters)) return;
        const top = at === 0 && this.frames.length === 1 && values.sure && !this.ending;
        if (top && args[0].kind === "static" && args[0].value === "--") {
          this.frame.words = args.slice(1);
          this.used = true;
        } else this.frame.words = null;
        return;
      }
      case "shift": {
        const n = argv.length === at + 1
          ? 1
          : /^\d+$/.test(argv[at + 1].value)
          ? +argv[at + 1].value
          : -1;
        const known = words !== null && argv.length <= at + 2 && argv[at + 1]?.kind !== "dynamic" &&
          n >= 0 && n <= leading(words);
        this.frame.words = known ? words.slice(n) : null;
        return;
      }
      case "source":
      case ".":
      case "eval":
        this.frame.words = null;
        return;
      case "unset":
        // A function unset, however (`unset -f rm`, `unset rm` with no variable rm): a later
        // call, or one again in a loop, runs the program of that name. Walked as before.
        if (unsetsFunction(argv.slice(at + 1), this.bodies)) this.broken = true;
    }
  }

  /** `$1`…`${N}` as a part of a word, where known (null: not known). */
  parameter(text: string, quoted: boolean): ReturnType<typeof knownPart> {
    const words = this.frame.words;
    // (Unquoted, it is split by IFS: not known where the command may set it, however spelled.)
    if (!quoted && this.ifs) return null;
    const m = words === null ? null : PARAMETER.exec(text);
    if (m === null || words === null) return null;
    const n = Number(m[1] ?? m[2]);
    const exact = leading(words);
    // (Past a glob's or an unknown word, which may be any number of words, it is not known.)
    if (n > exact && exact < words.length) return null;
    return knownPart({ value: n <= exact ? words[n - 1].value : "", kind: "text" }, quoted);
  }

  /**
   * The words a whole word that is `"$@"`, `"$*"`, `$@` or `$*` expands to, where known; null
   * otherwise (also for none in a command's place).
   */
  list(text: string, first: boolean): Word[] | null {
    const words = this.frame.words;
    if (words !== null && ONE.test(text)) return one(text, words);
    const m = words === null ? null : LIST.exec(text);
    if (m === null || words === null || (first && !words.length)) return null;
    const quoted = text.startsWith('"');
    // (Split by IFS unquoted, `"$*"` joined by it: not known where the command may set it.)
    if (this.ifs && (!quoted || m[1] === "*" || m[2] === "*")) return null;
    const at = m[1] === "@" || m[2] === "@";
    // Unquoted, bash splits and globs each word again: plain text alone stays as it is.
    if (!quoted && !words.every((w) => w.kind === "static" && PLAIN.test(w.value))) return null;
    // (A listed path keeps its text: its last component's pattern, which protections read.)
    if (at || !quoted) return words.map((w) => (w.listed ? w : { ...w, text }));
    if (this.ifs || leading(words) < words.length) return null;
    return [{ ...staticWord(words.map((w) => w.value).join(" ")), text }];
  }
}

/**
 * `"$N"` (`"${N}"`) as a whole word, where the parameters up to it are each one word: static text,
 * or the one path a run is given (`find -exec sh -c 'cat "$1"' _ {} \;`: `Listed.alone`), which
 * is that word itself, its text too (a path not known as text, judged as the lister's: the names
 * its text shows are read by protections). Null otherwise: the walk reads it as before
 * (`parameter`).
 */
function one(text: string, words: readonly Word[]): Word[] | null {
  const m = ONE.exec(text)!;
  const n = Number(m[1] ?? m[2]);
  const w = words[n - 1];
  if (w === undefined || w.kind === "static") return null;
  const single = (x: Word) => x.kind === "static" || x.listed?.alone === true;
  return words.slice(0, n).every(single) ? [w] : null;
}

/** Whether `unset ARGS` may unset one of the functions defined (any, for a name not known). */
function unsetsFunction(args: Word[], bodies: ReadonlyMap<string, LiteNode>): boolean {
  let variables = false;
  for (const w of args) {
    if (w.kind !== "static") return true;
    if (/^-[a-z]+$/.test(w.value)) {
      // (`-v` and `-n` name variables only; `-f`, or no option, functions too.)
      variables = /[vn]/.test(w.value) && !w.value.includes("f");
    } else if (!variables && bodies.has(w.value)) return true;
  }
  return false;
}

/** A word known before it runs (a glob's stands for its matches). */
function known(w: Word): boolean {
  return w.kind !== "dynamic";
}

/** Whether every word of a stage is known: its arguments, environment and redirects. */
function allKnown(s: Stage): boolean {
  return s.argv.every(known) && (s.assignments ?? []).every(known) &&
    s.redirects.every((r) => (!r.target || known(r.target)) && (!r.body || known(r.body)));
}

/** What may set IFS: its name, or a builtin that assigns a name it is given (quoted data aside). */
const IFS_MAY_CHANGE =
  /IFS|\$\{!|\b(read|mapfile|readarray|printf|declare|typeset|local|export|readonly|eval|source|getopts|let)\b|(^|[;&|(\s])\.[ \t]/;

/** `$1`…`$9`, `${N}`. */
const PARAMETER = /^\$(?:([1-9])|\{([1-9][0-9]*)\})$/;
/** A whole word that is one parameter, quoted: `"$1"`, `"${12}"`. */
const ONE = /^"\$(?:([1-9])|\{([1-9][0-9]*)\})"$/;
/** A whole word that is the list of parameters. */
const LIST = /^"?\$(?:([@*])|\{([@*])\})"?$/;
/** Text bash leaves as one word with nothing to glob. */
const PLAIN = /^[\w./,:+%@=~-]+$/;

/** How many words from the first are static, each one word. */
function leading(words: Word[]): number {
  let n = 0;
  while (n < words.length && words[n].kind === "static") n++;
  return n;
}

/**
 * Whether an argument of `set` sets the parameters: `--`, `-`, a word that is no option, or
 * one not known. (Options are read loosely: a word after `-o` is taken as its value.)
 */
function setsParameters(w: Word, i: number, args: Word[]): boolean {
  if (w.kind !== "static") return true;
  if (w.value === "--" || w.value === "-") return true;
  if (/^[-+]/.test(w.value)) return false;
  const before = args[i - 1];
  return !(before?.kind === "static" && /^[-+][A-Za-z]*o$/.test(before.value));
}

/**
 * Whether the walk at calls must give way to the walk as before: something was not followed,
 * or a stage may run shell text or hand functions to other shells.
 */
export function rewalk(calls: Calls | null, stages: Stage[]): boolean {
  if (calls === null || !calls.used) return false;
  return calls.broken || stages.some(runsText);
}

/** Builtins that run shell text here, later, or in other shells (functions exported). */
const RUNNERS = new Set([
  "eval",
  "source",
  ".",
  "trap",
  "alias",
  "mapfile",
  "readarray",
  "enable",
  "fc",
  "bind",
  "complete",
  "compgen",
]);
/** Builtins that export a function with `-f` (`export -f f`, `declare -fx f`). */
const EXPORTERS = new Set(["export", "declare", "typeset", "local", "readonly"]);

function runsText(s: Stage): boolean {
  const at = builtinAt(s.argv);
  const name = s.argv[at];
  if (at < 0 || name === undefined) return false;
  if (name.kind !== "static") return true;
  const args = s.argv.slice(at + 1);
  if (name.value === "set") {
    return args.some((w) =>
      w.kind !== "static" || /^-[^-]*a/.test(w.value) || w.value === "allexport"
    );
  }
  if (EXPORTERS.has(name.value)) {
    return args.some((w) => w.kind !== "static" || /^[-+][^-=]*f/.test(w.value));
  }
  return RUNNERS.has(name.value);
}
