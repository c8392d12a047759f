/**
 * Linters whose option values name the places they write in a form of their own: ruff's
 * `--config`, either a settings file (`ruff.toml`, `pyproject.toml`) or an inline TOML `KEY =
 * VALUE` override (`--config 'cache-dir=".pi/extensions"'` writes its cache there), and pylint's
 * `--output-format FORMAT[:FILE],…` (each reporter given a file writes it). The ruff settings that
 * place something (`cache-dir`, and `extend`, another settings file read in turn) are judged: the
 * cache directory as a file the command opens there; a file that cannot be read as it will be (a
 * value not known, another stage may write it) or a value not understood is a command not known;
 * other settings (`line-length=100`) change nothing.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { pylintOutputs } from "./linters.ts";
 * pylintOutputs(["pylint", "-f", "text:out.txt,colorized", "src"].map(literal));
 * // [{ path: "out.txt", source: "pylint --output-format" }]
 * ```
 *
 * @module
 */
import { basename, dirname, isAbsolute, join } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";
import { literal, opensFile, unknownWord } from "./words.ts";
import { ruffChanges } from "./formatters.ts";
import type { EvalShape } from "../types.ts";
import { type CodePiece, codeShape } from "./eval_shapes.ts";

/**
 * A TOML string value as written (`"…"` with its escapes, `'…'` as it is); null for any other
 * value (a multi-line string, a number, an array), which this reader does not take as a path.
 */
export function tomlString(raw: string): string | null {
  const t = raw.replace(/\s+#.*$/, "").trim();
  if (t.startsWith('"""') || t.startsWith("'''")) return null;
  const literalString = /^'([^']*)'$/.exec(t);
  if (literalString) return literalString[1];
  if (!/^"(?:[^"\\]|\\.)*"$/.test(t)) return null;
  try {
    // (TOML's basic-string escapes are JSON's, but for `\UXXXXXXXX` and `\e`.)
    const v = JSON.parse(t);
    return typeof v === "string" ? v : null;
  } catch {
    return null;
  }
}

