/** git in another repository runs what that repository's settings and hooks say: asked about. */
import assert from "node:assert/strict";
import { bash, ctxIn } from "../testing.ts";
import { denyList, readOnly } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";

const P = "/home/user/project";
const ctx = ctxIn(P, {
  // (The project's config is read: one that cannot be is not known.)
  contents: { [`${P}/.git/config`]: "" },
  files: [
    `${P}/src/a.ts`,
    `${P}/.git/HEAD`,
    `${P}/.git/objects/info/packs`,
    `${P}/.git/refs/heads/main`,
    `${P}/vendor/lib/.git/config`,
    "/tmp/evil/.git/config",
    "/home/user/other/.git/config",
    // a bare repository (its config is read by git -C too)
    "/tmp/bare.git/HEAD",
    "/tmp/bare.git/config",
    "/tmp/bare.git/objects/info/packs",
    "/tmp/bare.git/refs/heads/main",
  ],
});

Deno.test("git in another repository is asked about; in the project's own it is as before", async () => {
  // [command, read-only, deny-list]
  const rows: [string, Action, Action][] = [
    ["git -C /tmp/evil status", "deny", "ask"],
    ["cd /tmp/evil && git log", "deny", "ask"],
    ["git -C ../other log", "deny", "ask"],
    ["git -C /tmp/bare.git log", "deny", "ask"],
    ["cd /tmp/bare.git/refs && git log", "deny", "ask"],
    ["git -C .git log", "allow", "allow"],
    ["cd vendor/lib && git status", "deny", "ask"],
    ["tar xzf fixture.tgz -C /tmp && git -C /tmp/evil status", "deny", "ask"],
    // one another stage may put there
    ["tar xzf fixture.tgz -C /tmp && git -C /tmp/x status", "deny", "ask"],
    ["mkdir -p src/new && cd src/new && git init", "deny", "allow"],
    ["git status", "allow", "allow"],
    ["cd src && git status", "allow", "allow"],
    ["git -C src log --oneline", "allow", "allow"],
    ["git -C /tmp/nothere status", "allow", "allow"],
  ];
  const wrong: string[] = [];
  for (const [command, ro, dl] of rows) {
    const a = (await bash(readOnly, ctx, command)).action;
    const b = (await bash(denyList, ctx, command)).action;
    if (a !== ro || b !== dl) wrong.push(`${command}: got ${a}/${b}, want ${ro}/${dl}`);
  }
  assert.deepEqual(wrong, []);
});
