/** The files a libpq connection names: in a URI's query, a key=value string or the environment. */
import assert from "node:assert/strict";
import { conninfoParameters, libpqFiles } from "./libpq.ts";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import { literal } from "./words.ts";

const paths = (...words: string[]) => libpqFiles(words.map(literal)).map((f) => f.path);

Deno.test("libpqFiles: the file parameters of URIs and key=value strings", () => {
  assert.deepEqual(
    paths("psql", "postgresql://u@h:5432/db?sslmode=require&sslkey=k%20y&passfile=p"),
    [
      "k y",
      "p",
    ],
  );
  assert.deepEqual(paths("pg_dump", "--dbname=postgres://h/db?sslrootcert=r&sslcrl=c"), ["r", "c"]);
  assert.deepEqual(paths("psql", "-d", "host=h sslcert = 'a b' sslcrldir=d"), ["a b", "d"]);
  assert.deepEqual(paths("psql", "-dhost=h sslkey=k"), ["k"]);
  assert.deepEqual(paths("psql", "postgresql://u@localhost/db", "host=h dbname=x user=me"), []);
  assert.deepEqual(conninfoParameters("a='x\\'y' b=z\\ w"), [["a", "x'y"], ["b", "z w"]]);
  assert.equal(conninfoParameters("select a=1 from t"), null);
});

Deno.test("libpq: a protected file named by a connection is reached", async () => {
  const H = "/home/user";
  const P = `${H}/project`;
  const config = configFrom({
    policies: {
      open: { defaultAction: "allow", rules: [{ action: "deny", tool: "bash", pattern: "rm *" }] },
    },
    locations: { "/": "open" },
    pathProtection: { ".env": "ask", "secrets/**": "deny", "~/.ssh/**": "deny" },
  }, { agentDir: `${H}/.pi/agent`, home: H });
  const ctx = ctxIn(P, { files: [`${P}/.env`, `${P}/secrets/key`, `${H}/.ssh/id_rsa`] });
  await checkActions(config, ctx, [
    ["psql 'postgresql://u@h/db?passfile=secrets/key'", "deny"],
    ["psql 'postgresql://u@h/db?sslkey=secrets%2Fkey'", "deny"],
    ["psql 'postgres://h/db?sslrootcert=.env'", "ask"],
    ["pg_dump 'postgresql://h/db?sslcert=secrets/key' -f out.sql", "deny"],
    ["pg_restore --dbname='host=h sslkey=.env' x.dump", "ask"],
    ["createdb --maintenance-db='host=h sslcrl = .env' db", "ask"],
    ["PGSSLKEY=.env psql -h h", "ask"],
    ["PGPASSFILE=~/.ssh/id_rsa pg_isready", "deny"],
    ["psql postgresql://u@localhost/db -c 'select 1'", "allow"],
    ["psql 'host=localhost dbname=app user=me sslmode=require'", "allow"],
    ["pg_dump -Fc -f backup.dump app", "allow"],
  ]);
});
