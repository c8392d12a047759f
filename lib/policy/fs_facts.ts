/**
 * The real filesystem behind the engine's FsFacts interface (node:fs, so Deno and Node share it).
 *
 * @module
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
} from "node:fs";
import type { DirEntry, FileStat, FsFacts } from "../types.ts";

/** Directory listings kept per realFs, with the stat they were taken under. */
const LISTINGS = 4096;

/**
 * Whether something last changed at `changedMs` may still change within the same tick of the
 * kernel's file clock and keep its stamp (mtime, ctime, size): "racily clean", as git says. A
 * listing or a config read that recently is checked again by its content, not its stamp. The
 * window (2 s) is generous, for the clocks of other filesystems.
 */
export function racilyClean(changedMs: number, now: number = Date.now()): boolean {
  return now - changedMs <= RACY_MS;
}

const RACY_MS = 2000;

/**
 * What a kept file's text is checked against: a regular file's device, inode, size, mtime and
 * ctime (in whole milliseconds, as both runtimes give them), as one string.
 */
export interface FileStamp {
  stamp: string;
  size: number;
  mtime: number;
  ctime: number;
}

/** A file's stamp from its stat (times in whole milliseconds), the same in both runtimes. */
function fileStamp(
  dev: number,
  ino: number,
  size: number,
  mtime: number,
  ctime: number,
): FileStamp {
  return { stamp: `${dev}:${ino}:${size}:${mtime}:${ctime}`, size, mtime, ctime };
}

/** What a listing is checked against: the directory's inode, mtime and ctime. */
interface DirStamp {
  ino: number;
  mtime: number;
  ctime: number;
}

/** The part of Deno's own filesystem calls realFs uses (see `hostCalls`). */
export interface DenoFsCalls {
  statSync(path: string): {
    isDirectory: boolean;
    isFile: boolean;
    dev: number;
    size: number;
    ino: number | null;
    mtime: Date | null;
    ctime: Date | null;
  };
  readDirSync(path: string): Iterable<{ name: string; isDirectory: boolean; isSymlink: boolean }>;
  realPathSync(path: string): string;
}

/**
 * How realFs resolves, stats and lists in this runtime. In Node (pi), node:fs. In Deno (the CLI,
 * the tests, the benchmarks), Deno's own calls: there, node:fs's statSync costs about five times
 * Deno.statSync (15 µs against 3 on the build machine), readdirSync with types three times
 * Deno.readDirSync and realpathSync.native twice Deno.realPathSync, and every decision resolves
 * its cwd, and a walk of a listed tree is mostly stats. Both give the same
 * answers; a runtime with neither is not one pi-controls runs in. (`deno`: the calls to use,
 * undefined for node:fs; tests compare the two.)
 */
export function hostCalls(
  deno: Partial<DenoFsCalls> | undefined = (globalThis as { Deno?: Partial<DenoFsCalls> }).Deno,
): {
  /** The real path of a path that exists (it throws otherwise). */
  realpath(path: string): string;
  stamp(dir: string): DirStamp | null;
  list(dir: string): DirEntry[];
  isDirectory(path: string): boolean;
  /** A regular file's stamp (see `FileStamp`); null for anything else or nothing. */
  file(path: string): FileStamp | null;
} {
  if (
    typeof deno?.statSync === "function" && typeof deno.readDirSync === "function" &&
    typeof deno.realPathSync === "function"
  ) {
    const calls = deno as DenoFsCalls;
    return {
      realpath: (path) => calls.realPathSync(path),
      stamp(dir) {
        let st;
        try {
          st = calls.statSync(dir);
        } catch {
          return null;
        }
        if (!st.isDirectory) return null;
        return {
          ino: st.ino ?? -1,
          mtime: st.mtime?.getTime() ?? -1,
          ctime: st.ctime?.getTime() ?? -1,
        };
      },
      isDirectory(path) {
        // (A miss throws, which costs ten lookups: asked first.)
        if (!existsSync(path)) return false;
        try {
          return calls.statSync(path).isDirectory;
        } catch {
          return false;
        }
      },
      file(path) {
        let st;
        try {
          st = calls.statSync(path);
        } catch {
          return null;
        }
        if (!st.isFile || st.ino === null || !st.mtime || !st.ctime) return null;
        return fileStamp(st.dev, st.ino, st.size, st.mtime.getTime(), st.ctime.getTime());
      },
      list(dir) {
        const out: DirEntry[] = [];
        for (const e of calls.readDirSync(dir)) {
          out.push({ name: e.name, link: e.isSymlink, dir: !e.isSymlink && e.isDirectory });
        }
        return out;
      },
    };
  }
  return {
    realpath: (path) => realpathSync.native(path),
    stamp(dir) {
      const st = statSync(dir, { throwIfNoEntry: false });
      if (!st?.isDirectory()) return null;
      return { ino: st.ino, mtime: st.mtimeMs, ctime: st.ctimeMs };
    },
    isDirectory(path) {
      return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
    },
    file(path) {
      const st = statSync(path, { throwIfNoEntry: false });
      if (!st?.isFile()) return null;
      return fileStamp(st.dev, st.ino, st.size, Math.floor(st.mtimeMs), Math.floor(st.ctimeMs));
    },
    list(dir) {
      return readdirSync(dir, { withFileTypes: true }).map((e) => ({
        name: e.name,
        link: e.isSymbolicLink(),
        dir: e.isDirectory(),
      }));
    },
  };
}

