/**
 * The files git writes into a work tree from other commits (`NamedFile.commits`: `git checkout
 * BRANCH`, `git merge X`, `git stash pop`, ...), read from the repository: the paths the
 * commits' trees differ from HEAD's or the index's in (a merge, a cherry-pick, a revert writes
 * no other), a stash's index and untracked files too, and where git writes over the work tree's
 * changes (`git reset --hard`, `git checkout -f`), the files it holds otherwise
 * (`git_worktree.ts`). Null where that is not known: a revision or
 * an object that cannot be read (see `git_revisions.ts`, `git_objects.ts`), an index that
 * cannot be read, more than the bounds; the caller then judges a write of anything below the
 * work tree's top. Answered once per decision (the engine's FsFacts are one per decision).
 *
 * @example
 * ```ts
 * import { commitPaths } from "./git_writes.ts";
 * import { realFs } from "./fs_facts.ts";
 * commitPaths("/repo", { revisions: ["main"] }, realFs()); // ["/repo/src/main.ts"] or null
 * ```
 *
 * @module
 */
import { join, relative, resolve } from "node:path";
import type { FsFacts } from "../types.ts";
import type { CommitsWritten } from "../programs/spec.ts";
import { gitDirOf, INDEX_LIMIT, indexEntries } from "./git_index.ts";
import { dirname } from "node:path";
import {
  commitOf,
  fetchedForMerge,
  guessesNone,
  mayNameRevision,
  openRepository,
  type Repository,
  resolveCommit,
  resolveTree,
  unreadRevision,
} from "./git_revisions.ts";
import { changedFiles } from "./git_worktree.ts";
import {
  allPaths,
  changedPaths,
  indexChanges,
  isLink,
  type Links,
  newBudget,
  type TreeEntry,
} from "./git_trees.ts";
import { OBJECTS_ENV, objectStore, readObject } from "./git_objects.ts";
import { bisectCommits, rangeCommits } from "./git_ranges.ts";
import type { MadeLink } from "../programs/spec.ts";
import type { Stage, Word } from "../shell/model.ts";
import { gitSubcommand } from "../programs/git.ts";
import { commitsWritten } from "../programs/git_commits.ts";
import { namesMoved } from "./git_moved_names.ts";
import { noStash, readUnderway } from "./git_underway.ts";
import { indexOnly, PLAIN_GIT_OPTIONS, repositoryTop, runsNone } from "./git_index_only.ts";

/** Whose git reads the config (for a branch's upstream, `@{u}`): home and environment. */
type User = { home: string; env: Record<string, string | undefined> };

/**
 * What commits write: the files, and the symlinks among them (where each leads); `stateOnly`: read
 * from git's state alone (`git_underway.ts`).
 */
type Written = { paths: string[]; links: MadeLink[]; stateOnly?: true };

/**
 * What commits write, null where not known; `unseen`: a revision they name is not read;
 * `unsettled`: another stage may change the repository first (what is written then is not known
 * beyond the commits as read now).
 */
type Reading = { written: Written | null; unseen: boolean; unsettled?: true };

/** The stages of the command that may change a directory before the stage judged. */
type Changers = (dir: string) => readonly Stage[];

const answers = new WeakMap<FsFacts, Map<string, Reading>>();

/**
 * The files (absolute paths) git writes from the commits `commits` names, run in `cwd`; null
 * where they are not known (see the module's notes).
 */
export function commitPaths(
  cwd: string,
  commits: CommitsWritten,
  fs: FsFacts,
  settled: (gitDir: string) => boolean = () => true,
  user?: User,
): string[] | null {
  return writtenBy(cwd, commits, fs, settled, user).written?.paths ?? null;
}

/**
 * The symlinks git writes from the commits `commits` names, run in `cwd` (each link absolute,
 * its target absolute as written: a relative one from the link's directory), for the stages
 * after it; none where what it writes is not known (the stage itself is judged so).
 */
export function commitLinks(
  cwd: string,
  commits: CommitsWritten,
  fs: FsFacts,
  user?: User,
): MadeLink[] {
  return writtenBy(cwd, commits, fs, () => true, user).written?.links ?? [];
}

