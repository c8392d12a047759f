/**
 * pathProtection: globs over paths that no rule, approval or session choice can open up.
 *
 * @module
 */
import { isAbsolute, resolve } from "node:path";
import process from "node:process";
import { PROTECTION_RANK } from "./action.ts";
import { mayMakeName } from "./made_names.ts";
import { expandTilde, isWithin } from "../shell/paths.ts";
import type { Config, ProtectionAction, ProtectionEntry } from "../types.ts";

/** A protection entry compiled for one home directory. */
interface CompiledProtection {
  entry: ProtectionEntry;
  /** The entry's glob as it is matched (lower case where paths are; see `foldsCase`). */
  glob: string;
  /** Matches a whole absolute path (globs with a `/`). */
  full: RegExp | null;
  /** Matches one path component (globs without a `/`). */
  component: RegExp | null;
  /** Path globs: the absolute directory before the first wildcard (null: relative, no base). */
  prefix: string | null;
  /** Component globs: the glob has no wildcard (a plain name like `.env`). */
  literal: boolean;
  /** Literal names: whether a bash name glob may match it, by word (pure; bounded). */
  meets?: Map<string, boolean>;
  /**
   * Path globs of any depth (no base): the literal text before the first wildcard, which every
   * path it matches contains (a quick test before the regex); "" when it starts with one.
   */
  needle: string;
  /**
   * Relative built-in globs without wildcards (`.pi/extensions`): their leading parts
   * (`.pi`, `.pi/extensions` without the last), each also after a slash, and the first name.
   */
  heads?: { parts: string[]; first: string };
  /** Path globs with a base: the glob as an absolute path (`~` expanded, folded as `glob`). */
  abs?: string;
  /** The directories its last name lies right in (see `parentOf`), once asked. */
  parent?: RegExp | null;
  /** The glob's last name as a regex of one component (see `lastName`), once asked. */
  last?: RegExp | null;
  /** The directories a path it matches lies below (see `leadOf`), once asked. */
  lead?: RegExp | null;
}

const compiled = new WeakMap<Config, Map<string, CompiledProtection[]>>();

/** Translate a protection glob to a regex source: `**` crosses `/`, `*` and `?` do not. */
function globSource(glob: string): string {
  let src = "";
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === "*" && glob[i + 1] === "*") {
      i++;
      if (glob[i + 1] === "/") {
        i++;
        src += "(?:[^]*/)?";
      } else src += "[^]*";
    } else if (ch === "*") src += "[^/]*";
    else if (ch === "?") src += "[^/]";
    else src += ch.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  return src;
}

