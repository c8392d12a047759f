/**
 * The sandbox's one way out to the network when its block lists allowed domains: a filtering
 * HTTP proxy that pi-controls runs outside the sandbox, on a unix socket in a private directory.
 * The sandbox has no network of its own (`--unshare-net`); a small bridge started inside it
 * (BRIDGE_SCRIPT, run by the same runtime as pi-controls) listens on 127.0.0.1 in the sandbox's
 * network namespace and carries each connection to the socket, after a line with the call's token.
 * The token says which call it is, and so which allow list applies and whom a refusal is told.
 *
 * The proxy speaks HTTP/1.x: `CONNECT host:port` (a tunnel, for HTTPS and anything else) and
 * requests in absolute form (`GET http://host/path`), each only to a host the call's list allows
 * (lib/policy/sandbox_network.ts); anything else gets 403 with a body that names the host and the
 * allow list. An absolute-form request whose `Host:` header names another host is refused too. It
 * checks where a connection goes, not what travels inside a tunnel. It runs in Node (inside pi)
 * and in Deno, uses node:net only, and never keeps the process alive.
 *
 * @module
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import process from "node:process";
import { hostAllowed, hostOf, isIpHost } from "./policy/sandbox_network.ts";

/**
 * The bridge, run inside the sandbox as `RUNTIME bridge.mjs SOCKET TOKEN`: it listens on an
 * ephemeral port of 127.0.0.1 (the sandbox's own loopback), prints the port once, and carries
 * every connection to the proxy's socket, first sending the token. Plain JavaScript for Node and
 * Deno alike.
 */
export const BRIDGE_SCRIPT = `import net from "node:net";
import process from "node:process";
const [socket, token] = process.argv.slice(-2);
const server = net.createServer({ allowHalfOpen: true }, (c) => {
  const u = net.createConnection({ path: socket, allowHalfOpen: true });
  u.write(token + "\\n");
  c.pipe(u);
  u.pipe(c);
  c.on("error", () => u.destroy());
  u.on("error", () => c.destroy());
  c.on("close", (failed) => failed && u.destroy());
  u.on("close", (failed) => failed && c.destroy());
});
server.listen(0, "127.0.0.1", () => process.stdout.write(server.address().port + "\\n"));
`;

/** What one sandboxed call may reach, and the hosts the proxy refused it. */
interface Call {
  allowed: readonly string[];
  refused: string[];
}

/** Options of startProxy. */
export interface ProxyOptions {
  /**
   * The address to connect to for an allowed host (tests map made-up names to 127.0.0.1); by
   * default the host itself, resolved by the system when the connection is made.
   */
  resolve?: (host: string) => string;
  /** How long a connection may take to send its request head (ms). */
  headTimeoutMs?: number;
}

/** A running proxy. */
export interface NetworkProxy {
  /** The private directory of the socket and the bridge script (bound into the sandbox). */
  dir: string;
  socket: string;
  /** The argv that starts the bridge for a token, for the runtime running pi-controls. */
  bridgeArgv(token: string): string[];
  /** Register a call's allow list; returns its token. */
  open(allowed: readonly string[]): string;
  /** The hosts refused to a call's connections so far (in order, each once). */
  refused(token: string): string[];
  /** Forget a call (its connections are refused from now on). */
  forget(token: string): void;
  close(): Promise<void>;
}

const MAX_HEAD = 64 * 1024;
const MAX_CALLS = 1024;
/** How many refused hosts a call keeps (to tell the model). */
const MAX_REFUSED = 50;

/** Start the proxy on a unix socket in a fresh private directory (mode 0700). */
export function startProxy(opts: ProxyOptions = {}): Promise<NetworkProxy> {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-net-"));
  chmodSync(dir, 0o700);
  const socket = join(dir, "proxy.sock");
  const script = join(dir, "bridge.mjs");
  writeFileSync(script, BRIDGE_SCRIPT, { mode: 0o500 });
  const calls = new Map<string, Call>();
  const open = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (client) => {
    open.add(client);
    client.on("close", () => open.delete(client));
    client.on("error", () => client.destroy());
    handle(client, calls, opts).catch(() => client.destroy());
  });
  return new Promise((resolve, reject) => {
    // (Where it cannot listen, its directory goes: Deno throws without the permission.)
    const fail = (e: unknown) => {
      rmSync(dir, { recursive: true, force: true });
      reject(e);
    };
    server.once("error", fail);
    try {
      server.listen(socket, () => {
        server.unref();
        resolve(proxyOf(server, open, calls, dir, socket, script));
      });
    } catch (e) {
      fail(e);
    }
  });
}

