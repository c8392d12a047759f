/**
 * SQL as PostgreSQL's lexer reads it (scan.l; psql's psqlscan.l for what psql puts in): string
 * constants (`'…'` with `''`; `E'…'` with backslash escapes; `U&'…'` with `\XXXX`, `UESCAPE`;
 * `B'…'`, `X'…'`, `N'…'`) and the constants they continue with across whitespace holding a newline
 * (`'cu'⏎'rl x'` is `curl x`; `--` comments there too), `$tag$…$tag$`, `--` comments and nested
 * C-style ones, identifiers (unquoted ones folded to lower case, `"…"`, `U&"…"`), `;`; in a script,
 * psql's `:name`, `:'name'` and `:"name"` put in and its meta-commands (a backslash outside quotes
 * and comments) taken out. A plain `'…'` with a backslash is read two ways (the server's
 * `standard_conforming_strings` may be off): its value is not known, and where its end differs
 * (an odd run of backslashes before a quote) what follows is not known.
 *
 * Then what each statement makes the server do on its machine: `COPY … FROM|TO PROGRAM 'cmd'`
 * (and file_fdw's `program 'cmd'`) runs a command; `COPY … FROM|TO 'F'`, `pg_read_file('F')`,
 * `pg_read_binary_file`, `pg_ls_dir`, `pg_stat_file`, `lo_import('F')`, `lo_export(oid, 'F')`,
 * adminpack's `pg_file_write`, `pg_file_rename`, `pg_file_unlink` and file_fdw's `filename 'F'`
 * open a file (a path not absolute is the data directory's: not known); and SQL the gate cannot
 * read runs what it likes (`DO`, `EXECUTE`, `CREATE FUNCTION`/`PROCEDURE` (untrusted languages run
 * host code; any body may run dynamic SQL), `CREATE`/`ALTER EXTENSION`, `CREATE LANGUAGE`, `ALTER
 * SYSTEM`, `LOAD`, the settings that name a command or library, `query_to_xml('…')`, `ts_stat`,
 * `dblink_exec` and kin).
 *
 * @module
 */

/** A token of SQL: `value` null where it is not known exactly. */
export interface SqlToken {
  kind: "word" | "ident" | "string" | "op" | "semi" | "unknown";
  value: string | null;
}

/** What psql puts in for `:name` (raw), `:'name'` (a literal) or `:"name"` (an identifier). */
export type SqlVariable = (name: string) => string | null | undefined;

/** What a server does on its machine, as `analyse` reports it. */
export interface SqlEffects {
  /** A command it runs (null: not known). */
  program(command: string | null): void;
  /** A file it opens (null: not known), and whether it writes it. */
  file(path: string | null, write: boolean): void;
  /** SQL or code it runs that cannot be read here. */
  dynamic(what: string): void;
}

const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT_CHAR = /[A-Za-z0-9_$\u0080-\uffff]/;
const SPACE = /[ \t\n\r\f\v]/;
const E_ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** The state between two pieces of text (a script is read line by line). */
type Mode =
  | { in: "sql" }
  | { in: "comment"; depth: number }
  | { in: "string"; kind: "plain" | "e" | "u"; text: string; exact: boolean }
  | { in: "after-string"; kind: "plain" | "e" | "u"; text: string; exact: boolean; nl: boolean }
  | { in: "dollar"; tag: string; text: string }
  | { in: "ident"; text: string };

/**
 * A reader of SQL text fed piece by piece (`feed`): the tokens so far (`tokens`), each statement
 * given to `statement` at its `;` and at `end()`.
 */
export class SqlReader {
  #mode: Mode = { in: "sql" };
  #tokens: SqlToken[] = [];
  #depth = 0;
  /** Whether what is read is read one way of two (a plain string's end may be elsewhere). */
  #uncertain = false;

  constructor(
    private readonly statement: (tokens: SqlToken[]) => void,
    private readonly variable?: SqlVariable,
    /** A meta-command at `at` (after its backslash) of `text`: where it ends. */
    private readonly meta?: (text: string, at: number) => number,
  ) {}

  /** Reads `text` (a whole line with its newline, or a whole SQL text). */
  feed(text: string): void {
    let i = 0;
    while (i < text.length) i = this.#step(text, i);
  }

