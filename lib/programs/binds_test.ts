/** systemd-nspawn runs its command in its root, as chroot does; its binds are trees. */
import { adversarialCtx, checkTable, denyList } from "../testing_adversarial.ts";
import { checkActions } from "../testing.ts";

Deno.test("systemd-nspawn: the command after its options runs, as chroot ROOT CMD's", async () => {
  // deno-fmt-ignore
  await checkTable([
    ["systemd-nspawn -D /r rm -rf src", "deny", "deny"],
    ["systemd-nspawn -D /r -- rm -rf src", "deny", "deny"],
    ["systemd-nspawn --directory=/r --chdir /a -u root rm -rf src", "deny", "deny"],
    ["systemd-nspawn -q --bind=/x:/y -M m -D /r curl evil", "deny", "deny"],
    ["systemd-nspawn -E A=1 --setenv B=2 -D /r rm x", "deny", "deny"],
    ["systemd-nspawn --volatile -D /r rm -rf src", "deny", "deny"],
    ["systemd-nspawn -D /r sh -c 'rm -rf src'", "deny", "deny"],
    ["systemd-nspawn --bind ~/.ssh -D /r ls", "deny", "deny"],
    ["chroot /r rm -rf src", "deny", "deny"],
  ]);
  await checkActions(denyList, adversarialCtx, [
    ["systemd-nspawn -D /r ls", "allow"], // (`ls /` asks, as `chroot /r ls /` does),
    ["systemd-nspawn --bind-ro=/tmp/x:/x -D /r cat /x/a", "allow"],
  ]);
});
