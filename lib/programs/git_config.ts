/**
 * git's config files (git-config(1) "CONFIGURATION FILE"), read as git reads them: sections
 * (`[alias]`, `[includeIf "gitdir:~/w/"]`, the old `[section.sub]`), keys, and values with their
 * quotes, escapes, comments and continued lines; which files a git command reads (system,
 * global, the repository's, its work tree's) and in what order. One reader for every fact the
 * engine takes from them: the excludes file `git add -A` reads (lib/policy/git_ignore.ts), the
 * aliases `git foo` runs (git_aliases.ts).
 *
 * @example
 * ```ts
 * import { configEntries } from "./git_config.ts";
 * configEntries('[alias]\n\tst = status\n\tl = "log --oneline" # short\n');
 * // [{ section: "alias", key: "st", value: "status" }, { section: "alias", key: "l", value: "log --oneline" }]
 * ```
 *
 * @module
 */
import { dirname, resolve } from "node:path";

/** One `key = value` of a config file. */
export interface ConfigEntry {
  /** The section, lower case, with its subsection as written after a `"` (`includeif"gitdir:x`). */
  section: string;
  /** The key, lower case. */
  key: string;
  /** The value as git decodes it; null for a key with no `=` (a boolean true). */
  value: string | null;
}

/** Whether a character may be part of a section's name. */
const SECTION_CHAR = /[A-Za-z0-9.-]/;
/** The same, and of a key's, in perf's copy of git's reader (tools/perf/util/config.c). */
const PERF_SECTION_CHAR = /[A-Za-z0-9._-]/;

/** How a reader of git's syntax differs from git's. */
export interface ConfigDialect {
  /** perf's: `_` in names of sections and keys too (`[annotate] hide_src_code = true`). */
  underscore?: boolean;
}

/**
 * The entries of a config file's text, in order; null where git would find the file broken (a
 * bad escape, an unclosed quote or header, a key that is not one): it then runs nothing, and what
 * the file says is not known here either. `dialect`: another program's copy of git's reader.
 */
export function configEntries(text: string, dialect: ConfigDialect = {}): ConfigEntry[] | null {
  const keyChar = dialect.underscore ? /[A-Za-z0-9_-]/ : /[A-Za-z0-9-]/;
  const sectionChar = dialect.underscore ? PERF_SECTION_CHAR : SECTION_CHAR;
  const out: ConfigEntry[] = [];
  const s = text.startsWith("\uFEFF") ? text.slice(1) : text;
  let i = 0;
  let section: string | null = null;
  const n = s.length;
  // (git reads `\r\n` as `\n`.)
  const at = (j: number) => (s[j] === "\r" && s[j + 1] === "\n" ? "\n" : s[j]);
  const skipLine = () => {
    while (i < n && s[i] !== "\n") i++;
  };
  while (i < n) {
    const c = at(i);
    if (c === "\n" || c === " " || c === "\t" || c === "\r" || c === "\f" || c === "\v") {
      i += s[i] === "\r" && s[i + 1] === "\n" ? 2 : 1;
      continue;
    }
    if (c === "#" || c === ";") {
      skipLine();
      continue;
    }
    if (c === "[") {
      const header = sectionAt(s, i + 1, sectionChar);
      if (header === null) return null;
      section = header.name;
      i = header.end;
      continue;
    }
    if (!/[A-Za-z]/.test(c) || section === null) return null;
    let j = i;
    while (j < n && keyChar.test(s[j])) j++;
    const key = s.slice(i, j).toLowerCase();
    while (j < n && (s[j] === " " || s[j] === "\t")) j++;
    if (j >= n || at(j) === "\n") {
      out.push({ section, key, value: null });
      i = j;
      continue;
    }
    if (s[j] !== "=") return null;
    const value = valueAt(s, j + 1);
    if (value === null) return null;
    out.push({ section, key, value: value.text });
    i = value.end;
  }
  return out;
}