/** Options of `realFs`. */
export interface RealFsOptions {
  /**
   * The clock a file's or a directory's last change is compared with (see `racilyClean`); tests
   * move it on to see what is kept.
   * @default {Date.now}
   */
  now?: () => number;
}

/** FsFacts backed by the real filesystem. */
export function realFs(options: RealFsOptions = {}): FsFacts {
  const now = options.now ?? Date.now;
  // A listing is reused while the directory's inode, mtime and ctime stay the same (an entry
  // added, removed or renamed changes them), since listing costs about a µs per entry. The
  // directory is looked at again for every decision: a glob's matches are its targets, and one
  // made since (`k -> ~/.ssh/id_rsa`) must be seen.
  const listed = new Map<string, { stamp: DirStamp; entries: DirEntry[] }>();
  const host = hostCalls();
  const read = new Map<string, { stamp: string; bytes: Uint8Array }>();
  const texts = new Map<string, { stamp: string; text: string }>();
  return {
    realpath(path: string): string | null {
      // existsSync is cheap on a miss; realpathSync throws (slowly) there. Both may throw for
      // paths the runtime will not touch (Deno asks for --allow-all on /proc): not known then.
      try {
        return existsSync(path) ? host.realpath(path) : null;
      } catch {
        return null;
      }
    },
    realpathExpected(path: string): string | null {
      // One lookup when the path exists; a miss throws, which costs more than existsSync.
      try {
        return host.realpath(path);
      } catch {
        return null;
      }
    },
    exists(path: string): boolean {
      try {
        return existsSync(path);
      } catch {
        return false;
      }
    },
    readlink(path: string): string | null {
      try {
        return readlinkSync(path);
      } catch {
        return null;
      }
    },
    readText: (path, limit) => readKeptText(path, limit, { kept: texts, host, now }),
    readBytes: (path, limit) => readBytes(path, limit, read, now),
    readAt,
    lstat,
    isDirectory(path: string): boolean {
      // (Not `existsSync(path + "/")`: Deno normalises the slash away under --allow-read.)
      try {
        return host.isDirectory(path);
      } catch {
        return false;
      }
    },
    entries(dir: string): DirEntry[] | null {
      try {
        const stamp = host.stamp(dir);
        if (!stamp) return null;
        const known = listed.get(dir);
        if (
          known && known.stamp.ino === stamp.ino && known.stamp.mtime === stamp.mtime &&
          known.stamp.ctime === stamp.ctime
        ) {
          return known.entries;
        }
        const entries = host.list(dir);
        // A directory changed within the last moments may change again within the same tick of
        // the kernel's file clock and keep its stamp ("racily clean", as git says): its listing
        // is not kept until its stamp is older than that.
        if (racilyClean(Math.max(stamp.mtime, stamp.ctime), now())) return entries;
        // The oldest listing goes first: a walk of a tree larger than the cache does not clear
        // what the next walk needs.
        if (listed.size >= LISTINGS) listed.delete(listed.keys().next().value!);
        listed.set(dir, { stamp, entries });
        return entries;
      } catch {
        return null;
      }
    },
  };
}

/**
 * The text of a regular file of at most `limit` bytes (see `FsFacts.readText`). It is opened
 * without waiting (a FIFO or a device would block an open or a read) and judged by what the
 * open descriptor is, so a file swapped after a check is not read instead.
 */
