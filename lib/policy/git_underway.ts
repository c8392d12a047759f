/**
 * What git's state says a command writes where it takes it from the git directory rather than
 * its words: an operation under way and its verbs (`--continue`, `--skip`, `--abort`), each read
 * from git's own state files: a rebase (`rebase-merge/`, or `rebase-apply/` for `--apply`'s), a
 * `git am` session (`rebase-apply/`'s patches, `git_underway_am.ts`), a cherry-pick or revert
 * (`sequencer/todo`, `sequencer/head`, `CHERRY_PICK_HEAD`, `REVERT_HEAD`), a merge (`MERGE_HEAD`),
 * each with the autostash it applies at its end; and the stashes `git stash pop|apply` takes
 * (`refs/stash`). Where there is none (nothing under way, no stash), git fails and writes nothing;
 * where the state cannot be read, what it writes is not known.
 *
 * @example
 * ```ts
 * import { underwayWrites } from "./git_underway.ts";
 * // underwayWrites(repo, "abort") → { commits: [{ revisions: [ORIG_HEAD's oid], overwrites: true }], patched: [] }
 * ```
 *
 * @module
 */
import { resolve } from "node:path";
import type { CommitsWritten } from "../programs/spec.ts";
import type { FsFacts } from "../types.ts";
import type { MadeLink } from "../programs/spec.ts";
import { openRepository, refValue, type Repository, resolveCommit } from "./git_revisions.ts";
import { amWrites, NOTHING, OID, type UnderwayWrites } from "./git_underway_am.ts";

export type { UnderwayWrites } from "./git_underway_am.ts";

/** A verb of an operation under way (`apply`: `git am --retry`). */
export type UnderwayVerb = NonNullable<CommitsWritten["underway"]>;

/** The operation a verb goes on with: a rebase, unless told (`CommitsWritten.underwayOf`). */
export type UnderwayOf = NonNullable<CommitsWritten["underwayOf"]> | "rebase";

/** The todo's commands that pick a commit (its files written where it changes its parent's). */
const PICKS = new Set(["pick", "p", "reword", "r", "edit", "e", "squash", "s", "fixup", "f"]);

/** The todo's commands that write no file. */
const INERT = new Set(["drop", "d", "break", "b", "noop", "update-ref", "u", "label", "l"]);

/** The most todo lines read. */
const TODO_LIMIT = 256 * 1024;

/** The most commits of a cherry-pick's or revert's todo read. */
const PICK_LIMIT = 64;

/** The merge strategies git has built in (another is a program, `git-merge-NAME`). */
const BUILT_IN_STRATEGIES = /^(ort|recursive|resolve|octopus|ours|subtree)$/;

/**
 * What a verb of the operation under way writes (see the module): the commits, each to be read
 * as a command's, and the paths patches change. None under way, nothing.
 */
export function underwayWrites(
  repo: Repository,
  verb: UnderwayVerb,
  of: UnderwayOf = "rebase",
  options: readonly string[] = [],
): UnderwayWrites | null {
  switch (of) {
    case "am":
      return amWrites(repo, verb, options);
    case "sequencer":
      return picksWritten(repo, verb);
    case "merge":
      return mergeWritten(repo, verb);
    default:
      return rebaseWritten(repo, verb);
  }
}

/**
 * Whether a ref of the work tree's own that is no special ref (`CHERRY_PICK_HEAD`, `REVERT_HEAD`,
 * `MERGE_AUTOSTASH`) is there: a file in its git directory; null where the refs are kept in a
 * reftable (not read here).
 */
function hasOwnRef(repo: Repository, name: string): boolean | null {
  const { fs, gitDir, commonDir } = repo;
  if (fs.exists(`${gitDir}/reftable`) || fs.exists(`${commonDir}/reftable`)) return null;
  return fs.exists(`${gitDir}/${name}`);
}

/**
 * The stash an autostash file (`rebase-merge/autostash`) or ref (`MERGE_AUTOSTASH`) names, whose
 * files git applies at the operation's end: none (`[]`), or null where it cannot be read.
 */
function autostash(repo: Repository, file: string | null, ref?: string): CommitsWritten[] | null {
  if (file !== null) {
    if (!repo.fs.exists(file)) return [];
    const oid = repo.fs.readText?.(file, 4096)?.trim();
    return oid && OID.test(oid) ? [{ revisions: [oid], stash: true }] : null;
  }
  const there = hasOwnRef(repo, ref!);
  if (there !== true) return there === false ? [] : null;
  const oid = refValue(repo, ref!);
  return oid === null ? null : [{ revisions: [oid], stash: true }];
}

