/**
 * Programs that load `.env` files without naming them: each file they would load is judged as
 * read (a stage `(PROGRAM loads) FILE…`), where one is there or may be (one surely absent is
 * none: a project without `.env` sees no prompt). `dotenv` (dotenv-cli, python-dotenv's CLI),
 * `dotenvx`, `env-cmd`, `vite`, `next`, `prisma`, `foreman`, `honcho`, `flask`, `dbmate` here;
 * `bun` (interpreters.ts) and `pipenv` (package_runners.ts) through `bunEnvFiles` and
 * `pipenvEnvFiles`.
 *
 * An option that names the file instead (`dotenv -e .env.ci`, `bun --env-file=x`) is a word of
 * its own, judged as it is; `bun --no-env-file`, `PIPENV_DONT_LOAD_ENV=1` load none.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Program, Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";
import { gluedStart, type OptionGrammar, readOptions } from "./argv.ts";
import { stageVariable } from "./handed_env.ts";
import { outputDirectory } from "./destinations.ts";
import {
  dotenvCommand,
  dotenvxCommand,
  envCmdCommand,
  FOREMAN,
  HONCHO,
  procfileCommand,
  procfileNames,
} from "./dotenv_runners.ts";

/** The words after the program, static values ("" for one not known). */
export function values(stage: Stage): string[] {
  return stage.argv.slice(1).map((w) => (w.kind === "static" ? w.value : ""));
}

/**
 * A variable as the program finds it: the stage's assignment, else the environment (null: not
 * known, undefined: not set).
 */
export function variable(stage: Stage, run: Runner, name: string): string | null | undefined {
  for (const w of stage.assignments ?? []) {
    const text = w.kind === "static" ? w.value : w.prefix;
    if (text.startsWith(`${name}=`)) {
      return w.kind === "static" ? text.slice(name.length + 1) : null;
    }
  }
  return stage.unknownVars?.has(name) ? null : run.variable(name);
}

/**
 * The env files at `paths` (from the stage's cwds, or absolute; null for one not known) judged
 * as read by `origin`: those there, or that may be there when it runs.
 */
export function loadsEnvFiles(
  run: Runner,
  origin: string,
  paths: readonly (string | null)[],
): void {
  const there = [...new Set(paths)].filter((p) => p === null || run.settings(p) !== "");
  if (!there.length) return;
  // (null: a file not known, which may be anywhere.)
  const words = there.map((p) => p === null ? unknownWord("(not known)") : literal(p));
  run.stage([literal(`(${origin} loads)`), ...words], origin);
}

/** A directory joined to a file name (`""` and `.`: the name alone). */
export function inDir(dir: string, name: string): string {
  return dir === "" || dir === "." ? name : `${dir.replace(/\/+$/, "")}/${name}`;
}

/** The files a framework loads for `mode` (Vite's and Next's order): `local` with `.env.local`. */
export function modeFiles(dir: string, mode: string | null, local = true): string[] {
  const modes = mode === null ? ["development", "production", "test"] : [mode];
  return [
    inDir(dir, ".env"),
    ...(local ? [inDir(dir, ".env.local")] : []),
    ...modes.flatMap((m) => [inDir(dir, `.env.${m}`), inDir(dir, `.env.${m}.local`)]),
  ];
}

/** The value of an option (`-m X`, `--mode X`, `--mode=X`): "" where not known, null where absent. */
export function valueOf(args: string[], names: readonly string[]): string | null {
  let found: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") break;
    if (names.includes(a)) found = args[i + 1] ?? "";
    const eq = a.indexOf("=");
    if (eq > 0 && names.includes(a.slice(0, eq))) found = a.slice(eq + 1);
  }
  return found;
}

/** Whether the words are a version or help request alone. */
export function helpOnly(args: string[]): boolean {
  return args.some((a) => /^(-v|-V|-h|--version|--help|help|version)$/.test(a));
}

/**
 * `dotenv` (the npm dotenv-cli: `-e FILE` for each file, else `.env`; `-c [ENV]` adds each
 * one's `.local`, `.ENV` and `.ENV.local`) and python-dotenv's CLI (`-f FILE`, else `./.env`).
 */
function dotenvRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  const end = args.indexOf("--");
  const own = end < 0 ? args : args.slice(0, end);
  if (end !== 0 && own.length === 1 && helpOnly(own)) return;
  const named: string[] = [];
  let cascade: string | null = null;
  for (let i = 0; i < own.length; i++) {
    const a = own[i];
    if (a === "-e" || a === "-f" || a === "--file") named.push(own[++i] ?? "");
    else if (/^(-f|--file)=/.test(a)) named.push(a.slice(a.indexOf("=") + 1));
    else if (a === "-c") {
      const next = own[i + 1];
      cascade = next !== undefined && !next.startsWith("-") ? own[++i] : "";
    }
  }
  const bases = named.length ? named.filter(Boolean) : [".env"];
  const files = bases.flatMap((b) => [
    b,
    ...(cascade === null
      ? []
      : [`${b}.local`, ...(cascade ? [`${b}.${cascade}`, `${b}.${cascade}.local`] : [])]),
  ]);
  loadsEnvFiles(run, "dotenv", files);
}

/** `dotenvx run|get|decrypt…`: `-f FILE`, else `.env`, and its keys (`-fk FILE`, else `.env.keys`). */
function dotenvxRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  const end = args.indexOf("--");
  const own = end < 0 ? args : args.slice(0, end);
  const verb = own.find((a) => !a.startsWith("-"));
  if (verb === undefined || /^(ls|help|ext)$/.test(verb) || helpOnly(own)) return;
  const named = own.some((a) => /^(-f|--env-file)(=|$)/.test(a));
  const keys = own.some((a) => /^(-fk|--env-keys-file)(=|$)/.test(a));
  const convention = valueOf(own, ["--convention"]);
  const files = [
    ...(named ? [] : [".env"]),
    ...(keys ? [] : [".env.keys"]),
    ...(convention === null ? [] : modeFiles("", null)),
  ];
  loadsEnvFiles(run, "dotenvx", files);
}

/** `env-cmd`: `-f FILE`, else `./.env`; `-e ENVS` reads `-r FILE`, else `./.env-cmdrc(.js|.json)`. */
function envCmdRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  const end = args.indexOf("--");
  const own = end < 0 ? args : args.slice(0, end);
  const first = own.findIndex((a) => !a.startsWith("-"));
  const opts = first < 0 ? own : own.slice(0, first);
  if (opts.length === own.length && helpOnly(opts)) return;
  const has = (re: RegExp) => opts.some((a) => re.test(a));
  const rc = has(/^(-e|--environments)(=|$)/);
  const files = rc
    ? has(/^(-r|--rc-file)(=|$)/) ? [] : [".env-cmdrc", ".env-cmdrc.js", ".env-cmdrc.json"]
    : has(/^(-f|--file)(=|$)/)
    ? []
    : [".env"];
  loadsEnvFiles(run, "env-cmd", files);
}

/** The words after the program: static values, null for one not known. */
export function raw(stage: Stage): (string | null)[] {
  return stage.argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
}

/**
 * The directories a command's `[root]` operand may name (cac's, commander's): its operands from
 * `from`, read with `grammar`, and the word after each option the grammar does not know (that
 * one may take it as its value, or not: it may be the root). `--no-X` takes no value (mri's).
 */
export function roots(
  args: (string | null)[],
  from: number,
  grammar: OptionGrammar,
  afterEnd = false,
): string[] {
  const out: string[] = [];
  const tokens = readOptions(args.slice(from), grammar);
  for (const t of tokens) {
    const next = args[from + t.at + 1];
    if (t.kind === "operand") out.push(args[from + t.at]!);
    else if (t.kind === "end" && !afterEnd) break;
    else if (
      t.kind === "unknown" && t.glued === undefined && t.rest === undefined &&
      !t.name.startsWith("--no-") && typeof next === "string" && !next.startsWith("-")
    ) out.push(next);
  }
  return out.filter((r) => r !== "");
}

/** The first operand of `args` read with `grammar` (null: none), and its index. */
function firstOperand(args: (string | null)[], grammar: OptionGrammar): [string | null, number] {
  for (const t of readOptions(args, grammar)) {
    if (t.kind === "operand" || t.kind === "dynamic") return [args[t.at], t.at];
    if (t.kind === "end") break;
  }
  return [null, -1];
}

