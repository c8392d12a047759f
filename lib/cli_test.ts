/**
 * The CLI as a user meets it: usage errors, --help, --version, failures in one line,
 * `deno task pi-controls`, the Node bundle, and the suggest command.
 */
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EXIT } from "./cli.ts";
import { exampleSessions } from "./cli_assets.ts";
import { choice, replyWith, startStandIn, yesNo } from "./testing_decisions.ts";
import { ACTIONS_CONFIG, CONFIG, denoDir, ROOT, run, task, tempTree } from "./testing_cli.ts";

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
          "--allow-sys=hostname,networkInterfaces",
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
