import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkActions, ctxIn, HAS_GIT, runGit, secretsDenied, tempRepository } from "../testing.ts";
import { loadBashParser } from "../shell/parser.ts";
import { decide } from "./engine.ts";
import { realFs } from "./fs_facts.ts";
import { configSettings } from "./git_config_files.ts";

const home = "/home/user";
/** Allow by default; `~/.ssh/**` and `secrets/**` denied, `.env` asked about. */
const DL = secretsDenied(home);
const parser = await loadBashParser();

const FILES = [
  "/p/src/main.ts",
  "/p/.git/HEAD",
  `${home}/.ssh/id_rsa`,
  "/srv/r/HEAD",
  "/srv/r/hooks/post-receive",
];

/** A repository at /p whose `.git/config` is `config` (the user's `~/.gitconfig`: `user`). */
function repo(config: string, user = "", head = "ref: refs/heads/main\n") {
  return ctxIn("/p", {
    files: FILES,
    home,
    contents: {
      "/p/.git/config": config,
      "/p/.git/HEAD": head,
      ...(user ? { [`${home}/.gitconfig`]: user } : {}),
    },
  });
}

const GITHUB = '[remote "origin"]\n\turl = git@github.com:me/app.git\n';

Deno.test("git remotes: a remote's URL on this machine is judged as given", async () => {
  const ssh = '[remote "o"]\n\turl = /home/user/.ssh\n[remote "k"]\n\turl = localhost:.ssh\n';
  await checkActions(DL, repo(GITHUB + ssh), [
    // A remote named: a local path, a host that is this machine.
    ["git push o", "deny"],
    ["git push o main", "deny"],
    ["git fetch o", "deny"],
    ["git pull o main", "deny"],
    ["git ls-remote o", "deny"],
    ["git push k main", "deny"],
    ["git fetch --multiple origin o", "deny"],
    ["git fetch --all", "deny"],
    ["git remote update", "deny"],
    ["git remote show o", "deny"],
    ["git remote prune k", "deny"],
    ["git archive --remote=o HEAD", "deny"],
    ["git push --repo=o", "deny"],
    // What only prints the URL, or names no remote, contacts none.
    ["git ls-remote --get-url o", "allow"],
    ["git remote -v", "allow"],
    ["git remote show -n o", "allow"],
    // Elsewhere: as before.
    ["git push origin main", "allow"],
    ["git fetch origin", "allow"],
    ["git push", "allow"],
    // (What a pull merges is not seen, wherever it comes from: `secrets/**` may come to lie below
    // the work tree's top, git_writes.ts.)
    ["git pull", "ask"],
  ]);
  // Other spellings of a path here: file://, ~, relative to the work tree's top, ssh://.
  for (
    const url of ["file:///home/user/.ssh", "~/.ssh", "../home/user/.ssh", "ssh://127.1/~/.ssh"]
  ) {
    await checkActions(DL, repo(`[remote "o"]\n\turl = "${url}"\n`), [["git push o", "deny"]]);
  }
  // A pushurl for the push, the url for the fetch.
  const split = '[remote "o"]\n\turl = git@github.com:a/b\n\tpushurl = /home/user/.ssh\n';
  await checkActions(DL, repo(split), [["git push o", "deny"], ["git fetch o", "allow"]]);
});

Deno.test("git remotes: the remote a push or fetch given none contacts", async () => {
  const ssh = '[remote "o"]\n\turl = /home/user/.ssh\n';
  const rows = (branch: string, want: string) =>
    checkActions(DL, repo(GITHUB + ssh + branch), [["git push", want as "deny"]]);
  await rows('[branch "main"]\n\tremote = o\n', "deny");
  await rows('[branch "main"]\n\tpushRemote = o\n\tremote = origin\n', "deny");
  await rows('[remote]\n\tpushDefault = o\n[branch "main"]\n\tremote = origin\n', "deny");
  await rows('[branch "main"]\n\tpushRemote = origin\n[remote]\n\tpushDefault = o\n', "allow");
  // Another branch's upstream is not this one's; a checkout first may make it so.
  await rows('[branch "dev"]\n\tremote = o\n', "allow");
  await checkActions(DL, repo(GITHUB + ssh + '[branch "dev"]\n\tremote = o\n'), [
    ["git checkout dev && git push", "deny"],
    ["git switch -c x -t o/main && git pull", "deny"],
    ["git add -A && git commit -m x && git push", "allow"],
  ]);
  // A group (`remotes.NAME`), `remote update`'s default group.
  await checkActions(DL, repo(GITHUB + ssh + "[remotes]\n\tall = origin o\n"), [
    ["git fetch all", "deny"],
    ["git remote update all", "deny"],
  ]);
});

