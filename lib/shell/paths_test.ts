import assert from "node:assert/strict";
import { resolve } from "node:path";
import { expandToolPath, isWithin, resolveIn, resolveToolPath } from "./paths.ts";

Deno.test("tool paths resolve as pi resolves them", () => {
  assert.equal(expandToolPath("@src/a.ts", "/h"), "src/a.ts");
  assert.equal(expandToolPath("~", "/h"), "/h");
  assert.equal(expandToolPath("~/x", "/h"), "/h/x");
  assert.equal(expandToolPath("~x", "/h"), "~x");
  assert.equal(expandToolPath("a\u2003b\u00A0c", "/h"), "a b c");
  assert.equal(resolveToolPath("../b/./c", "/w/a", "/h"), "/w/b/c");
  assert.equal(resolveToolPath("/etc//x/../hosts", "/w", "/h"), "/etc/hosts");
  assert.equal(resolveToolPath("@~/notes", "/w", "/h"), "/h/notes");
});

Deno.test("isWithin matches whole path components", () => {
  assert.ok(isWithin("/a/b", "/a"));
  assert.ok(isWithin("/a", "/a"));
  assert.ok(!isWithin("/ab", "/a"));
  assert.ok(isWithin("/anything", "/"));
});

Deno.test("resolveIn: the same answer as path.resolve, quick for plain paths", () => {
  const dirs = ["/", "/work", "/work/a b", "/work/", "rel", "/a/../b"];
  const paths = [
    "x",
    "x/y.txt",
    "/abs/p",
    "/",
    "",
    ".",
    "..",
    "./x",
    "x/../y",
    "x//y",
    "x/",
    "/a/./b",
    "...",
    ".hidden",
    "a/.b",
    "~",
    "x/..",
  ];
  for (const d of dirs) {
    for (const p of paths) assert.equal(resolveIn(d, p), resolve(d, p), `${d} + ${p}`);
  }
});
