/**
 * A repository's object store read as files (`cat .git/objects/b6/8fde…`, `base64
 * .git/objects/pack/pack-….pack`, `tar czf o.tgz .git`, `zip -r o.zip .`): its loose objects and
 * packs hold the content of every file the repository tracked, a protected file's too, under
 * names of their own. What such a read reaches is what `git cat-file -p` shows of the store (see
 * `repositoryProtection`): the tracked files, known by the names of the paths the repository's
 * indexes list. This is the one home of that rule: the protection of a target read there
 * (protect_target.ts) and the names a copied tree holding a store lands (landing_names.ts) ask it.
 *
 * A store is found by its path, whatever the spelling (the caller gives it absolute, `..` and
 * `//` taken off, and as symlinks resolve): `objects` (`lfs/objects`, git-lfs's copies of the
 * files; `rr-cache`, rerere's preimages) right below a directory holding `HEAD` (a work tree's
 * `.git`, a bare `x.git`, a submodule's `.git/modules/x`, any `GIT_DIR`), and its `lost-found`
 * (the dangling blobs `git fsck --lost-found` writes out: in no index, any name); a loose object
 * or pack by the shape of its name below any other directory (a store another repository's
 * `objects/info/alternates` names, the `BASE-<hash>.pack` `git pack-objects BASE` writes), whose
 * tracked names are not known. A pack's index and the like hold hashes alone. A tree read whole
 * holds a store where it is a repository's directory or a work tree's top with a `.git`
 * directory, and those its walk finds deeper below (`storesBelow`: a bare clone, a nested `.git`,
 * loose objects or packs anywhere), within the walk's bounds.
 *
 * @example
 * ```ts
 * import { storeHeld } from "./object_store.ts";
 * import { ctxIn } from "../testing.ts";
 * storeHeld("/p/src/main.ts", ctxIn("/p", { files: ["/p/src/main.ts"] }).fs, false); // null
 * ```
 *
 * @module
 */
import type { FsFacts } from "../types.ts";
import { trackedNames, trackedPaths } from "./git_index.ts";

/** What a read reaches of the store(s) it meets (see `storeHeld`). */
export interface StoreHeld {
  /**
   * Where the store's files are judged as lying (a path glob below it counts): the work tree's
   * top for a `.git`, else the repository's directory (or the tree read).
   */
  dir: string;
  /** The names (path components) of what the store holds, as its indexes list; null: any. */
  names: readonly string[] | null;
}

/** A path component that may lead into a store (`objects`, `rr-cache`, `lost-found`), else none is looked for. */
const MAY_HOLD = /\/(?:objects|rr-cache|lost-found)(?:\/|$)/;

/**
 * A loose object's name (SHA-1 or SHA-256) below any directory, or a pack's: `pack-<hash>.pack`,
 * and the `BASE-<hash>.pack` `git pack-objects BASE` writes.
 */
const OBJECT_SHAPE =
  /\/(?:[0-9a-f]{2}\/[0-9a-f]{38}(?:[0-9a-f]{24})?|(?:[^/]*-)?[0-9a-f]{40}(?:[0-9a-f]{24})?\.pack)$/;

/** What a store's `objects` holds of no content: a pack's index and the like (hashes, offsets). */
const NO_CONTENT =
  /^\/(?:info(?:\/|$)|pack\/(?:[^/]*\.(?:idx|rev|bitmap|mtimes|keep|promisor)|multi-pack-index[^/]*)$)/;

/**
 * The store a read at `path` reaches (`whole`: a tree read all the way down, which reaches a
 * store it holds below it too), or null where it reaches none.
 */
export function storeHeld(path: string, fs: FsFacts, whole: boolean): StoreHeld | null {
  const inside = MAY_HOLD.test(path) ? storeAt(path, fs) : null;
  if (inside) return inside;
  if (OBJECT_SHAPE.test(path)) return { dir: path.slice(0, path.lastIndexOf("/")), names: null };
  if (!whole || fs.isDirectory?.(path) !== true) return null;
  const own = gitDirectory(path, fs)
    ? repository(path, fs)
    : fs.isDirectory?.(`${path === "/" ? "" : path}/.git`) === true
    ? repository(`${path === "/" ? "" : path}/.git`, fs)
    : null;
  // (A tree larger than the walk's bounds: its own store alone, the ones deeper not known.)
  const below = storesBelow(path, fs);
  if (below === null || below.length === 0) return own;
  const names = new Set(own?.names ?? []);
  for (const held of [own, ...below]) {
    if (held === null) continue;
    if (held.names === null) return { dir: own?.dir ?? path, names: null };
    for (const n of held.names) names.add(n);
  }
  return { dir: own?.dir ?? path, names: [...names] };
}

/** Directories a walk for stores lists at most (as a walk for names, `namesBelow`). */
const STORE_LISTINGS = 64;

/** Trees walked for stores in this decision, by the decision's memo. */
const walked = new WeakMap<FsFacts, Map<string, readonly StoreHeld[] | null>>();

