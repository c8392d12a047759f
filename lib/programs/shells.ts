/**
 * Shells, multi-call binaries (`busybox`, `toybox`) and the shell builtins that run text: `sh -c TEXT`, `bash script.sh`, `bash <<EOF`,
 * `eval`, `source`, `alias`, `trap`, `export PAGER=…` and `at`/`batch` (commands for later). What
 * the text holds is analysed as bash (also what `echo`, `printf` or `cat <<EOF` pipe in); a script
 * file is read as `./script` reads it (also `cat script.sh | bash`), and what cannot be seen
 * otherwise (another pipe, a stream on stdin) runs unknown commands. A shell's `-c` text is also an inline eval for eval classification.
 *
 * @module
 */
import { resolve } from "node:path";
import type { BashEnv, Stage, Word } from "../shell/model.ts";
import { DECLARATION_BUILTINS } from "../shell/keywords.ts";
import { trapHandler } from "../shell/trap.ts";
import { type CdFacts, cdTarget, sourceFacts } from "../shell/cwds.ts";
import { procSpelling } from "../shell/paths.ts";
import { activatedEnvironment } from "../shell/sourced.ts";
import type { EvalShape } from "../types.ts";
import type { Program, Runner } from "./spec.ts";
import { harmlessAssignment } from "./env.ts";
import { pipedInput } from "./piped_text.ts";
import { DASH_LIKE, dashReadings } from "./dash.ts";
import { fishReadsAsBash } from "./fish.ts";
import { shellPayload } from "./shell_invocation.ts";
import { shellStart } from "./handed_env.ts";
import { inputDocument, literal, programName, standardInput, unknownWord } from "./words.ts";

/** Builtins that assign variables: `export PAGER='less -R'`. */
const DECLARATIONS = [...DECLARATION_BUILTINS];

/**
 * What `crontab` makes cron run later: the commands of the table it installs, read from a heredoc
 * or here-string (each line's command after its five time fields or `@reboot`-style one), not
 * known from a file or a pipe. `-l` lists the table and `-r` removes it (nothing runs); `-e`
 * opens it in an editor, which may be any program.
 */
function crontabRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  let operand: Word | null = null;
  let user: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") {
      run.stage([unknownWord("(commands for later)")], "crontab");
      return;
    }
    if (a.value === "-u") {
      const u = args[++i];
      user = u?.kind === "static" ? u.value : "";
    } else if (a.value.startsWith("-u")) user = a.value.slice(2);
    else if (/^-[lrT]+$/.test(a.value) || a.value === "-V") return;
    else if (a.value === "-e") {
      run.stage([unknownWord("(the editor crontab starts)")], "crontab");
      return;
    } else if (a.value !== "-" && a.value.startsWith("-") && !/^-[ins]+$/.test(a.value)) {
      run.stage([unknownWord(`(commands for later, after ${a.value})`)], "crontab");
      return;
    } else if (!a.value.startsWith("-") || a.value === "-") operand = a;
  }
  const doc = inputDocument(stage);
  const body = doc?.body;
  if ((operand === null || operand.value === "-") && body?.kind === "static") {
    // Cron runs each line's command in the home of the table's user (`-u`), or in the table's
    // `HOME=`; a home is known for the user running the command only.
    const home = /^\s*HOME\s*=\s*(.*?)\s*$/m.exec(body.value)?.[1];
    const dir = home === undefined ? run.home(user) : /^\/[^\s"'$`\\]*$/.test(home) ? home : null;
    for (const line of body.value.split("\n")) {
      const command = cronCommand(line);
      if (command) run.shell(literal(command), "crontab", { cwds: [dir] });
    }
  } else run.stage([unknownWord("(commands for later)")], "crontab");
}

/** A crontab line's command after its five time fields, or after `@reboot` and its kin. */
const CRON_FIELDS = /^(?:\S+\s+){5}([\s\S]+)$/;
const CRON_NICKNAME = /^@\S+\s+([\s\S]+)$/;

