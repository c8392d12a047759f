import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CliIo, main } from "./cli.ts";

interface Run {
  code: number;
  out: string;
  err: string;
}

function tempTree(): { root: string; home: string; agent: string; project: string } {
  const root = mkdtempSync(join(tmpdir(), "pi-controls-cli-"));
  const home = join(root, "home");
  const agent = join(home, ".pi", "agent");
  const project = join(home, "work", "project");
  mkdirSync(join(agent, "extensions"), { recursive: true });
  mkdirSync(project, { recursive: true });
  return { root, home, agent, project };
}

async function run(
  args: string[],
  opts: { home: string; cwd: string; stdin?: string; tty?: boolean },
): Promise<Run> {
  let out = "";
  let err = "";
  const io: CliIo = {
    out: (t) => out += t,
    err: (t) => err += t,
    env: { HOME: opts.home },
    cwd: opts.cwd,
    stdin: () => Promise.resolve(opts.stdin ?? ""),
    errIsTTY: opts.tty,
  };
  const code = await main(args, io);
  return { code, out, err };
}

const CONFIG = `{
  // strict inside the project
  "policies": {
    "strict": {
      "defaultAction": "deny",
      "rules": [
        { "action": "allow", "tool": "bash", "pattern": "git *" },
        { "action": "ask", "tool": "bash", "pattern": "git commit *" },
      ],
    },
  },
  "locations": { "~/work/project": "strict" },
  "tests": [
    { "tool": "bash", "input": { "command": "git status" }, "expect": "allow" },
    { "tool": "bash", "input": { "command": "git commit -m x" }, "expect": "ask" },
  ],
}
`;

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
  assert.equal(r.code, 0, r.err);
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
  assert.equal(r.code, 1);
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

Deno.test("validate prints file:line:col for a typo and exits 1; a good config exits 0", async () => {
  const t = tempTree();
  const bad = join(t.root, "bad.jsonc");
  writeFileSync(
    bad,
    '{\n  "policies": {\n    "p": { "defaultAciton": "deny", "rules": [] }\n  }\n}\n',
  );
  const r = await run(["validate", bad], { home: t.home, cwd: t.root });
  assert.equal(r.code, 1);
  assert.match(
    r.out,
    new RegExp(
      `^${bad.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:3:12: .*defaultAciton.*defaultAction`,
      "m",
    ),
  );
  const good = join(t.root, "good.jsonc");
  writeFileSync(good, CONFIG);
  const ok = await run(["validate", good], { home: t.home, cwd: t.root });
  assert.equal(ok.code, 0, ok.out);
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

Deno.test("test runs the config's own examples and exits 1 when one fails", async () => {
  const t = tempTree();
  const cfg = join(t.root, "cfg.jsonc");
  writeFileSync(cfg, CONFIG);
  const r = await run(["test", "--config", cfg, "--cwd", t.project], { home: t.home, cwd: t.root });
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /2 passed, 0 failed/);
  writeFileSync(cfg, CONFIG.replace('"expect": "ask"', '"expect": "allow"'));
  const f = await run(["test", "--config", cfg, "--cwd", t.project], { home: t.home, cwd: t.root });
  assert.equal(f.code, 1);
  assert.match(f.out, /FAIL bash {"command":"git commit -m x"}: expected allow, got ask/);
});

Deno.test("init writes the commented starter config, which validates and passes its tests; never overwrites", async () => {
  const t = tempTree();
  const r = await run(["init"], { home: t.home, cwd: t.project });
  assert.equal(r.code, 0, r.err);
  const file = join(t.agent, "extensions", "pi-controls.jsonc");
  const text = readFileSync(file, "utf8");
  assert.match(text, /^\/\/ pi-controls config/);
  assert.equal((await run(["validate", file], { home: t.home, cwd: t.root })).code, 0);
  const tested = await run(["test", "--cwd", t.project], { home: t.home, cwd: t.root });
  assert.equal(tested.code, 0, tested.out);
  writeFileSync(file, text + "\n// my edit\n");
  const again = await run(["init"], { home: t.home, cwd: t.project });
  assert.equal(again.code, 1);
  assert.match(readFileSync(file, "utf8"), /my edit/);
});

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
  assert.deepEqual(parsed.summary, { allow: 1, nudge: 0, log: 0, ask: 0, deny: 2 });
  assert.equal(parsed.rows[2].verdict.stages[0].targets[0].protection.action, "deny");
});

Deno.test("usage errors exit 2 and say what is wrong", async () => {
  const t = tempTree();
  const r = await run(["check", "--tool", "bash", "--input", "{nope"], {
    home: t.home,
    cwd: t.root,
  });
  assert.equal(r.code, 2);
  assert.match(r.err, /--input is not JSON/);
  assert.equal((await run(["frobnicate"], { home: t.home, cwd: t.root })).code, 2);
  assert.equal((await run(["check", "--bogus"], { home: t.home, cwd: t.root })).code, 2);
});

