/**
 * A fake pi for the extension's tests: a temp home with the given global config and a project
 * directory, and the extension made on a pi API that keeps its event handlers and commands.
 *
 * @module
 */
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExtension, type ExtensionOptions, type PiApi, type PiContext } from "./extension.ts";

/** What a fake pi holds. */
export interface FakePi {
  home: string;
  /** pi's agent directory (`~/.pi/agent`). */
  agent: string;
  /** `~/project`, an empty directory. */
  project: string;
  handlers: Map<string, (e: never, c: PiContext) => unknown>;
  commands: Map<string, Parameters<PiApi["registerCommand"]>[1]>;
}

/**
 * The extension in a new temp home whose global config is `config`. `opts.env` is added to
 * `HOME`; the other options go to the extension as they are.
 */
export function fakePi(config: object, opts: ExtensionOptions & { prefix?: string } = {}): FakePi {
  const { prefix = "pi-controls-ext-", ...options } = opts;
  const home = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const agent = join(home, ".pi", "agent");
  const project = join(home, "project");
  mkdirSync(join(agent, "extensions"), { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(join(agent, "extensions", "pi-controls.jsonc"), JSON.stringify(config));
  const handlers: FakePi["handlers"] = new Map();
  const commands: FakePi["commands"] = new Map();
  const pi: PiApi = {
    on: (n, h) => handlers.set(n, h),
    registerCommand: (n, o) => commands.set(n, o),
  };
  createExtension(pi, { ...options, env: { HOME: home, ...options.env } });
  return { home, agent, project, handlers, commands };
}