/**
 * The command of a crontab line (none for a comment, a blank line or a setting). Cron gives the
 * text after an unescaped `%` to the command as its input, which no one reads here: the whole
 * line is then a command not known.
 */
function cronCommand(line: string): string | null {
  const t = line.trim();
  if (t === "" || t.startsWith("#") || /^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(t)) return null;
  // (A line too short to hold a command is no command cron runs; cron refuses the table.)
  const command = (t.startsWith("@") ? CRON_NICKNAME : CRON_FIELDS).exec(t)?.[1] ?? null;
  return command !== null && /(^|[^\\])%/.test(command) ? "$CRON_COMMAND_WITH_INPUT" : command;
}

/** Whether a declaration only sets harmless variables (`export LANG=C.UTF-8 TZ=UTC`) or prints. */
/**
 * Whether `set`'s options leave variables set later unexported (no `-a`, `-o allexport`). Its
 * options end at the first word that is none (or `--`, `-`): the rest are positional parameters.
 */
function setExportsNothing(args: (string | null)[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === null) return false;
    if (a === "--" || a === "-" || !/^[-+]/.test(a)) return true;
    if (/^-[^-]*a/.test(a)) return false;
    // (Each `o` of a cluster takes the next word: `set -eo allexport`, `-oo pipefail allexport`.)
    for (const c of a.slice(1)) {
      if (c !== "o" || args[i + 1] === undefined) continue;
      if (args[i + 1] === null || args[++i] === "allexport") return false;
    }
  }
  return true;
}

function setsOnlyHarmless(args: (string | null)[]): boolean {
  return args.length > 0 && args.every((a) => a !== null && (a === "-p" || harmlessAssignment(a)));
}

/**
 * Whether a script word is a stream, not a file: a process substitution, or a path that leads into
 * /dev or /proc from one of the stage's cwds however spelled (`/dev/stdin`, `//dev/stdin`,
 * `/tmp/../dev/stdin`, `../../../dev/stdin`); a `..` from a cwd not known may lead there.
 */
