/**
 * Programs that start a command in their own way (each a known shell escape): `ip netns exec NS
 * CMD`, `xdotool exec CMD`, `service PATH` (a name with a `/` runs that file from /etc/init.d),
 * `run-parts DIR` (every program in DIR), `capsh -- ARGS` (bash), `keyctl session NAME CMD`, mail's `--exec '!CMD'`,
 * aria2c's `--on-download-*` hooks, TeX with `--shell-escape` (the document's `\write18`),
 * latexmk's `-e` Perl, rpm's `--eval` macros (`%(cmd)`, `%{lua:…}`), zellij's panes and launchctl's
 * jobs.
 *
 * @module
 */
import { downloadedFiles } from "./downloaders.ts";
import { resolve } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { input, opens } from "./databases.ts";
import { staticValue } from "./command_words.ts";
import type { Program, Runner } from "./spec.ts";
import { literal, programName, unknownWord } from "./words.ts";

/** `ip [options] netns|vrf exec NAME CMD…`: CMD in that namespace or VRF. */
function ipExec(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  for (let i = 0; i + 1 < args.length; i++) {
    if (/^(netns|vrf)$/.test(staticValue(args[i]) ?? "") && staticValue(args[i + 1]) === "exec") {
      const command = args.slice(i + 3);
      if (command.length) run.stage(command, "ip exec");
      return;
    }
  }
}

/**
 * `capsh [OPTIONS] -- [ARGS]` runs bash (or `--shell=SHELL`) with ARGS, which with none reads
 * its commands from capsh's standard input; `== [ARGS]` runs capsh again with them.
 */
function capsh(stage: Stage, run: Runner): void {
  let shell = literal("/bin/bash");
  for (let i = 1; i < stage.argv.length; i++) {
    const v = staticValue(stage.argv[i]);
    if (v === null) {
      run.stage([unknownWord(`(a command after ${stage.argv[i].text})`)], "capsh");
      return;
    }
    if (v.startsWith("--shell=")) shell = literal(v.slice("--shell=".length));
    else if (v === "--" || v === "==") {
      const program = v === "--" ? shell : literal("capsh");
      run.stage([program, ...stage.argv.slice(i + 1)], "capsh");
      return;
    }
  }
}

/** `keyctl session [NAME [PROGRAM ARGS…]]`: PROGRAM in a new keyring session, else `$SHELL`. */
function keyctlSession(stage: Stage, run: Runner): void {
  const at = stage.argv.findIndex((w, i) => i > 0 && staticValue(w) === "session");
  if (at < 0 || stage.argv.slice(1, at).some((w) => !staticValue(w)?.startsWith("-"))) return;
  const command = stage.argv.slice(at + 2);
  run.stage(command.length ? command : [literal("sh")], "keyctl session");
}

/** `xdotool exec [--sync] [--terminator T] CMD…`. */
function xdotoolExec(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const at = args.findIndex((w) => staticValue(w) === "exec");
  if (at < 0) return;
  let i = at + 1;
  while (i < args.length && /^--(sync|terminator)$/.test(staticValue(args[i]) ?? "")) {
    i += staticValue(args[i]) === "--terminator" ? 2 : 1;
  }
  if (i < args.length) run.stage(args.slice(i), "xdotool exec");
}

/** `service NAME …` runs /etc/init.d/NAME: a name with a `/` leads elsewhere (`../../bin/rm`). */
function serviceRuns(stage: Stage, run: Runner): void {
  const name = stage.argv[1];
  if (!name) return;
  if (name.kind !== "static") {
    // (Paths a program listed below a place without `..` stay below /etc/init.d.)
    if (name.listed && !/(^|\/)\.\.(\/|$)/.test(name.prefix) && !name.prefix.startsWith("/")) {
      return;
    }
    run.stage([unknownWord(`(the program ${name.text} names)`)], "service");
  } else if (name.value.includes("/")) {
    run.stage([literal(resolve("/etc/init.d", name.value)), ...stage.argv.slice(2)], "service");
  }
}

/** `run-parts DIR` runs every program in DIR (`--test`/`--list` only list them). */
function runParts(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1).map(staticValue);
  if (args.some((a) => a === "--test" || a === "--list" || a === "--help")) return;
  const dir = [...stage.argv.slice(1)].reverse().find((w) => !w.value.startsWith("-"));
  run.stage([unknownWord(`(the programs in ${dir?.text ?? "a directory"})`)], "run-parts");
}

