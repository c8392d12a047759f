/**
 * Variables that hold or name code (prompts, editors, `BASH_ENV`, `PATH`, bash's command
 * tables), however the command sets them: an assignment word is read for its value; any other
 * way (`read`, `printf -v`, `${X:=…}`, an element, a nameref, `unset PATH`) is not known.
 */
import {
  adversarialCtx,
  checkEveryday,
  checkGateTable,
  checkTable,
  denyList,
} from "../testing_adversarial.ts";

Deno.test("code variables: set any way, what they run counts", async () => {
  await checkTable([
    // A prompt traced with `set -x` runs its substitutions.
    ["x='$(rm -rf src)'; PS4=$x; set -x; :", "deny", "deny"],
    ["set -- '$(rm -rf src)'; PS4=$1; set -x; :", "deny", "deny"],
    ["x='$(rm -rf src)'; declare PS4=$x; set -x; :", "deny", "deny"],
    ["PS4=$'\\x24(rm -rf src)'; set -x; :", "deny", "deny"],
    ["PS4='$''(rm -rf src)'; set -x; :", "deny", "deny"],
    ["PS4=\\$\\(rm\\ -rf\\ src\\); set -x; :", "deny", "deny"],
    ["read PS4 <<<'$(rm -rf src)'; set -x; :", "deny", "deny"],
    ["IFS= read -r PS4 <<<'$(rm -rf src)'; set -x; :", "deny", "deny"],
    ["printf -v PS4 %s '$(rm -rf src)'; set -x; :", "deny", "deny"],
    ["mapfile -t PS4 <<<'$(rm -rf src)'; set -x; :", "deny", "deny"],
    ["for PS4 in '$(rm -rf src)'; do set -x; :; done", "deny", "deny"],
    ["PS4[0]='$(rm -rf src)'; set -x; :", "deny", "deny"],
    ["unset PS4; : ${PS4='$(rm -rf src)'}; set -x; :", "deny", "deny"],
    ["echo ${PS4:='$(rm -rf src)'}; set -x; :", "deny", "deny"],
    ["declare -n p=PS4; p='$(rm -rf src)'; set -x; :", "deny", "deny"],
    // Editors, bash's start-up file, the lookup of commands.
    [
      "unset GIT_EDITOR; : ${GIT_EDITOR:='rm -rf src'}; export GIT_EDITOR; git commit",
      "deny",
      "deny",
    ],
    [": ${BASH_ENV:=run.sh}; export BASH_ENV; bash -c :", "deny", "deny"],
    ["shopt -s expand_aliases; : ${BASH_ALIASES[ls]:='rm -rf src'}; ls", "deny", "deny"],
    [": ${BASH_CMDS[ls]:=./x}; ls", "deny", "deny"],
    ["unset PATH; ls", "deny", "deny"],
    ["x=PATH; printf -v $x .; ls", "deny", "deny"],
    ["read $x <<<'$(rm -rf src)'; set -x; :", "deny", "deny"],
    // Namerefs whose target is not known, or is set by their first assignment.
    ["x='a[$(rm -rf src)]'; declare -n y=$x; echo $y", "deny", "deny"],
    ["f(){ local -n y=$1; echo $y; }; f 'a[$(rm -rf src)]'", "deny", "deny"],
    ["declare -n y; y='a[$(rm -rf src)]'; echo $y", "deny", "deny"],
  ]);
});

Deno.test("code variables: everyday loops, reads and prompts stay allowed (deny-list)", async () => {
  await checkEveryday([
    "for f in *.md; do echo $f; done",
    'read -r name <<< "x"; echo $name',
    "printf -v n '%03d' 5; echo $n",
    'while IFS= read -r line; do echo "$line"; done < README.md',
    "echo ${HOME:-/tmp}",
    "PS4='+ ${LINENO}: '; set -x; ls",
    "declare -n ref=count; count=1; echo $ref",
    "unset TMPDIR; ls",
  ], denyList);
});

