import assert from "node:assert/strict";
import {
  gitDirOf,
  indexPaths,
  trackedName,
  trackedNames,
  trackedPaths,
  workTreeTop,
} from "./git_index.ts";
import { fakeFs, realFs } from "./fs_facts.ts";
import { gitIndexBytes, HAS_GIT, runGit } from "../testing.ts";

/** Run git in `dir`; its output. */
function git(dir: string, ...args: string[]): string {
  return runGit(dir, args);
}

/** A repository with these files added (a name with conflicts or many levels among them). */
function repository(init: string[] = []): string {
  const dir = Deno.makeTempDirSync();
  git(dir, "init", "-q", ...init);
  const names = [
    "README.md",
    "src/main.ts",
    "src/a/b/c/deep.ts",
    "secrets/key",
    "caf\u00e9/men\u00fc.txt",
    `long/${"x".repeat(250)}/${"y".repeat(250)}/${"z".repeat(250)}`,
    "sp ace/n",
  ];
  for (const n of names) {
    Deno.mkdirSync(`${dir}/${n.slice(0, n.lastIndexOf("/"))}`, { recursive: true });
    Deno.writeTextFileSync(`${dir}/${n}`, n);
  }
  git(dir, "add", ".");
  return dir;
}

function listed(dir: string): string[] {
  return git(dir, "ls-files", "-z").split("\0").filter(Boolean);
}

Deno.test(
  { name: "git index: versions 2, 3 and 4 list what git ls-files lists", ignore: !HAS_GIT },
  () => {
    const dir = repository();
    try {
      const want = listed(dir);
      for (const version of ["2", "3", "4"]) {
        git(dir, "update-index", "--index-version", version);
        if (version === "3") {
          // (An intent-to-add entry has extended flags.)
          Deno.writeTextFileSync(`${dir}/later.txt`, "x");
          git(dir, "add", "-N", "later.txt");
        }
        const bytes = Deno.readFileSync(`${dir}/.git/index`);
        const paths = indexPaths(bytes);
        assert.deepEqual(paths, listed(dir), `version ${version}`);
        assert.ok(want.every((p) => paths!.includes(p)));
      }
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  },
);

Deno.test("git index: a SHA-256 repository's index", () => {
  let dir: string;
  try {
    dir = repository(["--object-format=sha256"]);
  } catch {
    return; // (a git without SHA-256 repositories)
  }
  try {
    assert.deepEqual(indexPaths(Deno.readFileSync(`${dir}/.git/index`)), listed(dir));
    git(dir, "update-index", "--index-version", "4");
    assert.deepEqual(indexPaths(Deno.readFileSync(`${dir}/.git/index`)), listed(dir));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "git index: what is not read whole is null (split, cut short, not an index)",
  ignore: !HAS_GIT,
}, () => {
  const dir = repository();
  try {
    const bytes = Deno.readFileSync(`${dir}/.git/index`);
    assert.equal(indexPaths(bytes.subarray(0, bytes.length - 30)), null);
    assert.equal(indexPaths(new TextEncoder().encode("DIRC not an index at all, no")), null);
    assert.equal(indexPaths(new Uint8Array(0)), null);
    git(dir, "update-index", "--split-index");
    assert.equal(indexPaths(Deno.readFileSync(`${dir}/.git/index`)), null);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name: "git index: found from the work tree's top, a linked work tree's through its .git file",
  ignore: !HAS_GIT,
}, async () => {
  const dir = repository();
  try {
    git(dir, "commit", "-qm", "x");
    git(dir, "worktree", "add", "-q", `${dir}/wt`);
    const fs = realFs();
    assert.equal(workTreeTop(`${dir}/src/a`, fs), dir);
    assert.equal(workTreeTop(`${dir}/wt/src`, fs), `${dir}/wt`);
    assert.deepEqual(trackedPaths(`${dir}/.git`, fs), listed(dir));
    assert.deepEqual(trackedPaths(gitDirOf(`${dir}/wt`, fs)!, fs), listed(`${dir}/wt`));
    // (The same array while the index is unchanged, once its stamp is not racily clean.)
    const index = `${dir}/.git/index`;
    assert.notEqual(fs.readBytes!(index, 1 << 20), fs.readBytes!(index, 1 << 20));
    await new Promise((r) => setTimeout(r, 2100));
    assert.equal(fs.readBytes!(index, 1 << 20), fs.readBytes!(index, 1 << 20));
    assert.equal(fs.readBytes!(index, 10), null);
    assert.deepEqual([...trackedNames(trackedPaths(`${dir}/.git`, fs)!, "src/")].sort(), [
      "a",
      "b",
      "c",
      "deep.ts",
      "main.ts",
    ]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("git index: no index in a new repository is nothing tracked; none readable is null", () => {
  const fs = fakeFs({ files: ["/r/.git/HEAD", "/s/.git"], contents: { "/s/.git": "gitdir: /x" } });
  assert.deepEqual(trackedPaths(gitDirOf("/r", fs)!, fs), []);
  assert.equal(gitDirOf("/s", fs), "/x");
  assert.equal(trackedPaths("/x", fs), null);
  assert.equal(workTreeTop("/q/a", fs), null);
});

Deno.test("git index: a name of 4095 bytes or more ends at its NUL", () => {
  const long = `a/${"b".repeat(5000)}`;
  assert.deepEqual(indexPaths(gitIndexBytes([long, "z"])), [long, "z"]);
});

Deno.test("git index: a name below a prefix, in any case where the config folds it", () => {
  const paths = ["src/Secrets/a", "docs/x.md"];
  assert.equal(trackedName(paths, "", /^secrets$/, false), false);
  assert.equal(trackedName(paths, "", /^secrets$/, true), true);
  assert.equal(trackedName(paths, "docs/", /^secrets$/, true), false);
  assert.equal(trackedName(paths, "src/", /^Secrets$/, false), true);
});
