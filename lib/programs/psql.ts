/**
 * psql's meta-commands, read as psql reads them (psql(1) "Meta-Commands", psqlscanslash.l): a
 * meta-command's arguments are split at blanks; single quotes take `''` and C-like backslash
 * escapes; double-quoted text is kept as written; `:name`, `:'name'` and `:"name"` put in a psql
 * variable's value (set by `\set`, `-v NAME=VALUE`, `\getenv`; one `\gset`, `\prompt` or a branch
 * of `\if` sets is not known), and text in backquotes runs as a shell command (its `:name` and
 * `:'name'` put in too) whose output is not known. What reaches a shell is judged as a command
 * line: `\! cmd`, `\o |cmd`, `\g |cmd`, `\gx |cmd`, `\w |cmd` (the rest of the line as written),
 * backquotes, `\copy … from|to program 'cmd'` and SQL's `COPY … PROGRAM 'cmd'`, and what
 * `\setenv NAME VALUE` puts in the environment of what psql runs (`PSQL_EDITOR`, `EDITOR`,
 * `VISUAL` that `\e`, `\ef`, `\ev` run through the shell, `PSQL_PAGER`, `PAGER`,
 * `PSQL_WATCH_PAGER`, `PSQL_EDITOR_LINENUMBER_ARG` put into the editor's command line, `SHELL`,
 * and any other a program reads: judged as `NAME=VALUE` before a command). Files a meta-command
 * writes (`\o F`, `\g F`, `\w F`, `\s F`, `\lo_export OID F`, `\copy … to F`, `\e F`) or reads
 * (`\lo_import F`, `\copy … from F`, `\i F`, `\ir F`) are opened where they lie (`~` as the home
 * directory; after `\cd DIR`, below DIR); the commands of a file `\i` reads are read as they will
 * be. `-c TEXT` is one meta-command when it starts with `\` (its arguments may span lines), else
 * SQL only; a script (`-f F`, a here-document, a pipe) runs every meta-command of each line (a
 * backslash anywhere is taken as one: SQL's quotes are not followed). A value not known where it
 * is run or names a file is a command not known.
 *
 * @module
 */
import { dirname, isAbsolute, join } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { shellQuote } from "../shell/words.ts";
import { each, fileCommands, input } from "./databases.ts";
import { libpqFiles } from "./libpq.ts";
import type { Program, Runner } from "./spec.ts";
import { chdir, literal, opensFile, unknownWord } from "./words.ts";

/** What psql holds as it reads its commands. */
interface Psql {
  run: Runner;
  stage: Stage;
  origin: string;
  /** Where it is (`\cd`): the stage's cwds until one. */
  cwds: (string | null)[];
  /** Its variables: a value, or null for one not known. */
  vars: Map<string, string | null>;
  /** Prefixes of the variables a `\gset` may have set to anything (`""`: any). */
  loose: string[];
  /** The environment `\setenv` set (null: not known), for `\getenv`. */
  env: Map<string, string | null>;
  /** How deep in `\if` it is (a variable set there may or may not be). */
  branch: number;
  /** How many files `\i` read to get here. */
  files: number;
  /** The directory of the file being read (`\ir`), null for its input or `-c`. */
  dir: string | null;
}

/** A meta-command's argument: its text as psql makes it, and whether that is known. */
interface Arg {
  text: string;
  known: boolean;
}

const SPACE = /[ \t\n\r\f\v]/;
const VARIABLE =
  /^:(?:([\w\u0080-\uffff]+)|'([\w\u0080-\uffff]+)'|"([\w\u0080-\uffff]+)"|\{\?([\w\u0080-\uffff]+)\})/;
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", b: "\b", r: "\r", f: "\f" };

/** The runner where psql is now (after `\cd`). */
function here(p: Psql): Runner {
  return p.cwds === p.stage.cwds ? p.run : p.run.at(p.cwds);
}

/** A command not known, where psql is. */
function unknown(p: Psql, what: string): void {
  here(p).stage([unknownWord(`(${what})`)], p.origin);
}

/** A variable's value: undefined where it is not set (psql keeps `:name` as written). */
function lookup(p: Psql, name: string): string | null | undefined {
  if (p.vars.has(name)) return p.vars.get(name)!;
  // (psql sets its own, upper-case ones: the database's name, the host, the last error, …)
  if (p.loose.some((x) => name.startsWith(x)) || /^[A-Z][A-Z0-9_]*$/.test(name)) return null;
  return undefined;
}

