/**
 * The files a libpq connection names (PostgreSQL's clients: psql, pg_dump, pg_restore, createdb,
 * …): the parameters `passfile`, `sslkey`, `sslcert`, `sslrootcert`, `sslcrl`, `sslcrldir`,
 * `sslkeylogfile` (PostgreSQL 18: a file written) and `service`'s file, given in a connection
 * URI's query (`postgresql://h/db?sslkey=F`, its values percent-decoded; unquoted, the `?` makes
 * it a glob word bash passes as written where it matches nothing), in a key=value connection
 * string (`host=h sslkey='F'`), by the environment the command sets (`PGPASSFILE=F`,
 * `PGSSLKEY=F`, `PGSERVICEFILE=F`: exported first, env.ts's `LIBPQ_FILE_ENV`), or by the section
 * of the service file a `service=NAME` (`PGSERVICE`) names: each is read. (libpq's manual,
 * "Connection URIs", "Parameter Key Words", "Environment Variables", "The Connection Service
 * File".)
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile, NamedFilesGiven, Runner } from "./spec.ts";
import { literal, opensFile, programName, unknownWord } from "./words.ts";
import { LIBPQ_FILE_ENV } from "./env.ts";
import { codeSetting, serverOptionSettings } from "./psql_sql.ts";

/** The connection parameters whose value is a file (or a directory: `sslcrldir`) libpq reads. */
const FILE_PARAMETERS = new Set([
  "passfile",
  "sslkey",
  "sslcert",
  "sslrootcert",
  "sslcrl",
  "sslcrldir",
  "sslkeylogfile",
]);

/** The environment variables naming a file libpq reads. */
const FILE_VARIABLES = new Set([
  "PGPASSFILE",
  "PGSSLKEY",
  "PGSSLCERT",
  "PGSSLROOTCERT",
  "PGSSLCRL",
  "PGSSLCRLDIR",
  "PGSERVICEFILE",
  "PGSYSCONFDIR",
]);

/**
 * libpq's URI schemes, lower-case only (fe-connect.c's `uri_prefix_length`: `POSTGRESQL://h/db`
 * is a database's name).
 */
export const URI = /^postgres(?:ql)?:\/\//;

/**
 * The parameters of a connection URI's query, percent-decoded; null where `value` is no URI
 * (none where libpq refuses it).
 */
function uriParameters(value: string): [string, string][] | null {
  if (!URI.test(value)) return null;
  return uriParts(value)?.params ?? [];
}

/**
 * A connection URI's hosts and query as conninfo_uri_parse_options reads them: the
 * user part ends at the first `@` before any `/` (a `?` or `#` is no end there), hosts end at
 * `:`, `/`, `?` or `,` (`[v6]` in brackets), their text percent-decoded once joined (`%2C` is a
 * comma); the query's pairs, each decoded. Null where libpq refuses it.
 */
export function uriParts(uri: string): { host: string; params: [string, string][] } | null {
  const rest = uri.slice(uri.indexOf("//") + 2);
  const at = /^[^@/]*@/.exec(rest);
  let i = at ? at[0].length : 0;
  let hosts = "";
  for (;;) {
    if (rest[i] === "[") {
      const end = rest.indexOf("]", i);
      if (end < 0) return null;
      hosts += rest.slice(i + 1, end);
      i = end + 1;
    } else {
      const m = /^[^:/?,]*/.exec(rest.slice(i))![0];
      hosts += m;
      i += m.length;
    }
    if (rest[i] === ":") i += /^:[^/?,]*/.exec(rest.slice(i))![0].length;
    if (rest[i] !== ",") break;
    hosts += ",";
    i++;
  }
  const host = decode(hosts);
  const q = rest.indexOf("?", i);
  if (host === null) return null;
  const params: [string, string][] = [];
  for (const p of q < 0 ? [] : rest.slice(q + 1).split("&")) {
    const [key, value] = p.split("=").map(decode);
    if (key === null || value === null || value === undefined) return null;
    params.push([key, value]);
  }
  return { host, params };
}

