/**
 * Trees read through symlinks: a program that follows the links inside a tree it reads (`grep
 * -R`, `rg -L`, `find -L`, `du -L`, `cp -rL`, `tar -h`, `rsync -L`, `chmod -RL`) reads where they
 * lead, so that is judged too; one that does not (`grep -r`, `rg`) is judged as before.
 */
import assert from "node:assert/strict";
import { checkEveryday, checkTable, denyList, readOnly } from "../testing_adversarial.ts";
import { bash, ctxIn } from "../testing.ts";
import type { Action } from "../types.ts";

/**
 * [command, under read-only, under the deny-list], in a project whose `keys` links to `~/.ssh`
 * and `innocent.txt` to `~/.ssh/id_rsa` (protected: deny).
 */
const HOSTILE: [string, Action, Action][] = [
  ["grep -R s3cret .", "deny", "deny"],
  ["grep -rR s3cret", "deny", "deny"],
  ["grep --dereference-recursive s3cret .", "deny", "deny"],
  ["egrep -iR 'BEGIN .* KEY' .", "deny", "deny"],
  ["rg -L s3cret .", "deny", "deny"],
  ["rg --follow -n s3cret", "deny", "deny"],
  ["find -L . -name id_rsa", "deny", "deny"],
  ["find . -follow -type f", "deny", "deny"],
  ["du -L -a .", "deny", "deny"],
  ["cp -rL . /tmp/copy", "deny", "deny"],
  ["tar -chf /tmp/a.tar .", "deny", "deny"],
  ["tar chf /tmp/a.tar .", "deny", "deny"],
  ["rsync -aL . /tmp/copy", "deny", "deny"],
  ["ls -RL .", "deny", "deny"],
  // GNU diff follows the links it meets while recursing (`-N` prints a file missing there).
  ["diff -rN . /tmp/empty", "deny", "deny"],
  ["diff -r --new-file . /tmp/empty", "deny", "deny"],
  ["diff -ru /tmp/copy .", "deny", "deny"],
  // Archivers that store what a link leads to unless told to store the link, rsync -k, a web
  // server of the cwd.
  ["zip -r /tmp/x.zip .", "deny", "deny"],
  ["zip -qr - . | cat", "deny", "deny"],
  ["7z a /tmp/x.7z .", "deny", "deny"],
  ["7zz a /tmp/x.7z .", "deny", "deny"],
  ["bsdtar -cLf /tmp/x.tar .", "deny", "deny"],
  ["rsync -rk . /tmp/x", "deny", "deny"],
  ["rsync -a --copy-dirlinks . /tmp/x", "deny", "deny"],
  ["python3 -m http.server", "deny", "deny"],
  // Where no place is named the cwd is the tree, whatever files options name.
  ["find -L -newer README.md -name id_rsa", "deny", "deny"],
  ["grep -R -e x --exclude-from=notes.txt", "deny", "deny"],
  ["grep -R KEY --exclude-dir=node_modules", "deny", "deny"],
  ["rg -L --ignore-file notes.txt x", "deny", "deny"],
  ["du -L -a --exclude-from=notes.txt", "deny", "deny"],
  ["7z a /tmp/x.7z", "deny", "deny"],
];

Deno.test("tree links: a program that follows the links inside a tree is judged where they lead", async () => {
  await checkTable(HOSTILE);
});

Deno.test("tree links: programs that do not follow the links inside a tree stay allowed", async () => {
  await checkEveryday([
    "grep -r TODO .",
    "diff -r --no-dereference . /tmp/copy",
    "diff -u README.md /tmp/README.md",
    "grep -rn TODO src",
    "rg TODO",
    "rg -n TODO src",
    "find . -name '*.ts'",
    "du -sh .",
    "ls -R .",
  ]);
});

Deno.test("tree links: archivers told to store links, or given files, stay allowed (deny-list)", async () => {
  await checkEveryday(
    ["zip -ry /tmp/x.zip .", "zip /tmp/x.zip README.md", "7z a -snl /tmp/x.7z ."],
    denyList,
  );
});

Deno.test("tree links: a tree too large to walk asks, and one without links is judged as it is", async () => {
  const dirs = Array.from({ length: 300 }, (_, i) => `/big/d${i}/f.txt`);
  const big = ctxIn("/big", { files: dirs });
  assert.equal((await bash(denyList, big, "grep -R x .")).action, "ask");
  assert.equal((await bash(denyList, big, "grep -r x .")).action, "allow");
  const small = ctxIn("/small", { files: ["/small/a/b.txt", "/small/c.txt"] });
  assert.equal((await bash(readOnly, small, "grep -R x .")).action, "allow");
  // A link inside the tree to a place the policy denies: judged there.
  const linked = ctxIn("/small", {
    files: ["/small/a/b.txt", "/home/user/.ssh/id_rsa"],
    links: { "/small/a/keys": "/home/user/.ssh" },
  });
  const v = await bash(denyList, linked, "grep -R x /small");
  assert.equal(v.action, "deny");
  assert.ok(
    v.stages[0].targets.some((t) => t.links?.includes("/home/user/.ssh")),
    JSON.stringify(v),
  );
});
