/**
 * The extension's config without pi: the files read again when they change, a project config's
 * trust asked about once per text and pinned, the start-up report, and where approvals go.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  approvalFile,
  cwdPolicy,
  keepAccepted,
  newExtensionConfig,
  projectTrust,
  settleProjectTrust,
  startupReport,
  trustText,
  viewOf,
} from "./extension_config.ts";
import { realFs } from "./policy/fs_facts.ts";
import { pinnedHash } from "./trust.ts";
import type { Context } from "./types.ts";

const GLOBAL = {
  policies: {
    g: { defaultAction: "allow", rules: [{ action: "deny", tool: "bash", pattern: "touch *" }] },
  },
  locations: { "/": "g" },
};
/** A project config that would loosen the global deny. */
const LOOSE = { policies: { g: { defaultAction: "allow", rules: [] } } };

function tree() {
  const home = mkdtempSync(join(tmpdir(), "pi-controls-extconfig-"));
  const agentDir = join(home, ".pi", "agent");
  const project = join(home, "project");
  const globalFile = join(agentDir, "extensions", "pi-controls.jsonc");
  const projectFile = join(project, ".pi", "extensions", "pi-controls.jsonc");
  mkdirSync(join(agentDir, "extensions"), { recursive: true });
  mkdirSync(join(project, ".pi", "extensions"), { recursive: true });
  const logged: Record<string, unknown>[] = [];
  const config = newExtensionConfig({ home, agentDir, log: (e) => logged.push(e) });
  const ctx = (cwd: string): Context => ({ cwd, home, env: { HOME: home }, fs: realFs() });
  return { home, agentDir, project, globalFile, projectFile, config, logged, ctx };
}

Deno.test("config: the files are read again when they change, appear or go away", () => {
  const t = tree();
  assert.equal(viewOf(t.config, t.project).load.status, "absent");
  assert.equal(cwdPolicy(t.config, t.project, t.ctx(t.project)), "unconfigured");
  writeFileSync(t.globalFile, JSON.stringify(GLOBAL));
  assert.equal(cwdPolicy(t.config, t.project, t.ctx(t.project)), "g");
  const first = viewOf(t.config, t.project);
  assert.equal(viewOf(t.config, t.project), first, "unchanged files: the same view");
  writeFileSync(t.globalFile, JSON.stringify({ ...GLOBAL, locations: { "/nowhere": "g" } }));
  assert.equal(cwdPolicy(t.config, t.project, t.ctx(t.project)), "unrestricted");
  writeFileSync(t.globalFile, "{ nope");
  assert.equal(viewOf(t.config, t.project).load.status, "error");
  assert.equal(cwdPolicy(t.config, t.project, t.ctx(t.project)), "config error");
  rmSync(t.globalFile);
  assert.equal(cwdPolicy(t.config, t.project, t.ctx(t.project)), "unconfigured");
});

Deno.test("config: the start-up report of an absent, a broken and a loaded config", () => {
  const t = tree();
  const absent = startupReport(t.config, viewOf(t.config, t.project));
  assert.deepEqual(absent.line, { loaded: "0 policies, 0 locations, defaultPolicy=null" });
  assert.equal(absent.notes.length, 1);
  assert.equal(absent.notes[0].type, "warning");
  assert.match(absent.notes[0].message, /~\/\.pi\/agent\/extensions\/pi-controls\.jsonc/);
  writeFileSync(t.globalFile, "{ nope");
  const broken = startupReport(t.config, viewOf(t.config, t.project));
  assert.match((broken.line.errors as string[])[0], /pi-controls\.jsonc:1:\d+: /);
  assert.equal(broken.notes[0].type, "error");
  assert.match(broken.notes[0].message, /^pi-controls: config error — every tool call is blocked/);
  writeFileSync(t.globalFile, JSON.stringify({ ...GLOBAL, defaultPolicy: "g" }));
  const ok = startupReport(t.config, viewOf(t.config, t.project));
  assert.deepEqual(ok.line, { loaded: "1 policies, 1 locations, defaultPolicy=g" });
  assert.deepEqual(ok.notes, []);
});

Deno.test("config: a project config that only tightens needs no trust", () => {
  const t = tree();
  writeFileSync(t.globalFile, JSON.stringify(GLOBAL));
  writeFileSync(t.projectFile, JSON.stringify({ pathProtection: { "~/.ssh/**": "deny" } }));
  const v = viewOf(t.config, t.project);
  let asked = 0;
  const folder = () => (asked++, false);
  assert.equal(projectTrust(t.config, v, folder), true);
  assert.equal(asked, 0, "the folder's trust is not asked for");
  assert.match(trustText(t.config, v, folder)!, /: only tightens$/);
});

