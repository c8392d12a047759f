/**
 * Editors and debuggers that run the commands their options give them: vim's `-c`/`+`/`--cmd` Ex
 * commands (`:!cmd`, `:r !cmd`, `:w !cmd`, `:%!filter`, `:terminal cmd`), ex mode's commands
 * from a here-document, emacs's `--eval` forms (`(shell-command "cmd")`), gdb's `-ex` commands
 * (`shell cmd`, `!cmd`, `pipe … | cmd`, `run` of the program debugged) and lldb's `-o` commands
 * (`platform shell cmd`, `run`). An Ex command, elisp form or debugger command the analysis does
 * not read (`call system(…)`, `python …`, `exe …`), and a file of commands (`-S file`, `-l
 * file`, `gdb -x file`, `lldb -s file`), is an unknown stage; plain editing (`vim file`, `vim +42
 * file`, `vim -c 'set ft=sh' f`, `ex -sc '%s/a/b/g|x' f`) runs nothing.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Program, Runner } from "./spec.ts";
import { literal, programName, standardInput, unknownWord } from "./words.ts";

/** A value's word: a part of a static word is static; of a dynamic word, not known. */
function part(w: Word, value: string): Word {
  return w.kind === "static" ? literal(value) : { ...w, kind: "dynamic", value };
}

// ---------------------------------------------------------------------------------------------
// vim, vi, nvim, ex, view: Ex commands.

/** Ex commands that only edit, move, search or quit (their `|` starts another command). */
// deno-fmt-ignore
const EX_PLAIN = new Set(["q", "qa", "qall", "quit", "quitall", "wq", "wqa", "wqall", "x", "xa",
  "xall", "xit", "exit", "w", "wa", "wall", "write", "up", "update", "e", "edit", "syntax", "sy",
  "syn", "filetype", "filet", "noh", "nohlsearch", "s", "substitute", "d", "delete", "y", "yank",
  "m", "move", "t", "co", "copy", "j", "join", "retab", "ret", "sort", "sor", "undo", "u", "redo",
  "red", "split", "sp", "vsplit", "vs", "new", "vnew", "tabnew", "tabe", "tabedit", "bd",
  "bdelete", "bn", "bnext", "bp", "bprevious", "b", "buffer", "diffupdate", "diffu", "only",
  "on", "wincmd", "winc", "goto", "go", "file", "f", "saveas", "sav", "le", "left",
  "ri", "right", "ce", "center", "g", "global", "v", "vglobal", "p", "print", "nu", "number",
  "a", "append", "i", "insert", "c", "change", "k", "mark", "ma", "ene", "enew", "argdo",
  "bufdo", "windo", "tabdo", "cdo", "ldo", "cfdo", "lfdo"]);

/** Ex commands that read or write a file they are given (`:w FILE`, `:r FILE`, `:e FILE`). */
const EX_FILE_COMMANDS =
  /^(w|write|wq|x|xit|exit|up|update|sav|saveas|r|read|e|edit|sp|split|vs|vsplit|new|vnew|tabe|tabedit|tabnew|file|f)$/;

/** Modifiers before an Ex command. */
const EX_MODIFIER =
  /^(sil(ent)?!?|unsil(ent)?|noa(utocmd)?|keepj(umps)?|keepp(atterns)?|keepa(lt)?|lockm(arks)?|vert(ical)?|tab|hid(e)?|bel(owright)?|abo(veleft)?|to(pleft)?|bo(tright)?|conf(irm)?|verb(ose)?|noswap(file)?|san(dbox)?|leftabove|rightbelow)\b\s*/;