/**
 * What a rebase's verb writes, each to be read as a command's commits: none under way, or a
 * `git am` session's (`rebase-apply/applying`: git refuses), nothing; `--abort`, ORIG_HEAD's files
 * over the work tree's (`git reset --hard`); `--continue`, the commits its todo picks, replayed;
 * `--skip`, HEAD's files over the work tree's, then those; each then its autostash's files. Null
 * where not known: a todo that runs a command (`exec`), resets to or merges a label, a strategy
 * not built in, a rebase by patches (`rebase-apply/` but `--abort`), a state that cannot be read.
 */
function rebaseWritten(repo: Repository, verb: UnderwayVerb): UnderwayWrites | null {
  const { fs, gitDir } = repo;
  if (fs.exists(`${gitDir}/rebase-apply/applying`)) return NOTHING;
  const dir = ["rebase-merge", "rebase-apply"].map((d) => `${gitDir}/${d}`)
    .find((d) => fs.exists(d));
  if (dir === undefined) return NOTHING;
  const stashed = autostash(repo, `${dir}/autostash`);
  if (stashed === null) return null;
  if (verb === "abort") {
    const head = fs.readText?.(`${dir}/orig-head`, 4096)?.trim();
    return head && OID.test(head)
      ? { commits: [{ revisions: [head], overwrites: true }, ...stashed], patched: [] }
      : null;
  }
  if (dir.endsWith("rebase-apply") || verb === "apply") return null;
  if (!builtInStrategy(fs, `${dir}/strategy`, false)) return null;
  const todo = fs.readText?.(`${dir}/git-rebase-todo`, TODO_LIMIT);
  if (todo == null) return null;
  const picked: string[] = [];
  for (const raw of todo.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const [command, ...rest] = line.split(/\s+/);
    if (INERT.has(command)) continue;
    if (!PICKS.has(command)) return null;
    // (`fixup -C OID`, `fixup -c OID`: the commit after the flag.)
    const oid = rest[0] === "-C" || rest[0] === "-c" ? rest[1] : rest[0];
    if (oid === undefined || !OID.test(oid)) return null;
    picked.push(oid);
  }
  const replayed: CommitsWritten = { revisions: picked, replays: true };
  const head: CommitsWritten[] = verb === "skip" ? [{ revisions: ["HEAD"], overwrites: true }] : [];
  return { commits: [...head, replayed, ...stashed], patched: [] };
}

/**
 * Whether the strategy a state file names is one git has built in (none named: it is): another
 * is a program git runs. `config`: the file is the sequencer's options (`strategy = NAME`).
 */
function builtInStrategy(fs: FsFacts, file: string, config: boolean): boolean {
  if (!fs.exists(file)) return true;
  const text = fs.readText?.(file, 64 * 1024);
  if (text == null) return false;
  if (!config) return BUILT_IN_STRATEGIES.test(text.trim());
  const named = [...text.matchAll(/^\s*strategy\s*=(.*)$/gim)].map((m) => m[1].trim());
  return named.every((s) => BUILT_IN_STRATEGIES.test(s.replace(/^"(.*)"$/, "$1")));
}

/**
 * What `git cherry-pick` and `git revert` write going on with a sequence (`--continue`, `--skip`,
 * `--abort`): nothing where none is under way (no `CHERRY_PICK_HEAD`, `REVERT_HEAD`, nor
 * `sequencer/`), nor for `--continue` of a single pick (it commits); `--abort`, the files of the
 * commit before the sequence (`sequencer/head`) or of HEAD for a single pick (`git reset --merge`);
 * `--skip`, HEAD's (`git reset --merge`); `--continue` and `--skip`, the commits the todo picks
 * or reverts after the one under way, read as `git cherry-pick A B` reads them. Null where not
 * known: a todo's line of another command, a commit not read, a strategy not built in.
 */
function picksWritten(repo: Repository, verb: UnderwayVerb): UnderwayWrites | null {
  const { fs, gitDir } = repo;
  const seq = `${gitDir}/sequencer`;
  const heads = ["CHERRY_PICK_HEAD", "REVERT_HEAD"].map((n) => hasOwnRef(repo, n));
  if (heads.includes(null)) return null;
  const single = heads.includes(true);
  if (verb === "abort") {
    if (!fs.exists(`${seq}/head`)) return single ? head([]) : NOTHING;
    const oid = fs.readText?.(`${seq}/head`, 4096)?.split("\n")[0];
    return oid && OID.test(oid) ? { commits: [{ revisions: [oid] }], patched: [] } : null;
  }
  const todo = `${seq}/todo`;
  const listed = fs.exists(todo);
  if (verb === "apply" || (!listed && (verb === "continue" || !single))) return NOTHING;
  if (!builtInStrategy(fs, `${seq}/opts`, true)) return null;
  const rest = listed ? todoPicks(repo, todo) : [];
  if (rest === null) return null;
  return verb === "skip" ? head(rest) : { commits: rest, patched: [] };
}

