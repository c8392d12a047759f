import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configWatcher, effectiveConfig } from "./config_view.ts";

function tree() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-controls-view-")));
  const home = join(root, "home");
  const agentDir = join(home, ".pi", "agent");
  const project = join(home, "p");
  const sub = join(project, "sub");
  mkdirSync(join(agentDir, "extensions"), { recursive: true });
  mkdirSync(join(sub, "deep"), { recursive: true });
  const globalFile = join(agentDir, "extensions", "pi-controls.jsonc");
  writeFileSync(globalFile, `{ "policies": { "g": { "defaultAction": "deny", "rules": [] } } }`);
  return { root, home, agentDir, project, sub, globalFile };
}

const LOOSE = `{ "policies": { "g": { "defaultAction": "allow", "rules": [] } } }`;

Deno.test("config view: read once, again only when a file changes, appears or goes away", () => {
  const t = tree();
  try {
    const w = configWatcher({ home: t.home, agentDir: t.agentDir });
    const cwd = join(t.sub, "deep");
    const first = w.current(cwd);
    assert.equal(first.load.status, "ok");
    assert.equal(first.project, null);
    assert.equal(w.current(cwd), first, "read again though nothing changed");
    // A project config appears above the cwd.
    const projectFile = join(t.project, ".pi", "extensions", "pi-controls.jsonc");
    mkdirSync(join(t.project, ".pi", "extensions"), { recursive: true });
    writeFileSync(projectFile, LOOSE);
    const withProject = w.current(cwd);
    assert.notEqual(withProject, first);
    assert.equal(withProject.project?.file, projectFile);
    assert.deepEqual(withProject.project?.loosens, ["policies (1)"]);
    assert.equal(withProject.base?.status, "ok");
    // A nearer one takes its place; removing it brings the outer one back.
    const nearer = join(t.sub, ".pi", "extensions", "pi-controls.json");
    mkdirSync(join(t.sub, ".pi", "extensions"), { recursive: true });
    writeFileSync(nearer, `{ "pathProtection": { ".env": "deny" } }`);
    assert.equal(w.current(cwd).project?.file, nearer);
    assert.deepEqual(w.current(cwd).project?.loosens, []);
    // The sandbox block switches the sandbox on, empty as well: it can loosen.
    writeFileSync(nearer, `{ "pathProtection": { ".env": "deny" }, "sandbox": {} }`);
    assert.deepEqual(w.current(cwd).project?.loosens, ["sandbox"]);
    rmSync(nearer);
    assert.equal(w.current(cwd).project?.file, projectFile);
    // An edit in place (same size) is seen.
    writeFileSync(
      t.globalFile,
      `{ "policies": { "g": { "defaultAction": "log!", "rules": [] } } }`,
    );
    assert.equal(w.current(cwd).load.status, "error");
    writeFileSync(t.globalFile, `{ "policies": { "g": { "defaultAction": "ask", "rules": [] } } }`);
    const fixed = w.current(cwd);
    assert.equal(fixed.load.status, "ok");
  } finally {
    rmSync(t.root, { recursive: true, force: true });
  }
});

Deno.test("config view: an untrusted project that can loosen is decided under the global too", () => {
  const t = tree();
  try {
    mkdirSync(join(t.project, ".pi", "extensions"), { recursive: true });
    writeFileSync(join(t.project, ".pi", "extensions", "pi-controls.jsonc"), LOOSE);
    const v = configWatcher({ home: t.home, agentDir: t.agentDir }).current(t.project);
    const untrusted = effectiveConfig(v, { trusted: false });
    assert.ok(untrusted?.base, "no global-alone config to hold the project to");
    assert.equal(untrusted.base.policies.g.defaultAction, "deny");
    assert.equal(untrusted.config.policies.g.defaultAction, "allow");
    assert.equal(effectiveConfig(v, { trusted: true })?.base, null);
    // With no global config there is nothing to loosen: the project applies as written.
    rmSync(t.globalFile);
    const alone = configWatcher({ home: t.home, agentDir: t.agentDir }).current(t.project);
    assert.equal(effectiveConfig(alone, { trusted: false })?.base, null);
  } finally {
    rmSync(t.root, { recursive: true, force: true });
  }
});

Deno.test("config view: an edit within the same tick of the file's clock, same size, is seen", () => {
  // A file rewritten twice within one tick of the kernel's file clock with the same size keeps
  // its stamp: the view re-reads it while its stamp is that recent (git's "racily clean").
  const t = tree();
  try {
    const w = configWatcher({ home: t.home, agentDir: t.agentDir });
    const deny = `{ "policies": { "g": { "defaultAction": "deny", "rules": [] } } }`;
    const asks = `{ "policies": { "g": { "defaultAction": "ask!", "rules": [] } } }`;
    assert.equal(deny.length, asks.length);
    for (let i = 0; i < 200; i++) {
      writeFileSync(t.globalFile, deny);
      const before = w.current(t.sub);
      assert.equal(before.load.status, "ok", `round ${i}: the first text`);
      writeFileSync(t.globalFile, asks);
      assert.equal(w.current(t.sub).load.status, "error", `round ${i}: the edit was not seen`);
    }
  } finally {
    rmSync(t.root, { recursive: true, force: true });
  }
});

Deno.test("an untrusted project may narrow the sandbox's network, never widen it", () => {
  const t = tree();
  try {
    const global = (network: string) =>
      writeFileSync(
        t.globalFile,
        `{ "policies": { "g": { "defaultAction": "deny", "rules": [] } }, ` +
          `"sandbox": { "network": ${network} } }`,
      );
    const projectFile = join(t.project, ".pi", "extensions", "pi-controls.jsonc");
    mkdirSync(join(t.project, ".pi", "extensions"), { recursive: true });
    const network = (g: string, p: string, trusted = false) => {
      global(g);
      writeFileSync(projectFile, `{ "sandbox": { "network": ${p} } }`);
      const v = configWatcher({ home: t.home, agentDir: t.agentDir }).current(t.project);
      return effectiveConfig(v, { trusted })?.config.sandbox?.network;
    };
    const list = (...hosts: string[]) => JSON.stringify({ allowedDomains: hosts });
    assert.equal(network('"none"', list("x.org")), "none");
    assert.deepEqual(network('"unrestricted"', list("x.org")), { allowedDomains: ["x.org"] });
    assert.deepEqual(network(list("x.org"), '"unrestricted"'), { allowedDomains: ["x.org"] });
    assert.equal(network(list("x.org"), '"none"'), "none");
    assert.deepEqual(
      network(list("*.github.com", "x.org"), list("api.github.com", "evil.org")),
      { allowedDomains: ["api.github.com"] },
    );
    // A trusted project's block is merged like the rest of the config: the later file wins.
    assert.equal(network(list("x.org"), '"unrestricted"', true), "unrestricted");
  } finally {
    rmSync(t.root, { recursive: true, force: true });
  }
});
