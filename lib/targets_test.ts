import assert from "node:assert/strict";
import { analyzeBash } from "./bash.ts";
import { loadBashParser } from "./bash_parser.ts";
import { fakeFs } from "./fs_facts.ts";
import { stageTargets, type Target, toolTargets } from "./targets.ts";
import type { Context } from "./types.ts";

const parser = await loadBashParser();
const SHOT = "/proj/Shot 1.02.03\u202FPM.png";
const ctx: Context = {
  cwd: "/proj",
  home: "/home/u",
  env: { HOME: "/home/u", TMPDIR: "/tmp" },
  fs: fakeFs({ files: ["/proj/exists", "/proj/src/a.ts", SHOT] }),
};

/** Targets as `reach path` strings (`kind` too when asked), sorted. */
function show(targets: Target[], withKind = false): string[] {
  return targets.map((t) => `${withKind ? t.kind + " " : ""}${t.reach} ${t.path}`).sort();
}

function tool(name: string, input: Record<string, unknown>, withKind = false): string[] {
  return show(toolTargets({ tool: name, input }, ctx), withKind);
}

/** The targets of every stage of a bash command, minus the cwd ones. */
function bash(command: string, withKind = false): string[] {
  const a = analyzeBash(command, ctx, parser);
  assert.equal(a.error, null, command);
  const all = a.stages.flatMap((s) => stageTargets(s, ctx)).filter((t) => t.kind !== "cwd");
  return show(all, withKind);
}

Deno.test("pi tools: the path they will touch", () => {
  assert.deepEqual(tool("read", { path: "@src/a.ts" }), ["exact /proj/src/a.ts"]);
  assert.deepEqual(tool("read", { path: "~/notes.md" }), ["exact /home/u/notes.md"]);
  assert.deepEqual(tool("read", { path: "~" }), ["exact /home/u"]);
  assert.deepEqual(tool("read", { path: "/etc/../etc/passwd" }), ["exact /etc/passwd"]);
  assert.deepEqual(tool("read", { path: "../up.txt" }), ["exact /up.txt"]);
  assert.deepEqual(tool("read", { path: "a\u00A0b.txt" }), ["exact /proj/a b.txt"]);
  // read tries the macOS screenshot spelling when the plain path does not exist.
  assert.deepEqual(tool("read", { path: "Shot 1.02.03 PM.png" }), [`exact ${SHOT}`]);
  assert.deepEqual(tool("write", { path: "out/x.txt", content: "" }), ["exact /proj/out/x.txt"]);
  assert.deepEqual(tool("write", { path: "@/etc/x" }), ["exact /etc/x"]);
  assert.deepEqual(tool("edit", { path: "src/a.ts", edits: [] }), ["exact /proj/src/a.ts"]);
  assert.deepEqual(tool("edit", { file_path: "~/.bashrc" }), ["exact /home/u/.bashrc"]);
  assert.deepEqual(tool("grep", { pattern: "x", path: "src" }), ["exact /proj/src"]);
  assert.deepEqual(tool("find", { pattern: "*.ts", path: "/etc" }), ["exact /etc"]);
});

Deno.test("pi tools without a path work in the cwd", () => {
  assert.deepEqual(tool("ls", {}, true), ["cwd exact /proj"]);
  assert.deepEqual(tool("ls", { path: "" }, true), ["cwd exact /proj"]);
  assert.deepEqual(tool("grep", { pattern: "x" }, true), ["cwd exact /proj"]);
  assert.deepEqual(tool("find", { pattern: "*.ts" }, true), ["cwd exact /proj"]);
  assert.deepEqual(tool("ls", { path: "src" }, true), ["path exact /proj/src"]);
});

Deno.test("other tools: path-like keys and absolute-looking values, else the cwd", () => {
  assert.deepEqual(tool("mcp_fs", { path: "a/b" }), ["exact /proj/a/b"]);
  assert.deepEqual(tool("mcp_fs", { file_path: "/etc/hosts" }), ["exact /etc/hosts"]);
  assert.deepEqual(tool("mcp_fs", { Directory: "~/x" }), ["exact /home/u/x"]);
  assert.deepEqual(tool("mcp_fs", { output_dir: "build" }), ["exact /proj/build"]);
  assert.deepEqual(tool("mcp_fs", { opts: { paths: ["a", "/b"] } }), [
    "exact /b",
    "exact /proj/a",
  ]);
  assert.deepEqual(tool("mcp_fs", { edits: [{ file: "x.ts" }, { file: "../y.ts" }] }), [
    "exact /proj/x.ts",
    "exact /y.ts",
  ]);
  // Any key: an absolute-looking single word is a path; prose is not.
  assert.deepEqual(tool("mcp_x", { query: "/etc/shadow" }), ["exact /etc/shadow"]);
  assert.deepEqual(tool("mcp_x", { query: "~/.ssh/id_rsa" }), ["exact /home/u/.ssh/id_rsa"]);
  assert.deepEqual(tool("mcp_x", { title: "hello world", n: 3, ok: true }, true), [
    "cwd exact /proj",
  ]);
  assert.deepEqual(tool("mcp_x", { body: "/ is the root dir" }, true), ["cwd exact /proj"]);
});

