/** A rebase under way and the stashes kept: what git's state in the git directory says. */
import { writeFileSync } from "node:fs";
import { realFs } from "./fs_facts.ts";
import { checkActions, configFrom, HAS_GIT, secretsDenied, tempRepository } from "../testing.ts";
import type { Context } from "../types.ts";
import { STARTER_CONFIG } from "../starter.ts";

const home = "/home/nobody";
/** Allow by default; `.env` asked about, `secrets/**` and `~/.ssh/**` denied. */
const DL = secretsDenied(home, { agentDir: `${home}/.pi/agent` });

/**
 * A rebase of `feat` onto `main` stopped at a conflict in `src/a.ts`, its todo left picking a
 * commit that adds `secrets/key` (`secret: true`) or `docs/b.md`.
 */
function stopped(secret: boolean) {
  const repo = tempRepository(["src/a.ts", "README.md"], { init: ["-b", "main"], commit: "one" });
  const g = repo.git;
  g("checkout", "-qb", "feat");
  repo.commit("f1", ["src/a.ts"], "feat");
  repo.commit("f2", [secret ? "secrets/key" : "docs/b.md"]);
  g("checkout", "-q", "main");
  repo.commit("m1", ["src/a.ts"], "main");
  g("checkout", "-q", "feat");
  try {
    g("rebase", "main");
  } catch { /* (stopped at the conflict) */ }
  const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
  return { repo, ctx };
}

Deno.test({
  name: "git rebase --continue|--skip|--abort: the commits its todo and ORIG_HEAD name",
  ignore: !HAS_GIT,
  async fn() {
    const hostile = stopped(true);
    try {
      await checkActions(DL, hostile.ctx, [
        ["git rebase --continue", "deny"],
        ["git rebase --cont", "deny"],
        ["git rebase --skip", "deny"],
        // (Back to feat, which holds `secrets/key`.)
        ["git rebase --abort", "deny"],
      ]);
      // A todo that runs a command, or a commit not named in full: not known.
      const todo = `${hostile.repo.dir}/.git/rebase-merge/git-rebase-todo`;
      writeFileSync(todo, "exec touch x\n");
      await checkActions(DL, hostile.ctx, [["git rebase --continue", "ask"]]);
      writeFileSync(todo, "pick abc123 x\n");
      await checkActions(DL, hostile.ctx, [["git rebase --continue", "ask"]]);
      writeFileSync(todo, "# nothing left\n\ndrop 0000000000000000000000000000000000000000 x\n");
      await checkActions(DL, hostile.ctx, [["git rebase --continue", "allow"]]);
    } finally {
      hostile.repo.remove();
    }
    const everyday = stopped(false);
    try {
      const starter = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
      await checkActions(DL, everyday.ctx, [
        ["git rebase --continue", "allow"],
        ["git rebase --skip", "allow"],
        ["git rebase --abort", "allow"],
      ]);
      await checkActions(starter, everyday.ctx, [["git rebase --continue", "allow"]]);
    } finally {
      everyday.repo.remove();
    }
  },
});

Deno.test({
  name: "git stash pop|apply: none kept, git fails; one kept, its files",
  ignore: !HAS_GIT,
  async fn() {
    const repo = tempRepository(["src/a.ts"], { init: ["-b", "main"], commit: "one" });
    try {
      const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
      await checkActions(DL, ctx, [
        ["git stash pop", "allow"],
        ["git stash apply stash@{2}", "allow"],
        ["git rebase --continue", "allow"],
        ["git rebase --abort", "allow"],
        // (Another stage may make one first; a commit not seen.)
        ["git stash && git stash pop", "ask"],
        ["git stash apply abc123", "ask"],
      ]);
      repo.write(["secrets/key"], "k");
      repo.git("add", "secrets/key");
      repo.git("stash", "-q");
      await checkActions(DL, ctx, [
        ["git stash pop", "deny"],
        ["git stash apply stash@{0}", "deny"],
      ]);
      // (A packed stash ref is one kept.)
      repo.git("pack-refs", "--all");
      await checkActions(DL, ctx, [["git stash pop", "deny"]]);
    } finally {
      repo.remove();
    }
  },
});

