/**
 * The numbers `deno bench` cannot take alone: extension cold start under Node, replay throughput,
 * heap after a million decisions, and `check --jsonl` cost per line against in-process decisions.
 * Also per command: the median and p99 of bash decisions against a bare parse of the same
 * commands (deno bench reports means). Prints a table with the targets (issue 7's, and issue 18's for the median and `check --jsonl`). Run by
 * `deno task bench` after `deno bench`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadBashParser } from "../lib/shell/parser.ts";
import { decide } from "../lib/policy/engine.ts";
import { realFs } from "../lib/policy/fs_facts.ts";
import { readSession, replaySessions } from "../lib/replay.ts";
import { STARTER_CONFIG } from "../lib/starter.ts";
import { configFrom } from "../lib/testing.ts";
import { median, nl2bash, ROOT as root } from "./corpus.ts";
import { BENCH_CONFIG, benchContext } from "./fixture.ts";
import { decisionFloor } from "./floor.ts";

const corpus = nl2bash();
const home = mkdtempSync(join(tmpdir(), "pi-controls-bench-"));
const agent = join(home, ".pi", "agent");
mkdirSync(join(agent, "extensions"), { recursive: true });
writeFileSync(join(agent, "extensions", "pi-controls.jsonc"), STARTER_CONFIG);
const project = join(home, "project");
mkdirSync(project, { recursive: true });
const env = {
  HOME: home,
  PATH: Deno.env.get("PATH") ?? "",
  PI_CODING_AGENT_DIR: agent,
  DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno"),
};
const rows: [string, string, string, boolean | null][] = [];

// 1. Cold start under Node.
const colds: number[] = [];
const parts: Record<string, number>[] = [];
for (let i = 0; i < 7; i++) {
  const o = new Deno.Command("node", {
    args: [join(root, "bench/cold_start.mjs"), join(root, "dist/pi-controls.js"), project],
    env,
    clearEnv: true,
  }).outputSync();
  if (!o.success) throw new Error(new TextDecoder().decode(o.stderr));
  const r = JSON.parse(new TextDecoder().decode(o.stdout));
  colds.push(r.total);
  parts.push(r);
}
const cold = median(colds);
const part = parts[colds.indexOf(cold)];
rows.push([
  "cold start (import bundle, WASM, config, first decision)",
  `${cold.toFixed(1)} ms (import ${part.import.toFixed(0)}, config ${
    part.config.toFixed(0)
  }, first ${part.firstDecision.toFixed(0)})`,
  "< 80 ms",
  cold < 80,
]);

// 2. Per command: the bare parse and the decision of each corpus command, timed one by one
// (medians and p99 over the corpus). Parses and decisions alternate, so both run in the same
// state of the machine, but each decision is of the command half the corpus away from the one
// just parsed: a decision right after a parse of its own command would find tree-sitter's
// memory warm for it. Two passes let V8 and the filesystem settle; then three measured passes,
// each with its own spacing, so every decision is a fresh analysis. The table shows the middle
// pass by decision p99, and the range of the three: a burst of load on the machine can spoil
// one pass, and the middle one still tells the code's tail.
const parser = await loadBashParser();
{
  const ctx = benchContext(resolve(root));
  for (const pad of [" ", "  "]) {
    for (const c of corpus) {
      parser.parse(c + pad)!.delete();
      decide(BENCH_CONFIG, { tool: "bash", input: { command: c + pad } }, ctx, { parser });
    }
  }
  const q = (xs: number[], f: number) =>
    [...xs].sort((a, b) => a - b)[Math.floor(xs.length * f)] * 1000;
  const passes: { parse50: number; parse99: number; decide50: number; decide99: number }[] = [];
  for (let pass = 0; pass < 3; pass++) {
    const pad = " ".repeat(pass + 3);
    const parses: number[] = [];
    const decisions: number[] = [];
    const half = Math.floor(corpus.length / 2);
    for (let i = 0; i < corpus.length; i++) {
      let t = performance.now();
      parser.parse(corpus[i] + pad)!.delete();
      parses.push(performance.now() - t);
      const command = corpus[(i + half) % corpus.length] + pad;
      t = performance.now();
      decide(BENCH_CONFIG, { tool: "bash", input: { command } }, ctx, { parser });
      decisions.push(performance.now() - t);
    }
    passes.push({
      parse50: q(parses, 0.5),
      parse99: q(parses, 0.99),
      decide50: q(decisions, 0.5),
      decide99: q(decisions, 0.99),
    });
  }
  const byTail = [...passes].sort((a, b) => a.decide99 - b.decide99);
  const mid = byTail[1];
  const ratio = mid.decide50 / mid.parse50;
  const ratios = passes.map((p) => p.decide50 / p.parse50).sort((a, b) => a - b);
  rows.push([
    `bash decision / bare parse of the same command, median (${corpus.length} commands; middle of 3 passes)`,
    `${mid.decide50.toFixed(1)} µs / ${mid.parse50.toFixed(1)} µs = ${ratio.toFixed(2)}x (passes ${
      ratios.map((r) => r.toFixed(2)).join(", ")
    })`,
    "< 1.5x",
    ratio < 1.5,
  ]);
  rows.push([
    "bash decision p99 (bare parse p99), middle of 3 passes",
    `${mid.decide99.toFixed(0)} µs (${mid.parse99.toFixed(0)} µs); passes ${
      byTail.map((p) => p.decide99.toFixed(0)).join(", ")
    } µs`,
    "< 250 µs",
    mid.decide99 < 250,
  ]);
  // What no judging can go below (bench/floor.ts), against the middle pass's parse.
  const floor = decisionFloor(corpus, BENCH_CONFIG, ctx, parser);
  rows.push([
    `what a decision cannot skip, median: the command read alone, its filesystem calls replayed (${floor.calls} calls), both`,
    `${floor.read.toFixed(1)} µs, ${floor.fs.toFixed(1)} µs, ${floor.sum.toFixed(1)} µs = ${
      (floor.sum / mid.parse50).toFixed(2)
    }x the parse; p99 of both ${floor.sum99.toFixed(0)} µs`,
    "(the floor under the 1.5x and p99 rows)",
    null,
  ]);
}

// 3. Replay throughput over a generated session set.
const config = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
const sessions = [];
const perSession = 200;
let calls = 0;
for (let s = 0; calls < 20_000; s++) {
  const lines = [
    JSON.stringify({
      type: "session",
      version: 3,
      id: `s${s}`,
      timestamp: "2026-11-30T10:00:00Z",
      cwd: project,
    }),
  ];
  for (let k = 0; k < perSession; k++, calls++) {
    const bash = k % 3 !== 0;
    const content = [{
      type: "toolCall",
      id: `c${k}`,
      name: bash ? "bash" : "read",
      arguments: bash ? { command: corpus[calls % corpus.length] } : { path: `src/file${k}.ts` },
    }];
    lines.push(
      JSON.stringify({
        type: "message",
        id: `m${k}`,
        parentId: null,
        timestamp: "2026-11-30T10:00:00Z",
        message: { role: "assistant", content, timestamp: 1_700_000_000_000 + k * 1000 },
      }),
    );
  }
  sessions.push(readSession(`s${s}.jsonl`, lines.join("\n")));
}
const base = { home, env, fs: realFs() };
replaySessions(config, sessions.slice(0, 5), base, { parser });
const r0 = performance.now();
const replayed = replaySessions(config, sessions, base, { parser });
const rate = replayed.length / ((performance.now() - r0) / 1000);
const distinctCalls = new Set(
  sessions.flatMap((s) => s.calls.map((c) => `${c.tool}\0${JSON.stringify(c.input)}`)),
).size;
const repeated = Math.round((1 - distinctCalls / replayed.length) * 100);
rows.push([
  `replay throughput (${replayed.length} calls, 2/3 bash, ${repeated}% repeated calls)`,
  `${Math.round(rate).toLocaleString("en")} calls/s`,
  "> 20,000 calls/s",
  rate > 20_000,
]);
// The same run with every call distinct (each bash command once, each read a new path): what
// replay costs when nothing repeats.
const unique = sessions.map((s, i) => ({
  ...s,
  calls: s.calls.map((c, k) =>
    c.tool === "bash"
      ? { ...c, input: { command: `${c.input.command}${" ".repeat(1 + i % 3)}` } }
      : { ...c, input: { path: `src/s${i}/file${k}.ts` } }
  ),
}));
const u0 = performance.now();
const uniqueRows = replaySessions(config, unique, base, { parser });
const uniqueRate = uniqueRows.length / ((performance.now() - u0) / 1000);
const uniqueDistinct = new Set(
  unique.flatMap((s) => s.calls.map((c) => `${c.tool}\0${JSON.stringify(c.input)}`)),
).size;
rows.push([
  `replay throughput, ${uniqueDistinct} distinct calls of ${uniqueRows.length}`,
  `${Math.round(uniqueRate).toLocaleString("en")} calls/s`,
  "> 20,000 calls/s",
  uniqueRate > 20_000,
]);

// 4. In-process decision cost per line, then check --jsonl per line.
const inputs = corpus.slice(0, 5000).map((command, id) =>
  JSON.stringify({ id, tool: "bash", input: { command } })
);
// In-process: the same lines decided in a fresh process too (the CLI starts cold as well).
const linesFile = join(home, "lines.jsonl");
writeFileSync(linesFile, inputs.join("\n") + "\n");
function inProcessTime(): number {
  const o = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      join(root, "deno.json"),
      join(root, "bench/in_process.ts"),
      linesFile,
      project,
    ],
    env,
    clearEnv: true,
    cwd: root,
  }).outputSync();
  if (!o.success) throw new Error(new TextDecoder().decode(o.stderr));
  return JSON.parse(new TextDecoder().decode(o.stdout)).ms;
}
const inProcess = median([inProcessTime(), inProcessTime(), inProcessTime()]) / inputs.length;
async function jsonlTime(lines: string[]): Promise<number> {
  const t = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      join(root, "lib/cli.ts"),
      "check",
      "--cwd",
      project,
      "--jsonl",
    ],
    env,
    clearEnv: true,
    cwd: root,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(lines.join("\n") + "\n"));
  await w.close();
  const out = await child.output();
  // (The exit status says the most restrictive verdict: 0, 3 ask or 4 deny; 1 and 2 fail.)
  if (![0, 3, 4].includes(out.code)) {
    throw new Error(`check --jsonl failed: ${new TextDecoder().decode(out.stderr)}`);
  }
  return performance.now() - t;
}
const startup = median([
  await jsonlTime(inputs.slice(0, 1)),
  await jsonlTime(inputs.slice(0, 1)),
  await jsonlTime(inputs.slice(0, 1)),
]);
const full = median([await jsonlTime(inputs), await jsonlTime(inputs), await jsonlTime(inputs)]);
const perLine = (full - startup) / (inputs.length - 1);
rows.push([
  "check --jsonl per line (startup excluded) / in-process",
  `${(perLine * 1000).toFixed(0)} µs / ${(inProcess * 1000).toFixed(0)} µs = ${
    (perLine / inProcess).toFixed(2)
  }x`,
  "< 1.3x",
  perLine / inProcess < 1.3,
]);

// 5. Heap after a million decisions (child process with --expose-gc).
const heapScript = join(home, "heap.ts");
writeFileSync(
  heapScript,
  `
import { readFileSync } from "node:fs";
import { loadBashParser } from "${root}lib/shell/parser.ts";
import { decide } from "${root}lib/policy/engine.ts";
import { realFs } from "${root}lib/policy/fs_facts.ts";
import { STARTER_CONFIG } from "${root}lib/starter.ts";
import { configFrom } from "${root}lib/testing.ts";
const corpus = readFileSync("${root}testdata/corpus/nl2bash.txt", "utf8").split("\\n").filter((l) => l.trim());
const config = configFrom(STARTER_CONFIG, { home: "${home}", agentDir: "${home}/.pi/agent" });
const parser = await loadBashParser();
const ctx = { cwd: "${project}", home: "${home}", env: {}, fs: realFs() };
const gc = (globalThis as unknown as { gc: () => void }).gc;
for (let i = 0; i < 20000; i++) decide(config, { tool: i % 3 ? "bash" : "read", input: i % 3 ? { command: corpus[i % corpus.length] } : { path: "f" + (i % 100) } }, ctx, { parser });
gc(); const before = Deno.memoryUsage().heapUsed;
for (let i = 0; i < 1_000_000; i++) decide(config, { tool: i % 3 ? "bash" : "read", input: i % 3 ? { command: corpus[i % corpus.length] } : { path: "f" + (i % 100) } }, ctx, { parser });
gc(); const after = Deno.memoryUsage().heapUsed;
console.log(JSON.stringify({ before, after }));
`,
);
const h = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", "--config", join(root, "deno.json"), "--v8-flags=--expose-gc", heapScript],
  cwd: root,
}).outputSync();
if (!h.success) throw new Error(new TextDecoder().decode(h.stderr));
const heap = JSON.parse(new TextDecoder().decode(h.stdout));
const growth = (heap.after - heap.before) / 1024 / 1024;
rows.push([
  "heap growth over 1,000,000 decisions",
  `${growth.toFixed(2)} MiB (${(heap.before / 1048576).toFixed(1)} → ${
    (heap.after / 1048576).toFixed(1)
  } MiB)`,
  "no growth (< 1 MiB)",
  growth < 1,
]);

console.log("\n| measure | result | target | met |\n| --- | --- | --- | --- |");
for (const [m, r, t, ok] of rows) {
  console.log(`| ${m} | ${r} | ${t} | ${ok === null ? "—" : ok ? "yes" : "NO"} |`);
}
console.log(
  `\nmachine: ${Deno.build.target}, ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}; numbers vary with load.`,
);
