/**
 * What git ignores in a work tree (gitignore(5)): the patterns of the `.gitignore` files from
 * the top down, `.git/info/exclude` and the excludes file (`core.excludesFile`, by default
 * `$XDG_CONFIG_HOME/git/ignore` or `~/.config/git/ignore`), matched as git's wildmatch does:
 * the names below a directory that `git add -A` or `git stash -u` reads into git's object store.
 * Everything is read through the engine's FsFacts, bounded; what cannot be read or is not sure
 * (a file too large, a config that sets what is read in a way not followed) is null: the caller
 * then takes nothing to be ignored (fail closed).
 *
 * @example
 * ```ts
 * import { ignorePatterns, ignoredBy } from "./git_ignore.ts";
 * const rules = ignorePatterns("secrets/\n!secrets/public\n*.log\n", "")!;
 * ignoredBy(rules, "secrets", true, false); // true
 * ignoredBy(rules, "src/app.log", false, false); // true
 * ```
 *
 * @module
 */
import type { FsFacts } from "../types.ts";
import { boolValue, expandPath } from "../programs/git_config.ts";
import { commonDirOf, gitConfig } from "./git_config_files.ts";

/** One pattern of an ignore file, compiled. */
export interface IgnorePattern {
  /** What it matches: the last name (`basename`), or the path below `base`. */
  regex: RegExp;
  /** `!pattern`: what it matches is not ignored. */
  negative: boolean;
  /** `pattern/`: it matches directories only. */
  dirOnly: boolean;
  /** It has no `/` but a trailing one: it matches a name at any depth below `base`. */
  basename: boolean;
  /** The directory of its file, relative to the top (`""`, or `dir/`). */
  base: string;
}

/** The largest ignore file read (a larger one: nothing is taken to be ignored). */
const FILE_LIMIT = 256 * 1024;

/** The directories listed to find what is not ignored (more: not known). */
const LISTINGS = 256;

/**
 * The patterns of an ignore file's text whose directory is `base` (relative to the top: `""` or
 * `dir/`), in order, compiled; git's reading of a line: a `#` line and a blank one are none,
 * trailing spaces go unless escaped, `!` negates, a trailing `/` matches directories only.
 */
export function ignorePatterns(text: string, base: string): IgnorePattern[] {
  const out: IgnorePattern[] = [];
  // (A byte order mark at the start is skipped; a CR before the newline goes.)
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  for (let line of text.split("\n")) {
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line === "" || line.startsWith("#")) continue;
    line = trimTrailingSpaces(line);
    let negative = false;
    if (line.startsWith("!")) {
      negative = true;
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith("/") && !escapedAt(line, line.length - 1)) {
      dirOnly = true;
      line = line.slice(0, -1);
    }
    if (line === "") continue;
    const basename = !line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    out.push({ regex: wildmatch(bytesOf(line)), negative, dirOnly, basename, base: bytesOf(base) });
  }
  return out;
}

/** A line without its trailing spaces, those a backslash escapes kept (git's trimming). */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " " && !escapedAt(line, end - 1)) end--;
  return line.slice(0, end);
}

/** Whether the character at `i` follows an odd number of backslashes. */
function escapedAt(s: string, i: number): boolean {
  let n = 0;
  while (i - n - 1 >= 0 && s[i - n - 1] === "\\") n++;
  return n % 2 === 1;
}

/**
 * A text as git's wildmatch sees it, one character to a byte of its UTF-8 (`?` and `[…]` match
 * one byte: `?` does not match `é`, `??` does): ASCII as it is, a byte above it as a character
 * of the Private Use Area (U+E080 to U+E0FF), which keeps their order (a range between bytes is
 * one between these) and has no case (a case-blind match folds ASCII alone, as git's does).
 */
function bytesOf(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  let out = "";
  for (const b of new TextEncoder().encode(text)) {
    out += b < 0x80 ? String.fromCharCode(b) : String.fromCharCode(0xe000 + b);
  }
  return out;
}
const NON_ASCII = /[\u0080-\uffff]/;

/** A regex that never matches (an unterminated `[`, a class git does not know). */
const NEVER = /(?!)/;