const set = (...names: string[]): ReadonlySet<string> => new Set(names);

/** Vite's options (its cli.ts, cac: `<v>` and `[v]` take the next word, others none). */
const VITE_GLOBAL = {
  valued: ["--config", "--base", "--logLevel", "--configLoader", "--profile", "--debug"],
  more: ["--filter", "--mode"],
  flags: ["--clearScreen", "--help", "--version"],
};
const VITE_VERBS: Record<string, { valued: string[]; flags: string[] }> = {
  dev: {
    valued: ["--host", "--port", "--open"],
    flags: ["--cors", "--strictPort", "--force", "--experimentalBundle"],
  },
  build: {
    valued: [
      "--target",
      "--outDir",
      "--assetsDir",
      "--assetsInlineLimit",
      "--ssr",
      "--sourcemap",
      "--minify",
      "--manifest",
      "--ssrManifest",
    ],
    flags: ["--emptyOutDir", "--watch", "--app"],
  },
  optimize: { valued: [], flags: ["--force"] },
  preview: { valued: ["--host", "--port", "--open", "--outDir"], flags: ["--strictPort"] },
};
VITE_VERBS.serve = VITE_VERBS.dev;

const viteGrammars = new Map<string, OptionGrammar>();

/** Vite's options for `verb` (and its global ones); "" for all of them, to find the verb. */
function viteGrammar(verb: string): OptionGrammar {
  let g = viteGrammars.get(verb);
  if (!g) {
    const own = verb ? [VITE_VERBS[verb]] : Object.values(VITE_VERBS);
    g = {
      flags: verb === "build" || !verb ? "hvw" : "hv",
      valued: "cldfm",
      longValued: set(...VITE_GLOBAL.valued, ...VITE_GLOBAL.more, ...own.flatMap((o) => o.valued)),
      longFlags: set(...VITE_GLOBAL.flags, ...own.flatMap((o) => o.flags)),
    };
    viteGrammars.set(verb, g);
  }
  return g;
}

/**
 * `vite [root]`, `vite build|dev|serve|preview|optimize [root]`: `.env`, `.env.local`,
 * `.env.MODE`, `.env.MODE.local` (the mode: `--mode`/`-m`, else production for build and
 * preview, development otherwise) in the root (the cwd, or the directory given: read with
 * vite's options, a flag's next word is the root, `vite --force web`). cac finds the command
 * after reading the options of each: a verb after an option may be the dev server's root
 * (`vite --force build` serves `build/`), in any mode.
 */
function viteRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  if (helpOnly(args)) return;
  const all = raw(stage);
  const [first, at] = firstOperand(all, viteGrammar(""));
  const verb = first !== null && first in VITE_VERBS ? first : "dev";
  const mode = valueOf(args, ["--mode", "-m"]);
  const dflt = verb === "build" || verb === "preview" ? "production" : "development";
  const dirs = ["", ...roots(all, verb === first ? at + 1 : 0, viteGrammar(verb))];
  const either = verb === first && at > 0;
  if (either) dirs.push(first);
  const files = dirs.flatMap((d) => modeFiles(d, mode === "" || either ? null : mode ?? dflt));
  loadsEnvFiles(run, "vite", files);
}

