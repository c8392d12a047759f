/**
 * The index's files that the work tree holds otherwise (edited, deleted, replaced, in conflict):
 * those git writes over where it puts the index's or a commit's files back (`git reset --hard`,
 * `git checkout -f`, `git stash`). Told as git's quick test tells them (gitformat-index(5)'s
 * stat data against the file's: size, inode, type and executable bit, mtime and ctime), and
 * where a file changed as late as the index was written ("racily clean"), by its content, as git
 * tells it; fail closed: a file whose stat data or content cannot be had counts as changed.
 *
 * @example
 * ```ts
 * import { changedFiles } from "./git_worktree.ts";
 * import { realFs } from "./fs_facts.ts";
 * // changedFiles("/repo", "/repo/.git", indexBytes, realFs(), out): out gets ".pi/settings.json"
 * ```
 *
 * @module
 */
import type { FileStat, FsFacts } from "../types.ts";
import { createHash } from "node:crypto";
import { indexEntries, indexStats } from "./git_index.ts";

/** The most entries whose files are looked at (a larger index: not known). */
const ENTRY_LIMIT = 20000;

const TYPE = 0o170000;
const LINK = 0o120000;
const REGULAR = 0o100000;
const GITLINK = 0o160000;

/** A time git keeps as seconds and nanoseconds, in ms. */
const ms = (sec: number, nsec: number) => sec * 1000 + Math.floor(nsec / 1e6);

/**
 * Whether a file's stat data is the entry's (`stat`: see `indexStats`), as git's quick test says;
 * a time the index keeps without nanoseconds is compared in seconds, the ctime always so.
 */
function unchanged(stat: number[], f: FileStat): boolean {
  const [cSec, , mSec, mNsec, , ino, mode, , , size] = stat;
  if ((f.mode & TYPE) !== (mode & TYPE)) return false;
  if ((mode & TYPE) !== LINK && ((f.mode ^ mode) & 0o100) !== 0) return false;
  if (f.size % 2 ** 32 !== size || f.ino % 2 ** 32 !== ino) return false;
  // (The ctime in seconds: some hosts give no finer one, as Deno's node:fs.)
  if (Math.floor(f.ctimeMs / 1000) !== cSec) return false;
  return Math.floor(f.mtimeMs / 1000) === mSec &&
    (mNsec === 0 || Math.floor(f.mtimeMs) === ms(mSec, mNsec));
}

/**
 * The paths (from the work tree's top `top`) of the index `bytes` (the file `index`) whose files
 * differ (see the module's notes), into `out`; false where that is not known (an index not read,
 * more entries than the bound).
 */
export function changedFiles(
  top: string,
  index: string,
  bytes: Uint8Array,
  fs: FsFacts,
  out: Set<string>,
): boolean {
  const entries = indexEntries(bytes)?.entries;
  const stats = indexStats(bytes);
  if (!entries || stats === null || entries.length > ENTRY_LIMIT) return false;
  const own = fs.lstat?.(index) ?? null;
  if (own === null) return false;
  const written = Math.floor(own.mtimeMs);
  for (const [n, e] of entries.entries()) {
    const stat = stats[n];
    // (A submodule's commit: its own work tree, not a file here.)
    if ((e.mode & TYPE) === GITLINK) continue;
    const file = `${top}/${e.path}`;
    const f = fs.lstat?.(file) ?? null;
    if (e.stage !== 0 || f === null || !unchanged(stat, f)) out.add(e.path);
    // (Changed as late as the index was written: its content tells, as git reads it.)
    else if (ms(stat[2], stat[3]) >= written && !sameBlob(fs, file, f, e.oid)) out.add(e.path);
  }
  return true;
}

/** The largest file whose content is compared (a larger racily clean one: changed). */
const CONTENT_LIMIT = 1024 * 1024;

/** Whether a regular file holds the blob `oid` (SHA-1 of `blob SIZE\0` and the bytes). */
function sameBlob(fs: FsFacts, file: string, f: FileStat, oid: string): boolean {
  if ((f.mode & TYPE) !== REGULAR || f.size > CONTENT_LIMIT) return false;
  const content = fs.readBytes?.(file, CONTENT_LIMIT) ?? null;
  if (content === null) return false;
  const hash = createHash("sha1").update(`blob ${content.length}\0`).update(content);
  return hash.digest("hex") === oid;
}
