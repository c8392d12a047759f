/**
 * The network allow list's tests, each file run in a Deno of its own with every permission: Deno
 * asks for the network permission of a unix socket's exact path (`--allow-net=unix:/path`), which
 * a run allowed only 127.0.0.1 cannot name before the proxy makes its private directory. The files:
 * the proxy spoken to on its socket (sandbox_proxy_cases.ts), bubblewrap and curl through it
 * (sandbox_allowlist_cases.ts), and the extension that starts and stops it
 * (extension_proxy_cases.ts). Needs --allow-run; what the cases print is shown when one fails.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startProxy } from "./sandbox_proxy.ts";

const CASES = ["sandbox_proxy_cases.ts", "sandbox_allowlist_cases.ts", "extension_proxy_cases.ts"];

for (const file of CASES) {
  Deno.test(`network allow list: ${file}`, async () => {
    const path = fileURLToPath(new URL(file, import.meta.url));
    const child = spawn(Deno.execPath(), ["test", "--allow-all", "--no-check", path], {
      env: { ...Deno.env.toObject(), NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => output += d);
    child.stderr.on("data", (d) => output += d);
    const code = await new Promise<number | null>((r) => child.on("close", r));
    assert.equal(code, 0, output);
    // Some ran, or every one was ignored because the sandbox cannot start here (the Nix build
    // has no bubblewrap; CI's own run sets PI_CONTROLS_SANDBOX=required, so they cannot be).
    const summary = output.match(/\nok \| (\d+) passed \| 0 failed(?: \| (\d+) ignored)?/);
    assert.ok(summary && Number(summary[1]) + Number(summary[2] ?? 0) > 0, output);
    assert.doesNotMatch(output, /FAILED/, output);
  });
}

Deno.test("network allow list: a proxy that cannot listen leaves no directory behind", async () => {
  // (Under this run's permissions Deno refuses the unix socket; with them, it starts and stops.)
  const tmp = Deno.makeTempDirSync({ prefix: "pi-controls-proxy-tmp-" });
  const before = Deno.env.get("TMPDIR");
  Deno.env.set("TMPDIR", tmp);
  try {
    const proxy = await startProxy().catch(() => null);
    await proxy?.close();
    assert.deepEqual([...Deno.readDirSync(tmp)], []);
  } finally {
    if (before === undefined) Deno.env.delete("TMPDIR");
    else Deno.env.set("TMPDIR", before);
    Deno.removeSync(tmp, { recursive: true });
  }
});
