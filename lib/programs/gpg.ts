/**
 * gpg's files by names it makes, and what its settings make it run or write.
 *
 * The names it makes: without `--output`, decrypting (`--decrypt-files`, or no command,
 * where gpg guesses from the input) writes each operand without its `.gpg`/`.pgp`/`.asc` suffix,
 * and encrypting or signing (`-e`, `-c`, `-s`, `--encrypt-files`) writes it with `.gpg` (`.asc`
 * with `--armor`, `.sig` detached). `--decrypt` alone prints.
 *
 * Its settings: an option on the command line or a line of a `gpg.conf` (`--options F`, or the
 * one in its home, `--homedir D`, `GNUPGHOME=D`, where it also writes its keyrings and trust
 * database) that runs a program (`photo-viewer`, `agent-program`, `dirmngr-program`; in the
 * home's `gpg-agent.conf`, `pinentry-program`) or writes a file (`logger-file`, `status-file`,
 * `attribute-file`) is judged as that command or a file the command opens; a file that cannot be
 * read as it will be is a command not known. `gpg-connect-agent` runs the control commands of
 * its operands and of `-r FILE`: `/definqprog`'s program, `/datafile`'s and `/sendfd`'s files,
 * `/run FILE`; `--exec` runs its words.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { gpgOutputs } from "./gpg.ts";
 * gpgOutputs(["gpg", "--decrypt-files", "a.env.gpg"].map(literal)); // [{ path: "a.env", … }]
 * ```
 *
 * @module
 */
import { join } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";
import { literal, opensFile, standardInput, unknownWord } from "./words.ts";

/** gpg's options that take a value (the next word), as far as finding its operands needs them. */
const VALUED = new Set([
  "-r",
  "--recipient",
  "-u",
  "--local-user",
  "--default-key",
  "--homedir",
  "--keyring",
  "--secret-keyring",
  "--trustdb-name",
  "--passphrase",
  "--passphrase-file",
  "--passphrase-fd",
  "--status-fd",
  "--logger-fd",
  "--command-fd",
  "--cipher-algo",
  "--digest-algo",
  "--compress-algo",
  "-z",
  "--trust-model",
  "--keyserver",
  "--pinentry-mode",
  "--set-filename",
  "--comment",
]);
/** Commands that decrypt to a file named by the input, and those that make one with a suffix. */
const DECRYPTS = /^--decrypt-files$/;
const MAKES =
  /^(-[a-zA-Z]*[ecs][a-zA-Z]*|--(encrypt|symmetric|sign|clearsign|detach-sign|encrypt-files))$/;
/** Commands after which no file is made from an operand (`--list-keys`, `--verify`, `-d`). */
const OTHER =
  /^(-[a-zA-Z]*[dk][a-zA-Z]*|--(decrypt|verify|list-.*|import|export.*|recv-keys|fingerprint|gen-key|full-gen-key|edit-key|delete-.*|card-.*|version|help))$/;

/** What gpg writes by names it makes (see the module's notes). */
export function gpgOutputs(argv: Word[]): NamedFile[] {
  const operands: Word[] = [];
  let make = false;
  let armor = false;
  let detach = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    const v = w.kind === "static" ? w.value : w.prefix;
    if (v === "-o" || v === "--output" || v.startsWith("--output=")) return [];
    if (VALUED.has(v)) i++;
    else if (DECRYPTS.test(v)) continue;
    else if (OTHER.test(v)) return [];
    else if (MAKES.test(v)) {
      make = true;
      if (v === "--detach-sign" || /^-[a-zA-Z]*b/.test(v)) detach = true;
    } else if (v === "-a" || v === "--armor") armor = true;
    else if (!v.startsWith("-")) operands.push(w);
  }
  const source = "(the file gpg writes)";
  if (make) {
    const ext = detach ? ".sig" : armor ? ".asc" : ".gpg";
    return operands.map((w) => ({ path: w.kind === "static" ? w.value + ext : null, source }));
  }
  // (`--decrypt-files`, or no command: gpg guesses from the input, and decrypts an encrypted one
  // to a file.)
  return operands.map((w) => ({
    path: w.kind === "static" ? w.value.replace(/\.(gpg|pgp|asc)$/, "") : null,
    source,
  }));
}

