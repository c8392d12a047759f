import assert from "node:assert/strict";
import { literal } from "./words.ts";
import { commitsWritten, restoreWrites } from "./git_commits.ts";
import type { CommitsWritten } from "./spec.ts";

/** What `git ARGS` writes from commits (null: none). */
function of(command: string): CommitsWritten | null {
  return commitsWritten(command.split(" ").map(literal), 1)[0]?.commits ?? null;
}

Deno.test("git commits: the revisions each subcommand writes the files of", () => {
  const rows: [string, CommitsWritten | null][] = [
    ["git checkout main", { revisions: ["main"], branchFirst: true, orPath: true }],
    ["git checkout --detach v1.0", { revisions: ["v1.0"], branchFirst: true, orPath: true }],
    ["git checkout -b new origin/main", {
      revisions: ["origin/main"],
      branchFirst: true,
      orPath: true,
    }],
    ["git checkout evil -- .pi", {
      revisions: ["evil"],
      branchFirst: true,
      pathspecs: [".pi"],
      overwrites: true,
    }],
    ["git checkout -f", { revisions: ["HEAD"], overwrites: true }],
    // (Nothing after `--`: a switch to the revision before it, no path.)
    ["git checkout evil --", { revisions: ["evil"], branchFirst: true }],
    ["git checkout -f evil --", { revisions: ["evil"], branchFirst: true, overwrites: true }],
    ["git checkout --detach evil --", { revisions: ["evil"], branchFirst: true }],
    ["git checkout -b n evil --", { revisions: ["evil"], branchFirst: true }],
    ["git checkout -f --", { revisions: ["HEAD"], overwrites: true }],
    ["git switch evil", { revisions: ["evil"], branchFirst: true }],
    ["git switch -c new evil", { revisions: ["evil"], branchFirst: true }],
    ["git switch -", { revisions: ["@{-1}"], branchFirst: true }],
    ["git checkout -", { revisions: ["@{-1}"], branchFirst: true, orPath: true }],
    ["git switch --orphan x", { revisions: [null], unnamed: true }],
    ["git reset --hard", { revisions: ["HEAD"], overwrites: true }],
    ["git reset --keep HEAD~2", { revisions: ["HEAD~2"] }],
    ["git merge -m msg -s ours a b", { revisions: ["a", "b"] }],
    ["git merge", { revisions: ["@{upstream}"] }],
    ["git merge FETCH_HEAD", { revisions: ["FETCH_HEAD"], fetched: true }],
    ["git merge FETCH_HEAD main", { revisions: ["FETCH_HEAD", "main"] }],
    ["git merge --abort", {
      revisions: [null],
      unnamed: true,
      underway: "abort",
      underwayOf: "merge",
    }],
    ["git merge --ab", {
      revisions: [null],
      unnamed: true,
      underway: "abort",
      underwayOf: "merge",
    }],
    ["git merge --continue", null],
    ["git merge --quit", null],
    ["git pull origin main", { revisions: [null], unnamed: true }],
    ["git cherry-pick -m 1 c1 c2", { revisions: ["c1", "c2"] }],
    ["git cherry-pick main..evil", { revisions: ["main..evil"], range: true }],
    // (Commits a rev-list option picks are not named.)
    ["git cherry-pick --stdin", { revisions: [null] }],
    ["git cherry-pick --stdin main", { revisions: [null] }],
    ["git cherry-pick --all", { revisions: [null] }],
    ["git cherry-pick --branches=ev* main", { revisions: [null] }],
    ["git cherry-pick --glob=refs/heads/* main", { revisions: [null] }],
    ["git cherry-pick --tags main", { revisions: [null] }],
    ["git cherry-pick --remotes main", { revisions: [null] }],
    ["git cherry-pick -3 main", { revisions: [null] }],
    ["git revert --no-walk --all", { revisions: [null] }],
    ["git cherry-pick ^main evil", { revisions: ["^main", "evil"], range: true }],
    ["git revert main..evil", { revisions: ["main..evil"], range: true, parents: true }],
    // (git bisect: a range to start; the bisection under way's next commit.)
    ["git bisect start evil main", { revisions: ["evil", "^main"], range: true, bisect: "start" }],
    ["git bisect start --term-new fixed evil v1 v2 -- src", {
      revisions: ["evil", "^v1", "^v2"],
      range: true,
      bisect: "start",
    }],
    ["git bisect start evil", { revisions: [], bisect: "start" }],
    ["git bisect start --no-checkout evil main", null],
    ["git bisect start --bogus evil", { revisions: [null, "^evil"], range: true, bisect: "start" }],
    ["git bisect good", { revisions: [], bisect: "good" }],
    ["git bisect bad evil", { revisions: ["evil"], bisect: "bad" }],
    ["git bisect fixed", { revisions: [], bisect: "fixed" }],
    ["git bisect run make test", { revisions: [], bisect: "run" }],
    ["git bisect reset", { revisions: [], bisect: "reset" }],
    ["git bisect reset evil", { revisions: ["evil"], bisect: "reset" }],
    ["git bisect replay log", { revisions: [null], unnamed: true }],
    ["git bisect log", null],
    ["git bisect terms", null],
    // (A new work tree, a local clone: the commit's files, in the new directory.)
    ["git worktree add ../w evil", { revisions: ["evil"], branchFirst: true, into: "../w" }],
    ["git worktree add -b x ../w", { revisions: ["HEAD"], branchFirst: true, into: "../w" }],
    ["git worktree add ../feat", {
      revisions: ["HEAD"],
      branchFirst: true,
      into: "../feat",
      guessed: "feat",
    }],
    ["git worktree add --no-checkout ../w evil", null],
    ["git worktree list", null],
    ["git clone -b evil /tmp/r /tmp/c", {
      revisions: ["evil"],
      branchFirst: true,
      into: "/tmp/c",
      source: "/tmp/r",
    }],
    ["git clone file:///tmp/r.git", {
      revisions: ["HEAD"],
      branchFirst: true,
      into: "r",
      source: "/tmp/r.git",
    }],
    ["git clone ../r/.git", {
      revisions: ["HEAD"],
      branchFirst: true,
      into: "r",
      source: "../r/.git",
    }],
    ["git clone https://h/r.git", null],
    ["git clone h:r.git", null],
    ["git clone -n /tmp/r /tmp/c", null],
    ["git clone --bare /tmp/r /tmp/c", null],
    ["git cherry-pick -x -n --ff main", { revisions: ["main"] }],
    ["git cherry-pick --continue", {
      revisions: [null],
      unnamed: true,
      underway: "continue",
      underwayOf: "sequencer",
    }],
    ["git cherry-pick --sk", {
      revisions: [null],
      unnamed: true,
      underway: "skip",
      underwayOf: "sequencer",
    }],
    ["git revert --abort", {
      revisions: [null],
      unnamed: true,
      underway: "abort",
      underwayOf: "sequencer",
    }],
    // (Two verbs, or a commit beside one: git refuses them.)
    ["git revert --continue --abort", { revisions: [null], unnamed: true }],
    ["git cherry-pick --continue evil", { revisions: [null], unnamed: true }],
    ["git cherry-pick --quit", null],
    ["git revert c1", { revisions: ["c1"], parents: true }],
    ["git stash pop", { revisions: ["refs/stash"], stash: true }],
    ["git stash apply 2", { revisions: ["stash@{2}"], stash: true }],
    ["git stash branch b stash@{1}", { revisions: ["stash@{1}"], stash: true }],
    ["git stash", { revisions: ["HEAD"], overwrites: true }],
    ["git stash push -m wip", { revisions: ["HEAD"], overwrites: true }],
    ["git restore --source=evil .", { revisions: ["evil"], pathspecs: ["."], overwrites: true }],
    ["git restore -s evil -W -- src", {
      revisions: ["evil"],
      pathspecs: ["src"],
      overwrites: true,
    }],
    ["git read-tree -u -m evil", { revisions: ["evil"] }],
    ["git rebase main", { revisions: ["main"] }],
    ["git rebase -x make --onto evil main topic", { revisions: ["evil", "topic"] }],
    ["git rebase", { revisions: ["@{upstream}"] }],
    ["git rebase --root", { revisions: [null], unnamed: true }],
    ["git rebase --abort", { revisions: [null], unnamed: true, underway: "abort" }],
    // (After `--`, the revisions of the subcommands that take no paths there: gitcli(7).)
    ["git switch -- evil", { revisions: ["evil"], branchFirst: true }],
    ["git merge -- evil", { revisions: ["evil"] }],
    ["git cherry-pick -- evil", { revisions: ["evil"] }],
    ["git revert -- evil", { revisions: ["evil"], parents: true }],
    ["git rebase -- evil", { revisions: ["evil"] }],
    ["git rebase main -- topic", { revisions: ["main", "topic"] }],
    ["git read-tree -u -m -- evil", { revisions: ["evil"] }],
    ["git stash pop -- stash@{1}", { revisions: ["stash@{1}"], stash: true }],
    // (`-` is the branch before where git reads it so: merge's only operand, cherry-pick's and
    // revert's first, rebase's upstream; elsewhere a word git fails on.)
    ["git merge -", { revisions: ["@{-1}"] }],
    ["git merge --no-ff -- -", { revisions: ["@{-1}"] }],
    ["git merge main -", { revisions: ["main", "-"] }],
    ["git cherry-pick -x -", { revisions: ["@{-1}"] }],
    ["git cherry-pick - main", { revisions: ["@{-1}", "main"] }],
    ["git revert -", { revisions: ["@{-1}"], parents: true }],
    ["git rebase -", { revisions: ["@{-1}"] }],
    ["git rebase -i - topic", { revisions: ["@{-1}", "topic"] }],
    ["git rebase --onto main -", { revisions: ["main"] }],
    ["git worktree add w -", { revisions: ["@{-1}"], branchFirst: true, into: "w" }],
    // (rev-list's parent shorthands are ranges; a word that starts as a path is no range.)
    ["git cherry-pick evil^!", { revisions: ["evil^!"], range: true }],
    ["git cherry-pick evil^-2 main^@", { revisions: ["evil^-2", "main^@"], range: true }],
    ["git checkout ../x", { revisions: ["../x"], branchFirst: true, orPath: true }],
    ["git checkout a..b", { revisions: [null], branchFirst: true, orPath: true }],
    ["git stash -- src", { revisions: ["HEAD"], overwrites: true }],
    ["git worktree add -- ../w evil", { revisions: ["evil"], branchFirst: true, into: "../w" }],
    ["git worktree add -b x -- ../w", { revisions: ["HEAD"], branchFirst: true, into: "../w" }],
    ["git clone -b evil -- /tmp/r /tmp/c", {
      revisions: ["evil"],
      branchFirst: true,
      into: "/tmp/c",
      source: "/tmp/r",
    }],
    ["git clone -- https://h/r.git", null],
    // Nothing from commits: a new branch where HEAD is, the index's files, no work tree change.
    ["git checkout -b new", null],
    ["git switch -c new", null],
    ["git checkout -- src/a.ts", null],
    ["git checkout -f -- src/a.ts", null],
    ["git checkout", null],
    ["git reset --soft evil", null],
    ["git reset evil -- src", null],
    ["git restore src/a.ts", null],
    ["git restore -s evil --staged src", null],
    ["git read-tree evil", null],
    ["git read-tree --prefix=x/ evil", null],
    ["git stash list", null],
    ["git stash show -p", null],
    ["git stash drop", null],
    ["git merge --continue", null],
    ["git rebase --edit-todo", null],
    ["git log main", null],
  ];
  // (Compared with their keys in order.)
  const text = (v: CommitsWritten | null) =>
    JSON.stringify(v && Object.fromEntries(Object.entries(v).sort(([a], [b]) => a < b ? -1 : 1)));
  const wrong = rows.filter(([c, want]) => text(of(c)) !== text(want))
    .map(([c, want]) => `${c}: got ${text(of(c))}, want ${text(want)}`);
  assert.deepEqual(wrong, []);
});

