/**
 * The shell's path resolution (`shell/paths.ts`) on the filesystems of `fs_facts.ts`: pi's
 * screenshot variants, symlinks and `..` as the kernel walks them, the fake and the real
 * filesystem alike. (Here, above both, as the layers' arrows go.)
 */
import assert from "node:assert/strict";
import { realPath, resolveReadPath } from "../shell/paths.ts";
import { fakeFs, realFs } from "./fs_facts.ts";

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
