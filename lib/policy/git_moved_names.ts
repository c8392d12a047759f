/**
 * Whether the stages that may change a repository before a git stage that writes files of other
 * commits (`git fetch && git checkout main`, `git branch -f main evil && git checkout main`) may
 * make the revisions it names mean commits whose files are not read: then those may write any
 * path below the work tree (`git_writes.ts`: the files of a revision not read). The commits the
 * names mean now are read either way.
 *
 * None where each such stage is a git stage that moves no name but to commits of what is there
 * now or of another machine's (`git add`, `git commit`, `git stash`, `git fetch`, `git pull`
 * without a refspec or a local source: a fetched commit is as `git pull`'s, judged by what is
 * there now), or one that writes the files of the commits it moves names to itself, judged at its
 * own stage (`git checkout`, `git merge`, `git reset --hard`: what a name it moves means then
 * differs from HEAD now only where that stage writes, or where the later stage's commits as read
 * now do). A spelling relative to a name's history (`HEAD~1`, `@{1}`, `-`, a range, a stash's
 * place) may then mean a commit of the new history: moved. Any other stage that may change the
 * repository (`git branch -f`, `git update-ref`, `git reset --soft`, `git tag`, a write into
 * `.git`, a program not known) may point a name at any commit: moved.
 *
 * @example
 * ```ts
 * import { namesMoved } from "./git_moved_names.ts";
 * namesMoved({ revisions: ["main"] }, []); // false
 * ```
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";
import type { CommitsWritten } from "../programs/spec.ts";
import { gitSubcommand } from "../programs/git.ts";
import { commitsWritten } from "../programs/git_commits.ts";

/** git's subcommands that move no name (the index and the work tree aside). */
// deno-fmt-ignore
const STILL = new Set([
  "add", "rm", "mv", "restore", "status", "diff", "log", "show", "grep", "ls-files", "blame",
  "shortlog", "describe", "rev-parse", "cat-file", "gc",
]);

/** The options of `git branch` that move, make or remove a name, or its upstream. */
const BRANCH_MOVES =
  /^(-[a-z]*[fmMcCdDut]|--(force|move|copy|delete|set-upstream|unset-upstream|track|create-reflog))/;

/** The verbs of `git stash` that make a stash of what is there now (`stash@{1}` another then). */
const STASH_MAKES = /^(push|save|create|list|show)$/;

/**
 * Whether a revision word is a plain name: one another stage moves only as it writes, or to a
 * commit of what is there now (not `HEAD~1`, `main^`, `@{1}`, `@{-1}`, `A..B`, `X:path`).
 */
function plain(rev: string | null): boolean {
  return rev !== null && !/[~^:]|@\{|\.\./.test(rev) && rev !== "-" && rev !== "@";
}

/**
 * Whether a `git fetch` or `git pull` moves names only to commits of another machine's (as
 * `git pull`'s, judged by what is there now), or to none the commits name: from a repository
 * given as a path here (`git fetch . evil:main`, `git pull ../other evil`), its commits are not
 * read, and only a name no fetch moves stays (HEAD, a branch checked out by name that is there
 * now, without a `SRC:DST` refspec).
 */
function fetchesOnly(
  words: (string | null)[],
  stays: (rev: string) => boolean,
  commits: CommitsWritten,
): boolean {
  const operands = words.filter((w) => w === null || !w.startsWith("-"));
  if (operands.includes(null)) return false;
  const [source, ...specs] = operands as string[];
  if (source === undefined || !/^(\.|\/|~|file:)/.test(source)) return true;
  return !specs.some((s) => s.includes(":")) &&
    commits.revisions.every((r) => r !== null && stays(r));
}

/** Whether a changing stage may make a revision of `commits` mean a commit not read. */
function moves(stage: Stage, commits: CommitsWritten, repo: Around): boolean {
  const name = stage.argv[0];
  if (name?.kind !== "static" || !/(^|\/)git$/.test(name.value)) {
    // (A program that may do anything is judged so at its own stage; one that writes into the
    // git directory by a name seen, `echo OID > .git/refs/heads/main`, moves a name.)
    return stage.cwds.some((c) =>
      c === null || c === repo.gitDir || c.startsWith(`${repo.gitDir}/`)
    ) ||
      /(^|[\s/'"=])\.git([\s/'"]|$)/.test(stage.text);
  }
  const at = gitSubcommand(stage.argv);
  const sub = stage.argv[at];
  if (sub?.kind !== "static") return true;
  const words = stage.argv.slice(at + 1).map((w) => w.kind === "static" ? w.value : null);
  const plainAll = commits.revisions.every(plain);
  // (A stash's place, `refs/stash` or `stash@{1}`, moves with every stash made or dropped.)
  const stashed = commits.stash === true ||
    commits.revisions.some((r) => r === null || /stash/.test(r));
  switch (sub.value) {
    case "commit":
      // (HEAD moves to a commit of the index: `HEAD~1` means another.)
      return !plainAll;
    case "fetch":
      return !fetchesOnly(words, repo.stays, commits);
    case "pull":
      return !fetchesOnly(words, repo.stays, commits) || !plainAll;
    case "stash": {
      const verb = words.find((w) => w === null || !w.startsWith("-"));
      if (verb === undefined || verb === "--" || (verb !== null && STASH_MAKES.test(verb))) {
        return stashed && commits.revisions.some((r) => r !== "refs/stash");
      }
      if (verb === null || stashed) return true;
      if (verb === "drop" || verb === "clear") return false;
      break;
    }
    case "branch": {
      // (`git branch NEW` names HEAD's commit, `git branch -a` lists; `-f`, `-m`, `-D`, `-u`, a
      // start point: other commits.)
      const operands = words.filter((w) => w === null || !w.startsWith("-"));
      return operands.length > 1 || words.some((w) => w === null || BRANCH_MOVES.test(w));
    }
    case "reset": {
      // (`git reset`, `git reset HEAD`, `git reset -- PATHS`: the index alone.)
      const [first] = words.filter((w) => w === null || !w.startsWith("-") || w === "--");
      if (!commitsWritten(stage.argv, at).length) {
        return !(first === undefined || first === "HEAD" || first === "--");
      }
      break;
    }
    case "checkout":
    case "switch":
      // (`git checkout -b NEW`, `git switch -c NEW`: HEAD's commit, named anew.)
      if (!commitsWritten(stage.argv, at).length) {
        return words.some((w) => w === null || /^--orphan/.test(w));
      }
  }
  if (STILL.has(sub.value)) return false;
  // (A stage that writes the files of the commits it moves names to is judged at its own stage;
  // not one that writes them elsewhere.)
  if (sub.value === "worktree" || sub.value === "clone") return true;
  const writes = commitsWritten(stage.argv, at);
  if (!writes.length || writes.some((f) => f.commits?.unnamed)) return true;
  return !plainAll;
}

/**
 * Whether the stages `changers` (those that may change the repository first) may make a revision
 * `commits` names mean a commit not read (see the module's notes).
 */
export function namesMoved(
  commits: CommitsWritten,
  changers: readonly Stage[],
  repo: Around,
): boolean {
  return changers.some((s) => moves(s, commits, repo));
}

/**
 * The repository of the commits: its git directory, and whether a revision names a commit a fetch
 * does not move (HEAD, a branch checked out by name that is there now).
 */
export interface Around {
  gitDir: string;
  stays: (rev: string) => boolean;
}
