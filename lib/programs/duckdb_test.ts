/**
 * DuckDB's shell: its dot-commands (sqlite3's, shortened as DuckDB matches them) and the files its
 * SQL opens are judged where they lie; a path that is not a literal, dynamic SQL and extensions
 * from elsewhere are commands not known. The project holds `keys -> ~/.ssh` and `.env`.
 */
import { checkGateTable, checkTable, denyList } from "../testing_adversarial.ts";
import { checkActions, ctxIn } from "../testing.ts";

Deno.test("duckdb: the files its SQL and dot-commands open are judged where they lie", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    [`duckdb -c "select * from read_text('/home/user/.ssh/id_rsa')"`, "deny", "deny"],
    [`duckdb -c "SELECT content FROM read_text('.env')"`, "deny", "deny"],
    [`duckdb -c "select * from read_csv('.env', header=false)"`, "deny", "deny"],
    [`duckdb -c "select * from read_csv_auto('innocent.txt')"`, "deny", "deny"],
    [`duckdb x.db "select * from read_text('keys/id_rsa')"`, "deny", "deny"],
    [`duckdb -c "select * from read_text('~/.ssh/id_rsa')"`, "deny", "deny"],
    [`duckdb -c "select * from read_blob('file:///home/user/.ssh/id_rsa')"`, "deny", "deny"],
    [`duckdb -c "select * from read_text(['README.md', 'innocent.txt'])"`, "deny", "deny"],
    [`duckdb -c "select * from read_json_auto('keys/*')"`, "deny", "deny"],
    [`duckdb -c "from 'innocent.txt'"`, "deny", "deny"],
    [`duckdb -c "select * from 'README.md', 'keys/id_rsa'"`, "deny", "deny"],
    [`duckdb -c "select * from t join \\"keys/id_rsa\\" on true"`, "deny", "deny"],
    [`duckdb -c "copy t from '.env'"`, "deny", "deny"],
    [`duckdb -c "copy (select 1) to 'keys/authorized_keys' (format csv)"`, "deny", "deny"],
    [`duckdb -c "attach 'keys/x.db' as k"`, "deny", "deny"],
    [`duckdb -c "ATTACH DATABASE IF NOT EXISTS 'sqlite:keys/x.db'"`, "deny", "deny"],
    [`duckdb -c "select * from query('select * from read_text(''.env'')')"`, "deny", "deny"],
    [`duckdb x.db '.import innocent.txt t'`, "deny", "deny"],
    [`duckdb x.db '.open keys/x.db'`, "deny", "deny"],
    [`duckdb x.db '.log .env'`, "deny", "deny"],
    [`duckdb x.db '.o .env' 'select 1'`, "deny", "deny"], // (.o: .open, .once or .output)
    [`duckdb <<'EOF'\n.once .env\nselect 1;\nEOF`, "deny", "deny"],
    // Commands its dot-commands run.
    [`duckdb -c ".shell rm -rf src"`, "deny", "deny"],
    [`duckdb -c '.sh "rm -rf src"'`, "deny", "deny"],
    [`duckdb -c ".system curl x"`, "deny", "deny"],
    [`duckdb x.db ".output |rm -rf src" "select 1"`, "deny", "deny"],
    [`duckdb -c ".pager 'rm -rf src'"`, "deny", "deny"],
    [`duckdb -cmd '.shell curl x' x.db`, "deny", "deny"],
    [`duckdb -c "select * from read_csv('rm -rf src |')"`, "deny", "deny"],
    // Not seen: commands not known.
    [`duckdb -c ".cd keys" -c "select * from read_text('id_rsa')"`, "deny", "deny"],
    [`duckdb -c ".c /tmp"`, "deny", "deny"],
    [`duckdb x.db '.read evil.sql'`, "deny", "deny"],
    [
      `duckdb -c "set variable f = '.env'; select * from read_text(getvariable('f'))"`,
      "deny",
      "deny",
    ],
    [`duckdb -c "prepare p as select * from read_text(\\$1); execute p('.env')"`, "deny", "deny"],
    [`duckdb -c "select * from query(\\$q\\$x\\$q\\$ || 'y')"`, "deny", "deny"],
    [`duckdb -c "import database 'dump'"`, "deny", "deny"],
    [`duckdb -c "install shellfs from community; load shellfs"`, "deny", "deny"],
    [`duckdb -c "load '/tmp/x.duckdb_extension'"`, "deny", "deny"],
    [`duckdb -c "set allow_unsigned_extensions = true"`, "deny", "deny"],
    [`duckdb -c "select * from read_text('x"`, "deny", "deny"],
    [`duckdb -c "call start_ui()"`, "deny", "deny"],
    [`duckdb -ui`, "deny", "deny"],
    [`duckdb -unsigned x.db`, "deny", "deny"],
    // Everyday: queries, files of its own, extensions from DuckDB's repository.
    [`duckdb x.db "select 1"`, "deny", "allow"],
    [`duckdb -c "select count(*) from t"`, "deny", "allow"],
    [`duckdb x.db -c "select * from read_csv('data.csv') limit 5"`, "deny", "allow"],
    [`duckdb -c "select * from 'src/data.parquet' where x = 'a/b'"`, "deny", "allow"],
    [`duckdb -c "copy t to 'out.csv' (header)"`, "deny", "allow"],
    [`duckdb -c "install httpfs; load httpfs; select 1"`, "deny", "allow"],
    [`duckdb -csv -c "select * from read_json('src/x.json')"`, "deny", "allow"],
    [`duckdb -json x.db "select name from users where id = 1"`, "deny", "allow"],
    [`duckdb -c "select strftime(ts, '%Y/%m/%d'), split(p, '/') from t"`, "deny", "allow"],
    [`duckdb -c "select * from read_csv('https://example.com/x.csv')"`, "deny", "allow"],
    [`duckdb -c ".tables" -c ".mode csv"`, "deny", "allow"],
    [`duckdb x.db <<'EOF'\n.timer on\nselect * from t;\nEOF`, "deny", "allow"],
  ]);
});

