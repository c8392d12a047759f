/** A rebase under way and the stashes kept: what git's state in the git directory says. */
import { writeFileSync } from "node:fs";
import { realFs } from "./fs_facts.ts";
import { checkActions, configFrom, HAS_GIT, tempRepository } from "../testing.ts";
import type { Context } from "../types.ts";
import { STARTER_CONFIG } from "../starter.ts";

const home = "/home/nobody";
/** Allow by default; `.env` asked about, `secrets/**` denied. */
const DL = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { ".env": "ask", "secrets/**": "deny" },
}, { home, agentDir: `${home}/.pi/agent` });

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
