/**
 * What a program module says about a program: its names and the facets the analysis reads (what it
 * runs, where it works, which arguments are text, which names in its arguments are files, whether
 * it only reads). Every facet is optional and a function of the stage, so a quirk of one program
 * stays expressible, and it lives in that program's own module.
 *
 * @example
 * ```ts
 * import type { Program } from "./spec.ts";
 * const nohup: Program = {
 *   names: ["nohup"],
 *   runs: (stage, run) => run.stage(stage.argv.slice(1), "wrapper:nohup"),
 * };
 * ```
 *
 * @module
 */
import type { BashEnv, Stage, Word } from "../shell/model.ts";
import type { EvalShape } from "../types.ts";
import type { OptionGrammar } from "./argv.ts";

/**
 * How a value a program is given runs: a shell command (`sh -c`) given arguments of the program's
 * own, one run as it stands (`line`: tar's `--checkpoint-action=exec=CMD`, which shares tar's
 * standard input), one that reads data the program
 * gives it on its standard input (`filter`: `tar --to-command=sh` pipes each member to it, a git
 * clean or smudge filter each file), a program given arguments of its own, one given both
 * (`compressor`: `tar -I PROG` pipes the archive to `PROG` or `PROG -d`), or a configuration file
 * that may hold commands (ssh's `-F`).
 */
export type How = "shell" | "line" | "filter" | "program" | "compressor" | "file";

/** What a `runs` facet reports the stages it finds to. */
export interface Runner {
  /** A command the program runs with these words (expanded in turn). */
  stage(argv: Word[], origin: string, cwds?: (string | null)[]): void;
  /**
   * The program itself with other words (the options its settings files give it: pytest's
   * `addopts`): the same process, so what it writes is not another stage's writing before it
   * (`pytest src/` with `addopts = --junitxml=build/j.xml` is judged as written out).
   */
  own(argv: Word[], origin: string): void;
  /** Shell text the program runs (`sh -c TEXT`), analysed in each cwd. */
  shell(text: Word, origin: string, opts?: ShellOptions): void;
  /** A command an option names, run as `how` says. */
  command(value: Word, how: How, origin: string): void;
  /** `NAME=value` words that become the environment of what runs (`env PAGER=… git log`). */
  environment(words: Word[]): void;
  /**
   * This runner for what the program runs in other directories than the stage's (`cwds`, null
   * for one not known): git runs its settings' and options' commands at its work tree's top, a
   * login shell (`su -l`, `sudo -i`) in the user's home. Its stages and shell text run there.
   */
  at(cwds: (string | null)[]): Runner;
  /**
   * This runner for what the program runs with no standard input of the stage's: xargs gives its
   * commands `/dev/null`, GNU parallel an empty one unless `--pipe` feeds it. What runs there
   * reads no pipe, here-document or file the stage's input is. `terminal`: it opens the
   * terminal in its place (`xargs -o`, `parallel --tty`: `/dev/tty`, see `Stage.terminal`).
   */
  alone(terminal?: boolean): Runner;
  /**
   * This runner for what the program runs on a terminal of its own (a pty) that the stage's
   * standard input feeds: `script -c`'s, unbuffer's, sudo's, `su --pty`'s, a tmux window's. What
   * runs there, and what that runs in turn, has a terminal as its input (`Stage.terminal`),
   * where no pipe or redirect of its own sets one.
   */
  terminal(): Runner;
  /**
   * This runner for what the program runs with these variables set anew, to values not known
   * here (`sudo -u bob`, `su -`, `doas`: the user's `HOME`; `env -i`): what it runs finds them
   * not known, where the caller's values would be a guess (`sudo -H bash -c 'cat ~/.ssh/id'`
   * reads root's key). Its stages and shell text carry them (`Stage.unknownVars`).
   */
  resetting(names: readonly string[]): Runner;
  /**
   * The home directory of `user` (null: the one running the command) as the command will find it,
   * where it is known: the user running the command, named or not; null for any other.
   */
  home(user: string | null): string | null;
  /** A stage found some other way (the analysis of a program's script), expanded in turn. */
  more(stage: Stage): void;
  /** A stage added as it is, not expanded (awk's file effects). */
  add(stage: Stage): void;
  /** Analyse shell text as if it ran in `cwd`: its stages, or null when it cannot be analysed. */
  analyze(text: string, cwd: string | null, origin: string): Stage[] | null;
  /**
   * The words for a line of what the program writing the stage's input lists (`find src | xargs
   * cat`: a path below src; see `listedLines`); null when it is no such program or the input is
   * no pipe from one.
   */
  listed(): Word[] | null;
  /**
   * The text of a file the stage reads for what it holds (`psql -f schema.sql`, a path as the
   * command names it), as it will be when the command runs; null when that cannot be known.
   */
  read(path: string): string | null;
  /**
   * The text of a settings file the program reads (`$AWS_CONFIG_FILE`, `./.npmrc`; absolute, or
   * from the stage's cwds), as it will be when the command runs: "" where there surely is none (no
   * file there, and no other stage of the command may put one there); null where that cannot be
   * known (a relative path from a cwd not known, a file another stage may write, one too large or
   * no regular file). Another stage may write it where it names the file or a directory above it
   * (its words, the files its program says it writes), or writes there otherwise (a redirect).
   * `script`: a file of commands this shell runs (`source FILE`), whose text is one file's: null
   * also where there is none, where the path leads to several places (from several cwds) or where
   * another stage writes text into it (`cat > f <<E`: what is there now and what is written are
   * no one script).
   */
  settings(path: string, script?: boolean): string | null;
  /**
   * The settings files named `name` a program looks for in its cwd (each of `cwds`, the stage's
   * by default) and the directories above it, short of the user's home and the root (whose
   * settings are the user's), or up to the root with `toRoot` (a program that reads those too,
   * cargo's `.cargo/config.toml`, pytest's `pytest.ini`: the home's is then judged as it is):
   * each one there, nearest first, as `settings` reads it; null when one cannot be known (a cwd
   * not known, a file another stage may write).
   */
  projectSettings(
    name: string,
    cwds?: readonly (string | null)[],
    toRoot?: boolean,
  ): ProjectSettings[] | null;
  /**
   * The files in a directory whose path starts with `prefix` (absolute: `~/.psqlrc-` for
   * `~/.psqlrc-16`, `~/.psqlrc-15.18`), as the program will find them: those there now (each read
   * with `settings`); null when that cannot be known (another stage may write one there, run
   * there or name the directory, no listing).
   */
  named(prefix: string): string[] | null;
  /**
   * A `PATH=…` word bash looks command names up by from here (see `searchedDirs`): true when the
   * caller judges each command name where that PATH finds it, false when it cannot (the PATH is
   * then a command not known).
   */
  searchPath(assignment: Word): boolean;
  /**
   * A variable of the environment the tool runs commands with (`XDG_CONFIG_HOME`), as the
   * program finds it where the command sets none (one the command sets is read from its words).
   */
  variable(name: string): string | undefined;
  /**
   * Whether a host the program connects to may be this machine (lib/policy/this_machine.ts: its
   * loopback names and addresses, its own name and addresses, what `/etc/hosts` maps to them):
   * `psql -h db.example.com`'s server runs what its SQL asks elsewhere. True where not known.
   */
  thisMachine(host: string): boolean;
  /**
   * Whether the command may set `name` before the stage runs to a value not seen here (it names
   * the variable: `export PGHOSTADDR=$(cat f); psql …`): then it is not `variable`'s.
   */
  changes(name: string): boolean;
}

