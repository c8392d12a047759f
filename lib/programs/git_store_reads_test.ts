/**
 * git's plumbing that prints or writes out its objects' content (git_store_reads.ts) reads the
 * tracked files from the top: a protected one's asks where the index lists it; everyday upkeep
 * of the store stays allowed.
 */
import assert from "node:assert/strict";
import {
  checkActions,
  configFrom,
  ctxIn,
  gitIndexBytes,
  HAS_GIT,
  secretsDenied,
  tempRepository,
} from "../testing.ts";
import { realFs } from "../policy/fs_facts.ts";
import type { Context } from "../types.ts";
import { STARTER_CONFIG } from "../starter.ts";
import { literal } from "./words.ts";
import { localRemote, storeRead } from "./git_store_reads.ts";

const home = "/home/user";
/** Allow by default; `secrets/**` denied, `.env` asked about. */
const DL = secretsDenied(home);
const G = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });

/** A repository at /p whose index lists `tracked`. */
function repository(tracked: string[]) {
  return ctxIn("/p", {
    files: ["/p/src/main.ts", "/p/README.md", "/p/.git/HEAD", "/p/.git/objects/info/packs"],
    bytes: { "/p/.git/index": gitIndexBytes(tracked) },
    home,
  });
}

const TRACKED = repository(["src/main.ts", "README.md", "secrets/key"]);
const CLEAN = repository(["src/main.ts", "README.md"]);

/** Commands that print or write out the store's objects, by no file's name. */
const WRITERS = [
  "git pack-objects --no-reuse-object --compression=0 --all --stdout </dev/null | grep -a API",
  "echo HEAD | git pack-objects --revs --stdout",
  "git rev-list --objects --all | git pack-objects /tmp/pk",
  "git pack-objects -q --all /tmp/pk </dev/null",
  "git -c core.bigFileThreshold=1 pack-objects --all --stdout",
  "git repack -a -d --filter=blob:none --filter-to=/tmp/fp",
  "git repack -ad --filter=blob:none --filter-t /tmp/fp",
  "GIT_HTTP_EXPORT_ALL=1 PATH_INFO=/.git/objects/ab/cd git http-backend",
  "git diff-tree -r --raw HEAD~ HEAD | git diff-pairs -p",
  "git replace --edit 0123abcd",
  "git replace -fe 0123abcd",
  "git for-each-ref --format='%(raw)' refs/tags/t",
  "git for-each-ref --format '%(*raw)' refs/tags",
  "git tag -l --format='%(raw)'",
  "git branch --format=%\\(raw\\)",
  "git archive --remote=. HEAD",
  "git archive --remote . HEAD | tar t",
  "git archive --rem=file:///p HEAD",
  "git fsck --lost-found",
  "git fsck --full --lost-found --unreachable",
  "git fsck --l",
  "git fsck-objects --lost",
];

/** Everyday upkeep and plumbing that prints no file's content. */
const EVERYDAY = [
  "git gc",
  "git gc --aggressive --prune=now",
  "git repack -ad",
  "git repack -a -d --filter=blob:none",
  "git count-objects -v",
  "git fsck",
  "git fsck --full --unreachable --dangling",
  "git verify-pack -v .git/objects/pack/pack-0123.idx",
  "git show-index < .git/objects/pack/pack-0123.idx",
  "cat .git/objects/pack/*.idx",
  "git prune",
  "git for-each-ref --format='%(refname) %(objectname)'",
  "git for-each-ref --format='%(raw:size)'",
  "git branch --format='%(refname:short)'",
  "git tag -l 'v*'",
  "git replace -l",
  "git archive --remote=git@github.com:o/r HEAD",
  "git archive --remote=https://example.com/r.git --list",
  "git archive --list",
  "git rev-list --objects --all | wc -l",
];

Deno.test("git store reads: what prints or writes out objects reaches a tracked protected file", async () => {
  await checkActions(DL, TRACKED, [
    ...WRITERS.map((c) => [c, "ask"] as const),
    ...EVERYDAY.map((c) => [c, "allow"] as const),
  ]);
  // (The index lists nothing protected: the objects hold none of it, but what fsck writes out is
  // dangling, in no index: any protected glob counts.)
  await checkActions(DL, CLEAN, [
    // (`http-backend` is a program of its own: where it is not installed, an alias may run.)
    ...WRITERS.filter((c) => !/fsck|http-backend/.test(c)).map((c) => [c, "allow"] as const),
    ...WRITERS.filter((c) => /fsck/.test(c)).map((c) => [c, "ask"] as const),
    ...EVERYDAY.map((c) => [c, "allow"] as const),
  ]);
  await checkActions(G, CLEAN, EVERYDAY.map((c) => [c, "allow"] as const));
});

