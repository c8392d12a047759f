/**
 * cargo's settings and rustc's codegen options: what they make run. cargo takes its settings from
 * the `.cargo/config.toml` (and `.cargo/config`) in the cwd and every directory above it up to
 * the root, and `$CARGO_HOME/config.toml` (`~/.cargo`: the user's own, read as they are), from `--config KEY=VALUE` or `--config FILE`, and from its environment (every key as
 * `CARGO_<SECTION>_<KEY>`, and `RUSTC`, `RUSTDOC`, `RUSTFLAGS`, …). The settings that name a
 * program (`build.rustc`, `build.rustc-wrapper`, `build.rustdoc`, `target.<triple>.linker`,
 * `target.<triple>.runner`, `doc.browser`, credential providers), an alias (`alias.ship =
 * "publish"`: `cargo ship` is `cargo publish`), rustc's flags (`build.rustflags` with `-C
 * linker=PROG`), variables for what it runs (`[env]`), and the places it writes
 * (`build.target-dir`, `install.root`) are judged as what they run or write; others (`[build]
 * jobs = 4`, profiles) change nothing. rustc's and rustdoc's `-C linker=PROG` (`-Clinker=`,
 * `--codegen linker=`) run PROG to link, given the `-C link-arg`s (judged as `cc` given them).
 *
 * @example
 * ```ts
 * import { tomlEntries } from "./toml.ts";
 * tomlEntries('alias.ship = "publish"'); // judged as `cargo publish (its arguments)`
 * ```
 *
 * @module
 */
import { dirname, isAbsolute, join } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import type { Program, Runner } from "./spec.ts";
import { literal, opensFile, programName, unknownWord } from "./words.ts";
import { tomlEntries, tomlKeys, type TomlValue } from "./toml.ts";
import { CARGO_ALIAS_ENV, carriesCommand } from "./env.ts";
import { type Rewrites, rustChanges, rustfmtShows, subcommand } from "./fixers.ts";
import { pluginRuns } from "./plugins.ts";

/** A path a setting names, from the directory its file is for (`~` and bare names as they are). */
function from(dir: string | null, value: string): string {
  if (dir === null || isAbsolute(value) || value.startsWith("~")) return value;
  return join(dir, value);
}

/** The words of a setting that is a command line: a string split on blanks, or an array. */
function settingWords(v: TomlValue): string[] | null {
  if (typeof v === "string") return v.split(/\s+/).filter(Boolean);
  if (!Array.isArray(v) || !v.every((w) => typeof w === "string")) return null;
  return v as string[];
}

/** A program a setting names (a path with a `/` from the directory of its file), and its words. */
function programSetting(words: string[], run: Runner, origin: string, dir: string | null): void {
  if (!words.length) return;
  const [program, ...rest] = words;
  const path = program.includes("/") ? from(dir, program) : program;
  run.stage([literal(path), ...rest.map(literal), literal("(its arguments)")], origin);
}

/** Where an alias's cargo command comes from. */
const ALIAS = "cargo alias";

/** What rustc gives the linker it runs: its objects (no linker script). */
const OBJECTS = literal("(rustc's objects).o");

/** The keys under `build` that name a program cargo runs in rustc's or rustdoc's place. */
const BUILD_PROGRAM = /^(rustc|rustdoc|rustc-wrapper|rustc-workspace-wrapper)$/;
/** The tables whose `rustflags` and `rustdocflags` rustc and rustdoc are given. */
const FLAGS_TABLE = /^(build|target|host|profile)$/;

/**
 * What one cargo setting makes cargo do (`path`: its key's parts, `dir`: the directory relative
 * paths are from, the one holding `.cargo`): true when the key is one judged here.
 */
