/**
 * What the `.env` loaders that run a command run (their `runs` facets; the files they load are
 * dotenv_loads.ts's), each read as its own parser reads its words:
 *
 * - `dotenv` (dotenv-cli, minimist with no option declared: every option takes the next word
 *   that does not look like one, options are read after the command too, the command is the
 *   first word left and every word after `--`), and python-dotenv's `dotenv [-f F] run CMD…`;
 * - `env-cmd` (commander: `-f`, `-r`, `-e` take a value if one follows, `-e` all that follow in
 *   v11; the command is the first word left, run with every word after it; `--use-shell` runs
 *   them as a shell line, `-x`/`--expand-envs` puts the env file's values in their `$VAR`s);
 * - `dotenvx run` (commander too: the words left, in order);
 * - `foreman run CMD` / `honcho run CMD` (a Procfile's process where `foreman run NAME` names
 *   one), `foreman start [PROCESS]` / `honcho start [PROCESS…]`: the Procfile's lines (`NAME:
 *   COMMAND`, each a shell line), read where the Procfile can be.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { type CommandSpec, joinedText, runCommandWords, staticValue } from "./command_words.ts";
import type { Runner } from "./spec.ts";
import { honchoEnvValue, procfileEntries, pythonStrip } from "./procfile_text.ts";
import { chdir, literal, optionValue, programName, unknownWord } from "./words.ts";

const set = (...names: string[]): ReadonlySet<string> => new Set(names);

/** Whether minimist takes `next` as the value of the option before it (`long`: `--name`). */
function minimistTakes(next: Word | undefined, long: boolean): boolean {
  if (next === undefined) return false;
  // (A word not known is taken as a value: one that starts with `-` is no command either.)
  if (next.kind !== "static") return true;
  const v = next.value;
  return v !== "--" && (long || v !== "") && !/^(-|--)[^-]/.test(v);
}

/** Whether a cluster `-abc` ends in its own value (minimist's "broken" cluster: `-e.env`). */
function minimistGlued(arg: string): boolean {
  const letters = arg.slice(1, -1);
  for (let j = 0; j < letters.length; j++) {
    const next = arg.slice(j + 2);
    if (next === "-") continue;
    const alpha = /[A-Za-z]/.test(letters[j]);
    if (alpha && (next[0] === "=" || /-?\d+(\.\d*)?(e-?\d+)?$/.test(next))) return true;
    if (letters[j + 1] !== undefined && /\W/.test(letters[j + 1])) return true;
  }
  return arg.endsWith("-");
}

/**
 * The command dotenv-cli runs: minimist's `_` (the words no option takes, then every word after
 * `--`); null where an option of a shape not known may take the next word or not.
 */
export function minimistCommand(args: Word[]): Word[] | null {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.kind !== "static") {
      if (w.prefix.startsWith("-")) return null;
      out.push(w);
      continue;
    }
    const v = w.value;
    if (v === "--") return [...out, ...args.slice(i + 1)];
    if (/^--.+=/.test(v) || /^--no-.+/.test(v)) continue;
    if (/^--.+/.test(v)) {
      if (minimistTakes(args[i + 1], true)) i++;
    } else if (/^-[^-]+/.test(v)) {
      if (!minimistGlued(v) && minimistTakes(args[i + 1], false)) i++;
    } else out.push(w);
  }
  return out;
}

/** python-dotenv's group options (click), before its command. */
const PY_DOTENV: OptionGrammar = {
  flags: "",
  valued: "fqe",
  longValued: set("--file", "--quote", "--export"),
  longFlags: set("--version", "--help"),
};
/** python-dotenv's `run` options: the command is the first word after them. */
const PY_DOTENV_RUN: CommandSpec = {
  grammar: { flags: "", longFlags: set("--override", "--no-override", "--help") },
  noRun: ["--help"],
};

