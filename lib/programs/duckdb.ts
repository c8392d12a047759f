/**
 * DuckDB's shell, a fork of sqlite3's: its dot-commands (`.shell`/`.system` run a command;
 * `.output`/`.once` to `|cmd` pipe to one; `.pager CMD` sets one; `.output`, `.once`, `.log`,
 * `.import`, `.open` open a file; `.read` and `.cd` are not followed) and the files its SQL
 * reaches: `read_csv('f')`, `read_text('f')`, `read_parquet(['a', 'b'])` and the other reading
 * functions, `FROM 'f.csv'`, `COPY … TO|FROM 'f'`, `ATTACH 'f'`, `EXPORT DATABASE 'dir'`, settings
 * naming directories (`SET temp_directory = 'd'`). Each such literal is a file the command opens,
 * judged where it lies (`~` is the home directory, `file://` a local path, a name beginning or
 * ending with `|` a command). What cannot be seen is a command not known: a path that is not a
 * literal (`read_csv(getvariable('f'))`, a macro's parameter), dynamic SQL (`query(x)`), `IMPORT
 * DATABASE` (it runs the SQL the directory holds), extensions loaded from a file or installed from
 * a repository of another's (`LOAD '/tmp/x.duckdb_extension'`, `INSTALL x FROM community`), their
 * settings, the web UI and server (`-ui`, `CALL start_ui()`), SQL that does not read to its end.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { dotArgs, each, fileCommands, input, opens } from "./databases.ts";
import type { Program, Runner } from "./spec.ts";
import { literal, opensFile, unknownWord } from "./words.ts";

const ORIGIN = "duckdb command";

/** A token of DuckDB's SQL: a word, a string literal, a quoted identifier, or another character. */
interface Token {
  kind: "word" | "string" | "ident" | "other";
  value: string;
}

/**
 * The tokens of SQL text, comments left out; null when it does not read to its end (a string or
 * comment left open). A string with backslash escapes (`E'…'`) and a dollar parameter are `other`.
 */
function tokenize(sql: string): Token[] | null {
  const out: Token[] = [];
  const quoted = (from: number, q: string): [string, number] | null => {
    let value = "";
    for (let i = from; i < sql.length; i++) {
      if (sql[i] !== q) value += sql[i];
      else if (sql[i + 1] === q) value += sql[i++];
      else return [value, i + 1];
    }
    return null;
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const rest = sql.slice(i, i + 2);
    if (/\s/.test(c)) i++;
    else if (rest === "--") i = sql.includes("\n", i) ? sql.indexOf("\n", i) : sql.length;
    else if (rest === "/*") {
      const end = sql.indexOf("*/", i + 2);
      if (end < 0) return null;
      i = end + 2;
    } else if (c === "'" || c === '"') {
      const q = quoted(i + 1, c);
      if (q === null) return null;
      out.push({ kind: c === "'" ? "string" : "ident", value: q[0] });
      i = q[1];
    } else if (/[eE]/.test(c) && sql[i + 1] === "'") {
      const q = quoted(i + 2, "'");
      if (q === null) return null;
      out.push({ kind: q[0].includes("\\") ? "other" : "string", value: q[0] });
      i = q[1];
    } else if (c === "$") {
      // `$tag$ … $tag$` is a string; `$1` and `$name` are parameters.
      const tag = /^\$([A-Za-z_]\w*)?\$/.exec(sql.slice(i))?.[0];
      if (tag === undefined) {
        const m = /^\$\w*/.exec(sql.slice(i))![0];
        out.push({ kind: "other", value: m });
        i += m.length;
        continue;
      }
      const end = sql.indexOf(tag, i + tag.length);
      if (end < 0) return null;
      out.push({ kind: "string", value: sql.slice(i + tag.length, end) });
      i = end + tag.length;
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      const m = /^[A-Za-z_\u0080-\uffff][\w$\u0080-\uffff]*/.exec(sql.slice(i))![0];
      out.push({ kind: "word", value: m });
      i += m.length;
    } else {
      out.push({ kind: "other", value: c });
      i++;
    }
  }
  return out;
}

/**
 * Functions whose first argument names files they read (the built-in readers, those of the
 * extensions DuckDB loads by itself, `glob`'s listing).
 */
