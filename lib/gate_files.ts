/**
 * The gate's own files: what the agent must not change without the user, whatever the config
 * says (RULINGS, "Trust boundary"). Writing, moving, deleting or linking over any of them is at
 * least `ask`; reading them stays as the policy says. The user can make them stricter with
 * pathProtection, never weaker.
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { codeCacheFile } from "./code_cache.ts";
import type { ProtectionEntry } from "./types.ts";

/** Where the built-in entries come from, as shown in `explain` and messages. */
export const GATE_FILES_SOURCE = "(built in: pi-controls protects its own files)";

/** The trust store pi-controls keeps for pi versions without project trust, and the CLI. */
export const TRUST_STORE = "pi-controls-trust.json";

/** What the gate's files depend on. */
export interface GateFileOptions {
  /** pi's agent dir (`$PI_CODING_AGENT_DIR` or `~/.pi/agent`). */
  agentDir: string;
  /**
   * The file pi-controls' code was loaded from (the bundle, `mod.ts` or the CLI), when known.
   * @default undefined
   */
  codeFile?: string;
}

/**
 * The built-in protection entries, each `ask` and for write-like access only:
 * - everything in `<agentDir>/extensions/` (the global config, the log, the trust store, the
 *   bundle, and any other extension, which runs with pi's authority at its next start);
 * - pi's settings, models, trust and MCP files in the agent dir, the packages pi installed there
 *   (MCP servers and packages run with pi's authority at its next start), and its `bin/` (the
 *   `rg` and `fd` its tools run);
 * - `.pi/extensions/`, `.pi/settings.json`, `.pi/mcp.json` and the packages of any project, at
 *   any depth (project configs, extensions, MCP servers and packages);
 * - the code pi-controls was loaded from: its package directory when npm installed it, else the
 *   file itself, its code cache and its package.json.
 */
export function gateFileEntries(opts: GateFileOptions): ProtectionEntry[] {
  const agent = resolve(opts.agentDir);
  const globs = [
    join(agent, "extensions"),
    join(agent, "settings.json"),
    join(agent, "models.json"),
    join(agent, "trust.json"),
    join(agent, "mcp.json"),
    join(agent, "npm"),
    join(agent, "git"),
    join(agent, "tmp", "extensions"),
    // The programs pi's grep and find tools run first (rg, fd), and first on the bash tool's PATH.
    join(agent, "bin"),
    ".pi/extensions",
    ".pi/settings.json",
    ".pi/mcp.json",
    ".pi/npm",
    ".pi/git",
    ...codePaths(opts.codeFile),
  ];
  return [...new Set(globs)].map((glob) => ({
    glob: escapeGlob(glob),
    action: "ask",
    base: null,
    file: GATE_FILES_SOURCE,
    writes: true,
  }));
}

/**
 * The paths of pi-controls' own code: the npm package directory, else the file, the V8 code cache
 * beside it (bytecode that runs with pi's authority) and its manifest.
 */
function codePaths(codeFile: string | undefined): string[] {
  if (!codeFile) return [];
  const file = resolve(codeFile);
  let dir = dirname(file);
  for (let i = 0; i < 4; i++) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest) && packageName(manifest) === "pi-controls") {
      // Installed by npm (pi install npm:…): the whole package is ours. A checkout the user
      // works in (pi install ./path) keeps its sources editable: the loaded file and the
      // manifest that names it are protected.
      return dir.split(sep).includes("node_modules")
        ? [dir]
        : [file, codeCacheFile(file), manifest];
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return basename(file) ? [file, codeCacheFile(file)] : [];
}

function packageName(manifest: string): string | null {
  try {
    const pkg = JSON.parse(readFileSync(manifest, "utf8"));
    return typeof pkg?.name === "string" ? pkg.name : null;
  } catch {
    return null;
  }
}

/** A literal path as a protection glob (its `*`, `?` and `[` are not wildcards). */
function escapeGlob(path: string): string {
  return path.replace(/[*?[]/g, "?");
}
