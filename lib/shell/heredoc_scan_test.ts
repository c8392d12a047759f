/**
 * A `<<` or `;` bash reads as part of a word is no heredoc's start nor operator to the heredoc
 * repairs (heredoc_scan.ts): each form checked against real bash, and the repairs made only where
 * bash runs the moved source as the command written.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { checkEveryday, checkTable, denyList } from "../testing_adversarial.ts";
import { analyze, parser } from "./analyze_testing.ts";
import { heredocLinesMoved } from "./heredoc_lines.ts";
import { opaqueAt } from "./heredoc_scan.ts";
import { heredocTailsMoved } from "./heredoc_tails.ts";
import { parseSource } from "./source_tree.ts";

const hasBash = spawnSync("bash", ["-c", "true"]).status === 0;
const run = (s: string) => spawnSync("bash", ["-c", s], { encoding: "utf8", cwd: "/" });

/** [a line, the delimiter its `<<` would have, whether bash reads a heredoc there]. */
const FORMS: [string, string, boolean][] = [
  ["echo a[1<<2]", "2]", true],
  ["a[1<<2]=3", "2]=3", false],
  ["x[1<<2]+=3", "2]+=3", false],
  ["a=1 b[1<<2]=3", "2]=3", false],
  ["declare a[1<<2]=5", "2]=5", true],
  ["f=(a [1<<2]=b)", "2]=b", false],
  ["echo $((1<<2))", "2))", false],
  ["x=$((1<<2))", "2))", false],
  ["((x<<2))", "2))", false],
  ["for ((i=1<<2;i<0;)); do :; done", "2;i<0;))", false],
  ["let x<<2", "2", true],
  ["echo ${x:-<<z}", "z}", false],
  ["echo ${x/<</y}", "/y}", false],
  ["echo ${x:-${y:-<<z}}", "z}}", false],
  ["echo $[1<<2]", "2]", false],
  ['echo "$[1<<2]"', "2]", false],
  ["echo a$[1<<2]", "2]", false],
  ["[[ a < b ]]", "b", false],
];

Deno.test("bash reads a `<<` in these words as the table says", () => {
  if (!hasBash) return;
  for (const [line, delimiter, heredoc] of FORMS) {
    const out = run(`${line}; echo T\necho BODY\n${delimiter}\necho after`).stdout;
    assert.equal(!out.includes("BODY"), heredoc, line);
  }
  // In `[[…]]` a `<<` is an error: nothing of the line runs.
  assert.equal(run("[[ a << b ]]; echo T\nb").stdout, "");
});

Deno.test("the scanners skip or bail on what bash reads whole", () => {
  assert.equal(opaqueAt("echo ${x:-<<z} y", 5, 16, true), 14);
  assert.equal(opaqueAt("[[ a < b ]] && x", 0, 16, true), 11);
  for (const [text, at] of [["$[1]", 0], ["$((1))", 1], ["((x))", 0], ["a=(b)", 2], ["`x`", 0]]) {
    assert.equal(opaqueAt(text as string, at as number, 9, true), null, text as string);
  }
  assert.equal(opaqueAt("a[1<<2]=3", 0, 9, true), null);
  assert.equal(opaqueAt("a[$i]=3", 0, 7, true), "read");
  assert.equal(opaqueAt("${x:-'a'}", 0, 9, false), null);
  for (const [line, delimiter, heredoc] of FORMS) {
    if (heredoc) continue;
    for (const sep of [";", "&"]) {
      const c = `${line}${sep} cd s\ncat key\n${delimiter}\ncat <<EOF; true\nEOF`;
      // The fake start is never one: its line stays, or is read as having no heredoc.
      for (const m of [heredocTailsMoved(c), heredocLinesMoved(c)]) {
        assert.ok(m === null || m.source.startsWith(`${line}${sep} cd s\ncat key\n`), c);
      }
    }
  }
});

