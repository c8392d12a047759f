/**
 * rsync's filter rules: the merge files they read (`-f '. FILE'`, `merge,- FILE`, `merge_FILE`,
 * a merge file's own merge rules), the per-directory merge files read below each local tree
 * (`: .env`, `-F`, `:C`), rule and pattern values as text, remote sides not ours.
 */
import assert from "node:assert/strict";
import { mergeRule, rsyncFilters, rsyncTreeNames } from "./rsync_filters.ts";
import { literal } from "./words.ts";
import { checkActions, ctxIn, secretsDenied } from "../testing.ts";
import type { Action } from "../types.ts";

const words = (...a: string[]) => ["rsync", ...a].map(literal);

Deno.test("mergeRule: long and short names, modifiers, a space or `_` before the name", () => {
  assert.deepEqual(mergeRule(". secrets/key"), { dir: false, modifiers: "", name: "secrets/key" });
  assert.deepEqual(mergeRule("merge,- x"), { dir: false, modifiers: "-", name: "x" });
  assert.deepEqual(mergeRule("merge_x"), { dir: false, modifiers: "", name: "x" });
  assert.deepEqual(mergeRule("._x"), { dir: false, modifiers: "", name: "x" });
  assert.deepEqual(mergeRule(".e x"), { dir: false, modifiers: "e", name: "x" });
  assert.deepEqual(mergeRule(":n- .env"), { dir: true, modifiers: "n-", name: ".env" });
  assert.deepEqual(mergeRule("dir-merge,e .rules"), { dir: true, modifiers: "e", name: ".rules" });
  assert.deepEqual(mergeRule(":C"), { dir: true, modifiers: "C", name: ".cvsignore" });
  // (More blanks are the name's: rsync opens ` x`.)
  assert.deepEqual(mergeRule(".  x"), { dir: false, modifiers: "", name: " x" });
  for (const other of ["- *.o", "+ x", "exclude .env", "H x", "!", "- .rsync-filter", "merge"]) {
    assert.equal(mergeRule(other), null, other);
  }
});

Deno.test("rsyncFilters: where the rules come from, and their values as text", () => {
  const f = rsyncFilters(words("-a", "-f", ". r", "--filter=: .x", "-f.e_y", "src/", "d/"));
  assert.deepEqual(f.merged, ["r", null, "y", null]);
  assert.deepEqual(f.dirMerged, [".x"]);
  assert.deepEqual(f.text, [3, 4, 5]);
  assert.deepEqual(rsyncFilters(words("-avF", "a/", "b/")).dirMerged, ["/.rsync-filter"]);
  // (`-FF` adds `- .rsync-filter`, no file.)
  assert.deepEqual(rsyncFilters(words("-aFF", "a/", "b/")).merged, []);
  assert.deepEqual(rsyncFilters(words("--exclude", ".env", "--include=x", "a/", "b/")).text, [
    2,
    3,
  ]);
  // A merge file's text: its rules followed; patterns only (`-`, `+`, `C`) not read as rules.
  const read = (p: string) => ({ r: "- *.o\nmerge s/k\n# merge no\n", w: ". s/w _x" })[p] ?? null;
  assert.deepEqual(rsyncFilters(words("-f. r", "a/", "b/"), read).merged, ["r", "s/k", null]);
  assert.deepEqual(rsyncFilters(words("-f.- r", "a/", "b/"), read).merged, ["r"]);
  assert.deepEqual(rsyncFilters(words("-f.w w", "a/", "b/"), read).merged, ["w", "s/w", null]);
  // `-M` reaches the local receiver; the remote one's are not ours.
  assert.deepEqual(rsyncFilters(words("-M--filter=. k", "a/", "b/")).merged, ["k", null]);
  assert.deepEqual(rsyncFilters(words("-M--filter=. k", "a/", "h:b/")).merged, []);
});

