/**
 * The stages a stage runs besides itself, from the registry: for each stage, the program's
 * `chdir`, `optionCommands` and `runs` facets (`sudo rm x` runs `rm x`; `bash -c 'rm x'` runs
 * `rm x`; `find . -exec rm {} ;` runs `rm`; `git -C dir log` also works in dir), and what the
 * variables it is given make other programs run (`PAGER=cmd git log`). A stage whose payload
 * cannot be seen gets an unknown stage (its command name is dynamic), so it is never allowed.
 *
 * @module
 */
import type { LineOf, Stage, Word } from "../shell/model.ts";
import type { EvalShape } from "../types.ts";
import {
  ASSIGNED,
  BACKUP_ENV,
  cargoEnv,
  carriesCommand,
  CODE_ENV,
  COMPILER_ENV,
  EXPORTED_FUNCTION,
  LESS_OPTIONS,
  LIBPQ_FILE_ENV,
  PATHSPEC_ENV,
  PLACE_ENV,
  programVariable,
  PROMPT_ENV,
  SETTINGS_FILE_ENV,
  XZ_OPTIONS,
} from "./env.ts";
import { settingsVariable } from "./settings_files.ts";
import { libpqVariable, pgOptionsVariable } from "./libpq.ts";
import { lessOptionWords } from "./shell_escapes.ts";
import { packageVariable, packageVariableSetting } from "./project_settings.ts";
import { programOf } from "./registry.ts";
import { printedBy } from "./piped_text.ts";
import { workTreeFiles } from "./git_external.ts";
import { cargoVariable } from "./cargo.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { GIVEN_CONNECTION, sshProgramHost } from "./ssh_hosts.ts";
import type {
  ChdirSpec,
  How,
  Listing,
  MadeLink,
  NestedStart,
  ProjectSettings,
  Runner,
  ShellOptions,
} from "./spec.ts";
import { passedOn } from "./handed_env.ts";
import {
  chdir,
  derived,
  type GivenInput,
  givenInput,
  inheritInput,
  listedLines,
  literal,
  opensFile,
  programName,
  splitLines,
  unknownWord,
} from "./words.ts";
import { goProxyToolchains, goSplit } from "./go_env.ts";

/**
 * Settings files as `Runner.settings` and `Runner.projectSettings` give them, for a stage run by
 * `top`, the stage of the command's own shell it comes from (the same stage for those).
 */
export interface SettingsFiles {
  file(stage: Stage, path: string, top: Stage, script?: boolean): string | null;
  project(
    stage: Stage,
    name: string,
    top: Stage,
    cwds: readonly (string | null)[],
    toRoot?: boolean,
  ): ProjectSettings[] | null;
  /** `Runner.named`. Absent: never known. */
  named?(stage: Stage, prefix: string, top: Stage): string[] | null;
  /** `Runner.thisMachine`. Absent: any host may be. */
  machine?(host: string): boolean;
  /** `Runner.changes`. Absent: none. */
  changes?(name: string): boolean;
}

