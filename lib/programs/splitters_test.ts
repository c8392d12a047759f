/** split and csplit write files by names they make: judged by names of that shape. */
import assert from "node:assert/strict";
import { checkTable, gateFiles } from "../testing_adversarial.ts";
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
