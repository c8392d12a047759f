/**
 * The values a command gives its own variables, as far as they can be known before it runs
 * (RULINGS principle 3, Variables): a variable assigned static text by a statement that surely
 * runs (`X=src; cat $X/a.py`, `X=src && cat "$X"/a.py`), and a `for` loop's variable, which takes
 * the words of its list one by one. Everything else leaves a variable unknown, as it was before:
 * an assignment that may or may not run (after `&&`/`||`, in a branch, a loop, a function, a
 * subshell, a pipeline, a background job, before a command as its environment), and from the
 * point where a command may change variables in ways not followed here (`eval`, `source`,
 * `declare -n`, a function defined or a command not known by name) nothing is known at all. A
 * builtin that assigns names it is given (`export X=v`, `read X`, `printf -v X`, `unset X`)
 * changes those alone, and `set`, `cd` and their kin none (builtin_assignments.ts). A command
 * that uses bash's arithmetic, aliases, traps or `IFS` anywhere is not followed at all: they can
 * assign any variable from inside a value. The words of arrays of words
 * (walk_arrays.ts decides which) are kept here too, forgotten where the values are.
 *
 * @module
 */
import type { LineOf, Output, Redirect, Stage, Word } from "./model.ts";
import { documentText } from "./read_builtin.ts";
import { plainNames, trapRunsLater } from "./trap.ts";
import {
  type BuiltinEffect,
  builtinEffect,
  MAY_ASSIGN,
  READS_TEXT,
} from "./builtin_assignments.ts";
import { BASH_READONLY } from "./line_stops.ts";
import { onlyRead } from "./parameter_ops.ts";
import { unquotedText } from "./words.ts";

/** The words an array holds, and the cwds where its globs were expanded. */
export interface KnownList {
  words: readonly Word[];
  cwds: readonly (string | null)[];
  /**
   * The index of each word, rising, where the array is sparse (`unset 'a[1]'`, `a[5]=x`; its
   * words then all static); none: `0 1 …`.
   */
  indices?: readonly number[];
}

/** A value known for a variable. */
export interface Known {
  /** The text it holds (for a glob's match: the glob, whose matches the glob logic judges). */
  value: string;
  /**
   * "text": exactly `value`; "glob": one of the paths the glob `value` matches; "line": a line
   * `read` takes from what a stage prints (`line`), which only a program knows; "output": what a
   * substitution prints, of the form `output` (`value` its text).
   */
  kind: "text" | "glob" | "line" | "output";
  /** For a glob: its word as a bash pattern (`Word.pattern`), when it has one. */
  pattern?: string;
  /** For a glob: the cwds it was expanded in (a loop's list), when known. */
  at?: readonly (string | null)[];
  /** For a line: where it comes from and how `read` took it. */
  line?: LineOf;
  /** For an output: its form (`Word.output`). */
  output?: Output;
}

/**
 * The one variable a `read` in a loop's condition assigns a whole line of its input to, and how
 * it takes it: `read [-r] [-s] [-p P] [-t N] [-d ''] NAME`, alone or with `IFS=` (empty) before
 * it. Null for any other form (several names, `-a`, `-n`, `-u`, another delimiter or `IFS`).
 */
export function readLine(
  argv: Word[],
  prefixes: Word[],
  from: Stage,
): { name: string; line: LineOf } | null {
  if (prefixes.some((w) => w.kind !== "static" || w.value !== "IFS=")) return null;
  if (argv[0]?.kind !== "static" || argv[0].value !== "read") return null;
  let raw = false;
  let whole = false;
  const names: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") return null;
    if (names.length || !w.value.startsWith("-") || w.value === "-") names.push(w.value);
    else if (w.value === "--") continue;
    else if (/^-[rs]+$/.test(w.value)) raw ||= w.value.includes("r");
    else if (/^-[rs]*[pt]$/.test(w.value) && i + 1 < argv.length) {
      raw ||= w.value.includes("r");
      whole ||= w.value.endsWith("t");
      i++;
    } else if (
      /^-[rs]*d$/.test(w.value) && argv[i + 1]?.value === "" && argv[i + 1].kind === "static"
    ) {
      raw ||= w.value.includes("r");
      whole = true;
      i++;
    } else return null;
  }
  if (names.length !== 1 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(names[0])) return null;
  const line: LineOf = { from, raw, trimmed: prefixes.length === 0 };
  if (whole) line.whole = true;
  return { name: names[0], line };
}

