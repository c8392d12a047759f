/**
 * Where psql's server is (libpq's manual, "Parameter Key Words", "Environment Variables";
 * fe-connect.c): the `host` and `hostaddr` of its connection. At the start, those of `-h`/`--host`,
 * of a connection string (`host=`, `hostaddr=`) or URI (`postgresql://u@h1:5432,h2/db`, its
 * scheme lower-case as libpq's `uri_prefix_length` takes it: `POSTGRESQL://h/db` is a database's
 * name) given as `-d`/`--dbname` or as the first operand, else of `PGHOST` the command sets (a
 * prefix, or exported with a value known); `hostaddr`/`PGHOSTADDR` is the address connected to
 * whatever the host is. Then each `\c` moves it as psql's do_connect does (`reconnect`). The
 * server is another machine only where every host and address given is one
 * (`Runner.thisMachine`), none is a Unix socket's directory (`-h /var/run/postgresql`), and
 * nothing else may pick them: no host (libpq's socket here), a value not known, a service
 * (`service=`, `PGSERVICE`: its file's section may name any), a `hostaddr`/`PGHOSTADDR`/
 * `PGSERVICE` of the tool's environment.
 *
 * @example
 * ```ts
 * import { connectionHosts } from "./psql_hosts.ts";
 * connectionHosts("postgresql://u@db1:5432,db2/app"); // ["db1", "db2"]
 * connectionHosts("host=db port=5432"); // ["db"]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { conninfoParameters, URI, uriParts } from "./libpq.ts";
import type { Runner } from "./spec.ts";

/**
 * Where a connection goes: its `host` and `hostaddr` parameters as libpq holds them (each
 * comma-separated; "" where not set), and whether `host` is surely that one text (psql compares
 * it with a new `\c`'s host); a connection not known is null.
 */
export interface Target {
  host: string;
  hostaddr: string;
  exact: boolean;
}

/** The environment psql finds a variable in: its value, null where not known. */
export type Env = (name: string) => string | null | undefined;

/** Whether libpq takes `text` as a connection string (`recognized_connection_string`). */
export function connectionString(text: string): boolean {
  return URI.test(text) || text.includes("=");
}

/**
 * The `host` and `hostaddr` a connection string or URI sets (undefined: not set), and whether
 * it names a service; null where it is none, or not one read here.
 */
export function connectionParams(
  text: string,
): { host?: string; hostaddr?: string; service: boolean } | null {
  let params: [string, string][] | null;
  const out: { host?: string; hostaddr?: string; service: boolean } = { service: false };
  if (URI.test(text)) {
    const uri = uriParts(text);
    if (uri === null) return null;
    if (uri.host) out.host = uri.host;
    params = uri.params;
  } else {
    if (!text.includes("=")) return null;
    params = conninfoParameters(text);
    if (params === null) return null;
  }
  for (const [key, value] of params) {
    if (key === "service") out.service = true;
    if (key === "host" || key === "hostaddr") out[key] = value;
  }
  return out;
}

/**
 * The hosts a connection string or URI names (`host`, `hostaddr`; several comma-separated): []
 * where it names none, null where it is no connection string or may pick one otherwise
 * (`service`, a URI read otherwise).
 */
export function connectionHosts(text: string): string[] | null {
  const p = connectionParams(text);
  if (p === null || p.service) return null;
  return [p.host, p.hostaddr].flatMap((v) => (v === undefined ? [] : v.split(",")));
}

/**
 * Whether `hosts` (what a connection names) are all another machine's: none empty, none a Unix
 * socket's directory (`/…`, `@abstract`), each one `Runner.thisMachine` says is not here.
 */
export function elsewhere(hosts: string[], run: Runner): boolean {
  return hosts.length > 0 &&
    hosts.every((h) => h !== "" && !/^[/@]/.test(h) && !run.thisMachine(h.trim()));
}

/** Whether a connection surely goes to another machine (its hosts and addresses). */
export function targetElsewhere(t: Target | null, run: Runner): boolean {
  if (t === null) return false;
  const names = [t.host, t.hostaddr].flatMap((v) => (v === "" ? [] : v.split(",")));
  return elsewhere(names, run);
}

/**
 * The environment psql starts with: what the stage sets (a prefix, exported with a value
 * known), else the tool's; `PGHOST` only as set (the tool's is not taken as another machine).
 */
export function startEnv(stage: Stage, run: Runner): Env {
  const set = new Map<string, string | null>();
  for (const [name, value] of stage.handed ?? []) set.set(name, value);
  for (const a of stage.assignments ?? []) {
    const eq = a.value.indexOf("=");
    if (eq > 0) set.set(a.value.slice(0, eq), a.kind === "static" ? a.value.slice(eq + 1) : null);
  }
  return (name) =>
    set.has(name) ? set.get(name) : run.changes(name) // (set by the command to a value not known: `export PGHOST=$(…)`)
      ? null
      : name === "PGHOST"
      ? undefined
      : run.variable(name);
}

/** Whether a variable is set in `env` to a value libpq takes (not empty), or may be. */
function setIn(env: Env, name: string): boolean {
  const v = env(name);
  return v === null || (v !== undefined && v !== "");
}

