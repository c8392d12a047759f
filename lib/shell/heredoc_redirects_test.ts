/** Redirects after a heredoc start, before a pipe: the command's own, in an order bash keeps. */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { checkEveryday, checkTable, denyList } from "../testing_adversarial.ts";
import { analyze, parser } from "./analyze_testing.ts";
import { heredocRedirectOrder } from "./heredoc_redirects.ts";

/** The argv of each stage, its redirects, and the analysis's error. */
function read(command: string): { error: string | null; stages: string[] } {
  const a = analyze(command);
  return {
    error: a.error,
    stages: a.stages.map((s) =>
      [...s.argv.map((w) => w.value), ...s.redirects.map((r) => `${r.op}${r.target?.value ?? ""}`)]
        .join(" ")
    ),
  };
}

/** The source the repair parses a command as (the command itself where it moves nothing). */
function moved(command: string): string {
  const tree = parser.parse(command)!;
  try {
    const order = heredocRedirectOrder(tree.rootNode, command);
    return order?.kind === "moved" ? order.source : order?.kind ?? command;
  } finally {
    tree.delete();
  }
}

Deno.test("redirects after a heredoc start are the command's, and the pipe after them is read", () => {
  const py = read("python3 - <<'EOF' 2>&1 | tail -5\nprint(1)\nEOF");
  assert.deepEqual(py, { error: null, stages: ["python3 - 2>& <<", "tail -5"] });
  assert.deepEqual(read("cat <<EOF >out.txt | head\nhi\nEOF").stages, [
    "cat >out.txt <<",
    "head",
  ]);
  // `<<-`, several redirects (their order kept), `|&`, and what follows the pipe.
  assert.deepEqual(read("cat <<-EOF >o 2>&1 |& tee log && ls\n\thi\n\tEOF").stages, [
    "cat >o 2>& <<-",
    "tee log",
    "ls",
  ]);
  assert.deepEqual(read("cat <<EOF &>log | head || echo no\nhi\nEOF").stages, [
    "cat &>log <<",
    "head",
    "echo no",
  ]);
  // In a list, a pipeline's middle, a substitution; the lone `-` kept after a list.
  assert.deepEqual(read("cd src && python3 - <<'EOF' 2>/dev/null | tail\nx\nEOF").stages, [
    "cd src",
    "python3 - 2>/dev/null <<",
    "tail",
  ]);
  assert.deepEqual(read("echo x | cat <<EOF 2>/dev/null | wc -l\nhi\nEOF").stages, [
    "echo x",
    "cat 2>/dev/null <<",
    "wc -l",
  ]);
  const sub = read('a=$(cat <<EOF 2>/dev/null | head -1\nhi\nEOF\n)\necho "$a"');
  assert.equal(sub.error, null);
  assert.deepEqual(sub.stages.slice(0, 2), ["cat 2>/dev/null <<", "head -1"]);
  // The text moves within the line (same length): the bodies stay where they were.
  assert.equal(moved("cat <<E  2>&1 | x\nb\nE"), "cat 2>&1 <<E  | x\nb\nE");
  assert.equal(moved('cat 3<<E >"$LOG" | x\nb\nE'), 'cat >"$LOG" 3<<E | x\nb\nE');
});

Deno.test("hostile: where the order matters or cannot be seen, the command is not known", () => {
  // A redirect of the descriptor the heredoc feeds (or a copy of it) would read otherwise.
  for (
    const c of [
      "cat <<EOF 0</etc/passwd | head\nx\nEOF",
      "cat <<EOF <&3 | head\nx\nEOF",
      "cat <<EOF 2<&0 | head\nx\nEOF",
      "cat <<EOF >&0 | head\nx\nEOF",
      "cat <<EOF <<<x | head\nx\nEOF",
      "cat 3<<EOF 3>&- | head\nx\nEOF",
    ]
  ) {
    assert.match(moved(c), /^error$/, c);
    assert.ok(read(c).error, c);
  }
  // A substitution in a moved word, words after the redirects, a real syntax error: nothing is
  // moved. (Two heredocs on a line are heredoc_lines.ts's.)
  for (
    const c of [
      "cat <<EOF 2>$(rm -rf ~) | head\nx\nEOF",
      "cat <<EOF 2>`rm x` | head\nx\nEOF",
      'cat <<EOF 2>"${L:=x}" | head\nx\nEOF',
      "cat <<EOF 2>&1 --force | head\nx\nEOF",
      "cat <<EOF 2>&1 | | head\nx\nEOF",
    ]
  ) {
    assert.ok(read(c).error, c);
  }
});

Deno.test("bash runs the moved redirects as written", () => {
  if (spawnSync("bash", ["-c", "true"]).status !== 0) return;
  for (
    const c of [
      "cat <<EOF 2>&1 | tr a b\nabc\nEOF",
      "cat - <<'EOF' >/dev/stderr 2>&1 | tr a b\nabc\nEOF",
      "sh <<'EOF' 2>&1 | sort\necho a; echo b >&2\nEOF",
      "cat 3<<EOF 2>/dev/null | tr a b\nabc\nEOF",
    ]
  ) {
    const run = (s: string) => spawnSync("bash", ["-c", s], { encoding: "utf8" });
    const [a, b] = [run(c), run(moved(c))];
    assert.notEqual(moved(c), c, c);
    assert.deepEqual([b.stdout, b.stderr], [a.stdout, a.stderr], c);
  }
});

Deno.test("heredocs with redirects before a pipe: judged as bash runs them", async () => {
  await checkTable([
    // The body is still the shell's standard input: its commands are judged.
    ["bash <<'EOF' 2>&1 | tail\nrm -rf ~\nEOF", "deny", "deny"],
    ["sh <<EOF 2>/dev/null | cat\ncat ~/.ssh/id_rsa\nEOF", "deny", "deny"],
    // A lone `-` after a list is the shell's argument: it runs the body.
    ["true && bash - <<'EOF'\nrm -rf ~\nEOF", "deny", "deny"],
    // The stage after the pipe as usual.
    ["cat <<'EOF' 2>&1 | sh\nrm -rf ~\nEOF", "deny", "deny"],
    ["cat <<'EOF' 2>/dev/null | bash\ncat .env\nEOF", "deny", "deny"],
    ["cat <<'EOF' 2>/dev/null | xargs rm -rf ~\nx\nEOF", "deny", "deny"],
    // The moved redirects' own targets.
    ["cat <<EOF >~/.ssh/authorized_keys | head\nx\nEOF", "deny", "deny"],
    ["cat <<EOF 2>.env | head\nx\nEOF", "deny", "deny"],
    ["cat <<EOF 0<.env | head\nx\nEOF", "deny", "deny"],
  ]);
  await checkEveryday([
    "python3 - <<'EOF' 2>&1 | tail -5\nprint(1)\nEOF",
    "python3 <<EOF 2>&1 | head\nprint(1)\nEOF",
    "node <<'EOF' 2>&1 | head -20\nconsole.log(1)\nEOF",
    "cd /tmp && python3 - <<'EOF' 2>/dev/null | tail\nprint(1)\nEOF",
    "cat <<'EOF' 2>&1 | grep -c x\nx\nEOF",
  ], denyList);
  await checkEveryday([
    "cat <<'EOF' 2>&1 | grep -c x\nx\nEOF",
    "cat <<EOF 2>/dev/null | wc -l\nx\nEOF",
  ]);
});
