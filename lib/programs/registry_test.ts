/**
 * Registry-wide invariants: every name is registered once; every program that runs what its
 * arguments say (or evaluates code) is never saved as a broad approval; and every facet of every
 * registered program is exercised here by a command that shows it working.
 */
import assert from "node:assert/strict";
import { approvalRulesFor } from "../approvals.ts";
import { writeAreas } from "../policy/glob_scope.ts";
import { presetAccepts } from "../policy/safe_bash.ts";
import { analyzeBash } from "../shell/analyze.ts";
import type { Stage } from "../shell/model.ts";
import { loadBashParser } from "../shell/parser.ts";
import type { Verdict } from "../types.ts";
import { carriesCommand } from "./env.ts";
import { evalShape, innerStages, linksMade, listingOf } from "./expand.ts";
import { allPrograms, isTooBroad, programNamed, programOf } from "./registry.ts";
import type { Program } from "./spec.ts";

const parser = await loadBashParser();
const env = { cwd: "/p", home: "/h", env: { HOME: "/h" }, carriesCommand };

/**
 * The first stage of a command (the last of its pipeline, when `last`), with the stages it runs
 * (as the engine expands them).
 */
function expanded(command: string, last = false): { top: Stage; inner: Stage[] } {
  const a = analyzeBash(command, env, parser);
  assert.equal(a.error, null, command);
  const analyze = (text: string, cwd: string | null) => {
    const r = analyzeBash(text, { ...env, cwd: cwd ?? "/p" }, parser);
    return r.error ? null : r.stages;
  };
  const top = a.stages[last ? a.stages.length - 1 : 0];
  return { top, inner: innerStages(top, { analyze, depth: 0 }) };
}

/** Facets whose effect a command shows (the others are data the engine's tests cover). */
type Shown =
  | "runs"
  | "runsElsewhere"
  | "optionCommands"
  | "chdir"
  | "text"
  | "namedFiles"
  | "evaluates"
  | "links"
  | "replacesTrees"
  | "followsLinks"
  | "readsCwd"
  | "readsRepository"
  | "lists"
  | "treeNames"
  | "changesBelow"
  | "rewritesTrees"
  | "globOperands"
  | "readWords"
  | "readOnly";

/**
 * One command per program (by its first name) and facet, showing the facet at work. For
 * `readOnly`, a command the preset's pattern matches that the check turns away, per check key.
 */
