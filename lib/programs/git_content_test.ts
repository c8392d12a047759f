import assert from "node:assert/strict";
import { type BashParser, loadBashParser } from "../shell/parser.ts";
import type { Stage } from "../shell/model.ts";
import { analyzeBash } from "../shell/analyze.ts";
import { carriesCommand } from "./env.ts";
import {
  checkActions,
  configFrom,
  ctxIn,
  gitIndexBytes,
  HAS_GIT,
  secretsDenied,
  tempRepository,
} from "../testing.ts";
import { STARTER_CONFIG } from "../starter.ts";
import { GIT } from "./git.ts";
import { realFs } from "../policy/fs_facts.ts";
import { decide } from "../policy/engine.ts";
import type { Action } from "../types.ts";

const home = "/home/user";
/** Allow by default; `secrets/**` denied, `.env` asked about (the hunt's DL). */
const DL = secretsDenied(home);
const G = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });

const FILES = ["/p/src/main.ts", "/p/src/lib/x.ts", "/p/README.md", "/p/.env", "/p/secrets/key"];

/**
 * A repository at /p whose index lists `tracked` (undefined: no index to read), with files of
 * given texts (a `.gitignore`).
 */
function repository(tracked?: string[], contents: Record<string, string> = {}) {
  return ctxIn("/p", {
    files: [...FILES, "/p/.git/HEAD"],
    bytes: tracked ? { "/p/.git/index": gitIndexBytes(tracked) } : {},
    contents,
    home,
  });
}

const SECRETS_TRACKED = repository(["src/main.ts", "src/lib/x.ts", "README.md", "secrets/key"]);
const SECRETS_IGNORED = repository(["src/main.ts", "src/lib/x.ts", "README.md"], {
  "/p/.gitignore": "secrets/\n",
});
/** `secrets/key` neither tracked nor ignored: what `git add -A` would add. */
const SECRETS_UNTRACKED = repository(["src/main.ts", "src/lib/x.ts", "README.md"]);

