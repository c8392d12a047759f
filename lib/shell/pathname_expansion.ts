/**
 * Pathname expansion as bash does it, over the engine's FsFacts: a glob word's pattern (quoted and
 * escaped characters written `\x`, see {@linkcode Word.pattern}) matched against the directories
 * it names, relative to a cwd (RULINGS "What can be seen": globs are expanded when the call is
 * decided). `*`, `?`, `[…]` (`[!…]`, `[^…]`, ranges, `[:class:]`), a match never crossing `/`,
 * names starting with `.` only for a component starting with `.` (or under `dotglob`), `**` only
 * under `globstar`, extglob groups only under `extglob`, `nocaseglob`, `nullglob`, `failglob`.
 * What cannot be matched exactly (over the bounds, an unreadable directory, braces, `!(…)`, a
 * pattern this reader does not know) is a fallback: the caller judges the word by its prefix.
 *
 * @module
 */
import type { DirEntry, FsFacts } from "../types.ts";
import type { Stage } from "./model.ts";
import { unquotedText } from "./words.ts";

/**
 * How much of the filesystem one expansion may look at: directories listed, entries read
 * (summed over the listings), and matches. A project's usual globs (`src/*.ts`,
 * `astropy/io/*\/connect.py`, `tests/test_ext*`) list one to a few dozen directories; a `**`
 * over a large tree or a directory of tens of thousands of files is judged by its prefix.
 */
export const GLOB_BOUNDS = { listings: 128, entries: 20_000, matches: 512 };

/** The `shopt` options that change pathname expansion. */
export interface GlobOptions {
  dotglob?: boolean;
  nocaseglob?: boolean;
  globstar?: boolean;
  extglob?: boolean;
  nullglob?: boolean;
  failglob?: boolean;
}

/** The result of expanding one pattern. */
export type Expansion =
  /** The words bash passes (relative patterns give relative words), sorted. */
  | { kind: "matches"; words: string[] }
  /** Nothing matched: the word stays as written (unless nullglob or failglob). */
  | { kind: "none" }
  /** Not expanded exactly: judge the word by its literal prefix. */
  | { kind: "fallback"; reason: string };

const OPTION_NAMES = ["dotglob", "nocaseglob", "globstar", "extglob", "nullglob", "failglob"];
/** Options that only widen what a glob matches: assumed set when a `shopt` word is not known. */
const WIDENING: GlobOptions = { dotglob: true, nocaseglob: true, globstar: true, extglob: true };

/**
 * The glob options a command may set for its own globs. An option named anywhere in its text
 * (`shopt -s dotglob`, `bash -O globstar -c …`) counts, wherever and whenever it is set: one
 * that only widens the matches may be assumed, and nullglob/failglob only drop a word. A `shopt`
 * or a shell given a word not known (`shopt -s $o`), `BASHOPTS`, or a `BASH_ENV` script in the
 * tool's environment may set any of the widening ones; a `GLOBIGNORE` makes `*` match hidden names.
 */
export function globOptions(
  source: string,
  stages: Stage[],
  env: Record<string, string | undefined> = {},
): GlobOptions {
  // (Names as bash reads them after quote removal: `shopt -s dotgl\ob`, `read GLOB\IGNORE`.)
  const text = unquotedText(source);
  const out: GlobOptions = {};
  if (env.BASHOPTS || env.BASH_ENV || env.SHELLOPTS) Object.assign(out, WIDENING);
  if (env.GLOBIGNORE || text.includes("GLOBIGNORE")) out.dotglob = true;
  if (!/glob/.test(text) && !/shopt|BASHOPTS/.test(text)) return out;
  for (const name of OPTION_NAMES) {
    if (text.includes(name)) out[name as keyof GlobOptions] = true;
  }
  const unknown = stages.some((s) => {
    const name = s.argv[0];
    return name?.kind === "static" && /(^|\/)(shopt|bash|sh)$/.test(name.value) &&
      s.argv.some((w) => w.kind === "dynamic");
  });
  if (unknown || /BASHOPTS/.test(text)) Object.assign(out, WIDENING);
  return out;
}

