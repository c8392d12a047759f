/**
 * What pi's own settings say about the shell its bash tool runs: `shellCommandPrefix`, a text pi
 * runs before every command (the project's `.pi/settings.json` over the global
 * `<agentDir>/settings.json`). Like a file `BASH_ENV` names, it may set any variable or shell
 * option before the command, so where one is set the gate decides as under `BASH_ENV`: no name
 * is known to be unset, globs are read with every option bash may have on.
 *
 * @example
 * ```ts
 * import { shellEnvironment } from "./pi_settings.ts";
 * import { realFs } from "./policy/fs_facts.ts";
 * const env = shellEnvironment({ HOME: "/h" }, { agentDir: "/h/.pi/agent", cwd: "/p", fs: realFs() });
 * env.BASH_ENV; // set where pi runs a prefix first
 * ```
 *
 * @module
 */
import { join } from "node:path";
import type { FsFacts } from "./types.ts";

/** What `BASH_ENV` holds where pi's prefix stands for it (no file: nothing reads it). */
export const PI_PREFIX = "(pi's shellCommandPrefix)";

/** The largest settings file read; a larger one counts as setting a prefix. */
const LIMIT = 1024 * 1024;

/** Where pi's settings are. */
export interface PiSettingsPlace {
  agentDir: string;
  cwd: string;
  fs: FsFacts;
}

/**
 * Whether pi runs a `shellCommandPrefix` before the commands of `cwd`: the project's setting
 * where its file has the key, else the global one's; a file that cannot be read or parsed may
 * hold one.
 */
export function shellCommandPrefix(place: PiSettingsPlace): boolean {
  const files = [join(place.cwd, ".pi", "settings.json"), join(place.agentDir, "settings.json")];
  for (const file of files) {
    if (!place.fs.exists(file)) continue;
    const text = place.fs.readText?.(file, LIMIT);
    if (text == null) return true;
    let value: unknown;
    try {
      value = (JSON.parse(text) as Record<string, unknown> | null)?.shellCommandPrefix;
    } catch {
      return true;
    }
    if (value !== undefined) return typeof value !== "string" || value.trim() !== "";
  }
  return false;
}

/** The environment the gate reads a bash command's values from (see the module). */
export function shellEnvironment(
  env: Record<string, string | undefined>,
  place: PiSettingsPlace,
): Record<string, string | undefined> {
  if (env.BASH_ENV !== undefined || !shellCommandPrefix(place)) return env;
  return { ...env, BASH_ENV: PI_PREFIX };
}
