/**
 * Archivers told to delete what they archive remove their inputs: judged as `rm -r` of them (the
 * deny-list denies `rm *`), and a directory given, with what is protected below it, is reached.
 */
import { checkGateTable } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";
import type { Action } from "../types.ts";

const P = "/home/user/project";
const ctx = ctxIn(P, { files: [`${P}/src/a.ts`, `${P}/.pi/settings.json`, `${P}/README.md`] });

/** [command, under the deny-list, under the gate's own-file protection] */
const ROWS: [string, Action, Action][] = [
  // tar --remove-files, in any position, abbreviated as GNU tar takes it.
  ["tar -cf /tmp/x.tar --remove-files .pi", "deny", "ask"],
  ["tar --create --file=/tmp/x.tar --remove-files .pi", "deny", "ask"],
  ["tar -c --remove-files -f /tmp/x.tar .pi", "deny", "ask"],
  ["tar --remove-files -cf /tmp/x.tar src", "deny", "allow"],
  ["tar --rem -czf /tmp/x.tgz .pi", "deny", "ask"],
  ["tar cf /tmp/x.tar .pi --remove-f", "deny", "ask"],
  ["gtar -cf /tmp/x.tar --remove-files .", "deny", "ask"],
  // zip -m / --move, in a cluster, abbreviated.
  ["zip -rm /tmp/x.zip .pi", "deny", "ask"],
  ["zip -mr /tmp/x.zip .pi", "deny", "ask"],
  ["zip -9rm /tmp/x.zip src", "deny", "allow"],
  ["zip --move -r /tmp/x.zip .pi", "deny", "ask"],
  ["zip -r --mo /tmp/x.zip .pi", "deny", "ask"],
  // 7-Zip's -sdel (switches in any case); rar's move command and delete switches; lha, arj.
  ["7zz a -sdel /tmp/x.7z .pi", "deny", "ask"],
  ["7z a -sdel /tmp/x.7z .pi", "deny", "ask"],
  ["7za a -SDEL /tmp/x.7z src", "deny", "allow"],
  ["rar a -df /tmp/x.rar .pi", "deny", "ask"],
  ["rar m /tmp/x.rar .pi", "deny", "ask"],
  ["lha m /tmp/x.lzh .pi", "deny", "ask"],
  ["arj m /tmp/x.arj .pi", "deny", "ask"],
  // Everyday archiving reads what it archives.
  ["tar czf a.tgz src", "allow", "allow"],
  ["tar -czf /tmp/x.tgz .", "allow", "allow"],
  ["zip -r a.zip src", "allow", "allow"],
  ["zip -r /tmp/x.zip .", "allow", "allow"],
  ["7z a a.7z src", "allow", "allow"],
  ["7zz a /tmp/x.7z .", "allow", "allow"],
  ["rar a /tmp/x.rar .", "allow", "allow"],
  ["zip -d a.zip x", "allow", "allow"],
];

Deno.test("archivers that delete what they archive remove their inputs", async () => {
  await checkGateTable(ctx, ROWS);
});