/** Whether a pattern has a character bash expands (unescaped `*`, `?`, `[`). */
export function hasGlob(pattern: string): boolean {
  return /(^|[^\\])(\\\\)*[*?[]/.test(pattern);
}

/** A text as a pattern that matches it literally (quoted text inside a glob word). */
export function literalPattern(text: string): string {
  return text.replace(/[\\*?[\]()|@!+{}^]/g, "\\$&");
}

/** One component of a pattern: literal text, or a matcher. */
type Component =
  | { literal: string }
  | { re: RegExp; dot: boolean; star2: boolean; source: string };

/** The pattern's components, or a reason it cannot be matched exactly. */
function components(pattern: string, opts: GlobOptions): Component[] | string {
  const parts = splitSlashes(pattern);
  if (typeof parts === "string") return parts;
  const out: Component[] = [];
  for (const p of parts) {
    if (!hasGlob(p) && !(opts.extglob && /(^|[^\\])(\\\\)*[?*+@!]\(/.test(p))) {
      out.push({ literal: p.replace(/\\([\s\S])/g, "$1") });
      continue;
    }
    if (p === "**" && opts.globstar) {
      out.push({ re: /^/, dot: false, star2: true, source: p });
      continue;
    }
    const re = componentRegex(p, opts);
    if (typeof re === "string") return re;
    // A name starting with `.` is matched only by a component starting with one (`\.` too).
    out.push({ re, dot: /^(\\)?\./.test(p), star2: false, source: p });
  }
  return out;
}

/** The pattern split at its `/` (none may sit in a bracket expression). */
function splitSlashes(pattern: string): string[] | string {
  const parts: string[] = [];
  let cur = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      cur += c + (pattern[i + 1] ?? "");
      i++;
    } else if (c === "/") {
      parts.push(cur);
      cur = "";
    } else if (c === "{") return "braces expand into several words first";
    else cur += c;
  }
  parts.push(cur);
  return parts;
}

const CLASSES: Record<string, string> = {
  alpha: "a-zA-Z",
  digit: "0-9",
  alnum: "a-zA-Z0-9",
  upper: "A-Z",
  lower: "a-z",
  space: " \\t\\n\\r\\f\\v",
  blank: " \\t",
  punct: "!-\\/:-@\\[-`{-~",
  xdigit: "0-9A-Fa-f",
  word: "\\w",
  print: " -~",
  graph: "!-~",
  cntrl: "\\x00-\\x1f\\x7f",
};

/** The regex of one glob component, or why it has none. */
function componentRegex(p: string, opts: GlobOptions): RegExp | string {
  let src = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") {
      src += escapeRe(p[++i] ?? "\\");
    } else if (opts.extglob && "?*+@!".includes(c) && p[i + 1] === "(") {
      if (c === "!") return "a !(…) group is not matched here";
      const end = groupEnd(p, i + 1);
      if (end === -1) return "an extglob group is not closed";
      const alts = splitAlternatives(p.slice(i + 2, end)).map((a) => componentRegex(a, opts));
      const bad = alts.find((a) => typeof a === "string");
      if (bad !== undefined) return bad as string;
      const body = (alts as RegExp[]).map((a) => a.source.slice(1, -1)).join("|");
      src += `(?:${body})${c === "@" ? "" : c === "?" ? "?" : c}`;
      i = end;
    } else if ("()|".includes(c)) {
      return "parentheses in a glob word";
    } else if (c === "*") src += "[^/]*";
    else if (c === "?") src += "[^/]";
    else if (c === "[") {
      const set = bracket(p, i);
      if (set === null) src += "\\[";
      else if (typeof set === "string") return set.slice(1);
      else {
        src += set.re;
        i = set.end;
      }
    } else src += escapeRe(c);
  }
  try {
    return new RegExp(`^${src}$`, opts.nocaseglob ? "isu" : "su");
  } catch {
    return "a pattern this reader does not match";
  }
}

