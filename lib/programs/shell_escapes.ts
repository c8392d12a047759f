/**
 * Programs whose own command language runs shell commands with `!`: ed (`!cmd`, `r !cmd`,
 * `w !cmd`, and a file operand `!cmd`), dc (`!cmd`), the ftp clients (`!cmd`; lftp's `-c`/`-e`
 * text too) and sftp's batch commands (`!cmd`, `-!cmd`). Commands given inline (a here-document,
 * a here-string, an option's text) are read line by line; commands from a file, a pipe or a
 * redirected file are not known.
 *
 * @example
 * ```ts
 * import { escapedCommands } from "./shell_escapes.ts";
 * escapedCommands("ed", "1p\n!rm -rf build\nq"); // ["rm -rf build"]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Program, Runner } from "./spec.ts";
import { literal, programName, standardInput, unknownWord } from "./words.ts";
import { ftpClientFiles } from "./machine_urls.ts";
import { lesskeyVariables } from "./lesskey.ts";

/** How each language writes a shell escape on a line (the command is the first group). */
const ESCAPES: Record<string, RegExp[]> = {
  // `!cmd`; `e !cmd`, `E !cmd`, `r !cmd`, `w !cmd`, `W !cmd` after an optional address.
  ed: [/^\s*!(.*)$/, /^\s*(?:[\d$.,;+\-]|'[a-z])*\s*[eErwW]\s*!(.*)$/],
  // `!` not starting a comparison (`!<`, `!>`, `!=`) runs the rest of the line.
  dc: [/!(?![<>=])(.*)$/],
  ftp: [/^\s*!(.*)$/],
  lftp: [/^\s*!(.*)$/, /^\s*shell\s+(.*)$/],
  // A batch command may start with `-` (its errors ignored) or `@` (not echoed).
  sftp: [/^\s*[-@]*!(.*)$/],
};

/** The shell commands the `!` escapes of `language` in `text` run (each line's rest). */
export function escapedCommands(language: string, text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    for (const re of ESCAPES[language]) {
      const m = re.exec(line);
      if (m) {
        out.push(m[1]);
        break;
      }
    }
  }
  return out;
}

/** The commands in `text` (static: read; not: one not known). */
function runText(language: string, text: Word, run: Runner, origin: string): void {
  if (text.kind !== "static") {
    if (text.value.includes("!") || !/^[\w\s.,;:+\-]*$/.test(text.prefix)) {
      run.stage([unknownWord(`(commands ${text.text} may hold)`)], origin);
    }
    return;
  }
  for (const command of escapedCommands(language, text.value)) {
    run.shell(literal(command), origin);
  }
  if (language !== "ed") return;
  // ed's file commands: `r FILE`, `e FILE`, `E FILE`, `w FILE`, `W FILE`, `f FILE` (then `w`)
  // read or write the file they name (after an optional address; `!` is the escape above).
  for (const line of text.value.split("\n")) {
    const m = ED_FILE.exec(line);
    if (m) run.stage([literal("(ed opens)"), literal(m[1])], origin);
  }
}

/** An ed command that names a file (the first group), after an optional address. */
const ED_FILE = /^\s*(?:[\d$.,;+\-]|'[a-z])*\s*(?:wq?|W|r|e|E|f)\s+([^!\s]\S*)\s*$/;

/**
 * The commands a stage reads from its standard input: a here-document's or here-string's, read;
 * a redirected file (not /dev/null) or a pipe, not known.
 */
function inputCommands(language: string, stage: Stage, run: Runner, origin: string): void {
  const stdin = standardInput(stage);
  if (stdin.from === "nothing") return;
  const body = stdin.from === "document" ? stdin.redirect.body : undefined;
  if (body) runText(language, body, run, origin);
  else run.stage([unknownWord(`(${language} commands from stdin)`)], origin);
}

/** A file of commands (not /dev/null): what it holds is not known. */
function commandFile(file: Word | undefined, run: Runner, origin: string): void {
  if (file && !(file.kind === "static" && file.value === "/dev/null")) {
    run.stage([unknownWord(`(commands the file ${file.text} may hold)`)], origin);
  }
}

/** ed: its standard input, and a file operand that starts with `!` (read from a command). */
function edRuns(stage: Stage, run: Runner): void {
  for (const w of stage.argv.slice(1)) {
    if (w.kind === "static" && w.value.startsWith("!")) run.shell(literal(w.value.slice(1)), "ed");
    else if (w.kind !== "static" && w.prefix === "") {
      run.stage([unknownWord(`(a file or command ${w.text} names)`)], "ed");
    }
  }
  inputCommands("ed", stage, run, "ed");
}

/** dc: `-e EXPR` (read), `-f FILE` and file operands (not known), else its standard input. */
function dcRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  let given = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const v = w.kind === "static" ? w.value : null;
    if (v === "-e" || v === "--expression") runText("dc", args[++i] ?? literal(""), run, "dc");
    else if (v?.startsWith("--expression=")) runText("dc", literal(v.slice(13)), run, "dc");
    else if (v !== null && /^-e./.test(v)) runText("dc", literal(v.slice(2)), run, "dc");
    else if (v === "-f" || v === "--file") commandFile(args[++i], run, "dc");
    else if (v?.startsWith("--file=")) commandFile(literal(v.slice(7)), run, "dc");
    else if (v !== null && v.startsWith("-")) continue;
    else commandFile(w, run, "dc");
    given = true;
  }
  if (!given) inputCommands("dc", stage, run, "dc");
}