/** A mail command (`-E CMD`, a `~:CMD` escape): `!CMD` and `shell` run a shell, `|` a pipe. */
function mailCommand(command: Word | undefined, run: Runner, origin: string): void {
  if (!command) return;
  if (command.kind !== "static") {
    run.stage([unknownWord(`(a mail command ${command.text})`)], origin);
    return;
  }
  const shell = /^\s*(?:!|sh(?:ell)?\b)\s*(.*)$/s.exec(command.value);
  if (shell) run.shell(literal(shell[1]), origin);
  else if (/^\s*(\||pipe\b)/.test(command.value)) {
    run.stage([unknownWord(`(the command ${command.text} pipes to)`)], origin);
  }
}

/**
 * A line of the message mail reads with its tilde escapes on: `~!CMD` runs a shell line, `~|CMD`
 * pipes the message through one, `~<!CMD` (s-nail, heirloom) reads what one prints, `~:CMD` and
 * `~_CMD` run a mail command, `~r FILE`/`~< FILE`/`~@ FILES` read files, `~w FILE` writes one,
 * `~e`/`~v` run the editor.
 */
function tildeLine(line: string, escape: string, run: Runner): void {
  if (!line.startsWith(escape) || line.length < 2) return;
  const origin = "mail ~ escape";
  const c = line[escape.length];
  const rest = line.slice(escape.length + 1);
  if (c === "!" || c === "|") run.shell(literal(rest), origin, { input: c === "|" });
  else if (c === "<" && rest.trimStart().startsWith("!")) {
    run.shell(literal(rest.trimStart().slice(1)), origin);
  } else if (c === ":" || c === "_") mailCommand(literal(rest), run, origin);
  else if (c === "r" || c === "<" || c === "w" || c === "@" || c === "R") {
    for (const f of rest.trim().split(/\s+/)) opens(f, run, origin);
  } else if (c === "e" || c === "v") {
    run.stage([unknownWord("(the editor mail runs on the message)")], origin);
  }
}

/**
 * mail's `-E`/`--exec CMD` runs a mail command; with its tilde escapes on (`-I`, interactive
 * mode in BSD mail; `-~` in s-nail and heirloom mailx; its input a terminal), the lines of its
 * input that start with `~` (or the `escape` its `-S escape=C` sets) run commands too.
 */
function mailExec(stage: Stage, run: Runner): void {
  const argv = stage.argv;
  let tildes = !!stage.terminal;
  let escape = "~";
  for (let i = 1; i < argv.length; i++) {
    const v = staticValue(argv[i]) ?? "";
    if (v === "--") break;
    const glued = /^--exec=(.+)$/s.exec(v);
    if (glued || v === "--exec") mailCommand(glued ? literal(glued[1]) : argv[++i], run, "mail");
    if (!/^-[^-]/.test(v)) continue;
    // A cluster of flags, up to one that takes a value (the rest of the word or the next).
    for (let at = 1; at < v.length; at++) {
      const c = v[at];
      if (c === "I" || c === "~") tildes = true;
      if (!MAIL_VALUED.includes(c)) continue;
      const value = at + 1 < v.length ? literal(v.slice(at + 1)) : argv[++i];
      // `-E CMD` (GNU), `-X CMD`, `-Y CMD` (s-nail): mail commands; `-S escape=C` its escape.
      if (value && "EXY".includes(c)) mailCommand(value, run, `mail -${c}`);
      if (c === "S" && value && /^escape=./s.test(value.value)) escape = value.value.slice(7, 8);
      break;
    }
  }
  if (tildes) {
    input(stage, run, "mail ~ escape", (text) => {
      for (const line of text.split("\n")) tildeLine(line, escape, run);
    });
  }
}

/** The options of the mail programs (BSD mail, s-nail, heirloom mailx, GNU mail) with a value. */
const MAIL_VALUED = "AabcEhMmqrSsTuXY";

/** aria2c's hooks: a program run when a download starts, stops or ends. */
function aria2Hooks(stage: Stage, run: Runner): void {
  const argv = stage.argv;
  for (let i = 1; i < argv.length; i++) {
    const v = staticValue(argv[i]) ?? argv[i].prefix;
    const m = /^--on-(?:bt-)?download-[a-z]+(?:=(.*))?$/s.exec(v);
    if (!m) continue;
    const program = m[1] !== undefined
      ? (argv[i].kind === "static" ? literal(m[1]) : unknownWord(argv[i].text))
      : argv[++i];
    if (program) run.stage([program, literal("(its arguments)")], "aria2c hook");
  }
}

/** TeX with shell escapes on: the document's `\write18{…}` runs commands not seen. */
function texEscapes(stage: Stage, run: Runner): void {
  if (stage.argv.some((w) => /^--?(shell-escape|enable-write18)$/.test(staticValue(w) ?? ""))) {
    run.stage([unknownWord("(the commands the document runs)")], programName(stage.argv[0]));
  }
}

