import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoFs, realFs } from "./fs_facts.ts";
import type { FsFacts } from "../types.ts";

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