/** `dotenv …`: dotenv-cli's command, and python-dotenv's `run`'s. */
export function dotenvCommand(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const command = minimistCommand(args);
  if (command === null) {
    run.stage([unknownWord("(the command dotenv runs)")], "dotenv");
  } else if (command.length) run.stage(command, "dotenv");
  const values = args.map(staticValue);
  for (const t of readOptions(values, PY_DOTENV)) {
    if (t.kind === "flag" || t.kind === "valued") continue;
    if (t.kind === "operand" && values[t.at] === "run") {
      runCommandWords(args.slice(t.at + 1), PY_DOTENV_RUN, stage.cwds, run, "dotenv run");
    }
    break;
  }
}

/** A commander program's options (names as written: `-f`, `--file`, dotenvx's `-fk`). */
interface Commander {
  flags: ReadonlySet<string>;
  valued: ReadonlySet<string>;
  /** Options whose value is optional: the next word, where it does not look like an option. */
  optional?: ReadonlySet<string>;
  /** Valued options that take every word after them that does not look like an option. */
  variadic?: ReadonlySet<string>;
}

/** Whether commander takes a word for an option (its `maybeOption`). */
function optionLike(v: string): boolean {
  return v.length > 1 && v[0] === "-";
}

/** What commander leaves of a program's words: the operands and then the unknown options. */
interface CommanderRead {
  /** The indices of the words it leaves (`program.args`), in order. */
  args: number[];
  /** The options it read. */
  seen: Set<string>;
}

/**
 * The words commander (unknown options allowed) leaves for the program, its variadic options
 * read as such or as taking one value (null: a word not known that may be an option).
 */
function commanderArgs(args: Word[], spec: Commander, variadic: boolean): CommanderRead | null {
  const operands: number[] = [];
  const unknown: number[] = [];
  const seen = new Set<string>();
  let dest = operands;
  let active = false;
  let cluster: string | null = null;
  const text = (
    w: Word | undefined,
  ) => (w === undefined ? "" : w.kind === "static" ? w.value : w.prefix);
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const v: string | null = cluster ?? (w.kind === "static" ? w.value : null);
    cluster = null;
    if (v === "--") {
      if (dest === unknown) dest.push(i);
      for (let j = i + 1; j < args.length; j++) dest.push(j);
      break;
    }
    if (v === null) {
      // (A word not known before the command may be an option taking the next word, or it.)
      const found = operands.length > 0 || unknown.length > 0;
      if (!found && (optionLike(w.prefix) || (w.prefix === "" && !active))) return null;
      if (!active || optionLike(w.prefix)) dest.push(i);
      continue;
    }
    if (active && !optionLike(v)) continue;
    active = false;
    const eq = v.startsWith("--") ? v.indexOf("=") : -1;
    const name = eq > 0 ? v.slice(0, eq) : v;
    const valued = spec.valued.has(name);
    const optional = spec.optional?.has(name) ?? false;
    if (optionLike(v) && (valued || optional || spec.flags.has(name))) {
      seen.add(name);
      if (eq < 0 && valued) i++;
      else if (eq < 0 && optional && i + 1 < args.length && !optionLike(text(args[i + 1]))) i++;
      active = variadic && eq < 0 && (spec.variadic?.has(name) ?? false);
      continue;
    }
    if (v.length > 2 && v[0] === "-" && v[1] !== "-" && eq < 0) {
      const short = v.slice(0, 2);
      if (spec.valued.has(short) || spec.optional?.has(short)) {
        // (Its value glued: `-f.env.test`.)
        seen.add(short);
        active = variadic && (spec.variadic?.has(short) ?? false);
        continue;
      }
      if (spec.flags.has(short)) {
        // (A cluster of flags: the rest is read as an option of its own, `-xf FILE`.)
        seen.add(short);
        cluster = `-${v.slice(2)}`;
        i--;
        continue;
      }
    }
    if (optionLike(v)) dest = unknown;
    dest.push(i);
  }
  return { args: [...operands, ...unknown], seen };
}

/** env-cmd's options (v10 and v11). */
const ENV_CMD: Commander = {
  // deno-fmt-ignore
  flags: set("-x", "-v", "-h", "--expand-envs", "--recursive", "--fallback", "--no-override",
    "--silent", "--use-shell", "--verbose", "--version", "--help"),
  valued: set(),
  optional: set("-f", "--file", "-r", "--rc-file", "-e", "--environments"),
  variadic: set("-e", "--environments"),
};