Deno.test("other tools: URLs are not paths, file:// URLs are", () => {
  assert.deepEqual(tool("fetch", { url: "https://example.com/a/b" }, true), ["cwd exact /proj"]);
  assert.deepEqual(tool("fetch", { path: "https://example.com/a" }, true), ["cwd exact /proj"]);
  assert.deepEqual(tool("fetch", { uri: "file:///etc/passwd" }), ["exact /etc/passwd"]);
  assert.deepEqual(tool("fetch", { x: "file://localhost/etc/passwd" }), ["exact /etc/passwd"]);
  assert.deepEqual(tool("fetch", { x: "file:///a%20b" }), ["exact /a b"]);
  assert.deepEqual(tool("fetch", { x: "file:///a%zz" }), ["exact /a%zz"]); // no throw
});

Deno.test("other tools: input too deep or too large to inspect reaches anywhere", () => {
  let deep: unknown = { path: "/etc/shadow" };
  for (let i = 0; i < 10; i++) deep = { next: deep };
  assert.deepEqual(tool("mcp_x", deep as Record<string, unknown>, true), [
    "dynamic anywhere null",
  ]);
  const many = { paths: Array.from({ length: 100 }, (_, i) => `f${i}`) };
  const t = tool("mcp_x", many, true);
  assert.equal(t.length, 65);
  assert.ok(t.includes("dynamic anywhere null"));
});

Deno.test("bash: the cwd is always a target", () => {
  const a = analyzeBash("ls", ctx, parser);
  assert.deepEqual(show(stageTargets(a.stages[0], ctx), true), ["cwd exact /proj"]);
  const b = analyzeBash("cd /x; rm a", ctx, parser);
  assert.deepEqual(show(stageTargets(b.stages[1], ctx), true), ["cwd exact /proj", "cwd exact /x"]);
  const c = analyzeBash("cd $X && ls", ctx, parser);
  assert.deepEqual(show(stageTargets(c.stages[1], ctx), true), ["cwd anywhere null"]);
});

Deno.test("bash: path-like arguments are targets", () => {
  const cases: [string, string[]][] = [
    ["cat /etc/passwd", ["exact /etc/passwd"]],
    ["cat ./a ../b . ..", ["exact /", "exact /b", "exact /proj", "exact /proj/a"]],
    ["ls ~ ~/x", ["exact /home/u", "exact /home/u/x"]],
    ["cat src/a.ts x/y", ["exact /proj/src/a.ts", "exact /proj/x/y"]],
    ["cat exists missing", ["exact /proj/exists"]],
    ["rm -rf -- -x", []],
    ["curl https://example.com/a/b ftp://h/x", []],
    ["curl file:///etc/shadow", ["exact /etc/shadow"]],
    ["tool --out=/tmp/o --name=x --dir=./d", ["exact /proj/d", "exact /tmp/o"]],
    ["gcc -I/usr/include -o/tmp/a.out -O2", ["exact /tmp/a.out", "exact /usr/include"]],
    ["dd if=/dev/zero of=/etc/x", [
      "exact /dev/zero",
      "exact /etc/x",
      "exact /proj/if=/dev/zero",
      "exact /proj/of=/etc/x",
    ]],
    ["cat $HOME/x $TMPDIR/y", ["exact /home/u/x", "exact /tmp/y"]],
  ];
  for (const [cmd, want] of cases) assert.deepEqual(bash(cmd), want, cmd);
  // The program is a target only when named by a path.
  assert.deepEqual(bash("exists"), []);
  assert.deepEqual(bash("./run.sh x"), ["exact /proj/run.sh"]);
  assert.deepEqual(bash("/usr/bin/rm x"), ["exact /usr/bin/rm"]);
  // Prefix assignments name paths too.
  assert.deepEqual(bash("GIT_DIR=/other/.git git log"), [
    "exact /other/.git",
    "exact /proj/GIT_DIR=/other/.git",
  ]);
});

Deno.test("bash: relative paths follow cd", () => {
  // (`/x` is the cd's own target.)
  assert.deepEqual(bash("cd /x && rm a/b"), ["exact /x", "exact /x/a/b"]);
  assert.deepEqual(bash("cd /x; rm a/b"), ["exact /proj/a/b", "exact /x", "exact /x/a/b"]);
  const a = analyzeBash("cd $X && rm a/b /abs", ctx, parser);
  assert.deepEqual(show(stageTargets(a.stages[1], ctx), true), [
    "argument exact /abs",
    "cwd anywhere null",
    "dynamic anywhere null",
  ]);
});

