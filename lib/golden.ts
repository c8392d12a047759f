/**
 * Golden replay: every case in testdata/cases (a config, recorded pi sessions, the expectations
 * the spec states) replayed through the engine and session state, rendered as readable text.
 * `deno task golden:update` rewrites golden/<case>.txt for review in the diff.
 *
 * @module
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { loadBashParser } from "./shell/parser.ts";
import { type ConfigSource, formatConfigError, loadConfigTexts } from "./config.ts";
import { fakeFs } from "./policy/fs_facts.ts";
import { readSession, type ReplayRow, replaySessions } from "./replay.ts";
import type { Action, Rule } from "./types.ts";

/** The description of a golden case (case.json). */
interface CaseSpec {
  spec: string;
  home: string;
  files?: string[];
  links?: Record<string, string>;
  projectRoot?: string;
  env?: Record<string, string>;
  expect: Record<string, Record<string, Action>>;
  why?: Record<string, string>;
}

/** The outcome of one case. */
export interface CaseResult {
  name: string;
  text: string;
  /** Calls whose final action differs from what the spec states. */
  mismatches: string[];
}

const ROOT = new URL("..", import.meta.url).pathname;
/** Where the cases live. */
export const CASES_DIR: string = join(ROOT, "testdata", "cases");
/** Where the expected renderings live. */
export const GOLDEN_DIR: string = join(ROOT, "golden");

function rule(r: Rule | null): string {
  if (!r) return "defaultAction";
  return `${r.action} ${r.tool}${r.pattern !== undefined ? ` "${r.pattern}"` : ""}`;
}

function render(rows: ReplayRow[]): string {
  const out: string[] = [];
  for (const r of rows) {
    const esc = r.escalation ? ` (escalated by ${r.escalation})` : "";
    out.push(`${r.id}  ${r.tool}  ${r.summary}`);
    out.push(`  ${r.engine} -> ${r.action}${esc}  [${r.policies.join(", ")}]`);
    if (r.notification) out.push(`  notify: ${r.notification}`);
    if (r.reason && r.action !== "allow") out.push(`  reason: ${r.reason}`);
    if (r.verdict.parseError) out.push(`  parse: ${r.verdict.parseError}`);
    for (const s of r.verdict.stages) {
      if (s.command !== null) {
        out.push(`  stage [${s.origin}] ${s.command}  @ ${s.cwd}  => ${s.action}`);
      }
      for (const t of s.targets) {
        const extra = [
          t.resolved ? `resolved ${t.resolved}` : "",
          t.protection ? `protected by "${t.protection.glob}" (${t.protection.action})` : "",
          t.approval ? `approved by ${rule(t.approval)}` : "",
          t.note ?? "",
        ].filter(Boolean).join("; ");
        out.push(
          `    ${t.kind} ${t.path || "(anywhere)"}  ${t.location ?? "-"} ${
            t.policy ?? "(fail-open)"
          }  ` +
            `${rule(t.rule)} (${t.score}) => ${t.action}${extra ? `  {${extra}}` : ""}`,
        );
      }
    }
  }
  return out.join("\n");
}

/** Replay one case directory. */
export async function runCase(name: string): Promise<CaseResult> {
  const dir = join(CASES_DIR, name);
  const spec: CaseSpec = JSON.parse(readFileSync(join(dir, "case.json"), "utf8"));
  const sources: ConfigSource[] = [
    {
      file: "config.jsonc",
      text: readFileSync(join(dir, "config.jsonc"), "utf8"),
      role: "global",
      root: null,
    },
  ];
  if (existsSync(join(dir, "project.jsonc"))) {
    sources.push({
      file: "project.jsonc",
      text: readFileSync(join(dir, "project.jsonc"), "utf8"),
      role: "project",
      root: spec.projectRoot ?? null,
    });
  }
  const loaded = loadConfigTexts(sources, { home: spec.home });
  if (loaded.status !== "ok") {
    const errors = loaded.status === "error" ? loaded.errors.map(formatConfigError) : ["absent"];
    return {
      name,
      text: errors.join("\n"),
      mismatches: [`config does not load: ${errors.join("; ")}`],
    };
  }
  const parser = await loadBashParser();
  const fs = fakeFs({ files: spec.files ?? [], links: spec.links ?? {} });
  const sessions = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort();
  const parts: string[] = [`# ${name}: ${spec.spec}`];
  const mismatches: string[] = [];
  for (const file of sessions) {
    const session = readSession(file, readFileSync(join(dir, file), "utf8"));
    const rows = replaySessions(loaded.config, [session], {
      home: spec.home,
      env: { HOME: spec.home, ...spec.env },
      fs,
    }, { parser });
    parts.push(`\n## ${file} (cwd ${session.cwd})\n${render(rows)}`);
    const expect = spec.expect[file] ?? {};
    for (const [id, action] of Object.entries(expect)) {
      const row = rows.find((r) => r.id === id);
      if (!row) mismatches.push(`${name}/${file}: ${id} is not in the session`);
      else if (row.action !== action) {
        mismatches.push(
          `${name}/${file}: ${id} (${row.summary}) got ${row.action}, the spec says ${action}` +
            (spec.why?.[id] ? ` — ${spec.why[id]}` : ""),
        );
      }
    }
  }
  return { name, text: parts.join("\n") + "\n", mismatches };
}

/** The names of all cases. */
export function caseNames(): string[] {
  return readdirSync(CASES_DIR).filter((n) => existsSync(join(CASES_DIR, n, "case.json"))).sort();
}

if (import.meta.main) {
  const update = process.argv.includes("--update");
  let bad = 0;
  for (const name of caseNames()) {
    const r = await runCase(name);
    for (const m of r.mismatches) console.error(m);
    bad += r.mismatches.length;
    if (update) writeFileSync(join(GOLDEN_DIR, `${name}.txt`), r.text);
  }
  if (update) console.log(`golden files written to ${GOLDEN_DIR}`);
  process.exitCode = bad ? 1 : 0;
}
