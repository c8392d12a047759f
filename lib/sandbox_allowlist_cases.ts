/**
 * The network allow list for real: bubblewrap with no network of its own, the proxy outside it,
 * the bridge inside it, and curl inside talking to a server on the host under made-up names (the
 * proxy's resolver maps `*.test` to 127.0.0.1). Ignored where bubblewrap or curl cannot run,
 * unless PI_CONTROLS_SANDBOX=required (CI): then they fail. Run by lib/sandbox_proxy_test.ts with
 * the permission Deno asks for a unix socket. Also here, as it needs that permission too: no unix
 * socket of the host is reachable from the sandbox, in every network mode (the seccomp filter).
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { configFrom } from "./testing.ts";
import { realFs } from "./policy/fs_facts.ts";
import { sandboxBoundaries } from "./policy/sandbox.ts";
import { sandboxStops } from "./policy/sandbox_stops.ts";
import { bwrapArgs, sandboxProbe, wrapCommand } from "./sandbox_runner.ts";
import { type NetworkProxy, refusalText, startProxy } from "./sandbox_proxy.ts";
import type { Config, Context, SandboxNetwork } from "./types.ts";

const probe = sandboxProbe();
const curl = spawnSync("curl", ["--version"]).status === 0;
const required = Deno.env.get("PI_CONTROLS_SANDBOX") === "required";
const ignore = (!probe.ok || !curl) && !required;

function setup(network: SandboxNetwork): { config: Config; ctx: Context } {
  const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "pi-controls-allowlist-" }));
  const home = join(root, "home");
  const proj = join(root, "proj");
  mkdirSync(join(home, ".pi/agent/extensions"), { recursive: true });
  mkdirSync(proj);
  const config = configFrom({
    policies: {
      project: { defaultAction: "sandbox", rules: [{ action: "allow", tool: "write" }] },
      outside: { defaultAction: "ask", rules: [] },
    },
    locations: { "/": "outside", "$cwd": "project" },
    sandbox: { enabled: true, network },
  }, { home, agentDir: join(home, ".pi/agent") });
  const env = { HOME: home, PATH: Deno.env.get("PATH") };
  return { config, ctx: { cwd: proj, home, env, fs: realFs() } };
}

/** Run a command as pi's bash tool would run the wrapped one (not blocking: the proxy serves). */
async function run(command: string, network: SandboxNetwork, proxy?: NetworkProxy) {
  if (!probe.ok) throw new Error(`the sandbox cannot start: ${probe.reason}`);
  const { config, ctx } = setup(network);
  const b = sandboxBoundaries(config, ctx);
  const token = proxy && typeof network === "object" ? proxy.open(network.allowedDomains) : "";
  const link = proxy ? { dir: proxy.dir, bridge: proxy.bridgeArgv(token) } : undefined;
  const child = spawn("bash", ["-c", wrapCommand(command, b, ctx.cwd, probe.bwrap, link)], {
    cwd: ctx.cwd,
    env: ctx.env as Record<string, string>,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => output += d);
  child.stderr.on("data", (d) => output += d);
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const status = await new Promise<number | null>((r) => child.on("close", r));
  clearTimeout(timer);
  const refused = proxy ? proxy.refused(token) : [];
  return { status, output, refused, stops: sandboxStops(output, b, config, ctx, refused) };
}

/** A server on the host's loopback that answers every request with its path. */
function server() {
  const ac = new AbortController();
  const s = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen() {} },
    (r) => {
      const path = new URL(r.url).pathname;
      return new Response(path === "/big" ? "x".repeat(BIG) : `reached ${path}\n`);
    },
  );
  return { port: s.addr.port, stop: async () => (ac.abort(), await s.finished) };
}

/** A response larger than every buffer on the way (it must arrive whole). */
const BIG = 3_000_000;

const LIST = { allowedDomains: ["allowed.test", "*.api.test"] };