/** A range before an Ex command (`%`, `1,$`, `.,+3`, `'a,'b`, `/pat/`). */
const EX_RANGE =
  /^(\s*([%.$]|\d+|'[a-zA-Z<>[\]]|\/(\\.|[^/])*\/|\?(\\.|[^?])*\?|[+-]\d*|[,;]))*\s*/;

/** `set` options that name a program or code (`shell=`, `makeprg=`, `*expr=`, `*func=`). */
const EX_SET_CODE =
  /(shell|prg|exrc|secure|modeline|cmd|expr|func|keywordprg|packpath|rtp|runtimepath)/i;

/** What an Ex command (one line, maybe `|`-joined commands) runs. */
export function exCommand(line: Word, run: Runner, origin: string, depth = 0): void {
  let t = line.value.replace(/^[\s:]+/, "");
  if (t === "" || depth > 8) return;
  if (/^\d+$|^\$$/.test(t)) return; // a line number
  if (/^[/?]/.test(t) && !t.includes("|")) return; // a search
  t = t.replace(EX_RANGE, "");
  for (let m = EX_MODIFIER.exec(t); m; m = EX_MODIFIER.exec(t)) t = t.slice(m[0].length);
  t = t.replace(/^[\s:]+/, "");
  const unknown = () => run.stage([unknownWord(`(the vim command ${line.text})`)], origin);
  if (t.startsWith("!")) {
    // `:!cmd`, `:%!filter`: the rest of the line is shell text (`!!` repeats an earlier one).
    if (t.startsWith("!!")) unknown();
    else run.shell(part(line, t.slice(1)), origin);
    return;
  }
  const m = /^([A-Za-z]+!?|[&~<>=@*#])/.exec(t);
  if (!m) {
    if (t.trim() !== "") unknown();
    return;
  }
  const name = m[1].replace(/!$/, "");
  const arg = t.slice(m[1].length);
  // `:r !cmd`, `:r!cmd`, `:w !cmd` (a space before `!`: `:w!` forces the write).
  if (/^(r|re|rea|read)$/.test(name) && /^\s*!/.test(m[1].endsWith("!") ? "!" + arg : arg)) {
    run.shell(part(line, m[1].endsWith("!") ? arg : arg.replace(/^\s*!/, "")), origin);
    return;
  }
  if (/^(w|write|up|update)$/.test(name) && /^\s+!/.test(arg)) {
    run.shell(part(line, arg.replace(/^\s+!/, "")), origin);
    return;
  }
  // `:w FILE`, `:r FILE`, `:e FILE`, `:saveas FILE`, …: a file the command names, which no stage
  // names here (`ex -sc 'wq! .pi/settings.json' x`): not known. Without one, the buffer's own.
  if (EX_FILE_COMMANDS.test(name) && arg.split("|")[0].trim() !== "") {
    unknown();
    return;
  }
  if (/^(ter|term|termi|termin|termina|terminal)$/.test(name)) {
    const cmd = arg.replace(/^(\s*\+\+\S+)*\s*/, "");
    if (cmd) run.shell(part(line, cmd), origin);
    else run.stage([unknownWord("(an interactive shell)")], origin);
    return;
  }
  if (/^(mak|make|gr|grep|lmak|lmake|lgr|lgrep)$/.test(name)) {
    const program = name.includes("g") ? "grep" : "make";
    run.shell(part(line, `${program} ${arg.split("|")[0]}`), origin);
    return;
  }
  if (/^(norm|norma|normal)$/.test(name)) {
    // Keys in normal mode: a command they start is abandoned unless a key ends it (a control
    // character: Enter, Ctrl-R = …).
    // deno-lint-ignore no-control-regex
    if (/[\x00-\x1f\x7f]/.test(arg)) unknown();
    return;
  }
  if (/^(g|global|v|vglobal)$/.test(name)) {
    // `:g/pat/cmd`: cmd is an Ex command (the rest of the line, `|` included).
    const g = /^\s*(.)(?:\\.|(?!\1).)*\1([\s\S]*)$/.exec(arg);
    if (g && g[2].trim()) exCommand(part(line, g[2]), run, origin, depth + 1);
    return;
  }
  const plain = EX_PLAIN.has(name) ||
    ((name === "set" || name === "se" || /^setl(ocal)?$/.test(name)) &&
      !EX_SET_CODE.test(arg.split("|")[0]));
  if (!plain || /\\=/.test(arg)) {
    // An expression (`\=` in `:s`), vimscript, a sourced file, keys for normal mode, ...
    unknown();
    return;
  }
  const bar = arg.search(/(?<!\\)\|/);
  if (bar >= 0) exCommand(part(line, arg.slice(bar + 1)), run, origin, depth + 1);
}

/** vim's options that take a value (the next word). */
const VIM_VALUED = new Set(["-c", "-S", "-u", "-U", "-s", "-i", "-t", "-q", "-T", "-w", "-W"]);
const VIM_LONG_VALUED = new Set([
  "--cmd",
  "--servername",
  "--startuptime",
  "--log",
  "--listen",
  "--remote-send",
  "--remote-expr",
]);

/** What vim (vi, nvim, ex, view) runs: its `-c`/`+`/`--cmd` commands and files of commands. */
function vimRuns(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]);
  const args = stage.argv.slice(1);
  let exMode = /^(ex|nex|gex|vim\.tiny-ex)$/.test(name);
  for (const a of args) if (a.kind === "static" && /^-[a-zA-Z]*[eE]/.test(a.value)) exMode = true;
  const origin = `${name} command`;
  const file = (w: Word | undefined, what: string) => {
    if (w && !(w.kind === "static" && /^(NONE|NORC|DEFAULTS|\/dev\/null)$/.test(w.value))) {
      run.stage([unknownWord(`(${what} ${w.text})`)], origin);
    }
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.value;
    if (a.kind === "static" && v === "--") break;
    if (a.kind !== "static" && /^[-+]/.test(a.prefix)) {
      run.stage([unknownWord(`(a vim option ${a.text})`)], origin);
      continue;
    }
    if (v.startsWith("+")) {
      if (/^\+(\d*|\/.*|\?.*)$/.test(v)) continue;
      exCommand(part(a, v.slice(1)), run, origin);
    } else if (v === "--cmd") exCommand(args[++i] ?? literal(""), run, origin);
    else if (v === "-l" && name.startsWith("nvim")) {
      file(args[i + 1], "the Lua script");
      return;
    } else if (/^--remote-(send|expr)(=|$)/.test(v)) {
      run.stage([unknownWord(`(keys or an expression sent to a vim server)`)], origin);
      if (!v.includes("=")) i++;
    } else if (VIM_LONG_VALUED.has(v)) i++;
    else if (/^-[A-Za-z]/.test(v)) {
      // A cluster of flags (`-es`, `-Nu NONE`, `-sc CMD`): the first letter that takes a value
      // takes the rest of the word, else the next word.
      const letters = v.slice(1);
      const at = [...letters].findIndex((c) => VIM_VALUED.has(`-${c}`) && (c !== "s" || !exMode));
      if (at < 0) continue;
      const c = letters[at];
      const rest = letters.slice(at + 1);
      const value = rest ? part(a, rest) : args[++i];
      if (c === "c") exCommand(value ?? literal(""), run, origin);
      else if (c === "S") file(value ?? literal("Session.vim"), "the commands of");
      else if (c === "u" || c === "U") file(value, "the commands of");
      else if (c === "s") file(value, "the keys of");
    }
  }
  if (exMode) exInput(stage, run, origin);
}

/** Ex mode reads its commands from standard input: a here-document's lines, else unknown. */
function exInput(stage: Stage, run: Runner, origin: string): void {
  const stdin = standardInput(stage);
  if (stdin.from === "nothing") return;
  const body = stdin.from === "document" ? stdin.redirect.body : undefined;
  if (body?.kind === "static") {
    for (const line of body.value.split("\n")) exCommand(literal(line), run, origin);
  } else run.stage([unknownWord("(Ex commands from stdin)")], origin);
}

// ---------------------------------------------------------------------------------------------
// emacs: elisp forms.

/** Elisp that runs shell text: `(shell-command "cmd")` and its kin, read; any other is unknown. */
const ELISP_SHELL =
  /^\s*\((?:async-)?shell-command(?:-to-string)?\s+"((?:[^"\\]|\\.)*)"[^()]*\)\s*$|^\s*\(call-process-shell-command\s+"((?:[^"\\]|\\.)*)"[^()]*\)\s*$/;

/** What an elisp form runs. */
function elisp(form: Word, run: Runner, origin: string): void {
  const m = form.kind === "static" ? ELISP_SHELL.exec(form.value) : null;
  if (m) run.shell(literal((m[1] ?? m[2]).replace(/\\(.)/g, "$1")), origin);
  else run.stage([unknownWord(`(the elisp ${form.text})`)], origin);
}

/** emacs's options whose value is elisp, a file or function of elisp, and those with a value. */
const EMACS_CODE = /^--?(eval|execute)$/;
const EMACS_FILES = /^(-l|--?load|--?script|-f|--?funcall|--init-directory)$/;
const EMACS_VALUED =
  /^(-L|--?directory|--?insert|-d|--?display|-u|--?user|-t|--?terminal|--?chdir)$/;

/** What emacs (or emacsclient) runs: `--eval` forms and files or functions of elisp. */
function emacsRuns(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]);
  const args = stage.argv.slice(1);
  const origin = `${name} --eval`;
  const client = name.startsWith("emacsclient");
  let evalOperands = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    const eq = v.indexOf("=");
    const opt = v.startsWith("-") && eq > 0 ? v.slice(0, eq) : v;
    const value = () => eq > 0 && v.startsWith("-") ? part(a, v.slice(eq + 1)) : args[++i];
    if (a.kind !== "static" && v.startsWith("-") && eq < 0) {
      run.stage([unknownWord(`(an emacs option ${a.text})`)], origin);
    } else if (client && /^(-e|--eval)$/.test(opt)) {
      evalOperands = true;
      if (eq > 0) elisp(part(a, v.slice(eq + 1)), run, origin);
    } else if (client && /^(-a|--alternate-editor)$/.test(opt)) {
      const w = value();
      if (w && w.value !== "") run.stage([w, literal("(its arguments)")], `${name} -a`);
    } else if (client && /^(-s|--socket-name|-f|--server-file|-F|--frame-parameters)$/.test(opt)) {
      if (eq < 0) i++;
    } else if (!client && EMACS_CODE.test(opt)) {
      const w = value();
      if (w) elisp(w, run, origin);
    } else if (!client && EMACS_FILES.test(opt)) {
      const w = value();
      if (w) run.stage([unknownWord(`(the elisp of ${opt} ${w.text})`)], origin);
    } else if (!client && EMACS_VALUED.test(opt) && eq < 0) i++;
    else if (evalOperands && !v.startsWith("-")) elisp(a, run, origin);
  }
}

