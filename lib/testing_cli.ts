/**
 * Helpers of the CLI's tests: a temporary home with a project, the CLI run in process with its
 * output captured, and `deno task pi-controls` run as a user would. Test-only (it uses
 * Deno.Command).
 *
 * @module
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CliIo, main } from "./cli.ts";

export interface Run {
  code: number;
  out: string;
  err: string;
}

export function tempTree(): { root: string; home: string; agent: string; project: string } {
  const root = mkdtempSync(join(tmpdir(), "pi-controls-cli-"));
  const home = join(root, "home");
  const agent = join(home, ".pi", "agent");
  const project = join(home, "work", "project");
  mkdirSync(join(agent, "extensions"), { recursive: true });
  mkdirSync(project, { recursive: true });
  return { root, home, agent, project };
}

export async function run(
  args: string[],
  opts: {
    home: string;
    cwd: string;
    stdin?: string;
    tty?: boolean;
    env?: Record<string, string>;
    /** Reading stdin fails with this message. */
    stdinError?: string;
  },
): Promise<Run> {
  let out = "";
  let err = "";
  const io: CliIo = {
    out: (t) => out += t,
    err: (t) => err += t,
    env: { HOME: opts.home, ...opts.env },
    cwd: opts.cwd,
    stdin: () =>
      opts.stdinError
        ? Promise.reject(new Error(opts.stdinError))
        : Promise.resolve(opts.stdin ?? ""),
    errIsTTY: opts.tty,
  };
  const code = await main(args, io);
  return { code, out, err };
}

export const CONFIG = `{
  // strict inside the project
  "policies": {
    "strict": {
      "defaultAction": "deny",
      "rules": [
        { "action": "allow", "tool": "bash", "pattern": "git *" },
        { "action": "ask", "tool": "bash", "pattern": "git commit *" },
      ],
    },
  },
  "locations": { "~/work/project": "strict" },
  "tests": [
    { "tool": "bash", "input": { "command": "git status" }, "expect": "allow" },
    { "tool": "bash", "input": { "command": "git commit -m x" }, "expect": "ask" },
  ],
}
`;

/** Deno's cache directory, so that a `deno task` child with another HOME downloads nothing. */
let denoDirCache: Promise<string> | undefined;
export function denoDir(): Promise<string> {
  denoDirCache ??= (async () => {
    const o = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
    return JSON.parse(new TextDecoder().decode(o.stdout)).denoDir;
  })();
  return denoDirCache;
}

export const ROOT = new URL("..", import.meta.url).pathname;

/** `deno task -q pi-controls ARGS` as a user runs it, in a HOME of its own. */
export async function task(
  args: string[],
  opts: { home: string; env?: Record<string, string>; stdin?: string },
): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "pi-controls", ...args],
    cwd: ROOT,
    env: { HOME: opts.home, NO_COLOR: "1", DENO_DIR: await denoDir(), ...opts.env },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(opts.stdin ?? ""));
  await w.close();
  const o = await child.output();
  const text = new TextDecoder();
  // Deno's own notes (where the npm cache lacks package metadata, as in the Nix sandbox: "Download
  // https://registry.npmjs.org/…") are not the CLI's output.
  const err = text.decode(o.stderr).split("\n").filter((l) => !l.startsWith("Download ")).join(
    "\n",
  );
  return { code: o.code, out: text.decode(o.stdout), err };
}

/** A policy with one rule per action, on /. */
export const ACTIONS_CONFIG = JSON.stringify({
  policies: {
    p: {
      defaultAction: "allow",
      rules: [
        { action: "nudge", tool: "bash", pattern: "nudge *", message: "careful" },
        { action: "log", tool: "bash", pattern: "log *" },
        { action: "ask", tool: "bash", pattern: "ask *" },
        { action: "deny", tool: "bash", pattern: "deny *" },
      ],
    },
  },
  locations: { "/": "p" },
});
