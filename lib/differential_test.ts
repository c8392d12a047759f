/**
 * The differential test of a refactoring: every command of both corpora (NL2Bash, 10,624; the
 * agent corpus, 14,563) gets the same verdict (action, stages, targets, messages) under the
 * starter config and a read-only config as it got when `testdata/corpus/verdicts.jsonl.gz` was
 * recorded. A change that is meant to change verdicts re-records it:
 *
 * ```sh
 * PI_CONTROLS_RECORD=1 deno test --allow-read --allow-write --allow-env lib/differential_test.ts
 * ```
 *
 * Each line holds a command's digest and, per config, a hash of its canonical verdict and a short
 * summary (action, and per stage its command, action and targets) so a failure shows what moved.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import { loadBashParser } from "./shell/parser.ts";
import { loadConfigTexts } from "./config.ts";
import { decide } from "./policy/engine.ts";
import { gateFileEntries } from "./gate_files.ts";
import { STARTER_CONFIG } from "./starter.ts";
import { ctxIn } from "./testing.ts";
import type { Config, Verdict } from "./types.ts";

const HOME = "/home/user";
const AGENT_DIR = `${HOME}/.pi/agent`;
const RECORD = new URL("../testdata/corpus/verdicts.jsonl.gz", import.meta.url);

function load(text: string, file: string): Config {
  const loaded = loadConfigTexts([{ file, text, role: "global", root: null }], {
    home: HOME,
    builtins: gateFileEntries({ agentDir: AGENT_DIR }),
  });
  if (loaded.status !== "ok") throw new Error(`${file} does not load`);
  return loaded.config;
}

const CONFIGS: [string, Config][] = [
  ["starter", load(STARTER_CONFIG, "starter.jsonc")],
  [
    "read-only",
    load(
      JSON.stringify({
        policies: {
          ro: { defaultAction: "deny", rules: ["$safe-bash", { action: "allow", tool: "read" }] },
        },
        locations: { "/": "ro" },
        pathProtection: { ".env": "ask", "~/.ssh/**": "deny" },
      }),
      "read-only.json",
    ),
  ],
];

function corpus(): { command: string; cwd: string }[] {
  const dir = new URL("../testdata/corpus/", import.meta.url);
  const nl2bash = readFileSync(new URL("nl2bash.txt", dir), "utf8").split("\n")
    .filter((l) => l.trim()).map((command) => ({ command, cwd: `${HOME}/project` }));
  const agents = readFileSync(new URL("agents.jsonl", dir), "utf8").split("\n")
    .filter((l) => l.trim()).map((l) => ({ command: JSON.parse(l).command, cwd: "/testbed" }));
  return [...nl2bash, ...agents];
}

/** JSON with sorted keys: the same verdict hashes the same whatever order code builds it in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64").slice(0, 16);
}

function summary(v: Verdict): string {
  const stages = v.stages.map((s) =>
    `${s.command} => ${s.action} [${
      s.targets.map((t) => `${t.kind}:${t.path}=${t.action}`).join(" ")
    }]`
  );
  return `${v.action}${v.parseError ? ` (${v.parseError})` : ""}: ${stages.join(" ; ")}`;
}

interface Line {
  c: string;
  [config: string]: string | [string, string];
}

Deno.test("differential: every corpus command keeps its recorded verdict", async () => {
  const parser = await loadBashParser();
  const lines: Line[] = [];
  for (const { command, cwd } of corpus()) {
    const ctx = ctxIn(cwd, { home: HOME, files: [`${cwd}/README.md`, `${cwd}/setup.py`] });
    const line: Line = { c: digest(command) };
    for (const [name, config] of CONFIGS) {
      const v = decide(config, { tool: "bash", input: { command } }, ctx, { parser });
      line[name] = [digest(canonical(v)), summary(v)];
    }
    lines.push(line);
  }
  assert.ok(lines.length > 25_000);
  if (Deno.env.get("PI_CONTROLS_RECORD") === "1") {
    writeFileSync(RECORD, gzipSync(lines.map((l) => JSON.stringify(l)).join("\n") + "\n"));
    return;
  }
  const recorded = gunzipSync(readFileSync(RECORD)).toString("utf8").split("\n")
    .filter((l) => l).map((l) => JSON.parse(l) as Line);
  assert.equal(recorded.length, lines.length, "the corpus changed: re-record");
  const diffs: string[] = [];
  lines.forEach((line, i) => {
    const old = recorded[i];
    assert.equal(old.c, line.c, `command ${i} changed: re-record`);
    for (const [name] of CONFIGS) {
      const [h, s] = line[name] as [string, string];
      const [oh, os] = old[name] as [string, string];
      if (h !== oh) diffs.push(`#${i} under ${name}:\n  was ${os}\n  now ${s}`);
    }
  });
  assert.equal(
    diffs.length,
    0,
    `${diffs.length} verdicts changed:\n${
      diffs.slice(0, Number(Deno.env.get("PI_CONTROLS_DIFFS") ?? 20)).join("\n")
    }`,
  );
});
