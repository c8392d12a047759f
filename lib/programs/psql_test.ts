import { checkTable, denyList } from "../testing_adversarial.ts";
import { checkActions, ctxIn } from "../testing.ts";

const doc = (...lines: string[]) => `psql -h localhost <<'EOF'\n${lines.join("\n")}\nEOF`;

Deno.test("psql: what \\setenv puts in the environment of the editor, pager or shell it runs", async () => {
  await checkTable([
    // The value as psql makes it: its quotes taken off, its variables put in.
    [doc("\\setenv PSQL_EDITOR 'cat .env #'", "select 1", "\\e"), "deny", "deny"],
    [doc("\\set x 'cat .env #'", "\\setenv VISUAL :x", "\\e"), "deny", "deny"],
    [doc("\\set a cat", "\\set b ' .env'", "\\set x :a:b", "\\setenv EDITOR :x"), "deny", "deny"],
    ["psql -v x='cat .env #' -h db <<'EOF'\n\\setenv VISUAL :x\n\\e\nEOF", "deny", "deny"],
    [doc("\\setenv PAGER 'cat .env'", "\\pset pager always", "select 1;"), "deny", "deny"],
    [doc("\\setenv PSQL_PAGER 'cp x .env'"), "deny", "deny"],
    [doc("\\setenv PSQL_WATCH_PAGER 'cat .env'", "select 1 \\watch 1"), "deny", "deny"],
    [
      doc("\\setenv PSQL_EDITOR 'vi'", "\\setenv PSQL_EDITOR_LINENUMBER_ARG '; cat .env #'"),
      "deny",
      "deny",
    ],
    [doc("\\setenv SHELL 'cat .env'", "\\!"), "deny", "deny"],
    [doc("\\setenv EDITOR 'a\\x3b cat .env'"), "deny", "deny"], // (`\x3b`: `;`)
    // A value not known: a \gset's, a backquote's output, a \prompt's, a name not known.
    [doc("select 'x' as x \\gset", "\\setenv PAGER :x"), "deny", "deny"],
    [doc("\\setenv EDITOR `cat x`"), "deny", "deny"],
    [doc("\\prompt x", "\\setenv EDITOR :x"), "deny", "deny"],
    [doc("\\set n EDITOR", "\\setenv :n 'cat .env'"), "deny", "deny"],
    [doc("select 'EDITOR' as n \\gset", "\\setenv :n x"), "deny", "deny"],
    [doc("\\setenv BASH_ENV x", "\\! bash -c ls"), "deny", "deny"],
    ["PSQL_EDITOR='cat .env #' psql -c '\\e'", "deny", "deny"],
  ]);
});

Deno.test("psql: the commands and files of its meta-commands, as psql reads them", async () => {
  await checkTable([
    // Backquotes in any argument run, their variables put in (`:'f'` as a shell word).
    [doc("\\set f .env", "\\echo `cat :'f'`"), "deny", "deny"],
    [doc("\\set u `true` \\! cat .env"), "deny", "deny"], // (a second command on the line)
    // `-c \\…` is one meta-command whose argument may span lines.
    ["psql -c '\\! echo a\ncat .env'", "deny", "deny"],
    // `\\g (options) |cmd`, `\\o |cmd`, `\\w |cmd`.
    [doc("select 1 \\g (format=csv) |cat .env"), "deny", "deny"],
    [doc("select 1 \\gx | rm -rf src"), "deny", "deny"],
    [doc("\\w |cp x .env"), "deny", "deny"],
    // Files it writes or reads: `\\copy (query) to F`, `\\lo_export`, `\\s`, `\\g F`, `\\i F`.
    ["psql -c \"\\copy (select 1 from t) to '.env'\"", "deny", "deny"],
    ["psql -c \"\\copy t (a, b) from 'innocent.txt' csv\"", "deny", "deny"],
    ["psql -c \"\\copy t to program 'cat > .env'\"", "deny", "deny"],
    ["psql -c '\\lo_export 1 .env'", "deny", "deny"],
    [doc("\\s .env"), "deny", "deny"],
    [doc("select 1 \\g .env"), "deny", "deny"],
    [doc("\\o '.env'", "select 1;"), "deny", "deny"],
    [doc("\\i innocent.txt"), "deny", "deny"],
    [doc("\\e .env"), "deny", "deny"],
    ["psql -c '\\o ~/.ssh/x'", "deny", "deny"],
    // `\\cd DIR`: what follows is below DIR.
    [doc("\\cd keys", "\\! cat id_rsa"), "deny", "deny"],
    [doc("\\cd /home/user/.ssh", "\\o id_rsa"), "deny", "deny"],
    [doc("\\cd", "\\lo_import .ssh/id_rsa"), "deny", "deny"],
    // (A backslash inside SQL's quotes is taken as a meta-command too: quotes not followed.)
    [doc("select 'a\\! cat .env';"), "deny", "deny"],
  ]);
});

