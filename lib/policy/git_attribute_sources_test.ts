import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkActions, ctxIn, HAS_GIT, secretsDenied, tempRepository } from "../testing.ts";
import { realFs } from "./fs_facts.ts";

const home = "/home/user";
/** Allow by default; `~/.ssh/**` and `secrets/**` denied, `.env` asked about. */
const DL = secretsDenied(home);
const LEAK = "cat ~/.ssh/id_rsa";

/** A repository whose `main` holds a.txt and d/e/b.txt, its config a filter `leak`. */
function leaky() {
  const r = tempRepository(["a.txt", "d/e/b.txt"], { init: ["-b", "main"], commit: "one" });
  r.git("config", "filter.leak.clean", LEAK);
  r.git("config", "filter.leak.smudge", LEAK);
  return r;
}

Deno.test({
  name: "git attribute sources: a .gitattributes deleted from the work tree is read from the index",
  ignore: !HAS_GIT,
  async fn() {
    const r = leaky();
    try {
      const ctx = { cwd: r.dir, home, env: { HOME: home }, fs: realFs() };
      await checkActions(DL, ctx, [["git add a.txt", "allow"], ["git status", "allow"]]);
      r.write(["d/.gitattributes"], "*.txt filter=leak\n");
      r.git("add", "d/.gitattributes");
      rmSync(join(r.dir, "d/.gitattributes"));
      await checkActions(DL, ctx, [
        ["git add a.txt", "deny"],
        ["git status", "deny"],
        ["git checkout -- d", "deny"],
        ["git stash", "deny"],
        ["git log", "allow"],
      ]);
      // (Staged and committed, then deleted from the work tree: the same.)
      r.git("commit", "-qm", "two");
      await checkActions(DL, ctx, [["git diff", "deny"], ["git show HEAD", "allow"]]);
      // One that names another driver, or none the config defines: nothing.
      r.write(["d/.gitattributes"], "*.txt filter=other\n");
      r.git("add", "d/.gitattributes");
      await checkActions(DL, ctx, [["git add a.txt", "allow"], ["git status", "allow"]]);
    } finally {
      r.remove();
    }
  },
});

Deno.test({
  name: "git attribute sources: a commit written into the work tree selects by its .gitattributes",
  ignore: !HAS_GIT,
  async fn() {
    const r = leaky();
    try {
      r.git("checkout", "-qb", "evil");
      r.write(["d/e/.gitattributes"], "* filter=leak\n");
      r.commit("evil", ["a.txt"], "more\n");
      r.git("stash", "list");
      r.git("checkout", "-q", "main");
      const ctx = { cwd: r.dir, home, env: { HOME: home }, fs: realFs() };
      await checkActions(DL, ctx, [
        ["git checkout evil", "deny"],
        ["git switch evil", "deny"],
        ["git merge evil", "deny"],
        ["git reset --hard evil", "deny"],
        ["git cherry-pick evil", "deny"],
        ["git revert evil", "allow"],
        ["git archive evil", "deny"],
        ["git archive --format=zip -o /tmp/x.zip evil", "deny"],
        ["git archive --prefix p/ evil d", "deny"],
        ["git checkout evil -- d", "deny"],
        ["git restore --source=evil a.txt", "deny"],
        ["git read-tree -u -m evil", "deny"],
        ["git worktree add ../w evil", "deny"],
        ["git worktree add --detach -b x ../w evil", "deny"],
        // (No commit given: the branch the path's last name names.)
        ["git worktree add ../evil", "deny"],
        // What is not read: not known, the driver judged.
        ["git checkout evil@{0}", "deny"],
        ["git pull", "deny"],
        ["git archive HEAD:d", "deny"],
        ["git fetch && git checkout evil", "ask"],
        // The commits git reads no attributes of, or that hold none: nothing.
        ["git checkout main", "allow"],
        ["git archive HEAD", "allow"],
        ["git archive --remote=origin evil", "allow"],
        ["git worktree add --no-checkout ../w evil", "allow"],
        ["git worktree add ../w", "allow"],
        ["git worktree add -b evil ../new", "allow"],
        ["git worktree list", "allow"],
        ["git log -p evil", "allow"],
        ["git diff evil", "allow"],
        ["git show evil", "allow"],
        ["git stash", "allow"],
        ["git status", "allow"],
        ["git branch -D evil", "allow"],
      ]);
      // A stash that holds one.
      r.write([".gitattributes"], "*.txt filter=leak\n");
      r.git("add", ".gitattributes");
      r.git("stash", "-q");
      await checkActions(DL, ctx, [
        ["git stash pop", "deny"],
        ["git stash apply stash@{0}", "deny"],
        ["git status", "allow"],
      ]);
    } finally {
      r.remove();
    }
  },
});

