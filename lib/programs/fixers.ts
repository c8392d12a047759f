/**
 * Formatters and linters that fix what they find, beside formatters.ts's: the files each may
 * rewrite below a directory it is given (`Program.changesBelow`) and whether it writes, and where
 * (`Program.rewritesTrees`: the trees it is given, and the cwd where it names none). deno's
 * `fmt` and `lint --fix` (their languages; `--ext`, a config's `include` may widen), eslint's
 * `--fix` (`.js`, `.mjs`, `.cjs`; any config, written in code, may take any file), biome's
 * `--write`/`--fix`/`--apply`, `cargo fmt` and rustfmt (`.rs`), isort, `autopep8 -i -r`,
 * `shfmt -w`, `stylelint --fix`, rubocop's `-a`/`-A`, `terraform fmt` and `dprint fmt`. A mode that
 * writes nothing (`--check`, `--diff`, `--dry-run`) rewrites no tree.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { denoChanges } from "./fixers.ts";
 * const argv = ["deno", "fmt", "."].map(literal);
 * denoChanges(argv, "/p", "/p/.npmrc", { read: () => "", home: "/h" }); // false
 * ```
 *
 * @module
 */
import { basename, join } from "node:path";
import type { Word } from "../shell/model.ts";
import type { ChangesGiven, Program } from "./spec.ts";
import { between, dirsAbove, given, hasOption, shortFlag } from "./formatters.ts";
import { globOperandsOf } from "./glob_operands.ts";

/** How a program rewrites trees (see `Program.rewritesTrees`). */
export type Rewrites = "named" | "cwd" | null;

/**
 * Whether the words name a place: a static word that is no option, nor the value of one before
 * it that is not among `flags` (written without `=`: it may take the word). A word not known may
 * be none (the cwd is then counted).
 */
function namesOperand(args: Word[], flags: ReadonlySet<string>): boolean {
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.kind !== "static") continue;
    if (w.value === "--") return args.slice(i + 1).some((a) => a.kind === "static");
    if (w.value.startsWith("-") && w.value !== "-") continue;
    const prev = args[i - 1];
    if (
      prev !== undefined && prev.value.startsWith("-") && !prev.value.includes("=") &&
      !flags.has(prev.value)
    ) continue;
    return true;
  }
  return false;
}

/** The first word that is no option (a subcommand), and its index; `valued`: options before it. */
export function subcommand(argv: Word[], valued: ReadonlySet<string> = NONE): [string, number] {
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i].value;
    if (argv[i].kind !== "static") return ["", -1];
    if (valued.has(v)) i++;
    else if (!v.startsWith("-") && !v.startsWith("+")) return [v, i];
  }
  return ["", -1];
}

const NONE: ReadonlySet<string> = new Set();

/** Whether a component between `dir` and `file` is one of `names`. */
function inSkipped(dir: string, file: string, names: readonly string[]): boolean {
  return between(dir, file).some((c) => names.includes(c));
}

/** Whether a settings file in a directory above `file` (or `dir` itself) may widen: `widens`. */
function settingsWiden(
  file: string,
  given: ChangesGiven,
  names: readonly string[],
  widens: (name: string, text: string) => boolean,
): boolean {
  for (const at of dirsAbove(file)) {
    for (const name of names) {
      const text = given.read(join(at, name));
      if (text === null || (text !== "" && widens(name, text))) return true;
    }
  }
  return false;
}

// deno

/** The files `deno fmt` formats (its stable and unstable languages). */
const DENO_FMT =
  /\.(m?[jt]sx?|c[jt]s|jsonc?|md|markdown|mkdn?|mdwn|mdown|css|scss|sass|less|html?|svelte|vue|astro|vto|njk|ya?ml|ipynb|sql)$/i;

/** The files `deno lint` lints. */
const DENO_LINT = /\.(m?[jt]sx?|c[jt]s)$/i;

/** `deno fmt`'s options that take no value (a word after one is an operand). */
const DENO_FLAGS = new Set([
  "--check",
  "--fix",
  "--use-tabs",
  "--no-semicolons",
  "--single-quote",
  "--watch",
  "--no-clear-screen",
  "--permit-no-files",
  "--no-config",
  "--compact",
  "--json",
  "-q",
  "--quiet",
  "--unstable",
  "--unstable-component",
  "--unstable-sql",
  "--unstable-css",
  "--unstable-html",
  "--unstable-yaml",
]);