Deno.test("git store reads: the facet's reading of each form", () => {
  const read = (...words: string[]) => storeRead(words[0], words.slice(1).map(literal));
  assert.equal(read("pack-objects", "--stdout")?.from, "top");
  assert.equal(read("fsck", "--lost-found")?.dangling, true);
  assert.equal(read("fsck", "--full"), null);
  assert.equal(read("fsck", "--"), null);
  assert.equal(read("repack", "--filter=blob:none"), null);
  assert.equal(read("repack", "--filter-to=/tmp/x")?.tracked, true);
  // (A commit named shows no file's content: judged by the objects' kinds.)
  assert.deepEqual(read("replace", "--edit", "HEAD")?.objects?.map((w) => w.value), ["HEAD"]);
  // (A `REV:path` is judged as named.)
  assert.equal(read("replace", "-e", "HEAD:secrets/key"), null);
  assert.equal(read("replace", "-d", "0123"), null);
  assert.equal(read("tag", "-l", "--format=%(raw:size)"), null);
  assert.equal(read("branch", "--format=%(raw)")?.from, "top");
  // (What is put under another name: the objects named, a commit's root tree as the commit.)
  const named = (...words: string[]) => read(...words)?.objects?.map((w) => w.value);
  assert.deepEqual(named("update-index", "--add", "--cacheinfo", "100644,ab12,x,y"), ["ab12"]);
  assert.deepEqual(named("update-index", "--cacheinfo", "100644", "ab12", "x"), ["ab12"]);
  assert.deepEqual(named("update-index", "--cacheinfo=100644", "ab12", "x"), ["ab12"]);
  assert.equal(read("update-index", "--cacheinfo", "160000,ab12,sub"), null);
  assert.equal(read("update-index", "--", "--cacheinfo", "100644,ab12,x"), null);
  assert.deepEqual(named("read-tree", "--prefix", "pub/", "-u", "ab12"), ["ab12"]);
  assert.deepEqual(named("read-tree", "--index-output", "i", "--", "-x"), ["-x"]);
  assert.deepEqual(named("read-tree", "-m", "HEAD^{tree}", "ab12"), ["HEAD", "ab12"]);
  assert.equal(read("read-tree", "--prefix=pub/", "HEAD:secrets"), null);
  assert.equal(read("read-tree", "--empty"), null);
  assert.deepEqual(named("commit-tree", "-p", "HEAD", "-m", "a b", "-S", "ab12"), ["ab12"]);
  assert.deepEqual(named("commit-tree", "-pHEAD", "HEAD^{tree}"), ["HEAD"]);
  assert.deepEqual(named("replace", "-f", "ab12", "cd34"), ["cd34"]);
  assert.equal(read("replace", "-d", "ab12", "cd34"), null);
  assert.equal(read("replace", "--graft", "HEAD", "HEAD~"), null);
  assert.equal(read("replace", "ab12", "HEAD:secrets/key"), null);
  assert.equal(localRemote(["--remote=."]), true);
  assert.equal(localRemote(["--remote", "../other"]), true);
  assert.equal(localRemote(["--remote=file:///srv/r"]), true);
  assert.equal(localRemote(["--remote=host:r.git"]), false);
  assert.equal(localRemote(["--remote=ssh://host/r.git"]), false);
  assert.equal(localRemote(["--remote", null]), true);
  assert.equal(localRemote(["HEAD"]), null);
});

