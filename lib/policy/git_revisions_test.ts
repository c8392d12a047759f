import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { realFs } from "./fs_facts.ts";
import {
  mayNameRevision,
  openRepository,
  resolveCommit,
  resolveTree,
  unreadRevision,
} from "./git_revisions.ts";
import {
  checkActions,
  configFrom,
  HAS_GIT,
  runGit,
  type TempRepository,
  tempRepository,
} from "../testing.ts";
import type { Context } from "../types.ts";

const home = "/home/nobody";
/** Allow by default; `.env` asked about, `secrets/**` denied, the gate's files built in. */
const DL = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { ".env": "ask", "secrets/**": "deny" },
}, { home, agentDir: `${home}/.pi/agent` });

/**
 * A repository on `main` with everyday files, a branch `feature` that adds `src/b.ts` and a
 * branch `evil` that rewrites `.pi/settings.json` and adds `secrets/key` (each checked out once,
 * so HEAD's reflog has them), and its context.
 */
function repository(): { repo: TempRepository; ctx: Context; rev: (r: string) => string } {
  const repo = tempRepository(["src/a.ts", "README.md", ".pi/settings.json"], {
    init: ["-b", "main"],
    commit: "one",
  });
  const g = repo.git;
  g("checkout", "-qb", "feature");
  repo.commit("two", ["src/b.ts"]);
  g("checkout", "-qb", "evil", "main");
  repo.commit("evil", [".pi/settings.json", "secrets/key"], "{}");
  g("checkout", "-q", "main");
  const ctx = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
  return { repo, ctx, rev: (r) => g("rev-parse", r).trim() };
}

