import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadBashParser } from "./shell/parser.ts";
import type { CliIo } from "./cli.ts";
import { formatConfigError, loadConfigTexts } from "./config.ts";
import { decide } from "./policy/engine.ts";
import { CHOICES } from "./extension.ts";
import { gateFileEntries } from "./gate_files.ts";
import { decisionLine } from "./log.ts";
import { readSession, replaySessions } from "./replay.ts";
import {
  callsThatRan,
  cmdSuggest,
  groupCauses,
  isAllowChoice,
  readDecisionLog,
  SKIP_REASONS,
} from "./suggest.ts";
import { ctxIn } from "./testing.ts";
import type { Action, Config } from "./types.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIR = join(ROOT, "testdata", "suggest");
const CONFIG = join(DIR, "config.jsonc");
const LOG = join(DIR, "decisions.log");
const SESSION = join(DIR, "session.jsonl");
const HOME = "/home/user";
const AGENT = "/home/user/.pi/agent";
const PROJECT = "/home/user/project";

/** The fixture config as `--config` loads it (the gate's own files protected, as pi does). */
function todayConfig(): Config {
  const loaded = loadConfigTexts(
    [{ file: CONFIG, text: readFileSync(CONFIG, "utf8"), role: "project", root: DIR }],
    { home: HOME, builtins: gateFileEntries({ agentDir: AGENT }) },
  );
  if (loaded.status !== "ok") {
    throw new Error(
      loaded.status === "error" ? loaded.errors.map(formatConfigError).join("\n") : "",
    );
  }
  return loaded.config;
}

/** The config the log was recorded under: before "*.pem" was protected and docker approved. */
function recordedConfig(): Config {
  const today = todayConfig();
  return {
    ...today,
    approvalRules: [],
    pathProtection: today.pathProtection.filter((p) => p.glob !== "*.pem"),
  };
}

interface Logged {
  command?: string;
  tool?: string;
  input?: Record<string, unknown>;
  choice?: string;
  final?: Action;
  escalation?: string;
  mode?: string;
}

/** The calls of the fixture log and what the user answered. */
const LOGGED: (Logged | string)[] = [
  { command: "git push origin main", choice: CHOICES.once },
  { command: "git push origin feature", choice: CHOICES.session },
  { command: "git push origin feature", choice: "allowed for session" },
  { command: "git push --force origin main", choice: CHOICES.deny, final: "deny" },
  { command: "git status" },
  "{not json",
  {
    command: "npm test",
    choice:
      `${CHOICES.project} (npm test, npm test * -> ${PROJECT}/.pi/extensions/pi-controls.jsonc)`,
  },
  { command: "git reset --hard HEAD", choice: CHOICES.once, escalation: "agentTimeout" },
  { command: "python3 -c 'print(1)'", choice: CHOICES.once },
  { command: "echo hi > .env", choice: CHOICES.once },
  {
    tool: "write",
    input: { path: `${AGENT}/extensions/pi-controls.jsonc`, content: "{}" },
    choice: CHOICES.once,
  },
  { command: "cat x{1..100}.txt", choice: CHOICES.once },
  '{"ts":"2026-12-01T10:00:00.000Z","event":"decision","tool":"bash"}',
  {
    tool: "write",
    input: { path: "notes.md", content: "x" },
    choice: `${CHOICES.global} (write -> ${AGENT}/extensions/pi-controls.jsonc)`,
  },
  { command: "git push origin main && npm publish", choice: CHOICES.once },
  { command: "docker build .", choice: CHOICES.once },
  { command: "cp a.txt keys/id.pem", choice: CHOICES.once },
  { command: "cd /srv/app && make deploy", choice: CHOICES.once },
  { command: "git push origin main", choice: "inform mode: not enforced", mode: "inform" },
  { command: "git push origin main", choice: "no UI to answer", final: "deny" },
  { command: "git push origin main", choice: "dismissed", final: "deny" },
];

