/**
 * git's config files read as git reads them (git-config(1)): the system file, the user's (XDG and
 * `~/.gitconfig`, or `GIT_CONFIG_GLOBAL`), the repository's and, where it turns them on, the work
 * tree's, each with the files its `include.path` and `includeIf.*.path` bring in (the latter's
 * settings marked as conditional: they may or may not apply), then the settings of
 * `GIT_CONFIG_COUNT`. A file is parsed as git's config parser parses it: sections `[s "sub"]` and
 * `[s.sub]`, a key without `=` true, values with quotes, escapes, comments and lines continued by
 * a backslash. What the ignore rules (`git_ignore.ts`) and the remotes (`git_remotes.ts`) read.
 *
 * @example
 * ```ts
 * import { configEntries } from "./git_config.ts";
 * configEntries('[remote "origin"]\n\turl = "/srv/x" # a comment\n');
 * // [{ key: "remote.origin.url", value: "/srv/x" }]
 * ```
 *
 * @module
 */
import { dirname, resolve } from "node:path";
import type { FsFacts } from "../types.ts";

/** One setting: its key (section and name in lower case, a subsection as written) and value. */
export interface ConfigEntry {
  key: string;
  value: string;
}

/** A setting of the files read, and whether it comes from a conditional include. */
export interface ConfigSetting extends ConfigEntry {
  conditional: boolean;
}

/** The settings of git's config files, in the order git reads them, and the files read. */
export interface GitConfig {
  settings: ConfigSetting[];
  /** The files read or looked for (a command that changes one first changes the settings). */
  files: string[];
}

/** The largest config file read (a larger one: not known). */
const FILE_LIMIT = 256 * 1024;

/** How deep includes nest (git's `MAX_INCLUDE_DEPTH` is 10). */
const MAX_DEPTH = 10;

/** A key's name character. */
const KEY_CHAR = /[A-Za-z0-9-]/;

/** A setting's key as git compares it: section and name in lower case, a subsection as written. */
export function settingKey(name: string): string {
  const [first, last] = [name.indexOf("."), name.lastIndexOf(".")];
  return first === last
    ? name.toLowerCase()
    : name.slice(0, first + 1).toLowerCase() + name.slice(first + 1, last) +
      name.slice(last).toLowerCase();
}

/** The escapes of a value (others are refused). */
const ESCAPES: Record<string, string> = { t: "\t", n: "\n", b: "\b", "\\": "\\", '"': '"' };

/** A parser of one file's text, at `i`. */
class Reader {
  i = 0;
  constructor(readonly text: string) {
    // (A byte order mark at the start is skipped.)
    if (text.startsWith("\uFEFF")) this.i = 1;
  }
  /** The next character, a CR before a newline taken as the newline (git's `get_next_char`). */
  next(): string | null {
    const t = this.text;
    if (this.i >= t.length) return null;
    const c = t[this.i++];
    if (c === "\r" && t[this.i] === "\n") return t[this.i++];
    return c;
  }
  peek(): string | null {
    return this.i < this.text.length ? this.text[this.i] : null;
  }
  /** A section header after its `[`: the section (lower case) and subsection; null: invalid. */
  header(): string | null {
    let name = "";
    for (;;) {
      const c = this.next();
      if (c === null) return null;
      if (c === "]") return name === "" ? null : name;
      if (c === " " || c === "\t") return name === "" ? null : this.subsection(name);
      if (!KEY_CHAR.test(c) && c !== ".") return null;
      name += c.toLowerCase();
    }
  }
  /** `[section "sub"]`: the subsection as written (`\` escapes the next character). */
  subsection(section: string): string | null {
    let c = this.next();
    while (c === " " || c === "\t") c = this.next();
    if (c !== '"') return null;
    let sub = "";
    for (;;) {
      c = this.next();
      if (c === null || c === "\n") return null;
      if (c === '"') break;
      if (c === "\\") {
        c = this.next();
        if (c === null || c === "\n") return null;
      }
      sub += c;
    }
    return this.next() === "]" ? `${section}.${sub}` : null;
  }
  /** A value after its `=`, to the end of its line (git's `parse_value`); null: invalid. */
  value(): string | null {
    let out = "";
    let quote = false;
    let comment = false;
    let spaces = 0;
    for (;;) {
      const c = this.next();
      if (c === null || c === "\n") return quote ? null : out;
      if (comment) continue;
      if (!quote && (c === " " || c === "\t")) {
        if (out !== "") spaces++;
        continue;
      }
      if (!quote && (c === ";" || c === "#")) {
        comment = true;
        continue;
      }
      out += " ".repeat(spaces);
      spaces = 0;
      if (c === "\\") {
        const e = this.next();
        if (e === "\n") continue;
        const escaped = e === null ? undefined : ESCAPES[e];
        if (escaped === undefined) return null;
        out += escaped;
      } else if (c === '"') quote = !quote;
      else out += c;
    }
  }
}

/**
 * The settings of a config file's text in order (see the module's notes); null where git would
 * refuse it (a bad header or key, a quote not closed, an escape git does not know).
 */