// deno-fmt-ignore
const EXAMPLES: Record<string, Partial<Record<Shown, string | Record<string, string>>>> = {
  sudo: { runs: "sudo -u root rm x" }, doas: { runs: "doas rm x" }, env: { runs: "env A=1 rm x" },
  nice: { runs: "nice -n 5 rm x" }, nohup: { runs: "nohup rm x" }, timeout: { runs: "timeout 5 rm x" },
  time: { runs: "/usr/bin/time -v rm x" }, command: { runs: "command rm x" }, builtin: { runs: "builtin cd x" },
  exec: { runs: "exec rm x" }, stdbuf: { runs: "stdbuf -o0 rm x" }, setsid: { runs: "setsid rm x" },
  ionice: { runs: "ionice -c 3 rm x" }, flock: { runs: "flock /tmp/l -c 'rm x'" },
  chrt: { runs: "chrt 5 rm x" }, taskset: { runs: "taskset 3 rm x" }, unbuffer: { runs: "unbuffer rm x" },
  chronic: { runs: "chronic rm x" }, caffeinate: { runs: "caffeinate rm x" },
  "run-parts": { runs: "run-parts dir" }, strace: { runs: "strace -o log rm x" },
  ltrace: { runs: "ltrace rm x" }, unshare: { runs: "unshare -r rm x" }, chroot: { runs: "chroot /r rm x" },
  fakechroot: { runs: "fakechroot -s rm x" }, proot: { runs: "proot -r /r rm x", namedFiles: "proot -b /r:/x ls" },
  schroot: { runs: "schroot -c jail -- rm x" }, run0: { runs: "run0 -u u rm x" },
  newgrp: { runs: "newgrp wheel <<< 'rm x'" }, machinectl: { optionCommands: "machinectl shell c rm x" },
  vagrant: { runsElsewhere: "vagrant ssh -c 'rm -rf x'" },
  az: { runsElsewhere: "az ssh vm -n vm -- rm -rf x", optionCommands: "az x rm x" }, minikube: { runsElsewhere: "minikube ssh rm -rf x" },
  colima: { runsElsewhere: "colima ssh -- rm -rf x" }, limactl: { runsElsewhere: "limactl shell vm rm -rf x" },
  lima: { runsElsewhere: "lima rm -rf x" }, multipass: { runsElsewhere: "multipass exec vm -- rm -rf x" },
  fly: { runsElsewhere: "fly ssh console -C 'rm -rf x'" },
  flyctl: { runsElsewhere: "flyctl ssh console --command='rm -rf x'" },
  heroku: { runsElsewhere: "heroku run rm -rf x" },
  devcontainer: { runsElsewhere: "devcontainer exec --workspace-folder . rm -rf x" },
  buildah: { runsElsewhere: "buildah run c rm -rf x", runs: "buildah unshare rm -rf x", readWords: "buildah bud -f c.yml .", namedFiles: "buildah bud --secret id=k,src=k.txt ." }, wsl: { runsElsewhere: "wsl -e rm -rf x" },
  orb: { runsElsewhere: "orb rm -rf x" },
  capsh: { runs: "capsh --caps=cap_net_raw+ep -- -c 'rm -rf x'" },
  keyctl: { runs: "keyctl session - rm -rf x" },
  split: { optionCommands: "split -l 100 --filter='rm -rf x' notes.txt", namedFiles: "split notes.txt part_" },
  csplit: { namedFiles: "csplit -f part notes.txt 5" },
  crictl: { runsElsewhere: "crictl exec -it c rm -rf x" },
  ctr: { runsElsewhere: "ctr task exec --exec-id e c rm -rf x" },
  "lxc-attach": { runsElsewhere: "lxc-attach -n c -- rm -rf x" },
  nomad: { runsElsewhere: "nomad alloc exec -task t a1 rm -rf x" },
  pkexec: { runs: "pkexec rm x" }, setpriv: { runs: "setpriv rm x" }, nsenter: { runs: "nsenter -t 1 rm x" },
  firejail: { runs: "firejail rm x", namedFiles: "firejail --bind=/a,/b ls" }, "systemd-run": { runs: "systemd-run --unit u rm x" },
  sg: { runs: "sg wheel -c 'rm x'" }, watch: { runs: "watch -n 1 'rm x'" }, su: { runs: "su -c 'rm x'" },
  sh: { runs: "sh -c 'rm x'", evaluates: "bash -c 'rm x'" }, eval: { runs: "eval 'rm x'" },
  busybox: { runs: "busybox rm x" },
  source: { runs: "source ./env.sh" }, alias: { runs: "alias x='rm y'" }, trap: { runs: "trap 'rm x' EXIT" },
  export: { runs: "export PAGER='rm x'", readOnly: { "": "export LD_PRELOAD=/tmp/x.so" } }, at: { runs: "at now <<< 'rm x'" },
  mapfile: { runs: "mapfile -C 'rm x' a" },
  gzip: { namedFiles: "gunzip -f .env.gz", replacesTrees: "gzip -r .pi" }, wget: { namedFiles: "wget -N http://x/.env", optionCommands: "wget --use-askpass=rm http://x/", text: "wget --post-data a=@.env http://x/" },
  curl: { namedFiles: "curl -O http://x/.env", optionCommands: "curl -K cfg", text: "curl --form-string f=@.env http://x/" },
  sdiff: { optionCommands: "sdiff --diff-program=rm a b" }, diff3: { optionCommands: "diff3 --diff-program=rm a b c" },
  rename: { namedFiles: "rename 's/a/.env/' a", evaluates: "rename -n 'system(1)' a" },
  ps: { readOnly: { "": "ps axeww" }, namedFiles: "ps e" }, set: { runs: "set -o histexpand", readOnly: { "": "set -o allexport" } }, shopt: { runs: "shopt -so histexpand" }, less: { runs: "less '+!rm x' f" }, history: { namedFiles: "history -r ~/.ssh/id_rsa" }, compgen: { runs: "compgen -C 'rm x' w" },
  bind: { runs: "bind -x '\"\\C-x\": rm x'" }, jobs: { runs: "jobs -x rm x" },
  hash: { runs: "hash -p /bin/rm ls" },
  python: { evaluates: "python -c 'print(1)'", namedFiles: "python -m zipfile -e a.zip out", followsLinks: "python -m http.server", readsCwd: "python -m http.server 8000", runs: "python -m http.server --cgi" },
  python2: { evaluates: "python2 -c 'print(1)'", namedFiles: "python2 -m gzip -d a.gz", followsLinks: "python2 -m http.server", readsCwd: "python2 -m http.server 8000", runs: "python2 -m http.server --cgi" },
  python3: { evaluates: "python3 -c 'print(1)'", namedFiles: "python3 -m tarfile -e a.tar out", followsLinks: "python3 -m http.server", readsCwd: "python3 -m http.server 8000", runs: "python3 -m http.server --cgi" }, node: { evaluates: "node -e 'x()'" },
  bun: { evaluates: "bun -e 'x()'", runs: "bun x rm -rf x", optionCommands: "bun test" }, deno: { evaluates: "deno eval 'x()'", namedFiles: "deno run --env-file x.ts", runs: "deno task --eval 'rm x'", followsLinks: "deno serve jsr:@std/http/file-server", readsCwd: "deno run -A jsr:@std/http/file-server", changesBelow: "deno fmt .", rewritesTrees: "deno lint --fix", globOperands: "deno fmt '**/*.md'" }, tsx: { evaluates: "tsx -e 'x()'" },
  "ts-node": { evaluates: "ts-node -e 'x()'" }, ruby: { evaluates: "ruby -e 'x'", followsLinks: "ruby -run -ehttpd .", readsCwd: "ruby -run -e httpd" },
  lua: { evaluates: "lua -e 'x()'" }, osascript: { evaluates: "osascript -e 'x'" },
  perl: { evaluates: "perl -ne 'print'", namedFiles: "perl -i.bak -pe 1 f" }, php: { evaluates: "php -r 'x();'", followsLinks: "php -S 0:8000", readsCwd: "php -S 0:8000" },
  git: {
    optionCommands: "git -c core.pager='rm x' log",
    chdir: "git -C sub status",
    text: "git commit -m 'fix /etc/hosts'",
    namedFiles: "git show HEAD:.env", lists: "git ls-files '*.py'", treeNames: "git grep x -- '*.env'",
    readsRepository: "git log -p",
    replacesTrees: "git checkout .",
    links: "git apply <<'EOF'\ndiff --git a/k b/k\nnew file mode 120000\n@@ -0,0 +1 @@\n+/etc\nEOF",
    readOnly: {
      log: "git log --output=x", show: "git show --ext-diff", diff: "git diff --output=x",
      shortlog: "git shortlog --output=x", "stash show": "git stash show --ext-diff",
      "stash list": "git stash list --output=x",
      "rev-list": "git rev-list --output=x -1 HEAD",
      "cat-file": "git cat-file --textconv HEAD:x", grep: "git grep -Ovim x",
      branch: "git branch -D x", tag: "git tag -d x", config: "git config user.name x",
    },
  },
  find: {
    runs: "find . -exec rm {} ;", text: "find . -name '*.ts'", readOnly: { "": "find . -delete" },
    followsLinks: "find -L . -name x", lists: "find src -name '*.py'", replacesTrees: "find . -delete",
    treeNames: "find . -name .env -delete", namedFiles: "find -files0-from list -delete",
  },
  fd: { runs: "fd -x rm", followsLinks: "fd -L x", lists: "fd -e py . src" },
  diff: { followsLinks: "diff -rN . /tmp/empty" },
  xargs: { runs: "xargs rm", lists: "find src | xargs grep -l x" }, parallel: { runs: "parallel rm ::: a" },
  awk: {
    runs: "awk 'BEGIN{system(\"rm x\")}'",
    text: "awk '{print}' f",
    readOnly: { "": "awk '{print > \"out\"}' f" },
  },
  sed: { runs: "sed 'e rm x' f", text: "sed s/a/b/ f", readOnly: { "": "sed -n -i p f" }, namedFiles: "sed -i.bak s/a/b/ f" },
  grep: {
    text: "grep -rn /api src", followsLinks: "grep -rR x .", lists: "grep -rl x src",
    treeNames: "grep -r --include=*.env x .", readsCwd: "grep -rn KEY",
  },
  rg: {
    text: "rg /api src", optionCommands: "rg --pre ./p x", readOnly: { "": "rg --pre ./p x" },
    followsLinks: "rg --follow x", treeNames: "rg -g .env x", lists: "rg -l x src", readsCwd: "rg KEY",
  },
  ag: {
    text: "ag /api src", optionCommands: "ag --pager less x", readOnly: { "": "ag --pager less x" },
    followsLinks: "ag -f x", readsCwd: "ag KEY",
  },
  ack: { text: "ack /api src", runs: "ack --pager less x", namedFiles: "ack -x KEY", followsLinks: "ack --follow x", readsCwd: "ack KEY" },
  pt: { text: "pt /api src", followsLinks: "pt --follow x", readsCwd: "pt KEY" },
  ugrep: { text: "ugrep /api src", runs: "ugrep --filter=pdf:x x", followsLinks: "ugrep -R x", readsCwd: "ugrep -r KEY" },
  md5sum: { namedFiles: "md5sum -c list" }, sha1sum: { namedFiles: "sha1sum -c list" },
  sha224sum: { namedFiles: "sha224sum -c list" }, sha256sum: { namedFiles: "sha256sum -c list" },
  sha384sum: { namedFiles: "sha384sum -c list" }, sha512sum: { namedFiles: "sha512sum -c list" },
  b2sum: { namedFiles: "b2sum -c list" }, cksum: { namedFiles: "cksum -c list" },
  shasum: { namedFiles: "shasum -a 256 -c list" },
  wc: { namedFiles: "wc --files0-from=list" },
  cut: { text: "cut -d/ -f2 f" }, paste: { text: "paste -d/ a b" }, join: { text: "join -t/ a b" },
  column: { text: "column -s/ f" }, test: { text: "test a/b = c/d" },
  sort: {
    lists: "find src -name '*.py' | sort -u",
    namedFiles: "sort --files0-from=list",
    text: "sort -t/ -k2 f", optionCommands: "sort --compress-program=gz f", readOnly: { "": "sort -o out f" },
  },
  unzip: { readOnly: { "": "unzip -l -d out a.zip" }, namedFiles: "unzip -o a.zip" },
  "7za": { namedFiles: "7za x a.7z", followsLinks: "7za a x.7z .", optionCommands: "7za a -sdel x.7z d", replacesTrees: "7za a -sdel x.7z d" },
  "7zr": { namedFiles: "7zr x a.7z", followsLinks: "7zr a x.7z .", optionCommands: "7zr a -sdel x.7z d", replacesTrees: "7zr a -sdel x.7z d" },
  "7zz": { namedFiles: "7zz e a.7z", followsLinks: "7zz a x.7z .", optionCommands: "7zz a -sdel x.7z d", replacesTrees: "7zz a -sdel x.7z d" },
  unrar: { namedFiles: "unrar x a.rar" }, unar: { namedFiles: "unar a.zip" },
  cabextract: { namedFiles: "cabextract a.cab" }, pax: { namedFiles: "pax -r -f a.pax" },
  jar: { namedFiles: "jar xf a.jar" }, star: { namedFiles: "star -x -f a.tar" },
  rar: { namedFiles: "rar x a.rar", optionCommands: "rar a -df x.rar d", replacesTrees: "rar m x.rar d" },
  lha: { namedFiles: "lha x a.lzh", optionCommands: "lha m x.lzh d", replacesTrees: "lha m x.lzh d" },
  arj: { namedFiles: "arj x a.arj", optionCommands: "arj m x.arj d", replacesTrees: "arj m x.arj d" },
  zpaq: { namedFiles: "zpaq x a.zpaq" }, xar: { namedFiles: "xar -xf a.xar" }, afio: { namedFiles: "afio -i a.afio" },
  dar: { namedFiles: "dar -x a" }, unsquashfs: { namedFiles: "unsquashfs a.img" },
  patool: { namedFiles: "patool extract a.zip" }, ouch: { namedFiles: "ouch decompress a.zip" },
  babel: { namedFiles: "babel src -d .pi" }, swc: { namedFiles: "swc src -d .pi" }, vite: { namedFiles: "vite build --outDir .pi", optionCommands: "vite build" },
  mkdocs: { namedFiles: "mkdocs build -d .pi" }, hugo: { namedFiles: "hugo -d .pi" }, jekyll: { namedFiles: "jekyll build -d .pi" },
  axel: { namedFiles: "axel -o .pi http://x/y" }, http: { namedFiles: "http -f POST h.io f@.env" }, hg: { namedFiles: "hg clone https://x/y .pi", optionCommands: "hg extdiff -p rm x" },
  bzr: { namedFiles: "bzr branch https://x/y .pi" },
  darcs: { namedFiles: "darcs clone https://x/y .pi", optionCommands: "darcs whatsnew --prehook='rm x'" },
  fossil: { namedFiles: "fossil clone https://x/y", optionCommands: "fossil sql <<< '.shell rm x'" }, cookiecutter: { namedFiles: "cookiecutter gh:x/y -o .pi" }, oras: { namedFiles: "oras pull -o .pi r/x:1" },
  "huggingface-cli": { namedFiles: "huggingface-cli download r --local-dir .pi" }, hf: { namedFiles: "hf download r --local-dir .pi" },
  gpg: { namedFiles: "gpg --decrypt-files a.gpg", optionCommands: "gpg --homedir /tmp/g -k" },
  "gpg-connect-agent": { optionCommands: "gpg-connect-agent '/datafile x' /bye" },
  gem: { optionCommands: "gem install x --config-file /tmp/gemrc" },
  openssl: { optionCommands: "openssl req -config /tmp/x.cnf -new" },
  helm: { namedFiles: "helm template x c --output-dir .pi", optionCommands: "helm template x c --post-renderer=rm" },
  azcopy: { namedFiles: "azcopy copy https://x/c .pi --recursive" }, ditto: { namedFiles: "ditto src .pi" }, bsdtar: { namedFiles: "bsdtar -xf a.tar", followsLinks: "bsdtar -cLf a.tar .", chdir: "bsdtar -cf a.tar -C dir ." }, ar: { namedFiles: "ar x lib.a" },
  tar: {
    readOnly: { "": "tar -tf a.tar --to-command=sh" },
    chdir: "tar -xf a.tar -C dir", optionCommands: "tar -I 'rm x' -xf a.tar", followsLinks: "tar chf a.tar d",
    namedFiles: "tar -cf a.tar -T list", replacesTrees: "tar -cf a.tar --remove-files d",
  },
  cpio: { namedFiles: "cpio -o < list" }, bsdcpio: { namedFiles: "bsdcpio -i < a.cpio" },
  "7z": { namedFiles: "7z a x.7z @list", followsLinks: "7z a x.7z .", optionCommands: "7z a -sdel x.7z d", replacesTrees: "7z a -sdel x.7z d" },
  ssh: {
    optionCommands: "ssh -o ProxyCommand='rm x' host",
    runsElsewhere: "ssh -p 22 host rm -rf x",
    namedFiles: "ssh -G host",
  },
  "ssh-keygen": { namedFiles: "ssh-keygen -R host" }, nmap: { optionCommands: "nmap --script ./x.nse h" },
  scp: { optionCommands: "scp -S ./prog a host:b", text: "scp a user@host:/b", namedFiles: "scp -r host:x .", followsLinks: "scp -r src host:/tmp" },
  sftp: { optionCommands: "sftp -S ./prog host", text: "sftp host:/b", runs: "sftp -b - h <<< '!rm x'", namedFiles: "sftp host:x ." },
  rsync: {
    optionCommands: "rsync -e 'rm x' a host:b", followsLinks: "rsync -aL a b", text: "rsync -a a host::m",
    namedFiles: "rsync --files-from=l . d", replacesTrees: "rsync -a host:x/ d",
    treeNames: "rsync -a -f ': .rules' src/ d",
  },
  docker: {
    runsElsewhere: "docker run --rm -v /:/h img rm -rf /h/x", text: "docker run -w /app img",
    runs: "podman unshare rm -rf x",
    namedFiles: "docker run -v /src:/dst img",
    optionCommands: "docker compose -f c.yml up", readWords: "docker compose -f c.yml up",
  },
  "docker-compose": {
    optionCommands: "docker-compose -f c.yml up",
    runsElsewhere: "docker-compose run --rm web rm -rf x", text: "docker-compose cp web:/x ./x",
    namedFiles: "docker-compose cp web:/x ./x", readWords: "docker-compose -f c.yml up",
  },
  kubectl: {
    text: "kubectl logs pod-1",
    runsElsewhere: "kubectl exec -it pod -- rm -rf x", namedFiles: "kubectl config view --raw",
    runs: "kubectl config set-credentials u --exec-command=rm --exec-arg=x",
    followsLinks: "kubectl proxy --www=.",
    optionCommands: "kubectl --kubeconfig=k.yaml get pods",
  },
  nc: { optionCommands: "nc -l -p 4444 -e /bin/sh" },
  tcpsvd: { runs: "tcpsvd 0 4444 sh" }, udpsvd: { runs: "udpsvd 0 53 sh" }, tcpserver: { runs: "tcpserver 0 4444 bash -i" },
  "s6-tcpserver": { runs: "s6-tcpserver 0 4444 sh" }, "s6-tcpserver4": { runs: "s6-tcpserver4 0 4444 sh" }, "s6-tcpserver6": { runs: "s6-tcpserver6 :: 4444 sh" },
  ttyd: { runs: "ttyd -W bash" }, websocketd: { runs: "websocketd --port=8080 sh" }, gotty: { runs: "gotty -w bash" },
  telnetd: { runs: "telnetd -l /bin/sh" }, inetd: { runs: "inetd x.conf" }, xinetd: { runs: "xinetd" },
  socat: { runs: "socat - EXEC:'rm -rf x'", text: "socat -u OPEN:a TCP:h:80", namedFiles: "socat -u OPEN:a TCP:h:80" },
  crontab: { runs: "crontab <<< '* * * * * rm x'" },
  sshpass: { runs: "sshpass -p pw ssh host" }, numactl: { runs: "numactl -C 0 rm x" },
  cgexec: { runs: "cgexec -g cpu:g rm x" }, perf: {
    runs: "perf stat -e cycles rm x",
    optionCommands: "perf report --objdump='rm x;'",
    namedFiles: "perf record -o x ls",
  },
  "flatpak-spawn": { runs: "flatpak-spawn --host rm x" }, toolbox: { runs: "toolbox run -c box rm x" },
  entr: { runs: "entr -s 'rm x'", text: "entr cat /_" }, watchexec: { runs: "watchexec -e ts 'rm x'" },
  // Programs that run their command lines through a shell (shell_carriers.ts).
  hyperfine: { runs: "hyperfine --prepare 'rm x' 'ls'" },
  nodemon: { runs: "nodemon --exec 'rm x'" },
  concurrently: { runs: "concurrently 'rm x' 'ls'" },
  sem: { runs: "sem -j2 rm x" },
  distrobox: { runs: "distrobox enter box -- rm x" },
  autossh: { runsElsewhere: "autossh -M 0 host rm -rf x" }, rsh: { runsElsewhere: "rsh -l u host rm -rf x" },
  mosh: { runsElsewhere: "mosh host -- rm -rf x", optionCommands: "mosh --ssh='rm x' host" },
  lxc: { runsElsewhere: "lxc exec c -- rm -rf x" }, pi: { runs: "pi -p 'fix it'" },
  pwsh: { runsElsewhere: "pwsh -NoProfile -c rm -rf x" }, rc: { runsElsewhere: "rc -c 'rm -rf x'" },
  csh: { runsElsewhere: "csh -fc 'rm -rf x'", runs: "csh -fc 'rm -rf x'" },
  zellij: { runs: "zellij run -- rm x" },
  gh: { optionCommands: "gh alias set x '!rm x'", runsElsewhere: "gh codespace ssh -- rm -rf x", namedFiles: "gh auth token", text: "gh pr create --title x --body y" },
  aws: { namedFiles: "aws configure get x", followsLinks: "aws s3 sync . s3://b" },
  svn: { namedFiles: "svn export https://x/y .", optionCommands: "svn diff --diff-cmd rm" }, tsc: { namedFiles: "tsc --outDir .pi" },
  javac: { namedFiles: "javac -d .pi X.java" }, protoc: { namedFiles: "protoc --ts_out=.pi x.proto" },
  rclone: { namedFiles: "rclone sync remote:x .", followsLinks: "rclone copy -L . remote:x", optionCommands: "rclone ls --sftp-ssh='rm x' :sftp:" },
  gsutil: { namedFiles: "gsutil rsync -r gs://b .", followsLinks: "gsutil -m rsync -r . gs://b" },
  "yt-dlp": { optionCommands: "yt-dlp https://x/v.mp4" },
  miniserve: { followsLinks: "miniserve .", namedFiles: "miniserve -u -- .", readsCwd: "miniserve -p 8080" },
  dufs: { followsLinks: "dufs -A", namedFiles: "dufs -A .", readsCwd: "dufs -p 5000" },
  webfsd: { followsLinks: "webfsd -F", runs: "webfsd -x /cgi-bin/", readsCwd: "webfsd -F" },
  "sftp-server": { namedFiles: "sftp-server -d /tmp" },
  "http-server": { followsLinks: "http-server -p 8080", readsCwd: "http-server -p 8080" },
  serve: { followsLinks: "serve -S", readsCwd: "serve -l 3000" },
  caddy: { followsLinks: "caddy file-server --root x", readsCwd: "caddy file-server" },
  file_server: { followsLinks: "file_server x", readsCwd: "file_server -p 8080" },
  "live-server": { followsLinks: "live-server .", runs: "live-server --middleware=./m.js", readsCwd: "live-server" },
  convert: { runs: "convert a.png 'png:|lpr'", namedFiles: "convert a.png frame_%03d.png" },
  pytest: { runs: "pytest -c /tmp/x.ini", namedFiles: "pytest --cov-report=html:cov" },
  groff: { runs: "groff -U -man x.1" },
  ruff: { optionCommands: "ruff check --config 'cache-dir=\"x\"' src", changesBelow: "ruff format .", rewritesTrees: "ruff format ." },
  prettier: { changesBelow: "prettier --write .", rewritesTrees: "prettier --write .", globOperands: "prettier -w '**/*.json'" }, black: { changesBelow: "black .", rewritesTrees: "black ." },
  gofmt: { changesBelow: "gofmt -w .", rewritesTrees: "gofmt -w ." },
  rimraf: { globOperands: "rimraf 'dist/**'" }, del: { globOperands: "del 'dist/*'" },
  cpy: { globOperands: "cpy 'src/*.json' dist" }, markdownlint: { globOperands: "markdownlint --fix '**/*.md'" },
  "markdownlint-cli2": {
    globOperands: "markdownlint-cli2 '**/*.md'",
    optionCommands: 'markdownlint-cli2 --config "$C" README.md',
  }, shx: { runs: "shx rm -rf 'dist/*'" },
  eslint: { changesBelow: "eslint --fix .", rewritesTrees: "eslint --fix .", globOperands: "eslint 'src/**'" }, biome: { changesBelow: "biome check --write .", rewritesTrees: "biome format --write ." },
  rustfmt: { changesBelow: "rustfmt a.rs", rewritesTrees: "rustfmt a.rs" }, isort: { changesBelow: "isort .", rewritesTrees: "isort ." },
  autopep8: { changesBelow: "autopep8 -i -r .", rewritesTrees: "autopep8 -ir ." }, shfmt: { changesBelow: "shfmt -w .", rewritesTrees: "shfmt -w ." },
  stylelint: { changesBelow: "stylelint --fix .", rewritesTrees: "stylelint --fix .", globOperands: "stylelint '**/*.css'" }, rubocop: { changesBelow: "rubocop -a", rewritesTrees: "rubocop -A" },
  terraform: { changesBelow: "terraform fmt -recursive", rewritesTrees: "terraform fmt" },
  dprint: { changesBelow: "dprint fmt", rewritesTrees: "dprint fmt", globOperands: "dprint fmt '**/*.ts'" },
  pylint: { namedFiles: "pylint -f text:out.txt src", evaluates: "pylint --init-hook='x()' src" },
  httpd: { followsLinks: "httpd -f -h . -p 8000", runs: "httpd -c /tmp/httpd.conf", readsCwd: "httpd -f -p 8000" },
  dpkg: { namedFiles: "dpkg -x a.deb .pi" },
  base64: { readOnly: { "": "base64 -d -o out x" } }, strings: { namedFiles: "strings @args" },
  nm: { namedFiles: "nm @args" }, objdump: { namedFiles: "objdump -d @args" }, readelf: { namedFiles: "readelf -a @args" }, gcloud: { namedFiles: "gcloud auth print-access-token", runsElsewhere: "gcloud compute ssh vm --command='rm -rf x'", followsLinks: "gcloud storage cp -r . gs://b" },
  "docker-credential-desktop": { namedFiles: "docker-credential-desktop get" }, mvn: { optionCommands: "mvn exec:exec -Dexec.executable=rm" },
  ip: { runs: "ip netns exec ns rm x" }, xdotool: { runs: "xdotool exec rm x" },
  service: { runs: "service ../../bin/rm x" },
  gcc: { optionCommands: "gcc -wrapper rm,x a.c", namedFiles: "gcc a.c -Wl,-o,out/a" },
  zig: { namedFiles: "zig cc a.c -Wl,-o,out/a", optionCommands: "zig cc -wrapper rm,x a.c" },
  ld: { namedFiles: "ld a.o -Map out/a.map" }, as: { namedFiles: "as -al=out/a.lst a.s" },
  cpp: { namedFiles: "cpp -MD out/a.d a.c" }, mail: { optionCommands: "mail -E '!rm x' u" },
  aria2c: { optionCommands: "aria2c --on-download-complete=./h u", namedFiles: "aria2c http://x/.env" },
  tex: { optionCommands: "tex --shell-escape d.tex" }, latexmk: { optionCommands: "latexmk -e x d" },
  rpm: { optionCommands: "rpm --eval '%(rm x)'" },
  setarch: { runs: "setarch i686 rm x" }, linux32: { runs: "linux32 rm x" }, linux64: { runs: "linux64 rm x" },
  i386: { runs: "i386 rm x" }, x86_64: { runs: "x86_64 rm x" }, logsave: { runs: "logsave f rm x" },
  rlwrap: { runs: "rlwrap rm x" }, msgfilter: { runs: "msgfilter -i a.po sed x" },
  sshfs: { namedFiles: "sshfs localhost:.ssh /tmp/m", runs: "sshfs -o ssh_command=x h: /tmp/m" },
  unionfs: { namedFiles: "unionfs /tmp/a=RW:/b /tmp/m" },
  "fuse-overlayfs": { namedFiles: "fuse-overlayfs -o lowerdir=/a /tmp/m" },
  mount: { namedFiles: "mount --bind /a /tmp/m", runs: "mount -t fuse.sshfs -o ssh_command=x h: /m" },
  "systemd-nspawn": { namedFiles: "systemd-nspawn --bind=/a:/b ls", runs: "systemd-nspawn -D /r rm x" },
  ed: { runs: "ed -s f <<< '!rm x'" }, dc: { runs: "dc -e '!rm x'" }, ftp: { runs: "ftp h <<< '!rm x'", namedFiles: "ftp localhost" },
  ln: { links: "ln -s /etc e", text: "ln -s ../x d/l", namedFiles: "ln -s ../x d/l" }, cp: { links: "cp -s /etc/hosts h", followsLinks: "cp -rL a b", namedFiles: "cp -b x y" },
  mv: { namedFiles: "mv -b x y" }, install: { namedFiles: "install -b -S .old x y" },
  patch: {
    chdir: "patch -d dir -p1",
    namedFiles: "patch -p1 <<< '+++ b/x'",
    links: "patch -p1 <<'EOF'\ndiff --git a/k b/k\nnew file mode 120000\n@@ -0,0 +1 @@\n+/etc\nEOF",
  },
  uudecode: { namedFiles: "uudecode <<< $'begin 644 x\\nend'" },
  ninja: { chdir: "ninja -C out", optionCommands: "ninja -f /dev/fd/3" },
  just: { optionCommands: "just --justfile /dev/fd/3" },
  go: {
    chdir: "go -C dir build",
    namedFiles: "go test -outputdir out -cpuprofile c.out",
    optionCommands: "go run -exec=sudo .",
  },
  man: { optionCommands: "man -P 'rm x' ls" },
  printf: { readOnly: { "": "printf -v x y" } }, read: { readOnly: { "": "read -a x" } },
  tree: { readOnly: { "": "tree -o out" }, followsLinks: "tree -l d" },
  file: { readOnly: { "": "file -C" }, namedFiles: "file -f list" },
  uniq: { readOnly: { "": "uniq a out" }, lists: "find src | uniq" },
  head: { lists: "git ls-files | head -n 5" },
  xxd: { readOnly: { "": "xxd -r a" } },
  yq: { readOnly: { "": "yq -i x f" }, namedFiles: "yq -n 'load(\"f\")'", text: "yq e '.a' f" },
  jq: { namedFiles: "jq -n 'import \"x\" as y; 1'", text: "jq -r '.a b' f" },
  ls: { followsLinks: "ls -RL d", lists: "ls src" }, du: { followsLinks: "du -L d", namedFiles: "du --files0-from=list" },
  chmod: { followsLinks: "chmod -RL 755 d" }, chown: { followsLinks: "chown -R -L u d" },
  setfacl: { followsLinks: "setfacl -R -L -m u:x:r d" }, chattr: { followsLinks: "chattr -R -L +i d" },
  chcon: { followsLinks: "chcon -R -L t d" },
  chgrp: { followsLinks: "chgrp -RL g d" },
  date: { readOnly: { "": "date -s now" } },
  // Package and environment runners, build tools (package_runners.ts).
  npm: {
    optionCommands: "npm exec -- rm x",
    readOnly: {
      list: "npm list --logs-dir=/tmp/l",
      ls: "npm ls --cache /tmp/c",
      view: "npm view x --userconfig=.env",
    },
  },
  pip: {
    namedFiles: "pip install --target .pi x",
    optionCommands: "VIRTUAL_ENV=$V pip install x",
    readOnly: {
      list: "pip list --log /tmp/l",
      show: "pip show x --log-file=/tmp/l",
      freeze: "pip freeze --cache-dir /tmp/c",
    },
  }, pnpm: { optionCommands: "pnpm exec rm x" }, yarn: { optionCommands: "yarn dlx rm x" },
  dotenv: { optionCommands: "dotenv -- printenv", runs: "dotenv -- rm x" },
  dotenvx: { optionCommands: "dotenvx run -- printenv", runs: "dotenvx run -- rm x" },
  "env-cmd": { optionCommands: "env-cmd printenv", runs: "env-cmd rm x" }, next: { optionCommands: "next build" },
  prisma: { optionCommands: "prisma migrate dev" }, foreman: { optionCommands: "foreman start", runs: "foreman run rm x", text: "foreman start web" },
  flask: { optionCommands: "flask run" }, dbmate: { optionCommands: "dbmate up" },
  forge: { optionCommands: "forge build" }, diesel: { optionCommands: "diesel migration run" },
  "sentry-cli": { optionCommands: "sentry-cli info" }, nuxi: { optionCommands: "nuxi dev" }, act: { optionCommands: "act" },
  astro: { optionCommands: "astro dev" }, wrangler: { optionCommands: "wrangler dev" }, vercel: { namedFiles: "vercel env pull" },
  "dotenv-linter": { optionCommands: "dotenv-linter", changesBelow: "dotenv-linter fix -r .", rewritesTrees: "dotenv-linter fix" },
  uv: { optionCommands: "uv run rm x" }, poetry: { optionCommands: "poetry run rm x" }, pipenv: { optionCommands: "pipenv run rm x" },
  pdm: { optionCommands: "pdm run rm x" }, hatch: { optionCommands: "hatch run rm x" }, rye: { optionCommands: "rye run rm x" },
  pixi: { optionCommands: "pixi run rm x" }, conda: { optionCommands: "conda run -n e rm x" }, mamba: { optionCommands: "mamba run rm x" },
  micromamba: { optionCommands: "micromamba run rm x" }, bundle: { optionCommands: "bundle exec rm x" },
  rbenv: { optionCommands: "rbenv exec rm x" }, pyenv: { optionCommands: "pyenv exec rm x" }, asdf: { optionCommands: "asdf exec rm x" },
  rustup: { optionCommands: "rustup run stable rm x" }, direnv: { optionCommands: "direnv exec . rm x" },
  mise: { optionCommands: "mise exec -- rm x" }, nix: { optionCommands: "nix develop -c rm x", evaluates: "nix eval --expr 1" }, npx: { runs: "npx -c 'rm x'" },
  pnpx: { runs: "pnpx rm x" }, bunx: { runs: "bunx rm x" }, uvx: { runs: "uvx rm x" },
  "nix-shell": { runs: "nix-shell --run 'rm x'", evaluates: "nix-shell -E 'x'" },
  "nix-instantiate": { evaluates: "nix-instantiate --eval -E '1 + 1'" },
  make: { chdir: "make -C dir", optionCommands: "make 'X!=rm x'" },
  bazel: { text: "bazel build //src/app:main", optionCommands: "bazel test --run_under='rm x' //..." },
  cargo: { optionCommands: "cargo --config 'target.x.runner=\"rm\"' run", changesBelow: "cargo fmt", rewritesTrees: "cargo fmt" },
  rustc: { optionCommands: "rustc -C linker=rm x.rs" },
  // Editors and debuggers (editors.ts).
  cmake: { evaluates: "cmake -P /dev/stdin <<< 'x()'", optionCommands: "cmake -E chdir d rm x", namedFiles: "cmake -E copy_directory a out", replacesTrees: "cmake -E remove_directory d" },
  vim: { optionCommands: "vim -c '!rm x' f", namedFiles: "vim -V1log.txt f" }, emacs: { optionCommands: "emacs --eval '(shell-command \"rm x\")'" },
  gdb: { optionCommands: "gdb -ex 'shell rm x'" }, lldb: { optionCommands: "lldb -o 'platform shell rm x'" },
  // Database shells, session runners, archivers (databases.ts, sessions.ts, archivers.ts).
  sqlite3: { optionCommands: "sqlite3 db '.shell rm x'" }, duckdb: { optionCommands: "duckdb -c \"copy t to 'x'\"" }, psql: { optionCommands: "psql -c '\\! rm x'", namedFiles: "psql 'host=h sslkey=k'", text: "psql -c '\\c db'" },
  pg_dump: {
    namedFiles: "pg_dump 'postgresql://h/db?sslkey=k'",
    optionCommands: "pg_dump 'options=-csession_preload_libraries=/tmp/e' db",
  },
  mysql: { optionCommands: "mysql -e 'system rm x'" }, tmux: { runs: "tmux new -d 'rm x'" },
  screen: { runs: "screen -dm rm x" }, expect: { runs: "expect -c 'spawn rm x'" },
  zip: { optionCommands: "zip -TT 'rm x' a.zip f", namedFiles: "zip a.zip -@", followsLinks: "zip -r a.zip .", replacesTrees: "zip -rm a.zip d" },
  // Exec wrappers (wrappers.ts).
  faketime: { runs: "faketime 1d rm x" }, fakeroot: { runs: "fakeroot rm x" },
  valgrind: { runs: "valgrind rm x" }, prlimit: { runs: "prlimit -n1 rm x" }, cpulimit: { runs: "cpulimit -l 5 rm x" },
  "xvfb-run": { runs: "xvfb-run -a rm x" }, torsocks: { runs: "torsocks rm x" },
  proxychains: { runs: "proxychains rm x" }, proxychains4: { runs: "proxychains4 -q rm x" },
  "ssh-agent": { runs: "ssh-agent rm x" }, "dbus-run-session": { runs: "dbus-run-session -- rm x" },
  "dbus-launch": { runs: "dbus-launch rm x" }, eatmydata: { runs: "eatmydata rm x" },
  catchsegv: { runs: "catchsegv rm x" }, nocache: { runs: "nocache rm x" }, trickle: { runs: "trickle -d 5 rm x" },
  gosu: { runs: "gosu root rm x" }, "su-exec": { runs: "su-exec root rm x" },
  setuidgid: { runs: "setuidgid u rm x" }, envdir: { runs: "envdir d rm x" }, chpst: { runs: "chpst -e d rm x" }, ccache: { runs: "ccache gcc x.c" },
  sccache: { runs: "sccache gcc x.c" },
  distcc: { runs: "distcc gcc -c x.c" },
  icecc: { runs: "icecc g++ -c x.cc" }, bwrap: { runs: "bwrap --ro-bind / / rm x" },
  "start-stop-daemon": { runs: "start-stop-daemon -S -x /bin/rm -- x" },
};