Deno.test("config: an untrusted folder's project config only tightens", () => {
  const t = tree();
  writeFileSync(t.globalFile, JSON.stringify(GLOBAL));
  writeFileSync(t.projectFile, JSON.stringify(LOOSE));
  const v = viewOf(t.config, t.project);
  assert.equal(projectTrust(t.config, v, () => false), false);
  assert.match(trustText(t.config, v, () => false)!, /: not trusted, it can only tighten/);
  assert.equal(pinnedHash(t.agentDir, t.project), undefined, "nothing pinned");
});

Deno.test("config: a trusted folder's first config is pinned; a changed one is asked about once", () => {
  const t = tree();
  writeFileSync(t.globalFile, JSON.stringify(GLOBAL));
  writeFileSync(t.projectFile, JSON.stringify(LOOSE));
  const trusted = () => true;
  const v = viewOf(t.config, t.project);
  assert.equal(projectTrust(t.config, v, trusted), true);
  assert.equal(pinnedHash(t.agentDir, t.project), v.project!.hash);
  assert.match(trustText(t.config, v, trusted)!, /: trusted, merged over the global config$/);

  writeFileSync(t.projectFile, JSON.stringify({ ...LOOSE, defaultPolicy: "g" }));
  const changed = viewOf(t.config, t.project);
  const question = projectTrust(t.config, changed, trusted);
  assert.ok(typeof question === "object");
  assert.equal(question.project.hash, changed.project!.hash);
  assert.match(question.question, /changed since you last let it loosen .* Apply it\?$/);
  // While the user is asked, and once refused, it only tightens; the refusal is remembered.
  assert.equal(projectTrust(t.config, changed, trusted), false);
  assert.match(trustText(t.config, changed, trusted)!, /: not trusted/);
  settleProjectTrust(t.config, question.project, false);
  assert.equal(projectTrust(t.config, changed, trusted), false);
  assert.equal(pinnedHash(t.agentDir, t.project), v.project!.hash, "the old text stays pinned");

  // A fresh process asks again; accepted, the text is pinned.
  const again = newExtensionConfig({ home: t.home, agentDir: t.agentDir });
  const asked = projectTrust(again, viewOf(again, t.project), trusted);
  assert.ok(typeof asked === "object");
  settleProjectTrust(again, asked.project, true);
  assert.equal(projectTrust(again, viewOf(again, t.project), trusted), true);
  assert.equal(pinnedHash(t.agentDir, t.project), changed.project!.hash);
});

Deno.test("config: an approval the user saves keeps an accepted project config accepted", () => {
  const t = tree();
  writeFileSync(t.globalFile, JSON.stringify(GLOBAL));
  writeFileSync(t.projectFile, JSON.stringify(LOOSE));
  const before = viewOf(t.config, t.project).project;
  assert.equal(projectTrust(t.config, viewOf(t.config, t.project), () => true), true);
  writeFileSync(t.projectFile, JSON.stringify({ ...LOOSE, approvalRules: [] }));
  const after = viewOf(t.config, t.project).project;
  keepAccepted(t.config, before, after);
  assert.equal(projectTrust(t.config, viewOf(t.config, t.project), () => true), true);
  assert.equal(pinnedHash(t.agentDir, t.project), after!.hash);
});

Deno.test("config: a trust store that cannot be written is logged, not thrown", () => {
  const t = tree();
  writeFileSync(t.globalFile, JSON.stringify(GLOBAL));
  writeFileSync(t.projectFile, JSON.stringify(LOOSE));
  // The store's file is a directory: the pin fails.
  mkdirSync(join(t.agentDir, "extensions", "pi-controls-trust.json"));
  assert.equal(projectTrust(t.config, viewOf(t.config, t.project), () => true), true);
  assert.equal(t.logged[0].event, "pin-failed");
  assert.equal(t.logged[0].file, t.projectFile);
});

Deno.test("config: approvals go into the config file that exists, else where pi would find one", () => {
  const t = tree();
  assert.equal(approvalFile(t.config, "global", t.project), t.globalFile);
  assert.equal(approvalFile(t.config, "project", t.project), t.projectFile);
  const jsonFile = join(t.agentDir, "extensions", "pi-controls.json");
  writeFileSync(jsonFile, JSON.stringify(GLOBAL));
  assert.equal(approvalFile(t.config, "global", t.project), jsonFile);
});