function writtenBy(
  cwd: string,
  commits: CommitsWritten,
  fs: FsFacts,
  settled: (gitDir: string) => boolean,
  user: User | undefined,
  changers?: Changers,
): Reading {
  let known = answers.get(fs);
  if (!known) answers.set(fs, known = new Map());
  const key = `${cwd}\0${JSON.stringify(commits)}`;
  let found = known.get(key);
  if (found === undefined) {
    const written = read(cwd, commits, fs, user);
    const unseen = written === null && unseenRevision(cwd, commits, fs, user);
    known.set(key, found = { written, unseen });
  }
  // (A reading from the sequencer's state alone, where the other stages that may change the
  // repository first only write its index: `git add -A && git rebase --continue`.)
  if (found.written?.stateOnly && changers !== undefined && user !== undefined) {
    const repo = repositoryOf(cwd, commits, fs, user);
    const ctx = { fs, ...user };
    const only = (dir: string) => changers(dir).every((s) => indexOnly(s, ctx));
    if (repo !== null && only(repo.gitDir) && only(repo.commonDir)) return found;
  }
  // (Another stage of the command may change the repository first: `git fetch && git checkout
  // origin/main`, `git add README.md && git merge evil`. The commits as read now are still what
  // it most likely writes; a name not there now may be then, and a stage that may point a name
  // at a commit not read, `git branch -f main evil`, `git reset --soft X && git reset --hard`,
  // leaves its files not known: `git_moved_names.ts`. A spelling not read here is not read
  // either way.)
  if (!settledRepository(cwd, commits, fs, settled)) {
    const repo = repositoryOf(cwd, commits, fs, user);
    if (repo === null) {
      return { written: null, unseen: !commits.unnamed && commits.revisions.some(unreadWord) };
    }
    const moved = changers === undefined || namesMoved(
      commits,
      [...new Set([...changers(repo.gitDir), ...changers(repo.commonDir)])],
      { gitDir: repo.commonDir, stays: (rev) => stays(repo, commits, rev) },
    );
    return {
      written: found.written,
      unseen: !commits.unnamed && (moved || commits.revisions.some(unreadWord)),
      unsettled: true,
    };
  }
  return found;
}

/**
 * Whether a revision the commits name is not read (see `commitFiles`): a word not seen, a
 * spelling not read here (`evil^{/text}`, `:/text`, `evil@{now}`), or a word git may take for a
 * revision that names none here; not a word that names none for certain, where git fails or
 * (`git checkout NAME`) takes it for a path. Never for commits the command does not name
 * (`CommitsWritten.unnamed`: `git pull`).
 */
function unseenRevision(
  cwd: string,
  commits: CommitsWritten,
  fs: FsFacts,
  user: User | undefined,
): boolean {
  if (commits.unnamed) return false;
  if (commits.revisions.some(unreadWord)) return true;
  const repo = repositoryOf(cwd, commits, fs, user);
  if (repo === null) return false;
  return commits.revisions.some((rev, n) => {
    if (rev === null || (commits.fetched && rev === "FETCH_HEAD")) return false;
    const first = n === 0 && commits.branchFirst === true;
    return revisionWords(rev).some((w) =>
      resolveTree(repo, w, first, first && !commits.noGuess) === null &&
      mayNameRevision(repo, w) &&
      !(first && commits.orPath && w === rev && fs.exists(resolve(cwd, rev)))
    );
  });
}

/**
 * Whether a revision names a commit a fetch does not move: HEAD, or the first revision read
 * branch first (`git checkout main`) where that branch is there now.
 */
function stays(repo: Repository, commits: CommitsWritten, rev: string): boolean {
  return rev === "HEAD" ||
    (commits.branchFirst === true && rev === commits.revisions[0] &&
      resolveCommit(repo, `refs/heads/${rev}`) !== null);
}

/** Whether a revision word is one not seen, or of a spelling not read here (`unreadRevision`). */
function unreadWord(rev: string | null): boolean {
  return rev === null || revisionWords(rev).some(unreadRevision);
}

/**
 * The revisions a word of rev-list's names (`A..B`: `A` and `B`, `HEAD` for a side left out;
 * `^A`, `A^!`, `A^@`, `A^-N`: `A`); the word itself otherwise.
 */