Deno.test({
  name: "git revisions: reflogs, the branch before, a file of the git directory, precedence",
  ignore: !HAS_GIT,
  fn() {
    const { repo, rev } = repository();
    try {
      const r = openRepository(repo.dir, realFs())!;
      const evil = rev("evil");
      assert.equal(resolveCommit(r, "evil@{0}"), evil);
      assert.equal(resolveCommit(r, "HEAD@{1}"), evil);
      assert.equal(resolveCommit(r, "@{-1}"), evil);
      assert.equal(resolveCommit(r, "@{-2}"), rev("feature"));
      assert.equal(resolveCommit(r, "@{-1}~1"), rev("main"));
      assert.equal(resolveCommit(r, "@{0}"), rev("main"));
      // (A file of the git directory is gitrevisions' first rule, for any name.)
      writeFileSync(`${repo.dir}/.git/feature`, `${evil}\n`);
      assert.equal(resolveCommit(r, "feature"), evil);
      assert.equal(resolveCommit(r, "feature", true), rev("refs/heads/feature"));
      // (A tag before a branch of the same name, but for checkout's branch.)
      repo.git("tag", "t", "evil");
      repo.git("branch", "t", "main");
      assert.equal(resolveCommit(r, "t"), evil);
      assert.equal(resolveCommit(r, "t", true), rev("main"));
      // (Whether a word may be a revision: one not read here may.)
      for (const w of ["evil@{0}", "evil^{commit}", ":/evil", "main@{push}", "evil~1", "t"]) {
        assert.equal(mayNameRevision(r, w), true, w);
      }
      for (const w of ["README.md", "src/a.ts", "nothere~1", "abcdef0123"]) {
        assert.equal(mayNameRevision(r, w), false, w);
      }
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git revisions: what checkouts of revisions not read before write is judged",
  ignore: !HAS_GIT,
  async fn() {
    const { repo, ctx } = repository();
    try {
      // A file named like a revision: git takes the revision.
      repo.write(["evil@{0}", "evil^{commit}", "notes.txt"]);
      await checkActions(DL, ctx, [
        ["git checkout evil@{0}", "deny"],
        ["git checkout 'evil^{commit}'", "deny"],
        ["git checkout notes.txt", "allow"],
        ["git checkout README.md", "allow"],
        // The branch checked out before, HEAD's reflog.
        ["git checkout -", "deny"],
        ["git switch -", "deny"],
        ["git checkout @{-1}", "deny"],
        ["git checkout @{-2}", "allow"],
        ["git checkout HEAD@{1}", "deny"],
        ["git reset --hard HEAD@{1}", "deny"],
        ["git checkout HEAD@{2}", "allow"],
        // Commits a rev-list option picks: not known; a range's are read (git_ranges.ts).
        ["git cherry-pick --stdin", "ask"],
        ["git cherry-pick --all", "ask"],
        ["git cherry-pick --branches main", "ask"],
        ["git cherry-pick main..evil", "deny"],
        ["git cherry-pick feature", "allow"],
        // A tree read in below a prefix: not known.
        ["git read-tree --prefix=x/ -u evil", "ask"],
      ]);
      repo.git("checkout", "-q", "feature");
      repo.git("checkout", "-q", "main");
      await checkActions(DL, ctx, [["git checkout -", "allow"], ["git switch -", "allow"]]);
      // A branch and a tag of the same name; a file of that name in the git directory.
      repo.git("tag", "t", "evil");
      repo.git("branch", "t", "main");
      writeFileSync(`${repo.dir}/.git/feature`, `${repo.git("rev-parse", "evil").trim()}\n`);
      await checkActions(DL, ctx, [
        ["git checkout t", "allow"],
        ["git switch t", "allow"],
        ["git merge t", "deny"],
        ["git reset --hard t", "deny"],
        ["git checkout feature", "allow"],
        ["git merge feature", "deny"],
        ["git checkout -b n feature", "allow"],
        ["git restore --source=feature .", "deny"],
      ]);
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git revisions: FETCH_HEAD's commits for merging, a branch's upstream",
  ignore: !HAS_GIT,
  async fn() {
    const { repo } = repository();
    const clone = tempRepository();
    try {
      rmSync(`${clone.dir}/.git`, { recursive: true });
      runGit(clone.dir, ["clone", "-q", repo.dir, "."]);
      const ctx = { cwd: clone.dir, home, env: { HOME: home }, fs: realFs() };
      await checkActions(DL, ctx, [
        ["git merge", "allow"],
        ["git merge @{u}", "allow"],
        ["git rebase", "allow"],
        ["git reset --hard @{upstream}", "allow"],
        ["git reset --hard main@{u}", "allow"],
        ["git checkout evil", "deny"],
        ["git checkout origin/evil", "deny"],
      ]);
      clone.git("fetch", "-q", "origin", "main", "evil");
      await checkActions(DL, ctx, [
        ["git merge FETCH_HEAD", "deny"],
        ["git checkout FETCH_HEAD", "allow"],
      ]);
      // (A line marked not-for-merge is passed over by a merge, not by a checkout.)
      const [main, evil] = [clone.git("rev-parse", "main"), clone.git("rev-parse", "origin/evil")]
        .map((s) => s.trim());
      writeFileSync(
        `${clone.dir}/.git/FETCH_HEAD`,
        `${evil}\tnot-for-merge\tbranch 'evil' of x\n${main}\t\tbranch 'main' of x\n`,
      );
      await checkActions(DL, ctx, [
        ["git merge FETCH_HEAD", "allow"],
        ["git checkout FETCH_HEAD", "deny"],
      ]);
      clone.git("update-ref", "refs/remotes/origin/main", evil);
      await checkActions(DL, ctx, [
        ["git merge", "deny"],
        ["git merge @{u}", "deny"],
        ["git rebase", "deny"],
        ["git reset --hard @{upstream}", "deny"],
        ["git reset --hard main@{u}", "deny"],
      ]);
    } finally {
      repo.remove();
      clone.remove();
    }
  },
});

Deno.test({
  name: "git writes: the work tree's changes written over (reset --hard, checkout -f, stash)",
  ignore: !HAS_GIT,
  async fn() {
    const { repo, ctx } = repository();
    try {
      repo.commit("key", ["secrets/key"], "k");
      // (Clean: nothing written over; a file changed only in the work tree is what differs.)
      const forms = [
        "git reset --hard",
        "git checkout -f",
        "git checkout -f HEAD",
        "git checkout -f main",
        "git checkout -f -b n",
        "git switch -f main",
        "git switch --discard-changes main",
        "git read-tree -u --reset HEAD",
      ];
      // (A stash asks for the cwd it writes anyway.)
      const stash = ["git stash", "git stash push -m wip"];
      await checkActions(DL, ctx, forms.map((c) => [c, "allow"] as const));
      await checkActions(DL, ctx, [["git checkout main", "allow"], ["git reset --keep", "allow"]]);
      await checkActions(DL, ctx, stash.map((c) => [c, "ask"] as const));
      for (const change of ["edit", "delete"]) {
        if (change === "edit") repo.write(["secrets/key"], "changed");
        else rmSync(`${repo.dir}/secrets/key`);
        await checkActions(DL, ctx, [...forms, ...stash].map((c) => [c, "deny"] as const));
        // (Everyday: a plain checkout keeps the changes; the work tree of other files is free.)
        await checkActions(DL, ctx, [["git checkout main", "allow"], ["git stash list", "allow"]]);
        repo.git("checkout", "-q", "--", "secrets/key");
      }
      repo.write(["src/a.ts"], "edited");
      await checkActions(DL, ctx, forms.map((c) => [c, "allow"] as const));
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git revisions: checkout/switch NAME starts NAME from the one remote's branch (--guess)",
  ignore: !HAS_GIT,
  async fn() {
    const { repo } = repository();
    const clone = tempRepository();
    try {
      rmSync(`${clone.dir}/.git`, { recursive: true });
      runGit(clone.dir, ["clone", "-q", repo.dir, "."]);
      const ctx = { cwd: clone.dir, home, env: { HOME: home }, fs: realFs() };
      const guessed = [
        ["git switch feature", "allow"],
        ["git checkout feature", "allow"],
        ["git checkout feature --", "allow"],
        ["git switch evil", "deny"],
        ["git checkout evil", "deny"],
      ] as const;
      await checkActions(DL, ctx, [
        ...guessed,
        // (Only a name: `evil~1` names nothing, and a reset does not guess.)
        ["git checkout evil~1", "ask"],
        ["git reset --hard evil", "ask"],
      ]);
      // (Packed refs are read too.)
      clone.git("pack-refs", "--all");
      await checkActions(DL, ctx, guessed);
      // (Two remotes with the branch: git starts none, and fails, unless checkout.defaultRemote
      // names one.)
      clone.git("remote", "add", "other", repo.dir);
      clone.git("fetch", "-q", "other");
      clone.git(
        "update-ref",
        "refs/remotes/other/feature",
        clone.git("rev-parse", "origin/evil").trim(),
      );
      await checkActions(DL, ctx, [["git switch feature", "allow"], ["git switch evil", "allow"]]);
      clone.git("config", "checkout.defaultRemote", "other");
      await checkActions(DL, ctx, [["git switch feature", "deny"], ["git checkout evil", "deny"]]);
      clone.git("config", "checkout.defaultRemote", "origin");
      await checkActions(DL, ctx, [["git switch feature", "allow"]]);
      clone.git("config", "checkout.guess", "false");
      await checkActions(DL, ctx, [["git switch feature", "allow"], [
        "git checkout evil",
        "allow",
      ]]);
      clone.git("config", "--unset", "checkout.defaultRemote");
      await checkActions(DL, ctx, [["git switch feature", "allow"], ["git switch evil", "allow"]]);
      clone.git("config", "checkout.guess", "true");
      // (A local branch of the name is what git checks out.)
      clone.git("branch", "feature", "origin/feature");
      clone.git(
        "update-ref",
        "refs/remotes/origin/feature",
        clone.git("rev-parse", "origin/evil").trim(),
      );
      await checkActions(DL, ctx, [["git switch feature", "allow"]]);
    } finally {
      repo.remove();
      clone.remove();
    }
  },
});

/** Allow by default; `.env` asked about, the gate's files built in. */
const ENV = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { ".env": "ask" },
}, { home, agentDir: `${home}/.pi/agent` });

/**
 * A repository on `main` holding only `README.md` and `notes.txt`, whose branch `evil` (checked
 * out once, so HEAD's reflog has it) adds `.env`, `secrets/key`, `.pi/settings.json` and
 * `.pi/extensions/x.js`: none of them there now.
 */
function bare(): { repo: TempRepository; ctx: Context; rev: (r: string) => string } {
  const repo = tempRepository(["README.md", "notes.txt", "a b"], {
    init: ["-b", "main"],
    commit: "one",
  });
  const g = repo.git;
  g("checkout", "-qb", "evil");
  repo.commit("evil", [".env", "secrets/key", ".pi/settings.json", ".pi/extensions/x.js"], "{}");
  g("checkout", "-q", "main");
  const ctx = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
  return { repo, ctx, rev: (r) => g("rev-parse", r).trim() };
}

Deno.test({
  name: "git revisions: suffixes in any order, peelings, and the spellings not read",
  ignore: !HAS_GIT,
  fn() {
    const { repo, rev } = bare();
    try {
      const r = openRepository(repo.dir, realFs())!;
      const [evil, main] = [rev("evil"), rev("main")];
      repo.git("tag", "-a", "-m", "t", "t", "evil");
      for (const w of ["evil^{}", "evil^{commit}", "evil^{object}", "t^{}", "t^{tag}", "t"]) {
        assert.equal(resolveCommit(r, w), evil, w);
      }
      for (const w of ["evil^{}~1", "evil~1^{}", "t^{}^", "evil^{commit}^1^{}", "@{-1}^{}~"]) {
        assert.equal(resolveCommit(r, w), main, w);
      }
      assert.equal(resolveTree(r, "evil^{tree}"), rev("evil^{tree}"));
      assert.equal(resolveTree(r, "evil~1^{tree}"), rev("main^{tree}"));
      assert.equal(resolveCommit(r, "evil^{tree}"), null);
      // (Not read: git's answer is not known here.)
      const unread = [
        "evil^{/evil}",
        ":/evil",
        "evil@{now}",
        "@{push}",
        "main@{-1}",
        "evil:.env",
        "HEAD:",
        "evil^{blob}",
        "^{}",
      ];
      for (const w of unread) {
        assert.equal(resolveCommit(r, w), null, w);
        assert.equal(unreadRevision(w), true, w);
        assert.equal(mayNameRevision(r, w), true, w);
      }
      for (const w of ["evil", "evil^{}~2", "@{-1}", "main@{1}", "@{u}", "v1.0", "a b", "*.ts"]) {
        assert.equal(unreadRevision(w), false, w);
      }
      // (A word of no revision's syntax names none: git takes it for a path.)
      for (const w of ["a b", "*.ts", "../x", "x.lock"]) assert.equal(mayNameRevision(r, w), false);
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git revisions: a revision not read writes any protected path, not names there now",
  ignore: !HAS_GIT,
  async fn() {
    const { repo, ctx } = bare();
    try {
      await checkActions(DL, ctx, [
        // Read: the files of the commit (secrets/key is denied).
        ["git checkout evil", "deny"],
        ["git merge -", "deny"],
        ["git merge --no-ff -- -", "deny"],
        ["git cherry-pick -", "deny"],
        ["git cherry-pick -x - main", "deny"],
        ["git rebase -", "deny"],
        ["git rebase -i -", "deny"],
        ["git checkout 'evil^{}'", "deny"],
        ["git checkout 'evil^{commit}'", "deny"],
        ["git checkout 'evil~0^{}'", "deny"],
        ["git switch --detach 'evil^{}'", "deny"],
        ["git restore --source='evil^{}' .", "deny"],
        ["git reset --hard 'evil^{}'", "deny"],
        ["git worktree add w 'evil^{}'", "deny"],
        ["git merge 'evil^{}'", "deny"],
        ["git checkout 'evil^{tree}' -- .", "deny"],
        ["git read-tree -u -m 'evil^{tree}'", "deny"],
        ["git cherry-pick 'evil^!'", "deny"],
        ["git cherry-pick 'evil^-'", "deny"],
        ["git cherry-pick 'evil^@'", "allow"],
      ]);
      // (A name glob alone: what is there now would let these through.)
      await checkActions(ENV, ctx, [
        // Not read: any protected path there may be written (asked: not surely there).
        ["git checkout 'evil^{/evil}'", "ask"],
        ["git checkout ':/evil'", "ask"],
        ["git checkout evil@{now}", "ask"],
        ["git merge 'evil@{yesterday}'", "ask"],
        ["git reset --hard @{push}", "ask"],
        ["git restore --source=evil: .", "ask"],
        ["git read-tree -u -m 'evil^{/evil}'", "ask"],
        ["git worktree add w ':/evil'", "ask"],
        ["git cherry-pick --stdin", "ask"],
        // (Whatever stage changes the repository first: the spelling is not read either way.)
        ["git add notes.txt && git merge 'evil^{/evil}'", "ask"],
        ["git commit -qm x && git checkout ':/evil'", "ask"],
        // Everyday: as before.
        ["git checkout main", "allow"],
        ["git checkout -b x", "allow"],
        ["git checkout -- README.md", "allow"],
        ["git checkout README.md", "allow"],
        ["git checkout 'a b'", "allow"],
        ["git stash pop", "allow"],
        ["git merge nothere", "allow"],
        ["git pull", "allow"],
        ["git rebase --continue", "allow"],
        ["git cherry-pick --continue", "allow"],
        ["git fetch && git merge origin/main", "allow"],
      ]);
    } finally {
      repo.remove();
    }
  },
});