Deno.test("bash: globs reach below their prefix directory", () => {
  const cases: [string, string[]][] = [
    ["rm *", ["below /proj"]],
    ["rm -rf /etc/*.conf", ["below /etc"]],
    ["rm /etc/ssh/*", ["below /etc/ssh"]],
    ["ls src/*.ts", ["below /proj/src"]],
    ["ls ~/x*", ["below /home/u"]],
    ["rm {a,b}", ["below /proj"]],
    ["rm /{etc,tmp}/x", ["below /"]],
    ["ls --include=*.ts", ["below /proj"]],
    ["rm /etc/*/../../x", ["anywhere null"]], // `..` after the glob climbs out
  ];
  for (const [cmd, want] of cases) assert.deepEqual(bash(cmd), want, cmd);
  assert.deepEqual(bash("rm *", true), ["glob below /proj"]);
  // Quoted glob characters are literal names.
  assert.deepEqual(bash("cat '*' \"a?\""), []);
});

Deno.test("bash: unknown values reach anywhere, or below an absolute static prefix", () => {
  const cases: [string, string[]][] = [
    ["cat $FILE", ["anywhere null"]],
    ["cat $(cat list)", ["anywhere null"]],
    ["cat ${X:-/tmp/y}", ["anywhere null"]],
    ["cat ~user/x", ["anywhere null"]],
    ["cat /etc/$X", ["below /etc"]],
    ["cat $HOME/$X", ["below /home/u"]],
    ["cat src/$X", ["below /proj/src"]],
    ["cat --file=$X", ["anywhere null"]],
    ["cat /etc/$X/../../y", ["anywhere null"]],
  ];
  for (const [cmd, want] of cases) assert.deepEqual(bash(cmd), want, cmd);
  assert.deepEqual(bash("cat $FILE", true), ["dynamic anywhere null"]);
  // After `cd $X` a relative name is somewhere unknown.
  const a = analyzeBash("cd $X && cat a/b", ctx, parser);
  assert.deepEqual(show(stageTargets(a.stages[1], ctx), true), [
    "cwd anywhere null",
    "dynamic anywhere null",
  ]);
});

Deno.test("bash: option words are not targets", () => {
  assert.deepEqual(bash("rm -rf -v --force --color=auto"), []);
  assert.deepEqual(bash("grep -n -e pattern"), []);
});

Deno.test("bash: tr's operands are character sets, not files", () => {
  assert.deepEqual(bash("tr exists x < src/a.ts"), ["exact /proj/src/a.ts"]);
});

Deno.test("bash: find's starting points and file primaries are targets, its tests are not", () => {
  // `exists` is a file in /proj: as a pattern or an -exec word it is still no target of find.
  assert.deepEqual(bash("find . -name exists -type f"), ["exact /proj"]);
  assert.deepEqual(bash("find src exists -maxdepth 1 -exec exists {} ;"), [
    "exact /proj/exists",
    "exact /proj/src",
  ]);
  assert.deepEqual(bash("find -L -- exists -print"), ["exact /proj/exists"]);
  assert.deepEqual(bash("find . -newer exists -fprint /tmp/out -files0-from list"), [
    "exact /proj",
    "exact /proj/exists",
    "exact /tmp/out",
  ]);
  // Words with a slash stay targets; so do globs and unknown words, which can expand into
  // `-delete` or `-exec`.
  assert.deepEqual(bash("find . -path ./src/a.ts"), ["exact /proj", "exact /proj/src/a.ts"]);
  assert.deepEqual(bash("find . -name $X"), ["anywhere null", "exact /proj"]);
  assert.deepEqual(bash("find . -name *"), ["below /proj", "exact /proj"]);
});

Deno.test("bash: file redirects are targets; fd duplication and devices are not", () => {
  assert.deepEqual(bash("echo > out", true), ["redirect exact /proj/out"]);
  assert.deepEqual(bash("echo >> /var/log/x 2> err", true), [
    "redirect exact /proj/err",
    "redirect exact /var/log/x",
  ]);
  assert.deepEqual(bash("cat < in", true), ["redirect exact /proj/in"]);
  assert.deepEqual(bash("cat <> rw", true), ["redirect exact /proj/rw"]);
  assert.deepEqual(bash("echo &> ~/log", true), ["redirect exact /home/u/log"]);
  assert.deepEqual(bash("cmd 2>&1 >&2 >&- > /dev/null 2>/dev/stderr </dev/stdin"), []);
  assert.deepEqual(bash("echo > $OUT", true), ["dynamic anywhere null"]);
  assert.deepEqual(bash("echo > /tmp/$OUT", true), ["dynamic below /tmp"]);
  assert.deepEqual(bash("cd /x && echo > f"), ["exact /x", "exact /x/f"]);
  // A process substitution is a pipe, not a file.
  assert.deepEqual(bash("diff <(ls) >(cat)"), []);
});

Deno.test("bash: targets are not repeated", () => {
  assert.deepEqual(bash("cat /etc/x /etc/x > /etc/x"), ["exact /etc/x", "exact /etc/x"]);
  const a = analyzeBash("cat /etc/x /etc/x", ctx, parser);
  assert.equal(stageTargets(a.stages[0], ctx).length, 2); // the cwd and /etc/x once
});
