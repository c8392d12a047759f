/**
 * What git tracks in a work tree, as its index lists it: the paths `git diff`, `git log -p` and
 * `git grep` show the content of. The index (`.git/index`, gitformat-index(5)) is read through
 * the engine's FsFacts (bounded, and parsed once per array `readBytes` hands back), in versions 2,
 * 3 and 4 (whose names are prefix-compressed), with SHA-1 or SHA-256 object names. What cannot be
 * read so (no index, a larger one, a split or sparse index, bytes that do not parse) is null: the
 * caller then looks at the files there are.
 *
 * @example
 * ```ts
 * import { indexPaths } from "./git_index.ts";
 * indexPaths(new Uint8Array(0)); // null: no index
 * ```
 *
 * @module
 */
import { relative, resolve } from "node:path";
import type { FsFacts } from "../types.ts";

/** The largest index read (about 80,000 paths): a larger one is not read. */
export const INDEX_LIMIT = 8 * 1024 * 1024;

/** The bytes of an entry before its name: stat data (40), the object name, the flags (2). */
const STAT_BYTES = 40;

/** An index parsed: its paths, where each entry starts, and its object names' length. */
interface Parsed {
  paths: readonly string[];
  starts: number[];
  hash: number;
  /** The tree its cache (the `TREE` extension) holds for the whole work tree, where valid. */
  tree: string | null;
}

const parsed = new WeakMap<Uint8Array, Parsed | null>();

/** An index's bytes parsed (see `indexPaths`), once per array. */
function parsedIndex(bytes: Uint8Array): Parsed | null {
  let p = parsed.get(bytes);
  if (p === undefined) {
    // (The object names' length is the repository's: SHA-1, else SHA-256. The wrong one does
    // not parse to the checksum at the end.)
    p = parse(bytes, 20) ?? parse(bytes, 32);
    parsed.set(bytes, p);
  }
  return p;
}

/**
 * The paths an index lists (relative to the work tree's top, in the index's order; a path with
 * conflicts is listed once per stage), or null where the bytes are no index this reads: a split
 * index (its `link` extension: the rest is in another file), a sparse one (directories stand for
 * what is below them), another version, bytes that do not parse to the end.
 */
export function indexPaths(bytes: Uint8Array): readonly string[] | null {
  return parsedIndex(bytes)?.paths ?? null;
}

/**
 * An entry of the index: its path, mode, object name (hex) and stage (0 unless in conflict), and
 * whether it is marked skip-worktree (a sparse checkout's: its file is not in the work tree).
 */
export interface IndexEntry {
  path: string;
  mode: number;
  oid: string;
  stage: number;
  skip?: boolean;
}

/**
 * The entries of a SHA-1 index (see `indexPaths`) and the tree its cache holds for the whole
 * work tree (null where it is not valid), or null.
 */
export function indexEntries(
  bytes: Uint8Array,
): { entries: IndexEntry[]; tree: string | null } | null {
  const p = parsedIndex(bytes);
  if (p === null || p.hash !== 20) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = p.paths.map((path, n) => {
    const at = p.starts[n];
    let oid = "";
    for (let i = at + STAT_BYTES; i < at + STAT_BYTES + 20; i++) {
      oid += bytes[i].toString(16).padStart(2, "0");
    }
    const flags = view.getUint16(at + STAT_BYTES + 20);
    const stage = (flags >> 12) & 3;
    const entry: IndexEntry = { path, mode: view.getUint32(at + 24), oid, stage };
    // (The extended flags, version 3 on: skip-worktree.)
    if (flags & 0x4000 && view.getUint16(at + STAT_BYTES + 22) & 0x4000) entry.skip = true;
    return entry;
  });
  return { entries, tree: p.tree };
}

/**
 * The stat data an index keeps of each entry, in `indexEntries`' order: ctime and mtime (seconds,
 * nanoseconds), dev, ino, mode, uid, gid, size (each 32 bits, as git truncates them); or null.
 */
export function indexStats(bytes: Uint8Array): number[][] | null {
  const p = parsedIndex(bytes);
  if (p === null) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return p.starts.map((at) => Array.from({ length: 10 }, (_, i) => view.getUint32(at + 4 * i)));
}

