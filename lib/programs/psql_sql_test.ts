import { deepEqual } from "node:assert/strict";
import { analyse, SqlReader } from "./psql_sql.ts";

/** What a SQL text makes the server do, as `analyse` reports it. */
function effects(text: string): string[] {
  const out: string[] = [];
  const reader = new SqlReader((t) =>
    analyse(t, {
      program: (c) => out.push(`run ${c}`),
      file: (p, w) => out.push(`${w ? "write" : "read"} ${p}`),
      dynamic: (w) => out.push(`dynamic ${w}`),
    })
  );
  reader.feed(text);
  reader.end();
  return out;
}

Deno.test("psql_sql: constants, comments and quotes as PostgreSQL's lexer reads them", () => {
  deepEqual(effects("COPY t FROM PROGRAM 'cu'\n'rl x'"), ["run curl x"]);
  deepEqual(effects("COPY t FROM PROGRAM 'cu' -- c\n  'rl x'"), ["run curl x"]);
  deepEqual(effects("COPY t FROM PROGRAM 'cu' 'rl x'"), ["run cu"]); // (no newline: two)
  deepEqual(effects("COPY t FROM PROGRAM /* a /* b */ c */ 'x'"), ["run x"]);
  deepEqual(effects("COPY t FROM PROGRAM E'cu\\x72l \\'x\\''"), ["run curl 'x'"]);
  deepEqual(effects("COPY t FROM PROGRAM U&'cu\\0072l'"), ["run curl"]);
  deepEqual(effects("COPY t FROM PROGRAM $a$x$b$y$a$"), ["run x$b$y"]);
  deepEqual(effects("COPY t FROM PROGRAM 'a\\b'"), ["run null"]); // (two readings)
  deepEqual(effects("COPY t FROM PROGRAM 'it''s'"), ["run it's"]);
  deepEqual(effects('COPY "T" (a, "from") TO STDOUT; COPY t TO \'/x\''), ["write /x"]);
  deepEqual(effects("select 'a\\'; x"), ["dynamic SQL not known"]);
  deepEqual(effects("select $$ COPY t FROM PROGRAM 'x' $$"), []);
});

Deno.test("psql_sql: statements and calls that run or open something on the server", () => {
  deepEqual(effects("select pg_read_file('/etc/passwd', 0, 10)"), ["read /etc/passwd"]);
  deepEqual(effects("select pg_read_file('postgresql.conf')"), ["read null"]);
  deepEqual(effects("select lo_export(1, '/tmp/x')"), ["write /tmp/x"]);
  deepEqual(effects('select "pg_ls_dir"(:x)'), ["read null"]);
  deepEqual(effects("create foreign table f () server s options (program 'x')"), ["run x"]);
  deepEqual(effects("DO $$ begin end $$"), ["dynamic DO"]);
  deepEqual(effects("create or replace function f() returns int as 'x' language sql"), [
    "dynamic CREATE FUNCTION",
  ]);
  deepEqual(effects("alter system set ssl_passphrase_command = 'x'"), [
    "dynamic ALTER SYSTEM",
    "dynamic ssl_passphrase_command",
  ]);
  deepEqual(effects("explain analyze execute q"), ["dynamic EXECUTE"]);
  deepEqual(effects("grant execute on function f() to x; show archive_command"), []);
});
