/**
 * `pi-controls trust [--revoke] [DIR]`: trust a project's config, pinning its text, or stop
 * trusting it (for pi 0.7x, which has no trust of its own).
 *
 * @module
 */
import { resolve } from "node:path";
import { agentDirFrom } from "./config.ts";
import { configWatcher } from "./config_view.ts";
import { folderKey, updateFolderTrust } from "./trust.ts";
import { type CliIo, EXIT, UsageError } from "./cli_io.ts";
import type { Flags } from "./cli_flags.ts";
import { homeOf } from "./cli_load.ts";

/** `trust [--revoke] [DIR]`: trust (or stop trusting) a project's config, pinning its text. */
export function cmdTrust(io: CliIo, flags: Flags): number {
  const home = homeOf(io);
  const agentDir = agentDirFrom(io.env, home);
  const dir = resolve(io.cwd, flags.rest[0] ?? flags.cwd ?? ".");
  if (flags.rest.length > 1) throw new UsageError("trust takes one directory");
  const view = configWatcher({ home, agentDir }).current(dir);
  const p = view.project;
  const root = p?.root ?? dir;
  if (flags.revoke) {
    updateFolderTrust(agentDir, root, () => ({ trusted: false }));
    io.out(`not trusted: ${folderKey(root)} (its config can only tighten the global policy)\n`);
    return EXIT.ok;
  }
  updateFolderTrust(agentDir, root, (e) => ({ ...e, trusted: true, pinned: p?.hash }));
  io.out(
    `trusted: ${folderKey(root)}\n` +
      (p
        ? `project config ${p.file} pinned (sha256 ${p.hash.slice(0, 12)}…); ` +
          `a later change that can loosen your policy is asked about again\n`
        : `no project config there yet\n`),
  );
  return EXIT.ok;
}
