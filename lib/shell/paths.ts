/**
 * Paths as pi's tools resolve them: `@` stripped, Unicode spaces normalised, `~`, cwd, symlinks.
 *
 * @module
 */
import { dirname, join, resolve } from "node:path";
import type { FsFacts } from "../types.ts";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** Expand a tool path the way pi does before resolving it (`@` prefix, Unicode spaces, `~`). */
export function expandToolPath(path: string, home: string): string {
  const stripped = path.startsWith("@") ? path.slice(1) : path;
  const normalized = stripped.replace(UNICODE_SPACES, " ");
  return expandTilde(normalized, home);
}

/** Expand a leading `~` or `~/` to the home directory. */
export function expandTilde(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return home + path.slice(1);
  return path;
}

/** A path with no empty, `.` or `..` segment and no trailing slash: resolving changes nothing. */
const NOT_PLAIN = /\/\/|\/$|(^|\/)\.\.?(\/|$)/;

/**
 * `path.resolve(dir, path)`, quick when both are plain, as most paths commands name are (the
 * general algorithm costs microseconds under Deno's node:path).
 */
export function resolveIn(dir: string, path: string): string {
  if (path === "" || NOT_PLAIN.test(path)) return resolve(dir, path);
  if (path.startsWith("/")) return path;
  if (dir === "/") return "/" + path;
  return !dir.startsWith("/") || NOT_PLAIN.test(dir) ? resolve(dir, path) : dir + "/" + path;
}

/** Resolve a tool path to an absolute, normalised path against the cwd (pi's resolveToCwd). */
export function resolveToolPath(path: string, cwd: string, home: string): string {
  const expanded = expandToolPath(path, home);
  return resolveIn(cwd, expanded);
}

/**
 * Resolve the path pi's read tool opens: like resolveToolPath, then the macOS screenshot variants
 * pi tries when the plain path does not exist (narrow no-break space before AM/PM, NFD, curly quote).
 */
export function resolveReadPath(path: string, cwd: string, home: string, fs: FsFacts): string {
  const plain = resolveToolPath(path, cwd, home);
  if (fs.exists(plain)) return plain;
  const nfd = plain.normalize("NFD");
  const variants = [
    plain.replace(/ (AM|PM)\./gi, "\u202F$1."),
    nfd,
    plain.replace(/'/g, "\u2019"),
    nfd.replace(/'/g, "\u2019"),
  ];
  return variants.find((v) => v !== plain && fs.exists(v)) ?? plain;
}

/**
 * The path with symlinks followed. A path that does not exist yet (a file about to be written)
 * resolves through its nearest existing ancestor, so a new file under a symlinked directory is
 * judged where it will really land. A path may be unnormalised (`/p/link/../x`, as a command
 * names it): its `..` then leads where the kernel takes it, the parent of the link's target.
 * `expected`: the path is expected to exist (the cwd).
 */
export function realPath(path: string, fs: FsFacts, opts: { expected?: boolean } = {}): string {
  if (DOT_DOT.test(path)) return physicalPath(path, fs);
  // The names below the nearest existing ancestor, deepest first (most paths exist: none).
  let rest: string[] | null = null;
  let cur = path;
  for (;;) {
    // (The root is itself: no lookup.)
    const real = cur === "/"
      ? "/"
      : opts.expected && cur === path && fs.realpathExpected
      ? fs.realpathExpected(cur)
      : fs.realpath(cur);
    if (real !== null) {
      // A real path is absolute and normalised; the names below it are plain unless the path
      // was not (`..` below a directory that does not exist, which the kernel never walks).
      if (!rest) return real;
      const joined = (real === "/" ? "/" : real + "/") + rest.reverse().join("/");
      return NOT_PLAIN.test(joined) ? resolve(joined) : joined;
    }
    const parent = dirname(cur);
    if (parent === cur) return NOT_PLAIN.test(path) ? resolve(path) : path;
    (rest ??= []).push(cur.slice(parent.length).replace(/^\//, ""));
    cur = parent;
  }
}

/** A `..` segment: the kernel takes it from where the path before it really is. */
export const DOT_DOT = /(^|\/)\.\.(\/|$)/;

/**
 * Where `cd dir` from `base` may lead. `cd -P` (and a chdir(2), `physical`) walks the path as the
 * kernel does: `link/..` is the parent of the link's target. Plain `cd` takes the lexical path
 * (`link/..` is `base`) when that exists and the physical one when it does not, so through a `..`
 * it may lead to either, and from a directory reached physically it goes on physically. A
 * physical path is kept as written (`/p/link/..`); resolving its symlinks is the engine's job.
 */
export function cdInto(base: string, dir: string, physical: boolean): string[] {
  const joined = dir.startsWith("/") ? dir : base + "/" + dir;
  if (!DOT_DOT.test(joined)) return [resolve(joined)];
  if (physical) return [joined];
  return [resolve(joined), joined];
}

/**
 * An absolute path with `..` walked as the kernel walks it: each `..` leaves where the names
 * before it really lead. (Done name by name here: Deno normalises a path lexically before a
 * realpath when it checks permissions, so one realpath of the whole path cannot be trusted.)
 */
function physicalPath(path: string, fs: FsFacts): string {
  let real = "/";
  let pending = "";
  for (const name of path.split("/")) {
    if (name === "" || name === ".") continue;
    if (name === "..") {
      real = dirname(pending ? realPath(join(real, pending), fs) : real);
      pending = "";
    } else pending = pending ? pending + "/" + name : name;
  }
  return pending ? realPath(join(real, pending), fs) : real;
}

/** Whether `path` is `dir` or lies below it (both absolute and normalised). */
export function isWithin(path: string, dir: string): boolean {
  if (dir === "/") return path.startsWith("/");
  return path === dir || path.startsWith(dir + "/");
}
