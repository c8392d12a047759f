import assert from "node:assert/strict";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { Buffer } from "node:buffer";
import { Script } from "node:vm";
import { codeCacheFile, runCached, saveCodeCache } from "./code_cache.ts";

const CODE_CACHE = new URL("./code_cache.ts", import.meta.url).href;

/** Run `runCached(code, { key, file })` in a process of its own (the cache is written at exit). */
function runInProcess(dir: string, code: string, key: string, file: string): string {
  const script = join(dir, `run-${key}.ts`);
  writeFileSync(
    script,
    `import { runCached } from ${JSON.stringify(CODE_CACHE)};\n` +
      `const out = runCached(${JSON.stringify(code)}, { key: ${JSON.stringify(key)}, file: ${
        JSON.stringify(file)
      } });\nconsole.log(out.answer);\n`,
  );
  const o = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", "--no-check", script],
  }).outputSync();
  assert.ok(o.success, new TextDecoder().decode(o.stderr));
  return new TextDecoder().decode(o.stdout).trim();
}

const code = (n: number) => `(function (exports) { exports.answer = ${n}; })`;

Deno.test("code cache: runs the code without a file, and keeps nothing", () => {
  assert.deepEqual(runCached(code(42), { key: "k" }), { answer: 42 });
});

Deno.test("code cache: there as soon as the code has run, before any command does", () => {
  // An OS sandbox holds an existing file read-only; a name not there yet could be made inside it.
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-cache-"));
  try {
    const file = join(dir, "pi-controls.js");
    assert.deepEqual(runCached(code(7), { key: "now", file }), { answer: 7 });
    assert.ok(readFileSync(codeCacheFile(file)).toString("latin1").startsWith("pi-controls now "));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("code cache: written by the first start, used as it is by the next", () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-cache-"));
  try {
    const file = join(dir, "pi-controls.js");
    writeFileSync(file, "");
    assert.equal(runInProcess(dir, code(41), "a", file), "41");
    const cache = codeCacheFile(file);
    assert.ok(
      readFileSync(cache).toString("latin1").startsWith(`pi-controls a ${process.version}`),
    );
    const before = statSync(cache);
    assert.equal(runInProcess(dir, code(41), "a", file), "41");
    const after = statSync(cache);
    assert.equal(after.ino, before.ino, "a cache V8 took is not written again");
    assert.equal(after.mtimeMs, before.mtimeMs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("code cache: another code's cache is not used, even of the same length", () => {
  // V8 itself checks only the source's length: the header's key (a hash of the code) is what
  // keeps an old bundle's bytecode from running as a new one of the same size.
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-cache-"));
  try {
    const file = join(dir, "pi-controls.js");
    writeFileSync(file, "");
    assert.equal(runInProcess(dir, code(41), "a", file), "41");
    assert.equal(code(41).length, code(43).length);
    assert.equal(runInProcess(dir, code(43), "b", file), "43");
    assert.ok(readFileSync(codeCacheFile(file)).toString("latin1").startsWith("pi-controls b "));
    assert.equal(runInProcess(dir, code(43), "b", file), "43");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("code cache: a cache V8 turns down is replaced, and the code runs all the same", () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-cache-"));
  try {
    const file = join(dir, "pi-controls.js");
    writeFileSync(file, "");
    const head = `pi-controls a ${process.version} ${process.arch}\n`;
    writeFileSync(codeCacheFile(file), head + "not bytecode at all");
    assert.equal(runInProcess(dir, code(41), "a", file), "41");
    const cache = readFileSync(codeCacheFile(file));
    assert.ok(cache.length > head.length + 20, "a cache of this code was written");
    assert.ok(!cache.toString("latin1").includes("not bytecode"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

Deno.test("code cache: a directory that cannot be written keeps none; a link or a directory left at the temporary name is neither followed nor a failure", () => {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-cache-"));
  try {
    const script = new Script(code(1));
    script.runInThisContext();
    const head = Buffer.from("pi-controls k\n");
    assert.equal(saveCodeCache(script, join(dir, "absent", "x.js.v8-cache"), head), false);
    const victim = join(dir, "victim");
    writeFileSync(victim, "mine");
    const cache = join(dir, "x.js.v8-cache");
    symlinkSync(victim, `${cache}.${process.pid}.tmp`);
    assert.equal(saveCodeCache(script, cache, head), false);
    assert.equal(readFileSync(victim, "utf8"), "mine");
    assert.ok(!existsSync(cache));
    // A directory at the temporary name: nothing written, nothing thrown (the bundle loads).
    rmSync(`${cache}.${process.pid}.tmp`);
    mkdirSync(`${cache}.${process.pid}.tmp`);
    assert.equal(saveCodeCache(script, cache, head), false);
    assert.ok(existsSync(`${cache}.${process.pid}.tmp`), "what someone else made stays");
    assert.deepEqual(runCached(code(3), { key: "d", file: join(dir, "x.js") }), { answer: 3 });
    rmSync(`${cache}.${process.pid}.tmp`, { recursive: true });
    assert.equal(saveCodeCache(script, cache, head), true, "the next exit writes it");
    assert.ok(readFileSync(cache).subarray(0, head.length).equals(head));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const BUNDLE = new URL("../dist/pi-controls.js", import.meta.url).pathname;

Deno.test({
  name: "code cache: the built extension decides the same from its cache as when compiled",
  ignore: !existsSync(BUNDLE),
  fn() {
    const dir = mkdtempSync(join(tmpdir(), "pi-controls-cache-"));
    try {
      const agent = join(dir, "agent");
      mkdirSync(join(agent, "extensions"), { recursive: true });
      const bundle = join(agent, "extensions", "pi-controls.js");
      copyFileSync(BUNDLE, bundle);
      writeFileSync(
        join(agent, "extensions", "pi-controls.jsonc"),
        JSON.stringify({
          policies: { open: { defaultAction: "allow", rules: [] } },
          locations: { "/": "open" },
          pathProtection: { "secrets/**": "deny" },
        }),
      );
      const project = join(dir, "project");
      mkdirSync(join(project, "secrets"), { recursive: true });
      const runner = join(dir, "start.mjs");
      writeFileSync(
        runner,
        `const mod = await import(${JSON.stringify(bundle)});
const handlers = {};
mod.default({ on: (e, h) => (handlers[e] = h), registerCommand: () => {} });
const ui = { notify: () => {}, select: () => Promise.resolve(undefined), setStatus: () => {} };
const ctx = { cwd: ${JSON.stringify(project)}, hasUI: false, ui };
await handlers.session_start({}, ctx);
const out = [];
for (const command of ["ls -la", "cat secre\\"ts\\"/key", "f() { cat secrets/key; }; f"]) {
  const r = await handlers.tool_call({ toolName: "bash", toolCallId: "1", input: { command } }, ctx);
  out.push(r?.block ? "block" : "pass");
}
console.log(out.join(" "));
`,
      );
      const start = () => {
        const o = new Deno.Command("node", {
          args: [runner],
          env: { HOME: dir, PI_CODING_AGENT_DIR: agent },
        }).outputSync();
        assert.ok(o.success, new TextDecoder().decode(o.stderr));
        assert.equal(new TextDecoder().decode(o.stderr), "", "nothing on stderr");
        return new TextDecoder().decode(o.stdout).trim();
      };
      assert.equal(start(), "pass block block");
      assert.ok(existsSync(codeCacheFile(bundle)), "the first start leaves the cache");
      assert.equal(start(), "pass block block");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
});