Deno.test("git commits: git sparse-checkout writes the files it skipped", () => {
  for (const verb of ["disable", "add x", "set --cone x", "reapply", "init"]) {
    assert.deepEqual(of(`git sparse-checkout ${verb}`), { revisions: [], skipped: true }, verb);
  }
  assert.equal(of("git sparse-checkout list"), null);
});

Deno.test("git commits: a checkout told not to guess a remote's branch says so", () => {
  assert.deepEqual(of("git switch --no-guess feat"), {
    revisions: ["feat"],
    branchFirst: true,
    noGuess: true,
  });
  assert.equal(of("git checkout --no-guess feat")?.noGuess, true);
});

Deno.test("git commits: a rebase replays the commits of its branch, each written", () => {
  /** Each file's commits, `git ARGS` writes. */
  const all = (command: string) =>
    commitsWritten(command.split(" ").map(literal), 1).map((f) => f.commits);
  /** A `git am` session's verb, as written. */
  const am = (underway: CommitsWritten["underway"], options?: string[]): CommitsWritten => ({
    revisions: [null],
    unnamed: true,
    underway,
    underwayOf: "am",
    ...(options ? { underwayOptions: options } : {}),
  });
  const rows: [string, (CommitsWritten | undefined)[]][] = [
    ["git rebase main", [{ revisions: ["main"] }, {
      revisions: ["^main", "HEAD"],
      range: true,
      replays: true,
    }]],
    ["git rebase main topic", [
      { revisions: ["main", "topic"] },
      { revisions: ["^main", "topic"], range: true, replays: true },
    ]],
    ["git rebase --onto evil main", [
      { revisions: ["evil"] },
      { revisions: ["^main", "HEAD"], range: true, replays: true },
    ]],
    ["git rebase", [
      { revisions: ["@{upstream}"] },
      { revisions: ["^@{upstream}", "HEAD"], range: true, replays: true },
    ]],
    ["git rebase -", [{ revisions: ["@{-1}"] }, {
      revisions: ["^@{-1}", "HEAD"],
      range: true,
      replays: true,
    }]],
    ["git rebase --root --onto evil", [
      { revisions: ["evil"] },
      { revisions: ["HEAD"], range: true, replays: true },
    ]],
    ["git rebase main a..b", [{ revisions: ["main", null] }, { revisions: [null] }]],
    // (Onto a base not read, a sequence under way, one abbreviated: commits not named.)
    ["git rebase --keep-base main", [{ revisions: [null], unnamed: true }]],
    ["git rebase --root", [{ revisions: [null], unnamed: true }]],
    ["git rebase --cont", [{ revisions: [null], unnamed: true, underway: "continue" }]],
    ["git rebase --ski", [{ revisions: [null], unnamed: true, underway: "skip" }]],
    // (Two verbs: git refuses them.)
    ["git rebase --continue --abort", [{ revisions: [null], unnamed: true }]],
    ["git rebase --edit", []],
    // (git am: a session under way writes what its state says, git_underway_am.ts; a mailbox's
    // patches, what they name. Options that change what a patch writes: not known under way.)
    ["git am --continue", [am("continue")]],
    ["git am -r", [am("continue")]],
    ["git am --resolved -q --signoff", [am("continue")]],
    ["git am --allow-empty", [am("continue")]],
    ["git am --sk", [am("skip")]],
    ["git am --abort", [am("abort")]],
    ["git am --retry", [am("apply")]],
    ["git am --continue -p2 --directory=x", [am("continue", ["-p", "--directory"])]],
    ["git am --continue -3", [am("continue", ["-3"])]],
    ["git am --continue --skip", [{ revisions: [null], unnamed: true }]],
    ["git am --continue x.mbox", [{ revisions: [null], unnamed: true }]],
    ["git am --quit", []],
    ["git am --show-current-patch=diff", []],
    ["git am -3 x.patch", []],
    ["git filter-branch --subdirectory-filter src HEAD", [{ revisions: [null], unnamed: true }]],
    ["git filter-repo --path src", [{ revisions: [null], unnamed: true }]],
  ];
  const wrong = rows.filter(([c, want]) => JSON.stringify(all(c)) !== JSON.stringify(want))
    .map(([c, want]) => `${c}: got ${JSON.stringify(all(c))}, want ${JSON.stringify(want)}`);
  assert.deepEqual(wrong, []);
});