Deno.test("psql: everyday meta-commands stay allowed", async () => {
  await checkTable([
    ["psql -c 'select 1'", "deny", "allow"],
    ["psql -v ON_ERROR_STOP=1 -d app -c 'select 1'", "deny", "allow"],
    ["psql -c 'select 1 \\g .env'", "deny", "allow"], // (SQL only: sent as it is)
    ["psql -c '\\echo x \\! cat .env'", "deny", "allow"], // (one meta-command)
    ["psql -c '\\copy t to out.csv csv header'", "deny", "allow"],
    ["psql -c \"\\copy (select * from users where a = 'from x') to 'out.csv'\"", "deny", "allow"],
    [
      doc("\\set ON_ERROR_STOP on", "\\timing on", "select 1;", "\\dt", "\\x auto"),
      "deny",
      "allow",
    ],
    [doc("\\o out.txt", "select 2;", "\\o", "\\pset format csv"), "deny", "allow"],
    [doc("\\setenv PAGER less", "\\setenv PSQL_EDITOR vim", "\\pset pager off"), "deny", "allow"],
    [doc("\\setenv PSQL_EDITOR :'unset_variable'"), "deny", "allow"],
    [doc("\\setenv EDITOR cat\\ .env"), "deny", "allow"], // (the argument ends at `\\`)
    [doc("\\set n 3", "select :n;", "\\echo :n `date`"), "deny", "allow"],
    [doc("select 1 \\gset", "\\echo :x"), "deny", "allow"],
    [doc("\\cd /tmp", "\\o out.txt", "\\! ls"), "deny", "allow"],
  ]);
});

Deno.test("psql: the files \\i reads are read as they will be", async () => {
  const P = "/home/user/project";
  const ctx = ctxIn(P, {
    contents: {
      [`${P}/db/main.sql`]: "\\set ON_ERROR_STOP on\n\\ir tables.sql\n\\i db/seed.sql\n",
      [`${P}/db/tables.sql`]: "create table t (id int);\n",
      [`${P}/db/seed.sql`]: "insert into t values (1);\n",
      [`${P}/db/evil.sql`]: "\\ir hidden.sql\n",
      [`${P}/db/hidden.sql`]: "\\set e 'cat .env #'\n",
      [`${P}/db/uses.sql`]: "\\i db/evil.sql\n\\setenv PSQL_EDITOR :e\n",
    },
  });
  await checkActions(denyList, ctx, [
    ["psql -f db/main.sql", "allow"],
    ["psql -d app <<'EOF'\n\\i db/main.sql\nEOF", "allow"],
    ["psql -f db/uses.sql", "deny"],
    // (Not known: a file not there, one read after `\\cd`.)
    ["psql -f db/missing.sql", "deny"],
    ["psql -d app <<'EOF'\n\\cd /tmp\n\\i db/main.sql\nEOF", "deny"],
  ]);
});