/** What deno rewrites: `deno fmt` (not `--check`), `deno lint --fix`; the cwd where no place. */
export function denoRewrites(argv: Word[]): Rewrites {
  const [verb, at] = subcommand(argv, new Set(["--log-level"]));
  const rest = argv.slice(at + 1);
  const all = [argv[0], ...rest];
  if (verb === "fmt") {
    if (given(all, ["--check"])) return null;
  } else if (verb !== "lint" || !hasOption(all, ["--fix"])) return null;
  return namesOperand(rest, DENO_FLAGS) ? "named" : "cwd";
}

/**
 * Whether `deno fmt` or `deno lint --fix`, given `dir`, may change `file`: its languages' files,
 * not below `.git` or `node_modules`, unless `--ext`, `--config` or a config's `include` may widen
 * them. Any file for its other subcommands.
 */
export function denoChanges(argv: Word[], dir: string, file: string, given: ChangesGiven): boolean {
  const [verb] = subcommand(argv, new Set(["--log-level"]));
  if (verb !== "fmt" && verb !== "lint") return true;
  if (hasOption(argv, ["--ext", "--config", "-c"])) return true;
  if (inSkipped(dir, file, [".git", "node_modules"])) return false;
  const include = (_: string, text: string) => /\binclude\b/.test(text);
  if (settingsWiden(file, given, ["deno.json", "deno.jsonc"], include)) return true;
  return (verb === "fmt" ? DENO_FMT : DENO_LINT).test(basename(file));
}

// eslint

/** Where eslint finds its configuration (flat and legacy). */
const ESLINT_CONFIGS = [
  "eslint.config.js",
  "eslint.config.mjs",
  "eslint.config.cjs",
  "eslint.config.ts",
  "eslint.config.mts",
  "eslint.config.cts",
  ".eslintrc",
  ".eslintrc.js",
  ".eslintrc.cjs",
  ".eslintrc.json",
  ".eslintrc.yaml",
  ".eslintrc.yml",
  "package.json",
];

const ESLINT_FLAGS = new Set([
  "--fix",
  "--cache",
  "--quiet",
  "--debug",
  "--color",
  "--no-color",
  "--no-eslintrc",
  "--no-ignore",
  "--no-inline-config",
  "--no-config-lookup",
  "--no-error-on-unmatched-pattern",
  "--no-warn-ignored",
  "--pass-on-no-patterns",
  "--exit-on-fatal-error",
  "--report-unused-disable-directives",
  "--stats",
]);

/** eslint writes with `--fix` (`--fix-dry-run` writes nothing); v9 lints the cwd named none. */
function eslintRewrites(argv: Word[]): Rewrites {
  if (!hasOption(argv, ["--fix"])) return null;
  return namesOperand(argv.slice(1), ESLINT_FLAGS) ? "named" : "cwd";
}

/**
 * Whether `eslint --fix`, given `dir`, may change `file`: `.js`, `.mjs`, `.cjs` (not below
 * `node_modules` or `.git`), any file where a configuration is found (written in code, its
 * `files` may be any) or an option may widen them.
 */
function eslintChanges(_argv: Word[], dir: string, file: string, given: ChangesGiven): boolean {
  const widening = ["--ext", "--config", "-c", "--plugin", "--parser", "--rulesdir"];
  if (hasOption(_argv, [...widening, "--stdin-filename", "--resolve-plugins-relative-to"])) {
    return true;
  }
  if (inSkipped(dir, file, [".git", "node_modules"])) return false;
  const config = (name: string, text: string) =>
    name !== "package.json" || /"eslintConfig"\s*:/.test(text);
  if (settingsWiden(file, given, ESLINT_CONFIGS, config)) return true;
  return /\.[cm]?js$/.test(basename(file));
}

// biome

/** The files biome formats, lints or checks (a superset), and the names it takes as JSON. */
const BIOME_FILES =
  /\.(m?[jt]sx?|c[jt]s|jsonc?|json5|css|graphql|gql|html?|vue|svelte|astro|grit)$/i;
const BIOME_NAMES = new Set([
  ".babelrc",
  ".eslintrc",
  ".jshintrc",
  ".jsbeautifyrc",
  ".jscsrc",
  ".swcrc",
  ".hintrc",
  ".jsfmtrc",
  ".prettierrc",
  ".stylelintrc",
]);