/** Commands that show what `secrets/key` holds where git tracks it, and nothing else of it. */
const SHOWERS = [
  // `status -v` shows the staged diff, `-vv` the unstaged one too; `commit --dry-run -v` the
  // staged diff, whatever gives the message.
  "git status -v",
  "git status -vv",
  "git status --verbose --verbose",
  "git status --verb",
  "git status -sv",
  "git commit -v --dry-run -m x",
  "git commit --dry-run --verbose -m x",
  // git grep searches the files below the cwd (and a revision's, the index's, the untracked).
  "git grep PASSWORD",
  "git grep -n PASSWORD",
  "git grep -e PASSWORD",
  "git grep -ie PASSWORD",
  "git grep -A 3 PASSWORD",
  "git grep -C src PASSWORD",
  "git grep -m1 PASSWORD",
  "git grep PASSWORD HEAD",
  "git grep PASSWORD HEAD~1",
  "git grep PASSWORD main feature",
  "git grep PASSWORD HEAD --",
  "git grep --cached PASSWORD",
  "git grep -e a --and -e PASSWORD",
  "git grep PASSWORD -- ':!src'",
  "git grep PASSWORD ':!src'",
  "git -C . grep PASSWORD",
  "git --no-pager grep PASSWORD",
  "git -P grep PASSWORD",
  "git grep --unknown-option README.md",
  "cd src && git grep PASSWORD -- :/",
  "cd src && git grep PASSWORD ':(top)'",
  // The history and diff commands show every tracked file's changed lines, from the top.
  "git diff",
  "git diff HEAD",
  "git diff main...feature",
  "git diff --cached",
  "git diff --staged",
  "git diff -U5",
  "git diff --word-diff",
  "git diff --exit-code",
  "git diff --stat -p",
  "git diff --check",
  "git diff --submodule=diff",
  "git diff --binary HEAD~3",
  "cd src && git diff",
  "cd src/lib && git diff HEAD",
  "git log -p",
  "git log -p -3",
  "git log --patch",
  "git log -u",
  "git log --stat -p",
  "git log -p --stat",
  "git log -p --name-only",
  "git log -s -p",
  "git log -c",
  "git log --cc",
  "git log -p --author README.md",
  "git log -p --all",
  "git log -p -- ':!src'",
  "git -c core.pager=cat log -p",
  "git show",
  "git show HEAD",
  "git show HEAD~2",
  "git show --oneline",
  "git show --format=%H HEAD",
  "git show HEAD HEAD:README.md",
  "git show 1a2b3c4",
  "git whatchanged -p",
  "git reflog -p",
  "git stash show -p",
  "git stash show -p stash@{1}",
  "git stash show -p -u",
  "git rebase --show-current-patch",
  "git am --show-current-patch=diff",
  "git -c help.autocorrect=1 diff1",
  "git -c stash.showPatch=true stash show",
  "git stash list -p",
  "git format-patch -1",
  "git format-patch --stdout HEAD~3",
  "git format-patch -o src HEAD~2",
  "git format-patch -q -s HEAD~1",
  "git send-email HEAD~1",
  "git range-diff main...feature",
  "git difftool",
  "git diff-tree -p HEAD",
  "git diff-index -p HEAD",
  // (`-q` is no quiet for a diff; `--quiet` hides a history command's patch unless asked for.)
  "git diff -q",
  "git diff --quiet --no-quiet",
  "git diff-files -p -q",
  "git log -2 -q -p",
  "git log -p --quiet",
  "git show -q -p HEAD~1",
  "git show -qp HEAD~1",
  "git stash list -p -q",
  "git whatchanged -p --quiet",
  "git diff-files -p",
  "git request-pull -p v1 origin",
  // The hunks of the interactive modes, the diff `commit -v` shows in the editor.
  "git add -p",
  "git add --patch",
  "git add --patc",
  "git add -i",
  "git add -e",
  "git add -vp",
  "git checkout -p",
  "git checkout -p HEAD~1",
  "git restore -p",
  "git reset -p",
  "git reset --patch HEAD",
  "git stash -p",
  "git stash push -p -m wip",
  "git commit -p",
  "git commit -v",
  "git commit --verbose",
  "git commit -v -e -m x",
  "git -c commit.verbose=true commit",
  // The whole repository written, served or printed by its objects' names.
  "git archive HEAD",
  "git archive -o x.tar HEAD",
  "git cat-file -p 1a2b3c4d",
  "git cat-file blob 1a2b3c4d",
  "git fast-export --all",
  "git bundle create x.bundle --all",
  "git unpack-file 1a2b3c4d",
  "git merge-tree main feature",
  // Another index: the files there are.
  "GIT_INDEX_FILE=/tmp/i git diff --cached",
  // A `REV:dir` tree compared with the work tree, the index or a commit: every file of a side.
  "git diff HEAD:src",
  "git diff HEAD:",
  "git diff HEAD~2:",
  "git diff --cached HEAD:src",
  "git diff HEAD:src HEAD",
  "git diff-index -p HEAD:src",
  "git diff-tree -p HEAD:src HEAD",
  "git difftool HEAD:src",
  // Exclusions and the top before `--` are pathspecs too; `:/text` may be a commit's message.
  "git diff ':!src'",
  "git diff ':^src'",
  "git diff ':(exclude)src'",
  "git diff HEAD ':!src'",
  "git log -p ':^src'",
  "git show ':!src'",
  "git diff ':(top)'",
  "cd src && git diff ':/'",
  "git diff ':/fix'",
  "git grep PASSWORD ':/fix'",
  // With `--`, the words before it are revisions, whatever paths there are.
  "git diff README.md --",
  "git log -p README.md --",
  "git show README.md --",
  "git diff-tree -p README.md --",
  "git checkout -p README.md --",
  "git reset -p README.md --",
];