Deno.test({
  name: "git attribute sources: the work tree git uses where it is elsewhere",
  ignore: !HAS_GIT,
  async fn() {
    const r = leaky();
    const tree = mkdtempSync(join(tmpdir(), "pi-controls-tree-"));
    try {
      writeFileSync(join(tree, "a.txt"), "a\n");
      writeFileSync(join(tree, ".gitattributes"), "* filter=leak\n");
      const ctx = { cwd: r.dir, home, env: { HOME: home, W: "held" }, fs: realFs() };
      await checkActions(DL, ctx, [
        [`git --work-tree=${tree} status`, "deny"],
        [`git --work-tree ${tree} add a.txt`, "deny"],
        [`git -C d --work-tree=${tree} diff`, "deny"],
        [`git --work-tree=${r.dir} status`, "allow"],
        [`git --work-tree=${tree} log`, "allow"],
        // (A work tree not known: the word is asked about.)
        ["git --work-tree=$W status", "ask"],
        ["git status", "allow"],
      ]);
      const env = { HOME: home, GIT_WORK_TREE: tree };
      await checkActions(DL, { ...ctx, env }, [["git status", "deny"], ["git log", "allow"]]);
      r.git("config", "core.worktree", tree);
      await checkActions(DL, ctx, [
        ["git status", "deny"],
        ["git add a.txt", "deny"],
        ["git log", "allow"],
        [`git --work-tree=${r.dir} status`, "allow"],
      ]);
    } finally {
      r.remove();
      rmSync(tree, { recursive: true, force: true });
    }
  },
});

Deno.test("git attribute sources: a work tree elsewhere, on files as the engine sees them", async () => {
  const filter = '[filter "leak"]\n\tclean = cat ~/.ssh/id_rsa\n';
  const repo = (config: string, env: Record<string, string> = {}) =>
    ctxIn("/p", {
      home,
      env,
      files: ["/p/src/main.ts", "/w/a.txt", `${home}/.ssh/id_rsa`],
      contents: {
        "/p/.git/HEAD": "ref: refs/heads/main\n",
        "/p/.git/config": config,
        "/w/.gitattributes": "*.txt filter=leak\n",
      },
    });
  await checkActions(DL, repo(filter + "[core]\n\tworktree = /w\n"), [
    ["git status", "deny"],
    ["git --work-tree=/p status", "allow"],
  ]);
  await checkActions(DL, repo(filter + "[core]\n\tworktree = ../../w\n"), [["git add -A", "deny"]]);
  await checkActions(DL, repo(filter, { GIT_WORK_TREE: "/w" }), [["git diff", "deny"]]);
  await checkActions(DL, repo(filter), [
    ["git --work-tree=/w status", "deny"],
    ["git --work-tree ../w status", "deny"],
    ["git status", "allow"],
    ["git --work-tree=/w log", "allow"],
  ]);
  // A driver the config does not define: nothing.
  await checkActions(DL, repo("[core]\n\tworktree = /w\n"), [["git status", "allow"]]);
});