/** The fixture log, written as pi-controls writes it: the engine's verdicts through decisionLine. */
async function fixtureLog(): Promise<string> {
  const config = recordedConfig();
  const ctx = ctxIn(PROJECT, {
    files: [`${PROJECT}/a.txt`, `${PROJECT}/b.txt`, `${PROJECT}/.env`, "/srv/app/Makefile"],
  });
  const parser = await loadBashParser();
  const ts = (i: number) => `2026-12-01T10:00:${String(i).padStart(2, "0")}.000Z`;
  const lines = [
    JSON.stringify({
      ts: ts(0),
      event: "startup",
      cwd: PROJECT,
      files: [`${AGENT}/extensions/pi-controls.jsonc`],
      mode: "enforce",
      loaded: "2 policies, 2 locations, defaultPolicy=null",
    }),
  ];
  for (const [i, e] of LOGGED.entries()) {
    if (typeof e === "string") {
      lines.push(e);
      continue;
    }
    const tool = e.tool ?? "bash";
    const input = e.input ?? { command: e.command };
    const verdict = decide(config, { tool, input }, ctx, { parser });
    const final = e.final ?? (isAllowChoice(e.choice) ? "allow" : verdict.action);
    const line = decisionLine({
      tool,
      toolCallId: `call_${i + 1}`,
      verdict,
      final,
      escalation: e.escalation,
      choice: e.choice,
      mode: e.mode ?? "enforce",
      input,
    });
    lines.push(JSON.stringify({ ts: ts(i + 1), ...line }));
  }
  return lines.join("\n") + "\n";
}

function testIo(
  opts: { env?: Record<string, string>; cwd?: string } = {},
): { io: CliIo; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    io: {
      out: (t) => void (out += t),
      err: (t) => void (err += t),
      env: opts.env ?? { HOME },
      cwd: opts.cwd ?? ROOT,
      stdin: () => Promise.resolve(""),
    },
    out: () => out,
    err: () => err,
  };
}

Deno.test("suggest: the fixture log is what the engine and decisionLine write", async () => {
  const text = await fixtureLog();
  if (Deno.env.get("PI_CONTROLS_UPDATE_FIXTURES") === "1") writeFileSync(LOG, text);
  assert.equal(readFileSync(LOG, "utf8"), text);
});

Deno.test("suggest: an answered allow is an Allow of the dialog or a session allow", () => {
  for (const c of [CHOICES.once, CHOICES.session, "allowed for session", CHOICES.global]) {
    assert.ok(isAllowChoice(c), c);
  }
  assert.ok(isAllowChoice(`${CHOICES.project} (git push * -> /p/.pi/extensions/x.jsonc)`));
  assert.ok(isAllowChoice(`${CHOICES.global} (not saved: locked)`));
  for (const c of [CHOICES.deny, "dismissed", "no UI to answer", "turn aborted", undefined]) {
    assert.ok(!isAllowChoice(c), String(c));
  }
  assert.ok(!isAllowChoice("inform mode: not enforced"));
  assert.ok(!isAllowChoice(`${CHOICES.project}: no policy chosen`));
});

const LOG_JSONC = [
  `// 13 asks, 1 deny answered with allow in ${LOG}; paste into "approvalRules":`,
  `// 4 asks, 0 denies removed: e.g. git push origin main (with bash "npm publish" [work], ` +
  `bash "npm publish *" [work])`,
  `{ "action": "allow", "tool": "bash", "pattern": "git push *", "policy": "work" },`,
  `// 1 ask, 0 denies removed: e.g. npm test`,
  `{ "action": "allow", "tool": "bash", "pattern": "npm test", "policy": "work" },`,
  `// 1 ask, 0 denies removed: e.g. npm test`,
  `{ "action": "allow", "tool": "bash", "pattern": "npm test *", "policy": "work" },`,
  `// 0 asks, 1 deny removed: e.g. git reset --hard HEAD`,
  `{ "action": "allow", "tool": "bash", "pattern": "git reset *", "policy": "work" },`,
  `// 1 ask, 0 denies removed: e.g. write ${PROJECT}/notes.md`,
  `{ "action": "allow", "tool": "write", "policy": "work" },`,
  `// 1 ask, 0 denies removed: e.g. git push origin main && npm publish (with bash "git push *" [work])`,
  `{ "action": "allow", "tool": "bash", "pattern": "npm publish", "policy": "work" },`,
  `// 1 ask, 0 denies removed: e.g. git push origin main && npm publish (with bash "git push *" [work])`,
  `{ "action": "allow", "tool": "bash", "pattern": "npm publish *", "policy": "work" },`,
  `// 1 ask, 0 denies removed: e.g. cd /srv/app && make deploy`,
  `{ "action": "allow", "tool": "bash", "pattern": "make deploy", "policy": "ops" },`,
  `// 1 ask, 0 denies removed: e.g. cd /srv/app && make deploy`,
  `{ "action": "allow", "tool": "bash", "pattern": "make deploy *", "policy": "ops" },`,
].join("\n") + "\n";