function revisionWords(rev: string): string[] {
  const sides = rev.includes("...") ? rev.split("...") : rev.split("..");
  if (sides.length > 2) return [rev];
  return sides.map((w) => w.replace(/^\^/, "").replace(/\^(!|@|-\d*)$/, "") || "HEAD");
}

/** A file (or a tree, `replaces`) commits write; `unseen`: by a revision not read, any path. */
type CommitFile = { path: string | null; replaces?: true; unseen?: true; note?: string };

/**
 * The files git writes from commits run in `cwds` (see `commitPaths`); where they are not known,
 * what lies below the work tree's top (the cwd where none is seen), or a file not known. Where
 * no repository is seen (and none is given by the environment, nor made by another stage first),
 * git writes nothing: it fails.
 */
export function commitFiles(
  commits: CommitsWritten,
  cwds: (string | null)[],
  ctx: { fs: FsFacts; env: Record<string, string | undefined>; home: string },
  settled: (dir: string) => boolean,
  changers?: Changers,
): CommitFile[] {
  const out: CommitFile[] = [];
  const moved = ctx.env.GIT_DIR !== undefined || ctx.env.GIT_WORK_TREE !== undefined ||
    OBJECTS_ENV.some((v) => ctx.env[v] !== undefined);
  for (const c of cwds) {
    const top = c === null ? null : repositoryTop(c, ctx.fs);
    // (A clone's source is another repository: the cwd need be none.)
    const none = top === null && c !== null && !moved && commits.source === undefined;
    if (none && noneMade(c, settled)) {
      continue;
    }
    const found = c === null || moved
      ? null
      : writtenBy(c, commits, ctx.fs, settled, ctx, changers);
    const paths = found?.written?.paths ?? null;
    for (const path of paths ?? []) out.push({ path });
    if (paths !== null && !found!.unsettled) continue;
    const into = commits.into;
    const at = into === undefined
      ? top ?? c
      : c === null || into === null
      ? null
      : resolve(c, into);
    // (A revision not read may write any path there, as `git checkout BRANCH` of a tree holding
    // `.pi/extensions/x.js` does: not only names there now.)
    out.push(
      at === null
        ? { path: null, note: "a file not known" }
        : found?.unseen
        ? { path: at, replaces: true, unseen: true, note: "the files of a revision not read" }
        : { path: at, replaces: true, note: "the files of commits not seen" },
    );
  }
  return out;
}

/**
 * Whether no other stage may make a repository git finds from `dir` first: none writes a `.git`
 * there or in a directory above, nor a `HEAD` (a git directory git takes as bare, whose
 * `core.worktree` it may check out into). `cp a.py a.py.bak` makes none: `git checkout a.py`
 * after it fails as without it.
 */
function noneMade(dir: string, settled: (dir: string) => boolean): boolean {
  for (let d = resolve(dir), n = 0; n < 256; d = dirname(d), n++) {
    if (!settled(join(d, ".git")) || !settled(join(d, "HEAD"))) return false;
    if (d === dirname(d)) return true;
  }
  return false;
}

/**
 * The symlinks the git stages of a command write from other commits (`git checkout BRANCH` of a
 * tree holding `link -> ~/.ssh`): links made for the stages after them, as `ln -s` makes them.
 * A command of one stage has none after it; a git given another repository or work tree
 * (`GIT_DIR`, `--work-tree`) writes elsewhere, judged as such at its stage.
 */
export function linksCheckedOut(
  stages: Stage[],
  ctx: { fs: FsFacts; env: Record<string, string | undefined>; home: string },
): MadeLink[] {
  if (stages.length < 2 || ctx.env.GIT_DIR !== undefined || ctx.env.GIT_WORK_TREE !== undefined) {
    return [];
  }
  const out: MadeLink[] = [];
  for (const s of stages) {
    const name = s.argv[0];
    if (name?.kind !== "static" || !/(^|\/)git$/.test(name.value)) continue;
    const at = gitSubcommand(s.argv);
    if (s.argv.slice(1, at).some((w) => /^--(git-dir|work-tree)(=|$)/.test(w.value))) continue;
    for (const file of commitsWritten(s.argv, at)) {
      for (const c of s.cwds) {
        if (c === null || !file.commits) continue;
        for (const l of commitLinks(c, file.commits, ctx.fs, ctx)) out.push({ ...l, by: s });
      }
    }
  }
  return out;
}

