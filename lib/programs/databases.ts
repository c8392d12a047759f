/**
 * Database shells that run commands their input gives them: sqlite3's dot-commands (`.shell
 * cmd`, `.system cmd`, `.output |cmd`, `.once |cmd`, `.read |cmd`, `.import |cmd t`) in its SQL
 * operands, `-cmd` values or here-document; psql's meta-commands (psql.ts); mysql's and
 * mariadb's client commands (`system cmd`, `\! cmd`, `pager cmd`) in `-e` text and `--pager`.
 * Files of commands given on the command line (`sqlite3 -init f`, `psql -f f`, `mysql < f`, `cat f |
 * sqlite3 db`) are read as they will be when the command runs, and what `echo` or `printf` pipes
 * in as bash prints it (`piped_text.ts`); those their commands name (`.read f`,
 * `source f`), ones not read and native extensions (`.load`) are unknown stages; queries run
 * nothing.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { LIBPQ_PROGRAMS, libpqFiles, libpqRuns } from "./libpq.ts";
import { pipedTexts } from "./piped_text.ts";
import type { Program, Runner } from "./spec.ts";
import { literal, optionValue, programName, standardInput, unknownWord } from "./words.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";

/** What a stage's standard input holds for a program that reads commands from it. */
export function input(
  stage: Stage,
  run: Runner,
  origin: string,
  lines: (text: string) => void,
): void {
  const stdin = standardInput(stage);
  if (stdin.from === "nothing") return;
  const body = stdin.from === "document" ? stdin.redirect.body : undefined;
  // (A pipe from `echo`, `printf` or `cat` of what is known: its text, each way it may be.)
  const piped = stdin.from === "pipe" ? pipedTexts(stage, (path) => run.read(path)) : null;
  if (body?.kind === "static") lines(body.value);
  else if (piped) piped.forEach(lines);
  else {
    const file = stdin.from === "file" ? stdin.redirect.target : undefined;
    if (file) fileCommands(file, run, origin, lines);
    else run.stage([unknownWord("(commands of stdin)")], origin);
  }
}

/**
 * The commands a file holds (`psql -f schema.sql`, `sqlite3 db < schema.sql`): read as the file
 * will be when the command runs; unknown where that cannot be known (a word not known, a file
 * another stage writes, one not read).
 */
export function fileCommands(
  file: Word,
  run: Runner,
  origin: string,
  lines: (text: string) => void,
): void {
  const text = file.kind === "static" ? run.read(file.value) : null;
  if (text !== null) lines(text);
  else run.stage([unknownWord(`(the commands of ${file.text})`)], origin);
}

/**
 * A file a command of the language opens (`.import FILE`, `\\copy t from FILE`, `tee FILE`): a
 * stage that names it, judged where it lies (its program is no program a rule names).
 */
export function opens(file: string, run: Runner, origin: string): void {
  if (file && file !== "-" && !/^(stdin|stdout|pstdin|pstdout)$/i.test(file)) {
    run.stage([literal(`(${origin} opens)`), literal(file)], origin);
  }
}

/** A text of several commands, one word for each (unknown when the text is not static). */
export function each(text: Word, run: Runner, origin: string, read: (text: string) => void): void {
  if (text.kind !== "static") run.stage([unknownWord(`(the commands ${text.text})`)], origin);
  else read(text.value);
}

// ---------------------------------------------------------------------------------------------
// sqlite3

/** A dot-command's arguments, split and unquoted the way sqlite3's shell does. */
export function dotArgs(line: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"?|'([^']*)'?|(\S+))/g;
  for (let m = re.exec(line); m && m[0].trim() !== ""; m = re.exec(line)) {
    out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : m[2] ?? m[3]);
  }
  return out;
}

/** Whether `name` (as typed, maybe shortened) may be the dot-command `full`. */
const abbrev = (name: string, full: string) => name.length >= 2 && full.startsWith(name);

