import assert from "node:assert/strict";
import { xxdArgs, xxdReadsOnly } from "./xxd.ts";

Deno.test("xxd reads a word as one option named by its first letter, its value glued or next", () => {
  assert.deepEqual(xxdArgs(["-ps", "in", "out"]), { revert: false, operands: ["in", "out"] });
  assert.deepEqual(xxdArgs(["-bits", "in"]), { revert: false, operands: ["in"] });
  assert.deepEqual(xxdArgs(["-c8", "in"]), { revert: false, operands: ["in"] });
  assert.deepEqual(xxdArgs(["-cols", "8", "in"]), { revert: false, operands: ["in"] });
  assert.deepEqual(xxdArgs(["-c", "8", "-g1", "in"]), { revert: false, operands: ["in"] });
  assert.deepEqual(xxdArgs(["-capitalize", "-i", "in"]), { revert: false, operands: ["in"] });
  assert.deepEqual(xxdArgs(["--seek", "4", "in"]), { revert: false, operands: ["in"] });
  assert.deepEqual(xxdArgs(["-Ralways", "-n", "x", "in"]), { revert: false, operands: ["in"] });
  assert.deepEqual(xxdArgs(["-rp", "hex", "bin"]), { revert: true, operands: ["hex", "bin"] });
  assert.deepEqual(xxdArgs(["--revert", "hex"]), { revert: true, operands: ["hex"] });
  // The options end at the first operand, or `--`; a word not known may be an operand.
  assert.deepEqual(xxdArgs(["in", "-p"]), { revert: false, operands: ["in", "-p"] });
  assert.deepEqual(xxdArgs(["--", "-p"]), { revert: false, operands: ["-p"] });
  assert.deepEqual(xxdArgs([null, "f"]), { revert: false, operands: [null, "f"] });
  assert.equal(xxdArgs(["-x", "in"]), null);
});

Deno.test("xxd only reads with one operand (or `-` second) and no -r", () => {
  for (const args of [["in"], ["-ps", "in"], ["-l", "64", "in", "-"], ["-s", "-16", "in"], []]) {
    assert.ok(xxdReadsOnly(args), args.join(" "));
  }
  for (
    const args of [
      ["-ps", "in", "out"],
      ["-u", "-ps", "in", "out"],
      ["-Eo", "in", "out"],
      ["-r", "hex"],
      ["-revert", "hex"],
      [null, "out"],
      ["in", "out", "more"],
    ]
  ) {
    assert.ok(!xxdReadsOnly(args), args.join(" "));
  }
});
