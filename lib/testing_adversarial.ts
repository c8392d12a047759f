/**
 * The configs and context the adversarial tables share (lib/adversarial_test.ts and the tables of
 * each class of bypass): a read-only `$safe-bash` policy and an allow-by-default deny-list, both
 * with secrets protected, and a project whose symlinks lead to them. `checkTable` runs a table.
 *
 * @module
 */
import assert from "node:assert/strict";
import { bash, configFrom, ctxIn } from "./testing.ts";
import type { Action, Config, Context } from "./types.ts";

const protection = {
  "~/.ssh/**": "deny",
  ".env": "deny",
  "*.pem": "deny",
  "/etc/shadow": "deny",
} as const;
/** A read-only `$safe-bash` policy everywhere, with the paths above protected. */
export const readOnly: Config = configFrom({
  policies: {
    ro: {
      defaultAction: "deny",
      rules: ["$safe-bash", { action: "allow", tool: "read" }, { action: "allow", tool: "grep" }],
    },
  },
  locations: { "/": "ro" },
  pathProtection: protection,
});
/** Allow by default, with a deny-list of rules. */
export const denyList: Config = configFrom({
  policies: {
    open: {
      defaultAction: "allow",
      rules: [
        { action: "deny", tool: "bash", pattern: "rm *" },
        { action: "deny", tool: "bash", pattern: "sudo *" },
        { action: "deny", tool: "bash", pattern: "curl *" },
        { action: "deny", tool: "bash", pattern: "git push *" },
        { action: "ask", tool: "bash", pattern: "chmod *" },
      ],
    },
  },
  locations: { "/": "open" },
  pathProtection: protection,
});
/** A project beside a home with secrets, and symlinks from the project to them. */
export const adversarialCtx: Context = ctxIn("/home/user/project", {
  files: [
    "/home/user/project/README.md",
    "/home/user/project/src/main.ts",
    "/home/user/project/package.json",
    "/home/user/project/notes.txt",
    "/home/user/.ssh/id_rsa",
    "/home/user/.ssh/config.d/hosts",
    "/etc/shadow",
    "/home/user/project/.env",
  ],
  links: {
    "/home/user/project/innocent.txt": "/home/user/.ssh/id_rsa",
    "/home/user/project/keys": "/home/user/.ssh",
    "/home/user/project/conf": "/home/user/.ssh/config.d",
  },
});

/**
 * Check a table of `[command, verdict under read-only, verdict under the deny-list]` rows: each
 * gets its verdict under both policies (every wrong one is listed).
 */
export async function checkTable(rows: [string, Action, Action][]): Promise<void> {
  const wrong: string[] = [];
  for (const [command, ro, dl] of rows) {
    const a = (await bash(readOnly, adversarialCtx, command)).action;
    const b = (await bash(denyList, adversarialCtx, command)).action;
    if (a !== ro) {
      wrong.push(`read-only: ${JSON.stringify(command.slice(0, 100))} got ${a}, want ${ro}`);
    }
    if (b !== dl) {
      wrong.push(`deny-list: ${JSON.stringify(command.slice(0, 100))} got ${b}, want ${dl}`);
    }
  }
  assert.deepEqual(wrong, []);
}

/** Check that every command stays allowed under the read-only policy (or `config`): everyday work. */
export async function checkEveryday(commands: string[], config = readOnly): Promise<void> {
  const blocked: string[] = [];
  for (const command of commands) {
    const v = await bash(config, adversarialCtx, command);
    if (v.action !== "allow") blocked.push(`${command} -> ${v.action}: ${v.notification}`);
  }
  assert.deepEqual(blocked, []);
}

/** Allow everything, with only the gate's own files protected (as pi-controls always does). */
export const gateFiles: Config = configFrom(
  { policies: { open: { defaultAction: "allow", rules: [] } }, locations: { "/": "open" } },
  { agentDir: "/home/user/.pi/agent", home: "/home/user" },
);

/**
 * Check a table of `[command, verdict under the deny-list, verdict under the gate's own-file
 * protection]` rows in `ctx` (a project of the test's own): every wrong one is listed.
 */
export async function checkGateTable(
  ctx: Context,
  rows: readonly (readonly [string, Action, Action])[],
): Promise<void> {
  const wrong: string[] = [];
  for (const [command, dl, g] of rows) {
    const a = (await bash(denyList, ctx, command)).action;
    const b = (await bash(gateFiles, ctx, command)).action;
    if (a !== dl) {
      wrong.push(`deny-list: ${JSON.stringify(command.slice(0, 100))} got ${a}, want ${dl}`);
    }
    if (b !== g) wrong.push(`gate: ${JSON.stringify(command.slice(0, 100))} got ${b}, want ${g}`);
  }
  assert.deepEqual(wrong, []);
}