/** What one line of sqlite3 input runs (a dot-command, or SQL). */
function sqliteLine(line: string, run: Runner, origin: string): void {
  const t = line.trimStart();
  if (!t.startsWith(".")) {
    // SQL: edit() runs an editor (its second argument names it); load_extension() native code.
    if (/\b(edit|load_extension)\s*\(/i.test(t)) {
      run.stage([unknownWord(`(the SQL ${t})`)], origin);
    }
    // readfile() and writefile() open the file their first argument names; fsdir() reads the
    // tree below the one it names (names and contents).
    for (
      const m of t.matchAll(/\b(readfile|writefile|fsdir)\s*\(\s*('(?:[^']|'')*'|[^,)]*)/gi)
    ) {
      const arg = m[2].trim();
      // (A literal joined to more text, `'.e'||'nv'`, names a file not known.)
      const joined = /^\s*\|\|/.test(t.slice((m.index ?? 0) + m[0].length));
      if (arg.startsWith("'") && !joined) opens(arg.slice(1, -1).replace(/''/g, "'"), run, origin);
      else run.stage([unknownWord(`(a file the SQL ${m[1]}(${arg}) names)`)], origin);
    }
    // ATTACH opens (and creates) the database file it names.
    for (const m of t.matchAll(/\battach\s+(?:database\s+)?('(?:[^']|'')*'|[^\s;]+)/gi)) {
      const arg = m[1];
      const joined = /^\s*\|\|/.test(t.slice((m.index ?? 0) + m[0].length));
      if (arg.startsWith("'") && !joined && !/^'file:/i.test(arg)) {
        opens(arg.slice(1, -1).replace(/''/g, "'"), run, origin);
      } else run.stage([unknownWord(`(the database ATTACH ${arg} names)`)], origin);
    }
    return;
  }
  const [dot, ...args] = dotArgs(t);
  const name = dot.slice(1);
  const unknown = () => run.stage([unknownWord(`(the sqlite3 command ${t})`)], origin);
  if (abbrev(name, "shell") || abbrev(name, "system")) {
    // sqlite3 joins the arguments, each with a space in double quotes, and runs system().
    const cmd = args.map((a) => (a.includes(" ") ? `"${a}"` : a)).join(" ");
    run.shell(literal(cmd), origin);
  } else if (
    abbrev(name, "output") || abbrev(name, "once") || abbrev(name, "import") ||
    abbrev(name, "read") || abbrev(name, "excel")
  ) {
    // The `|cmd` argument (with the words after it: an unquoted command).
    const pipe = args.findIndex((a) => a.startsWith("|"));
    if (pipe >= 0) run.shell(literal(args.slice(pipe).join(" ").slice(1)), origin);
    else if (abbrev(name, "read")) unknown();
    else {
      // The file it writes or imports (`.import FILE TABLE`: the first word not an option).
      const files = args.filter((a) => !a.startsWith("-"));
      const file = abbrev(name, "import") ? files[0] : files[files.length - 1];
      if (file) opens(file, run, origin);
    }
  } else if (abbrev(name, "load") || name === "cd" || name === "ar" || abbrev(name, "archive")) {
    // (`.cd DIR` moves the shell: the paths of later commands are relative to a place not
    // followed here.)
    unknown();
  } else if (
    abbrev(name, "open") || abbrev(name, "backup") || abbrev(name, "save") ||
    abbrev(name, "restore") || abbrev(name, "log") || abbrev(name, "clone") ||
    abbrev(name, "trace")
  ) {
    const files = args.filter((a) => !a.startsWith("-"));
    if (files.length) opens(files[files.length - 1], run, origin);
  }
}

/** sqlite3's lines: every line of a text (a dot-command is a line of its own). */
function sqliteText(text: string, run: Runner, origin: string): void {
  for (const line of text.split("\n")) sqliteLine(line, run, origin);
}

/** sqlite3's options that take a value (one or two dashes), and those that take two. */
const SQLITE_VALUED =
  /^--?(cmd|init|separator|newline|nullvalue|vfs|mmap|maxsize|escape|pagecache|zipfile)$/;
const SQLITE_TWO = /^--?(lookaside|heap|pagecache)$/;

/** What sqlite3 runs: its `-cmd` values, its SQL operands, else its input; `-init` is unknown. */
function sqliteRuns(stage: Stage, run: Runner, origin = "sqlite3 command"): void {
  const args = stage.argv.slice(1);
  let operands = 0;
  let sql = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (a.kind !== "static" && v.startsWith("-")) {
      run.stage([unknownWord(`(a sqlite3 option ${a.text})`)], origin);
    } else if (/^--?cmd$/.test(v)) {
      if (args[i + 1]) each(args[++i], run, origin, (t) => sqliteText(t, run, origin));
    } else if (/^--?init$/.test(v)) {
      const f = args[++i];
      if (f && f.value !== "/dev/null") {
        fileCommands(f, run, origin, (t) => sqliteText(t, run, origin));
      }
    } else if (/^--?A|^--archive$/.test(v)) {
      // `-A ARGS`: an archive command, the rest its arguments: what it extracts or adds is named
      // by the archive or the tree (`-Axf a.sqlar` writes the members' names).
      run.stage([unknownWord(`(the sqlite3 archive command ${a.text})`)], origin);
      break;
    } else if (operands === 0 && /^file:/i.test(v) && /[%?]/.test(v)) {
      // (A URI database name: its path percent-decoded, its query may open it otherwise.)
      run.stage([unknownWord(`(the database ${a.text} names)`)], origin);
      operands++;
    } else if (SQLITE_TWO.test(v)) i += 2;
    else if (SQLITE_VALUED.test(v)) i++;
    else if (v.startsWith("-") && v !== "-") continue;
    else if (operands++ > 0) {
      sql = true;
      each(a, run, origin, (t) => sqliteText(t, run, origin));
    }
  }
  if (!sql) input(stage, run, origin, (t) => sqliteText(t, run, origin));
}

// ---------------------------------------------------------------------------------------------
// mysql, mariadb

/** What mysql text runs: its client commands `system`, `\!`, `pager`, `\P`, `source`, `\.`. */
function mysqlText(text: string, run: Runner, origin: string): void {
  for (const line of text.split("\n")) {
    for (const stmt of line.split(/(?<=;)/)) {
      // `tee FILE` / `\\T FILE` appends what follows to the file.
      const tee = /^\s*(?:tee|\\T)\s+(\S+?);?\s*$/i.exec(stmt);
      if (tee) opens(tee[1], run, origin);
      const m = /^\s*(system|pager|source|\\!|\\P|\\\.)\s*(.*?);?\s*$/i.exec(stmt);
      const bang = /\\([!P.])\s*(.*?);?\s*$/.exec(stmt);
      const [cmd, rest] = m ? [m[1].toLowerCase(), m[2]] : bang ? [`\\${bang[1]}`, bang[2]] : [];
      if (!cmd || rest === undefined) continue;
      if (cmd === "source" || cmd === "\\.") {
        run.stage([unknownWord(`(the commands of ${rest})`)], origin);
      } else if (rest.trim()) run.shell(literal(rest), origin);
      else if (cmd === "system" || cmd === "\\!") {
        run.stage([unknownWord("(an interactive shell)")], origin);
      }
    }
  }
}

/** What mysql runs: `-e` text, `--pager`, option files (unknown), else its input. */
function mysqlRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const origin = `${programName(stage.argv[0])} command`;
  let given = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (a.kind !== "static" && v.startsWith("-")) {
      run.stage([unknownWord(`(a mysql option ${a.text})`)], origin);
      continue;
    }
    const eq = v.indexOf("=");
    const opt = v.startsWith("--") && eq > 0 ? v.slice(0, eq) : v;
    const value = () => (eq > 0 ? literal(v.slice(eq + 1)) : args[++i]);
    if (/^-[A-Za-z]/.test(v)) {
      // A cluster (`-sNe SQL`, `-uroot`): a letter that takes a value takes the rest or the next
      // word; `-p` takes only the rest (the password).
      const at = [...v.slice(1)].findIndex((c) => "uhPDSep".includes(c));
      if (at < 0) continue;
      const c = v[at + 1];
      const rest = v.slice(at + 2);
      if (c === "p") continue;
      const w = rest ? literal(rest) : args[++i];
      if (c === "e") {
        given = true;
        if (w) each(w, run, origin, (t) => mysqlText(t, run, origin));
      }
    } else if (opt === "--execute") {
      given = true;
      const w = value();
      if (w) each(w, run, origin, (t) => mysqlText(t, run, origin));
    } else if (opt === "--pager") {
      const w = eq > 0 ? literal(v.slice(eq + 1)) : undefined;
      if (w && w.value) run.shell(w, origin);
    } else if (/^--(defaults-file|defaults-extra-file|plugin-dir|default-auth)$/.test(opt)) {
      const w = value();
      if (w) run.stage([unknownWord(`(the settings or plugins of ${w.text})`)], origin);
    } else if (/^--(user|host|port|database|socket|init-command)$/.test(v)) i++;
  }
  if (!given) input(stage, run, origin, (t) => mysqlText(t, run, origin));
}