/** Commands that show no content of files they do not name (or only of the files named). */
const NOT_SHOWN = [
  "git status",
  "git status -s",
  "git status -uno",
  "git status -v -- src",
  "git commit --dry-run -m x",
  "git diff --stat",
  "git diff --name-only",
  "git diff --name-status",
  "git diff --numstat",
  "git diff --shortstat",
  "git diff --summary",
  "git diff --raw",
  "git diff --quiet",
  "git diff --quiet -p",
  "git diff --no-quiet --quiet",
  "git diff-files -p --quiet",
  "git diff-index -p --quiet HEAD",
  "git diff-tree -p --quiet HEAD",
  "git stash show -p --quiet",
  "git show -q HEAD~1",
  "git show --quiet HEAD",
  "git diff -s",
  "git diff src",
  "git diff HEAD src",
  "git diff -- src",
  "git diff --cached -- README.md",
  "git diff HEAD:README.md HEAD~1:README.md",
  "git diff --no-index README.md src/main.ts",
  "git log",
  "git log --oneline",
  "git log --stat",
  "git log -3 --format=%s",
  "git log -p src",
  "git log -p -- src",
  "git log -L1,5:README.md",
  "git log -p --stat -s",
  "git show -s",
  "git show --stat",
  "git show --name-only HEAD",
  "git show --no-patch",
  "git show HEAD:README.md",
  "git show HEAD~2:",
  "git stash show",
  "git stash show -u",
  // (Not `rebase --continue`: it runs the exec lines of a todo list this repository, whose HEAD
  // cannot be read, does not let be known; git_test.ts.)
  "git rebase --abort",
  "git -c help.autocorrect=0 status",
  "git stash list",
  "git whatchanged",
  "git diff-tree HEAD",
  "git grep PASSWORD src",
  "git grep PASSWORD -- src",
  "git grep PASSWORD HEAD -- src",
  "git grep PASSWORD HEAD src",
  "git grep PASSWORD README.md",
  "git grep -l PASSWORD -- src/lib",
  "cd src && git grep PASSWORD",
  "git add -p src",
  "git checkout -p -- README.md",
  "git checkout main",
  "git commit -m x",
  "git commit -v -m x",
  "git archive HEAD src",
  "git archive -o x.tar HEAD:src",
  "git archive --list",
  "git cat-file -p HEAD",
  "git cat-file -t 1a2b3c4d",
  "git fast-export --no-data --all",
  "git bundle verify x.bundle",
  "git diff HEAD:src HEAD~1:src",
  "git diff-tree -p HEAD:src HEAD~1:src",
  "git diff ':(top)src'",
  "git diff ':(exclude)src' README.md",
  "git log -p ':(top)README.md'",
  "git grep PASSWORD ':(top)src'",
  "git diff README.md",
  "git diff HEAD -- README.md",
  "git checkout -p README.md",
];

Deno.test("git content: what git shows of a tracked protected file is reached", async () => {
  await checkActions(DL, SECRETS_TRACKED, SHOWERS.map((c) => [c, "ask"] as const));
  await checkActions(DL, SECRETS_TRACKED, NOT_SHOWN.map((c) => [c, "allow"] as const));
});

Deno.test("git content: an untracked (ignored) protected file is not what git shows", async () => {
  // (Another index's files, `-C .` (a tree named), a pager's command: asked about elsewhere.)
  const untracked = new Set([
    "GIT_INDEX_FILE=/tmp/i git diff --cached",
    "git -C . grep PASSWORD",
    "git -c core.pager=cat log -p",
    // (The untracked files a stash keeps may be any there are; a corrected subcommand, any.)
    "git stash show -p -u",
    "git -c help.autocorrect=1 diff1",
    "git diff --submodule=diff",
    // (A command git does not build in may be an alias where it is not installed: this
    // repository's HEAD, and so its config, is not read.)
    "git send-email HEAD~1",
    "git request-pull -p v1 origin",
  ]);
  await checkActions(
    DL,
    SECRETS_IGNORED,
    SHOWERS.map((c) => [c, untracked.has(c) ? "ask" : "allow"] as const),
  );
  // (git grep's untracked files, outside the index: those there are.)
  await checkActions(DL, SECRETS_IGNORED, [
    ["git grep --untracked PASSWORD", "ask"],
    ["git grep --untr PASSWORD", "ask"],
    ["git grep --no-index PASSWORD", "ask"],
    ["git grep --no-exclude-standard --untracked PASSWORD", "ask"],
    ["git grep --recurse-submodules PASSWORD", "ask"],
    ["git grep --untracked PASSWORD -- src", "allow"],
  ]);
});