Deno.test("settings files and option variables that make programs run or write unseen", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    ["WGETRC=/tmp/w wget http://x/", "deny", "deny"],
    // (wget reads SYSTEM_WGETRC's file first, as /etc/wgetrc; wget2 its own two)
    ["SYSTEM_WGETRC=w.rc wget http://x/", "deny", "deny"],
    ["export SYSTEM_WGETRC=w.rc; wget http://x/", "deny", "deny"],
    ["env SYSTEM_WGETRC=w.rc wget http://x/", "deny", "deny"],
    ["WGET2RC=w.rc wget2 http://x/", "deny", "deny"],
    ["SYSTEM_WGET2RC=w.rc wget2 http://x/", "deny", "deny"],
    ["HGRCPATH=/tmp/x hg status", "deny", "deny"],
    ["PARALLEL='--limit \"rm -rf src\"' parallel echo ::: a", "deny", "deny"],
    ["PARALLEL_SSH='rm -rf src #' parallel -S x echo ::: a", "deny", "deny"],
    ["KUBECTL_EXTERNAL_DIFF='rm -rf src' kubectl diff -f x.yaml", "deny", "deny"],
    ["XZ_OPT=--files xz -d <<< .env.xz", "deny", "deny"],
    ["XZ_DEFAULTS=--files xz -d <<< .env.xz", "deny", "deny"],
    // the directories programs find their settings in: HOME (~/.gitconfig, ~/.hgrc, ~/.curlrc…)
    ["HOME=/tmp/x git status", "deny", "deny"],
    ["HOME=. git log", "deny", "deny"],
    ["env HOME=/tmp/x hg status", "deny", "deny"],
    ["export HOME=/tmp/x && git log -1", "deny", "deny"],
    ["((HOME=0)); git status", "deny", "deny"],
    ["CURL_HOME=/tmp/x curl -s http://x/", "deny", "deny"],
    ["CARGO_HOME=/tmp/x cargo build", "deny", "deny"],
    ["GH_CONFIG_DIR=/tmp/x gh pr list", "deny", "deny"],
    ["PYTHONUSERBASE=/tmp/x python3 app.py", "deny", "deny"],
    ["LESSKEYIN=/tmp/k less notes.txt", "deny", "deny"],
    // HISTFILESIZE truncates the history file however it is set (a link followed)
    ["HISTFILE=innocent.txt; HISTFILESIZE=0; ls", "deny", "ask"],
    ["HISTFILE=.env HISTFILESIZE=0", "deny", "ask"],
    ["HISTFILE=.env; export HISTFILESIZE=0; echo", "deny", "ask"],
    ["HISTFILE=.env; read HISTFILESIZE <<< 0; echo", "deny", "deny"],
    ["HISTFILE=.env; (( HISTFILESIZE=0 )); echo", "deny", "deny"],
    ["HISTFILE=.env; let HISTFILESIZE=0; echo", "deny", "deny"],
    ["bash -c 'HISTFILE=.env; HISTFILESIZE=0'", "deny", "ask"],
    // a cache removed whole where a variable says
    ["DENO_DIR=.pi deno clean", "deny", "ask"],
    ["GOMODCACHE=.pi go clean -modcache", "deny", "ask"],
    // places test and build tools write, set before or exported first; groff's unsafe mode
    ["PYTEST_ADDOPTS='-o cache_dir=.pi/extensions' pytest", "deny", "deny"],
    ["export PYTEST_ADDOPTS='--basetemp=.pi'; pytest", "deny", "deny"],
    // (the places they write: below, with the gate's own files)
    [
      "CARGO_REGISTRIES_LOC_CREDENTIAL_PROVIDER='cargo:token-from-stdout rm -rf src' cargo yank x",
      "deny",
      "deny",
    ],
    ["MANROFFOPT=-U man -l /tmp/evil.1", "deny", "deny"],
    // (A settings file pytest is given is read as it will be: pytest_test.ts.)
    ["groff -U -man x.1", "deny", "deny"],
    ["export SIMPLE_BACKUP_SUFFIX=.json; cp -b /dev/null .pi/settings", "deny", "deny"],
    // a rebase's todo list an editor the command names writes (its exec lines run)
    ["GIT_SEQUENCE_EDITOR='cp /tmp/todo' git rebase -i HEAD~1", "deny", "deny"],
    ["git -c sequence.editor='cp /tmp/todo' rebase -i HEAD~1", "deny", "deny"],
    ["GIT_EDITOR='cp /tmp/todo' git rebase --interactive HEAD~1", "deny", "deny"],
    ["GIT_SEQUENCE_EDITOR=true git rebase -i --autosquash main", "deny", "allow"],
    ["nroff -U x.1", "deny", "deny"],
    // everyday
    ["pytest -q tests", "deny", "allow"],
    ["pytest -c /dev/null tests/test_a.py", "deny", "allow"],
    ["groff -man -Tutf8 x.1", "deny", "allow"],
    ["XZ_OPT=-T0 xz -k notes.txt", "deny", "allow"],
    ["KUBECTL_EXTERNAL_DIFF='diff -u' kubectl diff -f x.yaml", "deny", "allow"],
    ["HISTSIZE=1000; echo ok", "allow", "allow"],
    ["JAVA_HOME=/usr/lib/jvm/java-17 mvn -v", "deny", "allow"],
    ["echo $HOME; cd ~ && ls", "allow", "allow"],
    ["i=0; ((i++)); let j=i+1; echo $j", "deny", "allow"],
    ["go clean -testcache && go test ./...", "deny", "allow"],
  ]);
});

