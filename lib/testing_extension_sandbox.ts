/**
 * The extension against a fake pi, for the sandbox's tests (lib/extension_sandbox_test.ts,
 * lib/extension_proxy_cases.ts): a temp home with a global config, pi's handlers and commands, and
 * what the UI was shown and asked.
 */
import type { PiContext } from "./extension.ts";
import { fakePi } from "./testing_pi.ts";
import { CHOICES } from "./ask_choices.ts";
import type { SandboxProbe } from "./sandbox_runner.ts";
import type { NetworkProxy } from "./sandbox_proxy.ts";

export const FAKE_OK: SandboxProbe = { ok: true, bwrap: "/usr/bin/bwrap" };

export const CONFIG = {
  policies: {
    project: {
      defaultAction: "allow",
      rules: [
        { action: "sandbox", tool: "bash", pattern: "make*" },
        { action: "ask", tool: "bash", pattern: "git push *" },
      ],
    },
    outside: { defaultAction: "ask", rules: [] },
  },
  locations: { "/": "outside", "$cwd": "project" },
  sandbox: { enabled: true },
};

export function setup(
  probe: SandboxProbe,
  config: object = CONFIG,
  sandboxProxy?: () => Promise<NetworkProxy>,
) {
  const { home, project, handlers, commands } = fakePi(config, {
    prefix: "pi-controls-extsb-",
    env: { PATH: Deno.env.get("PATH") },
    sandboxProbe: () => probe,
    sandboxProxy,
  });
  const notes: { text: string; type?: string }[] = [];
  const selects: string[] = [];
  let answer: string = CHOICES.once;
  const ctx: PiContext = {
    cwd: project,
    hasUI: true,
    ui: {
      notify: (text, type) => notes.push({ text, type }),
      select: (title) => {
        selects.push(title);
        return Promise.resolve(answer);
      },
      setStatus: () => {},
    },
  };
  handlers.get("session_start")!({} as never, ctx);
  const call = async (command: string, id = "c") => {
    const input = { command };
    const block = await handlers.get("tool_call")!(
      { toolName: "bash", toolCallId: id, input } as never,
      ctx,
    );
    return { block, command: input.command };
  };
  const result = (id: string, text: string) =>
    handlers.get("tool_result")!(
      { toolName: "bash", toolCallId: id, content: [{ type: "text", text }] } as never,
      ctx,
    ) as { content: { type: string; text?: string }[] } | undefined;
  const controls = () => commands.get("controls")!.handler("", ctx);
  const shutdown = () => handlers.get("session_shutdown")!({} as never, ctx);
  return {
    home,
    project,
    notes,
    selects,
    call,
    result,
    controls,
    shutdown,
    setAnswer: (a: string) => (answer = a),
  };
}