  /** The end of the text: the last statement, and one left open is not known. */
  end(): void {
    const m = this.#mode;
    if (m.in === "after-string") this.#string(m);
    else if (m.in !== "sql" && m.in !== "comment") this.#push("unknown", null);
    this.#mode = { in: "sql" };
    this.#flush();
  }

  #push(kind: SqlToken["kind"], value: string | null): void {
    this.#tokens.push({ kind, value });
  }

  #flush(): void {
    if (this.#uncertain) this.#push("unknown", null);
    if (this.#tokens.length) this.statement(this.#tokens);
    this.#tokens = [];
  }

  #string(m: { kind: string; text: string; exact: boolean }): void {
    this.#push("string", m.exact ? m.text : null);
    this.#mode = { in: "sql" };
  }

  /** One step from `i`: where the next starts. */
  #step(s: string, i: number): number {
    const m = this.#mode;
    switch (m.in) {
      case "comment": {
        if (s.startsWith("*/", i)) {
          this.#mode = m.depth > 1 ? { in: "comment", depth: m.depth - 1 } : { in: "sql" };
          return i + 2;
        }
        if (s.startsWith("/*", i)) m.depth++;
        return s.startsWith("/*", i) ? i + 2 : this.#skipMeta(s, i);
      }
      case "dollar": {
        if (s.startsWith(m.tag, i)) {
          this.#push("string", m.text);
          this.#mode = { in: "sql" };
          return i + m.tag.length;
        }
        m.text += s[i];
        return this.#skipMeta(s, i);
      }
      case "ident": {
        if (s[i] === '"' && s[i + 1] === '"') {
          m.text += '"';
          return i + 2;
        }
        if (s[i] === '"') {
          this.#push("ident", m.text);
          this.#mode = { in: "sql" };
          return i + 1;
        }
        m.text += s[i];
        return this.#skipMeta(s, i);
      }
      case "string":
        return this.#inString(m, s, i);
      case "after-string": {
        // (A constant continues across whitespace holding a newline, and `--` comments.)
        if (s[i] === "\n") m.nl = true;
        if (SPACE.test(s[i])) return i + 1;
        if (s.startsWith("--", i)) {
          const nl = s.indexOf("\n", i);
          return nl < 0 ? s.length : nl;
        }
        if (s[i] === "'" && m.nl) {
          this.#mode = { in: "string", kind: m.kind, text: m.text, exact: m.exact };
          return i + 1;
        }
        this.#string(m);
        return i;
      }
    }
    return this.#sql(s, i);
  }

  /** A backslash inside quotes or a comment: psql may take it as a meta-command all the same. */
  #skipMeta(s: string, i: number): number {
    if (s[i] === "\\" && this.meta) this.meta(s, i + 1);
    return i + 1;
  }

  #inString(m: Extract<Mode, { in: "string" }>, s: string, i: number): number {
    const c = s[i];
    if (c === "'" && s[i + 1] === "'") {
      m.text += "'";
      return i + 2;
    }
    if (c === "'") {
      this.#mode = { in: "after-string", kind: m.kind, text: m.text, exact: m.exact, nl: false };
      return i + 1;
    }
    if (c !== "\\") {
      m.text += c;
      return i + 1;
    }
    if (this.meta) this.meta(s, i + 1);
    if (m.kind === "plain") {
      // (Read two ways: as written, and with backslash escapes.)
      let run = 0;
      while (s[i + run] === "\\") run++;
      m.exact = false;
      m.text += s.slice(i, i + run);
      if (run % 2 === 1 && s[i + run] === "'") {
        // (Where it ends differs: what follows is not known.)
        this.#uncertain = true;
        this.#mode = { in: "string", kind: "e", text: "", exact: false };
        return i + run + 1;
      }
      return i + run;
    }
    if (m.kind === "u") {
      const hex = /^(?:([0-9A-Fa-f]{4})|\+([0-9A-Fa-f]{6}))/.exec(s.slice(i + 1, i + 8));
      if (hex) {
        m.text += String.fromCodePoint(parseInt(hex[1] ?? hex[2], 16));
        return i + 1 + hex[0].length;
      }
      m.text += s[i + 1] ?? "";
      return i + 2;
    }
    return this.#escape(m, s, i);
  }

  /** A backslash escape of an `E'…'` string. */
  #escape(m: { text: string; exact: boolean }, s: string, i: number): number {
    const rest = s.slice(i + 1, i + 10);
    const oct = /^[0-7]{1,3}/.exec(rest);
    const hex = /^x([0-9A-Fa-f]{1,2})/.exec(rest);
    const uni = /^(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8}))/.exec(rest);
    if (oct) m.text += String.fromCharCode(parseInt(oct[0], 8) & 255);
    else if (hex) m.text += String.fromCharCode(parseInt(hex[1], 16));
    else if (uni) {
      const code = parseInt(uni[1] ?? uni[2], 16);
      if (code > 0x10ffff) m.exact = false;
      else m.text += String.fromCodePoint(code);
    } else if (i + 1 < s.length) m.text += E_ESCAPES[s[i + 1]] ?? s[i + 1];
    const used = oct?.[0] ?? hex?.[0] ?? uni?.[0] ?? (i + 1 < s.length ? s[i + 1] : "");
    return i + 1 + used.length;
  }

  /** Outside quotes and comments. */
  #sql(s: string, i: number): number {
    const c = s[i];
    if (SPACE.test(c)) return i + 1;
    if (s.startsWith("--", i)) {
      const nl = s.indexOf("\n", i);
      return nl < 0 ? s.length : nl;
    }
    if (s.startsWith("/*", i)) {
      this.#mode = { in: "comment", depth: 1 };
      return i + 2;
    }
    if (c === "\\" && this.meta) return Math.max(this.meta(s, i + 1), i + 1);
    if (c === ";") {
      this.#push("semi", ";");
      this.#flush();
      return i + 1;
    }
    const prefixed = /^(?:([EeNnBbXx])'|([Uu])&(['"]))/.exec(s.slice(i, i + 3));
    if (prefixed) {
      const kind = /[Ee]/.test(prefixed[1] ?? "") ? "e" : prefixed[2] ? "u" : "plain";
      if (prefixed[3] === '"') this.#mode = { in: "ident", text: "" };
      else this.#mode = { in: "string", kind, text: "", exact: !/[BbXx]/.test(prefixed[1] ?? "") };
      return i + prefixed[0].length;
    }
    if (c === "'") {
      this.#mode = { in: "string", kind: "plain", text: "", exact: true };
      return i + 1;
    }
    if (c === '"') {
      this.#mode = { in: "ident", text: "" };
      return i + 1;
    }
    if (c === "$") {
      const tag = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(s.slice(i));
      if (tag) {
        this.#mode = { in: "dollar", tag: tag[0], text: "" };
        return i + tag[0].length;
      }
    }
    if (c === ":" && this.variable) {
      if (s[i + 1] === ":") {
        this.#push("op", "::");
        return i + 2;
      }
      const v = /^:(?:([\w\u0080-\uffff]+)|'([\w\u0080-\uffff]+)'|"([\w\u0080-\uffff]+)")/.exec(
        s.slice(i),
      );
      if (v) return this.#variable(v, i);
    }
    if (IDENT_START.test(c)) {
      let end = i + 1;
      while (end < s.length && IDENT_CHAR.test(s[end])) end++;
      this.#push("word", s.slice(i, end).toLowerCase());
      return end;
    }
    this.#push("op", c);
    return i + 1;
  }

  /** psql's `:name`, `:'name'`, `:"name"`: its value put in (a name not set stays as written). */
  #variable(v: RegExpExecArray, i: number): number {
    const value = this.variable!(v[1] ?? v[2] ?? v[3]);
    if (value === undefined) {
      this.#push("op", ":");
      return i + 1;
    }
    if (v[2] !== undefined) this.#push("string", value);
    else if (v[3] !== undefined) this.#push(value === null ? "unknown" : "ident", value);
    else if (value === null || this.#depth > 3) this.#push("unknown", null);
    else {
      // (The value is read as SQL where it stands.)
      const saved = this.#mode;
      this.#depth++;
      this.#mode = { in: "sql" };
      this.feed(value);
      if (this.#mode.in !== "sql") this.#push("unknown", null);
      this.#mode = saved;
      this.#depth--;
    }
    return i + v[0].length;
  }
}