/** Sets a variable (one set inside `\if` may or may not be: not known). */
function assign(p: Psql, name: string, value: string | null): void {
  p.vars.set(name, p.branch > 0 ? null : value);
}

/** SQL's quoting of a literal and of an identifier, as `:'name'` and `:"name"` put them in. */
const sqlLiteral = (v: string) =>
  v.includes("\\")
    ? ` E'${v.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`
    : `'${v.replace(/'/g, "''")}'`;
const sqlIdent = (v: string) => `"${v.replace(/"/g, '""')}"`;

/** Shell text psql runs, where it is. */
function shell(p: Psql, text: Word): void {
  here(p).shell(text, p.origin);
}

/** A backquoted command: its `:name` and `:'name'` put in (as a shell word), then run. */
function backquoted(p: Psql, body: string): void {
  let known = true;
  const cmd = body.replace(/:(?:([\w\u0080-\uffff]+)|'([\w\u0080-\uffff]+)')/g, (all, a, b) => {
    const v = lookup(p, a ?? b);
    if (v === null) known = false;
    return v === undefined || v === null ? all : a !== undefined ? v : shellQuote(v);
  });
  shell(p, known ? literal(cmd) : unknownWord(`(the command \`${body}\`)`));
}

/** A single-quoted part from `at` (after its quote): its text and where it ends, -1 if open. */
function quoted(line: string, at: number): [string, number] {
  let text = "";
  let i = at;
  while (i < line.length) {
    const c = line[i];
    if (c === "'" && line[i + 1] === "'") [text, i] = [text + "'", i + 2];
    else if (c === "'") return [text, i + 1];
    else if (c === "\\" && i + 1 < line.length) {
      const next = line.slice(i + 1, i + 4);
      const oct = /^[0-7]{1,3}/.exec(next);
      const hex = /^x([0-9A-Fa-f]{1,2})/.exec(next);
      if (ESCAPES[line[i + 1]]) [text, i] = [text + ESCAPES[line[i + 1]], i + 2];
      else if (oct) {
        [text, i] = [text + String.fromCharCode(parseInt(oct[0], 8) & 255), i + 1 + oct[0].length];
      } else if (hex) {
        [text, i] = [text + String.fromCharCode(parseInt(hex[1], 16)), i + 1 + hex[0].length];
      } else [text, i] = [text + line[i + 1], i + 2];
    } else [text, i] = [text + c, i + 1];
  }
  return [text, -1];
}

/**
 * The next argument of a meta-command from `at`, and where it ends; null at the end of the
 * command (the line's end, or an unquoted backslash). `pipe`: `|cmd` takes the rest of the line.
 */
function nextArg(p: Psql, line: string, at: number, pipe = false): [Arg | null, number] {
  let i = at;
  while (i < line.length && SPACE.test(line[i])) i++;
  if (i >= line.length || line[i] === "\\") return [null, i];
  if (pipe && line[i] === "|") return [{ text: line.slice(i), known: true }, line.length];
  const arg: Arg = { text: "", known: true };
  while (i < line.length && !SPACE.test(line[i]) && line[i] !== "\\") {
    const c = line[i];
    const v = c === ":" ? VARIABLE.exec(line.slice(i)) : null;
    if (c === "'") {
      const [text, end] = quoted(line, i + 1);
      arg.text += text;
      if (end < 0) arg.known = false;
      i = end < 0 ? line.length : end;
    } else if (c === "`" || c === '"') {
      const end = line.indexOf(c, i + 1);
      const body = line.slice(i + 1, end < 0 ? line.length : end);
      if (c === "`") backquoted(p, body);
      else arg.text += `"${body}"`;
      if (c === "`" || end < 0) arg.known = false;
      i = end < 0 ? line.length : end + 1;
    } else if (v) {
      const value = lookup(p, v[1] ?? v[2] ?? v[3] ?? v[4]);
      if (value === null) arg.known = false;
      else if (v[4] !== undefined) arg.text += value === undefined ? "FALSE" : "TRUE";
      else if (value === undefined) arg.text += v[0];
      else arg.text += v[1] ? value : v[2] ? sqlLiteral(value) : sqlIdent(value);
      i += v[0].length;
    } else [arg.text, i] = [arg.text + c, i + 1];
  }
  return [arg, i];
}

