/**
 * The sandbox's network proxy, spoken to directly on its socket as the bridge does (a token line,
 * then HTTP): what it lets through to a local server standing in for allowed hosts, and the
 * hostile requests it refuses (sandbox_allowlist_cases.ts runs it with bubblewrap and curl). Run
 * by lib/sandbox_proxy_test.ts with the permission Deno asks for a unix socket.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { BRIDGE_SCRIPT, type NetworkProxy, refusalText, startProxy } from "./sandbox_proxy.ts";

/** A server for every made-up name: it answers each request with its request line and Host. */
async function upstream(): Promise<{ server: Server; port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((c) => {
    let head = "";
    c.on("data", (d) => {
      head += d;
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      const lines = head.slice(0, end).split("\r\n");
      const host = lines.find((l) => /^host:/i.test(l)) ?? "(no host)";
      seen.push(`${lines[0]} | ${host}`);
      const body = `${lines[0]} | ${host}\n`;
      c.end(
        `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    c.on("error", () => {});
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, port: (server.address() as { port: number }).port, seen };
}

/**
 * Send raw bytes on the proxy's socket, after the token line; the whole answer. (Deno's own unix
 * socket: its node:net would need the network permission of the socket's path.)
 */
async function ask(proxy: NetworkProxy, token: string, request: string, then = "") {
  const conn = await Deno.connect({ transport: "unix", path: proxy.socket });
  const enc = new TextEncoder();
  await conn.write(enc.encode(`${token}\n${request}`));
  let out = "";
  const buf = new Uint8Array(65536);
  try {
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
      out += new TextDecoder().decode(buf.subarray(0, n));
      // A tunnel is open: send what goes through it.
      if (then && out.startsWith("HTTP/1.1 200 Connection Established\r\n\r\n")) {
        await conn.write(enc.encode(then));
        then = "";
      }
    }
  } catch { /* reset by the proxy */ }
  conn.close();
  return out;
}

async function withProxy(fn: (p: NetworkProxy, port: number, seen: string[]) => Promise<void>) {
  const up = await upstream();
  const proxy = await startProxy({ resolve: () => "127.0.0.1", headTimeoutMs: 2_000 });
  try {
    await fn(proxy, up.port, up.seen);
  } finally {
    await proxy.close();
    await new Promise((r) => up.server.close(r));
  }
  assert.ok(!existsSync(proxy.dir), "the proxy's directory is removed when it stops");
}

const LIST = ["allowed.com", "*.allowed.org", "10.0.0.5"];

Deno.test("proxy: CONNECT and absolute requests reach allowed hosts, as their own host", async () => {
  await withProxy(async (proxy, port, seen) => {
    const t = proxy.open(LIST);
    const get = await ask(
      proxy,
      t,
      `GET http://allowed.com:${port}/a?b HTTP/1.1\r\n` +
        `Host: allowed.com:${port}\r\nProxy-Connection: keep-alive\r\n\r\n`,
    );
    assert.match(
      get,
      /^HTTP\/1\.1 200 OK[\s\S]*GET \/a\?b HTTP\/1\.1 \| Host: allowed\.com:\d+\n$/,
    );
    const tunnel = await ask(
      proxy,
      t,
      `CONNECT api.allowed.org:${port} HTTP/1.1\r\nHost: api.allowed.org:${port}\r\n\r\n`,
      `GET /inside HTTP/1.1\r\nHost: api.allowed.org\r\n\r\n`,
    );
    assert.match(tunnel, /^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK/);
    assert.match(tunnel, /GET \/inside HTTP\/1\.1 \| Host: api\.allowed\.org/);
    // Upper case and a trailing dot are the same host.
    const upper = await ask(
      proxy,
      t,
      `CONNECT A.ALLOWED.ORG.:${port} HTTP/1.1\r\n\r\n`,
      "GET / HTTP/1.1\r\n\r\n",
    );
    assert.match(upper, /^HTTP\/1\.1 200 Connection Established/);
    const ip = await ask(proxy, t, `GET http://10.0.0.5:${port}/ HTTP/1.1\r\n\r\n`);
    assert.match(ip, /^HTTP\/1\.1 200 OK/);
    assert.equal(seen.length, 4);
    assert.deepEqual(proxy.refused(t), []);
  });
});

Deno.test("proxy: hostile requests get 403 naming the host, and nothing reaches the server", async () => {
  await withProxy(async (proxy, port, seen) => {
    const t = proxy.open(LIST);
    const refused: [string, string][] = [
      [`CONNECT evil.com:${port} HTTP/1.1\r\nHost: allowed.com:${port}\r\n\r\n`, "evil.com"],
      [`GET http://evil.com:${port}/ HTTP/1.1\r\nHost: evil.com\r\n\r\n`, "evil.com"],
      [`CONNECT allowed.com.evil.org:${port} HTTP/1.1\r\n\r\n`, "allowed.com.evil.org"],
      [`CONNECT evilallowed.org:${port} HTTP/1.1\r\n\r\n`, "evilallowed.org"],
      [`CONNECT allowed.org:${port} HTTP/1.1\r\n\r\n`, "allowed.org"],
      [`GET http://allowed.com@evil.com:${port}/ HTTP/1.1\r\n\r\n`, "evil.com"],
      [`CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`, "127.0.0.1"],
      [`GET http://2130706433:${port}/ HTTP/1.1\r\n\r\n`, "127.0.0.1"],
      [`CONNECT [::1]:${port} HTTP/1.1\r\n\r\n`, "[::1]"],
    ];
    for (const [request, host] of refused) {
      const answer = await ask(proxy, t, request);
      assert.match(answer, /^HTTP\/1\.1 403 Forbidden\r\n/, request);
      assert.ok(answer.endsWith(refusalText(host, LIST)), `${request}\n${answer}`);
      assert.match(answer, /network allow list refused/);
    }
    assert.deepEqual(proxy.refused(t), [
      "evil.com",
      "allowed.com.evil.org",
      "evilallowed.org",
      "allowed.org",
      "127.0.0.1",
      "[::1]",
    ]);
    // A Host header that names another host than the request's: refused (domain fronting).
    const fronted = await ask(
      proxy,
      t,
      `GET http://allowed.com:${port}/ HTTP/1.1\r\nHost: evil.com\r\n\r\n`,
    );
    assert.match(
      fronted,
      /^HTTP\/1\.1 400 [\s\S]*Host header \(evil\.com\) is not the request's host \(allowed\.com:\d+\)/,
    );
    const port2 = await ask(
      proxy,
      t,
      `GET http://allowed.com:${port}/ HTTP/1.1\r\nHost: allowed.com:1\r\n\r\n`,
    );
    assert.match(port2, /^HTTP\/1\.1 400 /);
    // What the proxy does not send: origin-form, https:// in absolute form, a bad CONNECT target.
    for (
      const request of [
        "GET / HTTP/1.1\r\nHost: allowed.com\r\n\r\n",
        `GET https://allowed.com:${port}/ HTTP/1.1\r\n\r\n`,
        "CONNECT allowed.com HTTP/1.1\r\n\r\n",
        "CONNECT allowed.com:99999 HTTP/1.1\r\n\r\n",
        "CONNECT allowed.com:443/x HTTP/1.1\r\n\r\n",
      ]
    ) {
      assert.match(await ask(proxy, t, request), /^HTTP\/1\.1 400 /, request);
    }
    // A folded header line, a head that never ends: the connection is closed unanswered.
    assert.equal(await ask(proxy, t, `GET http://allowed.com:${port}/ HTTP/1.1\r\n x\r\n\r\n`), "");
    assert.equal(await ask(proxy, t, `GET http://allowed.com:${port}/ HTTP/1.1\r\n`), "");
    assert.equal(seen.length, 0, seen.join("\n"));
  });
});

Deno.test("proxy: an unknown or forgotten token reaches nothing", async () => {
  await withProxy(async (proxy, port, seen) => {
    const t = proxy.open(["allowed.com"]);
    proxy.forget(t);
    for (const token of [t, "", "not-a-token"]) {
      const answer = await ask(proxy, token, `CONNECT allowed.com:${port} HTTP/1.1\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 403 [\s\S]*no host may be reached/);
    }
    // Each call has its own list.
    const a = proxy.open(["a.test"]);
    const b = proxy.open(["b.test"]);
    assert.match(await ask(proxy, a, `CONNECT b.test:${port} HTTP/1.1\r\n\r\n`), /^HTTP\/1\.1 403/);
    assert.match(
      await ask(proxy, b, `CONNECT b.test:${port} HTTP/1.1\r\n\r\n`, "GET / HTTP/1.1\r\n\r\n"),
      /200 OK/,
    );
    assert.deepEqual(proxy.refused(a), ["b.test"]);
    assert.deepEqual(proxy.refused(b), []);
    assert.equal(seen.length, 1);
  });
});

Deno.test("proxy: an allowed host that does not answer is a 502 naming it", async () => {
  await withProxy(async (proxy) => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r));
    const t = proxy.open(["allowed.com"]);
    assert.match(
      await ask(proxy, t, `CONNECT allowed.com:${port} HTTP/1.1\r\n\r\n`),
      new RegExp(`^HTTP/1\\.1 502 [\\s\\S]*allowed\\.com:${port}`),
    );
  });
});

Deno.test("proxy: the bridge runs with this runtime, and its script is plain JavaScript", async () => {
  const proxy = await startProxy();
  try {
    const argv = proxy.bridgeArgv("TOKEN");
    assert.equal(argv[0], Deno.execPath());
    assert.deepEqual(argv.slice(-3), [`${proxy.dir}/bridge.mjs`, proxy.socket, "TOKEN"]);
    assert.equal(Deno.readTextFileSync(`${proxy.dir}/bridge.mjs`), BRIDGE_SCRIPT);
    assert.equal(Deno.statSync(proxy.dir).mode! & 0o777, 0o700);
  } finally {
    await proxy.close();
  }
});
