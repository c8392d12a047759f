/**
 * Commands git gives the names of files it found or compares: `git grep -O[CMD]` (the files that
 * matched, below its pathspecs or the cwd), an external diff (`GIT_EXTERNAL_DIFF`,
 * `diff.external`, a diff driver's `command`) and `git difftool -x CMD` (the files of the work
 * tree that differ). Each such command is judged as run on files of the repository: paths not
 * known below each pathspec, or below the top of the work tree (the nearest directory at or above
 * the cwd holding `.git`), or anywhere where that cannot be known.
 *
 * @example
 * ```ts
 * // git grep -O'sed -i s/a/b/' -e a -- .pi   →   sed -i s/a/b/ .pi .pi/(files git found)
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Runner } from "./spec.ts";
import { chdir, listedWord, literal, unknownWord } from "./words.ts";
import { pathspecMagic, pathspecWords } from "./git_pathspecs.ts";
import { BACKUP_ENV, PATHSPEC_ENV } from "./env.ts";

/** Options before git's subcommand that move where its paths are (`-C`, `--work-tree`, …). */
const MOVED = /^(-C|--work-tree|--git-dir|--namespace)(=|$)/;
/** Variables that move them the same way. */
const MOVED_ENV = /^(GIT_WORK_TREE|GIT_DIR|GIT_PREFIX)=/;

/**
 * A path given as it is, and the files below it (it may be a directory), each passed as one
 * word, as `find -exec … {} +` passes what it lists.
 */
function atAndBelow(path: string, what: string): Word[] {
  const at = literal(path);
  return [at, listedWord(at, undefined, what, { whole: true })];
}

/** Files anywhere: their place is not known. */
function anywhere(what: string): Word[] {
  return [unknownWord(`(${what})`)];
}

/**
 * The top of the git work tree the stage runs in: the nearest directory at or above its cwd
 * holding `.git` (a directory with `HEAD`, or a work tree's or submodule's `.git` file), short of
 * the home directory; null when that cannot be known.
 */
export function workTreeTop(run: Runner): string | null {
  return topOf(run) ?? null;
}

/**
 * Where git starts the commands its settings, aliases and options name (`!` aliases, `rebase -x`,
 * `bisect run`, pagers, editors, an external diff, credential helpers): at the top of the work
 * tree of each cwd, as git moves there before it runs a subcommand, and in the cwd itself, where
 * git runs them before it moves or outside a repository (`git clone -u CMD`). Not known where git
 * is moved (`-C`, `--work-tree`, `GIT_DIR`) or the repository cannot be known.
 */
export function commandsPlace(stage: Stage, at: number, run: Runner): (string | null)[] {
  const cwds = gitCwds(stage, at);
  const out: (string | null)[] = [];
  for (const cwd of cwds) {
    const top = cwd === null ? null : topOf(run, [cwd]);
    for (const dir of top === undefined ? [cwd] : [top, cwd]) {
      if (!out.includes(dir)) out.push(dir);
    }
  }
  return out;
}

/**
 * The runner of what git runs (see `commandsPlace`), with the programs its environment names
 * (`GIT_EDITOR=…`, judged in the cwd as any stage's) judged there too.
 */
export function atTop(stage: Stage, at: number, run: Runner): Runner {
  const place = commandsPlace(stage, at, run);
  const here = run.at(place);
  // (What git reads itself, the backup suffix and its pathspecs' case, runs nothing there.)
  const assigned = (stage.assignments ?? []).filter((w) => {
    const name = w.value.slice(0, Math.max(0, w.value.indexOf("=")));
    return !BACKUP_ENV.test(name) && !PATHSPEC_ENV.test(name);
  });
  if (assigned.length && place.some((c) => !stage.cwds.includes(c))) here.environment(assigned);
  return here;
}

