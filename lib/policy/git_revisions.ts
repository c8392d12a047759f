/**
 * Revisions of a repository resolved as git resolves them (gitrevisions(7)), for the forms an
 * agent writes: `HEAD` (`@`), a ref by its full or short name (`main`, `origin/main`, `v1.0`,
 * `refs/stash`, read from the loose refs and `packed-refs`), a full or abbreviated object name (a
 * unique prefix), `stash@{n}` (the stash's reflog), and `~n`/`^n` after any of these (`~` on first
 * parents). Tags are peeled to the commit they name. Anything else (`@{upstream}`, `:/text`, a
 * range, a date) is not known: null.
 *
 * @example
 * ```ts
 * import { openRepository, resolveCommit } from "./git_revisions.ts";
 * import { realFs } from "./fs_facts.ts";
 * const repo = openRepository("/repo", realFs());
 * repo && resolveCommit(repo, "HEAD~1"); // the commit's name, or null
 * ```
 *
 * @module
 */
import { resolve } from "node:path";
import type { FsFacts } from "../types.ts";
import { gitDirOf } from "./git_index.ts";
import { objectsStartingWith, type ObjectStore, objectStore, readObject } from "./git_objects.ts";

/** A repository's directories (its work tree's own and the common one) and its objects. */
export interface Repository {
  /** The work tree's git directory (HEAD, the index). */
  gitDir: string;
  /** The directory of refs and objects (a linked work tree's `commondir`). */
  commonDir: string;
  store: ObjectStore;
  fs: FsFacts;
}

/** A commit's tree and parents. */
export interface Commit {
  tree: string;
  parents: string[];
}

const OID = /^[0-9a-f]{40}$/;

/**
 * The repository of the work tree whose top is `top` (its `.git`, or the directory a `.git` file
 * names and that one's `commondir`), or null where its objects cannot be seen (see `objectStore`).
 */
export function openRepository(top: string, fs: FsFacts): Repository | null {
  const gitDir = gitDirOf(top, fs);
  if (gitDir === null) return null;
  const common = fs.readText?.(`${gitDir}/commondir`, 4096)?.trim();
  const commonDir = common ? resolve(gitDir, common) : gitDir;
  const store = objectStore(commonDir, fs);
  return store && { gitDir, commonDir, store, fs };
}

const packedRefs = new WeakMap<Uint8Array, Map<string, string>>();

/** The object a ref names (`HEAD`, `refs/heads/main`), following symbolic refs; or null. */
export function refValue(repo: Repository, name: string, depth = 0): string | null {
  if (depth > 5 || name.includes("..") || !/^[\w./@+-]+$/.test(name)) return null;
  // (HEAD and the other pseudo-refs are the work tree's own; refs/… are shared.)
  const own = !name.startsWith("refs/");
  const text = repo.fs.readText?.(`${own ? repo.gitDir : repo.commonDir}/${name}`, 4096);
  if (text != null) {
    const value = text.split("\n")[0].trim();
    // (`FETCH_HEAD`'s lines say more after the name.)
    const oid = /^([0-9a-f]{40})(\s|$)/.exec(value);
    if (oid) return oid[1];
    const m = /^ref: *(refs\/\S+)$/.exec(value);
    return m ? refValue(repo, m[1], depth + 1) : null;
  }
  if (own) return null;
  const bytes = repo.fs.readBytes?.(`${repo.commonDir}/packed-refs`, 16 * 1024 * 1024);
  if (!bytes) return null;
  let refs = packedRefs.get(bytes);
  if (!refs) {
    refs = new Map();
    for (const line of new TextDecoder().decode(bytes).split("\n")) {
      const m = /^([0-9a-f]{40}) (refs\/\S+)$/.exec(line);
      if (m) refs.set(m[2], m[1]);
    }
    packedRefs.set(bytes, refs);
  }
  return refs.get(name) ?? null;
}

/** A commit's tree and parents, or null where it is no commit that can be read. */
export function commitOf(repo: Repository, oid: string): Commit | null {
  const o = readObject(repo.store, oid);
  if (o?.type !== "commit") return null;
  const text = new TextDecoder().decode(o.data.subarray(0, headerEnd(o.data)));
  const tree = /^tree ([0-9a-f]{40})$/m.exec(text)?.[1];
  if (!tree) return null;
  const parents = [...text.matchAll(/^parent ([0-9a-f]{40})$/gm)].map((m) => m[1]);
  return { tree, parents };
}

