/** `pi-controls trust` and --trust-project: an untrusted project config only tightens. */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run, tempTree } from "./testing_cli.ts";

Deno.test("trust: an untrusted project config only tightens; trust, --trust-project and pinning", async () => {
  const t = tempTree();
  writeFileSync(
    join(t.agent, "extensions", "pi-controls.jsonc"),
    `{ "policies": { "g": { "defaultAction": "allow", "rules": [
        { "action": "deny", "tool": "bash", "pattern": "touch *" }] } },
      "locations": { "/": "g" } }`,
  );
  const projectFile = join(t.project, ".pi", "extensions", "pi-controls.jsonc");
  mkdirSync(join(t.project, ".pi", "extensions"), { recursive: true });
  writeFileSync(projectFile, `{ "policies": { "g": { "defaultAction": "allow", "rules": [] } } }`);
  const at = { home: t.home, cwd: t.project };
  const touch = ["--tool", "bash", "--input", '{"command":"touch x"}'];
  const action = async (...extra: string[]) =>
    JSON.parse((await run(["check", ...extra, ...touch], at)).out).action;
  assert.equal(await action(), "deny");
  assert.equal(await action("--trust-project"), "allow");
  const explained = await run(["explain", ...touch], at);
  assert.match(explained.out, /is not trusted/);
  assert.match(explained.out, /overruled: under it the call would be allow; .* alone it is deny/);
  // pi's own trust.json counts in the CLI.
  writeFileSync(join(t.agent, "trust.json"), JSON.stringify({ [t.project]: true }));
  assert.equal(await action(), "allow");
  writeFileSync(join(t.agent, "trust.json"), "{}");
  const trusted = await run(["trust"], at);
  assert.equal(trusted.code, 0);
  assert.match(trusted.out, /^trusted: .*\nproject config .* pinned/);
  assert.equal(await action(), "allow");
  // A later change that can loosen is not trusted until accepted again.
  writeFileSync(
    projectFile,
    `{ "policies": { "g": { "defaultAction": "allow", "rules": [] } }, "defaultPolicy": "g" }`,
  );
  const changed = await run(["check", ...touch], at);
  assert.equal(JSON.parse(changed.out).action, "deny");
  assert.match(changed.err, /changed since it was last accepted/);
  await run(["trust", t.project], at);
  assert.equal(await action(), "allow");
  const revoked = await run(["trust", "--revoke"], at);
  assert.match(revoked.out, /^not trusted/);
  assert.equal(await action(), "deny");
  // The agent cannot write the project config or the trust store without the user.
  const write = await run([
    "check",
    "--tool",
    "write",
    "--input",
    JSON.stringify({ path: join(t.agent, "extensions", "pi-controls-trust.json"), content: "{}" }),
  ], at);
  assert.equal(JSON.parse(write.out).action, "ask");
});

Deno.test("trust: a global config valid only with the project's policies fails closed untrusted", async () => {
  const t = tempTree();
  writeFileSync(
    join(t.agent, "extensions", "pi-controls.jsonc"),
    `{ "policies": { "base": { "defaultAction": "allow", "rules": [
        { "action": "deny", "tool": "bash", "pattern": "touch *" }] } },
      "locations": { "/": "base" },
      "approvalRules": [{ "action": "allow", "tool": "bash", "pattern": "git status *",
        "policy": "project" }] }`,
  );
  mkdirSync(join(t.project, ".pi", "extensions"), { recursive: true });
  writeFileSync(
    join(t.project, ".pi", "extensions", "pi-controls.jsonc"),
    `{ "policies": { "project": { "defaultAction": "allow", "rules": [] } },
      "locations": { "/": "project" } }`,
  );
  const at = { home: t.home, cwd: t.project };
  const touch = ["--tool", "bash", "--input", '{"command":"touch x"}'];
  const untrusted = JSON.parse((await run(["check", ...touch], at)).out);
  assert.equal(untrusted.action, "deny");
  assert.match(untrusted.reason, /pi-controls\.jsonc:\d+:\d+: .*policy "project" does not exist/);
  const trusted = JSON.parse((await run(["check", "--trust-project", ...touch], at)).out);
  assert.equal(trusted.action, "allow");
});
