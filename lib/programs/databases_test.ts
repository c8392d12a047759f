import { checkTable, denyList } from "../testing_adversarial.ts";
import { checkRealRunners, quoted } from "../testing_runners.ts";
import { checkActions, ctxIn } from "../testing.ts";

Deno.test("database shells: sqlite3 dot-commands, psql meta-commands, mysql client commands", async () => {
  await checkTable([
    ["sqlite3 db '.shell rm x'", "deny", "deny"],
    ["sqlite3 db '.system \"rm\" x'", "deny", "deny"],
    ["sqlite3 db '.sh rm x'", "deny", "deny"], // an abbreviation
    ["sqlite3 -cmd '.shell curl x' db", "deny", "deny"],
    ["sqlite3 db '.output |rm x' 'select 1'", "deny", "deny"],
    ["sqlite3 db \".once '|curl x'\"", "deny", "deny"],
    ["sqlite3 db '.read |rm x'", "deny", "deny"],
    ["sqlite3 db '.import \"|rm x\" t'", "deny", "deny"],
    ["sqlite3 db '.read evil.sql'", "deny", "deny"],
    ["sqlite3 db '.load ./evil'", "deny", "deny"],
    ["sqlite3 db \"select edit('x','rm')\"", "deny", "deny"],
    ["sqlite3 -init evil.sql db", "deny", "deny"],
    // fsdir() reads the tree below the path it names.
    ["sqlite3 x.db \"select name, data from fsdir('keys/')\"", "deny", "deny"],
    ["sqlite3 x.db \"select data from fsdir('/home/user/.ssh')\"", "deny", "deny"],
    ["sqlite3 db < evil.sql", "deny", "deny"],
    ["echo '.shell rm x' | sqlite3 db", "deny", "deny"],
    ["sqlite3 db <<'EOF'\n.tables\n.shell rm x\nEOF", "deny", "deny"],
    ["psql -c '\\! rm x'", "deny", "deny"],
    ["psql -d db --command='\\! curl x'", "deny", "deny"],
    ["psql -c '\\o |rm x'", "deny", "deny"],
    ["psql -c \"\\copy t from program 'rm x'\"", "deny", "deny"],
    ["psql -c \"COPY t FROM PROGRAM 'curl x'\"", "deny", "deny"],
    ["psql -o '|rm x' -c 'select 1'", "deny", "deny"],
    ["psql -f evil.sql", "deny", "deny"],
    ["psql db < evil.sql", "deny", "deny"],
    ["mysql -e 'system rm x'", "deny", "deny"],
    ["mysql -uroot -e '\\! rm x'", "deny", "deny"],
    ["mysql -sNe 'pager rm x'", "deny", "deny"],
    ["mariadb --execute='source evil.sql'", "deny", "deny"],
    ["mysql --pager='curl x'", "deny", "deny"],
    ["mysql --defaults-file=evil.cnf", "deny", "deny"],
    ["mysql < dump.sql", "deny", "deny"],
    // Everyday queries run nothing.
    ["sqlite3 db 'SELECT * FROM t'", "deny", "allow"],
    ["sqlite3 db .tables", "deny", "allow"],
    ["sqlite3 -header -column db 'select 1'", "deny", "allow"],
    ["sqlite3 db <<'EOF'\n.tables\nselect 1;\nEOF", "deny", "allow"],
    ["psql --version", "deny", "allow"],
    ["psql -d db -c '\\dt'", "deny", "allow"],
    ["mysql -u root -e 'SHOW DATABASES'", "deny", "allow"],
    ["mysql -uroot -ppass -Dtest -e 'select 1'", "deny", "allow"],
  ]);
});

Deno.test("archivers and viewers: zip -TT, --unzip-command, man -H and -P run their helper", async () => {
  await checkTable([
    ["zip -T -TT 'rm x' a.zip f", "deny", "deny"],
    ["zip -TT='curl x' a.zip f", "deny", "deny"],
    ["zip --unzip-command 'rm x' a.zip f", "deny", "deny"],
    ["zip --unzip-c='rm x' a.zip f", "deny", "deny"], // an abbreviation
    ["man -H'rm x' ls", "deny", "deny"],
    ["man --html='curl x' ls", "deny", "deny"],
    ["man -P 'rm x' ls", "deny", "deny"],
    ["zip -r out.zip src", "deny", "allow"],
    ["man ls", "deny", "allow"],
  ]);
});

