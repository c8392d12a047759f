/**
 * The settings of the config files a repository's git reads (git-config(1)), through the
 * engine's filesystem: the system file, the user's (XDG and `~/.gitconfig`, or
 * `GIT_CONFIG_GLOBAL`), the repository's and, where it turns them on, the work tree's, each with
 * the files its `include.path` and `includeIf.*.path` bring in (the latter's settings marked as
 * conditional: they may or may not apply), then the settings of `GIT_CONFIG_COUNT`. The files
 * are parsed by lib/programs/git_config.ts, the one reader of git's config text. What the ignore
 * rules (`git_ignore.ts`) and the remotes (`git_remotes.ts`) read.
 *
 * @example
 * ```ts
 * import { gitConfig } from "./git_config_files.ts";
 * import { fakeFs } from "./fs_facts.ts";
 * const fs = fakeFs({ texts: { "/r/.git/config": '[remote "origin"]\n\turl = /srv/x\n' } });
 * gitConfig("/r/.git", "/r/.git", fs, "/h", {})?.settings;
 * // [{ key: "remote.origin.url", value: "/srv/x", conditional: false }]
 * ```
 *
 * @module
 */
import { resolve } from "node:path";
import type { FsFacts } from "../types.ts";
import {
  boolValue,
  configEntries,
  type ConfigEntry,
  includedFile,
  isInclude,
  userConfigFiles,
} from "../programs/git_config.ts";

/** One setting: its key (section and name in lower case, a subsection as written) and value. */
export interface ConfigSetting {
  key: string;
  value: string;
  /** It comes from an `includeIf` file: it may or may not apply. */
  conditional: boolean;
  /** It comes from the repository's own files (or what they include), not the user's. */
  repository?: boolean;
}

/** The settings of git's config files, in the order git reads them, and the files read. */
export interface GitConfig {
  settings: ConfigSetting[];
  /** The files read or looked for (a command that changes one first changes the settings). */
  files: string[];
  /**
   * Config git reads that could not be read or resolved whole (a file too large or that cannot be
   * parsed, an include whose path is not known): what it sets is not known. Each is marked as the
   * repository's or not (the user's, the system's, the environment's).
   */
  unread: { file: string; repository: boolean }[];
}

/** The largest config file read (a larger one: not known). */
const FILE_LIMIT = 256 * 1024;

/** How deep includes nest (git's `MAX_INCLUDE_DEPTH` is 10). */
const MAX_DEPTH = 10;

/** A setting's key as git compares it: section and name in lower case, a subsection as written. */
export function settingKey(name: string): string {
  const [first, last] = [name.indexOf("."), name.lastIndexOf(".")];
  return first === last
    ? name.toLowerCase()
    : name.slice(0, first + 1).toLowerCase() + name.slice(first + 1, last) +
      name.slice(last).toLowerCase();
}

/**
 * The settings of a config file's text, in order, as `key`/`value` pairs (`remote.origin.url`; a
 * key with no `=` is `"true"`); null where git would refuse the file.
 */
export function configSettings(text: string): { key: string; value: string }[] | null {
  return configEntries(text)?.map((e) => ({ key: keyOf(e), value: e.value ?? "true" })) ?? null;
}

/** An entry's key as `settingKey` makes it (`[remote "origin"] url`: `remote.origin.url`). */
function keyOf(e: ConfigEntry): string {
  return `${e.section.replace('"', ".")}.${e.key}`;
}

/**
 * Read one config file's settings (and those of what it includes) into `out`, as conditional
 * where `conditional`; what cannot be read or resolved is listed in `out.unread` (a missing file
 * has none, and git skips it).
 */
function readConfigFile(
  file: string,
  fs: FsFacts,
  home: string,
  out: GitConfig,
  conditional: boolean,
  depth = 0,
  repository = false,
): void {
  out.files.push(file);
  const text = fs.readText?.(file, FILE_LIMIT) ?? null;
  const entries = text === null ? null : configEntries(text);
  if (entries === null) {
    if (text !== null || fs.exists(file)) out.unread.push({ file, repository });
    return;
  }
  for (const e of entries) {
    if (!isInclude(e)) {
      // (A key with no `=` is true.)
      const setting = { key: keyOf(e), value: e.value ?? "true", conditional };
      out.settings.push(repository ? { ...setting, repository } : setting);
      continue;
    }
    // (An include's path is relative to the file that includes it; one not known, `%(prefix)/x`
    // or `~other/x`, may name a file there is.)
    const path = e.value === null ? null : includedFile(e.value, file, home);
    if (path === null || depth >= MAX_DEPTH) {
      out.unread.push({ file: `${file}: ${e.value}`, repository });
      continue;
    }
    const inner = e.section !== "include" || conditional;
    readConfigFile(path, fs, home, out, inner, depth + 1, repository);
  }
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
  const config = gitConfigParts(gitDir, commonDir, fs, home, env);
  return config.unread.length ? null : config;
}

/**
 * The settings of git's config files as `gitConfig` reads them, with what could not be read
 * listed in `unread` (the settings of the rest are there: those of the repository's own files
 * may be known where a file of the user's is not).
 */
export function gitConfigParts(
  gitDir: string | null,
  commonDir: string | null,
  fs: FsFacts,
  home: string,
  env: Record<string, string | undefined>,
): GitConfig {
  const out: GitConfig = { settings: [], files: [], unread: [] };
  for (const v of CONFIG_ENV) {
    if (env[v] !== undefined && env[v] !== "") {
      out.unread.push({ file: `$${v}`, repository: false });
    }
  }
  for (const file of userConfigFiles((v) => env[v], home)) {
    readConfigFile(file, fs, home, out, false);
  }
  if (commonDir !== null) {
    // (A work tree's own config is read only where the repository's config turns it on: one
    // written where git does not read it changes nothing git does.)
    const before = out.settings.length;
    readConfigFile(`${commonDir}/config`, fs, home, out, false, 0, true);
    const own = out.settings.slice(before).filter((s) => s.key === "extensions.worktreeconfig");
    const on = own.length ? boolValue(own[own.length - 1].value) : false;
    const worktree = `${gitDir}/config.worktree`;
    // (A value that is no boolean: git refuses it; the file is not known.)
    if (on !== false) readConfigFile(worktree, fs, home, out, false, 0, true);
    else out.files.push(worktree);
    if (on === null) out.unread.push({ file: worktree, repository: true });
  }
  const count = env.GIT_CONFIG_COUNT;
  if (count !== undefined && count !== "") {
    const n = /^\d{1,3}$/.test(count) ? Number(count) : -1;
    if (n < 0) out.unread.push({ file: "$GIT_CONFIG_COUNT", repository: false });
    for (let i = 0; i < n; i++) {
      const [key, value] = [env[`GIT_CONFIG_KEY_${i}`], env[`GIT_CONFIG_VALUE_${i}`]];
      if (!key || value === undefined) {
        out.unread.push({ file: `$GIT_CONFIG_KEY_${i}`, repository: false });
      } else out.settings.push({ key: settingKey(key), value, conditional: false });
    }
  }
  return out;
}

/** The common directory of a repository (a linked work tree's `commondir`), or null. */
export function commonDirOf(gitDir: string, fs: FsFacts): string | null {
  const file = `${gitDir}/commondir`;
  const text = fs.readText?.(file, 4096) ?? null;
  if (text === null) return fs.exists(file) ? null : gitDir;
  const named = text.trim();
  return named === "" ? null : resolve(gitDir, named);
}