/** A settings file found in a directory a program looks in (`Runner.projectSettings`). */
export interface ProjectSettings {
  /** The directory it is in (absolute). */
  dir: string;
  text: string;
}

/** Options of a program that make it work in another directory. */
export interface ChdirSpec {
  /** The options, each taking a directory (`-C dir`, `-Cdir`, `--directory=dir`). */
  options: string[];
  /** They come before the subcommand only (`git -C dir log`; `git commit -C REV` is not one). */
  beforeSubcommand?: boolean;
  /** Options before the subcommand that take a value, so it is not the subcommand. */
  valued?: ReadonlySet<string>;
  /**
   * The program's whole option grammar, where its directory options are also found abbreviated or
   * in its old bundled first word (`tar --dir ~ …`, `tar cCf ~ x.tar .ssh`).
   */
  grammar?: OptionGrammar;
}

/**
 * The check that keeps a `$safe-bash` rule for this program read-only: any hit makes the rule not
 * match (so the call falls to the policy's other rules).
 */
export interface ReadOnlyCheck {
  /** Short option letters that write or execute (checked inside clusters like `-uo`). */
  short?: string;
  /** Long options that write or execute (`--output`, `--output=x`, and prefixes like `--out`). */
  long?: string[];
  /** Whole words that write or execute (find's `-exec`), checked even after `--`. */
  words?: string[];
  /** At most this many operands (a second operand is an output file for uniq, xxd). */
  maxOperands?: number;
  /** Every operand must match (date's `+FORMAT`; anything else sets the clock). */
  operand?: RegExp;
  /**
   * Operands (past `freeOperands`) are only allowed when one of these words is present (`git
   * branch --list x`).
   */
  operandsNeed?: string[];
  /** Operands allowed without `operandsNeed` (`git config user.name` reads one). @default 0 */
  freeOperands?: number;
  /** Only these option words are allowed (values after `=` are free). */
  onlyOptions?: string[];
  /** The grammar of the subcommand the check is for, where it is not the program's. */
  options?: OptionGrammar;
  /**
   * The arguments (after the pattern's words) only read: the program's own reader says so (sed's
   * and awk's scripts). A word not known before it runs, or that may expand to an option, is null.
   */
  accepts?: (args: (string | null)[]) => boolean;
}