Deno.test("git commits: git restore's options read as git reads them (restoreWrites)", () => {
  const w = (cmd: string) => {
    const r = restoreWrites(cmd.split(" ").slice(2).map(literal));
    return `${r.index ? "index" : ""}${r.worktree ? "+tree" : ""}:${r.source ?? "-"}`;
  };
  const rows: [string, string][] = [
    ["git restore x", "+tree:-"],
    ["git restore --staged x", "index:-"],
    ["git restore -S x", "index:-"],
    ["git restore -qS x", "index:-"],
    ["git restore --sta x", "index:-"],
    ["git restore -S -s HEAD~1 x", "index:HEAD~1"],
    ["git restore --source=HEAD --staged x", "index:HEAD"],
    // Hostile: the work tree too, however it is spelled.
    ["git restore -SW x", "index+tree:-"],
    ["git restore -WS x", "index+tree:-"],
    ["git restore --staged --wor x", "index+tree:-"],
    ["git restore -S --w x", "index+tree:-"],
    ["git restore --staged --no-staged x", "+tree:-"],
    ["git restore --staged --no-st x", "+tree:-"],
    ["git restore -sStaged x", "+tree:Staged"],
    ["git restore -s -S x", "+tree:-S"],
    ["git restore --staged --unknown-opt x", "index+tree:-"],
    ["git restore --staged -- -W", "index:-"],
  ];
  const wrong = rows.filter(([c, want]) => w(c) !== want).map(([c, want]) =>
    `${c}: got ${w(c)}, want ${want}`
  );
  assert.deepEqual(wrong, []);
  // What it writes from commits: only where the work tree is written from a source.
  assert.equal(of("git restore -s evil -S --wor src")?.revisions[0], "evil");
  assert.equal(of("git restore -sevil -S src"), null);
});
