/**
 * Package and environment runners: programs whose subcommand runs the command (or the package's
 * program) given in their arguments, `npx pkg`, `npx -c 'cmd'`, `npm exec -- cmd`, `pnpm exec`,
 * `pnpm dlx`, `yarn exec`, `bunx`, `uv run`, `uvx`, `poetry run`, `pipenv run`, `conda run`,
 * `nix-shell --run`, `nix develop -c`, `nix run`, `direnv exec DIR cmd`, `mise exec -- cmd`,
 * `bundle exec`, `rustup run`, ... Each is a stage of its own.
 *
 * Not seen: the package scripts of `npm run`/`npm test` (code in package.json, like a Makefile's
 * recipes: project code the gate does not read), what an installed package runs, and Nix code
 * (`shellHook`, `-E` expressions).
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { shellQuote } from "../shell/words.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { type CommandSpec, runCommandWords, staticValue } from "./command_words.ts";
import type { Program, ReadOnlyCheck, Runner } from "./spec.ts";
import { chdir, literal, optionValue, programName, startsShell, unknownWord } from "./words.ts";
import { buildFileCommands, streamedBuildFile, streamedFile } from "./build_files.ts";
import { outputDirectory } from "./destinations.ts";
import { npmSettings, yarnSettings } from "./project_settings.ts";
import { GUESSED } from "./wrappers.ts";
import { miseSettings } from "./mise_settings.ts";
import { pipSiteSettings } from "./rc_files.ts";
import { pipenvEnvFiles } from "./dotenv_loads.ts";
import { npmCommand, PNPM_PREFIXES } from "./npm_commands.ts";
import { nixEval, nixLegacyEval } from "./nix_exprs.ts";
import {
  BUNX_OPTIONS,
  NPM_BOOLEAN_VALUES,
  NPM_EXEC_OPTIONS,
  PNPM_EXEC_OPTIONS,
  POETRY_OPTIONS,
  UV_GLOBAL_OPTIONS,
  UV_RUN_OPTIONS,
  UV_TOOL_RUN_OPTIONS,
} from "./runner_options.ts";

const set = (...names: string[]): ReadonlySet<string> => new Set(names);

/** A runner program: its options before the subcommand, and what each subcommand runs. */
interface RunnerProgram {
  /** Options before the subcommand (the program's global ones). */
  global: OptionGrammar;
  /** Subcommands (one or two words: `tool run`) that run a command, and how. */
  subcommands: Record<string, CommandSpec>;
  /** Any other subcommand that is not one of these runs as a command (`pnpm <cmd>`). */
  fallbackUnless?: ReadonlySet<string>;
  /** Options before the subcommand that move it to another directory. */
  chdir?: readonly string[];
}

const NPM_EXEC: CommandSpec = {
  grammar: NPM_EXEC_OPTIONS,
  shell: ["-c", "--call"],
  // (npx's `--shell` is `--script-shell`: the shell `-c` text runs in.)
  program: ["--script-shell", "--shell"],
  boolValues: NPM_BOOLEAN_VALUES,
  packages: "npm",
};

const UV_RUN: CommandSpec = { grammar: UV_RUN_OPTIONS, chdir: ["--directory"] };
const UV_TOOL_RUN: CommandSpec = {
  grammar: UV_TOOL_RUN_OPTIONS,
  chdir: ["--directory"],
  packages: "uv",
};

const PLAIN: CommandSpec = { grammar: {} };
const PIXI_EXEC: CommandSpec = {
  grammar: { valued: "sc", longValued: set("--spec", "--channel", "--platform", "--with") },
};
/** A subcommand that starts a shell in the environment it makes (`poetry shell`). */
const SHELL: CommandSpec = { grammar: {}, bare: "shell" };