function proxyOf(
  server: Server,
  open: Set<Socket>,
  calls: Map<string, Call>,
  dir: string,
  socket: string,
  script: string,
): NetworkProxy {
  return {
    dir,
    socket,
    bridgeArgv: (token) => [...runtimeArgv(socket), script, socket, token],
    open(allowed) {
      if (calls.size >= MAX_CALLS) calls.delete(calls.keys().next().value!);
      const token = randomUUID();
      calls.set(token, { allowed: [...allowed], refused: [] });
      return token;
    },
    refused: (token) => [...(calls.get(token)?.refused ?? [])],
    forget: (token) => void calls.delete(token),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}

/** The runtime running pi-controls, as the start of a command line for a script. */
function runtimeArgv(socket: string): string[] {
  const exe = process.execPath;
  if (!("Deno" in globalThis)) return [exe];
  return [
    exe,
    "run",
    "--quiet",
    "--no-config",
    "--no-lock",
    // (All hosts: the sandbox has only its own loopback; Deno asks the net permission for a
    // unix socket too.)
    "--allow-net",
    `--allow-read=${socket}`,
    `--allow-write=${socket}`,
  ];
}

/** The request head of a connection: the token line, the request line and the headers. */
interface Head {
  token: string;
  method: string;
  target: string;
  headers: [string, string][];
  /** Bytes after the head (the start of a body, or of a tunnel). */
  rest: Uint8Array;
}

/** Read the token line and the request head (up to MAX_HEAD bytes), or null. */
function readHead(client: Socket, timeoutMs: number): Promise<Head | null> {
  return new Promise((resolve) => {
    let buf = new Uint8Array(0);
    const done = (h: Head | null) => {
      clearTimeout(timer);
      client.off("data", onData);
      client.off("end", onEnd);
      client.pause();
      resolve(h);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    const onEnd = () => done(null);
    const onData = (chunk: Uint8Array) => {
      const next = new Uint8Array(buf.length + chunk.length);
      next.set(buf);
      next.set(chunk, buf.length);
      buf = next;
      const text = new TextDecoder("latin1").decode(buf);
      const end = text.indexOf("\r\n\r\n");
      if (end < 0) {
        if (buf.length > MAX_HEAD) done(null);
        return;
      }
      done(parseHead(text.slice(0, end), buf.subarray(end + 4)));
    };
    client.on("data", onData);
    client.on("end", onEnd);
  });
}

function parseHead(text: string, rest: Uint8Array): Head | null {
  const nl = text.indexOf("\n");
  if (nl < 0) return null;
  const token = text.slice(0, nl);
  const lines = text.slice(nl + 1).split("\r\n");
  const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(lines[0]);
  if (!m) return null;
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    const h = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!h) return null; // (folded or malformed header lines are refused)
    headers.push([h[1], h[2]]);
  }
  return { token, method: m[1], target: m[2], headers, rest };
}

function reply(client: Socket, status: string, body: string): void {
  const bytes = new TextEncoder().encode(body);
  client.end(
    `HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${bytes.length}\r\nConnection: close\r\n\r\n${body}`,
  );
  // (Whatever the client still sends is read and dropped, so its end closes the socket.)
  client.setTimeout(10_000, () => client.destroy());
  client.resume();
}

/** The body of a refusal: the message a program, and so the model, sees. */
export function refusalText(host: string, allowed: readonly string[]): string {
  return `[pi-controls sandbox] The sandbox's network allow list refused ${host}: ` +
    `${allowed.length ? `only ${allowed.join(", ")} may be reached` : "no host may be reached"} ` +
    `(sandbox.network.allowedDomains in the pi-controls config). Ask the user if the task needs ` +
    `${host}.\n`;
}