/**
 * `fossil sql|sqlite3 [OPTIONS]` (fossil's sqlcmd.c; a command name may be shortened where it is
 * unique: `sqlite`, `sqli`): the sqlite3 shell on the repository, given the words after fossil's
 * own options (`-R REPO`, `--no-repository`, `--readonly`, `--test`). Whether the shell takes the
 * first operand as its database or as a command differs by version: both are judged.
 */
export function fossilSql(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const at = args.findIndex((a) => a.kind !== "static" || !a.value.startsWith("-"));
  const sub = args[at];
  if (!sub) return;
  if (sub.kind !== "static") {
    run.stage([unknownWord(`(the fossil command ${sub.text})`)], "fossil");
    return;
  }
  if (sub.value !== "sql" && !/^sqli(t(e3?)?)?$/.test(sub.value)) return;
  const rest: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i].value;
    if (i === at || /^--?(no-repository|readonly|test)$/.test(v)) continue;
    if (/^(-R|--repository)$/.test(v)) i++;
    else if (!/^(-R|--repository=)./.test(v)) rest.push(args[i]);
  }
  const origin = "fossil sql";
  for (const words of [rest, [literal(":memory:"), ...rest]]) {
    const inner = { ...stage, argv: [literal("sqlite3"), ...words] };
    sqliteRuns(inner, run, origin);
  }
}

