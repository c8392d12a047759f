import assert from "node:assert/strict";
import { protectionFor } from "./protection.ts";
import type { Config, ProtectionEntry } from "../types.ts";

function cfg(entries: Record<string, "deny" | "ask" | "log">, base: string | null = null): Config {
  const pathProtection: ProtectionEntry[] = Object.entries(entries).map(([glob, action]) => ({
    glob,
    action,
    base,
    file: "t",
  }));
  return {
    policies: {},
    locations: [],
    defaultPolicy: null,
    approvalRules: [],
    pathProtection,
    agentTimeout: null,
    nudgeTimeout: null,
    decisions: null,
    sandbox: null,
    tests: [],
    files: [],
  };
}
const home = "/home/user";

Deno.test("a glob without / matches a name at any depth, and what is inside a matching directory", () => {
  const c = cfg({ ".env": "deny", "*.pem": "ask" });
  assert.deepEqual(protectionFor(c, "/p/.env", home), { glob: ".env", action: "deny" });
  assert.deepEqual(protectionFor(c, "/p/a/b/.env", home)?.action, "deny");
  assert.equal(protectionFor(c, "/p/.env/inner", home)?.action, "deny");
  assert.equal(protectionFor(c, "/p/certs/server.pem", home)?.action, "ask");
  assert.equal(protectionFor(c, "/p/.envrc", home), null);
  assert.equal(protectionFor(c, "/p/env", home), null);
});

Deno.test("~ expands, ** crosses directories, * does not", () => {
  const c = cfg({ "~/.ssh/**": "deny", "/srv/*/secrets": "ask" });
  assert.equal(protectionFor(c, "/home/user/.ssh/id_rsa", home)?.action, "deny");
  assert.equal(protectionFor(c, "/home/user/.ssh/keys/deep/x", home)?.action, "deny");
  assert.equal(protectionFor(c, "/home/user/.sshx/a", home), null);
  assert.equal(protectionFor(c, "/srv/app/secrets/k", home)?.action, "ask");
  assert.equal(protectionFor(c, "/srv/app/x/secrets/k", home), null);
});

Deno.test("relative globs with / resolve against the project root; the strictest entry wins", () => {
  const c = cfg({ "config/prod/**": "deny", "*.json": "log" }, "/home/user/p");
  assert.equal(protectionFor(c, "/home/user/p/config/prod/a.json", home)?.action, "deny");
  assert.equal(protectionFor(c, "/home/user/q/config/prod/a.json", home)?.action, "log");
});