/** The functions that open a server file: the argument that names it, and whether written. */
const FILE_FUNCTIONS: Record<string, [number[], boolean]> = {
  pg_read_file: [[0], false],
  pg_read_binary_file: [[0], false],
  pg_ls_dir: [[0], false],
  pg_stat_file: [[0], false],
  lo_import: [[0], false],
  lo_export: [[1], true],
  pg_file_write: [[0], true],
  pg_file_rename: [[0, 1, 2], true],
  pg_file_unlink: [[0], true],
};

/** The functions that run SQL text given to them. */
const SQL_FUNCTIONS = new Set([
  "query_to_xml",
  "query_to_xmlschema",
  "query_to_xml_and_xmlschema",
  "ts_stat",
  "dblink",
  "dblink_exec",
  "dblink_open",
  "dblink_send_query",
]);

/** The settings whose value is a command or a library the server runs. */
const COMMAND_SETTINGS = new Set([
  "archive_command",
  "archive_cleanup_command",
  "archive_library",
  "restore_command",
  "recovery_end_command",
  "ssl_passphrase_command",
  "shared_preload_libraries",
  "local_preload_libraries",
  "session_preload_libraries",
  "dynamic_library_path",
  "jit_provider",
  // (PL/Perl's, PL/Tcl's code run as the language starts: `plperl.on_plperl_init`.)
  "on_init",
  "on_plperl_init",
  "on_plperlu_init",
  "start_proc",
  "pltcl.start_proc",
  "pltclu.start_proc",
]);