Deno.test("git content: where the index cannot be read or there is none, the files there are", async () => {
  // (No index, a repository with a `.git` file naming nothing readable, no repository.)
  const noIndex = ctxIn("/p", {
    files: [...FILES, "/p/.git/x"],
    contents: { "/p/.git/config": "" },
    home,
  });
  const gitFile = ctxIn("/p", { files: FILES, contents: { "/p/.git": "gitdir: /q/.git" }, home });
  const none = ctxIn("/p", { files: FILES, home });
  const broken = ctxIn("/p", {
    files: [...FILES, "/p/.git/HEAD"],
    bytes: { "/p/.git/index": gitIndexBytes(["README.md"]).subarray(0, 40) },
    home,
  });
  for (const ctx of [noIndex, gitFile, none, broken]) {
    await checkActions(DL, ctx, [
      ["git diff", "ask"],
      ["git grep PASSWORD", "ask"],
      ["git log -p", "ask"],
      ["cd src && git grep PASSWORD", "allow"],
      ["git diff --stat", "allow"],
    ]);
  }
  // (A repository with nothing added yet: nothing is tracked.)
  const fresh = ctxIn("/p", { files: [...FILES, "/p/.git/HEAD"], home });
  await checkActions(DL, fresh, [["git diff", "allow"], ["git grep PASSWORD", "allow"]]);
});

Deno.test("git content: from the work tree's top, found above the cwd; a linked work tree's index", async () => {
  const nested = ctxIn("/w/p", {
    files: [...FILES.map((f) => "/w" + f), "/w/p/.git/HEAD"],
    bytes: { "/w/p/.git/index": gitIndexBytes(["secrets/key", "src/main.ts"]) },
    home,
  });
  await checkActions(DL, { ...nested, cwd: "/w/p/src/lib" }, [
    ["git diff", "ask"],
    ["git log -p", "ask"],
    ["git grep PASSWORD", "allow"],
    ["git grep PASSWORD -- :/", "ask"],
  ]);
  const linked = ctxIn("/p", {
    files: FILES,
    contents: { "/p/.git": "gitdir: /r/.git/worktrees/p\n" },
    bytes: { "/r/.git/worktrees/p/index": gitIndexBytes(["secrets/key"]) },
    home,
  });
  await checkActions(DL, linked, [["git diff", "ask"], ["git diff --stat", "allow"]]);
  // (A protected place the cwd is in: what git searches there is protected.)
  await checkActions(DL, { ...SECRETS_IGNORED, cwd: "/p/secrets" }, [["git grep x", "deny"]]);
});

/** Everyday agent git work: allowed under the starter config, tracked secrets or not. */
const EVERYDAY: [string, Action][] = [
  ["git diff", "allow"],
  ["git diff --stat", "allow"],
  ["git diff --cached", "allow"],
  ["git log -p -3", "allow"],
  ["git log --oneline -10", "allow"],
  ["git show HEAD", "allow"],
  ["git show --stat HEAD", "allow"],
  ["git grep -n foo", "allow"],
  ["git grep foo -- src", "allow"],
  ["git stash show -p", "allow"],
];

Deno.test("git content: everyday git work stays allowed under the starter config", async () => {
  for (const ctx of [SECRETS_TRACKED, SECRETS_IGNORED, ctxIn("/p", { files: FILES, home })]) {
    await checkActions(G, ctx, EVERYDAY);
  }
});