/** The facets of a program that a command can show. */
function shownFacets(p: Program): Shown[] {
  const all: Shown[] = [
    "runs",
    "runsElsewhere",
    "optionCommands",
    "chdir",
    "text",
    "namedFiles",
    "evaluates",
    "links",
    "followsLinks",
    "readsCwd",
    "readsRepository",
    "lists",
    "treeNames",
    "changesBelow",
    "rewritesTrees",
    "globOperands",
    "readWords",
    "readOnly",
  ];
  const out = all.filter((f) => p[f] !== undefined);
  if (typeof p.replacesTrees === "function") out.push("replacesTrees");
  return out;
}

Deno.test("registry: each name is registered once, and a path or version finds its program", () => {
  const seen = new Map<string, number>();
  for (const p of allPrograms()) for (const n of p.names) seen.set(n, (seen.get(n) ?? 0) + 1);
  assert.deepEqual([...seen].filter(([, n]) => n > 1), []);
  assert.equal(
    programNamed("git"),
    programOf({ value: "/usr/bin/git", kind: "static", prefix: "", text: "" }),
  );
  assert.equal(programNamed("python3.12"), programNamed("python3"));
  assert.equal(programNamed("python3.x"), undefined);
  assert.equal(programNamed("cat"), undefined);
});

Deno.test("registry: every program that runs what it is given is never saved as a broad approval", () => {
  const verdictOf = (command: string): Verdict => ({
    action: "ask",
    tool: "bash",
    policies: ["p"],
    reason: null,
    notification: null,
    stages: [{
      command,
      cwd: "/p",
      action: "ask",
      targets: [{
        path: "/p",
        kind: "cwd",
        location: "/",
        policy: "p",
        rule: null,
        score: 0,
        action: "ask",
      }],
    }],
  });
  let checked = 0;
  for (const p of allPrograms()) {
    // (A program too broad for some subcommands only: below.)
    if (typeof p.tooBroad === "function") continue;
    const runsAnything = p.runs !== undefined || p.runsElsewhere !== undefined ||
      p.evaluates !== undefined || p.tooBroad === true;
    for (const name of p.names) {
      assert.equal(isTooBroad(name), runsAnything, name);
      if (!runsAnything) continue;
      assert.equal(approvalRulesFor(verdictOf(`${name} build x`), "p"), null, name);
      checked++;
    }
  }
  assert.ok(checked > 60, `${checked} programs checked`);
  // Where only some subcommands run what they are given, those are never saved broadly.
  for (
    const [name, broad, narrow] of [
      ["docker", "run", "ps"],
      ["kubectl", "exec", "get"],
      ["heroku", "run", "logs"],
      ["multipass", "shell", "list"],
      ["gcloud", "compute", "config"],
    ]
  ) {
    assert.equal(approvalRulesFor(verdictOf(`${name} ${broad} x`), "p"), null, name);
    assert.deepEqual(
      approvalRulesFor(verdictOf(`${name} ${narrow} x`), "p")?.map((r) => r.pattern),
      [
        `${name} ${narrow} *`,
      ],
    );
  }
  // A program that only names commands in its options stays narrow: git push, tar xf.
  assert.deepEqual(approvalRulesFor(verdictOf("git push origin"), "p")?.map((r) => r.pattern), [
    "git push *",
  ]);
});

