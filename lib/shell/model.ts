/**
 * The model of a bash command every layer shares: the stages bash may run ({@linkcode Stage}), their
 * words as bash will see them ({@linkcode Word}), their redirects ({@linkcode Redirect}), the
 * analysis of a whole command ({@linkcode BashAnalysis}) and what the analysis may assume
 * ({@linkcode BashEnv}). Types and two small questions about them; no parsing.
 *
 * @module
 */

import type { Cut } from "./affixes.ts";

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
  /**
   * For a "glob" word whose glob characters bash expands as a pathname (not braces): the word
   * as a bash pattern, its quoted and escaped characters written `\x` (`"a*"*` is `a\**`).
   */
  pattern?: string;
  /**
   * A path some program listed for this one (`find src | xargs cat`): below `prefix`, no value
   * that could be anything; how it reaches the reader (see `Listed`).
   */
  listed?: Listed;
  /**
   * The word is a line `read` took from what a stage prints (`find src | while read -r f; do
   * cat "$f"; done`): what it is only the program that prints it knows (see `LineOf`).
   */
  line?: LineOf;
  /**
   * The word is text around a match of a glob a loop variable went over (`for f in src/*.ts; do
   * cp "$f" "$f.bak"`), that match with an affix removed perhaps (`"${f%.ts}.js"`): a word not
   * known ("dynamic") to anything but what expands `pattern` and builds each word (see `Around`).
   */
  around?: Around;
  /** A word that is what a substitution prints (its kind "dynamic" to anything else). */
  output?: Output;
  /**
   * A program word given by path outside the tool's `PATH` (`x/grep`), standing for a program not
   * known: no registry entry is its by its basename (see lib/policy/unnamed_programs.ts).
   */
  unnamed?: true;
}

/** A word made of each match of a glob: `before`, the match (`cut` made of it), `after`. */
export interface Around {
  /** The glob, as a bash pattern (`Word.pattern`), and the directory it was expanded in. */
  pattern: string;
  at: string;
  before: string;
  after: string;
  cut?: readonly Cut[];
}

/**
 * What a command substitution that starts a word prints, where its form is known though its text
 * is not (substitution_outputs.ts): a new name `mktemp` makes in the directory `dir` (absolute),
 * the glob `name` of it (`tmp.??????????`); or the path where the tool's `PATH` finds the program
 * `name` (`which`, `command -v`, `type -P`), judged in each of its directories. `rest`: static
 * text after it in the word (`"$(mktemp -d)/out"`; none for a program's path); `split`: the word
 * is unquoted, so bash splits and globs what it prints.
 */
export type Output =
  | { program: "mktemp"; dir: string; name: string; rest: string }
  | { program: "which"; name: string; split: boolean };

/** Where a line a variable holds comes from, and how `read` took it. */
export interface LineOf {
  /** The stage whose output the loop reads. */
  from: Stage;
  /** `read -r`: backslashes are kept (without it, `\` escapes and joins lines). */
  raw: boolean;
  /** Without `IFS=`, blanks at both ends are removed. */
  trimmed: boolean;
  /** `read -d ''` (to a NUL, not a newline) or `-t` (it may read nothing): not line by line. */
  whole?: true;
  /**
   * Not a line `read` took but the words of an unquoted `$(…)` (`wc -l $(git ls-files)`): bash
   * splits what `from` prints at blanks and globs each field, as xargs (without `-0`) splits it.
   * Known only where `from` prints the paths of a listing.
   */
  split?: true;
}

/**
 * How the paths a program listed reach the program reading them, which says what of the tree below
 * the listed place needs to be seen (its symlinks, names with blanks): nothing said, both.
 */
export interface Listed {
  /**
   * No path listed is a symlink or passes through one below the listed place (`find src -type
   * f`: find does not follow links, and a link is no file): where links lead is not reached.
   */
  noLinks?: true;
  /**
   * Each path reaches the reader as one word (`find -exec … {}`, `find -print0 | xargs -0`): a
   * name with blanks or quotes is not split into other words.
   */
  whole?: true;
  /**
   * Each path listed has a last component this glob matches (`find -name '*.ts'`): a symlink of
   * another name is not listed, nor is any path through one (the lister does not follow links).
   */
  names?: string;
  /** No path listed has a name starting with `.` below the listed place (rg without --hidden). */
  noHidden?: true;
  /**
   * Each path listed is one the repository's index lists (`git ls-files`, `git diff --name-only`
   * of the work tree against it): an untracked file is not listed, unless it lies below a path
   * that is (a submodule, a tracked file that is a directory now).
   */
  tracked?: true;
  /**
   * The word is the one path a run of the command is given (`find -exec sh -c '…' _ {} \;` runs
   * once per path, `xargs -I{}` once per line, `xargs -n 1` once per item): a shell's `"$1"` is
   * this word.
   */
  alone?: true;
  /**
   * A path listed may begin with a name of the tree as it is (`ls` prints `-x`, where find prints
   * `./-x`): a name starting with `-` is an option to the program it is handed to as a word
   * (`ls | xargs wc` with a file `--files0-from=.env`).
   */
  bare?: true;
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
  /** The simple command before it in its pipeline, which writes its standard input. */
  input?: Stage;
  /**
   * Set when its standard input is a terminal a runner gave it (script's or unbuffer's pty,
   * `xargs -o`'s `/dev/tty`), passed on to what it runs in turn (`bash -c`, a group, a
   * wrapper): its redirects of fd 0 and its pipe, if any, are the runner's, and feed that
   * terminal. A stage with a pipe or redirect of fd 0 of its own inside has none.
   */
  terminal?: boolean;
  /**
   * Variables the analysis otherwise takes from the environment (`HOME`, `PWD`, `TMPDIR`, and
   * `CDPATH` for `cd`) that the shell text around this stage may change before it, beyond the
   * command's own (`TMPDIR=/x; bash -c '…'` inside a script it runs; `env -i`): not known in
   * the shell text the stage runs. Absent: none but what the command itself names.
   */
  unknownVars?: ReadonlySet<string>;
  /**
   * The variables the shell exported with a value known as text where the stage runs (`export
   * F=x; bash -c 'cat $F'`), handed to what it runs in turn (lib/policy/handed_env.ts). Absent:
   * none known. (Its own `NAME=value` prefixes are in `assignments`.)
   */
  handed?: ReadonlyMap<string, string>;
}