Deno.test("psql: a file it reads for commands after it may have written one is not known", async () => {
  const P = "/home/user/project";
  const ctx = ctxIn(P, {
    contents: {
      [`${P}/inc.sql`]: "select 1;\n",
      [`${P}/db/seed.sql`]: "insert into t values (1);\n",
    },
  });
  const heredoc = (...lines: string[]) => `psql -X <<'EOF'\n${lines.join("\n")}\nEOF`;
  await checkActions(denyList, ctx, [
    // What it writes first: by `\\!`, `\\o`, `\\g F`, `\\w F`, `\\copy … to F`, `\\s F`, `-o F`, `-L F`.
    ["psql -X -c '\\! echo \\\\! cat .env > inc.sql' -f inc.sql", "deny"],
    [heredoc("\\o inc.sql", "\\qecho '\\134! cat .env'", "\\o", "\\i inc.sql"), "deny"],
    [heredoc("select chr(92)||'! cat .env' \\g inc.sql", "\\i inc.sql"), "deny"],
    [heredoc("\\echo `cp x inc.sql`", "\\ir inc.sql"), "deny"],
    ["psql -X -c '\\w inc.sql' -c '\\i inc.sql'", "deny"],
    ["psql -X -c '\\copy t to inc.sql' -f inc.sql", "deny"],
    ["psql -X -c '\\s inc.sql' -f inc.sql", "deny"],
    ["psql -X -c '\\lo_export 1 inc.sql' -f inc.sql", "deny"],
    ["psql -X -o inc.sql -c \"select chr(92)||'! cat .env'\" -f inc.sql", "deny"],
    ["psql -X -L inc.sql -c 'select 1' -f inc.sql", "deny"],
    ["psql -X -f db/seed.sql -o x.sql -f inc.sql", "deny"],
    ["psql -X -c \"COPY (select 1) TO '/home/user/project/inc.sql'\" -f inc.sql", "deny"],
    // Everyday: a file read before anything is written, or after writes to no file.
    ["psql -X -f inc.sql", "allow"],
    ["psql -X -o out.txt -f inc.sql", "allow"],
    ["psql -X -f inc.sql -f db/seed.sql", "allow"],
    ["psql -X -v ON_ERROR_STOP=1 -c 'select 1' -f inc.sql", "allow"],
    [heredoc("\\set ON_ERROR_STOP on", "\\i inc.sql", "\\o out.txt", "select 1;"), "allow"],
    [heredoc("\\o /dev/null", "select 1;", "\\o", "\\i inc.sql"), "allow"],
  ]);
});

Deno.test("psql: long options as getopt_long takes them (an unambiguous prefix)", async () => {
  await checkTable([
    ["psql -X --comm='\\! cat .env'", "deny", "deny"],
    ["psql -X --comm '\\! cat .env'", "deny", "deny"],
    ["psql -X --outp='|cat .env' -c 'select 1'", "deny", "deny"],
    ["psql -X --output '|rm -rf src' -c 'select 1'", "deny", "deny"],
    ["psql -X --fil=innocent.txt", "deny", "deny"],
    ["psql -X --va x='cat .env #' -c '\\setenv PAGER :x'", "deny", "deny"],
    ["psql -X -1c '\\! cat .env'", "deny", "deny"], // (`-1` is an option too)
    // Ambiguous (`--c`: --command or --csv; `--s`): not known.
    ["psql -X --c 'select 1'", "deny", "deny"],
    ["psql -X --s=x -c 'select 1'", "deny", "deny"],
    ["psql -X --single -c 'select 1'", "deny", "deny"],
    ["psql -X --record-separator -c 'select 1'", "deny", "allow"], // (in full: that option)
    ["psql -X --e -c 'select 1'", "deny", "deny"],
    // Unique prefixes, one letter too (`--q`, `--W`), and options after `--` are operands.
    ["psql -X --q --tu --comman 'select 1'", "deny", "allow"],
    ["psql -X --q --fi innocent.txt", "deny", "deny"],
    ["psql -X -- -c '\\! cat .env'", "deny", "allow"],
    ["psql -X --no-psqlrc --dbn app --comma='\\! cat .env'", "deny", "deny"],
    // Everyday.
    ["psql -X --se=x=1 --var y=2 --csv --no-psql -c 'select :x'", "deny", "allow"],
    ["psql --dbname app --tuples-only --no-align --command 'select 1'", "deny", "allow"],
    ["psql --help=commands", "deny", "allow"],
  ]);
});