function stream(script: Word, cwds: readonly (string | null)[]): boolean {
  if (/^[<>]\(/.test(script.text)) return true;
  const value = script.value;
  if (!value.includes("dev") && !value.includes("proc")) return false;
  return cwds.some((c) =>
    c === null
      ? value.startsWith("/") ? procSpelling(value) !== undefined : value.includes("..")
      : procSpelling(resolve(c, value)) !== undefined
  );
}

/**
 * Whether a `-c` text takes values from the words after it (`$0`, `$1`, …) where bash may evaluate
 * them as code (`bash -c 'echo $(( $1 ))' _ 'a[$(cmd)]'` runs cmd): one of them is not plain text
 * (a subscript, an expansion, a value not known), and the text analysed as a function's body (whose
 * parameters are its caller's, `$0` as `$1`) evaluates one.
 */
function argumentsEvaluated(payload: Word, args: Word[], run: Runner): boolean {
  const after = args.slice(args.indexOf(payload) + 1);
  if (!after.some((w) => w.kind !== "static" || /[[$`]/.test(w.value))) return false;
  if (payload.kind !== "static") return true;
  if (!/\$\{?[0-9@*]/.test(payload.value)) return false;
  const body = payload.value.replace(/\$(\{?)0(?![0-9])/g, "$$$11");
  return run.analyze(`f() {\n${body}\n}`, null, "arguments") === null;
}

/**
 * Whether a shell's options turn on `set -k` (`-k`, `-o keyword`) or history expansion (`-H`,
 * `-o histexpand`, `-o history`): each `o` of a cluster takes the next word. (Its words after the
 * text are read too, but for the text.)
 */
function invocationSets(
  args: Word[],
  payload: Word | null,
): { keyword: boolean; history: boolean } {
  const found = { keyword: false, history: false };
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    if (args[i] === payload || args[i].kind !== "static" || !/^[-+][A-Za-z]+$/.test(v)) continue;
    for (const c of v.slice(1)) {
      const named = c === "o" || c === "O" ? args[++i]?.value ?? "" : "";
      if (v[0] !== "-") continue;
      if (c === "k" || (c === "o" && named === "keyword")) found.keyword = true;
      if (c === "H" || (c === "o" && /^hist/.test(named))) found.history = true;
    }
  }
  return found;
}

/**
 * Whether the text is fish's, or sh's (dash's: dash.ts), and reads otherwise than bash's: then
 * code not seen.
 */
function notBash(name: string, text: Word, run: Runner): boolean {
  if (DASH_LIKE.has(name)) {
    const readings = text.kind === "static" ? dashReadings(text.value) : [];
    if (readings === null) {
      run.stage([unknownWord(`(${name}'s code, which bash reads otherwise)`)], `shell:${name}`);
      return true;
    }
    // (dash's reading of `&>`, judged beside bash's, which the caller judges.)
    for (const r of readings.slice(1)) run.shell(literal(r), `shell:${name}`);
    return false;
  }
  if (name !== "fish" || text.kind === "static" && fishReadsAsBash(text.value)) return false;
  run.stage([unknownWord("(fish's code, not read as bash)")], "shell:fish");
  return true;
}

/** What a shell runs: its `-c` text, a script, or the commands of its standard input. */
function shellRuns(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]);
  const args = stage.argv.slice(1);
  const payload = shellPayload(args, name);
  // An interactive shell with `interactive_comments` off takes `#` as a word: what reads as a
  // comment here runs (`bash +O interactive_comments -ic 'echo x #; rm -rf src'`).
  if (commentsOff(stage, args, payload)) {
    run.stage([unknownWord("(an interactive shell whose `#` starts no comment)")], `shell:${name}`);
    return;
  }
  // A script file: run as `./script` would be, it is read (an argument of the stage, judged
  // where it lies), its commands not seen (RULINGS "A program given by path").
  // A pipe or stream as the script (`bash <(curl …)`, `bash /dev/stdin`) is not a file to read:
  // its commands are not known.
  // (An interactive bash runs its `--rcfile`/`--init-file` first: from a stream, not known.)
  const rc = args.findIndex((a) => /^--?(rcfile|init-file)$/.test(a.value));
  const rcfile = rc >= 0 ? args[rc + 1] : undefined;
  if (rcfile && rcfile.value !== "/dev/null" && stream(rcfile, stage.cwds)) {
    run.stage([unknownWord(`(the startup file ${rcfile.text})`)], `shell:${name}`);
  }
  if (payload && "script" in payload) {
    const script = payload.script;
    if (stream(script, stage.cwds)) {
      run.stage([unknownWord(`(script ${script.text})`)], `shell:${name}`);
    }
    return;
  }
  // (`bash -k`, `-o keyword`: a `NAME=value` word anywhere in a command it runs is that
  // command's environment; `-H`, `-o histexpand`: its lines may be rewritten, as `set` says.)
  const turnedOn = invocationSets(args, payload);
  if (turnedOn.keyword) {
    run.stage([unknownWord("(environments -k gives the commands it runs)")], `shell:${name}`);
  }
  // (A text known without `!` or `^` has nothing to expand.)
  if (turnedOn.history && !(payload?.kind === "static" && !/[!^]/.test(payload.value))) {
    run.stage([unknownWord("(lines history expansion may rewrite)")], `shell:${name}`);
  }
  if (payload && notBash(name, payload, run)) return;
  if (payload) {
    // (What the command hands it: its exported values, its `$1 …`; handed_env.ts.)
    const start = payload.kind === "static"
      ? shellStart(stage, payload, run.variable("BASH_ENV") !== undefined)
      : null;
    run.shell(payload, `shell:${name}`, start ? { start } : {});
    if (argumentsEvaluated(payload, args, run)) {
      run.stage([unknownWord("(its arguments, evaluated as code)")], `shell:${name}`);
    }
    return;
  }
  // Commands from stdin: a heredoc or here-string we can read, else a pipe or a file we
  // cannot (`bash < script.sh` runs the script, `bash < <(curl …)` what curl fetches).
  const stdin = standardInput(stage);
  if (stdin.from === "nothing") return;
  // A pipe from `echo`, `printf` or `cat` of what is known (`echo 'ls' | sh`): that text, or
  // those script files (`cat build.sh | bash` runs as `bash < build.sh`).
  const piped = stdin.from === "pipe" ? pipedInput(stage) : null;
  if (piped && "texts" in piped) {
    for (const text of piped.texts) {
      if (!notBash(name, literal(text), run)) run.shell(literal(text), `shell:${name} |`);
    }
  } else if (piped && piped.files.every((f) => !stream(f, stage.cwds))) {
    return;
  } else if (stdin.from === "document" && stdin.redirect.body) {
    const body = stdin.redirect.body;
    if (!notBash(name, body, run)) run.shell(body, `shell:${name} <<`);
  } else if (
    stdin.from === "file" && stdin.redirect.target && !stream(stdin.redirect.target, stage.cwds)
  ) {
    // A script file on stdin (`bash < script.sh`): read, as `bash script.sh` reads it.
    return;
  } else if (stdin.from === "pipe" || stdin.from === "document") {
    run.stage([unknownWord("(commands from stdin)")], `shell:${name}`);
  } else {
    const from = stdin.redirect ? stdin.redirect.target?.text ?? stdin.redirect.op : "stdin";
    run.stage([unknownWord(`(commands of ${from})`)], `shell:${name}`);
  }
}

/** The largest sourced file whose commands are read (bash's own text limit is the analysis's). */
const SOURCED_LIMIT = 64 * 1024;

/**
 * What `source FILE` runs in this shell. A venv's activation script (sourced.ts) is judged as a
 * script that runs (read where it lies, as `bash FILE` is), and after it bash looks command names
 * up in the environment's `bin` first. Any other file is read where it lies (an argument of the
 * stage) and its commands are judged as this shell runs them (`source scripts/env.sh`; a file of
 * assignments alone runs nothing), where its text is known as it will be: a path with a `/` (bash
 * looks a name without one up in `PATH` first) that no other stage of the command writes into.
 * Else its commands are not seen: a command not known. What the file
 * may set leaves the rest of the command's directory and values unknown either way (the walk).
 */
function sourceRuns(stage: Stage, run: Runner): void {
  const file = stage.argv[1];
  if (!file) return;
  const venv = activatedEnvironment(file);
  if (file.kind === "static" && venv === null && !stream(file, stage.cwds)) {
    const text = sourcedText(file.value, run);
    if (text !== null) {
      run.shell(literal(text), `source ${file.text}`);
      return;
    }
  }
  if (venv !== null && !stream(file, stage.cwds)) {
    const dirs = stage.cwds.map((cwd) => (cwd === null ? null : resolve(cwd, venv)));
    if (
      dirs.every((dir) =>
        dir !== null && !/[:$`\\'"]/.test(dir) &&
        run.searchPath({ ...literal(`PATH=${dir}/bin:$PATH`), kind: "dynamic" })
      )
    ) return;
  }
  run.stage([unknownWord(`(commands of ${file.text})`)], "source");
}

/**
 * The text of a file `source` reads, where bash surely reads that file: a path with a `/` (a name
 * without one is looked up in `PATH` first, which the command may set). Null where it is not
 * known (a file not there may be by the time the command runs), or larger than `SOURCED_LIMIT`.
 */
function sourcedText(name: string, run: Runner): string | null {
  if (!name.includes("/")) return null;
  const text = run.settings(name, true);
  return text !== null && text.length <= SOURCED_LIMIT ? text : null;
}

/**
 * Whether a shell is interactive (`-i` among its options before its text or script) and its
 * command may turn `interactive_comments` off (the name anywhere in its words or its input
 * document, however quoted or escaped: `+O interactive_comments`, `shopt -u interactive_comm\ents`,
 * `set +o interactive-comments`).
 */
function commentsOff(
  stage: Stage,
  args: Word[],
  payload: ReturnType<typeof shellPayload>,
): boolean {
  const end = payload === null
    ? args.length
    : args.indexOf("script" in payload ? payload.script : payload);
  const interactive = args.slice(0, end < 0 ? args.length : end).some((a) =>
    a.kind !== "static" || /^-[A-Za-z]*i[A-Za-z]*$/.test(a.value) || a.value === "--interactive"
  );
  if (!interactive) return false;
  const body = inputDocument(stage)?.body?.value ?? "";
  return /interactive[-_]comments/.test((stage.text + "\n" + body).replace(/\\\n|['"\\]/g, ""));
}

/** busybox's and toybox's options that only print (any other option may install or run). */
const MULTI_CALL_INFO = new Set(["--list", "--list-full", "--help", "--version"]);

/**
 * What `busybox APPLET ARGS` runs: the applet with its arguments; coreutils' single binary names
 * it in its first option (`coreutils --coreutils-prog=rm ARGS`, `--coreutils-prog-shebang=rm`).
 */
function multiCallRuns(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]);
  const args = stage.argv.slice(1);
  const first = args[0];
  if (!first) return;
  const prog = name === "coreutils" && first.kind === "static"
    ? /^--coreutils-prog(?:-shebang)?=(.*)$/s.exec(first.value)
    : null;
  if (prog) {
    run.stage([literal(prog[1]), ...args.slice(1)], name);
    return;
  }
  if (first.kind === "static" && first.value.startsWith("-")) {
    if (!MULTI_CALL_INFO.has(first.value)) run.stage([unknownWord(`(${first.value})`)], name);
    return;
  }
  run.stage(args, name);
}

/** A shell's `-c` text as an inline eval. */
function shellEval(stage: Stage): EvalShape | null {
  const payload = shellPayload(stage.argv.slice(1), programName(stage.argv[0]));
  if (!payload || "script" in payload) return null;
  return {
    interpreter: programName(stage.argv[0]),
    language: "shell",
    via: "-c",
    source: payload.kind === "static" ? payload.value : null,
  };
}

/** Words joined into the text a builtin runs (`eval`, `watch`). */
function joined(words: Word[]): Word {
  const dynamic = words.some((w) => w.kind !== "static");
  const text = words.map((w) => w.value).join(" ");
  return { value: text, kind: dynamic ? "dynamic" : "static", prefix: "", text };
}

/**
 * A trap's handler runs later, wherever the shell is by then (`trap 'cat id_rsa' EXIT; cd
 * ~/.ssh` reads `~/.ssh/id_rsa`): where a stage of the command may move the shell, the handler's
 * stages (origin `trap`) may run in a directory not known too. Replaces them in `stages`; `where`
 * is where the command runs, `source` its text.
 */
export function handlersRunLater(
  stages: Stage[],
  where: Pick<BashEnv, "home" | "env">,
  source: string,
): void {
  const handler = (s: Stage) => s.origin === "trap" || s.origin.startsWith("trap > ");
  if (!stages.some(handler)) return;
  const facts: CdFacts = {
    home: where.env.HOME ?? where.home,
    env: where,
    ...sourceFacts(source),
  };
  if (!stages.some((s) => cdTarget(s.argv, s.cwds, facts) !== null)) return;
  for (let i = 0; i < stages.length; i++) {
    const s = stages[i];
    if (handler(s) && !s.cwds.includes(null)) stages[i] = { ...s, cwds: [...s.cwds, null] };
  }
}

/**
 * The compound assignments declare takes from quoted values (`declare -a a='($(cmd))'`, also
 * `-A`, typeset, local, readonly, export and a variable that is already an array): bash expands
 * the words inside, running their substitutions, as in `a=($(cmd))`.
 */
function compoundValues(stage: Stage, run: Runner): void {
  // (With `-a`/`-A`, a value not known may be one: `declare -a a=$x`.)
  const arrays = stage.argv.some((w) => /^-[a-zA-Z]*[aA]/.test(w.value));
  for (const w of stage.argv.slice(1)) {
    if (w.kind !== "static") {
      // (A compound assignment as written, `a=("$@")`, is read as the walk reads one.)
      const assigned = /^[A-Za-z_]\w*(\[[^\]]*\])?\+?=/.exec(w.prefix);
      if (assigned && w.text.startsWith("(", assigned[0].length)) continue;
      if (assigned && (arrays || w.prefix.startsWith("(", assigned[0].length))) {
        run.stage([unknownWord(w.text)], "declare");
      }
      continue;
    }
    const m = /^([A-Za-z_]\w*(?:\[[^\]]*\])?\+?=)(\([\s\S]*\))$/.exec(w.value);
    if (m && /[$`<>]/.test(m[2])) run.shell(literal(m[1] + m[2]), "declare");
  }
}

/** `trap … HANDLER SIGNAL…`: the handler runs later, in this shell (`trapHandler`). */
function trapRuns(stage: Stage, run: Runner): void {
  const set = trapHandler(stage.argv);
  if (set) run.shell(set.handler, "trap");
}

/**
 * The value of option `letter` (glued or the next word) as text this shell runs, with the
 * arguments `given` (shell text; a line of input not known: `"$MAPFILE_LINE"`).
 */
function valuedShell(
  stage: Stage,
  run: Runner,
  letter: string,
  valued: string,
  given?: string,
): void {
  const name = programName(stage.argv[0]);
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") {
      // An option not known: it may be -C with its command.
      if (/^-/.test(a.prefix) || a.prefix === "") {
        run.stage([unknownWord(a.text)], `${name} -${letter}`);
      }
      continue;
    }
    if (a.value === "--") return;
    if (!/^-[A-Za-z]/.test(a.value)) continue;
    for (let j = 1; j < a.value.length; j++) {
      const c = a.value[j];
      if (c !== letter && !valued.includes(c)) continue;
      const value = j + 1 < a.value.length ? literal(a.value.slice(j + 1)) : args[++i];
      // (`given`: the arguments it gives the command, as shell text; else ones of its own.)
      if (c === letter && value && given && value.kind === "static") {
        run.shell(literal(`${value.value} ${given}`), `${name} -${letter}`);
      } else if (c === letter && value) run.shell(value, `${name} -${letter}`, { arguments: true });
      else if (c === "W" && value && name !== "mapfile" && name !== "readarray") {
        // A word list is expanded as words are: its substitutions run (`compgen -W '$(cmd)'`).
        run.shell(value.kind === "static" ? literal(`: ${value.value}`) : value, `${name} -W`);
      }
      break;
    }
  }
}

/**
 * `bind -x 'KEYSEQ: CMD'` runs CMD. (A readline init file, `bind -f FILE`, cannot bind shell
 * commands: it is only read.)
 */
function bindRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static" || !/^-[A-Za-z]/.test(a.value)) continue;
    const x = a.value.indexOf("x");
    if (x < 0) continue;
    const value = x + 1 < a.value.length ? literal(a.value.slice(x + 1)) : args[++i];
    if (!value) return;
    if (value.kind !== "static") {
      run.stage([unknownWord(value.text)], "bind -x");
      continue;
    }
    // KEYSEQ: the command after the first `:` (outside the key's quotes), quotes around it off.
    const m = /^\s*("(?:[^"\\]|\\.)*"|[^:]*)\s*:\s*(.*)$/s.exec(value.value);
    const body = (m ? m[2] : value.value).replace(/^"([\s\S]*)"$/, "$1");
    run.shell(literal(body), "bind -x");
  }
}

