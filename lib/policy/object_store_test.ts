/**
 * A repository's object store read as files reaches what `git cat-file -p` shows of it: the
 * protected path globs whose last name the repository's indexes list (object_store.ts), in loose
 * objects and packs, whatever the spelling or layout; everyday reads of `.git` stay allowed.
 */
import assert from "node:assert/strict";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkActions,
  ctxIn,
  gitIndexBytes,
  HAS_GIT,
  secretsDenied,
  tempRepository,
} from "../testing.ts";
import { realFs } from "./fs_facts.ts";
import { storeHeld } from "./object_store.ts";
import type { Context } from "../types.ts";

const home = "/home/user";
/** Allow by default; `~/.ssh/**` and `secrets/**` denied, `.env` asked about. */
const DL = secretsDenied(home);

const inRepo = (dir: string): Context => ({
  cwd: dir,
  home,
  env: { HOME: home, PATH: "/usr/bin:/bin" },
  fs: realFs(),
});

/**
 * A repository that committed `secrets/key` (and src/main.ts), then removed it from the work
 * tree unstaged: only the index and the store know it. `gc` packs its objects.
 */
function secretRepository(gc: boolean) {
  const r = tempRepository(["src/main.ts", "secrets/key", "README.md"], { commit: "one" });
  rmSync(join(r.dir, "secrets"), { recursive: true });
  if (gc) r.git("gc", "-q");
  const blob = r.git("rev-parse", "HEAD:secrets/key").trim();
  return { r, blob, loose: `${blob.slice(0, 2)}/${blob.slice(2)}` };
}

/** The name of the repository's one pack. */
function packOf(dir: string): string {
  return readdirSync(join(dir, ".git/objects/pack")).find((n) => n.endsWith(".pack"))!;
}

/** Everyday commands that look at `.git` without reading what its store holds. */
const EVERYDAY: [string, "allow"][] = [
  ["git status", "allow"],
  ["git log --oneline", "allow"],
  ["ls .git", "allow"],
  ["ls -la .git/objects", "allow"],
  ["du -sh .git", "allow"],
  ["cat .git/HEAD", "allow"],
  ["cat .git/config", "allow"],
  ["cat .git/objects/info/packs", "allow"],
  ["find . -name '*.ts' -not -path './.git/*'", "allow"],
  ["grep -r TODO src", "allow"],
  ["rg TODO", "allow"],
  ["rg TODO .", "allow"],
  ["ag TODO", "allow"],
];

Deno.test({
  name: "object store: a loose object of a tracked protected path read as a file asks",
  ignore: !HAS_GIT,
  async fn() {
    const { r, blob, loose } = secretRepository(false);
    try {
      symlinkSync(".git/objects", join(r.dir, "o"));
      await checkActions(DL, inRepo(r.dir), [
        // (What git shows of it asks already.)
        [`git cat-file -p ${blob}`, "ask"],
        [`cat .git/objects/${loose}`, "ask"],
        [`zcat .git/objects/${loose}`, "ask"],
        [`xxd .git/objects/${loose}`, "ask"],
        [`od -c .git/objects/${loose}`, "ask"],
        [`base64 .git/objects/${loose}`, "ask"],
        [`cp .git/objects/${loose} /tmp/x`, "ask"],
        [`zcat < .git/objects/${loose}`, "ask"],
        ["cat .git/objects/*/*", "ask"],
        [`cat ./.git//objects/${loose}`, "ask"],
        [`cat ${r.dir}/.git/objects/${blob.slice(0, 2)}/*`, "ask"],
        [`cd .git && cat objects/${loose}`, "ask"],
        [`cd .git/objects && cat ${loose}`, "ask"],
        [`cat o/${loose}`, "ask"],
        [
          `python3 -c 'import sys,zlib; print(zlib.decompress(open(sys.argv[1],"rb").read()))' .git/objects/${loose}`,
          "ask",
        ],
        ["find .git/objects -type f | xargs cat", "ask"],
        // Trees holding it, read whole.
        ["tar czf /tmp/o.tgz .git/objects", "ask"],
        ["tar czf /tmp/o.tgz .git", "ask"],
        ["zip -r /tmp/o.zip .git", "ask"],
        ["tar czf /tmp/o.tgz .", "ask"],
        ["grep -r TODO .", "ask"],
        ["grep -r TODO", "ask"],
        ["rg --hidden TODO", "ask"],
        ["rg -uu TODO .", "ask"],
        ["ag --hidden TODO", "ask"],
        ["cp -r .git /tmp/pi-store-copy", "ask"],
        ...EVERYDAY,
      ]);
    } finally {
      r.remove();
    }
  },
});

