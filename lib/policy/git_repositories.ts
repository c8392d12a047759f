/**
 * Another repository's settings and hooks: git reads the `.git/config` of the repository it works
 * in, and a setting there can be a command (`core.fsmonitor`, `core.pager`, `diff.external`, a
 * filter, an alias) that `git status` or `git log` runs. The project's own repository is the
 * user's (README "Known limits"); one a stage reaches by `git -C DIR` or `cd DIR && git …` (a
 * work tree's, or a bare repository's) is not seen (as `--git-dir` and `GIT_DIR` are not): such a stage also runs what cannot be known.
 *
 * @module
 */
import { dirname } from "node:path";
import type { Stage } from "../shell/model.ts";
import { programOf } from "../programs/registry.ts";
import { literal, unknownWord } from "../programs/words.ts";
import type { Context } from "../types.ts";
import type { GlobScope } from "./glob_scope.ts";

/**
 * The top of the repository holding `dir`, or null: the nearest directory with a `.git`, or that
 * is a git directory itself (a bare repository, `git -C repo.git log`, whose config git reads as
 * well: its `core.pager` runs), as git looks (`.git` first, at each level). A `.git` directory is
 * its work tree's.
 */
function repositoryOf(dir: string, ctx: Context): string | null {
  for (let d = dir, n = 0; n < 64; n++) {
    const at = d === "/" ? "" : d;
    if (ctx.fs.exists(`${at}/.git`)) return d;
    if (gitDirectory(at, ctx)) return d.endsWith("/.git") ? dirname(d) : d;
    const up = dirname(d);
    if (up === d) return null;
    d = up;
  }
  return null;
}

/** Whether `dir` is itself a git directory, as git tells one: `HEAD`, `objects` and `refs`. */
function gitDirectory(dir: string, ctx: Context): boolean {
  return ctx.fs.exists(`${dir}/HEAD`) && ctx.fs.exists(`${dir}/objects`) &&
    ctx.fs.exists(`${dir}/refs`);
}

/**
 * A stage for each git stage that works in a repository other than the one the tool's cwd is in
 * (none when there is none): what its settings and hooks run is not known.
 */
export function otherRepositories(
  stages: Stage[],
  ctx: Context,
  globs: () => GlobScope,
): Stage[] {
  const out: Stage[] = [];
  let own: string | null | undefined;
  for (const s of stages) {
    if (!s.cwds.some((c) => c !== null && c !== ctx.cwd)) continue;
    if (programOf(s.argv[0])?.names[0] !== "git") continue;
    own ??= repositoryOf(ctx.cwd, ctx);
    for (const c of s.cwds) {
      if (c === null || c === ctx.cwd) continue;
      const repo = repositoryOf(c, ctx);
      // (No repository there now: one another stage may put there, `tar xzf r.tgz -C /tmp`.)
      if (repo === own || (repo === null && !globs().disturbed(c, s))) continue;
      out.push({
        // (git, given what cannot be known: asked about, as a value not known is.)
        argv: [
          literal("git"),
          unknownWord(`(what the settings and hooks of the repository at ${repo ?? c} run)`),
        ],
        redirects: [],
        text: s.text,
        origin: `${s.origin} (another repository)`,
        cwds: [c],
      });
    }
  }
  return out;
}
