/** Redirects, heredocs and herestrings as bash reads them. */
import assert from "node:assert/strict";
import { isFileTarget } from "./model.ts";
import { analyze, commands, NL, stage, stagesOf } from "./analyze_testing.ts";
import { checkTable } from "../testing_adversarial.ts";

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
  assert.equal(stage("echo > $(echo f)", "echo > $(echo f)").redirects[0].target!.kind, "dynamic");
});

Deno.test("a heredoc's operator keeps its file descriptor; one read as an argument is an error", () => {
  const doc = stagesOf(`cat 3<<'E'${NL}x${NL}E`).find((s) => s.origin === "top")!.redirects[0];
  assert.deepEqual([doc.op, doc.kind], ["3<<", "heredoc"]);
  for (const cmd of ["bash 0<<<'rm -rf x'", "cat 0<<<x", `cat 0<<E${NL}x${NL}E`]) {
    assert.ok(analyze(cmd).error, cmd);
  }
  assert.equal(analyze("cat a0<<<x").error, null);
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
