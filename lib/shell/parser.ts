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

/**
 * The parser an analysis may use: tree-sitter's, null for the fallback splitter, or "pending"
 * while tree-sitter loads: a command read without a tree is analysed as with the parser, and one
 * that needs a tree throws {@linkcode ParserPending} (decide it again once the parser is there).
 */
export type ParserChoice = BashParser | null | "pending";

/** Thrown by an analysis under the "pending" parser when the command needs a syntax tree. */
export class ParserPending extends Error {
  constructor() {
    super("the bash parser is still loading");
    this.name = "ParserPending";
  }
}
/** A syntax node of the parsed command. */
export type SyntaxNode = NonNullable<ReturnType<BashParser["parse"]>>["rootNode"];

/** WASM bytes to load instead of reading them from the npm package (the bundle embeds them). */
export interface WasmBytes {
  core: Uint8Array;
  bash: Uint8Array;
}

/**
 * Where the WASM comes from: its bytes, or a function giving them (called once, when the parser
 * is first loaded: the bundles keep them compressed until then).
 */
export type WasmSource = WasmBytes | (() => WasmBytes | Promise<WasmBytes>);

let loading: Promise<BashParser> | null = null;
let defaultWasm: WasmSource | null = null;

/** Use this WASM when none is passed (the bundled CLI embeds it). */
export function setDefaultWasm(source: WasmSource): void {
  defaultWasm = source;
}

function packageWasm(): WasmBytes {
  const require = createRequire(import.meta.url);
  return {
    core: readFileSync(require.resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter.wasm")),
    bash: readFileSync(require.resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm")),
  };
}

/** Load (once) and return the Bash parser; rejects when the WASM cannot be loaded. */
export function loadBashParser(source?: WasmSource): Promise<BashParser> {
  loading ??= (async () => {
    const from = source ?? defaultWasm;
    const wasm = from === null ? packageWasm() : typeof from === "function" ? await from() : from;
    await TreeSitter.Parser.init({ wasmBinary: wasm.core } as never);
    const language = await TreeSitter.Language.load(wasm.bash);
    const parser = new TreeSitter.Parser();
    parser.setLanguage(language);
    return parser;
  })();
  loading.catch(() => loading = null);
  return loading;
}
