import { checkActions, ctxIn, secretsDenied } from "../testing.ts";
import { gateFiles } from "../testing_adversarial.ts";

const home = "/home/user";
/** Allow by default; `~/.ssh/**` and `secrets/**` denied, `.env` asked about. */
const DL = secretsDenied(home);
const FILES = ["/p/src/main.ts", "/p/.env", "/p/secrets/key", `${home}/.ssh/id_rsa`];
/** The user's everyday settings: a pager, an editor, the builtin fsmonitor, a credential store. */
const USER = "[core]\n\tpager = delta\n\teditor = vim\n\tfsmonitor = true\n" +
  "[credential]\n\thelper = store\n";

/** A repository at /p whose `.git/config` is `config`. */
function repo(config: string, extra: Record<string, string> = {}) {
  return ctxIn("/p", {
    home,
    files: [...FILES, "/p/.git/hooks/pre-commit.sample"],
    contents: {
      "/p/.git/HEAD": "ref: refs/heads/main\n",
      "/p/.git/config": config,
      [`${home}/.gitconfig`]: USER,
      ...extra,
    },
  });
}

Deno.test("git's config: the repository's command settings run for the subcommands that run them", async () => {
  await checkActions(DL, repo("[core]\n\tfsmonitor = cat ~/.ssh/id_rsa\n"), [
    ["git status", "deny"],
    ["git diff", "deny"],
    ["git add src/main.ts", "deny"],
    ["git commit -m x", "deny"],
    // (They read no index.)
    ["git log --oneline", "allow"],
    ["git rev-parse HEAD", "allow"],
  ]);
  await checkActions(DL, repo("[core]\n\teditor = cat secrets/key\n"), [
    ["git commit", "deny"],
    ["git commit --amend", "deny"],
    ["git tag -a v1", "deny"],
    ["git rebase -i HEAD~2", "deny"],
    ["git commit -m x", "allow"],
    ["git commit -am x", "allow"],
    ["git commit --amend --no-edit", "allow"],
    ["git commit -F msg.txt", "allow"],
    ["git tag v1", "allow"],
    ["GIT_EDITOR=true git commit", "allow"],
    ["git status", "allow"],
  ]);
  await checkActions(DL, repo("[sequence]\n\teditor = cat secrets/key\n"), [
    ["git rebase -i HEAD~2", "deny"],
    // (Asked, not denied: the files of the commits it writes are not seen here.)
    ["GIT_SEQUENCE_EDITOR=: git rebase -i HEAD~2", "ask"],
    ["git rebase main", "ask"],
  ]);
  const transport = '[remote "origin"]\n\turl = git@github.com:me/app.git\n';
  for (const setting of ["[core]\n\tsshCommand", "[credential]\n\thelper", "[core]\n\taskPass"]) {
    const value = setting.includes("helper") ? "!cat ~/.ssh/id_rsa" : "cat ~/.ssh/id_rsa";
    await checkActions(DL, repo(`${transport}${setting} = ${value}\n`), [
      ["git fetch", "deny"],
      ["git push origin main", "deny"],
      ["git pull", "deny"],
      ["git log", "allow"],
    ]);
  }
  await checkActions(DL, repo("[diff]\n\texternal = cat secrets/key\n"), [
    ["git diff", "deny"],
    ["git diff --no-ext-diff", "allow"],
    ["git log -p", "allow"],
    ["git show --ext-diff", "deny"],
  ]);
  await checkActions(DL, repo("[gpg]\n\tprogram = cat secrets/key\n"), [
    ["git commit -S -m x", "deny"],
    ["git verify-commit HEAD", "deny"],
    ["git commit -m x", "allow"],
  ]);
  await checkActions(DL, repo("[interactive]\n\tdiffFilter = cat secrets/key\n"), [
    ["git add -p", "deny"],
    ["git add -i", "deny"],
    ["git stash -p", "deny"],
    ["git checkout --patch", "deny"],
    ["git add src/main.ts", "allow"],
    // (A patch shown, not picked from: no filter.)
    ["git log -p", "allow"],
    ["git show -p --ext-diff", "allow"],
    ["git commit -i -m x src/main.ts", "allow"],
  ]);
});