Deno.test("git remotes: insteadOf and pushInsteadOf rewrite a URL, in any config file", async () => {
  const user =
    '[url "/home/user/.ssh/"]\n\tpushInsteadOf = gh:\n[url "localhost:"]\n\tinsteadOf = lh:\n';
  await checkActions(DL, repo('[remote "g"]\n\turl = gh:x\n', user), [
    ["git push g", "deny"],
    ["git fetch g", "allow"],
    ["git push gh:x main", "deny"],
    ["git clone lh:.ssh x", "deny"],
    ["git ls-remote lh:.ssh", "deny"],
    ["git fetch gh:x", "allow"],
  ]);
  // A rewrite from an include, and one from a conditional include (it may apply).
  const included = {
    [`${home}/.gitconfig`]: '[include]\n\tpath = more\n[includeIf "gitdir:~/w/"]\n\tpath = work\n',
    [`${home}/more`]: '[url "/home/user/.ssh/"]\n\tinsteadOf = a:\n',
    [`${home}/work`]: '[url "/home/user/.ssh/"]\n\tinsteadOf = b:\n',
  };
  const ctx = ctxIn("/p", {
    files: FILES,
    home,
    contents: { "/p/.git/config": GITHUB, "/p/.git/HEAD": "ref: refs/heads/main\n", ...included },
  });
  await checkActions(DL, ctx, [
    ["git fetch a:x", "deny"],
    ["git fetch b:x", "deny"],
    ["git fetch c:x", "allow"],
  ]);
});

Deno.test("git remotes: what the stages before set, and what cannot be known", async () => {
  await checkActions(DL, repo(GITHUB), [
    ["git remote add o localhost:.ssh && git push o", "deny"],
    ["git remote add o /home/user/.ssh; git fetch o", "deny"],
    ["git remote set-url origin localhost:.ssh && git push", "deny"],
    ["git remote set-url --push origin localhost:.ssh && git push", "deny"],
    ["git config remote.origin.url localhost:.ssh && git push", "deny"],
    ["git config set remote.origin.pushurl localhost:.ssh && git push", "deny"],
    ["git config url.localhost:.ssh/.insteadOf git@github.com:me/ && git push", "deny"],
    ["git push -u localhost:.ssh main && git push", "deny"],
    ["git -c remote.origin.url=localhost:.ssh fetch", "deny"],
    ['git remote add o "$X" && git push o', "ask"],
    ["git config -e && git push", "ask"],
    ["git some-alias && git push", "ask"],
    ["echo '[remote \"origin\"] url = /x' >> .git/config && git push", "ask"],
    // A stage after the push changes nothing it read.
    ["git push && git remote add o localhost:.ssh", "allow"],
    ["git init && git remote add origin git@github.com:me/x && git push -u origin main", "allow"],
    ["npm test && git push", "allow"],
  ]);
  // A config file git would refuse, one that cannot be read: not known.
  await checkActions(DL, repo('[remote "o"\n\turl = x\n'), [["git push", "ask"]]);
  await checkActions(DL, repo(GITHUB, '[include]\n\tpath = "unclosed\n'), [["git push", "ask"]]);
  // The old files of remotes.
  const old = ctxIn("/p", {
    files: [...FILES, "/p/.git/remotes/o"],
    home,
    contents: { "/p/.git/config": GITHUB, "/p/.git/remotes/o": "URL: /home/user/.ssh\n" },
  });
  await checkActions(DL, old, [["git push o", "ask"], ["git push origin", "allow"]]);
});

Deno.test("git remotes: ext:: where allowed runs its command; a push runs the hooks there", async () => {
  const ext = '[remote "x"]\n\turl = "ext::sh -c cat% /home/user/.ssh/id_rsa"\n';
  await checkActions(DL, repo(GITHUB + ext), [
    ["git fetch x", "allow"],
    ["git -c protocol.ext.allow=always fetch x", "deny"],
    ["GIT_ALLOW_PROTOCOL=ext git fetch x", "deny"],
  ]);
  await checkActions(DL, repo(GITHUB + ext, "[protocol]\n\tallow = always\n"), [
    ["git fetch x", "deny"],
  ]);
  // A push into a repository here runs its hooks; a fetch runs none, nor a push to itself.
  await checkActions(DL, repo(GITHUB + '[remote "b"]\n\turl = /srv/r\n'), [
    ["git push b main", "ask"],
    ["git push /srv/r main", "ask"],
    ["git fetch b", "allow"],
    ["git push . HEAD:x", "allow"],
    ["git push /srv/none main", "allow"],
    ["git init --bare /srv/new && git push /srv/new main", "allow"],
  ]);
});