/**
 * Where psql's first connection goes (`options`: each valued option by its short name, `""`
 * for an operand): null where it may be this machine's or something else may pick it (see the
 * module). Every host named counts (libpq takes the connection string's over `-h`'s).
 */
export function commandTarget(options: readonly [string, Word][], env: Env): Target | null {
  // (PGHOSTADDR or PGSERVICE may point anywhere, whatever the host.)
  if (setIn(env, "PGHOSTADDR") || setIn(env, "PGSERVICE")) return null;
  const hosts: string[] = [];
  const addrs: string[] = [];
  const operand = options.find(([o]) => o === "")?.[1];
  for (const [opt, value] of options) {
    if (opt !== "-h" && opt !== "-d" && value !== operand) continue;
    if (value.kind !== "static") return null;
    if (opt === "-h") {
      hosts.push(value.value);
      continue;
    }
    // (A plain database name names no host; a string that may pick one otherwise does.)
    if (!connectionString(value.value)) continue;
    const found = connectionParams(value.value);
    if (found === null || found.service) return null;
    if (found.host !== undefined) hosts.push(found.host);
    if (found.hostaddr !== undefined) addrs.push(found.hostaddr);
  }
  if (!hosts.length && !addrs.length) {
    const pghost = env("PGHOST");
    if (pghost === null || pghost === undefined) return null;
    hosts.push(pghost);
  }
  return { host: hosts.join(","), hostaddr: addrs.join(","), exact: hosts.length === 1 };
}

/** A `\c` argument: its text (double quotes taken off), and whether it is known. */
export interface ConnectArg {
  text: string;
  known: boolean;
}

/**
 * Whether `-reuse-previous=VALUE` is on (psql's ParseVariableBool: a prefix of `true`, `false`,
 * `yes`, `no`, of `on`/`off` two letters at least, `1`, `0`, any case); undefined for none.
 */
function reuseValue(value: string): boolean | undefined {
  const v = value.toLowerCase();
  const prefix = (word: string, min = 1) => v.length >= min && word.startsWith(v);
  if (prefix("true") || prefix("yes") || prefix("on", 2) || v === "1") return true;
  if (prefix("false") || prefix("no") || prefix("off", 2) || v === "0") return false;
  return undefined;
}

/**
 * Where `\c [-reuse-previous=on|off] [CONN | DB [USER] [HOST] [PORT]]` connects, from `prev`
 * (psql's command.c do_connect; `env`: psql's environment now, as `\setenv` left it): with
 * the previous connection's parameters reused (the positional form's default), else with
 * libpq's defaults (a connection string's, or `-reuse-previous=off`: `PGHOST`, else the socket
 * here); a positional HOST other than the previous one drops its `hostaddr`; a connection
 * string's parameters replace those it gives; what is still not set comes from the environment
 * (`PGHOST`, `PGHOSTADDR`, `PGSERVICE`'s file). `-` or nothing keeps the previous value. "same"
 * where psql does not connect (a `-reuse-previous` value it refuses); null where not known (a
 * connection string with positional arguments after it: psql 14 on refuses it, older ones took
 * its hosts).
 */
export function reconnect(
  prev: Target | null,
  given: readonly ConnectArg[],
  env: Env,
): Target | null | "same" {
  const args = [...given];
  let reuse: boolean | undefined;
  if (args[0] && (!args[0].known || args[0].text.startsWith("-reuse-previous="))) {
    if (!args[0].known) return null;
    reuse = reuseValue(args[0].text.slice("-reuse-previous=".length));
    if (reuse === undefined) return "same";
    args.shift();
  }
  if (args.slice(0, 4).some((a) => !a.known || a.text === "")) return null;
  // (`-` keeps the previous value: psql's read_connect_arg gives none.)
  const [conn, , host] = args.slice(0, 4).map((a) => (a.text === "-" ? undefined : a.text));
  const string = conn !== undefined && connectionString(conn);
  // (psql 14 on refuses it and keeps the connection; older ones took its hosts.)
  if (string && args.slice(1, 4).some((a) => a.text !== "-")) return null;
  if (setIn(env, "PGSERVICE")) return null;
  const base = (reuse ?? !string) ? prev : { host: "", hostaddr: "", exact: true };
  if (base === null) return null;
  let next: Target;
  if (string) {
    const p = connectionParams(conn!);
    if (p === null || p.service) return null;
    next = {
      host: p.host ?? base.host,
      hostaddr: p.hostaddr ?? base.hostaddr,
      exact: p.host !== undefined || base.exact,
    };
  } else if (host !== undefined) {
    // (The same host keeps the address; another drops it, and the environment's may come.)
    if (!base.exact && base.hostaddr !== "") return null;
    next = { host, hostaddr: host === base.host ? base.hostaddr : "", exact: true };
  } else next = { ...base };
  for (const [key, name] of [["host", "PGHOST"], ["hostaddr", "PGHOSTADDR"]] as const) {
    if (next[key] !== "") continue;
    const v = env(name);
    if (v === null) return null;
    next[key] = v ?? "";
  }
  return next;
}