Deno.test("registry: every facet of every registered program is exercised", () => {
  const missing: string[] = [];
  for (const p of allPrograms()) {
    const examples = EXAMPLES[p.names[0]] ?? {};
    for (const facet of shownFacets(p)) {
      const example = examples[facet];
      if (example === undefined) {
        missing.push(`${p.names[0]}: ${facet}`);
        continue;
      }
      if (facet === "readOnly") {
        const checks = p.readOnly!;
        const given = example as Record<string, string>;
        for (const key of Object.keys(checks)) {
          if (given[key] === undefined) missing.push(`${p.names[0]}: readOnly "${key}"`);
          else assertReadOnlyCheck(p, key, given[key]);
        }
        continue;
      }
      assertShows(p, facet, example as string);
    }
  }
  assert.deepEqual(missing, []);
});

/**
 * A command that follows no link, for the programs that follow them with any operand (a server of
 * the tree it is given).
 */
const NOT_FOLLOWING: Record<string, string> = {
  miniserve: "miniserve --no-symlinks x",
  webfsd: "webfsd -h",
  "http-server": "http-server --help",
  "live-server": "live-server --help",
  httpd: "httpd --help",
  file_server: "file_server --help",
};

/** A command of each program that rewrites no tree (see `Program.rewritesTrees`). */
const NOT_REWRITING: Record<string, string> = {
  "dotenv-linter": "dotenv-linter fix --dry-run",
  ruff: "ruff format --check .",
  prettier: "prettier --check .",
  black: "black --diff .",
  gofmt: "gofmt -l .",
  eslint: "eslint --fix-dry-run .",
  biome: "biome ci .",
  rustfmt: "rustfmt --emit stdout a.rs",
  isort: "isort --check-only .",
  autopep8: "autopep8 -r -d .",
  shfmt: "shfmt -d .",
  stylelint: "stylelint .",
  rubocop: "rubocop .",
  terraform: "terraform fmt -check",
  dprint: "dprint check",
  deno: "deno fmt --check",
  cargo: "cargo fmt -- --check",
};