/** The character classes of wildmatch's brackets (`[[:alpha:]]`). */
// (git's own ctype: ASCII alone; no byte above it is a letter, a space or a control.)
const CLASSES: Record<string, string> = {
  alnum: "A-Za-z0-9",
  alpha: "A-Za-z",
  blank: " \\t",
  cntrl: "\\x00-\\x1f\\x7f",
  digit: "0-9",
  graph: "\\x21-\\x7e",
  lower: "a-z",
  print: "\\x20-\\x7e",
  punct: "!-\\/:-@\\[-`{-~",
  space: " \\t\\n\\r",
  upper: "A-Z",
  xdigit: "0-9A-Fa-f",
};

/**
 * A wildmatch pattern (git's, with `WM_PATHNAME`) as a regex source matching a whole path: `*`
 * and `?` stay within a name, `[…]` is one character not `/`, `**` between slashes (or at
 * either end) crosses them, other runs of stars are one `*`; `\` escapes.
 */
function wildmatch(p: string): RegExp {
  let src = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") {
      // (A trailing backslash matches nothing.)
      if (i + 1 >= p.length) return NEVER;
      src += escapeChar(p[++i]);
    } else if (c === "?") src += "[^/]";
    else if (c === "*") {
      const start = i;
      while (p[i + 1] === "*") i++;
      const run = i - start + 1;
      const before = start === 0 || p[start - 1] === "/";
      const after = i + 1 === p.length || p[i + 1] === "/";
      if (run >= 2 && before && after) {
        if (i + 1 === p.length) src += "[\\s\\S]*";
        else {
          // (`**/`: no directory or any; the slash is taken with it.)
          src += "(?:[\\s\\S]*/)?";
          i++;
        }
      } else src += "[^/]*";
    } else if (c === "[") {
      const bracket = bracketAt(p, i);
      if (bracket === null) return NEVER;
      src += bracket.src;
      i = bracket.end;
    } else src += escapeChar(c);
  }
  return new RegExp(`^${src}$`);
}

/** A character as a regex source matching it alone (in a class: `-` too). */
function escapeChar(c: string, inClass = false): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) || (inClass && c === "-") ? `\\${c}` : c;
}

/**
 * The bracket expression starting at `p[i]` (`[`) as a regex class that never matches `/`, and
 * where it ends; null where it is not closed or names a class wildmatch does not know (git's
 * pattern then matches nothing).
 */
function bracketAt(p: string, i: number): { src: string; end: number } | null {
  let j = i + 1;
  let negated = false;
  if (p[j] === "!" || p[j] === "^") {
    negated = true;
    j++;
  }
  const parts: string[] = [];
  let first = true;
  let prev: string | null = null;
  for (; j < p.length; j++) {
    let c = p[j];
    if (c === "]" && !first) {
      const body = parts.join("");
      return {
        src: negated ? `[^/${body}]` : body === "" ? "(?!)" : `(?!/)[${body}]`,
        end: j,
      };
    }
    first = false;
    if (c === "[" && p[j + 1] === ":") {
      const close = p.indexOf(":]", j + 2);
      if (close < 0) return null;
      const cls = CLASSES[p.slice(j + 2, close)];
      if (cls === undefined) return null;
      parts.push(cls);
      j = close + 1;
      prev = null;
      continue;
    }
    if (c === "\\") {
      if (j + 1 >= p.length) return null;
      c = p[++j];
    }
    if (c === "-" && prev !== null && p[j + 1] !== undefined && p[j + 1] !== "]") {
      let hi = p[++j];
      if (hi === "\\") {
        if (j + 1 >= p.length) return null;
        hi = p[++j];
      }
      // (A range from high to low matches nothing; the low end was pushed already.)
      if (hi.codePointAt(0)! >= prev.codePointAt(0)!) {
        parts.push(`-${escapeChar(hi, true)}`);
      }
      prev = null;
      continue;
    }
    parts.push(escapeChar(c, true));
    prev = c;
  }
  return null;
}

