/**
 * Where psql's server is: what its SQL runs and opens on the server counts as this machine's
 * unless every host psql may connect to is surely another machine.
 */
import assert from "node:assert/strict";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import type { Context } from "../types.ts";
import { connectionHosts, reconnect } from "./psql_hosts.ts";

const H = "/home/user";
const READ = "select pg_read_file('/home/user/.ssh/id_rsa')";
const P = `${H}/p`;
const open = configFrom({
  policies: { p: { defaultAction: "allow", rules: [] } },
  locations: { "/": "p" },
  pathProtection: { ".env": "ask", "~/.ssh/**": "deny" },
}, { agentDir: `${H}/.pi/agent`, home: H });
const CONTENTS: Record<string, string> = {
  "/etc/hosts": "127.0.0.1 localhost\n127.0.0.1 db.example.com\n10.1.2.3 db.internal\n",
  [`${P}/migrate.sql`]: "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql;\n" +
    "CREATE TABLE t(id int);\n",
  [`${P}/copy.sql`]: "COPY t FROM PROGRAM 'cat .env';\n",
  [`${P}/switch.sql`]: "\\c app app localhost\nCOPY t FROM PROGRAM 'cat .env';\n",
  [`${P}/away.sql`]: "\\c app app db.internal\nCOPY t FROM PROGRAM 'cat .env';\n",
  [`${P}/conn.sql`]:
    "\\c host=localhost dbname=app\nselect pg_read_file('/home/user/.ssh/id_rsa');\n",
  [`${P}/quoted.sql`]:
    "\\c 'host=localhost dbname=app'\nselect pg_read_file('/home/user/.ssh/id_rsa');\n",
  [`${P}/fresh.sql`]: "\\c -reuse-previous=off app\nCOPY t FROM PROGRAM 'cat .env';\n",
  [`${P}/fresh_env.sql`]:
    "\\setenv PGHOST db.internal\n\\c -reuse-previous=off app\nCOPY t FROM PROGRAM 'cat .env';\n",
  [`${P}/addr.sql`]: "\\setenv PGHOSTADDR 127.0.0.1\n\\c app\nCOPY t FROM PROGRAM 'cat .env';\n",
  [`${P}/other.sql`]: "\\c app app db.other\n\\c -reuse-previous=on app\nCREATE TABLE t(id int);\n",
};
const ctxWith = (contents: Record<string, string>): Context => ({
  ...ctxIn(P, { home: H, contents: { ...CONTENTS, ...contents } }),
  machine: () => ({ hostname: "box.example.com", addresses: ["192.168.1.7"] }),
});
const ctx = ctxWith({});