/** The runners, by name. */
const RUNNERS: Record<string, RunnerProgram> = {
  npm: {
    global: { valued: "w", longValued: set("--prefix", "--workspace", "--registry", "--cache") },
    // (`npm explore PKG -- CMD` runs CMD in the package's directory.)
    subcommands: {
      // (And `npm x`, `npm exe`: npm_commands.ts.)
      exec: NPM_EXEC,
      explore: { grammar: {}, operands: 1, afterDashDash: true },
    },
    chdir: ["--prefix"],
  },
  pnpm: {
    global: {
      valued: "wCF",
      longValued: set("--dir", "--filter", "--workspace", "--reporter", "--loglevel"),
      // deno-fmt-ignore
      longFlags: set("--shell-mode", "--silent", "--recursive", "--workspace-root", "--stream",
        "--parallel", "--aggregate-output", "--color", "--no-color"),
    },
    subcommands: {
      exec: { grammar: PNPM_EXEC_OPTIONS },
      dlx: { grammar: PNPM_EXEC_OPTIONS },
    },
    // `pnpm <cmd>`: a package script, else the command itself (pnpm exec).
    // deno-fmt-ignore
    fallbackUnless: set("add", "i", "install", "update", "up", "upgrade", "remove", "rm", "un",
      "uninstall", "link", "ln", "unlink", "import", "rebuild", "rb", "prune", "fetch", "audit",
      "list", "ls", "ll", "la", "outdated", "why", "licenses", "run", "run-script", "test", "t",
      "tst", "start", "stop", "restart", "create", "init", "publish", "pack", "store", "root",
      "bin", "setup", "env", "config", "c", "get", "set", "server", "recursive", "m", "multi",
      "patch", "patch-commit", "patch-remove", "deploy", "doctor", "dedupe", "install-test", "it",
      "help", "cat-file", "cat-index", "find-hash", "self-update", "approve-builds", "ignored-builds",
      "catalog", "login", "logout", "whoami", "view", "info", "show", "v", "owner", "dist-tag",
      "search", "docs", "home", "repo", "bugs", "version", "access", "token", "adduser", "sbom",
      "cache", "inject", "uninject"),
    chdir: ["-C", "--dir"],
  },
  yarn: {
    global: { longValued: set("--cwd") },
    // (`yarn workspace NAME CMD…` and `yarn workspaces foreach … CMD…` run a yarn command there:
    // its `exec` runs a program, read as the `exec` builtin is.)
    subcommands: {
      exec: PLAIN,
      dlx: { grammar: { valued: "p", longValued: set("--package") }, packages: "npm" },
      workspace: { grammar: {}, operands: 1 },
      "workspaces foreach": {
        grammar: {
          valued: "j",
          longValued: set("--include", "--exclude", "--since", "--jobs", "--from"),
        },
      },
    },
    chdir: ["--cwd"],
  },
  uv: {
    global: UV_GLOBAL_OPTIONS,
    subcommands: { run: UV_RUN, "tool run": UV_TOOL_RUN },
    chdir: ["--directory"],
  },
  poetry: {
    global: POETRY_OPTIONS,
    subcommands: { run: { grammar: POETRY_OPTIONS }, shell: SHELL },
    chdir: ["-C", "--directory"],
  },
  pipenv: { global: { longValued: set("--python") }, subcommands: { run: PLAIN, shell: SHELL } },
  pdm: { global: { valued: "p", longValued: set("--project") }, subcommands: { run: PLAIN } },
  hatch: {
    global: { valued: "e", longValued: set("--env") },
    subcommands: { run: PLAIN, shell: SHELL, "env run": { grammar: { valued: "e" } } },
  },
  rye: { global: {}, subcommands: { run: PLAIN } },
  pixi: {
    global: {},
    subcommands: {
      // (`pixi exec`, `pixi x`: a command in a temporary environment.)
      exec: PIXI_EXEC,
      x: PIXI_EXEC,
      run: { grammar: { valued: "e", longValued: set("--manifest-path", "--environment") } },
      shell: {
        ...SHELL,
        grammar: { valued: "e", longValued: set("--manifest-path", "--environment") },
      },
    },
  },
  conda: {
    global: {},
    subcommands: {
      run: {
        grammar: { valued: "np", longValued: set("--name", "--prefix", "--cwd") },
        chdir: ["--cwd"],
      },
    },
  },
  mamba: {
    global: {},
    subcommands: {
      run: {
        grammar: { valued: "np", longValued: set("--name", "--prefix", "--cwd") },
        chdir: ["--cwd"],
      },
    },
  },
  micromamba: {
    global: {},
    subcommands: {
      run: {
        grammar: { valued: "npa", longValued: set("--name", "--prefix", "--cwd", "--attach") },
        chdir: ["--cwd"],
      },
    },
  },
  bundle: {
    global: {},
    subcommands: { exec: { grammar: { longValued: set("--gemfile") } } },
  },
  rbenv: { global: {}, subcommands: { exec: PLAIN } },
  pyenv: { global: {}, subcommands: { exec: PLAIN } },
  // (`asdf env NAME CMD`: CMD in NAME's environment.)
  asdf: { global: {}, subcommands: { exec: PLAIN, env: { grammar: {}, operands: 1 } } },
  rustup: { global: {}, subcommands: { run: { grammar: {}, operands: 1 } } },
  direnv: { global: {}, subcommands: { exec: { grammar: {}, operands: "dir" } } },
  mise: {
    global: { valued: "C", longValued: set("--cd") },
    subcommands: {
      exec: {
        grammar: { valued: "cj", longValued: set("--command", "--jobs") },
        shell: ["-c", "--command"],
        afterDashDash: true,
      },
      x: {
        grammar: { valued: "cj", longValued: set("--command", "--jobs") },
        shell: ["-c", "--command"],
        afterDashDash: true,
      },
    },
    chdir: ["-C", "--cd"],
  },
  // `machinectl shell [[USER@]NAME [CMD…]]`: a command, or a login shell, in a container or here.
  machinectl: {
    global: { valued: "pMH", longValued: set("--property", "--machine", "--host") },
    subcommands: {
      shell: {
        grammar: { valued: "E", longValued: set("--uid", "--setenv") },
        operands: "login",
        bare: "shell",
      },
    },
  },
  nix: {
    global: { longValued: set("--extra-experimental-features", "--experimental-features") },
    subcommands: {
      develop: NIX_COMMAND(),
      shell: NIX_COMMAND(),
      run: { grammar: {}, afterDashDash: false },
    },
  },
};

