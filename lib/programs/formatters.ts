/**
 * Formatters (`prettier`, `black`, `gofmt`, `goimports`; ruff's is in linters.ts): the files each
 * may rewrite below a directory it is given (`Program.changesBelow`), so a settings file of
 * another name there (`.npmrc`, `.git/config`) is not changed by `prettier --write . && npm test`.
 * Each takes the files of its languages when it walks a tree: prettier those it infers a parser
 * for (by extension, by file name, or by a `#!` line in a name without a dot; never below `.git`,
 * `.hg`, `.svn`, `.sl`, `.jj`, nor `node_modules` without `--with-node-modules`), black
 * `.py`/`.pyi`/`.ipynb`, gofmt `.go` files not starting with a dot. A plugin, a parser forced on
 * every file, an `overrides` section, a shared configuration, a configuration in code, or an
 * `include` may widen that: then any file may be changed.
 *
 * @example
 * ```ts
 * import { FORMATTER_PROGRAMS } from "./formatters.ts";
 * const gofmt = FORMATTER_PROGRAMS.find((p) => p.names.includes("gofmt"))!;
 * gofmt.changesBelow!([], "/p", "/p/.npmrc", { read: () => "", home: "/h" }); // false
 * ```
 *
 * @module
 */
import { basename, dirname, join, relative } from "node:path";
import type { Word } from "../shell/model.ts";
import type { ChangesGiven, Program } from "./spec.ts";
import { globOperandsOf } from "./glob_operands.ts";

/** The directories above `file` (its own first), up to the root. */
export function dirsAbove(file: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(file), n = 0; n < 64; n++) {
    out.push(dir);
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return out;
}

/**
 * Whether a word is one of `options` or one of them with `=VALUE` (a word not known may be one).
 */
export function hasOption(argv: Word[], options: readonly string[]): boolean {
  return argv.slice(1).some((w) =>
    w.kind !== "static" ||
    options.some((o) => w.value === o || w.value.startsWith(o + "="))
  );
}

/** The components of `file` between `dir` and its name. */
export function between(dir: string, file: string): string[] {
  return relative(dir, file).split("/").slice(0, -1);
}

/** The extensions prettier infers a parser from (its languages', lower case; a superset). */
const PRETTIER_EXTENSIONS = [
  // JavaScript, Flow, JSX, TypeScript
  ".js",
  "._js",
  ".bones",
  ".cjs",
  ".es",
  ".es6",
  ".frag",
  ".gs",
  ".jake",
  ".javascript",
  ".jsb",
  ".jscad",
  ".jsfl",
  ".jslib",
  ".jsm",
  ".jspre",
  ".jss",
  ".mjs",
  ".njs",
  ".pac",
  ".sjs",
  ".ssjs",
  ".xsjs",
  ".xsjslib",
  ".wxs",
  ".js.flow",
  ".jsx",
  ".ts",
  ".cts",
  ".mts",
  ".tsx",
  // JSON, JSON with comments, JSON5
  ".json",
  ".4dform",
  ".4dproject",
  ".avsc",
  ".geojson",
  ".gltf",
  ".har",
  ".ice",
  ".json-tmlanguage",
  ".jsonl",
  ".mcmeta",
  ".tfstate",
  ".tfstate.backup",
  ".topojson",
  ".webapp",
  ".webmanifest",
  ".yy",
  ".yyp",
  ".jsonc",
  ".code-snippets",
  ".code-workspace",
  ".json5",
  ".importmap",
  // CSS, PostCSS, Less, SCSS, Handlebars, GraphQL
  ".css",
  ".wxss",
  ".pcss",
  ".postcss",
  ".less",
  ".scss",
  ".handlebars",
  ".hbs",
  ".graphql",
  ".gql",
  ".graphqls",
  // Markdown, MDX
  ".md",
  ".livemd",
  ".markdown",
  ".mdown",
  ".mdwn",
  ".mkd",
  ".mkdn",
  ".mkdown",
  ".ronn",
  ".scd",
  ".workbook",
  ".mdx",
  // HTML, Angular, Vue, YAML
  ".html",
  ".hta",
  ".htm",
  ".html.hl",
  ".inc",
  ".xht",
  ".xhtml",
  ".mjml",
  ".vue",
  ".yml",
  ".mir",
  ".reek",
  ".rviz",
  ".syntax",
  ".yaml",
  ".yaml-tmlanguage",
  ".yaml.sed",
  ".yml.mysql",
];

/** The file names prettier infers a parser from (lower case; a superset). */
const PRETTIER_NAMES = new Set([
  ".all-contributorsrc",
  ".arcconfig",
  ".auto-changelog",
  ".babelrc",
  ".c8rc",
  ".clang-format",
  ".clang-tidy",
  ".clangd",
  ".eslintrc",
  ".gemrc",
  ".htmlhintrc",
  ".imgbotconfig",
  ".jscsrc",
  ".jshintrc",
  ".jslintrc",
  ".lintstagedrc",
  ".nycrc",
  ".prettierrc",
  ".stylelintrc",
  ".swcrc",
  ".tern-config",
  ".tern-project",
  ".watchmanconfig",
  "citation.cff",
  "composer.lock",
  "contents.lr",
  "flake.lock",
  "glide.lock",
  "mcmod.info",
  "pipfile.lock",
  "pixi.lock",
  "yarn.lock",
  "jakefile",
  "readme",
]);