const FILE_FUNCTION =
  /^(read_\w+|\w+_scan|parquet_\w+|iceberg_\w+|delta_\w+|sniff_csv|glob|st_read\w*|sqlite_attach|query_table)$/i;
/** Functions whose effects cannot be seen: dynamic SQL, the web UI and its server. */
const UNSEEN_FUNCTION = /^(query|start_ui|start_ui_server|stop_ui_server)$/i;
/** Words that end a FROM clause at its own depth. */
const FROM_ENDS =
  /^(where|group|order|limit|offset|having|qualify|window|union|except|intersect|on|using|select|returning|sample|pivot|unpivot|to)$/i;
/** Settings that load code or change where extensions come from. */
const CODE_SETTING = /extension|unsigned|community/i;

/** What the SQL reaches: the literal paths it opens, and what cannot be seen. */
interface Reached {
  paths: string[];
  unseen: string[];
}

/** The first argument of a call at `open` (the index of its `(`): its tokens. */
function firstArgument(tokens: Token[], open: number): Token[] {
  const out: Token[] = [];
  let depth = 0;
  for (let i = open + 1; i < tokens.length; i++) {
    const v = tokens[i].kind === "other" ? tokens[i].value : "";
    if (v === "(" || v === "[") depth++;
    if ((v === ")" || v === "]") && depth-- === 0) break;
    if (v === "," && depth === 0) break;
    out.push(tokens[i]);
  }
  return out;
}

/** The paths a function's first argument names: a string, or a list of strings; null otherwise. */
function literalPaths(arg: Token[]): string[] | null {
  if (arg.length === 1 && arg[0].kind === "string") return [arg[0].value];
  if (arg.length < 3 || arg[0].value !== "[" || arg.at(-1)!.value !== "]") return null;
  const inner = arg.slice(1, -1);
  const out: string[] = [];
  for (let i = 0; i < inner.length; i += 2) {
    if (inner[i].kind !== "string" || (i + 1 < inner.length && inner[i + 1].value !== ",")) {
      return null;
    }
    out.push(inner[i].value);
  }
  return out;
}

/**
 * The file or directory `COPY … TO|FROM`, `ATTACH` or `EXPORT DATABASE` names after the token at
 * `at`: a literal, else not seen (`STDIN`, `STDOUT` and `COPY FROM DATABASE` name none).
 */
function namedPlace(tokens: Token[], at: number, verb: string, out: Reached): void {
  let j = at + 1;
  const word = (k: number) => tokens[k]?.value.toLowerCase() ?? "";
  if (verb === "copy" && /^(stdin|stdout|database)$/.test(word(j))) return;
  while (/^(database|if|not|exists|or|replace)$/.test(word(j))) j++;
  // (`EXPORT DATABASE db TO 'dir'`: the directory is the one after TO.)
  if (verb === "export" && word(j + 1) === "to") j += 2;
  const target = tokens[j];
  if (target?.kind !== "string") {
    out.unseen.push(`a file ${verb.toUpperCase()} names`);
    return;
  }
  // (`ATTACH 'sqlite:x.db'`: a type before the file's name.)
  out.paths.push(verb === "attach" ? target.value.replace(/^\w+:(?!\/\/)/, "") : target.value);
}

/** What a statement that installs or loads an extension, or sets how they load, reaches. */
function extensions(words: string[], tokens: Token[], first: number, out: Reached): boolean {
  const verb = words[first];
  if (verb === "install" || verb === "load") {
    const name = tokens[first + 1];
    const from = words.indexOf("from");
    if (name?.kind === "string" || name?.kind === "other") out.unseen.push(`${verb} from a file`);
    if (from > 0 && !/^core(_nightly)?$/.test(words[from + 1] ?? "")) {
      out.unseen.push(`${verb} from another repository`);
    }
    return true;
  }
  if (
    /^(set|reset|pragma)$/.test(verb) && words.some((w, i) => i > first && CODE_SETTING.test(w))
  ) {
    out.unseen.push("a setting of extensions");
    return true;
  }
  return false;
}

