import assert from "node:assert/strict";
import {
  isStricter,
  PROTECTION_RANK,
  RESTRICTIVENESS,
  stricter,
  strictest,
  TIE_BREAK,
} from "./action.ts";
import type { Action } from "../types.ts";

const ORDER: Action[] = ["allow", "nudge", "log", "sandbox", "ask", "deny"];

Deno.test("action order: deny > ask > sandbox > log > nudge > allow, and strictest is a max over it", () => {
  for (let i = 0; i < ORDER.length; i++) {
    for (let j = 0; j < ORDER.length; j++) {
      const [a, b] = [ORDER[i], ORDER[j]];
      assert.equal(stricter(a, b), ORDER[Math.max(i, j)], `${a} vs ${b}`);
      assert.equal(isStricter(a, b), i > j);
    }
  }
  assert.equal(strictest([]), "allow");
  assert.equal(strictest(["log", "nudge", "allow"]), "log");
  assert.equal(strictest(["ask", "deny", "log"]), "deny");
  assert.deepEqual(ORDER.map((a) => RESTRICTIVENESS[a]), [0, 1, 2, 3, 4, 5]);
});

Deno.test("action order: ties between equal rules go to the least disruptive, log last", () => {
  const byTie = [...ORDER].sort((a, b) => TIE_BREAK[a] - TIE_BREAK[b]);
  assert.deepEqual(byTie, ["allow", "nudge", "sandbox", "ask", "deny", "log"]);
});

Deno.test("action order: pathProtection ranks follow the same order", () => {
  assert.ok(
    PROTECTION_RANK.log < PROTECTION_RANK.ask && PROTECTION_RANK.ask < PROTECTION_RANK.deny,
  );
});
