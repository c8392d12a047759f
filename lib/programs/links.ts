/**
 * Symlinks a command makes for its own later stages (`ln -s ~ h && cat h/.ssh/id_rsa`): when the
 * engine judges a path, a path through such a link is also judged where the link will lead.
 *
 * @module
 */
import { basename, dirname, resolve } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { hasOption, readOptions } from "./argv.ts";
import { COPY_GRAMMARS } from "./copy_options.ts";
import type { MadeLink, Program } from "./spec.ts";
import { isWithin } from "../shell/paths.ts";
import type { DirEntry, FsFacts } from "../types.ts";
import { copyBackups } from "./backups.ts";

/** ln's and cp's grammars (copy_options.ts). */
const LN = COPY_GRAMMARS.ln;
const CP = COPY_GRAMMARS.cp;

/** What an `ln` or `cp` stage's options say about the links it makes. */
interface LinkArgs {
  program: "ln" | "cp";
  symbolic: boolean;
  relative: boolean;
  noTargetDir: boolean;
  targetDir: string | null;
  /** The operands, with their positions in argv (1-based). */
  operands: { value: string; at: number }[];
}

/** Read an `ln`/`cp` argv once; null when a word before the operands' end is not static. */
function linkArgs(argv: Word[]): LinkArgs | null {
  const program = argv[0].value.endsWith("ln") ? "ln" : "cp";
  const out: LinkArgs = {
    program,
    symbolic: false,
    relative: false,
    noTargetDir: false,
    targetDir: null,
    operands: [],
  };
  const args = argv.slice(1);
  const values = args.map((w) => (w.kind === "static" ? w.value : null));
  for (const t of readOptions(values, program === "ln" ? LN : CP)) {
    if (t.kind === "dynamic") return null;
    if (t.kind === "operand") out.operands.push({ value: values[t.at]!, at: t.at + 1 });
    else if (t.name === "-s" || t.name === "--symbolic" || t.name === "--symbolic-link") {
      out.symbolic = true;
    } else if ((t.name === "-r" && program === "ln") || t.name === "--relative") {
      out.relative = true;
    } else if (t.name === "-T" || t.name === "--no-target-directory") out.noTargetDir = true;
    else if (t.name === "-t" || t.name === "--target-directory") {
      out.targetDir = t.glued ?? (t.valueAt === undefined ? null : args[t.valueAt].value);
      if (out.targetDir === "" && t.name === "-t") out.targetDir = null;
    }
  }
  return out;
}

/**
 * The links a symbolic `ln`/`cp` makes, relative to the cwd: each link's name with the target
 * operand it is made for (as written). `ln -s T DIR` may make `DIR/T`'s name or `DIR` itself:
 * both are kept.
 */
function linkPairs(a: LinkArgs): { link: string; target: string; at: number }[] {
  const pairs: { link: string; target: string; at: number }[] = [];
  const ops = a.operands;
  if (!a.symbolic || !ops.length) return pairs;
  if (a.targetDir !== null) {
    for (const t of ops) {
      if (named(t.value)) {
        pairs.push({ link: a.targetDir + "/" + basename(t.value), target: t.value, at: t.at });
      }
    }
  } else if (ops.length === 1) {
    if (named(ops[0].value)) {
      pairs.push({ link: basename(ops[0].value), target: ops[0].value, at: ops[0].at });
    }
  } else {
    const last = ops[ops.length - 1].value;
    const targets = ops.slice(0, -1);
    for (const t of targets) {
      if (targets.length === 1) pairs.push({ link: last, target: t.value, at: t.at });
      if (!a.noTargetDir && named(t.value)) {
        pairs.push({ link: last + "/" + basename(t.value), target: t.value, at: t.at });
      }
    }
  }
  return pairs;
}

/**
 * The symlinks `ln -s` / `ln --symbolic` and `cp -s` / `cp --symbolic-link` stages make, for each
 * cwd they may run in. Operands that are not static make no entry (the stage itself is then not
 * known, and asks).
 */
function symlinksMade(stage: Stage): MadeLink[] {
  const out: MadeLink[] = [];
  const a = linkArgs(stage.argv);
  if (!a) return out;
  const pairs = linkPairs(a);
  for (const cwd of stage.cwds) {
    if (cwd === null) continue;
    for (const { link, target: t } of pairs) {
      // A relative target is read from the link's directory (with -r, ln writes it so). It
      // is kept as written: the kernel walks a `..` in it from where the names before lead.
      const at = resolve(cwd, link);
      const target = t.startsWith("/") ? t : (a.relative ? cwd : dirname(at)) + "/" + t;
      out.push({ link: at, target });
    }
  }
  return out;
}

/**
 * The relative targets of the symlinks `ln -s` makes in another directory (`ln -s ../src d/l`):
 * the link reads them from its own directory, not from the cwd. (With `-r`, ln computes the link
 * from the target as named from the cwd; in the cwd, the two are the same.)
 */
