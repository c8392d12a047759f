/**
 * Read-only forms the `$safe-bash` preset accepts on real agent work (issue 20, class 1): sed and
 * awk programs that only print (their readers in programs/scripts.ts say what a script writes and
 * runs), bare filters reading standard input; and programs given by a path in a `PATH` directory
 * (class 2). Each loosening with its hostile spellings.
 */
import assert from "node:assert/strict";
import { checkEveryday, checkTable } from "../testing_adversarial.ts";
import { bash, configFrom, ctxIn } from "../testing.ts";
import type { Action } from "../types.ts";

/** [command, under read-only, under the deny-list]. */
const HOSTILE: [string, Action, Action][] = [
  // sed that writes, runs or edits in place, however spelled
  [`sed -n 'w /etc/x' README.md`, "deny", "allow"],
  [`sed -n '1,5w out' README.md`, "deny", "allow"],
  [`sed -n 's/a/b/w out' README.md`, "deny", "allow"],
  [`sed -n 's/a/b/e' README.md`, "deny", "deny"],
  [`sed -n -e p -e 'e rm x' README.md`, "deny", "deny"],
  [`sed -n p -e 'W out' README.md`, "deny", "allow"],
  [`sed -ni p README.md`, "deny", "allow"],
  [`sed -n -i.bak p README.md`, "deny", "allow"],
  [`sed -i -n p README.md`, "deny", "allow"],
  [`sed --in-place -n p README.md`, "deny", "allow"],
  [`sed -n --in-place=.bak p README.md`, "deny", "allow"],
  [`sed -n --in p README.md`, "deny", "deny"],
  [`sed -n p README.md -i`, "deny", "allow"],
  [`sed -n -f script.sed README.md`, "deny", "deny"],
  [`sed -n "$S" README.md`, "deny", "deny"],
  [`sed -n p $F`, "deny", "ask"],
  [`sed -n p *.md`, "deny", "allow"], // (the glob matches README.md alone)
  [`sed -n 'r /home/user/.ssh/id_rsa' README.md`, "deny", "deny"],
  [`sed -n p innocent.txt`, "deny", "deny"],
  [`sed -n p README.md > out`, "deny", "allow"],
  // awk that writes or runs
  [`awk '{print > "out"}' README.md`, "deny", "allow"],
  [`awk '{print | "sh"}' README.md`, "deny", "deny"],
  [`awk 'BEGIN{system("rm -rf x")}'`, "deny", "deny"],
  [`awk '{ "date" | getline d }' README.md`, "deny", "allow"],
  [`awk -f prog.awk README.md`, "deny", "deny"],
  [`gawk -i inplace '{print}' README.md`, "deny", "deny"],
  [`awk '@include "x"; {print}' README.md`, "deny", "deny"],
  [`awk -v f=x 'BEGIN{getline l < f; print l}'`, "deny", "ask"],
  [`awk '{print}' ~/.ssh/id_rsa`, "deny", "deny"],
  // bare filters: their redirects still count
  [`cat > out`, "deny", "allow"],
  [`sort > /etc/x`, "deny", "allow"],
  [`LD_PRELOAD=/tmp/x.so head`, "deny", "allow"],
  [`cat < ~/.ssh/id_rsa`, "deny", "deny"],
  // a program by a path outside PATH is a file it reads; by a path it disguises nothing
  [`/home/user/project/innocent.txt`, "deny", "deny"],
  [`/usr/bin/../../home/user/.ssh/id_rsa`, "deny", "deny"],
  [`/usr/bin/rm -rf x`, "deny", "deny"],
  [`/usr/bin/sed -i p README.md`, "deny", "allow"],
];

Deno.test("read-only forms: hostile spellings of sed, awk, bare filters and programs by path", async () => {
  await checkTable(HOSTILE);
});

Deno.test("read-only forms: print-only sed and awk, bare filters in a pipe", async () => {
  await checkEveryday([
    "sed -n '348,450p' README.md",
    "sed -n 240,260p src/main.ts",
    "nl -ba src/main.ts | sed -n '10,20p'",
    "sed -n -e '/a/,/b/p' -e '$=' README.md",
    "sed 's/a/b/g' README.md",
    "sed -n '/x/{p;q}' README.md",
    "sed -n 's/a/b/p' README.md",
    "sed -n 'w /dev/stdout' README.md",
    "sed -n l README.md",
    "grep -n x README.md | sed -n 1,5p",
    "awk '{print $1}' README.md",
    "awk -F: 'NR>1 {print $2}' README.md",
    `awk 'NR==5, NR==10 { printf "%d %s\\n", NR, $0 }' README.md`,
    `awk '{print > "/dev/stderr"}' README.md`,
    "cat README.md | head",
    "grep x README.md | sort | uniq | wc",
    "ls | tail",
    "cat README.md | nl | tac | cat",
  ]);
});