Deno.test("sqlite3, zip: a command a generated line makes them run is a stage", async () => {
  await checkRealRunners(
    {
      sqlite3: [
        (p) => `sqlite3 :memory: ${quoted(p, `.${p(["shell", "system", "sh", "sys"])} ./a1 k`)}`,
        (p) => `sqlite3 ${p(["-cmd", "--cmd"])} ${quoted(p, ".shell ./a1")} :memory: .quit`,
        (p) => `sqlite3 :memory: ${quoted(p, `.${p(["output", "once"])} |./a1`)} 'select 1'`,
        (p) => `sqlite3 :memory: ${quoted(p, ".read |./a1")}`,
        (p) => `sqlite3 :memory: <<'EOF'\n${p(["", "select 1;\n"])}.shell ./a1\nEOF`,
      ],
      zip: [
        (p) =>
          `zip -q -T ${p(["-TT ", "-TT=", "--unzip-command ", "--unzip-command="])}${
            quoted(p, "./a1 k")
          } o.zip f`,
      ],
    },
    3,
    ["printf 'x\\n' > f"],
    60,
  );
});

Deno.test("database shells: the files their commands open are judged where they lie", async () => {
  await checkTable([
    ["sqlite3 x.db '.import innocent.txt t' 'select * from t'", "deny", "deny"],
    ["sqlite3 x.db \"select readfile('innocent.txt')\"", "deny", "deny"],
    ["sqlite3 x.db '.open innocent.txt'", "deny", "deny"],
    ["sqlite3 x.db '.once .env' 'select 1'", "deny", "deny"],
    ["psql -c '\\copy t from innocent.txt'", "deny", "deny"],
    ["psql -c '\\lo_import innocent.txt'", "deny", "deny"],
    ['psql -c "\\set x `rm -rf src`"', "deny", "deny"],
    ["mysql -e 'tee .env'", "deny", "deny"],
    ["ed -s <<< $'r innocent.txt\\n,p'", "deny", "deny"],
    ["ed -s README.md <<< $'1,$w keys/authorized_keys'", "deny", "deny"],
    // sqlite3's ATTACH, a URI database name, its archive mode and `.ar`, a literal joined to more
    ["sqlite3 x.db \"attach '.env' as a; select * from a.t\"", "deny", "deny"],
    ["sqlite3 x.db \"attach database keys || '/id_rsa' as a\"", "deny", "deny"],
    ["sqlite3 'file:%2Eenv' 'select 1'", "deny", "deny"],
    ["sqlite3 -A -x -f /tmp/x.sqlar", "deny", "deny"],
    ["sqlite3 --archive --extract --file /tmp/x.sqlar", "deny", "deny"],
    ["sqlite3 x.db '.ar -x'", "deny", "deny"],
    ["sqlite3 x.db \"select readfile('.e'||'nv')\"", "deny", "deny"],
    // Files of their own, where they may be.
    ["sqlite3 x.db \"attach 'other.db' as o; select * from o.t\"", "deny", "allow"],
    [
      "sqlite3 x.db '.import data.csv t' && sqlite3 x.db '.output out.txt' 'select 1'",
      "deny",
      "allow",
    ],
    ["psql -c '\\copy t to out.csv csv' && psql -c '\\dt'", "deny", "allow"],
    ["ed -s notes.txt <<< $',s/a/b/g\\nwq'", "deny", "allow"],
  ]);
});

