/**
 * Loading the tree-sitter Bash parser (WASM) once per process.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import TreeSitter from "@vscode/tree-sitter-wasm";

/** The parser type the bash analysis uses. */
export type BashParser = InstanceType<typeof TreeSitter.Parser>;
/** A syntax node of the parsed command. */
export type SyntaxNode = NonNullable<ReturnType<BashParser["parse"]>>["rootNode"];

/** WASM bytes to load instead of reading them from the npm package (the bundle embeds them). */
export interface WasmBytes {
  core: Uint8Array;
  bash: Uint8Array;
}

let loading: Promise<BashParser> | null = null;
let defaultWasm: (() => WasmBytes) | null = null;

/** Use these WASM bytes when none are passed (the bundled CLI embeds them). */
export function setDefaultWasm(provider: () => WasmBytes): void {
  defaultWasm = provider;
}

function packageWasm(): WasmBytes {
  const require = createRequire(import.meta.url);
  return {
    core: readFileSync(require.resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter.wasm")),
    bash: readFileSync(require.resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm")),
  };
}

/** Load (once) and return the Bash parser; rejects when the WASM cannot be loaded. */
export function loadBashParser(bytes?: WasmBytes): Promise<BashParser> {
  loading ??= (async () => {
    const wasm = bytes ?? defaultWasm?.() ?? packageWasm();
    await TreeSitter.Parser.init({ wasmBinary: wasm.core } as never);
    const language = await TreeSitter.Language.load(wasm.bash);
    const parser = new TreeSitter.Parser();
    parser.setLanguage(language);
    return parser;
  })();
  loading.catch(() => loading = null);
  return loading;
}
