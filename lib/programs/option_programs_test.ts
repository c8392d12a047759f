/**
 * Programs run by an option's value: wget's askpass program (`--use-askpass=PROG`, the wgetrc
 * command `use_askpass` given by `-e`), sdiff's and diff3's `--diff-program=PROG`.
 */
import { checkTable } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";

/** [command, under read-only, under the deny-list] */
const ROWS: [string, Action, Action][] = [
  ["wget --use-askpass=curl https://x/", "deny", "deny"],
  ["wget --use-askpass curl https://x/", "deny", "deny"],
  ["wget -e useaskpass=curl https://x/", "deny", "deny"],
  ["wget -e 'use_askpass = curl' https://x/", "deny", "deny"],
  ["wget --execute=USE-ASKPASS=rm https://x/", "deny", "deny"],
  ['wget -e "$X" https://x/', "deny", "deny"],
  // getopt_long's abbreviations, and `-e` glued in a cluster.
  ["wget --use-a=curl https://x/", "deny", "deny"],
  ["wget --use-askp curl https://x/", "deny", "deny"],
  ["wget --exec=use-askpass=curl https://x/", "deny", "deny"],
  ["wget -qeuse_askpass=curl https://x/", "deny", "deny"],
  ["wget -nv -qe use_askpass=rm https://x/", "deny", "deny"],
  ['wget -qe"$X" https://x/', "deny", "deny"],
  ["wget --config=wgetrc https://x/", "deny", "deny"],
  ["sdiff --diff-program=rm README.md notes.txt", "deny", "deny"],
  ["sdiff --diff-prog=curl README.md notes.txt", "deny", "deny"],
  ["diff3 --diff-program rm README.md notes.txt package.json", "deny", "deny"],
  // Everyday.
  ["wget -q https://x/a.tgz", "deny", "allow"],
  ["wget -e robots=off https://x/a.tgz", "deny", "allow"],
  ["wget -qO- https://x/a.json", "deny", "allow"],
  ["wget -nv -P /tmp https://x/a.tgz", "deny", "allow"],
  ["sdiff README.md notes.txt", "deny", "allow"],
  ["diff3 README.md notes.txt package.json", "deny", "allow"],
  ["sdiff --diff-program=diff README.md notes.txt", "deny", "allow"],
];

Deno.test("programs an option's value names are stages of their own", async () => {
  await checkTable(ROWS);
});
