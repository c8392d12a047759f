import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PI_PREFIX, shellCommandPrefix, shellEnvironment } from "./pi_settings.ts";
import { realFs } from "./policy/fs_facts.ts";
import { checkActions, secretsDenied } from "./testing.ts";
import { fakePi } from "./testing_pi.ts";
import type { PiContext } from "./extension.ts";

/** An agent dir and a project, each with the settings file given (none where undefined). */
function places(global?: string, project?: string) {
  const root = mkdtempSync(join(tmpdir(), "pi-controls-settings-"));
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  mkdirSync(agentDir, { recursive: true });
  if (global !== undefined) writeFileSync(join(agentDir, "settings.json"), global);
  if (project !== undefined) writeFileSync(join(cwd, ".pi", "settings.json"), project);
  return { root, place: { agentDir, cwd, fs: realFs() } };
}

Deno.test("pi settings: a shellCommandPrefix, the project's over the global one", () => {
  const rows: [string | undefined, string | undefined, boolean][] = [
    [undefined, undefined, false],
    ['{"theme":"dark"}', undefined, false],
    ['{"shellCommandPrefix":"source ~/.profile"}', undefined, true],
    ['{"shellCommandPrefix":"  "}', undefined, false],
    ['{"shellCommandPrefix":"export X=1"}', '{"shellCommandPrefix":""}', false],
    ['{"shellCommandPrefix":""}', '{"shellCommandPrefix":"shopt -s dotglob"}', true],
    [undefined, '{"theme":"x"}', false],
    // (A file that does not parse, or a value of another type, may hold one.)
    ["{not json", undefined, true],
    [undefined, '{"shellCommandPrefix":1}', true],
  ];
  for (const [global, project, want] of rows) {
    const { root, place } = places(global, project);
    try {
      assert.equal(shellCommandPrefix(place), want, `${global} / ${project}`);
      const env = shellEnvironment({ HOME: "/h" }, place);
      assert.equal(env.BASH_ENV, want ? PI_PREFIX : undefined);
    } finally {
      rmSync(root, { recursive: true });
    }
  }
});

Deno.test("pi settings: under a prefix no name is known to be unset", async () => {
  const { root, place } = places('{"shellCommandPrefix":"export KEYS=~/.ssh"}');
  try {
    const home = "/home/nobody";
    const config = secretsDenied(home);
    const ctx = { cwd: place.cwd, home, env: { HOME: home }, fs: realFs() };
    // (Without a prefix, KEYS is surely unset: `cat /id_rsa`.)
    await checkActions(config, ctx, [["cat $KEYS/id_rsa", "allow"]]);
    const prefixed = { ...ctx, env: shellEnvironment(ctx.env, place) };
    await checkActions(config, prefixed, [
      ["cat $KEYS/id_rsa", "ask"],
      ["cat ${KEYS:-/tmp}/id_rsa", "ask"],
      ["cat se${X}crets/key", "ask"],
      ["ls", "allow"],
    ]);
  } finally {
    rmSync(root, { recursive: true });
  }
});

Deno.test("pi settings: the extension decides under pi's prefix", async () => {
  const config = {
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "~/.ssh/**": "deny" },
  };
  const x = fakePi(config);
  try {
    const ctx = { cwd: x.project, hasUI: false, ui: {} } as unknown as PiContext;
    x.handlers.get("session_start")!({} as never, ctx);
    const call = (command: string) =>
      x.handlers.get("tool_call")!(
        { toolName: "bash", toolCallId: "c", input: { command } } as never,
        ctx,
      ) as Promise<{ block?: boolean } | undefined>;
    assert.equal((await call("cat $KEYS/id_rsa"))?.block, undefined);
    writeFileSync(join(x.agent, "settings.json"), '{"shellCommandPrefix":"export KEYS=~/.ssh"}');
    assert.equal((await call("cat $KEYS/id_rsa "))?.block, true);
  } finally {
    rmSync(x.home, { recursive: true });
  }
});
