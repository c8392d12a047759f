/**
 * Where psql's server is: what its SQL runs and opens on the server counts as this machine's
 * unless every host psql may connect to is surely another machine.
 */
import assert from "node:assert/strict";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import type { Context } from "../types.ts";
import { connectionHosts } from "./psql_hosts.ts";

const H = "/home/user";
const P = `${H}/p`;
const open = configFrom({
  policies: { p: { defaultAction: "allow", rules: [] } },
  locations: { "/": "p" },
  pathProtection: { ".env": "ask", "~/.ssh/**": "deny" },
}, { agentDir: `${H}/.pi/agent`, home: H });
const ctx: Context = {
  ...ctxIn(P, {
    home: H,
    contents: {
      "/etc/hosts": "127.0.0.1 localhost\n127.0.0.1 db.example.com\n10.1.2.3 db.internal\n",
      [`${P}/migrate.sql`]: "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql;\n" +
        "CREATE TABLE t(id int);\n",
      [`${P}/copy.sql`]: "COPY t FROM PROGRAM 'cat .env';\n",
      [`${P}/switch.sql`]: "\\c app app localhost\nCOPY t FROM PROGRAM 'cat .env';\n",
      [`${P}/away.sql`]: "\\c app app db.internal\nCOPY t FROM PROGRAM 'cat .env';\n",
      [`${P}/conn.sql`]:
        "\\c host=localhost dbname=app\nselect pg_read_file('/home/user/.ssh/id_rsa');\n",
    },
  }),
  machine: () => ({ hostname: "box.example.com", addresses: ["192.168.1.7"] }),
};

Deno.test("psql hosts: the hosts a connection string or URI names", () => {
  assert.deepEqual(connectionHosts("host=db port=5432"), ["db"]);
  assert.deepEqual(connectionHosts("host=a,localhost dbname=x"), ["a", "localhost"]);
  assert.deepEqual(connectionHosts("host=a hostaddr=127.0.0.1"), ["a", "127.0.0.1"]);
  assert.deepEqual(connectionHosts("dbname=x"), []);
  assert.equal(connectionHosts("service=prod"), null);
  assert.equal(connectionHosts("app"), null);
  assert.deepEqual(connectionHosts("postgresql://u:pw@db1:5432,db2/app"), ["db1", "db2"]);
  assert.deepEqual(connectionHosts("postgres://[::1]:5432/app"), ["[::1]"]);
  assert.deepEqual(connectionHosts("postgresql://%2Fvar%2Frun%2Fpostgresql/app"), [
    "/var/run/postgresql",
  ]);
  assert.deepEqual(connectionHosts("postgresql://db/app?hostaddr=127.0.0.1"), ["db", "127.0.0.1"]);
  assert.deepEqual(connectionHosts("postgresql:///app"), []);
  assert.equal(connectionHosts("postgresql://db/app?service=x"), null);
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
    ["psql -h $DBHOST -f copy.sql", "ask"],
    // `\c` moves the connection: after it, the new host.
    ["psql -h db.internal -f switch.sql", "ask"],
    ["psql -h db.internal -f conn.sql", "deny"],
    // What psql itself runs here stays this machine's.
    ["psql -h db.internal -c '\\! cat .env'", "ask"],
  ]);
});

Deno.test("psql hosts: the tool's PGHOSTADDR or PGSERVICE may point anywhere", async () => {
  const env = { ...ctx, env: { ...ctx.env, PGHOSTADDR: "127.0.0.1" } };
  await checkActions(open, env, [["psql -h db.internal -f copy.sql", "ask"]]);
  const service = { ...ctx, env: { ...ctx.env, PGSERVICE: "prod" } };
  await checkActions(open, service, [["psql -h db.internal -f copy.sql", "ask"]]);
});