/** Every argument left of a meta-command, and where they end. */
function restArgs(p: Psql, line: string, at: number): [Arg[], number] {
  const out: Arg[] = [];
  let [arg, i] = nextArg(p, line, at);
  for (; arg; [arg, i] = nextArg(p, line, i)) out.push(arg);
  return [out, i];
}

/** A file a meta-command opens (`~` is the home directory; `~user` not known). */
function opens(p: Psql, arg: Arg | undefined): void {
  if (!arg) return;
  if (!arg.known || /^~[^/]/.test(arg.text)) unknown(p, `a file psql opens: ${arg.text}`);
  else opensFile(arg.text, here(p), p.origin);
}

/**
 * `\o`, `\g`, `\w` and kin from `at`: `|cmd` runs the rest of the line, else the file is written;
 * where their arguments end.
 */
function output(p: Psql, cmd: string, line: string, at: number): number {
  let [arg, i] = nextArg(p, line, at, true);
  // (`\g (format=csv) |cmd`: options in parentheses come first.)
  if (/^gx?$/.test(cmd) && arg?.known && arg.text.startsWith("(")) {
    while (arg && !arg.text.endsWith(")")) [arg, i] = nextArg(p, line, i);
    [arg, i] = nextArg(p, line, i, true);
  }
  if (arg?.known && arg.text.startsWith("|")) shell(p, literal(arg.text.slice(1)));
  else opens(p, arg ?? undefined);
  return restArgs(p, line, i)[1];
}

/** `\copy`'s source or destination: `program 'cmd'`, a file, or psql's own streams. */
function copyLine(p: Psql, rest: string): void {
  // (Every `from`/`to`: a query in parentheses may hold more of them.)
  for (const m of rest.matchAll(/\b(?:from|to)\s+(?:(program)\s+)?('(?:[^']|'')*'?|[^\s;]+)/gi)) {
    const [, program, word] = m;
    const text = word.startsWith("'") ? word.slice(1, -1).replace(/''/g, "'") : word;
    if (program && word.startsWith("'")) shell(p, literal(text));
    else if (program) unknown(p, `the program ${word}`);
    else if (!/^(stdin|stdout|pstdin|pstdout)$/i.test(word)) opens(p, { text, known: true });
  }
}

/** `\setenv NAME VALUE`: what the variable makes the programs psql runs do. */
function setenv(p: Psql, [name, value]: Arg[]): void {
  if (!name) return;
  if (!name.known) {
    if (value) unknown(p, `the variable \\setenv ${name.text} sets`);
    return;
  }
  const n = name.text;
  p.env.set(n, value?.known ? value.text : value ? null : "");
  if (!value || (value.known && value.text === "")) return;
  if (n === "SHELL" || n === "PSQL_EDITOR_LINENUMBER_ARG") {
    // (`\!` alone runs `exec $SHELL`; `\e F 3` runs `exec EDITOR ARG3 'F'`.)
    const text = n === "SHELL" ? value.text : `: ${value.text}1`;
    shell(p, value.known ? literal(text) : unknownWord(`(the ${n} \\setenv sets)`));
  } else {
    const word = value.known
      ? literal(`${n}=${value.text}`)
      : { ...unknownWord(`${n}=(a value not known)`), prefix: `${n}=` };
    here(p).environment([word]);
  }
}

/** `\cd DIR` (alone: the home directory). */
function cd(p: Psql, dir: Arg | undefined): void {
  const home = p.run.home(null);
  const text = dir?.text ?? "~";
  const path = text === "~" || text.startsWith("~/") ? (home ? home + text.slice(1) : null) : text;
  p.cwds = (dir && !dir.known) || path === null || /^~/.test(path)
    ? [null]
    : chdir(p.cwds, literal(path));
}