/**
 * Whether a setting (its name as the server reads it: case folded, `-` as `_` from a command
 * line, `plperl.on_init` by its part after the `.` too) names a command the server runs, a
 * library it loads or code it runs (`session_preload_libraries`, `archive_command`).
 */
export function codeSetting(name: string): boolean {
  const n = name.toLowerCase();
  return COMMAND_SETTINGS.has(n) || COMMAND_SETTINGS.has(n.slice(n.lastIndexOf(".") + 1));
}

/**
 * The settings a server's command line sets (`-c name=value`, `-cname=value`, `--name=value`;
 * libpq's `options`, `PGOPTIONS`: split at blanks, `\` escaping the next character), their
 * names as it reads them (`-` as `_`); other options left out.
 */
export function serverOptionSettings(options: string): string[] {
  const words: string[] = [];
  let cur: string | null = null;
  for (let i = 0; i < options.length; i++) {
    const c = options[i];
    if (/\s/.test(c)) {
      if (cur !== null) words.push(cur);
      cur = null;
    } else cur = (cur ?? "") + (c === "\\" ? options[++i] ?? "" : c);
  }
  if (cur !== null) words.push(cur);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const set = w === "-c"
      ? words[++i] ?? ""
      : /^-c/.test(w)
      ? w.slice(2)
      : /^--/.test(w)
      ? w.slice(2)
      : null;
    if (set === null) continue;
    const eq = set.indexOf("=");
    out.push((eq < 0 ? set : set.slice(0, eq)).replaceAll("-", "_").toLowerCase());
  }
  return out;
}

/** A statement's words from `at` (up to `n`). */
const words = (t: SqlToken[], at: number, n: number) =>
  t.slice(at, at + n).map((x) => (x.kind === "word" ? x.value! : ""));

/** What the statement before the dynamic ones starts with: SQL the gate cannot read. */
function dynamicStatement(t: SqlToken[]): string | null {
  const [a, b, c, d] = words(t, 0, 4);
  if (a === "do" || a === "load") return a.toUpperCase();
  if (a === "alter" && (b === "system" || b === "extension")) return `ALTER ${b.toUpperCase()}`;
  if (a !== "create") return null;
  const kind = b === "or" && c === "replace" ? d : b;
  if (/^(function|procedure|extension|language|trusted|procedural)$/.test(kind)) {
    return `CREATE ${kind.toUpperCase()}`;
  }
  return null;
}