/** HEAD's files, `git reset --merge` (the index's changes), then `more`. */
function head(more: CommitsWritten[]): UnderwayWrites {
  return { commits: [{ revisions: ["HEAD"] }, ...more], patched: [] };
}

/**
 * The commits a cherry-pick's or revert's todo names after its first (the one under way, done or
 * skipped before the rest): a cherry-pick's replayed, each what it changes from its parents (as a
 * rebase's); a revert's as `git revert A B` writes them (their parents' files); none where it names none; null where a line is of another command (git refuses
 * it), names a commit not read, or picks and reverts both.
 */
function todoPicks(repo: Repository, file: string): CommitsWritten[] | null {
  const text = repo.fs.readText?.(file, TODO_LIMIT);
  if (text == null) return null;
  const picked: string[] = [];
  const commands = new Set<string>();
  let first = true;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const [command, name] = line.split(/\s+/);
    if (!/^(pick|p|revert)$/.test(command) || name === undefined) return null;
    commands.add(command === "revert" ? "revert" : "pick");
    if (first) {
      first = false;
      continue;
    }
    const oid = resolveCommit(repo, name);
    if (oid === null || picked.push(oid) > PICK_LIMIT) return null;
  }
  if (commands.size > 1) return null;
  if (!picked.length) return [];
  // (Each pick replayed as a rebase's is, sequencer.c's `do_pick_commit`: a merge whose base is
  // its parent writes what it changes from that parent, the index not consulted.)
  return [{
    revisions: picked,
    ...(commands.has("revert") ? { parents: true } : { replays: true }),
  }];
}

/**
 * What `git merge --abort` writes: nothing where no merge is under way (no `MERGE_HEAD`: git
 * fails); else HEAD's files (`git reset --merge`), then its autostash's (`MERGE_AUTOSTASH`).
 */
function mergeWritten(repo: Repository, verb: UnderwayVerb): UnderwayWrites | null {
  if (verb !== "abort" || !repo.fs.exists(`${repo.gitDir}/MERGE_HEAD`)) return NOTHING;
  const stashed = autostash(repo, null, "MERGE_AUTOSTASH");
  return stashed === null ? null : head(stashed);
}

/**
 * Whether a stash revision (`refs/stash`, `stash@{N}`) names none for certain: the repository
 * keeps no stash (no `refs/stash`, loose or packed; its refs not kept in a reftable), where
 * `git stash pop` fails.
 */
export function noStash(repo: Repository, rev: string): boolean {
  if (rev !== "refs/stash" && !/^stash@\{\d+\}$/.test(rev)) return false;
  const { fs, commonDir } = repo;
  if (fs.exists(`${commonDir}/reftable`) || fs.exists(`${commonDir}/refs/stash`)) return false;
  const packed = `${commonDir}/packed-refs`;
  if (fs.exists(packed) && !fs.readBytes?.(packed, 16 * 1024 * 1024)) return false;
  return refValue(repo, "refs/stash") === null;
}

/**
 * What commits write: the files, and the symlinks among them; `stateOnly`: read from git's state
 * files and objects alone, the index not consulted (each reading the commits a sequence replays,
 * `CommitsWritten.replays`, or the paths of `git am`'s mails), so what another stage writes to
 * the index first leaves it as it is.
 */
type Written = { paths: string[]; links: MadeLink[]; stateOnly?: true };

/** Whether a reading of commits consults no index nor work tree: the commits replayed alone. */
function readsState(c: CommitsWritten): boolean {
  return c.replays === true && !c.overwrites && !c.skipped && c.pathspecs === undefined;
}

/**
 * What an operation under way writes in the work tree whose top is `top` (`underwayWrites`, as
 * `commits` says: its verb, operation, options), each reading's files (`readOne`) and the paths
 * its patches change together; null where one is not known.
 */
export function readUnderway(
  top: string | null,
  commits: CommitsWritten,
  fs: FsFacts,
  user: { home: string; env: Record<string, string | undefined> } | undefined,
  readOne: (commits: CommitsWritten) => Written | null,
): Written | null {
  const repo = top === null ? null : openRepository(top, fs, user);
  const each = repo === null || commits.underway === undefined
    ? null
    : underwayWrites(repo, commits.underway, commits.underwayOf, commits.underwayOptions);
  if (each === null) return null;
  const found = each.commits.map(readOne);
  if (found.includes(null)) return null;
  return {
    paths: [
      ...new Set([...found.flatMap((w) => w!.paths), ...each.patched.map((p) => resolve(top!, p))]),
    ],
    links: found.flatMap((w) => w!.links),
    ...(each.commits.every(readsState) ? { stateOnly: true as const } : {}),
  };
}
