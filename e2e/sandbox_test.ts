/**
 * End-to-end: the sandbox in the real pi (1.6.0 and 0.73.1, print mode). The scripted model runs
 * a script the static gate cannot see into (`bash ./run.sh`) and `git status` under a user's
 * `~/.gitconfig` whose `core.fsmonitor` hook writes outside the project (the gate judges the
 * repository's own config, not the user's: README "Known limits"). The config sandboxes the project's
 * bash calls and lets pi's write tool write the project: the writes in the project happen, the
 * write to a read-only zone, the read of `~/.ssh/id_rsa` and the hook's write outside fail at the
 * OS level, and the model is told what the sandbox stopped.
 *
 * Needs bubblewrap: ignored where it cannot start, unless PI_CONTROLS_SANDBOX=required (CI).
 * `PI_CONTROLS_SKIP_E2E=1` skips the suite.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import type { PiLine } from "../scripts/ensure_pi.ts";
import { sandboxProbe } from "../lib/sandbox_runner.ts";
import { call, lastToolResults, text } from "./model_server.ts";
import { readLog, requirePis, runPrint, SKIP_E2E, withPi } from "./pi.ts";

requirePis();

const probe = sandboxProbe();
const ignore = SKIP_E2E || (!probe.ok && process.env.PI_CONTROLS_SANDBOX !== "required");

const CONFIG = JSON.stringify({
  policies: {
    project: {
      defaultAction: "sandbox",
      rules: [{ action: "allow", tool: "write" }, { action: "allow", tool: "edit" }],
    },
    outside: { defaultAction: "ask", rules: [] },
  },
  locations: { "/": "outside", "~/project": "project" },
  pathProtection: { "~/.ssh/**": "deny" },
  sandbox: { enabled: true },
});

for (const pi of ["1.x", "0.73"] as PiLine[]) {
  Deno.test({
    name: `e2e sandbox (pi ${pi}): a sandboxed script and a git fsmonitor hook are held by the OS`,
    ignore,
    fn: async () => {
      const script = [
        call("bash", { command: "bash ./run.sh" }),
        call("bash", { command: "git status --short" }),
        text("Done."),
      ];
      await withPi({ script, globalConfig: CONFIG, pi }, async (h) => {
        const zone = join(h.root, "zone");
        mkdirSync(zone);
        mkdirSync(join(h.home, ".ssh"));
        writeFileSync(join(h.home, ".ssh", "id_rsa"), "PRIVATE KEY\n");
        writeFileSync(
          join(h.cwd, "run.sh"),
          `echo built > out.txt\necho pwned > ${zone}/x\ncat ~/.ssh/id_rsa\necho finished\n`,
        );
        const hook = join(h.root, "fsmonitor.sh");
        writeFileSync(hook, `#!/bin/sh\necho ran > ${h.cwd}/hook-ran\necho pwned > ${zone}/hook\n`);
        chmodSync(hook, 0o755);
        // (In the user's own config, which pi's bash reads: HOME is the harness's home.)
        const env = { ...process.env, HOME: h.home };
        for (const args of [["init", "-q"], ["config", "--global", "core.fsmonitor", hook]]) {
          assert.equal(spawnSync("git", args, { cwd: h.cwd, env }).status, 0);
        }
        const r = await runPrint(h, "Build, then look at git.");
        assert.equal(r.code, 0, r.stderr);
        // Inside the project: written. Elsewhere: stopped by the OS.
        assert.equal(readFileSync(join(h.cwd, "out.txt"), "utf8"), "built\n");
        assert.ok(existsSync(join(h.cwd, "hook-ran")), "the fsmonitor hook did not run");
        assert.ok(!existsSync(join(zone, "x")), "the script wrote the read-only zone");
        assert.ok(!existsSync(join(zone, "hook")), "the hook wrote outside the project");
        const results = lastToolResults(h.server);
        const first = results.get("call_1") ?? "";
        assert.ok(!first.includes("PRIVATE KEY"), first);
        assert.match(first, /finished/);
        assert.match(
          first,
          new RegExp(
            `\\[pi-controls sandbox\\] The OS sandbox stopped a write to ${zone}/x \\(read-only: ` +
              `policy "outside" does not allow write there\\)`,
          ),
        );
        assert.match(first, /a read of .*\.ssh\/id_rsa \(hidden: pathProtection "~\/\.ssh\/\*\*"/);
        assert.match(results.get("call_2") ?? "", /stopped a write to .*zone\/hook/);
        const log = readLog(h);
        const decided = log.filter((l) => l.event === "decision");
        assert.deepEqual(decided.map((d) => d.action), ["sandbox", "sandbox"]);
        // The log keeps the command as the agent wrote it.
        assert.equal(decided[0].command, "bash ./run.sh");
        assert.equal(log.filter((l) => l.event === "sandboxed").length, 2);
        assert.ok(log.some((l) => l.event === "sandbox-stopped"));
      });
    },
  });
}

Deno.test({
  name: "e2e sandbox (pi 1.x): where bubblewrap cannot start, pi says so at start-up and it asks",
  ignore: SKIP_E2E,
  fn: async () => {
    const script = [call("bash", { command: "echo hi > made.txt" }), text("Tried.")];
    await withPi({ script, globalConfig: CONFIG }, async (h) => {
      // A bwrap that fails as it does without user namespaces, first on pi's PATH.
      const bin = join(h.root, "bin");
      mkdirSync(bin);
      writeFileSync(
        join(bin, "bwrap"),
        "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n",
      );
      chmodSync(join(bin, "bwrap"), 0o755);
      const path = process.env.PATH;
      process.env.PATH = `${bin}:${path}`;
      try {
        const r = await runPrint(h, "Make a file.");
        assert.equal(r.code, 0, r.stderr);
        assert.match(
          r.stderr,
          /pi-controls: the sandbox cannot start: bubblewrap cannot start here \(bwrap: No permissions to create new namespace\)/,
        );
        // It asks, and in print mode nobody can answer: blocked.
        assert.ok(!existsSync(join(h.cwd, "made.txt")), "the call ran unsandboxed");
        assert.match(lastToolResults(h.server).get("call_1") ?? "", /nobody could give it/);
      } finally {
        process.env.PATH = path;
      }
    });
  },
});

for (const pi of ["1.x", "0.73"] as PiLine[]) {
  Deno.test({
    name: `e2e sandbox (pi ${pi}): a network allow list lets curl reach a listed host only`,
    ignore,
    fn: async () => {
      // Two names of one server on the host: "localhost" is listed, "127.0.0.1" is not.
      const ac = new AbortController();
      const srv = Deno.serve(
        { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen() {} },
        (r) => new Response(`reached ${new URL(r.url).pathname}\n`),
      );
      const p = srv.addr.port;
      // (NO_PROXY names the sandbox's own loopback: unset, the proxy is asked for both names.)
      const viaProxy = "env -u NO_PROXY -u no_proxy curl -sS";
      const command = [
        `${viaProxy} http://localhost:${p}/listed`,
        `${viaProxy} http://127.0.0.1:${p}/unlisted`,
        `curl -sS -m 5 --noproxy '*' http://127.0.0.1:${p}/direct || echo direct-failed`,
      ].join("; ");
      const config = JSON.parse(CONFIG);
      config.sandbox.network = { allowedDomains: ["localhost"] };
      const script = [call("bash", { command }), text("Done.")];
      try {
        await withPi({ script, globalConfig: JSON.stringify(config), pi }, async (h) => {
          const r = await runPrint(h, "Fetch.");
          assert.equal(r.code, 0, r.stderr);
          const result = lastToolResults(h.server).get("call_1") ?? "";
          assert.match(result, /reached \/listed\n/);
          assert.match(
            result,
            /\[pi-controls sandbox\] The sandbox's network allow list refused 127\.0\.0\.1: only localhost may be reached \(sandbox\.network\.allowedDomains/,
          );
          assert.match(result, /direct-failed/);
          assert.doesNotMatch(result, /reached \/(unlisted|direct)/);
          // Told after the result, too.
          assert.match(
            result,
            /allow list refused 127\.0\.0\.1: only localhost may be reached, by programs/,
          );
        });
      } finally {
        ac.abort();
        await srv.finished;
      }
    },
  });
}
