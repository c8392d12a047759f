/**
 * More programs that load `.env` files without naming them, beside dotenv_loads.ts's (whose
 * `loadsEnvFiles` judges each file as read where one is there or may be): foundry's `forge`,
 * `cast`, `anvil` and `chisel` (the cwd's and the project root's), `diesel`, `sqlx` and
 * `sentry-cli` (dotenvy's nearest `.env` from the cwd up), nuxt's `nuxi` (its root's, or
 * `--dotenv FILE`), `act` (`.env`, `.secrets`, `.vars`, `.input`, each replaced by its option,
 * in its `-C` directory; `.actrc` lines are options before the command's), `astro` (Vite's mode
 * files), `wrangler` (`.env`; `dev` also `.dev.vars` and the environment's), and
 * `dotenv-linter`, which reads every `.env*` file in the directories it is given (the cwd where
 * none) and whose `fix` rewrites them. `vercel env pull [FILE]` writes `.env.local` where no
 * FILE is given.
 *
 * @module
 */
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import type { ChangesGiven, NamedFile, Program, Runner } from "./spec.ts";
import type { OptionGrammar } from "./argv.ts";
import {
  helpOnly,
  inDir,
  loadsEnvFiles,
  modeFiles,
  nearest,
  raw,
  roots,
  valueOf,
  values,
  variable,
} from "./dotenv_loads.ts";

const set = (...names: string[]): ReadonlySet<string> => new Set(names);

/** The program's name as called (a path's basename). */
function nameOf(stage: Stage): string {
  const v = stage.argv[0].value;
  return v.slice(v.lastIndexOf("/") + 1);
}

/** Whether the words are only a help or version request (none: the program's own work). */
function onlyHelp(args: string[]): boolean {
  return args.length > 0 && args.every((a) => a.startsWith("-")) && helpOnly(args);
}

/**
 * foundry's `load_dotenv` (every command, before its options are read): `.env` in the cwd and in
 * the project root, the nearest directory with `foundry.toml` (within the git work tree), else
 * the work tree's top, which may be any directory above the cwd holding a `.env`.
 */
function foundryRuns(stage: Stage, run: Runner): void {
  if (onlyHelp(values(stage))) return;
  const files: (string | null)[] = [".env"];
  const root = run.projectSettings("foundry.toml");
  if (root === null) files.push(null);
  else if (root.length) files.push(inDir(root[0].dir, ".env"));
  else {
    const above = run.projectSettings(".env");
    if (above === null) files.push(null);
    else files.push(...above.map((a) => inDir(a.dir, ".env")));
  }
  loadsEnvFiles(run, nameOf(stage), files);
}

/**
 * dotenvy's `dotenv()`: the nearest `.env` from the cwd up to the root (`diesel`, every command;
 * `sqlx` and `cargo-sqlx` unless a word is `--no-dotenv`).
 */
function nearestRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  if (onlyHelp(args) || args.includes("--no-dotenv")) return;
  const found = nearest(run, ".env");
  if (found !== undefined) loadsEnvFiles(run, nameOf(stage), [found]);
}

/**
 * `sentry-cli …`: the nearest `.env` from the cwd up, or `$SENTRY_DOTENV_PATH`; none where
 * `SENTRY_LOAD_DOTENV` is set to anything but `1`.
 */
function sentryRuns(stage: Stage, run: Runner): void {
  if (onlyHelp(values(stage))) return;
  const load = variable(stage, run, "SENTRY_LOAD_DOTENV");
  if (typeof load === "string" && load !== "1") return;
  const at = variable(stage, run, "SENTRY_DOTENV_PATH");
  if (at !== undefined && at !== "") return loadsEnvFiles(run, "sentry-cli", [at]);
  const found = nearest(run, ".env");
  if (found !== undefined) loadsEnvFiles(run, "sentry-cli", [found]);
}

/** nuxi's options of the commands that load the project (citty: a string option takes a word). */
const NUXI: OptionGrammar = {
  flags: "ho",
  valued: "ep",
  longValued: set(
    "--cwd",
    "--logLevel",
    "--dotenv",
    "--envName",
    "--extends",
    "--preset",
    "--port",
    "--host",
    "--name",
    "--checker",
    "--sslCert",
    "--sslKey",
  ),
  longFlags: set(
    "--help",
    "--prerender",
    "--build",
    "--clear",
    "--fork",
    "--https",
    "--open",
    "--public",
    "--qr",
    "--tunnel",
    "--serve",
    "--force",
  ),
};

/** nuxi's commands that load the Nuxt project (and its `.env`). */
const NUXI_VERBS = /^(dev|build|generate|preview|prepare|analyze|typecheck|test)$/;

