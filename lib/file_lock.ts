/**
 * An exclusive lock on a file shared by processes: `<file>.lock`, created with `O_EXCL` and
 * holding its owner's pid and the time it was taken. Waiting is synchronous (callers are) and
 * only `node:` built-ins are used, so it works the same under Node (in pi) and Deno.
 *
 * A lock whose process is gone, or that is older than a bound, is stale and broken. Breakers
 * take turns, under a second lock (`<file>.lock.break`, taken the same way): the turn's holder
 * looks again, and removes the lock only if it is still the one found stale (renamed aside,
 * checked, then deleted), so a lock taken since is never removed by a late breaker.
 *
 * ```ts
 * withFileLock("/p/.pi/extensions/pi-controls.jsonc", () => {
 *   // read, change and replace the file: no other process does so meanwhile
 * });
 * ```
 *
 * @module
 */
import {
  closeSync,
  fstatSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from "node:fs";
import process from "node:process";

/** How {@linkcode withFileLock} waits for a lock and when it judges a lock abandoned. */
export interface FileLockOptions {
  /**
   * How long to wait for a lock another process holds before throwing, in milliseconds.
   * @default {5000}
   */
  timeoutMs?: number;
  /**
   * A lock older than this, in milliseconds, is stale and broken even when its process seems
   * alive (a hung holder, a pid reused, a holder on another machine).
   * @default {10000}
   */
  staleMs?: number;
  /**
   * The mean pause between two attempts, in milliseconds; each pause is 50–150% of it, so
   * waiting processes do not retry in step.
   * @default {10}
   */
  retryMs?: number;
}

/** A lock file as seen once: which file it is, and what it says. */
interface Seen {
  stat: Stats;
  text: string;
  pid: number | null;
  /** When it was taken (ms since the epoch): as written in it, else its mtime. */
  time: number;
  token: string | null;
}

/** Locks this process holds now (a sync caller cannot hold one twice: that would never end). */
const held = new Set<string>();

/**
 * Run `fn` while holding the lock `<file>.lock`, and release it afterwards, also when `fn`
 * throws. `fn` must be synchronous. Throws when the lock is not got within `timeoutMs` (the
 * message names the file and the holder's pid), when this process already holds it, or when
 * the lock file cannot be created (the directory is missing or not writable).
 */
export function withFileLock<T>(file: string, fn: () => T, options: FileLockOptions = {}): T {
  const lock = `${file}.lock`;
  if (held.has(lock)) throw new Error(`${file}: already locked by this process (${lock})`);
  const token = acquire(file, lock, {
    timeoutMs: options.timeoutMs ?? 5000,
    staleMs: options.staleMs ?? 10_000,
    retryMs: options.retryMs ?? 10,
  });
  held.add(lock);
  try {
    return fn();
  } finally {
    held.delete(lock);
    release(lock, token);
  }
}

function acquire(file: string, lock: string, opts: Required<FileLockOptions>): string {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const token = create(lock);
    if (token !== null) return token;
    const seen = inspect(lock);
    if (seen === null) continue; // released meanwhile
    if (isStale(seen, opts.staleMs) && breakStale(lock, seen, opts.staleMs)) continue;
    if (Date.now() >= deadline) {
      const holder = seen.pid === null ? "an unknown process" : `pid ${seen.pid}`;
      throw new Error(
        `${file}: gave up waiting for the lock after ${opts.timeoutMs} ms: ${lock} is held by ` +
          `${holder} since ${new Date(seen.time).toISOString()}`,
      );
    }
    sleep(opts.retryMs * (0.5 + Math.random()));
  }
}

/** Create the lock file, with what identifies this holder; null when it exists already. */
function create(lock: string): string | null {
  const time = Date.now();
  const token = `${process.pid}-${time}-${Math.random().toString(36).slice(2)}`;
  let fd: number;
  try {
    fd = openSync(lock, "wx", 0o644); // O_CREAT | O_EXCL
  } catch (e) {
    if (errorCode(e) === "EEXIST") return null;
    throw e;
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, time, token }) + "\n");
  } catch (e) {
    closeSync(fd);
    unlinkSync(lock);
    throw e;
  }
  closeSync(fd);
  return token;
}

