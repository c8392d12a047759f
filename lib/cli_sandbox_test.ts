/** `pi-controls sandbox --print`, and `explain` showing the boundaries. */
import assert from "node:assert/strict";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run, tempTree } from "./testing_cli.ts";

function tree(sandbox: object | null) {
  const t = tempTree();
  const home = realpathSync(t.home);
  const project = realpathSync(t.project);
  mkdirSync(join(home, ".ssh"));
  writeFileSync(join(home, ".ssh", "id_rsa"), "k\n");
  writeFileSync(
    join(t.agent, "extensions", "pi-controls.jsonc"),
    JSON.stringify({
      policies: {
        project: { defaultAction: "sandbox", rules: [{ action: "allow", tool: "write" }] },
        outside: { defaultAction: "ask", rules: [] },
      },
      locations: { "/": "outside", "~/work/project": "project" },
      pathProtection: { "~/.ssh/**": "deny" },
      ...(sandbox ? { sandbox } : {}),
    }),
  );
  return { home, project };
}

Deno.test("sandbox --print: the boundaries for a cwd, and whether bubblewrap starts", async () => {
  const t = tree({ enabled: true, network: "none" });
  const env = { PATH: Deno.env.get("PATH") ?? "" };
  const r = await run(["sandbox", "--print"], { home: t.home, cwd: t.project, env });
  assert.equal(r.code, 0, r.err);
  assert.match(
    r.out,
    new RegExp(`writable:\\n {4}${t.project}/  \\(policy "project" allows write\\)`),
  );
  assert.match(r.out, new RegExp(`hidden \\(cannot be read\\):\\n {4}${t.home}/\\.ssh/  `));
  assert.match(r.out, /network: none/);
  assert.match(r.out, /bubblewrap: .* starts here|the sandbox cannot start here: /);
  const ex = await run(["explain", "--tool", "bash", "--input", '{"command":"make"}'], {
    home: t.home,
    cwd: t.project,
  });
  assert.match(ex.out, /verdict: sandbox \[project\]/);
  assert.match(ex.out, /sandbox boundaries \(bubblewrap\)/);
  // A check of a sandboxed call exits 0: it proceeds.
  const check = await run(["check", "--tool", "bash", "--input", '{"command":"make"}'], {
    home: t.home,
    cwd: t.project,
  });
  assert.equal(check.code, 0);
  assert.equal(JSON.parse(check.out).action, "sandbox");
});

Deno.test("sandbox --print and explain show the allowed domains", async () => {
  const t = tree({ network: { allowedDomains: ["registry.npmjs.org", "*.github.com"] } });
  const env = { PATH: Deno.env.get("PATH") ?? "" };
  const r = await run(["sandbox", "--print"], { home: t.home, cwd: t.project, env });
  assert.equal(r.code, 0, r.err);
  const net =
    /network: only through pi-controls' proxy, to registry\.npmjs\.org, \*\.github\.com\n/;
  assert.match(r.out, net);
  assert.match(
    r.out,
    /--unshare-net[\s\S]*with the allow list: pi starts pi-controls' proxy|cannot start/,
  );
  const ex = await run(["explain", "--tool", "bash", "--input", '{"command":"make"}'], {
    home: t.home,
    cwd: t.project,
  });
  assert.match(ex.out, net);
});

Deno.test("sandbox --print: without a sandbox block it says so; without --print it is a usage error", async () => {
  const t = tree(null);
  writeFileSync(
    join(t.home, ".pi", "agent", "extensions", "pi-controls.jsonc"),
    '{ "policies": { "p": { "defaultAction": "allow", "rules": [] } }, "locations": { "/": "p" } }',
  );
  const r = await run(["sandbox", "--print"], { home: t.home, cwd: t.project });
  assert.equal(r.code, 0);
  assert.match(r.out, /no enabled "sandbox" block: nothing runs sandboxed/);
  const u = await run(["sandbox"], { home: t.home, cwd: t.project });
  assert.equal(u.code, 2);
  assert.match(u.err, /sandbox needs --print/);
});