/**
 * A symlink a stage makes: `link` (absolute, lexical) will lead to `target` (absolute, as written;
 * null: not known, a patch's binary delta).
 */
export interface MadeLink {
  link: string;
  target: string | null;
  /**
   * The stage that writes it where that stage's own paths are not judged through it: a checkout
   * writes the symlinks of a tree (`git checkout BRANCH`), not where they lead.
   */
  by?: Stage;
}

/**
 * Paths a program prints one to a line (`find src -name '*.py'`): each below `under` (a word for a
 * directory, or a glob whose prefix is one), its last component matching the glob `names` when
 * that is given (as bash matches a name: a leading `.` only by a `.`).
 */
export interface Listing {
  under: Word;
  names?: string;
  /** The path printed is `under` itself, a file named as it is (`grep -l x a.py` prints `a.py`). */
  exact?: boolean;
  /**
   * No path printed is a symlink or passes through one below `under` (`find src -type f`,
   * `grep -rl`, which skips the links it meets): see `Listed.noLinks`.
   */
  noLinks?: true;
  /** The lister follows the symlinks in the tree (`find -L`): paths through one are printed. */
  follows?: true;
  /** No path printed has a name starting with `.` below `under` (rg skips hidden files). */
  noHidden?: true;
  /** Each path printed is one the index lists (`git ls-files`): see `Listed.tracked`. */
  tracked?: true;
  /**
   * The paths printed begin with a name below `under` itself, no `./` or directory before it
   * (`ls`, `grep -rl X` with no path, `git ls-files`): see `Listed.bare`.
   */
  bare?: true;
}

/**
 * What another stage lists (the one writing a stage's input, a command xargs runs), by its
 * program's `lists` facet: null when it may print anything else.
 */
export type ListingOf = (stage: Stage) => Listing[] | null;

/** Where and how shell text a program runs is run. */
export interface ShellOptions {
  /** The directories it runs in. @default the stage's cwds */
  cwds?: (string | null)[];
  /**
   * Its standard input is a stream no one reads here (a network connection: `nc -e /bin/sh`):
   * a shell or interpreter among its commands reads commands from it. @default false
   */
  input?: boolean;
  /**
   * The program gives the text arguments of its own (an editor the file, a callback an index and
   * a line, an external diff its files): a bare `rm` there is `rm` with arguments, as a rule
   * `rm *` sees it. @default false
   */
  arguments?: boolean;
  /**
   * The arguments the program gives it, when they are known to be files of some place (the files
   * `git grep -O` found, a diff's files for an external diff): put where `(its arguments)` would
   * go, and always appended, as git appends `"$@"` to a command with shell syntax.
   */
  given?: Word[];
  /**
   * What the text starts with (a shell's `-c` text: handed_env.ts `shellStart`): the variables
   * the command around it hands it with a value known, its positional parameters.
   */
  start?: NestedStart;
}

/** Known at the start of a nested shell's text (see `ShellOptions.start`). */
export interface NestedStart {
  given?: ReadonlyMap<string, string>;
  parameters?: readonly Word[];
  /** How its `for` lists' globs are listed (a line an argument carries: carried_scope.ts). */
  listing?: BashEnv["listing"];
}

/**
 * What git shows the content of without naming the files (see `Program.readsRepository`): what
 * is protected among them is reached, as where a tree is read.
 */
