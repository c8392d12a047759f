import assert from "node:assert/strict";
import { protectedPathTest, protectionBelow, protectionFor } from "./protection.ts";
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

Deno.test("below a directory: entries inside it ask at most, name globs by the word, built-in entries for writes alone", () => {
  const c = cfg({ "~/.ssh/**": "deny", "/srv/data/keys": "ask", "*.pem": "deny" });
  const gate: ProtectionEntry = {
    glob: "/home/user/.pi/agent/settings.json",
    action: "ask",
    base: null,
    file: "t",
    writes: true,
  };
  c.pathProtection.push(gate);
  // Inside a protected tree: as it is; reaching into one below: ask at most.
  assert.deepEqual(protectionBelow(c, "/home/user/.ssh", home, null), {
    glob: "~/.ssh/**",
    action: "deny",
  });
  assert.deepEqual(protectionBelow(c, "/home/user", home, null, { write: false }), {
    glob: "~/.ssh/**",
    action: "ask",
  });
  assert.deepEqual(protectionBelow(c, "/srv", home, null, { write: false }), {
    glob: "/srv/data/keys",
    action: "ask",
  });
  assert.equal(protectionBelow(c, "/srv/other", home, null, { write: true }), null);
  // A name glob counts where the word's last name may match it; the answer for one word is not
  // the answer for the same directory with another.
  assert.deepEqual(protectionBelow(c, "/opt", home, "*", { write: false }), {
    glob: "*.pem",
    action: "ask",
  });
  assert.equal(protectionBelow(c, "/opt", home, "*.txt", { write: false }), null);
  assert.equal(protectionBelow(c, "/opt", home, null, { write: false }), null);
  // The gate's own file counts below ~/.pi only for what writes, and whether the access writes
  // is asked only there.
  let asked = 0;
  const writes = (answer: boolean) => () => (asked++, answer);
  assert.equal(protectionBelow(c, "/home/user/.pi", home, null, { write: writes(false) }), null);
  assert.equal(asked, 1);
  assert.deepEqual(protectionBelow(c, "/home/user/.pi", home, null, { write: writes(true) }), {
    glob: "/home/user/.pi/agent/settings.json",
    action: "ask",
    builtin: true,
  });
  asked = 0;
  assert.equal(protectionBelow(c, "/srv/other", home, null, { write: writes(true) }), null);
  assert.equal(protectionBelow(c, "/opt", home, "*.txt", { write: writes(true) }), null);
  assert.equal(asked, 0);
});

Deno.test("the quick test of a word that may create a file: the path itself, by every kind of glob", () => {
  const c = cfg({
    "*.pem": "ask",
    ".pi/settings.json": "deny",
    "conf/**/secret?.txt": "ask",
    "~/.ssh/**": "deny",
    "/srv/*/keys": "ask",
  });
  const test = protectedPathTest(c, home)!;
  // Named by a name glob, a relative glob at any depth, ~ and an absolute glob.
  assert.equal(test("/p/server.pem"), true);
  assert.equal(test("/p/.pi/settings.json"), true);
  assert.equal(test("/a/b/.pi/settings.json"), true);
  assert.equal(test("/p/conf/x/y/secret1.txt"), true);
  assert.equal(test("/p/conf/secret2.txt"), true);
  assert.equal(test("/home/user/.ssh/config"), true);
  assert.equal(test("/srv/web/keys"), true);
  // Near misses: another name, a dot that is not one, a path that only contains the text.
  assert.equal(test("/p/server.pem.txt"), false);
  assert.equal(test("/p/.pi/settingsXjson"), false);
  assert.equal(test("/p/.pi/settings.json.bak"), false);
  // (`/p/conf/x/secret10.txt` is a directory a path `conf/**` + `/secret?.txt` matches may lie
  // below: see the next test.)
  assert.equal(test("/p/conf2/secret1.txt"), false);
  assert.equal(test("/home/user/.sshx/config"), false);
  assert.equal(test("/srv/web/keys/inner"), false);
  // Nothing protected: no test at all.
  assert.equal(protectedPathTest(cfg({}), home), undefined);
});

Deno.test("the quick test counts a directory a protected path would lie below", () => {
  const c = cfg({
    "*.pem": "ask",
    "secrets/**": "deny",
    "conf/**/secret?.txt": "ask",
    "**/keys/*.key": "ask",
    "~/.aws/**": "deny",
    "/srv/*/keys": "ask",
  });
  const test = protectedPathTest(c, home)!;
  for (const dir of ["/p/secrets", "/p/a/secrets", "/p/conf", "/p/conf/x/y", "/p/keys"]) {
    assert.equal(test(dir), true, dir);
  }
  for (const dir of ["/home/user/.aws", "/home", "/srv", "/srv/web"]) {
    assert.equal(test(dir), true, dir);
  }
  // A name glob has no directory; another name is not one.
  for (const dir of ["/p/pem", "/p/secret", "/p/secrets2", "/p/confx", "/p/dist", "/opt"]) {
    assert.equal(test(dir), false, dir);
  }
});

Deno.test("below a directory not there yet: a path glob counts where it names a directory the glob's paths lie below", () => {
  const c = cfg({
    ".env": "deny",
    "secrets/**": "deny",
    "config/master.key": "ask",
    "/srv/*/keys": "ask",
  });
  const fresh = { write: true, trees: true, exists: () => false, fresh: true };
  const below = (dir: string) => protectionBelow(c, dir, home, null, fresh)?.glob ?? null;
  assert.equal(below("/p/secrets"), "secrets/**");
  assert.equal(protectionBelow(c, "/p/secrets", home, null, fresh)?.action, "deny");
  assert.equal(below("/p/x/config"), "config/master.key");
  assert.equal(below("/srv/web"), "/srv/*/keys");
  // Not where the glob's paths would lie deeper, nor a name glob.
  assert.equal(below("/p/dist"), null);
  assert.equal(below("/p/configs"), null);
  assert.equal(below("/srv/web/keys2"), null);
  // (A directory that is there: what may be below it, at any depth.)
  assert.equal(
    protectionBelow(c, "/p/dist", home, null, { ...fresh, fresh: false })?.glob,
    "secrets/**",
  );
});

Deno.test("where case is not told apart, a glob matches a path in any case", () => {
  const c = {
    ...cfg({ ".env": "deny", "~/.ssh/**": "deny", "*.pem": "ask" }),
    caseInsensitive: true,
  };
  assert.deepEqual(protectionFor(c, "/p/.ENV", home), { glob: ".env", action: "deny" });
  assert.deepEqual(protectionFor(c, "/HOME/User/.SSH/id_rsa", home), {
    glob: "~/.ssh/**",
    action: "deny",
  });
  assert.equal(protectedPathTest(c, home)!("/p/Key.PEM"), true);
  // (Below a directory: possibly reached, asked.)
  assert.deepEqual(protectionBelow(c, "/Home/user", home, ".SSH"), {
    glob: "~/.ssh/**",
    action: "ask",
  });
  // Told apart (Linux): another case is another file.
  const sensitive = { ...c, caseInsensitive: false };
  assert.equal(protectionFor(sensitive, "/p/.ENV", home), null);
  assert.equal(protectedPathTest(sensitive, home)!("/p/Key.PEM"), false);
  assert.equal(protectionBelow(sensitive, "/Home/user", home, ".SSH"), null);
});
