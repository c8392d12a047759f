/**
 * What git's state says a command writes where it takes it from the git directory rather than
 * its words: a rebase under way (`git rebase --continue|--skip|--abort`: `rebase-merge/`, or
 * `rebase-apply/` for `--apply`'s), and the stashes `git stash pop|apply` takes (`refs/stash`).
 * Where there is none (no rebase under way, no stash), git fails and writes nothing; where the
 * state cannot be read, what it writes is not known.
 *
 * @example
 * ```ts
 * import { underwayWrites } from "./git_underway.ts";
 * // underwayWrites(repo, "abort") → [{ revisions: [ORIG_HEAD's oid], overwrites: true }]
 * ```
 *
 * @module
 */
import type { CommitsWritten } from "../programs/spec.ts";
import type { FsFacts } from "../types.ts";
import type { MadeLink } from "../programs/spec.ts";
import { openRepository, refValue, type Repository } from "./git_revisions.ts";

const OID = /^[0-9a-f]{40}$/;

/** The todo's commands that pick a commit (its files written where it changes its parent's). */
const PICKS = new Set(["pick", "p", "reword", "r", "edit", "e", "squash", "s", "fixup", "f"]);

/** The todo's commands that write no file. */
const INERT = new Set(["drop", "d", "break", "b", "noop", "update-ref", "u", "label", "l"]);

/** The most todo lines read. */
const TODO_LIMIT = 256 * 1024;

/**
 * What a rebase's verb writes, each to be read as a command's commits: none under way, nothing
 * (`[]`); `--abort`, ORIG_HEAD's files over the work tree's (`git reset --hard`); `--continue`,
 * the commits its todo picks, replayed; `--skip`, HEAD's files over the work tree's, then those.
 * Null where not known: a todo that runs a command (`exec`), resets to or merges a label, a
 * rebase by patches (`rebase-apply/` but `--abort`), a state that cannot be read.
 */
export function underwayWrites(
  repo: Repository,
  verb: "continue" | "skip" | "abort",
): CommitsWritten[] | null {
  const { fs, gitDir } = repo;
  const dir = ["rebase-merge", "rebase-apply"].map((d) => `${gitDir}/${d}`)
    .find((d) => fs.exists(d));
  if (dir === undefined) return [];
  if (verb === "abort") {
    const head = fs.readText?.(`${dir}/orig-head`, 4096)?.trim();
    return head && OID.test(head) ? [{ revisions: [head], overwrites: true }] : null;
  }
  if (dir.endsWith("rebase-apply")) return null;
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
  return verb === "skip" ? [{ revisions: ["HEAD"], overwrites: true }, replayed] : [replayed];
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

/** What commits write: the files, and the symlinks among them. */
type Written = { paths: string[]; links: MadeLink[] };

/**
 * What a rebase under way writes in the work tree whose top is `top` (`underwayWrites`), each
 * reading's files (`readOne`) together; null where one is not known.
 */
export function readUnderway(
  top: string | null,
  verb: "continue" | "skip" | "abort",
  fs: FsFacts,
  user: { home: string; env: Record<string, string | undefined> } | undefined,
  readOne: (commits: CommitsWritten) => Written | null,
): Written | null {
  const repo = top === null ? null : openRepository(top, fs, user);
  const each = repo === null ? null : underwayWrites(repo, verb);
  const found = each?.map(readOne) ?? [null];
  if (found.includes(null)) return null;
  return {
    paths: [...new Set(found.flatMap((w) => w!.paths))],
    links: found.flatMap((w) => w!.links),
  };
}
