/**
 * The in-process side of the `check --jsonl` comparison, in a fresh process as the CLI is: read
 * the lines, then decide each as the CLI does (parse the JSON, decide, stringify the verdict) and
 * print the milliseconds the loop took. Usage: in_process.ts LINES.jsonl CWD (HOME from the env).
 */
import { readFileSync } from "node:fs";
import { loadBashParser } from "../lib/shell/parser.ts";
import { decide } from "../lib/policy/engine.ts";
import { realFs } from "../lib/policy/fs_facts.ts";
import { STARTER_CONFIG } from "../lib/starter.ts";
import { configFrom } from "../lib/testing.ts";

const [file, cwd] = Deno.args;
const home = Deno.env.get("HOME") ?? "/";
const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim());
const config = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
const parser = await loadBashParser();
const ctx = { cwd, home, env: Deno.env.toObject(), fs: realFs() };
const t0 = performance.now();
for (const line of lines) {
  const e = JSON.parse(line);
  JSON.stringify(decide(config, { tool: e.tool, input: e.input }, ctx, { parser }));
}
console.log(JSON.stringify({ ms: performance.now() - t0, lines: lines.length }));