/** What expanding a stage needs: a way to analyse a shell string found inside it. */
export interface ExpandOptions {
  /**
   * Analyse shell text as if it ran in `cwd`, run by the stage `from` (whose environment it
   * sees: its `unknownVars`); returns its stages (null: it cannot be analysed).
   */
  analyze(
    text: string,
    cwd: string | null,
    origin: string,
    from?: Stage,
    start?: NestedStart,
  ): Stage[] | null;
  /** How many wrappers deep this stage is (past 8, it is not looked into). */
  depth: number;
  /**
   * The text of a file a stage reads (a path as its command names it), as it will be when the
   * command runs; null when that cannot be known. Absent: never read.
   */
  read?: (stage: Stage, path: string) => string | null;
  /** Settings files as the command will find them (`Runner.settings`). Absent: never known. */
  settings?: SettingsFiles;
  /** The stage of the command's own shell the stages expanded come from (set below depth 0). */
  top?: Stage;
  /**
   * Takes a `PATH=…` word the stage's program makes bash or the programs after it look names up
   * by (see `Runner.searchPath`); false when it cannot. Absent: never taken.
   */
  searchPath?: (assignment: Word) => boolean;
  /**
   * The home directory of a user (null: the one running the command), where it is known (see
   * `Runner.home`). Absent: never known.
   */
  home?: (user: string | null) => string | null;
  /** The environment the tool runs commands with (`Runner.variable`). Absent: none known. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Collects, for each stage expanded, the words of its own it hands on to a stage it runs
   * (`uv run python -c CODE`: from `python` on), which that stage is judged by (read by
   * `commandLineArguments`, line_arguments.ts). Absent: not collected.
   */
  handed?: Map<Stage, Set<Word>>;
  /**
   * Collects each stage a stage runs as itself (`Runner.own`) with that stage: the same process,
   * judged beside it. Absent: not collected (each is a stage of its own).
   */
  beside?: Map<Stage, Stage>;
}

const chdirGrammars = new WeakMap<ChdirSpec, OptionGrammar>();

/** The grammar of a program's directory options and the other valued options before them. */
function chdirGrammar(spec: ChdirSpec): OptionGrammar {
  let g = chdirGrammars.get(spec);
  if (!g) {
    const all = [...spec.options, ...(spec.valued ?? [])];
    g = {
      valued: all.filter((o) => /^-[^-]$/.test(o)).map((o) => o[1]).join(""),
      longValued: new Set(all.filter((o) => o.startsWith("--"))),
    };
    chdirGrammars.set(spec, g);
  }
  return g;
}

/** The cwds a program's directory options lead it to, or null when it has none. */
function chdirOptions(
  spec: ChdirSpec,
  args: Word[],
  cwds: (string | null)[],
): (string | null)[] | null {
  let moved: (string | null)[] | null = null;
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  for (const t of readOptions(values, spec.grammar ?? chdirGrammar(spec))) {
    if (t.kind === "operand" && spec.beforeSubcommand) break;
    let dir: Word | undefined;
    if (t.kind === "valued" && spec.options.includes(t.name)) {
      dir = t.glued !== undefined
        ? literal(t.glued)
        : t.valueAt === undefined
        ? undefined
        : args[t.valueAt];
    } else if (t.kind === "dynamic") {
      // `-C$X`, `--directory=$X`: a directory not known.
      const v = args[t.at].prefix;
      // (Abbreviated where the grammar takes abbreviations: `--dir=$X`.)
      const eq = v.startsWith("--") ? v.indexOf("=") : -1;
      const long = (o: string) =>
        eq > 0 && (v.slice(0, eq) === o || (spec.grammar?.abbreviations === "all" && eq > 2 &&
          o.startsWith(v.slice(0, eq))));
      const opt = spec.options.find((o) =>
        o.startsWith("--") ? long(o) : v.startsWith(o) && v.length > o.length
      );
      if (opt) dir = args[t.at];
    }
    if (dir) moved = chdir(moved ?? cwds, dir);
  }
  return moved;
}

/**
 * The runner that collects what a stage's facets find into `out`, expanding each in turn (a class:
 * one object per stage that runs another, its methods shared).
 */
class StageRunner implements Runner {
  constructor(
    private readonly of: Stage,
    private readonly opts: ExpandOptions,
    private readonly out: Stage[],
    /** Where what it runs starts, where not the stage's cwds (`Runner.at`). */
    private readonly place?: (string | null)[],
    /** The standard input what it runs gets (`Runner.alone`, `Runner.terminal`). */
    private readonly given: GivenInput = "shared",
    /** The variables what it runs finds set anew (`Runner.resetting`). */
    private readonly reset?: ReadonlySet<string>,
  ) {}

  at(cwds: (string | null)[]): Runner {
    return new StageRunner(this.of, this.opts, this.out, cwds, this.given, this.reset);
  }

