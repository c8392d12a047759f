import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { realFs } from "./fs_facts.ts";
import { commitPaths } from "./git_writes.ts";
import { openRepository, resolveCommit, resolveTree } from "./git_revisions.ts";
import { readObject } from "./git_objects.ts";
import {
  checkActions,
  configFrom,
  ctxIn,
  HAS_GIT,
  secretsDenied,
  type TempRepository,
  tempRepository,
} from "../testing.ts";
import type { Action, Context } from "../types.ts";
import { STARTER_CONFIG } from "../starter.ts";

const home = "/home/nobody";
/** Allow by default; `.env` asked about, `secrets/**` denied, the gate's files built in. */
const DL = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { ".env": "ask", "secrets/**": "deny" },
}, { home, agentDir: `${home}/.pi/agent` });

/** git with `input` on its standard input; its output. */
function gitIn(repo: TempRepository, input: string, ...args: string[]): string {
  const out = spawnSync("git", args, { cwd: repo.dir, input, encoding: "utf8" });
  if (out.status !== 0) throw new Error(`git ${args.join(" ")}: ${out.stderr}`);
  return out.stdout.trim();
}

/**
 * A repository on `main` with everyday files, a branch `feature` that adds `src/b.ts`, and a
 * commit `evil` made without touching the work tree (`hash-object -w`, `mktree`, `commit-tree`,
 * `update-ref`) that rewrites `.pi/settings.json` and `secrets/key`.
 */
function repository(): { repo: TempRepository; evil: string; ctx: Context } {
  const repo = tempRepository(
    ["src/a.ts", "README.md", ".pi/settings.json", "secrets/key", "docs/x/y.md"],
    { init: ["-b", "main"], commit: "one" },
  );
  const g = repo.git;
  g("checkout", "-qb", "feature");
  repo.commit("two", ["src/b.ts"]);
  g("checkout", "-q", "main");
  const blob = gitIn(repo, "{}", "hash-object", "-w", "--stdin");
  const pi = gitIn(repo, `100644 blob ${blob}\tsettings.json\n`, "mktree");
  const secrets = gitIn(repo, `100644 blob ${blob}\tkey\n`, "mktree");
  const entries = g("ls-tree", "HEAD").split("\n")
    .filter((l) => l && !/\t(\.pi|secrets)$/.test(l))
    .concat([`040000 tree ${pi}\t.pi`, `040000 tree ${secrets}\tsecrets`]).join("\n");
  const tree = gitIn(repo, entries + "\n", "mktree");
  const evil = gitIn(repo, "", "commit-tree", tree, "-p", "HEAD", "-m", "evil");
  g("update-ref", "refs/heads/evil", evil);
  return { repo, evil, ctx: { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() } };
}

/** The paths (from the top) `commits` writes, sorted; null where not known. */
function written(repo: TempRepository, revisions: (string | null)[], more = {}) {
  const paths = commitPaths(repo.dir, { revisions, ...more }, realFs());
  return paths && paths.map((p) => p.slice(repo.dir.length + 1)).sort();
}