Deno.test("psql hosts: the hosts a connection string or URI names", () => {
  assert.deepEqual(connectionHosts("host=db port=5432"), ["db"]);
  assert.deepEqual(connectionHosts("host=a,localhost dbname=x"), ["a", "localhost"]);
  assert.deepEqual(connectionHosts("host=a hostaddr=127.0.0.1"), ["a", "127.0.0.1"]);
  assert.deepEqual(connectionHosts("dbname=x"), []);
  assert.equal(connectionHosts("service=prod"), null);
  assert.equal(connectionHosts("app"), null);
  assert.deepEqual(connectionHosts("postgresql://u:pw@db1:5432,db2/app"), ["db1", "db2"]);
  assert.deepEqual(connectionHosts("postgres://[::1]:5432/app"), ["::1"]);
  assert.deepEqual(connectionHosts("postgresql://%2Fvar%2Frun%2Fpostgresql/app"), [
    "/var/run/postgresql",
  ]);
  assert.deepEqual(connectionHosts("postgresql://db/app?hostaddr=127.0.0.1"), ["db", "127.0.0.1"]);
  assert.deepEqual(connectionHosts("postgresql:///app"), []);
  assert.equal(connectionHosts("postgresql://db/app?service=x"), null);
  // libpq's schemes are lower-case: any other spelling is a database's name.
  assert.equal(connectionHosts("POSTGRESQL://db/app"), null);
  assert.equal(connectionHosts("Postgres://db/app"), null);
  // The user part ends at the first `@` before a `/`: a `?` or `#` there is the user's.
  assert.deepEqual(connectionHosts("postgresql://db?a=b@localhost/app"), ["localhost"]);
  assert.deepEqual(connectionHosts("postgresql://db#@localhost:5432/app"), ["localhost"]);
  assert.deepEqual(connectionHosts("postgresql://u:p@ss@db/app"), ["ss@db"]);
  // The hosts are decoded once joined: `%2C` is a comma between two.
  assert.deepEqual(connectionHosts("postgresql://db%2Clocalhost/app"), ["db", "localhost"]);
  assert.deepEqual(connectionHosts("postgresql://db,[::1]:5433/app"), ["db", "::1"]);
  assert.deepEqual(connectionHosts("postgresql://db:5432?hostaddr=%31%32%37.0.0.1"), [
    "db",
    "127.0.0.1",
  ]);
  // What libpq refuses connects nowhere.
  assert.equal(connectionHosts("postgresql://[::1/app"), null);
  assert.equal(connectionHosts("postgresql://db/app?host=a b"), null);
  assert.deepEqual(connectionHosts("host = 'db one' hostaddr=\\1.2.3.4"), ["db one", "1.2.3.4"]);
});

Deno.test("psql hosts: where \\c connects", () => {
  const env = (vars: Record<string, string | null>) => (n: string) => vars[n];
  const none = env({});
  const prev = { host: "db.internal", hostaddr: "", exact: true };
  const arg = (text: string, known = true) => ({ text, known });
  const c = (args: string[], from = prev, e = none) => reconnect(from, args.map((a) => arg(a)), e);
  // Positional: reused unless -reuse-previous=off; `-` keeps a value.
  assert.deepEqual(c(["app"]), prev);
  assert.deepEqual(c(["-", "-", "-"]), prev);
  assert.deepEqual(c([]), prev);
  assert.deepEqual(c(["app", "u", "db2"]), { host: "db2", hostaddr: "", exact: true });
  for (const off of ["off", "of", "OFF", "false", "f", "no", "n", "0"]) {
    assert.deepEqual(c([`-reuse-previous=${off}`, "app"]), { host: "", hostaddr: "", exact: true });
  }
  for (const on of ["on", "true", "t", "yes", "1"]) {
    assert.deepEqual(c([`-reuse-previous=${on}`, "app"]), prev);
  }
  assert.equal(c(["-reuse-previous=o", "app"]), "same");
  assert.equal(c(["-reuse-previous=maybe", "app"]), "same");
  // Not set: the environment as psql has it then.
  const pghost = env({ PGHOST: "db3" });
  assert.deepEqual(c(["-reuse-previous=off", "app"], prev, pghost), {
    host: "db3",
    hostaddr: "",
    exact: true,
  });
  assert.equal(c(["-reuse-previous=off"], prev, env({ PGHOST: null })), null);
  assert.deepEqual(c(["app"], prev, env({ PGHOSTADDR: "127.0.0.1" })), {
    ...prev,
    hostaddr: "127.0.0.1",
  });
  assert.equal(c(["app"], prev, env({ PGSERVICE: "x" })), null);
  // The same host keeps its address, another drops it.
  const addr = { host: "db", hostaddr: "127.0.0.1", exact: true };
  assert.deepEqual(c(["-", "-", "db"], addr), addr);
  assert.deepEqual(c(["-", "-", "db2"], addr), {
    host: "db2",
    hostaddr: "",
    exact: true,
  });
  assert.equal(c(["-", "-", "db2"], { ...addr, exact: false }), null);
  // A connection string: not reused unless asked; reused, it keeps what it does not set.
  assert.deepEqual(c(["dbname=x"]), { host: "", hostaddr: "", exact: true });
  assert.deepEqual(c(["-reuse-previous=on", "dbname=x"]), prev);
  assert.deepEqual(c(["-reuse-previous=on", "host=db2"], addr), { ...addr, host: "db2" });
  assert.deepEqual(c(["postgresql://db2/app"]), {
    host: "db2",
    hostaddr: "",
    exact: true,
  });
  assert.equal(c(["host=db2", "u"]), null);
  assert.equal(c(["service=x"]), null);
  // Not known: nothing reused from a connection not known, a value not known.
  assert.equal(c(["app"], null as never), null);
  assert.equal(reconnect(prev, [arg(":v", false)], none), null);
  assert.equal(c(["app", "u", ""]), null);
});

