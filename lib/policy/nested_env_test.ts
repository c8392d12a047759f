import assert from "node:assert/strict";
import { configFrom, ctxIn } from "../testing.ts";
import { decide } from "./engine.ts";
import { loadBashParser } from "../shell/parser.ts";
import { changedNames } from "./nested_env.ts";

const parser = await loadBashParser();
const home = "/home/user";
/** Allow by default, the home's keys denied (a nested text read with the tool's TMPDIR passes). */
const OPEN = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { "~/.ssh/**": "deny" },
}, { home, agentDir: `${home}/.pi/agent` });
const ctx = ctxIn("/p", {
  files: ["/p/src/a.ts", `${home}/.ssh/id_rsa`, "/tmp/x"],
  home,
  env: { TMPDIR: "/tmp" },
});

/** The verdict and the commands of its stages. */
function decided(command: string) {
  const v = decide(OPEN, { tool: "bash", input: { command } }, ctx, { parser, explain: true });
  return { action: v.action, stages: (v.stages ?? []).map((s) => s.command ?? "") };
}

Deno.test("changedNames: the expandable names a text names, and CDPATH where a cd may follow it", () => {
  assert.deepEqual([...changedNames("export TMP\\DIR=/x; cd a")], ["TMPDIR"]);
  assert.deepEqual([...changedNames("shopt -s cdable_vars")], ["CDPATH"]);
  assert.deepEqual([...changedNames("ls -la")], []);
});

Deno.test("a nested text sees no tool value of a variable the command around it changes", () => {
  const rows = [
    "TMPDIR=/home/user; eval 'cat $TMPDIR/.ssh/id_rsa'",
    'TMPDIR=/home/user; eval "cat \\$TMPDIR/.ssh/id_rsa"',
    "export TMPDIR=/home/user; bash -c 'cat $TMPDIR/.ssh/id_rsa'",
    "TMPDIR=/home/user sh -c 'cat $TMPDIR/.ssh/id_rsa'",
    "declare -x TMPDIR=/home/user; bash -c 'cat $TMPDIR/.ssh/id_rsa'",
    "read TMPDIR; bash -c 'cat $TMPDIR/.ssh/id_rsa'",
    "env TMPDIR=/home/user bash -c 'cat $TMPDIR/.ssh/id_rsa'",
    "for TMPDIR in /home/user; do bash -c 'cat $TMPDIR/.ssh/id_rsa'; done",
    "set -a; TMPDIR=/home/user; bash -c 'cat $TMPDIR/.ssh/id_rsa'",
    "TMPDIR=/home/user; trap 'cat $TMPDIR/.ssh/id_rsa' EXIT",
    "TMPDIR=/home/user; echo x | xargs sh -c 'cat $TMPDIR/.ssh/id_rsa'",
    "export TMPDIR=/home/user; find . -exec sh -c 'cat $TMPDIR/.ssh/id_rsa' \\;",
    "export TMPDIR=/home/user; timeout 5 sudo sh -c 'cat $TMPDIR/.ssh/id_rsa'",
    // (Two levels down: what the middle text changes.)
    "bash -c 'export TMPDIR=/home/user; bash -c \"cat \\$TMPDIR/.ssh/id_rsa\"'",
  ];
  for (const command of rows) {
    const { action, stages } = decided(command);
    assert.ok(!stages.includes("cat /tmp/.ssh/id_rsa"), command);
    assert.ok(stages.includes("cat $TMPDIR/.ssh/id_rsa"), command);
    assert.notEqual(action, "allow", command);
  }
});

Deno.test("a variable unset, cleared or moved for a nested text is not known there", () => {
  for (
    const command of [
      "env -u TMPDIR bash -c 'cat $TMPDIR/.ssh/id_rsa'",
      "unset TMPDIR; bash -c 'cat $TMPDIR/.ssh/id_rsa'",
      "env -i bash -c 'cat $TMPDIR/.ssh/id_rsa'",
      "env - sh -c 'cat $TMPDIR/.ssh/id_rsa'",
      "env --ignore-environment bash -c 'cat $TMPDIR/.ssh/id_rsa'",
      "env -i -S 'bash -c \"cat \\$TMPDIR/.ssh/id_rsa\"'",
      "export PWD=/home/user; bash -c 'cat $PWD/.ssh/id_rsa'",
      "PWD=/home/user; eval 'cat $PWD/.ssh/id_rsa'",
      "export CDPATH=/home/user; bash -c 'cd .ssh && cat id_rsa'",
      "export CDPATH=/home/user; eval 'cd .ssh && cat id_rsa'",
    ]
  ) assert.notEqual(decided(command).action, "allow", command);
});

Deno.test("nested texts of everyday commands keep the values they are known by", () => {
  for (
    const [command, stage] of [
      ["cd src && bash -c 'ls $PWD'", "ls /p/src"],
      ["bash -c 'ls $TMPDIR'", "ls /tmp"],
      ["eval 'ls $TMPDIR/x'", "ls /tmp/x"],
      ["export NODE_ENV=test && sh -c 'ls ~'", `ls ${home}`],
      ["find . -name '*.ts' -exec sh -c 'ls $PWD' \\;", "ls /p"],
    ]
  ) {
    const { action, stages } = decided(command);
    assert.equal(action, "allow", command);
    assert.ok(stages.includes(stage), `${command}: ${stages}`);
  }
});