/** biome writes with `--write`, `--fix`, `--apply`, `--apply-unsafe` (not `ci`): the cwd too. */
function biomeRewrites(argv: Word[]): Rewrites {
  const [verb, at] = subcommand(argv);
  if (!["format", "lint", "check"].includes(verb)) return null;
  if (!hasOption(argv, ["--write", "--fix", "--apply", "--apply-unsafe"])) return null;
  const flags = new Set(["--write", "--fix", "--apply", "--apply-unsafe", "--unsafe", "--staged"]);
  return namesOperand(argv.slice(at + 1), flags) ? "named" : "cwd";
}

/**
 * Whether biome may change `file`: its languages' (not below `.git` or `node_modules`), unless
 * `--config-path`, `--stdin-file-path` or its configuration (`includes`, `overrides`, a plugin,
 * another it extends) may widen them.
 */
function biomeChanges(argv: Word[], dir: string, file: string, given: ChangesGiven): boolean {
  if (hasOption(argv, ["--config-path", "--stdin-file-path"])) return true;
  if (inSkipped(dir, file, [".git", "node_modules"])) return false;
  const widens = (_: string, text: string) =>
    /\b(includes?|overrides|plugins|extends)\b/.test(text);
  if (settingsWiden(file, given, ["biome.json", "biome.jsonc", ".biome.json"], widens)) return true;
  const name = basename(file);
  return BIOME_FILES.test(name) || BIOME_NAMES.has(name.toLowerCase());
}

// rust

/** The Rust files `cargo fmt` and rustfmt format. */
export function rustChanges(_argv: Word[], _dir: string, file: string): boolean {
  return file.endsWith(".rs");
}

/** Whether rustfmt only shows what it would write: `--check`, `--emit stdout`. */
export function rustfmtShows(argv: Word[]): boolean {
  return given(argv, ["--check", "--emit=stdout"]) ||
    argv.some((w, i) => w.value === "--emit" && argv[i + 1]?.value === "stdout");
}

/** rustfmt writes the files it is given unless it only shows them. */
function rustfmtRewrites(argv: Word[]): Rewrites {
  return rustfmtShows(argv) ? null : "named";
}

// python

/** isort writes unless it checks or shows (`--check-only`, `-c`, `--diff`, `--stdout`). */
function isortRewrites(argv: Word[]): Rewrites {
  const shows = ["--check-only", "--check", "-c", "--diff", "-d", "--stdout", "--show-files"];
  return given(argv, [...shows, "--show-config"]) ? null : "named";
}

/** Whether isort may change `file`: Python and Cython files, unless settings add extensions. */
function isortChanges(argv: Word[], _dir: string, file: string, given: ChangesGiven): boolean {
  const widening = ["--ext", "--extension", "--supported-extension", "--settings-path", "--sp"];
  if (hasOption(argv, [...widening, "--settings-file", "--settings", "--filename"])) return true;
  const names = [".isort.cfg", "pyproject.toml", "setup.cfg", "tox.ini", ".editorconfig"];
  if (settingsWiden(file, given, names, (_, text) => /extension/.test(text))) return true;
  return /\.(pyi?|pyx|pxd)$/.test(basename(file));
}

/** autopep8 writes a tree with `-i` (`--in-place`) and `-r`, unless `--diff` shows instead. */
function autopep8Rewrites(argv: Word[]): Rewrites {
  const inPlace = hasOption(argv, ["--in-place"]) || shortFlag(argv, "i", "jpe");
  const tree = hasOption(argv, ["--recursive"]) || shortFlag(argv, "r", "jpe");
  const shows = given(argv, ["--diff"]) || shortFlag(argv, "d", "jpe");
  return inPlace && tree && !shows ? "named" : null;
}

/**
 * Whether `autopep8 -r`, given `dir`, may change `file`: no name below `dir` starts with `.`; a
 * `.py` file, or one whose first line runs python.
 */
function autopep8Changes(_argv: Word[], dir: string, file: string, given: ChangesGiven): boolean {
  const name = basename(file);
  if (name.startsWith(".") || between(dir, file).some((c) => c.startsWith("."))) return false;
  if (name.endsWith(".py")) return true;
  const text = given.read(file);
  return text === null || /^#!.*python/.test(text);
}

// shell, css, ruby, terraform, dprint

/** shfmt writes with `-w` (`--write`); given a directory, the shell scripts below it. */
function shfmtRewrites(argv: Word[]): Rewrites {
  return hasOption(argv, ["--write"]) || shortFlag(argv, "w", "ifl") ? "named" : null;
}

/**
 * Whether shfmt, walking `dir`, may change `file`: not below `.git`, `.svn` or `.hg`, no dot
 * first; a shell extension, or no extension and a shell `#!` line.
 */
