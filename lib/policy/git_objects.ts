/**
 * A repository's objects as git stores them (gitformat-pack(5)): loose objects (`objects/xx/…`,
 * zlib), and packed ones found through a pack's `.idx` (version 2), their deltas (`OFS_DELTA`,
 * `REF_DELTA`) resolved to a bounded depth. Read through the engine's FsFacts: an index whole
 * (`readBytes`, parsed once per array it hands back, which it keeps while the file's stamp stays
 * the same), a packed object by its piece of the pack (`readAt`). What cannot be read so is not
 * known (null): objects in another repository (`objects/info/alternates`), a partial clone's
 * missing ones (promisor packs), a SHA-256 repository, a reftable, an object larger than the
 * bound, a delta deeper than it.
 *
 * @example
 * ```ts
 * import { objectStore, readObject } from "./git_objects.ts";
 * import { realFs } from "./fs_facts.ts";
 * const store = objectStore("/repo/.git", realFs());
 * store && readObject(store, "4b825dc642cb6eb9a060e54bf8d69288fbee4904"); // a tree, or null
 * ```
 *
 * @module
 */
import { inflateSync } from "node:zlib";
import type { FsFacts } from "../types.ts";

/** The largest object read (its inflated size), and the largest loose object file. */
export const OBJECT_LIMIT = 8 * 1024 * 1024;
/** The largest pack index read (about 2.3 million objects). */
const INDEX_LIMIT = 64 * 1024 * 1024;
/** The longest chain of deltas followed (git's own default is 50). */
const DELTA_DEPTH = 64;

/** An object's type and content. */
export interface GitObject {
  type: "commit" | "tree" | "blob" | "tag";
  data: Uint8Array;
}

/** One pack: its files and its parsed index. */
interface Pack {
  pack: string;
  index: PackIndex;
}

/** A pack's `.idx` (version 2), parsed. */
interface PackIndex {
  bytes: Uint8Array;
  view: DataView;
  count: number;
  /** The offsets of its objects in the pack, ascending (made when first asked). */
  sorted?: Float64Array;
}

/** The objects of one repository, as read during one decision (see `objectStore`). */
export interface ObjectStore {
  objects: string;
  fs: FsFacts;
  /** Its packs (undefined: not listed yet; null: they cannot be read). */
  packs?: Pack[] | null;
  known: Map<string, GitObject | null>;
}

const TYPES = [null, "commit", "tree", "blob", "tag"] as const;

/**
 * The object store of the repository whose common directory is `gitDir`, or null where its
 * objects cannot all be seen here (another repository's, missing ones, SHA-256 names, a reftable:
 * its config says so).
 */
export function objectStore(gitDir: string, fs: FsFacts): ObjectStore | null {
  const config = fs.readText?.(`${gitDir}/config`, 256 * 1024);
  if (config == null) return null;
  if (/^\s*(objectformat|compatobjectformat|partialclone|refstorage)\s*=/im.test(config)) {
    return null;
  }
  const objects = `${gitDir}/objects`;
  if (fs.exists(`${objects}/info/alternates`) || replacesObjects(gitDir, fs)) return null;
  return { objects, fs, known: new Map() };
}

/**
 * The environment that has git read objects other than its repository's as stored
 * (git(1): another object directory or alternates, replace refs under another name, a graft
 * file): where a command sets one, its objects are not known.
 */
export const OBJECTS_ENV = [
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_REPLACE_REF_BASE",
  "GIT_GRAFT_FILE",
];

/** `packed-refs` texts by their bytes: whether they hold a replace ref. */
const packedReplaces = new WeakMap<Uint8Array, boolean>();

/**
 * Whether git reads some objects of the repository as others (git-replace(1): a ref under
 * `refs/replace/` names an object git shows in place of another, in every command that does not
 * turn them off; a `info/grafts` file gives commits other parents): then what a checkout writes,
 * read from the objects as stored, is not what git writes. A replace ref that cannot be ruled
 * out (a `packed-refs` too large to read) counts.
 */
function replacesObjects(gitDir: string, fs: FsFacts): boolean {
  if (fs.exists(`${gitDir}/info/grafts`)) return true;
  const replace = `${gitDir}/refs/replace`;
  // (A directory that cannot be listed may hold some.)
  const loose = fs.entries?.(replace) ?? (fs.exists(replace) ? null : []);
  if (loose === null || loose.length) return true;
  const packed = `${gitDir}/packed-refs`;
  if (!fs.exists(packed)) return false;
  const bytes = fs.readBytes?.(packed, 16 * 1024 * 1024);
  if (!bytes) return true;
  let found = packedReplaces.get(bytes);
  if (found === undefined) {
    found = /^[0-9a-f]{40,64} refs\/replace\//m.test(new TextDecoder().decode(bytes));
    packedReplaces.set(bytes, found);
  }
  return found;
}

/** The object named `oid` (40 hex digits), or null where it cannot be read. */
export function readObject(store: ObjectStore, oid: string): GitObject | null {
  return readAt(store, oid, 0);
}