/** latexmk: `-e CODE`/`-r FILE` (Perl), `-shell-escape`, and `-pdflatex=CMD`-style commands. */
function latexmk(stage: Stage, run: Runner): void {
  const words = stage.argv.slice(1).map((w) => staticValue(w) ?? w.prefix);
  if (
    words.some((v) =>
      /^--?(e|r|shell-escape|(pdf|lua|xe|dvi|ps)?latex=.*|(lpr|print_type|pdf_previewer)=.*)$/.test(
        v,
      )
    )
  ) run.stage([unknownWord("(what its Perl and commands run)")], "latexmk");
}

/** rpm's `--eval`/`-E` macros: `%(cmd)` runs a shell, `%{lua:…}` Lua. */
function rpmEval(stage: Stage, run: Runner): void {
  const argv = stage.argv;
  for (let i = 1; i < argv.length; i++) {
    const v = staticValue(argv[i]) ?? "";
    const glued = /^--eval=(.*)$/s.exec(v);
    const macro = glued ? argv[i] : v === "--eval" || v === "-E" ? argv[++i] : null;
    if (!macro) continue;
    const text = glued ? glued[1] : macro.value;
    if (macro.kind !== "static" || /%\(|%\{lua:|%\[/.test(text)) {
      run.stage([unknownWord(`(what the macro ${macro.text} runs)`)], "rpm --eval");
    }
  }
}

/**
 * `zellij run [options] -- CMD`, `zellij action new-pane [options] -- CMD` (a command in a new
 * pane); `launchctl submit -l LABEL -- CMD`, `launchctl asuser UID CMD`, `launchctl bsexec PID
 * CMD`.
 */
function afterSeparator(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]);
  const args = stage.argv.slice(1);
  const sub = args.findIndex((w) => w.kind === "static" && !w.value.startsWith("-"));
  const verb = staticValue(args[sub]) ?? "";
  if (name === "launchctl" && (verb === "asuser" || verb === "bsexec")) {
    if (args[sub + 2]) run.stage(args.slice(sub + 2), `launchctl ${verb}`);
    return;
  }
  if (
    name === "zellij" && verb === "action" &&
    /^write-chars$|^write$/.test(staticValue(args[sub + 1]) ?? "")
  ) {
    // Typed into the pane's shell, as tmux's send-keys: the text runs there.
    const text = args[sub + 2];
    if (text) run.shell(text, "zellij action write-chars");
    return;
  }
  const runs = name === "zellij"
    ? verb === "run" || (verb === "action" && staticValue(args[sub + 1]) === "new-pane")
    : verb === "submit";
  if (!runs) return;
  const end = args.findIndex((w, i) => i > sub && staticValue(w) === "--");
  if (end >= 0 && end + 1 < args.length) run.stage(args.slice(end + 1), `${name} ${verb}`);
  else if (end < 0) run.stage([unknownWord(`(the command ${name} ${verb} runs)`)], name);
}

/** nmap `--script FILE`: a script file (Lua, which may run anything) is code not seen. */
function nmapScripts(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    const value = v === "--script"
      ? args[i + 1]?.value
      : v.startsWith("--script=")
      ? v.slice(9)
      : null;
    if (value && (/[/.]/.test(value) || args[i].kind !== "static")) {
      run.stage([unknownWord(`(the nmap script ${value})`)], "nmap --script");
    }
  }
}

/** The launchers. */
export const LAUNCHER_PROGRAMS: Program[] = [
  { names: ["ip"], runs: ipExec },
  { names: ["xdotool"], runs: xdotoolExec },
  { names: ["capsh"], runs: capsh },
  { names: ["keyctl"], runs: keyctlSession },
  { names: ["service"], runs: serviceRuns },
  { names: ["run-parts"], runs: runParts },
  { names: ["mail", "mailx", "s-nail"], optionCommands: mailExec },
  { names: ["aria2c"], optionCommands: aria2Hooks, namedFiles: downloadedFiles },
  { names: ["nmap"], optionCommands: nmapScripts },
  {
    names: ["tex", "latex", "pdflatex", "xelatex", "lualatex", "luatex", "pdftex", "xetex", "etex"],
    optionCommands: texEscapes,
  },
  { names: ["latexmk"], optionCommands: latexmk },
  { names: ["rpm", "rpmbuild", "rpmspec"], optionCommands: rpmEval },
  { names: ["zellij", "launchctl"], runs: afterSeparator },
];