/** The command shows the facet: it runs something, moves, has text, names files, ... */
function assertShows(p: Program, facet: Shown, command: string): void {
  // (A listing of what another program lists is shown by the last stage of a pipeline.)
  const { top, inner } = expanded(command, facet === "lists");
  // (The registry holds each program in one shape: the same facets, the same names.)
  assert.equal(programOf(top.argv[0]), programNamed(p.names[0]), command);
  const why = `${p.names[0]} ${facet}: ${command}`;
  switch (facet) {
    case "runs":
    case "optionCommands":
      assert.ok(inner.some((s) => s.argv !== top.argv), why);
      break;
    case "runsElsewhere":
      // What it runs there, as a line the policy reads: `rm -rf …`.
      assert.ok(p.runsElsewhere!(top.argv).some((line) => /^rm -rf /.test(line.value)), why);
      break;
    case "chdir":
      assert.ok(inner.some((s) => s.argv === top.argv && s.cwds[0] !== top.cwds[0]), why);
      break;
    case "text":
      assert.ok([...p.text!(top.argv)].length > 0, why);
      break;
    case "namedFiles":
      assert.ok(p.namedFiles!(top.argv, top).length > 0, why);
      break;
    case "treeNames":
      assert.ok(p.treeNames!(top.argv).length > 0, why);
      assert.deepEqual(p.treeNames!(expanded(`${p.names[0]} -r x .`).top.argv), [], why);
      break;
    case "evaluates":
      assert.notEqual(evalShape(top), null, why);
      break;
    case "links":
      assert.ok(linksMade([top]).length > 0, why);
      break;
    case "lists":
      // Paths below a place, and nothing when it may print anything else.
      assert.ok(p.lists!(top, listingOf)?.length, why);
      assert.equal(p.lists!(expanded(`${p.names[0]} . -printf x`).top, listingOf), null, why);
      break;
    case "readsCwd":
      assert.equal(p.readsCwd!(top.argv), true, why);
      break;
    case "changesBelow": {
      // (The files of its language below the tree, not a settings file of another name; dprint
      // formats those of the plugins its configuration names.)
      const dprint = '{"plugins": ["https://plugins.dprint.dev/typescript-0.93.0.wasm"]}';
      const read = (path: string) => (path === "/p/dprint.json" ? dprint : "");
      const given = { read, home: "/h" };
      assert.equal(p.changesBelow!(top.argv, "/p", "/p/.npmrc", given), false, why);
      const files = ["py", "go", "ts", "js", "rs", "sh", "css", "rb", "tf", "env"].map((e) =>
        `/p/sub/x.${e}`
      );
      assert.ok(files.some((f) => p.changesBelow!(top.argv, "/p", f, given)), why);
      break;
    }
    case "rewritesTrees":
      // (It rewrites a tree, and none in a mode that only shows what it would write.)
      assert.notEqual(p.rewritesTrees!(top.argv), null, why);
      assert.equal(p.rewritesTrees!(expanded(NOT_REWRITING[p.names[0]]).top.argv), null, why);
      break;
    case "globOperands":
      // (Its quoted glob operand, and none where the word is an option's value.)
      assert.ok(p.globOperands!(top.argv)?.at.length, why);
      // (rimraf, del and cpy take no `--config`: every quoted glob is one of theirs.)
      if (!/^(rimraf|del|cpy)$/.test(p.names[0])) {
        assert.equal(
          p.globOperands!(expanded(`${p.names[0]} fmt --config '*.json'`).top.argv),
          null,
        );
      }
      break;
    case "readWords":
      // (Its `-f` file, and none of a subcommand that writes by its words: `cp`.)
      assert.ok(
        [...p.readWords!(top.argv)].includes(top.argv.findIndex((w) => w.value === "c.yml")),
        why,
      );
      assert.ok(
        ![...p.readWords!(expanded(`${p.names[0]} cp web:/x ./x`).top.argv)].some((i) => i > 1),
        why,
      );
      break;
    case "readsRepository":
      // (Its content, and none where it shows only names.)
      assert.notEqual(p.readsRepository!(top), null, why);
      assert.equal(p.readsRepository!(expanded(`${p.names[0]} log --stat`).top), null, why);
      break;
    case "followsLinks":
      assert.equal(p.followsLinks!(top.argv), true, why);
      assert.equal(
        p.followsLinks!(expanded(NOT_FOLLOWING[p.names[0]] ?? `${p.names[0]} x`).top.argv),
        false,
        why,
      );
      break;
    case "replacesTrees":
      assert.equal((p.replacesTrees as (argv: Stage["argv"]) => boolean)(top.argv), true, why);
      assert.equal(
        (p.replacesTrees as (argv: Stage["argv"]) => boolean)(
          expanded(`${p.names[0]} status`).top.argv,
        ),
        false,
        why,
      );
      break;
  }
}

