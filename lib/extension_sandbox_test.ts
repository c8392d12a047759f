/**
 * The sandbox in the extension, against a fake pi: which calls run sandboxed (their command
 * replaced), the fail-closed ask where the sandbox cannot start, the start-up warning, and what
 * the sandbox stopped told to the model and shown. The replaced command is run for real where
 * bubblewrap starts (lib/sandbox_runner_test.ts says when that is required).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CHOICES } from "./ask_choices.ts";
import { sandboxProbe } from "./sandbox_runner.ts";
import { CONFIG, FAKE_OK, setup } from "./testing_extension_sandbox.ts";
import { newSandboxState, sandboxBlocker } from "./extension_sandbox.ts";
import { configFrom, ctxIn } from "./testing.ts";

const real = sandboxProbe();

Deno.test("extension: a sandbox verdict runs the command inside bubblewrap, unasked", async () => {
  const t = setup(FAKE_OK);
  await t.controls();
  assert.match(t.notes.at(-1)!.text, /\nsandbox: on \(\/usr\/bin\/bwrap, network unrestricted\)/);
  const r = await t.call("make build");
  assert.equal(r.block, undefined);
  assert.match(
    r.command,
    /^exec \/usr\/bin\/bwrap --ro-bind \/ \/ .* -- bash -c 'make build' 9< <\(printf '[^']+'\)$/,
  );
  assert.deepEqual(t.selects, []);
  assert.ok(t.notes.some((n) => n.text.startsWith("pi-controls: sandbox [project]: bash")));
  // A visible allow runs as written.
  assert.equal((await t.call("ls -la", "e")).command, "ls -la");
  assert.deepEqual(t.selects, []);
  // An unknown command cannot be seen, but could be the `git push` a rule asks about.
  assert.equal((await t.call("$CMD build", "d")).command, "$CMD build");
  assert.equal(t.selects.length, 1);
});

Deno.test("extension: a rule's ask still asks; approved, a call with a sandbox part is sandboxed", async () => {
  const t = setup(FAKE_OK);
  const push = await t.call("git push origin main");
  assert.equal(t.selects.length, 1);
  assert.equal(push.command, "git push origin main");
  const both = await t.call("make && git push origin main", "f");
  assert.equal(t.selects.length, 2);
  assert.match(
    both.command,
    /bwrap .* -- bash -c 'make && git push origin main' 9< <\(printf '[^']+'\)$/,
  );
  t.setAnswer(CHOICES.deny);
  const denied = await t.call("make; git push origin main", "g");
  assert.ok(denied.block);
  assert.equal(denied.command, "make; git push origin main");
});

Deno.test("extension: where the sandbox cannot start, it says so at start-up and asks", async () => {
  const t = setup({ ok: false, reason: "bubblewrap (bwrap) is not installed" });
  assert.ok(
    t.notes.some((n) =>
      n.type === "warning" && /the sandbox cannot start: bubblewrap \(bwrap\) is not/.test(n.text)
    ),
    JSON.stringify(t.notes),
  );
  await t.controls();
  assert.match(t.notes.at(-1)!.text, /\nsandbox: cannot start: bubblewrap \(bwrap\) is not/);
  t.setAnswer(CHOICES.deny);
  const r = await t.call("make build");
  assert.ok(r.block);
  assert.equal(r.command, "make build");
  assert.match(t.selects[0], /the sandbox cannot start: bubblewrap .* so it asks/);
});

Deno.test("extension: what the sandbox stopped is told to the model and shown in pi", async () => {
  const t = setup(FAKE_OK);
  await t.call("make install", "h");
  const out = t.result(
    "h",
    "install: cannot create regular file '/usr/local/bin/x': Read-only file system",
  );
  assert.ok(out);
  const text = out.content.map((c) => c.text).join("\n");
  assert.match(
    text,
    /\[pi-controls sandbox\] The OS sandbox stopped a write to \/usr\/local\/bin\/x/,
  );
  assert.match(text, /policy "outside" does not allow write there/);
  assert.ok(t.notes.some((n) => n.type === "warning" && /sandbox stopped a write/.test(n.text)));
  // A call that did not run sandboxed is left alone.
  await t.call("ls", "i");
  assert.equal(t.result("i", "x: Read-only file system"), undefined);
});

Deno.test({
  name: "extension: the replaced command, run as pi's bash tool runs it, is held by the OS",
  ignore: !real.ok,
}, async () => {
  const t = setup(real, {
    ...CONFIG,
    policies: {
      ...CONFIG.policies,
      project: { defaultAction: "sandbox", rules: [{ action: "allow", tool: "write" }] },
    },
  });
  const r = await t.call(`echo in > inside.txt; echo out > ${t.home}/outside.txt`);
  const ran = spawnSync("bash", ["-c", r.command], { cwd: t.project, encoding: "utf8" });
  assert.ok(existsSync(join(t.project, "inside.txt")), ran.stderr);
  assert.ok(!existsSync(join(t.home, "outside.txt")));
  assert.match(ran.stderr, /Read-only file system/);
});

Deno.test("extension: where the protected paths could not all be listed, the call asks", () => {
  const config = configFrom({
    policies: {
      project: { defaultAction: "sandbox", rules: [{ action: "allow", tool: "write" }] },
    },
    locations: { "/": "project" },
    pathProtection: { ".env": "deny" },
    sandbox: { enabled: true },
  }, { home: "/home/user", agentDir: "/home/user/.pi/agent" });
  const blocker = (size: number) => {
    const ctx = ctxIn("/home/user/p", { files: ["/home/user/p/data/f0"] });
    const entries = ctx.fs.entries!.bind(ctx.fs);
    ctx.fs.entries = (dir) =>
      dir === "/home/user/p/data"
        ? Array.from({ length: size }, (_, i) => ({ name: `f${i}`, dir: false, link: false }))
        : entries(dir);
    const s = newSandboxState({}, () => FAKE_OK);
    return sandboxBlocker(s, "id", { config, base: null }, ctx);
  };
  assert.equal(blocker(49_000), null);
  assert.equal(
    blocker(50_001),
    "the sandbox could not list every protected path below the cwd (too many files)",
  );
});
