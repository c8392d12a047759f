import assert from "node:assert/strict";
import {
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hostCalls, memoFs, realFs } from "./fs_facts.ts";
import type { DirEntry, FsFacts } from "../types.ts";

Deno.test("realFs: existence, real paths and directories, through symlinks", () => {
  const root = mkdtempSync(join(tmpdir(), "pi-controls-fs-"));
  try {
    mkdirSync(join(root, "dir"));
    writeFileSync(join(root, "dir", "file"), "x");
    symlinkSync(join(root, "dir"), join(root, "to-dir"));
    symlinkSync(join(root, "dir", "file"), join(root, "to-file"));
    symlinkSync(join(root, "missing"), join(root, "dangling"));
    const fs = realFs();
    const real = fs.realpath(root)!;
    assert.equal(fs.exists(join(root, "dir", "file")), true);
    assert.equal(fs.exists(join(root, "nope")), false);
    assert.equal(fs.exists(join(root, "dangling")), false);
    assert.equal(fs.realpath(join(root, "to-dir", "file")), join(real, "dir", "file"));
    assert.equal(fs.realpath(join(root, "nope")), null);
    assert.equal(fs.realpathExpected!(join(root, "to-dir", "file")), join(real, "dir", "file"));
    assert.equal(fs.realpathExpected!(join(root, "nope")), null);
    assert.equal(fs.realpathExpected!(join(root, "dangling")), null);
    assert.equal(fs.isDirectory!(join(root, "dir")), true);
    assert.equal(fs.isDirectory!(join(root, "dir") + "/"), true);
    assert.equal(fs.isDirectory!(join(root, "to-dir")), true);
    assert.equal(fs.isDirectory!(join(root, "dir", "file")), false);
    assert.equal(fs.isDirectory!(join(root, "to-file")), false);
    assert.equal(fs.isDirectory!(join(root, "dangling")), false);
    assert.equal(fs.isDirectory!(join(root, "nope")), false);
    assert.equal(fs.isDirectory!("/"), true);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

Deno.test("memoFs: a path seen to exist, or expected to, is resolved in one lookup", () => {
  const asked: string[] = [];
  const fs = memoFs({
    realpath: (p) => (asked.push(`realpath ${p}`), p),
    realpathExpected: (p) => (asked.push(`expected ${p}`), p === "/gone" ? null : p),
    exists: (p) => (asked.push(`exists ${p}`), true),
  });
  assert.equal(fs.exists("/a"), true);
  assert.equal(fs.realpath("/a"), "/a");
  assert.equal(fs.realpathExpected!("/cwd"), "/cwd");
  assert.equal(fs.realpath("/cwd"), "/cwd");
  assert.equal(fs.realpathExpected!("/gone"), null);
  assert.equal(fs.realpath("/b"), "/b");
  assert.deepEqual(asked, [
    "exists /a",
    "expected /a",
    "expected /cwd",
    "expected /gone",
    "realpath /b",
  ]);
});

Deno.test("memoFs: asks each question once, and reuses a real path as existence", () => {
  const asked: string[] = [];
  const base: FsFacts = {
    realpath: (p) => (asked.push(`realpath ${p}`), p === "/a" ? "/b" : null),
    exists: (p) => (asked.push(`exists ${p}`), p === "/a"),
    isDirectory: (p) => (asked.push(`dir ${p}`), false),
  };
  const fs = memoFs(base);
  assert.equal(fs.realpath("/a"), "/b");
  assert.equal(fs.exists("/a"), true); // known from its real path
  assert.equal(fs.exists("/x"), false);
  assert.equal(fs.realpath("/x"), null); // known not to exist
  assert.equal(fs.realpath("/a"), "/b");
  assert.equal(fs.isDirectory!("/a"), false);
  assert.equal(fs.isDirectory!("/a"), false);
  assert.deepEqual(asked, ["realpath /a", "exists /x", "dir /a"]);
});

Deno.test("memoFs: a file missing is not opened, one there is read", () => {
  // Git's config files are looked for at every git stage, most of them missing: a failed open
  // costs several lookups (its error is built), so a miss is answered by the lookup alone.
  const asked: string[] = [];
  const fs = memoFs({
    realpath: (p) => p,
    exists: (p) => (asked.push(`exists ${p}`), p === "/etc/gitconfig"),
    readText: (p) => (asked.push(`read ${p}`), p === "/etc/gitconfig" ? "[core]\n" : null),
  });
  assert.equal(fs.readText!("/h/.gitconfig", 100), null);
  assert.equal(fs.exists("/h/.gitconfig"), false);
  assert.equal(fs.readText!("/etc/gitconfig", 100), "[core]\n");
  assert.deepEqual(asked, ["exists /h/.gitconfig", "exists /etc/gitconfig", "read /etc/gitconfig"]);
});

Deno.test("realFs: a missing file reads as nothing, an existing one as its text", () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-read-"));
  try {
    writeFileSync(join(dir, "a"), "text");
    const fs = realFs();
    assert.equal(fs.readText!(join(dir, "a"), 100), "text");
    assert.equal(fs.readText!(join(dir, "missing"), 100), null);
    assert.equal(fs.readBytes!(join(dir, "missing"), 100), null);
    assert.equal(fs.readAt!(join(dir, "missing"), 0, 10), null);
    assert.equal(fs.readText!(dir, 100), null, "a directory is no text");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("memoFs: past a handful of paths, every answer is still kept and still right", () => {
  const asked: string[] = [];
  const base: FsFacts = {
    realpath: (p) => (asked.push(`realpath ${p}`), p.endsWith("0") ? null : p + ".real"),
    exists: (p) => (asked.push(`exists ${p}`), !p.endsWith("0")),
  };
  const fs = memoFs(base);
  const paths = Array.from({ length: 40 }, (_, i) => `/p/${i}`);
  for (let round = 0; round < 3; round++) {
    for (const p of paths) {
      assert.equal(fs.realpath(p), p.endsWith("0") ? null : p + ".real");
      assert.equal(fs.exists(p), !p.endsWith("0"));
    }
  }
  // Each question once per path, whether it was kept before or after the memo grew (a missing
  // real path does not tell existence: that is asked too).
  assert.deepEqual(
    asked,
    paths.flatMap((p) => p.endsWith("0") ? [`realpath ${p}`, `exists ${p}`] : [`realpath ${p}`]),
  );
});

Deno.test("realFs's host calls: Deno's and node:fs give the same real paths, stamps and entries", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(`${dir}/file`, "x");
    Deno.mkdirSync(`${dir}/sub`);
    Deno.symlinkSync(`${dir}/sub`, `${dir}/to-dir`);
    Deno.symlinkSync(`${dir}/none`, `${dir}/dangling`);
    const viaDeno = hostCalls(Deno);
    const viaNode = hostCalls(undefined);
    const sorted = (es: DirEntry[]) => [...es].sort((a, b) => a.name.localeCompare(b.name));
    const expected = [
      { name: "dangling", link: true, dir: false },
      { name: "file", link: false, dir: false },
      { name: "sub", link: false, dir: true },
      { name: "to-dir", link: true, dir: false },
    ];
    assert.deepEqual(sorted(viaDeno.list(dir)), expected);
    assert.deepEqual(sorted(viaNode.list(dir)), expected);
    assert.equal(viaDeno.realpath(`${dir}/to-dir`), viaNode.realpath(`${dir}/to-dir`));
    assert.equal(viaDeno.realpath(`${dir}/to-dir`), Deno.realPathSync(`${dir}/sub`));
    assert.throws(() => viaDeno.realpath(`${dir}/dangling`));
    assert.throws(() => viaNode.realpath(`${dir}/dangling`));
    const stamp = viaDeno.stamp(dir)!;
    assert.deepEqual(viaNode.stamp(dir), stamp);
    assert.ok(stamp.ino > 0 && stamp.mtime > 0 && stamp.ctime > 0);
    // A file, a missing path: no directory to list (a link to one is followed, as stat does).
    for (const host of [viaDeno, viaNode]) {
      assert.equal(host.stamp(`${dir}/file`), null);
      assert.equal(host.stamp(`${dir}/none`), null);
      assert.deepEqual(host.stamp(`${dir}/to-dir`), host.stamp(`${dir}/sub`));
    }
    // An entry added changes the stamp, so realFs lists the directory again.
    const fs = realFs();
    assert.equal(fs.entries!(dir)!.length, 4);
    Deno.writeTextFileSync(`${dir}/new`, "y");
    assert.equal(fs.entries!(dir)!.length, 5);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("memoFs: a glob's match its listing shows is resolved from its directory's real path", () => {
  const dir = Deno.realPathSync(Deno.makeTempDirSync());
  try {
    Deno.mkdirSync(`${dir}/real`);
    Deno.writeTextFileSync(`${dir}/real/a.ts`, "");
    Deno.symlinkSync(`${dir}/real`, `${dir}/via`);
    Deno.writeTextFileSync(`${dir}/secret`, "");
    Deno.symlinkSync(`${dir}/secret`, `${dir}/real/l.ts`);
    let lookups = 0;
    const base = realFs();
    const counting: FsFacts = {
      ...base,
      realpath: (p) => (lookups++, base.realpath(p)),
      realpathExpected: (p) => (lookups++, base.realpathExpected!(p)),
      exists: (p) => (lookups++, base.exists(p)),
    };
    const fs = memoFs(counting);
    fs.entries!(`${dir}/via`);
    // A plain file: its directory's real path and its name (one lookup, for the directory).
    assert.equal(fs.realpath(`${dir}/via/a.ts`), `${dir}/real/a.ts`);
    assert.equal(lookups, 1);
    assert.equal(fs.exists(`${dir}/via/a.ts`), true);
    // Not in the listing: no such file, no lookup.
    assert.equal(fs.realpath(`${dir}/via/b.ts`), null);
    assert.equal(fs.exists(`${dir}/via/b.ts`), false);
    assert.equal(lookups, 1);
    // A symlink in the listing is still resolved where it leads.
    assert.equal(fs.realpath(`${dir}/via/l.ts`), `${dir}/secret`);
    // A directory not listed: asked as before.
    assert.equal(fs.realpath(`${dir}/real/a.ts`), `${dir}/real/a.ts`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("realFs: a directory changed within the same tick of the file clock is listed again", () => {
  // Entries added right after a listing, within one tick, leave the directory's stamp as it was:
  // a listing is not kept while the directory's change is that recent.
  for (let i = 0; i < 50; i++) {
    const dir = Deno.makeTempDirSync();
    try {
      const fs = realFs();
      assert.deepEqual(fs.entries!(dir), []);
      Deno.symlinkSync("/etc/passwd", `${dir}/k`);
      assert.deepEqual(fs.entries!(dir), [{ name: "k", link: true, dir: false }], `round ${i}`);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  }
});

Deno.test("realFs: readText reads a small regular file, and no device", () => {
  const dir = mkdtempSync(join(tmpdir(), "pic-read-"));
  try {
    writeFileSync(join(dir, "fix.diff"), "+++ b/x\n");
    writeFileSync(join(dir, "big"), "x".repeat(2048));
    symlinkSync(join(dir, "fix.diff"), join(dir, "link"));
    const fs = memoFs(realFs());
    assert.equal(fs.readText!(join(dir, "fix.diff"), 1024), "+++ b/x\n");
    assert.equal(fs.readText!(join(dir, "link"), 1024), "+++ b/x\n");
    assert.equal(fs.readText!(join(dir, "big"), 1024), null);
    assert.equal(fs.readText!(join(dir, "big"), 4096)?.length, 2048);
    assert.equal(fs.readText!(join(dir, "missing"), 1024), null);
    assert.equal(fs.readText!(dir, 1024), null);
    assert.equal(fs.readText!("/dev/zero", 1024), null);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

/** Whether `mkfifo` runs here (not in Nix's build sandbox). */
const MKFIFO = (() => {
  try {
    return new Deno.Command("mkfifo", { args: ["--version"], stdout: "null" }).outputSync().success;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "realFs: readText never waits on a FIFO",
  ignore: !MKFIFO,
  fn() {
    const dir = mkdtempSync(join(tmpdir(), "pic-fifo-"));
    try {
      assert.ok(new Deno.Command("mkfifo", { args: [join(dir, "fifo")] }).outputSync().success);
      // (A FIFO with no writer would block an open for reading: it is no regular file.)
      assert.equal(realFs().readText!(join(dir, "fifo"), 1024), null);
    } finally {
      rmSync(dir, { recursive: true });
    }
  },
});

Deno.test("readBytes: a regular file under its limit, remembered per decision; none of a device", () => {
  const dir = mkdtempSync(join(tmpdir(), "pc-bytes-"));
  try {
    writeFileSync(join(dir, "f"), new Uint8Array([0, 1, 2, 255]));
    const fs = realFs();
    assert.deepEqual([...fs.readBytes!(join(dir, "f"), 4)!], [0, 1, 2, 255]);
    assert.equal(fs.readBytes!(join(dir, "f"), 3), null);
    assert.equal(fs.readBytes!(join(dir, "none"), 10), null);
    assert.equal(fs.readBytes!("/dev/zero", 10), null);
    assert.equal(fs.readBytes!(dir, 1 << 20), null);
    let asked = 0;
    const memo = memoFs({
      realpath: () => null,
      exists: () => false,
      readBytes: () => (asked++, new Uint8Array([7])),
    });
    assert.equal(memo.readBytes!("/x", 5), memo.readBytes!("/x", 5));
    assert.equal(asked, 1);
    memo.readBytes!("/x", 9);
    assert.equal(asked, 2);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("realFs: a text kept is read again once its file changes, in every way a file does", () => {
  const dir = mkdtempSync(join(tmpdir(), "pic-kept-"));
  // (The clock moved on: a file just written counts as long unchanged, so its text is kept.)
  const fs = realFs({ now: () => Date.now() + 60_000 });
  const f = join(dir, "config");
  try {
    writeFileSync(f, "[core]\n\teditor = vi\n");
    assert.equal(fs.readText!(f, 1024), "[core]\n\teditor = vi\n");
    assert.equal(fs.readText!(f, 1024), "[core]\n\teditor = vi\n");
    // Written in place, longer.
    writeFileSync(f, "[core]\n\teditor = nano\n");
    assert.equal(fs.readText!(f, 1024), "[core]\n\teditor = nano\n");
    // Written in place, the same length, a moment later (past the file clock's tick: the moved
    // clock above would keep a change within it, which the real clock does not: see below).
    for (const t = Date.now(); Date.now() - t < 25;);
    writeFileSync(f, "[core]\n\teditor = emac\n");
    assert.equal(fs.readText!(f, 1024), "[core]\n\teditor = emac\n");
    // Replaced by another file (a rename), by a link to another, by a FIFO, by a directory.
    writeFileSync(join(dir, "other"), "[x]\n");
    renameSync(join(dir, "other"), f);
    assert.equal(fs.readText!(f, 1024), "[x]\n");
    writeFileSync(join(dir, "target"), "[y]\n");
    rmSync(f);
    symlinkSync(join(dir, "target"), f);
    assert.equal(fs.readText!(f, 1024), "[y]\n");
    rmSync(f);
    if (MKFIFO) {
      assert.ok(new Deno.Command("mkfifo", { args: [f] }).outputSync().success);
      assert.equal(fs.readText!(f, 1024), null);
      rmSync(f);
    }
    mkdirSync(f);
    assert.equal(fs.readText!(f, 1024), null);
    rmSync(f, { recursive: true });
    // Gone, then a file again: read anew; a limit below its size: none, whatever was kept.
    assert.equal(fs.readText!(f, 1024), null);
    writeFileSync(f, "[z]\n");
    assert.equal(fs.readText!(f, 1024), "[z]\n");
    assert.equal(fs.readText!(f, 2), null);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

Deno.test("realFs: a text changed within the same tick of the file clock is read again", () => {
  // A file rewritten with text of the same length right after a read may keep its stamp: a text
  // is not kept while its file's change is that recent (the real clock here).
  for (let i = 0; i < 50; i++) {
    const dir = mkdtempSync(join(tmpdir(), "pic-racy-"));
    try {
      const fs = realFs();
      writeFileSync(join(dir, "f"), "a");
      assert.equal(fs.readText!(join(dir, "f"), 10), "a");
      writeFileSync(join(dir, "f"), "b");
      assert.equal(fs.readText!(join(dir, "f"), 10), "b", `round ${i}`);
      // Its mtime set back as well: the ctime, in whole seconds on some filesystems, may not move.
      const { mtime } = statSync(join(dir, "f"));
      writeFileSync(join(dir, "f"), "c");
      utimesSync(join(dir, "f"), mtime, mtime);
      assert.equal(fs.readText!(join(dir, "f"), 10), "c", `round ${i}`);
    } finally {
      rmSync(dir, { recursive: true });
    }
  }
});