/**
 * git's subcommands whose writes `checkoutAreas` may know: each writes files of other commits
 * and runs no command line of its own (not `rebase -x`, `bisect run`, `pull`'s fetch first).
 */
const AREA_WRITERS = new Set([
  "checkout",
  "switch",
  "restore",
  "reset",
  "stash",
  "merge",
  "cherry-pick",
  "revert",
  "read-tree",
  "rebase",
]);

/**
 * `git rebase`'s options that leave what it writes the commits it replays onto its upstream
 * (each spelled in full: an abbreviation, `-i`, `--exec`, a strategy not built in, another
 * option is not known). Its upstream, branch and `--onto` are read by `commitsWritten`.
 */
// deno-fmt-ignore
const REBASE_PLAIN = new Set([
  "-q", "--quiet", "-v", "--verbose", "--stat", "-n", "--no-stat", "--autostash",
  "--no-autostash", "--verify", "--no-verify", "--fork-point", "--no-fork-point", "-f",
  "--force-rebase", "--no-ff", "--ignore-date", "--committer-date-is-author-date",
  "--reset-author-date", "--signoff", "--rerere-autoupdate", "--no-rerere-autoupdate", "-m",
  "--merge", "--apply", "--keep-empty", "--no-keep-empty", "--reapply-cherry-picks",
  "--no-reapply-cherry-picks", "--allow-empty-message", "--autosquash", "--no-autosquash",
  "--update-refs", "--no-update-refs", "-r", "--rebase-merges", "--no-rebase-merges", "--root",
  "--ignore-whitespace", "--no-gpg-sign", "--empty", "--gpg-sign", "--strategy-option", "-X",
  "--onto", "--whitespace", "-C", "--strategy", "-s", "--",
]);

/** Options of `git rebase` whose value is the next word (as `REBASE_PLAIN` reads them). */
const REBASE_VALUED = /^(--onto|--strategy|-s|--strategy-option|-X|--whitespace|-C)$/;

/** The merge strategies git has built in (another is a program, `git-merge-NAME`). */
const BUILT_IN_STRATEGIES = /^(ort|recursive|resolve|octopus|ours|subtree)$/;

/**
 * Whether a git stage's options (after its subcommand at `at`) leave what it writes what
 * `commitsWritten` reads: a strategy of its own is a program it runs (`-s`, `--strategy` of
 * merge, rebase, cherry-pick, revert); rebase's options are those of `REBASE_PLAIN`.
 */
function plainOptions(argv: Word[], at: number): boolean {
  const sub = argv[at].value;
  const short = sub === "merge" || sub === "rebase";
  for (let i = at + 1; i < argv.length; i++) {
    const w = argv[i].value;
    if (w === "--") break;
    if (!w.startsWith("-")) continue;
    const eq = w.indexOf("=");
    const name = eq > 0 ? w.slice(0, eq) : short && /^-s./.test(w) ? "-s" : w;
    const value = eq > 0 ? w.slice(eq + 1) : name !== w ? w.slice(2) : argv[i + 1]?.value;
    if (name === "--strategy" || (short && name === "-s")) {
      if (!BUILT_IN_STRATEGIES.test(value ?? "")) return false;
    }
    if (sub !== "rebase") continue;
    if (!REBASE_PLAIN.has(name)) return false;
    if (eq < 0 && name === w && REBASE_VALUED.test(name)) i++;
  }
  return true;
}

/** The environment that moves git's repository, work tree, index or settings. */
const MOVING_ENV = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  ...OBJECTS_ENV,
  "GIT_CONFIG",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
];

/**
 * Where a git stage that writes files of other commits (`git checkout main`, `git stash pop`,
 * `git reset --hard`; `AREA_WRITERS`) writes, for what another stage of the command finds
 * (`glob_scope.ts`: `git checkout main && npm test` reads `.npmrc` as it is unless the checkout
 * writes it): the files `commitFiles` finds and its repository's git directories. Null where
 * that is not known: files of commits not seen, another stage that may change the repository
 * first (`settled`), git's environment or options that move it (`moved`: the command sets or may
 * set `GIT_*`, `-c`, `--git-dir`), a dynamic word, `--recurse-submodules`, a repository whose
 * settings have it run a program or write elsewhere (a filter, a merge driver, `core.worktree`),
 * or a hook it may run there.
 */
