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
 * where `conditional`; false where it cannot be read (a missing file has none).
 */
function readConfigFile(
  file: string,
  fs: FsFacts,
  home: string,
  out: GitConfig,
  conditional: boolean,
  depth = 0,
  repository = false,
): boolean {
  out.files.push(file);
  const text = fs.readText?.(file, FILE_LIMIT) ?? null;
  if (text === null) return !fs.exists(file);
  const entries = configEntries(text);
  if (entries === null) return false;
  for (const e of entries) {
    if (!isInclude(e)) {
      // (A key with no `=` is true.)
      const setting = { key: keyOf(e), value: e.value ?? "true", conditional };
      out.settings.push(repository ? { ...setting, repository } : setting);
      continue;
    }
    // (An include's path is relative to the file that includes it.)
    const path = e.value === null ? null : includedFile(e.value, file, home);
    if (path === null || depth >= MAX_DEPTH) return false;
    const inner = e.section !== "include" || conditional;
    if (!readConfigFile(path, fs, home, out, inner, depth + 1, repository)) return false;
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
  const out: GitConfig = { settings: [], files: [] };
  for (const file of userConfigFiles((v) => env[v], home)) {
    if (!readConfigFile(file, fs, home, out, false)) return null;
  }
  if (commonDir !== null) {
    // (A work tree's own config is read only where the repository's config turns it on: one
    // written where git does not read it changes nothing git does.)
    const before = out.settings.length;
    if (!readConfigFile(`${commonDir}/config`, fs, home, out, false, 0, true)) return null;
    const own = out.settings.slice(before).filter((s) => s.key === "extensions.worktreeconfig");
    const on = own.length ? boolValue(own[own.length - 1].value) : false;
    if (on === null) return null;
    if (on && !readConfigFile(`${gitDir}/config.worktree`, fs, home, out, false, 0, true)) {
      return null;
    }
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

/** The common directory of a repository (a linked work tree's `commondir`), or null. */
export function commonDirOf(gitDir: string, fs: FsFacts): string | null {
  const file = `${gitDir}/commondir`;
  const text = fs.readText?.(file, 4096) ?? null;
  if (text === null) return fs.exists(file) ? null : gitDir;
  const named = text.trim();
  return named === "" ? null : resolve(gitDir, named);
}
