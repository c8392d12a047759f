import assert from "node:assert/strict";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CliIo, EXIT, main } from "./cli.ts";
import { exampleSessions } from "./cli_assets.ts";
import { caseNames, CASES_DIR } from "./golden.ts";
import { readSession } from "./replay.ts";
import { choice, replyWith, startStandIn, yesNo } from "./testing_decisions.ts";

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
  opts: {
    home: string;
    cwd: string;
    stdin?: string;
    tty?: boolean;
    env?: Record<string, string>;
    /** Reading stdin fails with this message. */
    stdinError?: string;
  },
): Promise<Run> {
  let out = "";
  let err = "";
  const io: CliIo = {
    out: (t) => out += t,
    err: (t) => err += t,
    env: { HOME: opts.home, ...opts.env },
    cwd: opts.cwd,
    stdin: () =>
      opts.stdinError
        ? Promise.reject(new Error(opts.stdinError))
        : Promise.resolve(opts.stdin ?? ""),
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
    env: { HOME: t.home, NO_COLOR: "1", DENO_DIR: await denoDir() },
  });
  const o = await p.output();
  assert.equal(o.code, 3, new TextDecoder().decode(o.stderr)); // ask
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

/** Deno's cache directory, so that a `deno task` child with another HOME downloads nothing. */
let denoDirCache: Promise<string> | undefined;
function denoDir(): Promise<string> {
  denoDirCache ??= (async () => {
    const o = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
    return JSON.parse(new TextDecoder().decode(o.stdout)).denoDir;
  })();
  return denoDirCache;
}

const ROOT = new URL("..", import.meta.url).pathname;

/** `deno task -q pi-controls ARGS` as a user runs it, in a HOME of its own. */
async function task(
  args: string[],
  opts: { home: string; env?: Record<string, string>; stdin?: string },
): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "pi-controls", ...args],
    cwd: ROOT,
    env: { HOME: opts.home, NO_COLOR: "1", DENO_DIR: await denoDir(), ...opts.env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(opts.stdin ?? ""));
  await w.close();
  const o = await child.output();
  const text = new TextDecoder();
  // Deno's own notes (where the npm cache lacks package metadata, as in the Nix sandbox: "Download
  // https://registry.npmjs.org/…") are not the CLI's output.
  const err = text.decode(o.stderr).split("\n").filter((l) => !l.startsWith("Download ")).join(
    "\n",
  );
  return { code: o.code, out: text.decode(o.stdout), err };
}

