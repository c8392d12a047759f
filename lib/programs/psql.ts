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
 * directory; after `\cd DIR`, below DIR), as are those a connection string or URI `\c`/`\connect`
 * names (libpq.ts); the commands of a file `\i` reads are read as they will
 * be, unless psql may have written a file before it reads it (`\o F`, `\g F`, `\w F`, `\s F`,
 * `\copy … to F`, `\lo_export`, `-o F`, `-L F`, a command it runs): that one may be it (by name or
 * link) and its commands are not known. `-c TEXT` is one meta-command when it starts with `\` (its
 * arguments may span lines), else SQL only; a script (`-f F`, a here-document, a pipe) runs every
 * meta-command of each line (a backslash inside SQL's quotes is taken as one too), and its SQL is
 * read as PostgreSQL reads it (psql_sql.ts): what the server runs and opens is judged as this
 * machine's where its host may be this one (psql_hosts.ts: not `-h db.example.com`, until a
 * `\c` to another), `\gexec` runs SQL not known.
 * A value not known where it is run or names a file is a command not known. Long options are
 * taken as getopt_long takes them: any unambiguous prefix (`--comm`).
 *
 * @module
 */
import { dirname, isAbsolute, join } from "node:path";
import type { Stage, Word } from "../shell/model.ts";
import { shellQuote } from "../shell/words.ts";
import { each, fileCommands, input } from "./databases.ts";
import { connectionOpens, libpqFiles, libpqServerOptions } from "./libpq.ts";
import { isLong, type OptionGrammar, readOptions } from "./argv.ts";
import type { Program, Runner } from "./spec.ts";
import { chdir, literal, opensFile, unknownWord } from "./words.ts";
import { analyse, type SqlEffects, SqlReader } from "./psql_sql.ts";
import {
  commandTarget,
  type Env,
  reconnect,
  startEnv,
  type Target,
  targetElsewhere,
} from "./psql_hosts.ts";

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
  /**
   * Whether psql may have written a file by now (`\o F`, `\g F`, `\copy … to F`, `\!`, …): a
   * file it then reads for commands (`\i F`, `-f F`) may be one it wrote (by its name or through
   * a link), so its commands are not known.
   */
  wrote: boolean;
  /**
   * The server is surely another machine (psql_hosts.ts), as the connection now is (`\c` moves
   * it): what its SQL runs and opens there is none of this machine's. Shared with the files `\i`
   * reads.
   */
  server: Server;
}

/** Where psql's connection is (psql_hosts.ts), shared with the files `\i` reads. */
interface Server {
  /** The server is surely another machine. */
  elsewhere: boolean;
  /** Where the connection goes (null: not known). */
  target: Target | null;
  /** The environment psql started with. */
  env: Env;
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

/** A command not known, where psql is (it may write anything). */
function unknown(p: Psql, what: string): void {
  p.wrote = true;
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

/** Shell text psql runs, where it is (it may write anything). */
function shell(p: Psql, text: Word): void {
  p.wrote = true;
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

/** The devices psql may write that hold no file it may read back. */
const NO_FILE = /^\/dev\/(null|stdout|stderr|tty)$/;

/** A file a meta-command writes (`\o F`, `\copy … to F`): opened, and psql has written. */
function writes(p: Psql, arg: Arg | undefined): void {
  if (!arg) return;
  if (!arg.known || !NO_FILE.test(arg.text)) p.wrote = true;
  opens(p, arg);
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
  else writes(p, arg ?? undefined);
  return restArgs(p, line, i)[1];
}

/**
 * `\copy`'s source or destination, read as psql's parse_slash_copy (copy.c) reads it: the table
 * (`binary`, `schema.table`, a column list) or a query in parentheses (its quotes followed both
 * ways: with backslash escapes and without), then `from` or `to`, then one word: `program
 * 'cmd'`, `stdin`, `stdout`, `pstdin`, `pstdout`, or a file (its single quotes taken off; a word
 * not quoted ends at a blank, `;` or a quote: `.env'x` is `.env`). psql opens nothing where it
 * cannot parse it.
 */
