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
    // What sshfs runs here: a config's ProxyCommand, `-F FILE` glued too.
    ["sshfs -F/tmp/cfg h: /tmp/m", "deny", "deny"],
    ["sshfs -F /tmp/cfg h: /tmp/m", "deny", "deny"],
    ["sshfs -o ssh_command='rm -rf /tmp/x' h: /tmp/m", "deny", "deny"],
    ["sshfs -o reconnect,ProxyCommand='rm -rf /tmp/x' h: /tmp/m", "deny", "deny"],
    // sshfs's source is its first operand with a colon wherever it stands; its other names.
    ["sshfs /tmp/m localhost:.ssh", "deny", "deny"],
    ["sshfs -o reconnect /tmp/m me@127.1:/home/user/.ssh", "deny", "deny"],
    ["sshfs /tmp/m $H:.ssh", "deny", "ask"],
    ["mount.sshfs localhost:.ssh /tmp/m", "deny", "deny"],
    ["mount.fuse.sshfs localhost:.ssh /tmp/m -o rw", "deny", "deny"],
    ["mount.fuse sshfs#localhost:.ssh /tmp/m", "deny", "deny"],
    ["mount.fuse3 'sshfs#localhost:.ssh' /tmp/m", "deny", "deny"],
    ["mount -t fuse.sshfs localhost:.ssh /tmp/m", "deny", "deny"],
    ["mount -tsshfs localhost:.ssh /tmp/m", "deny", "deny"],
    ["mount -t fuse sshfs#localhost:.ssh /tmp/m", "deny", "deny"],
    ["mount --types=fuse3.sshfs localhost:.ssh /tmp/m", "deny", "deny"],
    ["mount -t fuse.sshfs -o ssh_command='rm -rf /tmp/x' h: /tmp/m", "deny", "deny"],
    // Overlays and binds: the directories below the mount point.
    [
      "fuse-overlayfs -o lowerdir=/home/user/.ssh,upperdir=/tmp/u,workdir=/tmp/w /tmp/m",
      "deny",
      "deny",
    ],
    ["fuse-overlayfs -o lowerdir=/tmp/a:/home/user/.ssh /tmp/m", "deny", "deny"],
    [
      "mount -t overlay overlay -o lowerdir=/home/user/.ssh,upperdir=/tmp/u,workdir=/tmp/w /tmp/m",
      "deny",
      "deny",
    ],
    ["mount -t overlay overlay -o upperdir=/home/user/.ssh,lowerdir=/tmp/l /tmp/m", "deny", "deny"],
    ["mount --bind /home/user/.ssh /tmp/m", "deny", "deny"],
    ["mount -o rbind /home/user /tmp/m", "deny", "ask"],
    ["mount.fuse bindfs#/home/user /tmp/m", "deny", "ask"],
    // Another machine's directory: none here.
    ["sshfs deploy@deploy.example.com:/srv /tmp/m", "deny", "allow"],
    ["mount -t fuse.sshfs deploy@deploy.example.com:/srv /tmp/m", "deny", "allow"],
    ["fuse-overlayfs -o lowerdir=/tmp/l,upperdir=/tmp/u,workdir=/tmp/w /tmp/m", "deny", "allow"],
    ["mergerfs /tmp/a:/tmp/b /tmp/m", "deny", "allow"],
  ]);
});

Deno.test("sshfs: everyday mounts of other machines stay allowed where the policy allows", async () => {
  const { denyList } = await import("../testing_adversarial.ts");
  await checkEveryday([
    "sshfs deploy@build.example.com:/srv/app /tmp/app",
    "sshfs -o reconnect,IdentityFile=/tmp/k box2:/data /tmp/d",
    "mount -t tmpfs tmpfs /tmp/t",
    "mount --bind /tmp/a /tmp/b",
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

Deno.test("proot, firejail and systemd-nspawn: a directory bound elsewhere is read as a tree", async () => {
  await checkTable([
    ["proot -b /home/user/.ssh:/x cat /x/id_rsa", "deny", "deny"],
    ["proot -b/home/user/.ssh:/x cat /x/id_rsa", "deny", "deny"],
    ["proot --bind=/home/user/.ssh:/x cat /x/id_rsa", "deny", "deny"],
    ["proot -m /home/user/.ssh cat /x", "deny", "deny"],
    ["proot -r /home/user cat /.ssh/id_rsa", "deny", "ask"],
    ["firejail --bind=/home/user/.ssh,/x cat /x/id_rsa", "deny", "deny"],
    ["firejail --private=/home/user/.ssh ls", "deny", "deny"],
    ["systemd-nspawn --bind=/home/user/.ssh:/x cat /x/id_rsa", "deny", "deny"],
    ["systemd-nspawn --bind-ro /home/user/.ssh:/x cat /x/id_rsa", "deny", "deny"],
    ["systemd-nspawn --overlay=/home/user/.ssh:/tmp/u:/x ls", "deny", "deny"],
    ["systemd-nspawn -D /home/user ls", "deny", "ask"],
    ["proot -b /tmp/a:/x ls /x", "deny", "allow"],
    ["firejail --bind=/tmp/a,/x ls", "deny", "allow"],
  ]);
});