Deno.test({
  name:
    "git store reads: an object named by hash, put into the index or a commit under another name",
  ignore: !HAS_GIT,
  async fn() {
    const repo = tempRepository(["src/main.ts", "README.md", "secrets/key"], { commit: "one" });
    const clean = tempRepository(["src/main.ts", "README.md"], { commit: "one" });
    try {
      const ctx = (dir: string): Context => ({ cwd: dir, home, env: { HOME: home }, fs: realFs() });
      const at = (r: typeof repo, rev: string) => r.git("rev-parse", rev).trim();
      const key = at(repo, "HEAD:secrets/key");
      const secrets = at(repo, "HEAD:secrets");
      const root = at(repo, "HEAD^{tree}");
      const main = at(repo, "HEAD:src/main.ts");
      // (Written out under an unprotected name by the next checkout: `cat pub.txt` prints it.)
      const hostile = [
        `git update-index --add --cacheinfo 100644,${key},pub.txt && git checkout-index pub.txt`,
        `git update-index --add --cacheinfo 100644 ${key} pub.txt`,
        `git update-index --cacheinfo=100644,${key},pub.txt`,
        `git update-index --add --cach 100755,${key.slice(0, 7)},pub.txt`,
        `git read-tree --prefix=pub/ ${secrets} && git checkout-index pub/key`,
        `git read-tree --prefix pub/ ${secrets.slice(0, 8)}`,
        `git read-tree --pre=pub/ ${secrets}`,
        `git read-tree ${secrets}`,
        `git read-tree -m ${secrets}`,
        `git read-tree --index-output=/tmp/i ${secrets}`,
        `git read-tree --index-output /tmp/i -- ${secrets}`,
        `git commit-tree ${secrets} -m x`,
        `git commit-tree -p HEAD -m 'a:b' ${secrets}`,
        `git commit-tree -pHEAD -F /dev/null ${secrets}`,
        `git commit-tree ${root} -m x`,
        `git read-tree --prefix=pub/ "$T"`,
        `git mktree <<'E'\n100644 blob ${key}\tpub\nE`,
        "git mktree < entries.txt",
        "cat entries.txt | git mktree --missing",
        `git replace ${main} ${key}`,
        `git replace -f ${root} ${secrets}`,
        // (A name not known: the whole store, as for cat-file.)
        `git update-index --add --cacheinfo 100644,0123456789abcdef0123456789abcdef01234567,x`,
      ];
      const everyday = [
        "git update-index --refresh",
        "git update-index -q --really-refresh",
        "git update-index --assume-unchanged src/main.ts",
        "git update-index --skip-worktree README.md",
        "git update-index --chmod=+x src/main.ts",
        `git update-index --add --cacheinfo 160000,${key},vendor/sub`,
        "git read-tree HEAD",
        "git read-tree -m -u HEAD",
        "git read-tree --reset -u HEAD",
        "git read-tree --prefix=vendor/ HEAD",
        "git read-tree --prefix=vendor/ HEAD^{tree}",
        "git read-tree --empty",
        "git commit-tree HEAD^{tree} -p HEAD -m wip",
        "git commit-tree -m wip -p HEAD HEAD^{tree}",
        "git replace -d 0123abcd",
        "git replace --graft HEAD HEAD~",
        "git replace -l",
        "git mktree <<'E'\nE",
        "git write-tree",
        "git hash-object src/main.ts",
        "git hash-object -w src/main.ts",
      ];
      const lines = (c: string) => c.replaceAll("\\n", "\n").replaceAll("\\t", "\t");
      await checkActions(DL, ctx(repo.dir), [
        ...hostile.map((c) => [lines(c), "ask"] as const),
        ...everyday.map((c) => [lines(c), "allow"] as const),
        // (Named as a path: judged as that file, as before.)
        ["git read-tree --prefix=pub/ HEAD:secrets", "deny"],
        ["git commit-tree HEAD:secrets -m x", "deny"],
        ["git hash-object -w secrets/key", "deny"],
        ["git hash-object -w --stdin < secrets/key", "deny"],
        ["git --work-tree=/tmp/z read-tree -u HEAD", "ask"],
        [`git --git-dir=.git read-tree HEAD`, "ask"],
      ]);
      // (A repository that tracks nothing protected: its objects hold none of it.)
      const croot = at(clean, "HEAD^{tree}");
      const blob = at(clean, "HEAD:README.md");
      await checkActions(DL, ctx(clean.dir), [
        [`git update-index --add --cacheinfo 100644,${blob},b.md`, "allow"],
        [`git read-tree --prefix=x/ ${croot}`, "allow"],
        [`git commit-tree ${croot} -m x`, "allow"],
        ["git ls-tree HEAD | git mktree", "allow"],
        [`git --git-dir=.git read-tree ${croot}`, "allow"],
        ...everyday.map((c) => [lines(c), "allow"] as const),
      ]);
    } finally {
      repo.remove();
      clean.remove();
    }
  },
});