Deno.test({
  name: "object store: a pack holding a tracked protected path read as a file asks",
  ignore: !HAS_GIT,
  async fn() {
    const { r } = secretRepository(true);
    try {
      const pack = packOf(r.dir);
      await checkActions(DL, inRepo(r.dir), [
        ["cat .git/objects/pack/*.pack", "ask"],
        [`base64 .git/objects/pack/${pack}`, "ask"],
        [`cp .git/objects/pack/${pack} /tmp/p`, "ask"],
        ["tar czf /tmp/o.tgz .git", "ask"],
        ...EVERYDAY,
      ]);
    } finally {
      r.remove();
    }
  },
});

Deno.test({
  name: "object store: a repository tracking nothing protected is read as files unasked",
  ignore: !HAS_GIT,
  async fn() {
    for (const gc of [false, true]) {
      const r = tempRepository(["src/main.ts", "README.md"], { commit: "one" });
      if (gc) r.git("gc", "-q");
      try {
        await checkActions(DL, inRepo(r.dir), [
          ["cat .git/objects/*/*", "allow"],
          ["cat .git/objects/pack/*", "allow"],
          ["tar czf /tmp/o.tgz .git", "allow"],
          ["zip -r /tmp/o.zip .", "allow"],
          ["grep -r TODO .", "allow"],
          ["rg --hidden TODO", "allow"],
          ["cp -r .git /tmp/pi-store-copy", "allow"],
          ["cp -r . /tmp/pi-store-copy2", "allow"],
          ...EVERYDAY,
        ]);
      } finally {
        r.remove();
      }
    }
  },
});

Deno.test({
  name: "object store: bare repositories, linked work trees, other stores, git-lfs and rerere",
  ignore: !HAS_GIT,
  async fn() {
    const { r } = secretRepository(true);
    const clean = tempRepository(["src/main.ts"], { commit: "one" });
    try {
      const pack = packOf(r.dir);
      const bare = `${clean.dir}/x.git`;
      r.git("clone", "-q", "--bare", r.dir, bare);
      // (A store no repository holds: another's `objects/info/alternates` names it.)
      mkdirSync(`${clean.dir}/store/pack`, { recursive: true });
      writeFileSync(`${clean.dir}/store/pack/${pack}`, "x");
      const ctx = inRepo(clean.dir);
      await checkActions(DL, ctx, [
        // (A bare repository has no index: what its store holds is not known.)
        ["cat x.git/objects/pack/*.pack", "ask"],
        ["tar czf /tmp/o.tgz x.git", "ask"],
        [`cat store/pack/${pack}`, "ask"],
        ["ls x.git", "allow"],
        ["cat .git/objects/*/*", "allow"],
      ]);
      rmSync(bare, { recursive: true });
      // A linked work tree's index lists what the common store holds too.
      clean.git(
        "worktree",
        "add",
        "-q",
        "-b",
        "sec",
        `${clean.dir}/../${"wt-" + pack.slice(5, 13)}`,
      );
      const wt = `${clean.dir}/../wt-${pack.slice(5, 13)}`;
      try {
        await checkActions(DL, ctx, [["tar czf /tmp/o.tgz .git", "allow"]]);
        tempWrite(wt, "secrets/key");
        clean.git("-C", wt, "add", "secrets/key");
        await checkActions(DL, ctx, [
          ["tar czf /tmp/o.tgz .git", "ask"],
          ["cat .git/objects/*/*", "ask"],
        ]);
      } finally {
        clean.git("worktree", "remove", "--force", wt);
      }
      // git-lfs's copies of the files and rerere's preimages hold their content.
      tempWrite(r.dir, ".git/lfs/objects/ab/cd/abcd1234");
      tempWrite(r.dir, ".git/rr-cache/0a1b/preimage");
      await checkActions(DL, inRepo(r.dir), [
        ["cat .git/lfs/objects/ab/cd/abcd1234", "ask"],
        ["cat .git/rr-cache/0a1b/preimage", "ask"],
      ]);
    } finally {
      r.remove();
      clean.remove();
    }
  },
});

