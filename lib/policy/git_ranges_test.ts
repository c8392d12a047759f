import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { realFs } from "./fs_facts.ts";
import { openRepository, resolveCommit } from "./git_revisions.ts";
import { rangeCommits } from "./git_ranges.ts";
import { checkActions, HAS_GIT, secretsDenied, tempRepository } from "../testing.ts";
import type { Context } from "../types.ts";

/**
 * A repository on `main` (one commit) and a branch `lnk` of four more after it: `src/b.ts`, a
 * secret (`secrets/key`), a symlink `k` to the home's `.ssh`, `src/c.ts`; and the home.
 */
function repository() {
  const repo = tempRepository(["src/a.ts", "README.md"], { init: ["-b", "main"] });
  const home = `${repo.dir}-home`;
  mkdirSync(`${home}/.ssh`, { recursive: true });
  writeFileSync(`${home}/.ssh/id_rsa`, "k");
  repo.commit("one");
  repo.git("checkout", "-qb", "lnk");
  repo.commit("two", ["src/b.ts"]);
  repo.commit("three", ["secrets/key"]);
  symlinkSync(`${home}/.ssh`, `${repo.dir}/k`);
  repo.commit("four");
  repo.commit("five", ["src/c.ts"]);
  repo.git("checkout", "-q", "main");
  const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
  const remove = () => {
    repo.remove();
    rmSync(home, { recursive: true, force: true });
  };
  return { repo, home, ctx, remove };
}

Deno.test({
  name: "git ranges: the commits a range names, as rev-list walks them",
  ignore: !HAS_GIT,
  fn() {
    const { repo, remove } = repository();
    try {
      const r = openRepository(repo.dir, realFs())!;
      const oid = (rev: string) => resolveCommit(r, rev)!;
      const sorted = (x: string[] | null) => x && [...x].sort();
      const lnk = ["lnk", "lnk~1", "lnk~2", "lnk~3"].map(oid).sort();
      assert.deepEqual(sorted(rangeCommits(r, ["main..lnk"])), lnk);
      assert.deepEqual(sorted(rangeCommits(r, ["lnk", "^main"])), lnk);
      assert.deepEqual(sorted(rangeCommits(r, ["lnk~2..lnk~1"])), [oid("lnk~1")]);
      assert.deepEqual(rangeCommits(r, ["lnk..main"]), []);
      assert.deepEqual(sorted(rangeCommits(r, ["lnk"])), [...lnk, oid("main")].sort());
      assert.equal(rangeCommits(r, ["main..nothing"]), null);
      assert.equal(rangeCommits(r, ["a..b..c"]), null);
    } finally {
      remove();
    }
  },
});

Deno.test({
  name: "git ranges: git bisect writes the commits of its range, and those of a bisection",
  ignore: !HAS_GIT,
  async fn() {
    const { repo, ctx, home, remove } = repository();
    try {
      const config = secretsDenied(home);
      await checkActions(config, ctx, [
        // (The midpoint of the range: any of its commits, its links followed.)
        ["git bisect start lnk main", "deny"],
        ["git bisect start lnk main && cat k/id_rsa", "deny"],
        ["git bisect start --first-parent lnk main -- src", "deny"],
        ["git bisect start --term-new=fixed --term-old broken lnk main", "deny"],
        ["git bisect start lnk lnk~2 && cat k/id_rsa", "deny"],
        ["git bisect start lnk~3 main", "allow"],
        ["git bisect start lnk~2 main", "deny"],
        ["git bisect start $X main", "ask"],
        // (Without a new and an old revision, or without a checkout: nothing written.)
        ["git bisect start lnk", "allow"],
        ["git bisect start", "allow"],
        ["git bisect start --no-checkout lnk main", "allow"],
        // (Nothing bisected: the marks write nothing; reset neither.)
        ["git bisect good", "allow"],
        ["git bisect bad lnk", "allow"],
        ["git bisect reset lnk", "allow"],
        ["git bisect log", "allow"],
      ]);
      repo.git("bisect", "start", "lnk~2", "main");
      await checkActions(config, ctx, [
        // (On the first of two commits: the next is the other, which writes the secret.)
        ["git bisect good", "deny"],
        ["git bisect good && cat k/id_rsa", "deny"],
        ["git bisect skip", "deny"],
        ["git bisect run true", "deny"],
        // (Marked anew: the range the marks leave.)
        ["git bisect bad lnk && cat k/id_rsa", "deny"],
        ["git bisect new lnk", "deny"],
        ["git bisect reset lnk && cat k/id_rsa", "deny"],
        ["git bisect reset", "allow"],
        ["git bisect replay log", "ask"],
      ]);
      repo.git("bisect", "reset");
      repo.git("bisect", "start", "lnk", "main");
      await checkActions(config, ctx, [
        ["git bisect good && cat k/id_rsa", "deny"],
        // (A program not known may change the repository first: the commits of the range as
        // read now are still written.)
        ["git bisect run make", "deny"],
      ]);
      repo.git("bisect", "reset");
    } finally {
      remove();
    }
  },
});