/** A hostile command: bash reads `~/.ssh/id_rsa` or `secrets`, a misread order hides it. */
function hostile(line: string, delimiter: string): string[] {
  return [
    `F=README.md; ${line}; F=~/.ssh/id_rsa\ncat "$F"\n${delimiter}\ncat <<EOF; true\nEOF`,
    `F=README.md; ${line} & F=~/.ssh/id_rsa\ncat "$F"\n${delimiter}\ncat <<EOF & true\nEOF`,
    `cd ~/.ssh; ${line}; cd /tmp\ncat id_rsa\n${delimiter}\ncat <<EOF; true\nEOF`,
  ];
}

Deno.test("a `<<` in a word: the lines after are judged in bash's order", async () => {
  const rows: [string, "deny", "deny"][] = [];
  for (const [line, delimiter, heredoc] of FORMS) {
    if (!heredoc) { for (const c of hostile(line, delimiter)) rows.push([c, "deny", "deny"]); }
  }
  // The hunter's forms as found.
  rows.push(
    [
      'F=README.md; echo $[1<<true ]; F=~/.ssh/id_rsa\ncat "$F"\ntrue\ncat <<EOF; true\nEOF',
      "deny",
      "deny",
    ],
    [
      "cd ~/.ssh; echo ${x:-<<true}; cd /tmp\ncat id_rsa\ntrue}\ncat <<EOF; true\nEOF",
      "deny",
      "deny",
    ],
    // A heredoc's body or a quote's lines read as commands: the tail of a line in them moved.
    [
      'F=~/.ssh/id_rsa; cat <<A\ncat <<EOF; F=README.md\nA\nEOF\ncat "$F"\ncat <<X; true\nX',
      "deny",
      "deny",
    ],
    [
      'F=~/.ssh/id_rsa; echo "\ncat <<EOF; F=README.md\n"\nEOF\ncat "$F"\ncat <<X; true\nX',
      "deny",
      "deny",
    ],
    [
      'F=~/.ssh/id_rsa; cat <<A `true`\ncat <<EOF; F=README.md\nA\nEOF\ncat "$F"\ncat <<X; true\nX',
      "deny",
      "deny",
    ],
  );
  await checkTable(rows);
});

/** Commands whose repair must stay: everyday heredocs beside the forms above. */
const EVERYDAY = [
  "cat <<EOF; echo done\nbody\nEOF",
  "python3 - <<'EOF' 2>&1 | tail -5\nprint(1)\nEOF",
  'echo "${HOME:-/}" ${x//a/b}; cat <<EOF; echo done\nbody\nEOF',
  'cat <<EOF > "${TMPDIR:-/tmp}/x"; echo done\nbody\nEOF',
  '[[ -n "$HOME" ]] && cat <<EOF; echo done\nbody\nEOF',
  "a[1]=x; cat <<EOF; echo ${a[1]}\nbody\nEOF",
  "cat <<A\nbody\nA\ncat <<EOF; echo done\nbody\nEOF",
  "cat <<A <<B; echo two\na\nA\nb\nB",
  "cat <<EOF & echo x\nbody\nEOF\nwait",
];

Deno.test("everyday heredocs stay repaired, and bash runs each repair as written", async () => {
  for (const c of EVERYDAY) {
    assert.equal(analyze(c).error, null, c);
    assert.notEqual(parseSource(parser, c)!.source, c, c);
  }
  await checkEveryday(EVERYDAY, denyList);
  if (!hasBash) return;
  // Every tail heredoc_tails.ts moves is run by bash as the command written (heredoc_lines.ts's
  // moves are for tree-sitter alone: its end lines go on).
  const all = [...EVERYDAY, ...FORMS.flatMap(([l, d]) => hostile(l, d))];
  const safe = (t: string) =>
    t.replaceAll("~/.ssh/id_rsa", "/dev/null").replace(/cd [^;\n]*/g, ":");
  for (const c of all) {
    const moved = heredocTailsMoved(c);
    if (moved === null) continue;
    const [a, b] = [run(safe(c)), run(safe(moved.source))];
    assert.deepEqual([b.stdout, b.status], [a.stdout, a.status], c);
  }
});