// ---------------------------------------------------------------------------------------------
// gdb and lldb: debugger commands.

/** gdb commands that only look, move or quit (no expression that may call a function). */
// deno-fmt-ignore
const GDB_PLAIN = new Set(["bt", "backtrace", "where", "info", "i", "list", "l", "disassemble",
  "disas", "frame", "f", "up", "down", "quit", "q", "kill", "k", "detach", "break", "b", "br",
  "tbreak", "watch", "rwatch", "awatch", "continue", "c", "next", "n", "step", "s", "finish",
  "fin", "nexti", "ni", "stepi", "si", "handle", "directory", "dir", "file", "symbol-file",
  "core-file", "core", "attach", "show", "ptype", "whatis", "delete", "d", "disable", "enable",
  "until", "u", "advance", "x", "display", "undisplay", "catch", "tcatch", "help", "h",
  "print", "p", "output", "call", "printf", "echo", "inspect", "set", "thread", "t"]);

/** What a gdb command runs; `debuggee` is the program `run` starts, when known. */
function gdbCommand(cmd: Word, debuggee: Word[] | null, run: Runner, origin: string): void {
  const t = cmd.value.trim();
  const unknown = () => run.stage([unknownWord(`(the gdb command ${cmd.text})`)], origin);
  if (cmd.kind !== "static") return unknown();
  if (t.startsWith("!")) return run.shell(literal(t.slice(1)), origin);
  if (t.startsWith("|")) return run.shell(literal(t.slice(1).replace(/^[^|]*\|/, "")), origin);
  const m = /^([A-Za-z][\w-]*)\s*([\s\S]*)$/.exec(t);
  if (!m) return t === "" ? undefined : unknown();
  const [, name, arg] = m;
  if (/^(she|shel|shell)$/.test(name)) return run.shell(literal(arg), origin);
  if (name === "pipe") {
    if (/^-d\b/.test(arg)) return unknown();
    const bar = arg.indexOf("|");
    return bar < 0 ? unknown() : run.shell(literal(arg.slice(bar + 1)), origin);
  }
  if (/^(r|ru|run|start|starti)$/.test(name)) {
    // The program starts through a shell, with these arguments (or the earlier ones).
    if (!debuggee) return unknown();
    if (arg) run.shell(literal([...debuggee.map((w) => w.text), arg].join(" ")), origin);
    // (Without arguments, those `set args` or `--args` gave: some arguments.)
    else run.stage([...debuggee, literal("(its arguments)")], origin);
    return;
  }
  if (name === "thread" && /^apply\b/.test(arg)) {
    const rest = /^apply\s+(all|[\d\s.-]+)\s*(-\S+\s*)*([\s\S]*)$/.exec(arg);
    return rest ? gdbCommand(literal(rest[3]), debuggee, run, origin) : unknown();
  }
  if (name === "set" && /^(exec-wrapper|startup-with-shell|shell)\b/.test(arg)) return unknown();
  // An expression may call a function of the program (`print system("rm x")`).
  if (
    !GDB_PLAIN.has(name) ||
    (/^(print|p|output|call|printf|inspect|set|x|display)$/.test(name) && arg.includes("("))
  ) {
    return unknown();
  }
}