Deno.test("database shells: a file of commands on the command line is read as it is", async () => {
  const P = "/home/user/project";
  const ctx = ctxIn(P, {
    files: [`${P}/app.db`],
    contents: {
      [`${P}/schema.sql`]: "create table t (id integer primary key);\ninsert into t values (1);\n",
      [`${P}/evil.sql`]: "select 1;\n.shell rm -rf src\n",
      [`${P}/evil.psql`]: "select 1;\n\\! rm -rf src\n",
      [`${P}/evil.mysql`]: "select 1;\nsystem rm -rf src;\n",
      [`${P}/nested.sql`]: ".read other.sql\n",
    },
  });
  await checkActions(denyList, ctx, [
    // Its commands are judged as if given inline: queries run nothing.
    ["sqlite3 app.db < schema.sql", "allow"],
    ["sqlite3 -init schema.sql app.db .tables", "allow"],
    ["psql -d app -f schema.sql", "allow"],
    ["psql -d app --file=schema.sql", "allow"],
    ["psql -d app < schema.sql", "allow"],
    ["mysql app < schema.sql", "allow"],
    ["cd /tmp && sqlite3 x.db < /home/user/project/schema.sql", "allow"],
    // A command a file holds runs.
    ["sqlite3 app.db < evil.sql", "deny"],
    ["sqlite3 -init evil.sql app.db", "deny"],
    ["psql -f evil.psql", "deny"],
    ["psql < evil.psql", "deny"],
    ["mysql app < evil.mysql", "deny"],
    // Not known as it will be: another stage writes it, a file it names, one not read.
    ["cat > new.sql <<'EOF'\n.shell rm -rf src\nEOF\nsqlite3 app.db < new.sql", "deny"],
    ["cat > new.sql <<'EOF'\ncreate table u (id int);\nEOF\nsqlite3 app.db < new.sql", "allow"],
    ["cat <<'EOF' > schema.sql\nselect 1;\nEOF\npsql -f schema.sql", "allow"],
    ["cat <<'EOF' > evil.psql\nselect 1;\nEOF\npsql -f evil.psql", "deny"],
    ["cp evil.sql schema.sql && sqlite3 app.db < schema.sql", "deny"],
    ["sqlite3 app.db < schema.sql; cp evil.sql schema.sql", "deny"],
    ["sqlite3 app.db < nested.sql", "deny"],
    ["sqlite3 app.db < missing.sql", "deny"],
    ["sqlite3 app.db < $F", "deny"],
  ]);
});

Deno.test("database shells: what echo, printf or cat pipe in is read as bash prints it", async () => {
  const P = "/home/user/project";
  const ctx = ctxIn(P, {
    files: [`${P}/app.db`],
    contents: {
      [`${P}/schema.sql`]: "create table t (id integer primary key);\n",
      [`${P}/evil.sql`]: "select 1;\n.shell rm -rf src\n",
      [`${P}/part.sql`]: ".shell ",
      [`${P}/rest.sql`]: "rm -rf src\n",
    },
  });
  // deno-fmt-ignore
  await checkActions(denyList, ctx, [
    // Queries and client commands that run nothing.
    ['echo "select count(*) from users;" | sqlite3 app.db', "allow"],
    ["echo .tables | sqlite3 app.db", "allow"],
    ["printf 'select 1;\\n' | sqlite3 app.db", "allow"],
    ["printf '%s\\n' 'select 1;' .tables | sqlite3 app.db", "allow"],
    ["echo -e '.tables\\nselect 1;' | sqlite3 app.db", "allow"],
    ['echo "select 1" | psql -U postgres -d app', "allow"],
    ["echo '\\dt' | psql app", "allow"],
    ['echo "show tables" | mysql -u root app', "allow"],
    ['echo "show tables" | mariadb app', "allow"],
    ["cat schema.sql | sqlite3 app.db", "allow"],
    ["cat schema.sql 2>/dev/null | psql -d app", "allow"],
    ["cat < schema.sql | sqlite3 app.db", "allow"],
    ["cat <<'EOF' | sqlite3 app.db\nselect 1;\nEOF", "allow"],
    ["Q='select 1;'; echo \"$Q\" | sqlite3 app.db", "allow"],
    // What runs a command, however echo or printf spell it.
    ["echo '.shell rm -rf src' | sqlite3 app.db", "deny"],
    ["echo '\\! rm -rf src' | psql -U postgres", "deny"],
    ['echo "system rm -rf src" | mysql -u root app', "deny"],
    ["echo 'select 1;\\n.shell rm -rf src' | sqlite3 app.db", "deny"], // (xpg_echo)
    ["echo -e 'select 1;\\x0a.sh rm -rf src' | sqlite3 app.db", "deny"],
    ["echo -ne 'x;\\0012.shell rm -rf src' | sqlite3 app.db", "deny"],
    ["printf 'select 1;\\012.shell rm -rf src' | sqlite3 app.db", "deny"],
    ["printf '%s\\n' 'select 1;' '.shell rm -rf src' | sqlite3 app.db", "deny"],
    ["cat evil.sql | sqlite3 app.db", "deny"],
    ["cat part.sql rest.sql | sqlite3 app.db", "deny"], // (one text: `.shell rm -rf src`)
    ["cat <<'EOF' | sqlite3 app.db\n.shell rm -rf src\nEOF", "deny"],
    ["cat | sqlite3 app.db <<< x", "allow"], // (sqlite3 reads the here-string)
    // A writer not known, several, another program, what is not reproduced: not known.
    ['cat "$F" | sqlite3 app.db', "deny"],
    ["cat missing.sql | sqlite3 app.db", "deny"],
    ["cat - schema.sql | sqlite3 app.db", "deny"],
    ["cat -v schema.sql | sqlite3 app.db", "deny"],
    ["cp evil.sql schema.sql; cat schema.sql | sqlite3 app.db", "deny"],
    ["printf '%b' 'select 1;\\n.shell rm -rf src' | sqlite3 app.db", "deny"],
    ["echo -e 'a\\u000a.shell rm x' | sqlite3 app.db", "deny"],
    ["{ echo 'select 1;'; echo .tables; } | sqlite3 app.db", "deny"],
    ["echo 'select 1;' | tee x.sql | sqlite3 app.db", "deny"],
    ["echo 'select 1;' 2>&1 >/dev/tty | sqlite3 app.db", "deny"],
    ["echo select * from t | sqlite3 app.db", "deny"],
    ["LC_ALL=C echo 'select 1;' | sqlite3 app.db", "deny"],
    ["echo() { printf '.shell rm -rf src\\n'; }; echo 'select 1;' | sqlite3 app.db", "deny"],
    ["cat() { command cat evil.sql; }; cat schema.sql | sqlite3 app.db", "deny"],
    ["alias echo='printf .shell'\necho ' rm -rf src' | sqlite3 app.db", "deny"],
  ]);
});