export function cargoSetting(
  path: string[],
  value: TomlValue,
  run: Runner,
  origin: string,
  dir: string | null,
  depth = 0,
): boolean {
  const [section, key] = path;
  const last = path[path.length - 1];
  const n = path.length;
  const unknown = () =>
    run.stage([unknownWord(`(what ${origin}'s ${path.join(".")} runs)`)], origin);
  const words = settingWords(value);
  if (section === "alias" && n === 2) {
    // (An alias cannot shadow a command of cargo's own; it is a cargo command line.)
    if (words === null) unknown();
    else run.stage([literal("cargo"), ...words.map(literal), literal("(its arguments)")], ALIAS);
  } else if (
    (section === "build" && n === 2 && BUILD_PROGRAM.test(key)) ||
    (section === "target" && n === 3 && (last === "linker" || last === "runner")) ||
    (section === "host" && (n === 2 || n === 3) && last === "linker") ||
    (section === "doc" && n === 2 && key === "browser")
  ) {
    // (A linker, rustc and its wrappers are one path; a runner and a browser a command line.
    // The linker is given objects and rustc's link arguments: judged as rustc runs it.)
    const program = typeof value === "string" && !/runner|browser/.test(last) ? [value] : words;
    const linker = program?.[0]?.includes("/") ? from(dir, program[0]) : program?.[0];
    if (program === null) unknown();
    else if (last === "linker" && linker) run.stage([literal(linker), OBJECTS], origin);
    else programSetting(program, run, origin, dir);
  } else if (FLAGS_TABLE.test(section) && n >= 2 && /^rust(doc)?flags$/.test(last)) {
    if (words === null) unknown();
    else rustFlags(last === "rustflags" ? "rustc" : "rustdoc", words.map(literal), run, origin);
  } else if (
    (section === "registries" && n === 3 && last === "credential-provider") ||
    (section === "registry" && n === 2 &&
      /^(credential-provider|global-credential-providers)$/.test(key)) ||
    (section === "credential-alias" && n === 2)
  ) {
    const providers = key === "global-credential-providers" && Array.isArray(value)
      ? value.map(settingWords)
      : [words];
    for (const p of providers) {
      // (`cargo:token` and the other `cargo:` providers are cargo's own; `cargo:token-from-stdout
      // PROG ARGS` runs PROG.)
      const own = p?.[0]?.startsWith("cargo:");
      if (p === null) unknown();
      else if (own && p[0] === "cargo:token-from-stdout") {
        programSetting(p.slice(1), run, origin, dir);
      } else if (p.length && !own) programSetting(p, run, origin, dir);
    }
  } else if (section === "build" && n === 2 && key === "target") {
    // (A target by its spec file names its own linker: not known.)
    const targets = Array.isArray(value) ? value : [value];
    if (targets.some((t) => typeof t !== "string" || t.endsWith(".json"))) unknown();
  } else if (section === "env" && n === 2) {
    envSetting(key, value, run, origin, dir);
  } else if (
    (section === "build" && n === 2 && /^(target-dir|build-dir)$/.test(key)) ||
    (section === "install" && n === 2 && key === "root")
  ) {
    if (typeof value !== "string" || value.includes("{")) unknown();
    else opensFile(from(dir, value), run, origin);
  } else if (section === "include" && n === 1) {
    // (Other settings files this one includes, from its own directory.)
    const files = Array.isArray(value) ? value : [value];
    for (const f of files) {
      const file = typeof f === "string"
        ? f
        : !Array.isArray(f) && typeof f === "object"
        ? f.path
        : null;
      if (typeof file !== "string" || depth > 3) unknown();
      else cargoFile(from(dir === null ? null : join(dir, ".cargo"), file), run, depth + 1);
    }
  } else return false;
  return true;
}

/** An `[env]` setting: a variable of what cargo runs (a string, or `{ value, relative }`). */
function envSetting(
  name: string,
  value: TomlValue,
  run: Runner,
  origin: string,
  dir: string | null,
) {
  const table = typeof value === "object" && !Array.isArray(value) ? value : null;
  const v = table ? table.value : value;
  if (typeof v !== "string") return;
  const text = table?.relative === true ? from(dir, v) : v;
  if (carriesCommand(`${name}=${text}`)) run.environment([literal(`${name}=${text}`)]);
  else if (/^(LD_|DYLD_)/.test(name)) {
    run.stage([unknownWord(`(the code ${origin}'s env.${name} loads)`)], origin);
  }
}

/** The tables whose keys name programs, places or variables: a key there not read is not known. */
const CARGO_JUDGED_TABLE =
  /^(alias|build|target|host|doc|env|registries|registry|credential-alias|install|include)$/;

/**
 * Keys of those tables that change neither what runs nor where it writes (a registry's index, a
 * build script override's libraries and cfgs, `build.target` by name).
 */
const CARGO_INERT =
  /^(build\.(jobs|incremental|dep-info-basedir|pipelining|warnings|sbom|target-applies-to-host)|registries\.[^.]+\.(index|token|protocol)|registry\.(default|token|index)|target\.[^.]+\.[^.]+\.(?!rustc-(flags|env|link-arg|cdylib-link-arg))[\w-]+)$/;