/** The paths of an index whose object names are `hash` bytes long, or null. */
function parse(b: Uint8Array, hash: number): Parsed | null {
  const end = b.length - hash; // (the checksum)
  if (end < 12 || b[0] !== 0x44 || b[1] !== 0x49 || b[2] !== 0x52 || b[3] !== 0x43) return null;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const version = view.getUint32(4);
  if (version < 2 || version > 4) return null;
  const count = view.getUint32(8);
  const decoder = new TextDecoder();
  const out: string[] = [];
  const starts: number[] = [];
  let previous: Uint8Array = new Uint8Array(0);
  let o = 12;
  for (let n = 0; n < count; n++) {
    const start = o;
    if (o + STAT_BYTES + hash + 2 > end) return null;
    const mode = view.getUint32(o + 24);
    const flags = view.getUint16(o + STAT_BYTES + hash);
    o += STAT_BYTES + hash + 2;
    if (flags & 0x4000) {
      if (version < 3) return null;
      o += 2; // (the extended flags)
    }
    // (A sparse index's directory stands for the paths below it, not listed.)
    if ((mode & 0o170000) === 0o040000) return null;
    let name: Uint8Array;
    if (version === 4) {
      // A varint (gitformat-index(5)): how many bytes of the previous name to drop, then the
      // rest of this one up to a NUL.
      if (o >= end) return null;
      let c = b[o++];
      let strip = c & 127;
      while (c & 128) {
        if (o >= end || strip > 0xffffff) return null;
        c = b[o++];
        strip = (strip + 1) * 128 + (c & 127);
      }
      const nul = b.indexOf(0, o);
      if (nul < 0 || nul >= end || strip > previous.length) return null;
      const rest = b.subarray(o, nul);
      name = new Uint8Array(previous.length - strip + rest.length);
      name.set(previous.subarray(0, previous.length - strip));
      name.set(rest, previous.length - strip);
      o = nul + 1;
    } else {
      const length = flags & 0xfff;
      const nul = length < 0xfff ? o + length : b.indexOf(0, o);
      if (nul < 0 || nul >= end || b[nul] !== 0) return null;
      name = b.subarray(o, nul);
      // (Padded with one to eight NULs to a multiple of eight bytes.)
      o = start + ((nul - start + 8) & ~7);
      if (o > end) return null;
      for (let i = nul; i < o; i++) if (b[i] !== 0) return null;
    }
    if (name.length === 0) return null;
    out.push(decoder.decode(name));
    starts.push(start);
    previous = name;
  }
  // Extensions: a signature and a size each, up to the checksum.
  let tree: string | null = null;
  while (o < end) {
    if (o + 8 > end) return null;
    const signature = String.fromCharCode(b[o], b[o + 1], b[o + 2], b[o + 3]);
    if (signature === "link" || signature === "sdir") return null;
    if (signature === "TREE") tree = cachedTree(b, o + 8, hash);
    o += 8 + view.getUint32(o + 4);
  }
  return o === end ? { paths: out, starts, hash, tree } : null;
}

/**
 * The tree the cache-tree extension at `o` holds for the whole work tree (its first entry: an
 * empty path, a NUL, the count of entries it covers, a space, its subtrees, a newline, then the
 * name where the count is not negative), or null.
 */
function cachedTree(b: Uint8Array, o: number, hash: number): string | null {
  if (b[o] !== 0) return null;
  const nl = b.indexOf(10, o);
  if (nl < 0 || nl - o > 32) return null;
  const count = new TextDecoder().decode(b.subarray(o + 1, nl)).split(" ")[0];
  if (!/^\d+$/.test(count) || nl + 1 + hash > b.length) return null;
  let oid = "";
  for (let i = nl + 1; i < nl + 1 + hash; i++) oid += b[i].toString(16).padStart(2, "0");
  return oid;
}

/**
 * The paths the index of the repository at `gitDir` lists (see `gitDirOf`); null where it cannot
 * be read (see `indexPaths`), an empty list where the repository has none yet.
 */
export function trackedPaths(gitDir: string, fs: FsFacts): readonly string[] | null {
  const file = `${gitDir}/index`;
  const bytes = fs.readBytes?.(file, INDEX_LIMIT) ?? null;
  if (bytes === null) {
    // (A repository with nothing added yet has no index: nothing is tracked.)
    return !fs.exists(file) && fs.exists(`${gitDir}/HEAD`) ? [] : null;
  }
  return indexPaths(bytes);
}

/**
 * The directory of the repository of the work tree whose top is `top`: its `.git`, or the one a
 * `.git` file names (`gitdir: …`: a linked work tree, a submodule); null where that cannot be read.
 */