/**
 * The stores below a tree (not the tree itself, nor its own `.git`): a repository's directory
 * (`HEAD` and `objects` in it: a bare clone, a nested work tree's `.git`, a submodule's), not
 * walked into; a loose object or a pack by the shape of its name anywhere else (what is left of a
 * store: one another repository's `objects/info/alternates` names, a pack `pack-objects` wrote),
 * whose names are not known. Null when the tree is larger than the walk's bounds or a directory
 * in it cannot be listed. Once per tree in a decision (`fs` is the decision's memo).
 */
function storesBelow(dir: string, fs: FsFacts): readonly StoreHeld[] | null {
  let trees = walked.get(fs);
  if (!trees) walked.set(fs, trees = new Map());
  if (trees.has(dir)) return trees.get(dir)!;
  let found: StoreHeld[] | null = fs.entries ? [] : null;
  const queue = [dir];
  for (let at = 0; found !== null && at < queue.length; at++) {
    const here = queue[at];
    const listing = fs.entries!(here);
    if (!listing) {
      found = null;
      break;
    }
    const base = here === "/" ? "/" : here + "/";
    if (at > 0 && listing.some((e) => e.name === "HEAD") && gitDirectory(here, fs)) {
      found.push(repository(here, fs));
      continue;
    }
    // (The tree's own store is the caller's: its `.git`, or its `objects` where it is one.)
    const own = at > 0 ? "" : gitDirectory(here, fs) ? "objects" : ".git";
    for (const e of listing) {
      if (e.dir && e.name !== own) queue.push(base + e.name);
      else if (!e.dir && OBJECT_SHAPE.test(base + e.name)) found.push({ dir, names: null });
    }
    if (queue.length > STORE_LISTINGS) found = null;
  }
  trees.set(dir, found);
  return found;
}

/**
 * The store `path` lies in (at or below its `objects`, `lfs/objects`, `rr-cache`; `lost-found`,
 * the dangling objects `git fsck --lost-found` wrote out, whose names no index lists), or null.
 */
function storeAt(path: string, fs: FsFacts): StoreHeld | null {
  for (const m of path.matchAll(/\/(?:objects|rr-cache|lost-found)(?=\/|$)/g)) {
    const rest = path.slice(m.index + m[0].length);
    // (`objects/info` lists other stores and packs, a pack's index its objects' hashes;
    // `lost-found/commit` holds the names of commits.)
    if (m[0] === "/objects" && NO_CONTENT.test(rest)) continue;
    if (m[0] === "/lost-found" && /^\/commit(?:\/|$)/.test(rest)) continue;
    let dir = path.slice(0, m.index);
    if (m[0] === "/objects" && dir.endsWith("/lfs")) {
      const gitDir = dir.slice(0, -4);
      if (gitDirectory(gitDir, fs)) return repository(gitDir, fs);
    }
    if (dir === "") dir = "/";
    if (!gitDirectory(dir, fs)) continue;
    if (m[0] === "/lost-found") return { dir: topOf(dir), names: null };
    return repository(dir, fs);
  }
  return null;
}

/** Whether `dir` is a repository's directory: `HEAD` and `objects` in it. */
function gitDirectory(dir: string, fs: FsFacts): boolean {
  const at = dir === "/" ? "" : dir;
  return fs.exists(`${at}/HEAD`) && fs.isDirectory?.(`${at}/objects`) === true;
}

/**
 * What the store of the repository at `gitDir` holds: the names of the paths its indexes list
 * (its own and its linked work trees', `worktrees/*`); null where one cannot be read, or where
 * there is none (a bare repository) and the store is not empty.
 */
function repository(gitDir: string, fs: FsFacts): StoreHeld {
  const dir = topOf(gitDir);
  const dirs = [gitDir];
  for (const e of fs.entries?.(`${gitDir}/worktrees`) ?? []) {
    if (e.dir) dirs.push(`${gitDir}/worktrees/${e.name}`);
  }
  // (What `git fsck --lost-found` wrote out: dangling blobs, in no index.)
  if (fs.entries?.(`${gitDir}/lost-found/other`)?.length) return { dir, names: null };
  const names = new Set<string>();
  let indexes = 0;
  for (const d of dirs) {
    if (!fs.exists(`${d}/index`)) continue;
    const paths = trackedPaths(d, fs);
    if (paths === null) return { dir, names: null };
    indexes++;
    for (const n of trackedNames(paths, "")) names.add(n);
  }
  if (indexes === 0 && !emptyStore(`${gitDir}/objects`, fs)) return { dir, names: null };
  return { dir, names: [...names] };
}

/** Where a repository's files are judged as lying: a `.git`'s work tree top, else itself. */
function topOf(gitDir: string): string {
  return gitDir.endsWith("/.git") ? gitDir.slice(0, -5) || "/" : gitDir;
}

/** Whether a store holds no object: nothing but `info` and an empty `pack` (`git init`'s). */
function emptyStore(objects: string, fs: FsFacts): boolean {
  const list = fs.entries?.(objects);
  if (!list) return false;
  return list.every((e) =>
    e.name === "info" || (e.name === "pack" && (fs.entries?.(`${objects}/pack`)?.length ?? 1) === 0)
  );
}
