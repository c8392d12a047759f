/**
 * uudecode writes the files its input's `begin` lines name, anywhere (GNU's keeps an absolute
 * path): judged where they are, read from the encoded file as it will be when the command runs.
 */
import assert from "node:assert/strict";
import { checkGateTable } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";
import type { Action } from "../types.ts";
import { decodedNames } from "./decoders.ts";

const P = "/home/user/project";
const encoded = (name: string) => `begin 644 ${name}\n#86)C\n\`\nend\n`;
const ctx = ctxIn(P, {
  files: [`${P}/src/main.ts`, `${P}/.pi/settings.json`, "/home/user/.ssh/id_rsa"],
  contents: {
    [`${P}/ak.uu`]: encoded("/home/user/.ssh/authorized_keys"),
    [`${P}/out.uu`]: encoded("out.bin"),
    [`${P}/settings.uu`]: encoded("settings.json"),
    [`${P}/two.uu`]: encoded("out.bin") + encoded(".pi/settings.json"),
    [`${P}/b64.uu`]: "begin-base64 600 .pi/settings.json\nYQ==\n====\n",
  },
});

/** [command, under the deny-list, under the gate's own-file protection] */
const ROWS: [string, Action, Action][] = [
  ["uudecode ak.uu", "deny", "allow"],
  ["uudecode < ak.uu", "deny", "allow"],
  ["uudecode out.uu ak.uu", "deny", "allow"],
  ["uudecode - < ak.uu", "deny", "allow"],
  ["cd .pi && uudecode ../settings.uu", "allow", "ask"],
  ["uudecode two.uu", "allow", "ask"],
  ["uudecode b64.uu", "allow", "ask"],
  ["uudecode <<'E'\nbegin 644 /home/user/.ssh/authorized_keys\n#86)C\n`\nend\nE", "deny", "allow"],
  // A name not known (a pipe, a file another stage writes, one not read) may be any path.
  ["cat ak.uu | uudecode", "ask", "ask"],
  ["cp ak.uu out.uu && uudecode out.uu", "ask", "ask"],
  ["uudecode missing.uu", "ask", "ask"],
  ["uudecode --frob out.uu", "ask", "ask"],
  // Everyday: a named output, printing, a name in the project.
  ["uudecode out.uu", "allow", "allow"],
  ["uudecode -o /tmp/x.bin ak.uu", "allow", "allow"],
  ["uudecode --output-file=/tmp/x.bin ak.uu", "allow", "allow"],
  ["uudecode -p ak.uu", "allow", "allow"],
];

Deno.test("decoders: uudecode's output is judged where its input names it", async () => {
  await checkGateTable(ctx, ROWS);
});

Deno.test("decoders: the names of begin lines", () => {
  assert.deepEqual(decodedNames(encoded("a b.txt") + encoded("/dev/stdout")), ["a b.txt"]);
  assert.deepEqual(decodedNames("begin-base64 644 x\r\n====\n"), ["x"]);
  assert.deepEqual(decodedNames("no begin here\nbegin x y\n"), []);
});