/**
 * `nuxi dev|build|generate|preview|prepare|analyze|typecheck [ROOTDIR]` (and `nuxt …`): `.env` in
 * the root (`--cwd DIR`, else the operand, else the cwd), or the files `--dotenv FILE` names
 * there instead.
 */
function nuxiRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  const at = args.findIndex((a) => !a.startsWith("-"));
  if (at < 0 || !NUXI_VERBS.test(args[at]) || helpOnly(args)) return;
  const rest = args.slice(at + 1);
  const cwd = valueOf(rest, ["--cwd"]);
  const dirs = cwd !== null ? [cwd] : ["", ...roots(raw(stage), at + 1, NUXI)];
  const named: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--dotenv") named.push(rest[++i] ?? "");
    else if (rest[i].startsWith("--dotenv=")) named.push(rest[i].slice(9));
  }
  const names = (named.length ? named : [".env"]).filter(Boolean);
  loadsEnvFiles(run, nameOf(stage), dirs.flatMap((d) => names.map((n) => inDir(d, n))));
}

/** act's options naming the files it reads, and each one's default. */
const ACT_FILES: [string, string][] = [
  ["--env-file", ".env"],
  ["--secret-file", ".secrets"],
  ["--var-file", ".vars"],
  ["--input-file", ".input"],
];

/** What Go's `unicode.IsSpace` takes for whitespace (`strings.TrimSpace` trims it). */
const GO_SPACE = "\\t\\n\\v\\f\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f" +
  "\\u205f\\u3000";
const GO_TRIM = new RegExp(`^[${GO_SPACE}]+|[${GO_SPACE}]+$`, "g");

/** The characters a shell's special parameter is named by (`$1`, `$$`, `${#}`), as Go reads them. */
const GO_SPECIAL = /^[*#$@!?\-0-9]$/;

/**
 * A text as Go's `os.Expand(s, lookup)` makes it: `$NAME` (letters, digits, `_`), `${…}` (to the
 * next `}`), `$` with a special parameter's character; `${}` and an unclosed `${` are dropped, a
 * `$` before any other character (or last) stays.
 */
export function goExpand(s: string, lookup: (name: string) => string): string {
  let out = "";
  let from = 0;
  for (let j = 0; j < s.length; j++) {
    if (s[j] !== "$" || j + 1 >= s.length) continue;
    out += s.slice(from, j);
    const rest = s.slice(j + 1);
    let name = "";
    let width: number;
    if (rest[0] === "{") {
      const close = rest.indexOf("}");
      if (rest.length > 2 && GO_SPECIAL.test(rest[1]) && rest[2] === "}") {
        [name, width] = [rest[1], 3];
      } else if (close < 0) width = 1;
      else if (close === 1) width = 2;
      else [name, width] = [rest.slice(1, close), close + 1];
    } else if (GO_SPECIAL.test(rest[0])) [name, width] = [rest[0], 1];
    else {
      name = /^[A-Za-z0-9_]*/.exec(rest)![0];
      width = name.length;
    }
    if (name) out += lookup(name);
    else if (width === 0) out += "$";
    j += width;
    from = j + 1;
  }
  return out + s.slice(from);
}

/** act's options that take the next word, whose value names no file it reads. */
const ACT_PLAIN_VALUED = set(
  "-s",
  "--secret",
  "--env",
  "--var",
  "--input",
  "-P",
  "--platform",
  "-a",
  "--actor",
  "-j",
  "--job",
  "--matrix",
  "--container-options",
  "--container-architecture",
  "--github-instance",
  "--defaultbranch",
);

/** Where a variable not known is put in an `.actrc` line (its value may be anything). */
const UNKNOWN = "\0";

/**
 * A variable of act's environment as `.actrc` lines expand it: one the command sets (a static
 * assignment), `HOME`, `PWD` (the stage's cwd); any other is not known (UNKNOWN).
 */
function actVariable(stage: Stage, run: Runner, name: string): string {
  const value = variable(stage, run, name);
  const assigned = stage.assignments?.some((w) => w.value.startsWith(`${name}=`));
  if (assigned || value === null) return value ?? UNKNOWN;
  if (name === "HOME") return run.home(null) ?? UNKNOWN;
  if (name === "PWD" && !run.changes(name) && stage.cwds.length === 1) {
    return stage.cwds[0] ?? UNKNOWN;
  }
  return UNKNOWN;
}

/**
 * The options an `.actrc` text gives, as act's `readArgsFile` reads it: each line trimmed (Go's
 * `strings.TrimSpace`), its variables expanded (`os.ExpandEnv`), and where it starts with `-`
 * split at its first whitespace (Go's `\s`) into the option and the rest as its value. A value
 * not known is null where the option takes it and names no file; null where the options are not
 * known (a variable not known in an option or in a file's name).
 */
export function actrcOptions(
  text: string,
  lookup: (name: string) => string,
): (string | null)[] | null {
  const out: (string | null)[] = [];
  for (const line of text.split("\n")) {
    const arg = goExpand(line.replace(GO_TRIM, ""), lookup);
    if (arg.startsWith(UNKNOWN)) return null;
    if (!arg.startsWith("-")) continue;
    const at = arg.search(/[\t\n\f\r ]/);
    const option = at < 0 ? arg : arg.slice(0, at);
    if (option.includes(UNKNOWN)) return null;
    if (at < 0) out.push(option);
    else if (!arg.includes(UNKNOWN, at)) out.push(option, arg.slice(at + 1));
    else if (ACT_PLAIN_VALUED.has(option)) out.push(option, null);
    else return null;
  }
  return out;
}

/** The options the `.actrc` files give act (the XDG one, the home's, the cwd's); null: not known. */
function actrcArgs(stage: Stage, run: Runner): (string | null)[] | null {
  const home = run.home(null);
  const xdg = run.variable("XDG_CONFIG_HOME") ?? (home === null ? null : `${home}/.config`);
  const paths = [
    home === null ? null : `${home}/.actrc`,
    xdg === null ? null : `${xdg}/act/actrc`,
    xdg === null ? null : `${xdg}/.actrc`,
    ".actrc",
  ];
  const out: (string | null)[] = [];
  for (const p of paths) {
    const text = p === null ? null : run.settings(p);
    const args = text === null ? null : actrcOptions(text, (n) => actVariable(stage, run, n));
    if (args === null) return null;
    out.push(...args);
  }
  return out;
}

/** The last value of the options `names` in `args` (`-C dir`, `-Cdir`, `--directory=dir`). */
function lastValue(args: (string | null)[], names: readonly string[]): string | null | undefined {
  let found: string | null | undefined = undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null) continue;
    if (a === "--") break;
    if (names.includes(a)) found = args[++i] ?? null;
    else {
      const eq = a.indexOf("=");
      const name = eq > 0 ? a.slice(0, eq) : "";
      if (names.includes(name)) found = a.slice(eq + 1);
      else if (names.includes(a.slice(0, 2)) && !a.startsWith("--")) found = a.slice(2);
    }
  }
  return found;
}