  alone(terminal = false): Runner {
    const given = terminal ? "terminal" : "nothing";
    return new StageRunner(this.of, this.opts, this.out, this.place, given, this.reset);
  }

  resetting(names: readonly string[]): Runner {
    if (!names.length) return this;
    const reset = new Set([...this.reset ?? [], ...names]);
    return new StageRunner(this.of, this.opts, this.out, this.place, this.given, reset);
  }

  terminal(): Runner {
    // (What a runner alone gives stays: `xargs` gives /dev/null whatever the pty around it.)
    const given = this.given === "shared" ? "pty" : this.given;
    return new StageRunner(this.of, this.opts, this.out, this.place, given, this.reset);
  }

  /**
   * A stage this one runs, as `derived` makes it, with the standard input it is given and the
   * variables it hands on (handed_env.ts).
   */
  private derived(argv: Word[], origin: string, cwds?: (string | null)[]): Stage {
    const s = givenInput(derived(this.of, argv, origin, cwds), this.given);
    const handed = this.of.handed || this.of.assignments ? passedOn(this.of) : undefined;
    return handed ? { ...s, handed } : s;
  }

  /** A stage with the variables this runner resets not known (see `resetting`). */
  private unknowing(s: Stage): Stage {
    const { reset } = this;
    if (!reset || [...reset].every((n) => s.unknownVars?.has(n))) return s;
    return { ...s, unknownVars: new Set([...s.unknownVars ?? [], ...reset]) };
  }

  home(user: string | null): string | null {
    return this.opts.home?.(user) ?? null;
  }

  more(stage: Stage): void {
    const { opts, out } = this;
    const s = this.unknowing(stage);
    this.handOn(s);
    out.push(s);
    out.push(...innerStages(s, { ...opts, depth: opts.depth + 1, top: opts.top ?? this.of }));
  }

  add(stage: Stage): void {
    const s = this.unknowing(stage);
    this.handOn(s);
    this.out.push(s);
  }

  /** Notes the words of this stage `s` runs as its own (`opts.handed`). */
  private handOn(s: Stage): void {
    const handed = this.opts.handed;
    const own = this.of.argv;
    if (!handed || s.argv === own) return;
    let words: Set<Word> | undefined;
    for (let i = 0; i < s.argv.length; i++) {
      const w = s.argv[i];
      // (A name with blanks is no line: the program is looked up by that name.)
      if (w === own[0] || !own.includes(w) || (i === 0 && BLANK.test(w.value))) continue;
      words ??= handed.get(this.of) ?? new Set();
      words.add(w);
    }
    if (words) handed.set(this.of, words);
  }

  analyze(text: string, cwd: string | null, origin: string): Stage[] | null {
    return this.opts.analyze(text, cwd, origin, this.unknowing(this.of));
  }

  stage(argv: Word[], origin: string, cwds?: (string | null)[]): void {
    this.more(this.derived(argv, origin, cwds ?? this.place));
  }

  own(argv: Word[], origin: string): void {
    const s = this.derived(argv, origin, this.place);
    this.opts.beside?.set(s, this.opts.beside.get(this.of) ?? this.of);
    this.more(s);
  }

  shell(text: Word, origin: string, opts: ShellOptions = {}): void {
    const stage = this.unknowing(this.of);
    const {
      cwds = this.place ?? stage.cwds,
      input = false,
      arguments: args = false,
      given,
      start,
    } = opts;
    if (text.kind !== "static") {
      this.more(this.derived([unknownWord(text.text)], origin, cwds));
      return;
    }
    // (Unfed, its lines read only what their own text gives them.)
    const inherit = this.given === "nothing"
      ? (s: Stage) => s
      : inheritInput(givenInput(stage, this.given), input);
    const source = given
      ? `${text.value} '${GIVEN}'`
      : args
      ? withArguments(text.value)
      : text.value;
    for (const cwd of cwds) {
      const inner = this.opts.analyze(source, cwd, origin, stage, start);
      if (inner === null) this.more(this.derived([unknownWord(text.text)], origin, [cwd]));
      else for (const s of inner) this.more(inherit(given ? withGiven(s, given) : s));
    }
  }