Deno.test({
  name: "git ranges: a range cherry-picked or reverted writes each commit's files",
  ignore: !HAS_GIT,
  async fn() {
    const { ctx, home, remove } = repository();
    try {
      await checkActions(secretsDenied(home), ctx, [
        ["git cherry-pick main..lnk", "deny"],
        ["git cherry-pick main..lnk && cat k/id_rsa", "deny"],
        ["git cherry-pick ^lnk~4 lnk~3", "allow"],
        ["git cherry-pick lnk~4..lnk~3", "allow"],
        ["git cherry-pick lnk~2..lnk~1 && cat k/id_rsa", "deny"],
        ["git revert main..lnk~3", "allow"],
        ["git cherry-pick main..nothing", "ask"],
      ]);
    } finally {
      remove();
    }
  },
});

Deno.test({
  name: "git ranges: a new work tree and a local clone get the commit's files and links",
  ignore: !HAS_GIT,
  async fn() {
    const { repo, ctx, home, remove } = repository();
    const other = `${repo.dir}-w`;
    try {
      const config = secretsDenied(home);
      const bare = `${repo.dir}-bare.git`;
      repo.git("clone", "-q", "--bare", repo.dir, bare);
      await checkActions(config, ctx, [
        [`git worktree add ${other} lnk && cat ${other}/k/id_rsa`, "deny"],
        [`git worktree add ${other} lnk`, "deny"],
        [`git worktree add -b x ${other} lnk~3`, "allow"],
        [`git worktree add ${other}`, "allow"],
        [`git worktree add --detach ${other}`, "allow"],
        [`git worktree add --no-checkout ${other} lnk`, "allow"],
        // (A work tree named as a branch: that branch, as git guesses it.)
        [`git worktree add ../lnk`, "deny"],
        [`git clone -b lnk ${repo.dir} ${other} && cat ${other}/k/id_rsa`, "deny"],
        [`git clone --branch=lnk file://${repo.dir} ${other}`, "deny"],
        [`git clone -b lnk ${bare} ${other}`, "deny"],
        [`git clone -b lnk -n ${repo.dir} ${other}`, "allow"],
        [`git clone ${repo.dir} ${other}`, "allow"],
        [`git clone ${bare} ${other} && cat ${other}/README.md`, "allow"],
        [`cd /tmp && git clone -b lnk ${bare} && cat x`, "deny"],
        // (Words after `--` are operands still: gitcli(7).)
        [`git clone -b lnk -- ${repo.dir} ${other} && cat ${other}/k/id_rsa`, "deny"],
        [`git worktree add -- ${other} lnk && cat ${other}/k/id_rsa`, "deny"],
        [`git worktree add -b x -- ${other} lnk~3`, "allow"],
        // (The source as git finds it: SRC/.git, SRC, SRC.git/.git, SRC.git.)
        [`git clone -b lnk ${repo.dir}-bare ${other} && cat ${other}/k/id_rsa`, "deny"],
        [`git clone -b lnk file://${repo.dir}-bare ${other}`, "deny"],
        [`git clone -b lnk ${repo.dir}/.git ${other}`, "deny"],
        [`git clone ${repo.dir}-bare ${other} && cat ${other}/README.md`, "allow"],
      ]);
      // (A `gitdir:` file, and a work tree found by its name with `.git` added.)
      writeFileSync(`${repo.dir}-link`, `gitdir: ${bare}\n`);
      repo.git("clone", "-q", repo.dir, `${repo.dir}-wt.git`);
      repo.git("-C", `${repo.dir}-wt.git`, "branch", "-q", "lnk", "origin/lnk");
      await checkActions(config, ctx, [
        [`git clone -b lnk ${repo.dir}-link ${other} && cat ${other}/k/id_rsa`, "deny"],
        [`git clone -b lnk ${repo.dir}-wt ${other} && cat ${other}/k/id_rsa`, "deny"],
        [`git clone ${repo.dir}-wt ${other} && cat ${other}/README.md`, "allow"],
      ]);
    } finally {
      remove();
      rmSync(other, { recursive: true, force: true });
      rmSync(`${repo.dir}-bare.git`, { recursive: true, force: true });
      rmSync(`${repo.dir}-wt.git`, { recursive: true, force: true });
      rmSync(`${repo.dir}-link`, { force: true });
    }
  },
});