Deno.test("psql: \\copy's file word as psql's copy.c reads it", async () => {
  await checkTable([
    // A word not quoted ends at a quote, a blank or `;`; a quoted one at its closing quote.
    ['psql -c "\\copy t to .env\'x"', "deny", "deny"],
    ["psql -c \"\\copy t to '.env'x\"", "deny", "deny"],
    ["psql -c '\\copy t from .env;'", "deny", "deny"],
    ["psql -c \"\\copy t to '.e''nv'\"", "deny", "allow"], // (the file .e'nv)
    // The query's quotes are followed (with and without backslash escapes).
    ["psql -c \"\\copy (select ')' from t) to .env\"", "deny", "deny"],
    ["psql -c \"\\copy (select 'a\\\\') to x' from t) to .env\"", "deny", "deny"],
    ['psql -c "\\copy s.t (a, b) from ~/.ssh/id_rsa csv"', "deny", "deny"],
    ["psql -c \"\\copy binary t to program 'cat .env'\"", "deny", "deny"],
    ["psql -c \"\\copy t from PROGRAM 'rm -rf src';\"", "deny", "deny"],
    // Everyday.
    ['psql -c "\\copy t to STDOUT with csv header"', "deny", "allow"],
    ["psql -c '\\copy t from pstdin'", "deny", "allow"],
    [
      "psql -c \"\\copy (select * from users where a = 'to .env') to 'out.csv' csv\"",
      "deny",
      "allow",
    ],
    ["psql -c \"\\copy public.t (a, b) from 'data/in.csv' with (format csv)\"", "deny", "allow"],
  ]);
});

Deno.test("psql: its startup files (~/.psqlrc, PSQLRC, one named for a version) are read first", async () => {
  const P = "/home/user/project";
  const H = "/home/user";
  const rc = (files: Record<string, string>, env: Record<string, string> = {}) =>
    ctxIn(P, {
      home: H,
      contents: { [`${P}/README.md`]: "x\n", ...files },
      env: { HOME: H, ...env },
    });
  const hostile = rc({ [`${H}/.psqlrc`]: "\\set QUIET 1\n\\! cat .env\n" });
  await checkActions(denyList, hostile, [
    ["psql -c 'select 1'", "deny"],
    ["psql -h db -d app -f db/x.sql", "deny"],
    ["psql -h db <<< 'select 1'", "deny"],
    ["psql --dbname=app --command='select 1'", "deny"],
    // `-X` skips them; `-l`, `-V`, `--help` end before they are read.
    ["psql -X -c 'select 1'", "allow"],
    ["psql -Xc 'select 1'", "allow"],
    ["psql -qAtX -c 'select 1'", "allow"],
    ["psql --no-psqlrc -c 'select 1'", "allow"],
    ["psql --no-psql -c 'select 1'", "allow"],
    ["psql -l", "allow"],
    ["psql --version", "allow"],
    // (`-c X`: a value, not the flag.)
    ["psql -c X", "deny"],
  ]);
  await checkActions(denyList, rc({ [`${H}/.psqlrc-16`]: "\\setenv PAGER 'cat .env'\n" }), [
    ["psql -c 'select 1'", "deny"],
  ]);
  // (Named for a full version, `FILE-15.18`: psql's minor version is not known here.)
  await checkActions(denyList, rc({ [`${H}/.psqlrc-15.18`]: "\\! cat .env\n" }), [
    ["psql -c 'select 1'", "deny"],
  ]);
  await checkActions(denyList, rc({ [`${H}/.psqlrc-9.6.24`]: "\\! cat .env\n" }), [
    ["psql -c 'select 1'", "deny"],
  ]);
  await checkActions(denyList, rc({ [`${P}/x-17.2`]: "\\! cat .env\n" }, { PSQLRC: `${P}/x` }), [
    ["psql -c 'select 1'", "deny"],
  ]);
  await checkActions(
    denyList,
    rc({ "/etc/postgresql-common/psqlrc-16.4": "\\! cat .env\n" }),
    [["psql -c 'select 1'", "deny"]],
  );
  await checkActions(denyList, rc({ [`${P}/x`]: "\\! cat .env\n" }, { PSQLRC: `${P}/x` }), [
    ["psql -c 'select 1'", "deny"],
  ]);
  await checkActions(denyList, rc({ [`${H}/x`]: "\\! cat .env\n" }, { PSQLRC: "~/x" }), [
    ["psql -c 'select 1'", "deny"],
  ]);
  await checkActions(denyList, rc({ "/etc/postgresql-common/psqlrc": "\\! cat .env\n" }), [
    ["psql -c 'select 1'", "deny"],
  ]);
  // What it sets is the session's: `\set` there, `:x` in `-c`.
  const sets = rc({ [`${H}/.psqlrc`]: "\\set x 'cat .env'\n" });
  await checkActions(denyList, sets, [["psql -c '\\setenv PAGER :x'", "deny"]]);
  // One another stage writes first is not known; one it names, a command that sets PSQLRC.
  const none = rc({});
  await checkActions(denyList, none, [
    ["echo '\\! cat .env' > ~/.psqlrc; psql -c 'select 1'", "deny"],
    ["printf '%s' '\\! id' > ~/.psqlrc-15; psql -c 'select 1'", "deny"],
    ["printf '%s' '\\! id' > ~/.psqlrc-15.18; psql -c 'select 1'", "deny"],
    ["cd ~ && cp /tmp/rc .psqlrc-16.1; psql -c 'select 1'", "deny"],
    ["cp /tmp/rc ~/; psql -c 'select 1'", "deny"],
    ["PSQLRC=./x psql -c 'select 1'", "deny"],
    ["export PSQLRC=./x; psql -c 'select 1'", "deny"],
    ["echo '\\! cat .env' > ~/.psqlrc; psql -X -c 'select 1'", "allow"],
  ]);
  // Everyday: an ordinary startup file, or none.
  const everyday = rc({
    [`${H}/.psqlrc`]:
      "\\set QUIET 1\n\\pset null '(null)'\n\\timing on\n\\set PROMPT1 '%n@%/%R%# '\n",
  });
  await checkActions(denyList, everyday, [
    ["psql -c 'select 1'", "allow"],
    ["psql -h db -d app -c 'select count(*) from t'", "allow"],
  ]);
  await checkActions(denyList, none, [
    ["psql -c 'select 1'", "allow"],
    // (Writes elsewhere in the home: no startup file.)
    ["psql -c 'select 1' > out.txt", "allow"],
    ["mkdir -p build && psql -c 'select 1' -o build/out.txt", "allow"],
  ]);
  await checkActions(
    denyList,
    rc({ [`${H}/.psqlrc-16`]: "\\timing on\n", [`${H}/.psqlrc-history`]: "" }),
    [
      ["psql -c 'select 1'", "allow"],
    ],
  );
});

