/** The seven questions sent with every eval: RULINGS ids, types and labels. */
import assert from "node:assert/strict";
import { QUESTIONS } from "./evals_questions.ts";
import { EVAL_RULES } from "./evals_rules.ts";

Deno.test("evals: the seven questions carry the RULINGS ids, types and labels", () => {
  assert.deepEqual(Object.keys(QUESTIONS).sort(), [
    "destructive",
    "exec",
    "inference_call",
    "network",
    "obfuscated",
    "read_scope",
    "write_scope",
  ]);
  for (const id of ["destructive", "network", "exec", "obfuscated", "inference_call"]) {
    assert.equal(QUESTIONS[id].type, "noul");
    assert.ok(QUESTIONS[id].instructions.length > 100);
  }
  const w = QUESTIONS.write_scope;
  const r = QUESTIONS.read_scope;
  assert.ok(w.type === "choice" && r.type === "choice");
  if (w.type !== "choice" || r.type !== "choice") return;
  assert.deepEqual(Object.keys(w.criteria), [
    "none",
    "temp",
    "within",
    "outside",
    "sensitive_system",
    "unknown",
  ]);
  assert.deepEqual(Object.keys(r.criteria), ["none", "ordinary", "sensitive", "unknown"]);
  const ids = EVAL_RULES.map((x) => x.id);
  assert.equal(new Set(ids).size, ids.length, "rule ids are unique");
  const firstAsk = EVAL_RULES.findIndex((x) => x.action === "ask");
  assert.ok(EVAL_RULES.slice(0, firstAsk).every((x) => x.action === "deny"), "denies first");
});
