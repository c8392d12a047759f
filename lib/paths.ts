/** Paths as pi's tools resolve them: `@` stripped, Unicode spaces normalised, `~`, cwd, symlinks. */
import { dirname, resolve } from "node:path";
import type { FsFacts } from "./types.ts";

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
 * judged where it will really land. `expected`: the path is expected to exist (the cwd).
 */
export function realPath(path: string, fs: FsFacts, opts: { expected?: boolean } = {}): string {
  const rest: string[] = [];
  let cur = path;
  for (;;) {
    const real = opts.expected && cur === path && fs.realpathExpected
      ? fs.realpathExpected(cur)
      : fs.realpath(cur);
    if (real !== null) {
      // A real path is absolute and normalised, and the names below it are plain.
      if (!rest.length) return real;
      return (real === "/" ? "/" : real + "/") + rest.reverse().join("/");
    }
    const parent = dirname(cur);
    if (parent === cur) return path;
    rest.push(cur.slice(parent.length).replace(/^\//, ""));
    cur = parent;
  }
}

/** Whether `path` is `dir` or lies below it (both absolute and normalised). */
export function isWithin(path: string, dir: string): boolean {
  if (dir === "/") return path.startsWith("/");
  return path === dir || path.startsWith(dir + "/");
}