/** hash -p, enable -f, fc: what they make run is not seen (see SHELL_PROGRAMS). */
function hiddenRuns(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]);
  const args = stage.argv.slice(1);
  const flags = args.filter((a) => a.kind !== "static" || /^-[A-Za-z]/.test(a.value));
  const has = (c: string) => flags.some((a) => a.kind !== "static" || a.value.includes(c));
  if (name === "hash" && !has("p")) return;
  if (name === "enable" && !has("f")) return;
  if (name === "fc" && has("l") && !has("e") && !has("s")) return;
  const what = name === "hash"
    ? "(a name made to run another program)"
    : name === "enable"
    ? "(a builtin loaded from a file)"
    : "(commands from history, edited)";
  run.stage([unknownWord(what)], name);
}

/**
 * `set -H` / `set -o histexpand|history`: with history on, a later line's `!!`, `!x:s/a/b/` and
 * `^a^b` run a command rewritten from an earlier one, which no one reads here.
 */
function setRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") {
      // (A word that may begin with `-` or `+` may be options.)
      if (a.prefix === "" || /^[-+]/.test(a.prefix)) {
        run.stage([unknownWord(`(the shell options ${a.text} sets)`)], "set");
      }
      return;
    }
    const v = a.value;
    // (Options end at `--` or at the first other word: the rest are positional parameters.)
    if (v === "--" || !/^[-+]/.test(v)) return;
    // (Each `o` of a cluster takes the next word, `set -eo histexpand`; `+o NAME` turns it off.)
    const options = [...v.slice(1)].filter((c) => c === "o").map(() => args[++i])
      .filter((o) => o !== undefined && (v[0] === "-" || o.kind !== "static"));
    if (
      (/^-[A-Za-z]*H/.test(v)) ||
      options.some((o) => o.kind !== "static" || /^hist/.test(o.value))
    ) {
      run.stage([unknownWord("(lines history expansion may rewrite)")], "set");
      return;
    }
    // `set -k`: a `NAME=value` word anywhere in a later command is its environment
    // (`git commit EDITOR=rm`), which no one reads here.
    if (/^-[A-Za-z]*k/.test(v) || options.some((o) => o.value === "keyword")) {
      run.stage([unknownWord("(environments set -k gives later commands)")], "set");
      return;
    }
  }
}

