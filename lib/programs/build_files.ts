/**
 * A build file read from standard input or a stream (`make -f -`, `make -f <(…)`, `just
 * --justfile /dev/stdin`, `ninja -f /dev/stdin`): code that runs, as `make --eval` is. A
 * makefile whose text is known (a heredoc, `printf … |`) has its recipes read as shell; any other
 * is code not seen. (A build file on disk is read where it lies, as a script is.)
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { pipedInput } from "./piped_text.ts";
import type { Runner } from "./spec.ts";
import { literal, optionValue, programName, standardInput, unknownWord } from "./words.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";

/**
 * Whether a build file's name is its standard input (`-`) or a stream: a process substitution, a
 * path into /dev or /proc however spelled (`/dev/stdin`, `/dev/fd/0`, `../../dev/stdin`), not
 * /dev/null.
 */
export function streamedFile(file: Word): boolean {
  if (/^[<>]\(/.test(file.text)) return true;
  const v = file.value;
  return v === "-" || (v !== "/dev/null" && /(^|\/)(dev|proc)\//.test(v));
}

/** A makefile's recipe line as shell text: its `@`, `-`, `+` prefixes off, `$$` as `$`. */
function recipe(line: string): string {
  return line.replace(/^[\s@+-]+/, "").replaceAll("$$", "$");
}

/** A rule's line: `TARGETS: PREREQUISITES [; RECIPE] [# comment]` (`::` too). */
const RULE = /^([^:;=#\t][^:;=#]*?)\s*::?(?!=)\s*([^;=#]*?)\s*(?:;(.*)|#.*)?$/;

/**
 * The recipes of a makefile's text as shell text; null where its make code may make them other
 * than written (a variable, function or `$(…)`, an assignment, a directive, a line continued).
 */
export function makefileRecipes(text: string): string[] | null {
  if (text.replaceAll("$$", "").includes("$")) return null;
  const recipes: string[] = [];
  let rule = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("\t")) {
      if (!rule) return null;
      recipes.push(recipe(line.slice(1)));
      continue;
    }
    const t = line.trim();
    if (t === "" || t.startsWith("#")) continue;
    const m = RULE.exec(line);
    if (!m || t.endsWith("\\")) return null;
    rule = true;
    if (m[3] !== undefined) recipes.push(recipe(m[3]));
  }
  return recipes;
}

/**
 * What a build file `file` read from standard input or a stream runs (see the module): the
 * recipes of a makefile whose text is known, else code not seen. `origin`: `make -f`.
 */
export function streamedBuildFile(
  stage: Stage,
  file: Word,
  run: Runner,
  origin: string,
  makefile: boolean,
): void {
  const input = standardInput(stage);
  const stdin = file.value === "-" ||
    /^\/dev\/(stdin|fd\/0)$|^\/proc\/self\/fd\/0$/.test(file.value);
  // (`make -f - < Makefile.x` reads that file as `make -f Makefile.x` does.)
  if (stdin && input.from === "file" && !streamedFile(input.redirect.target ?? literal("-"))) {
    return;
  }
  if (stdin && input.from === "nothing") return;
  const texts: string[] = [];
  if (stdin && input.from === "document" && input.redirect.body?.kind === "static") {
    texts.push(input.redirect.body.value);
  } else if (stdin && input.from === "pipe") {
    const piped = pipedInput(stage);
    if (piped && "texts" in piped) texts.push(...piped.texts);
  }
  const recipes = makefile && texts.length ? texts.map(makefileRecipes) : [null];
  if (recipes.some((r) => r === null)) {
    run.stage([unknownWord(`(the build file ${file.text})`)], origin);
    return;
  }
  for (const r of recipes) for (const line of r!) run.shell(literal(line), origin);
}

/** ninja's options (getopt: `-f FILE`, `-fFILE`) and just's (`-f`, `--justfile`). */
const BUILD_FILE_OPTIONS: Record<string, OptionGrammar> = {
  ninja: { valued: "dfjkltwC", longValued: new Set() },
  // deno-fmt-ignore
  just: { valued: "fdc", longValued: new Set(["--justfile", "--working-directory", "--shell",
    "--shell-arg", "--dotenv-filename", "--dotenv-path", "--color", "--chooser", "--command",
    "--list-heading", "--list-prefix", "--timestamp-format", "--unstable", "--dump-format"]) },
};

/**
 * just's options that run a program: `--chooser CMD` (a shell command), `--shell PROG` (every
 * recipe's), `-c`/`--command CMD ARGS…` (runs at once, the words after it its arguments). True
 * when the rest of the words are that command's.
 */
function justRuns(
  option: string,
  value: Word,
  args: Word[],
  at: number | undefined,
  run: Runner,
): boolean {
  if (option === "--chooser") run.shell(value, "just --chooser");
  else if (option === "--shell") run.stage([value, literal("(its arguments)")], "just --shell");
  else if (option === "-c" || option === "--command") {
    run.stage(at === undefined ? [value] : args.slice(at), "just --command");
    return true;
  }
  return false;
}

/**
 * ninja's and just's build file from standard input or a stream (`ninja -f /dev/stdin`, `just
 * --justfile <(…)`): code not seen.
 */
export function buildFileCommands(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]);
  const args = stage.argv.slice(1);
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  for (const t of readOptions(values, BUILD_FILE_OPTIONS[name])) {
    if (t.kind === "end" || t.kind === "operand" && name === "ninja") return;
    if (t.kind !== "valued") continue;
    const value = optionValue(t, args);
    if (name === "just" && value && justRuns(t.name, value, args, t.valueAt, run)) return;
    if (t.name !== "-f" && t.name !== "--justfile") continue;
    const file = value;
    if (file && streamedFile(file)) streamedBuildFile(stage, file, run, `${name} -f`, false);
  }
}
