/** Lines tree-sitter cannot read after a heredoc start: their rest moved to its end line. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { checkEveryday, checkTable, denyList } from "../testing_adversarial.ts";
import { analyze } from "./analyze_testing.ts";
import { heredocLinesMoved } from "./heredoc_lines.ts";
import type { Stage } from "./model.ts";

/** The source a command is parsed as (itself where nothing moves). */
const moved = (command: string) => heredocLinesMoved(command)?.source ?? command;

/** Each stage: its argv, then each heredoc's descriptor and body (`0:a⏎`). */
function read(command: string): { error: string | null; stages: string[] } {
  const a = analyze(command);
  return { error: a.error, stages: a.stages.map(shown) };
}

function shown(s: Stage): string {
  const docs = s.redirects.filter((r) => r.kind === "heredoc").map((r) =>
    `${/^\d+/.exec(r.op)?.[0] ?? "0"}:${r.body?.value}`
  );
  return [...s.argv.map((w) => w.value), ...docs].join(" ");
}

/** What `cat` prints in a stage as the analysis reads it: its files `-` and `/dev/fd/N`. */
function catOutput(s: Stage): string {
  const fds = new Map<string, string>();
  for (const r of s.redirects) {
    if (r.kind === "heredoc") fds.set(/^\d+/.exec(r.op)?.[0] ?? "0", r.body!.value);
  }
  const files = s.argv.slice(1).map((w) => w.value);
  return (files.length ? files : ["-"])
    .map((f) => fds.get(f === "-" ? "0" : f.replace("/dev/fd/", "")) ?? "?")
    .join("");
}

/** Lines that move, run by bash: what `cat` prints as the analysis reads the line. */
const CATS = [
  "cat <<A <<B\na\nA\nb\nB",
  "cat - /dev/fd/3 <<A 3<<B\na\nA\nb\nB",
  "cat /dev/fd/3 - 3<<A <<-B\na\nA\n\tb\n\tB",
  "cat <<A <<B <<C\na\nA\nb\nB\nc\nC",
  "cat <<A && cat <<B\na\nA\nb\nB",
  "cat <<A && cat <<B; cat <<C\na\nA\nb\nB\nc\nC",
  'x=$(cat <<A <<B\na\nA\nb\nB\n); echo "$x"',
  "cat /dev/fd/3 3<<A; cat - /dev/fd/4 4<<B <<C\na\nA\nb\nB\nc\nC",
  // A body holding the other's delimiter; the first body holding the line's text.
  "cat <<A <<B\nB\nA\nA\nB",
  "cat <<A && cat <<B\ncat <<B\nA\nx\nB",
  // Quoted in part, `<<-`, quotes and comments after.
  'cat <<"E"OF <<B\n$HOME\nEOF\nb\nB',
  "cat <<E\\OF <<'B' # a <<C\n$HOME\nEOF\nb\nB",
  "cat <<-A <<-B\n\ta\n\tA\n\t\tb\n\tB",
  "(cat <<A)\na\nA",
  "(cat <<A <<B)\na\nA\nb\nB",
  "{ cat <<A <<B; }\na\nA\nb\nB",
  "case x in x) cat <<A;;\nesac\nA\nesac",
  "if true; then cat <<A <<B; fi\na\nA\nb\nB",
];

Deno.test("the rest of a heredoc's line moves to its end line, the length kept", () => {
  assert.equal(moved("cat <<A <<B\na\nA\nb\nB"), "cat <<A\na\nA <<B\nb\nB");
  assert.equal(moved("cat <<EOF > f &\nx\nEOF"), "cat <<EOF\nx\nEOF > f &");
  assert.equal(moved('cat <<"E"OF &\nx\nEOF'), "cat <<'EOF'\nx\nEOF &");
  for (const c of [...CATS, "cat <<EOF & echo\nx\nEOF", "python3 - <<'EOF' &\nprint(1)\nEOF"]) {
    assert.notEqual(moved(c), c, c);
    assert.equal(moved(c).length, c.length, c);
  }
  // Where the moved heredocs end (their delimiter's offset).
  assert.deepEqual(heredocLinesMoved("cat <<A <<B <<C\na\nA\nb\nB\nc\nC")!.ends, [10, 18]);
});