Deno.test(
  { name: "allow list: curl and bubblewrap run here (or CI says they must)", ignore },
  () => {
    assert.ok(probe.ok, probe.ok ? "" : probe.reason);
    assert.ok(curl, "curl is not installed");
  },
);

Deno.test({
  name: "allow list: listed hosts through the proxy, 403 for the rest, no direct connection",
  ignore,
}, async () => {
  const srv = server();
  const proxy = await startProxy({ resolve: (h) => h.endsWith(".test") ? "127.0.0.1" : h });
  try {
    const p = srv.port;
    const r = await run(
      [
        `curl -sS http://allowed.test:${p}/plain`,
        `curl -sS -p http://v1.api.test:${p}/tunnel`,
        `echo "big $(curl -sS http://allowed.test:${p}/big | wc -c) $(curl -sS -p http://allowed.test:${p}/big | wc -c)"`,
        `curl -sS -w '%{http_code}\\n' http://ALLOWED.TEST.:${p}/upper-dot`,
        `curl -sS -w ' %{http_code}\\n' http://evil.test:${p}/x`,
        `curl -sS -w ' %{http_code}\\n' http://allowed.test.evil.test:${p}/x`,
        `curl -sS -w ' %{http_code}\\n' http://evilapi.test:${p}/x`,
        `env -u NO_PROXY -u no_proxy curl -sS -p http://127.0.0.1:${p}/ip || echo tunnel-refused`,
        // Around the proxy: the sandbox has no network of its own.
        `curl -sS -m 5 --noproxy '*' http://127.0.0.1:${p}/direct || echo direct-failed`,
        `(exec 3<>/dev/tcp/127.0.0.1/${p}) 2>/dev/null && echo tcp-connected || echo tcp-failed`,
        `env -u HTTP_PROXY -u http_proxy -u ALL_PROXY -u all_proxy curl -sS -m 5 http://allowed.test:${p}/ || echo env-failed`,
        "echo done",
      ].join("\n"),
      LIST,
      proxy,
    );
    assert.equal(r.status, 0, r.output);
    assert.match(r.output, /reached \/plain\n/);
    assert.match(r.output, /reached \/tunnel\n/);
    assert.ok(r.output.includes(`big ${BIG} ${BIG}\n`), r.output.slice(0, 2000));
    assert.match(r.output, /reached \/upper-dot\n200\n/);
    for (const host of ["evil.test", "allowed.test.evil.test", "evilapi.test"]) {
      assert.ok(r.output.includes(`${refusalText(host, LIST.allowedDomains).trim()}\n 403`), host);
    }
    assert.match(r.output, /CONNECT tunnel failed, response 403\ntunnel-refused/);
    assert.match(r.output, /direct-failed/);
    assert.match(r.output, /tcp-failed/);
    assert.doesNotMatch(r.output, /reached \/direct|tcp-connected/);
    assert.match(r.output, /env-failed/);
    assert.match(r.output, /done\n$/);
    assert.deepEqual(r.refused, [
      "evil.test",
      "allowed.test.evil.test",
      "evilapi.test",
      "127.0.0.1",
    ]);
    // What the model is told, and pi shows: the hosts, and the list.
    assert.match(
      r.stops?.message ?? "",
      /allow list refused evil\.test, allowed\.test\.evil\.test, evilapi\.test, 127\.0\.0\.1: only allowed\.test, \*\.api\.test may be reached/,
    );
    assert.match(
      r.stops?.notification ?? "",
      /^pi-controls: the sandbox's network allow list refused evil\.test/,
    );
  } finally {
    await proxy.close();
    await srv.stop();
  }
});

Deno.test({ name: "allow list: without the proxy, no network at all", ignore }, async () => {
  const srv = server();
  try {
    const r = await run(
      `curl -sS -m 5 http://127.0.0.1:${srv.port}/ || echo failed; env | grep -ci _proxy=`,
      LIST,
    );
    assert.match(r.output, /failed\n0\n$/);
  } finally {
    await srv.stop();
  }
});

