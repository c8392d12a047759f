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

Deno.test("psql_sql: settings that load code, however their names are spelled", () => {
  for (
    const sql of [
      `ALTER ROLE x SET "session_preload_libraries" = '/tmp/evil'`,
      `ALTER DATABASE x SET SESSION_PRELOAD_LIBRARIES TO '/tmp/evil'`,
      `alter role x in database y set "Local_Preload_Libraries" = 'x'`,
      `set "dynamic_library_path" = '/tmp'`,
      `ALTER ROLE x SET plperl.on_plperl_init = 'system(1)'`,
    ]
  ) {
    deepEqual(effects(sql).length, 1, sql);
    deepEqual(effects(sql)[0].startsWith("dynamic "), true, sql);
  }
  deepEqual(effects("select set_config('session_preload_libraries', '/tmp/e', false)"), [
    "dynamic set_config(…)",
  ]);
  deepEqual(effects("select set_config(f(), 'x', false)"), ["dynamic set_config(…)"]);
  // Everyday.
  deepEqual(effects(`ALTER ROLE x SET "search_path" = 'a'; SET statement_timeout = 0`), []);
  deepEqual(effects("select set_config('search_path', 'x', false)"), []);
  deepEqual(effects("select session_preload_libraries from t"), []);
});

Deno.test("psql_sql: file_fdw's quoted option names, a tablespace's directory", () => {
  deepEqual(effects(`CREATE FOREIGN TABLE t (a text) SERVER s OPTIONS ("program" 'rm -rf /p')`), [
    "run rm -rf /p",
  ]);
  deepEqual(effects(`ALTER FOREIGN TABLE t OPTIONS (SET "program" 'x', ADD filename '/y')`), [
    "run x",
    "read /y",
  ]);
  deepEqual(effects(`create foreign table t () server s options ("filename" '/h/.ssh/id')`), [
    "read /h/.ssh/id",
  ]);
  deepEqual(effects("CREATE TABLESPACE x OWNER u LOCATION '/home/user/x'"), [
    "write /home/user/x",
  ]);
  deepEqual(effects("CREATE TABLESPACE x LOCATION 'rel'"), ["write null"]);
  deepEqual(effects("select location from t where location = 'x'"), []);
});
