/**
 * What pi's own tools and other tools (MCP, custom) touch, as the tool will: `file:` URLs, a `..`
 * the kernel walks, a write through a symlink whose target does not exist yet, inputs too large to
 * look through, a tool that may replace a directory, paths as keys, and shell commands a tool runs.
 */
import assert from "node:assert/strict";
import { denyList } from "../testing_adversarial.ts";
import { configFrom, ctxIn, decideIn } from "../testing.ts";
import type { Action } from "../types.ts";

const ctx = ctxIn("/home/user/project", {
  files: [
    "/home/user/project/README.md",
    "/home/user/project/.env",
    "/home/user/project/.pi/settings.json",
    "/home/user/.ssh/id_rsa",
    "/home/user/.pi/agent/settings.json",
    "/etc/shadow",
  ],
  links: {
    "/home/user/project/keys": "/home/user/.ssh",
    // Dangling: their targets do not exist yet.
    "/home/user/project/ak": "/home/user/.ssh/authorized_keys",
    "/home/user/project/dangle": "/home/user/.pi/agent/extensions/evil.ts",
  },
});
const gate = configFrom(
  { policies: { open: { defaultAction: "allow", rules: [] } }, locations: { "/": "open" } },
  { agentDir: "/home/user/.pi/agent", home: "/home/user" },
);

/** [tool, input, under the deny-list, under the gate's own protection] */
const ROWS: [string, Record<string, unknown>, Action, Action][] = [
  ["read", { path: "file:///home/user/.ssh/id_rsa" }, "deny", "allow"],
  ["write", { path: "file:///home/user/.pi/agent/extensions/evil.ts" }, "allow", "ask"],
  ["read", { path: "/home/user/project/keys/../.ssh/id_rsa" }, "deny", "allow"],
  ["write", { path: "ak" }, "deny", "allow"],
  ["write", { path: "dangle" }, "allow", "ask"],
  ["write", { path: "~/.pi/agent/bin/rg" }, "allow", "ask"],
  [
    "mcp__fs__read_multiple_files",
    { paths: [...Array(64).fill("README.md"), "README.md"] },
    "ask",
    "ask",
  ],
  ["mcp__fs__delete", { path: ".pi" }, "allow", "ask"],
  ["mcp__fs__move_file", { source: ".pi", destination: "/tmp/x" }, "allow", "ask"],
  ["mcp__fs__read", { path: "a://../.env" }, "deny", "allow"],
  ["mcp__fs__read", { path: "file:///home/user/project/.env#x" }, "deny", "allow"],
  ["mcp__fs__read", { path: "file:/etc/shadow" }, "deny", "allow"],
  ["mcp__fs__write", { files: { "/home/user/.pi/agent/extensions/evil.ts": "x" } }, "allow", "ask"],
  ["mcp__fs__copy", { from: "README.md", to: ".env" }, "deny", "allow"],
  ["mcp__fs__read", { file_paths: ["keys/id_rsa"] }, "deny", "allow"],
  ["powershell", { command: "Get-Content ~/.ssh/id_rsa" }, "deny", "allow"],
  ["mcp__desktop__start_process", { command: "rm -rf src", timeout_ms: 1000 }, "deny", "allow"],
  ["mcp__x__run", { args: { cmd: "cat .env" } }, "deny", "allow"],
  // Everyday calls stay as they were.
  ["read", { path: "README.md" }, "allow", "allow"],
  ["write", { path: "src/new.ts" }, "allow", "allow"],
  ["mcp__x__run", { command: "npm test" }, "allow", "allow"],
  ["mcp__github__search", { query: "foo bar" }, "allow", "allow"],
];

Deno.test("tool calls: the paths and commands a tool will touch are judged", async () => {
  const wrong: string[] = [];
  for (const [tool, input, dl, g] of ROWS) {
    const a = (await decideIn(denyList, ctx, tool, input)).action;
    const b = (await decideIn(gate, ctx, tool, input)).action;
    const shown = `${tool} ${JSON.stringify(input).slice(0, 80)}`;
    if (a !== dl) wrong.push(`deny-list: ${shown} got ${a}, want ${dl}`);
    if (b !== g) wrong.push(`gate: ${shown} got ${b}, want ${g}`);
  }
  assert.deepEqual(wrong, []);
});