/** Where a request goes: its host (hostOf's form) and port, or why it cannot be sent. */
type Target = { host: string; port: number; path?: string } | { error: string };

function targetOf(head: Head): Target {
  if (head.method === "CONNECT") {
    const m = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(head.target);
    const host = m ? hostOf(m[1]) : null;
    const port = m ? Number(m[2]) : 0;
    if (!host || port < 1 || port > 65535) return { error: `not a host:port: ${head.target}` };
    return { host, port };
  }
  let u: URL;
  try {
    u = new URL(head.target);
  } catch {
    return { error: "the proxy takes absolute http:// requests and CONNECT only" };
  }
  if (u.protocol !== "http:" || !/^http:\/\//i.test(head.target)) {
    return { error: `the proxy sends http:// requests only (use CONNECT for ${u.protocol})` };
  }
  const host = hostOf(u.hostname);
  if (!host) return { error: `not a host: ${u.hostname}` };
  const port = u.port ? Number(u.port) : 80;
  return { host, port, path: `${u.pathname}${u.search}` };
}

/** Why an absolute-form request's Host header does not name its host and port, or null. */
function hostHeaderProblem(head: Head, host: string, port: number): string | null {
  for (const [k, v] of head.headers) {
    if (k.toLowerCase() !== "host") continue;
    const hm = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(v);
    const hh = hm ? hostOf(hm[1]) : null;
    if (hh !== host || (hm?.[2] ? Number(hm[2]) : 80) !== port) {
      return `the Host header (${v}) is not the request's host (${host}:${port})`;
    }
  }
  return null;
}

/** One connection from a bridge: read its head, refuse or connect, then carry the bytes. */
async function handle(client: Socket, calls: Map<string, Call>, opts: ProxyOptions) {
  const head = await readHead(client, opts.headTimeoutMs ?? 30_000);
  if (!head) return void client.destroy();
  const call = calls.get(head.token);
  const target = targetOf(head);
  if ("error" in target) {
    return reply(client, "400 Bad Request", `[pi-controls sandbox] ${target.error}\n`);
  }
  if (!call || !hostAllowed(call.allowed, target.host)) {
    if (call && !call.refused.includes(target.host) && call.refused.length < MAX_REFUSED) {
      call.refused.push(target.host);
    }
    return reply(client, "403 Forbidden", refusalText(target.host, call?.allowed ?? []));
  }
  const fronted = target.path === undefined
    ? null
    : hostHeaderProblem(head, target.host, target.port);
  if (fronted) return reply(client, "400 Bad Request", `[pi-controls sandbox] ${fronted}\n`);
  const address = opts.resolve?.(target.host) ??
    (isIpHost(target.host) ? target.host.replace(/^\[(.*)\]$/, "$1") : target.host);
  const upstream = createConnection({ host: address, port: target.port, allowHalfOpen: true });
  upstream.setTimeout(30_000, () => upstream.destroy(new Error("timed out")));
  let connected = false;
  // (A normal end is carried by the pipes, after what is buffered is written.)
  client.on("close", () => upstream.destroy());
  upstream.on("close", (failed) => failed && connected && client.destroy());
  upstream.on("error", (e) => {
    if (!connected) {
      reply(
        client,
        "502 Bad Gateway",
        `[pi-controls sandbox] ${target.host}:${target.port}: ${e.message}\n`,
      );
    } else client.destroy();
  });
  upstream.once("connect", () => {
    connected = true;
    upstream.setTimeout(0);
    if (target.path === undefined) client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    else upstream.write(originForm(head, target.path, target.host, target.port));
    if (head.rest.length) upstream.write(head.rest);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  });
}

/** An absolute-form request's head as the origin server gets it: its path, Host, no keep-alive. */
function originForm(head: Head, path: string, host: string, port: number): string {
  const drop = new Set([
    "host",
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authorization",
  ]);
  const lines = [
    `${head.method} ${path} HTTP/1.1`,
    `Host: ${port === 80 ? host : `${host}:${port}`}`,
  ];
  for (const [k, v] of head.headers) if (!drop.has(k.toLowerCase())) lines.push(`${k}: ${v}`);
  lines.push("Connection: close");
  return lines.join("\r\n") + "\r\n\r\n";
}
