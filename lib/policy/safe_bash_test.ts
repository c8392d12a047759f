import assert from "node:assert/strict";
import { analyzeBash } from "../shell/analyze.ts";
import { commandString, isFileTarget, type Stage } from "../shell/model.ts";
import { loadBashParser } from "../shell/parser.ts";
import { carriesCommand } from "../programs/env.ts";
import { globMatch } from "./glob.ts";
import { expandSafeBash, presetAccepts, presetForm, SAFE_BASH_SIZE } from "./safe_bash.ts";
import { checkEveryday, checkTable } from "../testing_adversarial.ts";

const parser = await loadBashParser();
const env = { cwd: "/proj", home: "/home/u", env: { HOME: "/home/u" }, carriesCommand };
const RULES = expandSafeBash("allow");

/** Whether some preset rule matches the stage's command and its argument checks hold. */
function stageAllowed(stage: Stage): boolean {
  const command = commandString(stage);
  const argv = stage.argv.map((w) => w.value);
  const forms = [command];
  if (argv[0]?.includes("/")) forms.push(command.replace(/^\S*\//, ""));
  const facts = {
    argv,
    writes: stage.redirects.some((r) => r.kind === "write" && isFileTarget(r)),
  };
  return RULES.some((r) =>
    forms.some((f) => globMatch(r.pattern!, presetForm(f))) && presetAccepts(r, facts)
  );
}

/** Whether `$safe-bash` allows every stage of a command. */
function allowed(command: string): boolean {
  const a = analyzeBash(command, env, parser);
  assert.equal(a.error, null, command);
  return a.stages.every(stageAllowed);
}

Deno.test("the preset: ~90-170 allow rules for bash, none repeated", () => {
  assert.ok(SAFE_BASH_SIZE >= 90 && SAFE_BASH_SIZE <= 170, String(SAFE_BASH_SIZE));
  assert.equal(RULES.length, SAFE_BASH_SIZE);
  assert.equal(new Set(RULES.map((r) => r.pattern)).size, RULES.length);
  for (const r of RULES) {
    assert.deepEqual({ ...r, pattern: undefined }, {
      action: "allow",
      tool: "bash",
      pattern: undefined,
      preset: "$safe-bash",
    });
  }
  assert.ok(expandSafeBash("log").every((r) => r.action === "log"));
});

Deno.test("the preset covers every category of the spec", () => {
  for (
    const cmd of [
      // File reading
      "cat README.md",
      "head -n 5 a.txt",
      "tail -f log.txt",
      "xxd -l 64 bin",
      // File metadata
      "ls",
      "ls -la src",
      "stat a.txt",
      "du -sh .",
      "du",
      "df -h",
      "df",
      "find . -name '*.ts' -type f",
      // Search
      "grep -rn TODO src",
      "rg -n 'fn main' src",
      "ag foo",
      // Text processing
      "wc -l a.txt",
      "sort -k2 file",
      "diff a b",
      "jq '.name' package.json",
      "yq '.a' x.yaml",
      // Git (read-only)
      "git status",
      "git status --short",
      "git log",
      "git log --oneline -n 10",
      "git diff",
      "git diff HEAD~1 -- src",
      "git blame -L 1,10 a.ts",
      // System info
      "echo hello",
      "echo",
      "env",
      "which node",
      "ps aux",
      "uname -a",
      // Package info
      "npm list --depth=0",
      "npm list",
      "pip show requests",
      "bun pm ls",
    ]
  ) {
    assert.ok(allowed(cmd), cmd);
  }
});

Deno.test("everyday read-only forms are accepted", () => {
  for (
    const cmd of [
      "git branch",
      "git branch -a",
      "git branch -vv",
      "git branch --show-current",
      "git branch --list 'feat*'",
      "git branch -l 'feat*'",
      "git branch --contains HEAD",
      "git branch --merged main -r",
      "git branch --format='%(refname)'",
      // A linter only reads: its findings, or a patch (`-f diff`), go to standard output.
      "shellcheck scripts/build.sh",
      "shellcheck -x -S warning -f gcc scripts/a.sh",
      "shellcheck -f diff scripts/a.sh",
      "git tag",
      "git tag -l 'v*'",
      "git tag --list",
      "git tag --points-at HEAD",
      "git config --get user.name",
      "git config --global --get-all remote.origin.url",
      "git config --list",
      "git config -l --show-origin",
      "git grep -e foo",
      "git grep -n foo -- src",
      "git show HEAD:a.ts",
      "sort file",
      "sort -u -k2,2 -t, file",
      "sort -ko file", // -k's value is "o"
      "sort -rn --key 2 file",
      "uniq file",
      "uniq -c file",
      "uniq -f 1 file",
      "uniq --skip-fields 1 file",
      "xxd file",
      "xxd -c 8 -g 1 file",
      "xxd -C file",
      "xxd -ps file", // (-ps is -p: a word is one option)
      "xxd -cols 8 -len 64 file",
      "xxd -s 16 file -",
      "xxd -i file",
      "date",
      "date +%s",
      "date -u +%Y-%m-%dT%H:%M:%SZ",
      "date -d tomorrow +%F",
      "date --date yesterday",
      "tree",
      "tree -L 2 -a src",
      "file a.bin",
      "rg -e foo -g '*.ts'",
      "yq -o json '.a' x.yaml",
      "printf '%s\\n' a b",
      "command -v node",
      "find . -maxdepth 2 -name '*.md' -print",
      "/usr/bin/sort -k2 f",
      "ls 2>/dev/null",
      "ls 2>&1",
      "ls -la | grep x | wc -l",
    ]
  ) {
    assert.ok(allowed(cmd), cmd);
  }
});

Deno.test("flags that write or execute make the preset not match", () => {
  for (
    const cmd of [
      // find
      "find . -exec rm {} ;",
      "find . -execdir rm {} +",
      "find . -ok rm {} ;",
      "find . -okdir rm {} ;",
      "find . -delete",
      "find . -name x -delete",
      "find . -fprint out",
      "find . -fprint0 out",
      "find . -fprintf out %p",
      "find . -fls out",
      "find -- . -delete", // `--` does not end find's expression
      // sort
      "sort -o out file",
      "sort -uo out file",
      "sort -o/tmp/out file",
      "sort --output=out file",
      "sort --output out file",
      "sort --out=out file",
      "sort --compress-program=sh file",
      "sort -T /etc file",
      "sort --temporary-directory=/etc file",
      // uniq, xxd: a second operand is the output file
      "uniq in out",
      "uniq -f 1 in out",
      "uniq -- in out",
      "xxd in out",
      "xxd -C in out",
      "xxd -r hex",
      "xxd -r -p hex",
      "xxd -rp hex",
      // (xxd reads a word as one option, by its first letter: `-ps` is `-p`, not `-p -s IN`.)
      "xxd -ps in out",
      "xxd -bits in out",
      "xxd -ug in out",
      "xxd -as in out",
      "xxd -Eo in out",
      "xxd -pl in out",
      "xxd -pc in out",
      "xxd --revert hex",
      "xxd -cols 8 in out",
      "xxd -- -in out",
      "xxd in -p", // (the options end at the infile: `-p` is the outfile)
      "xxd -x in", // (an option it does not know)
      // tree, file, rg, ag, yq, date, printf
      "tree -o out",
      "tree -R -H . -o x",
      "file -C -m magic",
      "file --compile",
      "rg --pre cat foo",
      "rg --pre=./x foo",
      "rg -z foo",
      "rg --search-zip foo",
      "rg --hostname-bin=./x foo",
      "ag --pager=sh foo",
      "yq -i '.a = 1' x.yaml",
      "yq --inplace '.a = 1' x.yaml",
      "yq -s '.name' x.yaml",
      "date -s '2020-01-01'",
      "date --set=2020-01-01",
      "date 0101000020",
      "date -u 0101000020",
      // git
      "git diff --output=patch",
      "git diff --ext-diff",
      "git diff --textconv",
      "git log --output=x",
      "git log -p --output x",
      "git log --show-signature",
      "git show --output=x",
      "git show --ext-diff",
      "git stash show --output=x",
      "git grep -O foo",
      "git grep -Ovim foo",
      "git grep --open-files-in-pager=vim foo",
      "git cat-file --textconv HEAD:a",
      "git branch newname",
      "git branch -D x",
      "git branch -d x",
      "git branch -m a b",
      "git branch -f x HEAD",
      "git branch --set-upstream-to=origin/x",
      "git branch -a newname",
      "git branch -- newname",
      "git tag v1",
      "git tag -a v1 -m msg",
      "git tag -d v1",
      "git config user.name x",
      "git config --global user.name x",
      "git config --unset user.name",
      "git config -e",
      "git config edit",
      "git config edit --global",
      "git config --global edit",
      "git config set user.name x",
      "git config unset user.name",
      "git config remove-section core",
      "git config --add a.b c",
    ]
  ) {
    assert.ok(!allowed(cmd), cmd);
  }
});

Deno.test("printf -v with a subscript that runs a command is not even analysed as harmless", () => {
  // (bash runs `rm` to find the subscript: the analysis says it cannot see what runs.)
  assert.match(analyzeBash("printf -v 'a[$(rm -rf ~)]' x", env, parser).error ?? "", /as code/);
  assert.ok(!allowed("printf -v name x"));
});

Deno.test("git's options that change nothing it touches may come before a read-only subcommand", () => {
  for (const cmd of ["git --no-pager diff", "git -P log -3", "git -C src status"]) {
    assert.ok(allowed(cmd), cmd);
  }
  for (
    const cmd of [
      "git --no-pager log --output=/tmp/x",
      "git -c core.pager=x log",
      "git --no-pager push",
      "git -C 'x status' log",
      "git --paginate log",
    ]
  ) {
    assert.ok(!allowed(cmd), cmd);
  }
});

Deno.test("a stage that writes through a redirect is not read-only", () => {
  for (
    const cmd of [
      "echo hi > f",
      "cat a >> b",
      "ls 2> err",
      "ls &> out",
      "git status >| s",
      "cat <> f",
      "echo $(cat a > b)",
      "ls | sort > out",
    ]
  ) {
    assert.ok(!allowed(cmd), cmd);
  }
  assert.ok(allowed("cat a > /dev/null 2>&1"));
});

Deno.test("programs not in the preset, or spelled to look like it, do not match", () => {
  for (
    const cmd of [
      "rm -rf x",
      "sed -i s/a/b/ f",
      "awk '{print > \"out\"}' f",
      "hostname newname",
      "npm install",
      "git push",
      "git checkout .",
      "git remote add o url",
      "git stash",
      "'git log' x", // one word "git log": not git
      "git 'log --output=x'",
      "'git' 'branch' -D x",
    ]
  ) {
    assert.ok(!allowed(cmd), cmd);
  }
});

Deno.test("presetAccepts on its own: rules without a pattern, and stage facts", () => {
  const sort = RULES.find((r) => r.pattern === "sort *")!;
  assert.ok(presetAccepts(sort, { argv: ["sort", "-k2", "f"], writes: false }));
  assert.ok(!presetAccepts(sort, { argv: ["sort", "-k2", "f"], writes: true }));
  assert.ok(!presetAccepts(sort, { argv: ["sort", "-o", "f"], writes: false }));
  assert.ok(!presetAccepts(sort, { argv: [], writes: false }));
  assert.ok(presetAccepts(sort, { argv: ["/usr/bin/sort", "f"], writes: false }));
  assert.ok(!presetAccepts(sort, { argv: ["sudo", "sort", "f"], writes: false }));
  // Environment assignments: locale and the like are fine, code-loading ones are not.
  const cat = RULES.find((r) => r.pattern === "cat *")!;
  const withEnv = (...assignments: string[]) =>
    presetAccepts(cat, { argv: ["cat", "f"], writes: false, assignments });
  assert.ok(withEnv());
  assert.ok(withEnv("LC_ALL=C", "TZ=UTC", "NO_COLOR=1", "GIT_PAGER=cat"));
  for (const a of ["LD_PRELOAD=/tmp/x.so", "PATH=.:/bin", "BASH_ENV=./x", "GIT_PAGER=sh -c x"]) {
    assert.ok(!withEnv(a), a);
  }
  const bare = { action: "allow" as const, tool: "bash", preset: "$safe-bash" as const };
  assert.ok(presetAccepts(bare, { argv: ["anything"], writes: false }));
});

Deno.test("the preset reads clusters, one-operand reads and glued values as their programs do", async () => {
  // Read-only forms an agent writes that were asked about.
  await checkEveryday([
    "git branch -av",
    "git config user.name",
    "git config --global user.email",
    "git stash list --oneline",
    "date -Ins",
    "date -Is",
    "npm ls --global",
    "unzip -Z1 x.zip",
    "nproc --all",
    "pwd -P",
  ]);
  // Their writing neighbours still are.
  await checkTable([
    ["git config user.name Bob", "deny", "allow"],
    ["git branch -dv x", "deny", "allow"],
    ["git stash list --output=/tmp/x", "deny", "allow"],
    ["date -s 12:00", "deny", "allow"],
    ["npm ls --globalconfig=/tmp/x", "deny", "allow"],
    ["npm ls -C /tmp/x", "deny", "allow"],
    ["rg --search-zip foo", "deny", "allow"],
    ["base64 -d -o src/main.ts x", "deny", "allow"],
  ]);
});

Deno.test("wrappers and builtins in the preset: what a wrapper runs is judged as a stage of its own", async () => {
  // [command, read-only, deny-list (rm and sudo denied)]
  await checkTable([
    ["env rm -rf x", "deny", "deny"],
    ["command -p rm x", "deny", "deny"],
    ["timeout 10 rm -rf x", "deny", "deny"],
    ["nice -n 5 rm x", "deny", "deny"],
    ["nohup rm x &", "deny", "deny"],
    ["stdbuf -oL rm x", "deny", "deny"],
    ["exec rm x", "deny", "deny"],
    ["env -S 'rm x'", "deny", "deny"],
    ["timeout 5 bash -c 'rm x'", "deny", "deny"],
    ["timeout $T rm x", "deny", "deny"],
    ["nice $X", "deny", "deny"],
    // A builtin's or wrapper's own redirect still writes.
    ["exec > out.txt", "deny", "allow"],
    ["exec 3>out.txt", "deny", "allow"],
    ["true > out.txt", "deny", "allow"],
    ["cd . > out.txt", "deny", "allow"],
    ["pushd . >> notes.txt", "deny", "allow"],
    ["test -f x > out.txt", "deny", "allow"],
    // `set -a` exports what is set after it: a code variable set alone then loads code.
    ["set -a; LD_PRELOAD=./x.so; cat README.md", "deny", "allow"],
    ["set -o allexport; RIPGREP_CONFIG_PATH=./.rgrc; rg x", "deny", "allow"],
    ["set -Ca; X=1; ls", "deny", "allow"],
    ["set +H -a; X=1", "deny", "allow"],
  ]);
  await checkEveryday([
    "timeout 60 grep -rn TODO src",
    "nice -n 10 sort README.md",
    "stdbuf -oL tail -n 20 notes.txt",
    "command grep -c x README.md",
    "exec cat README.md",
    "env LC_ALL=C sort README.md",
    "set -euo pipefail; ls src",
    "test -f README.md && echo yes",
    "[ -d src ] || exit 1",
    "ls src || true",
    "sleep 1; wait",
    "seq 3 | xargs -n1 echo",
    "expr 1 + 2",
    "X=1",
    "[ -f x ]",
    "python -V",
    "node -v",
    "git --version",
  ]);
});
