import assert from "node:assert/strict";
import { fakeFs, realFs } from "../policy/fs_facts.ts";
import { resolve } from "node:path";
import {
  expandToolPath,
  isWithin,
  realPath,
  resolveIn,
  resolveReadPath,
  resolveToolPath,
} from "./paths.ts";

Deno.test("tool paths resolve as pi resolves them", () => {
  assert.equal(expandToolPath("@src/a.ts", "/h"), "src/a.ts");
  assert.equal(expandToolPath("~", "/h"), "/h");
  assert.equal(expandToolPath("~/x", "/h"), "/h/x");
  assert.equal(expandToolPath("~x", "/h"), "~x");
  assert.equal(expandToolPath("a\u2003b\u00A0c", "/h"), "a b c");
  assert.equal(resolveToolPath("../b/./c", "/w/a", "/h"), "/w/b/c");
  assert.equal(resolveToolPath("/etc//x/../hosts", "/w", "/h"), "/etc/hosts");
  assert.equal(resolveToolPath("@~/notes", "/w", "/h"), "/h/notes");
});

Deno.test("read tries pi's macOS screenshot variants only when the plain path is missing", () => {
  const fs = fakeFs({ files: ["/w/Screenshot 2024 at 10.00.00\u202FAM.png", "/w/plain AM.png"] });
  assert.equal(
    resolveReadPath("Screenshot 2024 at 10.00.00 AM.png", "/w", "/h", fs),
    "/w/Screenshot 2024 at 10.00.00\u202FAM.png",
  );
  assert.equal(resolveReadPath("plain AM.png", "/w", "/h", fs), "/w/plain AM.png");
  assert.equal(resolveReadPath("missing.txt", "/w", "/h", fs), "/w/missing.txt");
});

Deno.test("realPath follows symlinks, also for files that do not exist yet", () => {
  const fs = fakeFs({ files: ["/data/secret/a"], links: { "/tmp/l": "/data/secret" } });
  assert.equal(realPath("/tmp/l/a", fs), "/data/secret/a");
  assert.equal(realPath("/tmp/l/new/file", fs), "/data/secret/new/file");
  assert.equal(realPath("/nowhere/x", fs), "/nowhere/x");
});

Deno.test("realPath walks `..` as the kernel does: from where a link really leads", () => {
  // The same answers from the fake filesystem and from a real one.
  const fake = fakeFs({ files: ["/r/far/deep/f", "/r/far/x"], links: { "/r/l": "/r/far/deep" } });
  const root = Deno.realPathSync(Deno.makeTempDirSync());
  try {
    Deno.mkdirSync(`${root}/far/deep`, { recursive: true });
    Deno.writeTextFileSync(`${root}/far/deep/f`, "");
    Deno.writeTextFileSync(`${root}/far/x`, "");
    Deno.symlinkSync(`${root}/far/deep`, `${root}/l`);
    for (const [fs, r] of [[fake, "/r"], [realFs(), root]] as const) {
      assert.equal(realPath(`${r}/l/../x`, fs), `${r}/far/x`);
      assert.equal(realPath(`${r}/l/./f`, fs), `${r}/far/deep/f`);
      assert.equal(realPath(`${r}/l/../new/file`, fs), `${r}/far/new/file`);
      assert.equal(realPath(`${r}/l/../../l/f`, fs), `${r}/far/deep/f`);
      // Below a directory that does not exist the kernel walks no `..`: lexical.
      assert.equal(realPath(`${r}/none/../x`, fs), `${r}/x`);
    }
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("isWithin matches whole path components", () => {
  assert.ok(isWithin("/a/b", "/a"));
  assert.ok(isWithin("/a", "/a"));
  assert.ok(!isWithin("/ab", "/a"));
  assert.ok(isWithin("/anything", "/"));
});

Deno.test("resolveIn: the same answer as path.resolve, quick for plain paths", () => {
  const dirs = ["/", "/work", "/work/a b", "/work/", "rel", "/a/../b"];
  const paths = [
    "x",
    "x/y.txt",
    "/abs/p",
    "/",
    "",
    ".",
    "..",
    "./x",
    "x/../y",
    "x//y",
    "x/",
    "/a/./b",
    "...",
    ".hidden",
    "a/.b",
    "~",
    "x/..",
  ];
  for (const d of dirs) {
    for (const p of paths) assert.equal(resolveIn(d, p), resolve(d, p), `${d} + ${p}`);
  }
});
