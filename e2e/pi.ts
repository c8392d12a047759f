/**
 * Run the real pi with the pi-controls bundle, against the scripted model server, in a throwaway
 * home: `<root>/home` is `HOME`, `<root>/home/.pi/agent` the agent dir (`PI_CODING_AGENT_DIR`),
 * `<root>/home/project` the cwd. Print mode (`-p`) and RPC mode (`--mode rpc`, dialogs answered by
 * the test) are both supported. Every pi process runs under a deadline and is killed past it.
 *
 * Two pi lines run (`setupPi({ pi })`, installed by scripts/ensure_pi.ts): `1.x` (the default, pi
 * 1.6.0 under the pinned Node 22) and `0.73` (pi 0.73.1 under the `node` on `PATH`). pi 1.x gates
 * a project's `.pi/` resources on project trust (docs/pi-1x-notes.md); `trusted` and `approve`
 * set that decision for a test.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { type PiLine, piRuntime } from "../scripts/ensure_pi.ts";
import { type ModelServer, startModelServer, type Step } from "./model_server.ts";

const ROOT = new URL("..", import.meta.url).pathname;
/** The extension bundle `deno task bundle` writes. */
export const BUNDLE: string = process.env.PI_CONTROLS_E2E_BUNDLE ||
  join(ROOT, "dist", "pi-controls.js");

/** A throwaway pi installation with a project and a scripted model. */
export interface PiHome {
  root: string;
  home: string;
  agentDir: string;
  /** The project directory pi runs in. */
  cwd: string;
  logFile: string;
  server: ModelServer;
  /** Which pi runs: its line, the node binary and pi's CLI. */
  pi: PiLine;
  node: string;
  cli: string;
  /** The arguments every prompt run gets: how the extension is loaded, the trust override. */
  extensionArgs: string[];
  /** Stop the server and delete the temp dir. */
  cleanup(): Promise<void>;
}

/** What a test sets up before starting pi. */
export interface PiHomeOptions {
  script: Step[];
  /** Text of `<agentDir>/extensions/pi-controls.jsonc`. */
  globalConfig?: string;
  /** Text of `<cwd>/.pi/extensions/pi-controls.jsonc`. */
  projectConfig?: string;
  /** Files to create, relative to the project dir. */
  files?: Record<string, string>;
  /**
   * `flag` (default): `pi -e dist/pi-controls.js`; `copy`: installed in `<agentDir>/extensions/`;
   * `none`: not loaded by the harness (the test installs it, e.g. with `pi install`).
   */
  install?: "flag" | "copy" | "none";
  /** Which pi to run: `1.x` (default, pi 1.6.0 under Node 22) or `0.73` (pi 0.73.1). */
  pi?: PiLine;
  /**
   * pi 1.x only: a saved project-trust decision for the project dir, as `/trust` writes it to
   * `<agentDir>/trust.json`. Unset: none, so print and RPC mode treat a project with `.pi/`
   * resources as untrusted (they cannot ask).
   */
  trusted?: boolean;
  /** pi 1.x only: `--approve` (true) or `--no-approve` (false) on every run of pi. */
  approve?: boolean;
}