/**
 * What a cargo settings file's text makes cargo do (`dir`: the directory holding `.cargo`): its
 * document's keys, tables (`[env]` with `X.value = "v"` is `env.X`) and inline tables
 * (`build = { rustc = "curl" }` is `build.rustc`) alike. A key of a table that names programs
 * neither judged nor inert (a shape not known, a key cargo added) is not known.
 */
function cargoText(text: string, file: string, dir: string | null, run: Runner, depth: number) {
  const entries = tomlKeys(text);
  if (entries === null) run.stage([unknownWord(`(the settings of ${file})`)], file);
  const judged: string[] = [];
  for (const e of entries ?? []) {
    const key = e.path.join(".");
    if (judged.some((j) => key.startsWith(`${j}.`))) continue;
    if (cargoSetting(e.path, e.value, run, file, dir, depth)) judged.push(key);
    else if (
      !isTable(e.value) && CARGO_JUDGED_TABLE.test(e.path[0]) && !CARGO_INERT.test(key) &&
      !CARGO_HARMLESS.test(key)
    ) run.stage([unknownWord(`(what ${file}'s ${key} does)`)], file);
  }
}

/** Whether a setting's value is a table. */
function isTable(v: TomlValue): boolean {
  return typeof v === "object" && !Array.isArray(v);
}

/** A cargo settings file a setting or option names: read as it will be, else not known. */
function cargoFile(file: string, run: Runner, depth: number): void {
  const text = run.settings(file);
  if (text === null) run.stage([unknownWord(`(the settings of ${file})`)], "cargo --config");
  // (Its paths are from the directory above the one it is in, as for `.cargo/config.toml`.)
  else cargoText(text, file, dirname(dirname(file)), run, depth);
}

/**
 * What the `.cargo/config.toml` and `.cargo/config` files cargo reads make it do: in `cwds` and
 * every directory above them up to the root (the home's among them), then `$CARGO_HOME`'s
 * (`~/.cargo` by default), each judged as it is (one another stage writes first is not known).
 */
function projectCargoSettings(run: Runner, stage: Stage): void {
  const cwds = stage.cwds;
  const seen = new Set<string>();
  for (const name of [".cargo/config.toml", ".cargo/config"]) {
    const found = run.projectSettings(name, cwds, true);
    if (found === null) run.stage([unknownWord(`(the settings of the project's ${name})`)], name);
    for (const f of found ?? []) {
      seen.add(join(f.dir, name));
      cargoText(f.text, join(f.dir, name), f.dir, run, 0);
    }
  }
  // (`CARGO_HOME=…` before cargo names it; a value not known is no file known.)
  let named: string | null | undefined = run.variable("CARGO_HOME");
  for (const w of stage.assignments ?? []) {
    if (!w.value.startsWith("CARGO_HOME=")) continue;
    named = w.kind === "static" ? w.value.slice("CARGO_HOME=".length) : null;
  }
  const home = run.home(null);
  const cwd = cwds.length === 1 ? cwds[0] : null;
  const dir = named === null
    ? null
    : named
    ? (isAbsolute(named) ? named : cwd === null ? null : join(cwd, named))
    : home === null
    ? null
    : `${home}/.cargo`;
  for (const name of ["config.toml", "config"]) {
    const file = dir === null ? null : join(dir, name);
    if (file !== null && seen.has(file)) continue;
    // (Its paths are from the directory above `$CARGO_HOME`, as for a `.cargo` directory.)
    const text = file === null ? null : run.settings(file);
    if (text === null) run.stage([unknownWord(`(the settings of ${file ?? "$CARGO_HOME"})`)], name);
    else if (text) cargoText(text, file!, dirname(dir!), run, 0);
  }
}

/** cargo settings that change neither what runs nor where it writes (profiles, jobs, network). */
const CARGO_HARMLESS =
  /^(profile\.[\w.-]+|build\.(jobs|incremental)|net\.[\w.-]+|http\.[\w-]+|term\.[\w.-]+|cargo-new\.[\w-]+|future-incompat-report\.[\w-]+)$/;

/** cargo's options before its subcommand that take a value. */
const CARGO_VALUED = /^(--config|-Z|--color|-C|--explain|--list)$/;

/**
 * cargo's settings: the project's settings files, `--config FILE` (a file there, whatever its
 * name) and `--config KEY=VALUE` (a TOML line; a key neither judged nor harmless is a setting not
 * known), and the rustc (or
 * rustdoc) options after `cargo rustc --` (`cargo rustdoc --`). `cargo run` runs the project's
 * own code, like make's recipes: not seen.
 */
