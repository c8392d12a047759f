/** Redirects, heredocs and herestrings as bash reads them. */
import assert from "node:assert/strict";
import { isFileTarget } from "./model.ts";
import { analyze, commands, NL, stage, stagesOf } from "./analyze_testing.ts";
import { adversarialCtx, checkTable, gateFiles } from "../testing_adversarial.ts";
import { checkActions } from "../testing.ts";

Deno.test("commands after a heredoc start on the same line are stages", () => {
  assert.deepEqual(commands(`cat <<EOF | sh${NL}rm -rf /${NL}EOF`), ["cat", "sh"]);
  assert.deepEqual(commands(`cat <<EOF | a | b${NL}EOF`), ["a", "b", "cat"]);
  assert.deepEqual(commands(`cat <<EOF && rm x${NL}EOF`), ["cat", "rm x"]);
  assert.deepEqual(commands(`cat <<EOF || rm x${NL}EOF`), ["cat", "rm x"]);
  // A redirect after the heredoc start belongs to the command.
  assert.deepEqual(commands(`cat <<EOF > /etc/passwd${NL}root${NL}EOF`), ["cat > /etc/passwd"]);
  assert.deepEqual(commands(`cat <<EOF >> /etc/a 2>/etc/b${NL}x${NL}EOF`), [
    "cat >> /etc/a 2> /etc/b",
  ]);
});

Deno.test("heredoc and herestring bodies are decoded like words", () => {
  const body = (cmd: string) => stagesOf(cmd).find((s) => s.origin === "top")!.redirects[0];
  const doc = body(`bash <<'EOF'${NL}rm -rf /${NL}EOF`);
  assert.deepEqual([doc.op, doc.kind, doc.target], ["<<", "heredoc", null]);
  assert.deepEqual([doc.body?.value, doc.body?.kind], ["rm -rf /\n", "static"]);
  // Quoted: nothing expands. Unquoted: known variables expand, `\$` is a dollar, unknowns are
  // dynamic (the known text before them is the prefix).
  assert.equal(body(`cat <<'EOF'${NL}$HOME \\$x${NL}EOF`).body?.value, "$HOME \\$x\n");
  assert.deepEqual(body(`cat <<EOF${NL}$HOME \\$x${NL}EOF`).body, {
    value: "/home/u $x\n",
    kind: "static",
    prefix: "/home/u $x\n",
    text: "$HOME \\$x\n",
  });
  const dyn = body(`cat <<EOF${NL}a $HOME \`id\` $(id) b${NL}EOF`).body!;
  assert.deepEqual([dyn.kind, dyn.prefix], ["dynamic", "a /home/u "]);
  assert.equal(body(`cat <<-EOF${NL}\tx${NL}\tEOF`).body?.value, "x\n");
  const str = body("bash <<< 'rm -rf /'");
  assert.deepEqual([str.op, str.kind, str.body?.value, str.body?.kind], [
    "<<<",
    "herestring",
    "rm -rf /",
    "static",
  ]);
  assert.equal(body("bash <<< $CODE").body?.kind, "dynamic");
});

Deno.test("redirects: file targets, fd duplication and device files", () => {
  const s = stage(
    "echo a > f >> g 2> h &> i &>> j >| k < l <> m 3<> n >& o",
    "echo a > f >> g 2> h &> i &>> j >| k < l <> m 3<> n >& o",
  );
  assert.deepEqual(
    s.redirects.map((r) => [r.op, r.kind, r.target?.value]),
    [
      [">", "write", "f"],
      [">>", "write", "g"],
      ["2>", "write", "h"],
      ["&>", "write", "i"],
      ["&>>", "write", "j"],
      [">|", "write", "k"],
      ["<", "read", "l"],
      ["<>", "write", "m"],
      ["3<>", "write", "n"],
      [">&", "write", "o"],
    ],
  );
  assert.ok(s.redirects.every(isFileTarget));
  const dup = stage("echo a 2>&1 >&2 >&- 3<&0 <&-", "echo a");
  assert.deepEqual(dup.redirects.map((r) => [r.op, r.kind]), [
    ["2>&", "dup"],
    [">&", "dup"],
    [">&-", "dup"],
    ["3<&", "dup"],
    ["<&-", "dup"],
  ]);
  assert.ok(!dup.redirects.some(isFileTarget));
  const dev = stage(
    "echo a > /dev/null 2>/dev/stderr >/dev/stdout </dev/stdin >/dev/fd/3 >/dev/tty",
    "echo a",
  );
  assert.equal(dev.redirects.length, 6);
  assert.ok(!dev.redirects.some(isFileTarget));
  // Expansions in targets: known ones expand, unknown ones stay visible.
  assert.equal(stage("echo >$HOME/x", "echo > /home/u/x").redirects[0].target!.kind, "static");
  assert.equal(stage("echo > $(f)", "echo > $(f)").redirects[0].target!.kind, "dynamic");
  assert.equal(stage("echo > $(echo f)", "echo > f").redirects[0].target!.kind, "static");
});