/**
 * `env-cmd [options] CMD ARGS…` (`--` before CMD or not): the command and every word after it
 * (its options are read after the command too: `--use-shell` there runs the line through a
 * shell). Read with `-e` taking one value (v10) and all that follow (v11).
 */
export function envCmdCommand(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const done = new Set<number>();
  for (const variadic of [false, true]) {
    const read = commanderArgs(args, ENV_CMD, variadic);
    if (read === null) {
      run.stage([unknownWord("(the command env-cmd runs)")], "env-cmd");
      return;
    }
    if (!read.args.length) continue;
    // (Its arguments: the words after the first word spelled as the command is.)
    const first = read.args[0];
    const value = staticValue(args[first]);
    const found = value === null ? first : args.findIndex((w) => staticValue(w) === value);
    const at = found < 0 || found > first ? first : found;
    if (done.has(at)) continue;
    done.add(at);
    const expand = read.seen.has("-x") || read.seen.has("--expand-envs");
    const words = [args[first], ...args.slice(at + 1)].map((w) =>
      expand && w.value.includes("$") ? unknownWord(`(${w.text} with the env file's values)`) : w
    );
    if (read.seen.has("--use-shell")) run.shell(joinedText(words), "env-cmd --use-shell");
    else run.stage(words, "env-cmd");
  }
}

/** dotenvx's options before its command (`-l LEVEL`, `-q`, `-v`, `-d`). */
const DOTENVX_GLOBAL: OptionGrammar = {
  flags: "qvdhV",
  valued: "l",
  longValued: set("--log-level"),
  longFlags: set("--quiet", "--verbose", "--debug", "--help", "--version"),
};
/** `dotenvx run`'s options (its `-e` and `--ignore` take every word after them). */
const DOTENVX_RUN: Commander = {
  // deno-fmt-ignore
  flags: set("-o", "-q", "-v", "-d", "-h", "--overload", "--redact", "--validate", "--strict",
    "--quiet", "--verbose", "--debug", "--help", "--no-armor", "--no-native", "--no-1password",
    "--no-bitwarden"),
  valued: set(
    "-e",
    "--env",
    "-f",
    "--env-file",
    "-fk",
    "--env-keys-file",
    "--convention",
    "--ignore",
    "--token",
    "-l",
    "--log-level",
  ),
  optional: set("--mask"),
  variadic: set("-e", "--env", "--ignore"),
};

/** `dotenvx run [options] -- CMD…`: the words commander leaves, in order. */
export function dotenvxCommand(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const values = args.map(staticValue);
  let at = -1;
  for (const t of readOptions(values, DOTENVX_GLOBAL)) {
    if (t.kind === "flag" || t.kind === "valued") continue;
    if (t.kind === "operand" && values[t.at] === "run") at = t.at;
    else if (t.kind !== "operand") {
      run.stage([unknownWord("(the command dotenvx runs)")], "dotenvx");
    }
    break;
  }
  if (at < 0) return;
  const rest = args.slice(at + 1);
  const done = new Set<string>();
  for (const variadic of [false, true]) {
    const read = commanderArgs(rest, DOTENVX_RUN, variadic);
    if (read === null) {
      run.stage([unknownWord("(the command dotenvx runs)")], "dotenvx run");
      return;
    }
    const key = read.args.join(",");
    if (!read.args.length || done.has(key)) continue;
    done.add(key);
    run.stage(read.args.map((i) => rest[i]), "dotenvx run");
  }
}

/** foreman's options (Thor: its cli.rb, every command's), each after the command. */
export const FOREMAN: OptionGrammar = {
  flags: "chv",
  valued: "fdemptalxru",
  longFlags: set("--color", "--no-color", "--timestamp", "--no-timestamp", "--help", "--version"),
  longValued: set(
    "--procfile",
    "--root",
    "--env",
    "--formation",
    "--port",
    "--timeout",
    "--app",
    "--log",
    "--error_log",
    "--error-log",
    "--run",
    "--user",
    "--template",
  ),
};

/** honcho's common options (argparse: before the command, and after it again). */
const HONCHO_COMMON = ["--env", "--app-root", "--procfile"];
const HONCHO_FLAGS = ["--no-colour", "--no-prefix", "--version", "--help"];