/**
 * `shopt -s -o NAME`: the options `set -o` sets, among them history expansion (`histexpand`,
 * `history`) and `keyword`, which `setRuns` says what they make run.
 */
function shoptRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  let flags = "";
  let at = 0;
  for (; at < args.length; at++) {
    const a = args[at];
    if (a.kind !== "static") break;
    if (a.value === "--") {
      at++;
      break;
    }
    if (!/^-[A-Za-z]+$/.test(a.value)) break;
    flags += a.value.slice(1);
  }
  if (!flags.includes("o") || !flags.includes("s")) return;
  const names = args.slice(at);
  if (names.some((w) => w.kind !== "static")) {
    run.stage([unknownWord("(the shell options shopt -o sets)")], "shopt");
  } else if (names.some((w) => /^hist|^keyword$/.test(w.value))) {
    setRuns({ ...stage, argv: [stage.argv[0], ...names.flatMap((w) => [literal("-o"), w])] }, run);
  }
}

/**
 * `history -r|-n|-w|-a` read or write the history file: its operand, else \$HISTFILE, which the
 * command may have set (`HISTFILE=.env; history -r`).
 */
function historyFiles(argv: Word[]): { path: string | null; source: string }[] {
  const args = argv.slice(1);
  const at = args.findIndex((a) => a.kind !== "static" || /^-[A-Za-z]*[rnwa]/.test(a.value));
  if (at < 0) return [];
  const file = args.slice(at + 1).find((a) => !a.value.startsWith("-"));
  if (file?.kind === "static") return [{ path: file.value, source: file.text }];
  return [{ path: null, source: "(the history file)" }];
}