/** Where the `(` at `open` is closed, or -1. */
function groupEnd(p: string, open: number): number {
  let depth = 0;
  for (let i = open; i < p.length; i++) {
    if (p[i] === "\\") i++;
    else if (p[i] === "(") depth++;
    else if (p[i] === ")" && --depth === 0) return i;
  }
  return -1;
}

/** The `|`-separated alternatives of a group's body, at its top level. */
function splitAlternatives(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "\\") i++;
    else if (body[i] === "(") depth++;
    else if (body[i] === ")") depth--;
    else if (body[i] === "|" && depth === 0) {
      out.push(body.slice(from, i));
      from = i + 1;
    }
  }
  out.push(body.slice(from));
  return out;
}

/**
 * The bracket expression at `at`: its regex and where it ends; null when it is not closed (the
 * `[` is then literal); "!reason" when it holds what is not matched here (`[=a=]`, `[.a.]`).
 */
function bracket(p: string, at: number): { re: string; end: number } | string | null {
  let i = at + 1;
  let negate = false;
  if (p[i] === "!" || p[i] === "^") {
    negate = true;
    i++;
  }
  let body = "";
  let first = true;
  for (; i < p.length; i++) {
    const c = p[i];
    if (c === "]" && !first) {
      // A match never holds `/`; a negated set never matches one either.
      return { re: `[${negate ? "^/" : ""}${body}]`, end: i };
    }
    first = false;
    if (c === "[" && (p[i + 1] === ":" || p[i + 1] === "=" || p[i + 1] === ".")) {
      const close = p.indexOf(p[i + 1] + "]", i + 2);
      if (close === -1) return null;
      const name = p.slice(i + 2, close);
      if (p[i + 1] !== ":" || !Object.hasOwn(CLASSES, name)) {
        return "!a bracket expression this reader does not match";
      }
      body += CLASSES[name];
      i = close + 1;
    } else if (c === "\\") {
      body += escapeClass(p[++i] ?? "\\");
    } else if (c === "-" && body !== "" && p[i + 1] !== "]" && p[i + 1] !== undefined) {
      body += "-";
    } else body += escapeClass(c);
  }
  return null;
}

function escapeRe(c: string): string {
  return c.replace(/[\\^$.|?*+()[\]{}\/]/g, "\\$&");
}

function escapeClass(c: string): string {
  return c.replace(/[\\\]\[^-]/g, "\\$&");
}

/** What one expansion has used of its bounds. */
interface Budget {
  listings: number;
  entries: number;
}

/** Thrown inside the walk to stop it with a fallback. */
class Fallback {
  constructor(readonly reason: string) {}
}

/**
 * Expand a pattern (absolute, or relative to `cwd`) as bash would now, or fall back. The words
 * keep the pattern's form (`src/a.ts` for `src/*.ts`, `/p/x` for `/p/*`).
 */
export function expandPathname(
  pattern: string,
  cwd: string,
  fs: FsFacts,
  opts: GlobOptions = {},
): Expansion {
  if (!fs.entries) return { kind: "fallback", reason: "directories cannot be listed" };
  const comps = components(pattern, opts);
  if (typeof comps === "string") return { kind: "fallback", reason: comps };
  const absolute = pattern.startsWith("/");
  const budget: Budget = { listings: 0, entries: 0 };
  const found: string[] = [];
  // Each partial match as [word so far, absolute directory it names].
  let frontier: [string, string][] = [[absolute ? "/" : "", absolute ? "/" : cwd]];
  const start = absolute ? 1 : 0;
  try {
    for (let i = start; i < comps.length; i++) {
      const c = comps[i];
      const last = i === comps.length - 1;
      const next: [string, string][] = [];
      for (const [word, dir] of frontier) {
        for (const name of stepMatches(c, dir, fs, opts, budget, last)) {
          const w = join(word, name);
          next.push([w, join(dir, name)]);
          if (next.length > GLOB_BOUNDS.matches) throw new Fallback("too many matches");
        }
      }
      frontier = next;
      if (!frontier.length) return { kind: "none" };
    }
  } catch (e) {
    if (e instanceof Fallback) return { kind: "fallback", reason: e.reason };
    throw e;
  }
  for (const [w] of frontier) found.push(w);
  return found.length ? { kind: "matches", words: found.sort() } : { kind: "none" };
}