/**
 * Whether `path` (relative to the top, no trailing `/`) is ignored by `patterns` (in order of
 * precedence, lowest first: the excludes file, `info/exclude`, then each `.gitignore` from the
 * top down): the last pattern that matches decides. Its parent directories are not looked at
 * (see `unignoredNames`, which does not go below an ignored one).
 */
export function ignoredBy(
  patterns: readonly IgnorePattern[],
  path: string,
  isDir: boolean,
  folded: boolean,
): boolean {
  // (A name whose bytes are not known, read as U+FFFD: git may see it otherwise; not ignored.)
  if (path.includes("\uFFFD")) return false;
  path = bytesOf(path);
  const name = path.slice(path.lastIndexOf("/") + 1);
  for (let i = patterns.length - 1; i >= 0; i--) {
    const p = patterns[i];
    if (p.dirOnly && !isDir) continue;
    if (!path.startsWith(p.base)) continue;
    const subject = p.basename ? name : path.slice(p.base.length);
    if (test(p.regex, subject, folded)) return !p.negative;
  }
  return false;
}

const foldedRegexes = new WeakMap<RegExp, RegExp>();

/** A regex's test, case-insensitive where `folded` (`core.ignoreCase`). */
function test(regex: RegExp, s: string, folded: boolean): boolean {
  if (!folded) return regex.test(s);
  let f = foldedRegexes.get(regex);
  if (!f) foldedRegexes.set(regex, f = new RegExp(regex.source, "i"));
  return f.test(s);
}

/** What the config files say of ignoring: the excludes file's path, and `core.ignoreCase`. */
export interface IgnoreSettings {
  /** The excludes file (absolute), or null where none is read. */
  excludesFile: string | null;
  ignoreCase: boolean;
  /** The config files read (a command that changes one first changes what is ignored). */
  files: string[];
}

/**
 * `core.excludesFile` and `core.ignoreCase` as git reads them from its config files (see
 * `gitConfig`), the last setting winning. Null where that is not sure: a file that cannot be
 * read, a variable that adds config not followed, a setting in a conditional include, a value
 * that is no boolean or no absolute path.
 */
export function ignoreSettings(
  gitDir: string,
  commonDir: string,
  fs: FsFacts,
  home: string,
  env: Record<string, string | undefined>,
): IgnoreSettings | null {
  const config = gitConfig(gitDir, commonDir, fs, home, env);
  if (config === null) return null;
  const xdg = env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : `${home}/.config`;
  const out: IgnoreSettings = {
    excludesFile: `${xdg}/git/ignore`,
    ignoreCase: false,
    files: config.files,
  };
  for (const { key, value, conditional } of config.settings) {
    if (key !== "core.ignorecase" && key !== "core.excludesfile") continue;
    if (conditional) return null;
    if (key === "core.ignorecase") {
      const b = boolValue(value);
      if (b === null) return null;
      out.ignoreCase = b;
    } else {
      const path = expandPath(value, home);
      if (path === null || (path !== "" && !path.startsWith("/"))) return null;
      out.excludesFile = path === "" ? null : path;
      out.files.push(path);
    }
  }
  return out;
}

/** The names below a work tree's directory that git does not ignore, and what decides that. */
export interface Unignored {
  /** The paths of the files below the directory git does not ignore (relative to it). */
  paths: readonly string[];
  /** Every name of a path below the directory git does not ignore (a file's, its directories'). */
  names: readonly string[];
  /**
   * The files whose change would change the answer (the ignore and config files read, a
   * `.gitignore` each directory walked may get).
   */
  watched: readonly string[];
}

const walks = new WeakMap<FsFacts, Map<string, Unignored | null>>();

/**
 * What lies below `dir` (at or below the work tree's `top`, whose repository is at `gitDir`)
 * that git does not ignore (see `Unignored`), or null where that is not known: a file that cannot
 * be read, a setting not followed, more directories than the bound. Once per directory in a
 * decision (`fs` is the decision's memo).
 */