function copyLine(p: Psql, rest: string): void {
  const seen = new Set<string>();
  for (const escape of rest.includes("\\") ? ["", "\\"] : [""]) {
    const t = copyTarget(rest, escape);
    if (!t || seen.has(t.join("\n"))) continue;
    seen.add(t.join("\n"));
    const [direction, word, cmd] = t;
    if (cmd !== null) shell(p, literal(cmd));
    else if (/^(stdin|stdout|pstdin|pstdout)$/i.test(word)) continue;
    else if (direction === "from") opens(p, { text: stripQuotes(word), known: true });
    else writes(p, { text: stripQuotes(word), known: true });
  }
}

/** The blanks psql's `\copy` splits at. */
const COPY_SPACE = " \t\n\r";

/**
 * psql's strtokx from `at`: the next token (a `delim` character alone, a quoted token with its
 * quotes, or the text up to a blank, a `delim` or a quote) and where it ends; null at the end.
 */
function strtokx(
  s: string,
  at: number,
  delim: string,
  quote: string,
  escape = "",
): [string | null, number] {
  let i = at;
  while (i < s.length && COPY_SPACE.includes(s[i])) i++;
  if (i >= s.length) return [null, i];
  const c = s[i];
  if (delim.includes(c)) return [c, i + 1];
  let end = i + 1;
  if (quote.includes(c)) {
    for (; end < s.length; end++) {
      if (escape && s[end] === escape && end + 1 < s.length) end++;
      else if (s[end] === c && s[end + 1] === c) end++;
      else if (s[end] === c) {
        end++;
        break;
      }
    }
  } else {
    const stops = COPY_SPACE + delim + quote;
    while (end < s.length && !stops.includes(s[end])) end++;
  }
  return [s.slice(i, end), end];
}

/** psql's strip_quotes of a word that may be `'`-quoted (`''` is `'`). */
function stripQuotes(word: string): string {
  if (!word.startsWith("'")) return word;
  const body = word.length > 1 && word.endsWith("'") ? word.slice(1, -1) : word.slice(1);
  return body.replace(/''/g, "'");
}

/**
 * What `\copy ARGS` reads or writes: `from` or `to`, the word after it, and the program's
 * command (null for a file or stream); null where psql does not parse it.
 */
