/**
 * `pi-controls check` and `explain`: verdicts as JSON, --jsonl, exit statuses, config discovery,
 * a broken or absent config.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EXIT } from "./cli.ts";
import { ACTIONS_CONFIG, CONFIG, run, tempTree } from "./testing_cli.ts";

Deno.test("check prints the verdict JSON for one call", async () => {
  const t = tempTree();
  const cfg = join(t.root, "cfg.jsonc");
  writeFileSync(cfg, CONFIG);
  const r = await run(
    [
      "check",
      "--config",
      cfg,
      "--cwd",
      t.project,
      "--tool",
      "bash",
      "--input",
      '{"command":"git commit -m x"}',
    ],
    { home: t.home, cwd: t.root },
  );
  assert.equal(r.code, 3, r.err); // ask
  const v = JSON.parse(r.out);
  assert.equal(v.action, "ask");
  assert.deepEqual(v.policies, ["strict"]);
  assert.equal(v.stages[0].targets[0].rule.pattern, "git commit *");
  assert.equal(v.stages[0].targets[0].score, 11);
});

Deno.test("check --jsonl answers every line in order, echoing ids, and reports bad lines", async () => {
  const t = tempTree();
  const cfg = join(t.root, "cfg.jsonc");
  writeFileSync(cfg, CONFIG);
  const stdin = [
    JSON.stringify({ id: 1, tool: "bash", input: { command: "git status" } }),
    "not json",
    JSON.stringify({ id: "b", tool: "bash", input: { command: "rm -rf /" }, cwd: t.project }),
    JSON.stringify({ tool: "read", input: { path: "/etc/hosts" } }),
  ].join("\n");
  const r = await run(["check", "--config", cfg, "--cwd", t.project, "--jsonl"], {
    home: t.home,
    cwd: t.root,
    stdin,
  });
  const lines = r.out.trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 4);
  assert.equal(lines[0].id, 1);
  assert.equal(lines[0].action, "allow");
  assert.match(lines[1].error, /^stdin:2: /);
  assert.equal(lines[2].id, "b");
  assert.equal(lines[2].action, "deny");
  assert.equal(lines[3].action, "allow"); // /etc is outside every location: fail-open
  assert.equal(r.code, 1, "a bad line is the most restrictive status");
});

Deno.test("explain shows each stage, target, location, policy, candidates and the winner", async () => {
  const t = tempTree();
  const cfg = join(t.root, "cfg.jsonc");
  writeFileSync(cfg, CONFIG);
  const r = await run(
    [
      "explain",
      "--config",
      cfg,
      "--cwd",
      t.project,
      "--tool",
      "bash",
      "--input",
      '{"command":"git status && git commit -m x"}',
    ],
    { home: t.home, cwd: t.root },
  );
  assert.equal(r.code, 0);
  assert.match(r.out, /stage 1 \[top\]: git status/);
  assert.match(r.out, /stage 2 \[top\]: git commit -m x/);
  assert.match(r.out, /location: ~\/work\/project {2}policy: strict/);
  assert.match(r.out, /candidate: allow tool "bash" pattern "git \*" {2}score 4/);
  assert.match(r.out, /candidate: ask tool "bash" pattern "git commit \*" {2}score 11 {2}<- wins/);
  assert.match(r.out, /verdict: ask \[strict\]/);
});

Deno.test("a broken config denies every call, naming the file, line and column", async () => {
  const t = tempTree();
  writeFileSync(
    join(t.agent, "extensions", "pi-controls.jsonc"),
    '{ "policies": { "p": { "defaultAction": "nudge", "rules": [] } } }',
  );
  const r = await run(["check", "--cwd", t.project, "--tool", "read", "--input", '{"path":"a"}'], {
    home: t.home,
    cwd: t.root,
  });
  const v = JSON.parse(r.out);
  assert.equal(v.action, "deny");
  assert.match(v.reason, /pi-controls\.jsonc:1:\d+: .*nudge/);
});

Deno.test("no config: calls are allowed with the spec's warning", async () => {
  const t = tempTree();
  const r = await run([
    "check",
    "--cwd",
    t.project,
    "--tool",
    "bash",
    "--input",
    '{"command":"rm -rf /"}',
  ], { home: t.home, cwd: t.root });
  assert.equal(JSON.parse(r.out).action, "allow");
  assert.match(
    r.err,
    /\[pi-controls\] No config found — all tool calls are unrestricted\. Create .*pi-controls\.jsonc to enforce policies\./,
  );
});

Deno.test("discovery: the global file and the project file found by walking up from --cwd", async () => {
  const t = tempTree();
  writeFileSync(join(t.agent, "extensions", "pi-controls.jsonc"), CONFIG);
  mkdirSync(join(t.project, ".pi", "extensions"), { recursive: true });
  writeFileSync(
    join(t.project, ".pi", "extensions", "pi-controls.jsonc"),
    '{ "policies": { "strict": { "rules": [ { "action": "deny", "tool": "bash", "pattern": "git push *" } ] } } }',
  );
  mkdirSync(join(t.project, "src", "deep"), { recursive: true });
  const r = await run(
    [
      "check",
      "--cwd",
      join(t.project, "src", "deep"),
      "--tool",
      "bash",
      "--input",
      '{"command":"git status"}',
    ],
    { home: t.home, cwd: t.root },
  );
  // The project replaced strict's rules: git status no longer matches a rule, defaultAction deny.
  assert.equal(JSON.parse(r.out).action, "deny");
});

Deno.test("exit status: check says the verdict (allow, nudge, log 0; ask 3; deny 4)", async () => {
  const t = tempTree();
  const cfg = join(t.root, "cfg.jsonc");
  writeFileSync(cfg, ACTIONS_CONFIG);
  const at = { home: t.home, cwd: t.root };
  const expected: [string, number][] = [
    ["allow", EXIT.ok],
    ["nudge", EXIT.ok],
    ["log", EXIT.ok],
    ["ask", EXIT.ask],
    ["deny", EXIT.deny],
  ];
  assert.deepEqual([EXIT.ok, EXIT.failure, EXIT.usage, EXIT.ask, EXIT.deny], [0, 1, 2, 3, 4]);
  for (const [action, code] of expected) {
    const input = JSON.stringify({ command: `${action} x` });
    const r = await run(["check", "-c", cfg, "--tool", "bash", "--input", input], at);
    assert.equal(JSON.parse(r.out).action, action);
    assert.equal(r.code, code, `${action}: ${r.err}`);
  }
  // No config: allowed, with the warning.
  const none = await run(["check", "--tool", "bash", "--input", '{"command":"deny x"}'], at);
  assert.equal(none.code, EXIT.ok);
});

Deno.test("exit status: a broken config is 1, and its verdict still denies naming file:line:col", async () => {
  const t = tempTree();
  writeFileSync(
    join(t.agent, "extensions", "pi-controls.jsonc"),
    '{ "policies": { "p": { "defaultAction": "nudge", "rules": [] } } }',
  );
  const at = { home: t.home, cwd: t.project };
  const r = await run(["check", "--tool", "read", "--input", '{"path":"a"}'], at);
  assert.equal(r.code, EXIT.failure);
  assert.equal(JSON.parse(r.out).action, "deny");
  assert.match(r.err, /pi-controls\.jsonc:1:\d+: /);
  const lines = await run(["check", "--jsonl"], {
    ...at,
    stdin: JSON.stringify({ tool: "read", input: { path: "a" } }),
  });
  assert.equal(lines.code, EXIT.failure);
  assert.equal(JSON.parse(lines.out).action, "deny");
  const replay = await run(["replay"], at);
  assert.equal(replay.code, EXIT.failure);
  assert.equal((await run(["test"], at)).code, EXIT.failure);
  assert.equal((await run(["validate"], at)).code, EXIT.failure);
});

Deno.test("exit status: check --jsonl keeps one verdict per line and exits with the most restrictive", async () => {
  const t = tempTree();
  const cfg = join(t.root, "cfg.jsonc");
  writeFileSync(cfg, ACTIONS_CONFIG);
  const jsonl = async (...commands: string[]) => {
    const stdin = commands.map((c, i) =>
      c === "!" ? "not json" : JSON.stringify({ id: i, tool: "bash", input: { command: c } })
    ).join("\n");
    const r = await run(["check", "-c", cfg, "--jsonl"], { home: t.home, cwd: t.root, stdin });
    const out = r.out.trim() ? r.out.trim().split("\n").map((l) => JSON.parse(l)) : [];
    assert.equal(out.length, commands.length);
    return { code: r.code, actions: out.map((v) => v.action ?? "error") };
  };
  assert.deepEqual(await jsonl(), { code: 0, actions: [] });
  assert.deepEqual(await jsonl("ls", "nudge a", "log b"), {
    code: 0,
    actions: ["allow", "nudge", "log"],
  });
  assert.deepEqual(await jsonl("ls", "ask a", "log b"), {
    code: 3,
    actions: ["allow", "ask", "log"],
  });
  assert.deepEqual(await jsonl("deny a", "ask a", "ls"), {
    code: 4,
    actions: ["deny", "ask", "allow"],
  });
  assert.deepEqual(await jsonl("ask a", "!", "deny b"), {
    code: 1,
    actions: ["ask", "error", "deny"],
  });
});