/**
 * A debugger's commands from its standard input, which it reads after its options' when not in
 * batch mode (`gdb <<<'shell rm -rf x'`): a here-document's lines, each judged by `each`; a pipe
 * or a file, commands not known.
 */
function inputCommands(stage: Stage, run: Runner, name: string, each: (cmd: Word) => void): void {
  const input = standardInput(stage);
  if (input.from === "nothing") return;
  if (input.from === "document" && input.redirect.body?.kind === "static") {
    for (const line of input.redirect.body.value.split("\n")) each(literal(line));
  } else run.stage([unknownWord(`(the ${name} commands of its standard input)`)], name);
}

/** gdb's options (one or two dashes) that take a value. */
const GDB_VALUED =
  /^--?(ex|eval-command|iex|init-eval-command|x|command|ix|init-command|p|pid|cd|d|directory|s|symbols|e|exec|se|c|core|b|tty|i|interpreter|D|data-directory|l)$/;

/** What gdb runs: its `-ex` commands, its command files, and the program `run` starts. */
function gdbRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const origin = "gdb -ex";
  const commands: Word[] = [];
  let debuggee: Word[] | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    const eq = v.indexOf("=");
    const opt = v.startsWith("-") && eq > 0 ? v.slice(0, eq) : v;
    if (a.kind !== "static" && v.startsWith("-")) {
      run.stage([unknownWord(`(a gdb option ${a.text})`)], origin);
      continue;
    }
    if (v === "--args" || v === "-args") {
      if (args[i + 1]) debuggee = args.slice(i + 1);
      break;
    }
    if (!v.startsWith("-")) {
      debuggee ??= [a];
      continue;
    }
    if (!GDB_VALUED.test(opt)) continue;
    const value = eq > 0 ? part(a, v.slice(eq + 1)) : args[++i];
    if (!value) continue;
    if (/^--?(ex|eval-command|iex|init-eval-command)$/.test(opt)) commands.push(value);
    else if (/^--?(x|command|ix|init-command)$/.test(opt) && value.value !== "/dev/null") {
      run.stage([unknownWord(`(the gdb commands of ${value.text})`)], origin);
    }
  }
  for (const c of commands) gdbCommand(c, debuggee, run, origin);
  if (!args.some((a) => /^--?batch(-silent)?$/.test(a.value))) {
    inputCommands(stage, run, "gdb", (c) => gdbCommand(c, debuggee, run, "gdb <<"));
  }
}