export function checkoutAreas(
  stage: Stage,
  ctx: { fs: FsFacts; env: Record<string, string | undefined>; home: string },
  settled: (dir: string) => boolean,
  moved: boolean,
): string[] | null {
  const { argv } = stage;
  const at = gitSubcommand(argv);
  const movedAway = moved || stage.assignments?.length ||
    MOVING_ENV.some((v) => ctx.env[v] !== undefined);
  if (argv[at]?.value === "submodule") {
    // (git's own options that move it, `--work-tree=DIR`: its top, as where it is not known.)
    const plain = argv.slice(1, at).every((w, i, before) =>
      w.value === "-C" || before[i - 1]?.value === "-C" || PLAIN_GIT_OPTIONS.test(w.value)
    );
    return submoduleAreas(stage, at, ctx, !!movedAway || !plain);
  }
  if (movedAway) return null;
  if (!AREA_WRITERS.has(argv[at]?.value ?? "") || argv.some((w) => w.kind !== "static")) {
    return null;
  }
  for (let i = 1; i < at; i++) {
    if (argv[i].value === "-C") i++;
    else if (!PLAIN_GIT_OPTIONS.test(argv[i].value)) return null;
  }
  if (argv.some((w) => /^--(recurse-submodules|pathspec-from-file)/.test(w.value))) return null;
  if (!plainOptions(argv, at)) return null;
  const files = commitsWritten(argv, at);
  if (!files.length) return null;
  const areas: string[] = [];
  for (const f of files) {
    for (const w of commitFiles(f.commits!, stage.cwds, ctx, settled)) {
      if (w.path === null || w.replaces) return null;
      areas.push(w.path);
    }
  }
  for (const c of stage.cwds) {
    const top = c === null ? null : repositoryTop(c, ctx.fs);
    if (top === null) continue;
    const repo = openRepository(top, ctx.fs, ctx);
    if (repo === null || !runsNone(repo, top, ctx)) return null;
    areas.push(repo.gitDir, repo.commonDir);
  }
  return areas;
}

/** The verbs of `git submodule` that write the files of the submodules' commits (or remove them). */
const SUBMODULE_WRITES = /^(update|deinit|absorbgitdirs)$/;

/**
 * Where `git submodule update` (`deinit`, `absorbgitdirs`) writes: below each submodule's path (a
 * gitlink the index lists) the files of a commit of another repository, not read here (`git
 * submodule update && cd sub && npm test` reads a `.npmrc` it may write). The work tree's top
 * where those are not known (an index that cannot be read, git's repository moved, a word not
 * seen); none for another verb (`status`, `foreach`, whose commands are stages of their own).
 */
function submoduleAreas(
  stage: Stage,
  at: number,
  ctx: { fs: FsFacts; env: Record<string, string | undefined>; home: string },
  moved: boolean,
): string[] | null {
  const verb = stage.argv.slice(at + 1).find((w) => !/^(-q|--quiet)$/.test(w.value));
  if (verb?.kind === "static" && !SUBMODULE_WRITES.test(verb.value)) return [];
  const out: string[] = [];
  for (const c of stage.cwds) {
    const top = c === null ? null : repositoryTop(c, ctx.fs);
    if (top === null) {
      if (c === null || moved) return null;
      continue;
    }
    const gitDir = gitDirOf(top, ctx.fs);
    const bytes = gitDir === null ? null : ctx.fs.readBytes?.(`${gitDir}/index`, INDEX_LIMIT);
    const index = bytes ? indexEntries(bytes) : null;
    // (A command the repository's config runs in the submodule's place: `update = !cmd`.)
    const settings = openRepository(top, ctx.fs, ctx)?.config?.() ?? null;
    const runs = settings === null ||
      settings.some((s) => /^submodule\..*\.update$/.test(s.key) && s.value.startsWith("!"));
    if (moved || verb?.kind !== "static" || index === null || runs) {
      out.push(top);
      continue;
    }
    for (const e of index.entries) {
      if ((e.mode & 0o170000) === 0o160000) out.push(resolve(top, e.path));
    }
    out.push(`${gitDir}/modules`);
  }
  return out;
}