function readText(path: string, limit: number): string | null {
  let fd: number | undefined;
  try {
    fd = openRegular(path);
    if (fd === undefined) return null;
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > limit) return null;
    const buf = new Uint8Array(st.size);
    return new TextDecoder().decode(buf.subarray(0, readInto(fd, buf)));
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Texts realFs keeps (config files a decision reads again and again: git's, a project's). */
const TEXTS = 64;

/** The largest text kept. */
const TEXT_KEPT = 64 * 1024;

/**
 * The text of a regular file as `readText` reads it, given again without reading while the file
 * is the same (the stamp its path has now is the one it had when it was read, and it had not
 * changed within the last moments then: see `racilyClean`). A miss costs a lookup, a hit a stat.
 */
function readKeptText(
  path: string,
  limit: number,
  { kept, host, now }: {
    kept: Map<string, { stamp: string; text: string }>;
    host: ReturnType<typeof hostCalls>;
    now: () => number;
  },
): string | null {
  let before: FileStamp | null;
  try {
    if (!existsSync(path)) return null;
    before = host.file(path);
  } catch {
    return null;
  }
  if (before === null || before.size > limit) return before === null ? readText(path, limit) : null;
  const known = kept.get(path);
  if (known?.stamp === before.stamp) return known.text;
  const text = readText(path, limit);
  if (
    text === null || before.size > TEXT_KEPT ||
    racilyClean(Math.max(before.mtime, before.ctime), now())
  ) {
    return text;
  }
  // (Kept only where the path still has the stamp it had before the read: the text read is then
  // the file's under that stamp.)
  let after: FileStamp | null = null;
  try {
    after = host.file(path);
  } catch {
    // not kept
  }
  if (after?.stamp !== before.stamp) return text;
  kept.delete(path);
  if (kept.size >= TEXTS) kept.delete(kept.keys().next().value!);
  kept.set(path, { stamp: before.stamp, text });
  return text;
}

/**
 * Open a path to read it, without waiting (a FIFO or a device would block an open or a read);
 * undefined where nothing is there. (A miss is asked with `existsSync` first: a failed open
 * throws, and building the error costs several times the lookup, in Node and more in Deno.
 * What the open finds is still judged by its descriptor.)
 */
function openRegular(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  return openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
}

/** Fill `buf` from the start of the open file `fd`; how many bytes came (fewer: it shrank). */
function readInto(fd: number, buf: Uint8Array): number {
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, got);
    if (n <= 0) break;
    got += n;
  }
  return got;
}

/** Files whose bytes realFs keeps (a git index or two: the repositories a session works in). */
const READS = 8;

/**
 * The bytes of a regular file of at most `limit` bytes, opened as `readText` opens it; the array
 * kept in `kept` is given again while the file's inode, size, mtime and ctime stay the same (a
 * file changed within the last moments is not kept: see `racilyClean`).
 */
