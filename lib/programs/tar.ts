/**
 * tar: `-C dir` (it works there), the options that run a command (`-I`/`--use-compress-program`,
 * `--to-command`, `--checkpoint-action=exec=…`, even in the old bundled form `tar xIf CMD a.tar`),
 * and what it does to a directory it is given (it extracts over the files below).
 *
 * @module
 */
import { hasOption } from "./argv.ts";
import { optionCommands } from "./option_commands.ts";
import type { Program } from "./spec.ts";

/** tar's valued letters (and its old bundled first word), as far as finding `-h` needs them. */
const TAR_OPTIONS = { valued: "bCfFgHIKLNTVX", bundled: true };

/** tar. */
export const TAR: Program = {
  names: ["tar"],
  chdir: { options: ["-C", "--directory"] },
  optionCommands: optionCommands({
    shortWithArg: "bCfFgHIKLNTVX",
    short: { I: "shell", F: "shell" },
    long: {
      "--to-command": "shell",
      "--use-compress-program": "shell",
      "--info-script": "shell",
      "--new-volume-script": "shell",
      "--rsh-command": "program",
    },
    keyed: { "--checkpoint-action": { exec: "shell" } },
    bundled: true,
  }),
  replacesTrees: true,
  // `tar -h`: what the links inside the tree lead to is archived.
  followsLinks: (argv) => hasOption(argv, TAR_OPTIONS, ["-h", "--dereference"]),
};
