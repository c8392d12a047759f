/**
 * Precision on real agent work: the 14,563 commands of the agent corpus (testdata/corpus/
 * agents.jsonl, an LLM agent's bash steps in /testbed) under the starter config. A change that
 * blocks an attack must not make the gate ask about everyday work: the number of commands
 * allowed may only grow (raise ALLOWED when it does).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadConfigTexts } from "./config.ts";
import { gateFileEntries } from "./gate_files.ts";
import { decide } from "./policy/engine.ts";
import { loadBashParser } from "./shell/parser.ts";
import { STARTER_CONFIG } from "./starter.ts";
import { ctxIn } from "./testing.ts";

/** Allowed under the starter config when this test was last raised. */
const ALLOWED = 14_416;

Deno.test("agent corpus: the starter config allows at least as many commands as before", async () => {
  const commands = readFileSync(new URL("../testdata/corpus/agents.jsonl", import.meta.url), "utf8")
    .split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l).command as string);
  const loaded = loadConfigTexts(
    [{ file: "starter.jsonc", text: STARTER_CONFIG, role: "global", root: null }],
    { home: "/root", builtins: gateFileEntries({ agentDir: "/root/.pi/agent" }) },
  );
  assert.equal(loaded.status, "ok");
  if (loaded.status !== "ok") return;
  const parser = await loadBashParser();
  // The tool's environment holds a PATH, as pi's does (`/usr/bin/python3` is python3).
  const PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  const ctx = ctxIn("/testbed", { home: "/root", files: ["/testbed/setup.py"], env: { PATH } });
  const counts = { allow: 0, nudge: 0, log: 0, sandbox: 0, ask: 0, deny: 0 };
  for (const command of commands) {
    counts[decide(loaded.config, { tool: "bash", input: { command } }, ctx, { parser }).action]++;
  }
  assert.ok(
    counts.allow >= ALLOWED,
    `allowed ${counts.allow} < ${ALLOWED}: ${JSON.stringify(counts)}`,
  );
});
