/** The files a libpq connection names: in a URI's query, a key=value string or the environment. */
import assert from "node:assert/strict";
import { conninfoParameters, libpqFiles } from "./libpq.ts";
import { checkActions, ctxIn, rmDenied } from "../testing.ts";
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

const H = "/home/user";
const P = `${H}/project`;
/** Allow by default, `rm` denied; `.env` asks, `secrets/` and `~/.ssh` are denied. */
const config = rmDenied(H, { ssh: true });

Deno.test("libpq: a protected file named by a connection is reached", async () => {
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

Deno.test("libpq: unquoted URIs (glob words), services' files, variables exported first", async () => {
  const ctx = ctxIn(P, {
    files: [`${P}/.env`, `${P}/secrets/key`, `${H}/.ssh/id_rsa`],
    contents: {
      [`${P}/svc.conf`]: "# services\n[x]\nhost=h\nsslkey = secrets/key\n[y]\nhost=h\n",
      [`${H}/.pg_service.conf`]: "[home]\npassfile=.env\n[plain]\nhost=localhost\n",
      [`/etc/pg/pg_service.conf`]: "[sys]\nsslrootcert=/home/user/.ssh/id_rsa\n",
    },
  });
  await checkActions(config, ctx, [
    // (An unquoted URI's `?` makes it a glob word: bash passes it as written.)
    ["psql postgresql://h/db?sslkey=$HOME/.ssh/id_rsa", "deny"],
    ["pg_dump -d postgresql://h/db?passfile=.env", "ask"],
    ["pg_isready -d postgresql://h/db?sslrootcert=.env", "ask"],
    ["pg_dump --dbname=postgres://h/db?sslcert=secrets/key -f x.sql", "deny"],
    ["psql postgresql://h/db?sslmode=require -c 'select 1'", "allow"],
    // (A file parameter whose value is not known.)
    ['psql "postgresql://h/db?sslkey=$K"', "ask"],
    ['psql "host=h sslcert=$CERT"', "ask"],
    // (PostgreSQL 18's key log, a file written.)
    ["psql 'postgresql://h/db?sslkeylogfile=.env'", "ask"],
    ["psql 'host=h sslkeylogfile=secrets/key'", "deny"],
    // (A service's section of the file libpq reads.)
    ["PGSERVICEFILE=svc.conf psql service=x", "deny"],
    ["PGSERVICEFILE=svc.conf psql 'postgresql://h/db?service=x'", "deny"],
    ["PGSERVICEFILE=svc.conf psql service=y", "allow"],
    ["PGSERVICEFILE=svc.conf PGSERVICE=x psql -c 'select 1'", "deny"],
    ["psql service=home", "ask"],
    ["psql 'service=plain dbname=app'", "allow"],
    ["PGSYSCONFDIR=/etc/pg psql service=sys", "deny"],
    ["PGSERVICEFILE=$F psql service=x", "ask"],
    // (Exported first, or assigned alone: the later programs read it.)
    ["export PGSSLKEY=$HOME/.ssh/id_rsa; psql -h h", "deny"],
    ["PGSSLKEY=~/.ssh/id_rsa; export PGSSLKEY; pg_dump app", "deny"],
    ["export PGPASSFILE=.env && psql -h h", "ask"],
    ["export PGSERVICEFILE=svc.conf; psql service=x", "deny"],
    ["export PGSSLROOTCERT=$CA; psql -h h", "ask"],
    ["export PGSSLMODE=require PGHOST=h; psql -c 'select 1'", "allow"],
    ["export PGPASSFILE=pgpass; psql -h h", "allow"],
    ["PGSSLKEY=.env ./migrate.sh", "ask"],
  ]);
});