Deno.test("suggest: the recorded log gives the narrowest rules, counted and sorted", async () => {
  const t = testIo();
  const code = await cmdSuggest(t.io, ["--config", CONFIG, "--log", LOG]);
  assert.equal(code, 0, t.err());
  assert.equal(t.out(), LOG_JSONC);
  assert.equal(
    t.err(),
    [
      `warning: ${LOG}:7: not JSON (${notJsonMessage("{not json")}); skipped`,
      `warning: ${LOG}:14: a decision line without a valid "engineAction" and "action"; skipped`,
      `note: 1 ask, 0 denies not proposed: ${SKIP_REASONS.tooBroad}; e.g. python3 -c 'print(1)'`,
      `note: 3 asks, 0 denies not proposed: ${SKIP_REASONS.protected}; e.g. echo hi > .env`,
      `note: 1 ask, 0 denies not proposed: ${SKIP_REASONS.blind}; e.g. cat x{1..100}.txt`,
      `note: 1 ask, 0 denies not proposed: ${SKIP_REASONS.approved}; e.g. docker build .`,
    ].join("\n") + "\n",
  );
});

function notJsonMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  return "";
}

Deno.test("suggest: too broad and protected calls are never proposed", async () => {
  const t = testIo();
  assert.equal(await cmdSuggest(t.io, ["--config", CONFIG, "--log", LOG, "--json"]), 0);
  const out = JSON.parse(t.out());
  const patterns = out.rules.map((g: { rule: { pattern?: string } }) => g.rule.pattern);
  for (const p of patterns) {
    assert.ok(p === undefined || !/^(python3|echo|cat|cp|docker)\b/.test(p), p);
  }
  // The write rule is for notes.md's policy; the gate's own file (same tool) proposed nothing.
  const reasons = Object.fromEntries(
    out.skipped.map((s: { reason: string; asks: number }) => [s.reason, s.asks]),
  );
  assert.deepEqual(reasons, {
    [SKIP_REASONS.tooBroad]: 1,
    [SKIP_REASONS.protected]: 3, // .env (pathProtection), the gate's config, *.pem (protected since)
    [SKIP_REASONS.blind]: 1,
    [SKIP_REASONS.approved]: 1,
  });
  assert.deepEqual(out.answered, { asks: 13, denies: 1 });
  assert.equal(out.rules[0].asks, 4);
  assert.deepEqual(out.rules[0].examples, [
    "git push origin main",
    "git push origin feature",
    "git push origin main && npm publish",
  ]);
  assert.equal(out.source, LOG);
});

Deno.test("suggest: readDecisionLog keeps only asks and denies answered with allow", () => {
  const read = readDecisionLog(LOG, readFileSync(LOG, "utf8"));
  assert.equal(read.decisions, 19);
  assert.equal(read.calls.length, 14);
  assert.deepEqual(read.calls.map((c) => c.where.slice(LOG.length + 1)).slice(0, 4), [
    "2",
    "3",
    "4",
    "8",
  ]);
  assert.equal(read.calls.find((c) => c.action === "deny")?.example, "git reset --hard HEAD");
  assert.equal(read.warnings.length, 2);
});