export function gitDirOf(top: string, fs: FsFacts): string | null {
  const dotGit = `${top === "/" ? "" : top}/.git`;
  if (fs.isDirectory?.(dotGit) === true) return dotGit;
  const m = /^gitdir: *(.+?) *$/m.exec(fs.readText?.(dotGit, 4096) ?? "");
  return m ? resolve(top, m[1]) : null;
}

const below = new WeakMap<readonly string[], Map<string, readonly string[]>>();

const answers = new WeakMap<readonly string[], Map<RegExp, boolean>[]>();

/**
 * Whether a name of a tracked path below `prefix` (see `trackedNames`) matches `name` (a
 * protected path glob's last name; each name lower-cased first where `folded`), answered once
 * per index.
 */
export function trackedName(
  paths: readonly string[],
  prefix: string,
  name: RegExp,
  folded: boolean,
): boolean {
  const names = trackedNames(paths, prefix);
  let known = answers.get(names);
  if (!known) answers.set(names, known = [new Map(), new Map()]);
  const byName = known[folded ? 1 : 0];
  let found = byName.get(name);
  if (found === undefined) {
    found = names.some((n) => name.test(folded ? n.toLowerCase() : n));
    byName.set(name, found);
  }
  return found;
}

/**
 * The names (path components) of the tracked paths below `prefix` (`""`: all of them, else
 * `dir/`), each once: what a path glob's last name is looked for among.
 */
export function trackedNames(paths: readonly string[], prefix: string): readonly string[] {
  let byPrefix = below.get(paths);
  if (!byPrefix) below.set(paths, byPrefix = new Map());
  let names = byPrefix.get(prefix);
  if (names === undefined) {
    const found = new Set<string>();
    for (const p of paths) {
      if (!p.startsWith(prefix)) continue;
      for (const name of p.slice(prefix.length).split("/")) found.add(name);
    }
    byPrefix.set(prefix, names = [...found]);
  }
  return names;
}

/** The most paths `prefixedPaths` gives (a larger index: the names are not known). */
const PREFIXED_LIMIT = 20000;

/**
 * The files `git checkout-index -a --prefix=PREFIX` writes run in `cwd` (see `NamedFile.indexed`):
 * PREFIX put before each path the index lists below the cwd, from the work tree's top, where git
 * runs; null where that is not known (no work tree, an index that cannot be read or that another
 * stage may change first: `settled` answers for the repository's directory).
 */
export function prefixedPaths(
  prefix: string,
  cwd: string,
  fs: FsFacts,
  settled: (gitDir: string) => boolean,
): string[] | null {
  const top = workTreeTop(cwd, fs);
  const gitDir = top === null ? null : gitDirOf(top, fs);
  if (gitDir === null || !settled(gitDir)) return null;
  const paths = trackedPaths(gitDir, fs);
  if (paths === null || paths.length > PREFIXED_LIMIT) return null;
  const below = cwd === top ? "" : `${relative(top!, cwd)}/`;
  const out = new Set<string>();
  for (const p of paths) if (p.startsWith(below)) out.add(resolve(top!, prefix + p));
  return [...out];
}

/**
 * The files `git checkout-index -a --prefix=PREFIX` writes run in `cwds` (see `prefixedPaths`);
 * where those are not known, a file not known (null) and what lies below the prefix's directory.
 */
export function prefixedFiles(
  prefix: string,
  cwds: (string | null)[],
  fs: FsFacts,
  settled: (gitDir: string) => boolean,
): { path: string | null; replaces?: true; note?: string }[] {
  const out: { path: string | null; replaces?: true; note?: string }[] = [];
  const dir = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) || "/" : ".";
  for (const c of cwds) {
    const paths = c === null ? null : prefixedPaths(prefix, c, fs, settled);
    for (const path of paths ?? []) out.push({ path });
    if (paths !== null) continue;
    out.push({ path: null, note: "a file not known" });
    if (c !== null || dir.startsWith("/")) {
      out.push({ path: resolve(c ?? "/", dir), replaces: true });
    }
  }
  return out;
}

/**
 * The top of the work tree `dir` is in (the nearest directory at or above it holding `.git`), or
 * null where there is none.
 */
export function workTreeTop(dir: string, fs: FsFacts): string | null {
  for (let d = dir, n = 0; n < 128; n++) {
    if (fs.exists(`${d === "/" ? "" : d}/.git`)) return d;
    if (d === "/") return null;
    d = d.slice(0, d.lastIndexOf("/")) || "/";
  }
  return null;
}