Deno.test({
  name: "git ranges: a sparse checkout's files come back where the patterns change",
  ignore: !HAS_GIT,
  async fn() {
    const { repo, ctx, home, remove } = repository();
    try {
      const config = secretsDenied(home);
      repo.git("checkout", "-q", "lnk");
      // (Everyday: nothing skipped, nothing comes back.)
      await checkActions(config, ctx, [
        ["git sparse-checkout set src", "allow"],
        ["git sparse-checkout disable", "allow"],
      ]);
      repo.git("sparse-checkout", "set", "--no-cone", "/src/");
      await checkActions(config, ctx, [
        ["git sparse-checkout disable", "deny"],
        ["git sparse-checkout disable && cat k/id_rsa", "deny"],
        ["git sparse-checkout add secrets", "deny"],
        ["git sparse-checkout set --cone secrets", "deny"],
        ["git sparse-checkout reapply", "deny"],
        ["git sparse-checkout $VERB", "ask"],
        ["git sparse-checkout list", "allow"],
        ["git sparse-checkout check-rules", "allow"],
      ]);
    } finally {
      remove();
    }
  },
});

Deno.test({
  name: "git ranges: a checkout of a name no branch is guessed from for certain writes nothing",
  ignore: !HAS_GIT,
  async fn() {
    const { repo, ctx, home, remove } = repository();
    try {
      const config = secretsDenied(home);
      // (`feat` of two remotes, `solo` of one: what `lnk` holds, the secret too.)
      for (const remote of ["origin", "upstream"]) {
        repo.git("remote", "add", remote, "/nonexistent");
        repo.git("update-ref", `refs/remotes/${remote}/feat`, "lnk");
      }
      repo.git("update-ref", "refs/remotes/origin/solo", "lnk");
      await checkActions(config, ctx, [
        ["git checkout feat", "allow"],
        ["git switch feat", "allow"],
        ["git checkout --no-guess solo", "allow"],
        ["git switch --no-guess solo", "allow"],
        ["git checkout nothing", "allow"],
        ["git checkout solo", "deny"],
        ["git switch solo", "deny"],
        ["git checkout origin/feat", "deny"],
        ["git checkout --no-guess origin/feat", "deny"],
        ["git checkout -b x origin/feat", "deny"],
        ["git worktree add ../x solo", "deny"],
      ]);
      repo.git("config", "checkout.defaultRemote", "upstream");
      await checkActions(config, ctx, [["git checkout feat", "deny"]]);
    } finally {
      remove();
    }
  },
});