/**
 * The tops of the work trees git works in (see `commandsPlace`): for each cwd after its `-C`
 * options, the nearest directory holding `.git`; undefined where there is none, null where that
 * cannot be known (git moved otherwise, a cwd not known).
 */
export function gitTops(stage: Stage, at: number, run: Runner): (string | null | undefined)[] {
  return gitCwds(stage, at).map((cwd) => cwd === null ? null : topOf(run, [cwd]));
}

/**
 * The cwds git works in: after its `-C` options; not known where it is moved otherwise. With
 * `found`, the cwds git finds its repository from: a work tree `--work-tree` or `GIT_WORK_TREE`
 * moves elsewhere is not where the repository is (the caller asks where the work tree is).
 */
export function gitCwds(stage: Stage, at: number, found = false): (string | null)[] {
  const moved = (w: Word) => MOVED_ENV.test(w.value) && !(found && w.value.startsWith("GIT_W"));
  if ((stage.assignments ?? []).some(moved)) return [null];
  let cwds = stage.cwds;
  for (let i = 1; i < at && i < stage.argv.length; i++) {
    const w = stage.argv[i];
    if (w.kind !== "static") return [null];
    if (w.value === "-C" && stage.argv[i + 1]) cwds = chdir(cwds, stage.argv[++i]);
    else if (found && /^--work-tree(=|$)/.test(w.value)) i += w.value.includes("=") ? 0 : 1;
    else if (MOVED.test(w.value)) return [null];
  }
  return cwds;
}

/**
 * The nearest directory at or above `cwds` holding `.git` (see `workTreeTop`): undefined where
 * there is none, null where that cannot be known.
 */
function topOf(run: Runner, cwds?: (string | null)[]): string | null | undefined {
  const repository = run.projectSettings(".git/HEAD", cwds);
  if (repository === null) return null;
  // (A submodule's or linked work tree's `.git` file nearer than a repository's is its top.)
  const file = run.projectSettings(".git", cwds);
  const dirs = [...repository, ...(file ?? [])].map((f) => f.dir);
  if (!dirs.length) return undefined;
  return dirs.reduce((a, b) => (b.length > a.length ? b : a));
}

/** The files of the work tree the stage's cwd is in (what an external diff may be given). */
export function workTreeFiles(run: Runner, what = "files of the repository"): Word[] {
  const top = workTreeTop(run);
  return top === null ? anywhere(what) : atAndBelow(top, what);
}

/** Whether git's paths are not those of the stage's cwd (`git -C dir`, `GIT_WORK_TREE=…`). */
function moved(stage: Stage, at: number): boolean {
  return stage.argv.slice(1, at).some((w) => w.kind !== "static" || MOVED.test(w.value)) ||
    (stage.assignments ?? []).some((w) => MOVED_ENV.test(w.value));
}

/**
 * The files a git subcommand at `at` may give a command: those below its pathspecs (for `grep`
 * its operands, else only the words after `--`, as a revision may stand before it), else below
 * the cwd (`grep`, which searches there) or in the whole work tree.
 */