Deno.test("git's config: the user's own settings, and everyday work, ask nothing more", async () => {
  const ctx = repo("[core]\n\tbare = false\n\tfsmonitor = true\n", {
    [`${home}/.gitconfig`]: USER + "[core]\n\tsshCommand = ssh -i ~/.ssh/id_rsa\n",
  });
  await checkActions(DL, ctx, [
    ["git status", "allow"],
    ["git log -p", "allow"],
    ["git diff", "allow"],
    ["git commit -m x", "allow"],
    ["git fetch", "allow"],
    ["git config user.name x && git commit -m x", "allow"],
    ["git log > /tmp/log.txt; git status", "allow"],
  ]);
});

Deno.test("git's config: a config file or hook another stage writes first runs a command not known", async () => {
  const diffs = {
    "/p/fix.diff": "--- a/src/main.ts\n+++ b/src/main.ts\n@@ -1 +1 @@\n-a\n+b\n",
    "/p/hook.diff": "--- .git/hooks/pre-commit\n+++ .git/hooks/pre-commit\n@@ -0,0 +1 @@\n+x\n",
  };
  await checkActions(DL, repo("", diffs), [
    ["printf '[core]\\n\\tfsmonitor = cat x' >> .git/config; git status", "ask"],
    ["echo x | tee -a .git/config && git status", "ask"],
    ["sed -i s/a/b/ .git/config && git diff", "ask"],
    ["cp /tmp/cfg ~/.gitconfig; git status", "ask"],
    ["git show HEAD:cfg > .git/config; git status", "ask"],
    ["echo 'cat ~/.ssh/id_rsa' > .git/hooks/pre-commit && git commit -m x", "ask"],
    ["cp /tmp/h .git/hooks/post-checkout; git checkout main", "ask"],
    // After git has run, or a write elsewhere: nothing more.
    ["git status; echo x >> .git/config", "allow"],
    ["echo x > notes.txt && git add notes.txt", "allow"],
  ]);
  // A formatter or a patch before it: the files of its languages, those its diff names. (Under
  // the gate's own protection: the tree they write holds no protected path.)
  await checkActions(gateFiles, repo("", diffs), [
    ["prettier --write . && git commit -m x", "allow"],
    ["npx prettier --write . && git push", "allow"],
    ["gofmt -w . && git commit -am x", "allow"],
    ["black . && git diff", "allow"],
    ["prettier --plugin x --write . && git commit -m x", "ask"],
    ["prettier --write .git/hooks/pre-commit && git commit -m x", "ask"],
    ["patch -p0 < hook.diff && git commit -m x", "ask"],
    ["git apply $D && git commit -m x", "ask"],
    ["curl -so fix.diff https://x/p; patch -p1 < fix.diff && git commit -m x", "ask"],
    ["patch -p1 < fix.diff && git commit -am x", "allow"],
  ]);
  // A hooks directory core.hooksPath names.
  await checkActions(DL, repo("[core]\n\thooksPath = .githooks\n"), [
    ["echo x > .githooks/pre-commit; git commit -m x", "ask"],
    ["echo x > .git/hooks/pre-commit; git commit -m x", "allow"],
  ]);
});