/** The last stage of a command as the analysis reads it in /p. */
function lastStage(command: string, parser: BashParser): Stage {
  return analyzeBash(command, { cwd: "/p", home, env: { HOME: home }, carriesCommand }, parser)
    .stages.at(-1)!;
}

Deno.test("git content: the facet's reading of each form", async () => {
  const parser = await loadBashParser();
  const read = (command: string) => {
    const r = GIT.readsRepository!(lastStage(command, parser));
    return r && { ...r, either: r.either.map((w) => w.value) };
  };
  const top = (either: string[] = []) => ({ from: "top", tracked: true, present: false, either });
  assert.deepEqual(read("git diff"), top());
  assert.deepEqual(read("git diff main src"), top(["main", "src"]));
  assert.deepEqual(read("git log -p --author x y"), top(["y"]));
  // (A word after an option not known may be its value: neither a revision nor a path.)
  assert.deepEqual(read("git log -p --some-new-option src"), top([]));
  assert.deepEqual(read("git show HEAD HEAD:README.md"), top(["HEAD"]));
  assert.deepEqual(read("git checkout -p HEAD~1"), top(["HEAD~1"]));
  assert.deepEqual(read("git grep x"), { from: "cwd", tracked: true, present: false, either: [] });
  assert.deepEqual(read("git grep -e x HEAD src"), {
    from: "cwd",
    tracked: true,
    present: false,
    either: ["HEAD", "src"],
  });
  assert.deepEqual(read("git grep x -- :/"), {
    from: "top",
    tracked: true,
    present: false,
    either: [],
  });
  assert.equal(read("git grep x -- src")?.present, undefined);
  // (Before `--`, revisions alone: no word of them may name a path.)
  assert.deepEqual(read("git diff main --"), top());
  assert.deepEqual(read("git diff main ':!src'"), top(["main"]));
  assert.deepEqual(read("git diff HEAD:src"), top());
  assert.equal(read("git show HEAD:src"), null);
  assert.equal(read("GIT_DIR=/x git diff")?.present, true);
  assert.equal(read("git --work-tree=/x diff")?.present, true);
  for (const none of ["git diff --stat", "git grep x '*.py'", "git status", "git log"]) {
    assert.equal(read(none), null, none);
  }
});

Deno.test({
  name: "git content: a real repository's index, read through the real filesystem",
  ignore: !HAS_GIT,
}, async () => {
  const parser = await loadBashParser();
  const repo = tempRepository(["src/a.ts", "secrets/key", "notes/key"]);
  const { dir, git: run } = repo;
  try {
    run("add", "src/a.ts", "notes/key");
    const ctx = { cwd: dir, home, env: { HOME: home }, fs: realFs() };
    const at = (command: string) =>
      decide(DL, { tool: "bash", input: { command } }, ctx, { parser }).action;
    assert.equal(at("git diff"), "allow");
    run("update-index", "--index-version", "4");
    run("add", "secrets/key");
    assert.equal(at("git diff"), "ask");
    assert.equal(at("git grep x -- src"), "allow");
  } finally {
    repo.remove();
  }
});

Deno.test("git content: an index another stage may change first is not trusted", async () => {
  await checkActions(DL, SECRETS_IGNORED, [
    // (`git add -Af` adds the ignored files: what there is counts.)
    ["git add -Af && git diff --cached", "ask"],
    ["git add -A && git diff --cached", "ask"],
    ["python3 x.py && git diff", "ask"],
    // (At once: `git add src` may add what is below src, not known here.)
    ["git diff & git add src", "ask"],
    // (`git add -u` adds no path the index does not list.)
    ["git diff & git add -u", "allow"],
    // (A later stage, or one that writes no place of the repository's, does not change it.)
    ["git diff && git add src", "allow"],
    ["git diff; git add -A", "allow"],
    ["git status && git diff", "allow"],
    ["echo x > notes.txt && git diff", "allow"],
  ]);
});

