/**
 * The sandbox in the extension, against a fake pi: which calls run sandboxed (their command
 * replaced), the fail-closed ask where the sandbox cannot start, the start-up warning, and what
 * the sandbox stopped told to the model and shown. The replaced command is run for real where
 * bubblewrap starts (lib/sandbox_runner_test.ts says when that is required).
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExtension, type PiApi, type PiContext } from "./extension.ts";
import { CHOICES } from "./ask_choices.ts";
import { type SandboxProbe, sandboxProbe } from "./sandbox_runner.ts";
import { type NetworkProxy, startProxy } from "./sandbox_proxy.ts";

const real = sandboxProbe();
const FAKE_OK: SandboxProbe = { ok: true, bwrap: "/usr/bin/bwrap" };

const CONFIG = {
  policies: {
    project: {
      defaultAction: "allow",
      rules: [
        { action: "sandbox", tool: "bash", pattern: "make*" },
        { action: "ask", tool: "bash", pattern: "git push *" },
      ],
    },
    outside: { defaultAction: "ask", rules: [] },
  },
  locations: { "/": "outside", "$cwd": "project" },
  sandbox: { enabled: true },
};

function setup(
  probe: SandboxProbe,
  config: object = CONFIG,
  sandboxProxy?: () => Promise<NetworkProxy>,
) {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "pi-controls-extsb-")));
  const agent = join(home, ".pi", "agent");
  const project = join(home, "project");
  mkdirSync(join(agent, "extensions"), { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(agent, "extensions", "pi-controls.jsonc"), JSON.stringify(config));
  const handlers = new Map<string, (e: never, c: PiContext) => unknown>();
  const commands = new Map<string, Parameters<PiApi["registerCommand"]>[1]>();
  const pi: PiApi = {
    on: (n, h) => handlers.set(n, h),
    registerCommand: (n, o) => commands.set(n, o),
  };
  createExtension(pi, {
    env: { HOME: home, PATH: Deno.env.get("PATH") },
    sandboxProbe: () => probe,
    sandboxProxy,
  });
  const notes: { text: string; type?: string }[] = [];
  const selects: string[] = [];
  let answer: string = CHOICES.once;
  const ctx: PiContext = {
    cwd: project,
    hasUI: true,
    ui: {
      notify: (text, type) => notes.push({ text, type }),
      select: (title) => {
        selects.push(title);
        return Promise.resolve(answer);
      },
      setStatus: () => {},
    },
  };
  handlers.get("session_start")!({} as never, ctx);
  const call = async (command: string, id = "c") => {
    const input = { command };
    const block = await handlers.get("tool_call")!(
      { toolName: "bash", toolCallId: id, input } as never,
      ctx,
    );
    return { block, command: input.command };
  };
  const result = (id: string, text: string) =>
    handlers.get("tool_result")!(
      { toolName: "bash", toolCallId: id, content: [{ type: "text", text }] } as never,
      ctx,
    ) as { content: { type: string; text?: string }[] } | undefined;
  const controls = () => commands.get("controls")!.handler("", ctx);
  const shutdown = () => handlers.get("session_shutdown")!({} as never, ctx);
  return {
    home,
    project,
    notes,
    selects,
    call,
    result,
    controls,
    shutdown,
    setAnswer: (a: string) => (answer = a),
  };
}

Deno.test("extension: a sandbox verdict runs the command inside bubblewrap, unasked", async () => {
  const t = setup(FAKE_OK);
  await t.controls();
  assert.match(t.notes.at(-1)!.text, /\nsandbox: on \(\/usr\/bin\/bwrap, network unrestricted\)/);
  const r = await t.call("make build");
  assert.equal(r.block, undefined);
  assert.match(r.command, /^exec \/usr\/bin\/bwrap --ro-bind \/ \/ .* -- bash -c 'make build'$/);
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
  assert.match(both.command, /bwrap .* -- bash -c 'make && git push origin main'$/);
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

Deno.test({
  name: "extension: with an allow list, the proxy starts at the first call, refusals are told, " +
    "and it stops with the session",
  ignore: !real.ok,
}, async () => {
  const ac = new AbortController();
  const srv = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen() {} },
    () => new Response("reached\n"),
  );
  const proxies: NetworkProxy[] = [];
  let starts = 0;
  const t = setup(real, {
    ...CONFIG,
    sandbox: { enabled: true, network: { allowedDomains: ["allowed.test"] } },
  }, async () => {
    starts++;
    const proxy = await startProxy({ resolve: () => "127.0.0.1" });
    proxies.push(proxy);
    return proxy;
  });
  try {
    await t.controls();
    assert.match(t.notes.at(-1)!.text, /network only through pi-controls' proxy, to allowed\.test/);
    assert.equal(starts, 0, "the proxy started before a call needed it");
    const p = srv.addr.port;
    const r = await t.call(
      `make; curl -sS http://allowed.test:${p}/; curl -sS -o /dev/null -w '%{http_code}\\n' http://evil.test:${p}/`,
      "n",
    );
    assert.equal(r.block, undefined);
    assert.equal(starts, 1);
    assert.match(r.command, /--unshare-net/);
    const child = spawn("bash", ["-c", r.command], { cwd: t.project });
    let output = "";
    child.stdout.on("data", (d) => output += d);
    child.stderr.on("data", (d) => output += d);
    await new Promise((res) => child.on("close", res));
    assert.match(output, /reached\n403\n$/);
    const out = t.result("n", output);
    const text = out?.content.map((c) => c.text).join("\n") ?? "";
    assert.match(text, /network allow list refused evil\.test: only allowed\.test may be reached/);
    assert.ok(
      t.notes.some((n) => n.type === "warning" && /allow list refused evil\.test/.test(n.text)),
    );
    // A second call uses the same proxy.
    await t.call("make again", "o");
    assert.equal(starts, 1);
    await t.shutdown();
    assert.equal(proxies.length, 1);
    assert.ok(!existsSync(proxies[0].dir), "the proxy still runs after the session ended");
  } finally {
    ac.abort();
    await srv.finished;
  }
});
