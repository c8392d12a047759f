import assert from "node:assert/strict";
import { globMatch, specificity } from "./glob.ts";

Deno.test("specificity counts literal characters before the first wildcard (spec table)", () => {
  assert.equal(specificity("git commit *"), 11);
  assert.equal(specificity("git *"), 4);
  assert.equal(specificity("*"), 0);
  assert.equal(specificity("github_create_pull_request"), 26);
  assert.equal(specificity("github_*"), 7);
  // The spec prints 8 for "rm -rf *"; by its own definition ("rm -rf " is 7 characters) it is 7.
  assert.equal(specificity("rm -rf *"), 7);
  assert.equal(specificity("rm *"), 3);
  assert.equal(specificity("grep *"), 5);
  assert.equal(specificity("a?c*"), 1);
});

Deno.test("* crosses spaces, slashes and newlines; ? is exactly one character", () => {
  assert.ok(globMatch("git *", "git commit -m x"));
  assert.ok(globMatch("rm *", "rm -rf /tmp/a b"));
  assert.ok(globMatch("echo *", "echo a\nb"));
  assert.ok(globMatch("ca?", "cat"));
  assert.ok(!globMatch("ca?", "ca"));
  assert.ok(!globMatch("ca?", "cats"));
});

Deno.test("globs are anchored at both ends: 'git *' does not match bare git", () => {
  assert.ok(!globMatch("git *", "git"));
  assert.ok(!globMatch("git *", "xgit status"));
  assert.ok(!globMatch("rm *", "echo rm x"));
  assert.ok(globMatch("bash", "bash"));
  assert.ok(!globMatch("bash", "bash2"));
});

Deno.test("regex metacharacters in globs are literal", () => {
  assert.ok(globMatch("a.b (c) [d] {e} $f ^g | h + i\\j", "a.b (c) [d] {e} $f ^g | h + i\\j"));
  assert.ok(!globMatch("a.b", "axb"));
  assert.ok(globMatch("* > *", "echo hi > /etc/x"));
});