/**
 * Source text that may assign variables from inside a value or a name given as text: `let`,
 * `[[ a -eq b ]]`, subscripts `a[…]` (not `[@]` and `[*]`, which evaluate nothing),
 * `${s:off}` and `${x:=v}` (not `${x:-v}`, `${x:+v}`, `${x:?v}` or a plain `${s:2:3}`),
 * indirection (`${!x}`), declarations with attributes or namerefs (`declare -n`, `local`; not
 * `declare [-a] NAME=(WORDS)` alone, an array of words, see walk_arrays.ts), aliases (their
 * text runs later), `IFS` (word splitting; but
 * `IFS=X read`, which sets it for `read` alone), `{fd}>` redirects (they assign a number), `select`
 * (reads a name). A trap that may run before a later command stops what is known where it is set
 * (`afterCommand`); arithmetic (`((…))`, `$[…]`) makes the names it assigns not known
 * (`arithmeticNames`).
 */
const NOT_FOLLOWED =
  /\blet\b|\$\{!|\w\[(?![@*]\])|\$\{[^}]*:(?![-+?]|\d+(?::\d+)?\})|\b(alias|select)\b|\bIFS\b(?!=(''|""|[\w:,./@%+-]*)[ \t]+read\b)|\{[A-Za-z_]\w*\}\s*[<>]/;

/** Arithmetic that assigns a name made by an expansion: `((${v}S=1))`, `(($v += 1))`, `let $v=1`. */
const ARITHMETIC_SPLICED =
  /(\(\(|\$\[|\blet\b)[^)\]]*\$(\{[^}]*\}|\w+)(\w|\s*(<<|>>|[-+*/%&|^])?=(?!=)|\+\+|--)/;

/**
 * Whether a command's source may assign IFS: it names it anywhere once its quotes and escapes are
 * removed (`read I\FS`, `printf -v 'IFS' _`, `export I''FS=_`, `declare -n r=IFS`, `local IFS`,
 * `IFS+=`, `((IFS=1))`) but as the environment of a `read` at a command's start (`IFS=, read`,
 * which sets it for `read` alone), or its arithmetic takes a name from an expansion
 * (`((${v}S=1))`). (Names given in ways the text does not show, `eval`, `source`, `read "$v"`,
 * stop what is known: `Values.defaultIfs`.)
 */
