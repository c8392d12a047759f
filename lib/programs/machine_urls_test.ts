import assert from "node:assert/strict";
import { adversarialCtx, readOnly } from "../testing_adversarial.ts";
import { bash, configFrom } from "../testing.ts";
import type { Action, Context } from "../types.ts";
import { ftpClientFiles, machineUrlFile, quotePaths } from "./machine_urls.ts";
import { literal } from "./words.ts";

Deno.test("machineUrlFile: sftp's and scp's paths absolute, `/~/` in the home", () => {
  const f = (url: string, user?: string | null) => {
    const r = machineUrlFile(url, "s", user);
    return r && { path: r.path, ...r.on };
  };
  assert.deepEqual(f("sftp://localhost/~/.ssh/id_rsa"), {
    path: "~/.ssh/id_rsa",
    host: "localhost",
    user: undefined,
  });
  assert.deepEqual(f("SCP://me:pw@127.1:22/home/me/x"), {
    path: "/home/me/x",
    host: "127.1",
    user: "me",
  });
  assert.deepEqual(f("sftp://[::1]:2222/%7e/.ssh/x?q#f"), {
    path: "~/.ssh/x",
    host: "::1",
    user: undefined,
  });
  assert.equal(f("sftp://h/~")?.path, "~");
  assert.equal(f("sftp://h")?.path, "/");
  assert.equal(f("scp://h/~x/y")?.path, "/~x/y");
  assert.equal(f("sftp://h/%zz")?.path, null);
  // A login the option names beside the URL's: differing, not known.
  assert.equal(f("sftp://me@h/x", "root")?.user, null);
  assert.equal(f("sftp://h/x", "root")?.user, "root");
  // A server's own files: FTP, TFTP, SMB.
  for (const u of ["ftp://localhost/x", "FTPS://h/x", "tftp://h/x", "smb://h/share/x"]) {
    assert.equal(f(u)?.path, null, u);
  }
  // One to three slashes after the colon, as curl's parser takes them: the host after them.
  assert.deepEqual(f("sftp:/localhost/~/.ssh/x"), f("sftp://localhost/~/.ssh/x"));
  assert.deepEqual(f("Sftp:///localhost/~/.ssh/x"), f("sftp://localhost/~/.ssh/x"));
  assert.equal(f("scp:/127.1/x")?.host, "127.1");
  for (
    const u of [
      "https://localhost/x",
      "file:///x",
      "ssh://h/x",
      "localhost/x",
      "sftp:localhost/x",
      "sftp:////localhost/x",
      "sftp:\\\\localhost/x",
    ]
  ) {
    assert.equal(machineUrlFile(u, "s"), null, u);
  }
});

Deno.test("quotePaths: the paths curl's SFTP quote commands name", () => {
  assert.deepEqual(quotePaths("rm /home/me/.ssh/id_rsa"), ["/home/me/.ssh/id_rsa"]);
  assert.deepEqual(quotePaths("*rename a .ssh/x"), ["a", ".ssh/x"]);
  assert.deepEqual(quotePaths("-chmod 600 /~/.ssh/x"), ["~/.ssh/x"]);
  assert.deepEqual(quotePaths('+symlink "/a b" c'), ["/a b", "c"]);
  assert.deepEqual(quotePaths("pwd"), []);
  assert.deepEqual(quotePaths("DELE x"), [null]);
  assert.deepEqual(quotePaths("rm"), [null]);
});

Deno.test("ftpClientFiles: a session on the site an ftp client opens", () => {
  const hosts = (s: string) =>
    ftpClientFiles(s.split(" ").map(literal)).map((f) => [f.path, f.on?.host ?? "?"]);
  assert.deepEqual(hosts("lftp sftp://127.1"), [[null, "127.1"]]);
  assert.deepEqual(hosts("ftp localhost 21"), [[null, "localhost"]]);
  assert.deepEqual(hosts("lftp -u me -p 2121 box"), [[null, "box"]]);
  assert.deepEqual(hosts("tnftp -u ftp://localhost/d/ x"), [[null, "localhost"]]);
  const c = ftpClientFiles([literal("lftp"), literal("-c"), literal("open -u me h; get x")]);
  assert.deepEqual(c.map((f) => f.on?.host), ["h"]);
  assert.deepEqual(hosts("lftp -e help"), []);
});

/** The adversarial project, run by `user`, allowed by default (pi-controls' own files protected). */
const ctx: Context = { ...adversarialCtx, env: { ...adversarialCtx.env, USER: "user" } };
const open = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { "~/.ssh/**": "deny", ".env": "deny" },
}, { agentDir: "/home/user/.pi/agent", home: "/home/user" });

/** Each row under read-only and allow-by-default. */
async function table(rows: [string, Action, Action][]): Promise<void> {
  const wrong: string[] = [];
  for (const [command, ro, op] of rows) {
    const a = (await bash(readOnly, ctx, command)).action;
    const b = (await bash(open, ctx, command)).action;
    if (a !== ro) wrong.push(`read-only: ${command} got ${a}, want ${ro}`);
    if (b !== op) wrong.push(`open: ${command} got ${b}, want ${op}`);
  }
  assert.deepEqual(wrong, []);
}

