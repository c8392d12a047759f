import assert from "node:assert/strict";
import { checkTable } from "../testing_adversarial.ts";
import { bash, configFrom, ctxIn } from "../testing.ts";
import { patchedFiles } from "./diffs.ts";

Deno.test("diffs: the files a patch's text names, stripped as -p says", () => {
  const diff = [
    "diff --git a/src/x.ts b/src/y.ts",
    "rename from src/x.ts",
    "rename to src/y.ts",
    "--- a/lib/a.ts\t2024-01-01 00:00:00",
    "+++ b/lib/a.ts\t2024-01-01 00:00:00",
    "@@ -1 +1 @@",
    "--- a line removed that looks like a header",
    "--- /dev/null",
    '+++ "b/with space.txt"',
  ].join("\n");
  assert.deepEqual(
    patchedFiles(diff, 1),
    [
      "src/x.ts",
      "src/y.ts",
      "src/y.ts",
      "lib/a.ts",
      "with space.txt",
    ].filter((p, i, all) => all.indexOf(p) === i),
  );
  // Without -p: as written, with one component stripped, and the base name.
  assert.deepEqual(patchedFiles("+++ b/.pi/settings.json", null), [
    "b/.pi/settings.json",
    ".pi/settings.json",
    "settings.json",
  ]);
  assert.deepEqual(patchedFiles("+++ /home/u/.ssh/authorized_keys", 0), [
    "/home/u/.ssh/authorized_keys",
  ]);
});

Deno.test("diffs: an inline patch is judged by the files it changes", async () => {
  await checkTable([
    [
      "patch -p0 <<< $'--- /dev/null\\n+++ /home/user/.ssh/authorized_keys\\n@@ -0,0 +1 @@\\n+k'",
      "deny",
      "deny",
    ],
    ["git apply -p0 <<< $'+++ /home/user/.ssh/config\\n@@ -1 +1 @@\\n-a\\n+b'", "deny", "deny"],
    ["patch -p1 <<< $'--- a/.env\\n+++ b/.env\\n@@ -1 +1 @@\\n-a\\n+b'", "deny", "deny"],
  ]);
  // The gate's own files: asked.
  const config = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
  }, { agentDir: "/home/user/.pi/agent" });
  const ctx = ctxIn("/home/user/project", { files: ["/home/user/project/src/x.ts"] });
  const patch = (command: string, file: string) =>
    bash(config, ctx, `${command} <<'EOF'\n--- a/${file}\n+++ b/${file}\n@@ -0,0 +1 @@\n+x\nEOF`);
  assert.equal((await patch("patch -p1", ".pi/extensions/x.ts")).action, "ask");
  assert.equal((await patch("git apply", ".pi/settings.json")).action, "ask");
  assert.equal((await patch("patch", ".pi/extensions/x.ts")).action, "ask");
  assert.equal((await patch("git -C . apply --index", ".pi/npm/x.js")).action, "ask");
  // Everyday patches of the project's sources stay allowed.
  assert.equal((await patch("git apply", "src/x.ts")).action, "allow");
  assert.equal((await patch("patch -p1", "src/x.ts")).action, "allow");
});
