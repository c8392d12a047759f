import assert from "node:assert/strict";
import {
  checkActions,
  ctxIn,
  gitIndexBytes,
  HAS_GIT,
  secretsDenied,
  tempRepository,
} from "../testing.ts";
import { realFs } from "../policy/fs_facts.ts";
import { literal } from "./words.ts";
import { catFileRead, checkoutIndexFiles, checksOutAll } from "./git_blobs.ts";

const home = "/home/user";
/** Allow by default; `secrets/**` denied, `.env` asked about, `~/.ssh/**` denied. */
const DL = secretsDenied(home);

const FILES = ["/p/src/main.ts", "/p/README.md", "/p/.env", "/p/secrets/key", "/p/.git/HEAD"];

/** A repository at /p whose index lists `tracked`. */
function repository(tracked: string[]) {
  return ctxIn("/p", { files: FILES, bytes: { "/p/.git/index": gitIndexBytes(tracked) }, home });
}

Deno.test("git checkout-index -a: every path of the index is read, in any spelling", () => {
  const all = (command: string) => checksOutAll(command.split(" ").map(literal));
  for (const yes of ["-a", "-fa", "-af", "-qfa", "--all", "--al", "-f -a", "-u --all"]) {
    assert.equal(all(yes), true, yes);
  }
  for (const no of ["-f", "-f -- -a", "--prefix=x/ README.md", "-z", "--force"]) {
    assert.equal(all(no), false, no);
  }
  const named = checkoutIndexFiles(
    ["git", "checkout-index", "-fa", "--prefix=/t/x-"].map(literal),
    1,
  );
  assert.deepEqual(named.map((f) => [f.path, f.indexed]), [["/t/x-", true]]);
});

Deno.test("git checkout-index -a: the tracked files are read, their copies written by their names", async () => {
  const tracked = repository(["src/main.ts", "README.md", "secrets/key", ".env"]);
  await checkActions(DL, tracked, [
    // (A copy under a name no glob protects is still a read of the protected files.)
    ["git checkout-index -a --prefix=/tmp/z/x-", "ask"],
    ["git checkout-index -fa --prefix=/tmp/z/x-", "ask"],
    ["git checkout-index --all --prefix /tmp/z/x-", "ask"],
    ["git checkout-index -a -f", "deny"], // (it writes secrets/key)
    ["git checkout-index --prefix=/tmp/z/x- README.md", "allow"],
    // (From a directory, the paths below it alone.)
    ["cd src && git checkout-index -a --prefix=/tmp/z/", "allow"],
  ]);
  const ignored = repository(["src/main.ts", "README.md"]);
  await checkActions(DL, ignored, [
    ["git checkout-index -a --prefix=/tmp/z/x-", "allow"],
    ["git checkout-index -a --prefix=/tmp/z/", "allow"],
    ["git checkout-index -a -f", "allow"],
    // (An earlier stage that may add to the index: what it copies is not known.)
    ["git add -Af && git checkout-index -a --prefix=/tmp/z/x-", "ask"],
  ]);
  // (The names written are the prefix and each tracked path: a protected name is reached.)
  const env = repository(["src/main.ts", "env", "h/id_rsa"]);
  await checkActions(DL, env, [
    ["git checkout-index -a --prefix=out/.", "ask"],
    ["git checkout-index -a --prefix=/home/user/.ss", "deny"],
    ["git checkout-index -a --prefix=out/", "allow"],
  ]);
  // (No index to read: the names are not known.)
  const none = ctxIn("/p", { files: FILES.slice(0, 4), home });
  await checkActions(DL, none, [["git checkout-index -a --prefix=/tmp/z/x-", "ask"]]);
});