Deno.test("rsyncTreeNames: a dir-merge name where a local tree is read", () => {
  const names = (...a: string[]) => rsyncTreeNames(words(...a), rsyncFilters(words(...a)));
  assert.deepEqual(names("-a", "-f", ": .env", "src/", "d/"), [".env"]);
  assert.deepEqual(names("-a", "-f", ": /x/.rules", "src/", "h:d/"), [".rules"]);
  assert.deepEqual(names("-aC", "src/", "d/"), [".cvsignore"]);
  assert.deepEqual(names("-a", "-f", ":n- .env", "h:src/", "d/"), []);
  assert.deepEqual(names("-a", "--delete", "-f", ": .env", "h:src/", "d/"), [".env"]);
  assert.deepEqual(names("-a", "--exclude=.env", "src/", "d/"), []);
});

const P = "/home/user/p";
const ctx = ctxIn(P, {
  files: [`${P}/src/main.ts`, `${P}/lib/sub/.env`, `${P}/.env`, `${P}/secrets/key`, `${P}/d/x`],
  contents: {
    [`${P}/rules`]: "- *.o\nmerge secrets/key\n",
    [`${P}/plain.rules`]: "- *.o\n+ src/**\n",
    [`${P}/nested.rules`]: "dir-merge .env\n",
  },
  home: "/home/user",
});
/** [command, under secretsDenied in a project whose lib/sub holds a .env] */
const ROWS: [string, Action][] = [
  // A merge file is read on this side, however the rule is spelled.
  ['rsync -a -f ". secrets/key" src/ out/', "deny"],
  ['rsync -a --filter="merge,- secrets/key" src/ out/', "deny"],
  ['rsync -a -f "merge secrets/key" src/ out/', "deny"],
  ['rsync -a -f "merge_secrets/key" src/ out/', "deny"],
  ['rsync -a -f "._secrets/key" src/ out/', "deny"],
  ['rsync -a -f". /home/user/.ssh/id_rsa" src/ out/', "deny"],
  ["rsync -a --filter=.e\\ ~/.ssh/id_rsa src/ out/", "deny"],
  ['rsync -a -f ". .env" src/ out/', "ask"],
  ['rsync -a -M--filter=". secrets/key" src/ out/', "deny"],
  // A merge file's own merge rules; one whose rules are not known.
  ['rsync -a -f ". rules" src/ out/', "deny"],
  ['rsync -a -f ". nested.rules" src/ out/', "ask"],
  ['rsync -a -f ". missing.rules" src/ out/', "ask"],
  ['rsync -a -f"$R" src/ out/', "ask"],
  ['rsync -a -f ". -" src/ out/', "ask"],
  // The old-style files are paths too.
  ["rsync -a --exclude-from=secrets/key src/ out/", "deny"],
  ["rsync -a --include-from .env src/ out/", "ask"],
  // A per-directory merge file: read below each local tree (lib/sub/.env).
  ['rsync -a -f ":n- .env" lib/ out/', "ask"],
  ['rsync -a -f "dir-merge,e .env" lib/ out/', "ask"],
  ['rsync -a -f ". nested.rules" lib/ out/', "ask"],
  ['rsync -a -f ": /home/user/.ssh/id_rsa" src/ out/', "deny"],
  ['rsync -a --delete -f ": .env" host:src/ lib/', "ask"],
  // Everyday: patterns and rsync's own names; a remote side's files.
  ["rsync -av --exclude=node_modules src/ out/", "allow"],
  ["rsync -av --exclude .env --exclude=secrets src/ out/", "allow"],
  ["rsync -a --filter='- *.o' src/ out/", "allow"],
  ['rsync -a -f ". plain.rules" src/ out/', "allow"],
  ["rsync -avz -e ssh src/ host:dst/", "allow"],
  ["rsync -a -F src/ out/", "allow"],
  ["rsync -a -FF --delete src/ out/", "allow"],
  ["rsync -a -C src/ out/", "allow"],
  ['rsync -a -f ":n- .env" host:src/ out/', "allow"],
  // (A tree without such a name reads none.)
  ['rsync -a -f ":n- .env" src/ out/', "allow"],
  ["rsync -a -f ': .rules' src/ out/", "allow"],
  ['rsync -a -M--filter=". secrets/key" src/ host:out/', "allow"],
];

Deno.test("rsync's filter rules: the files they read", async () => {
  await checkActions(secretsDenied("/home/user"), ctx, ROWS);
});
