/**
 * RubyGems' `gem exec [options --] COMMAND [args]` (RubyGems 3.5): runs the executable COMMAND
 * of a gem (installed first where it is missing: the gem named so, or `-g GEM`'s), as `npx` runs
 * a package's program: the command is a stage of its own. gem reads its command as a name or
 * the one command a prefix begins (`gem ex`, `gem exe`: exec).
 *
 * @example
 * ```ts
 * // gem exec -g rubocop rubocop --fix   →   rubocop --fix
 * // gem exe -- rm -rf x                →   rm -rf x
 * ```
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";
import { type CommandSpec, runCommandWords } from "./command_words.ts";
import type { Runner } from "./spec.ts";

const set = (...names: string[]): ReadonlySet<string> => new Set(names);

/** `gem exec`'s options (its own, install's, the local/remote and the common ones). */
const GEM_EXEC: CommandSpec = {
  grammar: {
    flags: "NEfwlrbhVq",
    valued: "vginPBs",
    // deno-fmt-ignore
    longValued: set("--version", "--gem", "--install-dir", "--bindir", "--document", "--build-root",
      "--trust-policy", "--bulk-threshold", "--source", "--config-file", "--platform",
      "--target-rbconfig"),
    // deno-fmt-ignore
    longFlags: set("--prerelease", "--no-prerelease", "--conservative", "--no-document",
      "--env-shebang", "--no-env-shebang", "--force", "--no-force", "--wrappers", "--no-wrappers",
      "--ignore-dependencies", "--format-executable", "--no-format-executable", "--user-install",
      "--no-user-install", "--development", "--development-all", "--minimal-deps",
      "--post-install-message", "--no-post-install-message", "--vendor", "--default", "--local",
      "--remote", "--both", "--clear-sources", "--help", "--verbose", "--no-verbose", "--quiet",
      "--silent", "--backtrace", "--debug", "--norc", "--lock", "--no-lock", "--suggestions",
      "--no-suggestions"),
  },
  noRun: ["-h", "--help"],
};

/** `gem exec …` (or a prefix of `exec` only it begins: `ex`, `exe`): the command it runs. */
export function gemExec(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  // (gem's own options before its command: `--config-file F` takes a word.)
  let at = 0;
  while (args[at]?.kind === "static" && args[at].value.startsWith("-")) {
    at += args[at].value === "--config-file" ? 2 : 1;
  }
  const word = args[at];
  if (word === undefined) return;
  if (word.kind === "static" && !/^ex(e|ec)?$/.test(word.value)) return;
  const origin = word.kind === "static" ? "gem exec" : `gem ${word.text}`;
  runCommandWords(args.slice(at + 1), GEM_EXEC, stage.cwds, run, origin);
}
