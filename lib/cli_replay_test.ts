/**
 * `pi-controls replay`: the starter config, the shipped example sessions, the progress bar, the
 * causes.
 */
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exampleSessions } from "./cli_assets.ts";
import { caseNames, CASES_DIR } from "./golden.ts";
import { readSession } from "./replay.ts";
import { CONFIG, run, tempTree } from "./testing_cli.ts";

Deno.test("replay without a config uses the starter config, says so, and prints a table and summary", async () => {
  const t = tempTree();
  const dir = join(t.agent, "sessions", "--work-project--");
  mkdirSync(dir, { recursive: true });
  const call = (id: string, name: string, args: unknown, ts: number) =>
    JSON.stringify({
      type: "message",
      id,
      parentId: null,
      timestamp: new Date(ts).toISOString(),
      message: {
        role: "assistant",
        content: [{ type: "toolCall", id, name, arguments: args }],
        timestamp: ts,
      },
    });
  writeFileSync(
    join(dir, "2026-11-30T10-00-00_x.jsonl"),
    [
      JSON.stringify({
        type: "session",
        version: 3,
        id: "s",
        timestamp: "2026-11-30T10:00:00Z",
        cwd: t.project,
      }),
      call("c1", "bash", { command: "git status" }, 1),
      call("c2", "bash", { command: "git push --force origin main" }, 2),
      call("c3", "read", { path: join(t.home, ".ssh", "id_ed25519") }, 3),
      "{broken",
    ].join("\n"),
  );
  const r = await run(["replay"], { home: t.home, cwd: t.root });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^No config found: replaying with the built-in starter config/);
  assert.match(r.out, /allow +bash +project +git status/);
  assert.match(r.out, /deny +bash +project +git push --force origin main/);
  assert.match(
    r.out,
    /3 tool calls in 1 session file\(s\): 1 allow, 0 nudge, 0 log, 0 ask, 2 deny/,
  );
  assert.match(r.err, /:5: not JSON/);
  const j = await run(["replay", "--json", dir], { home: t.home, cwd: t.root });
  const parsed = JSON.parse(j.out);
  assert.equal(parsed.starter, true);
  assert.deepEqual(parsed.summary, { allow: 1, nudge: 0, log: 0, sandbox: 0, ask: 0, deny: 2 });
  assert.equal(parsed.rows[2].verdict.stages[0].targets[0].protection.action, "deny");
});

Deno.test("a long replay on a terminal draws a progress bar on stderr, and only there", async () => {
  const t = tempTree();
  const lines = [
    JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "x", cwd: t.project }),
  ];
  for (let i = 0; i < 2500; i++) {
    const content = [{ type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `f${i}` } }];
    lines.push(
      JSON.stringify({ type: "message", message: { role: "assistant", content, timestamp: i } }),
    );
  }
  const file = join(t.root, "big.jsonl");
  writeFileSync(file, lines.join("\n"));
  const tty = await run(["replay", file], { home: t.home, cwd: t.root, tty: true });
  assert.match(tty.err, /\rreplay \[#+\.*\] 2500\/2500 calls/);
  assert.doesNotMatch(tty.out, /replay \[/);
  const pipe = await run(["replay", file], { home: t.home, cwd: t.root });
  assert.doesNotMatch(pipe.err, /replay \[/);
});

Deno.test("replay on a fresh machine replays the example sessions that ship, saying so in one line", async () => {
  const t = tempTree();
  const shipped = exampleSessions();
  assert.ok(shipped.length >= 20, "testdata/cases has its recorded sessions");
  const jsonl = caseNames().flatMap((c) =>
    readdirSync(join(CASES_DIR, c)).filter((f) => f.endsWith(".jsonl")).map((f) => `${c}/${f}`)
  );
  assert.deepEqual(shipped.map((e) => e.file), jsonl.map((f) => `testdata/cases/${f}`));
  const calls = shipped.reduce((n, e) => n + readSession(e.file, e.text).calls.length, 0);
  const expectOut = (out: string) => {
    const lines = out.split("\n");
    assert.match(lines[0], /^No config found: replaying with the built-in starter config/);
    assert.equal(
      lines[1],
      `No pi sessions in ${join(t.agent, "sessions")} yet: replaying the ${shipped.length} ` +
        `example sessions that ship with pi-controls (testdata/cases).`,
    );
    assert.equal(lines[2], "");
    assert.match(lines[3], /^ACTION +TOOL +POLICY +CALL$/);
    assert.match(out, /\ndeny +bash +/);
    assert.match(
      out,
      new RegExp(`\\n${calls} tool calls in ${shipped.length} session file\\(s\\): \\d+ allow, `),
    );
  };
  // The session directory missing (pi never ran here) ...
  const r = await run(["replay"], { home: t.home, cwd: t.root });
  assert.equal(r.code, 0, r.err);
  assert.equal(r.err, "");
  expectOut(r.out);
  // ... or empty.
  mkdirSync(join(t.agent, "sessions", "--work--"), { recursive: true });
  const empty = await run(["replay"], { home: t.home, cwd: t.root });
  assert.equal(empty.code, 0, empty.err);
  expectOut(empty.out);
  const j = JSON.parse((await run(["replay", "--json"], { home: t.home, cwd: t.root })).out);
  assert.equal(j.examples, true);
  assert.equal(j.rows.length, calls);
  // Under the config found, when there is one.
  writeFileSync(join(t.agent, "extensions", "pi-controls.jsonc"), CONFIG);
  const mine = await run(["replay"], { home: t.home, cwd: t.root });
  assert.equal(mine.code, 0, mine.err);
  assert.match(mine.out, /^No pi sessions in .* yet: replaying the \d+ example sessions/);
  // Paths given: only those, never the examples.
  const missing = await run(["replay", join(t.root, "nope")], { home: t.home, cwd: t.root });
  assert.equal(missing.code, 1);
  assert.equal(
    missing.err,
    `pi-controls: no such session file or directory: ${join(t.root, "nope")}\n`,
  );
  assert.equal(missing.out, "");
});

Deno.test("replay's summary groups its asks and denies by the rule or cause behind them", async () => {
  const t = tempTree();
  const r = await run(["replay"], { home: t.home, cwd: t.root });
  assert.equal(r.code, 0, r.err);
  const at = r.out.indexOf("\nasks and denies by cause (top ten):\n");
  assert.ok(at > 0, r.out);
  const lines = r.out.slice(at).trim().split("\n").slice(1);
  assert.ok(lines.length > 0 && lines.length <= 10);
  const counts = lines.map((l) => {
    const m = /^ +(\d+) ask +(\d+) deny {2}(.+)$/.exec(l);
    assert.ok(m, l);
    return { asks: Number(m[1]), denies: Number(m[2]), cause: m[3] };
  });
  // Most first, and a deny-list rule of the starter config named with its policy.
  const totals = counts.map((c) => c.asks + c.denies);
  assert.deepEqual(totals, [...totals].sort((a, b) => b - a));
  assert.ok(counts.some((c) => c.cause === 'bash "rm -*" (ask) [project]'), r.out);
});