/** gpg's settings (long options, as gpg.conf lines) that run a shell command, or a program. */
const GPG_SHELL = /^(photo-viewer)$/;
const GPG_PROGRAM = /^(agent-program|dirmngr-program|pinentry-program|scdaemon-program)$/;
/** ... that write a file, or open one; `exec-path`, where it finds the programs it runs. */
const GPG_WRITES = /^(logger-file|log-file|status-file|attribute-file|output)$/;
const GPG_OPENS = /^(passphrase-file|command-file|keyring|primary-keyring|trustdb-name|options)$/;

/** What one gpg setting makes it do (`--KEY VALUE`, or a `KEY VALUE` line of its gpg.conf). */
function gpgSetting(key: string, value: Word, run: Runner, origin: string): void {
  const seen = GPG_SHELL.test(key) || GPG_PROGRAM.test(key) || GPG_WRITES.test(key) ||
    GPG_OPENS.test(key) || key === "exec-path" || key === "homedir";
  if (!seen) return;
  if (value.kind !== "static" || key === "exec-path") {
    run.stage([unknownWord(`(what gpg's ${key} ${value.text} names)`)], origin);
  } else if (GPG_SHELL.test(key)) run.shell(value, origin, { arguments: true });
  else if (GPG_PROGRAM.test(key)) run.stage([value, literal("(its arguments)")], origin);
  else if (key === "homedir") gpgHome(value, run, origin);
  else if (key === "options") gpgConf(value, run, origin);
  else opensFile(value.value, run, origin);
}

/** A gpg.conf or gpg-agent.conf's settings (`KEY VALUE` lines). */
function gpgConfText(text: string, run: Runner, origin: string): void {
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([\w-]+)\s*(.*?)\s*$/.exec(line);
    if (!m || /^\s*#/.test(line)) continue;
    const value = m[2].replace(/^"(.*)"$/, "$1");
    // (A file of settings names no other: `options` there is no setting gpg reads.)
    if (m[1] !== "options" && m[1] !== "homedir") gpgSetting(m[1], literal(value), run, origin);
  }
}

/** A file of gpg settings, read as it will be, else a command not known. */
function gpgConf(file: Word, run: Runner, origin: string): void {
  const text = file.kind !== "static"
    ? null
    : file.value === "/dev/null"
    ? ""
    : run.settings(file.value);
  if (text === null) run.stage([unknownWord(`(the settings of ${file.text})`)], origin);
  else gpgConfText(text, run, origin);
}

/**
 * gpg's home (`--homedir D`, `GNUPGHOME=D`): where it writes its keyrings and trust database,
 * and the `gpg.conf`, `gpg-agent.conf` and `dirmngr.conf` read there.
 */
export function gpgHome(dir: Word, run: Runner, origin: string): void {
  if (dir.kind !== "static") {
    run.stage([unknownWord(`(the settings of gpg's home ${dir.text})`)], origin);
    return;
  }
  opensFile(dir.value, run, origin);
  for (const name of ["gpg.conf", "gpg-agent.conf", "dirmngr.conf"]) {
    gpgConf(literal(join(dir.value, name)), run, origin);
  }
}

/** gpg's long options, as its parser takes them: abbreviated too (`--hom` for `--homedir`). */
function gpgOption(v: string): string | null {
  const m = /^--([a-z][\w-]*)/.exec(v);
  if (!m) return null;
  const abbreviations = ["homedir", "options", "photo-viewer", "agent-program", "dirmngr-program"];
  return abbreviations.find((o) => m[1].length >= 3 && o.startsWith(m[1])) ?? m[1];
}