Deno.test("git REV:path: every subcommand that reads a revision's file or tree names it", async () => {
  const tracked = repository(["src/main.ts", "README.md", "secrets/key", ".env"]);
  await checkActions(DL, tracked, [
    // (Printed: a diff of two trees, a tree against the work tree, an external diff's files.)
    ["git diff-tree -p HEAD~1:secrets HEAD:secrets", "deny"],
    ["git diff-tree -p HEAD~1:secrets/key HEAD:secrets/key", "deny"],
    ["git diff-index -p HEAD:secrets", "deny"],
    ["git difftool HEAD~1:secrets HEAD:secrets", "deny"],
    ["git merge-tree HEAD:secrets HEAD:src HEAD:src", "deny"],
    ["git ls-tree HEAD:secrets", "deny"],
    ["git unpack-file HEAD:secrets/key", "deny"],
    ["git diff HEAD~1:.env HEAD:.env", "ask"],
    // (Copied: into the work tree under another name, or into the index.)
    ["git checkout HEAD~1:secrets -- key", "deny"],
    ["git restore --source=HEAD~1:secrets -- key", "deny"],
    ["git restore --sou=HEAD~1:secrets key", "deny"],
    ["git restore -s HEAD~1:secrets key", "deny"],
    ["git restore -WsHEAD~1:secrets key", "deny"],
    ["git reset HEAD:secrets -- key", "deny"],
    ["git read-tree --prefix=x/ HEAD:secrets", "deny"],
    // (Other files, other revisions.)
    ["git diff-tree -p HEAD~1:src HEAD:src", "allow"],
    ["git restore -s HEAD~1 src/main.ts", "allow"],
    ["git ls-tree HEAD:src", "allow"],
  ]);
});

Deno.test("git --work-tree=DIR: what writes the repository's files there replaces what is below DIR", async () => {
  // (~/.ssh holds no file yet: what git writes there is the reach.)
  const ctx = ctxIn("/p", {
    files: FILES,
    bytes: { "/p/.git/index": gitIndexBytes(["src/main.ts", "README.md"]) },
    home,
  });
  const ssh = "git --work-tree=/home/user/.ssh";
  await checkActions(DL, ctx, [
    [`${ssh} checkout-index -a -f`, "deny"],
    [`${ssh} checkout-index -fa`, "deny"],
    [`${ssh} checkout-index --all`, "deny"],
    [`${ssh} checkout-index -f -- README.md`, "deny"],
    ["git --work-tree /home/user/.ssh checkout-index -a -f", "deny"],
    [`${ssh} merge main`, "deny"],
    [`${ssh} cherry-pick main`, "deny"],
    [`${ssh} revert HEAD`, "deny"],
    [`${ssh} rebase main`, "deny"],
    [`${ssh} am x.patch`, "deny"],
    [`${ssh} read-tree -um HEAD`, "deny"],
    [`${ssh} sparse-checkout reapply`, "deny"],
    // (As the forms that already did.)
    [`${ssh} checkout -f`, "deny"],
    [`${ssh} stash`, "deny"],
    // (Elsewhere: as before, the files present there read.)
    ["git --work-tree=/tmp/z checkout-index -a -f", "ask"],
    ["git --work-tree=/tmp/z merge main", "ask"],
    ["git checkout-index -a -f", "allow"],
    ["git merge main", "allow"],
  ]);
});

Deno.test("git cat-file: the names whose content it prints, in every mode", () => {
  const names = (command: string) => {
    const [line, doc] = command.split(" <<< ");
    const argv = line.split(" ").map(literal);
    const redirects = doc === undefined
      ? []
      : [{ op: "<<<", kind: "herestring" as const, target: null, body: literal(doc) }];
    const stage = { argv, redirects, text: command, origin: "", cwds: ["/p"] };
    return catFileRead(argv.slice(2), stage)?.objects?.map((w) => w.value) ?? null;
  };
  assert.deepEqual(names("git cat-file -p bt"), ["bt"]);
  assert.deepEqual(names("git cat-file blob 65ec2679"), ["65ec2679"]);
  assert.deepEqual(names("git cat-file -p HEAD^{tree}"), ["HEAD^{tree}"]);
  assert.deepEqual(names("git cat-file --batch <<< bt"), ["bt"]);
  assert.deepEqual(names("git cat-file --batch-command <<< contents bt"), ["bt"]);
  // (No content printed, or a `REV:path`, judged as that file.)
  for (const none of ["-t bt", "-s bt", "-e bt", "-p HEAD:README.md", "--batch-check <<< bt"]) {
    assert.equal(names(`git cat-file ${none}`), null, none);
  }
  assert.equal(names("git cat-file --batch-command <<< info bt"), null);
});