  command(value: Word, how: How, origin: string): void {
    optionCommand(this, value, how, origin);
  }

  listed(): Word[] | null {
    return this.of.input ? listedLines(this.of.input, listingOf) : null;
  }

  read(path: string): string | null {
    return this.opts.read?.(this.of, path) ?? null;
  }

  settings(path: string, script = false): string | null {
    return this.opts.settings?.file(this.of, path, this.opts.top ?? this.of, script) ?? null;
  }

  projectSettings(
    name: string,
    cwds: readonly (string | null)[] = this.of.cwds,
    toRoot = false,
  ): ProjectSettings[] | null {
    const top = this.opts.top ?? this.of;
    return this.opts.settings?.project(this.of, name, top, cwds, toRoot) ?? null;
  }

  named(prefix: string): string[] | null {
    return this.opts.settings?.named?.(this.of, prefix, this.opts.top ?? this.of) ?? null;
  }

  searchPath(w: Word): boolean {
    return this.opts.searchPath?.(w) ?? false;
  }

  environment(words: Word[]): void {
    environment(this, words, false);
  }

  variable = (name: string): string | undefined => this.opts.env?.[name];
  thisMachine = (host: string): boolean => this.opts.settings?.machine?.(host) ?? true;
  changes = (name: string): boolean => this.opts.settings?.changes?.(name) ?? false;
}

/**
 * What a stage prints when that is paths below known places, one to a line (see `Listing`): its
 * program's `lists` facet; null when it may print anything else.
 */
export function listingOf(stage: Stage): Listing[] | null {
  return programOf(stage.argv[0])?.lists?.(stage, listingOf) ?? null;
}

/** How many stages a command's `while read` lines may make of one stage, at most. */
const LINE_READINGS = 16;

/**
 * The stage with each word that is a line a loop reads (`find src | while read -r f; do cat
 * "$f"; done`) put in as a path of what the program printing it lists, as xargs's words are: one
 * stage per path it may be (all of a loop's words take the same one). The stage itself when no
 * word is such a line, or no program says what its lines are (they stay unknown).
 */
export function withLines(stage: Stage): Stage[] {
  if (!hasLines(stage)) return [stage];
  const sources: Stage[] = [];
  const lineOf: LineOf[] = [];
  const lined = (w: Word | null) =>
    w?.line && !sources.includes(w.line.from) && sources.push(w.line.from) &&
    lineOf.push(w.line);
  stage.argv.forEach(lined);
  stage.redirects.forEach((r) => lined(r.target));
  if (!sources.length) return [stage];
  const readings = sources.map((s, i) =>
    (lineOf[i].split ? splitLines : listedLines)(s, listingOf) ?? textLines(s, lineOf[i])
  );
  let rounds: Map<Stage, Word>[] = [new Map()];
  sources.forEach((s, i) => {
    const words = readings[i];
    if (!words || rounds.length * words.length > LINE_READINGS) return;
    rounds = rounds.flatMap((r) => words.map((w) => new Map(r).set(s, w)));
  });
  return rounds.map((round) => {
    const put = (w: Word): Word => {
      const path = w.line && round.get(w.line.from);
      return path && readable(path, w.line!) ? path : w;
    };
    const redirects = stage.redirects.map((r) => r.target ? { ...r, target: put(r.target) } : r);
    return { ...stage, argv: stage.argv.map(put), redirects };
  });
}

/**
 * The lines a loop's `read` takes of what its source prints where that is text the gate knows
 * (`echo a b | while read f`, `done <<< secrets/key`: piped_text.ts), each as `read` leaves it
 * (`line`: blanks at both ends dropped without `IFS=`); a last line without its newline is none
 * (`read` fails there and the loop ends). Null where not known (a backslash without `-r`).
 */