Deno.test("psql: SQL's COPY … PROGRAM read as PostgreSQL's lexer reads it", async () => {
  await checkTable([
    // Constants continued across a newline, comments between, E'', U&'', dollar quotes.
    ["psql -c \"COPY t FROM PROGRAM 'cat'\n' .env'\"", "deny", "deny"],
    ["psql -c \"COPY t FROM PROGRAM 'cat' -- c\n' .env'\"", "deny", "deny"],
    ["psql -c \"COPY t FROM PROGRAM-- c\n'cat .env'\"", "deny", "deny"],
    ["psql -c \"COPY t FROM PROGRAM/* /* */ */'cat .env'\"", "deny", "deny"],
    ["psql -c \"COPY t FROM PROGRAM E'c\\x61t .env'\"", "deny", "deny"],
    ["psql -c \"COPY t TO PROGRAM U&'c\\0061t .env'\"", "deny", "deny"],
    ["psql -c 'COPY t FROM PROGRAM $q$cat .env$q$'", "deny", "deny"],
    ["psql -c \"COPY (select 'from x') TO PROGRAM 'cat .env'\"", "deny", "deny"],
    [doc("COPY t FROM PROGRAM", "'cat .env';"), "deny", "deny"],
    [doc("\\set c 'cat .env'", "COPY t FROM PROGRAM :'c';"), "deny", "deny"],
    [doc("COPY t FROM PROGRAM :'c' \\set c true"), "deny", "deny"],
    // Not read exactly: a command not known.
    [doc("select 'COPY t FROM PROGRAM ''cat .env''' as q \\gset", ":q;"), "deny", "deny"],
    ["psql -c \"COPY t FROM PROGRAM U&'x!0061' UESCAPE '!'\"", "deny", "deny"],
    ["psql -c \"select 'a\\'; COPY t FROM PROGRAM 'x'\"", "deny", "deny"],
    // (Inside a string, a comment or a dollar quote it is no command.)
    ["psql -c \"select 'COPY t FROM PROGRAM x'\"", "deny", "allow"],
    ['psql -c "select 1 -- COPY t FROM PROGRAM x"', "deny", "allow"],
  ]);
});

