import { checkActions, ctxIn, rmDenied } from "../testing.ts";

// (Allow by default; `~/.ssh/**` denied, the gate's own files asked about, `rm *` denied.)
const config = rmDenied("/home/user", { ssh: true });

// (The user running the command is `user`, whose home is known; root's and bob's are not.)
const ctx = ctxIn("/home/user/project", {
  files: ["/home/user/project/src/main.ts", "/home/user/.ssh/id_rsa", "/tmp/x"],
  env: { USER: "user", HOME: "/home/user", TMPDIR: "/tmp" },
});

Deno.test("user_env: what runs as another user finds that user's HOME, not the caller's", async () => {
  await checkActions(config, ctx, [
    // Another user's HOME (root's by default) is not known: `~` there is no path of the caller's.
    ["sudo -H bash -c 'cat ~/.ssh/id_rsa'", "ask"],
    ["sudo bash -c 'cat ~/.ssh/id_rsa'", "ask"],
    ["sudo -E bash -c 'cat ~/.ssh/id_rsa'", "ask"],
    ["sudo -s bash -c 'cat ~/.ssh/id_rsa'", "ask"],
    ["sudo -u bob sh -c 'cd; cat .ssh/id_rsa'", "ask"],
    ["sudo -u bob sh -c 'cd ~ && cp /tmp/x .pi/agent/settings.json'", "ask"],
    ["sudo --user=bob sh -c 'cat $HOME/.ssh/id_rsa'", "ask"],
    ["sudo -u \"$U\" sh -c 'cat ~/.ssh/id_rsa'", "ask"],
    ["doas sh -c 'cat ~/.ssh/id_rsa'", "ask"],
    ["doas -u bob sh -c 'cat ~/README.md'", "ask"],
    ["pkexec --keep-cwd sh -c 'cat ~/.ssh/id_rsa'", "ask"],
    ["run0 sh -c 'cat ~/.ssh/id_rsa'", "ask"],
    ["su -c 'cat ~/.ssh/id_rsa'", "ask"],
    ["su bob -c 'cat ~/.ssh/id_rsa'", "ask"],
    ["su - bob -c 'cat ~/.ssh/id_rsa'", "ask"],
    ["runuser -u bob -- sh -c 'cat ~/.ssh/id_rsa'", "ask"],
    ["runuser -l bob -c 'cp /tmp/x ~/.pi/agent/settings.json'", "ask"],
    // (TMPDIR too: sudo, doas and a login shell drop it; `$TMPDIR/x` is then `/x`.)
    ["sudo sh -c 'rm -rf $TMPDIR/x'", "deny"],
    ["su - bob -c 'cat $TMPDIR/x'", "ask"],
    // Deeper: the text the nested text runs finds it too.
    ["sudo sh -c \"bash -c 'cat ~/.ssh/id_rsa'\"", "ask"],
    // The caller's own home, where it stays the caller's.
    ["sudo -u user sh -c 'cat ~/.ssh/id_rsa'", "deny"],
    ["sudo -g staff sh -c 'cat ~/.ssh/id_rsa'", "deny"],
    ["su -m bob -c 'cat ~/.ssh/id_rsa'", "deny"],
    ["su user -c 'cat ~/.ssh/id_rsa'", "deny"],
    ["su -l user -c 'cat ~/.ssh/id_rsa'", "deny"],
    ["sudo -u user sh -c 'cp /tmp/x ~/.pi/agent/settings.json'", "ask"],
    // The caller's shell expands a `~` outside the text: the caller's home.
    ["sudo -i cat ~/.ssh/id_rsa", "deny"],
    ["sudo -u bob cat ~/.ssh/id_rsa", "deny"],
    ["doas cat ~/.ssh/id_rsa", "deny"],
    // Everyday: nothing of HOME in the text.
    ["sudo sh -c 'echo 1 > /proc/sys/vm/drop_caches'", "allow"],
    ["sudo sh -c 'ls $TMPDIR/x'", "ask"],
    ["sudo bash -c 'cat /etc/hosts'", "allow"],
    ["sudo apt-get install -y jq", "allow"],
    ["sudo -u postgres psql -c 'select 1'", "allow"],
    ["sudo sh -c 'cat src/main.ts'", "allow"],
    // env -i: no HOME at all (`cd` fails, `~` stays `~`): not known either.
    ["env -i sh -c 'cat ~/.ssh/id_rsa'", "ask"],
  ]);
});