/** Next's options (its bin/next.ts, commander), by command; `--inspect` left not known. */
const NEXT_GRAMMARS: Record<string, OptionGrammar> = {
  build: {
    flags: "hd",
    valued: "",
    longFlags: set(
      "--help",
      "--debug",
      "--debug-prerender",
      "--no-mangling",
      "--no-lint",
      "--profile",
      "--experimental-app-only",
      "--turbo",
      "--turbopack",
      "--webpack",
      "--experimental-turbo",
      "--experimental-debug-memory-usage",
      "--experimental-next-config-strip-types",
    ),
    longValued: set(
      "--experimental-build-mode",
      "--experimental-upload-trace",
      "--debug-build-paths",
    ),
  },
  dev: {
    flags: "h",
    valued: "pH",
    longFlags: set(
      "--help",
      "--turbo",
      "--turbopack",
      "--webpack",
      "--disable-source-maps",
      "--experimental-https",
      "--experimental-test-proxy",
      "--experimental-next-config-strip-types",
    ),
    longValued: set(
      "--port",
      "--hostname",
      "--experimental-https-key",
      "--experimental-https-cert",
      "--experimental-https-ca",
      "--experimental-upload-trace",
    ),
  },
  start: {
    flags: "h",
    valued: "pH",
    longFlags: set("--help", "--experimental-test-proxy", "--experimental-next-config-strip-types"),
    longValued: set("--port", "--hostname", "--keepAliveTimeout"),
  },
};
NEXT_GRAMMARS.export = NEXT_GRAMMARS.start;
NEXT_GRAMMARS.typegen = NEXT_GRAMMARS.start;

/** Next's commands that load no project's env files. */
const NEXT_OTHERS = /^(info|telemetry|lint|internal|experimental-test|help)$/;

/**
 * `next [dev|build|start|typegen] [dir]` (Next's `loadEnvConfig`; dev the default command:
 * `next web` is `next dev web`): `.env`, `.env.local`, `.env.MODE` and `.env.MODE.local` in the
 * project directory (development for dev, production otherwise), read with next's options.
 */
function nextRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  if (helpOnly(args)) return;
  const all = raw(stage);
  const first = all[0];
  if (first && NEXT_OTHERS.test(first)) return;
  const verb = first && first in NEXT_GRAMMARS ? first : "dev";
  const mode = verb === "dev" ? "development" : "production";
  // (commander takes the words after `--` as operands: `next dev -- web`.)
  const dirs = roots(all, verb === first ? 1 : 0, NEXT_GRAMMARS[verb], true);
  loadsEnvFiles(run, "next", ["", ...dirs].flatMap((d) => modeFiles(d, mode)));
}

/**
 * `prisma …` (before Prisma 7): the project root's `.env` (the directory of the nearest
 * package.json, else the cwd), the schema's directory's (`--schema`) and `./prisma/.env`.
 */
function prismaRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  if (!args.length || helpOnly(args) || args[0] === "init") return;
  const found = run.projectSettings("package.json");
  const root = found?.length ? found[0].dir : "";
  const schema = valueOf(args, ["--schema"]);
  const schemaDir = schema ? schema.slice(0, Math.max(schema.lastIndexOf("/"), 0)) : null;
  const files = [
    inDir(root, ".env"),
    "prisma/.env",
    ...(schemaDir !== null ? [inDir(schemaDir, ".env")] : []),
  ];
  loadsEnvFiles(run, "prisma", files);
}

/** A procfile runner's options as the command reads them: the last value of each. */
interface ProcfileOptions {
  /** `-e`: the word (a static value, or a word not known), or null. */
  env: Word | null;
  /** `-d`: "" where not known, null where not given. */
  root: string | null;
}

/** Read `tokens` (of `args`, the stage's words from `from`) into `opts`. */
function readProcfileOptions(
  argv: Word[],
  from: number,
  grammar: OptionGrammar,
  stopAt: number,
  opts: ProcfileOptions,
): void {
  const args = argv.slice(from, stopAt < 0 ? undefined : stopAt).map((w) =>
    w.kind === "static" ? w.value : null
  );
  for (const t of readOptions(args, grammar)) {
    if (t.kind === "dynamic") {
      // (`--env="$E"`, `-e"$E"`: the option, its value not known.)
      const start = gluedStart(argv[from + t.at].prefix, grammar);
      if (start?.name === "-e" || start?.name === "--env") opts.env = argv[from + t.at];
      if (start?.name === "-d" || start?.name === "--root" || start?.name === "--app-root") {
        opts.root = "";
      }
      continue;
    }
    if (t.kind !== "valued") continue;
    const value = t.glued !== undefined
      ? literal(t.glued)
      : t.valueAt === undefined
      ? null
      : argv[from + t.valueAt];
    if (t.name === "-e" || t.name === "--env") opts.env = value;
    else if (/^(-d|--root|--app-root)$/.test(t.name)) {
      opts.root = value?.kind === "static" ? value.value : "";
    }
  }
}