/** One statement's tokens (no `;`): what it reaches, into `out`. */
function statement(tokens: Token[], out: Reached): void {
  const words = tokens.map((t) => (t.kind === "word" ? t.value.toLowerCase() : ""));
  const first = words.findIndex((w, i) => w !== "" && !(w === "force" && i === 0));
  const verb = first < 0 ? "" : words[first];
  if (verb === "import") {
    out.unseen.push("IMPORT DATABASE (the SQL its directory holds)");
    return;
  }
  if (extensions(words, tokens, first, out)) return;
  const setting = (verb === "set" || verb === "pragma") && words[first + 1] !== "variable";
  let depth = 0;
  let fromDepth = -1;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const w = words[i];
    if (t.value === "(") depth++;
    else if (t.value === ")" && --depth < fromDepth) fromDepth = -1;
    if (t.kind === "word" && tokens[i + 1]?.value === "(") call(tokens, i, out);
    if (w === "from" || w === "join") fromDepth = depth;
    else if (fromDepth === depth && FROM_ENDS.test(w)) fromDepth = -1;
    // `FROM 'f.csv'`, `JOIN "f.parquet"`, `FROM 'a.csv', 'b.csv'`: a file DuckDB reads.
    const prev = i > 0 ? tokens[i - 1].value : "";
    if (
      fromDepth === depth && (/^(from|join)$/i.test(prev) || prev === ",") &&
      (t.kind === "string" || (t.kind === "ident" && /[./]/.test(t.value)))
    ) out.paths.push(t.value);
    if (
      (verb === "copy" && depth === 0 && (w === "to" || w === "from")) ||
      (verb === "attach" && i === first) || (verb === "export" && w === "database")
    ) namedPlace(tokens, i, verb, out);
    // Settings that name a place (`SET temp_directory = 'dir'`, `PRAGMA … = 'f'`).
    if (setting && t.kind === "string") out.paths.push(t.value);
  }
}

/** A call at `at` (its name; `(` follows): the files it reads, or what cannot be seen. */
function call(tokens: Token[], at: number, out: Reached): void {
  const name = tokens[at].value;
  if (UNSEEN_FUNCTION.test(name)) {
    // `query('…')` runs the SQL it is given.
    const paths = /^query$/i.test(name) ? literalPaths(firstArgument(tokens, at + 1)) : null;
    if (paths === null) out.unseen.push(`${name}()`);
    else for (const p of paths) sql(p, out);
  } else if (FILE_FUNCTION.test(name)) {
    const paths = literalPaths(firstArgument(tokens, at + 1));
    if (paths === null) out.unseen.push(`a file ${name}() names`);
    else out.paths.push(...paths);
  }
}

/** What SQL text reaches, into `out` (statements split at `;` outside parentheses). */
function sql(text: string, out: Reached): void {
  const tokens = tokenize(text);
  if (tokens === null) {
    out.unseen.push("SQL that does not read to its end");
    return;
  }
  let start = 0;
  for (let i = 0; i <= tokens.length; i++) {
    if (i === tokens.length || tokens[i].value === ";") {
      if (i > start) statement(tokens.slice(start, i), out);
      start = i + 1;
    }
  }
}

/** A file the SQL or a dot-command opens: where it lies (`~`, `file://`), or the command a pipe runs. */
function opened(path: string, run: Runner): void {
  const p = path.replace(/^file:\/\/(?=\/)/, "");
  if (/^\||\|$/.test(p.trim())) {
    // (A pipe, as the shellfs extension reads `cmd |` and writes `| cmd`.)
    run.shell(literal(p.trim().replace(/^\||\|$/g, "")), ORIGIN);
  } else if (p === "~" || p.startsWith("~/")) opensFile(p, run, ORIGIN);
  else opens(p, run, ORIGIN);
}

/** What SQL text reaches, judged: the files it opens, a command not known for what is not seen. */
function sqlText(text: string, run: Runner): void {
  const out: Reached = { paths: [], unseen: [] };
  sql(text, out);
  for (const p of out.paths) opened(p, run);
  for (const what of new Set(out.unseen)) run.stage([unknownWord(`(${what})`)], ORIGIN);
}

/** The dot-commands that act outside the shell, by full name. */
const DOT_COMMANDS = [
  "shell",
  "system",
  "cd",
  "read",
  "output",
  "once",
  "excel",
  "log",
  "import",
  "open",
  "pager",
  "ui_command",
  "backup",
  "save",
  "restore",
  "clone",
  "trace",
  "load",
];

/**
 * What one dot-command does. Any shortening of a name may be meant (DuckDB matches a prefix, the
 * first in its table, some of one letter: `.c DIR` is `.cd`).
 */
