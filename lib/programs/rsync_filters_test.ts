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

/**
 * A project whose trees hold per-directory merge files (`.rsync-filter`, `.r`). (rsync 3.5.0,
 * `--debug=FILTER2` and strace: a merge rule in one is opened from its directory, a dir-merge
 * rule's name read there and below, a symlinked one's target read, `-F`'s in each directory
 * from `/` down to the tree; with `--delete` the receiver reads its tree's.)
 */
const TREES = ctxIn(P, {
  files: [
    `${P}/src/main.ts`,
    `${P}/secrets/key`,
    `${P}/out/x`,
    `${P}/innr/lib/.env`,
    `${P}/linked/a`,
  ],
  contents: {
    // Everyday: patterns only.
    [`${P}/tree/.rsync-filter`]: "- *.o\n",
    [`${P}/tree/sub/.rsync-filter`]: "# build output\n- *.tmp\n+ *.c\nexclude node_modules/\n",
    [`${P}/tree/sub/main.c`]: "int main;\n",
    // A merge rule: its name from the file's directory; absolute; a merge file's own.
    [`${P}/abs/.rsync-filter`]: `merge,- ${P}/secrets/key\n`,
    [`${P}/rel/sub/.rsync-filter`]: "- *.o\nmerge ../../secrets/key\n",
    [`${P}/dot/sub/.r`]: "._../../secrets/key\n",
    [`${P}/chain/.rsync-filter`]: ". rules2\n",
    [`${P}/chain/rules2`]: "merge ../secrets/key\n",
    [`${P}/cwd/.rsync-filter`]: "merge secrets/key\n",
    [`${P}/words/.rsync-filter`]: "-_*.o merge_../secrets/key",
    // A dir-merge rule: another name read there and below.
    [`${P}/innr/.rsync-filter`]: "dir-merge .env\n",
    [`${P}/innr2/.rsync-filter`]: ": .inner\n",
    [`${P}/innr2/a/.inner`]: "merge ../../secrets/key\n",
    // Patterns only (`:-`): not rules.
    [`${P}/pat/.r`]: "merge secrets/key\n",
  },
  links: { [`${P}/linked/.rsync-filter`]: `${P}/secrets/key` },
  home: "/home/user",
});
/** [command, under secretsDenied] */
const TREE_ROWS: [string, Action][] = [
  // The merge rules of a per-directory merge file below a source are the files rsync reads.
  ["rsync -aF abs/ out/", "deny"],
  ["rsync -a -F abs out/", "deny"],
  ["rsync -avFF --delete abs/ out/", "deny"],
  ["rsync -aF rel/ out/", "deny"],
  ["rsync -a -f': .r' dot/ out/", "deny"],
  ["rsync -a --filter='dir-merge,n .r' dot/ out/", "deny"],
  ["rsync -aF chain/ out/", "deny"],
  ["rsync -aF words/ out/", "allow"],
  ["rsync -a -f':w /.rsync-filter' words/ out/", "deny"],
  ["rsync -aF innr/ out/", "ask"],
  ["rsync -aF innr2/ out/", "deny"],
  ["rsync -aF linked/ out/", "deny"],
  // The receiver reads its tree's with a delete option; `-F`'s above the tree too.
  ["rsync -aF --delete tree/ abs/", "deny"],
  ["rsync -aF tree/ abs/", "allow"],
  ["rsync -aF --delete abs/ host:out/", "deny"],
  ["rsync -aF abs/ host:out/", "deny"],
  ["rsync -aF host:abs/", "allow"],
  // A tree another stage may change first: its files not known.
  ["echo 'merge secrets/key' > tree/.rsync-filter && rsync -aF tree/ out/", "ask"],
  ['rsync -aF "$SRC"/ out/', "ask"],
  // Everyday: patterns only, patterns-only modifiers, no such file, a file source.
  ["rsync -aF tree/ out/", "allow"],
  ["rsync -avzF --delete tree/ out/", "allow"],
  ["rsync -aF tree/sub/main.c out/", "allow"],
  ["rsync -a -f':- .r' pat/ out/", "allow"],
  ["rsync -a -f': .r' tree/ out/", "allow"],
  ["rsync -a abs/ out/", "allow"],
];

Deno.test("rsync's per-directory merge files: the files their rules read", async () => {
  await checkActions(secretsDenied("/home/user"), TREES, TREE_ROWS);
});

Deno.test("rsync -F: the .rsync-filter files above the tree, from `/`", async () => {
  const q = "/home/user/q";
  const above = ctxIn(`${q}/work`, {
    files: [`${q}/secrets/key`, `${q}/work/src/main.ts`],
    contents: { [`${q}/.rsync-filter`]: "merge secrets/key\n" },
    home: "/home/user",
  });
  await checkActions(secretsDenied("/home/user"), above, [
    ["rsync -aF src/ out/", "deny"],
    ["rsync -a -f': .rsync-filter' src/ out/", "allow"],
    ["rsync -a src/ out/", "allow"],
  ]);
});

Deno.test("rsync -F: a tree beyond the walk's bounds, its files not known", async () => {
  const dirs = Array.from({ length: 70 }, (_, i) => `${P}/big/d${i}`);
  const large = ctxIn(P, {
    files: [`${P}/secrets/key`, ...dirs.map((d) => `${d}/x.c`)],
    contents: { [`${P}/big/d1/.rsync-filter`]: "- *.o\n" },
  });
  await checkActions(secretsDenied("/home/user"), large, [
    ["rsync -aF big/ out/", "ask"],
    ["rsync -aF big/d1/ out/", "allow"],
  ]);
});