Deno.test("git names of blobs: where the objects cannot be read, HEAD and `~n` alone are commits", async () => {
  const tracked = repository(["src/main.ts", "README.md", "secrets/key"]);
  await checkActions(DL, tracked, [
    ["git cat-file -p HEAD", "allow"],
    ["git show --stat HEAD~2", "allow"],
    ["git show -s main^2", "allow"],
    ["git cat-file -p bt", "ask"],
    ["git show -s v1.0", "ask"],
    ["git cat-file --batch <<< 65ec2679", "ask"],
  ]);
  // (No repository found: the names git may still resolve through the environment, as before.)
  const none = ctxIn("/p", { files: FILES.slice(0, 4), home });
  await checkActions(DL, none, [
    ["git cat-file -p 65ec2679", "ask"],
    ["git cat-file -p bt", "allow"],
    ["git show -s v1.0", "allow"],
  ]);
});

Deno.test({
  name: "git names of blobs: a tag, a hash, a peeling printed are judged as content not known",
  ignore: !HAS_GIT,
  fn: async () => {
    const repo = tempRepository([".env", "secrets/key", "README.md", "src/main.ts"], {
      commit: "init",
    });
    try {
      const env = repo.git("rev-parse", "HEAD:.env").trim();
      repo.git("tag", "bt", "HEAD:.env");
      repo.git("tag", "-a", "-m", "m", "at", "HEAD:.env");
      repo.git("tag", "tt", "HEAD:secrets");
      repo.git("tag", "vc", "HEAD");
      const commit = repo.git("rev-parse", "HEAD").trim();
      const branch = repo.git("branch", "--show-current").trim();
      const ctx = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
      await checkActions(DL, ctx, [
        // (A tag of a blob, a hash, an abbreviation, a peeling: the content may be any file's.)
        ["git cat-file -p bt", "ask"],
        ["git cat-file blob bt", "ask"],
        ["git cat-file -p bt^{blob}", "ask"],
        ["git cat-file -p at^{}", "ask"],
        [`git cat-file -p ${env}`, "ask"],
        [`git cat-file -p ${env.slice(0, 8)}`, "ask"],
        ["git cat-file -p tt", "ask"],
        ["git cat-file --batch <<< bt", "ask"],
        [`git cat-file --batch <<< ${env.slice(0, 8)}`, "ask"],
        ["git cat-file --batch-command <<< 'contents bt'", "ask"],
        ["git show -s bt", "ask"],
        ["git show --stat bt", "ask"],
        ["git show -q at", "ask"],
        ["git show --name-only tt", "ask"],
        [`git notes add -C ${env.slice(0, 8)} HEAD`, "ask"],
        // (A ref another stage moves first: what it names then is not known.)
        [`git tag -f vc ${env} && git cat-file -p vc`, "ask"],
        [`git update-ref refs/tags/vc ${env}; git show -s vc`, "ask"],
        // (Names that give a blob a name are judged as reading it.)
        ["git tag bt2 HEAD:.env", "ask"],
        ["git tag -f -a -m m bt2 HEAD:secrets/key", "deny"],
        ["git update-ref refs/x HEAD:.env", "ask"],
        ["git update-ref --stdin <<< 'update refs/x HEAD:secrets/key'", "deny"],
        ["git replace HEAD:README.md HEAD:.env", "ask"],
        ["git notes add -C HEAD:secrets/key HEAD", "deny"],
        // (Commits, and what prints no content: as before.)
        ["git cat-file -p HEAD", "allow"],
        ["git cat-file -p vc", "allow"],
        [`git cat-file -p ${branch}`, "allow"],
        [`git cat-file -p ${commit.slice(0, 8)}`, "allow"],
        ["git cat-file --batch <<< HEAD", "allow"],
        ["git cat-file --batch-command <<< 'info bt'", "allow"],
        ["git cat-file -t bt", "allow"],
        ["git cat-file -p HEAD:README.md", "allow"],
        ["git show -s HEAD", "allow"],
        ["git show --stat vc", "allow"],
        ["git show --stat HEAD~0..HEAD", "allow"],
        ["git show -s :/init", "allow"],
        ["git tag v2 HEAD", "allow"],
        ["git tag -m note:.env v3", "allow"],
        ["git notes add -m hi HEAD", "allow"],
        ["git log", "allow"],
      ]);
    } finally {
      repo.remove();
    }
  },
});