/** `nix develop`/`nix shell`: the command after `-c`/`--command` (all the rest of the words). */
function NIX_COMMAND(): CommandSpec {
  return { grammar: {}, afterDashDash: true };
}

/**
 * The index of the subcommand in `args` under a global grammar: each reading, when unsure (a
 * reading where an option not known takes the next word is `guessed`).
 */
function subcommandsAt(
  args: Word[],
  grammar: OptionGrammar,
  from = 0,
  unknowns = 0,
  guessed = false,
): { at: number; guessed: boolean }[] {
  const values = args.slice(from).map(staticValue);
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "operand" || t.kind === "dynamic") return [{ at: from + t.at, guessed }];
    if (t.kind === "end") {
      return from + t.at + 1 < args.length ? [{ at: from + t.at + 1, guessed }] : [];
    }
    if (t.kind === "unknown" && t.glued === undefined && t.rest === undefined && unknowns < 3) {
      return [
        ...subcommandsAt(args, grammar, from + t.at + 1, unknowns + 1, guessed),
        ...subcommandsAt(args, grammar, from + t.at + 2, unknowns + 1, true),
      ];
    }
  }
  return [];
}

/** The cwds the global options move a runner to. */
function globalCwds(args: Word[], spec: RunnerProgram, stage: Stage): (string | null)[] {
  let cwds = stage.cwds;
  if (!spec.chdir) return cwds;
  const values = args.map(staticValue);
  for (const t of readOptions(values, spec.global)) {
    if (t.kind === "operand" || t.kind === "dynamic" || t.kind === "end") break;
    if (t.kind !== "valued" || !spec.chdir.includes(t.name)) continue;
    const v = t.glued ?? (t.valueAt === undefined ? undefined : values[t.valueAt]);
    cwds = v === undefined || v === null ? [null] : chdir(cwds, literal(v));
  }
  return cwds;
}

/** npm's `--script-shell`: the shell every package script runs in. */
function scriptShell(args: Word[], run: Runner): void {
  for (let i = 0; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : args[i].prefix;
    const m = /^--script-shell(?:=([\s\S]*))?$/.exec(v);
    if (!m) continue;
    const value = m[1] !== undefined ? literal(m[1]) : args[++i];
    if (value) run.stage([value, literal("(its arguments)")], "npm --script-shell");
  }
}

/** npm's settings (and yarn's, pnpm's) whose value is a program it runs later. */
const NPM_COMMAND_KEYS = /^(script-shell|shell|editor|git|browser|viewer)$/;

/**
 * `npm config set script-shell CMD` (and `npm set`, `yarn config set`, `key=value`): a program
 * saved for later runs, as `--script-shell` names one now.
 */