Deno.test("bash prints what the analysis reads the heredocs of a moved line to be", () => {
  if (spawnSync("bash", ["-c", "true"]).status !== 0) return;
  for (const c of CATS) {
    const a = analyze(c);
    assert.equal(a.error, null, c);
    const cats = a.stages.filter((s) => s.argv[0]?.value === "cat");
    const run = spawnSync("bash", ["-c", c], { encoding: "utf8", env: { HOME: "/h" } });
    assert.equal(run.status, 0, c);
    assert.equal(run.stdout.replaceAll("/h", "$HOME"), cats.map(catOutput).join(""), c);
  }
});

Deno.test("bash runs each command of a moved line, as a stage", () => {
  if (spawnSync("bash", ["-c", "true"]).status !== 0) return;
  for (
    const c of [
      "true w1 <<EOF > /dev/null &\nx\nEOF\nwait",
      "true w1 <<EOF & true w2\nx\nEOF\nwait",
      "true w1 <<A && true w2 <<B || true w3 <<C &\na\nA\nb\nB\nc\nC\nwait",
      "true w1 <<A |& true w2 <<B; true w3 <<C &\na\nA\nb\nB\nc\nC\nwait",
      "x=$(true w1 <<A <<B\na\nA\nb\nB\n)",
      "case a in a) true w1 <<A; true w2 <<B;;\nA\nB\nesac",
      "cat <<A <<B & true w4\n$(true w1)\nA\n$(true w2)`true w3`\nB\nwait",
    ]
  ) {
    const run = spawnSync("bash", ["-xc", c], {
      encoding: "utf8",
      env: { PS4: "+ ", PATH: "/usr/bin:/bin" },
    });
    const ran = run.stderr.split("\n").flatMap((l) => /^\++ (true w\d)$/.exec(l)?.[1] ?? []);
    const a = analyze(c);
    assert.equal(a.error, null, c);
    const ours = new Set(a.stages.map((s) => s.argv.map((w) => w.value).join(" ")));
    assert.deepEqual(ran.filter((r) => !ours.has(r)), [], c);
    assert.ok(ran.length, c);
  }
});

Deno.test("lines not moved: bash reads them otherwise, or the reading is not surely bash's", () => {
  for (
    const c of [
      // A word between the heredoc and what needs moving (tree-sitter would read a command).
      "cat <<A -n &\na\nA",
      "cat <<A -n <<B\na\nA\nb\nB",
      // A body line that starts with the delimiter (tree-sitter ends the body there); an unquoted
      // line joined to the delimiter's; a body bash ends nowhere.
      "cat <<A &\n A\nA",
      "cat <<A &\nA)\nA",
      "cat <<A &\nx\\\nA\nA",
      "cat <<A <<B\na\nA\nb",
      "cat <<A &\na",
      // A substitution the heredoc is in, closed on its line; a case pattern after it.
      "echo $(cat <<A) &\na\nA",
      "x=$(cat <<A <<B)\na\nA\nb\nB",
      "case x in a) cat <<A;; b) cat <<B;; esac\na\nA\nb\nB",
      // Backquotes, arithmetic, an open quote, a `\` at the line's end.
      "cat <<A `x` &\na\nA",
      "(( x <<A )) &\na\nA",
      "cat <<A & echo 'x\na\nA\n'",
      "cat <<A & \\\na\nA",
      // A delimiter that expands to bash (taken literally) or is not a name.
      "cat <<$X &\na\n$X",
      "cat <<'' &\na\n",
      // Nothing tree-sitter misreads.
      "cat <<A | x\na\nA",
      "cat <<A && x\na\nA",
    ]
  ) assert.equal(heredocLinesMoved(c), null, c);
});