// ---------------------------------------------------------------------------------------------
// pgbench

/** pgbench's options (its getopt string and long options that take a value). */
const PGBENCH: OptionGrammar = {
  valued: "bcDfFhIjLMpPRstTU",
  // deno-fmt-ignore
  longValued: new Set(["--builtin", "--client", "--define", "--file", "--fillfactor", "--host", "--init-steps", "--jobs", "--latency-limit", "--protocol", "--port", "--progress", "--rate", "--scale", "--transactions", "--time", "--username", "--partition-method", "--partitions", "--random-seed", "--sampling-rate", "--log-prefix", "--tablespace", "--index-tablespace", "--exit-on-abort", "--max-tries", "--failures-detailed", "--verbose-errors", "--foreign-keys", "--unlogged-tables", "--show-script"]),
  abbreviations: true,
};

/**
 * What a pgbench script runs: its meta-commands `\shell CMD ARGS` and `\setshell VAR CMD ARGS`,
 * whose words pgbench joins and hands to a shell (a `:var` among them is a value not known); a
 * meta-command goes on past a line ending in `\`.
 */
function pgbenchScript(text: string, run: Runner, origin: string): void {
  for (const line of text.replace(/\\\r?\n/g, " ").split("\n")) {
    const m = /^\s*\\(shell|setshell)\b\s*(.*)$/s.exec(line);
    if (!m) continue;
    const words = m[2].trim().split(/\s+/).filter((w) => w !== "");
    const command = m[1] === "setshell" ? words.slice(1) : words;
    if (command.some((w) => /^:/.test(w))) {
      run.stage([unknownWord(`(the shell command ${m[2].trim()})`)], origin);
    } else if (command.length) run.shell(literal(command.join(" ")), origin);
    else run.stage([unknownWord("(an empty \\shell)")], origin);
  }
}

/** pgbench's `-f FILE[@WEIGHT]` scripts (`-` and `/dev/stdin`: its input), as they will be. */
function pgbenchRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  const origin = "pgbench script";
  const read = (t: string) => pgbenchScript(t, run, origin);
  for (const t of readOptions(values, PGBENCH)) {
    if (t.kind === "dynamic" && args[t.at].prefix.startsWith("-")) {
      run.stage([unknownWord(`(a pgbench option ${args[t.at].text})`)], origin);
    }
    if (t.kind !== "valued" || (t.name !== "-f" && t.name !== "--file")) continue;
    const value = optionValue(t, args);
    if (!value) continue;
    if (value.kind !== "static") {
      run.stage([unknownWord(`(the commands of ${value.text})`)], origin);
      continue;
    }
    const file = value.value.replace(/@\d+$/, "");
    if (file === "-" || file === "/dev/stdin" || file === "/dev/fd/0") {
      input(stage, run, origin, read);
    } else fileCommands(literal(file), run, origin, read);
  }
}

/** The database shells. */
export const DATABASE_PROGRAMS: Program[] = [
  { names: ["sqlite3", "sqlite"], optionCommands: (stage, run) => sqliteRuns(stage, run) },
  {
    names: LIBPQ_PROGRAMS,
    namedFiles: libpqFiles,
    optionCommands: (stage, run) => {
      libpqRuns(stage, run);
      if (programName(stage.argv[0]) === "pgbench") pgbenchRuns(stage, run);
    },
  },
  { names: ["mysql", "mariadb"], optionCommands: mysqlRuns },
];
