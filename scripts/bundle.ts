/**
 * Build the single-file bundles: dist/pi-controls.js (the pi extension, default export) and,
 * with --cli, dist/pi-controls-cli.js (the CLI under Node). The tree-sitter WASM is embedded
 * gzip-compressed as base64 (a third of the text for Node to read at import), so nothing needs to be installed beside the file; the CLI also embeds its version and
 * the example sessions `replay` falls back to (lib/cli_assets.ts). Only `node:` imports remain.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import process from "node:process";
import { assetsModule } from "../lib/cli_assets.ts";

const root = new URL("..", import.meta.url).pathname;
const dist = join(root, "dist");
const require = createRequire(join(root, "deno.json"));
const wasm = (name: string) =>
  gzipSync(readFileSync(require.resolve(`@vscode/tree-sitter-wasm/wasm/${name}`)), { level: 9 })
    .toString("base64");

const embed = `import { Buffer } from "node:buffer";
import { gunzip } from "node:zlib";
const CORE = ${JSON.stringify(wasm("tree-sitter.wasm"))};
const BASH = ${JSON.stringify(wasm("tree-sitter-bash.wasm"))};
/** The embedded tree-sitter WASM (gzip, base64), inflated on first use off the main thread. */
export async function embeddedWasm() {
  const bytes = (text: string) =>
    new Promise<Uint8Array>((ok, fail) =>
      gunzip(Buffer.from(text, "base64"), (e, b) => (e ? fail(e) : ok(new Uint8Array(b))))
    );
  const [core, bash] = await Promise.all([bytes(CORE), bytes(BASH)]);
  return { core, bash };
}
`;

/**
 * The extension's code, bundled as CommonJS and kept as text in dist/extension_code.ts (CODE, and
 * KEY, a hash of it) for lib/code_cache.ts to run with V8's code cache. Its dynamic imports of
 * `node:` modules (tree-sitter's loader) become requires: V8 runs code from a cache without the
 * callback a dynamic import needs. Any other dynamic import fails the build.
 */
function extensionCode(): boolean {
  const entry = join(dist, "entry_extension_code.ts");
  const out = join(dist, "extension_code.cjs");
  writeFileSync(
    entry,
    `import { createExtension, type PiApi } from "../lib/extension.ts";
import { embeddedWasm } from "./wasm_embed.ts";
/** Start pi-controls in pi (codeFile: the bundle's own file, when known). */
export function start(pi: PiApi, codeFile: string | undefined): void {
  createExtension(pi, { wasm: embeddedWasm, codeFile });
}
`,
  );
  const built = denoBundle(entry, out, "cjs");
  rmSync(entry);
  if (!built) return false;
  const cjs = readFileSync(out, "utf8")
    .replace(/(?<![\w$.])import\(("node:[\w/]+")\)/g, "Promise.resolve(__piRequire($1))");
  rmSync(out);
  const left = cjs.match(/(?<![\w$.])import\([^)]{0,40}/g);
  if (left) {
    console.error(`${out}: dynamic imports remain: ${left.join(", ")}`);
    return false;
  }
  const code =
    `(function (exports, require, module, __filename, __dirname, __piRequire) {${cjs}\n})`;
  const key = createHash("sha256").update(code).digest("hex").slice(0, 16);
  writeFileSync(
    join(dist, "extension_code.ts"),
    `export const CODE = ${JSON.stringify(code)};\nexport const KEY = "${key}";\n`,
  );
  return true;
}

/** `deno bundle` one entry, minified (pi imports the extension at every start). */
function denoBundle(entry: string, out: string, format: "esm" | "cjs"): boolean {
  return new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--platform", "deno", "--format", format, "--minify", "-o", out, entry],
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).outputSync().success;
}

const targets = process.argv.includes("--cli")
  ? ["cli"]
  : process.argv.includes("--all")
  ? ["extension", "cli"]
  : ["extension"];
mkdirSync(dist, { recursive: true });
writeFileSync(join(dist, "wasm_embed.ts"), embed);
if (targets.includes("cli")) writeFileSync(join(dist, "cli_assets_embed.ts"), assetsModule(root));
const entries: Record<string, { file: string; out: string; src: string }> = {
  extension: {
    file: join(dist, "entry_extension.ts"),
    out: join(dist, "pi-controls.js"),
    src: `import { fileURLToPath } from "node:url";
import type { PiApi } from "../lib/extension.ts";
import { runCached } from "../lib/code_cache.ts";
import { CODE, KEY } from "./extension_code.ts";
let codeFile: string | undefined;
try {
  codeFile = fileURLToPath(import.meta.url);
} catch {
  codeFile = undefined;
}
const code = runCached(CODE, { key: KEY, file: codeFile }) as {
  start(pi: PiApi, codeFile: string | undefined): void;
};
/** pi-controls, the pi extension (bundled). */
export default function piControls(pi: PiApi): void {
  code.start(pi, codeFile);
}
`,
  },
  cli: {
    file: join(dist, "entry_cli.ts"),
    out: join(dist, "pi-controls-cli.js"),
    src: `import { runCli } from "../lib/cli.ts";
import { setDefaultWasm } from "../lib/shell/parser.ts";
import { setCliAssets } from "../lib/cli_assets.ts";
import { embeddedWasm } from "./wasm_embed.ts";
import { CLI_ASSETS } from "./cli_assets_embed.ts";
setDefaultWasm(embeddedWasm);
setCliAssets(CLI_ASSETS);
await runCli();
`,
  },
};
let failed = false;
if (targets.includes("extension") && !extensionCode()) failed = true;
for (const t of targets) {
  const e = entries[t];
  writeFileSync(e.file, e.src);
  const built = denoBundle(e.file, e.out, "esm");
  rmSync(e.file);
  if (!built) {
    failed = true;
    continue;
  }
  // tree-sitter's UMD loader asks for __filename, which a CommonJS wrapper has and an ES module
  // does not: give the CLI one (it only uses it to build its own URL; the extension's code is
  // given its file by runCached).
  const banner = t === "cli"
    ? `import { fileURLToPath as __piControlsPath } from "node:url";\n` +
      `var __filename = __piControlsPath(import.meta.url);\n`
    : "";
  // The CLI is package.json's `bin`: npm links it and runs it directly, so it needs a shebang.
  const shebang = t === "cli" ? "#!/usr/bin/env node\n" : "";
  const text = shebang + banner + readFileSync(e.out, "utf8");
  writeFileSync(e.out, text);
  if (t === "cli") chmodSync(e.out, 0o755);
  // (Minified, an import has no blank after its keyword: `import{x as y}from"node:url"`.)
  const bad = [
    ...text.matchAll(/(?:^|[\s;}])(?:import|export)\s*[\w{*][^"';]*?from\s*["']([^"']+)["']/gm),
  ]
    .map((m) => m[1]).filter((s) => !s.startsWith("node:"));
  if (bad.length) {
    console.error(
      `${e.out}: imports that are not node: built-ins remain: ${[...new Set(bad)].join(", ")}`,
    );
    failed = true;
  } else console.log(`wrote ${e.out} (${(text.length / 1024).toFixed(0)} KiB)`);
}
rmSync(join(dist, "wasm_embed.ts"));
rmSync(join(dist, "cli_assets_embed.ts"), { force: true });
rmSync(join(dist, "extension_code.ts"), { force: true });
process.exitCode = failed ? 1 : 0;