/** honcho's options: the common ones, and the command's (abbreviated as argparse allows). */
export const HONCHO: Record<string, OptionGrammar> = {
  "": {
    flags: "vh",
    valued: "edf",
    longValued: set(...HONCHO_COMMON),
    longFlags: set(...HONCHO_FLAGS),
    abbreviations: "all",
  },
  start: {
    flags: "vh",
    valued: "edfpcq",
    longValued: set(...HONCHO_COMMON, "--port", "--concurrency", "--quiet"),
    longFlags: set(...HONCHO_FLAGS),
    abbreviations: "all",
  },
  export: {
    flags: "vh",
    valued: "edfalpcust",
    longValued: set(
      ...HONCHO_COMMON,
      "--app",
      "--log",
      "--port",
      "--concurrency",
      "--user",
      "--shell",
      "--template-dir",
    ),
    longFlags: set(...HONCHO_FLAGS),
    abbreviations: "all",
  },
};

/** The Procfiles a runner may read, and the options it was given. */
interface ProcfilePlace {
  /** The Procfiles' paths (from the cwd; null: one not known), any of which it may read. */
  paths: (string | null)[];
  /** The app root (`-d`), where given. */
  root?: Word;
}

/** A path as Python's `os.path.join(dir, path)` makes it (`dir` "": the cwd). */
function joinRoot(dir: string, path: string): string {
  return path.startsWith("/") || !dir ? path : `${dir.replace(/\/+$/, "")}/${path}`;
}

/** A variable of the environment the stage's program finds (its assignments first). */
function stageVariable(stage: Stage, run: Runner, name: string): string | null | undefined {
  for (const w of stage.assignments ?? []) {
    const text = w.kind === "static" ? w.value : w.prefix;
    if (text.startsWith(`${name}=`)) {
      return w.kind === "static" ? text.slice(name.length + 1) : null;
    }
  }
  return stage.unknownVars?.has(name) || run.changes(name) ? null : run.variable(name);
}

/**
 * The Procfiles honcho may read where no `-f` names one: the `PROCFILE` its env files give (the
 * `-e a,b` files, else `.env`, in the app root), else `Procfile` (honcho 1) or the environment's
 * `PROCFILE` (honcho 2), in the app root.
 */
function honchoProcfiles(
  stage: Stage,
  run: Runner,
  dir: string,
  env: Word | null | undefined,
): (string | null)[] {
  if (env === null || (env !== undefined && env.kind !== "static")) return [null];
  const texts: string[] = [];
  for (const file of (env?.value ?? ".env").split(",")) {
    const name = pythonStrip(file);
    const text = name ? run.settings(joinRoot(dir, name)) : "";
    if (text === null) return [null];
    texts.push(text);
  }
  const named = honchoEnvValue(texts.join("\n"), "PROCFILE");
  if (named !== undefined) return [named === null ? null : joinRoot(dir, named)];
  const shell = stageVariable(stage, run, "PROCFILE");
  const paths: (string | null)[] = [joinRoot(dir, "Procfile")];
  if (shell === null) paths.push(null);
  else if (shell) paths.push(joinRoot(dir, shell));
  return paths;
}

