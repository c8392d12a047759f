/**
 * The settings files a command's stages find (`Runner.settings`, `Runner.projectSettings`,
 * `Runner.named`, `Runner.thisMachine`), read as they will be when the command runs: the glob
 * scope tells what its other stages write first.
 *
 * @module
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { Stage } from "../shell/model.ts";
import { isWithin } from "../shell/paths.ts";
import type { SettingsFiles } from "../programs/expand.ts";
import type { ProjectSettings } from "../programs/spec.ts";
import type { Context } from "../types.ts";
import { type GlobScope, stageSettingsText } from "./glob_scope.ts";
import { thisMachine } from "./this_machine.ts";
import { unquotedText } from "../shell/words.ts";

/**
 * The settings files a command's stages find (`Runner.settings`, `Runner.projectSettings`), read
 * as they will be when it runs, with `globs` telling what its other stages write.
 */
export function settingsFiles(
  ctx: Context,
  globs: () => GlobScope,
  command: string,
): SettingsFiles {
  let text: string | undefined;
  return {
    // (A name the command names, as bash reads it: it may set it, `export PGHOSTADDR=$(cat f)`.)
    changes: (name) => new RegExp(`\\b${name}\\b`).test(text ??= unquotedText(command)),
    file: (stage, path, top, script) => stageSettingsText(stage, path, ctx, globs(), top, script),
    machine: (host) => thisMachine(host, ctx),
    project(stage, name, top, cwds, toRoot) {
      const out: ProjectSettings[] = [];
      for (const cwd of cwds) {
        if (cwd === null) return null;
        // (Up to the home directory or the root, not those: the user's own settings; with
        // `toRoot`, those too, for a program that reads them as it reads the project's.)
        for (let dir = resolve(cwd), n = 0; n < 64; n++) {
          if (!toRoot && (dir === "/" || isWithin(ctx.home, dir))) break;
          const text = stageSettingsText(stage, join(dir, name), ctx, globs(), top);
          if (text === null) return null;
          if (text && !out.some((o) => o.dir === dir)) out.push({ dir, text });
          if (dir === "/") break;
          dir = dirname(dir);
        }
      }
      return out;
    },
    named(stage, prefix, top) {
      const dir = dirname(prefix);
      const name = prefix.slice(dir.length + 1);
      if (!isAbsolute(prefix) || !ctx.fs.entries) return null;
      for (const w of globs().changers(dir, stage)) {
        if (w !== top && mayName(w, dir, name)) return null;
      }
      if (!ctx.fs.exists(dir)) return [];
      const list = ctx.fs.entries(dir);
      return list?.filter((e) => e.name.startsWith(name)).map((e) => join(dir, e.name)) ?? null;
    },
  };
}

/**
 * Whether a stage that writes at or below `dir` may write a file there whose name starts with
 * `name`: it runs there or above, a word of it is not known, names `dir` or above, or names such
 * a file (`> ~/.psqlrc-15.1`). One that names only other places below (`> out.txt` in a project)
 * does not.
 */
function mayName(stage: Stage, dir: string, name: string): boolean {
  if (stage.cwds.some((c) => c === null || isWithin(dir, c))) return true;
  const words = [...stage.argv.slice(1), ...stage.redirects.map((r) => r.target)];
  return words.some((w) => {
    if (w === null) return false;
    if (w.kind !== "static") return true;
    const value = w.value.slice(w.value.indexOf("=") + 1);
    return stage.cwds.some((c) => {
      const at = resolve(c!, value);
      return isWithin(dir, at) ||
        (dirname(at) === dir && at.slice(dir.length + 1).startsWith(name));
    });
  });
}