export interface RepositoryRead {
  /** Its paths start at the work tree's top (`git diff`, from anywhere in it), or at the cwd. */
  from: "top" | "cwd";
  /** The files the index lists (where it cannot be read: those there are). */
  tracked: boolean;
  /** The files there are (`git grep --untracked`, an index that is not the work tree's own). */
  present: boolean;
  /**
   * The files there are that git does not ignore (`git add -A`, `git stash -u`), as the
   * `.gitignore` files, `info/exclude` and the excludes file say (where they cannot be read:
   * those there are). @default false
   */
  unignored?: boolean;
  /**
   * It reads them into git's object store (`git add -A`, `git commit -a`, `git stash`), writing
   * none of them: protection that counts for writes alone (the gate's own files) does not count.
   * @default false
   */
  stores?: boolean;
  /**
   * What it writes out is dangling objects, in no index and no commit (`fsck --lost-found`): any
   * path glob below the top counts, as for a store whose names are not known. @default false
   */
  dangling?: boolean;
  /**
   * Operands that are each a revision or a path (`git diff main`, `git log -p src`): where one
   * names a path that exists, git reads only the paths its words name (judged as they are).
   */
  either: Word[];
  /**
   * Names git resolves to the objects whose content it prints (`git cat-file -p NAME`, `git show
   * -s NAME`, a name `cat-file --batch` reads): the read counts unless each names a commit (a
   * tag of one), which shows no file's content; a blob, a tree or a name not resolved (a ref
   * another stage may move first) may be any protected file's. Absent: the read counts.
   */
  objects?: Word[];
}

/** Reads a file a stage opens, as it will be when the command runs (see `Program.namedFiles`). */
export type ReadFile = (path: string) => string | null;

/**
 * What bash makes of a stage's glob words when it runs (see `Program.namedFiles`), as its
 * targets know it: `words` gives a glob word's matches as bash passes them (the word as written
 * where none matches, none under nullglob or failglob), or null where that is not known now
 * (several cwds, another stage may change what it matches, a pattern not expanded exactly).
 * `dotglob`: the command may set it (a `*` may match a leading `.`).
 */
export interface GlobWords {
  words(w: Word): string[] | null;
  dotglob: boolean;
}

/**
 * A file a program's arguments or input name (see `Program.namedFiles`): a path below the cwd
 * (or `~/…`), or null for one not known; `fromInput`: the names are the lines of its standard
 * input (`tar -T -`), which are paths below known places when a listing program writes them.
 */
export interface NamedFile {
  path: string | null;
  source: string;
  fromInput?: boolean;
  /**
   * A directory it writes below by names of their own (an archive's members, a copied tree, a
   * build's output: `tar -x` into the cwd, `tsc --outDir dist`): what is protected below it may
   * be replaced, whatever the program's other operands are. @default false
   */
  below?: boolean;
  /**
   * With `below`: a tree only where no directory is at `path`, which the program then makes
   * whole by names of their own (`docker cp c:/x .pi` where `.pi` is not); where one is, it
   * writes by the names given apart (`.pi/x`). @default false
   */
  fresh?: boolean;
  /**
   * `path` is a bash glob of the names it may write, where a name is built from parts not known
   * (`split -a1` writes `.pi/setting?.json`, curl's `-o '#1.json'` `*.json`): what is protected
   * that the glob may match is reached, as for a glob word not expanded. @default false
   */
  pattern?: boolean;
  /**
   * The file is on the machine `host` reaches (`scp localhost:.ssh/id_rsa .`), logged in as `user`
   * (absent: the one running the command; null: a user not known): a file of this machine only
   * where the host may be this one, its path absolute as written, or relative (`~/…`) in that
   * user's home there. Absent: a file of this machine.
   */
  on?: { host: string; user?: string | null };
  /**
   * The file is in a container (`docker cp app:/app/logs .`): judged as this machine's path only
   * for what is protected there, and where a rule names the command; locations' policies do not
   * count (README: what runs in a container). @default false
   */
  inContainer?: boolean;
  /**
   * `path` is an operand the program leaves as it is (a name `rename`'s edit does not change):
   * what its word names is not judged as changed by it (not moved, nothing below it replaced),
   * where it is named as this path. @default false
   */
  unchanged?: boolean;
  /**
   * With `below`: names of settings files just below `path` it never writes (a new virtual
   * environment's `pip.conf`), read as they are there now by what runs after it. @default none
   */
  spares?: readonly string[];
  /**
   * With `below`: the names it writes there are fixed names of its own, none a user's path glob
   * ends in (`python -m venv .venv`: `bin`, `lib`, `pyvenv.cfg`): a path glob below `path`
   * (`secrets/**`) counts where a name it ends in is there now, as for a program that says
   * nothing of its files (one name deep). @default false
   */
  ownNames?: boolean;
  /**
   * `path` is relative to the top of the work tree the cwd is in (git's `:/path`, `:(top)path`
   * pathspecs), the cwd where none is seen. @default false
   */
  top?: boolean;
  /**
   * `path` is a string git puts before each path its index lists below the cwd, from the work
   * tree's top (`git checkout-index -a --prefix=/tmp/x-` writes `/tmp/x-secrets/key`): the names
   * written, computed from the index where it can be read (else not known). @default false
   */
  indexed?: boolean;
  /**
   * The files git writes from other commits (`git checkout BRANCH`, `git merge X`, `git stash
   * pop`): those the commits' trees differ from HEAD's or the index's in, below the work tree's
   * top, read from the repository (`path` is null). @default undefined
   */
  commits?: CommitsWritten;
}