function savedCommands(args: Word[], run: Runner, name: string): void {
  const values = args.map(staticValue);
  const at = values.findIndex((v, i) =>
    v === "set" && (i === 0 || values[i - 1] === "config" || values[i - 1]?.startsWith("-"))
  );
  if (at < 0) return;
  const rest = args.slice(at + 1).filter((w) => !(w.kind === "static" && w.value.startsWith("-")));
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i];
    if (w.kind !== "static") {
      run.stage([unknownWord(`(a setting in ${w.text})`)], `${name} config`);
      return;
    }
    const eq = w.value.indexOf("=");
    const key = (eq < 0 ? w.value : w.value.slice(0, eq)).replace(/^--/, "");
    const value = eq < 0 ? rest[++i] : literal(w.value.slice(eq + 1));
    if (value && NPM_COMMAND_KEYS.test(key)) {
      run.stage([value, literal("(its arguments)")], `${name} config ${key}`);
    }
  }
}

/** What a runner's subcommand runs. */
function runnerRuns(name: string, spec: RunnerProgram, stage: Stage, run: Runner): void {
  // (A command npm reads otherwise spelled, judged by its rules alone: what it runs is judged once.)
  if (stage.origin === NPM_SPELLED) return;
  const args = stage.argv.slice(1);
  if (name === "npm" || name === "pnpm" || name === "yarn") {
    scriptShell(args, run);
    savedCommands(args, run, name);
  }
  const cwds = globalCwds(args, spec, stage);
  // The settings files of the project (`.npmrc`, `.yarnrc`): project_settings.ts.
  if (name === "npm" || name === "pnpm") npmSettings(stage, run, cwds);
  else if (name === "yarn") yarnSettings(stage, run, cwds);
  // (mise's config files: their templates, env scripts, hooks and tasks, mise_settings.ts.)
  else if (name === "mise") miseSettings(stage, run, cwds);
  for (const reading of subcommandsAt(args, spec.global)) {
    subcommandRuns(name, spec, stage, { ...reading, args, cwds }, run);
  }
}

/** Where a runner's subcommand is read: its words, the subcommand's index, the cwds. */
interface Reading {
  args: Word[];
  at: number;
  guessed: boolean;
  cwds: (string | null)[];
}

/** What the runner's subcommand at `r.at` runs. */
function subcommandRuns(
  name: string,
  spec: RunnerProgram,
  stage: Stage,
  r: Reading,
  run: Runner,
): void {
  const { args, at, cwds } = r;
  const word = args[at];
  // (After a global option not known that takes the next word, the subcommand is a guess.)
  const mark = r.guessed ? GUESSED : "";
  if (word.kind !== "static") {
    run.stage([unknownWord(`(${name} ${word.text})`)], name, cwds);
    return;
  }
  if (name === "pnpm" && PNPM_PREFIXES.has(word.value)) {
    // (`pnpm m exec rm x`, `pnpm pm recursive exec`: the command after them, options between.)
    for (const next of subcommandsAt(args, spec.global, at + 1)) {
      subcommandRuns(name, spec, stage, { ...r, ...next, guessed: r.guessed || next.guessed }, run);
    }
    return;
  }
  // (npm reads its commands' aliases and unique prefixes: `npm exe` is `npm exec`.)
  const command = name === "npm" ? npmCommand(word.value) ?? word.value : word.value;
  if (name === "npm" && (command !== word.value || at > 0)) npmSpelled(stage, r, command, run);
  const two = `${command} ${staticValue(args[at + 1]) ?? ""}`;
  const [sub, rest] = Object.hasOwn(spec.subcommands, two)
    ? [spec.subcommands[two], args.slice(at + 2)]
    : [
      Object.hasOwn(spec.subcommands, command) ? spec.subcommands[command] : undefined,
      args.slice(at + 1),
    ];
  if (name === "yarn" && command === "node") {
    // (`yarn node ARGS…` runs node with them: `yarn node -e CODE` is node's code.)
    run.stage([literal("node"), ...rest], `yarn node${mark}`, cwds);
  } else if (sub) {
    if (name === "nix" && command !== "run") nixCommand(rest, cwds, run);
    else if (name === "nix") nixRun(rest, cwds, run);
    else if (name === "pnpm") {
      // (`pnpm -c exec`: the shell mode given before the subcommand.)
      const global = args.slice(0, at).some((a) => /^(-c|--shell-mode)$/.test(a.value));
      const origin = `pnpm ${command}${mark}`;
      pnpmExec(rest, cwds, run, origin, global, command === "dlx");
    } else runCommandWords(rest, sub, cwds, run, `${name} ${command}${mark}`);
  } else if (spec.fallbackUnless && !spec.fallbackUnless.has(command)) {
    run.stage(args.slice(at), `${name}${mark}`, cwds);
  }
}