function cargoCommands(stage: Stage, run: Runner): void {
  // (An alias's command reads the same settings: judged once, with the command it is part of.)
  if (stage.origin !== ALIAS) projectCargoSettings(run, stage);
  const args = stage.argv.slice(1);
  let subcommand = "";
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (a.kind === "static" && v === "--") {
      if (subcommand === "rustc" || subcommand === "rustdoc") {
        rustFlags(subcommand, args.slice(i + 1), run, `cargo ${subcommand} --`);
      }
      break;
    }
    if (!subcommand && !v.startsWith("-") && !v.startsWith("+")) {
      subcommand = a.kind === "static" ? v : "?";
      continue;
    }
    if (!subcommand && CARGO_VALUED.test(v) && v !== "--config") i++;
    const m = /^--config(?:=([\s\S]*))?$/.exec(v);
    if (!m) continue;
    const value = m[1] !== undefined ? (a.kind === "static" ? literal(m[1]) : a) : args[++i];
    if (value) configOption(value, run, stage.cwds[0] ?? null);
  }
  // (`cargo NAME`, no command of cargo's: the program `cargo-NAME`, plugins.ts.)
  pluginRuns(stage, run);
}

/**
 * One `--config` value, as cargo reads it: a file there (from the cwd, through symlinks) is a
 * settings file whatever its name (`--config build.jobs=4` of a file named so), else a `KEY=VALUE`
 * TOML line. A file that may be there (another stage may write it, a cwd not known) is read as it
 * will be, and the line judged too: the write may fail.
 */
function configOption(value: Word, run: Runner, cwd: string | null): void {
  if (value.kind !== "static") {
    run.stage([unknownWord(`(cargo settings ${value.text})`)], "cargo");
    return;
  }
  const arg = value.value;
  const path = isAbsolute(arg) || cwd === null ? arg : join(cwd, arg);
  // (A file named by the value: "" where surely none, or one empty, which sets nothing.)
  const text = arg ? run.settings(path) : "";
  if (text === null) run.stage([unknownWord(`(the settings of ${path})`)], "cargo --config");
  else if (text) cargoText(text, path, dirname(dirname(path)), run, 0);
  if (!arg.includes("=")) return;
  const entries = tomlEntries(arg);
  if (entries === null || entries.length !== 1) {
    run.stage([unknownWord(`(cargo settings ${value.text})`)], "cargo");
    return;
  }
  const { path: key, value: setting } = entries[0];
  // (A setting that runs a program under another name, or names where cargo writes and is not
  // read here: not known.)
  if (
    !cargoSetting(key, setting, run, "cargo --config", cwd) && !CARGO_HARMLESS.test(key.join("."))
  ) {
    run.stage([unknownWord(`(cargo settings ${value.text})`)], "cargo");
  }
}

/** rustc's or rustdoc's options given elsewhere (`build.rustflags`, `cargo rustc -- …`). */
export function rustFlags(
  program: "rustc" | "rustdoc",
  flags: Word[],
  run: Runner,
  origin: string,
) {
  if (flags.length) run.stage([literal(program), ...flags], origin);
}

/**
 * A cargo setting from the environment (`CARGO_ALIAS_SHIP=publish`, `RUSTFLAGS=-C linker=P`):
 * judged as the setting it stands for (a value not known: its known start, as rustc's options).
 */
export function cargoVariable(name: string, w: Word, value: string, run: Runner): void {
  const origin = `env ${name}`;
  const encoded = name.startsWith("CARGO_ENCODED_");
  // (The value it had, `RUSTFLAGS="$RUSTFLAGS -C …"`, is the user's: the assignment is judged as
  // a value not known.)
  const self = new RegExp(`^\\$\\{?${name}\\}?$`);
  const words = value.split(encoded ? "\x1f" : /\s+/).filter((t) => t && !self.test(t))
    .map((t): Word =>
      w.kind === "static" || !/[$`]/.test(t)
        ? literal(t)
        : { value: t, kind: "dynamic", prefix: t.slice(0, t.search(/[$`]/)), text: t }
    );
  if (name.endsWith("_LINKER")) {
    if (value) run.stage([w.kind === "static" ? literal(value) : w, OBJECTS], origin);
  } else if (CARGO_ALIAS_ENV.test(name)) {
    run.stage([literal("cargo"), ...words, literal("(its arguments)")], origin);
  } else rustFlags(/DOC/.test(name) ? "rustdoc" : "rustc", words, run, origin);
}

/** rustdoc's options whose value is a program it runs the doctests with or builds them by. */
const RUSTDOC_PROGRAM = /^--(runtool|test-runtool|test-builder)(=|$)/;