function copyTarget(args: string, escape: string): [string, string, string | null] | null {
  const next = (at: number, delim = ".,()", quote = '"') => strtokx(args, at, delim, quote);
  let [tok, i] = next(0);
  if (tok?.toLowerCase() === "binary") [tok, i] = next(i);
  // (A query: to its closing parenthesis, its quotes followed.)
  for (let depth = tok === "(" ? 1 : 0; depth > 0;) {
    [tok, i] = strtokx(args, i, "()", "\"'", escape);
    if (tok === null) return null;
    depth += tok === "(" ? 1 : tok === ")" ? -1 : 0;
  }
  if (tok === null) return null;
  [tok, i] = next(i);
  if (tok === ".") {
    [, i] = next(i);
    [tok, i] = next(i);
  }
  if (tok === "(") {
    while (tok !== null && tok !== ")") [tok, i] = next(i, "()");
    [tok, i] = next(i);
  }
  const direction = tok?.toLowerCase() ?? "";
  if (direction !== "from" && direction !== "to") return null;
  let word: string | null;
  [word, i] = next(i, ";", "'");
  if (word === null) return null;
  if (word.toLowerCase() !== "program") return [direction, word, null];
  [word] = next(i, ";", "'");
  if (!word || word.length < 2 || !word.startsWith("'") || !word.endsWith("'")) return null;
  return [direction, word, stripQuotes(word)];
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
  // (The pager, the editor or a program `\!` runs may write anything.)
  p.wrote = true;
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

/**
 * `\c`, `\connect [-reuse-previous=on|off] [CONN | DB [USER] [HOST] [PORT]]`: a new connection,
 * where psql_hosts.ts's `reconnect` says (the previous one's parameters reused or libpq's
 * defaults, the environment `\setenv` left). Its first argument (its double quotes taken off, as psql takes an identifier's) may be a
 * connection string or URI: the files it names, and its service's, are opened (`PGSERVICE`,
 * `PGSERVICEFILE`, `PGSYSCONFDIR` as `\setenv` set them, else as psql found them; libpq.ts). The
 * positional forms name none. (The files `\setenv PGSSLKEY F` and kin name are judged where set.)
 */
function connect(p: Psql, args: Arg[]): void {
  const given = args.map((a) => ({ ...a, text: unquoteIdentifier(a.text) }));
  const reuse = given[0]?.known && given[0].text.startsWith("-reuse-previous=");
  const conn = reuse ? given[1] : given[0];
  const target = reconnect(p.server.target, given, (name) => {
    if (!p.env.has(name)) return p.server.env(name);
    const v = p.env.get(name);
    return v === "" ? undefined : v;
  });
  if (target !== "same") {
    p.server.target = target;
    p.server.elsewhere = targetElsewhere(target, p.run);
  }
  if (!conn) return;
  const origin = "psql \\connect";
  if (!conn.known) {
    here(p).stage(
      [literal(`(${origin} opens)`), unknownWord(`(the files ${conn.text} names)`)],
      origin,
    );
    return;
  }
  const variable = (name: string) => p.env.has(name) ? p.env.get(name) : assigned(p, name);
  connectionOpens(conn.text, variable("PGSERVICE"), here(p), origin, variable);
}

/** A `\c` argument's double quotes taken off, as psql takes an identifier's (`""` is `"`). */
function unquoteIdentifier(text: string): string {
  return text.replace(/"((?:[^"]|"")*)"/g, (_, t: string) => t.replace(/""/g, '"'));
}

/** A variable as psql found it: set before it (null: not known), else the environment's. */
function assigned(p: Psql, name: string): string | null | undefined {
  const a = p.stage.assignments?.findLast((w) => w.value.startsWith(`${name}=`));
  if (!a) return p.run.variable(name);
  return a.kind === "static" ? a.value.slice(name.length + 1) : null;
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
  if (!file.known || p.wrote || p.files > 3 || p.cwds !== p.stage.cwds || /^~/.test(path)) {
    unknown(p, `the commands of ${file.text}`);
    p.loose.push("");
    return;
  }
  const inner: Psql = { ...p, files: p.files + 1, dir: dirname(path) };
  fileCommands(literal(path), p.run, p.origin, (t) => script(inner, t));
  Object.assign(p, {
    cwds: inner.cwds,
    loose: inner.loose,
    branch: inner.branch,
    wrote: inner.wrote,
  });
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
  if (cmd === "s") writes(p, args[0]);
  else if (cmd === "lo_import") opens(p, args[0]);
  else if (cmd === "lo_export") writes(p, args[1]);
  else if (cmd === "setenv") setenv(p, args);
  else if (cmd === "cd") cd(p, args[0]);
  else if (cmd === "c" || cmd === "connect") connect(p, args);
  else if (/^(i|include|ir|include_relative)$/.test(cmd)) include(p, args[0], /r/.test(cmd));
  else if (/^(set|unset|getenv|prompt|gset)$/.test(cmd)) variables(p, cmd, args);
  else if (cmd === "gexec") unknown(p, "the SQL \\gexec runs");
  else if (cmd === "if") p.branch++;
  else if (cmd === "endif") p.branch = Math.max(0, p.branch - 1);
  else if ((cmd === "e" || cmd === "edit") && args[0] && !/^\d+$/.test(args[0].text)) {
    // The file is edited, then what it holds runs as the query buffer.
    opens(p, args[0]);
    unknown(p, `the commands of ${args[0].text} once edited`);
  }
  return after;
}