/**
 * `act [EVENT]`: its env, secret, var and input files (`.env`, `.secrets`, `.vars`, `.input`,
 * or what `--env-file`, `--secret-file`, `--var-file`, `--input-file` name) from its working
 * directory (`-C`/`--directory`, else the cwd), read before it lists or runs anything; the
 * `.actrc` files (the home's, the XDG one, the cwd's) give options before the command line's.
 */
function actRuns(stage: Stage, run: Runner): void {
  const cli = raw(stage);
  if (cli.some((a) => a !== null && /^(-h|--help|--version|--bug-report)$/.test(a))) return;
  const rc = actrcArgs(stage, run);
  const args = [...(rc ?? []), ...cli];
  const workdir = lastValue(args, ["-C", "--directory"]);
  const files: (string | null)[] = rc === null || workdir === null ? [null] : [];
  for (const [option, dflt] of ACT_FILES) {
    const value = lastValue(args, [option]);
    if (value === null) files.push(null);
    else if (value !== "") {
      const file = value ?? dflt;
      files.push(isAbsolute(file) || !workdir ? file : inDir(workdir, file));
    }
  }
  loadsEnvFiles(run, "act", files);
}

/**
 * `astro dev|build|preview|sync|check` (Vite's env files, in `--root DIR`, else the cwd): the
 * mode `--mode` gives, else development for dev, production for build and preview, any for the
 * others.
 */
function astroRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  const verb = args.find((a) => !a.startsWith("-"));
  if (!verb || !/^(dev|start|build|preview|sync|check)$/.test(verb) || helpOnly(args)) return;
  const mode = valueOf(args, ["--mode"]);
  const dflt = /^(dev|start)$/.test(verb)
    ? "development"
    : /^(build|preview)$/.test(verb)
    ? "production"
    : null;
  const root = valueOf(args, ["--root"]) ?? "";
  loadsEnvFiles(run, "astro", modeFiles(root, mode === "" ? null : mode ?? dflt));
}

/** wrangler's options naming its environment. */
const WRANGLER_ENV = ["--env", "-e"];

/**
 * `wrangler …`: `.env` in the cwd (its system variables, every command); `wrangler dev` also
 * the Worker's local secrets: `.dev.vars` and `.dev.vars.ENV`, or `.env`, `.env.local`,
 * `.env.ENV`, `.env.ENV.local` (none of the `.env` ones with
 * `CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV=false`).
 */
