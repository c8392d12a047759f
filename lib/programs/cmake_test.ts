/** cmake's command mode: the commands it runs, where, and what it writes or removes. */
import { checkTable, gateFiles } from "../testing_adversarial.ts";
import { bash, ctxIn } from "../testing.ts";
import assert from "node:assert/strict";

Deno.test("cmake -E: chdir, env and time run their command; what it copies, extracts or removes", async () => {
  await checkTable([
    ["cmake -E chdir src cat ../../.ssh/id_rsa", "deny", "deny"],
    ["cmake -E chdir keys cat id_rsa", "deny", "deny"],
    ["cmake -E env rm -rf src", "deny", "deny"],
    ["cmake -E env FOO=1 rm -rf src", "deny", "deny"],
    ["cmake -E time rm -rf src", "deny", "deny"],
    ["cmake -DCMAKE_CXX_COMPILER_LAUNCHER='rm -rf src' ..", "deny", "deny"],
    ["cmake -S . -B build", "deny", "allow"],
    ["cmake --build build -j4", "deny", "allow"],
  ]);
  // The gate's files: written below, or removed with the tree.
  const P = "/home/user/project";
  const ctx = ctxIn(P, { files: [`${P}/.pi/settings.json`, `${P}/src/a.ts`] });
  for (
    const [command, want] of [
      ["cmake -E copy_directory /tmp/x .pi", "ask"],
      ["cmake -E remove_directory .pi", "ask"],
      ["cmake -E tar xf x.tar", "ask"],
      ["cmake -E chdir .pi tee settings.json", "ask"],
      ["cmake -E copy_directory src /tmp/out", "allow"],
      ["cmake -E make_directory build", "allow"],
    ]
  ) assert.equal((await bash(gateFiles, ctx, command)).action, want, command);
});