Deno.test("a heredoc's operator keeps its file descriptor; one read as an argument is an error", () => {
  const doc = stagesOf(`cat 3<<'E'${NL}x${NL}E`).find((s) => s.origin === "top")!.redirects[0];
  assert.deepEqual([doc.op, doc.kind], ["3<<", "heredoc"]);
  for (const cmd of ["bash 0<<<'rm -rf x'", "cat 0<<<x", `cat 0<<E${NL}x${NL}E`]) {
    assert.ok(analyze(cmd).error, cmd);
  }
  assert.equal(analyze("cat a0<<<x").error, null);
});

Deno.test("a here-string after another redirect is one, as bash reads it (tree-sitter splits it)", async () => {
  const of = (cmd: string) => {
    const a = analyze(cmd);
    const s = a.stages.find((s) => s.origin === "top")!;
    return [a.error, s.redirects.map((r) => [r.op, r.kind, r.target?.value ?? r.body?.value])];
  };
  assert.deepEqual(of("cat > src/a.ts <<<'export const x = 1;'"), [null, [
    [">", "write", "src/a.ts"],
    ["<<<", "herestring", "export const x = 1;"],
  ]]);
  assert.deepEqual(of('cat 2>/dev/null <<< "$HOME" | wc -l'), [null, [
    ["2>", "write", "/dev/null"],
    ["<<<", "herestring", "/home/u"],
  ]]);
  assert.deepEqual(of("cat >f <<<a >g")[1], [
    [">", "write", "f"],
    ["<<<", "herestring", "a"],
    [">", "write", "g"],
  ]);
  // A descriptor glued to it, or words tree-sitter reads as more destinations: not repaired.
  for (const cmd of ["cat > f 0<<<x", "cat > f <<< a b"]) assert.ok(analyze(cmd).error, cmd);
  // deno-fmt-ignore
  await checkTable([
    ["cat > notes.txt <<<'x'", "deny", "allow"],
    ["cat 2>/dev/null <<<'x'", "allow", "allow"],
    ["bash 2>/dev/null <<<'rm -rf src'", "deny", "deny"],
    ["sh >/dev/null <<<'cat keys/id_rsa'", "deny", "deny"],
    ["cat > out.txt <<< \"$(cat keys/id_rsa)\"", "deny", "deny"],
    ["cat > keys/authorized_keys <<<'ssh-rsa AAA'", "deny", "deny"],
    // Two of fd 0: either may be the input.
    ["bash 2>/dev/null <<<'ls' <<<'rm -rf src'", "deny", "deny"],
    ["bash > f < notes.txt <<<'rm -rf src'", "deny", "deny"],
  ]);
  // The gate's own files, written so, ask.
  await checkActions(gateFiles, adversarialCtx, [
    ["cat > .pi/settings.json <<<'{}'", "ask"],
    ["cat >> /home/user/.pi/agent/settings.json <<< '{}'", "ask"],
    ["cat > src/config.ts <<<'export const x = 1;'", "allow"],
  ]);
});

Deno.test("a case's redirects open their files whether an arm with a command runs or not", async () => {
  await checkTable([
    ["case x in *) ;; esac >.pi/settings.json; echo", "deny", "allow"],
    ["case x in esac >.env", "deny", "deny"],
    ["case x in y) ;; esac >.env", "deny", "deny"],
    ["case x in y) ;; esac 2>.env", "deny", "deny"],
    ["case x in *) case y in *) ;; esac >.env;; esac", "deny", "deny"],
    ["case x in *) ;; esac <.env", "deny", "deny"],
    ['case "$1" in start) echo go;; *) echo no;; esac', "allow", "allow"],
  ]);
});

Deno.test("redirects hung on a list are decoded where its last command runs", () => {
  // tree-sitter hangs `> "$X"` on the whole list; bash opens it for `ls`, after `X=` ran.
  const target = (cmd: string, s: string) =>
    stage(cmd, s).redirects.map((r) => `${r.target?.kind} ${r.target?.value}`);
  assert.deepEqual(target('X=/a; X=/b && ls > "$X"', "ls > /b"), ["static /b"]);
  assert.deepEqual(target('X=/a; X=/b && ls | sort > "$X"', "sort > /b"), ["static /b"]);
  assert.deepEqual(target('X=/a; X=/b && ls && echo 2> "${X}"', "echo 2> /b"), ["static /b"]);
  assert.deepEqual(target('cd /tmp && echo > "$PWD/x"', "echo > /tmp/x"), ["static /tmp/x"]);
  assert.deepEqual(target('X=/b && sort < "$X"', "sort < /b"), ["static /b"]);
  // What is not a plain variable is decoded once, where the statement is.
  assert.deepEqual(target('X=/b && ls > "$(echo $X)"', "ls > $(echo $X)"), [
    "dynamic $(echo $X)",
  ]);
});