/** The origin of an npm command as npm reads it (see `npmSpelled`). */
const NPM_SPELLED = "npm command";

/**
 * An npm command spelled otherwise than by its name, or after options (`npm i`, `npm pu`, `npm
 * --tag x publish`): also judged as the command npm reads, its options after it (`npm install`,
 * `npm publish --tag x`), so the rules that name it (`npm publish*`) see it.
 */
function npmSpelled(stage: Stage, r: Reading, command: string, run: Runner): void {
  const { args, at } = r;
  const words = [stage.argv[0], literal(command), ...args.slice(0, at), ...args.slice(at + 1)];
  run.stage(words, NPM_SPELLED, r.cwds);
}

/**
 * `pnpm exec [-c|--shell-mode] cmd args` (and `pnpm dlx`): the command, its words joined into a
 * shell line with `-c`.
 */
function pnpmExec(
  args: Word[],
  cwds: (string | null)[],
  run: Runner,
  origin: string,
  joined = false,
  dlx = false,
): void {
  const values = args.map(staticValue);
  for (const t of readOptions(values, PNPM_EXEC_OPTIONS)) {
    if (t.kind === "operand" || t.kind === "end" || t.kind === "dynamic") break;
    if (t.name === "-c" || t.name === "--shell-mode") joined = true;
  }
  // (dlx's first word is a package: `pnpm dlx prettier@3` runs prettier.)
  const packages = dlx ? "npm" as const : undefined;
  runCommandWords(args, { grammar: PNPM_EXEC_OPTIONS, joined, packages }, cwds, run, origin);
}

/** `nix develop … -c cmd args` / `--command`: the words after it; without, a shell. */
function nixCommand(args: Word[], cwds: (string | null)[], run: Runner): void {
  const c = args.findIndex((a) => a.kind === "static" && /^(-c|--command)$/.test(a.value));
  if (c >= 0 && args[c + 1]) run.stage(args.slice(c + 1), "nix", cwds);
  else if (c < 0) startsShell(run, "nix", cwds);
  const dynamic = args.find((a) => a.kind !== "static" && /^-/.test(a.prefix));
  if (dynamic) run.stage([unknownWord(`(a command after ${dynamic.text})`)], "nix", cwds);
}

/**
 * `nix run INSTALLABLE -- args`: the installable's program, with the arguments after `--`. A
 * package of nixpkgs runs its program of the package's name (`nixpkgs#bash -- -c LINE` is `bash
 * -c LINE`); another flake's, a program not known by name.
 */
function nixRun(args: Word[], cwds: (string | null)[], run: Runner): void {
  const end = args.findIndex((a) => a.kind === "static" && a.value === "--");
  const before = end >= 0 ? args.slice(0, end) : args;
  const installable = before.find((a) => !a.value.startsWith("-")) ?? unknownWord("(nix run)");
  const m = installable.kind === "static" ? NIXPKGS_PACKAGE.exec(installable.value) : null;
  const program = m ? literal(m[1]) : installable;
  run.stage([program, ...(end >= 0 ? args.slice(end + 1) : [])], "nix run", cwds);
}

/** A package of nixpkgs (`nixpkgs#bash`, `nixpkgs/nixos-24.05#python3Packages.black`). */
const NIXPKGS_PACKAGE =
  /^(?:nixpkgs(?:\/[\w.-]+)?|github:NixOS\/nixpkgs(?:\/[\w.-]+)?)#(?:[\w+-]+\.)*([\w+-]+)$/;

/** npx, bunx, pnpx, uvx: the package's program (or `-c` text) is the command. */
const DIRECT: Record<string, CommandSpec> = {
  npx: NPM_EXEC,
  pnpx: { grammar: PNPM_EXEC_OPTIONS },
  bunx: { grammar: BUNX_OPTIONS, packages: "npm" },
  uvx: UV_TOOL_RUN,
};