/** `\i F`, `\ir F`: F's commands, read as they will be (where psql started), else not known. */
function include(p: Psql, file: Arg | undefined, relative: boolean): void {
  if (!file) return;
  opens(p, file);
  const path = relative && p.dir && !isAbsolute(file.text) ? join(p.dir, file.text) : file.text;
  if (!file.known || p.files > 3 || p.cwds !== p.stage.cwds || /^~/.test(path)) {
    unknown(p, `the commands of ${file.text}`);
    p.loose.push("");
    return;
  }
  const inner: Psql = { ...p, files: p.files + 1, dir: dirname(path) };
  fileCommands(literal(path), p.run, p.origin, (t) => script(inner, t));
  Object.assign(p, { cwds: inner.cwds, loose: inner.loose, branch: inner.branch });
}

/** The variable commands: `\set`, `\unset`, `\getenv`, `\prompt`, `\gset`. */
function variables(p: Psql, cmd: string, args: Arg[]): void {
  const [name] = args;
  if (cmd === "gset") {
    const prefix = name?.known ? name.text : "";
    for (const k of p.vars.keys()) if (k.startsWith(prefix)) p.vars.delete(k);
    p.loose.push(prefix);
  } else if (name && !name.known) p.loose.push("");
  else if (cmd === "set" && name) {
    const values = args.slice(1);
    assign(p, name.text, values.every((a) => a.known) ? values.map((a) => a.text).join("") : null);
  } else if (cmd === "unset" && name) {
    if (p.branch > 0) p.vars.set(name.text, null);
    else p.vars.delete(name.text);
  } else if (cmd === "getenv" && name && args[1]) {
    const env = args[1].known ? (p.env.get(args[1].text) ?? p.run.variable(args[1].text)) : null;
    assign(p, name.text, env ?? null);
  } else if (cmd === "prompt" && args.length) {
    const last = args[args.length - 1];
    if (last.known) assign(p, last.text, null);
    else p.loose.push("");
  }
}

/** Meta-commands whose argument is the rest of the line as written. */
const WHOLE_LINE = new Set(["!", "copy", "ef", "ev", "h", "help", "sf", "sf+", "sv", "sv+"]);
/** Meta-commands whose argument may be `|cmd`, else a file written. */
const OUTPUT = new Set(["o", "out", "g", "gx", "w", "write"]);

/**
 * One meta-command, its name from `at` (after the backslash): what it runs and opens; where its
 * arguments end.
 */
function meta(p: Psql, line: string, at: number): number {
  let end = at;
  while (end < line.length && !SPACE.test(line[end]) && line[end] !== "\\") end++;
  let cmd = line.slice(at, end);
  // (`\!cmd`: older psql ran it; psql 15 calls it no command. Judged as run.)
  if (cmd.startsWith("!") && cmd.length > 1) [cmd, end] = ["!", at + 1];
  if (!cmd) return end;
  if (WHOLE_LINE.has(cmd)) {
    const rest = line.slice(end).replace(/^\s+/, "");
    if (cmd === "!") {
      if (rest.trim()) shell(p, literal(rest));
      else unknown(p, "an interactive shell");
    } else if (cmd === "copy") copyLine(p, rest);
    return line.length;
  }
  if (OUTPUT.has(cmd)) return output(p, cmd, line, end);
  const [args, after] = restArgs(p, line, end);
  if (cmd === "s") opens(p, args[0]);
  else if (cmd === "lo_import") opens(p, args[0]);
  else if (cmd === "lo_export") opens(p, args[1]);
  else if (cmd === "setenv") setenv(p, args);
  else if (cmd === "cd") cd(p, args[0]);
  else if (/^(i|include|ir|include_relative)$/.test(cmd)) include(p, args[0], /r/.test(cmd));
  else if (/^(set|unset|getenv|prompt|gset)$/.test(cmd)) variables(p, cmd, args);
  else if (cmd === "if") p.branch++;
  else if (cmd === "endif") p.branch = Math.max(0, p.branch - 1);
  else if ((cmd === "e" || cmd === "edit") && args[0] && !/^\d+$/.test(args[0].text)) {
    // The file is edited, then what it holds runs as the query buffer.
    opens(p, args[0]);
    unknown(p, `the commands of ${args[0].text} once edited`);
  }
  return after;
}

/** SQL's `COPY … PROGRAM 'cmd'` (run by the server, which may be this machine). */
function sqlPrograms(p: Psql, text: string): void {
  for (const m of text.matchAll(/\bprogram\s+(?:'((?:[^']|'')*)'|(\S+))/gi)) {
    if (m[1] !== undefined) shell(p, literal(m[1].replace(/''/g, "'")));
    else unknown(p, `the program ${m[2]}`);
  }
}