/** ftp, lftp and sftp: batch files, lftp's `-c`/`-e` text, and commands on standard input. */
function clientRuns(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]);
  const language = name === "sftp" ? "sftp" : name === "lftp" ? "lftp" : "ftp";
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : "";
    if (language === "sftp" && v === "-b") {
      const file = args[++i];
      // (`-b -`: the batch is standard input.)
      if (!(file?.kind === "static" && file.value === "-")) commandFile(file, run, name);
    } else if (language === "lftp" && (v === "-c" || v === "-e")) {
      runText(language, args[++i] ?? literal(""), run, name);
    } else if (language === "lftp" && v === "-f") commandFile(args[++i], run, name);
  }
  inputCommands(language, stage, run, name);
}

/** ed, dc, ftp, lftp and sftp (sftp's other options are in ssh.ts). */
export const SHELL_ESCAPE_PROGRAMS: Program[] = [
  { names: ["less"], runs: lessRuns },
  { names: ["ed"], runs: edRuns },
  { names: ["dc"], runs: dcRuns },
  { names: ["ftp", "lftp", "tnftp", "pftp"], runs: clientRuns, namedFiles: ftpClientFiles },
];

/** less's initial commands that only move or search: a line, a mark, a pattern, follow. */
const LESS_MOVES = /^(?:(?:\d*[GgFpP%])*\d*|[/?][^\n!|]*)$/;

/**
 * less's initial commands (`+cmd`, `++cmd`, also after `--` and in `$LESS`): `!cmd` is its shell
 * escape, run at start (`less $'+!rm -rf x\n' f`); any other command but moving and searching
 * (a pipe `|`, saving `s`, another file `:e`, the editor `v`) is not known.
 */
function lessRuns(stage: Stage, run: Runner): void {
  lessKeyFiles(stage, run);
  for (const w of stage.argv.slice(1)) {
    // (A word not known is taken for a file, as a file name it mostly is: `less $(ls -t | head -1)`.)
    if (!w.prefix.startsWith("+")) continue;
    if (w.kind !== "static") {
      run.stage([unknownWord(`(the less command ${w.text})`)], "less");
      continue;
    }
    const command = w.value.replace(/^\++/, "");
    const bang = command.indexOf("!");
    if (bang >= 0) {
      const line = command.slice(bang + 1).split(/[\r\n]/)[0];
      if (line.trim()) run.shell(literal(line), "less !");
    } else if (!LESS_MOVES.test(command)) {
      run.stage([unknownWord(`(the less command ${w.text})`)], "less");
    }
  }
}

/** less's long options naming a lesskey file or text (any unambiguous abbreviation). */
const LESSKEY_OPTION =
  /^--lesskey-(f(?:i(?:le?)?)?|s(?:rc?)?|c(?:o(?:n(?:t(?:e(?:nt?)?)?)?)?)?)(=|$)/;
/** The variables a lesskey file's `#env` section sets that make less run a program. */
const LESSKEY_RUNS =
  /^(LESSOPEN|LESSCLOSE|EDITOR|VISUAL|LESSEDIT|LESS|LESSHISTFILE|LESSGLOBALTAGS|LESSECHO|LESSMETAESCAPE|LESSMETACHARS)$/;
/** Those whose value is a shell command run on a key: `SHELL`, the OSC 8 link openers. */
const LESSKEY_SHELL = /^(SHELL|LESS_OSC8_\w*)$/;

/**
 * What a lesskey source text makes less run (read as less reads it: `lesskey.ts`): its `#env`
 * section's `LESSOPEN`, `LESSCLOSE` (run at start, no terminal needed), the editor, `SHELL` and
 * `LESS_OSC8_*` (run on a key), `LESSGLOBALTAGS` (run by `-t`), `LESSECHO` and the quoting of
 * names in commands (`LESSMETAESCAPE`, `LESSMETACHARS`), `LESS` (options, `+!cmd`),
 * `LESSHISTFILE` (written), judged as the
 * variables set before less; a value built from others (`$X`) is not known. A binary file (`-k`,
 * less before 582) naming any of them: not known. `content`: `--lesskey-content`'s text.
 */
export function lesskeyText(text: string, run: Runner, origin: string, content = false): void {
  if ([...text.slice(0, 4096)].some((c) => c.charCodeAt(0) < 9)) {
    if (/LESS|SHELL|EDITOR|VISUAL/.test(text)) {
      run.stage([unknownWord(`(what the lesskey file ${origin} sets)`)], origin);
    }
    return;
  }
  if (!text.includes("#env")) return;
  for (const { name, value, raw } of lesskeyVariables(text, content)) {
    const shell = LESSKEY_SHELL.test(name);
    if (!shell && !LESSKEY_RUNS.test(name)) continue;
    if (raw.includes("$")) {
      run.stage([unknownWord(`(what ${name} in the lesskey file ${origin} runs)`)], origin);
    } else if (shell) run.shell(literal(value), origin, { arguments: true });
    else run.environment([literal(`${name}=${value}`)]);
  }
}