function readAt(store: ObjectStore, oid: string, depth: number): GitObject | null {
  let found = store.known.get(oid);
  if (found !== undefined) return found;
  found = looseObject(store, oid);
  if (found === null) {
    for (const p of packsOf(store) ?? []) {
      const at = findOffset(p.index, oid);
      if (at === null) continue;
      found = packedObject(store, p, at, depth);
      break;
    }
  }
  store.known.set(oid, found);
  return found;
}

/** A loose object, or null. */
function looseObject(store: ObjectStore, oid: string): GitObject | null {
  if (!/^[0-9a-f]{40}$/.test(oid)) return null;
  // (Read as a piece, not kept: the files FsFacts keeps are the indexes.)
  const file = `${store.objects}/${oid.slice(0, 2)}/${oid.slice(2)}`;
  const bytes = store.fs.readAt?.(file, 0, OBJECT_LIMIT + 1);
  if (!bytes || bytes.length > OBJECT_LIMIT) return null;
  const raw = inflated(bytes);
  if (raw === null) return null;
  const nul = raw.indexOf(0);
  if (nul < 0 || nul > 32) return null;
  const [type, size] = new TextDecoder().decode(raw.subarray(0, nul)).split(" ");
  const t = TYPES.find((n) => n === type);
  if (!t || Number(size) !== raw.length - nul - 1) return null;
  return { type: t, data: raw.subarray(nul + 1) };
}

/** zlib's inflation of `bytes` (what follows the stream ignored), or null. */
function inflated(bytes: Uint8Array): Uint8Array | null {
  try {
    return new Uint8Array(inflateSync(bytes, { maxOutputLength: OBJECT_LIMIT + 64 }));
  } catch {
    return null;
  }
}

const indexes = new WeakMap<Uint8Array, PackIndex | null>();

/** The packs of a store, or null where one cannot be read (or a partial clone's). */
function packsOf(store: ObjectStore): Pack[] | null {
  if (store.packs !== undefined) return store.packs;
  const dir = `${store.objects}/pack`;
  const names = store.fs.entries?.(dir)?.map((e) => e.name) ?? [];
  if (!store.fs.entries && store.fs.exists(dir)) return store.packs = null;
  const packs: Pack[] = [];
  for (const name of names) {
    if (name.endsWith(".promisor")) return store.packs = null;
    if (!name.endsWith(".idx")) continue;
    const bytes = store.fs.readBytes?.(`${dir}/${name}`, INDEX_LIMIT) ?? null;
    if (bytes === null) return store.packs = null;
    let index = indexes.get(bytes);
    if (index === undefined) indexes.set(bytes, index = parseIndex(bytes));
    if (index === null) return store.packs = null;
    packs.push({ pack: `${dir}/${name.slice(0, -4)}.pack`, index });
  }
  return store.packs = packs;
}

/** A version 2 pack index, or null. */
function parseIndex(bytes: Uint8Array): PackIndex | null {
  if (bytes.length < 8 + 1024 + 40) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0) !== 0xff744f63 || view.getUint32(4) !== 2) return null;
  const count = view.getUint32(8 + 255 * 4);
  // (Names, checksums, 4-byte offsets, then the 8-byte ones, then two checksums.)
  if (bytes.length < 8 + 1024 + count * 28 + 40) return null;
  return { bytes, view, count };
}

/** The first index of names at or after `oid`'s bytes, within its fan-out bucket. */
function lowerBound(index: PackIndex, want: Uint8Array): [number, number] {
  const { view, bytes } = index;
  let lo = want[0] === 0 ? 0 : view.getUint32(8 + (want[0] - 1) * 4);
  const hi = view.getUint32(8 + want[0] * 4);
  let top = hi;
  while (lo < top) {
    const mid = (lo + top) >>> 1;
    if (compare(bytes, 8 + 1024 + mid * 20, want) < 0) lo = mid + 1;
    else top = mid;
  }
  return [lo, hi];
}

/** How the name at `at` compares to `want` over `want`'s length. */
function compare(bytes: Uint8Array, at: number, want: Uint8Array): number {
  for (let i = 0; i < want.length; i++) {
    const d = bytes[at + i] - want[i];
    if (d !== 0) return d;
  }
  return 0;
}

/** The bytes of a hex string of even length. */
function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Hex digits of `length` bytes at `at`. */
export function hexAt(bytes: Uint8Array, at: number, length = 20): string {
  let s = "";
  for (let i = at; i < at + length; i++) s += bytes[i].toString(16).padStart(2, "0");
  return s;
}

/** The offset in the pack of object `oid`, or null where the index does not list it. */
function findOffset(index: PackIndex, oid: string): number | null {
  const want = hexBytes(oid);
  const [at, hi] = lowerBound(index, want);
  if (at >= hi || compare(index.bytes, 8 + 1024 + at * 20, want) !== 0) return null;
  return offsetOf(index, at);
}