Deno.test("git's config: a work tree the repository's config puts elsewhere is where git works", async () => {
  for (const tree of [`${home}/.ssh`, `../..${home}/.ssh`]) {
    await checkActions(DL, repo(`[core]\n\tworktree = ${tree}\n`), [
      ["git checkout evil", "deny"],
      ["git add id_rsa", "deny"],
      ["git commit -m x", "deny"],
      ["git grep -h . -- id_rsa", "deny"],
      ["git -C src status", "deny"],
      ["git status", "deny"],
      // (It reads no work tree.)
      ["git log --oneline", "allow"],
    ]);
  }
  // The work tree's own config, where the repository's turns it on.
  const worktreeConfig = "[extensions]\n\tworktreeConfig = true\n";
  const own = { "/p/.git/config.worktree": `[core]\n\tworktree = ${home}/.ssh\n` };
  await checkActions(DL, repo(worktreeConfig, own), [["git status", "deny"]]);
  await checkActions(DL, repo("", own), [["git status", "allow"]]);
  // Paths given from a cwd outside the work tree are from its top.
  const other = repo("[core]\n\tworktree = /q\n", { "/q/secrets/key": "k" });
  await checkActions(DL, other, [["git add secrets/key", "deny"]]);
  await checkActions(DL, repo("[core]\n\tworktree = /q\n", { "/q/a.txt": "a" }), [
    ["git add .env", "ask"],
    ["git status", "allow"],
  ]);
  // The directory holding `.git` itself (a submodule's config names its own): nothing more.
  await checkActions(DL, repo("[core]\n\tworktree = ..\n"), [
    ["git status", "allow"],
    ["git commit -m x", "allow"],
    ["git add src/main.ts", "allow"],
  ]);
});

Deno.test("git's config: core.fsmonitor runs for blame, annotate, check-ignore, check-attr, fsck", async () => {
  await checkActions(DL, repo("[core]\n\tfsmonitor = cat ~/.ssh/id_rsa\n"), [
    ["git blame src/main.ts", "deny"],
    ["git annotate src/main.ts", "deny"],
    ["git check-ignore src/main.ts", "deny"],
    ["git check-attr -a src/main.ts", "deny"],
    ["git fsck", "deny"],
    ["git show HEAD", "allow"],
    ["git cat-file -p HEAD", "allow"],
  ]);
  await checkActions(DL, repo("[core]\n\tfsmonitor = true\n"), [
    ["git blame src/main.ts", "allow"],
    ["git check-ignore src/main.ts", "allow"],
    ["git fsck", "allow"],
  ]);
});

Deno.test("git's config: the editor forms parse-options reads (abbreviations, clusters)", async () => {
  await checkActions(DL, repo("[core]\n\teditor = cat secrets/key\n"), [
    ["git commit -m x --ed", "deny"],
    ["git rebase --inter HEAD~1", "deny"],
    ["git rebase -ki HEAD~1", "deny"],
    ["git rebase --edit-todo", "deny"],
    ["git commit --fixup=amend:HEAD", "deny"],
    ["git branch --edit-description", "deny"],
    ["git tag --annot v8", "deny"],
    ["git tag -a v8", "deny"],
    ["git merge --edit main", "deny"],
    ["git merge -e main", "deny"],
    ["git notes add", "deny"],
    ["git am --interactive x.patch", "deny"],
    ["git commit -m x", "allow"],
    ["git commit --fixup=HEAD", "allow"],
    ["git tag -a -m x v8", "allow"],
    ["git tag -am x v8", "allow"],
    ["git merge main", "ask"],
    ["git notes show", "allow"],
    ["git grep -e x", "allow"],
  ]);
  await checkActions(
    DL,
    repo("[core]\n\teditor = cat secrets/key\n[pull]\n\trebase = interactive\n"),
    [
      ["git pull", "deny"],
      // (Asked, not denied: the files of the commits it writes are not seen here.)
      ["git pull --no-rebase", "ask"],
    ],
  );
});