/** Create the temp home, the model server and the configs. */
export function setupPi(opts: PiHomeOptions): PiHome {
  const pi = opts.pi ?? "1.x";
  const runtime = piRuntime(pi);
  if (!runtime) throw new Error(`pi ${pi} is not installed: run \`deno task ensure-pi\``);
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run \`deno task bundle\``);
  if (pi === "0.73" && (opts.trusted !== undefined || opts.approve !== undefined)) {
    throw new Error("pi 0.73 has no project trust: `trusted` and `approve` need pi 1.x");
  }
  const root = realpathSync(Deno.makeTempDirSync({ prefix: "pi-controls-e2e-" }));
  const home = join(root, "home");
  const agentDir = join(home, ".pi", "agent");
  const cwd = join(home, "project");
  mkdirSync(join(agentDir, "extensions"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const server = startModelServer(opts.script);
  writeFileSync(
    join(agentDir, "models.json"),
    JSON.stringify(
      {
        providers: {
          scripted: {
            api: "openai-completions",
            baseUrl: server.baseUrl,
            apiKey: "x",
            models: [{ id: "scripted" }],
          },
        },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(agentDir, "settings.json"),
    JSON.stringify({ defaultProvider: "scripted", defaultModel: "scripted" }, null, 2),
  );
  if (opts.globalConfig !== undefined) {
    writeFileSync(join(agentDir, "extensions", "pi-controls.jsonc"), opts.globalConfig);
  }
  if (opts.projectConfig !== undefined) {
    mkdirSync(join(cwd, ".pi", "extensions"), { recursive: true });
    writeFileSync(join(cwd, ".pi", "extensions", "pi-controls.jsonc"), opts.projectConfig);
  }
  for (const [rel, text] of Object.entries(opts.files ?? {})) {
    mkdirSync(dirname(join(cwd, rel)), { recursive: true });
    writeFileSync(join(cwd, rel), text);
  }
  if (opts.trusted !== undefined) {
    // Keyed by the folder's realpath (cwd is one: root went through realpathSync).
    writeFileSync(
      join(agentDir, "trust.json"),
      JSON.stringify({ [cwd]: opts.trusted }, null, 2) + "\n",
    );
  }
  let extensionArgs = ["-e", BUNDLE];
  if (opts.install === "copy") {
    copyFileSync(BUNDLE, join(agentDir, "extensions", "pi-controls.js"));
    extensionArgs = [];
  }
  if (opts.install === "none") extensionArgs = [];
  if (opts.approve !== undefined) extensionArgs.push(opts.approve ? "--approve" : "--no-approve");
  return {
    root,
    home,
    agentDir,
    cwd,
    logFile: join(agentDir, "extensions", "pi-controls.log"),
    server,
    pi,
    ...runtime,
    extensionArgs,
    async cleanup() {
      await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The environment pi runs in: only the temp home, offline. */
function piEnv(h: PiHome): Record<string, string> {
  return {
    // pi 1.x's node first, so what pi starts with `node` runs on the same Node.
    PATH: [...(h.node === "node" ? [] : [dirname(h.node)]), process.env.PATH ?? "/usr/bin:/bin"]
      .join(":"),
    HOME: h.home,
    PI_CODING_AGENT_DIR: h.agentDir,
    PI_OFFLINE: "1",
    // pi 1.x: no version check and no telemetry (PI_OFFLINE already stops both; stated anyway).
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    NO_COLOR: "1",
    TERM: "dumb",
  };
}

function piCommand(h: PiHome, args: string[], piped: boolean): Deno.Command {
  return new Deno.Command(h.node, {
    args: [
      h.cli,
      "--offline",
      "--provider",
      "scripted",
      "--model",
      "scripted",
      ...h.extensionArgs,
      ...args,
    ],
    cwd: h.cwd,
    clearEnv: true,
    env: piEnv(h),
    stdin: piped ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  });
}

/** Run pi's CLI with `args` (no prompt, e.g. `install ./dir`) in the temp home. */
export async function runPiCli(h: PiHome, args: string[]): Promise<PrintResult> {
  const t0 = performance.now();
  const out = await new Deno.Command(h.node, {
    args: [h.cli, ...args],
    cwd: h.cwd,
    clearEnv: true,
    env: piEnv(h),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
    ms: performance.now() - t0,
  };
}

/** The outcome of a print-mode run. */
export interface PrintResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * How long one pi run or RPC exchange may take before it is killed as hung. Generous: a pi start
 * takes 1–3 s on a quiet machine, and machines of our kind run up to several times slower under
 * load (a deadline only matters for a run that hangs).
 */
export const E2E_TIMEOUT_MS = 90_000;

/** `pi -p <prompt>`: runs until the scripted model answers with text; killed after `timeoutMs`. */
export async function runPrint(
  h: PiHome,
  prompt: string,
  timeoutMs = E2E_TIMEOUT_MS,
): Promise<PrintResult> {
  const t0 = performance.now();
  const child = piCommand(h, ["-p", prompt], false).spawn();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, timeoutMs);
  const out = await child.output();
  clearTimeout(timer);
  const result = {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
    ms: performance.now() - t0,
  };
  if (timedOut) {
    throw new Error(
      `pi -p timed out after ${timeoutMs} ms\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`,
    );
  }
  return result;
}

/** One JSON line pi wrote on stdout in RPC mode. */
// deno-lint-ignore no-explicit-any
export type RpcEvent = Record<string, any>;

/** A dialog the extension opened (`extension_ui_request` with method select/confirm/input). */
export interface Dialog {
  method: string;
  title: string;
  options?: string[];
  /** What the test answered (undefined: cancelled). */
  answer?: string;
}

/** A running `pi --mode rpc`. */
export interface RpcPi {
  events: RpcEvent[];
  dialogs: Dialog[];
  /** Messages of `notify` requests, with their type. */
  notifications: { message: string; type: string }[];
  /** Send a prompt and wait for `agent_end`. */
  prompt(message: string, timeoutMs?: number): Promise<RpcEvent[]>;
  /** Send any RPC command and wait for its response. */
  command(cmd: Record<string, unknown>, timeoutMs?: number): Promise<RpcEvent>;
  /** Wait until an event matching `pred` has arrived (looking at events from `from` on). */
  waitFor(pred: (e: RpcEvent) => boolean, timeoutMs?: number, from?: number): Promise<RpcEvent>;
  /** Close stdin and wait for pi to exit (killed past the deadline). */
  close(): Promise<{ code: number; stderr: string }>;
}

/** How the test answers a dialog: the option to pick, or undefined to dismiss it. */
export type Answerer = (d: Dialog) => string | undefined;

/** Start `pi --mode rpc`; dialogs are answered by `answer`. The process is killed after `deadlineMs`. */
export function startRpc(h: PiHome, answer: Answerer, deadlineMs = 2 * E2E_TIMEOUT_MS): RpcPi {
  const child = piCommand(h, ["--mode", "rpc"], true).spawn();
  const writer = child.stdin.getWriter();
  const enc = new TextEncoder();
  const events: RpcEvent[] = [];
  const dialogs: Dialog[] = [];
  const notifications: { message: string; type: string }[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  let stderr = "";
  let nextId = 0;
  const send = (o: unknown) => writer.write(enc.encode(JSON.stringify(o) + "\n"));
  const deadline = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, deadlineMs);

  const stderrDone = (async () => {
    const dec = new TextDecoder();
    for await (const b of child.stderr) stderr += dec.decode(b, { stream: true });
  })();

  const stdoutDone = (async () => {
    const dec = new TextDecoder();
    let buf = "";
    for await (const b of child.stdout) {
      buf += dec.decode(b, { stream: true });
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, i).replace(/\r$/, "");
        buf = buf.slice(i + 1);
        if (!line.trim()) continue;
        let ev: RpcEvent;
        try {
          ev = JSON.parse(line);
        } catch {
          ev = { type: "unparsed", line };
        }
        events.push(ev);
        if (ev.type === "extension_ui_request") {
          if (ev.method === "notify") {
            notifications.push({ message: ev.message, type: ev.notifyType ?? "info" });
          } else if (["select", "confirm", "input", "editor"].includes(ev.method)) {
            const d: Dialog = { method: ev.method, title: ev.title, options: ev.options };
            dialogs.push(d);
            d.answer = answer(d);
            await send(
              d.answer === undefined
                ? { type: "extension_ui_response", id: ev.id, cancelled: true }
                : { type: "extension_ui_response", id: ev.id, value: d.answer },
            ).catch(() => {});
          }
        }
        for (const w of [...waiters]) w();
      }
    }
    ended = true;
    for (const w of [...waiters]) w();
  })();

  function waitFor(
    pred: (e: RpcEvent) => boolean,
    timeoutMs = E2E_TIMEOUT_MS,
    from = 0,
  ): Promise<RpcEvent> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = events.slice(from).find(pred);
        if (hit) {
          done();
          resolve(hit);
        } else if (ended) {
          done();
          reject(new Error(`pi exited before the expected event\nstderr:\n${stderr}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for an RPC event; last events:\n` +
              events.slice(-5).map((e) => JSON.stringify(e).slice(0, 300)).join("\n") +
              `\nstderr:\n${stderr}`,
          ),
        );
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  }

  return {
    events,
    dialogs,
    notifications,
    async prompt(message, timeoutMs = E2E_TIMEOUT_MS) {
      const from = events.length;
      const id = `req-${++nextId}`;
      await send({ id, type: "prompt", message });
      const response = await waitFor((e) => e.type === "response" && e.id === id, timeoutMs, from);
      if (!response.success) throw new Error(`prompt rejected: ${JSON.stringify(response)}`);
      await waitFor((e) => e.type === "agent_end", timeoutMs, from);
      return events.slice(from);
    },
    async command(cmd, timeoutMs = E2E_TIMEOUT_MS) {
      const from = events.length;
      const id = `req-${++nextId}`;
      await send({ ...cmd, id });
      const response = await waitFor((e) => e.type === "response" && e.id === id, timeoutMs, from);
      if (!response.success) throw new Error(`${cmd.type} failed: ${JSON.stringify(response)}`);
      return response;
    },
    waitFor,
    async close() {
      await writer.close().catch(() => {});
      const killer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch { /* gone */ }
      }, 5_000);
      const status = await child.status;
      clearTimeout(killer);
      clearTimeout(deadline);
      await stdoutDone;
      await stderrDone;
      return { code: status.code, stderr };
    },
  };
}

/** The decision log, one object per line. */
// deno-lint-ignore no-explicit-any
export function readLog(h: PiHome): Record<string, any>[] {
  if (!existsSync(h.logFile)) return [];
  return readFileSync(h.logFile, "utf8").split("\n").filter((l) => l.trim()).map((l) =>
    JSON.parse(l)
  );
}

/** The session files pi wrote (under `<agentDir>/sessions/`), oldest first. */
export function sessionFiles(h: PiHome): string[] {
  const dir = join(h.agentDir, "sessions");
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const sub of readdirSync(dir).sort()) {
    for (const f of readdirSync(join(dir, sub)).sort()) {
      if (f.endsWith(".jsonl")) out.push(join(dir, sub, f));
    }
  }
  return out;
}

/** `PI_CONTROLS_SKIP_E2E=1`: the end-to-end suites are skipped (machines that cannot install pi). */
export const SKIP_E2E: boolean = process.env.PI_CONTROLS_SKIP_E2E === "1";

/** Stop a suite at load when the pinned pis are not installed (unless the suites are skipped). */
export function requirePis(): void {
  if (!SKIP_E2E && !(piRuntime("1.x") && piRuntime("0.73"))) {
    throw new Error(
      "the end-to-end tests need pi 1.6.0 with Node 22 and pi 0.73.1: run `deno task ensure-pi` " +
        "(deno task test does), or set PI_CONTROLS_SKIP_E2E=1",
    );
  }
}

/** Run `body` with a fresh pi home; always stops the server and deletes the temp dir. */
export async function withPi(
  opts: PiHomeOptions,
  body: (h: PiHome) => Promise<void>,
): Promise<void> {
  const h = setupPi(opts);
  try {
    await body(h);
  } finally {
    await h.cleanup();
  }
}
