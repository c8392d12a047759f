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
  // As libpq reads a URI: its query after the hosts (a `?` in the user part is the user's), its
  // scheme lower-case only (`POSTGRESQL://…?sslkey=k` is a key=value string libpq refuses).
  assert.deepEqual(paths("psql", "postgresql://u?sslkey=a@h/db?sslkey=k"), ["k"]);
  assert.deepEqual(paths("psql", "postgresql://h/db?sslkey=a%2Fb&passfile=p%20q"), ["a/b", "p q"]);
  assert.deepEqual(paths("psql", "POSTGRESQL://h/db?sslkey=k"), []);
  assert.deepEqual(paths("psql", "postgresql://h/db?sslkey=%zz"), []);
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

Deno.test("libpq: psql's \\connect with a connection string or URI opens its files", async () => {
  const ctx = ctxIn(P, {
    files: [`${P}/.env`, `${P}/secrets/key`, `${H}/.ssh/id_rsa`],
    contents: {
      [`${P}/svc.conf`]: "[x]\nhost=h\nsslkey = secrets/key\n[y]\nhost=h\n",
      [`${P}/db/switch.sql`]: "\\c 'host=h sslcert=secrets/key'\n",
    },
  });
  await checkActions(config, ctx, [
    // As `psql "dbname=x passfile=…"` does: in -c, scripts, \i files, here-documents, pipes.
    [`psql -c '\\c "dbname=x passfile=${H}/.ssh/id_rsa"'`, "deny"],
    ["psql -c '\\c \"sslkey=secrets/key host=h\"'", "deny"],
    ["psql -c '\\connect \"dbname=x sslrootcert=.env\"'", "ask"],
    ["psql -c '\\c postgresql://h/db?passfile=secrets/key'", "deny"],
    ["psql -c '\\c postgres://h/db?sslkey=secrets%2Fkey'", "deny"],
    ["psql -c \"\\\\c 'dbname=x sslkey=secrets/key'\"", "deny"],
    ["psql -c '\\c -reuse-previous=on \"dbname=x sslcert=secrets/key\"'", "deny"],
    ["psql -c 'select 1' -c '\\c \"dbname=x passfile=secrets/key\"'", "deny"],
    ["psql -h h <<'E'\nselect 1;\n\\c \"dbname=x passfile=secrets/key\"\nE", "deny"],
    ["echo '\\connect \"sslkey=secrets/key\"' | psql -h h", "deny"],
    ["psql -f db/switch.sql", "deny"],
    ["psql -h h <<'E'\n\\i db/switch.sql\nE", "deny"],
    ["psql -h h <<'E'\n\\cd secrets\n\\c \"sslkey=key\"\nE", "deny"],
    // A variable's value; one not known.
    ["psql -v c=sslkey=secrets/key -c '\\c :c'", "deny"],
    ["psql -h h <<'E'\nselect 'x' as c \\gset\n\\c :c\nE", "ask"],
    // The service it names (or \setenv's PGSERVICE), in the service file \setenv names.
    ["psql -c '\\setenv PGSERVICEFILE svc.conf' -c '\\c service=x'", "deny"],
    ["PGSERVICEFILE=svc.conf psql -c '\\c \"service=x dbname=app\"'", "deny"],
    ["PGSERVICEFILE=svc.conf psql -h h <<'E'\n\\setenv PGSERVICE x\n\\c dbname=app\nE", "deny"],
    ["psql -c '\\setenv PGSSLKEY secrets/key' -c '\\c db'", "deny"],
    // Everyday: positional forms, strings and URIs naming no file.
    ["psql -c '\\c mydb'", "allow"],
    ["psql -c '\\c mydb alice localhost 5432'", "allow"],
    ["psql -c '\\connect \"my db\"'", "allow"],
    ["psql -c '\\c \"dbname=app host=h port=5432 sslmode=require\"'", "allow"],
    ["psql -c '\\c postgresql://u@h:5432/db'", "allow"],
    ["PGSERVICEFILE=svc.conf psql -c '\\c service=y'", "allow"],
    ["psql -h h <<'E'\n\\c app\nselect 1;\nE", "allow"],
  ]);
});

Deno.test("libpq: server options that load a library (`options`, `PGOPTIONS`) are not known", async () => {
  const ctx = ctxIn(P, { files: [`${P}/.env`] });
  await checkActions(config, ctx, [
    // Hostile: the server reads `-c name=value`, `-cname=value`, `--name=value` as it starts.
    ["PGOPTIONS='-c session_preload_libraries=/tmp/evil' psql -c 'select 1'", "deny"],
    ["export PGOPTIONS='--session-preload-libraries=/tmp/evil'; psql", "deny"],
    ["env PGOPTIONS=-clocal_preload_libraries=x pg_dump db", "deny"],
    ['PGOPTIONS="$(cat o)" psql', "deny"],
    ["psql 'options=-csession_preload_libraries=/tmp/evil'", "deny"],
    ["psql 'postgresql://h/db?options=-c%20dynamic_library_path%3D/tmp'", "deny"],
    ["pg_dump \"host=h options='-c x=1 -c Session_Preload_Libraries=/t'\" db", "deny"],
    ["createdb --maintenance-db='options=--dynamic_library_path=/tmp' x", "deny"],
    ["psql -c '\\connect \"options=-csession_preload_libraries=/tmp/e\"'", "deny"],
    // Everyday: other settings.
    ["PGOPTIONS='-c statement_timeout=5s' psql -c 'select 1'", "allow"],
    ["psql 'host=localhost options=-cstatement_timeout=5s' -c 'select 1'", "allow"],
    ["PGOPTIONS='--search_path=app' pg_dump app -f out.sql", "allow"],
    ["pg_dump -h localhost app -f out.sql", "allow"],
  ]);
});