function compile(entry: ProtectionEntry, home: string, fold: boolean): CompiledProtection {
  const own = fold ? entry.glob.toLowerCase() : entry.glob;
  const glob = fold ? expandTilde(entry.glob, home).toLowerCase() : expandTilde(entry.glob, home);
  const base = entry.base && fold ? entry.base.toLowerCase() : entry.base;
  if (!glob.includes("/")) {
    const component = new RegExp(`^${globSource(glob)}$`, "u");
    return {
      entry,
      glob: own,
      full: null,
      component,
      prefix: null,
      literal: !/[*?[]/.test(entry.glob),
      needle: "",
    };
  }
  let src: string;
  let abs: string | undefined;
  if (isAbsolute(glob)) src = globSource((abs = resolve(glob)) + (glob.endsWith("/") ? "/" : ""));
  else if (base) src = globSource(abs = resolve(base, glob));
  else src = "(?:[^]*/)?" + globSource(glob.replace(/^\.\//, ""));
  const full = new RegExp(`^${src.replace(/\/$/, "")}$`, "u");
  // (The literal directory before the first wildcard: `/srv/a*/keys` lies in `/srv`, not in a
  // `/srv/a` that `/srv/abc` is not inside.)
  const wild = glob.search(/[*?[]/);
  const literal = wild < 0 ? glob : glob.slice(0, glob.lastIndexOf("/", wild) + 1);
  const prefix = isAbsolute(literal) ? resolve(literal) : base ? resolve(base, literal) : null;
  const head = glob.replace(/^\.\//, "");
  const needle = prefix === null ? head.slice(0, head.search(/[*?[]|$/)) : "";
  const out: CompiledProtection = {
    entry,
    glob: own,
    full,
    component: null,
    prefix,
    literal: false,
    needle,
    abs,
  };
  if (prefix === null && entry.writes) {
    const parts = own.split("/");
    out.heads = { parts: [], first: parts[0] };
    for (let n = 1; n < parts.length; n++) out.heads.parts.push(parts.slice(0, n).join("/"));
  }
  return out;
}

function compiledFor(config: Config, home: string): CompiledProtection[] {
  let byHome = compiled.get(config);
  if (!byHome) compiled.set(config, byHome = new Map());
  let list = byHome.get(home);
  if (!list) {
    const fold = foldsCase(config);
    list = config.pathProtection.map((e) => compile(e, home, fold));
    byHome.set(home, list);
  }
  return list;
}

/**
 * Whether protection matches paths without regard to case: where the filesystem may not tell
 * `.PI/MCP.json` from `.pi/mcp.json` (macOS and Windows by default), a path is matched in lower
 * case against the globs in lower case.
 */
function foldsCase(config: Config): boolean {
  return config.caseInsensitive ?? CASE_INSENSITIVE;
}

const CASE_INSENSITIVE = process.platform === "darwin" || process.platform === "win32";

/** A path as protection matches it (lower case where case is not told apart). */
function folded(config: Config, path: string): string {
  return foldsCase(config) ? path.toLowerCase() : path;
}

const guards = new WeakMap<Config, Map<string, (path: string) => boolean>>();

/**
 * A quick test of whether a path is itself named by a protection glob (not checking the
 * directories above it), or is a directory a path a glob names would lie below (`.pi` for
 * `.pi/settings.json`, `secrets` for `secrets/**`), for a bare word that may create a file
 * (`tee key.pem`) or a tree (`cp -r /tmp/x .pi`); undefined when nothing is protected. Made once
 * per config and home.
 */
export function protectedPathTest(
  config: Config,
  home: string,
): ((path: string) => boolean) | undefined {
  if (config.pathProtection.length === 0) return undefined;
  let byHome = guards.get(config);
  if (!byHome) guards.set(config, byHome = new Map());
  let test = byHome.get(home);
  if (!test) {
    const list = compiledFor(config, home);
    const fold = foldsCase(config);
    test = (given: string) => {
      const path = fold ? given.toLowerCase() : given;
      const name = path.slice(path.lastIndexOf("/") + 1);
      for (const p of list) {
        if (
          p.component
            ? p.component.test(name)
            : ((p.prefix === null ? path.includes(p.needle) : isWithin(path, p.prefix)) &&
              p.full!.test(path)) || leadOf(p)?.test(path) === true
        ) return true;
      }
      return false;
    };
    byHome.set(home, test);
  }
  return test;
}

/** A protection that applies to a path: the glob, its action, and whether it is built in. */
export type Protection = { glob: string; action: ProtectionAction; builtin?: true };

type Found = Protection | null;
const answers = new WeakMap<Config, Map<string, Map<string, { read: Found; write: Found }>>>();

/**
 * The strictest protection entry matching an absolute path or any directory above it (protecting
 * a directory protects what is inside it), or null. `write`: the access may change the path (the
 * built-in entries for the gate's own files count only then).
 */
export function protectionFor(
  config: Config,
  path: string,
  home: string,
  write = true,
): Protection | null {
  if (config.pathProtection.length === 0) return null;
  const known = answer(config, path, home);
  return write ? known.write : known.read;
}

/** Both answers for a path: a pure function of config, home and path, remembered (bounded). */
function answer(config: Config, path: string, home: string): { read: Found; write: Found } {
  return remembered(answers, config, home, folded(config, path), findProtection);
}

/** Paths remembered per config and home, before the memo starts over. */
const REMEMBERED = 20_000;

/** `make(config, path, home)`, remembered in `store` by config, home and path (bounded). */
function remembered<T>(
  store: WeakMap<Config, Map<string, Map<string, T>>>,
  config: Config,
  home: string,
  path: string,
  make: (config: Config, path: string, home: string) => T,
): T {
  let byHome = store.get(config);
  if (!byHome) store.set(config, byHome = new Map());
  let memo = byHome.get(home);
  if (!memo) byHome.set(home, memo = new Map());
  let known = memo.get(path);
  if (known === undefined) {
    known = make(config, path, home);
    if (memo.size > REMEMBERED) memo.clear();
    memo.set(path, known);
  }
  return known;
}

/**
 * The protection of a path for a read and for a write: the same answer unless a built-in entry
 * for the gate's own files applies (so the caller need not find out whether it writes).
 */
export function protectionPair(
  config: Config,
  path: string,
  home: string,
): { read: Protection | null; write: Protection | null } {
  if (config.pathProtection.length === 0) return NO_PAIR;
  return answer(config, path, home);
}

const NO_PAIR = Object.freeze({ read: null, write: null });

function shown(e: ProtectionEntry | null, action?: ProtectionAction): Found {
  if (!e) return null;
  const a = action ?? e.action;
  return e.writes ? { glob: e.glob, action: a, builtin: true } : { glob: e.glob, action: a };
}

function findProtection(config: Config, path: string, home: string): { read: Found; write: Found } {
  const parts = path.split("/").filter(Boolean);
  let best: ProtectionEntry | null = null;
  let bestRead: ProtectionEntry | null = null;
  for (const p of compiledFor(config, home)) {
    let hit = false;
    if (p.component) hit = parts.some((part) => p.component!.test(part));
    else if (p.full) {
      // Quick tests first: what the glob matches starts with its literal directory, or
      // (any depth) contains its literal text.
      if (p.prefix !== null ? !path.startsWith(p.prefix) : !path.includes(p.needle)) continue;
      let prefix = "";
      for (const part of parts) {
        prefix += "/" + part;
        if (p.full.test(prefix)) {
          hit = true;
          break;
        }
      }
    }
    if (!hit) continue;
    if (!best || PROTECTION_RANK[p.entry.action] > PROTECTION_RANK[best.action]) best = p.entry;
    if (
      !p.entry.writes &&
      (!bestRead || PROTECTION_RANK[p.entry.action] > PROTECTION_RANK[bestRead.action])
    ) bestRead = p.entry;
  }
  // At equal strictness the user's own entry is named (it is the one they can change).
  if (
    best?.writes && bestRead && PROTECTION_RANK[bestRead.action] >= PROTECTION_RANK[best.action]
  ) {
    best = bestRead;
  }
  return { read: shown(bestRead), write: shown(best) };
}

/**
 * Whether a bash glob for one name may match `name` (hidden names only with a leading dot, unless
 * `dots`: a glob of grep's `--include` or rg's `-g` matches them with `*` too).
 */
function bashGlobMatches(word: string, name: string, dots: boolean): boolean {
  if (!dots && name.startsWith(".") && !word.startsWith(".")) return false;
  return new RegExp("^" + filterSource(word) + "$", "u").test(name);
}

/**
 * A filter's name glob as a regular expression's source: `*`, `?`, a bracket expression
 * (`.[e]nv`, `[!a]`), and `{a,b}` alternatives (rg's globs; grep's braces are themselves, in no
 * protected name). Unbalanced braces are read as text.
 */
function filterSource(glob: string): string {
  let out = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) {
        out += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negated = body[0] === "!" || body[0] === "^";
      if (negated) body = body.slice(1);
      out += (negated ? "[^/" : "[") + body.replace(/[\\\]^]/g, "\\$&") + "]";
      i = close;
    } else if (c === "{") {
      braces++;
      out += "(?:";
    } else if (c === "," && braces > 0) out += "|";
    else if (c === "}" && braces > 0) {
      braces--;
      out += ")";
    } else out += c.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  return braces > 0 ? glob.replace(/[\\^$.|+()[\]{}*?]/g, "\\$&") : out;
}

/**
 * Whether a bash glob for one name (`*.pem`, `*`) may match a name a component glob protects. A
 * filter of the names a tree read opens (`dots`: `--include=*.py`) counts where it matches a name
 * the glob surely protects (`.pem` for `*.pem`, `id_rsa` for `id_rsa*`): any two globs with
 * wildcards may meet in some odd name, and every filtered read would ask.
 */
function namesMayMeet(
  protect: CompiledProtection,
  word: string,
  dots: boolean,
  surely = false,
): boolean {
  if (!protect.literal && dots) {
    return bashGlobMatches(word, protectedExample(protect.glob), true);
  }
  // (A lister's name filter, `find -name '*.py'`: read as bash reads a glob.)
  if (!protect.literal && surely) {
    return bashGlobMatches(word, protectedExample(protect.glob, "x"), false);
  }
  // Two patterns: they can meet unless their literal ends rule it out (`*.ts` and `*.pem`).
  if (!protect.literal) return endsMayMeet(protect.glob, word);
  if (word === "") return true;
  const meets = protect.meets ??= new Map();
  const key = dots ? "\0" + word : word;
  let known = meets.get(key);
  if (known === undefined) {
    known = bashGlobMatches(word, protect.glob, dots);
    if (meets.size >= 1000) meets.clear();
    meets.set(key, known);
  }
  return known;
}

/** A name a name glob surely protects: `*` as nothing, `?` and a bracket as one character. */
function protectedExample(glob: string, star = ""): string {
  return glob.replace(/\[!?\^?(.)[^\]]*\]/g, "$1").replace(/\*/g, star).replace(/\?/g, "x");
}

/**
 * Characters that make a glob match more than itself (extglob's too), or mark a part of a word
 * not known before it runs (`$X`, `` `…` ``, quotes around one).
 */
const WILD = /[*?[\]{}()|@!+\\$`"']/;

/**
 * Whether two name globs may match one name, by their literal starts and ends: a name both match
 * starts with both starts and ends with both ends, so one of each must extend the other.
 */
function endsMayMeet(a: string, b: string): boolean {
  const head = (g: string) => {
    const i = g.search(WILD);
    return i < 0 ? g : g.slice(0, i);
  };
  const tail = (g: string) => {
    let i = g.length;
    while (i > 0 && !WILD.test(g[i - 1])) i--;
    return g.slice(i);
  };
  const [ha, hb, ta, tb] = [head(a), head(b), tail(a), tail(b)];
  return (ha.startsWith(hb) || hb.startsWith(ha)) && (ta.endsWith(tb) || tb.endsWith(ta));
}

/** How `protectionBelow` looks. */
export interface BelowOptions {
  /**
   * The access may change what it reaches (the built-in entries count only then). A function is
   * asked only where such an entry would apply (it may run the preset over a stage).
   */
  write: boolean | (() => boolean);
  /**
   * The program may delete, move or overwrite what lies below a directory it names (`rm -r`,
   * `mv`, `find -delete`): only then do built-in entries of any depth count below it.
   * @default false
   */
  trees?: boolean;
  /**
   * Whether a path exists (for built-in entries of any depth: `.pi/extensions` below a dir).
   * @default undefined (any such path may exist)
   */
  exists?: (path: string) => boolean;
  /**
   * The word filters the names a tree read opens (grep's `--include`, rg's `-g`, pi's grep tool's
   * `glob`): its `*` and `?` match a leading dot too, and a name glob counts where it matches a
   * name the glob surely protects.
   * @default false
   */
  dots?: boolean;
  /**
   * The access reaches only files whose names these globs match, at any depth (a git pathspec
   * glob: `git rm '*.orig'`): a built-in entry of any depth counts only where one may match its
   * name, or it is a directory that exists below `dir` (any name may be inside).
   * @default undefined (any name)
   */
  names?: readonly string[];
  /**
   * The word is a lister's name filter (`find -name '*.py'`): a name glob with a wildcard counts
   * where the word matches a name it surely protects (`x.pem` for `*.pem`), as with `dots`.
   * @default false
   */
  surely?: boolean;
  /**
   * Whether a name a name glob's `component` matches (lower-cased first where `folded`: the
   * config folds case) lies anywhere below `dir` (listed paths of a tree no stage changes first:
   * `find src -type f | xargs cat`): where surely none does, a name glob (`.env`) is not reached
   * there.
   * @default undefined (any name may)
   */
  present?: (component: RegExp, folded: boolean) => boolean;
  /** Whether a path is a directory (with `names`). @default undefined (never known to be one) */
  isDirectory?: (path: string) => boolean;
  /**
   * The access reaches no name starting with `.` below `dir` (rg's listing): entries only such
   * names can match (`.env`, `.pi/extensions`) are not reached. @default false
   */
  noHidden?: boolean;
  /**
   * The access only reads what lies below `dir` as it is now (`grep -r KEY .` with no stage
   * changing the tree first): a path glob inside it (`secrets/**` at any depth, a project's
   * `config/prod/**`) counts only where this says a name it ends in (`secrets`, `prod`; lower-cased
   * first where `folded`) lies below `dir`. With `shallow` (a stage that may also write there),
   * where either says so. @default undefined (any may)
   */
  there?: (name: RegExp, folded: boolean) => boolean;
  /**
   * The access writes below `dir` by names of its own, as far as is seen one name deep (a program
   * that says nothing of its files, given `dir`): a path glob inside it counts, as a built-in
   * entry of any depth does, only where `dir` is a directory its last name lies right in
   * (`config` for `config/master.key` at any depth, `/p/config/a` for `/p/config/*` + `/keys`;
   * a trailing `**` taken off first: `.` names no `secrets/**`, the program would have to name
   * `secrets` itself, which is seen). A glob of one name at any depth (`**` + `/x`) is a name
   * glob: not counted. @default false
   */
  shallow?: boolean;
  /**
   * The one name the access makes in `dir` is one `mktemp` makes of its template (`Output.name`):
   * a name glob counts where it may match such a name (made_names.ts), whatever the word.
   * @default undefined
   */
  made?: string;
  /**
   * `dir` is not a directory now (it does not exist, or is a file or a dangling link): what lies
   * below it is what the access puts there, by names not seen (`cp -r /tmp/x .pi`, `git clone URL
   * dir`). A path glob of any depth counts only where `dir` is one of the directories a path it
   * matches lies below (`config` for `config/master.key`, `.pi` or `a/.pi` for `.pi/settings.json`;
   * see `leadOf`), not where that path may come to lie deeper (`dist/secrets/…`). Built-in entries
   * of any depth count so where `exists` says nothing is there. @default false
   */
  fresh?: boolean;
  /**
   * The access rewrites only some files below `dir` (a formatter: `deno fmt .` its languages'):
   * only the built-in entries are looked for, each where this says it may change the path the
   * entry protects there (absolute; for one of any depth, `dir/.pi/extensions` where `.pi` is
   * right below `dir`, as `trees` looks). @default undefined (every entry, as the options say)
   */
  rewrites?: (path: string) => boolean;
}

/**
 * The strictest protection anything below `dir` could fall under (a glob or unknown value
 * reaching below it): protection of `dir` itself or above applies as it is; path globs that lie
 * below it and name globs the word's last component (`*.pem`, `*`) may match can only be
 * reached, so they ask at most. With `word` null (a directory read as a tree), name globs are
 * not counted: a name like `.env` may sit in any directory.
 *
 * Built-in entries of any depth (`.pi/extensions`) count below `dir` only where they can be:
 * `dir` is inside one's leading directories (`…/.pi`), the word may name its first directory
 * (`.p*`), or that directory exists right below `dir` (`rm -r proj` over `proj/.pi`). Deeper
 * nesting is not looked for.
 */
export function protectionBelow(
  config: Config,
  dir: string,
  home: string,
  word: string | null,
  opts: BelowOptions = { write: true },
): Protection | null {
  if (config.pathProtection.length === 0) return null;
  const folded = foldsCase(config);
  const original = dir;
  if (folded) {
    dir = dir.toLowerCase();
    if (word !== null) word = word.toLowerCase();
  }
  const below = belowOf(config, dir, home);
  // Whether the access writes is asked last, only of an entry that counts for writes alone and
  // would apply.
  let known: boolean | undefined;
  const writes = () => known ??= typeof opts.write === "function" ? opts.write() : opts.write;
  const at = (both: { read: Found; write: Found }): Found =>
    both.read === both.write || !writes() ? both.read : both.write;
  if (opts.rewrites) return rewrittenBelow(below, original, folded, opts, writes);
  // Everything below dir is protected when dir is, or when a glob covers all of it (`~/.ssh/**`).
  let best: Protection | null = at(below.self) ?? at(below.inside);
  for (const c of below.candidates) {
    const p = c.protection;
    if (c.kind === NAMES) {
      const made = opts.made !== undefined && folded ? opts.made.toLowerCase() : opts.made;
      if (
        made !== undefined ? !mayMakeName(p.glob, made) : (
          word === null || !namesMayMeet(p, word, opts.dots === true, opts.surely === true)
        )
      ) continue;
      if (opts.noHidden && p.glob.startsWith(".")) continue;
      const component = p.component;
      if (
        opts.present && component && !opts.present(component, folded)
      ) continue;
    } else if (c.kind === ANY_DEPTH) {
      if (opts.noHidden && p.heads!.first.startsWith(".")) continue;
      if (!opts.trees || !anyDepthBelow(p.heads!, dir, word, opts.exists)) continue;
      if (opts.names && !namesReach(p.glob, dir, opts.names, opts.isDirectory)) continue;
    } else if (opts.fresh && p.prefix === null) {
      if (!leadOf(p)?.test(dir)) continue;
    } else if (!p.entry.writes && (opts.shallow || opts.there !== undefined)) {
      // (Either way it reaches: one name deep by its own names, or what is there now.)
      if (
        !(opts.shallow && parentOf(p)?.test(dir)) &&
        !(opts.there && thereBelow(p, opts.there, folded))
      ) {
        continue;
      }
    }
    const e = p.entry;
    if (e.writes && !writes()) continue;
    // Only possibly reached: the user is asked; a deny is kept for paths surely inside.
    const action: ProtectionAction = e.action === "deny" ? "ask" : e.action;
    if (!best || PROTECTION_RANK[action] > PROTECTION_RANK[best.action]) best = shown(e, action);
  }
  return best;
}

/**
 * The last name of what a path glob names, as a regex of one component (`secrets` for
 * `secrets/**`, `credentials*` for a glob of any depth ending in it, `keys` for `/srv/*` + `/keys`):
 * a path it protects strictly below a directory not itself protected has a name it matches below
 * that directory. Null when the glob has none (`**`).
 */
function lastName(p: CompiledProtection): RegExp | null {
  if (p.last === undefined) {
    const head = p.glob.split("/").filter((part) => part !== "**" && part !== "").pop();
    p.last = head === undefined ? null : new RegExp(`^${globSource(head)}$`, "u");
  }
  return p.last;
}

/** Whether a name a path glob ends in lies below the directory, as `there` says. */
function thereBelow(
  p: CompiledProtection,
  there: NonNullable<BelowOptions["there"]>,
  folded: boolean,
): boolean {
  const last = lastName(p);
  return last === null || there(last, folded);
}

/**
 * The directories a path a path glob matches lies strictly below, as a regex of a whole path:
 * each leading part of the glob (`**` at its ends taken off: `config` for `**` + `/config/*.key`,
 * `.pi` for `.pi/extensions`, `/home` and `/home/user` for `/home/user/.ssh/id_rsa`), and the
 * glob without a trailing `**` (`secrets` for `secrets/**`). Null where there is none (`**` + `/x`).
 */
function leadOf(p: CompiledProtection): RegExp | null {
  if (p.lead === undefined) {
    const parts = (p.abs ?? p.glob.replace(/^\.\//, "")).split("/").filter((s) => s !== "");
    let whole = false;
    while (parts.length && parts[parts.length - 1] === "**") parts.pop(), whole = true;
    while (p.abs === undefined && parts[0] === "**") parts.shift();
    const leads: string[] = [];
    for (let n = 1; n < parts.length + (whole ? 1 : 0); n++) {
      leads.push(globSource(parts.slice(0, n).join("/")));
    }
    const start = p.abs === undefined ? "(?:[^]*/)?" : "/";
    p.lead = leads.length ? new RegExp(`^${start}(?:${leads.join("|")})$`, "u") : null;
  }
  return p.lead;
}

/**
 * The directories a path glob's last name lies right in, as a regex of a whole path (a trailing
 * `**` taken off first); null for a glob of one name at any depth (see `BelowOptions.shallow`).
 */
function parentOf(p: CompiledProtection): RegExp | null {
  if (p.parent === undefined) {
    const glob = (p.abs ?? p.glob.replace(/^\.\//, "")).replace(/(\/\*\*)+\/?$/, "");
    const at = glob.lastIndexOf("/");
    const dir = at < 0 ? "" : glob.slice(0, at);
    if (p.abs !== undefined) p.parent = new RegExp(`^${globSource(dir === "" ? "/" : dir)}$`, "u");
    else if (dir === "" || /^(\*\*\/?)+$/.test(dir)) p.parent = null;
    else p.parent = new RegExp(`^(?:[^]*/)?${globSource(dir)}$`, "u");
  }
  return p.parent;
}

/**
 * Whether a path glob whose literal directory `prefix` holds `dir` may match a path strictly
 * below `dir` (`/srv/*` + `/keys` below `/srv/a`; not `/srv/*.key` below `/srv/a`): `dir`'s names
 * after the prefix are matched by the glob's in turn, and a `**` may take any of them.
 */
function mayLieBelow(p: CompiledProtection, prefix: string, dir: string): boolean {
  const parts = p.abs!.split("/").filter(Boolean);
  const skip = prefix.split("/").filter(Boolean).length;
  const names = dir.split("/").filter(Boolean).slice(skip);
  for (let i = skip, n = 0; i < parts.length; i++, n++) {
    if (parts[i] === "**" || parts[i].includes("**")) return true;
    if (n >= names.length) return true;
    if (!new RegExp(`^${globSource(parts[i])}$`, "u").test(names[n])) return false;
  }
  return false;
}

/** How an entry may lie below a directory (see {@linkcode belowOf}). */
const NAMES = 0;
const ANY_DEPTH = 1;
const INSIDE = 2;

/**
 * What of the protection lies below a directory, by names alone: the answers for the directory
 * and for everything in it, and the entries that may apply below it in their order (name globs,
 * built-in globs of any depth, path globs inside it). A pure function of config, home and dir,
 * remembered (bounded): a decision's targets ask it of the same directories again and again.
 */
interface Below {
  self: { read: Found; write: Found };
  inside: { read: Found; write: Found };
  candidates: {
    kind: typeof NAMES | typeof ANY_DEPTH | typeof INSIDE;
    protection: CompiledProtection;
  }[];
}

const belows = new WeakMap<Config, Map<string, Map<string, Below>>>();

function belowOf(config: Config, dir: string, home: string): Below {
  return remembered(belows, config, home, dir, findBelow);
}

/** What of the protection lies below `dir` (see {@linkcode Below}), worked out. */
function findBelow(config: Config, dir: string, home: string): Below {
  const candidates: Below["candidates"] = [];
  const under = dir === "/" ? "/" : dir + "/";
  for (const p of compiledFor(config, home)) {
    if (p.component) candidates.push({ kind: NAMES, protection: p });
    else if (p.full) {
      const prefix = p.prefix;
      if (prefix === null && p.entry.writes) candidates.push({ kind: ANY_DEPTH, protection: p });
      else if (
        prefix === null || prefix === dir || prefix.startsWith(under) ||
        (isWithin(dir, prefix) && mayLieBelow(p, prefix, dir))
      ) {
        candidates.push({ kind: INSIDE, protection: p });
      }
    }
  }
  return {
    self: answer(config, dir, home),
    inside: answer(config, `${dir}/\u0001`, home),
    candidates,
  };
}

/**
 * Whether an access limited to names (`names`: their last components, in any case) may reach a
 * relative built-in glob's path below `dir`: a name may be its own (`settings.json`), or it is a
 * directory there, which may hold any name.
 */
function namesReach(
  glob: string,
  dir: string,
  names: readonly string[],
  isDirectory: ((path: string) => boolean) | undefined,
): boolean {
  // (In any case: `find -iname`, a filesystem that folds case.)
  const last = glob.slice(glob.lastIndexOf("/") + 1).toLowerCase();
  const meets = (n: string) =>
    bashGlobMatches(n.slice(n.lastIndexOf("/") + 1).toLowerCase(), last, true);
  if (names.some(meets)) return true;
  if (isDirectory === undefined) return true;
  // (Where dir is one of its leading directories, `…/.pi`, it lies right below dir.)
  const parts = glob.split("/");
  for (let n = parts.length - 1; n > 0; n--) {
    if (dir.endsWith("/" + parts.slice(0, n).join("/"))) {
      return isDirectory(`${dir}/${parts.slice(n).join("/")}`);
    }
  }
  return isDirectory(`${dir === "/" ? "" : dir}/${glob}`);
}

/** Whether a relative built-in glob (`.pi/extensions`, no wildcards) may lie below `dir`. */
function anyDepthBelow(
  heads: { parts: string[]; first: string },
  dir: string,
  word: string | null,
  exists: ((path: string) => boolean) | undefined,
): boolean {
  // dir is `…/.pi` (a leading part of the glob): what the glob names lies right below it.
  for (const head of heads.parts) {
    if (
      dir.endsWith(head) &&
      (dir.length === head.length || dir.charCodeAt(dir.length - head.length - 1) === 47)
    ) return true;
  }
  // A glob reaches the names of dir its last word matches; a tree reaches what is there.
  // (A word of any name, `(paths grep lists)/`, reaches what is there, as a tree does.)
  if (word !== null && word !== "") return bashGlobMatches(word, heads.first, false);
  return exists !== undefined && exists(`${dir === "/" ? "" : dir}/${heads.first}`);
}

/**
 * The built-in entries below `dir` (as it is written: `original`) a formatter may change there
 * (see `BelowOptions.rewrites`): one of any depth where its first directory is right below
 * `dir` (or `dir` is inside its leading directories), an absolute one strictly below `dir`.
 */
function rewrittenBelow(
  below: Below,
  original: string,
  folded: boolean,
  opts: BelowOptions,
  writes: () => boolean,
): Protection | null {
  const dir = folded ? original.toLowerCase() : original;
  const under = dir === "/" ? "/" : dir + "/";
  let best: Protection | null = null;
  for (const c of below.candidates) {
    const p = c.protection;
    if (!p.entry.writes || c.kind === NAMES) continue;
    let path: string;
    if (c.kind === ANY_DEPTH) {
      if (!anyDepthBelow(p.heads!, dir, null, opts.exists)) continue;
      path = anyDepthPath(p.glob, dir, original);
    } else if (p.abs !== undefined && p.abs.startsWith(under)) {
      path = p.abs;
    } else continue;
    // (An entry whose path holds a wildcard, a name escaped: it may be any file.)
    if (!/[*?[]/.test(path) && !opts.rewrites!(path)) continue;
    if (!writes()) return null;
    const action: ProtectionAction = p.entry.action === "deny" ? "ask" : p.entry.action;
    if (!best || PROTECTION_RANK[action] > PROTECTION_RANK[best.action]) {
      best = shown(p.entry, action);
    }
  }
  return best;
}

/**
 * The path a relative built-in glob (`.pi/extensions`) protects below `dir` (`dir` as compared,
 * `original` as written): right below where `dir` is one of its leading directories (`…/.pi`),
 * else below `dir` whole.
 */
function anyDepthPath(glob: string, dir: string, original: string): string {
  const parts = glob.split("/");
  for (let n = parts.length - 1; n > 0; n--) {
    const head = parts.slice(0, n).join("/");
    if (dir === head || dir.endsWith("/" + head)) return `${original}/${parts.slice(n).join("/")}`;
  }
  return `${original === "/" ? "" : original}/${glob}`;
}