export function namesIfs(source: string): boolean {
  const text = unquotedText(source);
  if (ARITHMETIC_SPLICED.test(text)) return true;
  for (const m of text.matchAll(/\bIFS\b/g)) {
    const before = text.slice(0, m.index).trimEnd();
    const start = before === "" || /([;&|({\n]|\b(do|then|else|while|until|if))$/.test(before);
    if (!start || !/^IFS=[^\s;&|<>()]*[ \t]+read\b/.test(text.slice(m.index))) return true;
  }
  return false;
}

/** A name arithmetic assigns: `n=…`, `n+=…`, `n++`, `++n` (not `==`, `<=`, `>=`, `!=`). */
const ARITHMETIC_ASSIGNED =
  /([A-Za-z_]\w*)\s*(?:\+\+|--|(?:<<|>>|[-+*/%&|^])?=(?!=))|(?:\+\+|--)\s*([A-Za-z_]\w*)/g;

/**
 * The names the arithmetic of a source (`((…))`, `$((…))`, `$[…]`) assigns, which take numbers
 * there; null where one may change how the rest is read (IFS, PATH, HOME, bash's own) or an
 * arithmetic text does not close (`unclosed: "stop"`: the names before it).
 */
export function arithmeticNames(
  code: string,
  opts: { unclosed?: "null" | "stop" } = {},
): Set<string> | null {
  const names = new Set<string>();
  for (let at = code.search(/\(\(|\$\[/); at >= 0;) {
    const square = code[at] === "$" && code[at + 1] === "[";
    const open = square ? "[" : "(";
    const close = square ? "]" : ")";
    let depth = 0;
    let end = -1;
    for (let i = square ? at + 1 : at; i < code.length; i++) {
      if (code[i] === open) depth++;
      else if (code[i] === close && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) return opts.unclosed === "stop" ? names : null;
    for (const m of code.slice(at, end).matchAll(ARITHMETIC_ASSIGNED)) {
      const name = m[1] ?? m[2];
      if (ELSEWHERE.has(name) || SPECIAL_NAMES.test(name)) return null;
      names.add(name);
    }
    const next = code.slice(end + 1).search(/\(\(|\$\[/);
    at = next < 0 ? -1 : end + 1 + next;
  }
  return names;
}

/** Names whose value changes how bash reads or finds things (arithmetic may set them). */
const SPECIAL_NAMES = /^(PATH|GLOBIGNORE|BASH\w*|SHELLOPTS|CDPATH|HISTFILE|PS\d)$/;
/** `[[ a -eq b ]]` evaluates both sides (`[ a -eq b ]`, the test builtin, does not). */
const ARITHMETIC_TEST = /-(eq|ne|lt|le|gt|ge)\b/;

/**
 * The source with its quoted data blanked, where bash reads no code: single-quoted and `$'…'`
 * strings, and double-quoted ones that expand nothing (no `$`, `` ` `` or `\`): `sed 's/var
 * /let /'`, `grep -i "select"`, `jq '.items[0]'` hold no `let`, `select` or subscript. A command
 * with a comment or a here-document, or quotes that do not close, is left as it is.
 */
export function withoutQuotedData(source: string): string {
  if (!/['"]/.test(source) || source.includes("#") || source.includes("<<")) return source;
  let out = "";
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") {
      out += source.slice(i, i + 2);
      i++;
    } else if (c === "'" || (c === "$" && source[i + 1] === "'")) {
      // (`$'…'` takes `\'` as a quote; `'…'` ends at the next one.)
      let j = c === "$" ? i + 2 : i + 1;
      while (j < source.length && source[j] !== "'") j += c === "$" && source[j] === "\\" ? 2 : 1;
      if (j >= source.length) return source;
      out += "''";
      i = j;
    } else if (c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') j += source[j] === "\\" ? 2 : 1;
      if (j >= source.length) return source;
      const body = source.slice(i + 1, j);
      out += /[$`\\]/.test(body) ? source.slice(i, j + 1) : '""';
      i = j;
    } else out += c;
  }
  return out;
}

/** Text that may make `pwd` other than the builtin: a function or an alias (any). */
const PWD_REDEFINED = /\bpwd\s*\(|\bfunction\b|\b(alias|enable)\b/;

/** Expandable variables the walk knows otherwise (environment, cwd): never tracked here. */
const ELSEWHERE = new Set([
  "HOME",
  "PWD",
  "TMPDIR",
  "OLDPWD",
  "DIRSTACK",
  "CDPATH",
  "IFS",
  // (bash sets these itself: `[[ s =~ re ]]`, `read`, `mapfile`, `getopts`, every command.)
  "BASH_REMATCH",
  "REPLY",
  "MAPFILE",
  "OPTARG",
  "_",
]);

/** The variables of one walk and where it stands (nested: an assignment may not reach on). */
export class Values {
  private known = new Map<string, Known>();
  /**
   * The arrays known to hold a list of words (walk_arrays.ts decides which): followed apart from
   * the other values, which a command that uses arrays may leave unknown (`off`), and forgotten
   * with them wherever they are.
   */
  #lists = new Map<string, KnownList>();
  /** No list is known from here on (`stop`). */
  #listsOff = false;
  /** Nothing is known from here on (undefined: not asked yet, the source decides). */
  #off: boolean | undefined;
  /** How deep the walk is in places whose assignments may not run or not reach on. */
  private nested = 0;
  #plainPwd: boolean | undefined;
  #plainNames: boolean | undefined;
  /** Names assigned since the line may have stopped (null: it may not; see line_stops.ts). */
  #sinceStop: Set<string> | null = null;
  /** Something may have changed any name (`stop`), and the names assigned so far (`#ever`). */
  #stopped = false;
  #ever: Set<string> | null = null;
  /** The whole command's source (a copy's own is empty). */
  #root: string;

  /** The values of a walk of `source`, with those a nested text is `given` known from its start. */
  static of(source: string, given?: ReadonlyMap<string, string>): Values {
    const v = new Values(source);
    if (given) { for (const [name, value] of given) v.given(name, value); }
    return v;
  }

  /** (Each question of the source is asked when first needed: most commands assign nothing.) */
  constructor(readonly source: string, plainPwd?: boolean) {
    this.#plainPwd = plainPwd;
    this.#root = source;
  }

  /**
   * Whether nothing of the command has assigned `name` up to here, nor may anywhere: no
   * assignment of it walked, nothing walked that may assign any name (`stop`), and its source
   * names it only where it reads it (parameter_ops.ts `onlyRead`).
   */
  neverAssigned(name: string): boolean {
    if (this.#stopped || this.#ever?.has(name) || !onlyRead(this.#root, name)) return false;
    this.#unset.add(name);
    return true;
  }

  /** The names taken to be unset (the analysis holds while the environment holds none of them). */
  get unsetNames(): ReadonlySet<string> {
    return this.#unset;
  }
  #unset = new Set<string>();

  #assigned(name: string): void {
    (this.#ever ??= new Set()).add(name);
  }

  /**
   * Whether something walked so far assigned or unset `name`, in whatever spelling the walk
   * resolved (`v=PW; printf -v "${v}D" x`: `PWD`). Names the text spells are `touched`'s.
   */
  assignedSoFar(name: string): boolean {
    return this.#ever?.has(name) ?? false;
  }

  /** No name of the command can be a function or an alias (lib/shell/trap.ts). */
  private get plainNames(): boolean {
    return this.#plainNames ??= plainNames(this.source);
  }

  /** `pwd` is the builtin: the command defines no function or alias that could be named so. */
  get plainPwd(): boolean {
    return this.#plainPwd ??= !PWD_REDEFINED.test(this.source);
  }

  private get off(): boolean {
    if (this.#off === undefined) {
      const code = withoutQuotedData(this.source);
      this.#off = NOT_FOLLOWED.test(code) || this.#namesIfs ||
        (ARITHMETIC_TEST.test(code) && code.includes("[["));
      if (!this.#off && (code.includes("((") || code.includes("$["))) {
        const names = arithmeticNames(code);
        if (names === null) this.#off = true;
        else if (names.size) this.#numeric = names;
      }
    }
    return this.#off;
  }

  /** Something walked may have changed any name or option (`stop`). */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** The whole command's source (a sub-walk's too). */
  get root(): string {
    return this.#root;
  }

  /** The command's source may assign IFS (`namesIfs`), asked once. */
  get #namesIfs(): boolean {
    return this.#ifsNamed ??= namesIfs(this.#root);
  }
  #ifsNamed: boolean | undefined;

  /**
   * Whether IFS is surely bash's default here, so that bash splits an unquoted expansion at
   * blanks alone: the command's source may assign it nowhere (`namesIfs`), nothing walked so far
   * may have assigned any name (`stop`: `eval`, `source`, a name not known), and no `BASH_ENV`
   * runs first. (bash takes no IFS from its environment.)
   */
  defaultIfs(env: Record<string, string | undefined>): boolean {
    // (Also where a builtin assigned IFS through a name the walk put together: `v=I; read
    // "${v}FS"`.)
    return !this.#stopped && env.BASH_ENV === undefined && !this.#namesIfs &&
      !this.assignedSoFar("IFS");
  }

  /**
   * Names the command's arithmetic assigns (see `arithmeticNames`), and those a builtin gives an
   * attribute that changes later assignments (`declare -u`, `readonly`): never followed.
   */
  #numeric: ReadonlySet<string> | null = null;

  /** Whether what is walked here surely runs when the walk gets here (not nested). */
  get sure(): boolean {
    return this.nested === 0;
  }

  /** Whether the command's variables are followed at this point. */
  get following(): boolean {
    return !this.off;
  }

  /** A copy for a sub-walk (a substitution's text parsed apart): it runs in a subshell. */
  copy(): Values {
    const c = new Values("", this.plainPwd);
    c.#off = this.off;
    c.#numeric = this.#numeric;
    c.nested = 1;
    c.#region = -1;
    for (const [k, v] of this.known) c.known.set(k, v);
    for (const [k, v] of this.#lists) c.#lists.set(k, v);
    c.#listsOff = this.#listsOff;
    c.#stopped = this.#stopped;
    c.#ever = this.#ever;
    c.#root = this.#root;
    c.#unset = this.#unset;
    c.#exported = this.#exported;
    return c;
  }

  /** The line may stop from here on: what is assigned until its end may not have run. */
  lineMayStop(): void {
    this.#sinceStop ??= new Set();
  }

  /** The line ends: what was assigned since it may have stopped is not known. */
  lineEnd(): void {
    if (this.#sinceStop === null) return;
    this.#handed = null;
    for (const name of this.#sinceStop) {
      this.known.delete(name);
      this.#lists.delete(name);
    }
    this.#sinceStop = null;
  }

  /** Whether some array's words are known here. */
  get lists(): boolean {
    return this.#lists.size > 0;
  }

  /** The words an array holds, where known (see walk_arrays.ts). */
  list(name: string): KnownList | undefined {
    return this.#lists.size ? this.#lists.get(name) : undefined;
  }

  /** An array's words from here on (only where the walk surely gets and lists are followed). */
  setList(name: string, list: KnownList): void {
    this.#sinceStop?.add(name);
    this.#assigned(name);
    if (!this.#listsOff && this.nested === 0 && !this.#numeric?.has(name)) {
      this.#lists.set(name, list);
    } else this.#lists.delete(name);
  }

  /** An array's words are not known from here on (an append that may not run). */
  forgetList(name: string): void {
    this.#sinceStop?.add(name);
    this.#assigned(name);
    this.#lists.delete(name);
  }

  /**
   * Names surely exported here (`export F`, `export F=v` where the walk surely gets; a nested
   * text's given names): their known text is handed to what a stage runs (`Stage.handed`).
   */
  #exported: Set<string> | null = null;
  /** The last `handed` map made, while nothing changed (null: make it again). */
  #handed: ReadonlyMap<string, string> | null | undefined = null;

  /**
   * The exported variables whose value is known as text here, for a stage's `handed` (undefined:
   * none; most commands export nothing, and pay one check).
   */
  handed(): ReadonlyMap<string, string> | undefined {
    if (this.#exported === null) return undefined;
    if (this.#handed !== null) return this.#handed;
    const out = new Map<string, string>();
    for (const name of this.#exported) {
      const k = this.known.get(name);
      if (k?.kind === "text") out.set(name, k.value);
    }
    return this.#handed = out.size ? out : undefined;
  }

  /** `names` are exported from here on (where surely), or no longer (`export -n`, `declare`). */
  #export(names: readonly string[], on: boolean): void {
    if (!names.length || (on && this.nested > 0)) return;
    if (!on && this.#exported === null) return;
    this.#exported = new Set(this.#exported ?? []);
    for (const n of names) on ? this.#exported.add(n) : this.#exported.delete(n);
    this.#handed = null;
  }

  /**
   * A variable the environment gives a nested text, its value known (the command around it
   * exported it, or gave it as a prefix): known and exported from the start, as an assignment
   * there would be (nothing where the text is not followed).
   */
  given(name: string, value: string): void {
    this.assign(name, { value, kind: "text" });
    if (this.known.has(name)) this.#export([name], true);
  }

  /** The value of a variable, if known. */
  get(name: string): Known | undefined {
    return this.known.size ? this.known.get(name) : undefined;
  }

  /** An assignment of `value` (null: not known) at this point of the walk. */
  assign(name: string, value: Known | null): void {
    this.#assigned(name);
    if (this.#exported?.has(name)) this.#handed = null;
    if (ELSEWHERE.has(name)) return;
    this.#sinceStop?.add(name);
    if (
      value === null || this.off || this.nested > 0 || this.#numeric?.has(name) ||
      BASH_READONLY.has(name)
    ) {
      this.known.delete(name);
    } else this.known.set(name, value);
  }

  /** A loop variable takes `value` for one round of the body (set even when nested). */
  loopValue(name: string, value: Known | null): void {
    this.#sinceStop?.add(name);
    this.#assigned(name);
    if (ELSEWHERE.has(name) || this.off || value === null || this.#numeric?.has(name)) {
      this.known.delete(name);
    } else this.known.set(name, value);
  }

  /** Forget the lines of `from` that names hold (a `while read` loop is over). */
  forgetLines(from: Stage): void {
    for (const [k, v] of this.known) if (v.line?.from === from) this.known.delete(k);
  }

  /** Forget every value (entering a loop: later rounds see what earlier ones assigned). */
  forgetAll(): void {
    this.known.clear();
    this.#handed = null;
    this.#lists.clear();
  }

  /** Nothing is known from here on. */
  stop(): void {
    this.#stopped = true;
    this.known.clear();
    this.#handed = null;
    this.#lists.clear();
    this.#off = true;
    this.#listsOff = true;
  }

  /**
   * Run `f` in a subshell (`( … )`, `$( … )`): nothing it assigns or stops reaches on, so what is
   * known after it is what was known before (`for d in a b; do (cd "$d" && make); done`: the
   * second round's `$d` is known after the first round's `cd`).
   */
  subshell<T>(f: () => T): T {
    const known = new Map(this.known);
    const lists = new Map(this.#lists);
    const [off, listsOff] = [this.#off, this.#listsOff];
    try {
      return this.nestedIn(f);
    } finally {
      this.known = known;
      this.#handed = null;
      this.#lists = lists;
      this.#off = off;
      this.#listsOff = listsOff;
    }
  }

  /** Run `f` where assignments may not run or not reach on (a branch, a subshell, a pipeline). */
  nestedIn<T>(f: () => T): T {
    this.nested++;
    const was = this.#region;
    this.#region = ++this.#regions;
    try {
      return f();
    } finally {
      this.nested--;
      this.#region = was;
    }
  }

  /** Each walk of a nested part (`nestedIn`) has a region of its own; 0 is the top. */
  #region = 0;
  #regions = 0;

  /**
   * The region walked here: two statements of one region run one after the other, the later only
   * where the earlier ran (`pushd a; make; popd` in a loop's body, not `pushd a && popd`).
   */
  get region(): number {
    return this.#region;
  }

  /** Whether the line being walked may have stopped before here (see `lineMayStop`). */
  get mayHaveStopped(): boolean {
    return this.#sinceStop !== null;
  }

  /**
   * After a command ran: its `NAME=value` prefixes were its environment only (forgotten, as bash
   * keeps some of them in POSIX mode), and a command that may change variables (or one whose
   * name is not known) ends what is known.
   */
  afterCommand(
    argv: Word[],
    stage: { assignments?: Word[]; redirects: readonly Redirect[] },
    reads?: { name: string; line: LineOf },
  ): BuiltinEffect | undefined {
    const prefixes = stage.assignments ?? [];
    for (const w of prefixes) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(\+?=|\[)/.exec(w.value);
      if (m) this.known.delete(m[1]), this.#handed = null;
      // (`a[0]=x cmd`: bash 5.2 assigns nothing, but an array so named is not followed on.)
      if (m?.[2] === "[") this.forgetList(m[1]);
    }
    // (A loop's `read NAME` assigns that name alone: a line of the loop's input.)
    if (reads) {
      this.loopValue(reads.name, { value: "$" + reads.name, kind: "line", line: reads.line });
      return;
    }
    const name = argv[0];
    if (name === undefined) return;
    // (A trap for EXIT alone runs when the shell ends: after every command here.)
    // (So does one whose handler leaves the shell as it is: `trap 'echo failed' ERR`.)
    if (
      name.kind === "static" && name.value === "trap" && !trapRunsLater(argv, this.plainNames)
    ) return;
    if (name.kind !== "static") {
      this.stop();
      return;
    }
    if (!MAY_ASSIGN.has(name.value)) return;
    // (`read` or `mapfile` of a static here-string or heredoc: what it reads is known.)
    const text = stage.redirects.length && argv.some((w) => READS_TEXT.has(w.value))
      ? documentText(stage.redirects)
      : null;
    const effect = builtinEffect(argv, { prefixes, text });
    if (effect === null) this.stop();
    else this.#apply(effect);
    return effect ?? undefined;
  }

  /** A builtin's changes (builtin_assignments.ts): those names alone. */
  #apply(effect: BuiltinEffect): void {
    for (const [name] of effect.assigns) this.#assigned(name);
    if (effect.unexports) this.#export(effect.unexports, false);
    // (The source's own questions first: they set what arithmetic assigns.)
    if (this.off && !this.lists) return;
    if (effect.attributed?.length) {
      const names = new Set(this.#numeric);
      for (const n of effect.attributed) names.add(n);
      this.#numeric = names;
    }
    for (const [name, value, append] of effect.assigns) {
      this.#lists.delete(name);
      let known: Known | null = value === null ? null : { value, kind: "text" };
      if (known && append) {
        const old = this.known.get(name);
        known = old?.kind === "text" ? { value: old.value + known.value, kind: "text" } : null;
      }
      this.assign(name, known);
    }
    if (effect.exports) this.#export(effect.exports, true);
    // (Text stays what it is; matches and lines were found where the shell was.)
    if (effect.moves) {
      for (const [k, v] of this.known) if (v.kind !== "text") this.known.delete(k);
      this.#lists.clear();
    }
  }
}

/** Text that bash leaves as one word with nothing to glob when it expands it unquoted. */
const PLAIN_VALUE = /^[\w./,:+%@=~-]+$/;
/** Such text with `*` or `?` in it: bash globs it. */
const GLOB_VALUE = /^[\w./,:+%@=~*?-]+$/;

/**
 * A known value as a part of a word (null: as good as unknown). Unquoted, bash splits it at
 * blanks and globs it: only text that stays one word is taken (a glob's match could hold blanks).
 */
export function knownPart(
  k: Known,
  quoted: boolean,
): {
  value: string;
  kind: "static" | "glob" | "dynamic";
  expanded?: true;
  raw?: string;
  line?: LineOf;
  at?: readonly (string | null)[];
  output?: Output;
} | null {
  if (k.kind === "line") {
    // Unquoted, bash splits and globs the line: only `"$f"` stands for it (but a word of an
    // unquoted `$(…)`, split and globbed already: `for f in $(git ls-files); do wc -l $f`).
    return quoted || k.line?.split ? { value: k.value, kind: "dynamic", line: k.line } : null;
  }
  if (k.kind === "output") {
    // (Unquoted, bash splits and globs it: a program's path is judged so; a new name only where
    // its directory and template are plain.)
    const o = k.output!;
    if (o.program === "which") {
      return { value: k.value, kind: "dynamic", output: { ...o, split: !quoted } };
    }
    if (quoted) return { value: k.value, kind: "dynamic", output: o };
    return PLAIN_VALUE.test(o.dir + "/" + o.name.replaceAll("?", "x") + o.rest)
      ? { value: k.value, kind: "dynamic", output: o }
      : null;
  }
  if (k.kind === "glob") {
    return quoted
      ? { value: k.value, kind: "glob", expanded: true, raw: k.pattern, at: k.at }
      : null;
  }
  if (quoted) return { value: k.value, kind: "static" };
  if (PLAIN_VALUE.test(k.value)) return { value: k.value, kind: "static" };
  // (Its characters are all literal but `*` and `?`: the text is its pattern.)
  if (GLOB_VALUE.test(k.value)) {
    return { value: k.value, kind: "glob", expanded: true, raw: k.value };
  }
  return null;
}