Deno.test("NODE_OPTIONS is judged as node given those options", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    ["NODE_OPTIONS='--require /home/user/.ssh/id_rsa' npm test", "deny", "deny"],
    ["NODE_OPTIONS='--import ./keys/id_rsa' node x.js", "deny", "deny"],
    ["NODE_OPTIONS=--max-old-space-size=4096 npm run build", "deny", "allow"],
  ]);
});

Deno.test("places programs write where a variable says, set before, exported first or alone", async () => {
  // [command, deny-list, gate's own files]
  await checkGateTable(adversarialCtx, [
    ["export XDG_CACHE_HOME=.pi/extensions; ruff check src", "allow", "ask"],
    ["XDG_CACHE_HOME=/home/user/.pi/agent/extensions ruff check src", "allow", "ask"],
    ["export XDG_STATE_HOME=/home/user/.pi/agent/extensions; some-tool", "allow", "ask"],
    ["XDG_DATA_HOME=.pi/extensions pip install x", "allow", "ask"],
    ["export TMPDIR=.pi/extensions; some-tool", "allow", "ask"],
    ["TMPDIR=.pi/extensions; export TMPDIR; some-tool", "allow", "ask"],
    ["env TMP=.pi/extensions some-tool", "allow", "ask"],
    ["export RUFF_CACHE_DIR=.pi/extensions; ruff check src", "allow", "ask"],
    ["export GOBIN=/home/user/.pi/agent/bin; go install example.com/rg@latest", "allow", "ask"],
    ["export PIP_TARGET=.pi/extensions; pip install x", "allow", "ask"],
    ["export GEM_HOME=/home/user/.pi/agent/npm; gem install rake", "allow", "ask"],
    ["export CARGO_TARGET_DIR=.pi/extensions; cargo build", "allow", "ask"],
    ["export NODE_V8_COVERAGE=.pi/extensions; node src/b.js", "allow", "ask"],
    ["export COVERAGE_FILE=.pi/mcp.json; coverage run x.py", "allow", "ask"],
    // git's trace file, work tree, index and object store
    ["export GIT_TRACE=/home/user/project/.pi/settings.json; git status", "allow", "ask"],
    ["declare -x GIT_TRACE_PERFORMANCE=.pi/settings.json; git status", "allow", "ask"],
    ["export GIT_TRACE2_EVENT=.pi/mcp.json; git status", "allow", "ask"],
    ["export GIT_WORK_TREE=.pi; git reset --hard", "deny", "ask"],
    ["export GIT_OBJECT_DIRECTORY=.pi/extensions; git add notes.txt", "deny", "ask"],
    ["export GIT_INDEX_FILE=.pi/mcp.json; git add notes.txt", "allow", "ask"],
    // (a value not known: where it leads is not known)
    ["export TMPDIR=$(cat dir.txt); some-tool", "ask", "ask"],
    // everyday
    ["export XDG_CACHE_HOME=.cache; ruff check src", "allow", "allow"],
    ["XDG_CACHE_HOME=$PWD/.cache ruff check src", "allow", "allow"],
    ["TMPDIR=/tmp some-tool", "allow", "allow"],
    ["export TMPDIR=tmp; make", "allow", "allow"],
    ["export CARGO_TARGET_DIR=target; cargo build", "allow", "allow"],
    ["export TMPDIR=$(mktemp -d); some-tool", "allow", "allow"],
    ["CARGO_TARGET_DIR=target/ci cargo test", "allow", "allow"],
    ["export GOCACHE=/tmp/go-cache; go test ./...", "allow", "allow"],
    ["unset TMPDIR; ls", "allow", "allow"],
    ["export GIT_TRACE=1; git status", "allow", "allow"],
    ["export GIT_TRACE=true; git status", "allow", "allow"],
    ["GIT_TRACE2=2 git status", "allow", "allow"],
  ]);
});