/** Whether no other stage of the command may change the repository the commits are of first. */
function settledRepository(
  cwd: string,
  commits: CommitsWritten,
  fs: FsFacts,
  settled: (dir: string) => boolean,
): boolean {
  const repo = repositoryOf(cwd, commits, fs);
  return repo !== null && settled(repo.gitDir) && settled(repo.commonDir);
}

/**
 * The repository the commits are of: the cwd's, or a clone's local source (a work tree's, or a
 * bare one: its own git directory); null where none is seen.
 */
function repositoryOf(
  cwd: string,
  commits: CommitsWritten,
  fs: FsFacts,
  user?: User,
): Repository | null {
  if (commits.source === undefined) {
    const top = repositoryTop(cwd, fs);
    return top === null ? null : openRepository(top, fs, user);
  }
  if (commits.source === null) return null;
  const at = resolve(cwd, commits.source);
  // (As git finds a local clone's source: clone.c's `get_repo_path`, upload-pack's `enter_repo`
  // for `file://`. Each a work tree's `.git`, a git directory, or a `gitdir:` file.)
  for (const suffix of ["/.git", "", ".git/.git", ".git"]) {
    const path = at === "/" && suffix.startsWith("/") ? suffix : at + suffix;
    if (!fs.exists(path)) continue;
    if (suffix.endsWith("/.git")) {
      const top = path.slice(0, -5) || "/";
      if (gitDirOf(top, fs) !== null) return openRepository(top, fs, user);
      continue;
    }
    const gitDir = isGitDirectory(path, fs) ? path : gitFileDirectory(path, fs);
    if (gitDir === null) continue;
    const store = objectStore(gitDir, fs);
    return store && { gitDir, commonDir: gitDir, store, fs };
  }
  return null;
}

/** Whether `path` is a git directory: its HEAD and objects there (git's `is_git_directory`). */
function isGitDirectory(path: string, fs: FsFacts): boolean {
  return fs.exists(`${path}/HEAD`) && fs.exists(`${path}/objects`);
}

/** The git directory a `gitdir: DIR` file names, where it is one; else null. */
function gitFileDirectory(path: string, fs: FsFacts): string | null {
  if (fs.isDirectory?.(path) !== false) return null;
  const m = /^gitdir: *(.+?) *$/m.exec(fs.readText?.(path, 4096) ?? "");
  const dir = m ? resolve(dirname(path), m[1]) : null;
  return dir !== null && isGitDirectory(dir, fs) ? dir : null;
}

/**
 * What git writes into a new directory (`CommitsWritten.into`): every file of the commits'
 * trees there, or null where that is not known.
 */
function readInto(cwd: string, commits: CommitsWritten, fs: FsFacts, user?: User): Written | null {
  const repo = repositoryOf(cwd, commits, fs, user);
  if (repo === null || commits.into == null) return null;
  const dir = resolve(cwd, commits.into);
  let revs = commits.revisions as string[];
  if (commits.guessed !== undefined) {
    // (`git worktree add ../feat`: the branch `feat` where there is one; else a new one from
    // HEAD, or, as worktree.guessRemote may have it, a remote's branch of that name.)
    const branch = resolveCommit(repo, `refs/heads/${commits.guessed}`);
    const remote = branch === null ? resolveCommit(repo, commits.guessed, true) : null;
    revs = [branch ?? "HEAD", ...(remote === null ? [] : [remote])];
  }
  const budget = newBudget();
  const files = new Map<string, TreeEntry>();
  for (const rev of revs) {
    const tree = resolveTree(repo, rev, commits.branchFirst);
    if (tree === null || !allPaths(repo.store, tree, budget, files)) return null;
  }
  const links: Links = new Map();
  for (const [path, e] of files) if (isLink(e)) links.set(path, e.oid);
  const paths = [...files.keys()].map((p) => resolve(dir, p));
  const made = linksWritten(repo, links, new Set(paths), dir);
  return made === null ? null : { paths, links: made };
}

