/**
 * A V8 code cache for the bundled extension. pi imports the bundle at every start, and V8
 * compiling its megabyte of code was most of that import (pi loads extensions through jiti,
 * without Node's own compile cache). The bundle keeps its code as text and runs it through
 * {@linkcode runCached}, which hands V8 the bytecode the previous start left beside the bundle
 * (`pi-controls.js.v8-cache`) and, when there was none or V8 turned it down, writes a new one at
 * once and again as the process exits (with every function that start compiled). Where the bundle's directory is
 * read-only (a Nix store), nothing is written and every start compiles, as before.
 *
 * The cache runs with pi's authority as the bundle does, so it is exactly as protected: it lies in
 * the bundle's directory, and the gate's own files include it (gate_files.ts). It is used only
 * when its header names this very code (a hash of the text), this Node and this architecture.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import process from "node:process";
import { Script } from "node:vm";

/** What the cache file's name adds to the bundle's (not `.js`: pi loads every `.js` there). */
export const CODE_CACHE_SUFFIX = ".v8-cache";

/** The code cache of a bundle loaded from `codeFile`. */
export function codeCacheFile(codeFile: string): string {
  return codeFile + CODE_CACHE_SUFFIX;
}

/** What {@linkcode runCached} runs the code with. */
export interface RunCachedOptions {
  /** A hash of the code, written when the bundle is built. */
  key: string;
  /**
   * The file the bundle was loaded from: the cache lies beside it, and the code is given it as
   * `__filename`. Without one (not loaded from a file), the code is compiled and nothing is kept.
   * @default undefined
   */
  file?: string;
}

/** The function a bundle's code text evaluates to, given CommonJS's arguments and a require. */
type Wrapped = (
  exports: Record<string, unknown>,
  require: Require,
  module: { exports: Record<string, unknown> },
  filename: string,
  dirname: string,
  piRequire: Require,
) => void;

type Require = ReturnType<typeof createRequire>;

/** The header a cache must start with to be used by this code, in this Node. */
function header(key: string): Buffer {
  return Buffer.from(`pi-controls ${key} ${process.version} ${process.arch}\n`);
}

/**
 * Compile and run a bundle's code (the text of a function taking CommonJS's arguments and a
 * second `require` for what was a dynamic `import()` of a `node:` module), with the code cache
 * beside `file` when there is one, and return its exports.
 *
 * @example
 * ```ts
 * const code = "(function (exports) { exports.answer = 42; })";
 * runCached(code, { key: "k" }); // { answer: 42 }
 * ```
 */
export function runCached(code: string, opts: RunCachedOptions): Record<string, unknown> {
  const cacheFile = opts.file === undefined ? undefined : codeCacheFile(opts.file);
  const head = header(opts.key);
  let cachedData: Buffer | undefined;
  if (cacheFile !== undefined) {
    try {
      const bytes = readFileSync(cacheFile);
      if (bytes.subarray(0, head.length).equals(head)) cachedData = bytes.subarray(head.length);
    } catch {
      // No cache yet (or none can be read): compile.
    }
  }
  const script = new Script(code, { filename: opts.file ?? "pi-controls.js", cachedData });
  const require = createRequire(opts.file ?? import.meta.url);
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as Wrapped;
  run(
    module.exports,
    require,
    module,
    opts.file ?? "",
    opts.file ? dirname(opts.file) : "",
    require,
  );
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    // Written at once, so the file is there before any command runs (an OS sandbox holds an
    // existing file read-only; a missing one could be made by what runs inside it), and again
    // at exit with every function this start compiled.
    saveCodeCache(script, cacheFile, head);
    process.once("exit", () => saveCodeCache(script, cacheFile, head));
  }
  return module.exports;
}

/**
 * Write the script's code cache to `cacheFile`: to a new file of this process first (never
 * through a link someone left there), then renamed over the old one, so a start reading it meanwhile
 * sees the old cache or the new one whole. A directory that cannot be written keeps no cache.
 */
export function saveCodeCache(script: Script, cacheFile: string, head: Buffer): boolean {
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  let written = false;
  try {
    writeFileSync(temporary, Buffer.concat([head, script.createCachedData()]), { flag: "wx" });
    written = true;
    renameSync(temporary, cacheFile);
    return true;
  } catch {
    // (Only a file this call wrote is removed: whatever else is at that name, a directory or a
    // link someone made, stays, and the extension loads all the same.)
    if (written) {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // Left for the next start to find in its way, which only means no cache.
      }
    }
    return false;
  }
}