function textLines(source: Stage, line: LineOf): Word[] | null {
  const texts = line.whole || line.split ? null : printedBy(source);
  if (!texts) return null;
  const out = new Set<string>();
  for (const text of texts) {
    if (!line.raw && text.includes("\\")) return null;
    const lines = text.split("\n");
    lines.pop();
    for (const l of lines) out.add(line.trimmed ? l.replace(/^[ \t]+|[ \t]+$/g, "") : l);
  }
  return [...out].map(literal);
}

/** Whether a word of a stage is a line a loop reads (most stages have none). */
function hasLines(stage: Stage): boolean {
  for (const w of stage.argv) if (w.line) return true;
  for (const r of stage.redirects) if (r.target?.line) return true;
  return false;
}

/**
 * Whether `read` takes a path as it is printed: a name given as it is (grep's file operands)
 * keeps its blanks only with `IFS=`, its backslashes only with `-r` (a glob's matches only with
 * `-r`). (A listed tree's names that a reader would change are the engine's to see.)
 */
function readable(path: Word, line: LineOf): boolean {
  if (path.listed) return true;
  // (A glob's matches are not known here: one ending in `\` would join two lines.)
  if (path.kind === "glob" && !line.raw) return false;
  return !(line.trimmed && /^\s|\s$/.test(path.value)) && !(!line.raw && path.value.includes("\\"));
}

/**
 * Shell text a program runs with arguments of its own after it (`$EDITOR FILE`, `git -c
 * alias.x='!rm' x -rf src`): a placeholder argument after a plain command line. (Text with
 * other syntax is read as it is: where the arguments go there is its own.)
 */
function withArguments(text: string): string {
  return PLAIN_LINE.test(text) ? `${text} '(its arguments)'` : text;
}

