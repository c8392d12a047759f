/**
 * The reader the runner modules share for programs whose words, after their own options, are a
 * command (`npx pkg args`, `uv run cmd`, `tmux new-session cmd`, `faketime TIME cmd`): it reads
 * the options with the program's grammar, takes the values of the options that hold shell text
 * or move the command to another directory, and reports the command. Where an option is one the
 * grammar does not know, it may take the next word or not: both readings are reported (the
 * strictest verdict decides), and past a few such options the command is not known.
 *
 * @example
 * ```ts
 * import { type CommandSpec, runCommandWords } from "./command_words.ts";
 * const spec: CommandSpec = { grammar: { valued: "p" }, shell: ["-c"] };
 * // runCommandWords(args, spec, stage.cwds, run, "npx") reports `-c` text and the package run.
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { Runner } from "./spec.ts";
import { chdir, literal, optionValue, startsShell, unknownWord } from "./words.ts";
import { GUESSED } from "./wrappers.ts";

/** How a program's words lead to the command it runs. */
export interface CommandSpec {
  /** The options before the command. */
  grammar: OptionGrammar;
  /** Options whose value is shell text it runs (`npx -c`, `nix-shell --run`). */
  shell?: readonly string[];
  /** Options whose value is a program it runs (`--dbus-daemon=BIN`). */
  program?: readonly string[];
  /** Options whose value is a file of commands it reads (unknown to the analysis). */
  file?: readonly string[];
  /** Options whose value is the directory the command runs in. */
  chdir?: readonly string[];
  /**
   * Operands before the command (`faketime TIME cmd`); `dir` when that operand is its cwd;
   * `login` when it is a login's `[USER@]NAME` (`machinectl shell`), the command run in the home of
   * that user (root by default), which is known for the user running the command only.
   */
  operands?: number | "dir" | "login";
  /** The command comes only after `--` (`mise exec tool@1 -- cmd`). */
  afterDashDash?: boolean;
  /** The command's words run through a shell, joined (`pnpm exec --shell-mode`). */
  joined?: boolean;
  /**
   * With no command, it starts a shell, which runs the commands of its standard input (`poetry
   * shell`; see `startsShell`). @default nothing runs
   */
  bare?: "shell";
  /** Options after which nothing runs (`--version`, `--help`). */
  noRun?: readonly string[];
  /**
   * Words a switch may take as its value (npm's nopt: `npm exec --yes true rm x` runs `rm x`):
   * after a switch, such a word is read both ways.
   */
  boolValues?: ReadonlySet<string>;
  /**
   * The command's first word is a package (`npx prettier@3`, `uvx ruff@0.5`): its version is
   * taken off, as the runner does to find the package's program (see `packageProgram`).
   */
  packages?: "npm" | "uv";
}

/** How many options a reader does not know it follows both ways before it gives up. */
const UNKNOWN_OPTIONS = 3;

/** Words joined into one shell text (`watch`-style). */
export function joinedText(words: Word[]): Word {
  const dynamic = words.some((w) => w.kind !== "static");
  const text = words.map((w) => w.value).join(" ");
  return { value: text, kind: dynamic ? "dynamic" : "static", prefix: "", text };
}

/** The home of the user of a login's `[USER@]NAME` (root by default), where it is known. */
function loginHome(value: string | null, run: Runner): string | null {
  const at = value?.lastIndexOf("@") ?? -1;
  return value === null ? null : run.home(at > 0 ? value.slice(0, at) : "root");
}

/** A word's static value (null when it is not known). */
export function staticValue(w: Word | undefined): string | null {
  return w && w.kind === "static" ? w.value : null;
}

/**
 * Report what `args` (the words after the program and its subcommand) run under `spec`: shell
 * text and programs its options name, and the command its remaining words make.
 */
