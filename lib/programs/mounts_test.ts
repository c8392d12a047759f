import assert from "node:assert/strict";
import { checkEveryday, checkTable } from "../testing_adversarial.ts";
import { branchDirs } from "./mounts.ts";

Deno.test("branchDirs: each branch of a union's list, its mode left off", () => {
  assert.deepEqual(branchDirs("/tmp/rw=RW:/home/me/.ssh=RO"), ["/tmp/rw", "/home/me/.ssh"]);
  assert.deepEqual(branchDirs("/a:/b=NC:"), ["/a", "/b"]);
});

Deno.test("sshfs and union mounts: the directory mounted is read and written as a tree", async () => {
  await checkTable([
    // This machine's directory by another name: what is protected in it is reached.
    ["sshfs localhost:.ssh /tmp/m", "deny", "deny"],
    ["sshfs me@127.1:/home/user/.ssh /tmp/m -o reconnect", "deny", "deny"],
    ["sshfs -p 22 '[::1]:.ssh' /tmp/m", "deny", "deny"],
    ["sshfs localhost: /tmp/m", "deny", "ask"],
    ["sshfs 127.1:/home/user /tmp/m", "deny", "ask"],
    ["unionfs /tmp/rw=RW:/home/user/.ssh=RO /tmp/m", "deny", "deny"],
    ["unionfs-fuse -o cow /tmp/rw=RW:/home/user=RO /tmp/m", "deny", "ask"],
    ["mergerfs /home/user/.ssh:/tmp /tmp/m", "deny", "deny"],
    ["mergerfs -o branches=/home/user/.ssh:/tmp x /tmp/m", "deny", "deny"],
    // What sshfs runs here.
    ["sshfs -o ssh_command='rm -rf /tmp/x' h: /tmp/m", "deny", "deny"],
    ["sshfs -o reconnect,ProxyCommand='rm -rf /tmp/x' h: /tmp/m", "deny", "deny"],
    // Another machine's directory: none here.
    ["sshfs deploy@deploy.example.com:/srv /tmp/m", "deny", "allow"],
    ["mergerfs /tmp/a:/tmp/b /tmp/m", "deny", "allow"],
  ]);
});

Deno.test("sshfs: everyday mounts of other machines stay allowed where the policy allows", async () => {
  const { denyList } = await import("../testing_adversarial.ts");
  await checkEveryday([
    "sshfs deploy@build.example.com:/srv/app /tmp/app",
    "sshfs -o reconnect,IdentityFile=/tmp/k box2:/data /tmp/d",
  ], denyList);
});

Deno.test("rsync --daemon serves the paths of its configuration's modules as trees", async () => {
  const { adversarialCtx, denyList } = await import("../testing_adversarial.ts");
  const { bash, ctxIn } = await import("../testing.ts");
  const ctx = ctxIn(adversarialCtx.cwd, {
    files: ["/home/user/.ssh/id_rsa", "/tmp/up/x"],
    contents: {
      "/tmp/keys.conf": "[m]\n  path = /home/user/.ssh\n  read only = no\n",
      "/tmp/up.conf": "# uploads\n[up]\npath=/tmp/up\n",
      "/tmp/more.conf": "&include /etc/rsyncd.d\n[up]\npath=/tmp/up\n",
    },
  });
  const rows: [string, string][] = [
    ["rsync --daemon --config=/tmp/keys.conf --port=8730", "deny"],
    ["rsync --daemon --config /tmp/keys.conf", "deny"],
    ["rsync --daemon --config=/tmp/up.conf", "allow"],
    ["rsync --daemon --config=/tmp/more.conf", "ask"],
    ["rsync --daemon --config=/tmp/none.conf", "ask"],
    ["rsync -a src/ /tmp/copy/", "allow"],
  ];
  const got = [];
  for (const [command] of rows) got.push([command, (await bash(denyList, ctx, command)).action]);
  assert.deepEqual(got, rows);
});
