/**
 * Turn the session files a real pi run wrote into a golden case (testdata/cases/<name>/): the temp
 * home is rewritten to a stable fake one (`/home/user`) in every string of every JSONL line, so
 * the replay renders the same text on any machine.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Action } from "../lib/types.ts";

const ROOT = new URL("..", import.meta.url).pathname;
/** Where golden cases live. */
export const CASES_DIR: string = join(ROOT, "testdata", "cases");
/** The home directory recorded sessions are rewritten to. */
export const FAKE_HOME = "/home/user";

function rewrite(value: unknown, from: string, to: string): unknown {
  if (typeof value === "string") return value.split(from).join(to);
  if (Array.isArray(value)) return value.map((v) => rewrite(v, from, to));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [rewrite(k, from, to) as string, rewrite(v, from, to)]),
    );
  }
  return value;
}

/** A session file's text with every occurrence of `from` in its strings replaced by `to`. */
export function rewriteSession(text: string, from: string, to: string): string {
  return text.split("\n").filter((l) => l.trim()).map((l) =>
    JSON.stringify(rewrite(JSON.parse(l), from, to))
  ).join("\n") + "\n";
}

/** What a recorded case states. */
export interface RecordedCase {
  /** One line: what the run shows. */
  spec: string;
  /** The config the run used (written as config.jsonc, unchanged). */
  config: string;
  /** Session files (real paths) in the order they were written. */
  sessions: string[];
  /** The temp home to rewrite to /home/user. */
  home: string;
  /** Files that existed in the project, relative to the project dir (`~/project`). */
  files: string[];
  /** Per session (index), call id -> the final action the replay must give. */
  expect: Record<string, Action>[];
  why?: Record<string, string>;
}

/** Write testdata/cases/<name>/ from a recorded run (replacing what was there). */
export function writeCase(name: string, c: RecordedCase): string {
  const dir = join(CASES_DIR, name);
  if (existsSync(dir)) {
    for (const f of readdirSync(dir)) rmSync(join(dir, f));
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "config.jsonc"), c.config);
  const names = c.sessions.length === 1
    ? ["session.jsonl"]
    : c.sessions.map((_, i) => `session-${i + 1}.jsonl`);
  c.sessions.forEach((file, i) => {
    writeFileSync(
      join(dir, names[i]),
      rewriteSession(readFileSync(file, "utf8"), c.home, FAKE_HOME),
    );
  });
  const spec = {
    spec: c.spec,
    home: FAKE_HOME,
    files: c.files.map((f) => `${FAKE_HOME}/project/${f}`),
    links: {},
    expect: Object.fromEntries(names.map((n, i) => [n, c.expect[i] ?? {}])),
    ...(c.why ? { why: c.why } : {}),
  };
  writeFileSync(join(dir, "case.json"), JSON.stringify(spec, null, 2) + "\n");
  return dir;
}