/** What a git subcommand writes from commits (see `NamedFile.commits`). */
export interface CommitsWritten {
  /** The revisions whose files it writes, as written (`main`, `HEAD~2`); null: one not known. */
  revisions: (string | null)[];
  /** Their parents' files instead (`git revert`). @default false */
  parents?: boolean;
  /** They are stashes: also the index and the untracked files each keeps. @default false */
  stash?: boolean;
  /**
   * The first revision may be a pathspec instead (`git checkout NAME` of a file that exists, which
   * writes the index's file, named already). @default false
   */
  orPath?: boolean;
  /** The pathspecs (from the cwd) that limit what it writes; null: one not known. */
  pathspecs?: (string | null)[];
  /**
   * The first revision is read as `git checkout`/`git switch` read it: a branch of that name
   * before any other ref (a tag of the same name). @default false
   */
  branchFirst?: boolean;
  /**
   * It writes the revisions' files over the work tree's changes (`git reset --hard`, `git
   * checkout -f`, `git stash`, `git restore --source=REV PATHS`): the files the work tree holds
   * otherwise than the index are written too. @default false
   */
  overwrites?: boolean;
  /**
   * The one revision `FETCH_HEAD` is every commit fetched for merging (`git merge FETCH_HEAD`
   * merges each of FETCH_HEAD's lines not marked `not-for-merge`). @default false
   */
  fetched?: boolean;
  /**
   * The revisions are read as rev-list reads them (`git cherry-pick A..B`, `git bisect start BAD
   * GOOD`: `A..B` is `^A B`): every commit reachable from one as written and from none with `^`,
   * each commit's files written. @default false
   */
  range?: boolean;
  /**
   * With `range`: the commits a rebase replays onto the revisions its other file names, each
   * written where it changes its parents' files (the range runs up to the branch, whose
   * difference from HEAD is the other file's). @default false
   */
  replays?: boolean;
  /**
   * What `git bisect` writes, its verb: `start` the range of its revisions (the first the new
   * term's, the others the old's: `^` before each), `reset` the revision given; while one is
   * bisected (`BISECT_START`), also the revision it started from. Any other verb (`good`, `bad`,
   * a term, `skip`, `run`) marks its revisions (or HEAD) with that term, and git writes the next
   * commit of the bisection under way (its refs, `refs/bisect/`): one of the range they name.
   */
  bisect?: string;
  /**
   * The commits' files are written whole into a new directory (from the cwd; null: one not
   * known): `git worktree add DIR REV`, `git clone SRC DIR`. @default undefined
   */
  into?: string | null;
  /**
   * With `into`: the repository the revisions are of (from the cwd; null: one not known), a local
   * clone's source; absent: the cwd's. @default undefined
   */
  source?: string | null;
  /**
   * With `into`: the branch of this name written where one is there, else the revisions
   * (`git worktree add ../feat` checks out `feat`, or HEAD as a new branch). @default undefined
   */
  guessed?: string;
  /**
   * The index's files marked skip-worktree are written too (`git sparse-checkout disable`, `add`,
   * `set`, `reapply`: those the patterns take in again). @default false
   */
  skipped?: boolean;
  /**
   * With `branchFirst`: a name that is no revision is not guessed to be a remote's branch
   * (`git checkout --no-guess NAME`). @default false
   */
  noGuess?: boolean;
  /**
   * The commits not known are none the command names (`git pull`'s, fetched first; a sequence's
   * under way, `git rebase --continue`; `git switch --orphan`): where they are not read, a write
   * below the work tree as what is there now says. Without it, a revision not read (a word not
   * seen, `evil^{/text}`) may write any path there. @default false
   */
  unnamed?: boolean;
  /**
   * With `unnamed`: the verb of an operation under way (`git rebase --continue`, `--skip`,
   * `--abort`; `apply`: `git am --retry`), whose commits or patches its state in the git directory
   * names (`rebase-merge/git-rebase-todo`, `orig-head`; see `underwayOf`); where none is under way,
   * git writes nothing. @default undefined
   */
  underway?: "continue" | "skip" | "abort" | "apply";
  /**
   * With `underway`: the operation (`am`: `rebase-apply/`'s patches; `sequencer`: `git
   * cherry-pick`'s and `git revert`'s, `sequencer/todo`, `CHERRY_PICK_HEAD`, `REVERT_HEAD`;
   * `merge`: `MERGE_HEAD`, `MERGE_AUTOSTASH`); absent, a rebase. @default undefined
   */
  underwayOf?: "am" | "sequencer" | "merge";
  /**
   * With `underway`: the command's options that change what the state's steps write (`git am
   * --continue -p2`, `--directory=x`, `-3`): where one is under way, what it writes is not known.
   * @default undefined
   */
  underwayOptions?: string[];
}

