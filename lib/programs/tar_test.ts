/**
 * tar's and bsdtar's directory options, read as each program reads them: `-C DIR`, the long name
 * abbreviated (`--dir DIR`, bsdtar's `--cd DIR`), in a cluster, and the old bundled first word
 * whose letters take their values from the words after it, in order (`tar cCf DIR a.tar`).
 */
import { checkTable } from "../testing_adversarial.ts";

Deno.test("tar: a directory option abbreviated or in the old bundled word moves what it archives", async () => {
  await checkTable([
    // [command, read-only, deny-list]
    ["tar -cf x.tar --dir ~ .ssh", "deny", "deny"],
    ["tar -cf x.tar --direc=/home/user .ssh", "deny", "deny"],
    ["tar cCf ~ x.tar .ssh", "deny", "deny"],
    ["tar czCf ~ x.tgz .ssh", "deny", "deny"],
    ["tar -cvC ~ -f x.tar .ssh", "deny", "deny"],
    ['tar -cf x.tar --dir="$HOME" .ssh', "deny", "deny"],
    ["tar -cf x.tar --deref keys", "deny", "deny"],
    ["bsdtar -cf x.tar -C ~ .ssh", "deny", "deny"],
    ["bsdtar -cf x.tar --cd ~ .ssh", "deny", "deny"],
    ["bsdtar -cf x.tar --dir=/home/user .ssh", "deny", "deny"],
    ["bsdtar cCf ~ x.tar .ssh", "deny", "deny"],
    // Everyday: archives of the project, listings, extracting below it.
    ["tar -czf /tmp/x.tgz src", "deny", "allow"],
    ["tar czf /tmp/x.tgz -C src .", "deny", "allow"],
    ["tar -tf a.tar", "allow", "allow"],
    ["tar -tzf a.tgz --dir src", "allow", "allow"],
    ["bsdtar -czf /tmp/x.tgz --cd src .", "deny", "allow"],
  ]);
});
