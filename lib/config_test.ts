/** Loading config: discovered and explicit files, read errors, and how errors are rendered. */
import assert from "node:assert/strict";
import * as path from "node:path";
import { formatConfigError, loadConfig } from "./config.ts";
import { agentDirFrom } from "./config_files.ts";
import {
  assertHasError,
  assertOnlyError,
  errors,
  lines,
  ok,
  tempDir,
  write,
} from "./testing_config.ts";

Deno.test("loadConfig: no config files -> absent", async () => {
  const tmp = await tempDir();
  const r = loadConfig({ cwd: tmp, agentDir: path.join(tmp, "agent"), home: tmp });
  assert.deepEqual(r, { status: "absent", files: [] });
});

Deno.test("loadConfig finds the global file in PI_CODING_AGENT_DIR and merges the project", async () => {
  const tmp = await tempDir();
  const agentDir = agentDirFrom({ PI_CODING_AGENT_DIR: path.join(tmp, "custom-agent") }, tmp);
  const g = write(
    path.join(agentDir, "extensions", "pi-controls.jsonc"),
    '{ "policies": { "base": { "defaultAction": "ask", "rules": [] } }, "defaultPolicy": "base" }',
  );
  const root = path.join(tmp, "repo");
  const p = write(
    path.join(root, ".pi", "extensions", "pi-controls.jsonc"),
    '{ "locations": { "src": "base" } }',
  );
  const r = loadConfig({ cwd: path.join(root), agentDir, home: tmp });
  const config = ok(r);
  assert.deepEqual(config.files, [g, p]);
  assert.deepEqual(r.files, [g, p]);
  assert.equal(config.defaultPolicy, "base");
  assert.deepEqual(config.locations, [{ key: "src", policy: "base", base: root, file: p }]);
  // The default ~/.pi/agent is not consulted when PI_CODING_AGENT_DIR is set.
  write(path.join(tmp, ".pi", "agent", "extensions", "pi-controls.jsonc"), "{ broken");
  assert.equal(loadConfig({ cwd: root, agentDir, home: tmp }).status, "ok");
});

Deno.test("loadConfig with explicit files: order, roles, and missing files", async () => {
  const tmp = await tempDir();
  const agentDir = path.join(tmp, "agent");
  const a = write(
    path.join(tmp, "a.jsonc"),
    '{ "policies": { "p": { "defaultAction": "deny", "rules": [] } }, "locations": { "src": "p" } }',
  );
  const projRoot = path.join(tmp, "proj");
  const b = write(
    path.join(projRoot, ".pi", "extensions", "custom.jsonc"),
    '{ "policies": { "p": { "defaultAction": "ask" } }, "locations": { "lib": "p" } }',
  );
  const config = ok(loadConfig({ cwd: tmp, agentDir, home: tmp, files: ["a.jsonc", b] }));
  assert.deepEqual(config.files, [a, b]);
  assert.equal(config.policies.p.defaultAction, "ask"); // later file wins
  assert.deepEqual(config.locations, [
    // A plain explicit file is rooted at its own directory...
    { key: "src", policy: "p", base: tmp, file: a },
    // ...one inside .pi/extensions at the directory containing .pi.
    { key: "lib", policy: "p", base: projRoot, file: b },
  ]);

  const missing = path.join(tmp, "nope.jsonc");
  const r = loadConfig({ cwd: tmp, agentDir, home: tmp, files: [a, missing] });
  assert.equal(r.status, "error");
  assert.deepEqual(r.files, [a, missing]);
  assert.deepEqual(errors(r), [`${missing}:1:1: config file does not exist`]);
});

Deno.test("loadConfig: the global file passed explicitly keeps its global role", async () => {
  const tmp = await tempDir();
  const agentDir = path.join(tmp, "agent");
  const g = write(
    path.join(agentDir, "extensions", "pi-controls.jsonc"),
    lines(
      "{",
      '  "policies": { "p": { "defaultAction": "deny", "rules": [] } },',
      '  "locations": { "src": "p" }',
      "}",
    ),
  );
  const r = loadConfig({ cwd: tmp, agentDir, home: tmp, files: [g] });
  assertOnlyError(r, `${g}:3:18`, "relative location keys are only allowed in a project config");
});

Deno.test("loadConfig reports syntax errors of discovered files with positions", async () => {
  const tmp = await tempDir();
  const agentDir = path.join(tmp, "agent");
  const g = write(
    path.join(agentDir, "extensions", "pi-controls.jsonc"),
    lines("{", '  "policies": {', '    "p" { }', "  }", "}"),
  );
  const r = loadConfig({ cwd: tmp, agentDir, home: tmp });
  assert.deepEqual(r.files, [g]);
  assertHasError(r, `${g}:3:9`, "syntax error", "colon");
});

Deno.test("formatConfigError renders file:line:col: message", () => {
  assert.equal(
    formatConfigError({ file: "/a/b.jsonc", line: 3, column: 7, message: "bad" }),
    "/a/b.jsonc:3:7: bad",
  );
});