Deno.test("sqlite3: .cd moves it where later paths are not followed; .trace writes a file", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    [`sqlite3 x.db ".cd keys" "select readfile('id_rsa')"`, "deny", "deny"],
    [`sqlite3 x.db ".cd /tmp" ".output x"`, "deny", "deny"],
    [`sqlite3 x.db '.trace /home/user/.ssh/authorized_keys' 'select 1'`, "deny", "deny"],
    [`sqlite3 x.db '.trace out.log' 'select 1'`, "deny", "allow"],
    [`sqlite3 x.db '.tables'`, "deny", "allow"],
  ]);
});

Deno.test("fossil sql is the sqlite3 shell; pgbench's scripts run \\shell and \\setshell", async () => {
  await checkTable([
    ["fossil sql <<< '.shell rm -rf src'", "deny", "deny"],
    ["fossil sqlite3 -cmd '.shell cat .env' x.db", "deny", "deny"],
    ["fossil sql -R r.fossil '.system rm -rf src'", "deny", "deny"],
    ["fossil sqlite --no-repository <<< '.sh cat ~/.ssh/id_rsa'", "deny", "deny"],
    ['fossil sql <<< ".shell $(cat f)"', "deny", "deny"],
    ["fossil $C <<< '.shell rm -rf src'", "deny", "deny"],
    ["pgbench -f /dev/stdin <<< '\\shell rm -rf src'", "deny", "deny"],
    ["pgbench -f - db <<< '\\setshell x cat .env'", "deny", "deny"],
    ["pgbench --file=/dev/stdin@5 db <<< '\\shell cat ~/.ssh/id_rsa'", "deny", "deny"],
    ["pgbench -f /dev/stdin db <<< '\\shell frob :x'", "deny", "deny"],
    // Their everyday forms.
    ["fossil sql --readonly 'SELECT count(*) FROM blob'", "deny", "allow"],
    ["fossil sql <<< 'SELECT 1;'", "deny", "allow"],
    ["fossil status", "deny", "allow"],
    ["pgbench -c 10 -T 60 db", "deny", "allow"],
    ["pgbench -i -s 10 db", "deny", "allow"],
    ["pgbench -f /dev/stdin -c 4 db <<< 'SELECT 1;'", "deny", "allow"],
  ]);
});
