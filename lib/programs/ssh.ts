/**
 * ssh, scp and sftp: the settings that run a local command (`-o ProxyCommand=…`,
 * `LocalCommand`, `KnownHostsCommand`), the programs `-S`/`-D` name, and config files (`-F`)
 * that may hold such settings. What `ssh host CMD` runs happens on another machine: saving
 * "ssh host *" would allow anything there, so it never is.
 *
 * @module
 */
import { hasOption } from "./argv.ts";
import { optionCommands } from "./option_commands.ts";
import type { How, Program } from "./spec.ts";

/** ssh settings (`-o Key=value`) whose value is a command run here. */
const SSH_KEYS: Record<string, How> = {
  proxycommand: "shell",
  localcommand: "shell",
  knownhostscommand: "shell",
};

/** ssh, scp and sftp. */
export const SSH_PROGRAMS: Program[] = [
  {
    names: ["ssh"],
    optionCommands: optionCommands({
      shortWithArg: "BbcDEeFIiJLlmOopQRSWw",
      short: { F: "file" },
      keyed: { "-o": SSH_KEYS },
      operands: 1,
    }),
    tooBroad: true,
  },
  {
    names: ["scp"],
    optionCommands: optionCommands({
      shortWithArg: "cFiJloPSDX",
      short: { S: "program", F: "file" },
      keyed: { "-o": SSH_KEYS },
    }),
  },
  {
    names: ["sftp"],
    optionCommands: optionCommands({
      shortWithArg: "BbcDFiJloPRSs",
      short: { S: "program", D: "program", F: "file" },
      keyed: { "-o": SSH_KEYS },
    }),
  },
  {
    // rsync's remote shell (`-e CMD`, `--rsh=CMD`) runs here; it replaces files below a
    // directory it is given.
    names: ["rsync"],
    optionCommands: optionCommands({
      shortWithArg: "eBfTM",
      short: { e: "shell" },
      long: { "--rsh": "shell" },
    }),
    replacesTrees: true,
    followsLinks: (argv) =>
      hasOption(argv, { valued: "eBfTM" }, ["-L", "--copy-links", "--copy-unsafe-links"]),
  },
];