/**
 * The programs rustc's (and rustdoc's) options run: `-C linker=PROG` (`-Clinker=PROG`, `--codegen
 * linker=PROG`, `--codegen=linker=PROG`) links, given the `-C link-arg`s and `-C link-args`
 * (judged as `cc` given them, where no linker is named); a codegen backend or LLVM plugin given
 * by path is code it loads; rustdoc's `--runtool`, `--test-builder`; an `@FILE` of options, read.
 */
function rustcCommands(stage: Stage, run: Runner): void {
  const program = programName(stage.argv[0]);
  const args = stage.argv.slice(1);
  let linker: Word | null = null;
  const linkArgs: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    const cut = (n: number): Word =>
      a.kind === "static" ? literal(v.slice(n)) : { ...a, prefix: v.slice(n) };
    let codegen: Word | undefined;
    if (/^(-C|--codegen|-Z)$/.test(v)) codegen = args[++i];
    else if (v.startsWith("--codegen=")) codegen = cut(10);
    else if (/^-[CZ]./.test(v)) codegen = cut(2);
    else if (program === "rustdoc" && RUSTDOC_PROGRAM.test(v)) {
      const p = v.includes("=") ? cut(v.indexOf("=") + 1) : args[++i];
      if (p) run.stage([p, literal("(its arguments)")], `${program} ${v.split("=")[0]}`);
    } else if (v.startsWith("@") && a.kind === "static") {
      const text = run.read(v.slice(1));
      if (text === null) run.stage([unknownWord(`(the options of ${v})`)], `${program} @`);
      else {run.stage(
          [literal(program), ...text.split(/\r?\n/).filter(Boolean).map(literal)],
          `${program} @`,
        );}
    } else if (a.kind !== "static" && v === "" && !a.around && !a.listed) {
      run.stage([unknownWord(`(what ${program}'s ${a.text} runs)`)], program);
    }
    if (!codegen) continue;
    const c = codegen.kind === "static" ? codegen.value : codegen.prefix;
    const eq = c.indexOf("=");
    const key = eq < 0 ? c : c.slice(0, eq);
    const val = (): Word => codegen!.kind === "static" ? literal(c.slice(eq + 1)) : codegen!;
    if (codegen.kind !== "static" && eq < 0) {
      run.stage([unknownWord(`(what ${program}'s ${codegen.text} runs)`)], program);
    } else if (key === "linker") linker = val();
    else if (key === "link-arg") linkArgs.push(val());
    else if (key === "link-args") {
      const value = val();
      if (value.kind === "static") {
        linkArgs.push(...value.value.split(/\s+/).filter(Boolean).map(literal));
      } else linkArgs.push(value);
    } else if (/^(codegen-backend|llvm-plugins|linker-plugin-lto)$/.test(key) && eq >= 0) {
      // (A backend by name is rustc's own; one by path, a plugin, a linker plugin is code loaded.)
      const value = val();
      if (value.kind !== "static" || value.value.includes("/")) {
        run.stage([unknownWord(`(the code ${program}'s -C ${c} loads)`)], program);
      }
    }
  }
  if (linker || linkArgs.length) {
    run.stage([linker ?? literal("cc"), ...linkArgs, OBJECTS], `${program} -C linker`);
  }
}

/** `CARGO_VALUED`, as the names `subcommand` skips the value of. */
const CARGO_VALUED_NAMES = new Set(["--config", "-Z", "--color", "-C", "--explain", "--list"]);

/** `cargo fmt` writes the crate's Rust files (the cwd's) unless `--check` (after `--` too). */
function cargoRewrites(argv: Word[]): Rewrites {
  const [verb] = subcommand(argv, CARGO_VALUED_NAMES);
  if (verb !== "fmt" || rustfmtShows(argv)) return null;
  return "cwd";
}

/** What cargo may change below a tree: `cargo fmt` the Rust files, any file otherwise. */
function cargoChanges(argv: Word[], dir: string, file: string): boolean {
  return subcommand(argv, CARGO_VALUED_NAMES)[0] !== "fmt" || rustChanges(argv, dir, file);
}

/** cargo, and rustc and rustdoc. */
export const CARGO_PROGRAMS: Program[] = [
  {
    names: ["cargo"],
    optionCommands: cargoCommands,
    changesBelow: cargoChanges,
    rewritesTrees: cargoRewrites,
  },
  { names: ["rustc", "rustdoc"], optionCommands: rustcCommands },
];
