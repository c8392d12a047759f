/**
 * git's plumbing that prints or writes out its objects' content (git_store_reads.ts) reads the
 * tracked files from the top: a protected one's asks where the index lists it; everyday upkeep
 * of the store stays allowed.
 */
import assert from "node:assert/strict";
import { checkActions, configFrom, ctxIn, gitIndexBytes, secretsDenied } from "../testing.ts";
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
  assert.equal(localRemote(["--remote=."]), true);
  assert.equal(localRemote(["--remote", "../other"]), true);
  assert.equal(localRemote(["--remote=file:///srv/r"]), true);
  assert.equal(localRemote(["--remote=host:r.git"]), false);
  assert.equal(localRemote(["--remote=ssh://host/r.git"]), false);
  assert.equal(localRemote(["--remote", null]), true);
  assert.equal(localRemote(["HEAD"]), null);
});