function readBytes(
  path: string,
  limit: number,
  kept: Map<string, { stamp: string; bytes: Uint8Array }>,
  now: () => number,
): Uint8Array | null {
  let fd: number | undefined;
  try {
    fd = openRegular(path);
    if (fd === undefined) return null;
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > limit) return null;
    const stamp = `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    const known = kept.get(path);
    if (known?.stamp === stamp) return known.bytes;
    const buf = new Uint8Array(st.size);
    if (readInto(fd, buf) < buf.length) return null;
    kept.delete(path);
    if (!racilyClean(Math.max(st.mtimeMs, st.ctimeMs), now())) {
      if (kept.size >= READS) kept.delete(kept.keys().next().value!);
      kept.set(path, { stamp, bytes: buf });
    }
    return buf;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Up to `length` bytes of a regular file from `offset` (see `FsFacts.readAt`), opened as
 * `readText` opens it.
 */
function readAt(path: string, offset: number, length: number): Uint8Array | null {
  let fd: number | undefined;
  try {
    fd = openRegular(path);
    if (fd === undefined) return null;
    const st = fstatSync(fd);
    if (!st.isFile() || offset < 0 || offset > st.size) return null;
    const buf = new Uint8Array(Math.min(length, st.size - offset));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, offset + got);
      if (n <= 0) break;
      got += n;
    }
    return got < buf.length ? buf.subarray(0, got) : buf;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A path's stat data, itself looked at (see `FsFacts.lstat`), or null. */
function lstat(path: string): FileStat | null {
  try {
    const st = lstatSync(path, { throwIfNoEntry: false });
    return st
      ? { size: st.size, ino: st.ino, mode: st.mode, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs }
      : null;
  } catch {
    return null;
  }
}

/** What a memo knows of one path (undefined: not asked yet). */
interface Known {
  real?: string | null;
  exists?: boolean;
  dir?: boolean;
  entries?: DirEntry[] | null;
  /** A file's bytes (`readBytes`), read under `limit`. */
  bytes?: Uint8Array | null;
  limit?: number;
}

/** FsFacts that remember every answer (one per decision: the filesystem may change between calls). */
export function memoFs(fs: FsFacts): FsFacts {
  return new MemoFs(fs);
}

/** A listing's entries by name, made once per listing (a listing is reused while unchanged). */
const named = new WeakMap<DirEntry[], Map<string, DirEntry>>();
function byName(listing: DirEntry[]): Map<string, DirEntry> {
  let m = named.get(listing);
  if (!m) named.set(listing, m = new Map(listing.map((e) => [e.name, e])));
  return m;
}

/** Paths a memo keeps in a list before it moves them to a map. */
const SMALL = 8;

/** memoFs as a class: one object per decision, its methods shared. */
class MemoFs implements FsFacts {
  // A decision asks about a handful of paths: a list is quicker than hashing each new path
  // string. Past SMALL paths (a replay run, a long command), a map.
  #paths: string[] = [];
  #answers: Known[] = [];
  #known: Map<string, Known> | null = null;
  constructor(private fs: FsFacts) {}

  #of(path: string): Known {
    if (this.#known) {
      let k = this.#known.get(path);
      if (!k) this.#known.set(path, k = {});
      return k;
    }
    const paths = this.#paths;
    for (let i = 0; i < paths.length; i++) if (paths[i] === path) return this.#answers[i];
    const k: Known = {};
    if (paths.length < SMALL) {
      paths.push(path);
      this.#answers.push(k);
    } else {
      this.#known = new Map(paths.map((p, i) => [p, this.#answers[i]]));
      this.#known.set(path, k);
    }
    return k;
  }

  /** What is known of a path already, without starting to remember it. */
  #peek(path: string): Known | undefined {
    if (this.#known) return this.#known.get(path);
    const paths = this.#paths;
    for (let i = 0; i < paths.length; i++) if (paths[i] === path) return this.#answers[i];
    return undefined;
  }

  #expected(path: string): string | null {
    return this.fs.realpathExpected ? this.fs.realpathExpected(path) : this.fs.realpath(path);
  }

  /**
   * Where a path leads when its directory was listed in this decision (a glob's matches): a name
   * not in the listing does not exist, and one that is no symlink is its directory's real path
   * and the name (one lookup for the directory instead of one per match). Undefined: not known
   * from a listing (no listing, a symlink, `.`/`..`).
   */
  #fromListing(path: string, k: Known): boolean {
    const at = path.lastIndexOf("/");
    if (at < 0 || at === path.length - 1) return false;
    const name = path.slice(at + 1);
    if (name === "." || name === "..") return false;
    const dir = at === 0 ? "/" : path.slice(0, at);
    const listing = this.#peek(dir)?.entries;
    if (!listing) return false;
    const entry = byName(listing).get(name);
    if (entry === undefined) {
      k.exists = false;
      k.real = null;
      return true;
    }
    if (entry.link) return false;
    const real = this.realpathExpected(dir);
    k.real = real === null ? null : (real === "/" ? "/" : real + "/") + name;
    k.exists = real !== null;
    return true;
  }

  realpath(path: string): string | null {
    const k = this.#of(path);
    // A path known not to exist has no real path; one known to exist is expected.
    if (k.real === undefined && !this.#fromListing(path, k)) {
      k.real = k.exists === false ? null : k.exists ? this.#expected(path) : this.fs.realpath(path);
    }
    return k.real!;
  }

  realpathExpected(path: string): string | null {
    const k = this.#of(path);
    if (k.real === undefined && !this.#fromListing(path, k)) {
      k.real = k.exists === false ? null : this.#expected(path);
    }
    return k.real!;
  }

  exists(path: string): boolean {
    const k = this.#of(path);
    // A path with a real path exists.
    if (k.exists === undefined && !(k.real === undefined && this.#fromListing(path, k))) {
      k.exists = k.real ? true : this.fs.exists(path);
    }
    return k.exists!;
  }

  entries(dir: string): DirEntry[] | null {
    const k = this.#of(dir);
    if (k.entries === undefined) k.entries = this.fs.entries?.(dir) ?? null;
    return k.entries;
  }

  readlink(path: string): string | null {
    return this.fs.readlink?.(path) ?? null;
  }

  readText(path: string, limit: number): string | null {
    // (A file looked for and missing, git's config files mostly, is not opened: a caller asks
    // `exists` of a null next, and the answer is then known.)
    if (!this.exists(path)) return null;
    return this.fs.readText?.(path, limit) ?? null;
  }

  readBytes(path: string, limit: number): Uint8Array | null {
    const k = this.#of(path);
    if (k.bytes === undefined || k.limit !== limit) {
      k.bytes = this.fs.readBytes?.(path, limit) ?? null;
      k.limit = limit;
    }
    return k.bytes;
  }

  readAt(path: string, offset: number, length: number): Uint8Array | null {
    return this.fs.readAt?.(path, offset, length) ?? null;
  }

  lstat(path: string): FileStat | null {
    return this.fs.lstat ? this.fs.lstat(path) : null;
  }

  isDirectory(path: string): boolean {
    const k = this.#of(path);
    k.dir ??= this.fs.isDirectory?.(path) ?? false;
    return k.dir;
  }
}

/** FsFacts over a fixed set of paths and symlinks, for tests and golden cases. */
export function fakeFs(
  opts: {
    files?: string[];
    links?: Record<string, string>;
    contents?: Record<string, string>;
    /** Files and their bytes (`readBytes`: the same array each time). */
    bytes?: Record<string, Uint8Array>;
    /** Directories that cannot be listed (mode 000 to a user other than root). */
    unlisted?: string[];
  } = {},
): FsFacts {
  const files = new Set<string>();
  const contents = opts.contents ?? {};
  const bytes = opts.bytes ?? {};
  for (const f of [...(opts.files ?? []), ...Object.keys(contents), ...Object.keys(bytes)]) {
    let cur = f;
    while (cur && !files.has(cur)) {
      files.add(cur);
      const i = cur.lastIndexOf("/");
      cur = i > 0 ? cur.slice(0, i) : i === 0 && cur !== "/" ? "/" : "";
    }
  }
  const links = opts.links ?? {};
  function real(path: string): string {
    // As the kernel walks a path: name by name, a link's (absolute) target replacing the path so
    // far, and `..` the parent of where the walk really is (bounded against link loops).
    const names = path.split("/");
    let cur = "/";
    let hops = 0;
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (name === "" || name === ".") continue;
      if (name === "..") {
        cur = cur.slice(0, cur.lastIndexOf("/")) || "/";
        continue;
      }
      cur = cur === "/" ? "/" + name : cur + "/" + name;
      const to = links[cur];
      if (to !== undefined && hops++ < 40) {
        names.splice(i + 1, 0, ...to.split("/"));
        cur = "/";
      }
    }
    return cur;
  }
  return {
    realpath(path: string): string | null {
      const r = real(path);
      return files.has(r) || r === "/" ? r : null;
    },
    exists(path: string): boolean {
      const r = real(path);
      return files.has(r) || r === "/";
    },
    isDirectory(path: string): boolean {
      const r = real(path);
      if (r === "/") return true;
      for (const f of files) if (f.startsWith(r + "/")) return true;
      return false;
    },
    readText(path: string, limit: number): string | null {
      const text = contents[real(path)];
      return text !== undefined && new TextEncoder().encode(text).length <= limit ? text : null;
    },
    readBytes(path: string, limit: number): Uint8Array | null {
      const data = bytes[real(path)];
      return data !== undefined && data.length <= limit ? data : null;
    },
    readAt(path: string, offset: number, length: number): Uint8Array | null {
      const data = bytes[real(path)];
      return data === undefined || offset > data.length
        ? null
        : data.subarray(offset, offset + length);
    },
    readlink(path: string): string | null {
      // (The path's directories followed; the last name is the link, not followed.)
      const at = path.lastIndexOf("/");
      const dir = at <= 0 ? "/" : real(path.slice(0, at));
      return links[(dir === "/" ? "" : dir) + "/" + path.slice(at + 1)] ?? null;
    },
    entries(dir: string): DirEntry[] | null {
      const r = real(dir);
      if (opts.unlisted?.includes(r)) return null;
      const prefix = r === "/" ? "/" : r + "/";
      const out = new Map<string, DirEntry>();
      for (const f of files) {
        if (!f.startsWith(prefix) || f.length === prefix.length) continue;
        const name = f.slice(prefix.length).split("/")[0];
        const dir = f.length > prefix.length + name.length;
        out.set(name, { name, link: false, dir: dir || (out.get(name)?.dir ?? false) });
      }
      for (const l of Object.keys(links)) {
        const at = l.lastIndexOf("/");
        if (real(l.slice(0, at) || "/") === r) {
          out.set(l.slice(at + 1), { name: l.slice(at + 1), link: true, dir: false });
        }
      }
      return files.has(r) || r === "/" ? [...out.values()] : null;
    },
  };
}