Deno.test("a program given by a path in a PATH directory is that program, not a target", async () => {
  const config = configFrom({
    policies: {
      project: { defaultAction: "allow", rules: [] },
      outside: { defaultAction: "ask", rules: [] },
    },
    locations: { "/": "outside", "/work": "project" },
  });
  const PATH = "/usr/local/bin:/usr/bin/:/bin:relative";
  const ctx = ctxIn("/work", { env: { PATH } });
  const cases: [string, Action][] = [
    ["/usr/bin/python3 -m pytest tests", "allow"],
    ["/bin/ls -la", "allow"],
    ["/usr/local/bin/tool x", "allow"],
    ["/usr/bin/sub/tool x", "ask"], // a directory below one in PATH is not in PATH
    ["/usr/bin//python3 x", "ask"],
    ["/usr/bin/./python3 x", "ask"],
    ["/usr/bin/../lib/x", "ask"],
    ["/opt/tool/run x", "ask"], // elsewhere, running a file is reading it
    ["/usr/bin/python3 /etc/passwd", "ask"], // its arguments are still targets
    ["relative/python3 x", "allow"], // (inside the project: a relative PATH entry counts not)
    ["/usr/bin/python3 -m pytest -c /dev/null x", "allow"], // the null device is no place
    ["pylint --rcfile=/dev/null x", "allow"],
    ["cat /dev/null/../../etc/passwd", "ask"],
    ["cp x /dev/sda", "ask"],
  ];
  const got: [string, Action][] = [];
  for (const [command] of cases) got.push([command, (await bash(config, ctx, command)).action]);
  assert.deepEqual(got, cases);
  // Without PATH in the tool's environment, the path is judged as any other.
  const bare = ctxIn("/work", {});
  assert.equal((await bash(config, bare, "/usr/bin/python3 -m pytest")).action, "ask");
});

Deno.test("read-only forms: archives listed or read, never extracted or run", async () => {
  await checkTable([
    // tar: any mode but the listing, an option that writes or runs, a remote archive
    ["tar -xf a.tar", "deny", "allow"],
    ["tar xf a.tar", "deny", "allow"],
    ["tar -tf a.tar -x", "deny", "allow"],
    ["tar -t --delete -f a.tar x", "deny", "allow"],
    ["tar -tf a.tar --to-command='rm x'", "deny", "deny"],
    ["tar -t -I 'sh -c id' -f a.tar", "deny", "allow"],
    ["tar --list --use-compress-prog=./evil -f a.tar", "deny", "allow"],
    ["tar -tf a.tar --checkpoint-action=exec='rm x'", "deny", "deny"],
    ["tar -tf evil.example:a.tar", "deny", "allow"],
    ["tar --list --file=evil.example:a.tar", "deny", "allow"],
    ["tar -tf a.tar --index-file=out", "deny", "allow"],
    ["tar -tf $ARCHIVE", "deny", "ask"],
    ["tar -tf ~/.ssh/id_rsa", "deny", "deny"],
    ["tar -tvf a.tar > listing.txt", "deny", "allow"],
    // unzip: extracting (the default), -o, -d, options it may take after the archive
    ["unzip a.zip", "deny", "allow"],
    ["unzip -o a.zip", "deny", "allow"],
    ["unzip -l a.zip -d out", "deny", "allow"],
    ["unzip -q a.zip", "deny", "allow"],
    ["unzip -l innocent.txt", "deny", "deny"],
  ]);
  await checkEveryday([
    "tar -tf a.tar",
    "tar -tzvf dist/pkg.tar.gz",
    "tar tzf a.tgz | head",
    "tar --list --file=a.tar --wildcards '*.py'",
    "tar -tf a.tar -C src",
    "unzip -l a.zip",
    "unzip -lv a.zip",
    "unzip -p a.zip README | head",
    "unzip -t a.zip",
    "zipinfo a.zip",
  ]);
});

Deno.test("read-only forms: export of a locale, time zone or colour setting", async () => {
  await checkTable([
    ["export LD_PRELOAD=/tmp/x.so", "deny", "allow"],
    ["export PAGER='rm x'", "deny", "deny"],
    ["export LANG=C.UTF-8 PATH=/tmp/bin", "deny", "allow"],
    ["export LANG=C.UTF-8 PATH=/tmp/bin; ls", "deny", "allow"],
    ["ln -s /bin/rm /tmp/bin/ls; export LANG=C.UTF-8 PATH=/tmp/bin; ls", "deny", "deny"],
    ["export LANG", "deny", "allow"],
    ["export -f f", "deny", "allow"],
    ["declare -x LANG=C", "deny", "allow"],
  ]);
  await checkEveryday(["export LANG=C.UTF-8", "export LC_ALL=C TZ=UTC", "export NO_COLOR=1 && ls"]);
});

Deno.test("read-only forms: xargs is judged by the command it runs", async () => {
  await checkTable([
    ["find . -name '*.md' | xargs rm", "deny", "deny"],
    ["find . -name '*.txt' | xargs -I{} cp {} /tmp/x", "deny", "deny"],
    ["find . | xargs sed -i s/a/b/", "deny", "deny"],
    ["find . | xargs sh -c 'cat ~/.ssh/id_rsa'", "deny", "deny"],
    ["ls | xargs -a ~/.ssh/id_rsa cat", "deny", "deny"],
    // (What echo prints is what xargs reads: judged as cat README.md.)
    ["echo README.md | xargs cat", "allow", "allow"],
    ["cat notes.txt | xargs cat", "ask", "ask"],
  ]);
  await checkEveryday([
    "find src -name '*.ts' | xargs grep -l main",
    "find src -name '*.ts' | xargs wc -l",
  ]);
});
