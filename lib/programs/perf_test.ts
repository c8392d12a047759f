/**
 * perf's nested `SUB record CMD` (perf.ts), nsenter's `-W` read both ways (util-linux before and
 * after 2.40) and unshare's `-l`/`--load-interp` (wrappers.ts): the command after them is the
 * program, not `record` or the option's value.
 */
import assert from "node:assert/strict";
import { literal } from "./words.ts";
import { perfSpecs } from "./perf.ts";
import { checkTable } from "../testing_adversarial.ts";

Deno.test("perfSpecs: the words before the command and whose options are read", () => {
  const specs = (cmd: string) => perfSpecs(cmd.split(" ").map(literal));
  assert.deepEqual(specs("perf sched record ls").map((s) => s.operands), [2]);
  assert.deepEqual(specs("perf kvm stat record ls").map((s) => s.operands), [3]);
  assert.deepEqual(specs("perf script record name ls").map((s) => s.operands), [3]);
  assert.deepEqual(specs("perf mem record ls").map((s) => s.operands), [2, 2]);
  assert.deepEqual(specs("perf stat -e cycles ls").map((s) => s.operands), [1]);
  assert.deepEqual(
    specs("perf stat record ls")[0].shortWithArg,
    specs("perf stat ls")[0].shortWithArg,
  );
});

Deno.test("perf SUB record, nsenter -W, unshare -l: the command after them is the program", async () => {
  await checkTable([
    ["perf sched record xargs -a list rm", "deny", "deny"],
    ["perf lock record -o out.data xargs -a list rm", "deny", "deny"],
    ["perf stat record -e cycles xargs -a list rm", "deny", "deny"],
    ["perf trace record xargs -a list rm", "deny", "deny"],
    ["perf kvm stat record xargs -a list rm", "deny", "deny"],
    ["perf kmem record xargs -a list rm", "deny", "deny"],
    ["perf script record syscall-counts xargs -a list rm", "deny", "deny"],
    // mem's -D and c2c's -u are flags there (record's take a value): both readings.
    ["perf mem record -D xargs -a list rm", "deny", "deny"],
    ["perf c2c record -u xargs -a list rm", "deny", "deny"],
    // nsenter -W: the next word its value (before 2.40) or the command (2.40+).
    ["nsenter -t 1 -W git -c core.pager='cat .e\\nv' log", "deny", "deny"],
    ["nsenter -t 1 --wdns xargs -a list rm", "deny", "deny"],
    ["nsenter -t 1 -W /srv xargs -a list rm", "deny", "deny"],
    ["unshare -l x xargs -a list rm", "deny", "deny"],
    ["unshare --load-interp x xargs -a list rm", "deny", "deny"],
    // Everyday.
    ["perf sched record -o out.data ls", "deny", "allow"],
    ["perf stat -e cycles ls", "deny", "allow"],
    ["nsenter -t 1 -m ls", "deny", "allow"],
  ]);
});