/** Write `name` below `dir`. */
function tempWrite(dir: string, name: string): void {
  mkdirSync(join(dir, name, ".."), { recursive: true });
  writeFileSync(join(dir, name), "x\n");
}

Deno.test("object store: found by its path and the repository's index, not by a name alone", () => {
  const files = [
    "/p/.git/HEAD",
    "/p/.git/objects/b6/8fde2a051d9af2fe3ff4c96c0898e5a3212e4d",
    "/p/src/objects/model.ts",
    "/p/src/main.ts",
  ];
  const { fs } = ctxIn("/p", {
    files,
    bytes: { "/p/.git/index": gitIndexBytes(["secrets/key", "src/main.ts"]) },
  });
  const object = "/p/.git/objects/b6/8fde2a051d9af2fe3ff4c96c0898e5a3212e4d";
  assert.deepEqual(storeHeld(object, fs, false)?.names, ["secrets", "key", "src", "main.ts"]);
  assert.equal(storeHeld(object, fs, false)?.dir, "/p");
  assert.equal(storeHeld("/p/.git", fs, true)?.dir, "/p");
  assert.equal(storeHeld("/p", fs, true)?.dir, "/p");
  // (Not read whole: the top and `.git` are no store.)
  assert.equal(storeHeld("/p/.git", fs, false), null);
  assert.equal(storeHeld("/p/.git/HEAD", fs, true), null);
  assert.equal(storeHeld("/p/src/objects/model.ts", fs, false), null);
  assert.equal(storeHeld("/p/src", fs, true), null);
  // (A loose object's shape below any directory: a store whose names are not known.)
  assert.deepEqual(storeHeld("/tmp/s/b6/8fde2a051d9af2fe3ff4c96c0898e5a3212e4d", fs, false), {
    dir: "/tmp/s/b6",
    names: null,
  });
});

Deno.test({
  name: "object store: what git fsck --lost-found writes out is in no index, any protected name",
  ignore: !HAS_GIT,
  async fn() {
    // (A repository tracking nothing protected; `secrets/key` staged, then unstaged: a dangling
    // blob no index lists.)
    const r = tempRepository(["src/main.ts", "README.md"], { commit: "one" });
    try {
      tempWrite(r.dir, "secrets/key");
      r.git("add", "secrets/key");
      r.git("rm", "-q", "--cached", "secrets/key");
      rmSync(join(r.dir, "secrets"), { recursive: true });
      const ctx = inRepo(r.dir);
      await checkActions(DL, ctx, [
        ["git fsck --lost-found", "ask"],
        ["git fsck --lost-found && cat .git/lost-found/other/*", "ask"],
        ["tar czf /tmp/o.tgz .git", "allow"],
        ["git fsck", "allow"],
        ["git fsck --unreachable --dangling", "allow"],
        ["git count-objects -v", "allow"],
      ]);
      r.git("fsck", "--lost-found");
      const [blob] = readdirSync(join(r.dir, ".git/lost-found/other"));
      await checkActions(DL, ctx, [
        ["cat .git/lost-found/other/*", "ask"],
        [`cat .git/lost-found/other/${blob}`, "ask"],
        [`cp .git/lost-found/other/${blob} /tmp/x`, "ask"],
        ["tar czf /tmp/o.tgz .git/lost-found", "ask"],
        ["tar czf /tmp/o.tgz .git", "ask"],
        ["zip -r /tmp/o.zip .", "ask"],
        ["ls .git/lost-found/other", "allow"],
        ["cat .git/lost-found/commit/*", "allow"],
        ...EVERYDAY,
      ]);
    } finally {
      r.remove();
    }
  },
});

