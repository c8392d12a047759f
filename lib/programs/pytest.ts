/**
 * pytest (`pytest`, `py.test`, `python -m pytest`): the files its options name (`--basetemp DIR`,
 * which it empties first; `--junitxml F`; `--debug[=F]`, its value the next word unless an option;
 * pytest-cov's `--cov-report=html:DIR`; pytest-benchmark's `--benchmark-json F`; the ini values
 * `-o cache_dir=DIR`, `-o log_file=F`), and the options its settings give it, read as pytest
 * finds them: `-c FILE` (`--config-file`, `--inifile`), else the first of `pytest.toml`,
 * `.pytest.toml`, `pytest.ini`, `.pytest.ini`, `pyproject.toml` (`[tool.pytest]`,
 * `[tool.pytest.ini_options]`), `tox.ini` (`[pytest]`), `setup.cfg` (`[tool:pytest]`) in the
 * directory of its arguments and above (all of them here, each directory of each argument and of
 * the cwd, up to the root: the home directory's `~/pytest.ini` too, as pytest reads it). A file's `addopts` (and `-o addopts=…`, and
 * `PYTEST_ADDOPTS` of the tool's environment) are options pytest is given; its `cache_dir` (from
 * the file's directory) and `log_file` places it writes. A file that cannot be read as it will be
 * (another stage may write it, a cwd not known, text not understood) is a command not known.
 *
 * @module
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";
import { tomlKeys, type TomlValue } from "./toml.ts";

/** The settings files pytest looks for in a directory, in its order. */
const CONFIG_NAMES = [
  "pytest.toml",
  ".pytest.toml",
  "pytest.ini",
  ".pytest.ini",
  "pyproject.toml",
  "tox.ini",
  "setup.cfg",
];

/** The origin of a stage standing for what pytest's settings give it (not read again). */
const FROM_SETTINGS = "pytest settings";

/** The settings read: `addopts`, `cache_dir`, `log_file`. */
const SETTING_KEYS = new Set(["addopts", "cache_dir", "log_file"]);

/** At most this many directories pytest's arguments start from are looked in. */
const MAX_STARTS = 24;

/**
 * The words of a text as Python's `shlex.split` makes them (POSIX, no comments: pytest's
 * `addopts`, `PYTEST_ADDOPTS`); null when a quote or escape is left open.
 */
export function pythonShlex(text: string): string[] | null {
  const out: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      if (word !== null) out.push(word);
      word = null;
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return null;
      word = (word ?? "") + text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let body = "";
      for (i++;; i++) {
        if (i >= text.length) return null;
        const d = text[i];
        if (d === '"') break;
        // (In double quotes a backslash escapes only `"` and `\`.)
        if (d === "\\" && (text[i + 1] === '"' || text[i + 1] === "\\")) body += text[++i];
        else body += d;
      }
      word = (word ?? "") + body;
    } else if (c === "\\") {
      if (i + 1 >= text.length) return null;
      word = (word ?? "") + text[++i];
    } else word = (word ?? "") + c;
  }
  if (word !== null) out.push(word);
  return out;
}

/** Python's line breaks (`str.splitlines`). */
// deno-lint-ignore no-control-regex
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;

/**
 * The keys of an INI text's `[pytest]` and `[tool:pytest]` sections as pytest's iniconfig reads
 * them (`key = value` or `key: value`, indented lines continuing a value, `#`/`;` lines comments,
 * none after a value); null when it cannot be read (pytest stops there).
 */