Deno.test("git content: what git copies into a work tree given elsewhere is read", async () => {
  await checkActions(DL, SECRETS_TRACKED, [
    ["git --work-tree=/tmp/z checkout -f", "ask"],
    ["git --work-tree=/tmp/z checkout main", "ask"],
    ["git --work-tree /tmp/z reset --hard", "ask"],
    ["git --work-tree=/tmp/z read-tree -u HEAD", "ask"],
    ["git --work-tree=/tmp/z read-tree -um HEAD", "ask"],
    ["git --work-tree=/tmp/z read-tree -mu HEAD", "ask"],
    ["git --work-tree=/tmp/z read-tree -m HEAD", "allow"],
    ["git --work-tree=/tmp/z reset --har", "ask"],
    ["git --work-tree=/tmp/z reset --k", "ask"],
    ["git --work-tree=/tmp/z reset --soft", "allow"],
    // (A new work tree: every tracked file checked out there, as `git clone . DIR` does.)
    ["git worktree add /tmp/z/wt", "ask"],
    ["git worktree add -b x /tmp/z/wt main", "ask"],
    ["git worktree add --no-checkout /tmp/z/wt", "allow"],
    ["git worktree list", "allow"],
    ["git --work-tree=/tmp/z stash pop", "ask"],
    ["git --work-tree=/tmp/z merge feature", "ask"],
    ["git --work-tree=/tmp/z status", "allow"],
    ["git --work-tree=/tmp/z reset", "allow"],
    ["git checkout main", "allow"],
  ]);
});

/** Forms that read the files git does not ignore into its object store, no pathspec naming them. */
const STORES_UNIGNORED = [
  "git add -A",
  "git add --all",
  "git add --al",
  "git add --a",
  "git add --no-ignore-removal",
  "git add -vA",
  "git add -A -v",
  "git add :/",
  "git add ':(top)'",
  "git add -A :/",
  "git add --all -- :/",
  "git add ':!src'",
  "git add -A ':!src'",
  "git add -n --no-dry-run -A",
  "git --no-pager add -A",
  "cd src && git add -A",
  "git add -A && git commit -m x && git push",
];

/** Forms that read every file there is, ignored or not. */
const STORES_ALL = [
  "git add -Af",
  "git add -fA",
  "git add -A -f",
  "git add --force --all",
  "git add --for -A",
  "git add -f :/",
  "git stash save -a",
  "git stash save --all wip",
  "git -c core.excludesFile=/dev/null add -A",
  "git -c core.ignorecase=true add -A",
  "git -c include.path=/tmp/x add -A",
];

/** Forms that read the tracked files' changes alone. */
const STORES_TRACKED = [
  "git add -u",
  "git add --update",
  "git add --upd",
  "git add --renormalize",
  "git commit -a",
  "git commit -am x",
  "git commit -a -m x",
  "git commit --all -m x",
  "git commit -qam x",
  "git commit -a --amend --no-edit",
  "git commit -m x :/",
  "git commit -m x -- ':!src'",
  "git stash",
  "git stash push",
  "git stash -m wip",
  "git stash push -k",
  "git stash create",
  "git stash save wip",
];

/** Forms that read nothing into the object store, or only what they name. */
const STORES_NOTHING = [
  "git add",
  "git add -f",
  "git add -n -A",
  "git add --dry-run --all",
  "git add src",
  "git add -A src",
  "git add -u src",
  "git add README.md",
  "git commit -m x",
  "git commit -m x src/main.ts",
  "git stash pop",
  "git stash apply",
  "git stash list",
  "git stash drop",
  "git status",
];