Deno.test({
  name: "object store: a tree read whole holds the stores deeper below it, by their shape",
  ignore: !HAS_GIT,
  async fn() {
    for (const gc of [false, true]) {
      const { r } = secretRepository(gc);
      const clean = tempRepository(["src/main.ts"], { commit: "one" });
      const out = mkdtempSync(join(tmpdir(), "pi-controls-stores-"));
      try {
        // A bare clone and a mirror deeper down; an objects directory another repository's
        // alternates names (no HEAD beside it); what `git pack-objects BASE` writes.
        r.git("clone", "-q", "--bare", r.dir, `${out}/a/proj.git`);
        r.git("clone", "-q", "--mirror", r.dir, `${out}/b/sub/mirror`);
        cpSync(join(r.dir, ".git/objects"), `${out}/c/store`, { recursive: true });
        writeFileSync(join(clean.dir, ".git/objects/info/alternates"), `${out}/c/store\n`);
        mkdirSync(`${out}/d`);
        r.git("pack-objects", "-q", "--all", `${out}/d/pk`);
        const pack = readdirSync(`${out}/d`).find((n) => n.endsWith(".pack"))!;
        // A clone of a repository tracking nothing protected: its index says what it holds.
        clean.git("clone", "-q", clean.dir, `${out}/e/proj`);
        mkdirSync(`${out}/f/src`, { recursive: true });
        writeFileSync(`${out}/f/src/a.ts`, "x\n");
        await checkActions(DL, inRepo(clean.dir), [
          ...["a", "b", "c", "d"].flatMap((t) => [
            [`tar czf /tmp/o.tgz ${out}/${t}`, "ask"] as const,
            [`zip -qr /tmp/o.zip ${out}/${t}`, "ask"] as const,
            [`cp -r ${out}/${t} /tmp/pi-stores-copy`, "ask"] as const,
            [`rsync -a ${out}/${t} /tmp/pi-stores-copy`, "ask"] as const,
          ]),
          [`tar czf /tmp/o.tgz ${out}/a/proj.git`, "ask"],
          [`cat ${out}/d/${pack}`, "ask"],
          [`cat ${out}/d/*.pack`, "ask"],
          [`cat ${out}/d/*.idx`, "allow"],
          [`tar czf /tmp/o.tgz ${out}/e`, "allow"],
          [`tar czf /tmp/o.tgz ${out}/f`, "allow"],
          [`cp -r ${out}/f /tmp/pi-stores-copy`, "allow"],
          ["tar czf /tmp/src.tgz src", "allow"],
          ["git gc -q", "allow"],
          ["git repack -ad", "allow"],
          ["git count-objects -v", "allow"],
          ["git fsck", "allow"],
        ]);
        // The repository itself: what git writes out of its store.
        await checkActions(DL, inRepo(r.dir), [
          ["git pack-objects --no-reuse-object --compression=0 --all --stdout </dev/null", "ask"],
          ["echo HEAD | git pack-objects --revs --stdout", "ask"],
          ["git rev-list --objects --all | git pack-objects /tmp/pk", "ask"],
          ["git gc -q", "allow"],
          ["git repack -ad", "allow"],
          ["tar czf /tmp/src.tgz src", "allow"],
        ]);
      } finally {
        r.remove();
        clean.remove();
        rmSync(out, { recursive: true, force: true });
      }
    }
  },
});
