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
 * `.git`, a bare `x.git`, a submodule's `.git/modules/x`, any `GIT_DIR`); a loose object or pack
 * by the shape of its name below any other directory (a store another repository's
 * `objects/info/alternates` names), whose tracked names are not known. A tree read whole holds a
 * store where it is a repository's directory or a work tree's top with a `.git` directory, or a
 * `.git` lies deeper below it (names not known).
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
import { namesBelow } from "./links_seen.ts";

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

/** A path component that may lead into a store (`objects`, `rr-cache`), else none is looked for. */
const MAY_HOLD = /\/(?:objects|rr-cache)(?:\/|$)/;

/** A loose object's or a pack's name, below any directory (SHA-1 or SHA-256). */
const OBJECT_SHAPE =
  /\/(?:[0-9a-f]{2}\/[0-9a-f]{38}(?:[0-9a-f]{24})?|pack\/pack-[0-9a-f]{40}(?:[0-9a-f]{24})?\.pack)$/;

/**
 * The store a read at `path` reaches (`whole`: a tree read all the way down, which reaches a
 * store it holds below it too), or null where it reaches none.
 */
export function storeHeld(path: string, fs: FsFacts, whole: boolean): StoreHeld | null {
  const inside = MAY_HOLD.test(path) ? storeAt(path, fs) : null;
  if (inside) return inside;
  if (OBJECT_SHAPE.test(path)) return { dir: path.slice(0, path.lastIndexOf("/")), names: null };
  if (!whole || fs.isDirectory?.(path) !== true) return null;
  if (gitDirectory(path, fs)) return repository(path, fs);
  const dotGit = `${path === "/" ? "" : path}/.git`;
  if (fs.isDirectory?.(dotGit) === true) return repository(dotGit, fs);
  // (A repository deeper below: which, and what its index lists, is not looked for.)
  const below = namesBelow(path, fs);
  return below !== null && below.includes(".git") ? { dir: path, names: null } : null;
}

/** The store `path` lies in (at or below its `objects`, `lfs/objects`, `rr-cache`), or null. */
function storeAt(path: string, fs: FsFacts): StoreHeld | null {
  for (const m of path.matchAll(/\/(?:objects|rr-cache)(?=\/|$)/g)) {
    const rest = path.slice(m.index + m[0].length);
    // (`objects/info` lists other stores and packs, no content.)
    if (m[0] === "/objects" && /^\/info(?:\/|$)/.test(rest)) continue;
    let dir = path.slice(0, m.index);
    if (m[0] === "/objects" && dir.endsWith("/lfs")) {
      const gitDir = dir.slice(0, -4);
      if (gitDirectory(gitDir, fs)) return repository(gitDir, fs);
    }
    if (dir === "") dir = "/";
    if (gitDirectory(dir, fs)) return repository(dir, fs);
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
  const dir = gitDir.endsWith("/.git") ? gitDir.slice(0, -5) || "/" : gitDir;
  const dirs = [gitDir];
  for (const e of fs.entries?.(`${gitDir}/worktrees`) ?? []) {
    if (e.dir) dirs.push(`${gitDir}/worktrees/${e.name}`);
  }
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

/** Whether a store holds no object: nothing but `info` and an empty `pack` (`git init`'s). */
function emptyStore(objects: string, fs: FsFacts): boolean {
  const list = fs.entries?.(objects);
  if (!list) return false;
  return list.every((e) =>
    e.name === "info" || (e.name === "pack" && (fs.entries?.(`${objects}/pack`)?.length ?? 1) === 0)
  );
}