/** The `$safe-bash` check turns the command away (and the same pattern accepts a plain call). */
function assertReadOnlyCheck(p: Program, key: string, command: string): void {
  const { top } = expanded(command);
  const argv = top.argv.map((w) => w.value);
  const pattern = [p.names[0], ...(key ? key.split(" ") : []), "*"].join(" ");
  const rule = { action: "allow" as const, tool: "bash", pattern, preset: "$safe-bash" as const };
  assert.equal(presetAccepts(rule, { argv, writes: false }), false, `${pattern}: ${command}`);
  const plain = [p.names[0], ...(key ? key.split(" ") : []), "x"];
  // (date, tar, unzip and export are read-only only in a form their arguments name: `+FORMAT`, a
  // listing, a harmless setting.)
  const needsForm = ["date", "tar", "unzip", "export"].includes(p.names[0]);
  if (!needsForm && !(p.names[0] === "git" && /^(branch|tag|config)$/.test(key))) {
    assert.equal(presetAccepts(rule, { argv: plain, writes: false }), true, plain.join(" "));
  }
}

/** A command per program that writes only what it names, and the areas it writes. */
// deno-fmt-ignore
const WRITES_ONLY_NAMED: Record<string, [string, string[]]> = {
  touch: ["touch new", ["/p/new"]], mkdir: ["mkdir -p a/b", ["/p/a/b"]], rm: ["rm -f x", ["/p/x"]],
  rmdir: ["rmdir d", ["/p/d"]], mv: ["mv a --target-directory=d", ["/p/a", "/p/d"]],
  cp: ["cp -r a /t", ["/p/a", "/t"]], ln: ["ln -s /etc/hosts h", ["/etc/hosts", "/p/h"]],
  chmod: ["chmod +x s*", ["/p/+x", "/p"]], chown: ["chown u f", ["/p/u", "/p/f"]],
  chgrp: ["chgrp g f", ["/p/g", "/p/f"]], shred: ["shred -u k", ["/p/k"]],
  mmv: ["mmv a b", ["/p/a", "/p/b"]],
  setfacl: ["setfacl -R -m u:x:rwx d", ["/p/u:x:rwx", "/p/d"]],
  chattr: ["chattr -R +i d", ["/p/+i", "/p/d"]], chcon: ["chcon -R t d", ["/p/t", "/p/d"]],
};

