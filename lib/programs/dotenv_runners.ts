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

/** A Procfile's line: `NAME: COMMAND` (foreman's and honcho's pattern). */
const PROCFILE_LINE = /^([A-Za-z0-9_-]+):[ \t]*(.+)$/;

/** The Procfile a runner reads, and the options it was given (static values; null: not known). */
interface ProcfilePlace {
  /** The Procfile's path (from the cwd), null where not known. */
  path: string | null;
  /** The app root (`-d`), where given. */
  root?: Word;
}

/** The value of `-f`/`--procfile` and `-d`/`--root`/`--app-root` among `args`. */
function procfilePlace(
  args: Word[],
  grammar: OptionGrammar,
  run: Runner,
  honcho: boolean,
): ProcfilePlace {
  const values = args.map(staticValue);
  let file: string | null | undefined;
  let root: Word | undefined;
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "dynamic" && /^-[fd]|^--(p|r|a)/.test(args[t.at].prefix)) file = null;
    if (t.kind === "end") break;
    if (t.kind !== "valued") continue;
    // (A glued value is read only from a word whose value is known: static.)
    const value = optionValue(t, args);
    if (value === undefined) continue;
    if (/^(-f|--procfile)$/.test(t.name)) file = value.kind === "static" ? value.value : null;
    if (/^(-d|--root|--app-root)$/.test(t.name)) root = value;
  }
  if (!honcho && file === undefined && root === undefined) {
    // (foreman's `.foreman` gives its options' defaults: a procfile or root there is not read.)
    const defaults = run.settings(".foreman");
    if (defaults === null || /^\s*:?["']?(procfile|root)["']?\s*:/m.test(defaults)) file = null;
  }
  if (honcho && file === undefined) {
    // (honcho takes `PROCFILE` from the environment, or from the `.env` it loads.)
    const named = run.variable("PROCFILE");
    if (named) file = named;
  }
  const dir = root === undefined ? "" : root.kind === "static" ? root.value : null;
  if (file === undefined) {
    file = dir === null ? null : dir ? `${dir.replace(/\/+$/, "")}/Procfile` : "Procfile";
  } else if (honcho && file !== null && !file.startsWith("/") && dir) file = `${dir}/${file}`;
  else if (honcho && dir === null) file = null;
  return { path: file, root };
}

/** The Procfile's lines for `names` (all where none is given), each a shell line it runs. */
function procfileLines(
  place: ProcfilePlace,
  names: (string | null)[],
  run: Runner,
  origin: string,
): void {
  const text = place.path === null ? null : run.settings(place.path);
  if (text === "") return;
  if (text === null) {
    run.stage([unknownWord(`(the commands of ${place.path ?? "the Procfile"})`)], origin);
    return;
  }
  for (const line of text.split(/\r?\n/)) {
    const m = PROCFILE_LINE.exec(line);
    if (m && (!names.length || names.includes(null) || names.includes(m[1]))) {
      run.shell(literal(m[2]), origin);
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
  const place = procfilePlace([...args.slice(0, at), ...rest], grammar, run, honcho);
  const cwds = place.root ? chdir(stage.cwds, place.root) : stage.cwds;
  const at2 = place.root ? run.at(cwds) : run;
  if (verb === "run") {
    runCommandWords(rest, { grammar }, stage.cwds, run, `${name} run`);
    const words = rest.filter((w) => !w.value.startsWith("-"));
    // (`foreman run web`: the Procfile's `web` process, where it names one.)
    if (!honcho && words.length === 1 && words[0] === rest[rest.length - 1]) {
      procfileLines(place, [staticValue(words[0])], at2, `${name} run`);
    }
    return;
  }
  const names: (string | null)[] = [];
  for (const t of readOptions(rest.map(staticValue), grammar)) {
    if (t.kind === "operand" || t.kind === "dynamic") names.push(staticValue(rest[t.at]));
  }
  procfileLines(place, names, at2, `${name} start`);
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
