/**
 * Finding, parsing (JSONC), merging and validating pi-controls config files.
 *
 * Every problem is reported with the file, line and column of the JSON node (or property key)
 * that caused it, so a broken config can fail closed with a precise reason.
 *
 * @example
 * ```ts
 * const r = loadConfig({ cwd: "/home/me/proj", agentDir: "/home/me/.pi/agent", home: "/home/me" });
 * if (r.status === "error") console.error(r.errors.map(formatConfigError).join("\n"));
 * ```
 *
 * @module
 */
import { gateFileEntries } from "./gate_files.ts";
import { buildConfig } from "./config_build.ts";
import {
  type ConfigSource,
  discoverConfigFiles,
  explicitRef,
  readConfigText,
} from "./config_files.ts";
import { mergeFiles, validateMerged, warnSameDirectory } from "./config_merge.ts";
import { checkDuplicates, parseFile } from "./config_parse.ts";
import { type Diag, type ParsedFile, toConfigErrors } from "./config_tree.ts";
import { validateFile } from "./config_validate.ts";
import type { Config, ConfigError, ProtectionEntry } from "./types.ts";

export {
  agentDirFrom,
  type ConfigFileRef,
  type ConfigSource,
  discoverConfigFiles,
} from "./config_files.ts";

/** The outcome of loading config: no files, broken files, or a merged and validated config. */
export type LoadResult =
  | { status: "absent"; files: [] }
  | { status: "error"; files: string[]; errors: ConfigError[] }
  | { status: "ok"; files: string[]; config: Config; warnings: ConfigError[] };

/** Where config is loaded from, and for whom. */
export interface LoadOptions {
  cwd: string;
  agentDir: string;
  home: string;
  /** Exactly these files, in order (`--config`); absent: discovery. @default undefined */
  files?: string[];
  /**
   * The file pi-controls' code was loaded from: protected as one of the gate's files.
   * @default undefined (the code is not protected as a file)
   */
  codeFile?: string;
}

/** Load, parse, merge and validate. With opts.files given, exactly those files are used in that order (later wins, like project over global); an explicit file that does not exist is an error (status "error", message says the file does not exist). Without files: discovery as above; no files found -> status "absent". */
export function loadConfig(opts: LoadOptions): LoadResult {
  const refs = opts.files === undefined
    ? discoverConfigFiles(opts)
    : opts.files.map((f) => explicitRef(f, opts));
  if (refs.length === 0) return { status: "absent", files: [] };
  const sources: ConfigSource[] = [];
  const readErrors: ConfigError[] = [];
  for (const ref of refs) {
    const text = readConfigText(ref.file, readErrors);
    if (text !== null) sources.push({ ...ref, text });
  }
  const files = refs.map((r) => r.file);
  if (readErrors.length > 0) {
    const rest = loadConfigTexts(sources, { home: opts.home });
    const errors = rest.status === "error" ? [...readErrors, ...rest.errors] : readErrors;
    return { status: "error", files, errors };
  }
  const builtins = gateFileEntries({ agentDir: opts.agentDir, codeFile: opts.codeFile });
  return loadConfigTexts(sources, { home: opts.home, builtins });
}

/** Parse+validate config texts already in memory (used by loadConfig and by tests). */
export function loadConfigTexts(
  sources: ConfigSource[],
  opts: { home: string; builtins?: ProtectionEntry[] },
): LoadResult {
  const files = sources.map((s) => s.file);
  if (sources.length === 0) return { status: "absent", files: [] };
  const d: Diag = { errors: [], warnings: [] };
  const parsed: ParsedFile[] = [];
  sources.forEach((s, index) => {
    const file = parseFile(s, index, d);
    if (file !== null) parsed.push(file);
  });
  if (d.errors.length > 0) return { status: "error", files, errors: toConfigErrors(d.errors) };
  for (const p of parsed) {
    checkDuplicates(p.root, [], d);
    validateFile(p, d);
  }
  const merged = mergeFiles(parsed);
  validateMerged(merged, parsed, d);
  warnSameDirectory(merged, opts.home, d);
  if (d.errors.length > 0) return { status: "error", files, errors: toConfigErrors(d.errors) };
  const config = buildConfig(merged, parsed, files, opts.builtins ?? []);
  return { status: "ok", files, config, warnings: toConfigErrors(d.warnings) };
}

/** Render one error as `file:line:col: message`. */
export function formatConfigError(e: ConfigError): string {
  return `${e.file}:${e.line}:${e.column}: ${e.message}`;
}