Deno.test("curl, wget, aria2c and ftp clients: a URL of this machine names its file", async () => {
  await table([
    // curl's sftp and scp: read, or written by `-T`, as `file://` and `scp localhost:` are.
    ["curl sftp://localhost/~/.ssh/id_rsa", "deny", "deny"],
    ["curl scp://127.1/home/user/.ssh/id_rsa", "deny", "deny"],
    ["curl 'sftp://[::1]/%7E/.ssh/id_rsa'", "deny", "deny"],
    ["curl sftp://[::1]/~/.ssh/id_rsa", "deny", "deny"],
    ["curl 'sftp://app-7f000001.nip.io/~/.ssh/{config,id_rsa}'", "deny", "deny"],
    ["curl --proto-default sftp localhost/~/.ssh/id_rsa", "deny", "deny"],
    ["curl -T /tmp/pub sftp://localhost/~/.ssh/authorized_keys", "deny", "deny"],
    ["curl -T /tmp/pub sftp://localhost/~/.ssh/", "deny", "deny"],
    ["curl -T /tmp/x sftp://localhost/~/.pi/agent/extensions/pi-controls.jsonc", "deny", "ask"],
    ["curl -Q 'rm /home/user/.ssh/id_rsa' sftp://localhost/", "deny", "deny"],
    ["curl -Q '*rename x .ssh/id_rsa' sftp://localhost/", "deny", "deny"],
    // Every spelling curl's parser takes: one to three slashes, any case.
    ["curl -T key.pub 'sftp:/localhost/~/.ssh/authorized_keys'", "deny", "deny"],
    ["curl 'sftp:///localhost/~/.ssh/config'", "deny", "deny"],
    ["curl 'SFTP:/127.1/home/user/.ssh/id_rsa'", "deny", "deny"],
    // A host sent to this machine: `--resolve`, `--connect-to`, `--unix-socket`.
    ["curl --resolve x.com:22:127.0.0.1 sftp://x.com/~/.ssh/authorized_keys", "deny", "deny"],
    ["curl --resolve '*:22:127.0.0.1' sftp://x.com/~/.ssh/id_rsa", "deny", "deny"],
    ["curl --resolve +X.com:22:10.0.0.1,::1 sftp://x.com/~/.ssh/id_rsa", "deny", "deny"],
    ["curl --connect-to ::127.0.0.1: sftp://x.com/~/.ssh/authorized_keys", "deny", "deny"],
    ["curl --connect-to x.com:22:[::1]:22 sftp://x.com/~/.ssh/id_rsa", "deny", "deny"],
    ["curl -Q 'rm .ssh/id_rsa' --resolve x.com:22:127.0.0.1 sftp://x.com/", "deny", "deny"],
    ['curl --resolve "$R" sftp://x.com/~/.ssh/id_rsa', "deny", "deny"],
    ["curl --unix-socket /tmp/s sftp://x.com/~/.ssh/id_rsa", "deny", "deny"],
    ["curl sftp://localhost/home/user/project/.env", "deny", "deny"],
    // Another user's home, a server's own files: a place not known.
    ["curl -u root: sftp://localhost/~/x", "deny", "ask"],
    ["curl ftp://localhost/x", "deny", "ask"],
    ["curl smb://127.0.0.1/share/x", "deny", "ask"],
    ["wget ftp://localhost/x", "deny", "ask"],
    ["aria2c sftp://localhost/home/user/.ssh/id_rsa", "deny", "deny"],
    ["lftp -e 'get .ssh/id_rsa' sftp://localhost", "deny", "ask"],
    ["ftp 127.1", "deny", "ask"],
    // Another machine's, and web servers' URLs, as before.
    ["curl sftp://example.com/~/.ssh/id_rsa", "deny", "allow"],
    ["curl -T /tmp/x sftp://deploy.example.com/~/.ssh/", "deny", "allow"],
    ["curl http://localhost:8000/.ssh/id_rsa", "deny", "allow"],
    ["wget ftp://ftp.gnu.org/gnu/x.tar.gz", "deny", "allow"],
    ["lftp sftp://deploy.example.com", "deny", "allow"],
    ["curl sftp://localhost/tmp/x", "deny", "allow"],
    ["curl --resolve y.com:22:127.0.0.1 sftp://x.com/~/.ssh/id_rsa", "deny", "allow"],
    ["curl --connect-to x.com:22::2222 sftp://x.com/~/.ssh/id_rsa", "deny", "allow"],
    ["curl --resolve x.com:443:127.0.0.1 https://x.com/.ssh/id_rsa", "deny", "allow"],
    ["curl --unix-socket /var/run/docker.sock http://localhost/containers/json", "deny", "allow"],
  ]);
});
