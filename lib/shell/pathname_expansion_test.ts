/** Pathname expansion over FsFacts, as bash expands a glob word. */
import assert from "node:assert/strict";
import { fakeFs } from "../policy/fs_facts.ts";
import type { FsFacts } from "../types.ts";
import {
  expandPathname,
  GLOB_BOUNDS,
  type GlobOptions,
  globOptions,
  literalPattern,
} from "./pathname_expansion.ts";

const fs = fakeFs({
  files: [
    "/p/a.ts",
    "/p/b.ts",
    "/p/A.TS",
    "/p/.env",
    "/p/.hidden/x",
    "/p/src/m.ts",
    "/p/src/n.py",
    "/p/sub/one/connect.py",
    "/p/sub/two/connect.py",
    "/p/sub/three/other.py",
    "/p/a*b",
    "/p/deep/x/y/key.pem",
  ],
  links: { "/p/lnk": "/p/sub/one", "/p/dangling": "/nowhere/file" },
});

/** The words a pattern expands to in /p, or the kind of result when none. */
function expand(pattern: string, opts: GlobOptions = {}, on: FsFacts = fs): string[] | string {
  const r = expandPathname(pattern, "/p", on, opts);
  return r.kind === "matches" ? r.words : r.kind;
}

Deno.test("expansion: *, ?, brackets and classes match names of one directory", () => {
  const cases: [string, string[] | string][] = [
    ["*.ts", ["a.ts", "b.ts"]],
    ["?.ts", ["a.ts", "b.ts"]],
    ["[ab].ts", ["a.ts", "b.ts"]],
    ["[!a].ts", ["b.ts"]],
    ["[^a].ts", ["b.ts"]],
    ["[[:lower:]].ts", ["a.ts", "b.ts"]],
    ["[[:upper:]].*", ["A.TS"]],
    ["[a-b].ts", ["a.ts", "b.ts"]],
    ["*.rs", "none"],
    // A match never crosses `/`.
    ["s*m.ts", "none"],
    ["src/*", ["src/m.ts", "src/n.py"]],
    ["sub/*/connect.py", ["sub/one/connect.py", "sub/two/connect.py"]],
    ["*/connect.py", ["lnk/connect.py"]],
    ["/p/src/*.ts", ["/p/src/m.ts"]],
    ["src/../*.ts", ["src/../a.ts", "src/../b.ts"]],
    // A trailing slash keeps directories.
    ["s*/", ["src/", "sub/"]],
    // An unclosed bracket is literal.
    ["[a", "none"],
    // A directory that does not exist: no match.
    ["missing/*", "none"],
    // A dangling link is a name too.
    ["dang*", ["dangling"]],
  ];
  for (const [pattern, want] of cases) assert.deepEqual(expand(pattern), want, pattern);
});

Deno.test("expansion: quoted and escaped glob characters are literal", () => {
  assert.deepEqual(expand(literalPattern("a*") + "*"), ["a*b"]);
  assert.deepEqual(expand("a\\*b"), ["a*b"]);
  assert.deepEqual(expand(literalPattern("[ab].ts")), "none");
  assert.equal(literalPattern("a*?[x]"), "a\\*\\?\\[x\\]");
});

Deno.test("expansion: names starting with `.` only for a component starting with `.`", () => {
  assert.deepEqual(expand("*"), [
    "A.TS",
    "a*b",
    "a.ts",
    "b.ts",
    "dangling",
    "deep",
    "lnk",
    "src",
    "sub",
  ]);
  assert.deepEqual(expand(".e*"), [".env"]);
  assert.deepEqual(expand("\\.e*"), [".env"]);
  // (`.` and `..` as older bash gives them: one more path judged.)
  assert.deepEqual(expand(".*"), [".", "..", ".env", ".hidden"]);
  assert.deepEqual(expand("?env"), "none");
  assert.deepEqual(expand("?env", { dotglob: true }), [".env"]);
  assert.ok((expand("*", { dotglob: true }) as string[]).includes(".hidden"));
});

Deno.test("expansion: globstar, nocaseglob and extglob only when set", () => {
  assert.deepEqual(expand("**/*.pem"), "none");
  assert.deepEqual(expand("**/*.pem", { globstar: true }), ["deep/x/y/key.pem"]);
  assert.deepEqual(expand("**/connect.py", { globstar: true }), [
    "lnk/connect.py",
    "sub/one/connect.py",
    "sub/two/connect.py",
  ]);
  assert.deepEqual(expand("*.TS"), ["A.TS"]);
  assert.deepEqual(expand("*.TS", { nocaseglob: true }), ["A.TS", "a.ts", "b.ts"]);
  assert.deepEqual(expand("src/*.@(ts|py)", { extglob: true }), ["src/m.ts", "src/n.py"]);
  assert.deepEqual(expand("src/+([a-z]).ts", { extglob: true }), ["src/m.ts"]);
  assert.equal(expand("!(a).ts", { extglob: true }), "fallback");
  assert.equal(expand("*.@(ts|py)"), "fallback");
});

Deno.test("expansion: braces, bounds and unreadable directories fall back", () => {
  assert.equal(expand("src/{a,b}/*.ts"), "fallback");
  const files = Array.from({ length: GLOB_BOUNDS.entries + 1 }, (_, i) => `/p/big/f${i}`);
  const big = fakeFs({ files });
  assert.equal(expand("big/f1*", {}, big), "fallback");
  const dirs = Array.from({ length: GLOB_BOUNDS.listings + 1 }, (_, i) => `/p/d${i}/x`);
  assert.equal(expand("*/x*", {}, fakeFs({ files: dirs })), "fallback");
  const locked: FsFacts = { ...fs, entries: (d) => (d === "/p/src" ? null : fs.entries!(d)) };
  assert.equal(expand("src/*.ts", {}, locked), "fallback");
  assert.deepEqual(expand("*.ts", {}, locked), ["a.ts", "b.ts"]);
  const unlisted: FsFacts = { realpath: fs.realpath, exists: fs.exists };
  assert.equal(expand("*.ts", {}, unlisted), "fallback");
});

const WIDE = { dotglob: true, nocaseglob: true, globstar: true, extglob: true };

Deno.test("glob options: set anywhere in the command, any widening one for a word not known", () => {
  assert.deepEqual(globOptions("cat *", []), {});
  assert.deepEqual(globOptions("shopt -s dotglob nullglob; cat *", []), {
    dotglob: true,
    nullglob: true,
  });
  assert.deepEqual(globOptions("bash -O globstar -c 'cat **'", []), { globstar: true });
  assert.deepEqual(globOptions("GLOBIGNORE=x; cat *", []), { dotglob: true });
  assert.deepEqual(globOptions("cat *", [], { GLOBIGNORE: "x" }), { dotglob: true });
  assert.deepEqual(globOptions("cat *", [], { BASH_ENV: "/p/env.sh" }), WIDE);
  const dynamic = {
    argv: [
      { value: "shopt", kind: "static" as const, prefix: "shopt", text: "shopt" },
      { value: "-s", kind: "static" as const, prefix: "-s", text: "-s" },
      { value: "$o", kind: "dynamic" as const, prefix: "", text: "$o" },
    ],
    redirects: [],
    text: "shopt -s $o",
    origin: "top",
    cwds: ["/p"],
  };
  assert.deepEqual(globOptions("shopt -s $o; cat *", [dynamic]), WIDE);
});
