/**
 * A tree's entries (gitformat: `MODE NAME\0` and 20 bytes of object name each) and the paths two
 * trees differ in: a subtree with the same name in both is skipped, so only what changed is read.
 * Also the paths an index differs from a tree in (the index's cached tree skips the comparison
 * where it is the tree). Reads are bounded (`Budget`): past the bound the answer is not known.
 *
 * @example
 * ```ts
 * import { changedPaths } from "./git_trees.ts";
 * // changedPaths(store, headTree, otherTree, budget): ["src/main.ts", ".pi/settings.json"]
 * ```
 *
 * @module
 */
import { hexAt, type ObjectStore, readObject } from "./git_objects.ts";
import type { IndexEntry } from "./git_index.ts";

/** One entry of a tree. */
export interface TreeEntry {
  name: string;
  mode: number;
  oid: string;
}

/** How many trees may still be read and paths still be listed. */
export interface Budget {
  trees: number;
  paths: number;
}

/** A budget for one decision: enough for a large project's change, bounded for any. */
export function newBudget(): Budget {
  return { trees: 4096, paths: 20000 };
}

const DIRECTORY = 0o40000;

const parsed = new WeakMap<Uint8Array, TreeEntry[] | null>();

/** The entries of tree `oid`, or null where it cannot be read (or the budget is spent). */
export function treeEntries(store: ObjectStore, oid: string, budget: Budget): TreeEntry[] | null {
  if (--budget.trees < 0) return null;
  const o = readObject(store, oid);
  if (o?.type !== "tree") return null;
  let entries = parsed.get(o.data);
  if (entries === undefined) parsed.set(o.data, entries = parseTree(o.data));
  return entries;
}

function parseTree(b: Uint8Array): TreeEntry[] | null {
  const out: TreeEntry[] = [];
  const decoder = new TextDecoder();
  for (let i = 0; i < b.length;) {
    const space = b.indexOf(32, i);
    const nul = space < 0 ? -1 : b.indexOf(0, space);
    if (nul < 0 || nul + 21 > b.length) return null;
    const mode = parseInt(decoder.decode(b.subarray(i, space)), 8);
    const name = decoder.decode(b.subarray(space + 1, nul));
    if (Number.isNaN(mode) || !name || name.includes("/")) return null;
    out.push({ name, mode, oid: hexAt(b, nul + 1) });
    i = nul + 21;
  }
  return out;
}

const isTree = (e: TreeEntry | undefined) => e !== undefined && (e.mode & 0o170000) === DIRECTORY;

/** Whether an entry is a symlink (mode 120000: its blob holds where it leads). */
export const isLink = (e: TreeEntry | undefined): boolean =>
  e !== undefined && (e.mode & 0o170000) === 0o120000;

/** The symlinks met on the side a tree is written from: path → the object holding the target. */
export type Links = Map<string, string>;

/**
 * The paths (from the trees' top, `prefix` before each) whose entries differ between trees `a`
 * and `b` (null: no tree, as where a directory is absent), into `out` (and the symlinks of `b`
 * among them into `links`); false where a tree cannot be read or the budget is spent.
 */
export function changedPaths(
  store: ObjectStore,
  a: string | null,
  b: string | null,
  budget: Budget,
  out: Set<string>,
  prefix = "",
  links?: Links,
): boolean {
  if (a === b) return true;
  const ea = a === null ? [] : treeEntries(store, a, budget);
  const eb = b === null ? [] : treeEntries(store, b, budget);
  if (ea === null || eb === null) return false;
  const byName = new Map<string, [TreeEntry | undefined, TreeEntry | undefined]>();
  for (const e of ea) byName.set(e.name, [e, undefined]);
  for (const e of eb) byName.set(e.name, [byName.get(e.name)?.[0], e]);
  for (const [name, [x, y]] of byName) {
    if (x?.oid === y?.oid && x?.mode === y?.mode) continue;
    const path = prefix + name;
    // (A file on one side: written or removed; a directory on either: what is below it.)
    if ((x && !isTree(x)) || (y && !isTree(y))) {
      out.add(path);
      if (links && isLink(y)) links.set(path, y!.oid);
      if (--budget.paths < 0) return false;
    }
    if (isTree(x) || isTree(y)) {
      const [tx, ty] = [isTree(x) ? x!.oid : null, isTree(y) ? y!.oid : null];
      if (!changedPaths(store, tx, ty, budget, out, `${path}/`, links)) return false;
    }
  }
  return true;
}

/** Every path of tree `oid` (see `changedPaths`) with its entry, into `out`; false as there. */
export function allPaths(
  store: ObjectStore,
  oid: string,
  budget: Budget,
  out: Map<string, TreeEntry>,
  prefix = "",
): boolean {
  const entries = treeEntries(store, oid, budget);
  if (entries === null) return false;
  for (const e of entries) {
    if (isTree(e)) {
      if (!allPaths(store, e.oid, budget, out, `${prefix}${e.name}/`)) return false;
    } else {
      out.set(prefix + e.name, e);
      if (--budget.paths < 0) return false;
    }
  }
  return true;
}

/**
 * The paths where an index's entries differ from tree `tree` (one in conflict, one only in
 * either, another object or mode), into `out` (the symlinks of `tree` among them into `links`):
 * those its cached tree differs in, where it has one. False where that is not known.
 */
export function indexChanges(
  store: ObjectStore,
  tree: string,
  index: { entries: IndexEntry[]; tree: string | null },
  budget: Budget,
  out: Set<string>,
  links?: Links,
): boolean {
  if (index.tree !== null) return changedPaths(store, index.tree, tree, budget, out, "", links);
  const files = new Map<string, TreeEntry>();
  if (!allPaths(store, tree, budget, files)) return false;
  for (const e of index.entries) {
    const f = files.get(e.path);
    if (e.stage !== 0 || f?.oid !== e.oid || f.mode !== e.mode) {
      out.add(e.path);
      if (links && isLink(f)) links.set(e.path, f!.oid);
    }
    files.delete(e.path);
  }
  for (const [path, f] of files) {
    out.add(path);
    if (links && isLink(f)) links.set(path, f.oid);
  }
  return out.size <= budget.paths;
}