/** A section header after its `[`: its name (see `ConfigEntry.section`) and where it ends. */
function sectionAt(
  s: string,
  from: number,
  sectionChar: RegExp,
): { name: string; end: number } | null {
  let j = from;
  let name = "";
  while (j < s.length && sectionChar.test(s[j])) name += s[j++].toLowerCase();
  if (name === "") return null;
  if (s[j] === "]") {
    // (The old `[section.sub]`: the subsection in lower case.)
    const dot = name.indexOf(".");
    return { name: dot < 0 ? name : `${name.slice(0, dot)}"${name.slice(dot + 1)}`, end: j + 1 };
  }
  if (s[j] !== " " && s[j] !== "\t") return null;
  while (s[j] === " " || s[j] === "\t") j++;
  if (s[j] !== '"' || name.includes(".")) return null;
  let sub = "";
  for (j++; j < s.length; j++) {
    const c = s[j];
    if (c === "\n") return null;
    if (c === '"') break;
    if (c === "\\") {
      j++;
      if (j >= s.length || s[j] === "\n") return null;
    }
    sub += s[j];
  }
  if (s[j] !== '"' || s[j + 1] !== "]") return null;
  return { name: `${name}"${sub}`, end: j + 2 };
}

/** A value after its `=`, decoded as git's `parse_value` does, and where its line ends. */
function valueAt(s: string, from: number): { text: string; end: number } | null {
  let text = "";
  let quote = false;
  let comment = false;
  let space = 0;
  for (let j = from;; j++) {
    let c = j >= s.length ? "\n" : s[j];
    if (c === "\r" && s[j + 1] === "\n") c = s[++j];
    if (c === "\n") return quote ? null : { text, end: j + 1 };
    if (comment) continue;
    if (!quote && /[ \t\f\v\r]/.test(c)) {
      if (text.length) space++;
      continue;
    }
    if (!quote && (c === ";" || c === "#")) {
      comment = true;
      continue;
    }
    text += " ".repeat(space);
    space = 0;
    if (c === "\\") {
      let e = s[++j];
      if (e === "\r" && s[j + 1] === "\n") e = s[++j];
      if (e === "\n") continue; // the value goes on on the next line
      const decoded = e === "t" ? "\t" : e === "b" ? "\b" : e === "n" ? "\n" : e;
      if (e !== "t" && e !== "b" && e !== "n" && e !== "\\" && e !== '"') return null;
      text += decoded;
      continue;
    }
    if (c === '"') {
      quote = !quote;
      continue;
    }
    text += c;
  }
}

/** A config boolean, or null. */
export function boolValue(v: string | null): boolean | null {
  if (v === null) return true;
  const l = v.toLowerCase();
  if (/^(true|yes|on|1)$/.test(l)) return true;
  if (/^(false|no|off|0|)$/.test(l)) return false;
  return null;
}

/** A config path: `~/` expanded; null where it is relative or names another user's home. */
export function expandPath(v: string, home: string): string | null {
  if (v === "") return "";
  if (v === "~" || v.startsWith("~/")) return home + v.slice(1);
  return v.startsWith("/") ? v : null;
}

/** The file an include's `path` names, from the file that includes it; null where not known. */
export function includedFile(value: string, from: string, home: string): string | null {
  if (value === "" || value.startsWith("%(")) return null;
  if (value.startsWith("~") && !/^~(\/|$)/.test(value)) return null;
  return resolve(dirname(from), expandPath(value, home) ?? value);
}

/** Whether an entry is an include (`include.path`, `includeIf.<condition>.path`). */
export function isInclude(e: ConfigEntry): boolean {
  return e.key === "path" && (e.section === "include" || e.section.startsWith('includeif"'));
}

/**
 * The config files every git command reads before the repository's, in order (system, then the
 * global ones), as the environment says (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_SYSTEM`,
 * `GIT_CONFIG_GLOBAL`, `XDG_CONFIG_HOME`).
 */
export function userConfigFiles(
  env: (name: string) => string | undefined,
  home: string,
): string[] {
  // (A value git does not take for a boolean: the system's file counted.)
  const nosystem = boolValue(env("GIT_CONFIG_NOSYSTEM") ?? "false") === true;
  const system = nosystem ? [] : [env("GIT_CONFIG_SYSTEM") || "/etc/gitconfig"];
  const global = env("GIT_CONFIG_GLOBAL");
  if (global !== undefined) return [...system, ...(global === "" ? [] : [global])];
  const xdg = env("XDG_CONFIG_HOME") || `${home}/.config`;
  return [...system, `${xdg}/git/config`, `${home}/.gitconfig`];
}
