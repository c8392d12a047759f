/**
 * Per-decision latency (deno bench): bash decisions against a bare tree-sitter parse of the same
 * commands (the baseline, same run), and non-bash decisions. One command per iteration, so the
 * p99 column is the per-command p99; each bash bench runs the corpus once, in the same order.
 */
import { readFileSync } from "node:fs";
import { loadBashParser } from "./bash_parser.ts";
import { BENCH_CONFIG, benchContext } from "../bench/fixture.ts";
import { decide } from "./engine.ts";
import type { Context } from "./types.ts";

const corpus = readFileSync(new URL("../testdata/corpus/nl2bash.txt", import.meta.url), "utf8")
  .split("\n").filter((l) => l.trim());
const parser = await loadBashParser();
const config = BENCH_CONFIG;
const ctx: Context = benchContext(Deno.cwd());
// Both bash benches walk the whole corpus in the same order, each with its own counter, so the
// baseline parses exactly the commands the decisions are measured on. The first couple of thousand
// calls run slower while V8 tiers up the WASM parser and the engine's code: warm up past them.
const ITERATIONS = { n: corpus.length, warmup: 2 * corpus.length };
let parsed = 0;
let decided = 0;

Deno.bench({ name: "bare tree-sitter parse", group: "bash", baseline: true, ...ITERATIONS }, () => {
  parser.parse(corpus[parsed++ % corpus.length])!.delete();
});

Deno.bench({ name: "bash decision", group: "bash", ...ITERATIONS }, () => {
  const command = corpus[decided++ % corpus.length];
  decide(config, { tool: "bash", input: { command } }, ctx, { parser });
});

const paths = ["src/main.ts", "README.md", "/etc/hosts", "~/notes.txt", "lib/engine.ts", ".env"];
let j = 0;
Deno.bench({ name: "read decision", group: "tools" }, () => {
  decide(config, { tool: "read", input: { path: paths[j++ % paths.length] } }, ctx, { parser });
});

Deno.bench({ name: "MCP tool decision", group: "tools" }, () => {
  decide(
    config,
    { tool: "github_create_issue", input: { owner: "o", repo: "r", title: "t" } },
    ctx,
    {
      parser,
    },
  );
});
