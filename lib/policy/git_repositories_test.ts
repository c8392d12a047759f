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

/** The project's repository, a linked work tree of it, a clone, and repositories of others. */
const R = "/home/user/r";
const repos = ctxIn(R, {
  contents: {
    [`${R}/.git/config`]: "[core]\n\tbare = false\n",
    [`${R}/.git/worktrees/feat/commondir`]: "../..\n",
    [`${R}/.git/worktrees/feat/gitdir`]: "/home/user/wt-feat/.git\n",
    "/home/user/wt-feat/.git": `gitdir: ${R}/.git/worktrees/feat\n`,
    // A clone of it: its config is git's, and a hook it may run.
    "/tmp/cl/.git/config": '[remote "origin"]\n\turl = /home/user/r\n',
    "/tmp/hooked/.git/config": "",
    "/tmp/hooked/.git/hooks/post-index-change": "#!/bin/sh\ncat ~/.ssh/id_rsa\n",
    "/tmp/pathed/.git/config": "[core]\n\thooksPath = .githooks\n",
    "/tmp/pathed/.githooks/pre-commit": "#!/bin/sh\nrm -rf ~\n",
    "/tmp/monitored/.git/config": "[core]\n\tfsmonitor = rm -rf ~\n",
    "/tmp/aliased/.git/config": "[alias]\n\tst = !rm -rf ~\n",
    "/tmp/included/.git/config": "[include]\n\tpath = %(prefix)/etc/x\n",
    // A `.git` file that is no linked work tree's (a submodule's, or anywhere).
    "/tmp/sub/.git": "gitdir: /tmp/elsewhere\n",
    "/tmp/elsewhere/config": "",
  },
  files: [
    `${R}/src/a.ts`,
    `${R}/.git/HEAD`,
    `${R}/.git/objects/info/packs`,
    `${R}/.git/refs/heads/main`,
    `${R}/.git/hooks/pre-commit`,
    `${R}/.git/worktrees/feat/HEAD`,
    "/home/user/wt-feat/src/a.ts",
    ...["cl", "hooked", "pathed", "monitored", "aliased", "included"].map((r) =>
      `/tmp/${r}/.git/HEAD`
    ),
    "/tmp/cl/.git/hooks/pre-commit.sample",
    "/tmp/elsewhere/HEAD",
    "/tmp/elsewhere/objects/info/packs",
    "/tmp/elsewhere/refs/heads/main",
  ],
});

Deno.test("git in another repository: its settings and hooks judged as the project's, asked where not seen", async () => {
  // [command, read-only, deny-list]
  const rows: [string, Action, Action][] = [
    // The project's linked work tree: its repository's settings, its hooks the user's.
    ["cd ../wt-feat && git status", "allow", "allow"],
    ["git -C ../wt-feat log --oneline", "allow", "allow"],
    ["cd ../wt-feat && git commit -m x", "deny", "allow"],
    // A clone with git's settings and no hook but samples.
    ["cd /tmp/cl && git status", "allow", "allow"],
    ["git -C /tmp/cl log", "allow", "allow"],
    ["cd /tmp/cl && git commit -m x", "deny", "allow"],
    // A hook the subcommand may run (a log runs none), or in its `core.hooksPath`.
    ["cd /tmp/hooked && git status", "deny", "ask"],
    ["git -C /tmp/hooked log", "allow", "allow"],
    ["cd /tmp/pathed && git commit -m x", "deny", "ask"],
    // Its settings, judged: a command, an alias of one, config not read whole.
    ["cd /tmp/monitored && git status", "deny", "deny"],
    ["cd /tmp/aliased && git st", "deny", "ask"],
    ["cd /tmp/included && git status", "deny", "ask"],
    // Written first: its config or hooks.
    ["echo x > /tmp/cl/.git/hooks/pre-commit; cd /tmp/cl && git commit -m x", "deny", "ask"],
    ["cp x /tmp/cl/.git/config && git -C /tmp/cl status", "deny", "ask"],
    // A `.git` file that is no linked work tree's, `GIT_DIR`, `--git-dir`: as before.
    ["cd /tmp/sub && git status", "deny", "ask"],
    ["GIT_DIR=/tmp/elsewhere git -C /tmp/cl status", "deny", "deny"],
    ["git -C /tmp/cl --work-tree=/tmp/x status", "deny", "ask"],
    // Made by an earlier stage: a plain clone or init has git's defaults.
    ["git clone -q https://example.com/x.git /tmp/new && cd /tmp/new && git log", "deny", "allow"],
    ["git init -q /tmp/new && cd /tmp/new && git status", "deny", "allow"],
    ["git worktree add ../wt2 main && cd ../wt2 && git status", "deny", "allow"],
    [
      "git clone -c core.fsmonitor='rm -rf ~' /home/user/r /tmp/new && cd /tmp/new && git status",
      "deny",
      "deny",
    ],
    [
      "git clone --template=/tmp/t /home/user/r /tmp/new && cd /tmp/new && git commit",
      "deny",
      "deny",
    ],
    ["git -C /tmp/cl worktree add /tmp/w2 && cd /tmp/w2 && git status", "deny", "ask"],
    ["tar xzf r.tgz -C /tmp/new && cd /tmp/new && git status", "deny", "ask"],
  ];
  const wrong: string[] = [];
  for (const [command, ro, dl] of rows) {
    const a = (await bash(readOnly, repos, command)).action;
    const b = (await bash(denyList, repos, command)).action;
    if (a !== ro || b !== dl) wrong.push(`${command}: got ${a}/${b}, want ${ro}/${dl}`);
  }
  assert.deepEqual(wrong, []);
});
