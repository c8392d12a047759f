/** split and csplit write files by names they make: judged by names of that shape. */
import assert from "node:assert/strict";
import { checkGateTable, checkTable, gateFiles } from "../testing_adversarial.ts";
import { bash, ctxIn } from "../testing.ts";

Deno.test("splitters: the pieces split and csplit write, by their prefix and suffix", async () => {
  await checkTable([
    ["csplit -b '%.0denv' -f . notes.txt 2", "deny", "deny"],
    ["split --additional-suffix=.pem notes.txt", "deny", "deny"],
    ["split -l 10 notes.txt keys/", "deny", "deny"],
    ["split -l 100 notes.txt part_", "deny", "allow"],
    ["csplit notes.txt '/^#/' '{*}'", "deny", "allow"],
  ]);
  const P = "/home/user/project";
  const ctx = ctxIn(P, { files: [`${P}/.pi/settings.json`, `${P}/notes.txt`] });
  for (
    const [command, want] of [
      ["csplit -b '%.0d.json' -f .pi/settings notes.txt 2", "ask"],
      ["csplit --suffix-format='%.0dsettings.json' --prefix=.pi/ notes.txt 2", "ask"],
      ["csplit -f part notes.txt 5", "allow"],
    ]
  ) assert.equal((await bash(gateFiles, ctx, command)).action, want, command);
});

Deno.test("splitters: split's letters between prefix and suffix may spell a protected name", async () => {
  const P = "/home/user/project";
  const ctx = ctxIn(P, {
    files: [`${P}/.pi/settings.json`, `${P}/notes.txt`, `${P}/src/a.ts`, `${P}/.env`],
  });
  // [command, deny-list (protects .env, *.pem), gate's own files]
  await checkGateTable(ctx, [
    ["split -n l/19 -a1 --additional-suffix=.json /tmp/evil .pi/setting", "allow", "ask"],
    ["split -l1 -a 1 --additional-suffix=.json notes.txt .pi/setting", "allow", "ask"],
    ["split -l1 --suffix-length=1 --additional-suffix=.json notes.txt .pi/setting", "allow", "ask"],
    ["split -l1 --additional-suffix=.json notes.txt .pi/settin", "allow", "ask"],
    ["split -a1 -l1 notes.txt /home/user/.pi/agent/setting", "allow", "ask"],
    ["split -a1 -l 1 notes.txt .en", "ask", "allow"],
    ["split -l 1 --additional-suffix=.pem notes.txt key", "deny", "allow"],
    // Everyday pieces beside their input.
    ["split -l 100 notes.txt part_", "allow", "allow"],
    ["split -l 100 notes.txt", "allow", "allow"],
    ["split -b 1M notes.txt src/part_", "allow", "allow"],
    ["split -l 1 notes.txt .en", "allow", "allow"],
  ]);
});
