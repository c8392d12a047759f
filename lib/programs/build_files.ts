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

/**
 * A makefile's recipe line as shell text: its `@`, `-`, `+` prefixes off, `$$` as `$`; null where
 * make expands it (a lone `$`: a variable or function).
 */
function recipe(line: string): string | null {
  if (line.replaceAll("$$", "").includes("$")) return null;
  return line.replace(/^[\s@+-]+/, "").replaceAll("$$", "$");
}

/** A rule's line: `TARGETS: PREREQUISITES [; RECIPE] [# comment]` (`::` too). */
const RULE = /^([^:;=#\t][^:;=#]*?)\s*::?(?!=)\s*([^;=#]*?)\s*(?:;(.*)|#.*)?$/;

/**
 * A line that is a directive, not a rule, however it goes on (`include x:`, `export a: b`),
 * GNU make's and BSD make's (bmake, pmake: `.include`, `.for`).
 */
const DIRECTIVE =
  /^\s*(\.\s*)?(-?include|[sd]include|export(-env|-literal)?|unexport(-env)?|override|private|define|endef|undef(ine)?|ifn?eq|ifn?def|ifn?make|if|elif\w*|else|endif|for|endfor|break|vpath|-?load|error|warning|info)(\s|$)/;

/** Whether a line ends in `\` (an odd run of them): make joins the next line to it. */
function continued(line: string): boolean {
  return /(^|[^\\])(\\\\)*\\$/.test(line);
}

/**
 * The recipes of a makefile's text as shell text; null where its make code may make them other
 * than written (a variable, function or `$(…)` anywhere outside a recipe's own shell text, as a
 * prerequisite `.SECONDEXPANSION` expands; an assignment such as `SHELL :=`; a directive; a line
 * continued outside a recipe). A recipe line continued with `\` keeps its `\`-newline (make
 * passes it to the shell, which joins the lines) and loses the next line's tab; under
 * `.ONESHELL:` a rule's recipe lines are one script.
 */
export function makefileRecipes(text: string): string[] | null {
  const lines = text.split("\n");
  const oneShell = lines.some((l) => /^\.ONESHELL\s*:/.test(l));
  const recipes: string[] = [];
  let rule: string[] | null = null;
  const done = () => {
    if (rule?.length) recipes.push(...(oneShell ? [rule.join("\n")] : rule));
  };
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith("\t")) {
      let body = lines[i].slice(1);
      while (continued(body) && i + 1 < lines.length) {
        body += "\n" + lines[++i].replace(/^\t/, "");
      }
      const r = recipe(body);
      if (rule === null || r === null) return null;
      rule.push(r);
      continue;
    }
    const line = lines[i];
    const t = line.trim();
    if (t === "" || t.startsWith("#")) continue;
    const m = RULE.exec(line);
    if (!m || continued(t) || DIRECTIVE.test(line) || `${m[1]} ${m[2]}`.includes("$")) return null;
    done();
    rule = [];
    if (m[3] !== undefined) {
      const r = recipe(m[3]);
      if (r === null) return null;
      rule.push(r);
    }
  }
  done();
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
