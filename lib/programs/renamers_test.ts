/**
 * Renamers that compute the new names (Perl's `rename`, util-linux's `rename FROM TO FILE…`):
 * what they write is judged where it lands, computed where it can be, else not known.
 */
import assert from "node:assert/strict";
import { checkGateTable } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";
import { literal } from "./words.ts";
import type { Action } from "../types.ts";
import { perlEdits } from "./renamers.ts";
import { programNamed } from "./registry.ts";

const P = "/home/user/project";
const ctx = ctxIn(P, {
  files: [
    `${P}/x.js`,
    `${P}/a.txt`,
    `${P}/key.pub`,
    `${P}/settings.json`,
    `${P}/src/a.js`,
    `${P}/.pi/settings.json`,
    `${P}/.env`,
  ],
});

/** [command, under the deny-list, under the gate's own-file protection] */
const ROWS: [string, Action, Action][] = [
  // Perl's expression builds a path elsewhere: into the gate's files, ~/.ssh, above the cwd.
  ["rename 's,^,.pi/extensions/,' x.js", "allow", "ask"],
  ["prename 's,^,.pi/extensions/,' x.js", "allow", "ask"],
  ["file-rename -v 's/^/.pi\\/extensions\\//' x.js", "allow", "ask"],
  ["rename 's,^,/home/user/.ssh/authorized_,; s,key\\.pub,keys,' key.pub", "deny", "allow"],
  ["rename -e 's,^,../.ssh/authorized_,' -e 's,key\\.pub,keys,' key.pub", "deny", "allow"],
  ["rename 's/x.js/.env/' x.js", "deny", "allow"],
  ["rename 's/\\.js$/.pem/' x.js", "deny", "allow"],
  // Code it cannot reproduce, names from stdin, globs it may move elsewhere: not known.
  [`rename '$_=chr(46)."env"' x.js`, "ask", "ask"],
  ["rename 's/x/chr(46)/e' x.js", "ask", "ask"],
  ["rename 'y/A-Z/a-z/' *", "ask", "ask"],
  ["rename 's/^/./' *.js", "ask", "ask"],
  ["rename 's/src/../' src/*.js", "ask", "ask"],
  ["find . -name '*.js' | rename 's/a/b/'", "ask", "ask"],
  ["rename -u 's/a/b/' x.js", "ask", "ask"],
  // util-linux: FROM put as TO, in the last name or (older) the whole path.
  ["rename.ul settings .pi/settings settings.json", "allow", "ask"],
  ["rename settings .pi/settings settings.json", "ask", "ask"],
  ["rename.ul x ../.ssh/authorized_keys x.js", "deny", "allow"],
  ["rename.ul -s a b x.js", "ask", "ask"],
  ["rename.ul x .x *.js", "ask", "ask"],
  ["rename 's/\\.js/.pem/' *.js", "deny", "allow"],
  ["echo x.js | rename 's,^,.pi/,'", "ask", "ask"],
  ["rename 's/^x/.e/' x*", "ask", "allow"],
  ["rename 's/^src/.pi/' src*", "allow", "ask"],
  // Everyday renames stay allowed (`-n` renames nothing; no input, no names).
  ["rename 's/^fgh/jkl/' fgh*", "allow", "allow"],
  ["rename 's/0000/000/' F0000*", "allow", "allow"],
  ["rename 's/^123_//' *.txt", "allow", "allow"],
  ["rename -n 's,^,.pi/extensions/,' x.js", "allow", "allow"],
  ["rename 's/ /_/g'", "allow", "allow"],
  ["rename -v 's/\\.JPG/\\.jpeg/' *.JPG", "allow", "allow"],
  ["rename -v 's#/a##' src/a.js", "allow", "allow"],
  ["rename 's/\\.txt$/.md/' *.txt", "allow", "allow"],
  ["rename 's/\\.js$/.ts/' src/*.js", "allow", "allow"],
  ["rename -n 's/x/y/' x.js", "allow", "allow"],
  ["rename 's/(\\w+)\\.js/$1.ts/' x.js", "allow", "allow"],
  ["rename 'y/a-z/A-Z/' x.js", "allow", "allow"],
  ["rename.ul .js .ts *.js", "allow", "allow"],
  ["rename .js .ts *.js", "allow", "allow"],
  ["rename.ul -a .js .ts src/*.js", "allow", "allow"],
  ["rename .htm .html a.txt", "allow", "allow"],
];

Deno.test("renamers: the names they compute are judged where they land", async () => {
  await checkGateTable(ctx, ROWS);
});

Deno.test("renamers: Perl expressions reproduced exactly, others not", () => {
  assert.equal(perlEdits("s/a/b/g; y/x/y/")?.length, 2);
  for (const code of ["s/a/b/e", "s/a/@{[`id`]}/", "s/(?{system 1})//", "$_=lc", "s{a}{b}"]) {
    assert.equal(perlEdits(code), null, code);
  }
  const named = programNamed("rename")!.namedFiles!;
  const paths = (c: string[]) => named(c.map(literal)).map((f) => f.path);
  assert.deepEqual(paths(["rename", "s/(\\d+)/n$1/", "a12.txt"]), ["an12.txt"]);
  assert.deepEqual(paths(["rename.ul", "-l", "a", "b", "d/a.a"]), ["d/a.b"]);
  assert.deepEqual(paths(["rename.ul", "d", "e", "d/d"]), ["e/d", "d/e"]);
});