Deno.test("git remotes: a remote's vcs runs git-remote-<vcs>; ext's runs the URL", async () => {
  const vcs = '[remote "x"]\n\tvcs = ext\n\turl = sh -c "cat /home/user/.ssh/id_rsa"\n';
  const allow = "[protocol]\n\tallow = always\n";
  await checkActions(DL, repo(GITHUB + vcs), [
    // (Not allowed: git refuses the ext transport.)
    ["git fetch x", "allow"],
    ["git -c protocol.ext.allow=always fetch x", "deny"],
    ["GIT_ALLOW_PROTOCOL=ext git pull x", "deny"],
    ["git fetch origin", "allow"],
  ]);
  await checkActions(DL, repo(GITHUB + vcs + allow), [
    ["git fetch x", "deny"],
    ["git push x main", "deny"],
    ["git remote update", "deny"],
    // Another helper runs elsewhere; origin given ext by -c runs its URL as a command.
    ["git -c remote.x.vcs=hg fetch x", "allow"],
    ["git -c remote.origin.vcs=ext fetch origin", "allow"],
    ["git -c remote.origin.vcs=ext -c remote.origin.url='cat .env' fetch origin", "ask"],
  ]);
  // Set by the stages before, in the command.
  await checkActions(DL, repo(GITHUB), [
    [
      "git config protocol.ext.allow always; git config remote.y.vcs ext; " +
      "git config remote.y.url 'sh -c \"cat ~/.ssh/id_rsa\"'; git fetch y",
      "deny",
    ],
    [
      "git config remote.y.vcs ext; git config remote.y.url 'cat src/main.ts'; git fetch y",
      "allow",
    ],
  ]);
});

Deno.test("git config: the parser reads what git reads", () => {
  assert.deepEqual(
    configSettings('[Remote "O.x"]\n\tURL = "a b" ; c\n\tflag\n[url.X]\n\tv = 1\\\n2 # x\n'),
    [
      { key: "remote.O.x.url", value: "a b" },
      { key: "remote.O.x.flag", value: "true" },
      { key: "url.x.v", value: "12" },
    ],
  );
  assert.equal(configSettings('[a]\n\tx = "open\n'), null);
  assert.equal(configSettings("[a]\n\tx = \\q\n"), null);
  assert.equal(configSettings("x = 1\n"), null);
});

Deno.test({
  name: "git config: the parser agrees with git config --list",
  ignore: !HAS_GIT,
}, () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-config-"));
  try {
    const text = [
      '[remote "origin"]',
      '\turl = "/srv/x y" ; a comment',
      "\tpushurl = /a\\tb#c",
      '[url "ssh://h/"] insteadOf = gh: # same line',
      "[Core]",
      "\tBare",
      "\tpager = less \\",
      '  -R "x;y"',
      "[sec.Sub]",
      "\tk = v  ",
      '[esc "q\\"x"]',
      "\tk = \\\\n",
    ].join("\n") + "\n";
    writeFileSync(join(dir, "c"), text);
    const git = runGit(dir, ["config", "--file", "c", "--list", "-z"]).split("\0").filter(Boolean);
    const want = git.map((l) => {
      const nl = l.indexOf("\n");
      return nl < 0 ? [l, "true"] : [l.slice(0, nl), l.slice(nl + 1)];
    });
    // (git prints a subsection as written, the section and name in lower case, as we key them.)
    const got = configSettings(text)!.map((e) => [e.key, e.value]);
    assert.deepEqual(got, want);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test({
  name: "git remotes: a real repository whose remote is the home's .ssh",
  ignore: !HAS_GIT,
}, () => {
  const r = tempRepository(["src/a.ts"]);
  const userHome = mkdtempSync(join(tmpdir(), "pi-controls-home-"));
  try {
    mkdirSync(join(userHome, ".ssh"));
    writeFileSync(join(userHome, ".ssh", "id_rsa"), "k");
    r.git("remote", "add", "origin", "git@github.com:me/app.git");
    r.git("remote", "add", "keys", `${userHome}/.ssh`);
    r.git("config", `url.${userHome}/.ssh/.pushInsteadOf`, "mine:");
    r.git("remote", "add", "mine", "mine:x");
    assert.equal(r.git("remote", "get-url", "--push", "mine").trim(), `${userHome}/.ssh/x`);
    const config = secretsDenied(userHome);
    const ctx = { cwd: r.dir, home: userHome, env: { HOME: userHome }, fs: realFs() };
    const at = (command: string) =>
      decide(config, { tool: "bash", input: { command } }, ctx, { parser }).action;
    assert.equal(at("git push keys main"), "deny");
    assert.equal(at("git fetch keys"), "deny");
    assert.equal(at("git push mine main"), "deny");
    assert.equal(at("git fetch mine"), "allow");
    assert.equal(at("git push origin main"), "allow");
    r.git("config", "branch.main.remote", "keys");
    r.git("checkout", "-q", "-b", "main");
    assert.equal(at("git pull"), "deny");
  } finally {
    r.remove();
    rmSync(userHome, { recursive: true, force: true });
  }
});