/** The analysis of one bash command. */
export interface BashAnalysis {
  stages: Stage[];
  /**
   * Assignments standing alone (`PAGER='less -R'`) of variables whose value other programs run
   * ({@linkcode BashEnv.carriesCommand}), each as a stage without a command: not judged itself,
   * only what it makes run. Absent when there are none.
   */
  environment?: Stage[];
  /** Why the command could not be fully analysed (syntax error, too large, no parser). */
  error: string | null;
  /**
   * Names of the environment the analysis took to be unset (`${zz:-x}`): it holds only where the
   * environment holds none of them. Absent when there are none.
   */
  unset?: readonly string[];
  /**
   * The globs of `for` lists the walk expanded by {@linkcode BashEnv.listing}: the analysis holds
   * for the filesystem as it was (never kept for a later call), and only where no stage but the
   * loop's own body may change what each matches (the caller checks). Absent when the walk listed
   * nothing.
   */
  listed?: ListedGlob[];
}

/** A glob of a `for` loop's list the walk expanded to its matches ({@linkcode BashEnv.listing}). */
export interface ListedGlob {
  /** The glob as a bash pattern (`Word.pattern`), relative to `cwd` or absolute. */
  pattern: string;
  cwd: string;
  /** The stages of the loop's body: they start after bash expanded the list. */
  body: Stage[];
  /**
   * The loop is inside another loop or a function body: its list may be expanded again after the
   * body ran (then no stage is known to start after it).
   */
  repeated: boolean;
  /**
   * Stages of the analysis from this index on surely start after bash expanded the list: the
   * loop is an element of the command's top-level `&&`/`||`/`;` list, not sent to the
   * background, and the command defines no function or alias and sets no trap that could run
   * a later stage's text first. Absent: none is known to.
   */
  laterFrom?: number;
}

/** What the analysis may assume: what word decoding may expand, and what the caller knows. */
export interface BashEnv {
  cwd: string;
  home: string;
  /** Known environment values ($HOME, $TMPDIR, ...). $PWD is the stage's cwd. */
  env: Record<string, string | undefined>;
  /**
   * Variables of `env` (and `CDPATH`) whose value is not known here: the command around a
   * nested text may have changed them (`export TMPDIR=/x; bash -c 'ls $TMPDIR'`). Absent: none.
   */
  unknown?: ReadonlySet<string>;
  /**
   * A text another stage of a command runs (`bash -c '…'`): what the command around it exported
   * may be in its environment, so no name is known to be unset there (parameter_ops.ts).
   */
  nested?: true;
  /**
   * The variables the command around a nested text hands it with a value known as text (its
   * exported ones, its prefix assignments, env's): known from the start of the text.
   */
  given?: ReadonlyMap<string, string>;
  /**
   * The positional parameters `$1`, `$2`, … a nested text is given (`sh -c TEXT $0 $1 …`), as
   * the command around it has them.
   */
  parameters?: readonly Word[];
  /**
   * Whether a `NAME=value` text assigns a variable whose value some program runs (`PAGER`,
   * `GIT_SSH`, ...): such an assignment standing alone becomes a stage of
   * {@linkcode BashAnalysis.environment}. Program knowledge, which the shell layer has none of:
   * the caller passes it (required, so that forgetting it cannot let such an assignment pass
   * unseen).
   */
  carriesCommand: (assignment: string) => boolean;
  /**
   * The words bash makes of a glob now (`pattern` as `Word.pattern`, in `cwd`): its matches,
   * sorted as bash sorts them, `[]` when nothing matches (the word stays as written), null when
   * that is not known. Given, a `for` loop's glob takes these words (BashAnalysis.listed).
   * The filesystem is the caller's: the shell layer knows none. Absent: globs stay patterns.
   */
  listing?: (pattern: string, cwd: string) => readonly string[] | null;
}

/** A static word: text bash takes as it is written. */
export function staticWord(text: string): Word {
  return { value: text, kind: "static", prefix: text, text };
}

/** Device files a redirect may name that are no file of the project. */
const NOT_TARGETS = /^\/dev\/(null|stdout|stderr|stdin|tty|fd\/\d+)$/;

/**
 * Whether a redirect sets up standard input (fd 0): `<`, `<>`, `<<`, `<<<`, `<&N` and `<&-` without
 * a descriptor, and any with `0` (`0<f`, `0>&3`). Such a redirect replaces a pipe into the command.
 */
export function redirectsStdin(r: Redirect): boolean {
  const c = r.op.charCodeAt(0);
  if (c >= 48 && c <= 57) return /^0+[^0-9]/.test(r.op);
  return c === 60; // "<"
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