/** A lesskey file less reads (absolute, or from the stage's cwd): what it runs, or not known. */
function lesskeyFile(path: string, run: Runner, origin: string): void {
  const text = run.settings(path);
  if (text === null) run.stage([unknownWord(`(what the lesskey file ${path} sets)`)], origin);
  else lesskeyText(text, run, origin);
}

/**
 * The lesskey files (or text) less reads: `-k F`, `--lesskey-file=F`, `--lesskey-src=F`,
 * `--lesskey-content=TEXT` (and their abbreviations), the system's (`$LESSKEYIN_SYSTEM` or
 * `/etc/syslesskey`, `$LESSKEY_SYSTEM` or `/etc/sysless`, `/usr/bin/.sysless`; `/usr/local/etc`
 * for a less built there), and the user's (`$LESSKEYIN`,
 * `$XDG_CONFIG_HOME/lesskey`, `~/.config/lesskey`, `~/.lesskey`; `$LESSKEY`, `~/.less`), as they
 * will be when it runs (another stage may write them first).
 */
function lessKeyFiles(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.kind === "static" && w.value === "--") break;
    const v = w.kind === "static" ? w.value : w.prefix;
    const long = LESSKEY_OPTION.exec(v);
    let value: Word | undefined;
    let content = false;
    if (long) {
      content = long[1].startsWith("c");
      value = long[2]
        ? { ...w, value: w.value.slice(long[0].length), prefix: w.prefix.slice(long[0].length) }
        : args[++i];
    } else if (/^-[^-]/.test(v)) {
      // (A cluster: the first letter that takes a value takes the rest, or the next word.)
      const body = v.slice(1);
      const at = [...body].findIndex((c) => LESS_VALUED.includes(c));
      if (at < 0 || body[at] !== "k") {
        if (at >= 0 && at === body.length - 1) i++;
        continue;
      }
      value = at + 1 < body.length
        ? { ...w, value: w.value.slice(at + 2), prefix: w.prefix.slice(at + 2) }
        : args[++i];
    } else continue;
    if (!value) continue;
    if (value.kind !== "static") {
      run.stage([unknownWord(`(what the lesskey file ${value.text} sets)`)], "less -k");
    } else if (content) lesskeyText(value.value, run, "less --lesskey-content", true);
    else lesskeyFile(value.value, run, "less -k");
  }
  // The system's (Debian's less: /etc; built by hand: /usr/local/etc), then the user's.
  const sourceSystem = run.variable("LESSKEYIN_SYSTEM");
  const binarySystem = run.variable("LESSKEY_SYSTEM");
  for (
    const path of [
      "/usr/bin/.sysless",
      ...(sourceSystem ? [sourceSystem] : ["/etc/syslesskey", "/usr/local/etc/syslesskey"]),
      ...(binarySystem ? [binarySystem] : ["/etc/sysless", "/usr/local/etc/sysless"]),
    ]
  ) lesskeyFile(path, run, "lesskey");
  const home = run.home(null);
  if (home === null) return;
  const xdg = run.variable("XDG_CONFIG_HOME");
  const source = run.variable("LESSKEYIN");
  for (
    const path of source
      ? [source]
      : [...(xdg ? [`${xdg}/lesskey`] : []), `${home}/.config/lesskey`, `${home}/.lesskey`]
  ) lesskeyFile(path, run, "lesskey");
  lesskeyFile(run.variable("LESSKEY") ?? `${home}/.less`, run, "lesskey");
}

/** less's options that take a value: the rest of the word, or the next word. */
const LESS_VALUED = 'bhjkoOpPtTxyz#"D';
/** Of them, those whose value is a file: `-k` (lesskey), `-o`/`-O` (log), `-T` (tags). */
const LESS_FILES = "koOT";

/**
 * The options less reads from its `LESS` variable (less(1) "OPTIONS"), as words of its command
 * line: a file option's letter and its value apart (`-Ro.pi/x` and `Ro.pi/x`, a leading `-` being
 * optional there: `-o`, `.pi/x`; a `$` ends a value), long options as they are; other letters
 * dropped.
 */
export function lessOptionWords(text: string): string[] {
  const tokens = text.split(/[ \t]+/).filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.startsWith("--")) {
      out.push(t);
      continue;
    }
    const body = t.startsWith("-") ? t.slice(1) : t;
    for (let j = 0; j < body.length; j++) {
      const c = body[j];
      if (!LESS_VALUED.includes(c)) continue;
      const value = (j + 1 < body.length ? body.slice(j + 1) : tokens[++i] ?? "").split("$")[0];
      if (LESS_FILES.includes(c) && value) out.push(`-${c}`, value);
      break;
    }
  }
  return out;
}

/** sftp's batch commands (its entry in ssh.ts runs this too). */
export const sftpBatch: NonNullable<Program["runs"]> = clientRuns;
