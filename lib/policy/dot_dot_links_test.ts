/**
 * A `..` after a symlink is taken from where the link leads, as the kernel walks the path
 * (`dst/h/..` with `h -> ~/w` is `~`): what is below there is judged as if named so (the
 * engine walks a target's `raw` form; held here for the tree readers and copiers).
 */
import assert from "node:assert/strict";
import { bash, ctxIn, secretsDenied } from "../testing.ts";
import type { Action } from "../types.ts";

const HOME = "/home/user";
const DP = secretsDenied(HOME, { agentDir: `${HOME}/.pi/agent` });

const FILES = [
  "/p/src/main.ts",
  "/p/dst/a.ts",
  "/p/lib/x.ts",
  `${HOME}/.ssh/id_rsa`,
  `${HOME}/w/notes.md`,
  "/srv/app/secrets/key",
  "/srv/app/web/index.html",
];
const LINKS = { "/p/dst/h": `${HOME}/w`, "/p/dst/web": "/srv/app/web", "/p/here": "/p/lib" };

const ROWS: [string, Action][] = [
  // A tree read, copied or removed from where the kernel lands, as `~` and /srv/app named so.
  ["cp -r dst/h/.. /tmp/o", "ask"],
  ["grep -r x dst/h/..", "ask"],
  ["tar -cf /tmp/a.tar dst/web/..", "ask"],
  ["rm -rf dst/web/..", "ask"],
  ["cp -r ~ /tmp/o", "ask"],
  ["cat dst/h/../.ssh/id_rsa", "deny"],
  ["cp -r dst/web/../secrets /tmp/o", "deny"],
  // Everyday: a `..` with no link before it, or a link to a tree without a protected path.
  ["cp -r src/../lib /tmp/o", "allow"],
  ["grep -r x ../p/src", "allow"],
  ["cat dst/h/notes.md", "allow"],
  ["cp -r here/.. /tmp/o", "allow"],
  ["ls dst/h/..", "allow"],
];

Deno.test("a `..` after a symlink: the place the kernel walks to is judged", async () => {
  const ctx = ctxIn("/p", { files: FILES, links: LINKS, home: HOME });
  const wrong: string[] = [];
  for (const [command, want] of ROWS) {
    const got = (await bash(DP, ctx, command)).action;
    if (got !== want) wrong.push(`${command} got ${got}, want ${want}`);
  }
  assert.deepEqual(wrong, []);
});