/**
 * A cherry-pick (`revert`: a revert) of two commits of `feat` stopped at a conflict in
 * `src/a.ts` of the first, the second adding `secrets/key` (`secret`) or `docs/b.md`.
 */
function picking(secret: boolean, revert = false) {
  const repo = tempRepository(["src/a.ts", "README.md"], { init: ["-b", "main"], commit: "one" });
  const g = repo.git;
  g("checkout", "-qb", "feat");
  repo.commit("f1", ["src/a.ts"], "feat");
  repo.commit("f2", [secret ? "secrets/key" : "docs/b.md"]);
  g("checkout", "-q", "main");
  if (revert) {
    // (main holds both, then changes `src/a.ts` again: reverting f1 conflicts, f2 removes.)
    g("merge", "-q", "--ff-only", "feat");
    repo.commit("m1", ["src/a.ts"], "main");
  } else repo.commit("m1", ["src/a.ts"], "main");
  try {
    g(revert ? "revert" : "cherry-pick", ...(revert ? ["--no-edit"] : []), "feat~1", "feat");
  } catch { /* (stopped at the conflict) */ }
  const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
  return { repo, ctx };
}

Deno.test({
  name: "git cherry-pick|revert --continue|--skip|--abort: the commits the sequence names",
  ignore: !HAS_GIT,
  async fn() {
    const hostile = picking(true);
    const { dir } = hostile.repo;
    try {
      await checkActions(DL, hostile.ctx, [
        ["git cherry-pick --continue", "deny"],
        ["git cherry-pick --cont", "deny"],
        ["git cherry-pick --skip", "deny"],
        ["git revert --continue", "deny"],
        // (Back to main's commit, without `secrets/key`; a sequence left as it is.)
        ["git cherry-pick --abort", "allow"],
        ["git cherry-pick --quit", "allow"],
        // (Another stage may change the state first: the commits as read now, the rest asked.)
        ["git add src/a.ts && git cherry-pick --continue", "deny"],
      ]);
      const todo = `${dir}/.git/sequencer/todo`;
      // A line of another command, a commit not read, a strategy that is a program: not known.
      writeFileSync(todo, "pick HEAD x\nexec touch x\n");
      await checkActions(DL, hostile.ctx, [["git cherry-pick --continue", "ask"]]);
      writeFileSync(todo, "pick HEAD x\npick abc1234 y\n");
      await checkActions(DL, hostile.ctx, [["git cherry-pick --continue", "ask"]]);
      writeFileSync(todo, "pick HEAD x\n");
      writeFileSync(`${dir}/.git/sequencer/opts`, "[options]\n\tstrategy = evil\n");
      await checkActions(DL, hostile.ctx, [["git cherry-pick --continue", "ask"]]);
      writeFileSync(`${dir}/.git/sequencer/opts`, "[options]\n\tstrategy = ort\n");
      await checkActions(DL, hostile.ctx, [["git cherry-pick --continue", "allow"]]);
      // (The commit before the sequence, as `sequencer/head` names it.)
      const feat = hostile.repo.git("rev-parse", "feat").trim();
      writeFileSync(`${dir}/.git/sequencer/head`, `${feat}\n`);
      await checkActions(DL, hostile.ctx, [["git cherry-pick --abort", "deny"]]);
      writeFileSync(`${dir}/.git/sequencer/head`, "feat\n");
      await checkActions(DL, hostile.ctx, [["git cherry-pick --abort", "ask"]]);
    } finally {
      hostile.repo.remove();
    }
    const reverting = picking(true, true);
    try {
      // (Reverting f2 removes `secrets/key`.)
      await checkActions(DL, reverting.ctx, [
        ["git revert --continue", "deny"],
        ["git revert --abort", "allow"],
      ]);
    } finally {
      reverting.repo.remove();
    }
    const everyday = picking(false);
    try {
      await checkActions(DL, everyday.ctx, [
        ["git cherry-pick --continue", "allow"],
        ["git cherry-pick --skip", "allow"],
        ["git cherry-pick --abort", "allow"],
      ]);
      // (A single pick under way: `--continue` commits; `--skip` and `--abort`, HEAD's files.)
      everyday.repo.git("cherry-pick", "--quit");
      writeFileSync(`${everyday.repo.dir}/.git/CHERRY_PICK_HEAD`, "0".repeat(40) + "\n");
      await checkActions(DL, everyday.ctx, [
        ["git cherry-pick --continue", "allow"],
        ["git cherry-pick --skip", "allow"],
        ["git cherry-pick --abort", "allow"],
      ]);
    } finally {
      everyday.repo.remove();
    }
  },
});

