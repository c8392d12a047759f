/**
 * The extension against a fake pi API: modes, /controls, the footer status, aborted turns,
 * parallel calls and failures inside the gate (the real pi runs in e2e/pi_test.ts).
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExtension, type PiContext } from "./extension.ts";
import { fakePi } from "./testing_pi.ts";

type Block = { block: true; reason: string } | undefined;

function setup(config: object) {
  const { agent, project, handlers, commands } = fakePi(config);
  const notes: { text: string; type?: string }[] = [];
  const status: (string | undefined)[] = [];
  let select: (
    title: string,
    options: string[],
    opts?: { signal?: AbortSignal },
  ) => Promise<string | undefined> = () => Promise.resolve("Deny");
  const ctx = (extra: Partial<PiContext> = {}): PiContext => ({
    cwd: project,
    hasUI: true,
    ui: {
      notify: (text, type) => notes.push({ text, type }),
      select: (t, o, opts) => select(t, o, opts),
      setStatus: (_k, text) => status.push(text),
    },
    ...extra,
  });
  handlers.get("session_start")!({} as never, ctx());
  const call = (command: string, extra: Partial<PiContext> = {}, id = "c") =>
    handlers.get("tool_call")!(
      { toolName: "bash", toolCallId: id, input: { command } } as never,
      ctx(extra),
    ) as Promise<Block>;
  const controls = (args: string) => commands.get("controls")!.handler(args, ctx());
  const log = () =>
    readFileSync(join(agent, "extensions", "pi-controls.log"), "utf8").trim().split("\n").map((l) =>
      JSON.parse(l)
    );
  return {
    handlers,
    commands,
    notes,
    status,
    ctx,
    call,
    controls,
    log,
    setSelect: (f: typeof select) => select = f,
  };
}

const CONFIG = {
  policies: {
    strict: {
      defaultAction: "allow",
      rules: [
        { action: "deny", tool: "bash", pattern: "rm *" },
        { action: "ask", tool: "bash", pattern: "git push *" },
      ],
    },
  },
  locations: { "~/project": "strict" },
};

Deno.test("the footer shows the mode and the policy of the cwd; /controls switches modes", async () => {
  const x = setup(CONFIG);
  assert.equal(x.status.at(-1), "controls: enforce · strict");
  const items = x.commands.get("controls")!.getArgumentCompletions!("in");
  assert.deepEqual(items?.map((i) => i.value), ["inform"]);
  await x.controls("inform");
  assert.equal(x.status.at(-1), "controls: inform · strict");
  const informed = await x.call("rm -rf build");
  assert.equal(informed, undefined, "inform mode blocks nothing");
  assert.ok(
    x.notes.some((n) =>
      n.text === 'pi-controls: would-deny [strict]: rm -rf build — pattern: "rm *"'
    ),
    JSON.stringify(x.notes),
  );
  await x.controls("ignore");
  const before = x.notes.length;
  assert.equal(await x.call("rm -rf build"), undefined);
  assert.equal(x.notes.length, before, "ignore mode evaluates nothing");
  await x.controls("enforce");
  assert.equal((await x.call("rm -rf build"))?.block, true);
  await x.controls("bogus");
  assert.match(x.notes.at(-1)!.text, /unknown mode "bogus"/);
});

Deno.test("/controls with no argument shows the config files, the cwd's policy and the last decisions", async () => {
  const x = setup(CONFIG);
  await x.call("rm -rf build");
  await x.controls("");
  const text = x.notes.at(-1)!.text;
  assert.match(text, /mode enforce/);
  assert.match(text, /pi-controls\.jsonc/);
  assert.match(text, /policy for .*project: strict/);
  assert.match(text, /deny bash rm -rf build/);
});

Deno.test("an aborted turn never lets an ask through", async () => {
  const x = setup(CONFIG);
  const controller = new AbortController();
  x.setSelect(() => {
    controller.abort();
    return Promise.resolve("Allow once");
  });
  const r = await x.call("git push origin main", { signal: controller.signal });
  assert.equal(r?.block, true);
  assert.match(r!.reason, /aborted/);
  const already = new AbortController();
  already.abort();
  const r2 = await x.call("git push origin main", { signal: already.signal });
  assert.equal(r2?.block, true);
});

Deno.test("a dialog that fails or is dismissed denies", async () => {
  const x = setup(CONFIG);
  x.setSelect(() => Promise.reject(new Error("no terminal")));
  assert.equal((await x.call("git push origin main"))?.block, true);
  x.setSelect(() => Promise.resolve(undefined));
  const r = await x.call("git push origin main");
  assert.equal(r?.block, true);
  assert.match(r!.reason, /The user denied it\.$/);
  assert.equal(x.log().filter((l) => l.event === "decision").at(-1).choice, "dismissed");
});

Deno.test("a failure inside the gate blocks the call instead of letting it through", async () => {
  const x = setup(CONFIG);
  const input = {
    get command(): string {
      throw new Error("boom");
    },
  };
  const r = await x.handlers.get("tool_call")!(
    { toolName: "bash", toolCallId: "t", input } as never,
    x.ctx(),
  ) as Block;
  assert.equal(r?.block, true);
  assert.match(r!.reason, /could not decide this call \(boom\)/);
});

Deno.test("parallel calls are each decided on their own; a deny among them stays a deny", async () => {
  const x = setup(CONFIG);
  const results = await Promise.all([
    x.call("ls", {}, "a"),
    x.call("rm -rf x", {}, "b"),
    x.call("git status", {}, "c"),
  ]);
  assert.deepEqual(results.map((r) => r?.block ?? false), [false, true, false]);
});

Deno.test("a log that cannot be written never breaks a tool call", async () => {
  const x = setup(CONFIG);
  const home = mkdtempSync(join(tmpdir(), "pi-controls-ext-nolog-"));
  const agent = join(home, ".pi", "agent");
  mkdirSync(join(agent, "extensions", "pi-controls.log"), { recursive: true }); // a directory: append fails
  writeFileSync(join(agent, "extensions", "pi-controls.jsonc"), JSON.stringify(CONFIG));
  const handlers = new Map<string, (e: never, c: PiContext) => unknown>();
  createExtension({ on: (n, h) => handlers.set(n, h), registerCommand: () => {} }, {
    env: { HOME: home },
  });
  mkdirSync(join(home, "project"), { recursive: true });
  const ctx = { ...x.ctx(), cwd: join(home, "project") };
  handlers.get("session_start")!({} as never, ctx);
  const r = await handlers.get("tool_call")!(
    { toolName: "bash", toolCallId: "z", input: { command: "rm -rf x" } } as never,
    ctx,
  ) as Block;
  assert.equal(r?.block, true);
  assert.equal(
    await handlers.get("tool_call")!(
      { toolName: "bash", toolCallId: "y", input: { command: "ls" } } as never,
      ctx,
    ),
    undefined,
  );
});

Deno.test("the dialog offers saving a command with no subcommand as itself, never a too-broad one", async () => {
  const ask = (pattern: string) => ({ action: "ask", tool: "bash", pattern });
  const t = setup({
    policies: {
      strict: {
        defaultAction: "allow",
        rules: [ask("touch *"), ask("curl *"), ask("rm *"), ask("sudo *"), ask("git push *")],
      },
    },
    locations: { "~/project": "strict" },
  });
  const offered = new Map<string, string[]>();
  let answer = "Deny";
  let asked = "";
  t.setSelect((_title, options) => {
    offered.set(asked, options);
    return Promise.resolve(answer);
  });
  const all = ["Allow once", "Allow for session", "Allow for Project", "Allow Globally", "Deny"];
  const offers = async (command: string) => {
    asked = command;
    offered.delete(command);
    await t.call(command);
    return offered.get(command);
  };
  // (No project config here, so the project is trusted by default in this fake pi: both offered.)
  for (
    const command of ["touch FILE", "rm build.log", "curl https://example.com/x", "git push origin"]
  ) {
    assert.deepEqual(await offers(command), all, command);
  }
  for (const command of ["sudo touch FILE", "cat list | xargs rm -f x.log"]) {
    assert.deepEqual(await offers(command), ["Allow once", "Allow for session", "Deny"], command);
  }
  // Allow Globally saves exactly that command: it is allowed from then on, nothing else is.
  answer = "Allow Globally";
  assert.equal(await t.call("rm build.log"), undefined);
  answer = "Deny";
  assert.equal(await offers("rm build.log"), undefined);
  assert.ok(await offers("rm build.log -r src"));
  assert.ok(await offers("rm other.log"));
});

Deno.test("the config's examples are checked at session start, after a call already waiting is decided", async () => {
  const t = setup({
    ...CONFIG,
    tests: [
      { tool: "bash", input: { command: "rm -rf build" }, expect: "deny" },
      { tool: "bash", input: { command: "git push origin main" }, expect: "allow" },
    ],
  });
  // The first call waits for the parser, as the examples do; it is decided all the same.
  assert.equal((await t.call("rm -rf build"))?.block, true);
  await new Promise((r) => setTimeout(r, 0));
  const failing = t.notes.filter((n) => n.text.includes("config example fails"));
  assert.deepEqual(failing.map((n) => n.type), ["warning"], JSON.stringify(t.notes));
  assert.match(failing[0].text, /git push origin main.* expected allow, got ask/);
  assert.ok(t.log().some((e) => e.event === "config-test-failed"));
});
