/** pathProtection: globs over paths that no rule, approval or session choice can open up. */
import { isAbsolute, resolve } from "node:path";
import { expandTilde, isWithin } from "./paths.ts";
import type { Config, ProtectionAction, ProtectionEntry } from "./types.ts";

/** A protection entry compiled for one home directory. */
interface CompiledProtection {
  entry: ProtectionEntry;
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
}

const STRICTNESS: Record<ProtectionAction, number> = { log: 1, ask: 2, deny: 3 };
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

function compile(entry: ProtectionEntry, home: string): CompiledProtection {
  const glob = expandTilde(entry.glob, home);
  if (!glob.includes("/")) {
    const component = new RegExp(`^${globSource(glob)}$`, "u");
    return { entry, full: null, component, prefix: null, literal: !/[*?[]/.test(entry.glob) };
  }
  let src: string;
  if (isAbsolute(glob)) src = globSource(resolve(glob) + (glob.endsWith("/") ? "/" : ""));
  else if (entry.base) src = globSource(resolve(entry.base, glob));
  else src = "(?:[^]*/)?" + globSource(glob.replace(/^\.\//, ""));
  const full = new RegExp(`^${src.replace(/\/$/, "")}$`, "u");
  const literal = glob.slice(0, glob.search(/[*?[]|$/));
  const prefix = isAbsolute(literal)
    ? resolve(literal)
    : entry.base
    ? resolve(entry.base, literal)
    : null;
  return { entry, full, component: null, prefix, literal: false };
}

function compiledFor(config: Config, home: string): CompiledProtection[] {
  let byHome = compiled.get(config);
  if (!byHome) compiled.set(config, byHome = new Map());
  let list = byHome.get(home);
  if (!list) {
    list = config.pathProtection.map((e) => compile(e, home));
    byHome.set(home, list);
  }
  return list;
}

const guards = new WeakMap<Config, Map<string, (path: string) => boolean>>();

/**
 * A quick test of whether a path is itself named by a protection glob (not checking the
 * directories above it), for a bare word that may create a file (`tee key.pem`); undefined when
 * nothing is protected. Made once per config and home.
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
    test = (path: string) => {
      const name = path.slice(path.lastIndexOf("/") + 1);
      for (const p of list) {
        if (
          p.component
            ? p.component.test(name)
            : (p.prefix === null || isWithin(path, p.prefix)) && p.full!.test(path)
        ) return true;
      }
      return false;
    };
    byHome.set(home, test);
  }
  return test;
}

/**
 * The strictest protection entry matching an absolute path or any directory above it (protecting
 * a directory protects what is inside it), or null.
 */
export function protectionFor(
  config: Config,
  path: string,
  home: string,
): { glob: string; action: ProtectionAction } | null {
  if (config.pathProtection.length === 0) return null;
  // A pure function of config, home and path: remembered (bounded) across calls.
  let byHome = answers.get(config);
  if (!byHome) answers.set(config, byHome = new Map());
  let memo = byHome.get(home);
  if (!memo) byHome.set(home, memo = new Map());
  const known = memo.get(path);
  if (known !== undefined) return known;
  const found = findProtection(config, path, home);
  if (memo.size > 20_000) memo.clear();
  memo.set(path, found);
  return found;
}

type Found = { glob: string; action: ProtectionAction } | null;
const answers = new WeakMap<Config, Map<string, Map<string, Found>>>();

function findProtection(config: Config, path: string, home: string): Found {
  const parts = path.split("/").filter(Boolean);
  let best: ProtectionEntry | null = null;
  for (const p of compiledFor(config, home)) {
    let hit = false;
    if (p.component) hit = parts.some((part) => p.component!.test(part));
    else if (p.full) {
      let prefix = "";
      for (const part of parts) {
        prefix += "/" + part;
        if (p.full.test(prefix)) {
          hit = true;
          break;
        }
      }
    }
    if (hit && (!best || STRICTNESS[p.entry.action] > STRICTNESS[best.action])) best = p.entry;
  }
  return best ? { glob: best.glob, action: best.action } : null;
}

/** Whether a bash glob for one name (`*.pem`, `*`) may match a name a component glob protects. */
function namesMayMeet(protect: CompiledProtection, word: string): boolean {
  if (!protect.literal) return true; // two patterns: assume they can meet
  const name = protect.entry.glob;
  if (word === "") return true;
  // Bash globs do not match a leading dot unless the pattern starts with one.
  if (name.startsWith(".") && !word.startsWith(".")) return false;
  const meets = protect.meets ??= new Map();
  let known = meets.get(word);
  if (known === undefined) {
    const re = new RegExp(
      "^" +
        word.replace(/[\\^$.|+()[\]{}]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]") +
        "$",
      "u",
    );
    known = re.test(name);
    if (meets.size >= 1000) meets.clear();
    meets.set(word, known);
  }
  return known;
}

/**
 * The strictest protection anything below `dir` could fall under (a glob or unknown value
 * reaching below it): protection of `dir` itself or above applies as it is; path globs that lie
 * below it and name globs the word's last component (`*.pem`, `*`) may match can only be
 * reached, so they ask at most. With `word` null (a directory read as a tree), name globs are
 * not counted: a name like `.env` may sit in any directory.
 */
export function protectionBelow(
  config: Config,
  dir: string,
  home: string,
  word: string | null,
): { glob: string; action: ProtectionAction } | null {
  if (config.pathProtection.length === 0) return null;
  // Everything below dir is protected when dir is, or when a glob covers all of it (`~/.ssh/**`).
  let best = protectionFor(config, dir, home) ?? protectionFor(config, `${dir}/\u0001`, home);
  const consider = (e: ProtectionEntry) => {
    // Only possibly reached: the user is asked; a deny is kept for paths surely inside.
    const action: ProtectionAction = e.action === "deny" ? "ask" : e.action;
    if (!best || STRICTNESS[action] > STRICTNESS[best.action]) best = { glob: e.glob, action };
  };
  for (const p of compiledFor(config, home)) {
    if (p.component) {
      if (word !== null && namesMayMeet(p, word)) consider(p.entry);
    } else if (p.full) {
      const prefix = p.prefix;
      if (prefix === null || prefix === dir || prefix.startsWith(dir === "/" ? "/" : dir + "/")) {
        consider(p.entry);
      }
    }
  }
  return best;
}
