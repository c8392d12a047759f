import type { Stage } from "../shell/model.ts";
import type { Context } from "../types.ts";
import type { RemoteLook } from "./git_remotes.ts";

export function rcloneRemoteStages(_stage: Stage, _ctx: Context, _look: RemoteLook): Stage[] {
  return [];
}
