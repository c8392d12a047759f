/**
 * Where psql's server is (libpq's manual, "Parameter Key Words", "Environment Variables"): the
 * hosts of `-h`/`--host`, of a connection string (`host=`, `hostaddr=`) or URI
 * (`postgresql://u@h1:5432,h2/db`) given as `-d`/`--dbname` or as the first operand, else of
 * `PGHOST` the command sets (a prefix, or exported with a value known); `hostaddr`/`PGHOSTADDR`
 * is the address connected to whatever the host is. The server is another machine only where
 * every host given is one (`Runner.thisMachine`), none is a Unix socket's directory (`-h
 * /var/run/postgresql`), and nothing else may pick the host: no host (libpq's socket here), a
 * value not known, a service (`service=`, `PGSERVICE`: its file's section may name any), a
 * `hostaddr`/`PGHOSTADDR`/`PGSERVICE` of the tool's environment.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { connectionHosts } from "./psql_hosts.ts";
 * connectionHosts("postgresql://u@db1:5432,db2/app"); // ["db1", "db2"]
 * connectionHosts("host=db port=5432"); // ["db"]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { conninfoParameters } from "./libpq.ts";
import type { Runner } from "./spec.ts";

/**
 * The hosts a connection string or URI names (`host`, `hostaddr`; several comma-separated): []
 * where it names none, null where it is no connection string or may pick one otherwise
 * (`service`, a URI libpq would read otherwise).
 */
export function connectionHosts(text: string): string[] | null {
  const uri = /^postgres(?:ql)?:\/\/([^/?#]*)(?:[/?#]|$)/i.exec(text);
  const out: string[] = [];
  let params: [string, string][];
  if (uri) {
    const hosts = uri[1].replace(/^.*@/, "");
    for (const h of hosts.split(",")) {
      // (`[::1]:5432`, `host:5432`, `%2Fvar%2Frun%2Fpostgresql`.)
      const host = h.startsWith("[") ? h.slice(0, h.indexOf("]") + 1) : h.replace(/:\d*$/, "");
      if (host) out.push(decode(host));
    }
    const query = /\?([^#]*)/.exec(text.slice(uri[0].length - 1))?.[1] ?? "";
    params = query.split("&").filter(Boolean).map((p) => {
      const eq = p.indexOf("=");
      return [decode(p.slice(0, eq < 0 ? p.length : eq)), decode(eq < 0 ? "" : p.slice(eq + 1))];
    });
  } else {
    if (!text.includes("=")) return null;
    const pairs = conninfoParameters(text);
    if (pairs === null) return null;
    params = pairs;
  }
  for (const [key, value] of params) {
    if (key === "service") return null;
    if (key === "host" || key === "hostaddr") out.push(...value.split(","));
  }
  return out;
}

/** A URI's percent-decoding (as written where it does not decode). */
function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Whether `hosts` (what a connection names) are all another machine's: none empty, none a Unix
 * socket's directory (`/…`, `@abstract`), each one `Runner.thisMachine` says is not here.
 */
export function elsewhere(hosts: string[], run: Runner): boolean {
  return hosts.length > 0 &&
    hosts.every((h) => h !== "" && !/^[/@]/.test(h) && !run.thisMachine(h.trim()));
}

/**
 * The hosts psql's command line names (`options`: each valued option by its short name, `""`
 * for an operand), with the `PGHOST` the stage sets; null where they may be this machine's or
 * something else may pick them (see the module).
 */
export function commandHosts(
  stage: Stage,
  run: Runner,
  options: readonly [string, Word][],
): string[] | null {
  // (The tool's own PGHOSTADDR or PGSERVICE may point anywhere, whatever the host.)
  if (run.variable("PGHOSTADDR") || run.variable("PGSERVICE")) return null;
  const set = new Map<string, string | null>();
  for (const [name, value] of stage.handed ?? []) set.set(name, value);
  for (const a of stage.assignments ?? []) {
    const eq = a.value.indexOf("=");
    if (eq > 0) set.set(a.value.slice(0, eq), a.kind === "static" ? a.value.slice(eq + 1) : null);
  }
  if (set.has("PGHOSTADDR") || set.has("PGSERVICE")) return null;
  const hosts: string[] = [];
  let named = false;
  const operand = options.find(([o]) => o === "")?.[1];
  for (const [opt, value] of options) {
    if (opt !== "-h" && opt !== "-d" && value !== operand) continue;
    if (value.kind !== "static") return null;
    if (opt === "-h") {
      hosts.push(...value.value.split(","));
      named = true;
      continue;
    }
    // (A plain database name names no host; a string that may pick one otherwise does. What
    // both `-h` and a connection string name may be the host: each counts.)
    const found = connectionHosts(value.value);
    if (found === null && (value.value.includes("=") || /^postgres/i.test(value.value))) {
      return null;
    }
    named ||= (found ?? []).length > 0;
    hosts.push(...found ?? []);
  }
  if (!named) {
    const env = set.get("PGHOST");
    if (env === null || env === undefined) return null;
    hosts.push(...env.split(","));
  }
  return hosts;
}
