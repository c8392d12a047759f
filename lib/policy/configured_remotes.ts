/**
 * Remotes that config files name: git's (`git push origin`, the branch's upstream, a URL
 * `insteadOf` rewrites: `git_remotes.ts`) and rclone's (`rclone copy x myalias:.ssh`, a remote
 * of `rclone.conf` or the environment: `rclone_config.ts`). Where one is on this machine or not
 * known, the stage is judged once more as given what the remote stands for; the settings are read
 * only for the stages of those programs that reach a remote.
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";
import { namesProgram, programOf } from "../programs/registry.ts";
import type { Context } from "../types.ts";
import type { GlobScope } from "./glob_scope.ts";
import { gitRemoteStages, type RemoteLook } from "./git_remotes.ts";
import { rcloneRemoteStages } from "./rclone_config.ts";

/** Whether a stage runs git. */
function isGit(stage: Stage): boolean {
  return namesProgram(stage.argv[0], "git");
}

/** Whether a stage's program name may be git's or rclone's (its registry entry says which). */
function mayReachRemote(s: Stage): boolean {
  const name = s.argv[0]?.value ?? "";
  return name.endsWith("git") || name.endsWith("rclone");
}

/**
 * The stages the remotes of a command's git and rclone stages add (see the module's notes), each
 * with the stage it is judged in place of:
 * `globs` tells what the command's stages may change first; `tops`, the stage of the command's
 * shell each stage a wrapper runs comes from.
 */
export function configuredRemotes(
  stages: Stage[],
  ctx: Context,
  globs: () => GlobScope,
  tops?: ReadonlyMap<Stage, Stage>,
): [Stage, Stage][] {
  const out: [Stage, Stage][] = [];
  // (Most commands run neither: nothing is built for them.)
  if (!stages.some(mayReachRemote)) return out;
  const look: RemoteLook = {
    before(stage, files) {
      const g = globs();
      const top = tops?.get(stage) ?? stage;
      for (const f of files) {
        const written = g.fileWritten(f, stage, top, isGit);
        if (written === null || written.length) return null;
      }
      const changers = new Set(files.flatMap((f) => g.changers(f, stage, { started: true })));
      // (What the stage itself runs, a credential helper its `-c` names, is judged as it is.)
      const own = (s: Stage) => tops?.get(s) === stage || tops?.get(s) === top;
      return stages.filter((s) => changers.has(s) && isGit(s) && !own(s));
    },
    // (git's own stages make no hooks: `git init --bare r` copies only samples.)
    disturbed: (path, stage) =>
      globs().fileWritten(path, stage, tops?.get(stage) ?? stage, isGit) === null,
  };
  for (const s of stages) {
    if (!mayReachRemote(s)) continue;
    const program = programOf(s.argv[0])?.names[0];
    const found = program === "git"
      ? gitRemoteStages(s, ctx, look)
      : program === "rclone"
      ? rcloneRemoteStages(s, ctx, look)
      : [];
    for (const x of found) out.push([x, s]);
  }
  return out;
}