Deno.test("git's config: helpers, trailers, tools, signing and transports the settings name", async () => {
  await checkActions(DL, repo("[credential]\n\thelper = !cat ~/.ssh/id_rsa\n"), [
    ["printf 'host=x\\n' | git credential fill", "deny"],
    ["git credential approve < /dev/null", "deny"],
  ]);
  await checkActions(DL, repo('[trailer "sign"]\n\tcmd = cat ~/.ssh/id_rsa\n'), [
    ["git interpret-trailers < msg.txt", "deny"],
    ["git commit -m x --trailer sign=me", "deny"],
    ["git commit -m x", "allow"],
  ]);
  await checkActions(
    DL,
    repo('[difftool "x"]\n\tcmd = cat ~/.ssh/id_rsa\n[mergetool "y"]\n\tcmd = cat ~/.ssh/id_rsa\n'),
    [
      ["git difftool", "deny"],
      ["git mergetool", "deny"],
      ["git diff", "allow"],
    ],
  );
  const gpg = "[gpg]\n\tprogram = cat secrets/key\n";
  for (
    const [setting, command] of [
      ["[commit]\n\tgpgSign = true\n", "git commit -m x"],
      ["[tag]\n\tgpgSign = true\n", "git tag -a -m x v1"],
      ["[log]\n\tshowSignature = true\n", "git log"],
      ["[merge]\n\tverifySignatures = true\n", "git merge main"],
    ]
  ) {
    await checkActions(DL, repo(gpg + setting), [[command, "deny"], ["git status", "allow"]]);
  }
  await checkActions(DL, repo(gpg), [["git log", "allow"], ["git commit -m x", "allow"]]);
  const local = '[remote "o"]\n\turl = /srv/app.git\n\tuploadpack = cat ~/.ssh/id_rsa\n' +
    "\treceivepack = cat ~/.ssh/id_rsa\n";
  await checkActions(DL, repo(local), [
    ["git fetch o", "deny"],
    ["git pull o main", "deny"],
    ["git ls-remote o", "deny"],
    ["git push o main", "deny"],
    ["git log", "allow"],
  ]);
  const far = '[remote "o"]\n\turl = git@github.com:me/app.git\n\tuploadpack = cat ~/.ssh/id_rsa\n';
  await checkActions(DL, repo(far), [["git fetch o", "allow"]]);
  await checkActions(DL, repo('[submodule "m"]\n\tupdate = !cat ~/.ssh/id_rsa\n'), [
    ["git submodule update", "deny"],
    ["git submodule update --checkout", "allow"],
  ]);
});

Deno.test("git's config: a hooks path in the home directory written first", async () => {
  await checkActions(DL, repo("[core]\n\thooksPath = ~/.githooks\n"), [
    ["echo x > ~/.githooks/pre-commit; git commit -m x", "ask"],
    ["echo x > .githooks/pre-commit; git commit -m x", "allow"],
  ]);
});

Deno.test("git's config: a repository's config file not read whole may set any program", async () => {
  const evil = "[core]\n\tfsmonitor = cat ~/.ssh/id_rsa\n";
  for (
    const config of [
      `${evil}[include]\n\tpath = %(prefix)/nope\n`,
      `${evil}[include]\n\tpath = ~root/x\n`,
      `[include]\n\tpath = ~other/x\n${evil}`,
      `[includeIf "gitdir:/p/"]\n\tpath = %(prefix)/etc/x\n`,
      `${evil}[foo]\n${"\tk = " + "y".repeat(70) + "\n"}`.repeat(4000),
      "[core\n\tfsmonitor = cat ~/.ssh/id_rsa\n",
    ]
  ) {
    await checkActions(DL, repo(config), [
      ["git status", "ask"],
      ["git add src/main.ts", "ask"],
      ["git log", "ask"],
      // (Nothing configured runs.)
      ["git rev-parse HEAD", "allow"],
      ["git cat-file -p HEAD", "allow"],
    ]);
  }
  // (An include of a file there is not is skipped, as git skips it: the rest is known.)
  await checkActions(DL, repo(`[include]\n\tpath = nope/missing\n${evil}`), [
    ["git status", "deny"],
  ]);
  await checkActions(DL, repo("[include]\n\tpath = ../missing.cfg\n[core]\n\tbare = false\n"), [
    ["git status", "allow"],
  ]);
  // (A file too large, an included one: not known.)
  const big = `[foo]\n${"\tk = " + "y".repeat(70) + "\n"}`.repeat(4000);
  await checkActions(DL, repo("[include]\n\tpath = big.cfg\n", { "/p/.git/big.cfg": big }), [
    ["git status", "ask"],
    ["git rev-parse HEAD", "allow"],
  ]);
  // (The user's own file not read whole: the repository's settings are still judged, and an
  // everyday one asks nothing.)
  const user = { [`${home}/.gitconfig`]: `${USER}[include]\n\tpath = %(prefix)/etc/gitconfig\n` };
  await checkActions(DL, repo(evil, user), [["git status", "deny"]]);
  await checkActions(DL, repo("[core]\n\tbare = false\n", user), [
    ["git status", "allow"],
    ["git commit -m x", "allow"],
  ]);
  // (A variable not known that names no config file: the settings it would stand for judged.)
  await checkActions(DL, repo(evil), [
    ['GIT_AUTHOR_DATE="$(date)" git status', "deny"],
    ["HOME=$H git status", "ask"],
  ]);
  // (Asked for the value not known, no more.)
  await checkActions(DL, repo("[core]\n\tbare = false\n"), [
    ['GIT_AUTHOR_DATE="$(date)" git commit -m x', "ask"],
  ]);
});

