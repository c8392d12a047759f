/**
 * The properties of a transient systemd unit (`systemd-run -p NAME=VALUE`, `run0 --property=`):
 * which only limit or describe how its command runs, and what the others stand for.
 *
 * @module
 */
import type { Runner } from "./spec.ts";
import { unknownWord } from "./words.ts";

/**
 * A unit's properties that only limit or describe how its command runs; any other may run a
 * command (`ExecStartPre=`), set its environment (`Environment=`, `EnvironmentFile=`), mount or
 * re-root what it sees (`BindPaths=`, `RootDirectory=`) or write (`StandardOutput=file:…`).
 */
export const PLAIN_PROPERTY =
  /^(Memory\w*|CPU\w*|IO\w*|Tasks\w*|Nice|Timeout\w*|RuntimeMaxSec|Restart\w*|Type|Description|Slice|Kill\w*|Limit\w*|OOM\w*|\w*Accounting|SendSIGHUP|RemainAfterExit)=/;

/** A unit property not known to be plain: what it does is not known (see `PLAIN_PROPERTY`). */
export function unitProperty(text: string, run: Runner): void {
  run.stage([unknownWord(`(what the unit's property ${text} does)`)], "wrapper:systemd-run -p");
}