Deno.test("psql: SQL the gate cannot read, and files the server opens on this machine", async () => {
  await checkTable([
    ["psql -c 'DO $$ BEGIN EXECUTE 1; END $$'", "deny", "deny"],
    ["psql -c 'EXECUTE q(1)'", "deny", "deny"],
    [doc("\\set x 1", "select 1 \\gexec"), "deny", "deny"],
    ["psql -c \"CREATE FUNCTION f() RETURNS int LANGUAGE plpython3u AS 'x'\"", "deny", "deny"],
    ["psql -c 'CREATE OR REPLACE PROCEDURE p() LANGUAGE plpgsql AS $$ $$'", "deny", "deny"],
    ["psql -c 'CREATE EXTENSION dblink'", "deny", "deny"],
    ["psql -c \"ALTER SYSTEM SET archive_command = 'cat .env'\"", "deny", "deny"],
    [
      "psql -c \"select query_to_xml('COPY t FROM PROGRAM ''x''', true, true, '')\"",
      "deny",
      "deny",
    ],
    ["psql -c \"COPY t TO '/home/user/.ssh/authorized_keys'\"", "deny", "deny"],
    ["psql -c \"COPY t FROM '/home/user/project/.env'\"", "deny", "deny"],
    ["psql -c \"select pg_read_file('/home/user/.ssh/id_rsa')\"", "deny", "deny"],
    ["psql -c \"select pg_catalog.pg_read_binary_file('/home/user/.ssh/id_rsa')\"", "deny", "deny"],
    ["psql -c \"select lo_export(1, '/home/user/.ssh/x')\"", "deny", "deny"],
    ["psql -c \"select lo_import('/home/user/project/innocent.txt')\"", "deny", "deny"],
    ["psql -c \"select pg_ls_dir(E'/home/user/\\x2essh')\"", "deny", "deny"],
    ["psql -c \"COPY t TO 'rel.csv'\"", "deny", "deny"], // (the data directory's)
    // Everyday.
    ['psql -c "COPY t TO STDOUT WITH (FORMAT csv)"', "deny", "allow"],
    ["psql -c \"COPY t TO '/tmp/t.csv' CSV HEADER\"", "deny", "allow"],
    ["psql -c 'GRANT EXECUTE ON FUNCTION f() TO app'", "deny", "allow"],
    [
      "psql -c 'CREATE TRIGGER t BEFORE UPDATE ON x FOR EACH ROW EXECUTE FUNCTION f()'",
      "deny",
      "allow",
    ],
    ["psql -c \"select * from t where copy = 'program' and x::text = 'a'\"", "deny", "allow"],
    [
      doc("\\set ON_ERROR_STOP on", "BEGIN;", "INSERT INTO t VALUES ('a;b', $$c'd$$);", "COMMIT;"),
      "deny",
      "allow",
    ],
  ]);
});

Deno.test("psql: quoted setting and option names, a tablespace's directory", async () => {
  await checkTable([
    [`psql -c "ALTER ROLE x SET \\"session_preload_libraries\\" = '/tmp/evil'"`, "deny", "deny"],
    [`psql -c "ALTER DATABASE x SET SESSION_PRELOAD_LIBRARIES = '/tmp/evil'"`, "deny", "deny"],
    [
      `psql -c "CREATE FOREIGN TABLE t (a text) SERVER s OPTIONS (\\"program\\" 'rm -rf /p')"`,
      "deny",
      "deny",
    ],
    [
      `psql -c "ALTER FOREIGN TABLE t OPTIONS (SET \\"filename\\" '/home/user/.ssh/id_rsa')"`,
      "deny",
      "deny",
    ],
    [`psql -c "CREATE TABLESPACE x LOCATION '/home/user/.ssh/x'"`, "deny", "deny"],
    // Everyday.
    [`psql -c "ALTER ROLE app SET \\"search_path\\" = 'app'"`, "deny", "allow"],
    [`psql -c "CREATE TABLESPACE fast LOCATION '/tmp/pgfast'"`, "deny", "allow"],
  ]);
});