/**
 * The files `-e a,b` names (foreman and honcho split it on commas; honcho strips each): a
 * word not known names the ones its known start lists, and one not known (null).
 */
function commaFiles(w: Word): (string | null)[] {
  if (w.kind === "static") return w.value.split(",").map((f) => f.trim()).filter(Boolean);
  const start = w.prefix.replace(/^(-e|--env=?)/, "");
  const known = w.prefix.startsWith("-") ? start.split(",") : w.prefix.split(",");
  return [...known.slice(0, -1).map((f) => f.trim()).filter(Boolean), null];
}

/** `.foreman` (YAML in the cwd: foreman's defaults for its options): its `env` and `root`. */
function foremanDefaults(run: Runner, opts: ProcfileOptions): boolean {
  const text = run.settings(".foreman");
  if (text === "") return true;
  if (text === null) return false;
  for (const line of text.split("\n")) {
    const m = /^\s*:?["']?(env|root)["']?\s*:\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const value = m[2].replace(/^(["'])(.*)\1$/, "$2");
    // (A value YAML reads otherwise, a block, an alias, a list: not known.)
    const plain = value !== "" && !/^[|>&*![{]/.test(value);
    if (m[1] === "env") opts.env = plain ? literal(value) : null;
    if (m[1] === "root") opts.root = plain ? value : "";
    if (!plain) return false;
  }
  return true;
}

/**
 * `foreman start|run|export` and `honcho start|run|export|check`: the files `-e a,b,…` names
 * (foreman's from the cwd, honcho's from its app root), else `.env` in the app root
 * (`-d`/`--root`/`--app-root`, else the cwd). foreman takes the options its `.foreman` gives
 * where the command line gives none; honcho takes its common options before the command too
 * (`honcho -d web start`). What `run` runs is its own: its options are not theirs.
 */
function procfileRuns(stage: Stage, run: Runner): void {
  const name = programNameOf(stage.argv[0]);
  const honcho = name === "honcho";
  const argv = stage.argv.slice(1);
  const all = raw(stage);
  const [verb, at] = firstOperand(all, honcho ? HONCHO[""] : FOREMAN);
  if (
    verb === null || !(honcho ? /^(start|run|export|check)$/ : /^(start|run|export)$/).test(verb)
  ) {
    return;
  }
  const opts: ProcfileOptions = { env: null, root: null };
  let known = true;
  if (!honcho) known = foremanDefaults(run, opts);
  else readProcfileOptions(argv, 0, HONCHO[""], at, opts);
  const grammar = honcho ? HONCHO[verb] ?? HONCHO[""] : FOREMAN;
  // (`run CMD ARGS`: the options end at CMD.)
  const rest = all.slice(at + 1);
  const cmd = verb === "run" ? firstOperand(rest, grammar)[1] : -1;
  readProcfileOptions(argv, at + 1, grammar, cmd < 0 ? -1 : at + 1 + cmd, opts);
  const root = opts.root ?? "";
  const files: (string | null)[] = opts.env
    ? commaFiles(opts.env).map((f) =>
      f === null || !honcho || f.startsWith("/") ? f : inDir(root, f)
    )
    : [inDir(root, ".env")];
  if (!known) files.push(null);
  loadsEnvFiles(run, name, files);
}

function programNameOf(w: Word): string {
  return w.value.slice(w.value.lastIndexOf("/") + 1);
}

/**
 * bun's `.env`, `.env.NODE_ENV`, `.env.NODE_ENV.local` and `.env.local` (not under test: `bun
 * test` runs with NODE_ENV=test), in its cwd (`--cwd DIR`); `--env-file` names the files in their
 * place, `--no-env-file` loads none.
 */