/**
 * What the server does on its machine, taken as this one (a host name may be this machine's):
 * the commands it runs, the files it opens, SQL the gate cannot read (psql_sql.ts). A file it
 * writes, a command or SQL not known may be a file `\\i` reads after it. None where the server is
 * surely another machine.
 */
function serverEffects(p: Psql): SqlEffects {
  const origin = "the database server";
  return {
    program(command) {
      if (p.server.elsewhere) return;
      p.wrote = true;
      here(p).shell(
        command === null ? unknownWord("(a program not known)") : literal(command),
        origin,
      );
    },
    file(path, write) {
      if (p.server.elsewhere) return;
      p.wrote ||= write || path === null;
      if (path === null) here(p).stage([unknownWord("(a file the server opens)")], origin);
      else opensFile(path, here(p), origin);
    },
    dynamic(what) {
      if (p.server.elsewhere) return;
      p.wrote = true;
      here(p).stage([unknownWord(`(what ${what} runs)`)], origin);
    },
  };
}

/** A reader of psql's SQL: its variables put in, its meta-commands run where they stand. */
function sqlReader(p: Psql, meta?: (line: string, at: number) => number): SqlReader {
  const effects = serverEffects(p);
  const variable = meta && ((name: string) => lookup(p, name));
  return new SqlReader((t) => analyse(t, effects), variable, meta);
}

/** A script (`-f F`, its input, a file `\\i` reads): its SQL and meta-commands, in order. */
function script(p: Psql, text: string): void {
  const reader = sqlReader(p, (line, at) => meta(p, line, at));
  for (const line of text.split("\n")) {
    reader.feed(line);
    reader.feed("\n");
  }
  reader.end();
}

/** `-c TEXT`: one meta-command when it starts with a backslash (the whole text its line), else SQL. */
function commandText(p: Psql, text: string): void {
  if (text.startsWith("\\")) return void meta(p, text, 1);
  const reader = sqlReader(p);
  reader.feed(text);
  reader.end();
}

/** psql's short options that take a value (startup.c's getopt_long string). */
const PSQL_VALUED = "cdfhpUvLoFRPT";

/** psql's long options (startup.c's long_options): each one's short letter, and whether valued. */
// deno-fmt-ignore
const PSQL_LONG: Record<string, [string, boolean]> = {
  "echo-all": ["a", false], "no-align": ["A", false], command: ["c", true], dbname: ["d", true],
  "echo-queries": ["e", false], "echo-errors": ["b", false], "echo-hidden": ["E", false],
  file: ["f", true], "field-separator": ["F", true], "field-separator-zero": ["z", false],
  host: ["h", true], html: ["H", false], list: ["l", false], "log-file": ["L", true],
  "no-readline": ["n", false], "single-transaction": ["1", false], output: ["o", true],
  port: ["p", true], pset: ["P", true], quiet: ["q", false], "record-separator": ["R", true],
  "record-separator-zero": ["0", false], "single-step": ["s", false],
  "single-line": ["S", false], "tuples-only": ["t", false], "table-attr": ["T", true],
  username: ["U", true], set: ["v", true], variable: ["v", true], version: ["V", false],
  "no-password": ["w", false], password: ["W", false], expanded: ["x", false],
  "no-psqlrc": ["X", false], help: ["?", false], csv: ["csv", false],
};

/**
 * psql's options as getopt_long reads them: its long options are all listed, so any prefix of
 * one name is that option (`--comm TEXT`); a prefix of two (`--s`) is none.
 */
const PSQL_OPTIONS: OptionGrammar = {
  valued: PSQL_VALUED,
  longFlags: new Set(Object.keys(PSQL_LONG).filter((k) => !PSQL_LONG[k][1]).map((k) => `--${k}`)),
  longValued: new Set(Object.keys(PSQL_LONG).filter((k) => PSQL_LONG[k][1]).map((k) => `--${k}`)),
  abbreviations: "all",
};