/** lldb commands that only look, move or quit. */
// deno-fmt-ignore
const LLDB_PLAIN = new Set(["bt", "thread", "frame", "image", "target", "breakpoint", "b", "br",
  "register", "memory", "disassemble", "di", "quit", "q", "exit", "settings", "version", "help",
  "continue", "c", "next", "n", "step", "s", "finish", "kill", "detach", "watchpoint", "source",
  "list", "up", "down", "f", "type", "log", "gui", "apropos", "x"]);

/** What an lldb command runs. */
function lldbCommand(cmd: Word, debuggee: Word[] | null, run: Runner, origin: string): void {
  const t = cmd.value.trim();
  const unknown = () => run.stage([unknownWord(`(the lldb command ${cmd.text})`)], origin);
  if (cmd.kind !== "static") return unknown();
  const m = /^([A-Za-z][\w-]*)\s*([\s\S]*)$/.exec(t);
  if (!m) return t === "" ? undefined : unknown();
  const [, name, arg] = m;
  if (name === "platform" && /^(sh|she|shel|shell)\b/.test(arg)) {
    return run.shell(literal(arg.replace(/^\S+\s*(-\S+\s*)*(--\s*)?/, "")), origin);
  }
  if (name === "shell") return run.shell(literal(arg), origin);
  if (/^(r|run)$/.test(name) || (name === "process" && /^launch\b/.test(arg))) {
    // Its arguments: those given here (after `--` for `process launch`), or some set before.
    const given = name === "process" ? arg.replace(/^launch\b\s*(-\S+\s*)*(--\s*)?/, "") : arg;
    if (!debuggee) return unknown();
    if (given) run.shell(literal([...debuggee.map((w) => w.text), given].join(" ")), origin);
    else run.stage([...debuggee, literal("(its arguments)")], origin);
    return;
  }
  if (name === "source" || name === "command" || name === "settings" && /\bexec\b/.test(arg)) {
    if (name !== "source" || /\(/.test(arg)) return unknown();
  }
  if (!LLDB_PLAIN.has(name)) return unknown();
}

/** lldb's options that take a value. */
const LLDB_VALUED =
  /^(-o|--one-line|-O|--one-line-before-file|-k|--one-line-on-crash|-s|--source|-S|--source-before-file|-K|--source-on-crash|-p|--attach-pid|-n|--attach-name|-a|--arch|-c|--core|-f|--file|-l|--script-language|--repl-language)$/;

/** What lldb runs: its `-o` commands, its command files, and the program `run` starts. */
function lldbRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const origin = "lldb -o";
  const commands: Word[] = [];
  let debuggee: Word[] | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    const eq = v.indexOf("=");
    const opt = v.startsWith("--") && eq > 0 ? v.slice(0, eq) : v;
    if (a.kind !== "static" && v.startsWith("-")) {
      run.stage([unknownWord(`(an lldb option ${a.text})`)], origin);
      continue;
    }
    if (v === "--") {
      debuggee = debuggee ? [...debuggee, ...args.slice(i + 1)] : args.slice(i + 1);
      break;
    }
    if (!v.startsWith("-")) {
      debuggee = debuggee ? [...debuggee, a] : [a];
      continue;
    }
    const short = /^-[oOkKsSpnacfl]./.test(v) && !v.startsWith("--");
    if (!LLDB_VALUED.test(opt) && !short) continue;
    const value = short ? part(a, v.slice(2)) : eq > 0 ? part(a, v.slice(eq + 1)) : args[++i];
    const o = short ? v.slice(0, 2) : opt;
    if (!value) continue;
    if (/^(-[oOk]|--one-line.*)$/.test(o)) commands.push(value);
    else if (/^(-[sSK]|--source.*)$/.test(o)) {
      run.stage([unknownWord(`(the lldb commands of ${value.text})`)], origin);
    } else if (/^(-f|--file)$/.test(o)) debuggee = [value, ...(debuggee ?? [])];
  }
  for (const c of commands) lldbCommand(c, debuggee, run, origin);
  if (!args.some((a) => a.value === "-b" || a.value === "--batch")) {
    inputCommands(stage, run, "lldb", (c) => lldbCommand(c, debuggee, run, "lldb <<"));
  }
}

/** The editors and debuggers. */
export const EDITOR_PROGRAMS: Program[] = [
  {
    // deno-fmt-ignore
    names: ["vim", "vi", "nvim", "ex", "view", "vimdiff", "rvim", "rview", "gvim", "gview", "evim",
      "vimx", "vim.tiny", "vim.basic", "vim.nox", "vim.gtk3", "nvi", "nex", "nview"],
    optionCommands: vimRuns,
    // (`-V[N]FILE`: its messages are appended to FILE, the 'verbosefile'.)
    namedFiles: (argv) =>
      argv.slice(1).flatMap((w) => {
        const m = /^-V\d*(\D[\s\S]*)$/.exec(w.value);
        return m ? [{ path: w.kind === "static" ? m[1] : null, source: w.text }] : [];
      }),
  },
  { names: ["emacs", "emacs-nox", "emacsclient", "xemacs"], optionCommands: emacsRuns },
  { names: ["gdb", "gdb-multiarch", "cgdb"], optionCommands: gdbRuns },
  { names: ["lldb"], optionCommands: lldbRuns },
];