/** A plain command line, after which a program's arguments go (see `withArguments`). */
const PLAIN_LINE = /^[^;&|<>()`#\n]*[^;&|<>()`#\s\\]\s*$/;

/** Variables holding the ssh command rsync and git run (`GIT_SSH` is a program), and which. */
const SSH_ENV = /^(?:RSYNC_RSH|GIT_SSH_COMMAND)$/;
const SSH_ENV_READER: Record<string, string> = { RSYNC_RSH: "rsync", GIT_SSH_COMMAND: "git" };

/** The placeholder of the arguments a program gives shell text it runs (`ShellOptions.given`). */
const GIVEN = "(the arguments it is given)";

/** A stage of such text with the placeholder replaced by the words it stands for. */
function withGiven(stage: Stage, given: Word[]): Stage {
  if (!stage.argv.some((w) => w.kind === "static" && w.value === GIVEN)) return stage;
  const argv = stage.argv.flatMap((w) => (w.kind === "static" && w.value === GIVEN ? given : [w]));
  return { ...stage, argv };
}

/** A command some option names (see `How`). */
function optionCommand(run: Runner, value: Word, how: How, origin: string): void {
  if (how === "shell") run.shell(value, origin, { arguments: true });
  else if (how === "line") run.shell(value, origin);
  // (Its input, data the program chose: a shell there reads it as commands.)
  else if (how === "filter") run.shell(value, origin, { input: true });
  else if (how === "program") run.stage([value, literal("(its arguments)")], origin);
  else if (how === "compressor") {
    // (Both: its data on its input, and an argument of the program's own, `-d`.)
    run.shell(value, origin, { input: true });
    run.shell(value, origin, { arguments: true });
  } else if (!(value.kind === "static" && value.value === "/dev/null")) {
    run.stage([unknownWord(`(commands the file ${value.text} may hold)`)], origin);
  }
}

/**
 * A value that is what `mktemp` prints (`TMPDIR=$(mktemp -d)`, `GNUPGHOME=…`): a new, empty place
 * of its own, made by a stage judged for where it makes it.
 */
const MKTEMP = /^"?(\$\(\s*mktemp\b[^()`$;&|]*\)|`\s*mktemp\b[^()`$;&|]*`)"?$/;

/**
 * `GIT_ICASE_PATHSPECS`: before git, git's knowledge reads it; exported, alone (a variable the
 * environment may export already) or before another program, later git commands' pathspecs
 * stand for every case spelling of theirs: judged as a pathspec not known.
 */
function pathspecVariable(run: Runner, w: Word, value: string, before: string, origin: string) {
  if (before === "git" || (w.kind === "static" && /^(0+|false|no|off|)$/i.test(value.trim()))) {
    return;
  }
  run.stage([
    literal("git"),
    literal("grep"),
    literal("--untracked"),
    literal("-e"),
    literal("."),
    literal("--"),
    unknownWord(`(the pathspecs ${w.text} makes git match in any case)`),
  ], origin);
}

/** The program a command's words run ("" for none). */
function commandName(command: Word[]): string {
  return command.length ? programName(command[0]) : "";
}

/**
 * less's options from its environment: judged as less given them (`+!cmd` runs at start, `-o F`
 * writes F; a `+command` runs to the end of the value).
 */
function lessVariable(run: Runner, w: Word, value: string, origin: string): void {
  const plus = value.search(/(^|[ \t])\+/);
  const options = plus < 0 ? value : value.slice(0, plus);
  const words = w.kind !== "static" ? [w] : [
    ...lessOptionWords(options).map(literal),
    ...(plus < 0 ? [] : [literal(value.slice(plus).trimStart())]),
  ];
  run.stage([literal("less"), ...words], origin);
}

/**
 * What the variables a command's environment sets make programs run. `prefix`: set before a
 * command (or alone), `command`: the words of that command (a settings file of options is read
 * with them: `RIPGREP_CONFIG_PATH=F rg …`). rsync reads its `RSYNC_RSH` and git its
 * `GIT_SSH_COMMAND` and `GIT_SSH` themselves; set otherwise (exported for later programs), the
 * ssh command is given a connection not seen.
 */
function environment(run: Runner, words: Word[], prefix: boolean, command: Word[] = []): void {
  for (const w of words) {
    if (!carriesCommand(w.value)) continue;
    const f = EXPORTED_FUNCTION.exec(w.value);
    if (f) {
      // Its body runs where a later bash calls the name: walked as a function definition.
      const value = w.value.slice(f[0].length);
      if (w.kind === "static" && /^\(\)\s*\{/.test(value)) {
        run.shell(literal(`f ${value}`), "env function");
      } else if (w.kind !== "static") run.stage([unknownWord(w.text)], "env function");
      continue;
    }
    const m = ASSIGNED.exec(w.value);
    if (m === null) {
      // An element of bash's command tables (`BASH_CMDS[ls]=/bin/rm`): a name runs another program.
      run.stage([unknownWord(`(commands ${w.text} brings in)`)], "env");
      continue;
    }
    const variable = m[1];
    let value = w.value.slice(m[0].length);
    const origin = `env ${variable}`;
    if (LESS_OPTIONS.test(variable)) lessVariable(run, w, value, origin);
    else if (PROMPT_ENV.test(variable) && w.kind === "static" && !value.includes('"')) {
      // A prompt is expanded as a double-quoted string: its substitutions are its commands.
      // (With a `"` in it, which may be a quote inside a substitution: not read.)
      run.shell(literal(`: "${value}"`), origin);
    } else if (variable === "NODE_OPTIONS") {
      // Judged as node given these options (the inherited value, `$NODE_OPTIONS`, is the user's).
      const words = value.split(/\s+/).filter((t) => t && !/^\$\{?NODE_OPTIONS\}?$/.test(t))
        .map((t) => (/[$`]/.test(t) ? unknownWord(t) : literal(t)));
      run.stage([literal("node"), ...words, literal("(its script)")], origin);
    } else if (XZ_OPTIONS.test(variable)) {
      run.stage([unknownWord(`(the files ${w.text} makes xz write)`)], origin);
    } else if (SETTINGS_FILE_ENV.test(variable)) {
      // A file of settings that may run commands: what it holds when the command runs.
      // (What `$(mktemp)` makes is new and empty: no settings there.)
      if (value === "" || MKTEMP.test(w.text.slice(m[0].length))) continue;
      settingsVariable(variable, w.kind === "static" ? literal(value) : w, run, command);
    } else if (packageVariable(variable)) {
      // npm's and yarn's settings: judged as the line of their settings file they stand for.
      packageVariableSetting(variable, w.kind === "static" ? literal(value) : w, run);
    } else if (BACKUP_ENV.test(variable)) {
      // (Before its program, that program's knowledge reads it; exported first, not followed.)
      if (!prefix) run.stage([unknownWord(`(the backups ${w.text} names)`)], origin);
    } else if (PATHSPEC_ENV.test(variable)) {
      pathspecVariable(run, w, value, commandName(command), origin);
    } else if (LIBPQ_FILE_ENV.test(variable)) {
      libpqVariable(run, w, [variable, value], origin, commandName(command));
    } else if (variable === "PGOPTIONS") pgOptionsVariable(run, w, value, origin);
    else if (variable === "GOFLAGS") {
      // (go's flags from the environment: `-exec PROG` and kin run a program of its choosing.)
      // (Split at blanks, and as newer go splits it, quotes removed: `'-toolexec=x y'`.)
      const flags = [...value.split(/\s+/), ...goSplit(value)];
      if (w.kind !== "static" || flags.some((f) => /^--?(exec|toolexec|vettool)\b/.test(f))) {
        run.stage([unknownWord(`(the program ${w.text} names)`)], origin);
      }
    } else if (variable === "GOPROXY") {
      // (The toolchains go may download from a directory it names and run, unless told not to.)
      if (!words.some((x) => x.kind === "static" && x.value === "GOTOOLCHAIN=local")) {
        goProxyToolchains(w.kind === "static" ? value : null, run);
      }
    } else if (cargoEnv(variable)) cargoVariable(variable, w, value, run);
    else if (variable === "HISTFILESIZE") {
      // (bash truncates the history file to that many lines as it assigns, interactive or not.)
      run.stage([literal("truncate"), literal("-s0"), unknownWord("(the history file)")], origin);
    } else if (variable === "PATH" && run.searchPath(w)) {
      continue; // each command name is judged where this PATH finds it
    } else if (COMPILER_ENV.test(variable)) {
      // gcc's dependency file (`FILE [TARGET]`), or its directories of headers and libraries.
      const files = variable.endsWith("DEPENDENCIES")
        ? value.trim().split(/\s+/).slice(0, 1)
        : value.split(":");
      if (w.kind !== "static") run.stage([unknownWord(`(the files ${w.text} names)`)], origin);
      else for (const f of files) opensFile(f, run, origin);
    } else if (PLACE_ENV.test(variable)) {
      // A place programs write below: judged as a file the command opens there (its value not
      // known, below what is known of it).
      if (value === "" || MKTEMP.test(w.text.slice(m[0].length))) continue;
      if (variable.startsWith("GIT_TRACE") && /^(\d|true|false|yes|no|on|off)$/i.test(value)) {
        continue; // a descriptor or a switch
      }
      if (w.kind === "static") opensFile(value, run, origin);
      else {
        const at = ASSIGNED.exec(w.prefix)?.[0].length ?? 0;
        run.stage(
          [literal(`(${origin} opens)`), { ...w, value, prefix: w.prefix.slice(at) }],
          origin,
        );
      }
    } else if (CODE_ENV.test(variable) || PROMPT_ENV.test(variable)) {
      run.stage([unknownWord(`(commands ${w.text} brings in)`)], origin);
    } else if (value === "") continue; // an empty pager or editor runs nothing
    else if (programVariable(variable)) {
      const program = w.kind === "static" ? literal(value) : unknownWord(w.text);
      const unseen = variable === "GIT_SSH" && commandName(command) !== "git";
      const given = unseen ? GIVEN_CONNECTION : "(its arguments)";
      run.stage([program, literal(given)], origin);
      // (A program in ssh's place connects where it will: as through a jump not known.)
      if (unseen && (w.kind !== "static" || sshProgramHost(value, "?") === "")) {
        run.stage([literal("ssh"), literal("-J"), program, literal(GIVEN_CONNECTION)], origin);
      }
      // (git's external diff, a shell command, is given the files of the work tree it compares.)
      if (variable === "GIT_EXTERNAL_DIFF") {
        const text = w.kind === "static" ? literal(value) : w;
        run.shell(text, origin, { given: workTreeFiles(run) });
      }
    } else {
      if (variable.startsWith("LESS")) value = value.replace(/^-?\|\|?/, ""); // `|cmd %s`
      // (An ssh command exported for later programs: the connection it is given is not seen.)
      const unseen = SSH_ENV.test(variable) && commandName(command) !== SSH_ENV_READER[variable] &&
        w.kind === "static" && PLAIN_LINE.test(value);
      if (unseen) run.shell(literal(`${value} '${GIVEN_CONNECTION}'`), origin);
      else {
        run.shell(w.kind === "static" ? literal(value) : { ...w, value }, origin, {
          arguments: true,
        });
      }
    }
  }
}

/**
 * The stages a stage runs besides itself: the command inside a wrapper, `bash -c`/`eval`
 * payloads, `find -exec` commands, `xargs` commands, the commands options and settings name,
 * and the stage itself where a directory option moves it.
 */
export function innerStages(stage: Stage, opts: ExpandOptions): Stage[] {
  if (opts.depth > 8) return [derived(stage, [unknownWord("(nested too deep)")], "wrapper")];
  const program = programOf(stage.argv[0]);
  const carried = stage.assignments !== undefined &&
    stage.assignments.some((a) => carriesCommand(a.value));
  // Most stages run nothing else: answer them before building anything.
  if (
    !carried &&
    (program === undefined ||
      (program.runs === undefined && program.optionCommands === undefined &&
        program.chdir === undefined))
  ) return [];
  const out: Stage[] = [];
  const run = new StageRunner(stage, opts, out);
  if (carried) environment(run, stage.assignments!, true, stage.argv);
  if (program?.chdir) {
    // `git -C dir`, `make -C dir`, `tar -C dir`: the command also runs there, so its relative
    // paths name files below dir (judged as well as where they would be from the cwd).
    const moved = chdirOptions(program.chdir, stage.argv.slice(1), stage.cwds);
    if (moved) {
      const origin = `${programName(stage.argv[0])} ${program.chdir.options[0]}`;
      out.push(derived(stage, stage.argv, origin, moved));
    }
  }
  program?.optionCommands?.(stage, run);
  program?.runs?.(stage, run);
  return out;
}

/** The inline code eval of a stage, if it is one (`python3 -c CODE`, `bash -c TEXT`). */
export function evalShape(stage: Stage): EvalShape | null {
  return programOf(stage.argv[0])?.evaluates?.(stage) ?? null;
}

/**
 * The symlinks the stages of a command make (`ln -s ~ h`), for the stages after them (`read`: a
 * file's text for a stage, from its cwd, as it is now).
 */
export function linksMade(
  stages: Stage[],
  read?: (stage: Stage) => (path: string) => string | null,
): MadeLink[] {
  const out: MadeLink[] = [];
  for (const stage of stages) {
    const links = programOf(stage.argv[0])?.links;
    if (links) out.push(...links(stage, read?.(stage)));
  }
  return out;
}

/** What every command line has (most arguments have none: the pattern is not tried on them). */
const BLANK = /[ \t\n]/;