/** The flags `psqlOptions` gives (with no value): those that keep psql from its startup files. */
const FLAGS_KEPT = ["X", "l", "V", "?"];
const NO_VALUE = literal("");

/**
 * psql's options, each with its value (`-c TEXT`, `--file=F`, `--comm TEXT`), by short name; its
 * operands (the database, the user) with the name "".
 */
function psqlOptions(stage: Stage, run: Runner, origin: string): [string, Word][] {
  const args = stage.argv.slice(1);
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  const out: [string, Word][] = [];
  for (const t of readOptions(values, PSQL_OPTIONS)) {
    if (t.kind === "dynamic") {
      const a = args[t.at];
      if (a.kind !== "static" && a.prefix.startsWith("-")) {
        run.stage([unknownWord(`(a psql option ${a.text})`)], origin);
      }
    } else if (t.ambiguous) {
      run.stage([unknownWord(`(the psql option ${args[t.at].value})`)], origin);
    } else if (t.kind === "valued") {
      const value = t.glued !== undefined
        ? literal(t.glued)
        : t.valueAt === undefined
        ? undefined
        : args[t.valueAt];
      const short = isLong(t) ? PSQL_LONG[t.name.slice(2)][0] : t.name.slice(1);
      if (value) out.push([`-${short}`, value]);
    } else if (t.kind === "flag") {
      const short = isLong(t) ? PSQL_LONG[t.name.slice(2)]?.[0] : t.name.slice(1);
      if (short && FLAGS_KEPT.includes(short)) out.push([`-${short}`, NO_VALUE]);
    } else if (t.kind === "operand") out.push(["", args[t.at]]);
  }
  return out;
}

/**
 * `-f F`: F's commands, read as they will be, where psql wrote no file before (`output`: what
 * runs writes a file, `-o F`).
 */
function fileScript(p: Psql, file: Word, output: boolean): void {
  if (p.wrote) return unknown(p, `the commands of ${file.text}`);
  let read = false;
  const inner = { ...p, dir: dirname(file.value), wrote: output };
  fileCommands(file, p.run, p.origin, (t) => {
    read = true;
    script(inner, t);
  });
  Object.assign(p, { cwds: inner.cwds, loose: inner.loose, branch: inner.branch });
  p.wrote = inner.wrote || !read;
}

/**
 * psql's startup files (psql(1) "Files"), read before its `-c` texts and `-f` files as a script
 * (`\!`, `\setenv` then `\e`, `\i`, …), sharing its variables: the system-wide `psqlrc` (in
 * `$PGSYSCONFDIR`, else the directory psql was built with: Debian's `/etc/postgresql-common`,
 * the source's `/usr/local/pgsql/etc`), then the user's (`$PSQLRC`, `~` expanded, else
 * `~/.psqlrc`); each may be named for a version, full or major (`~/.psqlrc-15.18`,
 * `~/.psqlrc-16`, which that version reads instead, startup.c): the version is not known here,
 * so every `FILE-*` there is read. One not known (another stage may write it or one named so,
 * no home) is a command not known; none there runs nothing. (A `PSQLRC=` the command sets is judged as a
 * variable that brings in commands, env.ts.)
 */
function startupFiles(p: Psql): void {
  const { run } = p;
  const home = run.home(null);
  const conf = run.variable("PGSYSCONFDIR");
  const system = conf ? [conf] : ["/etc/postgresql-common", "/usr/local/pgsql/etc"];
  const named = run.variable("PSQLRC");
  const user = named
    ? (named === "~" || named.startsWith("~/")
      ? (home === null ? null : home + named.slice(1))
      : named)
    : home === null
    ? null
    : `${home}/.psqlrc`;
  const files = [...system.map((d) => `${d}/psqlrc`), user];
  for (const base of files) {
    const at = base === null || isAbsolute(base)
      ? base
      : p.cwds.length === 1 && p.cwds[0] !== null
      ? join(p.cwds[0], base)
      : null;
    const named = at === null ? null : run.named(`${at}-`);
    for (const path of named === null ? [null] : [at!, ...named]) {
      const text = path === null ? null : run.settings(path);
      if (text === null) {
        unknown(p, `the commands of ${path ?? "~/.psqlrc"}`);
        return;
      }
      if (!text) continue;
      // (What it sets, where it goes with `\cd`, what it writes: the session's from then on.)
      const inner = { ...p, dir: dirname(path!) };
      script(inner, text);
      Object.assign(p, { cwds: inner.cwds, loose: inner.loose, branch: inner.branch });
      p.wrote ||= inner.wrote;
    }
  }
}