/** The Procfiles `-f`/`--procfile`, `-d`/`--root`/`--app-root` (and honcho's env files) give. */
function procfilePlace(
  stage: Stage,
  args: Word[],
  grammar: OptionGrammar,
  run: Runner,
  honcho: boolean,
): ProcfilePlace {
  const values = args.map(staticValue);
  let file: string | null | undefined;
  let root: Word | undefined;
  let env: Word | null | undefined;
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "dynamic" && /^-[fd]|^--(p|r|a)/.test(args[t.at].prefix)) file = null;
    if (t.kind === "dynamic" && /^-e|^--e/.test(args[t.at].prefix)) env = null;
    if (t.kind === "end") break;
    if (t.kind !== "valued") continue;
    // (A glued value is read only from a word whose value is known: static.)
    const value = optionValue(t, args);
    if (value === undefined) continue;
    if (/^(-f|--procfile)$/.test(t.name)) file = value.kind === "static" ? value.value : null;
    if (/^(-d|--root|--app-root)$/.test(t.name)) root = value;
    if (/^(-e|--env)$/.test(t.name)) env = value;
  }
  if (!honcho && file === undefined && root === undefined) {
    // (foreman's `.foreman` gives its options' defaults: a procfile or root there is not read.)
    const defaults = run.settings(".foreman");
    if (defaults === null || /^\s*:?["']?(procfile|root)["']?\s*:/m.test(defaults)) file = null;
  }
  const dir = root === undefined ? "" : root.kind === "static" ? root.value : null;
  // (foreman's `-f` is from the cwd, honcho's from its app root.)
  if (!honcho && file != null) return { paths: [file], root };
  if (file === null || dir === null) return { paths: [null], root };
  if (honcho && file === undefined) return { paths: honchoProcfiles(stage, run, dir, env), root };
  return { paths: [joinRoot(dir, file ?? "Procfile")], root };
}

/** The Procfile's lines for `names` (all where none is given), each a shell line it runs. */
function procfileLines(
  place: ProcfilePlace,
  names: (string | null)[],
  run: Runner,
  origin: string,
  honcho: boolean,
): void {
  for (const path of new Set(place.paths)) {
    const text = path === null ? null : run.settings(path);
    if (text === null) {
      run.stage([unknownWord(`(the commands of ${path ?? "the Procfile"})`)], origin);
      continue;
    }
    for (const [name, command] of procfileEntries(text, honcho)) {
      if (!names.length || names.includes(null) || names.includes(name)) {
        run.shell(literal(command), origin);
      }
    }
  }
}

/**
 * `foreman run|start` and `honcho run|start`: `run`'s command (after the options the command's
 * grammar reads; `foreman run NAME` alone may be a Procfile's process), `start`'s Procfile lines
 * (those of the processes named, else all).
 */
export function procfileCommand(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]);
  const honcho = name === "honcho";
  const args = stage.argv.slice(1);
  const values = args.map(staticValue);
  const global = honcho ? HONCHO[""] : FOREMAN;
  let at = -1;
  for (const t of readOptions(values, global)) {
    if (t.kind === "flag" || t.kind === "valued") continue;
    if (t.kind === "operand") at = t.at;
    else if (t.kind === "dynamic") {
      run.stage([unknownWord(`(the command ${name} runs)`)], name);
    }
    break;
  }
  const verb = values[at];
  if (verb !== "run" && verb !== "start") return;
  const rest = args.slice(at + 1);
  const grammar = honcho ? HONCHO[verb] ?? HONCHO[""] : FOREMAN;
  const place = procfilePlace(stage, [...args.slice(0, at), ...rest], grammar, run, honcho);
  const cwds = place.root ? chdir(stage.cwds, place.root) : stage.cwds;
  const at2 = place.root ? run.at(cwds) : run;
  if (verb === "run") {
    runCommandWords(rest, { grammar }, stage.cwds, run, `${name} run`);
    const words = rest.filter((w) => !w.value.startsWith("-"));
    // (`foreman run web`: the Procfile's `web` process, where it names one.)
    if (!honcho && words.length === 1 && words[0] === rest[rest.length - 1]) {
      procfileLines(place, [staticValue(words[0])], at2, `${name} run`, false);
    }
    return;
  }
  const names: (string | null)[] = [];
  for (const t of readOptions(rest.map(staticValue), grammar)) {
    if (t.kind === "operand" || t.kind === "dynamic") names.push(staticValue(rest[t.at]));
  }
  procfileLines(place, names, at2, `${name} start`, honcho);
}

/**
 * The process names `foreman start NAME` and `honcho start NAME…` take (argv positions): names
 * of the Procfile's lines, no paths.
 */
export function procfileNames(argv: Word[]): number[] {
  const honcho = programName(argv[0]) === "honcho";
  const values = argv.slice(1).map(staticValue);
  const out: number[] = [];
  let verb: string | null = null;
  for (const t of readOptions(values, honcho ? HONCHO.start : FOREMAN)) {
    if (t.kind !== "operand") continue;
    if (verb === null) verb = values[t.at];
    else if (verb === "start") out.push(t.at + 1);
    else break;
  }
  return out;
}