Deno.test("git content: what add, commit -a and stash read into the object store", async () => {
  const all = [...STORES_UNIGNORED, ...STORES_ALL, ...STORES_TRACKED];
  // (A tracked secret: every form reads it.)
  await checkActions(DL, SECRETS_TRACKED, all.map((c) => [c, "ask"] as const));
  // (Neither tracked nor ignored: what adds the untracked files reads it.)
  await checkActions(DL, SECRETS_UNTRACKED, [
    ...[...STORES_UNIGNORED, ...STORES_ALL].map((c) => [c, "ask"] as const),
    ...STORES_TRACKED.map((c) => [c, "allow"] as const),
  ]);
  // (Ignored: only what adds the ignored files too.)
  await checkActions(DL, SECRETS_IGNORED, [
    ...STORES_ALL.map((c) => [c, "ask"] as const),
    ...[...STORES_UNIGNORED, ...STORES_TRACKED].map((c) => [c, "allow"] as const),
  ]);
  for (const ctx of [SECRETS_TRACKED, SECRETS_UNTRACKED, SECRETS_IGNORED]) {
    await checkActions(DL, ctx, STORES_NOTHING.map((c) => [c, "allow"] as const));
  }
  // (Stash's -u and -a remove the untracked files too: asked about as `git clean` is.)
  for (const c of ["git stash -u", "git stash push --incl", "git stash save -u wip"]) {
    await checkActions(DL, SECRETS_UNTRACKED, [[c, "ask"]]);
  }
});

Deno.test("git content: what git ignores is read where no other stage may change it first", async () => {
  await checkActions(DL, SECRETS_IGNORED, [
    ["echo '!secrets/' >> .gitignore && git add -A", "ask"],
    ["rm .gitignore; git add -A", "ask"],
    ["git config core.excludesFile /dev/null && git add -A", "ask"],
    ["echo x > ~/.config/git/ignore && git add -A", "ask"],
    ["python3 x.py && git add -A", "ask"],
    // (Run by a wrapper, perhaps with another environment: no HOME, no user's ignore rules.)
    ["env -u HOME git add -A", "ask"],
    ["env -i git add -A", "ask"],
    ["sudo git add -A", "ask"],
    // (A file elsewhere, a stage after it.)
    ["echo x > notes.txt && git add -A", "allow"],
    ["git add -A && echo '!secrets/' >> .gitignore", "allow"],
    // (A trap's handler runs when its signal comes: after what follows it.)
    ["trap 'git add -A' EXIT; mv .gitignore x", "ask"],
    ["trap 'git add -A' EXIT; echo x > notes.txt", "allow"],
  ]);
  // (A deeper .gitignore may re-include; one not read is nothing ignored.)
  const reincluded = repository(["README.md"], {
    "/p/.gitignore": "key\n",
    "/p/secrets/.gitignore": "!key\n",
  });
  await checkActions(DL, reincluded, [["git add -A", "ask"]]);
  const excluded = repository(["README.md"], { "/p/.git/info/exclude": "/secrets/\n" });
  await checkActions(DL, excluded, [["git add -A", "allow"], ["git add -Af", "ask"]]);
  const global = repository(["README.md"], { [`${home}/.config/git/ignore`]: "secrets\n" });
  await checkActions(DL, global, [["git add -A", "allow"]]);
  const elsewhere = repository(["README.md"], {
    [`${home}/.config/git/ignore`]: "secrets\n",
    [`${home}/.gitconfig`]: "[core]\n\texcludesfile = ~/.gitignore_global\n",
  });
  await checkActions(DL, elsewhere, [["git add -A", "ask"]]);
  // (A parent directory excluded: its files cannot be re-included.)
  const parent = repository(["README.md"], { "/p/.gitignore": "/secrets\n!secrets/key\n" });
  await checkActions(DL, parent, [["git add -A", "allow"]]);
  const children = repository(["README.md"], { "/p/.gitignore": "/secrets/*\n!secrets/key\n" });
  await checkActions(DL, children, [["git add -A", "ask"]]);
});