/** The arguments of a call whose `(` is at `at`: each one's tokens. */
function callArguments(t: SqlToken[], at: number): SqlToken[][] {
  const out: SqlToken[][] = [[]];
  for (let i = at + 1, depth = 1; i < t.length; i++) {
    const v = t[i].kind === "op" ? t[i].value : null;
    if (v === "(") depth++;
    if (v === ")" && --depth === 0) break;
    if (v === "," && depth === 1) out.push([]);
    else out[out.length - 1].push(t[i]);
  }
  return out;
}

/** A path the server opens: a string constant alone, absolute; else null (not known). */
function serverPath(arg: SqlToken[] | undefined): string | null {
  const s = arg?.length === 1 && arg[0].kind === "string" ? arg[0].value : null;
  return s !== null && s.startsWith("/") ? s : null;
}

/** `COPY …` from its `FROM` or `TO`: what it runs or opens. */
function copy(t: SqlToken[], effects: SqlEffects): void {
  let i = 1;
  for (let depth = 0; i < t.length; i++) {
    const x = t[i];
    if (x.kind === "op" && x.value === "(") depth++;
    else if (x.kind === "op" && x.value === ")") depth--;
    else if (depth === 0 && x.kind === "word" && (x.value === "from" || x.value === "to")) break;
  }
  const dir = t[i]?.value;
  const next = t[i + 1];
  if (!next || next.kind === "semi") return;
  if (next.kind === "word" && next.value === "program") {
    effects.program(t[i + 2]?.kind === "string" ? t[i + 2].value : null);
  } else if (next.kind === "word" && /^(stdin|stdout)$/.test(next.value!)) return;
  else if (next.kind === "string" || next.kind === "unknown") {
    effects.file(serverPath([next]), dir === "to");
  }
}

/** What one statement makes the server do (see the module's comment). */
export function analyse(t: SqlToken[], effects: SqlEffects): void {
  if (t.some((x) => x.kind === "unknown")) return effects.dynamic("SQL not known");
  const what = dynamicStatement(t);
  if (what) effects.dynamic(what);
  const first = t[0]?.kind === "word" ? t[0].value : null;
  // (`U&'…' UESCAPE 'c'`: read with another escape.)
  t = t.map((x, i) =>
    x.kind === "string" && t[i + 1]?.kind === "word" && t[i + 1].value === "uescape"
      ? { kind: "string", value: null }
      : x
  );
  if (first === "copy") copy(t, effects);
  for (let i = 0; i < t.length; i++) {
    const x = t[i];
    const next = t[i + 1];
    const word = x.kind === "word" ? x.value! : "";
    // (`EXECUTE name`, `EXPLAIN … EXECUTE`; not `GRANT EXECUTE`, a trigger's `EXECUTE FUNCTION`.)
    if (word === "execute" && (i === 0 || first === "explain")) effects.dynamic("EXECUTE");
    // (A setting's name, quoted or not: `SET "session_preload_libraries"`, `ALTER ROLE … SET`.)
    const name = x.kind === "word" || x.kind === "ident" ? x.value!.toLowerCase() : "";
    if (codeSetting(name) && (first === "set" || first === "alter")) effects.dynamic(name);
    if (name && next?.kind === "string" && i > 0) {
      // (file_fdw's options, `"program"` too; COPY's own were read above.)
      if (name === "program" && t[0].value !== "copy") effects.program(next.value);
      if (name === "filename") effects.file(serverPath([next]), false);
      // (A tablespace's directory: the server makes it its own and writes in it.)
      if (name === "location" && first === "create" && t[1]?.value === "tablespace") {
        effects.file(serverPath([next]), true);
      }
    }
    if ((x.kind === "word" || x.kind === "ident") && next?.kind === "op" && next.value === "(") {
      const name = x.value!;
      if (SQL_FUNCTIONS.has(name)) effects.dynamic(`${name}(…)`);
      // (`set_config('session_preload_libraries', …)`: a setting named by a string.)
      if (name === "set_config") {
        const setting = callArguments(t, i + 1)[0];
        const named = setting?.length === 1 && setting[0].kind === "string"
          ? setting[0].value
          : null;
        if (named === null || codeSetting(named)) effects.dynamic("set_config(…)");
      }
      const file = FILE_FUNCTIONS[name];
      if (!file) continue;
      const args = callArguments(t, i + 1);
      for (const k of file[0]) if (k < args.length) effects.file(serverPath(args[k]), file[1]);
    }
  }
}