Deno.test("moved lines: each command and body read", () => {
  assert.deepEqual(read("cat <<A <<B\na\nA\nb\nB"), {
    error: null,
    stages: ["cat 0:a\n 0:b\n"],
  });
  assert.deepEqual(read("diff - /dev/fd/3 <<A 3<<B\na\nA\nb\nB").stages, [
    "diff - /dev/fd/3 0:a\n 3:b\n",
  ]);
  assert.deepEqual(read("cat <<EOF > f & echo hi\nx\nEOF").stages, ["cat 0:x\n", "echo hi"]);
  assert.deepEqual(read("cat <<A && cat <<B\nB\nA\nA\nB").stages, ["cat 0:B\n", "cat 0:A\n"]);
  // The second body holding a command: data to `cat`, the line's commands as written.
  assert.deepEqual(read("cat <<A <<B | sort &\na\nA\nrm -rf ~\nB").stages, [
    "cat 0:a\n 0:rm -rf ~\n",
    "sort",
  ]);
  // Redirects after the heredocs keep their order (the later `0<` wins in bash).
  const order = analyze("cat <<A 0</dev/null &\na\nA").stages[0].redirects;
  assert.deepEqual(order.map((r) => r.kind), ["heredoc", "read"]);
});

Deno.test("moved lines: judged as bash runs them", async () => {
  await checkTable([
    // Unquoted bodies: their substitutions run, in any heredoc of the line.
    ["cat <<A <<B\nx\nA\n$(rm -rf ~)\nB", "deny", "deny"],
    ["cat <<'A' <<B &\n$(rm -rf ~)\nA\n$(cat ~/.ssh/id_rsa)\nB", "deny", "deny"],
    ["cat <<A && cat <<B\n$(rm -rf ~)\nA\nb\nB", "deny", "deny"],
    ['cat <<"E"OF <<B &\nx\nEOF\n`rm -rf ~`\nB', "deny", "deny"],
    // A shell reading the last heredoc of its standard input.
    ["bash <<A <<B\necho\nA\nrm -rf ~\nB", "deny", "deny"],
    ["bash <<'EOF' &\nrm -rf ~\nEOF", "deny", "deny"],
    ["sh <<A 3<<B &\nrm -rf ~\nA\nb\nB", "deny", "deny"],
    // The line's commands and redirects, wherever they stand.
    ["cat <<A <<B & rm -rf ~\na\nA\nb\nB", "deny", "deny"],
    ["cat <<A > ~/.ssh/authorized_keys &\nssh-rsa x\nA", "deny", "deny"],
    ["cat <<A <<B | bash &\na\nA\nrm -rf ~\nB", "deny", "deny"],
    ["(cat <<A; rm -rf ~)\na\nA", "deny", "deny"],
    ["case x in x) cat <<A <<B;;\nA\nB\nesac\nrm -rf ~", "deny", "deny"],
    // A delimiter in the first body: bash ends it later, the commands after still seen.
    ["cat <<A <<B &\nB\nA\nA\nB\nrm -rf ~", "deny", "deny"],
    // Not moved: still not known.
    ["cat <<A -n &\na\nA", "deny", "deny"],
    ["echo $(cat <<A) &\nrm -rf ~\nA", "deny", "deny"],
  ]);
  await checkEveryday([
    "cat <<A <<B\na\nA\nb\nB",
    "diff - /dev/fd/3 <<A 3<<B\na\nA\nb\nB",
    "cat <<'EOF' > notes.txt &\nhello\nEOF",
    "python3 - <<'EOF' &\nprint(1)\nEOF",
    "cat <<EOF & echo started\nx\nEOF",
    "cat <<A && cat <<B\na\nA\nb\nB",
    "(cat <<EOF)\nx\nEOF",
  ], denyList);
});