/** A URI's percent-decoding (null where it is not UTF-8 or holds a space). */
function decode(s: string): string | null {
  try {
    const t = decodeURIComponent(s.replace(/^ +| +$/g, ""));
    return /^ | $/.test(t) || / /.test(s.trim()) ? null : t;
  } catch {
    return null;
  }
}

/**
 * The pairs of a key=value connection string (`host=h sslkey = 'a b'`: a value quoted with `'`,
 * `\` escaping a character); null where `value` is no such string.
 */
export function conninfoParameters(value: string): [string, string][] | null {
  const out: [string, string][] = [];
  let i = 0;
  const n = value.length;
  while (i < n) {
    while (i < n && /\s/.test(value[i])) i++;
    if (i >= n) break;
    const key = /^[A-Za-z_][\w]*/.exec(value.slice(i));
    if (!key) return null;
    i += key[0].length;
    while (i < n && /\s/.test(value[i])) i++;
    if (value[i] !== "=") return null;
    i++;
    while (i < n && /\s/.test(value[i])) i++;
    let v = "";
    if (value[i] === "'") {
      for (i++; i < n && value[i] !== "'"; i++) {
        v += value[i] === "\\" ? value[++i] ?? "" : value[i];
      }
      i++;
    } else {
      for (; i < n && !/\s/.test(value[i]); i++) {
        v += value[i] === "\\" ? value[++i] ?? "" : value[i];
      }
    }
    out.push([key[0], v]);
  }
  return out.length ? out : null;
}

/** Past this many characters a service file is not looked into (its sections not known). */
const SERVICE_FILE_LIMIT = 65536;

/**
 * The parameters of the section `[name]` of a connection service file (`key=value` lines, `#`
 * comments; `name` null: of every section); null where the text is not known or too large.
 */
export function serviceParameters(
  text: string | null,
  name: string | null,
): [string, string][] | null {
  if (text === null || text.length > SERVICE_FILE_LIMIT) return null;
  const out: [string, string][] = [];
  let inside = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("[")) {
      inside = name === null || line.replace(/^\[|\]$/g, "") === name;
      continue;
    }
    const eq = line.indexOf("=");
    if (inside && eq > 0) out.push([line.slice(0, eq).trim(), line.slice(eq + 1).trim()]);
  }
  return out;
}

/**
 * The texts a word of a stage may stand for: a glob word's as written (bash passes it so where
 * it matches nothing) and its matches where they are known; a word with parts not known as
 * written (its file parameters whose value holds one are not known).
 */
function wordTexts(w: Word, given?: NamedFilesGiven): string[] {
  if (w.kind !== "glob") return [w.value];
  const matched = given?.globs?.words(w) ?? [];
  return [...new Set([w.value, ...matched])];
}

/** The connection parameters a word names (`--dbname=CONN`, `-dCONN`: the connection after it). */
function wordParameters(v: string): [string, string][] {
  const after = /^--[\w-]+=/.exec(v)?.[0].length ?? (v.startsWith("-d") ? 2 : 0);
  return uriParameters(v.slice(after)) ?? conninfoParameters(v.slice(after)) ?? [];
}

/**
 * The files the connections a stage's words name make libpq read, and those the environment
 * the stage sets names. Every word is looked at (a connection is an operand, a `-d`/`--dbname`
 * value, `--maintenance-db=`, …); only a URI or a key=value string names any. A service's file
 * is read as it will be when the command runs (`given.read`): the named service's file
 * parameters are judged as given; one named by `PGSERVICEFILE` that cannot be read now is a file
 * not known, the default ones (`~/.pg_service.conf`, `$PGSYSCONFDIR/pg_service.conf`) no file.
 */