Deno.test("git content: everyday adds, commits and stashes stay allowed under the starter config", async () => {
  const gate = ctxIn("/p", {
    files: [...FILES, "/p/.git/HEAD", "/p/.pi/settings.json"],
    bytes: { "/p/.git/index": gitIndexBytes(["README.md", ".pi/settings.json"]) },
    home,
  });
  const everyday: [string, Action][] = [
    ["git add -A", "allow"],
    ["git add .", "allow"],
    ["git add -u", "allow"],
    ["git commit -am x", "allow"],
    ["git add -A && git commit -m x", "allow"],
    ["git stash", "allow"],
    ["git stash pop", "allow"],
    ["git worktree add .worktrees/x", "allow"],
  ];
  for (const ctx of [SECRETS_TRACKED, SECRETS_UNTRACKED, SECRETS_IGNORED, gate]) {
    await checkActions(G, ctx, everyday);
  }
});

Deno.test("git content: the store forms' reading", async () => {
  const parser = await loadBashParser();
  const read = (command: string) => {
    const r = GIT.readsRepository!(lastStage(command, parser));
    return r && { from: r.from, present: r.present, unignored: r.unignored === true };
  };
  assert.deepEqual(read("git add -A"), { from: "top", present: false, unignored: true });
  assert.deepEqual(read("git add ':!x'"), { from: "cwd", present: false, unignored: true });
  assert.deepEqual(read("git add -Af"), { from: "top", present: true, unignored: false });
  assert.deepEqual(read("git add -u"), { from: "top", present: false, unignored: false });
  assert.deepEqual(read("git add -u :/"), { from: "top", present: false, unignored: false });
  assert.deepEqual(read("git stash -u"), { from: "top", present: false, unignored: true });
  assert.deepEqual(read("git stash push --include-untracked"), {
    from: "top",
    present: false,
    unignored: true,
  });
  assert.deepEqual(read("git stash -a"), { from: "top", present: true, unignored: false });
  assert.deepEqual(read("git commit -a"), { from: "top", present: false, unignored: false });
  assert.deepEqual(read("git commit ':!x'"), { from: "cwd", present: false, unignored: false });
  for (const none of ["git add", "git add -n -A", "git add -A src", "git stash push -u -- src"]) {
    assert.equal(read(none), null, none);
  }
});

Deno.test({
  name: "git content: git add -A on a real repository with a .gitignore",
  ignore: !HAS_GIT,
}, async () => {
  const parser = await loadBashParser();
  const repo = tempRepository(["src/a.ts", "secrets/key"]);
  const { dir, git: run } = repo;
  try {
    run("add", "src/a.ts");
    const ctx = { cwd: dir, home: dir, env: { HOME: dir }, fs: realFs() };
    const at = (command: string) =>
      decide(DL, { tool: "bash", input: { command } }, ctx, { parser }).action;
    assert.equal(at("git add -A"), "ask");
    Deno.writeTextFileSync(`${dir}/.gitignore`, "secrets/\n");
    assert.equal(at("git add -A"), "allow");
    assert.equal(at("git add -Af"), "ask");
    assert.equal(at("git commit -am x"), "allow");
  } finally {
    repo.remove();
  }
});

Deno.test("git content: a top pathspec run in a subdirectory names a path from the top", async () => {
  const ctx = ctxIn("/p/src", { files: [...FILES, "/p/.git/HEAD", "/p/src/a.ts"], home });
  await checkActions(DL, ctx, [
    ["git diff -- :/secrets", "deny"],
    ["git log -p -- :/secrets", "deny"],
    ["git show HEAD -- ':/secrets'", "deny"],
    ["git diff -- ':(top)secrets'", "deny"],
    ["git add :/secrets", "deny"],
    ["git add -f ':(top)secrets'", "deny"],
    ["git add ':(top,icase)SECRETS'", "deny"],
    ["git add :/src/a.ts", "allow"],
    ["git diff -- :/README.md", "allow"],
  ]);
  // (Where no work tree is seen, from the cwd.)
  const bare = ctxIn("/p/src", { files: [...FILES, "/p/src/a.ts"], home });
  await checkActions(DL, bare, [["git add :/a.ts", "allow"], ["git add :/../secrets", "deny"]]);
});