function dotCommand(line: string, run: Runner): void {
  const [dot, ...args] = dotArgs(line);
  const name = dot.slice(1);
  const meant = name ? DOT_COMMANDS.filter((c) => c.startsWith(name)) : [];
  for (const command of meant) {
    if (command === "shell" || command === "system") {
      // DuckDB quotes each argument without a space and joins them (one with a space as it is).
      const text = args.map((a) => (a.includes(" ") ? a : `"${a}"`)).join(" ");
      if (args.length) run.shell(literal(text), ORIGIN);
    } else if (command === "pager") {
      const arg = args[0];
      if (arg && !/^(on|off|automatic|set_\w+_threshold|\d+)$/.test(arg)) {
        run.shell(literal(args.join(" ")), ORIGIN);
      }
    } else if (command === "cd" || command === "ui_command" || command === "load") {
      run.stage([unknownWord(`(the duckdb command ${line})`)], ORIGIN);
    } else if (command === "read" && !args.some((a) => a.startsWith("|"))) {
      run.stage([unknownWord(`(the commands of ${args.join(" ")})`)], ORIGIN);
    } else if (command === "open" && args.includes("--sql")) {
      run.stage([unknownWord(`(the duckdb command ${line})`)], ORIGIN);
    } else {
      const pipe = args.findIndex((a) => a.startsWith("|"));
      if (pipe >= 0) run.shell(literal(args.slice(pipe).join(" ").slice(1)), ORIGIN);
      else {
        for (const a of args) {
          if (!a.startsWith("-") && !/^(stdout|stderr|off)$/.test(a)) opened(a, run);
        }
      }
    }
  }
}

/** DuckDB's lines: dot-commands (a line each), and the SQL between them. */
function duckdbText(text: string, run: Runner): void {
  let chunk: string[] = [];
  const flush = () => {
    if (chunk.length) sqlText(chunk.join("\n"), run);
    chunk = [];
  };
  for (const line of text.split("\n")) {
    if (line.startsWith(".") || line.startsWith("\\")) {
      flush();
      dotCommand(line.startsWith("\\") ? "." + line.slice(1) : line, run);
    } else chunk.push(line);
  }
  flush();
}

/** DuckDB's options that take a value (one dash or two; `_` for `-` too). */
const VALUED =
  /^--?(cmd|c|f|s|init|format[-_]file|manual|newline|nullvalue|secret|separator|storage[-_]version)$/;
/** Options whose effect cannot be seen: the web UI, a server, a client, unsigned extensions. */
const UNSEEN_OPTION = /^--?(ui|serve|connect|unsigned)$/;

/**
 * What duckdb runs and opens: `-c`/`-s`/`-cmd` text, `-f`/`-init` files (read as they are),
 * the SQL operands after the database (every operand is read as SQL: the database's name holds
 * none), else its standard input.
 */
function duckdbRuns(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const text = (w: Word) => each(w, run, ORIGIN, (t) => duckdbText(t, run));
  let operands = 0;
  let given = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (a.kind !== "static" && v.startsWith("-")) {
      run.stage([unknownWord(`(a duckdb option ${a.text})`)], ORIGIN);
    } else if (UNSEEN_OPTION.test(v)) {
      run.stage([unknownWord(`(what duckdb ${v} runs)`)], ORIGIN);
    } else if (VALUED.test(v)) {
      const value = args[++i];
      if (!value) continue;
      const opt = v.replace(/^--?/, "");
      if (opt === "c" || opt === "s" || opt === "cmd") {
        given ||= opt !== "cmd";
        text(value);
      } else if (opt === "f" || opt === "init") {
        given ||= opt === "f";
        if (value.value !== "/dev/null") {
          fileCommands(value, run, ORIGIN, (t) => duckdbText(t, run));
        }
      }
    } else if (v.startsWith("-") && v !== "-") continue;
    else {
      // (The database's name holds no SQL; one not known is no command either.)
      if (operands++ > 0) given = true;
      if (operands > 1 || a.kind === "static") text(a);
    }
  }
  if (!given) input(stage, run, ORIGIN, (t) => duckdbText(t, run));
}

/** DuckDB's shell. */
export const DUCKDB: Program = { names: ["duckdb"], optionCommands: duckdbRuns };
