/**
 * A test helper run as a process of its own: saves approval rules one by one into a config file,
 * starting when told to, so that several processes save at once (see approvals_test.ts).
 *
 * Usage: testing_save_worker.ts FILE NAME COUNT BARRIER_DIR. It creates BARRIER_DIR/NAME.ready,
 * waits for BARRIER_DIR/go, then saves COUNT rules `{ tool: "bash", pattern: "NAME jobJ *" }`.
 *
 * @module
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { saveApprovalRules } from "./approvals.ts";

const [file, name, count, barrier] = process.argv.slice(2);
writeFileSync(join(barrier, `${name}.ready`), "");
const until = Date.now() + 30_000;
while (!existsSync(join(barrier, "go"))) {
  if (Date.now() > until) throw new Error(`${name}: never told to start`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
}
for (let j = 0; j < Number(count); j++) {
  saveApprovalRules(file, [{
    action: "allow",
    tool: "bash",
    pattern: `${name} job${j} *`,
    policy: "p",
  }], { timeoutMs: 120_000 }); // (200 saves in turn on a loaded machine take more than 5 s)
}
