import assert from "node:assert/strict";
import { binaryLiteral, gitHeaderNames, unquotedName } from "./git_patch_text.ts";

Deno.test("git patch text: names in C-style quotes", () => {
  assert.equal(unquotedName('"a/k\\tx"'), "a/k\tx");
  assert.equal(unquotedName('"a/\\"q\\"\\\\"'), 'a/"q"\\');
  // (Bytes above 0x7f in octal: UTF-8.)
  assert.equal(unquotedName('"a/caf\\303\\251"'), "a/café");
  assert.equal(unquotedName("a/plain name"), "a/plain name");
});

Deno.test("git patch text: the names of `diff --git`, spaces and quotes", () => {
  assert.deepEqual(gitHeaderNames("diff --git a/k b/k"), ["a/k", "b/k"]);
  assert.deepEqual(gitHeaderNames("diff --git a/k x b/k x"), ["a/k x", "b/k x"]);
  assert.deepEqual(gitHeaderNames("diff --git a/a b/c b/a b/c"), ["a/a b/c", "b/a b/c"]);
  assert.deepEqual(gitHeaderNames('diff --git "a/k\\tx" "b/k\\tx"'), ["a/k\tx", "b/k\tx"]);
  assert.deepEqual(gitHeaderNames('diff --git a/k "b/k\\tx"'), ["a/k", "b/k\tx"]);
  // (A rename of names with spaces: no split makes both the same; the last space.)
  assert.deepEqual(gitHeaderNames("diff --git a/f b/k y"), ["a/f b/k", "y"]);
  assert.equal(gitHeaderNames("diff -u a b"), null);
});

Deno.test("git patch text: a binary literal's content, and what cannot be read", () => {
  // (`/home/user/.ssh`, deflated and in base85, as `git diff --binary` writes it.)
  assert.equal(binaryLiteral(["literal 15", "Wc-qs?$j?pHFD*_j($_04&Hw-^+68g|"]), "/home/user/.ssh");
  assert.equal(binaryLiteral(["literal 0", "HcmV?d00001"]), "");
  assert.equal(binaryLiteral(["delta 15", "Wc-qs?$j?pHFD*_j($_04&Hw-^+68g|"]), null);
  // (A size that does not match, data not base85, a length letter that does not fit.)
  assert.equal(binaryLiteral(["literal 14", "Wc-qs?$j?pHFD*_j($_04&Hw-^+68g|"]), null);
  assert.equal(binaryLiteral(["literal 15", 'Wc-qs?$j?pHFD*_j($_04&Hw-^+68g"']), null);
  assert.equal(binaryLiteral(["literal 15", "Ac-qs?$j?pHFD*_j($_04&Hw-^+68g|"]), null);
  assert.equal(binaryLiteral(["literal 99999", "HcmV?d00001"]), null);
});