/** The pack offset of the index's `n`th object (a large one through the 8-byte table). */
function offsetOf(index: PackIndex, n: number): number {
  const { view, count } = index;
  const small = view.getUint32(8 + 1024 + count * 24 + n * 4);
  if (!(small & 0x80000000)) return small;
  const at = 8 + 1024 + count * 28 + (small & 0x7fffffff) * 8;
  return view.getUint32(at) * 2 ** 32 + view.getUint32(at + 4);
}

/** Where the object at `offset` ends in the pack (the next one's offset), or null: the last. */
function endOf(index: PackIndex, offset: number): number | null {
  if (!index.sorted) {
    const sorted = new Float64Array(index.count);
    for (let n = 0; n < index.count; n++) sorted[n] = offsetOf(index, n);
    index.sorted = sorted.sort();
  }
  const s = index.sorted;
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s[mid] <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo < s.length ? s[lo] : null;
}

/** The object at `offset` of a pack, its deltas applied, or null. */
function packedObject(
  store: ObjectStore,
  p: Pack,
  offset: number,
  depth: number,
): GitObject | null {
  if (depth > DELTA_DEPTH) return null;
  const end = endOf(p.index, offset);
  const length = Math.min(end === null ? OBJECT_LIMIT + 64 : end - offset, OBJECT_LIMIT + 64);
  const b = store.fs.readAt?.(p.pack, offset, length) ?? null;
  if (b === null || b.length < 2) return null;
  let i = 0;
  let c = b[i++];
  const type = (c >> 4) & 7;
  let size = c & 15;
  for (let shift = 4; c & 128; shift += 7) {
    if (i >= b.length || shift > 35) return null;
    c = b[i++];
    size += (c & 127) * 2 ** shift;
  }
  if (size > OBJECT_LIMIT) return null;
  if (type >= 1 && type <= 4) {
    const data = inflated(b.subarray(i));
    return data && data.length === size ? { type: TYPES[type]!, data } : null;
  }
  let base: GitObject | null;
  if (type === 6) {
    // OFS_DELTA: the base's offset back from this one, big-endian base-128 with a bias.
    c = b[i++];
    let back = c & 127;
    while (c & 128) {
      if (i >= b.length) return null;
      c = b[i++];
      back = (back + 1) * 128 + (c & 127);
    }
    if (back <= 0 || back > offset) return null;
    base = packedObject(store, p, offset - back, depth + 1);
  } else if (type === 7) {
    if (i + 20 > b.length) return null;
    base = readAt(store, hexAt(b, i), depth + 1);
    i += 20;
  } else return null;
  const delta = base && inflated(b.subarray(i));
  return delta ? applyDelta(base!, delta) : null;
}

/** A delta applied to its base (gitformat-pack(5): copies from the base and new bytes). */
function applyDelta(base: GitObject, delta: Uint8Array): GitObject | null {
  let i = 0;
  const varint = () => {
    let n = 0;
    for (let shift = 0;; shift += 7) {
      if (i >= delta.length || shift > 35) return -1;
      const c = delta[i++];
      n += (c & 127) * 2 ** shift;
      if (!(c & 128)) return n;
    }
  };
  if (varint() !== base.data.length) return null;
  const size = varint();
  if (size < 0 || size > OBJECT_LIMIT) return null;
  const out = new Uint8Array(size);
  let o = 0;
  while (i < delta.length) {
    const op = delta[i++];
    if (op & 128) {
      let from = 0;
      let n = 0;
      for (let k = 0; k < 4; k++) if (op & (1 << k)) from |= delta[i++] << (8 * k);
      for (let k = 0; k < 3; k++) if (op & (16 << k)) n |= delta[i++] << (8 * k);
      from >>>= 0;
      if (n === 0) n = 0x10000;
      if (from + n > base.data.length || o + n > size) return null;
      out.set(base.data.subarray(from, from + n), o);
      o += n;
    } else if (op > 0) {
      if (i + op > delta.length || o + op > size) return null;
      out.set(delta.subarray(i, i + op), o);
      i += op;
      o += op;
    } else return null;
  }
  return o === size ? { type: base.type, data: out } : null;
}

/**
 * The objects whose names start with `prefix` (4 to 39 hex digits): loose and packed, up to two
 * (enough to tell that a prefix is not unique); null where the packs cannot be read.
 */
export function objectsStartingWith(store: ObjectStore, prefix: string): string[] | null {
  const out = new Set<string>();
  const dir = `${store.objects}/${prefix.slice(0, 2)}`;
  for (const e of store.fs.entries?.(dir) ?? []) {
    const oid = prefix.slice(0, 2) + e.name;
    if (/^[0-9a-f]{40}$/.test(oid) && oid.startsWith(prefix)) out.add(oid);
  }
  const packs = packsOf(store);
  if (packs === null) return null;
  const even = hexBytes(prefix.slice(0, prefix.length & ~1));
  for (const p of packs) {
    let [at] = lowerBound(p.index, even);
    for (; at < p.index.count && out.size < 3; at++) {
      const oid = hexAt(p.index.bytes, 8 + 1024 + at * 20);
      if (!oid.startsWith(prefix)) break;
      out.add(oid);
    }
  }
  return [...out];
}