/** A TOML key as written (`cache-dir`, `"cache-dir"`, `tool.ruff.cache-dir`), unquoted. */
function tomlKey(raw: string): string {
  return raw.trim().split(/\s*\.\s*/).map((k) => k.replace(/^(["'])(.*)\1$/, "$2")).join(".");
}

/** ruff's settings that place something: its cache, and another settings file it extends. */
const RUFF_PLACES = new Set(["cache-dir", "extend"]);

/**
 * One ruff setting (`key` as ruff.toml writes it), from a file in `dir` or the command line (the
 * cwd: `dir` null): the cache directory as a file opened there, another settings file read.
 */
function ruffSetting(
  key: string,
  raw: string,
  dir: string | null,
  run: Runner,
  origin: string,
  depth: number,
): void {
  if (!RUFF_PLACES.has(key)) return;
  const value = tomlString(raw);
  if (value === null || value.includes("$") || depth > 3) {
    run.stage([unknownWord(`(what ruff's ${key} = ${raw.trim()} names)`)], origin);
    return;
  }
  const path = dir === null || isAbsolute(value) || value.startsWith("~")
    ? value
    : join(dir, value);
  if (key === "cache-dir") opensFile(path, run, origin);
  else ruffFile(literal(path), run, depth + 1);
}

/**
 * What a ruff settings file holds that places something: `ruff.toml`'s top-level settings, a
 * `pyproject.toml`'s `[tool.ruff]` (or `tool.ruff.KEY` at the top).
 */
function ruffText(text: string, path: string, run: Runner, depth: number): void {
  const pyproject = basename(path) === "pyproject.toml";
  let section = "";
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(#|$)/.test(line)) continue;
    const head = /^\s*\[\[?\s*([^\]]*?)\s*\]\]?/.exec(line);
    if (head) {
      section = tomlKey(head[1]);
      continue;
    }
    const m = /^\s*((?:"[^"]*"|'[^']*'|[\w.-]|\s)+?)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    const full = [section, tomlKey(m[1])].filter(Boolean).join(".");
    const prefix = pyproject ? "tool.ruff." : "";
    if (!full.startsWith(prefix)) continue;
    ruffSetting(full.slice(prefix.length), m[2], dirname(path), run, path, depth);
  }
}

/** A ruff settings file (`--config FILE`, `extend`): read as it will be, else not known. */
function ruffFile(file: Word, run: Runner, depth: number): void {
  const text = file.kind !== "static" ? null : run.settings(file.value);
  if (text === null) {
    run.stage([unknownWord(`(the settings of ${file.text})`)], "ruff --config");
  } else ruffText(text, file.value, run, depth);
}

/**
 * ruff's `--config VALUE` (before or after the subcommand, repeated): a `KEY = VALUE` override
 * (the key is what ruff.toml writes, `lint.select`, `cache-dir`), else a settings file.
 */
export function ruffSettings(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (v === "--") break;
    const m = /^--config(=|$)/.exec(v);
    if (!m) continue;
    const value = m[1] ? { ...a, value: a.value.slice(9), prefix: a.prefix.slice(9) } : args[++i];
    if (!value) continue;
    const pair = /^\s*((?:"[^"]*"|'[^']*'|[\w.-]|\s)+?)\s*=([\s\S]*)$/.exec(value.value);
    if (value.kind !== "static") {
      run.stage([unknownWord(`(ruff's settings ${value.text})`)], "ruff --config");
    } else if (pair) ruffSetting(tomlKey(pair[1]), pair[2], null, run, "ruff --config", 0);
    else ruffFile(value, run, 0);
  }
}

/** pylint's `--output-format` as its parser takes it: abbreviated too, `-f`, `-fVALUE`. */
function outputFormatValue(args: Word[], i: number): { value: Word | undefined; skip: number } {
  const a = args[i];
  const v = a.kind === "static" ? a.value : a.prefix;
  const long = /^(--output-[a-z-]*)(=|$)/.exec(v);
  if (long && "--output-format".startsWith(long[1])) {
    if (!long[2]) return { value: args[i + 1], skip: 1 };
    const at = long[0].length;
    return { value: { ...a, value: a.value.slice(at), prefix: a.prefix.slice(at) }, skip: 0 };
  }
  if (v === "-f") return { value: args[i + 1], skip: 1 };
  if (v.startsWith("-f") && !v.startsWith("--")) {
    return { value: { ...a, value: a.value.slice(2), prefix: a.prefix.slice(2) }, skip: 0 };
  }
  return { value: undefined, skip: 0 };
}

/**
 * The files pylint's reporters write: each `FORMAT:FILE` of `--output-format`'s comma-separated
 * list (`text:out.txt,colorized`); a value not known may name one (a file not known).
 */
export function pylintOutputs(argv: Word[]): NamedFile[] {
  const out: NamedFile[] = [];
  const args = argv.slice(1);
  const source = "pylint --output-format";
  for (let i = 0; i < args.length; i++) {
    if (args[i].kind === "static" && args[i].value === "--") break;
    const { value, skip } = outputFormatValue(args, i);
    i += skip;
    if (!value) continue;
    if (value.kind !== "static") {
      out.push({ path: null, source });
      continue;
    }
    for (const part of value.value.split(",")) {
      const colon = part.indexOf(":");
      if (colon >= 0 && part.slice(colon + 1)) out.push({ path: part.slice(colon + 1), source });
    }
  }
  return out;
}

/** ruff's options that take no value (a word after one is a place it is given). */
const RUFF_FLAGS = new Set([
  "--fix",
  "--no-fix",
  "--unsafe-fixes",
  "--fix-only",
  "--preview",
  "--no-preview",
  "--isolated",
  "--exit-zero",
  "--exit-non-zero-on-fix",
  "--exit-non-zero-on-format",
  "--force-exclude",
  "--no-cache",
  "--respect-gitignore",
  "--show-fixes",
  "--statistics",
  "--watch",
  "-q",
  "-s",
  "-v",
  "-e",
  "-w",
  "-n",
]);

/**
 * What ruff rewrites: `ruff format` (not `--check`, `--diff`), `ruff check` (the bare `ruff`)
 * with fixes, which its settings may turn on (not `--no-fix`, `--diff`, `--watch`); named no
 * place, the cwd.
 */
function ruffRewrites(argv: Word[]): "named" | "cwd" | null {
  const args = argv.slice(1);
  let at = 0;
  while (at < args.length && args[at].kind === "static" && args[at].value.startsWith("-")) {
    at += args[at].value === "--config" ? 2 : 1;
  }
  const verb = args[at]?.kind === "static" ? args[at].value : "";
  const has = (options: string[]) =>
    args.some((w) => w.kind === "static" && options.includes(w.value.split("=")[0]));
  if (verb === "format") {
    if (has(["--check", "--diff"])) return null;
  } else if (verb !== "check" && verb !== "") return null;
  else if (has(["--no-fix", "--diff", "--watch", "--show-settings", "--show-files"])) return null;
  return [...args.slice(at + (verb ? 1 : 0))].some((w, i, rest) =>
      w.kind === "static" && !w.value.startsWith("-") &&
      (i === 0 || !rest[i - 1].value.startsWith("-") || rest[i - 1].value.includes("=") ||
        RUFF_FLAGS.has(rest[i - 1].value))
    )
    ? "named"
    : "cwd";
}

/**
 * pylint's `--init-hook CODE` (`--init-hook=CODE`), python it `exec`s before it lints. pylint reads
 * it before its other options, wherever it stands (after the files too), under any name from
 * `--init-h` on (`--init-h=CODE`); its value is the next word where it is not glued, unless that
 * word is an option (an error: nothing runs). Each one given runs. A word not known that may be
 * one (`--init-h$X`) gives code not known.
 */
export function pylintEval(stage: Stage): EvalShape | null {
  const argv = stage.argv;
  const pieces: CodePiece[] = [];
  let via = "";
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    const v = w.kind === "static" ? w.value : w.prefix;
    if (!v.startsWith("--init-h")) continue;
    const eq = v.indexOf("=");
    via ||= eq < 0 ? v : v.slice(0, eq);
    if (w.kind !== "static") pieces.push({ word: w });
    else if (eq >= 0) pieces.push({ word: literal(v.slice(eq + 1)) });
    else if (argv[i + 1] && !(argv[i + 1].kind === "static" && argv[i + 1].value[0] === "-")) {
      pieces.push({ word: argv[++i], at: i });
    }
  }
  return codeShape(stage, "python", via, pieces);
}

/** ruff and pylint. */
export const LINTER_PROGRAMS: Program[] = [
  {
    names: ["ruff"],
    optionCommands: ruffSettings,
    changesBelow: ruffChanges,
    rewritesTrees: ruffRewrites,
  },
  { names: ["pylint"], namedFiles: pylintOutputs, evaluates: pylintEval, codeOption: true },
];