/** nix-shell's `--run`/`--command` text runs in the shell it makes. */
const NIX_SHELL: CommandSpec = {
  grammar: {
    valued: "pAIi",
    // deno-fmt-ignore
    longValued: set("--run", "--command", "--packages", "--attr", "--include", "--option",
      "--arg", "--argstr", "--keep", "--exclude"),
  },
  shell: ["--run", "--command"],
};

/**
 * `nix-shell [opts] --run 'cmd'`: each `--run`/`--command` text (options after files too);
 * without one, the shell it starts.
 */
function nixShell(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  let ran = false;
  for (let i = 0; i < args.length; i++) {
    const v = staticValue(args[i]);
    if (v === null && /^--(r|c)/.test(args[i].prefix)) {
      run.stage([unknownWord(`(a command in ${args[i].text})`)], "nix-shell");
      ran = true;
    }
    if (v === "--run" || v === "--command") {
      if (args[i + 1]) run.shell(args[++i], "nix-shell");
      ran = true;
    } else if (v === "--arg" || v === "--argstr" || v === "--option") i += 2;
    else if (v !== null && NIX_SHELL.grammar.longValued!.has(v)) i++;
  }
  if (!ran) startsShell(run, "nix-shell");
}

/**
 * Options that make npm's listings write files or read a config (which may be any file): its
 * log directory, cache and config files.
 */
const NPM_WRITING = ["logs-dir", "cache", "userconfig", "globalconfig", "prefix"];
const NPM_WRITES: ReadOnlyCheck = {
  // (`-C` is `--prefix`; `--global` is itself, no `--globalconfig`.)
  short: "C",
  options: { longFlags: new Set(["--global", "--all", "--json", "--long", "--parseable"]) },
  long: NPM_WRITING.map((o) => `--${o}`),
  // npm's parser takes a long option after one dash too (`-logs-dir=DIR`, `-cache DIR`), and an
  // abbreviation of one.
  accepts: (args) =>
    !args.some((a) => {
      const m = a === null ? null : /^-([a-z][a-z-]+)(=|$)/.exec(a);
      return m !== null && NPM_WRITING.some((o) => o.startsWith(m[1]));
    }),
};
/** npm's listings as `$safe-bash` allows them. */
const NPM_READ_ONLY: Record<string, ReadOnlyCheck> = {
  list: NPM_WRITES,
  ls: NPM_WRITES,
  view: NPM_WRITES,
};
/** Options that make pip write a file: its log (appended), its cache. */
const PIP_WRITES: ReadOnlyCheck = { long: ["--log", "--log-file", "--cache-dir"] };
/** pip's listings as `$safe-bash` allows them. */
const PIP_READ_ONLY: Record<string, ReadOnlyCheck> = {
  list: PIP_WRITES,
  show: PIP_WRITES,
  freeze: PIP_WRITES,
};

/** The package and environment runners. */
export const PACKAGE_RUNNER_PROGRAMS: Program[] = [
  // Their other subcommands run nothing they are given (`npm test`, `uv pip install`): the
  // command of `npm exec`, `uv run`, ... is a stage of its own, judged by itself, so an approval
  // of `npm test *` or `uv run *` stays savable and never covers what `uv run` runs.
  ...Object.entries(RUNNERS).map(([name, spec]): Program => ({
    names: name === "bundle" ? ["bundle", "bundler"] : [name],
    optionCommands: name === "pipenv"
      ? (stage, run) => {
        // (pipenv loads the project's `.env` first, whatever the subcommand: dotenv_loads.ts.)
        pipenvEnvFiles(stage, run);
        runnerRuns(name, spec, stage, run);
      }
      : (stage, run) => runnerRuns(name, spec, stage, run),
    ...(name === "npm" ? { readOnly: NPM_READ_ONLY } : {}),
    ...(name === "nix" ? { evaluates: nixEval, codeOption: true } : {}),
  })),
  // pip's listings ($safe-bash's `pip list`, `pip show`, `pip freeze`).
  {
    names: ["pip", "pip3"],
    readOnly: PIP_READ_ONLY,
    // `install --target DIR` (`-t`, `--prefix`, `--root`) writes the packages below DIR.
    namedFiles: outputDirectory(["-t", "--target", "--prefix", "--root"]),
    // (Its environment's pip.conf, and the user's where the command writes them: rc_files.ts.)
    optionCommands: pipSiteSettings,
  },
  ...Object.entries(DIRECT).map(([name, spec]): Program => ({
    names: [name],
    runs: (stage, run) => {
      // (npx is `npm exec`: the project's `.npmrc` counts.)
      if (name === "npx") npmSettings(stage, run, stage.cwds);
      const origin = programName(stage.argv[0]);
      // (pnpx is `pnpm dlx`, `-c` too.)
      if (name === "pnpx") pnpmExec(stage.argv.slice(1), stage.cwds, run, origin, false, true);
      else runCommandWords(stage.argv.slice(1), spec, stage.cwds, run, origin);
    },
  })),
  // (The Nix expressions of their words: nix_exprs.ts.)
  { names: ["nix-shell"], runs: nixShell, evaluates: nixLegacyEval },
];