export function bunEnvFiles(stage: Stage, run: Runner): void {
  const args = values(stage);
  const verb = args.find((a) => !a.startsWith("-"));
  if (args.some((a) => /^(--no-env-file|--env-file(=.*)?)$/.test(a))) return;
  if (helpOnly(args.filter((a) => a.startsWith("-"))) && verb === undefined) return;
  if (
    verb !== undefined && /^(upgrade|completions|help|x|init|create|link|unlink|pm)$/.test(verb)
  ) return;
  const env = variable(stage, run, "NODE_ENV");
  const mode = verb === "test" ? "test" : env === null ? null : env || "development";
  const dir = valueOf(args, ["--cwd"]) ?? "";
  const modes = mode === null ? ["development", "production", "test"] : [mode];
  const files = [
    inDir(dir, ".env"),
    ...modes.flatMap((m) => [inDir(dir, `.env.${m}`), inDir(dir, `.env.${m}.local`)]),
    ...(mode === "test" ? [] : [inDir(dir, ".env.local")]),
  ];
  loadsEnvFiles(run, "bun", files);
}

/**
 * pipenv's `.env` (its `load_dot_env`, before any subcommand): `$PIPENV_DOTENV_LOCATION`, else
 * the project's (the directory of the nearest Pipfile, else the cwd); none with
 * `PIPENV_DONT_LOAD_ENV` set.
 */
export function pipenvEnvFiles(stage: Stage, run: Runner): void {
  const args = values(stage);
  if (!args.length || helpOnly(args.filter((a) => a.startsWith("-")))) return;
  const off = variable(stage, run, "PIPENV_DONT_LOAD_ENV");
  if (off) return;
  const at = variable(stage, run, "PIPENV_DOTENV_LOCATION");
  if (at) return loadsEnvFiles(run, "pipenv", [at]);
  const found = run.projectSettings("Pipfile");
  const dir = found?.length ? found[0].dir : "";
  loadsEnvFiles(run, "pipenv", [inDir(dir, ".env")]);
}

/** The nearest file named `name` in the cwd or a directory above it, to the root (null: not known). */
export function nearest(run: Runner, name: string): string | null | undefined {
  const found = run.projectSettings(name, undefined, true);
  return found === null ? null : found.length ? inDir(found[0].dir, name) : undefined;
}

/**
 * `flask …` (its FlaskGroup's `load_dotenv`, with python-dotenv): the nearest `.env` and
 * `.flaskenv` from the cwd up (python-dotenv's `find_dotenv(usecwd=True)`), unless
 * `FLASK_SKIP_DOTENV` is set; `-e`/`--env-file FILE` is a word of its own.
 */
function flaskRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  if (!args.length || helpOnly(args)) return;
  const skip = stageVariable(stage, "FLASK_SKIP_DOTENV", {
    FLASK_SKIP_DOTENV: run.variable("FLASK_SKIP_DOTENV"),
  });
  if (skip && !/^(0|false|no)$/i.test(skip)) return;
  const files = [nearest(run, ".env"), nearest(run, ".flaskenv")];
  loadsEnvFiles(run, "flask", files.filter((f) => f !== undefined));
}

/** `dbmate …`: `--env-file FILE` (each one given, words of their own), else `./.env`. */
function dbmateRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  if (!args.length || helpOnly(args)) return;
  if (args.some((a) => /^--env-file(=|$)/.test(a))) return;
  loadsEnvFiles(run, "dbmate", [".env"]);
}

/** The programs of this module, each loading its env files as an option's command would. */
export const DOTENV_PROGRAMS: Program[] = [
  // (What they run after their options: dotenv_runners.ts.)
  { names: ["dotenv"], optionCommands: dotenvRuns, runs: dotenvCommand },
  {
    names: ["dotenvx"],
    optionCommands: dotenvxRuns,
    runs: dotenvxCommand,
    tooBroad: (sub) => sub === "run",
  },
  { names: ["env-cmd"], optionCommands: envCmdRuns, runs: envCmdCommand },
  { names: ["vite"], optionCommands: viteRuns, namedFiles: outputDirectory(["--outDir"]) },
  { names: ["next"], optionCommands: nextRuns },
  { names: ["prisma"], optionCommands: prismaRuns },
  {
    names: ["foreman", "honcho"],
    optionCommands: procfileRuns,
    runs: procfileCommand,
    text: procfileNames,
    tooBroad: (sub) => sub === "run" || sub === "start",
  },
  { names: ["flask"], optionCommands: flaskRuns },
  { names: ["dbmate"], optionCommands: dbmateRuns },
];
