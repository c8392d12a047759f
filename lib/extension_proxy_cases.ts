/**
 * The extension with a network allow list, against a fake pi, bubblewrap and curl for real: the
 * proxy starts at the first call that needs it, what it refused is told to the model and shown,
 * and it stops with the session. Run by lib/sandbox_proxy_test.ts with the permission Deno asks
 * for a unix socket.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { sandboxProbe } from "./sandbox_runner.ts";
import { type NetworkProxy, startProxy } from "./sandbox_proxy.ts";
import { CONFIG, setup } from "./testing_extension_sandbox.ts";

const real = sandboxProbe();
const required = Deno.env.get("PI_CONTROLS_SANDBOX") === "required";

Deno.test({
  name: "extension: with an allow list, the proxy starts at the first call, refusals are told, " +
    "and it stops with the session",
  ignore: !real.ok && !required,
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