function shfmtChanges(_argv: Word[], dir: string, file: string, given: ChangesGiven): boolean {
  const name = basename(file);
  if (name.startsWith(".") || inSkipped(dir, file, [".git", ".svn", ".hg"])) return false;
  if (/\.(sh|bash|mksh|bats|zsh)$/.test(name)) return true;
  if (name.includes(".")) return false;
  const text = given.read(file);
  return text === null || /^#!.*\b(sh|bash|mksh|bats|zsh|dash|ksh)\b/.test(text);
}

/** stylelint writes with `--fix`, the files its words (files, directories, globs) name. */
function stylelintRewrites(argv: Word[]): Rewrites {
  return hasOption(argv, ["--fix"]) ? "named" : null;
}

/** stylelint's configuration files. */
const STYLELINT_CONFIGS = [
  ".stylelintrc",
  ".stylelintrc.json",
  ".stylelintrc.yaml",
  ".stylelintrc.yml",
  ".stylelintrc.js",
  ".stylelintrc.cjs",
  ".stylelintrc.mjs",
  "stylelint.config.js",
  "stylelint.config.cjs",
  "stylelint.config.mjs",
  "package.json",
];

/**
 * Whether `stylelint --fix` may change `file`: style sheets and the files it reads styles in,
 * not below `node_modules`, unless a custom syntax, a configuration in code, an override, a
 * plugin or another it extends may make it take any.
 */
function stylelintChanges(argv: Word[], dir: string, file: string, given: ChangesGiven): boolean {
  if (hasOption(argv, ["--custom-syntax", "--config", "-c", "--stdin-filename"])) return true;
  if (inSkipped(dir, file, ["node_modules"])) return false;
  const widens = (name: string, text: string) =>
    name === "package.json"
      ? /"stylelint"\s*:/.test(text)
      : /\.[cm]?js$/.test(name) || /customSyntax|overrides|plugins|extends|processors/.test(text);
  if (settingsWiden(file, given, STYLELINT_CONFIGS, widens)) return true;
  return /\.(css|scss|sass|less|sss|pcss|postcss|html?|vue|svelte|astro|md|m?[jt]sx?)$/i.test(
    basename(file),
  );
}

/** rubocop writes with `-a`, `-A`, `-x` and their long forms; named no place, the cwd. */
function rubocopRewrites(argv: Word[]): Rewrites {
  const long = ["--autocorrect", "--autocorrect-all", "--auto-correct", "--auto-correct-all"];
  const fixes = hasOption(argv, [...long, "--fix-layout"]) ||
    ["a", "A", "x"].some((c) => shortFlag(argv, c, "crfoeS"));
  if (!fixes) return null;
  const flags = new Set(["-a", "-A", "-x", ...long, "--fix-layout", "-P", "--parallel", "-D"]);
  return namesOperand(argv.slice(1), flags) ? "named" : "cwd";
}

/** The names of Ruby files rubocop takes without a Ruby extension. */
const RUBY_NAMES = new Set(
  ("Appraisals Berksfile Brewfile Buildfile Capfile Cheffile Dangerfile Deliverfile Fastfile " +
    "Gemfile Guardfile Jarfile Mavenfile Podfile Puppetfile Rakefile rakefile Schemafile " +
    "Snapfile Steepfile Thorfile Vagabondfile Vagrantfile buildfile .irbrc .pryrc .simplecov")
    .split(" "),
);

/**
 * Whether rubocop's fixes may change `file`: Ruby files (by extension, name or `#!` line), not
 * below `node_modules`, `vendor`, `tmp` or `.git`, unless its configuration may take others.
 */
function rubocopChanges(argv: Word[], dir: string, file: string, given: ChangesGiven): boolean {
  if (hasOption(argv, ["--config", "-c", "--stdin", "-s"])) return true;
  if (inSkipped(dir, file, ["node_modules", "vendor", "tmp", ".git"])) return false;
  const widens = (_: string, text: string) =>
    /\b(Include|inherit_from|inherit_gem|require|plugins)\b/.test(text);
  if (settingsWiden(file, given, [".rubocop.yml"], widens)) return true;
  const user = [".rubocop.yml", ".config/rubocop/config.yml"];
  if (user.some((p) => given.read(join(given.home, p)) !== "")) return true;
  const name = basename(file);
  if (RUBY_NAMES.has(name)) return true;
  const ruby =
    /\.(rb|arb|axlsx|builder|fcgi|gemfile|gemspec|god|jb|jbuilder|mspec|opal|pluginspec|podspec|rabl|rake|rbuild|rbw|rbx|ru|ruby|schema|spec|thor|watchr)$/;
  if (ruby.test(name)) return true;
  if (name.includes(".")) return false;
  const text = given.read(file);
  return text === null || /^#!.*ruby/.test(text);
}