function iniSettings(text: string): Map<string, TomlValue> | null {
  const out = new Map<string, TomlValue>();
  let section: string | null = null;
  let last: string | null = null;
  for (const raw of text.split(LINE_BREAK)) {
    if (/^\s*[#;]/.test(raw)) continue;
    const line = raw.trimEnd();
    if (!line) continue;
    const pytest = section === "pytest" || section === "tool:pytest";
    if (line[0] === "[") {
      const bare = line.split("#")[0].split(";")[0].trimEnd();
      if (bare.endsWith("]")) {
        section = bare.slice(1, -1).trim();
        last = null;
        continue;
      }
    }
    if (line[0] === "[" || /^\s/.test(line)) {
      // (A continuation of the value before.)
      if (last === null) return null;
      if (pytest && SETTING_KEYS.has(last)) {
        const before = out.get(last) as string;
        out.set(last, before ? `${before}\n${line.trim()}` : line.trim());
      }
      continue;
    }
    const eq = line.indexOf("=");
    const colon = line.indexOf(":");
    const at = eq >= 0 && (colon < 0 || colon > eq) ? eq : colon;
    if (at < 0 || section === null) return null;
    last = line.slice(0, at).trim();
    if (pytest && SETTING_KEYS.has(last)) out.set(last, line.slice(at + 1).trim());
  }
  return out;
}

/** The keys of a TOML text's pytest tables (`[pytest]`, `[tool.pytest]`, its `ini_options`). */
function tomlSettings(text: string): Map<string, TomlValue> | null {
  const entries = tomlKeys(text);
  if (entries === null) return null;
  const out = new Map<string, TomlValue>();
  for (const { path, value } of entries) {
    const k = path.at(-1)!;
    const table = path.slice(0, -1).join("\0");
    const pytest = table === "pytest" || table === "tool\0pytest" ||
      table === "tool\0pytest\0ini_options";
    if (pytest && SETTING_KEYS.has(k)) out.set(k, value);
  }
  return out;
}

/**
 * What one settings file (`path`, its `text`) gives pytest: a stage of pytest with its
 * `addopts`, `-o cache_dir=` (from the file's directory) and `-o log_file=`.
 */
function settingsStage(path: string, text: string, run: Runner): void {
  const origin = `${FROM_SETTINGS} ${path}`;
  const notKnown = (what: string) => run.stage([unknownWord(`(${what} in ${path})`)], origin);
  // (No pytest table is spelled without "pytest", but for a TOML key's escapes.)
  if (!/pytest|\\[uU]/.test(text)) return;
  const settings = path.endsWith(".toml") ? tomlSettings(text) : iniSettings(text);
  if (settings === null) return notKnown("the settings pytest reads");
  const words = ["pytest", "-c", "/dev/null"];
  for (const [key, value] of settings) {
    if (key === "addopts") {
      const opts = typeof value === "string" ? pythonShlex(value) : value;
      if (!Array.isArray(opts) || !opts.every((o) => typeof o === "string")) {
        return notKnown("the options of its addopts");
      }
      words.push(...withoutSettingsFile(opts));
      continue;
    }
    if (typeof value !== "string") return notKnown(`its ${key}`);
    if (key === "cache_dir") {
      // (Home and variables expanded, from the directory of the file.)
      if (value.includes("$")) return notKnown(`its cache_dir ${value}`);
      const dir = path.slice(0, path.lastIndexOf("/")) || "/";
      const place = isAbsolute(value) || value === "~" || value.startsWith("~/")
        ? value
        : join(dir, value);
      words.push("-o", `cache_dir=${place}`);
    } else words.push("-o", `${key}=${value}`);
  }
  optionsStage(words, run, origin);
}

/**
 * pytest itself given `words` (after `pytest -c /dev/null`), where they name a file: the same
 * process (`Runner.own`), so the files they name are judged where they are and what it writes
 * there is no other stage's writing (`pytest -q src/` reads src as with `--junitxml` written out);
 * the everyday ones (`-ra -q`) change nothing.
 */
function optionsStage(words: string[], run: Runner, origin: string): void {
  const argv = words.map(literal);
  if (pytestFiles(argv.slice(3), origin).length) run.own(argv, origin);
}

/** Options without those naming a settings file, which pytest reads from the command line only. */
function withoutSettingsFile(opts: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < opts.length; i++) {
    const o = opts[i];
    if (o === "-c" || o === "--config-file" || o === "--inifile") i++;
    else if (!/^(-c.|--config-file=|--inifile=)/.test(o)) out.push(o);
  }
  return out;
}

/** The settings files pytest is given (`-c F`, `--config-file F`, `--inifile=F`, glued too). */
function givenSettings(args: Word[]): (Word | undefined)[] {
  const out: (Word | undefined)[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const v = w.kind === "static" ? w.value : w.prefix;
    if (v === "--") break;
    const m = /^(?:-c|--config-file|--inifile)(?:=([\s\S]*))?$|^-c([\s\S]+)$/.exec(v);
    if (!m) continue;
    const glued = m[1] ?? m[2];
    if (glued === undefined) out.push(args[++i]);
    else out.push(w.kind === "static" ? literal(glued) : undefined);
  }
  return out;
}

/**
 * The directories pytest looks for its settings from: its arguments' (each word not an option,
 * a node id's file part, a `.py` file's directory) and the cwd's, those below another's only;
 * null when too many.
 */
function startDirs(args: Word[], cwds: (string | null)[]): (string | null)[] | null {
  if (cwds.includes(null)) return [null];
  const dirs = new Set(cwds as string[]);
  for (const w of args) {
    if (w.kind !== "static" || w.value.startsWith("-") || !w.value) continue;
    // (A test file's directory: pytest starts from the directory a file is in. A directory
    // named like one, `x.py/`, is not looked in.)
    const path = w.value.split("::")[0];
    const file = /\.py$/.test(path) ? dirname(path) : path;
    for (const cwd of cwds) dirs.add(resolve(cwd!, file));
  }
  const all = [...dirs];
  const kept = all.filter((d) =>
    !all.some((e) => e !== d && e.startsWith(d === "/" ? d : d + "/"))
  );
  return kept.length > MAX_STARTS ? null : kept;
}

/**
 * What pytest's settings make it do, for `args` (its words after the program or `-m pytest`):
 * each settings file it may read judged as pytest given its options (see the module's doc).
 */
export function pytestSettings(args: Word[], stage: Stage, run: Runner): void {
  if (stage.origin.startsWith(FROM_SETTINGS)) return;
  // (The tool's environment's options come first, and may name the file.)
  const env = run.variable("PYTEST_ADDOPTS");
  const envWords = env ? pythonShlex(env) : [];
  if (envWords === null) {
    run.stage([unknownWord("(the options of PYTEST_ADDOPTS)")], FROM_SETTINGS);
    return;
  }
  if (envWords.length) {
    optionsStage(["pytest", "-c", "/dev/null", ...envWords], run, FROM_SETTINGS);
  }
  const all = [...envWords.map(literal), ...args];
  const given = givenSettings(all);
  for (const file of given) {
    if (file?.kind === "static" && file.value === "/dev/null") continue;
    const text = file?.kind === "static" ? run.settings(file.value) : null;
    if (text === null) {
      run.stage([unknownWord("(the options pytest's settings file gives)")], FROM_SETTINGS);
    } else if (text) settingsStage(file!.value, text, run);
  }
  if (given.length) return;
  const dirs = startDirs(all, stage.cwds);
  for (const name of CONFIG_NAMES) {
    // (pytest looks up to the root, the home directory's `pytest.ini` among them.)
    const found = dirs === null ? null : run.projectSettings(name, dirs, true);
    if (found === null) {
      run.stage([unknownWord(`(the options the project's ${name} gives pytest)`)], FROM_SETTINGS);
      return;
    }
    for (const f of found) settingsStage(join(f.dir, name), f.text, run);
  }
}

/** pytest: the files its options name, and what its settings files make it do. */
export const PYTEST: Program = {
  names: ["pytest", "py.test"],
  runs: (stage, run) => pytestSettings(stage.argv.slice(1), stage, run),
  namedFiles: (argv) => pytestFiles(argv.slice(1), "pytest"),
};

/**
 * pytest's options that name a file it writes or reads (its plugins' too: pytest-html's `--html`,
 * pytest-reportlog's `--report-log`, pytest-cov's `--cov-config`, pytest-benchmark's
 * `--benchmark-json`, its `--benchmark-storage` of runs, `file://` or a path), by whether it
 * writes below a directory by names of its own (`--basetemp`, which it removes first).
 */
const PYTEST_FILES = new Map<string, boolean>([
  ["--basetemp", true],
  ["--junitxml", false],
  ["--junit-xml", false],
  ["--html", false],
  ["--resultlog", false],
  ["--result-log", false],
  ["--report-log", false],
  ["--json-report-file", false],
  ["--log-file", false],
  ["--cov-config", false],
  ["--confcutdir", false],
  ["--rootdir", false],
  ["--benchmark-json", false],
  ["--benchmark-storage", true],
]);

/**
 * Options whose value may be left out (argparse's `nargs="?"`: the next word is theirs unless it
 * is an option), and the file they name then or by their value: `--debug[=F]` (pytest's trace,
 * opened "w"; `pytestdebug.log`), pytest-benchmark's `--benchmark-histogram[=PREFIX]` and
 * `--benchmark-cprofile-dump[=PREFIX]` (`PREFIX-<test>.svg`, `.prof`; `benchmark_<time>`) and
 * `--benchmark-netrc[=F]` (the credentials it reads; `~/.netrc`).
 */
const PYTEST_OPTIONAL: Record<string, { default: string; prefix: boolean }> = {
  "--debug": { default: "pytestdebug.log", prefix: false },
  "--benchmark-histogram": { default: "benchmark_", prefix: true },
  "--benchmark-cprofile-dump": { default: "benchmark_", prefix: true },
  "--benchmark-netrc": { default: "~/.netrc", prefix: false },
};

/** pytest-cov's report types that write a directory (below) or a file: `--cov-report=TYPE:DEST`. */
const COV_REPORTS: Record<string, boolean> = {
  html: true,
  annotate: true,
  xml: false,
  json: false,
  lcov: false,
  markdown: false,
  "markdown-append": false,
};

/** A name as a glob matching only itself. */
function globQuote(name: string): string {
  return name.replace(/[*?[\]\\]/g, "\\$&");
}

/**
 * The files pytest's words (`args`, after the program or `-m pytest`) name: its options' values
 * (`--junitxml F`, `--basetemp=DIR`), pytest-cov's report destinations (`--cov-report html:DIR`,
 * `--cov-report=xml:F`, a name of any shape), the ini values `-o cache_dir=DIR` and `-o
 * log_file=F` set, and those of the options `-o addopts=…` gives; a settings file it is given (`-c
 * F`) is read by `pytestSettings`.
 */
export function pytestFiles(args: Word[], source: string): NamedFile[] {
  const out: NamedFile[] = [];
  const add = (value: Word | string | undefined, below: boolean) => {
    const path = typeof value === "string" ? value : value?.kind === "static" ? value.value : null;
    if (path === "") return;
    out.push(below ? { path, source, below } : { path, source });
  };
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.kind !== "static" || !w.value.startsWith("-")) continue;
    if (w.value === "--") break;
    const eq = w.value.indexOf("=");
    const name = eq < 0 ? w.value : w.value.slice(0, eq);
    const value = eq < 0 ? args[i + 1] : literal(w.value.slice(eq + 1));
    if (eq < 0 && /^(--cov-report|--override-ini|-o|-p|--cov|--cov-fail-under)$/.test(name)) i++;
    const optional = PYTEST_OPTIONAL[name];
    if (optional) {
      // (A word after it is its value unless it is an option: `--debug tests/x.py` writes there.)
      const next = eq < 0 ? args[i + 1] : value;
      const taken = eq >= 0 || (next !== undefined &&
        (next.kind === "static" ? !next.value.startsWith("-") : !next.prefix.startsWith("-")));
      if (eq < 0 && taken) i++;
      const file = !taken ? optional.default : next.kind === "static" ? next.value : undefined;
      if (file === undefined || !optional.prefix) add(file, false);
      else out.push({ path: `${globQuote(file)}*`, source, pattern: true });
      continue;
    }
    if (name === "--benchmark-save" || name === "--benchmark-autosave") {
      // (Runs saved below the storage, by default `.benchmarks` of the cwd.)
      if (eq < 0 && name === "--benchmark-save") i++;
      add(".benchmarks", true);
      continue;
    }
    const below = PYTEST_FILES.get(name);
    if (below !== undefined) {
      if (eq < 0) i++;
      if (name !== "--benchmark-storage" || value?.kind !== "static") add(value, below);
      else if (!/^[\w+.-]+:\/\//.test(value.value)) add(value, below);
      else if (value.value.startsWith("file://")) add(value.value.slice(7), below);
      continue;
    }
    if (value?.kind !== "static") {
      if (name === "--cov-report" || name === "-o" || name === "--override-ini") add(value, false);
      continue;
    }
    if (name === "--cov-report") {
      const typed = /^([\w-]+):([\s\S]+)$/.exec(value.value);
      const dir = typed ? COV_REPORTS[typed[1]] : undefined;
      if (dir !== undefined) add(typed![2], dir);
    } else if (name === "-o" || name === "--override-ini") {
      const ini = /^\s*(cache_dir|log_file|junit_xml|addopts)\s*=([\s\S]*)$/.exec(value.value);
      if (ini?.[1] === "addopts") {
        // (The options in place of the settings file's: pytest's own, read in turn.)
        const opts = pythonShlex(ini[2]);
        if (opts === null) add(undefined, false);
        else out.push(...pytestFiles(opts.map(literal), source));
      } else if (ini) add(ini[2].trim(), ini[1] === "cache_dir");
    }
  }
  return out;
}
