/**
 * The extension's trust boundary against a fake pi API: the gate's own files, project trust and
 * pinning, config edits applied at the next call, failures shown once.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExtension, type PiApi, type PiContext } from "./extension.ts";

type Block = { block: true; reason: string } | undefined;

const GLOBAL = {
  policies: {
    g: {
      defaultAction: "allow",
      rules: [{ action: "deny", tool: "bash", pattern: "touch *" }],
    },
  },
  locations: { "/": "g" },
};
/** A project config that would loosen the global deny. */
const LOOSE = { policies: { g: { defaultAction: "allow", rules: [] } } };

function setup(opts: { project?: object; trusted?: boolean } = {}) {
  const home = mkdtempSync(join(tmpdir(), "pi-controls-trust-"));
  const agent = join(home, ".pi", "agent");
  const project = join(home, "project");
  const globalFile = join(agent, "extensions", "pi-controls.jsonc");
  const projectFile = join(project, ".pi", "extensions", "pi-controls.jsonc");
  mkdirSync(join(agent, "extensions"), { recursive: true });
  mkdirSync(join(project, ".pi", "extensions"), { recursive: true });
  writeFileSync(globalFile, JSON.stringify(GLOBAL));
  if (opts.project) writeFileSync(projectFile, JSON.stringify(opts.project));
  const handlers = new Map<string, (e: never, c: PiContext) => unknown>();
  const pi: PiApi = {
    on: (n, h) => handlers.set(n, h),
    registerCommand: () => {},
  };
  createExtension(pi, { env: { HOME: home } });
  const notes: { text: string; type?: string }[] = [];
  const asked: { title: string; options: string[] }[] = [];
  let answer = "Deny";
  let trusted = opts.trusted;
  const ctx = (): PiContext => ({
    cwd: project,
    hasUI: true,
    ...(trusted === undefined ? {} : { isProjectTrusted: () => trusted === true }),
    ui: {
      notify: (text, type) => notes.push({ text, type }),
      select: (title, options) => {
        asked.push({ title, options });
        return Promise.resolve(answer);
      },
      setStatus: () => {},
    },
  });
  handlers.get("session_start")!({} as never, ctx());
  let n = 0;
  const tool = (toolName: string, input: Record<string, unknown>) =>
    handlers.get("tool_call")!(
      { toolName, toolCallId: `c${n++}`, input } as never,
      ctx(),
    ) as Promise<Block>;
  return {
    home,
    agent,
    project,
    globalFile,
    projectFile,
    notes,
    asked,
    tool,
    bash: (command: string) => tool("bash", { command }),
    answer: (a: string) => answer = a,
    trust: (t: boolean) => trusted = t,
    start: () => handlers.get("session_start")!({} as never, ctx()),
  };
}

Deno.test("extension: the gate's own files are asked about with only 'Allow once' and 'Deny'", async () => {
  const t = setup();
  t.answer("Allow once");
  assert.equal(await t.tool("write", { path: t.globalFile, content: "{}" }), undefined);
  assert.deepEqual(t.asked.at(-1)?.options, ["Allow once", "Deny"]);
  t.answer("Deny");
  const blocked = await t.bash(`echo '{}' > ${t.projectFile}`);
  assert.ok(blocked?.block);
  assert.deepEqual(t.asked.at(-1)?.options, ["Allow once", "Deny"]);
  // Allowing once does not allow the next time.
  t.answer("Allow once");
  await t.tool("edit", { path: t.globalFile });
  const before = t.asked.length;
  await t.tool("edit", { path: t.globalFile });
  assert.equal(t.asked.length, before + 1);
  // Reading them is the policy's business: allowed without a question.
  const asked = t.asked.length;
  assert.equal(await t.tool("read", { path: t.globalFile }), undefined);
  assert.equal(t.asked.length, asked);
});