/** make's options that take a value (its `-j`/`-l`/`-O` values are optional and glued). */
const MAKE: OptionGrammar = {
  valued: "CfIoWE",
  gluedOnly: "jlO",
  // deno-fmt-ignore
  longValued: set("--directory", "--file", "--makefile", "--include-dir", "--old-file",
    "--assume-old", "--what-if", "--new-file", "--assume-new", "--eval", "--jobserver-style"),
};

/** A make function in a value that runs a command or reads code (`$(shell cmd)`, `$(eval …)`). */
const MAKE_CODE = /\$[({](eval|file|guile|call|value|foreach|let|load)\b/;

/**
 * make's option values and variable overrides that run commands: `--eval`/`-E` text is make code
 * (its `$(shell …)` and recipes), `SHELL=prog` runs every recipe, `X!=cmd` runs cmd, `$(shell
 * cmd)` in a value runs cmd where it is used, and a value with shell syntax (`CC='gcc; rm x'`)
 * breaks out of the recipes it is put in.
 */
function makeCommands(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const values = args.map(staticValue);
  const remake = programName(stage.argv[0]) === "remake";
  for (const t of readOptions(values, MAKE)) {
    if (remake && (t.name === "-X" || t.kind === "unknown" && t.name.startsWith("--debugg"))) {
      // remake's debugger reads its commands (`shell`, `eval`, `source`) from its input.
      run.stage([unknownWord("(remake's debugger commands)")], "remake --debugger");
    } else if (t.kind === "valued" && (t.name === "-E" || t.name === "--eval")) {
      const v = t.glued ?? (t.valueAt === undefined ? null : args[t.valueAt].text);
      if (v !== null) run.stage([unknownWord(`(make code ${v})`)], "make --eval");
    } else if (t.kind === "valued" && /^(-f|--file|--makefile)$/.test(t.name)) {
      // A makefile from standard input or a stream: code as `--eval`'s, its recipes read where
      // its text is known (`make -f - <<E`).
      const file = optionValue(t, args);
      if (file && streamedFile(file)) streamedBuildFile(stage, file, run, "make -f", true);
    } else if (t.kind === "unknown" && /^--(fi|mak)/.test(t.name) && makefileOption(t.name)) {
      const file = t.glued === undefined ? args[t.at + 1] : literal(t.glued);
      if (file && streamedFile(file)) streamedBuildFile(stage, file, run, "make -f", true);
    } else if (t.kind === "unknown" && t.name.startsWith("--e") && "--eval".startsWith(t.name)) {
      run.stage([unknownWord(`(make code after ${t.name})`)], "make --eval");
    } else if (t.kind === "dynamic" && /^-/.test(args[t.at].prefix)) {
      run.stage([unknownWord(`(make code in ${args[t.at].text})`)], "make option");
    } else if (t.kind === "operand" || t.kind === "dynamic") {
      makeAssignment(args[t.at], run);
    }
  }
  // Variables of its environment are make's variables too (`CC='rm -rf x #' make`).
  for (const w of stage.assignments ?? []) makeAssignment(w, run);
}

/** The makefiles make's options name (`-f FILE`, `--file=FILE`, `--mak FILE`). */
export function makefiles(stage: Stage): Word[] {
  const args = stage.argv.slice(1);
  const out: Word[] = [];
  for (const t of readOptions(args.map(staticValue), MAKE)) {
    const file = t.kind === "valued" && /^(-f|--file|--makefile)$/.test(t.name)
      ? optionValue(t, args)
      : t.kind === "unknown" && /^--(fi|mak)/.test(t.name) && makefileOption(t.name)
      ? (t.glued === undefined ? args[t.at + 1] : literal(t.glued))
      : undefined;
    if (file) out.push(file);
  }
  return out;
}

/** Whether a long option is getopt_long's abbreviation of `--file` or `--makefile`. */
function makefileOption(name: string): boolean {
  return "--file".startsWith(name) || "--makefile".startsWith(name);
}

/** Variables whose value is a program the recipes run (`CC`, `SPHINXBUILD`, `PYTHON`). */
const MAKE_PROGRAM =
  /^(CC|CXX|CPP|LD|AR|AS|FC|F77|RANLIB|STRIP|OBJCOPY|OBJDUMP|NM|INSTALL|LEX|YACC|M4|RM|MAKE|PKG_CONFIG|[A-Z0-9_]*(BUILD|PYTHON|PERL|RUBY|NODE|CMD|COMMAND|PROG|PROGRAM|EXE|BIN|TOOL|RUNNER|WRAPPER|COMPILER|LINKER|EDITOR|PAGER))$/;

/** A `NAME=value` operand of make: what its value runs. */
function makeAssignment(w: Word, run: Runner): void {
  const m = /^\s*([^\s=:!?+]+)\s*(::?=|:::=|\?=|\+=|!=|=)/.exec(w.value);
  if (!m) return;
  const value = w.value.slice(m[0].length);
  const word = (text: string): Word => w.kind === "static" ? literal(text) : { ...w, value: text };
  if (m[2] === "!=") run.shell(word(value), "make !=");
  else if (m[1] === "SHELL") run.stage([word(value), literal("(its arguments)")], "make SHELL");
  // (`.SHELLFLAGS` are the shell's words before each recipe line: `-c "rm x"` runs rm.)
  else if (m[1] === ".SHELLFLAGS") run.shell(word(`sh ${value}`), "make .SHELLFLAGS");
  else if (MAKE_PROGRAM.test(m[1])) run.shell(word(value), "make variable");
  if (MAKE_CODE.test(value)) run.stage([unknownWord(`(make code ${w.text})`)], "make variable");
  for (const s of value.matchAll(/\$[({]shell\s+([^)}]*)[)}]/g)) {
    run.shell(word(s[1]), "make $(shell)");
  }
  // Shell syntax that ends the recipe command the value is put in (in a word bash expands,
  // what its substitutions print is not known: only the program variables are judged).
  if (
    w.kind === "static" &&
    /[;&|`<>\n]|\$\((?![A-Za-z_][A-Za-z0-9_.]*\))/.test(
      value.replace(/\$[({]shell\s+[^)}]*[)}]/g, ""),
    )
  ) {
    run.shell(word(value), "make variable");
  }
}

/**
 * make and its other builds (gmake; bmake and pmake, BSD make; remake, GNU make with a debugger):
 * their directory options and the commands their values and overrides run.
 */
export const BUILD_PROGRAMS: Program[] = [
  {
    names: ["make", "gmake", "bmake", "pmake", "remake"],
    options: MAKE,
    chdir: { options: ["-C", "--directory"] },
    optionCommands: makeCommands,
  },
  // (A build file from standard input or a stream: build_files.ts.)
  { names: ["ninja"], chdir: { options: ["-C"] }, optionCommands: buildFileCommands },
  { names: ["just"], optionCommands: buildFileCommands },
  { names: ["mvn", "mvnw"], optionCommands: mavenExec },
];

/**
 * Maven's exec plugin runs `-Dexec.executable=PROG` with `-Dexec.args=…` (split into words as
 * a shell would; a value not known: a command not known).
 */
function mavenExec(stage: Stage, run: Runner): void {
  let program: Word | null = null;
  let args = "";
  for (const w of stage.argv.slice(1)) {
    const m = /^-Dexec\.(executable|args)=([\s\S]*)$/.exec(
      w.kind === "static" ? w.value : w.prefix,
    );
    if (!m) continue;
    if (w.kind !== "static") {
      run.stage([unknownWord(`(a command ${w.text} names)`)], "mvn exec");
      return;
    }
    if (m[1] === "executable") program = literal(m[2]);
    else args = m[2];
  }
  if (program) run.shell(literal(`${shellQuote(program.value)} ${args}`), "mvn exec");
}