function wranglerRuns(stage: Stage, run: Runner): void {
  const args = values(stage);
  if (!args.length || onlyHelp(args)) return;
  const files: (string | null)[] = [".env"];
  if (args.find((a) => !a.startsWith("-")) === "dev") {
    const env = valueOf(args, WRANGLER_ENV);
    const envs = env === null ? [] : env === "" ? [null] : [env];
    files.push(".dev.vars", ...envs.map((e) => (e === null ? null : `.dev.vars.${e}`)));
    if (variable(stage, run, "CLOUDFLARE_LOAD_DEV_VARS_FROM_DOT_ENV") !== "false") {
      files.push(".env.local");
      for (const e of envs) files.push(...(e === null ? [null] : [`.env.${e}`, `.env.${e}.local`]));
    }
  }
  loadsEnvFiles(run, "wrangler", files);
}

/** dotenv-linter's options that take a value. */
const LINTER_VALUED = /^(-e|--exclude|-s|--skip|--schema|-S)$/;

/** dotenv-linter's verb (`check` where none: its 3.x form) and the directories or files it is given. */
function linterArgs(args: (string | null)[]): { verb: string; inputs: (string | null)[] } {
  let verb = "";
  const inputs: (string | null)[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a !== null && LINTER_VALUED.test(a)) i++;
    else if (a !== null && a.startsWith("-")) continue;
    else if (!verb && inputs.length === 0 && a !== null && /^(check|fix|compare|diff)$/.test(a)) {
      verb = a;
    } else inputs.push(a);
  }
  return { verb: verb || "check", inputs };
}

/** Whether a name is one dotenv-linter takes for a `.env` file (`.env*`, `*.env`; not `.envrc`). */
function linted(name: string): boolean {
  return name !== ".envrc" && (name.startsWith(".env") || name.endsWith(".env"));
}

/**
 * `dotenv-linter [check|fix] [PATHS]` reads the `.env*` files in each directory it is given (the
 * cwd where none; below it with `-r`, files that may be anywhere there), as `fix` does before it
 * rewrites them; `compare`/`diff` read the files named, words of their own.
 */
function linterRuns(stage: Stage, run: Runner): void {
  const args = raw(stage);
  const { verb, inputs } = linterArgs(args);
  if (verb === "compare" || verb === "diff" || helpOnly(values(stage))) return;
  if (args.includes("--stdin")) return;
  const files: (string | null)[] = [];
  if (args.some((a) => a === "-r" || a === "--recursive")) files.push(null);
  for (const input of inputs.length ? inputs : ["."]) {
    for (const cwd of stage.cwds) {
      const list = input === null || cwd === null
        ? null
        : run.named(join(resolve(cwd, input), ".env"));
      if (list === null) files.push(null);
      else files.push(...list.filter((f) => linted(basename(f))));
    }
  }
  loadsEnvFiles(run, "dotenv-linter", files);
}

/** `dotenv-linter fix`: the trees it rewrites (none with `--dry-run`). */
function linterRewrites(argv: Word[]): "named" | "cwd" | null {
  const args = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  const { verb, inputs } = linterArgs(args);
  if (verb !== "fix" || args.includes("--dry-run") || args.includes("--stdin")) return null;
  return inputs.length ? "named" : "cwd";
}

/** What `dotenv-linter fix` may change below `dir`: its `.env*` files (below it too with `-r`). */
function linterChanges(argv: Word[], dir: string, file: string, _given: ChangesGiven): boolean {
  const recursive = argv.some((w) => w.value === "-r" || w.value === "--recursive");
  return linted(basename(file)) && (recursive || dirname(file) === dir);
}

/** `vercel env pull [FILE]`: FILE, else `.env.local` (`vc` too). */
function vercelWrites(argv: Word[]): NamedFile[] {
  const args = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  const ops = args.filter((a) => a === null || !a.startsWith("-"));
  if (ops[0] !== "env" || ops[1] !== "pull") return [];
  if (ops.length > 2) return [];
  return [{ path: ".env.local", source: "(what vercel env pull writes)" }];
}

/** The programs of this module. */
export const DOTENV_TOOL_PROGRAMS: Program[] = [
  { names: ["forge", "cast", "anvil", "chisel"], optionCommands: foundryRuns },
  { names: ["diesel", "sqlx", "cargo-sqlx"], optionCommands: nearestRuns },
  { names: ["sentry-cli"], optionCommands: sentryRuns },
  { names: ["nuxi", "nuxt"], optionCommands: nuxiRuns },
  { names: ["act"], optionCommands: actRuns },
  { names: ["astro"], optionCommands: astroRuns },
  { names: ["wrangler"], optionCommands: wranglerRuns },
  {
    names: ["dotenv-linter"],
    optionCommands: linterRuns,
    rewritesTrees: linterRewrites,
    changesBelow: linterChanges,
  },
  { names: ["vercel", "vc"], namedFiles: vercelWrites },
];