/** What a program's `namedFiles` is given besides its words and stage (see `Program.namedFiles`). */
export interface NamedFilesGiven {
  /** The text of a file it reads, as it will be when the command runs (null: not known). */
  read?: ReadFile;
  /** What bash makes of its glob words. */
  globs?: GlobWords;
  /** The environment the tool runs with (what the stage does not set itself). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * The files of some names it reads in every directory of a tree (rsync's per-directory merge
   * files): those in `dir` (from the stage's cwd) and at any depth below it, and, with `above`,
   * in each directory from there down to `dir`, as they are now (absolute), with their text as
   * they will be when it runs (null: not known); none where `dir` is no directory; null where
   * which are there cannot be known (a tree beyond the walk's bounds, or one another stage of the
   * command may change first, several cwds).
   */
  filesNamed?: (dir: string, names: readonly string[], above?: string) => FoundFile[] | null;
}

/** A file `NamedFilesGiven.filesNamed` finds. */
export interface FoundFile {
  /** Absolute. */
  path: string;
  /** Its text (null: not known). */
  text: string | null;
  /** It is a symlink (its text is its target's). */
  link: boolean;
  /** It is in a directory above the tree (`above`). @default false */
  above?: boolean;
}

/** The words a program expands as globs itself (see `Program.globOperands`). */
export interface GlobOperands {
  /** Their positions in `stage.argv` (static words). */
  at: number[];
  /** Its `*`, `?`, `[…]` and `**` match names starting with `.` (fast-glob's `dot: true`). */
  dot: boolean;
  /**
   * What a `\` is in its patterns: an escape (fast-glob's, minimatch's: `\*` is a literal `*`;
   * the default), or a path separator, a `/`: "separator" as written (dprint: a leading one is
   * the root), "separator-from-cwd" joined to the cwd first (deno: `\.pi/*` is `./.pi/*`).
   */
  backslash?: "escape" | "separator" | "separator-from-cwd";
  /**
   * A `(` opens a group of alternatives, `|` between them (fast-glob's picomatch, for globby's
   * programs: `'(.env|zz)'` names `.env`), as extglob's `@(…)`; a word with one is a glob. Not
   * set: a `(` is a literal unless it follows `@!+*?` (minimatch, deno's glob).
   */
  groups?: boolean;
  /**
   * The directory its operands are found below (cpy's `--cwd=DIR`), from the cwd; null where that
   * is not known (its operands may name anything then). Not set: the cwd.
   */
  base?: string | null;
  /**
   * Positions of words found below `base` too but not expanded (cpy's destination: `cpy
   * --cwd=src . ../dist` copies into `dist`).
   */
  based?: number[];
}

/** What `Program.changesBelow` is given. */
export interface ChangesGiven {
  /** A settings file's text (absolute) as it will be when the program runs; null: not known. */
  read: ReadFile;
  /** The user's home directory (where user-level settings are). */
  home: string;
}

