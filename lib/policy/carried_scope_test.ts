/**
 * A line an argument carries has its globs expanded against the files there are, as the
 * command's own (`myrunner 'cat .en?'` reads `.env`, as `cat .en?` does), unless a stage of the
 * command may change what they match first (then a guess, which counts not, as a value not known
 * in a carried line counts not).
 */
import { checkActions, ctxIn, rmDenied } from "../testing.ts";
import type { Action } from "../types.ts";

/** Allow by default, `rm *` and `curl *` denied, `.env` asked, secrets and the keys denied. */
const config = rmDenied("/home/user", { ssh: true, curl: true });
const ctx = ctxIn("/p", {
  files: ["/p/src/a.ts", "/p/src/b.ts", "/p/README.md", "/p/secrets/key", "/p/.env"].concat(
    "/home/user/.ssh/id_rsa",
  ),
  home: "/home/user",
});
const check = (rows: [string, Action][]) => checkActions(config, ctx, rows);

Deno.test("a carried line's glob matches what is there, as the command's own do", async () => {
  await check([
    // What the same glob finds run directly.
    ["cat .en?", "ask"],
    ["myrunner 'cat .en?'", "ask"],
    ["myrunner 'cat .e*'", "ask"],
    ["myrunner 'cat .[e]nv'", "ask"],
    ["myrunner 'cp -r secret* /tmp/o'", "deny"],
    ["myrunner 'cat secret?/key'", "deny"],
    ["myrunner 'tar czf /tmp/b.tgz *'", "deny"],
    ["myrunner 'cat ~/.ss?/id_rsa'", "deny"],
    ["myrunner 'cat src/../.en?'", "ask"],
    ["myrunner 'cd src && cat ../.en?'", "ask"],
    ["job submit --cmd='cat .en?'", "ask"],
    ["hg --config 'hooks.pre-status=cat .en?' status", "ask"],
    // Wrapped, redirected, or followed by a stage that starts after it.
    ["sudo myrunner 'cat .en?'", "ask"],
    ["npx myrunner 'cat .en?'", "ask"],
    ["env A=1 myrunner 'cat .en?'", "ask"],
    ["myrunner 'cat .en?' > out.log", "ask"],
    ["myrunner 'cat .en?' && touch .x", "ask"],
    ["sh -c \"myrunner 'cat .en?'\"", "ask"],
    // A stage of the line writes first: what is there now is still found.
    ["myrunner 'touch x; cat .en?'", "ask"],
    ["myrunner 'mkdir -p out && cp secret*/* out/'", "deny"],
  ]);
});

Deno.test("a carried line's `for` list is listed, as the command's own is", async () => {
  await check([
    ["for f in secrets/*; do cat $f; done", "deny"],
    ["myrunner 'for f in secrets/*; do cat $f; done'", "deny"],
    ["myrunner 'for f in secret*; do tar czf /tmp/o.tgz $f; done'", "deny"],
    ["myrunner 'for f in .e*; do cat \"$f\"; done'", "ask"],
    ["myrunner 'for f in .e*; do cat $f; done' && echo done", "ask"],
    // Everyday loops.
    ["myrunner 'for f in src/*.ts; do cat $f; done'", "allow"],
    ["myrunner 'for f in *; do echo $f; done'", "allow"],
    ["myrunner 'for d in src/*; do wc -l $d; done'", "allow"],
  ]);
});

Deno.test("a carried line's glob another stage may change first is a guess that counts not", async () => {
  await check([
    // (A writer before it in the command: what the glob matches then is not known.)
    ["touch .x; myrunner 'cat .en?'", "allow"],
    ["touch .x; myrunner 'for f in .e*; do cat $f; done'", "allow"],
    ["myrunner 'cat .en?' & touch .x", "allow"],
    // Options the line sets: its list not listed (a value not known).
    ["myrunner 'shopt -s dotglob; for f in *; do cat $f; done'", "allow"],
    // A value not known in a carried line counts not.
    ['git commit -m "$(cat .en?)"', "ask"],
    ["myrunner 'cat secrets/$X'", "allow"],
    // Still judged where every path it reaches is protected.
    ["touch secrets/x; myrunner 'cat secrets/*'", "deny"],
  ]);
});

Deno.test("everyday text and lines with globs stay allowed", async () => {
  await check([
    ["git commit -m 'update *.md files'", "allow"],
    ["git commit -m 'cat .en? is read now'", "allow"],
    ["echo 'ls src/*.ts'", "allow"],
    ["some-runner 'eslint src/**/*.ts'", "allow"],
    ["myrunner 'prettier --check src/*.ts'", "allow"],
    ["myrunner 'cat src/*'", "allow"],
    ["myrunner 'ls *'", "allow"],
    ["myrunner 'wc -l *.md'", "allow"],
    ["watchexec -e ts -- 'npm test'", "allow"],
    ["myrunner 'grep -rn TODO src/*'", "allow"],
    // SQL reads as no command: its `*` is a guess, as before.
    ["sqlite3 app.db 'SELECT * FROM users'", "allow"],
    ["duckdb -c 'SELECT * FROM t'", "allow"],
    ["mytool --query 'select * from t'", "allow"],
    ["mytool --query 'DELETE FROM t WHERE id = 1'", "allow"],
    ["mytool --sql 'INSERT INTO t SELECT * FROM u'", "allow"],
  ]);
});

Deno.test("a command after an SQL statement in a carried line is still expanded", async () => {
  await check([
    ["mytool 'SELECT * FROM t; cat .en?'", "ask"],
    ["mytool 'SELECT 1 && tar czf /tmp/o.tgz *'", "deny"],
  ]);
});