Deno.test("git's config: an ssh signing key's command, and the other programs settings name", async () => {
  const ssh = '[gpg]\n\tformat = ssh\n[gpg "ssh"]\n\tdefaultKeyCommand = cat ~/.ssh/id_rsa\n';
  await checkActions(DL, repo(ssh), [
    ["git commit -S -m x", "deny"],
    ["git tag -s v1 -m x", "deny"],
    ["git commit --gpg-sign -m x", "deny"],
    // (It finds a key to sign with: checking a signature runs it not.)
    ["git verify-commit HEAD", "allow"],
    ["git log --show-signature", "allow"],
    ["git tag -v v1", "allow"],
    ["git commit -m x", "allow"],
  ]);
  await checkActions(DL, repo(`${ssh}[commit]\n\tgpgSign = true\n`), [
    ["git commit -m x", "deny"],
    ["git commit --no-gpg-sign -m x", "allow"],
  ]);
  for (const format of ["ssh", "x509", "openpgp"]) {
    await checkActions(DL, repo(`[gpg "${format}"]\n\tprogram = cat secrets/key\n`), [
      ["git commit -S -m x", "deny"],
      ["git verify-tag v1", "deny"],
      ["git commit -m x", "allow"],
    ]);
  }
  const remote = '[remote "origin"]\n\turl = git://example.com/app.git\n';
  await checkActions(DL, repo(`${remote}[core]\n\tgitProxy = ~/.ssh/id_rsa\n`), [
    ["git fetch", "deny"],
    ["git status", "allow"],
  ]);
  await checkActions(DL, repo("[core]\n\talternateRefsCommand = cat ~/.ssh/id_rsa\n"), [
    ["git fetch", "deny"],
    ["git status", "allow"],
  ]);
  await checkActions(DL, repo('[tar "tgz"]\n\tcommand = cat ~/.ssh/id_rsa\n'), [
    ["git archive --format=tgz HEAD -o /tmp/a.tgz", "deny"],
    ["git log", "allow"],
  ]);
  await checkActions(DL, repo("[imap]\n\ttunnel = cat ~/.ssh/id_rsa\n"), [
    ["git imap-send < /tmp/p.mbox", "deny"],
    ["git status", "allow"],
  ]);
  await checkActions(DL, repo("[sendemail]\n\ttoCmd = cat ~/.ssh/id_rsa\n"), [
    ["git send-email /tmp/p.patch", "deny"],
    ["git status", "allow"],
  ]);
});

Deno.test("git's config: --continue that commits what was resolved opens the editor", async () => {
  // (git merge --continue and git rebase --continue run git commit on the message; cherry-pick,
  // revert and am --continue open it only on a terminal, which the agent's commands have not.)
  await checkActions(DL, repo("[core]\n\teditor = cat secrets/key\n"), [
    ["git merge --continue", "deny"],
    ["git merge --cont", "deny"],
    ["git rebase --continue", "deny"],
    ["GIT_EDITOR=true git merge --continue", "allow"],
    // (Not the editor; no merge nor `git am` session under way here: git fails, writing
    // nothing; git_underway_test.ts.)
    ["git merge --abort", "allow"],
    ["git am --continue", "allow"],
  ]);
  // (Not the todo list's editor.)
  await checkActions(DL, repo("[sequence]\n\teditor = cat secrets/key\n"), [
    // (No rebase under way here: git fails, writing nothing; git_underway_test.ts.)
    ["git rebase --continue", "allow"],
    ["git rebase --edit-todo", "deny"],
  ]);
});