/** What is known about one program (or a family called by several names). */
export interface Program {
  /** The names it is called by (a path is matched by its basename). */
  names: readonly string[];
  /** Which of its options take a value (read by every facet that reads its options). */
  options?: OptionGrammar;
  /**
   * The commands its arguments or input make it run: a wrapper's command, `sh -c` text, `find
   * -exec`, `xargs CMD`, an awk program's `system()`. A program with this facet is never saved as
   * a broad approval ("sudo apt *" would allow whatever apt can be made to do).
   */
  runs?: (stage: Stage, run: Runner) => void;
  /**
   * The commands its option values or settings name (`git -c core.pager=CMD`, `tar -I CMD`, `ssh
   * -o ProxyCommand=CMD`, `sort --compress-program=CMD`): each is a stage of its own, so an
   * approval of the program itself stays narrow.
   */
  optionCommands?: (stage: Stage, run: Runner) => void;
  /**
   * The command lines it has run on another machine or in a container (`ssh host CMD`, `docker
   * exec c CMD`, `kubectl exec pod -- CMD`), each as one word of shell text. Their paths are not
   * this machine's: each is judged as a carried line (it counts where a rule asks about or denies
   * it, or where a protected path it names is reached). A program with this facet is never saved
   * as a broad approval, or, with a `tooBroad` function, not for the subcommands it names.
   */
  runsElsewhere?: (argv: Word[]) => Word[];
  /**
   * Its `runsElsewhere` lines start in the home directory of the login there (`ssh host CMD`, whose
   * relative paths name files below that home): judged as in this user's home, as the paths of
   * this machine (`ssh localhost 'cat .ssh/id_rsa'` reads `~/.ssh/id_rsa`).
   */
  runsInHome?: boolean;
  /** Options that make it work in another directory (`git -C`, `make -C`, `tar -C`). */
  chdir?: ChdirSpec;
  /** The argv positions (1-based, into `stage.argv`) that are text, not paths. */
  text?: (argv: Word[]) => Iterable<number>;
  /**
   * Files its arguments name inside a word (`git show HEAD:.env`, yq's `load("f")`), or its input
   * names (the files a patch changes), as paths below the cwd; `path: null` for a file it
   * opens that cannot be known (`load(.x)`). `read` gives the text of a file it reads (a path as
   * the command names it, from the stage's cwd) as it will be when the command runs, or null when
   * that cannot be known (another stage of the command may write there, several cwds, a large or
   * special file); `globs` what bash makes of its glob words (see `GlobWords`); `env` the
   * environment the tool runs with (what the stage does not set itself: `GIT_ICASE_PATHSPECS`).
   */
  namedFiles?: (argv: Word[], stage?: Stage, given?: NamedFilesGiven) => NamedFile[];
  /** The inline code it evaluates (`python3 -c CODE`), for eval classification. */
  evaluates?: (stage: Stage) => EvalShape | null;
  /**
   * Its `evaluates` code is what some options give a tool that is no interpreter (`pylint
   * --init-hook CODE`, `nix eval --expr CODE`): its other words are read as any program's (one
   * that reads as a command line is judged as one), and it hands none of them to the code.
   */
  codeOption?: boolean;
  /** `$safe-bash` checks, keyed by the pattern's words after the program (`""`: the program). */
  readOnly?: Record<string, ReadOnlyCheck>;
  /**
   * The symlinks it makes (`ln -s T L`, a patch's `new file mode 120000`), so later stages' paths
   * through them are followed; `read` gives a file's text (from the stage's cwd) as it is now.
   */
  links?: (stage: Stage, read?: ReadFile) => MadeLink[];
  /**
   * It reads a directory it is given as a tree and follows the symlinks inside it (`grep -R`,
   * `rg -L`, `find -L`, `du -L`, `cp -rL`): where those links lead is read too.
   */
  followsLinks?: (argv: Word[]) => boolean;
  /**
   * The trees it reads are only the places its words name, not the cwd (`grep -R x src`, `zip -r
   * a.zip src`; not `grep -R x` or `find -L -newer f`, which search the cwd).
   */
  treesNamed?: (argv: Word[]) => boolean;
  /**
   * Where it names no place (`treesNamed` false), it reads the files below the cwd (`grep -r KEY`,
   * `rg KEY`): a protected path glob there (`secrets/**`) counts where what it names is below the
   * cwd now.
   */
  readsCwd?: (argv: Word[], stage?: Stage) => boolean;
  /**
   * It shows the content of the files of its repository that its words do not name (`git diff`,
   * `git log -p`, `git show`, `git grep KEY`), or reads into its object store (`git add -A`,
   * `git commit -a`, `git stash -u`: a later push sends them): from the work tree's top or the
   * cwd, the files the index lists, those git does not ignore or those there are. Null where it
   * shows none or only what its words name.
   */
  readsRepository?: (stage: Stage) => RepositoryRead | null;
  /**
   * What it prints is paths below known places, one to a line, nothing else (`find DIR` without
   * `-printf`/`-exec`, `git ls-files`): a program reading them (`… | xargs cat`) names paths
   * there. Null when its output may hold anything else. `listingOf` says what other stages list
   * (`find src | xargs grep -l x` lists what grep prints of what find lists).
   */
  lists?: (stage: Stage, listingOf: ListingOf) => Listing[] | null;
  /**
   * The names a tree it reads is limited to (grep's `--include=GLOB`, rg's `-g GLOB`): a protected
   * name glob of any depth (`.env`) that may match one counts below the directories it reads, as
   * it does not for a read of everything (`grep -r KEY --include=.env .` asks). `stage` and
   * `env` (the tool's environment) as for `namedFiles`.
   */
  treeNames?: (
    argv: Word[],
    stage?: Stage,
    env?: Record<string, string | undefined>,
  ) => string[];
  /**
   * Its `treeNames` limit what it changes below every directory it is given (find's starting
   * points: `find . -name '*.pyc' -delete`), not only below the cwd, where they are names of
   * their own (git's pathspec globs, beside pathspecs that are whole trees). @default false
   */
  namesLimitTrees?: boolean;
  /** It looks at the names or sizes of a directory operand, never at the files below it. */
  metadataOnly?: boolean;
  /**
   * A tree it reads all the way down, it reads without a repository's `.git` in it (git itself,
   * whose stores' reading `readsRepository` says; rg and ag without `--hidden`): the object store
   * there is not read as files (see policy/object_store.ts). @default false
   */
  skipsGitDir?: (argv: Word[]) => boolean;
  /**
   * It deletes, moves, copies over or changes the files below a directory it names (`rm -r`,
   * `tar -x -C dir`); a function when it depends on the subcommand (`git checkout .`).
   */
  replacesTrees?: boolean | ((argv: Word[]) => boolean);
  /**
   * Whether it may change `file` (absolute), which lies below `dir`, a directory its words name: a
   * formatter rewrites the files of its languages there and no other (`gofmt -w .` the `.go`
   * files, `prettier --write .` those its parsers take, not a `.npmrc`), unless an option or its
   * settings may widen that (a plugin, an `include`). `read` gives a settings file's text
   * (absolute) as it will be when it runs, null where that is not known. (A file it is given by
   * name counts whatever its name.) Not set: any file.
   */
  changesBelow?: (argv: Word[], dir: string, file: string, given: ChangesGiven) => boolean;
  /**
   * It rewrites files below the directories it is given, those `changesBelow` says (a formatter,
   * a linter's fixes: `deno fmt src`, `eslint --fix .`), and below the cwd too where it names
   * none (`"cwd"`: `deno fmt`, `cargo fmt`, `ruff format`); null where it rewrites no tree (a
   * mode that writes nothing: `--check`, `--diff`, `--dry-run`; another subcommand: `deno test`).
   * What is protected below them that it may change is reached: the gate's own files of any
   * depth (`.pi/extensions/pi-controls.jsonc` for `deno fmt .`).
   */
  rewritesTrees?: (argv: Word[]) => "named" | "cwd" | null;
  /** Every argument is a string, never a path it opens (`echo`, `printf`, `sleep`). */
  noFileOperands?: boolean;
  /**
   * Its single-dash words are whole options or an expression's primaries (`find -name`,
   * `-newer`), never clusters of letters: no value is glued to a letter of one (see
   * `gluedValues`).
   */
  wholeOptions?: boolean;
  /**
   * It expands the glob patterns among its operands itself, where bash left them (quoted:
   * `prettier --write '**\/*.json'`, `eslint 'src/**'`): each such word is judged as the glob it
   * is, by the program's rules (`**` crosses directories, braces, a leading `.` matched where
   * `dot` says), its matches where they can be listed, else what lies below its literal prefix.
   * Null where it has none.
   */
  globOperands?: (argv: Word[]) => GlobOperands | null;
  /**
   * What it creates, removes, renames or changes lies at or below the paths its arguments name
   * (`touch`, `mkdir`, `rm`, `mv`, `cp`, `ln`, `chmod`): a glob of another stage elsewhere
   * matches the same files before and after it. (Not set: it may write anywhere.)
   */
  writesOnlyNamed?: boolean;
  /**
   * The argv positions of words naming files it only reads and places it never writes (docker
   * compose's `-f FILE`, `--env-file F`, `--project-directory DIR`, and every word of `up`,
   * `build`, `logs`…): a program that may write anywhere is taken to write what its other words
   * name, not these (`docker compose -f x.yml build && docker compose -f x.yml up` reads x.yml as
   * it is). Not set: any word may name a place it writes.
   */
  readWords?: (argv: Word[]) => Iterable<number>;
  /**
   * Saving "program subcommand *" would allow anything, beyond what `runs` and `evaluates` say
   * (`npx pkg` runs a package); a function when only some subcommands would (`docker run`, not
   * `docker ps`). A program with `runsElsewhere` and no `tooBroad` is too broad whatever follows.
   */
  tooBroad?: boolean | ((subcommand: string) => boolean);
}