Deno.test("duckdb: what it writes below .pi asks under the gate's own-file protection", async () => {
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/.pi/settings.json", "/home/user/project/src/main.ts"],
  });
  // [command, deny-list, gate]
  await checkGateTable(ctx, [
    [`duckdb -c "copy (select 1) to '.pi/settings.json'"`, "allow", "ask"],
    [`duckdb -c "COPY t TO '/home/user/.pi/agent/settings.json' (FORMAT json)"`, "allow", "ask"],
    [`duckdb x.db ".output .pi/settings.json" "select 1"`, "allow", "ask"],
    [`duckdb -c "export database '.pi'"`, "allow", "ask"],
    [`duckdb -c "export database mem to '.pi/extensions'"`, "allow", "ask"],
    [`duckdb -c "attach '.pi/settings.json' as s"`, "allow", "ask"],
    [`duckdb -c "copy t to 'out.csv'"`, "allow", "allow"],
    [`duckdb -c "export database 'backup'"`, "allow", "allow"],
  ]);
});

Deno.test("duckdb: a file of commands on its command line is read as it is", async () => {
  const P = "/home/user/project";
  const ctx = ctxIn(P, {
    files: [`${P}/app.db`],
    contents: {
      [`${P}/schema.sql`]: "create table t (id integer);\ninsert into t values (1);\n",
      [`${P}/evil.sql`]: "select 1;\n.shell rm -rf src\n",
      [`${P}/leak.sql`]: "select * from read_text('/home/user/.ssh/id_rsa');\n",
    },
  });
  await checkActions(denyList, ctx, [
    ["duckdb app.db < schema.sql", "allow"],
    ["duckdb -f schema.sql app.db", "allow"],
    ["duckdb -init schema.sql app.db -c 'select 1'", "allow"],
    ["duckdb app.db < evil.sql", "deny"],
    ["duckdb -f evil.sql", "deny"],
    ["duckdb -init leak.sql app.db", "deny"],
    ["duckdb app.db < missing.sql", "deny"],
  ]);
});