/** `word` and `name` joined by one `/` (an empty component, `a//b`, keeps its slashes). */
function join(word: string, name: string): string {
  if (word === "") return name;
  return word.endsWith("/") && name !== "" ? word + name : word + "/" + name;
}

/** The names in `dir` a component matches (a `**` may give `a/b/c` paths). */
function stepMatches(
  c: Component,
  dir: string,
  fs: FsFacts,
  opts: GlobOptions,
  budget: Budget,
  last: boolean,
): string[] {
  if ("literal" in c) {
    // A literal component after a glob: the name must be there (a dangling link counts), or,
    // before the last component, lead to a directory; `""` (a trailing `/`) keeps directories.
    if (c.literal === "" || c.literal === "." || c.literal === "..") {
      return c.literal === "" && !last ? [""] : fs.isDirectory?.(dir) ? [c.literal] : [];
    }
    const path = join(dir, c.literal);
    if (fs.exists(path)) return last || fs.isDirectory?.(path) ? [c.literal] : [];
    if (!last) return [];
    const listing = list(dir, fs, budget);
    return listing?.some((e) => e.name === c.literal && e.link) ? [c.literal] : [];
  }
  const listing = list(dir, fs, budget);
  if (!listing) return [];
  if (c.star2) return globstar(dir, "", listing, fs, opts, budget, last);
  const out: string[] = [];
  for (const e of listing) {
    if (e.name.startsWith(".") && !c.dot && !opts.dotglob) continue;
    if (!c.re.test(e.name)) continue;
    if (!last && !e.dir && !(e.link && fs.isDirectory?.(join(dir, e.name)))) continue;
    out.push(e.name);
  }
  // (`.` and `..` are no entries; a component starting with `.` may match them in a bash before
  // 5.2, or with globskipdots off: counted, as a match too many only judges one more path.)
  if (c.dot) { for (const d of [".", ".."]) if (c.re.test(d)) out.push(d); }
  return out;
}

/**
 * `**` under globstar: every name below `dir` (none starting with `.` without dotglob), and `dir`
 * itself as `""`; before the last component only directories.
 */
function globstar(
  dir: string,
  at: string,
  listing: DirEntry[],
  fs: FsFacts,
  opts: GlobOptions,
  budget: Budget,
  last: boolean,
): string[] {
  const out: string[] = at === "" && !last ? [""] : [];
  for (const e of listing) {
    if (e.name.startsWith(".") && !opts.dotglob) continue;
    const rel = at === "" ? e.name : at + "/" + e.name;
    const isDir = e.dir || (e.link && fs.isDirectory?.(join(dir, e.name)) === true);
    if (last || isDir) out.push(rel);
    // (Links to directories are walked too: a match too many is one more path judged.)
    if (isDir) {
      const sub = list(join(dir, e.name), fs, budget);
      if (sub) out.push(...globstar(join(dir, e.name), rel, sub, fs, opts, budget, last));
    }
  }
  return out;
}

/**
 * A directory's entries, counted against the bounds; null when it does not exist or is no
 * directory (no match there). One that exists but cannot be read stops the expansion.
 */
function list(dir: string, fs: FsFacts, budget: Budget): DirEntry[] | null {
  if (++budget.listings > GLOB_BOUNDS.listings) throw new Fallback("too many directories");
  const listing = fs.entries!(dir);
  if (listing === null) {
    if (fs.exists(dir) && fs.isDirectory?.(dir) !== false) {
      throw new Fallback("a directory cannot be read");
    }
    return null;
  }
  budget.entries += listing.length;
  if (budget.entries > GLOB_BOUNDS.entries) throw new Fallback("too many entries");
  return listing;
}
