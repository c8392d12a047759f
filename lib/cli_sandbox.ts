/**
 * `pi-controls sandbox --print`: the sandbox's boundaries for a cwd, as the config gives them
 * (lib/policy/sandbox.ts), whether bubblewrap can start here, and the bwrap arguments a sandboxed
 * call runs with. `explain` shows the same boundaries when the config has the sandbox on.
 *
 * @module
 */
import { resolve } from "node:path";
import { formatConfigError } from "./config.ts";
import { type CliIo, EXIT, UsageError } from "./cli_io.ts";
import type { Flags } from "./cli_flags.ts";
import { context, type Loaded, loadView } from "./cli_load.ts";
import {
  renderBoundaries,
  type SandboxBoundaries,
  sandboxBoundaries,
  strictestBoundaries,
} from "./policy/sandbox.ts";
import { bwrapArgs, sandboxProbe } from "./sandbox_runner.ts";
import { shellQuote } from "./shell/words.ts";
import type { Context } from "./types.ts";

/** The boundaries of a loaded config for a cwd (held to the global config's where untrusted). */
export function boundariesOf(loaded: Loaded, ctx: Context): SandboxBoundaries | null {
  const eff = loaded.eff;
  if (!eff?.config.sandbox?.enabled) return null;
  const b = sandboxBoundaries(eff.config, ctx);
  return eff.base ? strictestBoundaries(b, sandboxBoundaries(eff.base, ctx)) : b;
}

export function cmdSandbox(io: CliIo, flags: Flags): number {
  if (!flags.print) throw new UsageError("sandbox needs --print");
  const cwd = resolve(io.cwd, flags.cwd ?? ".");
  const loaded = loadView(io, flags, cwd);
  const l = loaded.load;
  if (l.status === "error") {
    for (const e of l.errors) io.err(formatConfigError(e) + "\n");
    return EXIT.failure;
  }
  io.out(`config: ${l.files.length ? l.files.join(", ") : "(none)"}\ncwd: ${cwd}\n`);
  const b = boundariesOf(loaded, context(io, cwd));
  if (!b) {
    io.out(
      l.status === "absent"
        ? "no config found: there is no sandbox\n"
        : 'the config has no enabled "sandbox" block: nothing runs sandboxed\n',
    );
    return EXIT.ok;
  }
  io.out(renderBoundaries(b) + "\n");
  const probe = sandboxProbe(io.env);
  if (probe.ok) {
    io.out(`bubblewrap: ${probe.bwrap} starts here; a sandboxed call runs as\n`);
    io.out(`  ${[probe.bwrap, ...bwrapArgs(b, cwd)].map(shellQuote).join(" ")} -- bash -c CMD\n`);
    if (typeof b.network === "object") {
      io.out(
        "  with the allow list: pi starts pi-controls' proxy at the first such call, binds its\n" +
          "  directory in (--ro-bind DIR DIR) and runs a bridge to it inside, on 127.0.0.1, named\n" +
          "  by HTTP_PROXY/HTTPS_PROXY/ALL_PROXY for the command\n",
      );
    }
  } else io.out(`the sandbox cannot start here: ${probe.reason}; sandboxed calls ask\n`);
  return EXIT.ok;
}