/**
 * What psql runs: its `-v` variables set first, then its `-c` texts and `-f` files in order (else
 * its input), sharing its variables, environment and cwd; `-o |cmd`. Where `-o F` or `-L F` is
 * given, what runs writes F: a file read for commands after the first is not known.
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
    wrote: false,
    server: { elsewhere: false, target: null, env: startEnv(stage, run) },
  };
  const options = psqlOptions(stage, run, origin);
  p.server.target = commandTarget(options, p.server.env);
  p.server.elsewhere = targetElsewhere(p.server.target, run);
  // (Settings that load code on the server, judged wherever it is, as for every libpq client.)
  libpqServerOptions(stage, run, origin);
  let output = false;
  for (const [opt, value] of options) {
    if (opt === "-o" && value.value.startsWith("|")) {
      p.wrote = true;
      run.shell(value.kind === "static" ? literal(value.value.slice(1)) : value, origin);
    } else if (opt === "-o" || opt === "-L") {
      output ||= value.kind !== "static" || !NO_FILE.test(value.value);
    }
    if (opt !== "-v") continue;
    const eq = value.value.indexOf("=");
    if (eq < 0) continue;
    const name = value.value.slice(0, eq);
    if (value.kind === "static") p.vars.set(name, value.value.slice(eq + 1));
    else if (value.prefix.includes("=")) p.vars.set(name, null);
    else p.loose.push("");
  }
  // (`-X` skips the startup files; `-l`, `-V`, `--help` end before psql reads them.)
  if (!options.some(([o]) => FLAGS_KEPT.includes(o.slice(1)))) startupFiles(p);
  let given = false;
  for (const [opt, value] of options) {
    if (opt === "-c") {
      p.wrote ||= output;
      if (value.kind !== "static") p.wrote = true;
      each(value, run, origin, (t) => commandText(p, t));
    } else if (opt === "-f" && value.value === "-") {
      p.wrote ||= output;
      input(stage, run, origin, (t) => script(p, t));
    } else if (opt === "-f" && value.value !== "/dev/null") {
      fileScript(p, value, output);
    }
    given ||= opt === "-c" || opt === "-f";
  }
  p.wrote ||= output;
  if (!given) input(stage, run, origin, (t) => script(p, t));
}

/**
 * The words of psql's `-c TEXT` (`--command=TEXT`, `-cTEXT`): psql's own commands, SQL and
 * meta-commands (`\connect "my db"`, `\copy t to x`), which `psqlRuns` reads; no shell line.
 */
function commandWords(argv: Word[]): number[] {
  const values = argv.slice(1).map((a) => (a.kind === "static" ? a.value : null));
  const out: number[] = [];
  for (const t of readOptions(values, PSQL_OPTIONS)) {
    if (t.kind !== "valued" || (isLong(t) ? PSQL_LONG[t.name.slice(2)][0] : t.name[1]) !== "c") {
      continue;
    }
    const at = t.glued !== undefined ? t.at : t.valueAt;
    if (at !== undefined) out.push(at + 1);
  }
  return out;
}

/** psql. */
export const PSQL: Program = {
  names: ["psql"],
  optionCommands: psqlRuns,
  namedFiles: libpqFiles,
  text: commandWords,
};
