/** Finding config files: the agent directory and discovery of the global and the project file. */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { agentDirFrom, discoverConfigFiles } from "./config_files.ts";
import { HOME, tempDir, write } from "./testing_config.ts";

// ---------------------------------------------------------------------------------------------
// agentDir and discovery

Deno.test("agentDirFrom honours PI_CODING_AGENT_DIR with ~ expanded, else ~/.pi/agent", () => {
  assert.equal(agentDirFrom({}, HOME), "/home/me/.pi/agent");
  assert.equal(agentDirFrom({ PI_CODING_AGENT_DIR: "" }, HOME), "/home/me/.pi/agent");
  assert.equal(agentDirFrom({ PI_CODING_AGENT_DIR: "/opt/agent" }, HOME), "/opt/agent");
  assert.equal(agentDirFrom({ PI_CODING_AGENT_DIR: "~/agent" }, HOME), "/home/me/agent");
  assert.equal(agentDirFrom({ PI_CODING_AGENT_DIR: "~" }, HOME), HOME);
});

Deno.test("discovery prefers .jsonc over .json and falls back to .json", async () => {
  const tmp = await tempDir();
  const agentDir = path.join(tmp, "agent");
  const json = write(path.join(agentDir, "extensions", "pi-controls.json"), "{}");
  const cwd = path.join(tmp, "work");
  fs.mkdirSync(cwd);
  assert.deepEqual(discoverConfigFiles({ cwd, agentDir }), [
    { file: json, role: "global", root: null },
  ]);
  const jsonc = write(path.join(agentDir, "extensions", "pi-controls.jsonc"), "{}");
  assert.deepEqual(discoverConfigFiles({ cwd, agentDir }), [
    { file: jsonc, role: "global", root: null },
  ]);
  // Same for the project file.
  const pjson = write(path.join(cwd, ".pi", "extensions", "pi-controls.json"), "{}");
  assert.deepEqual(discoverConfigFiles({ cwd, agentDir })[1], {
    file: pjson,
    role: "project",
    root: cwd,
  });
  const pjsonc = write(path.join(cwd, ".pi", "extensions", "pi-controls.jsonc"), "{}");
  assert.deepEqual(discoverConfigFiles({ cwd, agentDir })[1], {
    file: pjsonc,
    role: "project",
    root: cwd,
  });
});

Deno.test("discovery walks up from cwd to the nearest project config, global first", async () => {
  const tmp = await tempDir();
  const agentDir = path.join(tmp, "agent");
  const globalFile = write(path.join(agentDir, "extensions", "pi-controls.jsonc"), "{}");
  const outer = path.join(tmp, "outer");
  const inner = path.join(outer, "inner");
  const deep = path.join(inner, "src", "lib");
  fs.mkdirSync(deep, { recursive: true });
  write(path.join(outer, ".pi", "extensions", "pi-controls.jsonc"), "{}");
  // The nearest directory with a config wins, even when it only has the .json fallback.
  const innerJson = write(path.join(inner, ".pi", "extensions", "pi-controls.json"), "{}");
  assert.deepEqual(discoverConfigFiles({ cwd: deep, agentDir }), [
    { file: globalFile, role: "global", root: null },
    { file: innerJson, role: "project", root: inner },
  ]);
  // Outside inner, the outer project is found.
  assert.deepEqual(discoverConfigFiles({ cwd: path.join(outer, "other"), agentDir })[1], {
    file: path.join(outer, ".pi", "extensions", "pi-controls.jsonc"),
    role: "project",
    root: outer,
  });
  // No configs at all.
  const empty = path.join(tmp, "empty");
  fs.mkdirSync(empty);
  assert.deepEqual(discoverConfigFiles({ cwd: empty, agentDir: path.join(tmp, "none") }), []);
});