Deno.test("deno task pi-controls runs the CLI as a new user would", async () => {
  const t = tempTree();
  const cfg = join(t.root, "cfg.jsonc");
  writeFileSync(cfg, CONFIG);
  const root = new URL("..", import.meta.url).pathname;
  const p = new Deno.Command(Deno.execPath(), {
    args: [
      "task",
      "-q",
      "pi-controls",
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
    cwd: root,
    env: { HOME: t.home, NO_COLOR: "1" },
  });
  const o = await p.output();
  assert.equal(o.code, 0, new TextDecoder().decode(o.stderr));
  assert.equal(JSON.parse(new TextDecoder().decode(o.stdout)).action, "ask");
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

Deno.test("examples/sample.jsonc validates and passes its own examples", async () => {
  const t = tempTree();
  const sample = new URL("../examples/sample.jsonc", import.meta.url).pathname;
  const v = await run(["validate", sample], { home: t.home, cwd: t.root });
  assert.equal(v.code, 0, v.out + v.err);
  const r = await run(["test", "--config", sample, "--cwd", t.project], {
    home: t.home,
    cwd: t.root,
  });
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /8 passed, 0 failed/);
});

Deno.test("replay on a fresh machine without pi sessions says where to look and exits 0", async () => {
  const t = tempTree();
  const r = await run(["replay"], { home: t.home, cwd: t.root });
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, /No pi sessions yet in .*\.pi\/agent\/sessions/);
  assert.match(r.out, /0 tool calls in 0 session file\(s\)/);
  const missing = await run(["replay", join(t.root, "nope")], { home: t.home, cwd: t.root });
  assert.equal(missing.code, 1);
  assert.match(missing.err, /no such session file or directory: .*nope/);
});

Deno.test("trust: an untrusted project config only tightens; trust, --trust-project and pinning", async () => {
  const t = tempTree();
  writeFileSync(
    join(t.agent, "extensions", "pi-controls.jsonc"),
    `{ "policies": { "g": { "defaultAction": "allow", "rules": [
        { "action": "deny", "tool": "bash", "pattern": "touch *" }] } },
      "locations": { "/": "g" } }`,
  );
  const projectFile = join(t.project, ".pi", "extensions", "pi-controls.jsonc");
  mkdirSync(join(t.project, ".pi", "extensions"), { recursive: true });
  writeFileSync(projectFile, `{ "policies": { "g": { "defaultAction": "allow", "rules": [] } } }`);
  const at = { home: t.home, cwd: t.project };
  const touch = ["--tool", "bash", "--input", '{"command":"touch x"}'];
  const action = async (...extra: string[]) =>
    JSON.parse((await run(["check", ...extra, ...touch], at)).out).action;
  assert.equal(await action(), "deny");
  assert.equal(await action("--trust-project"), "allow");
  const explained = await run(["explain", ...touch], at);
  assert.match(explained.out, /is not trusted/);
  assert.match(explained.out, /overruled: under it the call would be allow; .* alone it is deny/);
  // pi's own trust.json counts in the CLI.
  writeFileSync(join(t.agent, "trust.json"), JSON.stringify({ [t.project]: true }));
  assert.equal(await action(), "allow");
  writeFileSync(join(t.agent, "trust.json"), "{}");
  const trusted = await run(["trust"], at);
  assert.equal(trusted.code, 0);
  assert.match(trusted.out, /^trusted: .*\nproject config .* pinned/);
  assert.equal(await action(), "allow");
  // A later change that can loosen is not trusted until accepted again.
  writeFileSync(
    projectFile,
    `{ "policies": { "g": { "defaultAction": "allow", "rules": [] } }, "defaultPolicy": "g" }`,
  );
  const changed = await run(["check", ...touch], at);
  assert.equal(JSON.parse(changed.out).action, "deny");
  assert.match(changed.err, /changed since it was last accepted/);
  await run(["trust", t.project], at);
  assert.equal(await action(), "allow");
  const revoked = await run(["trust", "--revoke"], at);
  assert.match(revoked.out, /^not trusted/);
  assert.equal(await action(), "deny");
  // The agent cannot write the project config or the trust store without the user.
  const write = await run([
    "check",
    "--tool",
    "write",
    "--input",
    JSON.stringify({ path: join(t.agent, "extensions", "pi-controls-trust.json"), content: "{}" }),
  ], at);
  assert.equal(JSON.parse(write.out).action, "ask");
});

Deno.test("trust: a global config valid only with the project's policies fails closed untrusted", async () => {
  const t = tempTree();
  writeFileSync(
    join(t.agent, "extensions", "pi-controls.jsonc"),
    `{ "policies": { "base": { "defaultAction": "allow", "rules": [
        { "action": "deny", "tool": "bash", "pattern": "touch *" }] } },
      "locations": { "/": "base" },
      "approvalRules": [{ "action": "allow", "tool": "bash", "pattern": "git status *",
        "policy": "project" }] }`,
  );
  mkdirSync(join(t.project, ".pi", "extensions"), { recursive: true });
  writeFileSync(
    join(t.project, ".pi", "extensions", "pi-controls.jsonc"),
    `{ "policies": { "project": { "defaultAction": "allow", "rules": [] } },
      "locations": { "/": "project" } }`,
  );
  const at = { home: t.home, cwd: t.project };
  const touch = ["--tool", "bash", "--input", '{"command":"touch x"}'];
  const untrusted = JSON.parse((await run(["check", ...touch], at)).out);
  assert.equal(untrusted.action, "deny");
  assert.match(untrusted.reason, /pi-controls\.jsonc:\d+:\d+: .*policy "project" does not exist/);
  const trusted = JSON.parse((await run(["check", "--trust-project", ...touch], at)).out);
  assert.equal(trusted.action, "allow");
});