Deno.test({
  name: "git writes: the paths another commit differs in, loose and packed",
  ignore: !HAS_GIT,
  fn() {
    const { repo, evil } = repository();
    try {
      for (const packed of [false, true]) {
        if (packed) repo.git("gc", "-q", "--aggressive");
        const label = packed ? "packed" : "loose";
        assert.deepEqual(written(repo, ["feature"]), ["src/b.ts"], label);
        assert.deepEqual(written(repo, ["evil"]), [".pi/settings.json", "secrets/key"], label);
        assert.deepEqual(written(repo, [evil.slice(0, 8)]), [".pi/settings.json", "secrets/key"]);
        assert.deepEqual(written(repo, ["evil~1"]), [], label);
        assert.deepEqual(written(repo, ["evil^"]), [], label);
        assert.deepEqual(written(repo, ["main"]), [], label);
        assert.deepEqual(written(repo, ["refs/heads/feature"]), ["src/b.ts"], label);
        // (A revert writes its parents' files: evil's is HEAD.)
        assert.deepEqual(written(repo, ["evil"], { parents: true }), [], label);
        assert.deepEqual(written(repo, ["feature"], { parents: true }), [], label);
        // (Limited to pathspecs from the cwd.)
        assert.deepEqual(written(repo, ["evil"], { pathspecs: [".pi"] }), [".pi/settings.json"]);
        assert.deepEqual(written(repo, ["evil"], { pathspecs: ["src"] }), []);
        assert.deepEqual(written(repo, ["evil"], { pathspecs: ["*.json"] })?.length, 2);
        // (Peeled: the commit, or its tree for a stage that reads one.)
        for (
          const rev of ["evil^{}", "evil^{commit}", "evil^{object}", "evil^{tree}", "evil^0^{}"]
        ) {
          assert.deepEqual(written(repo, [rev]), [".pi/settings.json", "secrets/key"], rev);
        }
        // (Not known: a name that is no revision, a range, a form not read.)
        for (
          const rev of ["nope", "main@{upstream}", ":/evil", "evil^{/evil}", "evil^{blob}", null]
        ) {
          assert.equal(written(repo, [rev]), null, `${label} ${rev}`);
        }
        // (A path that exists, not a revision: `git checkout README.md` writes the index's.)
        assert.deepEqual(written(repo, ["README.md"], { orPath: true }), []);
      }
      const r = openRepository(repo.dir, realFs())!;
      assert.equal(resolveCommit(r, "evil"), evil);
      assert.equal(readObject(r.store, resolveTree(r, "evil")!)?.type, "tree");
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git writes: HEAD moved without the files (reset --soft) shows in the index",
  ignore: !HAS_GIT,
  fn() {
    const { repo } = repository();
    try {
      repo.git("reset", "-q", "--soft", "evil");
      assert.deepEqual(written(repo, ["HEAD"]), [".pi/settings.json", "secrets/key"]);
      assert.deepEqual(written(repo, ["main"]), [".pi/settings.json", "secrets/key"]);
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git writes: a stash's files, its index's and its untracked ones",
  ignore: !HAS_GIT,
  fn() {
    const { repo } = repository();
    try {
      repo.write(["src/a.ts"], "changed");
      repo.write([".env"], "KEY=1");
      repo.git("stash", "-q", "-u");
      assert.deepEqual(written(repo, ["refs/stash"], { stash: true }), [".env", "src/a.ts"]);
      assert.deepEqual(written(repo, ["stash@{0}"], { stash: true }), [".env", "src/a.ts"]);
      assert.equal(written(repo, ["stash@{1}"], { stash: true }), null);
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git writes: objects git reads in place of others (replace refs, grafts) are not known",
  ignore: !HAS_GIT,
  async fn() {
    const { repo, evil, ctx } = repository();
    try {
      const feature = repo.git("rev-parse", "feature").trim();
      // (git-replace(1): every checkout of `feature` writes evil's tree, .pi and secrets too. Not
      // known, it asks as a write of files not known below the work tree does.)
      assert.deepEqual(written(repo, ["feature"]), ["src/b.ts"]);
      repo.git("replace", feature, evil);
      assert.equal(written(repo, ["feature"]), null);
      await checkActions(DL, ctx, [
        ["git checkout feature", "ask"],
        ["git switch feature", "ask"],
        ["git --no-replace-objects checkout feature", "ask"],
      ]);
      // (Packed, as `git pack-refs --all` leaves them.)
      repo.git("pack-refs", "--all");
      assert.equal(written(repo, ["feature"]), null);
      repo.git("replace", "-d", feature);
      assert.deepEqual(written(repo, ["feature"]), ["src/b.ts"]);
      // (Under another name, given by the environment; a graft file; other objects.)
      repo.git("update-ref", `refs/other/${feature}`, evil);
      await checkActions(DL, ctx, [
        ["git checkout feature", "allow"],
        ["GIT_REPLACE_REF_BASE=refs/other/ git checkout feature", "ask"],
        ["export GIT_REPLACE_REF_BASE=refs/other/; git switch feature", "ask"],
        ["env GIT_REPLACE_REF_BASE=refs/other/ git checkout feature", "ask"],
        ["GIT_GRAFT_FILE=g git checkout feature", "ask"],
        ["GIT_ALTERNATE_OBJECT_DIRECTORIES=/tmp git checkout feature", "ask"],
        ["GIT_OBJECT_DIRECTORY=/tmp/o git checkout feature", "ask"],
      ]);
      await checkActions(DL, { ...ctx, env: { ...ctx.env, GIT_REPLACE_REF_BASE: "refs/other/" } }, [
        ["git checkout feature", "ask"],
      ]);
      repo.write([".git/info/grafts"], `${feature} ${evil}\n`);
      assert.equal(written(repo, ["feature"]), null);
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git writes: a linked work tree reads its own HEAD and the shared objects",
  ignore: !HAS_GIT,
  fn() {
    const { repo } = repository();
    try {
      repo.git("worktree", "add", "-q", "linked", "feature");
      const linked = { dir: `${repo.dir}/linked` } as TempRepository;
      assert.deepEqual(written(linked, ["main"]), ["src/b.ts"]);
      assert.deepEqual(written(linked, ["evil"]), [".pi/settings.json", "secrets/key", "src/b.ts"]);
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git writes: what checkouts, merges and the like write is judged as written",
  ignore: !HAS_GIT,
  async fn() {
    const { repo, evil, ctx } = repository();
    try {
      const rows = [
        // Everyday: nothing protected differs.
        ["git checkout main", "allow"],
        ["git checkout feature", "allow"],
        ["git switch feature", "allow"],
        ["git checkout -b new", "allow"],
        ["git switch -c new", "allow"],
        ["git checkout -b new feature", "allow"],
        ["git merge feature", "allow"],
        ["git cherry-pick feature", "allow"],
        ["git revert evil", "allow"],
        ["git reset --hard feature", "allow"],
        ["git reset --soft evil", "allow"],
        ["git checkout -- src/a.ts", "allow"],
        ["git restore --source=evil src/a.ts", "allow"],
        ["git rebase feature", "allow"],
        // Hostile: the commit rewrites the gate's file and a denied one.
        ["git checkout evil", "deny"],
        ["git switch evil", "deny"],
        ["git switch --detach evil", "deny"],
        ["git checkout --detach evil", "deny"],
        [`git checkout ${evil.slice(0, 10)}`, "deny"],
        ["git checkout -b new evil", "deny"],
        ["git checkout evil --", "deny"],
        ["git checkout -f evil --", "deny"],
        ["git checkout --detach evil --", "deny"],
        ["git checkout -b n evil --", "deny"],
        ["git checkout main --", "allow"],
        ["git reset --hard evil", "deny"],
        ["git reset --keep evil", "deny"],
        ["git merge evil", "deny"],
        ["git merge --no-commit --squash evil", "deny"],
        ["git cherry-pick -n evil", "deny"],
        ["git rebase evil", "deny"],
        ["git rebase --onto evil main", "deny"],
        ["git read-tree -u -m evil", "deny"],
        ["git read-tree --reset -u evil", "deny"],
        ["git restore --source=evil .", "deny"],
        ["git restore -s evil -W .pi", "ask"],
        ["git checkout evil -- .pi", "ask"],
        ["cd src && git checkout evil", "deny"],
        // Not known: anything below the work tree's top (what is protected there asks).
        ["git merge", "ask"],
        ["git pull", "ask"],
        ["git checkout $BRANCH", "ask"],
        ["git checkout @{push}", "ask"],
        ["git cherry-pick main..evil", "deny"],
        ["git cherry-pick main..nothing", "ask"],
        // (No rebase under way, no stash: git fails, writing nothing; git_underway_test.ts.)
        ["git rebase --continue", "allow"],
        ["git stash pop", "allow"],
        ["git stash && git stash pop", "ask"],
        ["git update-ref refs/heads/main evil && git reset --hard main", "ask"],
        ["git fetch && git checkout FETCH_HEAD", "ask"],
      ] as const;
      await checkActions(DL, ctx, rows);
      repo.git("reset", "-q", "--soft", "evil");
      await checkActions(DL, ctx, [["git reset --hard", "deny"], ["git stash", "deny"]]);
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git writes: the symlinks a checkout writes lead the stages after it where they point",
  ignore: !HAS_GIT,
  async fn() {
    const repo = tempRepository(["src/a.ts", "README.md"], { init: ["-b", "main"] });
    const home = `${repo.dir}-home`;
    try {
      mkdirSync(`${home}/.ssh`, { recursive: true });
      writeFileSync(`${home}/.ssh/id_rsa`, "k");
      repo.commit("one");
      repo.git("checkout", "-qb", "lnk");
      // (To a directory, to a file, relative from a subdirectory, and an everyday one.)
      symlinkSync(`${home}/.ssh`, `${repo.dir}/link`);
      symlinkSync(`${home}/.ssh/id_rsa`, `${repo.dir}/k`);
      symlinkSync(`../../${basename(home)}/.ssh`, `${repo.dir}/src/up`);
      symlinkSync("src", `${repo.dir}/rel`);
      repo.commit("links");
      repo.git("checkout", "-q", "main");
      const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
      await checkActions(secretsDenied(home), ctx, [
        ["git checkout lnk && cat link/id_rsa", "deny"],
        ["git checkout lnk; cat link/id_rsa", "deny"],
        ["git switch lnk && grep -r x link", "deny"],
        ["git checkout lnk && cat k", "deny"],
        ["git checkout lnk && cd link && cat id_rsa", "deny"],
        ["git checkout lnk && echo x > k", "deny"],
        ["git merge lnk && echo x >> link/authorized_keys", "deny"],
        ["git reset --hard lnk && cat link/id_rsa", "deny"],
        ["git cherry-pick lnk && cat link/id_rsa", "deny"],
        ["git restore --source=lnk link && cat link/id_rsa", "deny"],
        ["git checkout lnk -- src && cat src/up/id_rsa", "deny"],
        ["cd src && git checkout lnk && cat up/id_rsa", "deny"],
        // (What is not written, or leads nowhere protected: as before.)
        ["git checkout lnk -- README.md && cat link/id_rsa", "allow"],
        ["git checkout lnk", "allow"],
        ["git checkout lnk && cat rel/a.ts", "allow"],
        ["git checkout lnk && ls && git status", "allow"],
      ]);
    } finally {
      repo.remove();
      rmSync(home, { recursive: true, force: true });
    }
  },
});

Deno.test({
  name: "git writes: the stages after a checkout find what it does not write as it is",
  ignore: !HAS_GIT,
  async fn() {
    const repo = tempRepository(["src/a.ts", "docs/x.md", "package.json"], {
      init: ["-b", "main"],
      commit: "one",
    });
    const home = `${repo.dir}-home`;
    try {
      const g = repo.git;
      g("checkout", "-qb", "feature");
      repo.commit("two", ["src/b.ts"]);
      g("checkout", "-qb", "npmrc", "main");
      repo.commit("npmrc", [".npmrc"], "script-shell=/tmp/evil\n");
      g("checkout", "-q", "main");
      repo.write(["package.json"], "{}");
      g("stash", "-q");
      const config = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
      const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
      // (The project's `.npmrc` is read as it is where the checkout does not write it; a glob
      // is expanded where it writes nothing.)
      const everyday: [string, Action][] = [
        "git checkout feature && npm test",
        "git checkout feature; npm test",
        "git switch feature && npm ci",
        "git checkout -b new && npm test",
        "git stash pop && npm test",
        "git stash apply && npm run build",
        "git merge feature && npm test",
        "cd src && git checkout feature && npm test",
        "git checkout feature && git status && npm test",
        "git checkout feature && cat docs/*.md",
      ].map((c) => [c, "allow"]);
      await checkActions(config, ctx, [
        ...everyday,
        // (Paths from a commit over the work tree's: the checkout itself asks under the starter.)
        ["git checkout feature -- src && npm test", "ask"],
        // (What it writes, or where that is not known: as before.)
        ["git checkout npmrc && npm test", "deny"],
        ["git checkout npmrc -- .npmrc && npm test", "deny"],
        ["git restore --source=npmrc .npmrc && npm test", "deny"],
        ["git checkout feature && cat src/*.ts", "ask"],
        ["git fetch && git checkout feature && npm test", "deny"],
        ["git pull && npm install", "deny"],
        ["git checkout feature && git checkout npmrc && npm test", "deny"],
        ["git checkout $B && npm test", "deny"],
        ["GIT_WORK_TREE=.. git checkout feature && npm test", "deny"],
        ["export GIT_WORK_TREE=..; git checkout feature && npm test", "deny"],
        ["source env.sh; git checkout feature && npm test", "deny"],
        ["git -c core.worktree=.. checkout feature && npm test", "deny"],
        ["git --work-tree=.. checkout feature && npm test", "deny"],
        ["git checkout --recurse-submodules feature && npm test", "deny"],
        ["git rebase -x 'echo > .npmrc' feature && npm test", "deny"],
        ["echo x > .git/hooks/post-checkout && git checkout feature && npm test", "deny"],
        ["git checkout feature && echo x > .npmrc && npm test", "deny"],
      ]);
      // (A hook it runs, a filter or a work tree elsewhere the repository's config sets.)
      repo.write([".git/hooks/post-checkout"], "#!/bin/sh\n");
      await checkActions(config, ctx, [["git checkout feature && npm test", "deny"]]);
      rmSync(`${repo.dir}/.git/hooks/post-checkout`);
      for (const [key, value] of [["filter.x.smudge", "cat"], ["core.worktree", ".."]]) {
        g("config", key, value);
        await checkActions(config, ctx, [["git checkout feature && npm test", "deny"]]);
        g("config", "--unset", key);
      }
      await checkActions(config, ctx, [["git checkout feature && npm test", "allow"]]);
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git writes: a rebase is a checkout of its upstream and of each commit it replays",
  ignore: !HAS_GIT,
  async fn() {
    const repo = tempRepository(["src/a.ts", "docs/x.md", "package.json"], {
      init: ["-b", "main"],
    });
    const home = `${repo.dir}-home`;
    try {
      const g = repo.git;
      const commit = (files: string[], text?: string) => {
        repo.write(files, text);
        g("add", ".");
        g("commit", "-qm", `add ${files.join(" ")}`);
      };
      commit([]);
      g("checkout", "-qb", "feature");
      commit(["src/b.ts"]);
      g("checkout", "-qb", "npmrc", "main");
      commit([".npmrc"], "script-shell=/tmp/evil\n");
      // (A branch whose one commit writes `.npmrc` and the next removes it: a rebase that stops
      // between them leaves it in the work tree.)
      g("checkout", "-qb", "passing", "main");
      commit([".npmrc"], "script-shell=/tmp/evil\n");
      g("rm", "-q", ".npmrc");
      g("commit", "-qm", "gone");
      g("checkout", "-qb", "topic", "main");
      commit(["src/c.ts"]);
      const config = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
      const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
      // (What the later stages read is known where the rebase does not write it.)
      const everyday: [string, Action][] = [
        "git rebase feature && npm test",
        "git rebase main && npm test",
        "git rebase -q --autostash feature && npm test",
        "git rebase --onto feature main && npm test",
        "git rebase main topic && npm test",
        "git rebase -s ort -X theirs feature && npm test",
        "git rebase --root --onto feature && npm test",
        "git rebase feature && git status",
        "git merge -s ours feature && npm test",
        "git am --quit && npm test",
        "git stash && npm test && git stash pop",
      ].map((c) => [c, "allow"]);
      await checkActions(config, ctx, [
        ...everyday,
        // (Where it writes `.npmrc`, or what it writes is not known.)
        ["git rebase npmrc && npm test", "deny"],
        ["git rebase --onto npmrc main && npm test", "deny"],
        ["git rebase main npmrc && npm test", "deny"],
        ["git rebase -i feature && npm test", "deny"],
        ["git rebase --interactive feature && npm test", "deny"],
        ["git rebase --exec make feature && npm test", "deny"],
        ["git rebase -s evil feature && npm test", "deny"],
        ["git rebase -sevil feature && npm test", "deny"],
        ["git rebase --strategy=evil feature && npm test", "deny"],
        ["git merge -s evil feature && npm test", "deny"],
        ["git cherry-pick --strategy evil feature && npm test", "deny"],
        ["git rebase --keep-base feature && npm test", "deny"],
        ["git rebase --inter feature && npm test", "deny"],
        ["git rebase --cont && npm test", "deny"],
        ["git rebase --continue && npm test", "deny"],
        ["git rebase --skip; npm test", "deny"],
        ["git rebase --abort && npm test", "deny"],
        ["git rebase --root && npm test", "deny"],
        ["git am --continue && npm test", "deny"],
        ["git am -r && npm test", "deny"],
        ["git am --skip && npm test", "deny"],
        ["git am --abort && npm test", "deny"],
        ["git filter-branch --subdirectory-filter src HEAD && npm test", "deny"],
        ["git filter-repo --path src && npm test", "deny"],
        ["git fetch && git rebase feature && npm test", "deny"],
      ]);
      // (The commits it replays: one of them writes `.npmrc`.)
      g("checkout", "-q", "passing");
      await checkActions(config, ctx, [
        ["git rebase feature; npm test", "deny"],
        ["git rebase feature && npm test", "deny"],
        ["git checkout feature && npm test", "allow"],
      ]);
      g("checkout", "-q", "topic");
      // (A hook it runs; an editor the repository's config names.)
      repo.write([".git/hooks/pre-rebase"], "#!/bin/sh\n");
      await checkActions(config, ctx, [["git rebase feature && npm test", "deny"]]);
      rmSync(`${repo.dir}/.git/hooks/pre-rebase`);
      g("config", "sequence.editor", "sh evil.sh");
      await checkActions(config, ctx, [["git rebase feature && npm test", "deny"]]);
      g("config", "--unset", "sequence.editor");
      await checkActions(config, ctx, [["git rebase feature && npm test", "allow"]]);
      // (More commits than are read: what it writes is not known.)
      for (let i = 0; i < 64; i++) g("commit", "-q", "--allow-empty", "-m", `${i}`);
      await checkActions(config, ctx, [
        ["git rebase feature && npm test", "deny"],
        ["git rebase HEAD~3 && npm test", "allow"],
      ]);
    } finally {
      repo.remove();
    }
  },
});

Deno.test({
  name: "git writes: git submodule update writes below the submodules' paths, not elsewhere",
  ignore: !HAS_GIT,
  async fn() {
    const inner = tempRepository(["a.txt"], { init: ["-b", "main"] });
    const repo = tempRepository(["package.json", "src/a.ts"], { init: ["-b", "main"] });
    const home = `${repo.dir}-home`;
    try {
      inner.git("add", ".");
      inner.git("commit", "-qm", "inner");
      repo.git("add", ".");
      repo.git("commit", "-qm", "outer");
      repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", inner.dir, "sub");
      repo.git("commit", "-qm", "sub");
      const config = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
      const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
      await checkActions(config, ctx, [
        ["git submodule update --init && npm test", "allow"],
        ["git submodule update --init --recursive && npm test", "allow"],
        ["git submodule status && cd sub && npm test", "allow"],
        ["git submodule update", "allow"],
        // (The submodule's `.npmrc` is of a commit not read; where the submodules are not known,
        // any.)
        ["git submodule update && cd sub && npm test", "deny"],
        ["git submodule -q update --remote && cd sub && npm test", "deny"],
        ["git submodule deinit --all && cd sub && npm test", "deny"],
        ["git submodule $V && npm test", "deny"],
        ["git --work-tree=.. submodule update && npm test", "deny"],
        ["GIT_DIR=x git submodule update && npm test", "deny"],
      ]);
      repo.git("config", "submodule.sub.update", "!true");
      await checkActions(config, ctx, [["git submodule update && npm test", "deny"]]);
    } finally {
      repo.remove();
      inner.remove();
    }
  },
});

Deno.test("git writes: where no repository is, a stage that makes none leaves git failing", async () => {
  // (No `.git` at /p or above: `git checkout X` fails, unless another stage first makes one there,
  // a `.git` or a `HEAD` git takes as a bare repository's.)
  const ctx = ctxIn("/p", {
    home: "/home/user",
    files: ["/p/README.md", "/p/src/a.py", "/p/.env", "/p/pytest.ini"],
    contents: { "/p/pytest.ini": "[pytest]\naddopts = -q\n" },
  });
  await checkActions(secretsDenied("/home/user"), ctx, [
    ["cp README.md README.md.bak; git checkout README.md; grep -r x src", "allow"],
    ["cp src/a.py /tmp/a.py; git checkout -- src/a.py; python -m pytest -q", "allow"],
    ["cp README.md README.md.bak && git reset --hard && grep -r x src", "allow"],
    ["mkdir -p build; git checkout main; grep -r x src", "allow"],
    ["cp README.md README.md.bak; git checkout README.md; pytest src", "allow"],
    // (A repository another stage may make first.)
    ["git init -q; git checkout README.md; grep -r x src", "ask"],
    ["cp -r /tmp/r/.git .; git checkout main; grep -r x src", "ask"],
    ["cp -r /tmp/r/.git /; git checkout main; grep -r x src", "ask"],
    ["ln -s /tmp/r .git; git checkout main; grep -r x src", "ask"],
    ["cp /tmp/r/HEAD .; git checkout main; grep -r x src", "ask"],
    ["mv /tmp/r/.git ..; git checkout main; grep -r x src", "ask"],
    ["tar xf r.tar; git checkout main; grep -r x src", "ask"],
    ["cd src && cp -r /tmp/r/.git .. && git checkout main && grep -r x .", "ask"],
  ]);
});