export function configEntries(text: string): ConfigEntry[] | null {
  const r = new Reader(text);
  const out: ConfigEntry[] = [];
  let section: string | null = null;
  for (;;) {
    const c = r.next();
    if (c === null) return out;
    if (c === "\n" || c === " " || c === "\t" || c === "\r") continue;
    if (c === "#" || c === ";") {
      for (let d = r.next(); d !== null && d !== "\n"; d = r.next());
      continue;
    }
    if (c === "[") {
      section = r.header();
      if (section === null) return null;
      continue;
    }
    if (!/[A-Za-z]/.test(c) || section === null) return null;
    let name = c;
    while (KEY_CHAR.test(r.peek() ?? "")) name += r.next();
    while (r.peek() === " " || r.peek() === "\t") r.next();
    const after = r.next();
    let value: string | null = "true";
    if (after === "=") value = r.value();
    else if (after !== null && after !== "\n") return null;
    if (value === null) return null;
    out.push({ key: `${section}.${name.toLowerCase()}`, value });
  }
}

/** A config path's `~/` expanded; null where it names another user's home. */
export function configPath(value: string, home: string): string | null {
  if (value === "~" || value.startsWith("~/")) return home + value.slice(1);
  return value.startsWith("~") ? null : value;
}

/**
 * Read one config file's settings (and those of what it includes) into `out`, as conditional
 * where `conditional`; false where it cannot be read (a missing file has none).
 */
export function readConfigFile(
  file: string,
  fs: FsFacts,
  home: string,
  out: GitConfig,
  conditional: boolean,
  depth = 0,
): boolean {
  out.files.push(file);
  const text = fs.readText?.(file, FILE_LIMIT) ?? null;
  if (text === null) return !fs.exists(file);
  const entries = configEntries(text);
  if (entries === null) return false;
  for (const { key, value } of entries) {
    const include = key === "include.path" ? "plain" : /^includeif\..*\.path$/s.test(key);
    if (!include) {
      out.settings.push({ key, value, conditional });
      continue;
    }
    // (An include's path is relative to the file that includes it.)
    const path = configPath(value, home);
    if (path === null || depth >= MAX_DEPTH) return false;
    const inner = include !== "plain" || conditional;
    if (!readConfigFile(resolve(dirname(file), path), fs, home, out, inner, depth + 1)) {
      return false;
    }
  }
  return true;
}

/** Variables that bring in config git reads in a way not followed here. */
const CONFIG_ENV = ["GIT_CONFIG_PARAMETERS", "GIT_CONFIG"];

/**
 * The settings of git's config files for the repository at `gitDir` (its common directory
 * `commonDir`; null for none: outside a repository), as the environment `env` makes git read
 * them (see the module's notes); null where that is not sure (a file that cannot be read, a
 * variable that brings in config not followed).
 */
export function gitConfig(
  gitDir: string | null,
  commonDir: string | null,
  fs: FsFacts,
  home: string,
  env: Record<string, string | undefined>,
): GitConfig | null {
  if (CONFIG_ENV.some((v) => env[v] !== undefined && env[v] !== "")) return null;
  const xdg = env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : `${home}/.config`;
  const system = env.GIT_CONFIG_NOSYSTEM ? [] : [env.GIT_CONFIG_SYSTEM || "/etc/gitconfig"];
  const global = env.GIT_CONFIG_GLOBAL ? [env.GIT_CONFIG_GLOBAL] : [
    `${xdg}/git/config`,
    `${home}/.gitconfig`,
  ];
  const out: GitConfig = { settings: [], files: [] };
  for (const file of [...system, ...global]) {
    if (!readConfigFile(file, fs, home, out, false)) return null;
  }
  if (commonDir !== null) {
    // (A work tree's own config is read only where the repository's config turns it on: one
    // written where git does not read it changes nothing git does.)
    const before = out.settings.length;
    if (!readConfigFile(`${commonDir}/config`, fs, home, out, false)) return null;
    const own = out.settings.slice(before).filter((s) => s.key === "extensions.worktreeconfig");
    const on = own.length ? boolValue(own[own.length - 1].value) : false;
    if (on === null) return null;
    if (on && !readConfigFile(`${gitDir}/config.worktree`, fs, home, out, false)) return null;
    if (!on) out.files.push(`${gitDir}/config.worktree`);
  }
  const count = env.GIT_CONFIG_COUNT;
  if (count !== undefined && count !== "") {
    if (!/^\d{1,3}$/.test(count)) return null;
    for (let n = 0; n < Number(count); n++) {
      const [key, value] = [env[`GIT_CONFIG_KEY_${n}`], env[`GIT_CONFIG_VALUE_${n}`]];
      if (!key || value === undefined) return null;
      out.settings.push({ key: settingKey(key), value, conditional: false });
    }
  }
  return out;
}

/** A config boolean, or null. */
export function boolValue(v: string): boolean | null {
  const l = v.toLowerCase();
  if (/^(true|yes|on|1)$/.test(l)) return true;
  if (/^(false|no|off|0|)$/.test(l)) return false;
  return null;
}

/** The common directory of a repository (a linked work tree's `commondir`), or null. */
export function commonDirOf(gitDir: string, fs: FsFacts): string | null {
  const file = `${gitDir}/commondir`;
  const text = fs.readText?.(file, 4096) ?? null;
  if (text === null) return fs.exists(file) ? null : gitDir;
  const named = text.trim();
  return named === "" ? null : resolve(gitDir, named);
}