/** The directories prettier never walks into, nor takes a file below. */
const PRETTIER_SKIPPED = [".git", ".sl", ".svn", ".hg", ".jj"];

/** Where prettier looks for its configuration, in each directory from the file's up. */
const PRETTIER_CONFIGS = [
  ".prettierrc",
  ".prettierrc.json",
  ".prettierrc.yaml",
  ".prettierrc.yml",
  ".prettierrc.json5",
  ".prettierrc.toml",
  ".prettierrc.js",
  ".prettierrc.mjs",
  ".prettierrc.cjs",
  ".prettierrc.ts",
  ".prettierrc.mts",
  ".prettierrc.cts",
  "prettier.config.js",
  "prettier.config.mjs",
  "prettier.config.cjs",
  "prettier.config.ts",
  "prettier.config.mts",
  "prettier.config.cts",
  "package.json",
  "package.yaml",
];

/** Keys of a prettier configuration that may make it take other files. */
const PRETTIER_WIDENING = /\b(plugins|overrides|parser|pluginSearchDirs)\b/;

/**
 * Whether a prettier configuration file's text may make it take other files: a plugin, an
 * override, a parser for every file, a shared configuration it names (a string), one in code.
 */
function prettierConfigWidens(name: string, text: string): boolean {
  if (!text.trim()) return false;
  if (name === "package.json") {
    if (!/"prettier"\s*:/.test(text)) return false;
    return /"prettier"\s*:\s*"/.test(text) || PRETTIER_WIDENING.test(text);
  }
  if (name === "package.yaml") return /\bprettier\b/.test(text);
  if (/\.[cm]?[jt]s$/.test(name)) return true;
  const trimmed = text.trim();
  // (A shared configuration: `"@company/prettier-config"`, as JSON or YAML.)
  if (!/[:=]/.test(trimmed) || /^["']/.test(trimmed)) return true;
  return PRETTIER_WIDENING.test(text);
}

/** Whether prettier, walking `dir`, may rewrite `file`. */
function prettierChanges(argv: Word[], dir: string, file: string, given: ChangesGiven): boolean {
  const forced = ["--plugin", "--parser", "--config", "--plugin-search-dir", "--stdin-filepath"];
  if (hasOption(argv, forced)) return true;
  const skipped = hasOption(argv, ["--with-node-modules"])
    ? PRETTIER_SKIPPED
    : [...PRETTIER_SKIPPED, "node_modules"];
  if (between(dir, file).some((c) => skipped.includes(c))) return false;
  if (!hasOption(argv, ["--no-config"])) {
    for (const at of dirsAbove(file)) {
      for (const name of PRETTIER_CONFIGS) {
        const text = given.read(join(at, name));
        if (text === null || prettierConfigWidens(name, text)) return true;
      }
    }
  }
  const name = basename(file).toLowerCase();
  if (PRETTIER_NAMES.has(name)) return true;
  // (A name without a dot is taken by its `#!` line, `#!/usr/bin/env node`, as it will be then.)
  if (!name.includes(".")) {
    const text = given.read(file);
    return text === null || text.startsWith("#!");
  }
  return PRETTIER_EXTENSIONS.some((e) => name.endsWith(e)) || /\.sublime[-_]\w+$/.test(name);
}

/**
 * The keys a TOML text sets (`section.key`, dotted), those of a pyproject.toml's `[tool.TOOL]`
 * (`tool`) relative to it, others left out.
 */
function tomlKeys(text: string, tool?: string): string[] {
  const keys: string[] = [];
  let section = "";
  for (const line of text.split(/\r?\n/)) {
    const head = /^\s*\[\[?\s*([^\]]*?)\s*\]\]?/.exec(line);
    if (head) {
      section = head[1].replace(/["'\s]/g, "");
      continue;
    }
    const m = /^\s*([\w.\-"' ]+?)\s*=/.exec(line);
    if (!m) continue;
    const full = [section, m[1].replace(/["'\s]/g, "")].filter(Boolean).join(".");
    if (!tool) keys.push(full);
    else if (full.startsWith(`tool.${tool}.`)) keys.push(full.slice(tool.length + 6));
    // (An inline table: `tool.black = { include = "…" }`.)
    else if (full === `tool.${tool}` || full === "tool") keys.push(line);
  }
  return keys;
}

/**
 * Whether a Python tool's settings (`tool`: its pyproject.toml table; `own`: its own files, read
 * at the top level; `user`: its user-level files below the home) may widen the files it takes
 * (`include`, `extend-include`, `extend` naming another file, a file not known), in each
 * directory from `file`'s up and the user's.
 */
export function pythonSettingsWiden(
  file: string,
  given: ChangesGiven,
  tool: string,
  own: readonly string[],
  user: readonly string[],
): boolean {
  const widening = (key: string) => /(^|[.\s{,])(extend-)?include\b|(^|\.)extend$/.test(key);
  const read = (path: string, table: string | undefined) => {
    const text = given.read(path);
    return text === null || tomlKeys(text, table).some(widening);
  };
  for (const at of dirsAbove(file)) {
    if (read(join(at, "pyproject.toml"), tool)) return true;
    if (own.some((name) => read(join(at, name), undefined))) return true;
  }
  return user.some((path) =>
    read(join(given.home, path), path.endsWith("pyproject.toml") ? tool : undefined)
  );
}

/** The files black and ruff take walking a tree. */
const PYTHON_FILES = /\.(py|pyi|ipynb)$/;

/** Whether black, walking `dir`, may rewrite `file`. */
function blackChanges(argv: Word[], _dir: string, file: string, given: ChangesGiven): boolean {
  if (hasOption(argv, ["--include", "--config", "--stdin-filename"])) return true;
  if (pythonSettingsWiden(file, given, "black", [], [".config/black"])) return true;
  return PYTHON_FILES.test(basename(file));
}

/**
 * Whether ruff, walking `dir`, may rewrite `file`: the Python files, and pyproject.toml (its
 * default `include`, which its linter reads and `ruff format` skips), unless `--extension`,
 * `--config` or its settings widen them.
 */
export function ruffChanges(
  argv: Word[],
  _dir: string,
  file: string,
  given: ChangesGiven,
): boolean {
  if (hasOption(argv, ["--extension", "--config", "--stdin-filename"])) return true;
  const user = [".config/ruff/ruff.toml", ".config/ruff/.ruff.toml", ".config/ruff/pyproject.toml"];
  if (pythonSettingsWiden(file, given, "ruff", ["ruff.toml", ".ruff.toml"], user)) return true;
  const name = basename(file);
  const format = argv.find((w, i) => i > 0 && !w.value.startsWith("-"))?.value === "format";
  return PYTHON_FILES.test(name) || (name === "pyproject.toml" && !format);
}

/** Whether gofmt or goimports, walking `dir`, may rewrite `file`: a `.go` file, no dot first. */
function goChanges(_argv: Word[], _dir: string, file: string): boolean {
  const name = basename(file);
  return name.endsWith(".go") && !name.startsWith(".");
}

/** Whether a static word is one of `options` or one of them with `=VALUE`. */
export function given(argv: Word[], options: readonly string[]): boolean {
  return argv.slice(1).some((w) =>
    w.kind === "static" && options.some((o) => w.value === o || w.value.startsWith(o + "="))
  );
}

/**
 * Whether a short option letter is in a static word of short options (`-ir` holds `i`); `stop`:
 * letters that take the rest of the word as their value.
 */
export function shortFlag(argv: Word[], letter: string, stop = ""): boolean {
  return argv.slice(1).some((w) => {
    if (w.kind !== "static" || !/^-[^-]/.test(w.value)) return false;
    for (const c of w.value.slice(1)) {
      if (c === letter) return true;
      if (stop.includes(c)) return false;
    }
    return false;
  });
}

/** prettier writes what it formats with `--write` (`-w`), and only the files it is given. */
function prettierRewrites(argv: Word[]): "named" | null {
  return hasOption(argv, ["--write", "-w"]) ? "named" : null;
}

/** black writes what it formats unless it only checks or shows (`--check`, `--diff`, `-c`). */
function blackRewrites(argv: Word[]): "named" | null {
  return given(argv, ["--check", "--diff", "--code", "-c"]) ? null : "named";
}

/** gofmt and goimports write what they format with `-w` alone. */
function goRewrites(argv: Word[]): "named" | null {
  return hasOption(argv, ["-w", "--w"]) ? "named" : null;
}

/** prettier's options that take the next word (a path, a name, a number). */
const PRETTIER_VALUED = new Set([
  "--config",
  "--ignore-path",
  "--plugin",
  "--parser",
  "--stdin-filepath",
  "--cache-location",
  "--cache-strategy",
  "--log-level",
  "--config-precedence",
  "--cursor-offset",
  "--range-start",
  "--range-end",
  "--print-width",
  "--tab-width",
  "--trailing-comma",
  "--arrow-parens",
  "--end-of-line",
  "--prose-wrap",
  "--quote-props",
  "--html-whitespace-sensitivity",
  "--embedded-language-formatting",
  "--experimental-operator-position",
  "--object-wrap",
]);

/**
 * prettier expands a glob operand itself (its expand-patterns: fast-glob with `dot: true`),
 * dot files included (`prettier --write '**\/*.json'` takes `.pi/x.json`).
 */
function prettierGlobs(argv: Word[]) {
  return globOperandsOf(argv, 1, PRETTIER_VALUED, true, "escape", true);
}

/** prettier, black, gofmt and goimports. */
export const FORMATTER_PROGRAMS: Program[] = [
  {
    names: ["prettier"],
    changesBelow: prettierChanges,
    rewritesTrees: prettierRewrites,
    globOperands: prettierGlobs,
  },
  { names: ["black"], changesBelow: blackChanges, rewritesTrees: blackRewrites },
  { names: ["gofmt", "goimports"], changesBelow: goChanges, rewritesTrees: goRewrites },
];
