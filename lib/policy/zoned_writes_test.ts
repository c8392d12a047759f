/**
 * A write into another zone is that zone's business (issue 20, RULINGS per target): in a
 * read-only project with `/tmp` open, `cat README.md > /tmp/out` reads in the project and writes
 * in /tmp, and each place's policy judges only what happens in it.
 */
import assert from "node:assert/strict";
import { bash, configFrom, ctxIn } from "../testing.ts";

const config = configFrom({
  policies: {
    ro: {
      defaultAction: "deny",
      rules: ["$safe-bash", { action: "allow", tool: "read" }],
    },
    tmp: { defaultAction: "allow", rules: [] },
    out: { defaultAction: "ask", rules: [] },
  },
  locations: { "/p": "ro", "/tmp": "tmp", "/": "out" },
  pathProtection: { "~/.ssh/**": "deny" },
});
const ctx = ctxIn("/p", {
  files: ["/p/README.md", "/p/src/a.ts", "/tmp/x", "/home/user/.ssh/id_rsa"],
  links: { "/tmp/into": "/p/src/a.ts", "/tmp/dir": "/p/src" },
});

Deno.test("a read-only form writing into another zone is allowed where both zones allow it", async () => {
  const cases: [string, string][] = [
    ["cat README.md > /tmp/out", "allow"],
    ["sed -n '1,5p' src/a.ts > /tmp/head.txt 2>&1", "allow"],
    ["grep -n x src/a.ts >> /tmp/log", "allow"],
    ["echo done > /tmp/status; cat README.md", "allow"],
    // The write lands in the read-only project: denied, however the path is spelled.
    ["cat README.md > out", "deny"],
    ["cat README.md > /tmp/out > src/b.ts", "deny"],
    ["cat README.md > /tmp/../p/x", "deny"],
    ["cat README.md > /tmp/into", "deny"], // a symlink in /tmp into the project
    ["cat README.md > /tmp/dir/b.ts", "deny"],
    ["cd /tmp && cat /p/README.md > ../p/x", "deny"],
    // Not known where it lands: not allowed.
    ["cat README.md > $OUT", "deny"],
    // Another zone's policy still decides its part; a protection still applies.
    ["cat README.md > ~/notes", "ask"],
    ["cat README.md > ~/.ssh/authorized_keys", "deny"],
    ["cat ~/.ssh/id_rsa > /tmp/k", "deny"],
    // A program that writes by itself is not read-only wherever its output goes.
    ["sed -i s/a/b/ src/a.ts > /tmp/log", "deny"],
  ];
  const wrong: string[] = [];
  for (const [command, want] of cases) {
    const got = (await bash(config, ctx, command)).action;
    if (got !== want) wrong.push(`${command}: got ${got}, want ${want}`);
  }
  assert.deepEqual(wrong, []);
});