function read(
  cwd: string,
  commits: CommitsWritten,
  fs: FsFacts,
  user: User | undefined,
): Written | null {
  if (commits.underway) {
    const top = repositoryTop(cwd, fs);
    return readUnderway(top, commits, fs, user, (c) => read(cwd, c, fs, user));
  }
  if (commits.revisions.includes(null)) return null;
  if (commits.into !== undefined) return readInto(cwd, commits, fs, user);
  const top = repositoryTop(cwd, fs);
  const repo = top === null ? null : openRepository(top, fs, user);
  if (repo === null) return null;
  const trees = treesWritten(repo, commits, cwd);
  if (trees === null) return null;
  if (
    !trees.all.length && !trees.untracked.length && !trees.replayed.length && !commits.skipped
  ) {
    return { paths: [], links: [] };
  }
  const index = indexOf(repo);
  if (index === null) return null;
  // (HEAD not born yet: no tree.)
  const head = resolveTree(repo, "HEAD");
  if (head === null && fs.readText?.(`${repo.gitDir}/HEAD`, 4096)?.startsWith("ref:") !== true) {
    return null;
  }
  const budget = newBudget();
  const out = new Set<string>();
  const links: Links = new Map();
  if (commits.overwrites) {
    // (The files the work tree holds otherwise are written over: `git reset --hard`.)
    const file = `${repo.gitDir}/index`;
    const bytes = fs.readBytes?.(file, INDEX_LIMIT) ?? null;
    if (bytes !== null ? !changedFiles(top!, file, bytes, fs, out) : fs.exists(file)) return null;
  }
  // (A sparse checkout's files, back: `git sparse-checkout disable`.)
  for (const e of commits.skipped ? index.entries : []) {
    if (!e.skip) continue;
    out.add(e.path);
    if ((e.mode & 0o170000) === 0o120000) links.set(e.path, e.oid);
  }
  for (const tree of trees.all) {
    if (!changedPaths(repo.store, head, tree, budget, out, "", links)) return null;
    if (!indexChanges(repo.store, tree, index, budget, out, links)) return null;
  }
  // (The commits a rebase replays: what each changes from its parents'.)
  for (const [parent, tree] of trees.replayed) {
    if (!changedPaths(repo.store, parent, tree, budget, out, "", links)) return null;
  }
  for (const tree of trees.untracked) {
    const files = new Map<string, TreeEntry>();
    if (!allPaths(repo.store, tree, budget, files)) return null;
    for (const [path, e] of files) {
      out.add(path);
      if (isLink(e)) links.set(path, e.oid);
    }
  }
  const paths = limited([...out], commits.pathspecs, cwd, top!);
  const made = linksWritten(repo, links, new Set(paths), top!);
  return made === null ? null : { paths, links: made };
}

/** The longest symlink target read (PATH_MAX). */
const TARGET_LIMIT = 4096;

/**
 * Where the symlinks among the files written lead (their blobs' text), or null where one cannot
 * be read: then what the checkout writes is not known.
 */
function linksWritten(
  repo: Repository,
  links: Links,
  written: Set<string>,
  top: string,
): MadeLink[] | null {
  const out: MadeLink[] = [];
  for (const [path, oid] of links) {
    const link = resolve(top, path);
    if (!written.has(link)) continue;
    const blob = readObject(repo.store, oid);
    if (blob?.type !== "blob" || blob.data.length > TARGET_LIMIT) return null;
    const target = new TextDecoder().decode(blob.data);
    if (!target || target.includes("\0")) return null;
    out.push({ link, target: target.startsWith("/") ? target : `${dirname(link)}/${target}` });
  }
  return out;
}

/** The most commits of a rebase read (each a diff of trees; more: what it writes is not known). */
const REPLAY_LIMIT = 64;

/**
 * The trees whose files are written (`all`), those written whole (a stash's untracked files) and
 * the commits a rebase replays (`replayed`: each tree with one of its parents', the first's or
 * none), or null where one is not known. A first revision that is no revision but a path that
 * exists (`orPath`) writes none.
 */
