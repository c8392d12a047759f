import assert from "node:assert/strict";
import { loadBashParser } from "../shell/parser.ts";
import { innerRuns } from "../testing_stages.ts";
import { checkTable } from "../testing_adversarial.ts";

const parser = await loadBashParser();
const runs = (command: string) => innerRuns(parser, command, { listed: false });

Deno.test("agents: what an agent started from a command runs is not known", async () => {
  assert.deepEqual(runs("pi -p 'fix the tests'"), ["(commands the agent pi runs)"]);
  assert.deepEqual(runs("claude --dangerously-skip-permissions -p x"), [
    "(commands the agent claude runs)",
  ]);
  assert.deepEqual(runs("pi install npm:some-extension"), [
    "(packages and settings pi loads at its next start)",
  ]);
  // Its version, its help and pi's package list run nothing.
  assert.deepEqual(runs("pi --version"), []);
  assert.deepEqual(runs("codex --help"), []);
  assert.deepEqual(runs("pi list"), []);
  await checkTable([
    ["pi --no-extensions -p 'rm -rf build'", "deny", "deny"],
    ["HOME=/tmp pi -p 'clean up'", "deny", "deny"],
    ["env PI_CODING_AGENT_DIR=/tmp/a pi -p x", "deny", "deny"],
    ["pi install npm:evil-extension", "deny", "deny"],
    ["pi update", "deny", "deny"],
    ["claude --dangerously-skip-permissions -p 'rm -rf build'", "deny", "deny"],
    ["codex exec --dangerously-bypass-approvals-and-sandbox 'rm -rf build'", "deny", "deny"],
    ["gemini --yolo -p 'x'", "deny", "deny"],
    ["aider --yes-always --message 'x'", "deny", "deny"],
    ["pi --version", "deny", "allow"],
  ]);
});
