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

/** A path that may reach /proc or /dev (one of its names is `proc` or `dev`). */
export const MAY_REACH_PROC = /(^|\/)(proc|dev)(\/|$)/;

/**
 * An absolute path that reaches /proc or /dev however it is spelled (`//proc/…`,
 * `/tmp/../proc/…`, `/home/u/../../proc/…`), as `/proc/…` or `/dev/…` for `processPath`;
 * undefined when it reaches neither. `fs`: to walk a `..` after a symlink as the kernel does
 * (`keys/../../../proc/…` with `keys -> ~/.ssh`).
 */
export function procSpelling(path: string, fs?: FsFacts): string | undefined {
  if (!MAY_REACH_PROC.test(path)) return undefined;
  // (What comes after is left as it is: `/proc/self/cwd/..` is the parent of where cwd leads.)
  for (const m of path.matchAll(/\/(?:proc|dev)(?=\/|$)/g)) {
    const before = path.slice(0, m.index);
    if (before === "" || resolve(before) === "/") return path.slice(m.index);
    if (fs && DOT_DOT.test(before) && realPath(before, fs) === "/") return path.slice(m.index);
  }
  return undefined;
}

/** `/proc/<this>`: the process that opens the path (the command), or bash itself. */
const OWN_PROCESS = /^(self|thread-self|\$\$|\$\{\$\}|\$BASHPID|\$\{BASHPID\})$/;
/** `/proc/<pid>`: a process named by number or by a value not known (`$pid`). */
const SOME_PROCESS = /^(\d+|.*[$`].*)$/;
/** Files of a process that say how it runs and lead nowhere else (`/proc/self/status`). */
const PROCESS_FACTS = new Set([
  "status",
  "stat",
  "statm",
  "limits",
  "cgroup",
  "comm",
  "cmdline",
  "mountinfo",
  "mounts",
  "mountstats",
  "maps",
  "io",
  "oom_score",
  "oom_score_adj",
  "sched",
  "schedstat",
  "uid_map",
  "gid_map",
  "loginuid",
  "sessionid",
  "wchan",
  "personality",
  "net",
  "ns",
  "exe",
]);

/**
 * Where a path of the process that runs a command leads, seen from that process (the gate's own
 * `/proc/self` is another). `/proc/self/cwd/X` (also `/proc/thread-self`, `/proc/$$`,
 * `/proc/$BASHPID`) is `X` in the command's directory `cwd`, `/proc/self/root/X` is `/X`;
 * `undefined` when the path is no such path or one that leads nowhere (`/proc/cpuinfo`,
 * `/dev/null`, `/dev/stdout`, `/dev/fd/3`, `/proc/self/status`); `null` when it may lead
 * anywhere: the files in another process's directories or open files (`/proc/1/cwd/x`,
 * `/proc/1/fd/3`), the environment or memory (`/proc/self/environ`, `/proc/self/mem`), a name
 * through an open file (`/dev/fd/0/..`), the cwd when it is not known, or a connection bash
 * opens (`/dev/tcp/HOST/PORT`).
 */
export function processPath(
  path: string,
  cwd: string | null,
  depth = 0,
): string | null | undefined {
  if (!path.startsWith("/proc/") && !path.startsWith("/dev/")) return undefined;
  const names = path.split("/").filter((n) => n !== "" && n !== ".");
  // bash opens a network connection for a redirect to /dev/tcp/HOST/PORT or /dev/udp/…: a place
  // no path names.
  if (names[0] === "dev" && (names[1] === "tcp" || names[1] === "udp") && names.length > 2) {
    return null;
  }
  const stack: string[] = [];
  for (let i = 0; i < names.length; i++) {
    const n = names[i];
    if (stack.length === 1 && stack[0] === "dev") {
      // /dev/fd is /proc/self/fd; /dev/stdin, /dev/stdout, /dev/stderr are its 0, 1, 2.
      const fd = n === "fd"
        ? []
        : n === "stdin"
        ? ["0"]
        : n === "stdout"
        ? ["1"]
        : n === "stderr"
        ? ["2"]
        : null;
      if (fd) {
        stack.splice(0, 1, "proc", "self", "fd", ...fd);
        continue;
      }
    }
    const proc = stack[0] === "proc" && stack.length >= 2 ? stack[1] : null;
    const inProcess = proc !== null &&
      (stack.length === 2 || (stack.length === 4 && stack[2] === "task"));
    if (inProcess && (n === "cwd" || n === "root")) {
      const rest = names.slice(i + 1).join("/");
      // (Another process's directory itself, `readlink /proc/$pid/cwd`, names no file in it.)
      if (!OWN_PROCESS.test(proc)) return rest === "" ? undefined : null;
      if (depth > 4) return null;
      if (n === "cwd" && cwd === null) return null;
      const base = n === "cwd" ? cwd! : "";
      const mapped = base === "/" ? "/" + rest : base + "/" + rest;
      const again = processPath(mapped, cwd, depth + 1);
      return again === undefined ? mapped : again;
    }
    if (n === "..") {
      // Through an open file or the program: where that leads is not known here.
      if (proc !== null && stack.length >= 3 && /^(fd|exe|map_files)$/.test(stack.at(-2)!)) {
        return null;
      }
      if (proc !== null && stack.length >= 3 && stack.at(-1) === "exe") return null;
      stack.pop();
      continue;
    }
    stack.push(n);
  }
  if (stack[0] !== "proc" || stack.length < 3) return undefined;
  const who = stack[1];
  const own = OWN_PROCESS.test(who);
  if (!own && !SOME_PROCESS.test(who)) return undefined; // /proc/sys/…, /proc/net/…
  let rest = stack.slice(2);
  if (rest[0] === "task" && rest.length >= 2) rest = rest.slice(2);
  if (rest.length === 0) return undefined;
  if (rest[0] === "fd" || rest[0] === "fdinfo") {
    if (rest.length === 1) return undefined; // the list of open files
    // Its own open files: its streams, or files the command opened by redirects (judged there;
    // bash gets no other from pi): `comm /dev/fd/3 - 3< <(…)`, `tee /dev/fd/3`.
    if (own && rest.length === 2 && /^\d+$/.test(rest[1])) return undefined;
    return null;
  }
  return PROCESS_FACTS.has(rest[0]) ? undefined : null;
}
