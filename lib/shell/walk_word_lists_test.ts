/**
 * A `for` list's globs taken as the words `BashEnv.listing` gives (the policy's listing of the
 * filesystem, here a table): each round of the body walked with one known match, the loop
 * recorded in `BashAnalysis.listed` with its body's stages.
 */
import assert from "node:assert/strict";
import { analyze, ENV, markedStages } from "./analyze_testing.ts";
import type { BashEnv } from "./model.ts";

/** What the listing of /proj gives, by pattern (anything else: not known). */
const LISTED: Record<string, readonly string[]> = {
  "packages/*/": ["packages/a/", "packages/b/"],
  "apps/*/": ["apps/web/"],
  "*.txt": ["a b.txt", "c[1].txt", "d.txt"],
  "nothing/*/": [],
  "*/": ["apps/", "packages/"],
  "many/*": Array.from({ length: 40 }, (_, i) => `many/${i}`),
};

const asked: string[] = [];
const env: BashEnv = {
  ...ENV,
  listing: (pattern, cwd) => {
    asked.push(`${cwd}:${pattern}`);
    return cwd === "/proj" ? LISTED[pattern] ?? null : null;
  },
};

/** The stages as text, each with its cwds (`?` where not known). */
function rounds(command: string): string[] {
  const a = analyze(command, env);
  assert.equal(a.error, null, a.error ?? "");
  return a.stages.map((s) =>
    s.argv.map((w) => (w.kind === "dynamic" ? "?" : w.kind === "glob" ? "~" : "") + w.value)
      .join(" ") + " @" + s.cwds.map((c) => c ?? "?").join(",")
  );
}

Deno.test("for over a glob: one round per match the listing gives, cd/pushd/-C known", () => {
  assert.deepEqual(rounds('for d in packages/*/; do (cd "$d" && npm test); done'), [
    "cd packages/a/ @/proj",
    "npm test @/proj/packages/a",
    "cd packages/b/ @/proj",
    "npm test @/proj/packages/b",
  ]);
  // As the literal list is walked.
  const literal = 'for d in packages/a/ packages/b/; do (cd "$d" && npm test); done';
  assert.deepEqual(rounds('for d in packages/*/; do (cd "$d" && npm test); done'), rounds(literal));
  for (
    const body of [
      '(cd -- "$d" && ls)',
      "(cd $d && ls)",
      '{ pushd "$d" && ls; popd; }',
      'git -C "$d" status',
      'npm --prefix "$d" test',
      'for f in "$d"*.json; do cat "$f"; done',
    ]
  ) {
    const globbed = rounds(`for d in packages/*/; do ${body}; done`);
    assert.deepEqual(globbed, rounds(`for d in packages/a/ packages/b/; do ${body}; done`), body);
  }
  // Several globs, and literal words beside them, in their order.
  assert.deepEqual(rounds('for d in packages/*/ x apps/*/; do (cd "$d" && make); done'), [
    "cd packages/a/ @/proj",
    "make @/proj/packages/a",
    "cd packages/b/ @/proj",
    "make @/proj/packages/b",
    "cd x @/proj",
    "make @/proj/x",
    "cd apps/web/ @/proj",
    "make @/proj/apps/web",
  ]);
});

Deno.test("for over a glob: bash's words (no match, blanks and glob characters in names)", () => {
  // No match: the word as written (nullglob and failglob are the caller's: no listing then).
  assert.deepEqual(rounds('for d in nothing/*/; do (cd "$d" && ls); done'), [
    "cd nothing/*/ @/proj",
    "ls @/proj/nothing/*",
  ]);
  // A match with a blank stays one word quoted; unquoted, bash splits it and globs `c[1].txt`
  // again: not known.
  assert.deepEqual(markedStages('for f in *.txt; do cat "$f"; done', env), [
    "cat a b.txt",
    "cat c[1].txt",
    "cat d.txt",
  ]);
  assert.deepEqual(markedStages("for f in *.txt; do cat $f; done", env), [
    "cat ?$f",
    "cat ?$f",
    "cat d.txt",
  ]);
});

Deno.test("for over a glob: not listed where the listing does not know, too many, or elsewhere", () => {
  asked.length = 0;
  // Not known (a pattern the table lacks), over the rounds' bound: the glob as before.
  assert.deepEqual(markedStages('for f in src/*.ts; do wc -l "$f"; done', env), [
    "wc -l ~src/*.ts",
  ]);
  assert.deepEqual(markedStages('for f in many/*; do cat "$f"; done', env), ["cat ~many/*"]);
  // A cwd not known, or several: nothing listed.
  assert.deepEqual(rounds('cd "$X"; for d in */; do (cd "$d" && ls); done').slice(1), [
    "cd ~*/ @?,/proj",
    "ls @?",
  ]);
  // The variable not used, `select` (whose name may be empty), a text bash parses apart: not
  // asked.
  asked.length = 0;
  rounds("for d in */; do ls; done");
  rounds('select d in */; do (cd "$d" && ls); done');
  rounds("eval 'for d in */; do (cd \"$d\" && ls); done'");
  assert.deepEqual(asked, []);
  // Without a listing, as before.
  assert.deepEqual(markedStages('for d in */; do cat "$d"; done'), ["cat ~*/"]);
});

Deno.test("for over a glob: the analysis says what it listed, its loop's body and repetition", () => {
  const a = analyze('mkdir x; for d in */; do (cd "$d" && make); done; ls', env);
  assert.equal(a.listed?.length, 1);
  const [l] = a.listed!;
  assert.equal(l.pattern, "*/");
  assert.equal(l.cwd, "/proj");
  assert.equal(l.repeated, false);
  assert.deepEqual(l.body.map((s) => s.argv.map((w) => w.value).join(" ")), [
    "cd apps/",
    "make",
    "cd packages/",
    "make",
  ]);
  // Inside another loop or a function, the list is expanded again after the body ran.
  for (
    const c of [
      'while true; do for d in */; do (cd "$d" && make); done; done',
      'for i in 1 2; do for d in */; do (cd "$d" && make); done; done',
    ]
  ) {
    const listed = analyze(c, env).listed ?? [];
    assert.ok(listed.length > 0 && listed.every((x) => x.repeated), c);
  }
  // (A function's body follows no values: the glob stays one, as before.)
  const f = analyze('f() { for d in */; do (cd "$d" && make); done; }; f; f', env);
  assert.equal(f.listed, undefined);
  // Asked but not known: still an analysis of the filesystem as it was.
  assert.deepEqual(analyze('for f in src/*.ts; do cat "$f"; done', env).listed, []);
  assert.equal(analyze("ls */", env).listed, undefined);
});