export function runCommandWords(
  args: Word[],
  spec: CommandSpec,
  cwds: (string | null)[],
  run: Runner,
  origin: string,
  unknowns = 0,
): void {
  const values = args.map(staticValue);
  const login = spec.operands === "login";
  let operands = typeof spec.operands === "number" ? spec.operands : spec.operands ? 1 : 0;
  if (login && unknowns === 0) cwds = [run.home("root")];
  let start = -1;
  let switched = -1;
  for (const t of readOptions(values, spec.grammar)) {
    if (t.kind === "dynamic") {
      run.stage([unknownWord(`(a command after ${args[t.at].text})`)], origin, cwds);
      return;
    }
    if (t.kind === "end") {
      start = t.at + 1;
      break;
    }
    if (t.kind === "operand") {
      if (spec.afterDashDash) continue;
      if (operands > 0) {
        operands--;
        if (spec.operands === "dir") cwds = chdir(cwds, args[t.at]);
        if (login) cwds = [loginHome(values[t.at], run)];
        continue;
      }
      start = t.at;
      break;
    }
    if (spec.noRun?.includes(t.name)) return;
    if (t.kind === "unknown") {
      if (t.glued !== undefined || t.rest !== undefined) continue; // its value is glued, or
      // the rest of a cluster: the next word is read as usual
      if (unknowns >= UNKNOWN_OPTIONS) {
        run.stage([unknownWord(`(a command after ${args[t.at].text})`)], origin, cwds);
        return;
      }
      // Two readings: the option takes no value (read on), or it takes the next word. The
      // second one's command is a guess: its name is no text (`uv run --no-sync less .env` may
      // run `.env`; see `innerTextWords`).
      const after = args.slice(t.at + 1);
      const guessed = origin.endsWith(GUESSED) ? origin : `${origin}${GUESSED}`;
      runCommandWords(after, { ...spec, operands }, cwds, run, origin, unknowns + 1);
      runCommandWords(after.slice(1), { ...spec, operands }, cwds, run, guessed, unknowns + 1);
      return;
    }
    if (
      t.kind === "flag" && t.at !== switched && unknowns < UNKNOWN_OPTIONS &&
      spec.boolValues?.has(values[t.at + 1] ?? "")
    ) {
      switched = t.at;
      // The switch's value, or the command: both readings.
      runCommandWords(args.slice(t.at + 2), { ...spec, operands }, cwds, run, origin, unknowns + 1);
    }
    if (t.kind !== "valued") continue;
    // (A glued value is read only from a word whose value is known: static.)
    const value = optionValue(t, args);
    if (!value) continue;
    if (spec.shell?.includes(t.name)) run.shell(value, origin, { cwds });
    if (spec.program?.includes(t.name)) {
      run.stage([value, literal("(its arguments)")], origin, cwds);
    }
    if (spec.file?.includes(t.name)) {
      run.stage([unknownWord(`(commands of ${value.text})`)], origin, cwds);
    }
    if (spec.chdir?.includes(t.name)) cwds = chdir(cwds, value);
  }
  const rest = start < 0 ? [] : args.slice(start);
  if (rest.length === 0) {
    if (spec.bare === "shell") startsShell(run, origin, cwds);
    return;
  }
  if (spec.joined) run.shell(joinedText(rest), origin, { cwds });
  else if (spec.packages) {
    run.stage([packageProgram(rest[0], spec.packages), ...rest.slice(1)], origin, cwds);
  } else run.stage(rest, origin, cwds);
}

/**
 * npm's package word of the registry with a version, a tag or a range (`@scope/name@^3`), or an
 * alias (`name@npm:other@3`); not one of a file, git or URL (`x@file:x.tgz`).
 */
const NPM_VERSIONED = /^((?:@[^/@\s]+\/)?[^/@\s:]+)@(npm:\S+|[^/\s:]*)$/;
/** uv's package word with a version or `latest` (`ruff@0.5.0`). */
const UV_VERSIONED = /^([A-Za-z0-9][\w.-]*)@([^/\s:]*)$/;

/**
 * The program a package runner runs for a package word (`npx prettier@3 --write .` runs
 * prettier): the package without its version, tag or range (`prettier@latest`, `@biomejs/biome@1`
 * as `@biomejs/biome` is, `npm:` aliases too: `p@npm:prettier@3`). Any other word (a package
 * without a version, a git, file or URL spec, one not known) as it is.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * packageProgram(literal("prettier@3"), "npm").value; // "prettier"
 * packageProgram(literal("@biomejs/biome@1.9"), "npm").value; // "@biomejs/biome"
 * ```
 */
export function packageProgram(word: Word, kind: "npm" | "uv"): Word {
  if (word.kind !== "static") return word;
  let value = word.value;
  for (let n = 0; n < 3; n++) {
    const m = (kind === "npm" ? NPM_VERSIONED : UV_VERSIONED).exec(value);
    if (!m) break;
    // (An alias runs the package it stands for: `p@npm:prettier@3`.)
    value = kind === "npm" && m[2].startsWith("npm:") ? m[2].slice(4) : m[1];
    if (!value.includes("@", 1)) break;
  }
  return value === word.value ? word : literal(value);
}