export function treesWritten(
  repo: Repository,
  commits: CommitsWritten,
  cwd: string,
): { all: string[]; untracked: string[]; replayed: [string | null, string][] } | null {
  const all: string[] = [];
  const untracked: string[] = [];
  const replayed: [string | null, string][] = [];
  // (A range, a bisection: each commit it may write.)
  const revisions = commits.bisect !== undefined
    ? bisectCommits(repo, commits)
    : commits.range
    ? rangeCommits(repo, commits.revisions as string[])
    : commits.revisions;
  if (revisions === null) return null;
  if (commits.replays) {
    // (A path a replayed commit leaves otherwise than HEAD's is one a commit of the range
    // changes from its parents, the range running up to the branch: what the branch differs
    // from HEAD in is the other file's. A merge replayed: from each parent. More than the bound:
    // not known.)
    if (revisions.length > REPLAY_LIMIT) return null;
    for (const oid of revisions as string[]) {
      const commit = commitOf(repo, oid);
      if (commit === null) return null;
      const parents = commit.parents.map((p) => commitOf(repo, p)?.tree ?? null);
      if (parents.includes(null)) return null;
      if (!parents.length) replayed.push([null, commit.tree]);
      for (const p of parents) replayed.push([p, commit.tree]);
    }
    return { all, untracked, replayed };
  }
  for (const [n, rev] of revisions.entries()) {
    if (rev === null) return null;
    // (No stash at all: git fails.)
    if (commits.stash && noStash(repo, rev)) continue;
    if (commits.parents || commits.stash) {
      const oid = resolveCommit(repo, rev, n === 0 && commits.branchFirst);
      const commit = oid === null ? null : commitOf(repo, oid);
      if (commit === null) return null;
      const parents = commit.parents.map((p) => commitOf(repo, p)?.tree ?? null);
      if (parents.includes(null)) return null;
      if (commits.parents) all.push(...(parents as string[]));
      else {
        // (A stash: its work tree's files, its index's, its untracked ones.)
        all.push(commit.tree, ...(parents.slice(1, 2) as string[]));
        if (parents[2]) untracked.push(parents[2]);
      }
      continue;
    }
    if (commits.fetched && rev === "FETCH_HEAD") {
      // (`git merge FETCH_HEAD`: each commit fetched for merging, an octopus.)
      const fetched = fetchedForMerge(repo);
      const trees = fetched?.map((oid) => resolveTree(repo, oid)) ?? [null];
      if (trees.includes(null)) return null;
      all.push(...(trees as string[]));
      continue;
    }
    const first = n === 0 && commits.branchFirst === true;
    const tree = resolveTree(repo, rev, first, first && !commits.noGuess);
    if (tree !== null) all.push(tree);
    // (A word that is no revision for certain and a path that exists: `git checkout README.md`;
    // or none a branch is guessed from for certain, where git fails: `git checkout --no-guess
    // feat`, `feat` of two remotes. One git may take for a revision not read here is one not
    // known: `git checkout evil@{0}`.)
    else if (
      !(n === 0 && !mayNameRevision(repo, rev) &&
        ((commits.orPath && repo.fs.exists(resolve(cwd, rev))) ||
          (first && (commits.noGuess || guessesNone(repo, rev)))))
    ) return null;
  }
  return { all, untracked, replayed };
}

/** The index of a repository (none yet: empty), or null where it cannot be read. */
function indexOf(repo: Repository): ReturnType<typeof indexEntries> {
  const file = `${repo.gitDir}/index`;
  const bytes = repo.fs.readBytes?.(file, INDEX_LIMIT) ?? null;
  if (bytes === null) return repo.fs.exists(file) ? null : { entries: [], tree: null };
  return indexEntries(bytes);
}

/**
 * The paths (from the work tree's top) below the pathspecs (from the cwd), made absolute; all of
 * them where a pathspec is not known or not a plain path (a glob, magic).
 */
function limited(
  paths: string[],
  specs: (string | null)[] | undefined,
  cwd: string,
  top: string,
): string[] {
  const plain = specs?.every((s) => s !== null && !/[*?[\\]/.test(s) && !s.startsWith(":"));
  const under = plain ? specs!.map((s) => relative(top, resolve(cwd, s!))) : null;
  const kept = under === null
    ? paths
    : paths.filter((p) => under.some((u) => u === "" || p === u || p.startsWith(`${u}/`)));
  return kept.map((p) => resolve(top, p));
}
