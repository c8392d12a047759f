/**
 * Backups named after what a program changes under a suffix from its environment or options:
 * `SIMPLE_BACKUP_SUFFIX=.json cp -b … .pi/settings` keeps `.pi/settings.json`.
 */
import { checkGateTable } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";
import type { Action } from "../types.ts";

const P = "/home/user/project";
const DIFF = "--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-a\n+b\n";
const ctx = ctxIn(P, {
  files: [`${P}/.pi/settings.json`, `${P}/notes.txt`, `${P}/src/a.ts`],
  contents: { [`${P}/x.patch`]: DIFF },
});

/** [command, under the deny-list, under the gate's own-file protection] */
const ROWS: [string, Action, Action][] = [
  ["SIMPLE_BACKUP_SUFFIX=.json cp -b /dev/null .pi/settings", "allow", "ask"],
  ["SIMPLE_BACKUP_SUFFIX=.json mv -b /tmp/x .pi/settings", "allow", "ask"],
  ["SIMPLE_BACKUP_SUFFIX=.json install -b /dev/null .pi/settings", "allow", "ask"],
  ["SIMPLE_BACKUP_SUFFIX=.json ln -sfb /tmp/x .pi/settings", "allow", "ask"],
  ["SIMPLE_BACKUP_SUFFIX=.json patch -b .pi/settings x.patch", "allow", "ask"],
  ["env SIMPLE_BACKUP_SUFFIX=.json cp -b /dev/null .pi/settings", "deny", "ask"],
  ["export SIMPLE_BACKUP_SUFFIX=.json; cp -b /dev/null .pi/settings", "deny", "ask"],
  // patch's own suffix, with -b or without (a hunk that does not fit keeps one too), and prefix.
  ["patch -b -z .json .pi/settings x.patch", "allow", "ask"],
  ["patch -b --suffix=.json .pi/settings x.patch", "allow", "ask"],
  ["patch --backup --suffix .json .pi/settings < x.patch", "allow", "ask"],
  ["patch -z .json .pi/settings x.patch", "allow", "ask"],
  ["patch --suf=.json .pi/settings x.patch", "allow", "ask"],
  ["patch -b -B .pi/ settings.json x.patch", "allow", "ask"],
  // The suffix in a cluster, glued or the next word, abbreviated long options, `-S` alone (it
  // asks for backups too), `-t DIR`, as getopt_long reads them.
  ["cp -bS .json notes.txt .pi/settings", "allow", "ask"],
  ["cp -bS.json notes.txt .pi/settings", "allow", "ask"],
  ["cp -fbS .json notes.txt .pi/settings", "allow", "ask"],
  ["cp -b --suff=.json notes.txt .pi/settings", "allow", "ask"],
  ["cp -b --su .json notes.txt .pi/settings", "allow", "ask"],
  ["cp --back -S .json notes.txt .pi/settings", "allow", "ask"],
  ["cp -S .json notes.txt .pi/settings", "allow", "ask"],
  ["mv -bS .json notes.txt .pi/settings", "allow", "ask"],
  ["install -bS.json notes.txt .pi/settings", "allow", "ask"],
  ["install --strip -bS.json notes.txt .pi/settings", "allow", "ask"],
  ["ln -sfbS.json notes.txt .pi/settings", "allow", "ask"],
  ["echo '{\"evil\":1}' > .pi/settings && cp -bS .json notes.txt .pi/settings", "allow", "ask"],
  // rsync's backups: `-b`/`--backup` with `--suffix`.
  ["rsync -ab --suffix=.json notes.txt .pi/settings", "allow", "ask"],
  ["rsync -a --suffix=.json --backup notes.txt .pi/settings", "allow", "ask"],
  ["rsync -ab --suffix .json notes.txt .pi/settings", "allow", "ask"],
  // perl's switches: code glued to -e (`-e1`, `-pe1`) is no script file; sed's `-e1p` neither.
  ["perl -pi.json -e1 .pi/settings", "allow", "ask"],
  ["perl -pe1 -i.json .pi/settings", "allow", "ask"],
  ["perl -lpe1 -i.json .pi/settings", "allow", "ask"],
  ["perl -p -e1 -i.json .pi/settings", "allow", "ask"],
  ["perl -I lib -pi.json -e1 .pi/settings", "allow", "ask"],
  ["sed -i.json -e1p .pi/settings", "allow", "ask"],
  // Everyday backups.
  ["cp -b notes.txt backup.txt", "allow", "allow"],
  ["cp --backup=numbered notes.txt backup.txt", "allow", "allow"],
  ["cp -bS.bak notes.txt backup.txt", "allow", "allow"],
  ["rsync -a src/ dst/", "allow", "allow"],
  // (A relative backup directory is the destination's: `a/b/../../.pi` is `.pi`.)
  ["rsync -b --backup-dir=../../.pi notes.txt a/b/", "allow", "ask"],
  ["rsync -b --backup-dir=../bak notes.txt a/b/", "allow", "allow"],
  // rsync resolves each directory option from the destination directory (the last operand, or
  // the one it lies in), not the cwd; a partial directory from each directory below it too.
  // (From the cwd, `../../.ssh` is /home/.ssh; from the destination's parent, too.)
  ["rsync -ab --backup-dir=../../.ssh notes.txt /home/user/w/a", "deny", "allow"],
  ["rsync -ab --backup-dir=../.ssh notes.txt /home/user/w/a/f", "deny", "allow"],
  ["rsync -a --temp-dir=../../.ssh src/ /home/user/w/a", "deny", "allow"],
  ["rsync -a -T ../../.ssh src/ /home/user/w/a", "deny", "allow"],
  ["rsync -avT../../.ssh src/ /home/user/w/a", "deny", "allow"],
  ["rsync -a --temp=../../.ssh src/ /home/user/w/a", "deny", "allow"],
  ["rsync -a --partial-dir=../../.ssh src/ /home/user/w/a", "deny", "allow"],
  ["rsync -a --partial-dir=../../../.ssh src/ /home/user/w/a/", "deny", "allow"],
  ["rsync -a --compare-dest=../../.ssh src/ /home/user/w/a/", "deny", "allow"],
  ["rsync -a --copy-dest ../../.ssh src/ /home/user/w/a", "deny", "allow"],
  ["rsync -a --link-dest=../../.ssh src/ /home/user/w/a", "deny", "allow"],
  ["rsync -a --backup-dir=../../.pi notes.txt a/b", "allow", "ask"],
  // `$RSYNC_PARTIAL_DIR` is the partial directory of `--partial` and `-P` (rsync(1)), from the
  // stage's prefix, an export, env's; one not known may be anywhere. (From the cwd, the value
  // `../../.ssh` is /.ssh; from the destination /home/user/w/a, ~/.ssh.)
  ["RSYNC_PARTIAL_DIR=../../.ssh rsync -a --partial src/ /home/user/w/a/", "deny", "allow"],
  ["RSYNC_PARTIAL_DIR=../../.ssh rsync -aP src/ /home/user/w/a", "deny", "allow"],
  ["RSYNC_PARTIAL_DIR=../../.ssh rsync -a -P src/ /home/user/w/a", "deny", "allow"],
  ["RSYNC_PARTIAL_DIR=../../.ssh rsync -a --part src/ /home/user/w/a", "deny", "allow"],
  ["export RSYNC_PARTIAL_DIR=../../.ssh; rsync -a --partial src/ /home/user/w/a/", "deny", "allow"],
  ["RSYNC_PARTIAL_DIR=$D rsync -a --partial notes.txt a/b/", "ask", "ask"],
  ["RSYNC_PARTIAL_DIR=../../.ssh rsync -a src/ /home/user/w/a/", "allow", "allow"],
  [
    "RSYNC_PARTIAL_DIR=../../.ssh rsync -aP --partial-dir=.p src/ /home/user/w/a/",
    "allow",
    "allow",
  ],
  ["RSYNC_PARTIAL_DIR=.rsync-partial rsync -aP src/ a", "allow", "allow"],
  ["rsync -a --partial-dir=.rsync-partial src/ a", "allow", "allow"],
  ["rsync -a --partial src/ a", "allow", "allow"],
  ["rsync -a --link-dest=../prev src/ a/new", "allow", "allow"],
  ["rsync -ab --suffix=.bak notes.txt backup.txt", "allow", "allow"],
  ["perl -pi -e 's/a/b/' notes.txt", "allow", "allow"],
  ["perl -pe1 -i.bak notes.txt", "allow", "allow"],
  ["perl -e1 -i.bake .pi/settings", "allow", "allow"],
  ["sed -i.bak -e1p notes.txt", "allow", "allow"],
  ["SIMPLE_BACKUP_SUFFIX=.bak cp -b notes.txt backup.txt", "allow", "allow"],
  ["patch -b notes.txt x.patch", "allow", "allow"],
  ["patch -b -z .bak notes.txt x.patch", "allow", "allow"],
  ["patch -b -z .json -p0 < x.patch", "allow", "allow"],
];

Deno.test("backups: a suffix from the environment or patch's options names the backup", async () => {
  await checkGateTable(ctx, ROWS);
});