/** `terraform fmt` writes unless `-check` or `-write=false`; named no place, the cwd. */
function terraformRewrites(argv: Word[]): Rewrites {
  const [verb, at] = subcommand(argv);
  if (verb !== "fmt" || given(argv, ["-check", "--check", "-write=false", "--write=false"])) {
    return null;
  }
  // (Its options are Go's: none takes the next word.)
  const operand = (w: Word) => w.kind === "static" && !w.value.startsWith("-");
  return argv.slice(at + 1).some(operand) ? "named" : "cwd";
}

/**
 * Whether `terraform fmt` may change `file` below `dir`: its configuration files, right in `dir`
 * unless `-recursive`. Any file for its other subcommands.
 */
function terraformChanges(argv: Word[], dir: string, file: string): boolean {
  if (subcommand(argv)[0] !== "fmt") return true;
  if (!given(argv, ["-recursive", "--recursive"]) && between(dir, file).length) return false;
  return /\.(tf|tfvars|tftest\.hcl|tfmock\.hcl)$/.test(basename(file));
}

/** `dprint fmt` writes (`check` does not): the files its configuration takes, from the cwd. */
function dprintRewrites(argv: Word[]): Rewrites {
  const [verb, at] = subcommand(argv, new Set(["--config", "-c", "--log-level"]));
  if (verb !== "fmt") return null;
  const flags = new Set([
    "--staged",
    "--diff",
    "--allow-no-files",
    "--incremental",
    "--skip-stable-format",
  ]);
  return namesOperand(argv.slice(at + 1), flags) ? "named" : "cwd";
}

/** The files each of dprint's own plugins formats (by its name in the plugin's URL). */
const DPRINT_PLUGINS: [RegExp, RegExp][] = [
  [/\/typescript-[\d.]+\.wasm/, /\.(m?[jt]sx?|c[jt]s)$/],
  [/\/json-[\d.]+\.wasm/, /\.jsonc?$/],
  [/\/markdown-[\d.]+\.wasm/, /\.(md|markdown)$/],
  [/\/toml-[\d.]+\.wasm/, /\.toml$/],
  [/\/dockerfile-[\d.]+\.wasm/, /(^|\.)dockerfile$/i],
];

/**
 * Whether `dprint fmt` may change `file`: those of the plugins the nearest configuration (or the
 * user's) names, where each is one of dprint's own (another, `includes`, `associations` or
 * another configuration it extends may take any), not below `node_modules` or `.git`; none where
 * there is no configuration (dprint formats nothing).
 */