export function unignoredNames(
  top: string,
  dir: string,
  gitDir: string,
  fs: FsFacts,
  home: string,
  env: Record<string, string | undefined>,
): Unignored | null {
  let known = walks.get(fs);
  if (!known) walks.set(fs, known = new Map());
  const key = `${top}\0${dir}`;
  if (!known.has(key)) known.set(key, walk(top, dir, gitDir, fs, home, env));
  return known.get(key)!;
}

/** The walk behind `unignoredNames`. */
function walk(
  top: string,
  dir: string,
  gitDir: string,
  fs: FsFacts,
  home: string,
  env: Record<string, string | undefined>,
): Unignored | null {
  if (!fs.entries || !fs.readText) return null;
  const commonDir = commonDirOf(gitDir, fs);
  if (commonDir === null) return null;
  const settings = ignoreSettings(gitDir, commonDir, fs, home, env);
  if (settings === null) return null;
  const watched = [...settings.files, `${commonDir}/info/exclude`];
  if (settings.excludesFile !== null) watched.push(settings.excludesFile);
  const base: IgnorePattern[] = [];
  for (const file of [settings.excludesFile, `${commonDir}/info/exclude`]) {
    if (file === null) continue;
    const text = fs.readText(file, FILE_LIMIT);
    if (text === null && fs.exists(file)) return null;
    if (text !== null) base.push(...ignorePatterns(text, ""));
  }
  const at = (d: string) => (d === top ? "" : `${d.slice(top === "/" ? 1 : top.length + 1)}/`);
  // The `.gitignore` files of the directories from the top down to `dir`, which must not be
  // ignored itself.
  const start = at(dir);
  let patterns = base;
  const parts = start === "" ? [] : start.slice(0, -1).split("/");
  for (let n = 0; n <= parts.length; n++) {
    const rel = parts.slice(0, n).join("/");
    if (n > 0 && ignoredBy(patterns, rel, true, settings.ignoreCase)) {
      return { paths: [], names: [], watched };
    }
    const abs = rel === "" ? top : `${top === "/" ? "" : top}/${rel}`;
    const own = ownPatterns(abs, rel ? `${rel}/` : "", fs, watched);
    if (own === null) return null;
    if (own.length) patterns = [...patterns, ...own];
  }
  const names = new Set<string>();
  const paths: string[] = [];
  const queue: { abs: string; rel: string; patterns: IgnorePattern[] }[] = [
    { abs: dir, rel: start, patterns },
  ];
  for (let i = 0; i < queue.length; i++) {
    if (i >= LISTINGS) return null;
    const { abs, rel, patterns: inherited } = queue[i];
    const listing = fs.entries(abs);
    if (listing === null) return null;
    // (The `.gitignore` of `dir` and above were read already.)
    let rules = inherited;
    if (i > 0) {
      const own = ownPatterns(abs, rel, fs, watched, listing);
      if (own === null) return null;
      if (own.length) rules = [...inherited, ...own];
    }
    const slash = abs === "/" ? "/" : `${abs}/`;
    for (const e of listing) {
      if (e.name === ".git") continue;
      const path = rel + e.name;
      const isDir = e.dir && !e.link;
      if (ignoredBy(rules, path, isDir, settings.ignoreCase)) continue;
      if (isDir) queue.push({ abs: slash + e.name, rel: `${path}/`, patterns: rules });
      else {
        paths.push(path.slice(start.length));
        for (const name of path.slice(start.length).split("/")) names.add(name);
      }
    }
  }
  return { paths, names: [...names], watched };
}

/**
 * The patterns of the `.gitignore` in `abs` (relative `rel`, `""` or `dir/`), none where there is
 * none or it is a symlink (git does not follow one); null where it cannot be read. Its path is
 * added to `watched`.
 */
function ownPatterns(
  abs: string,
  rel: string,
  fs: FsFacts,
  watched: string[],
  listing = fs.entries!(abs),
): IgnorePattern[] | null {
  const file = `${abs === "/" ? "" : abs}/.gitignore`;
  watched.push(file);
  if (listing === null) return null;
  const entry = listing.find((e) => e.name === ".gitignore");
  if (!entry || entry.link || entry.dir) return [];
  const text = fs.readText!(file, FILE_LIMIT);
  return text === null ? null : ignorePatterns(text, rel);
}