/** What gpg's (and gpg-connect-agent's) options make it run or write. */
function gpgSettings(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (v === "--") break;
    const key = gpgOption(v);
    if (key === null) continue;
    const eq = v.indexOf("=");
    const value = eq >= 0
      ? { ...a, value: a.value.slice(eq + 1), prefix: a.prefix.slice(eq + 1) }
      : GPG_SHELL.test(key) || GPG_PROGRAM.test(key) || GPG_WRITES.test(key) ||
          GPG_OPENS.test(key) || key === "exec-path" || key === "homedir"
      ? args[++i]
      : undefined;
    if (value) gpgSetting(key, value, run, `gpg --${key}`);
  }
}

/** One control command of gpg-connect-agent (`/datafile F`), from `origin`. */
function agentControl(line: string, run: Runner, origin: string, depth: number): void {
  const m = /^\s*\/(\w+)\s*(.*?)\s*$/.exec(line);
  if (!m) return;
  const words = m[2].split(/\s+/);
  if (m[2].includes("$")) {
    // (With /subst, values are built when it runs.)
    run.stage([unknownWord(`(what ${line.trim()} names)`)], origin);
  } else if (m[1] === "definqprog") {
    run.stage([literal(words[1] ?? ""), literal("(its arguments)")], origin);
  } else if (m[1] === "datafile" || m[1] === "sendfd" || m[1] === "definqfile") {
    opensFile(words[m[1] === "definqfile" ? 1 : 0] ?? "", run, origin);
  } else if (m[1] === "open") opensFile(words[1] ?? "", run, origin);
  else if (m[1] === "run") agentFile(literal(m[2]), run, depth + 1);
}

/** A file of gpg-connect-agent's commands (`-r F`, `/run F`). */
function agentFile(file: Word, run: Runner, depth: number): void {
  const text = file.kind !== "static" || depth > 3 ? null : run.settings(file.value);
  if (text === null) {
    run.stage([unknownWord(`(the commands of ${file.text})`)], "gpg-connect-agent");
  } else for (const line of text.split(/\r?\n/)) agentControl(line, run, file.value, depth);
}

/**
 * gpg-connect-agent: `--exec PROG ARGS` runs PROG; the control commands of `-r FILE`, its
 * operands and a here-document it reads (its other input: commands not known, unless an
 * operand says `/bye` first).
 */
function connectAgent(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const origin = "gpg-connect-agent";
  let bye = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (v === "-E" || v === "--exec") {
      run.stage(args.slice(i + 1), origin);
      return;
    }
    if (v === "-r" || v === "--run" || v.startsWith("--run=")) {
      const file = v.startsWith("--run=") ? literal(v.slice(6)) : args[++i];
      if (file) agentFile(file, run, 0);
    } else if (v === "-S" || v === "--raw-socket" || v === "--homedir") i++;
    else if (a.kind !== "static") run.stage([unknownWord(`(the command ${a.text})`)], origin);
    else if (!v.startsWith("-")) {
      if (/^\s*\/bye\b/.test(v)) bye = true;
      agentControl(v, run, origin, 0);
    }
  }
  if (bye) return;
  const input = standardInput(stage);
  const body = input.from === "document" ? input.redirect.body : undefined;
  if (body?.kind === "static") {
    for (const line of body.value.split("\n")) agentControl(line, run, origin, 0);
  } else if (input.from !== "nothing") {
    run.stage([unknownWord("(the commands gpg-connect-agent reads)")], origin);
  }
}

/** gpg, and gpg-connect-agent. */
export const GPG_PROGRAMS: Program[] = [
  { names: ["gpg", "gpg2"], namedFiles: gpgOutputs, optionCommands: gpgSettings },
  {
    names: ["gpg-connect-agent"],
    optionCommands: (stage, run) => {
      gpgSettings(stage, run);
      connectAgent(stage, run);
    },
  },
];