/** The lock file's identity and contents (one open, so both are of the same file); null if gone. */
function inspect(lock: string): Seen | null {
  let fd: number;
  try {
    fd = openSync(lock, "r");
  } catch (e) {
    if (errorCode(e) === "ENOENT") return null;
    throw e;
  }
  try {
    const stat = fstatSync(fd);
    let text = "";
    try {
      text = readFileSync(fd, "utf8");
    } catch {
      // Unreadable (a directory, say): judged by its age alone.
    }
    const owner = parseOwner(text);
    return { stat, text, pid: owner.pid, time: owner.time ?? stat.mtimeMs, token: owner.token };
  } finally {
    closeSync(fd);
  }
}

/** What a lock file says; all null while it is still being written (or is not ours). */
function parseOwner(
  text: string,
): { pid: number | null; time: number | null; token: string | null } {
  try {
    const v = JSON.parse(text);
    return {
      pid: Number.isSafeInteger(v?.pid) && v.pid > 0 ? v.pid : null,
      time: Number.isFinite(v?.time) && Math.abs(v.time) < 8.64e15 ? v.time : null, // a Date
      token: typeof v?.token === "string" ? v.token : null,
    };
  } catch {
    return { pid: null, time: null, token: null };
  }
}

function isStale(seen: Seen, staleMs: number): boolean {
  // Its own word or its mtime, whichever is older (a clock ahead must not keep it forever).
  if (Date.now() - Math.min(seen.time, seen.stat.mtimeMs) > staleMs) return true;
  if (seen.pid === null) return false; // being written: wait for it, or for it to age
  // This process holds no such lock (see `held`): a dead process with the same pid left it.
  if (seen.pid === process.pid) return true;
  return !isAlive(seen.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: alive, another user's. No permission to ask (Deno without --allow-run): the
    // lock is taken for alive, and broken by its age.
    return errorCode(e) !== "ESRCH";
  }
}

/**
 * Remove the stale lock `seen` if it is still there, in turn with other breakers (else two that
 * found the same stale lock could remove it and then a lock taken since). False when another
 * process is breaking it now: wait, and look again.
 */
function breakStale(lock: string, seen: Seen, staleMs: number): boolean {
  const turn = `${lock}.break`;
  const token = create(turn);
  if (token === null) {
    // A breaker that died in its turn (microseconds long) left it: break that the same way.
    const other = inspect(turn);
    if (other === null) return true;
    if (!isStale(other, staleMs)) return false;
    removeIfSame(turn, other);
    return true;
  }
  try {
    const now = inspect(lock);
    if (now !== null && sameLock(now, seen)) removeIfSame(lock, now);
  } finally {
    release(turn, token);
  }
  return true;
}

/**
 * Delete `path` if it is still the file `seen`: rename whatever is there aside, delete it if it
 * is `seen`, else put it back (unless yet another was made there meanwhile, which needs two
 * processes in one turn: only after one died in it).
 */
function removeIfSame(path: string, seen: Seen): void {
  const aside = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.stale`;
  try {
    renameSync(path, aside);
  } catch (e) {
    if (errorCode(e) === "ENOENT") return; // removed by another
    throw e;
  }
  try {
    const moved = inspect(aside);
    if (moved !== null && !sameLock(moved, seen)) {
      try {
        linkSync(aside, path);
      } catch {
        // Made anew meanwhile, or gone: nothing to put back.
      }
    }
  } finally {
    try {
      unlinkSync(aside);
    } catch {
      // Already gone.
    }
  }
}

/** The same lock file: inode numbers are reused at once, so its mtime and contents count too. */
function sameLock(a: Seen, b: Seen): boolean {
  return a.stat.dev === b.stat.dev && a.stat.ino === b.stat.ino &&
    a.stat.mtimeMs === b.stat.mtimeMs && a.text === b.text;
}

/** Delete the lock if it is still ours (it is not if it was broken as stale). Never throws. */
function release(lock: string, token: string): void {
  try {
    if (parseOwner(readFileSync(lock, "utf8")).token === token) unlinkSync(lock);
  } catch {
    // Gone already, or unreadable: nothing of ours to delete.
  }
}

function errorCode(e: unknown): unknown {
  return (e as { code?: unknown } | null)?.code;
}

/** Block this thread for `ms` milliseconds (Atomics.wait works in Node's and Deno's main thread). */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