function dprintChanges(argv: Word[], dir: string, file: string, given: ChangesGiven): boolean {
  if (subcommand(argv, new Set(["--config", "-c"]))[0] !== "fmt") return true;
  if (hasOption(argv, ["--config", "-c", "--stdin"])) return true;
  if (inSkipped(dir, file, [".git", "node_modules"])) return false;
  const names = ["dprint.json", ".dprint.json", "dprint.jsonc", ".dprint.jsonc"];
  const configs = [
    ...dirsAbove(file).flatMap((at) => names.map((n) => join(at, n))),
    join(given.home, ".config/dprint/dprint.json"),
  ];
  for (const config of configs) {
    const text = given.read(config);
    if (text === null || /\b(includes|associations|extends)\b/.test(text)) return true;
    if (text === "") continue;
    const urls = text.match(/"[^"]*\.(wasm|json@[0-9a-f]+|exe-plugin[^"]*)"/g) ?? [];
    const known = urls.map((u) => DPRINT_PLUGINS.find(([url]) => url.test(u)));
    return known.some((k) => k === undefined || k[1].test(basename(file)));
  }
  return false;
}

// Their own globs (`Program.globOperands`): the options of each that take the next word.

/** eslint's options that take the next word (`--rule 'quotes: [2, double]'` is no glob). */
const ESLINT_VALUED = new Set([
  "-c",
  "--config",
  "--ext",
  "--global",
  "--parser",
  "--parser-options",
  "--resolve-plugins-relative-to",
  "--env",
  "--rulesdir",
  "--plugin",
  "--rule",
  "--fix-type",
  "--ignore-path",
  "--ignore-pattern",
  "--stdin-filename",
  "--max-warnings",
  "-o",
  "--output-file",
  "-f",
  "--format",
  "--report-unused-disable-directives-severity",
  "--cache-file",
  "--cache-location",
  "--cache-strategy",
  "--print-config",
  "--flag",
  "--concurrency",
  "--suppressions-location",
  "--suppress-rule",
]);

/** eslint matches its glob operands with minimatch's `dot: true` (flat config). */
function eslintGlobs(argv: Word[]) {
  return globOperandsOf(argv, 1, ESLINT_VALUED, true);
}

/** stylelint's options that take the next word. */
const STYLELINT_VALUED = new Set([
  "-c",
  "--config",
  "--config-basedir",
  "--custom-syntax",
  "-f",
  "--formatter",
  "--custom-formatter",
  "-i",
  "--ignore-path",
  "--ip",
  "--ignore-pattern",
  "-o",
  "--output-file",
  "--stdin-filename",
  "--mw",
  "--max-warnings",
  "--go",
  "--globby-options",
  "--cache-location",
  "--cache-strategy",
]);

/**
 * stylelint expands its glob operands with globby, dot files left out unless `--globby-options`
 * (`--go`) says otherwise (`{"dot": true}`).
 */
function stylelintGlobs(argv: Word[]) {
  const dot = hasOption(argv, ["--globby-options", "--go"]);
  return globOperandsOf(argv, 1, STYLELINT_VALUED, dot, "escape", true);
}

/**
 * `dprint fmt`/`check`/`output-file-paths` expand their file patterns themselves (dot files
 * counted: its matcher is not read here), a `\` a `/` (dprint 0.54: `'.pi\*.json'` is
 * `.pi/*.json`, `'\.pi/*'` is `/.pi/*`). `--excludes` takes several words: taken as patterns.
 */
function dprintGlobs(argv: Word[]) {
  const [verb, at] = subcommand(argv, new Set(["--config", "-c", "--log-level"]));
  if (verb === "") return null;
  const valued = new Set(["--config", "-c", "--log-level"]);
  return globOperandsOf(argv, at + 1, valued, true, "separator");
}

/**
 * `deno fmt`, `lint`, `check`, `test`, `bench` and `doc` expand glob operands themselves, no dot
 * file or directory matched by a `*` (deno 2: `deno fmt '**\/*.json'` leaves `.pi` alone; a
 * component starting with `.` matches one: `'.pi/*'`), a `\` a `/` once joined to the cwd (deno
 * 2.9: `'.pi\*.json'`, `'\.pi/*.json'` and `'.pi/\*.json'` are `.pi/*.json`).
 */
export function denoGlobs(argv: Word[]) {
  const [verb, at] = subcommand(argv, new Set(["--log-level"]));
  if (!["fmt", "lint", "check", "test", "bench", "doc"].includes(verb)) return null;
  const valued = new Set(["--config", "-c", "--ext", "--import-map", "--log-level", "--filter"]);
  return globOperandsOf(argv, at + 1, valued, false, "separator-from-cwd");
}

/** eslint, biome, rustfmt, isort, autopep8, shfmt, stylelint, rubocop, terraform and dprint. */
export const FIXER_PROGRAMS: Program[] = [
  {
    names: ["eslint"],
    changesBelow: eslintChanges,
    rewritesTrees: eslintRewrites,
    globOperands: eslintGlobs,
  },
  { names: ["biome"], changesBelow: biomeChanges, rewritesTrees: biomeRewrites },
  { names: ["rustfmt"], changesBelow: rustChanges, rewritesTrees: rustfmtRewrites },
  { names: ["isort"], changesBelow: isortChanges, rewritesTrees: isortRewrites },
  { names: ["autopep8"], changesBelow: autopep8Changes, rewritesTrees: autopep8Rewrites },
  { names: ["shfmt"], changesBelow: shfmtChanges, rewritesTrees: shfmtRewrites },
  {
    names: ["stylelint"],
    changesBelow: stylelintChanges,
    rewritesTrees: stylelintRewrites,
    globOperands: stylelintGlobs,
  },
  { names: ["rubocop"], changesBelow: rubocopChanges, rewritesTrees: rubocopRewrites },
  { names: ["terraform"], changesBelow: terraformChanges, rewritesTrees: terraformRewrites },
  {
    names: ["dprint"],
    changesBelow: dprintChanges,
    rewritesTrees: dprintRewrites,
    globOperands: dprintGlobs,
  },
];
