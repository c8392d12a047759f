/**
 * Programs that load `.env` files without naming them: each file they would load is judged as
 * read (a stage `(PROGRAM loads) FILE…`), where one is there or may be (one surely absent is
 * none: a project without `.env` sees no prompt). `dotenv` (dotenv-cli, python-dotenv's CLI),
 * `dotenvx`, `env-cmd`, `vite`, `next`, `prisma`, `foreman`, `honcho` here; `bun` (interpreters.ts)
 * and `pipenv` (package_runners.ts) through `bunEnvFiles` and `pipenvEnvFiles`.
 *
 * An option that names the file instead (`dotenv -e .env.ci`, `bun --env-file=x`) is a word of
 * its own, judged as it is; `bun --no-env-file`, `PIPENV_DONT_LOAD_ENV=1` load none.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Program, Runner } from "./spec.ts";
import { literal } from "./words.ts";
import { outputDirectory } from "./destinations.ts";

/** The words after the program, static values ("" for one not known). */
function values(stage: Stage): string[] {
  return stage.argv.slice(1).map((w) => (w.kind === "static" ? w.value : ""));
}

/**
 * A variable as the program finds it: the stage's assignment, else the environment (null: not
 * known, undefined: not set).
 */
function variable(stage: Stage, run: Runner, name: string): string | null | undefined {
  for (const w of stage.assignments ?? []) {
    const text = w.kind === "static" ? w.value : w.prefix;
    if (text.startsWith(`${name}=`)) {
      return w.kind === "static" ? text.slice(name.length + 1) : null;
    }
  }
  return stage.unknownVars?.has(name) ? null : run.variable(name);
}

/**
 * The env files at `paths` (from the stage's cwds, or absolute) judged as read by `origin`:
 * those there, or that may be there when it runs.
 */
export function loadsEnvFiles(run: Runner, origin: string, paths: readonly string[]): void {
  const there = [...new Set(paths)].filter((p) => run.settings(p) !== "");
  if (there.length) run.stage([literal(`(${origin} loads)`), ...there.map(literal)], origin);
}

/** A directory joined to a file name (`""` and `.`: the name alone). */
function inDir(dir: string, name: string): string {
  return dir === "" || dir === "." ? name : `${dir.replace(/\/+$/, "")}/${name}`;
}

/** The files a framework loads for `mode` (Vite's and Next's order): `local` with `.env.local`. */
function modeFiles(dir: string, mode: string | null, local = true): string[] {
  const modes = mode === null ? ["development", "production", "test"] : [mode];
  return [
    inDir(dir, ".env"),
    ...(local ? [inDir(dir, ".env.local")] : []),
    ...modes.flatMap((m) => [inDir(dir, `.env.${m}`), inDir(dir, `.env.${m}.local`)]),
  ];
}

/** The value of an option (`-m X`, `--mode X`, `--mode=X`): "" where not known, null where absent. */
function valueOf(args: string[], names: readonly string[]): string | null {
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
function helpOnly(args: string[]): boolean {
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

/**
 * `vite [root]`, `vite build|dev|serve|preview|optimize [root]`: `.env`, `.env.local`,
 * `.env.MODE`, `.env.MODE.local` (the mode: `--mode`/`-m`, else production for build and
 * preview, development otherwise) in the root (the cwd, or the directory given).
 */
function viteRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  if (helpOnly(args)) return;
  const verbs = ["build", "dev", "serve", "preview", "optimize"];
  const verb = verbs.includes(args[0]) ? args[0] : "dev";
  const mode = valueOf(args, ["--mode", "-m"]);
  const dflt = verb === "build" || verb === "preview" ? "production" : "development";
  const root = args.slice(verbs.includes(args[0]) ? 1 : 0).find((a, i, all) =>
    a !== "" && !a.startsWith("-") && (i === 0 || !all[i - 1].startsWith("-"))
  );
  const dirs = root === undefined ? [""] : ["", root];
  const files = dirs.flatMap((d) => modeFiles(d, mode === "" ? null : mode ?? dflt));
  loadsEnvFiles(run, "vite", files);
}

/**
 * `next dev|build|start [dir]` (Next's `loadEnvConfig`): `.env`, `.env.local`, `.env.MODE` and
 * `.env.MODE.local` in the project directory (development for dev, production otherwise).
 */
function nextRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  const verb = args[0] === undefined || args[0].startsWith("-") ? "dev" : args[0];
  if (!/^(dev|build|start|export)$/.test(verb) || helpOnly(args)) return;
  const dir = args.slice(1).find((a, i, all) =>
    a !== "" && !a.startsWith("-") && (i === 0 || !all[i - 1].startsWith("-"))
  );
  const mode = verb === "dev" ? "development" : "production";
  loadsEnvFiles(run, "next", [...modeFiles("", mode), ...(dir ? modeFiles(dir, mode) : [])]);
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

/**
 * `foreman start|run|export|check` and `honcho start|run|export|check`: `-e FILE`, else `.env`
 * in the app root (`-d`/`--root`/`--app-root`, else the cwd).
 */
function procfileRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  const verb = args.find((a) => !a.startsWith("-"));
  if (!verb || !/^(start|run|export|check)$/.test(verb)) return;
  const end = args.indexOf("--");
  const own = end < 0 ? args : args.slice(0, end);
  if (own.some((a) => /^(-e|--env)(=|$)/.test(a))) return;
  const root = valueOf(own, ["-d", "--root", "--app-root"]) ?? "";
  loadsEnvFiles(run, programNameOf(stage.argv[0]), [inDir(root, ".env")]);
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

/** The programs of this module, each loading its env files as an option's command would. */
export const DOTENV_PROGRAMS: Program[] = [
  { names: ["dotenv"], optionCommands: dotenvRuns },
  { names: ["dotenvx"], optionCommands: dotenvxRuns },
  { names: ["env-cmd"], optionCommands: envCmdRuns },
  { names: ["vite"], optionCommands: viteRuns, namedFiles: outputDirectory(["--outDir"]) },
  { names: ["next"], optionCommands: nextRuns },
  { names: ["prisma"], optionCommands: prismaRuns },
  { names: ["foreman", "honcho"], optionCommands: procfileRuns },
];