Deno.test({
  name: "git's sequences where none is under way: git fails, writing nothing",
  ignore: !HAS_GIT,
  async fn() {
    const repo = tempRepository(["src/a.ts"], { init: ["-b", "main"], commit: "one" });
    try {
      const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
      const verbs = [
        "cherry-pick --continue",
        "cherry-pick --skip",
        "cherry-pick --abort",
        "revert --continue",
        "revert --skip",
        "revert --abort",
        "am --continue",
        "am --resolved",
        "am --skip",
        "am --abort",
        "am --retry",
        "merge --abort",
        "rebase --continue",
      ];
      await checkActions(DL, ctx, verbs.map((v) => [`git ${v}`, "allow"]));
      const starter = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
      await checkActions(starter, ctx, verbs.map((v) => [`git ${v}`, "allow"]));
      // (A state another stage makes first, a command an alias runs instead: not as read now.)
      await checkActions(DL, ctx, [
        [
          "mkdir -p .git/sequencer && printf 'pick a\\npick b\\n' > .git/sequencer/todo && " +
          "git cherry-pick --continue",
          "ask",
        ],
        ["echo x > .git/CHERRY_PICK_HEAD; git cherry-pick --skip", "ask"],
        ["git am /tmp/p.mbox; git am --continue", "ask"],
        ["git -c alias.x='!cat secrets/key' x --continue", "deny"],
      ]);
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git merge --abort, rebase --continue: the autostash they apply; git am's session, none",
  ignore: !HAS_GIT,
  async fn() {
    const repo = tempRepository(["src/a.ts", "secrets/key"], {
      init: ["-b", "main"],
      commit: "one",
    });
    try {
      const g = repo.git;
      g("checkout", "-qb", "feat");
      repo.commit("f1", ["src/a.ts"], "feat");
      g("checkout", "-q", "main");
      repo.commit("m1", ["src/a.ts"], "main");
      // (A change to `secrets/key` stashed by the merge, applied again as it ends.)
      repo.write(["secrets/key"], "changed");
      try {
        g("merge", "--autostash", "feat");
      } catch { /* (stopped at the conflict) */ }
      const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
      await checkActions(DL, ctx, [["git merge --abort", "deny"]]);
      g("merge", "--abort");
      g("checkout", "-q", "feat");
      repo.write(["secrets/key"], "changed");
      try {
        g("rebase", "--autostash", "main");
      } catch { /* (stopped at the conflict) */ }
      await checkActions(DL, ctx, [
        ["git rebase --continue", "deny"],
        ["git rebase --abort", "deny"],
      ]);
      g("rebase", "--abort");
      g("merge", "-q", "main", "-X", "ours");
      // (No merge under way; a `git am` session's state: git rebase refuses it.)
      repo.write([".git/rebase-apply/applying", ".git/rebase-apply/orig-head"], "");
      await checkActions(DL, ctx, [
        ["git merge --abort", "allow"],
        ["git rebase --abort", "allow"],
      ]);
    } finally {
      repo.remove();
    }
  },
});