/** A policy with one rule per action, on /. */
const ACTIONS_CONFIG = JSON.stringify({
  policies: {
    p: {
      defaultAction: "allow",
      rules: [
        { action: "nudge", tool: "bash", pattern: "nudge *", message: "careful" },
        { action: "log", tool: "bash", pattern: "log *" },
        { action: "ask", tool: "bash", pattern: "ask *" },
        { action: "deny", tool: "bash", pattern: "deny *" },
      ],
    },
  },
  locations: { "/": "p" },
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

Deno.test("exit status: usage errors are 2, one line naming the fix", async () => {
  const t = tempTree();
  const at = { home: t.home, cwd: t.root };
  const cases: [string[], RegExp][] = [
    [["check"], /^pi-controls: --tool is required .*\(see pi-controls check --help\)$/],
    [["check", "--tool", "bash"], /^pi-controls: --input is required/],
    [["check", "--tool", "bash", "--input", "[]"], /--input must be a JSON object/],
    [["check", "--jsonl", "--tool", "bash"], /--jsonl reads the calls from stdin/],
    [["check", "stray"], /^pi-controls: check takes no arguments \(got "stray"\)/],
    [["check", "--cwd"], /^pi-controls: --cwd needs a value/],
    [["check", "--jsonl=yes"], /^pi-controls: --jsonl takes no value/],
    [["validate", "--jsonl"], /^pi-controls: validate does not take --jsonl/],
    [["replay", "--revoke"], /^pi-controls: replay does not take --revoke/],
    [["init", "a", "b"], /^pi-controls: init takes at most 1 argument/],
    [["trust", "a", "b"], /^pi-controls: trust takes at most 1 argument/],
    [["check", "--bogus"], /^pi-controls: unknown option --bogus/],
    [["frobnicate"], /^pi-controls: unknown command "frobnicate" \(see pi-controls --help\)$/],
    [["--bogus"], /^pi-controls: unknown option --bogus/],
    [["help", "frobnicate"], /^pi-controls: unknown command "frobnicate"/],
  ];
  for (const [args, message] of cases) {
    const r = await run(args, at);
    assert.equal(r.code, EXIT.usage, args.join(" "));
    assert.equal(r.out, "", args.join(" "));
    assert.equal(r.err.split("\n").length, 2, `one line: ${r.err}`);
    assert.match(r.err.trimEnd(), message);
  }
  // No command at all: the usage, on stderr.
  const bare = await run([], at);
  assert.equal(bare.code, EXIT.usage);
  assert.match(bare.err, /^pi-controls — policy gate/);
});

const COMMAND_FLAGS: Record<string, string[]> = {
  check: ["--config", "-c", "--cwd", "--tool", "--input", "--jsonl", "--trust-project"],
  explain: ["--config", "--cwd", "--tool", "--input", "--trust-project"],
  validate: ["--config", "--cwd"],
  test: ["--config", "--cwd"],
  replay: ["--config", "--cwd", "--json", "--trust-project"],
  init: ["--project", "--cwd"],
  trust: ["--revoke", "--cwd"],
};

Deno.test("--help: each command's usage, options, exit status and an example", async () => {
  const t = tempTree();
  const at = { home: t.home, cwd: t.root };
  const overview = await run(["--help"], at);
  assert.equal(overview.code, 0);
  for (const [name, flags] of Object.entries(COMMAND_FLAGS)) {
    assert.match(overview.out, new RegExp(`\\n  pi-controls ${name} +\\[`));
    assert.match(overview.out, new RegExp(`\\n  ${name} +\\w`), `${name} in the command list`);
    const r = await run([name, "--help"], at);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, "");
    assert.match(r.out, new RegExp(`^pi-controls ${name} — \\w`));
    assert.match(r.out, new RegExp(`\\nUsage:\\n  pi-controls ${name} `));
    assert.match(r.out, /\nOptions:\n/);
    for (const f of [...flags, "--help", "-h"]) {
      assert.match(r.out, new RegExp(`\\n  (-\\w, |    )?.*${f}\\b`), `${name} --help lists ${f}`);
    }
    assert.match(r.out, /\nExit status:\n {2}0 /);
    assert.match(r.out, new RegExp(`\\nExamples?:\\n  (.* \\| )?pi-controls ${name}\\b`));
    for (const line of r.out.split("\n")) assert.ok(line.length <= 100, `too long: ${line}`);
    // The same from `help NAME`, `-h`, and with other flags around it.
    assert.equal((await run(["help", name], at)).out, r.out);
    assert.equal((await run([name, "-h"], at)).out, r.out);
    assert.equal((await run([name, "--cwd", "x", "--help"], at)).out, r.out);
  }
  const check = await run(["check", "--help"], at);
  assert.match(
    check.out,
    /0 allow \(also nudge and log\), 3 ask, 4 deny; 1 when the config is broken/,
  );
  for (const line of overview.out.split("\n")) assert.ok(line.length <= 100, `too long: ${line}`);
  assert.match(overview.out, /Exit status: 0 done; check: 0 allow, nudge or log, 3 ask, 4 deny\./);
  assert.equal((await run(["help"], at)).out, overview.out);
});

Deno.test("--version prints the package version (deno.json's and package.json's)", async () => {
  const t = tempTree();
  const deno = JSON.parse(readFileSync(join(ROOT, "deno.json"), "utf8"));
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  assert.equal(deno.version, pkg.version, "deno.json and package.json agree");
  const r = await run(["--version"], { home: t.home, cwd: t.root });
  assert.equal(r.code, 0);
  assert.equal(r.out, `pi-controls ${deno.version}\n`);
});

/**
 * A session file that cannot be read, and how to replay it: mode 000 in this process; as root
 * (who reads anything), a link to /proc/self/mem (an I/O error to read), replayed by a CLI with
 * all permissions (Deno asks for all of them to open it).
 */
async function unreadableReplay(dir: string, at: { home: string; cwd: string }) {
  const file = join(dir, "locked.jsonl");
  writeFileSync(file, "{}\n");
  chmodSync(file, 0o000);
  try {
    readFileSync(file);
  } catch {
    return { file, ...(await run(["replay", file], at)) };
  }
  const link = join(dir, "mem.jsonl");
  await new Deno.Command("ln", { args: ["-s", "/proc/self/mem", link] }).output();
  const o = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(ROOT, "lib", "cli.ts"), "replay", link],
    cwd: at.cwd,
    env: { HOME: at.home, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(o.stderr).split("\n").filter((l) =>
    !l.startsWith("Download ")
  ).join("\n");
  return { file: link, code: o.code, out: new TextDecoder().decode(o.stdout), err };
}

Deno.test("failures are one line saying what and where, exit 1, never a stack trace", async () => {
  const t = tempTree();
  const at = { home: t.home, cwd: t.root };
  const regular = join(t.root, "a-file");
  writeFileSync(regular, "not a directory");
  // init into a place that cannot be written (a path under a regular file; root can write anywhere)
  const target = join(regular, "sub", "pi-controls.jsonc");
  const init = await run(["init", target], at);
  assert.equal(init.code, EXIT.failure);
  assert.equal(
    init.err,
    `pi-controls: cannot write the starter config to ${target}: a part of the path is not a ` +
      `directory\n`,
  );
  assert.equal(init.out, "");
  // replay of a session file that cannot be read
  const replay = await unreadableReplay(t.root, at);
  assert.equal(replay.code, EXIT.failure, replay.err);
  assert.match(
    replay.err,
    new RegExp(
      `^pi-controls: cannot read session file ${replay.file}: ` +
        `(permission denied|input/output error)\\n$`,
    ),
  );
  // trust with an agent directory that cannot exist
  const trust = await run(["trust", t.project], {
    ...at,
    env: { PI_CODING_AGENT_DIR: join(regular, "agent") },
  });
  assert.equal(trust.code, EXIT.failure);
  assert.match(trust.err, /^pi-controls: cannot \w.* .*a-file\/agent.*: .*not a directory\n$/);
  // anything else that escapes a command: its message, one line
  writeFileSync(join(t.agent, "extensions", "pi-controls.jsonc"), CONFIG);
  const broken = await run(["check", "--jsonl"], { ...at, stdinError: "stdin is closed" });
  assert.equal(broken.code, EXIT.failure);
  assert.equal(broken.err, "pi-controls: stdin is closed\n");
  const debug = await run(["check", "--jsonl"], {
    ...at,
    stdinError: "stdin is closed",
    env: { PI_CONTROLS_DEBUG: "1" },
  });
  assert.match(debug.err, /^Error: stdin is closed\n\s+at /, "PI_CONTROLS_DEBUG=1 shows the stack");
});

Deno.test("deno task pi-controls: --version, --help and a failure as one line, exit statuses", async () => {
  const t = tempTree();
  const regular = join(t.root, "a-file");
  writeFileSync(regular, "x");
  const version = await task(["--version"], { home: t.home });
  assert.equal(version.code, 0, version.err);
  assert.match(version.out, /^pi-controls \d+\.\d+\.\d+/);
  const help = await task(["replay", "--help"], { home: t.home });
  assert.equal(help.code, 0, help.err);
  assert.match(help.out, /^pi-controls replay — /);
  const init = await task(["init", join(regular, "x", "c.jsonc")], { home: t.home });
  assert.equal(init.code, 1);
  assert.match(init.err, /^pi-controls: cannot write the starter config to .*: .*\n$/);
  assert.doesNotMatch(init.err, /\n\s+at |Uncaught|error:/);
  const usage = await task(["check", "--nope"], { home: t.home });
  assert.equal(usage.code, 2);
  assert.equal(usage.err, "pi-controls: unknown option --nope (see pi-controls check --help)\n");
  const cfg = join(t.root, "cfg.jsonc");
  writeFileSync(cfg, ACTIONS_CONFIG);
  const denied = await task(
    ["check", "-c", cfg, "--tool", "bash", "--input", '{"command":"deny x"}'],
    { home: t.home },
  );
  assert.equal(denied.code, 4, denied.err);
});

Deno.test("deno task pi-controls check classifies evals against the Decisions API (it has net)", async () => {
  const t = tempTree();
  const s = startStandIn((body) =>
    String(body.state.source).includes("steal")
      ? replyWith({
        read_scope: choice("sensitive", { sensitive: 1 }),
        network: yesNo(1),
      })
      : replyWith({})
  );
  try {
    const cfg = join(t.root, "cfg.jsonc");
    writeFileSync(
      cfg,
      JSON.stringify({
        policies: { open: { defaultAction: "allow", rules: [] } },
        locations: { "~/work/project": "open" },
        decisions: { url: s.url, tokenEnv: "PI_CONTROLS_TEST_TOKEN", timeoutMs: 10000 },
      }),
    );
    const env = { PI_CONTROLS_TEST_TOKEN: "sk-test-cli" };
    const steal = JSON.stringify({ command: "python3 -c 'steal()'" });
    const one = await task(
      ["check", "-c", cfg, "--cwd", t.project, "--tool", "bash", "--input", steal],
      { home: t.home, env },
    );
    const v = JSON.parse(one.out);
    assert.equal(v.evals[0].status, "classified", `not classified: ${one.out}\n${one.err}`);
    assert.equal(v.evals[0].rule, "deny.exfil");
    assert.equal(v.locationAction, "allow");
    assert.equal(v.action, "deny");
    assert.equal(one.code, EXIT.deny, one.err);
    assert.equal(s.requests.length, 1);
    assert.equal(s.requests[0].authorization, "Bearer sk-test-cli");
    assert.equal(s.requests[0].body.state.source, "steal()");

    // --jsonl: one verdict per line, one request per distinct eval, the most restrictive status.
    const lines = [
      { id: 1, tool: "bash", input: { command: "python3 -c 'fine()'" } },
      { id: 2, tool: "bash", input: { command: "python3 -c 'steal()'" } },
      { id: 3, tool: "bash", input: { command: "python3 -c 'steal()'" } },
      { id: 4, tool: "bash", input: { command: "ls" } },
    ].map((l) => JSON.stringify(l)).join("\n");
    const many = await task(["check", "-c", cfg, "--cwd", t.project, "--jsonl"], {
      home: t.home,
      env,
      stdin: lines,
    });
    const rows = many.out.trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(rows.map((r) => [r.id, r.action]), [
      [1, "allow"],
      [2, "deny"],
      [3, "deny"],
      [4, "allow"],
    ]);
    assert.equal(rows[0].evals[0].status, "classified");
    assert.equal(rows[2].evals[0].cached, true);
    assert.equal(many.code, EXIT.deny, many.err);
    assert.equal(s.requests.length, 3);
    // The traces went to pi's log in that HOME.
    const log = readFileSync(join(t.agent, "extensions", "pi-controls.log"), "utf8")
      .trim().split("\n").map((l) => JSON.parse(l)).filter((l) => l.event === "eval");
    assert.equal(log.length, 4, "the cached one is logged too");
    assert.ok(log.every((l) => l.origin === "check"));
  } finally {
    await s.close();
  }
});

const CLI_BUNDLE = join(ROOT, "dist", "pi-controls-cli.js");

Deno.test({
  name: "the Node CLI bundle embeds its version and the example sessions (run away from the repo)",
  // `deno task test` builds it first.
  ignore: !existsSync(CLI_BUNDLE),
  fn: async () => {
    const t = tempTree();
    const away = join(t.root, "bin", "pi-controls-cli.js");
    mkdirSync(join(t.root, "bin"));
    writeFileSync(away, readFileSync(CLI_BUNDLE));
    const runBundle = async (...args: string[]) => {
      const o = await new Deno.Command(Deno.execPath(), {
        // As the Nix wrapper runs it, with the permissions the CLI needs.
        args: [
          "run",
          "--no-config",
          "--no-lock",
          "--allow-read",
          "--allow-write",
          "--allow-env",
          "--allow-net",
          away,
          ...args,
        ],
        cwd: t.root,
        env: { HOME: t.home, NO_COLOR: "1", DENO_DIR: await denoDir() },
      }).output();
      const text = new TextDecoder();
      return { code: o.code, out: text.decode(o.stdout), err: text.decode(o.stderr) };
    };
    const deno = JSON.parse(readFileSync(join(ROOT, "deno.json"), "utf8"));
    const version = await runBundle("--version");
    assert.equal(version.out, `pi-controls ${deno.version}\n`, version.err);
    const replay = await runBundle("replay");
    assert.equal(replay.code, 0, replay.err);
    const n = exampleSessions().length;
    assert.match(replay.out, new RegExp(`replaying the ${n} example sessions that ship with`));
    assert.match(replay.out, new RegExp(` tool calls in ${n} session file\\(s\\)`));
  },
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
  assert.ok(counts.some((c) => c.cause === 'bash "rm *" (ask) [project]'), r.out);
});

Deno.test("suggest is a CLI command: help, and rules from a decision log", async () => {
  const t = tempTree();
  const help = await run(["suggest", "--help"], { home: t.home, cwd: t.root });
  assert.equal(help.code, 0);
  assert.match(help.out, /^pi-controls suggest — /);
  assert.match((await run(["--help"], { home: t.home, cwd: t.root })).out, /\n +suggest +/);
  const data = new URL("../testdata/suggest/", import.meta.url).pathname;
  const r = await run(
    ["suggest", "--config", join(data, "config.jsonc"), "--log", join(data, "decisions.log")],
    { home: t.home, cwd: t.project },
  );
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /\/\/ \d+ asks?, \d+ denies? removed: e\.g\. /);
  assert.match(r.out, /\{ "action": "allow", "tool": "bash", "pattern": "[^"]+ \*"/);
});