Deno.test({ name: "allow list: none and unrestricted are as they were", ignore }, async () => {
  const srv = server();
  const proxy = await startProxy();
  try {
    const get = `curl -sS -m 5 http://127.0.0.1:${srv.port}/open || echo failed`;
    assert.match((await run(get, "unrestricted", proxy)).output, /reached \/open/);
    assert.match((await run(get, "none", proxy)).output, /failed/);
    const { config, ctx } = setup("none");
    const args = bwrapArgs(sandboxBoundaries(config, ctx), ctx.cwd, proxy.dir);
    assert.ok(!args.includes(proxy.dir), "a sandbox without a list binds the proxy");
  } finally {
    await proxy.close();
    await srv.stop();
  }
});

/** A server on a unix socket of the host (as Docker's, systemd's or tmux's are) answering HTTP. */
function socketServer(dir: string) {
  const path = join(dir, "service.sock");
  const listener = Deno.listen({ transport: "unix", path });
  const serving = (async () => {
    for await (const conn of listener) {
      // The request is read first: closed with it unread (or before the client has written
      // it), the client gets a reset or a broken pipe instead of the answer.
      const buf = new Uint8Array(4096);
      let got = "";
      while (!got.includes("\r\n\r\n")) {
        const n = await conn.read(buf).catch(() => null);
        if (n === null) break;
        got += new TextDecoder().decode(buf.subarray(0, n));
      }
      await conn.write(new TextEncoder().encode("HTTP/1.0 200 OK\r\n\r\nthe host's service\n"))
        .catch(() => {});
      conn.close();
    }
  })();
  return { path, stop: async () => (listener.close(), await serving.catch(() => {})) };
}

Deno.test({
  name: "sandbox: no unix socket of the host is reachable, whatever its network",
  ignore,
}, async () => {
  // A read-only mount does not stop connect(2) to a socket: the seccomp filter refuses to make
  // one (socket(AF_UNIX)), by path or abstract name, while other sockets and pipes still work.
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "pi-controls-sock-" }));
  const service = socketServer(dir);
  const proxy = await startProxy({ resolve: (h) => h.endsWith(".test") ? "127.0.0.1" : h });
  const web = server();
  try {
    const reach = `curl -s -m 5 --unix-socket ${service.path} http://service/`;
    // (Not spawnSync: the service answers from this process.)
    const outside = new Deno.Command("bash", { args: ["-c", reach], stdout: "piped" }).output();
    const answer = new TextDecoder().decode((await outside).stdout);
    assert.match(answer, /the host's service/, "the test's service does not answer");
    const modes: [string, SandboxNetwork, NetworkProxy | undefined][] = [
      ["unrestricted", "unrestricted", undefined],
      ["none", "none", undefined],
      ["an allow list", LIST, proxy],
    ];
    for (const [what, network, p] of modes) {
      const r = await run(`${reach}; echo "curl: $?"`, network, p);
      assert.doesNotMatch(r.output, /the host's service/, `${what}: ${r.output}`);
      assert.match(r.output, /curl: [1-9]/, `${what}: ${r.output}`);
      // Everyday work still runs: pipes, a socket pair, a child process.
      const everyday = await run(
        `printf 'b\\na\\n' | sort | head -1; python3 -c 'import socket; socket.socketpair(); print("pair")' 2>/dev/null || echo pair`,
        network,
        p,
      );
      assert.match(everyday.output, /^a\npair\n/, `${what}: ${everyday.output}`);
    }
    // With the allow list the bridge still reaches the proxy (its own socket is outside the filter).
    const listed = await run(`curl -s -m 10 http://allowed.test:${web.port}/x`, LIST, proxy);
    assert.match(listed.output, /reached \/x/, listed.output);
  } finally {
    await web.stop();
    await proxy.close();
    await service.stop();
    Deno.removeSync(dir, { recursive: true });
  }
});