/** A line of a script: every meta-command in it (and SQL's programs). */
function scriptLine(p: Psql, line: string): void {
  sqlPrograms(p, line);
  for (let i = line.indexOf("\\"); i >= 0; i = line.indexOf("\\", i)) {
    i = meta(p, line, i + 1);
  }
}

/** A script (`-f F`, its input, a file `\i` reads): line by line. */
function script(p: Psql, text: string): void {
  for (const line of text.split("\n")) scriptLine(p, line);
}

/** `-c TEXT`: one meta-command when it starts with a backslash (the whole text its line), else SQL. */
function commandText(p: Psql, text: string): void {
  if (text.startsWith("\\")) meta(p, text, 1);
  else sqlPrograms(p, text);
}

/** psql's options that take a value. */
const PSQL_VALUED = "cdfhpUvLoFRPT";
const PSQL_LONG =
  /^--(command|dbname|file|host|port|username|set|variable|log-file|output|field-separator|record-separator|pset|table-attr)$/;

/** psql's options, each with its value (`-c TEXT`, `--file=F`). */
function psqlOptions(stage: Stage, run: Runner, origin: string): [string, Word][] {
  const args = stage.argv.slice(1);
  const out: [string, Word][] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (a.kind !== "static" && v.startsWith("-")) {
      run.stage([unknownWord(`(a psql option ${a.text})`)], origin);
      continue;
    }
    const eq = v.indexOf("=");
    if (v.startsWith("--") && PSQL_LONG.test(eq > 0 ? v.slice(0, eq) : v)) {
      const value = eq > 0 ? literal(v.slice(eq + 1)) : args[++i];
      if (value) out.push([eq > 0 ? v.slice(0, eq) : v, value]);
    } else if (/^-[A-Za-z]/.test(v) && !v.startsWith("--")) {
      const at = [...v.slice(1)].findIndex((c) => PSQL_VALUED.includes(c));
      const value = at < 0 ? undefined : v.length > at + 2 ? literal(v.slice(at + 2)) : args[++i];
      if (value) out.push([`-${v[at + 1]}`, value]);
    }
  }
  return out;
}

/**
 * What psql runs: its `-v` variables set first, then its `-c` texts and `-f` files in order (else
 * its input), sharing its variables, environment and cwd; `-o |cmd`.
 */
function psqlRuns(stage: Stage, run: Runner): void {
  const origin = "psql command";
  const p: Psql = {
    run,
    stage,
    origin,
    cwds: stage.cwds,
    vars: new Map(),
    loose: [],
    env: new Map(),
    branch: 0,
    files: 0,
    dir: null,
  };
  const options = psqlOptions(stage, run, origin);
  for (const [opt, value] of options) {
    if (!/^(-v|--set|--variable)$/.test(opt)) continue;
    const eq = value.value.indexOf("=");
    if (eq < 0) continue;
    const name = value.value.slice(0, eq);
    if (value.kind === "static") p.vars.set(name, value.value.slice(eq + 1));
    else if (value.prefix.includes("=")) p.vars.set(name, null);
    else p.loose.push("");
  }
  let given = false;
  for (const [opt, value] of options) {
    if (opt === "-c" || opt === "--command") {
      given = true;
      each(value, run, origin, (t) => commandText(p, t));
    } else if (opt === "-f" || opt === "--file") {
      given = true;
      if (value.value === "-") input(stage, run, origin, (t) => script(p, t));
      else if (value.value !== "/dev/null") {
        const inner = { ...p, dir: dirname(value.value) };
        fileCommands(value, run, origin, (t) => script(inner, t));
        Object.assign(p, { cwds: inner.cwds, loose: inner.loose, branch: inner.branch });
      }
    } else if ((opt === "-o" || opt === "--output") && value.value.startsWith("|")) {
      run.shell(value.kind === "static" ? literal(value.value.slice(1)) : value, origin);
    }
  }
  if (!given) input(stage, run, origin, (t) => script(p, t));
}

/** psql. */
export const PSQL: Program = { names: ["psql"], optionCommands: psqlRuns, namedFiles: libpqFiles };