function linkTargets(a: LinkArgs | null): { at: number; path: string | null }[] {
  if (!a || a.program !== "ln" || a.relative) return [];
  const out: { at: number; path: string | null }[] = [];
  for (const { link, target, at } of linkPairs(a)) {
    if (target.startsWith("/") || /[$`*?[{~]/.test(target)) continue;
    const dir = dirname(link);
    // null: the link is made in the cwd, where the target is named from anyway.
    out.push({ at, path: dir === "." ? null : dir + "/" + target });
  }
  return out;
}

/** ln and cp (`-s`): the symlinks they make; cp also copies over the files below a directory. */
export const LINK_PROGRAMS: Program[] = [
  {
    names: ["ln"],
    options: LN,
    links: symlinksMade,
    // A link made in a directory it names is named there (`ln -sf /tmp/settings.json .pi`
    // replaces `.pi/settings.json`): what lies below the directory may be replaced.
    replacesTrees: true,
    writesOnlyNamed: true,
    // A relative symlink target in another directory is named from the link's directory: there
    // it is judged, instead of from the cwd (each reading of `ln -s T DIR` is judged).
    text: (argv) => {
      const targets = linkTargets(linkArgs(argv));
      // An operand that some reading names from the cwd stays a path from the cwd as well.
      return targets.filter((t) => !targets.some((u) => u.at === t.at && u.path === null))
        .map((t) => t.at);
    },
    namedFiles: (argv, stage) => [
      ...linkTargets(linkArgs(argv)).flatMap((t) =>
        t.path === null ? [] : [{ path: t.path, source: argv[t.at].text }]
      ),
      ...copyBackups(argv, stage),
    ],
  },
  {
    names: ["cp"],
    options: CP,
    links: symlinksMade,
    replacesTrees: true,
    writesOnlyNamed: true,
    // (`-b`: the backup it keeps of what it replaces, named by its suffix.)
    namedFiles: copyBackups,
    // `cp -rL`: the copy reads where the links inside the tree lead.
    followsLinks: (argv) =>
      hasOption(argv, CP, ["-L", "--dereference"]) &&
      hasOption(argv, CP, ["-r", "-R", "--recursive", "-a", "--archive"]),
  },
];

/** Whether a link made in a directory can be named after `target` (never `.` or `..`, which exist). */
function named(target: string): boolean {
  return !/^\.\.?$/.test(basename(target));
}

/**
 * Where `path` leads through the links a command makes, when it goes through one (following up
 * to four links made in a row); null when it goes through none. Through a link whose target is
 * not known (`MadeLink.target` null), `UNKNOWN_PLACE`.
 */
export function throughLinks(path: string, links: MadeLink[]): string | null {
  let cur = path;
  let moved = false;
  for (let n = 0; n < 4; n++) {
    const hit = links.find((l) => isWithin(cur, l.link));
    if (!hit) break;
    if (hit.target === null) return UNKNOWN_PLACE;
    cur = hit.target + cur.slice(hit.link.length);
    moved = true;
  }
  return moved ? cur : null;
}

/** What `throughLinks` gives through a link whose target is not known (no absolute path). */
export const UNKNOWN_PLACE = "(where a symlink the command makes leads, not known)";

/** How much of the filesystem a glob is matched against, at most, to find its symlinks. */
const GLOB_LISTINGS = 4;
const GLOB_LINKS = 64;

/**
 * The real paths of the symlinks an absolute glob (`/p/*`, `/p/*\/x*`) may match, listing the
 * directories it walks (a bounded number): a glob reaches below its prefix, and through a
 * symlink there it reaches where the link leads (`cat *` with `lf -> ~/.ssh/id_rsa`). Each
 * component with glob characters is matched loosely (any quoting ignored: a match too many only
 * judges one more path), but a name starting with `.` only by a component that does.
 */
export function globLinks(pattern: string, fs: FsFacts): string[] {
  if (!fs.entries) return [];
  const parts = pattern.split("/").filter((p) => p !== "" && p !== ".");
  const out: string[] = [];
  let listings = 0;
  const walk = (dir: string, i: number): void => {
    if (i >= parts.length || out.length >= GLOB_LINKS) return;
    const part = parts[i];
    const path = (name: string) => (dir === "/" ? "/" : dir + "/") + name;
    if (!/[*?[{]/.test(part)) return walk(part === ".." ? dirname(dir) : path(part), i + 1);
    if (++listings > GLOB_LISTINGS) return;
    const re = componentRegex(part);
    const listing = fs.entries!(dir);
    if (!listing) return;
    // The last component needs the links alone.
    const kinds = sortedOut(listing);
    for (const e of i === parts.length - 1 ? kinds.links : kinds.more) {
      if (!re.test(e.name) || (e.name.startsWith(".") && !part.startsWith("."))) continue;
      if (e.link) {
        const real = fs.realpath(path(e.name));
        if (real) out.push(real);
      } else if (e.dir) walk(path(e.name), i + 1);
      if (out.length >= GLOB_LINKS) return;
    }
  };
  walk("/", 0);
  return out;
}

/** How much of a tree is walked, at most, to find where the symlinks inside it lead. */
const TREE_LISTINGS = 256;
const TREE_LINKS = 64;

/**
 * Where the symlinks inside a directory lead (their real paths), for a program that follows them
 * while it reads the tree (`grep -R`, `rg -L`, `find -L`). The walk is bounded: `complete` is
 * false when the tree was too large to see all of it, or it or a directory inside it could not be
 * listed.
 */
export function treeLinks(
  dir: string,
  fs: FsFacts,
  names?: string,
): { links: string[]; complete: boolean; splits: boolean; dashes: boolean } {
  // (Only links a lister's name glob matches are listed; matched loosely: one more link judged.)
  const named = names === undefined ? null : componentRegex(names, true);
  if (!fs.entries) return { links: [], complete: false, splits: false, dashes: false };
  const links: string[] = [];
  const queue = [dir];
  let listings = 0;
  let splits = false;
  let dashes = false;
  for (let at = 0; at < queue.length; at++) {
    if (++listings > TREE_LISTINGS) return { links, complete: false, splits, dashes };
    const here = queue[at];
    const listing = fs.entries(here);
    if (!listing) {
      // A directory found inside that cannot be listed (mode 000) hides what is below it; the
      // top may be a file (nothing below it) or a directory that cannot be listed either.
      if (at > 0 || fs.isDirectory?.(here) === true) {
        return { links, complete: false, splits, dashes };
      }
      continue;
    }
    const kinds = sortedOut(listing);
    if (kinds.splits) splits = true;
    if (kinds.dashes) dashes = true;
    const base = here === "/" ? "/" : here + "/";
    for (const e of kinds.links) {
      if (named !== null && !named.test(e.name)) continue;
      // (A listed link mostly resolves: one lookup, where asking first whether it does is two.)
      const at = base + e.name;
      const real = fs.realpathExpected ? fs.realpathExpected(at) : fs.realpath(at);
      if (real && !links.includes(real)) links.push(real);
      if (links.length >= TREE_LINKS) return { links, complete: false, splits, dashes };
    }
    for (const e of kinds.dirs) queue.push(base + e.name);
    // Every directory found is listed in turn: once more are found than the bound allows, the
    // walk cannot be complete, and the listings left would only cost time (a stat each).
    if (queue.length > TREE_LISTINGS) return { links, complete: false, splits, dashes };
  }
  return { links, complete: true, splits, dashes };
}

/** A name that xargs (or `read`) would split into other words: blanks, quotes, backslashes. */
const SPLIT_NAME = /[\s"'\\]/;

const componentRegexes = new Map<string, RegExp>();
/** A listing's entries sorted out for the walks: its links, its directories, both. */
interface Kinds {
  links: DirEntry[];
  dirs: DirEntry[];
  more: DirEntry[];
  /** Whether a name would be split into words (`SPLIT_NAME`). */
  splits: boolean;
  /** Whether a name starts with `-` (an option, where it is handed on as a word as it is). */
  dashes: boolean;
}
const sorted = new WeakMap<DirEntry[], Kinds>();

/**
 * A listing sorted out once: a listing is reused while its directory is unchanged, and a walk
 * then looks only at the entries it goes on with instead of every file.
 */
function sortedOut(listing: DirEntry[]): Kinds {
  let kinds = sorted.get(listing);
  if (!kinds) {
    kinds = { links: [], dirs: [], more: [], splits: false, dashes: false };
    for (const e of listing) {
      if (SPLIT_NAME.test(e.name)) kinds.splits = true;
      if (e.name.startsWith("-")) kinds.dashes = true;
      if (e.link) kinds.links.push(e);
      else if (e.dir) kinds.dirs.push(e);
      if (e.link || e.dir) kinds.more.push(e);
    }
    sorted.set(listing, kinds);
  }
  return kinds;
}

/**
 * A loose regex for one glob component: `*`, `?`, `[…]`, `{…}` and extglob groups match
 * anything. With `classes` (a pattern of a program's own, no shell quoting: a lister's name
 * glob), a bracket of letters and digits alone (`-iname`'s `[mM][dD]`) matches one of them.
 */
function componentRegex(part: string, classes = false): RegExp {
  const key = classes ? "\u0001" + part : part;
  let re = componentRegexes.get(key);
  if (!re) {
    if (componentRegexes.size >= 1000) componentRegexes.clear();
    componentRegexes.set(key, re = looseRegex(part, classes && !part.includes("\\")));
  }
  return re;
}

function looseRegex(part: string, classes: boolean): RegExp {
  const loose = part.replace(
    /\[[^\]]*\]?|\{[^}]*\}?|[@!+*?]?\([^)]*\)?/g,
    (m) => classes && /^\[[A-Za-z0-9]+\]$/.test(m) ? `\u0001${m.slice(1, -1)}\u0001` : "\u0000",
  ).replace(/[*?]/g, "\u0000");
  const source = loose.split("\u0000").map((s) =>
    s.split("\u0001").map((t, i) => i % 2 ? `[${t}]` : t.replace(/[\\^$.|+()[\]{}]/g, "\\$&"))
      .join("")
  ).join(".*");
  return new RegExp(`^${source}$`, "su");
}