export function libpqFiles(argv: Word[], stage?: Stage, given?: NamedFilesGiven): NamedFile[] {
  const source = programName(argv[0]);
  const out: NamedFile[] = [];
  const services: string[] = [];
  const add = (key: string, value: string | null) => {
    if (FILE_PARAMETERS.has(key) && value !== "") out.push({ path: value, source });
    if (key === "service" && value) services.push(value);
  };
  for (const w of argv.slice(1)) {
    if (!w.value.includes("=")) continue;
    const dynamic = w.kind === "dynamic";
    for (const text of wordTexts(w, given)) {
      for (const [key, value] of wordParameters(text)) {
        add(key, dynamic && /[$`]/.test(value) ? null : value);
      }
    }
  }
  const set = new Map<string, string | null>();
  for (const a of stage?.assignments ?? []) {
    const eq = a.value.indexOf("=");
    const name = a.value.slice(0, eq);
    const value = a.kind === "static" ? a.value.slice(eq + 1) : null;
    if (eq > 0) set.set(name, value);
    if (eq > 0 && FILE_VARIABLES.has(name)) out.push({ path: value, source });
  }
  const variable = (name: string) => set.has(name) ? set.get(name)! : given?.env?.[name];
  const service = variable("PGSERVICE");
  if (service) services.push(service);
  if (services.length) out.push(...serviceFiles(services, variable, source, given));
  return out;
}

/**
 * A connection made later by a connection string or URI (psql's `\\connect CONN`): the files
 * its file parameters name, and those of the section of the service it names (else `service`,
 * the `PGSERVICE` it finds) in the service files libpq reads (`variable`: the environment it
 * finds), are opened where `run` is; a service file not known is a file not known. False where
 * `text` is no connection string (libpq's `recognized_connection_string`: a URI, or any `=`).
 */
export function connectionOpens(
  text: string,
  service: string | null | undefined,
  run: Runner,
  origin: string,
  variable: (name: string) => string | null | undefined,
): boolean {
  if (!text.includes("=") && !URI.test(text)) return false;
  const services = service ? [service] : [];
  const out: NamedFile[] = [];
  // (A string libpq cannot parse connects nowhere.)
  for (const [key, value] of uriParameters(text) ?? conninfoParameters(text) ?? []) {
    if (FILE_PARAMETERS.has(key) && value !== "") out.push({ path: value, source: origin });
    if (key === "service" && value) services[0] = value;
    if (key === "options" && optionsLoadCode(value)) {
      run.stage([unknownWord("(what the connection's options make the server load)")], origin);
    }
  }
  const home = run.home(null) ?? undefined;
  const given = { read: (f: string) => run.settings(f), env: { HOME: home } };
  if (services.length) out.push(...serviceFiles(services, variable, origin, given));
  for (const f of out) {
    if (f.path === null) run.stage([literal(`(${origin} opens)`), unknownWord("(a file)")], origin);
    else opensFile(f.path, run, origin);
  }
  return true;
}

/**
 * Whether the server's command-line options a connection sends (its `options` parameter,
 * `PGOPTIONS`) may make it load a library or run a command as it starts the session: a setting
 * that names one (`-c session_preload_libraries=/tmp/evil`, `--dynamic-library-path=…`), or a
 * value not known (null).
 */
export function optionsLoadCode(options: string | null): boolean {
  return options === null || serverOptionSettings(options).some(codeSetting);
}

/**
 * `PGOPTIONS=…`, the server's options every libpq client sends: one that may make it load a
 * library is not known, as `LOAD` is (the value it had, `$PGOPTIONS`, is the user's).
 */
export function pgOptionsVariable(run: Runner, w: Word, value: string, origin: string): void {
  const own = value.replace(/\$\{?PGOPTIONS\}?/g, "");
  if (optionsLoadCode(w.kind === "static" || !/[$`]/.test(own) ? own : null)) {
    run.stage([unknownWord(`(what ${w.text} makes the server load)`)], origin);
  }
}

/**
 * What a libpq client's connection makes the server load or run as it starts (see
 * `optionsLoadCode`): the `options` of a connection string or URI among its words, and a
 * `PGOPTIONS` set before it (one exported is expand.ts's); not known, as `LOAD` is. The server
 * is taken to be this machine.
 */
export function libpqServerOptions(stage: Stage, run: Runner, origin: string): void {
  const options: (string | null)[] = [];
  for (const w of stage.argv.slice(1)) {
    if (!w.value.includes("options")) continue;
    const dynamic = w.kind !== "static";
    for (const [key, value] of wordParameters(w.value)) {
      if (key === "options") options.push(dynamic ? null : value);
    }
  }
  if (options.some(optionsLoadCode)) {
    run.stage([unknownWord("(what the connection's options make the server load)")], origin);
  }
}

/** libpq's clients but psql: the server's options their connections send. */
export function libpqRuns(stage: Stage, run: Runner): void {
  libpqServerOptions(stage, run, programName(stage.argv[0]));
}

/** The file parameters the sections of the services named hold, in the files libpq reads. */
function serviceFiles(
  services: string[],
  variable: (name: string) => string | null | undefined,
  source: string,
  given?: NamedFilesGiven,
): NamedFile[] {
  const out: NamedFile[] = [];
  const named = variable("PGSERVICEFILE");
  const home = given?.env?.HOME;
  const sysconf = variable("PGSYSCONFDIR");
  const files: [string | null | undefined, boolean][] = [
    [named === undefined ? (home ? `${home}/.pg_service.conf` : undefined) : named, !!named],
    [sysconf === null ? null : sysconf ? `${sysconf}/pg_service.conf` : undefined, false],
  ];
  for (const [file, explicit] of files) {
    if (file === undefined) continue;
    const text = file === null ? null : given?.read?.(file) ?? null;
    for (const name of services) {
      const pairs = serviceParameters(text, name);
      if (pairs === null && (explicit || file === null)) out.push({ path: null, source });
      for (const [key, value] of pairs ?? []) {
        if (FILE_PARAMETERS.has(key) && value) out.push({ path: value, source });
      }
    }
  }
  return out;
}

/**
 * Whether a stage's name is that of the stage `libpqVariable` makes for a file libpq reads
 * (`(env PGSSLKEY opens)`): it writes nothing (every variable of `LIBPQ_FILE_ENV` names a file
 * read), so no other stage's files change by it.
 */
export function libpqReads(name: string): boolean {
  return /^\(env PG\w+ opens\)$/.test(name) && LIBPQ_FILE_ENV.test(name.slice(5, -7));
}

/**
 * A variable naming a file libpq reads, set wherever (`export PGSSLKEY=F; psql -h h`, alone, or
 * before any program): the file is judged as opened by the command, and a service file's (or
 * `$PGSYSCONFDIR/pg_service.conf`'s) file parameters of every service, as it will be when the
 * command runs (not known: a file not known). Before a client (`before`), `libpqFiles` judges it.
 */
export function libpqVariable(
  run: Runner,
  w: Word,
  [variable, value]: [string, string],
  origin: string,
  before: string,
): void {
  // (Before a client, its `namedFiles` reads it: the service it names only.)
  if (value === "" || before === "psql" || LIBPQ_PROGRAMS.includes(before)) return;
  if (w.kind !== "static") {
    const at = w.prefix.indexOf("=") + 1;
    run.stage([literal(`(${origin} opens)`), { ...w, value, prefix: w.prefix.slice(at) }], origin);
    return;
  }
  const file = variable === "PGSYSCONFDIR" ? `${value.replace(/\/$/, "")}/pg_service.conf` : value;
  opensFile(file, run, origin);
  if (variable !== "PGSERVICEFILE" && variable !== "PGSYSCONFDIR") return;
  const pairs = serviceParameters(run.settings(file), null);
  if (pairs === null) {
    run.stage([literal(`(${origin} opens)`), unknownWord(`(the files ${file} names)`)], origin);
  }
  for (const [key, path] of pairs ?? []) if (FILE_PARAMETERS.has(key)) opensFile(path, run, origin);
}

/** PostgreSQL's clients, other than psql (databases.ts), that connect by libpq. */
export const LIBPQ_PROGRAMS = [
  "pg_dump",
  "pg_dumpall",
  "pg_restore",
  "createdb",
  "dropdb",
  "createuser",
  "dropuser",
  "pg_isready",
  "vacuumdb",
  "reindexdb",
  "clusterdb",
  "pgbench",
  "pg_basebackup",
  "pg_receivewal",
  "pg_recvlogical",
  "pg_upgrade",
];