export function foundFiles(stage: Stage, at: number, run: Runner, grep: boolean): Word[] {
  const what = grep ? "files git found" : "files of the repository";
  if (moved(stage, at)) return anywhere(what);
  const argv = stage.argv;
  const dashes = argv.findIndex((w, i) => i > at && w.kind === "static" && w.value === "--");
  const specs = grep ? pathspecWords(argv, at) : dashes < 0 ? [] : argv.slice(dashes + 1);
  const out: Word[] = [];
  let whole = false;
  for (const w of specs) {
    if (w.kind !== "static") return anywhere(what);
    const magic = pathspecMagic(w.value);
    if (magic?.exclude) continue;
    if (magic && (magic.top || magic.any)) whole = true;
    const spec = magic ? magic.path : w.value;
    // (A glob, `src/*.ts`, matches below the directory before its first wildcard.)
    const wild = spec.search(/[*?[\\]/);
    const path = wild < 0 ? spec : spec.slice(0, spec.slice(0, wild).lastIndexOf("/") + 1);
    if (path === "" || path === "." || path === "./") whole ||= !grep;
    out.push(...atAndBelow(path === "" ? "." : path, what));
  }
  if (whole || (!out.length && !grep)) return workTreeFiles(run, what);
  return out.length ? out : atAndBelow(".", what);
}

/** `--open-files-in-pager` and the abbreviations git takes for it (`--o` is ambiguous: `--or`). */
function isOpener(name: string): boolean {
  return name.length >= 4 && "--open-files-in-pager".startsWith(name);
}

/** `-O` alone, glued to its value, or after other flags of git grep (`-nOrm`). */
const SHORT_OPENER = /^-[aiIwvhHEGFPnlLzocpWqr]*O/;

/**
 * `git grep`'s command that opens the files it found: `-OCMD`, `-nOCMD`,
 * `--open-files-in-pager=CMD` and its abbreviations (`--op=CMD`: git takes any unique prefix of a
 * long option); `true` for one with no command, which takes the pager; null for none.
 */
export function grepOpener(args: Word[]): Word | true | null {
  let found: Word | true | null = null;
  for (const w of args) {
    if (w.kind === "static" && w.value === "--") break;
    const eq = w.prefix.startsWith("--") ? w.prefix.indexOf("=") : -1;
    const short = SHORT_OPENER.exec(w.prefix);
    const at = eq >= 0 && isOpener(w.prefix.slice(0, eq)) ? eq + 1 : short ? short[0].length : -1;
    if (at < 0) {
      if (w.kind === "static" && isOpener(w.value)) found ??= true;
    } else if (w.kind !== "static") found = { ...w, value: w.text };
    else if (w.value.length > at || eq >= 0) found = literal(w.value.slice(at));
    else found ??= true;
  }
  return found;
}

/**
 * The commands `git grep` opens the files it found with (see `grepOpener`), given those files:
 * the command named, or with none the pagers this command sets (`-c core.pager=…`, `PAGER=…`).
 */
export function grepCommands(stage: Stage, at: number, run: Runner, pagers: Word[]): void {
  const opener = grepOpener(stage.argv.slice(at + 1));
  if (opener === null) return;
  const given = foundFiles(stage, at, run, true);
  const assigned = (stage.assignments ?? []).flatMap((w) => {
    const m = /^(GIT_)?PAGER=/.exec(w.value);
    if (!m) return [];
    return [w.kind === "static" ? literal(w.value.slice(m[0].length)) : w];
  });
  for (const command of opener === true ? [...pagers, ...assigned] : [opener]) {
    run.shell(command, "git grep -O", { given });
  }
}

/**
 * `git rebase -i` with an editor the same command names (`GIT_SEQUENCE_EDITOR='cp /tmp/todo'`,
 * `-c sequence.editor=…`, `GIT_EDITOR`, `core.editor`): the todo list it writes is a file of
 * commands git runs (its `exec` lines), not seen; `--continue`/`--skip` run those of the list a
 * rebase left (see `rebaseResumed`).
 */
export function rebaseTodo(stage: Stage, run: Runner, at: number): void {
  const argv = stage.argv;
  if (at < 0 || argv[at]?.value !== "rebase") return;
  const args = argv.slice(at + 1);
  if (args.some((w) => w.kind !== "static" || /^--(continue|skip)$/.test(w.value))) {
    rebaseResumed(stage, run, at);
  }
  if (
    !args.some((w) => w.kind !== "static" || /^(-[a-zA-Z]*i[a-zA-Z]*|--interactive)$/.test(w.value))
  ) {
    return;
  }
  // (An editor that leaves the list as git wrote it, `true` or `:`, writes no command.)
  const keeps = (v: string) => /=\s*(true|:|\/(usr\/)?bin\/true)\s*$/.test(v);
  const editor =
    (stage.assignments ?? []).some((a) =>
      /^(GIT_SEQUENCE_EDITOR|GIT_EDITOR|VISUAL|EDITOR)=/.test(a.value) && !keeps(a.value)
    ) || argv.slice(1, at).some((w) => /(sequence|core)\.editor/i.test(w.value) && !keeps(w.value));
  if (editor) {
    run.stage([unknownWord("(the commands of the todo list the editor writes)")], "git rebase -i");
  }
}

/**
 * The repository of the work tree at `top`: its git directory (`.git`, or where a `.git` file
 * points) and the common one (a linked work tree's `commondir`); null where that is not known.
 */
export function repositoryDirs(top: string, run: Runner): { git: string; common: string } | null {
  const head = run.settings(`${top}/.git/HEAD`);
  if (head === null) return null;
  let git = `${top}/.git`;
  if (head === "") {
    const file = run.settings(git);
    const m = file === null ? null : /^gitdir: *(.+?)\s*$/m.exec(file);
    if (!m) return null;
    git = m[1].startsWith("/") ? m[1] : `${top}/${m[1]}`;
  }
  const named = run.settings(`${git}/commondir`);
  if (named === null) return null;
  const dir = named.trim();
  const common = dir === "" ? git : dir.startsWith("/") ? dir : `${git}/${dir}`;
  return { git, common };
}

/** A line of a rebase's todo list that runs a shell command (`exec CMD`, `x CMD`). */
const EXEC_LINE = /^[ \t]*(?:x|exec)[ \t]+(\S.*)$/gm;

/**
 * `git rebase --continue` (`--skip`) goes on with the todo list a rebase left in
 * `$GIT_DIR/rebase-merge/git-rebase-todo`: its `exec` lines are shell commands git runs at the
 * work tree's top, whoever wrote them (`sed -i '1i exec cmd' .git/rebase-merge/git-rebase-todo`).
 * Each is judged there; a list that cannot be read is commands not known.
 */
function rebaseResumed(stage: Stage, run: Runner, at: number): void {
  const here = atTop(stage, at, run);
  for (const top of gitTops(stage, at, run)) {
    if (top === undefined) continue;
    // (Where the repository is not all known, the list of a `.git` directory there, as long as
    // its HEAD is: a linked work tree's `.git` file another stage writes is not.)
    const git = top === null ? null : repositoryDirs(top, run)?.git ??
      (run.settings(`${top}/.git/HEAD`) !== null ? `${top}/.git` : null);
    const todo = git === null ? null : run.settings(`${git}/rebase-merge/git-rebase-todo`);
    if (todo === null) {
      run.stage([unknownWord("(the commands of the rebase's todo list)")], "git rebase --continue");
      continue;
    }
    for (const m of todo.matchAll(EXEC_LINE)) here.shell(literal(m[1]), "git rebase exec");
  }
}

/** Whether a git stage works in submodules (whose URLs are not read here). */
function submodules(argv: Word[], at: number): boolean {
  return argv[at]?.value === "submodule" ||
    argv.some((w, i) => i > at && /^--recurse-submodules(=|$)|^--recursive$/.test(w.value));
}

/**
 * A setting that allows the ext transport (`protocol.allow`, `protocol.ext.allow`: `always`,
 * `user`), saved by `git config` or given to a stage that works in submodules: the `ext::` URLs
 * of later commands and of submodules run their commands (the command's own URLs and remotes are
 * read with the setting).
 */
export function extAllowance(
  key: string,
  value: string,
  from: Word,
  origin: string,
  argv: Word[],
  at: number,
  run: Runner,
): void {
  if (
    /^protocol\.(ext\.)?allow$/.test(key) &&
    !(from.kind === "static" && !/^(always|user)$/i.test(value)) &&
    (origin === "git config" || submodules(argv, at))
  ) {
    run.stage([literal("git"), unknownWord("(what ext:: URLs run where allowed)")], origin);
  }
}