Deno.test("suggest: --apply saves into a commented config, which still validates", async () => {
  const dir = mkdtempSync(join(tmpdir(), "suggest-apply-"));
  try {
    const file = join(dir, "pi-controls.jsonc");
    copyFileSync(CONFIG, file);
    const before = readFileSync(file, "utf8");
    const t = testIo();
    const code = await cmdSuggest(t.io, ["--config", CONFIG, "--log", LOG, "--apply", file]);
    assert.equal(code, 0, t.err());
    assert.equal(
      t.out(),
      `wrote 9 approval rules to ${file}: allow bash "git push *" [work], ` +
        `allow bash "npm test" [work], allow bash "npm test *" [work], ` +
        `allow bash "git reset *" [work], allow write [work], allow bash "npm publish" [work], ` +
        `allow bash "npm publish *" [work], allow bash "make deploy" [ops], ` +
        `allow bash "make deploy *" [ops]\n`,
    );
    const after = readFileSync(file, "utf8");
    for (const line of before.split("\n").filter((l) => l.includes("//"))) {
      assert.ok(after.includes(line), `comment kept: ${line}`);
    }
    const loaded = loadConfigTexts([{ file, text: after, role: "project", root: dir }], {
      home: HOME,
    });
    assert.equal(loaded.status, "ok", JSON.stringify(loaded));
    if (loaded.status !== "ok") return;
    assert.deepEqual(loaded.config.approvalRules.map((r) => r.pattern ?? r.tool), [
      "docker build *",
      "git push *",
      "npm test",
      "npm test *",
      "git reset *",
      "write",
      "npm publish",
      "npm publish *",
      "make deploy",
      "make deploy *",
    ]);
    // Suggested again, what was saved is already approved and is not proposed twice.
    const again = testIo();
    assert.equal(await cmdSuggest(again.io, ["--config", file, "--log", LOG]), 0);
    assert.match(again.out(), /^nothing to suggest: 13 asks, 1 deny answered with allow/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("suggest: --apply into a file that does not parse fails in one line", async () => {
  const dir = mkdtempSync(join(tmpdir(), "suggest-apply-"));
  try {
    const file = join(dir, "broken.jsonc");
    writeFileSync(file, "[1, 2]\n");
    const t = testIo();
    const code = await cmdSuggest(t.io, ["--config", CONFIG, "--log", LOG, "--apply", file]);
    assert.equal(code, 1);
    assert.equal(readFileSync(file, "utf8"), "[1, 2]\n");
    const last = t.err().trimEnd().split("\n").at(-1)!;
    assert.match(last, /^pi-controls suggest: .*broken\.jsonc: .*does not parse/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("suggest: sessions count asked or denied calls that ran", async () => {
  const text = readFileSync(SESSION, "utf8");
  assert.deepEqual(
    [...callsThatRan(text)],
    ["c1", "c2", "c3", "c5", "c6", "c7", "c9", "c10", "c11"],
  );
  const t = testIo();
  const code = await cmdSuggest(t.io, ["--config", CONFIG, SESSION]);
  assert.equal(code, 0, t.err());
  assert.equal(
    t.out(),
    [
      `// 6 asks, 2 denies answered with allow in 1 session file; paste into "approvalRules":`,
      `// 2 asks, 0 denies removed: e.g. git push origin main`,
      `{ "action": "allow", "tool": "bash", "pattern": "git push *", "policy": "work" },`,
      `// 1 ask, 0 denies removed: e.g. write ${PROJECT}/notes.md`,
      `{ "action": "allow", "tool": "write", "policy": "work" },`,
      `// 0 asks, 1 deny removed: e.g. git reset --hard`,
      `{ "action": "allow", "tool": "bash", "pattern": "git reset *", "policy": "work" },`,
    ].join("\n") + "\n",
  );
  assert.equal(
    t.err(),
    [
      `note: 1 ask, 0 denies not proposed: ${SKIP_REASONS.tooBroad}; e.g. python3 -c 'print(1)'`,
      `note: 2 asks, 0 denies not proposed: ${SKIP_REASONS.protected}; e.g. read ${PROJECT}/.env`,
      `note: 0 asks, 1 deny not proposed: ${SKIP_REASONS.blind}; e.g. $CMD --version`,
    ].join("\n") + "\n",
  );
});

Deno.test("suggest: a real pi recording: the denied call the user let through", async () => {
  const dir = join(ROOT, "testdata", "cases", "e2e-breakers");
  const t = testIo();
  const code = await cmdSuggest(t.io, [
    "--config",
    join(dir, "config.jsonc"),
    "--json",
    join(dir, "session-1.jsonl"),
  ]);
  assert.equal(code, 0, t.err());
  const out = JSON.parse(t.out());
  // rm_1..rm_4 were blocked (denied, and the 4th ask refused); rm_5 was asked and allowed.
  // "e.txt" is a file, no subcommand: the exact command is proposed, not "rm e.txt *".
  assert.deepEqual(out.answered, { asks: 0, denies: 1 });
  assert.deepEqual(
    out.rules.map((g: { rule: { pattern: string }; denies: number }) => [g.rule.pattern, g.denies]),
    [["rm e.txt", 1]],
  );
});

Deno.test("suggest: groupCauses names the rule or cause behind a replay's asks and denies", async () => {
  const config = todayConfig();
  const parser = await loadBashParser();
  const base = { home: HOME, env: { HOME }, fs: ctxIn(PROJECT).fs };
  const session = readSession(SESSION);
  const rows = replaySessions(config, [session], base, { parser });
  assert.deepEqual(groupCauses(rows), [
    { cause: "no rule matched (defaultAction) [work]", asks: 4, denies: 0 },
    { cause: 'bash "git push *" (ask) [work]', asks: 3, denies: 0 },
    { cause: 'pathProtection ".env" (ask)', asks: 1, denies: 0 },
    { cause: 'bash "git reset *" (deny) [work]', asks: 0, denies: 1 },
    { cause: "unknown command (top)", asks: 0, denies: 1 },
    { cause: "the gate's own files", asks: 1, denies: 0 },
  ]);
  // The breakers' escalations are named after the rule they escalated.
  const dir = join(ROOT, "testdata", "cases", "e2e-breakers");
  const breakers = loadConfigTexts([{
    file: "config.jsonc",
    text: readFileSync(join(dir, "config.jsonc"), "utf8"),
    role: "project",
    root: null,
  }], { home: HOME });
  assert.equal(breakers.status, "ok");
  if (breakers.status !== "ok") return;
  const recorded = ["session-1.jsonl", "session-2.jsonl"].map((f) => readSession(join(dir, f)));
  assert.deepEqual(groupCauses(replaySessions(breakers.config, recorded, base, { parser })), [
    { cause: 'bash "rm *" (deny) [guarded]', asks: 0, denies: 3 },
    { cause: 'bash "rm *" (deny) [guarded], escalated by agentTimeout', asks: 2, denies: 0 },
    { cause: 'bash "grep *" (nudge) [guarded], escalated by nudgeTimeout', asks: 0, denies: 1 },
  ]);
});

Deno.test("suggest: nothing to suggest says so and succeeds", async () => {
  const dir = mkdtempSync(join(tmpdir(), "suggest-none-"));
  try {
    const log = join(dir, "pi-controls.log");
    const lines = readFileSync(LOG, "utf8").split("\n").filter((l) =>
      l.includes('"choice":"Deny"') || l.includes('"event":"startup"')
    );
    writeFileSync(log, lines.join("\n") + "\n");
    // The default log: <agentDir>/extensions/pi-controls.log.
    const agentDir = join(dir, "agent");
    mkdirSync(join(agentDir, "extensions"), { recursive: true });
    copyFileSync(log, join(agentDir, "extensions", "pi-controls.log"));
    const t = testIo({ env: { HOME, PI_CODING_AGENT_DIR: agentDir } });
    assert.equal(await cmdSuggest(t.io, ["--config", CONFIG]), 0, t.err());
    assert.equal(
      t.out(),
      `nothing to suggest: no ask or deny in ${
        join(agentDir, "extensions", "pi-controls.log")
      } was answered with allow\n`,
    );
    assert.equal(t.err(), "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("suggest: failures are one line naming what and where; usage errors exit 2", async () => {
  const dir = mkdtempSync(join(tmpdir(), "suggest-fail-"));
  try {
    const missing = join(dir, "nope.log");
    let t = testIo();
    assert.equal(await cmdSuggest(t.io, ["--config", CONFIG, "--log", missing]), 1);
    assert.equal(t.err().trimEnd().split("\n").length, 1);
    assert.ok(t.err().includes(missing), t.err());

    const unreadable = join(dir, "a-directory");
    mkdirSync(unreadable);
    t = testIo();
    assert.equal(await cmdSuggest(t.io, ["--config", CONFIG, "--log", unreadable]), 1);
    assert.match(
      t.err(),
      /^pi-controls suggest: cannot read the decision log .*a-directory: .*\n$/,
    );

    // No config: none given, none in the agent dir, none above the cwd.
    t = testIo({ env: { HOME: dir, PI_CODING_AGENT_DIR: join(dir, "agent") }, cwd: dir });
    assert.equal(await cmdSuggest(t.io, ["--log", LOG]), 1);
    assert.match(t.err(), /^pi-controls suggest: no config found \(.*\): .*--config FILE\n$/);

    const broken = join(dir, "broken.jsonc");
    writeFileSync(broken, '{ "policies": { "p": { "defaultAction": "nudge", "rules": [] } } }\n');
    t = testIo();
    assert.equal(await cmdSuggest(t.io, ["--config", broken, "--log", LOG]), 1);
    assert.ok(t.err().startsWith(`pi-controls suggest: ${broken}:1:`), t.err());

    t = testIo();
    assert.equal(await cmdSuggest(t.io, ["--config", CONFIG, join(dir, "none.jsonl")]), 1);
    assert.match(t.err(), /pi-controls suggest: no session files in .*none\.jsonl\n$/);

    for (
      const args of [
        ["--bogus"],
        ["--log"],
        ["--log", LOG, SESSION],
        ["--apply", "a", "--apply", "b"],
      ]
    ) {
      t = testIo();
      assert.equal(await cmdSuggest(t.io, args), 2, args.join(" "));
      assert.match(t.err(), /^pi-controls suggest: .*\n\nUsage:/);
    }
    t = testIo();
    assert.equal(await cmdSuggest(t.io, ["--help"]), 0);
    assert.match(t.out(), /^Usage:\n {2}pi-controls suggest/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