Deno.test("extension: an untrusted project config only tightens; trusted, it merges (pi 1.x)", async () => {
  const untrusted = setup({ project: LOOSE, trusted: false });
  const denied = await untrusted.bash("touch x");
  assert.ok(denied?.block, "the untrusted project loosened the global deny");
  assert.match(denied!.reason, /touch \*/);
  const trusted = setup({ project: LOOSE, trusted: true });
  assert.equal(await trusted.bash("touch x"), undefined);
  // A project that only tightens applies untrusted too.
  const tight = setup({
    project: { pathProtection: { "secret.txt": "deny" } },
    trusted: false,
  });
  assert.ok((await tight.tool("read", { path: "secret.txt" }))?.block);
});

Deno.test("extension: pi 0.7x (no isProjectTrusted) uses pi-controls' trust store", async () => {
  const t = setup({ project: LOOSE });
  assert.ok((await t.bash("touch x"))?.block);
  writeFileSync(
    join(t.agent, "extensions", "pi-controls-trust.json"),
    JSON.stringify({ version: 1, folders: { [t.project]: { trusted: true } } }),
  );
  assert.equal(await t.bash("touch x"), undefined);
});

Deno.test("extension: a trusted project's config is pinned; a loosening change asks once", async () => {
  const t = setup({ project: LOOSE, trusted: true });
  assert.equal(await t.bash("touch x"), undefined);
  const store = JSON.parse(
    readFileSync(join(t.agent, "extensions", "pi-controls-trust.json"), "utf8"),
  );
  assert.ok(Object.values(store.folders).some((f) => (f as { pinned?: string }).pinned));
  // A git pull brings a new project config: the user is asked; refusing keeps it tightening only.
  writeFileSync(t.projectFile, JSON.stringify({ ...LOOSE, defaultPolicy: "g" }));
  t.answer("Let it only tighten my policy");
  assert.ok((await t.bash("touch y"))?.block);
  assert.match(t.asked.at(-1)!.title, /changed since you last let it loosen/);
  assert.match(t.asked.at(-1)!.title, /policies \(1\), defaultPolicy/);
  const count = t.asked.length;
  assert.ok((await t.bash("touch z"))?.block);
  assert.equal(t.asked.length, count, "asked twice about the same content");
  // Another change, accepted this time: it applies, and stays accepted.
  writeFileSync(t.projectFile, JSON.stringify({ ...LOOSE, agentTimeout: null }));
  t.answer("Apply the changed project config");
  assert.equal(await t.bash("touch w"), undefined);
  assert.equal(await t.bash("touch v"), undefined);
});

Deno.test("extension: config edits apply at the next call; a broken edit fails closed until fixed", async () => {
  const t = setup();
  assert.equal(await t.tool("write", { path: "a.txt", content: "x" }), undefined);
  writeFileSync(
    t.globalFile,
    JSON.stringify({
      ...GLOBAL,
      policies: { g: { defaultAction: "allow", rules: [{ action: "deny", tool: "write" }] } },
    }),
  );
  assert.ok((await t.tool("write", { path: "a.txt", content: "x" }))?.block);
  writeFileSync(t.globalFile, '{ "policies": { "g": ');
  const broken = await t.tool("read", { path: "a.txt" });
  assert.ok(broken?.block);
  assert.ok(broken!.reason.includes(`${t.globalFile}:1:`), broken!.reason);
  writeFileSync(t.globalFile, JSON.stringify(GLOBAL));
  assert.equal(await t.tool("read", { path: "a.txt" }), undefined);
  // A project config that appears mid-session applies at once (it tightens).
  writeFileSync(t.projectFile, JSON.stringify({ pathProtection: { "a.txt": "deny" } }));
  assert.ok((await t.tool("read", { path: "a.txt" }))?.block);
});

Deno.test("extension: a log that cannot be written is shown once, and calls are still decided", async () => {
  const t = setup();
  const log = join(t.agent, "extensions", "pi-controls.log");
  // A directory where the log file should be: appending fails whoever runs the test.
  rmSync(log, { force: true });
  mkdirSync(log, { recursive: true });
  assert.ok((await t.bash("touch a"))?.block);
  assert.ok((await t.bash("touch b"))?.block);
  const shown = t.notes.filter((n) => n.text.includes("cannot write the decision log"));
  assert.equal(shown.length, 1);
  assert.equal(shown[0].type, "error");
});
