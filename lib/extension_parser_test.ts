/**
 * The first calls of a session, while tree-sitter's WASM loads: a command read without a tree is
 * decided at once, one that needs a tree waits for the parser and gets its verdict (never the
 * fallback splitter's). Its own file: the parser loads once per process.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { analyzeBash } from "./shell/analyze.ts";
import { ParserPending, type WasmBytes } from "./shell/parser.ts";
import { fakePi } from "./testing_pi.ts";

const require = createRequire(import.meta.url);
const wasmFile = (name: string) =>
  readFileSync(require.resolve(`@vscode/tree-sitter-wasm/wasm/${name}`));

type Block = { block: true; reason: string } | undefined;

Deno.test("while the parser loads, plain commands are decided at once and the rest wait for it", async () => {
  let release!: () => void;
  const loaded = new Promise<void>((ok) => release = ok);
  let asked = 0;
  const wasm = async (): Promise<WasmBytes> => {
    asked++;
    await loaded;
    return { core: wasmFile("tree-sitter.wasm"), bash: wasmFile("tree-sitter-bash.wasm") };
  };
  const { project, handlers } = fakePi({
    policies: {
      strict: {
        defaultAction: "allow",
        rules: [{ action: "deny", tool: "bash", pattern: "rm *" }],
      },
    },
    locations: { "~/project": "strict" },
  }, { wasm });
  const ctx = {
    cwd: project,
    hasUI: false,
    ui: { notify() {}, select: () => Promise.resolve(undefined), setStatus() {} },
  };
  await handlers.get("session_start")!({} as never, ctx as never);
  const call = (command: string) =>
    handlers.get("tool_call")!(
      { toolName: "bash", toolCallId: command, input: { command } } as never,
      ctx as never,
    ) as Promise<Block>;
  const settled = async (p: Promise<Block>) => {
    let done = false;
    void p.then(() => done = true);
    for (let i = 0; i < 20; i++) await new Promise((ok) => setTimeout(ok, 1));
    return done;
  };
  assert.equal(asked, 1, "the WASM is asked for once, at load");

  // Read without a tree: decided while the WASM is still on its way.
  const plain = call("git status && ls -la src");
  assert.ok(await settled(plain), "a plain command waits for nothing");
  assert.equal(await plain, undefined);
  const denied = call("cd build && rm -rf out");
  assert.ok(await settled(denied));
  assert.equal((await denied)?.block, true);

  // Needs a tree (a brace group, a command run through bash -c with one): waits, then the
  // tree's verdict. The fallback splitter would ask, which without a UI blocks.
  const tree = call("{ echo a; echo b; } | sort");
  const inner = call("bash -c '{ echo a; wc -l x.txt; } | sort'");
  const hidden = call("bash -c '{ echo a; rm -rf x; }'");
  assert.equal(await settled(tree), false, "a command that needs the tree waits for it");
  assert.equal(await settled(inner), false);
  release();
  assert.equal(await tree, undefined);
  assert.equal(await inner, undefined);
  assert.equal((await hidden)?.block, true);
  assert.match((await hidden)!.reason, /rm/);
  assert.equal(asked, 1);
});

Deno.test("the pending parser: plain commands analysed as with the parser, the rest throw", () => {
  const env = { cwd: "/p", home: "/h", env: {}, carriesCommand: () => false };
  const plain = analyzeBash("cat a.txt | grep x > out", env, "pending");
  assert.equal(plain.error, null);
  assert.deepEqual(plain.stages.map((s) => s.argv.map((w) => w.value)), [
    ["cat", "a.txt"],
    ["grep", "x"],
  ]);
  for (const c of ["{ rm -rf x; }", "f() { rm x; }; f", "cat <<EOF\nx\nEOF", "echo ${a:-b}"]) {
    assert.throws(() => analyzeBash(c, env, "pending"), ParserPending, c);
  }
});