/** The shells (rbash, rksh: the restricted bash and ksh). */
// deno-fmt-ignore
export const SHELLS: readonly string[] = ["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish",
  "yash", "posh", "rbash", "rksh", "oksh", "pdksh", "loksh", "hush", "osh"];

/** The shells, and the builtins that run text in this shell. */
export const SHELL_PROGRAMS: Program[] = [
  {
    names: SHELLS,
    runs: shellRuns,
    evaluates: shellEval,
    tooBroad: true,
  },
  {
    // Multi-call binaries: the first word is the program they run as (`busybox rm -rf x`,
    // `toybox sh -c …`, `coreutils --coreutils-prog=rm x`), which is judged, and expanded, as a
    // stage of its own.
    names: ["busybox", "toybox", "coreutils"],
    runs: multiCallRuns,
    tooBroad: true,
  },
  {
    names: ["eval"],
    runs: (stage, run) => {
      if (stage.argv.length > 1) run.shell(joined(stage.argv.slice(1)), "eval");
    },
  },
  {
    names: ["source", "."],
    runs: sourceRuns,
  },
  {
    // An alias may run later in the same shell (with expand_aliases): judge its text now.
    names: ["alias"],
    runs: (stage, run) => {
      for (const a of stage.argv.slice(1)) {
        const eq = a.value.indexOf("=");
        if (eq <= 0) continue;
        const body = a.value.slice(eq + 1);
        run.shell(a.kind === "static" ? literal(body) : { ...a, value: body }, "alias");
      }
    },
  },
  {
    // The handler runs later, in this shell (its stages are judged apart); trap itself opens no
    // file its words name.
    names: ["trap"],
    runs: trapRuns,
    noFileOperands: true,
  },

  {
    // `mapfile -C CALLBACK`: bash evaluates CALLBACK with an index and a line of its input as it
    // reads (`-C eval` runs the lines, `-C tee` writes where they name).
    names: ["mapfile", "readarray"],
    runs: (stage, run) => valuedShell(stage, run, "C", "dnOsuc", '0 "$MAPFILE_LINE"'),
  },
  {
    // `compgen -C CMD` runs CMD for the words; `complete -C CMD` when completing.
    names: ["compgen", "complete"],
    runs: (stage, run) => valuedShell(stage, run, "C", "oAGWFXPS"),
  },
  {
    // `bind -x 'KEYSEQ: CMD'` runs CMD at the key.
    names: ["bind"],
    runs: bindRuns,
  },
  {
    // `jobs -x CMD ARGS` runs CMD with job specs replaced.
    names: ["jobs"],
    runs: (stage, run) => {
      const args = stage.argv.slice(1);
      const at = args.findIndex((a) => a.kind !== "static" || /^-[lnprs]*x/.test(a.value));
      if (at >= 0 && args[at + 1]) run.stage(args.slice(at + 1), "jobs -x");
    },
  },
  {
    // Commands of this shell that run what cannot be seen here: `hash -p PATH NAME` makes later
    // runs of NAME run PATH; `enable -f FILE` loads a builtin's code; `fc` edits and re-runs
    // history (`fc -l` only lists it).
    names: ["hash", "enable", "fc"],
    runs: hiddenRuns,
  },
  {
    names: ["set"],
    runs: setRuns,
    // (`set -a`/`-o allexport` exports every variable set after it: `LD_PRELOAD=./x.so` alone
    // then makes the later programs load that code, as `export` would.)
    readOnly: { "": { accepts: setExportsNothing } },
  },
  { names: ["shopt"], runs: shoptRuns, noFileOperands: true },
  { names: ["history"], namedFiles: historyFiles },
  {
    // `export PAGER=…`, `declare -x EDITOR=…`: later programs of this shell run the value.
    // Otherwise a value is no place until a command uses it as one (`export
    // PYTHONPATH=$PYTHONPATH:$(pwd)`), as with an assignment alone (RULINGS principle 3).
    // (A quoted value `(…)` is a compound assignment: its words are expanded.)
    names: DECLARATIONS,
    runs: (stage, run) => {
      run.environment(stage.argv.slice(1));
      compoundValues(stage, run);
    },
    noFileOperands: true,
    // `export LANG=C.UTF-8`: a locale, time zone, colour or terminal setting changes nothing a
    // read-only command does (any other value may make a later program run other code).
    readOnly: { "": { accepts: setsOnlyHarmless } },
  },
  {
    // Installs a table whose commands cron runs later (see `crontabRuns`).
    names: ["crontab"],
    runs: crontabRuns,
  },
  {
    // Commands come from stdin (or -f FILE): a heredoc or here-string we can read, else unknown.
    names: ["at", "batch"],
    runs: (stage, run) => {
      const name = programName(stage.argv[0]);
      const doc = inputDocument(stage);
      if (doc?.body) run.shell(doc.body, name);
      else run.stage([unknownWord("(commands for later)")], name);
    },
  },
];
