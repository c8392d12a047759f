/**
 * Builds `dist/pi-controls`, the CLI as one executable, with `deno compile`. Run with
 * `deno task compile [EXTRA deno compile FLAGS]` (the Nix build passes `--cached-only`).
 *
 * `deno compile` copies denort, the Deno runtime without the tooling, and appends the program to
 * it. denort comes from, in this order:
 * 1. `DENORT_BIN`, when set (it must be denort of this Deno's version, for this machine);
 * 2. Deno's download cache, `$DENO_DIR/dl/release/v<version>/denort-<target>.zip`;
 * 3. a download from dl.deno.land, which `deno compile` does itself. The script first checks, with
 *    a short timeout, that the file can be reached, so that a machine without that access gets a
 *    clear message instead of a failed or stalled download.
 *
 * The npm packages are embedded from node_modules/ (deno.json has `"nodeModulesDir": "auto"`), so
 * the tree-sitter WASM files lib/shell/parser.ts reads are inside the binary's virtual file system
 * and no `--include` is needed. Every grammar but Bash is excluded: 19 MB the CLI never reads.
 *
 * The program compiled is a generated entry (dist/entry_compile.ts, removed afterwards) that embeds
 * the CLI's version and the example sessions `replay` falls back to (lib/cli_assets.ts), as the
 * Node bundle does, and grants the CLI exactly what it uses: read, write, env (HOME, the token
 * variable of a `decisions` block) and net (the Decisions API, whose url is user config).
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { assetsModule } from "../lib/cli_assets.ts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const output = join(root, "dist", "pi-controls");
const version = Deno.version.deno;
const target = Deno.build.target;
const archive = `denort-${target}.zip`;
const url = `https://dl.deno.land/release/v${version}/${archive}`;

function fail(lines: string[]): never {
  console.error(lines.join("\n"));
  Deno.exit(1);
}

function denoDir(): string {
  const out = new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stderr: "inherit" })
    .outputSync();
  if (!out.success) fail(["compile: `deno info --json` failed; cannot find Deno's cache"]);
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

async function reachable(): Promise<string | null> {
  try {
    const res = await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(10_000) });
    await res.body?.cancel();
    return res.ok ? null : `HTTP ${res.status}`;
  } catch (e) {
    if (!(e instanceof Error)) return String(e);
    return e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message;
  }
}

/** Says where denort will come from, or exits explaining what is missing and how to provide it. */
async function findDenort(): Promise<string> {
  const fromEnv = Deno.env.get("DENORT_BIN");
  if (fromEnv) {
    if (!existsSync(fromEnv) || !statSync(fromEnv).isFile()) {
      fail([`compile: DENORT_BIN is set to ${fromEnv}, which is not a file`]);
    }
    return `DENORT_BIN=${fromEnv}`;
  }
  const cached = join(denoDir(), "dl", "release", `v${version}`, archive);
  if (existsSync(cached)) return `Deno's cache (${cached})`;
  const problem = await reachable();
  if (problem === null) return `a download of ${url}`;
  fail([
    `compile: deno compile needs denort ${version} for ${target}, the Deno runtime it builds the`,
    "binary from, and none is available:",
    "  - DENORT_BIN is not set;",
    `  - it is not in Deno's cache: ${cached}`,
    `  - it cannot be downloaded: ${url} (${problem}).`,
    "Provide it in one of these ways, then run `deno task compile` again:",
    "  - DENORT_BIN=/path/to/denort deno task compile",
    `      denort is in ${archive} of the Deno ${version} release, or in nixpkgs' deno.denort`,
    "      output (`nix build nixpkgs#deno.denort`) when that deno is the same version;",
    `  - put ${archive} at ${cached}`,
    "Without a binary, `deno task pi-controls` runs the same CLI, and `deno task bundle:cli`",
    "builds dist/pi-controls-cli.js for Node.",
  ]);
}

/** `--exclude` for every tree-sitter grammar except Bash (lib/shell/parser.ts loads only it). */
function unusedGrammars(): string[] {
  const wasmDir = realpathSync(join(root, "node_modules", "@vscode", "tree-sitter-wasm", "wasm"));
  const keep = new Set(["tree-sitter.wasm", "tree-sitter-bash.wasm"]);
  const names = readdirSync(wasmDir).filter((n) => n.endsWith(".wasm"));
  for (const k of keep) {
    if (!names.includes(k)) fail([`compile: ${k} is missing from ${wasmDir}`]);
  }
  return names.filter((n) => !keep.has(n)).flatMap((n) => ["--exclude", join(wasmDir, n)]);
}

const source = await findDenort();
if (!existsSync(join(root, "node_modules", "@vscode", "tree-sitter-wasm"))) {
  fail(["compile: node_modules/ is not installed; run `deno install --frozen` first"]);
}
console.error(`compile: denort from ${source}`);
const dist = join(root, "dist");
const entry = join(dist, "entry_compile.ts");
const assets = join(dist, "cli_assets_embed.ts");
mkdirSync(dist, { recursive: true });
writeFileSync(assets, assetsModule(root));
writeFileSync(
  entry,
  `import { runCli } from "../lib/cli.ts";
import { setCliAssets } from "../lib/cli_assets.ts";
import { CLI_ASSETS } from "./cli_assets_embed.ts";
setCliAssets(CLI_ASSETS);
await runCli();
`,
);
const args = [
  "compile",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-net",
  // (The machine's name and addresses: a remote operand on this machine, `scp $(hostname):x .`.)
  "--allow-sys=hostname,networkInterfaces",
  ...unusedGrammars(),
  ...Deno.args,
  "--output",
  output,
  entry,
];
let result;
try {
  result = new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).outputSync();
} finally {
  rmSync(entry, { force: true });
  rmSync(assets, { force: true });
}
if (!result.success) fail(["compile: deno compile failed"]);
console.error(`compile: wrote ${output}`);
