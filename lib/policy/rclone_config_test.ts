import { checkActions, ctxIn, secretsDenied } from "../testing.ts";

const home = "/home/user";
const DL = secretsDenied(home);
const CONF = [
  "[mine]\ntype = alias\nremote = /home/user\n",
  "[deep]\ntype = alias\nremote = mine:.ssh\n",
  "[loc]\ntype = local\n",
  "[s3]\ntype = s3\nprovider = AWS\n",
  "[box]\ntype = sftp\nhost = localhost\n",
  "[prod]\ntype = sftp\nhost = prod.example.com\n",
  "[u]\ntype = union\nupstreams = s3:b /home/user/x\n",
  "[c]\ntype = crypt\nremote = s3:b\n",
].join("");
const ctx = (contents: Record<string, string>, env: Record<string, string> = {}) =>
  ctxIn("/p", { files: ["/p/src/a.ts", `${home}/.ssh/id_rsa`], home, contents, env });
const DEFAULT = ctx({ [`${home}/.config/rclone/rclone.conf`]: CONF });

Deno.test("rclone config: a configured remote here is judged as the place it stands for", async () => {
  await checkActions(DL, DEFAULT, [
    ["rclone copy x mine:.ssh", "deny"],
    ["rclone copy mine:.ssh/id_rsa /tmp/x", "deny"],
    ["rclone copy x deep:", "deny"],
    ["rclone copy x loc:/home/user/.ssh", "deny"],
    ["rclone sync x box:.ssh", "deny"],
    ["rclone delete loc:/home/user/.ssh", "deny"],
    // A wrapper over a local path: a place not known.
    ["rclone copy x u:", "ask"],
    // Elsewhere, or no such remote: as before.
    ["rclone copy x s3:bucket", "allow"],
    ["rclone copy x c:", "allow"],
    ["rclone copy x prod:.ssh", "allow"],
    ["rclone copy x nope:a", "allow"],
    ["rclone copy x mine:src/a", "allow"],
    // The file another stage may write first: not known.
    ["echo '[x]' >> ~/.config/rclone/rclone.conf; rclone copy a s3:b", "ask"],
  ]);
  // Another config file: --config, $RCLONE_CONFIG, ~/.rclone.conf; the environment's remotes.
  const other = { "/etc/r.conf": CONF };
  await checkActions(DL, ctx(other), [
    ["rclone --config /etc/r.conf copy x mine:.ssh", "deny"],
    ["rclone copy --config=/etc/r.conf x mine:.ssh", "deny"],
    ["RCLONE_CONFIG=/etc/r.conf rclone copy x mine:.ssh", "deny"],
    ["rclone copy x mine:.ssh", "allow"],
    ["RCLONE_CONFIG_ZZ_TYPE=local rclone copy x zz:/home/user/.ssh", "deny"],
    ["RCLONE_CONFIG_ZZ_TYPE=alias RCLONE_CONFIG_ZZ_REMOTE=~/.ssh rclone copy x zz:", "deny"],
  ]);
  await checkActions(DL, ctx({ [`${home}/.rclone.conf`]: CONF }), [[
    "rclone copy x mine:.ssh",
    "deny",
  ]]);
  await checkActions(DL, ctx(other, { RCLONE_CONFIG: "/etc/r.conf" }), [
    ["rclone copy x mine:.ssh", "deny"],
  ]);
  // An encrypted configuration: not known.
  const sealed = { [`${home}/.config/rclone/rclone.conf`]: "RCLONE_ENCRYPT_V0:\nabc\n" };
  await checkActions(DL, ctx(sealed), [["rclone copy x mine:.ssh", "ask"]]);
});

Deno.test("rclone config: an sftp remote's ssh command runs; a server that may be here", async () => {
  const conf = [
    '[evil]\ntype = sftp\nhost = prod.example.com\nssh = sh -c "cat /home/user/.ssh/id_rsa"\n',
    "[hop]\ntype = sftp\nssh = ssh -p 2222 localhost\n",
    "[ok]\ntype = sftp\nhost = prod.example.com\nssh = ssh -i /p/src/a.ts prod.example.com\n",
    "[f]\ntype = ftp\nhost = localhost\n",
    "[f6]\ntype = ftp\nhost = [::1]:2121\n",
    "[far]\ntype = ftp\nhost = ftp.example.com\n",
    "[dav]\ntype = webdav\nurl = http://127.0.0.1:8080/dav\n",
    "[web]\ntype = http\nurl = https://example.com/files\n",
  ].join("");
  await checkActions(DL, ctx({ [`${home}/.config/rclone/rclone.conf`]: conf }), [
    ["rclone ls evil:", "deny"],
    ["rclone cat hop:.ssh/id_rsa", "deny"],
    ["rclone ls ok:", "allow"],
    ["rclone cat f:home/user/.ssh/id_rsa", "ask"],
    ["rclone cat f6:x", "ask"],
    ["rclone cat dav:x", "ask"],
    ["rclone cat far:x", "allow"],
    ["rclone cat web:x", "allow"],
  ]);
  // The environment's: RCLONE_CONFIG_NAME_SSH.
  const env = {
    RCLONE_CONFIG_E_TYPE: "sftp",
    RCLONE_CONFIG_E_HOST: "h.example.com",
    RCLONE_CONFIG_E_SSH: "cat /home/user/.ssh/id_rsa",
  };
  await checkActions(DL, ctx({}, env), [["rclone ls e:", "deny"]]);
});
