/**
 * The files a libpq connection names (PostgreSQL's clients: psql, pg_dump, pg_restore, createdb,
 * …): the parameters `passfile`, `sslkey`, `sslcert`, `sslrootcert`, `sslcrl`, `sslcrldir` and
 * `service`'s file, given in a connection URI's query (`postgresql://h/db?sslkey=F`, its values
 * percent-decoded), in a key=value connection string (`host=h sslkey='F'`), or by the
 * environment the command sets (`PGPASSFILE=F`, `PGSSLKEY=F`, `PGSERVICEFILE=F`): each is read.
 * (libpq's manual, "Connection URIs", "Parameter Key Words", "Environment Variables".)
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile } from "./spec.ts";
import { programName } from "./words.ts";

/** The connection parameters whose value is a file (or a directory: `sslcrldir`) libpq reads. */
const FILE_PARAMETERS = new Set([
  "passfile",
  "sslkey",
  "sslcert",
  "sslrootcert",
  "sslcrl",
  "sslcrldir",
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

/** The parameters of a connection URI's query, percent-decoded; null where `value` is no URI. */
function uriParameters(value: string): [string, string][] | null {
  const m = /^postgres(?:ql)?:\/\/[^?]*\?([\s\S]*)$/i.exec(value);
  if (!m) return /^postgres(?:ql)?:\/\//i.test(value) ? [] : null;
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return m[1].split("&").flatMap((p) => {
    const eq = p.indexOf("=");
    return eq < 0 ? [] : [[decode(p.slice(0, eq)), decode(p.slice(eq + 1))] as [string, string]];
  });
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

/**
 * The files the connections a stage's words name make libpq read, and those the environment
 * the stage sets names. Every word is looked at (a connection is an operand, a `-d`/`--dbname`
 * value, `--maintenance-db=`, …); only a URI or a key=value string names any.
 */
export function libpqFiles(argv: Word[], stage?: Stage): NamedFile[] {
  const source = programName(argv[0]);
  const out: NamedFile[] = [];
  const add = (key: string, value: string) => {
    if (FILE_PARAMETERS.has(key) && value) out.push({ path: value, source });
  };
  for (const w of argv.slice(1)) {
    if (w.kind !== "static" || !w.value.includes("=")) continue;
    // (`--dbname=CONN`, `-dCONN`: the connection after the option.)
    const v = w.value;
    const after = /^--[\w-]+=/.exec(v)?.[0].length ?? (v.startsWith("-d") ? 2 : 0);
    const pairs = uriParameters(v.slice(after)) ?? conninfoParameters(v.slice(after));
    for (const [key, value] of pairs ?? []) add(key, value);
  }
  for (const a of stage?.assignments ?? []) {
    const eq = a.value.indexOf("=");
    if (eq > 0 && FILE_VARIABLES.has(a.value.slice(0, eq))) {
      out.push({ path: a.kind === "static" ? a.value.slice(eq + 1) : null, source });
    }
  }
  return out;
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