Deno.test("psql hosts: SQL on a server surely elsewhere runs nothing here", async () => {
  await checkActions(open, ctx, [
    // Everyday: a migration on another machine.
    ["psql -h db.internal -f migrate.sql", "allow"],
    ["psql --host=db.internal -f migrate.sql", "allow"],
    ["psql -h db.internal -f copy.sql", "allow"],
    ['psql "host=db.internal dbname=app" -f migrate.sql', "allow"],
    ["psql -d postgresql://app@db.internal:5432/app -f migrate.sql", "allow"],
    ["psql postgres://app@db.internal/app -f migrate.sql", "allow"],
    ["PGHOST=db.internal psql -f migrate.sql", "allow"],
    ["export PGHOST=db.internal; psql app -f migrate.sql", "allow"],
    ["psql -h db.internal -f away.sql", "allow"],
    // Hostile: any host that may be this machine.
    ["psql -h localhost -f copy.sql", "ask"],
    ["psql -h 127.0.0.2 -f copy.sql", "ask"],
    ["psql -h box -f copy.sql", "ask"],
    ["psql -h box.example.com -f copy.sql", "ask"],
    ["psql -h 192.168.1.7 -f copy.sql", "ask"],
    ["psql -h $(hostname) -f copy.sql", "ask"],
    ["psql -h db.example.com -f copy.sql", "ask"], // (/etc/hosts: 127.0.0.1)
    ["psql -h db.internal,localhost -f copy.sql", "ask"],
    ['psql "host=db.internal,localhost" -f copy.sql', "ask"],
    ['psql "host=db.internal hostaddr=127.0.0.1" -f copy.sql', "ask"],
    ["psql postgresql://db.internal,localhost/app -f copy.sql", "ask"],
    ["psql -d 'postgresql://db.internal/app?hostaddr=127.0.0.1' -f copy.sql", "ask"],
    ["psql -h db.internal -d 'host=localhost' -f copy.sql", "ask"],
    ["psql -h /var/run/postgresql -f copy.sql", "ask"],
    ["psql -f copy.sql", "ask"],
    ["psql -h db.internal service=prod -f copy.sql", "ask"],
    ["PGSERVICE=prod psql -h db.internal -f copy.sql", "ask"],
    ["PGHOSTADDR=127.0.0.1 psql -h db.internal -f copy.sql", "ask"],
    ["export PGHOST=db.internal; unset PGHOST; psql -f copy.sql", "ask"],
    ["export PGHOST=db.internal; export PGHOST=$X; psql -f copy.sql", "ask"],
    // (Set by the command to a value not known, wherever: the address may be this machine's.)
    ["export PGHOSTADDR=$(cat f); psql -h db.internal -f copy.sql", "ask"],
    ["read PGSERVICE < f; export PGSERVICE; psql -h db.internal -f copy.sql", "ask"],
    ["if true; then export PGHOSTADDR=127.0.0.1; fi; psql -h db.internal -f copy.sql", "ask"],
    ["psql -h $DBHOST -f copy.sql", "ask"],
    // `\c` moves the connection: after it, the new host.
    ["psql -h db.internal -f switch.sql", "ask"],
    ["psql -h db.internal -f conn.sql", "deny"],
    // `\\c -reuse-previous=off` (any spelling psql takes) starts from libpq's defaults: the
    // socket here, or the PGHOST psql has then (`\\setenv`).
    ["psql -h db.internal -f fresh.sql", "ask"],
    ["psql -h db.internal -f quoted.sql", "deny"],
    ["psql -h db.internal -f addr.sql", "ask"],
    ["psql -h db.internal -f other.sql", "allow"],
    ["psql -h db.internal -f fresh_env.sql", "allow"],
    ...["-reuse-previous=off", "-reuse-previous=0", '"-reuse-previous=NO"', "-reuse-previous=f"]
      .flatMap((off): [string, "deny"][] => [
        [`psql -h db.internal -c '\\c ${off} app' -c "${READ}"`, "deny"],
        [`psql -h db.internal -c '\\connect ${off} app' -c "${READ}"`, "deny"],
        [`psql -h db.internal <<'EOF'\n\\c ${off} app\n${READ};\nEOF`, "deny"],
      ]),
    [`psql -h db.internal -c '\\c -reuse-previous=on app' -c "${READ}"`, "allow"],
    [`psql -h db.internal -c '\\c -reuse-previous=o app' -c "${READ}"`, "allow"],
    [`psql -h db.internal -c '\\c app - -' -c "${READ}"`, "allow"],
    [`psql -h db.internal -c '\\c app - localhost' -c "${READ}"`, "deny"],
    [`psql -h db.internal -c "\\c 'dbname=app'" -c "${READ}"`, "deny"],
    [`psql -h db.internal -c "\\c 'host=db.other'" -c "${READ}"`, "allow"],
    [`PGHOST=db.other psql -h db.internal -c '\\c -reuse-previous=off' -c "${READ}"`, "allow"],
    [
      `psql -h db.internal -c '\\setenv PGHOST localhost' -c '\\c -reuse-previous=off' -c "${READ}"`,
      "deny",
    ],
    [`psql -h db.internal -c '\\setenv PGSERVICE prod' -c '\\c app' -c "${READ}"`, "deny"],
    // A URI's scheme is lower-case: another spelling is a database here.
    ["psql POSTGRESQL://db.internal/app -f copy.sql", "ask"],
    ["psql -d Postgres://db.internal/app -f copy.sql", "ask"],
    ["psql --dbname=POSTGRES://db.internal/app -f copy.sql", "ask"],
    ["psql -h db.internal POSTGRESQL://db.other/app -f migrate.sql", "allow"],
    ["psql 'postgresql://db.internal?x=y@localhost/app' -f copy.sql", "ask"],
    ["psql 'postgresql://db.internal%2Clocalhost/app' -f copy.sql", "ask"],
    ["psql 'postgresql://[::1]:5432/app' -f copy.sql", "ask"],
    ["psql 'postgresql://app@[fd00::1]:5432/app' -f copy.sql", "allow"],
    // What psql itself runs here stays this machine's.
    ["psql -h db.internal -c '\\! cat .env'", "ask"],
  ]);
});

Deno.test("psql hosts: ~/.psqlrc's \\c moves the connection before the commands", async () => {
  const rc = (text: string) => ctxWith({ [`${H}/.psqlrc`]: text });
  await checkActions(open, rc("\\c -reuse-previous=off app\n"), [
    ["psql -h db.internal -f copy.sql", "ask"],
    ["psql -X -h db.internal -f copy.sql", "allow"],
  ]);
  await checkActions(open, rc("\\set QUIET 1\n\\c app\n"), [
    ["psql -h db.internal -f copy.sql", "allow"],
  ]);
});

Deno.test("psql hosts: the tool's PGHOSTADDR or PGSERVICE may point anywhere", async () => {
  const env = { ...ctx, env: { ...ctx.env, PGHOSTADDR: "127.0.0.1" } };
  await checkActions(open, env, [["psql -h db.internal -f copy.sql", "ask"]]);
  const service = { ...ctx, env: { ...ctx.env, PGSERVICE: "prod" } };
  await checkActions(open, service, [["psql -h db.internal -f copy.sql", "ask"]]);
});
