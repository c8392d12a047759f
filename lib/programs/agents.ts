/**
 * Coding agents started from a command (`pi -p TASK`, `claude -p`, `codex exec`, `gemini -y`,
 * `aider --yes`): an agent runs whatever commands its model chooses, under its own gate or none
 * (`pi --no-extensions`, `HOME=/tmp pi`, `claude --dangerously-skip-permissions`), so what it runs
 * is not known. `pi install|remove|update|config` change the packages and settings pi loads, which
 * run with its authority at its next start. Only asking for the version or help runs nothing.
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";
import type { Program, Runner } from "./spec.ts";
import { programName, unknownWord } from "./words.ts";

/** Words that only ask an agent for its version or help. */
const INFO = /^(-v|-V|-h|--version|--help|help|version)$/;
/** pi's subcommands that change what pi loads at its next start. */
const PI_PACKAGES = /^(install|remove|uninstall|update|config)$/;

/** What an agent command runs: commands not known, unless it only prints its version or help. */
function agentRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  if (args.length > 0 && args.every((w) => w.kind === "static" && INFO.test(w.value))) return;
  const name = programName(stage.argv[0]);
  const sub = args[0]?.kind === "static" ? args[0].value : "";
  if (name === "pi" && sub === "list") return;
  const what = name === "pi" && PI_PACKAGES.test(sub)
    ? "(packages and settings pi loads at its next start)"
    : `(commands the agent ${name} runs)`;
  run.stage([unknownWord(what)], `agent:${name}`);
}

/** Coding agents. */
export const AGENT_PROGRAMS: Program[] = [
  {
    names: [
      "pi",
      "claude",
      "codex",
      "gemini",
      "qwen",
      "aider",
      "opencode",
      "goose",
      "amp",
      "cursor-agent",
      "crush",
      "copilot",
    ],
    runs: agentRuns,
  },
];
