/** Commands after a heredoc behind a `;` on its line: moved after its body, as bash runs them. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { checkEveryday, checkTable, denyList } from "../testing_adversarial.ts";
import { analyze } from "./analyze_testing.ts";
import { heredocTailsMoved } from "./heredoc_tails.ts";

/** The source a command is parsed as (itself where nothing moves). */
const moved = (command: string) => heredocTailsMoved(command)?.source ?? command;

/** The argv of each stage, and the analysis's error. */
function read(command: string): { error: string | null; stages: string[] } {
  const a = analyze(command);
  return { error: a.error, stages: a.stages.map((s) => s.argv.map((w) => w.value).join(" ")) };
}

/** Commands whose tails move, each run by bash as it is and as moved. */
const MOVED = [
  "cat <<EOF; echo done\nbody\nEOF",
  "cat <<EOF;\nbody\nEOF\n",
  "cat <<EOF; echo a\nEOF",
  "cat <<EOF | tr a b; echo x\nabc\nEOF\necho after",
  "cat <<EOF && echo a; echo b\nbody\nEOF",
  "cat <<EOF || echo a; echo b\nbody\nEOF",
  "sh <<'EOF' 2>&1; echo $?\necho in; exit 3\nEOF",
  "cat <<-EOF ; echo 'x;y' \"a;b\" # c;d\n\tbody\n\tEOF\necho z",
  "cat <<A; cat <<B; echo end\na\nA\nb\nB",
  "{ cat <<EOF; }\nbody\nEOF",
  "(cat <<EOF; echo sub) | tr a-z A-Z\nbody\nEOF",
  "if true; then cat <<EOF; fi\nbody\nEOF",
  'x=$(cat <<EOF; echo two\none\nEOF\n); echo "$x"',
  "cat <<\\EOF; echo $'a\\'b'\n$HOME\nEOF",
];

Deno.test("a heredoc's tail moves after its body, the length kept", () => {
  assert.equal(moved("cat <<EOF; echo done\nbody\nEOF"), "cat <<EOF\nbody\nEOF\n echo done");
  for (const c of MOVED) {
    assert.notEqual(moved(c), c, c);
    assert.equal(moved(c).length, c.length, c);
  }
  // The offsets outside what moves hold.
  const m = heredocTailsMoved("ls; cat <<EOF; echo x\nb\nEOF\necho y")!;
  assert.deepEqual([m.from, m.to], [13, 27]);
  assert.equal(m.source.slice(27), "\necho y");
});

Deno.test("bash runs a moved tail as the command as written", () => {
  if (spawnSync("bash", ["-c", "true"]).status !== 0) return;
  const run = (s: string) => spawnSync("bash", ["-c", s], { encoding: "utf8" });
  for (const c of MOVED) {
    const [a, b] = [run(c), run(moved(c))];
    assert.deepEqual([b.stdout, b.stderr, b.status], [a.stdout, a.stderr, a.status], c);
  }
});

Deno.test("tails not moved: another reading, or none the same", () => {
  for (
    const c of [
      // Put in the background; a `case` item's end; two heredocs before the `;`.
      "cat <<EOF & echo x\nb\nEOF",
      "case a in a) cat <<EOF;;\nb\nEOF\nesac",
      "cat <<A <<B; echo\na\nA\nb\nB",
      // Words that go on past the line: a quote, a parenthesis, `\`, a backquote.
      'cat <<EOF; echo "a\nb\nEOF\n"',
      "cat <<EOF; (echo\nb\nEOF\n)",
      "cat <<EOF; echo \\\nb\nEOF",
      "cat <<EOF; echo `x`\nb\nEOF",
      "cat <<EOF; (( x << 1 ))\nb\nEOF",
      // A heredoc bash ends nowhere; a body line joined to its end line.
      "cat <<EOF; echo\nb",
      "cat <<EOF; echo\nb\\\nEOF",
      // A `;` in a quote or a comment.
      "cat <<EOF 'a;b'\nb\nEOF",
      "cat <<EOF # a;b\nb\nEOF",
    ]
  ) assert.equal(heredocTailsMoved(c), null, c);
});

Deno.test("a heredoc's tail: its commands are read and judged", async () => {
  assert.deepEqual(read("cat <<EOF; echo done\nbody\nEOF"), {
    error: null,
    stages: ["cat", "echo done"],
  });
  // An empty body (once taken for an error).
  assert.deepEqual(read("cat <<EOF; a\nEOF"), { error: null, stages: ["cat", "a"] });
  assert.deepEqual(read("python3 <<EOF 2>&1; echo x\nprint(1)\nEOF").stages, [
    "python3",
    "echo x",
  ]);
  await checkTable([
    ["cat <<EOF; rm -rf ~\nx\nEOF", "deny", "deny"],
    ["cat <<EOF; cat ~/.ssh/id_rsa\nx\nEOF", "deny", "deny"],
    ["cat <<EOF >~/.ssh/authorized_keys; echo\nx\nEOF", "deny", "deny"],
    ["bash <<'EOF'; echo\nrm -rf ~\nEOF", "deny", "deny"],
    ["cat <<A; bash <<B\nx\nA\nrm -rf ~\nB", "deny", "deny"],
    ["cat <<EOF | sh; echo\nrm -rf ~\nEOF", "deny", "deny"],
    // Not moved here (a `&` is heredoc_lines.ts's); a quote open past the line: an error.
    ["cat <<EOF & rm -rf ~\nx\nEOF", "deny", "deny"],
    ['cat <<EOF; echo "a\nEOF\nrm -rf ~"', "deny", "deny"],
  ]);
  await checkEveryday([
    "cat <<EOF; echo done\nbody\nEOF",
    "cat <<'EOF' | head; echo x\nbody\nEOF",
    "python3 <<'EOF' 2>&1; echo exit=$?\nprint(1)\nEOF",
    "cat <<EOF && echo a; echo b\nbody\nEOF",
    "cat <<A; cat <<B\na\nA\nb\nB",
  ], denyList);
});
