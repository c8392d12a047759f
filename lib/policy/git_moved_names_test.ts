import { realFs } from "./fs_facts.ts";
import { checkActions, configFrom, HAS_GIT, tempRepository } from "../testing.ts";
import type { Context } from "../types.ts";

const home = "/home/nobody";
/** The bench's config: the project allowed, `.env` asked about, the gate's own files built in. */
const CONFIG = configFrom({
  policies: { project: { defaultAction: "allow", rules: [] } },
  locations: { "/": "project" },
  pathProtection: { ".env": "ask" },
}, { home, agentDir: `${home}/.pi/agent` });

/**
 * A repository on `main` whose branch `evil` adds `.env`, `.pi/settings.json` and
 * `.pi/extensions/x.js`, a branch `feature` of everyday files, a stash of `src/a.ts`, and a
 * remote `origin` on another machine (`origin/main` as fetched).
 */
function repository() {
  const repo = tempRepository(["src/a.ts", "README.md", "package.json"], {
    init: ["-b", "main"],
    commit: "one",
  });
  const g = repo.git;
  g("checkout", "-qb", "evil");
  repo.commit("evil", [".env", ".pi/settings.json", ".pi/extensions/x.js"]);
  g("checkout", "-qb", "feature", "main");
  repo.commit("feature", ["src/b.ts"]);
  g("checkout", "-q", "main");
  g("remote", "add", "origin", "https://example.com/project.git");
  g("update-ref", "refs/remotes/origin/main", "main");
  repo.write(["src/a.ts"], "changed");
  g("stash", "-q");
  const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
  return { repo, ctx };
}

Deno.test({
  name: "git moved names: a stage that changes the repository first leaves the commits read",
  ignore: !HAS_GIT,
  async fn() {
    const { repo, ctx } = repository();
    try {
      await checkActions(CONFIG, ctx, [
        ["git checkout evil", "ask"],
        // (The commits as read now: what a stage that moves no name to others leaves them.)
        ["git add README.md && git merge evil", "ask"],
        ["git commit -m x && git checkout evil", "ask"],
        ["git fetch && git checkout evil", "ask"],
        ["git fetch origin && git cherry-pick evil", "ask"],
        ["git stash && git checkout evil", "ask"],
        ["git status; git rm -q README.md && git restore --source=evil .", "ask"],
        // (Everyday: the commits as read now write nothing protected.)
        ["git fetch && git checkout main", "allow"],
        ["git fetch origin && git checkout feature", "allow"],
        ["git fetch && git merge origin/main", "allow"],
        ["git fetch && git rebase origin/main", "allow"],
        ["git fetch && git reset --hard origin/main", "allow"],
        ["git fetch origin main:main && git checkout main", "allow"],
        ["git add -A && git commit -m x && git checkout feature", "allow"],
        ["git stash && git checkout feature && git stash pop", "allow"],
        ["git checkout feature && git merge main", "allow"],
        ["git checkout -b topic && git cherry-pick feature", "allow"],
        ["git branch topic && git checkout topic", "allow"],
        ["git reset && git checkout feature", "allow"],
        ["git branch -a && git checkout feature", "allow"],
        ["npm install && git checkout feature", "allow"],
        ["git pull && git checkout feature", "allow"],
        ["git pull origin main", "allow"],
        ["git pull . feature", "allow"],
      ]);
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git moved names: a stage that may point a name at a commit not read, any protected path",
  ignore: !HAS_GIT,
  async fn() {
    const { repo, ctx } = repository();
    try {
      await checkActions(CONFIG, ctx, [
        ["git branch -f main evil && git checkout feature && git checkout main", "ask"],
        ["git branch -f feature evil && git checkout feature", "ask"],
        ["git branch topic evil && git merge topic", "ask"],
        ["git update-ref refs/heads/feature evil && git checkout feature", "ask"],
        ["git reset --soft evil && git reset --hard", "ask"],
        ["git reset -q evil && git checkout -f", "ask"],
        ["git tag feature evil && git merge feature", "ask"],
        ["git symbolic-ref refs/heads/topic refs/heads/evil && git merge topic", "ask"],
        ["git fetch . evil:feature && git checkout feature", "ask"],
        ["git fetch ./ evil && git merge FETCH_HEAD", "ask"],
        ["git pull . evil && git checkout feature", "ask"],
        // (`git pull` from this repository writes the branches it names; from another here,
        // commits not read.)
        ["git pull . evil", "ask"],
        ["git pull --no-rebase . +evil:x", "ask"],
        ["git pull ../other main", "ask"],
        ["git pull file:///tmp/other main", "ask"],
        ["git checkout -q evil -- README.md && git commit -qm x && git reset --hard HEAD~1", "ask"],
        ["git checkout feature && git reset --hard HEAD~1", "ask"],
        ["git stash drop && git stash pop", "ask"],
        ["git stash && git stash apply 'stash@{1}'", "ask"],
        ["echo x > .git/refs/heads/feature && git checkout feature", "ask"],
        ["cp /tmp/x .git/refs/heads/feature; git checkout feature", "ask"],
        ["git config alias.b branch && git b -f feature evil && git checkout feature", "ask"],
      ]);
    } finally {
      repo.remove();
    }
  },
});
