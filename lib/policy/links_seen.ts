/**
 * The symlinks a decision looks for on the filesystem: inside a tree a program reads or lists
 * (walked once per tree and name filter in a decision), and a dangling one a write goes through.
 *
 * @module
 */
import { treeLinks } from "../programs/links.ts";
import type { FsFacts } from "../types.ts";

/** A tree walked for its symlinks that is larger than the walk's bounds. */
export const TOO_LARGE = { links: [], complete: false, splits: false, dashes: false };

/** Trees walked in this decision, by the decision's memo (its targets often share a tree). */
const walks = new WeakMap<FsFacts, Map<string, ReturnType<typeof treeLinks>>>();

/** treeLinks, once per tree in a decision (`fs` is the decision's memo). */
export function walked(dir: string, fs: FsFacts, names?: string): ReturnType<typeof treeLinks> {
  let trees = walks.get(fs);
  if (!trees) walks.set(fs, trees = new Map());
  const key = names === undefined ? dir : `${dir}\0${names}`;
  let found = trees.get(key);
  if (!found) trees.set(key, found = treeLinks(dir, fs, names));
  return found;
}

/** Directories a walk for names lists at most (as a walk for links). */
const NAME_LISTINGS = 64;

/** Trees walked for their names in this decision, by the decision's memo. */
const named = new WeakMap<FsFacts, Map<string, readonly string[] | null>>();

/**
 * Every name below a directory, at any depth (its files', directories' and links'), as the
 * filesystem shows it now; null when the tree is larger than the walk's bounds or it or a
 * directory inside it cannot be listed. Once per tree in a decision (`fs` is the decision's memo).
 */
export function namesBelow(dir: string, fs: FsFacts): readonly string[] | null {
  let trees = named.get(fs);
  if (!trees) named.set(fs, trees = new Map());
  if (trees.has(dir)) return trees.get(dir)!;
  let found: string[] | null = [];
  if (!fs.entries) found = null;
  const queue = [dir];
  for (let at = 0; found !== null && at < queue.length; at++) {
    // (A directory found below that cannot be listed, mode 000, leaves its names not known: the
    // command may open it first, `chmod -R a+rwX d`, or be run by another user.)
    const listing = fs.entries!(queue[at]);
    if (!listing) {
      found = null;
      break;
    }
    const base = queue[at] === "/" ? "/" : queue[at] + "/";
    for (const e of listing) {
      found.push(e.name);
      if (e.dir) queue.push(base + e.name);
    }
    if (queue.length > NAME_LISTINGS) found = null;
  }
  trees.set(dir, found);
  return found;
}

/**
 * Whether a path that does not resolve is a symlink in its directory's listing (a listing is kept
 * while the directory is unchanged; asking for the link itself would throw for most paths).
 */
export function danglingLink(path: string, fs: FsFacts): boolean {
  const at = path.lastIndexOf("/");
  const dir = at <= 0 ? "/" : path.slice(0, at);
  // (A directory that is not there holds no link: known already from resolving the path.)
  if (fs.realpath(dir) === null) return false;
  const listing = fs.entries?.(dir);
  if (!listing) return false;
  const name = path.slice(at + 1);
  return listing.some((e) => e.link && e.name === name);
}