/** Where an object's headers end (the first empty line). */
function headerEnd(data: Uint8Array): number {
  for (let i = 0; i + 1 < data.length; i++) if (data[i] === 10 && data[i + 1] === 10) return i;
  return data.length;
}

/** The commit an object names, tags peeled (bounded), or null. */
function peeled(repo: Repository, oid: string): string | null {
  for (let n = 0; n < 8; n++) {
    const o = readObject(repo.store, oid);
    if (o?.type === "commit") return oid;
    if (o?.type !== "tag") return null;
    const text = new TextDecoder().decode(o.data.subarray(0, headerEnd(o.data)));
    const next = /^object ([0-9a-f]{40})$/m.exec(text)?.[1];
    if (!next) return null;
    oid = next;
  }
  return null;
}

/** The object a name gives before any `~`/`^` (see the module's notes), or null. */
function named(repo: Repository, name: string): string | null {
  if (name === "HEAD" || name === "@") return refValue(repo, "HEAD");
  if (OID.test(name)) return name;
  const stash = /^(?:refs\/)?stash@\{(\d+)\}$/.exec(name);
  if (stash) return reflogEntry(repo, "refs/stash", Number(stash[1]));
  if (/[@{}:\\]|\.lock$/.test(name) || name.startsWith("-")) return null;
  for (const full of [name, `refs/${name}`, `refs/tags/${name}`, `refs/heads/${name}`]) {
    if (!full.startsWith("refs/") && !/^[A-Z_]+$/.test(full)) continue;
    const v = refValue(repo, full);
    if (v) return v;
  }
  for (const full of [`refs/remotes/${name}`, `refs/remotes/${name}/HEAD`]) {
    const v = refValue(repo, full);
    if (v) return v;
  }
  if (/^[0-9a-f]{4,39}$/.test(name)) {
    const found = objectsStartingWith(repo.store, name);
    return found?.length === 1 ? found[0] : null;
  }
  return null;
}

/** The `n`th newest entry of a ref's reflog (`stash@{1}`), or null. */
function reflogEntry(repo: Repository, ref: string, n: number): string | null {
  if (n === 0) return refValue(repo, ref);
  const text = repo.fs.readText?.(`${repo.commonDir}/logs/${ref}`, 4 * 1024 * 1024);
  const lines = text?.split("\n").filter((l) => l.trim()) ?? [];
  const line = lines[lines.length - 1 - n];
  const m = line && /^[0-9a-f]{40} ([0-9a-f]{40}) /.exec(line);
  return m ? m[1] : null;
}

/**
 * The commit a revision names (see the module's notes), or null where that is not known: a form
 * not read here, a name that is not there, an object that cannot be read.
 */
export function resolveCommit(repo: Repository, rev: string): string | null {
  const m = /^(.*?)((?:[~^]\d*)*)$/.exec(rev);
  if (!m || m[1] === "") return null;
  let oid = named(repo, m[1]);
  oid = oid && peeled(repo, oid);
  for (const step of m[2].match(/[~^]\d*/g) ?? []) {
    if (oid === null) return null;
    const count = step.length > 1 ? Number(step.slice(1)) : 1;
    if (count > 10000) return null;
    if (step[0] === "~") {
      for (let i = 0; i < count && oid !== null; i++) oid = commitOf(repo, oid)?.parents[0] ?? null;
    } else if (count > 0) oid = commitOf(repo, oid)?.parents[count - 1] ?? null;
  }
  return oid;
}

/** The tree a revision names: a commit's (see `resolveCommit`), or a tree named itself; or null. */
export function resolveTree(repo: Repository, rev: string): string | null {
  const commit = resolveCommit(repo, rev);
  if (commit !== null) return commitOf(repo, commit)?.tree ?? null;
  const oid = /^[0-9a-f]{4,40}$/.test(rev) ? named(repo, rev) : null;
  return oid !== null && readObject(repo.store, oid)?.type === "tree" ? oid : null;
}