Deno.test("registry: a program that writes only what it names writes at or below its words", () => {
  const named = allPrograms().filter((p) => p.writesOnlyNamed).map((p) => p.names[0]);
  assert.deepEqual(named.sort(), Object.keys(WRITES_ONLY_NAMED).sort());
  const readsOnly = () => false;
  for (const [command, areas] of Object.values(WRITES_ONLY_NAMED)) {
    assert.deepEqual(writeAreas(expanded(command).top, readsOnly), areas, command);
  }
  // Anything else not read-only may write anywhere; a write redirect writes its file.
  assert.equal(writeAreas(expanded("tar xf a.tar").top, readsOnly), null);
  assert.equal(writeAreas(expanded("touch $X").top, readsOnly), null);
  assert.deepEqual(writeAreas(expanded("cat a > out").top, () => true), ["/p/out"]);
  assert.deepEqual(writeAreas(expanded("shopt -s dotglob").top, readsOnly), []);
});

Deno.test("registry: each program is found by each of its names with every facet it was written with", () => {
  for (const written of allPrograms()) {
    for (const name of written.names) {
      const found = programNamed(name)!;
      for (const [facet, value] of Object.entries(written)) {
        assert.equal(found[facet as keyof typeof found], value, `${name}: ${facet}`);
      }
      // (One shape for all: the facets it lacks are there, undefined.)
      assert.deepEqual(Object.keys(found), Object.keys(programNamed("ls")!), name);
    }
  }
});
