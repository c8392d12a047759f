/**
 * Wrapper options that set a variable in the environment of the command they run (xargs's
 * `--process-slot-var=NAME`, `systemd-run --setenv`, `strace -E`, bwrap's `--setenv`, envdir's
 * files): what they set is judged as an assignment before the command is (`PATH=0 wc` looks wc up
 * in `./0`; `GIT_CONFIG_GLOBAL=0` makes git read `./0` for its commands).
 */
import { checkTable } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";

/** [command, under read-only, under the deny-list] */
const ROWS: [string, Action, Action][] = [
  // xargs's slot variable: the number of the slot (0 where one runs at a time).
  ["find src -name '*.ts' | xargs --process-slot-var=PATH wc -l", "deny", "deny"],
  ["find src -name '*.ts' | xargs --process-slot-var PATH wc -l", "deny", "deny"],
  ["find src -name '*.ts' | xargs --process-slot=PATH wc -l", "deny", "deny"],
  ["find src | xargs --process-slot-var=GIT_CONFIG_GLOBAL git diff --stat", "deny", "deny"],
  [
    "git ls-files src | xargs --process-slot-var=GIT_CONFIG_GLOBAL git log --oneline --",
    "deny",
    "deny",
  ],
  ["find . -name x | xargs -0 --process-slot-var=HOME git status", "deny", "deny"],
  ["find src | xargs --process-slot-var=$V wc -l", "deny", "deny"],
  ["find src | xargs -P4 --process-slot-var=LD_PRELOAD wc -l", "deny", "ask"],
  // Other wrappers' options that set one.
  ["systemd-run --user --setenv=PATH=0 wc -l README.md", "deny", "deny"],
  ["systemd-run -E GIT_CONFIG_GLOBAL=0 git status", "deny", "deny"],
  ["run0 --setenv=GIT_CONFIG_GLOBAL=0 git status", "deny", "deny"],
  ["flatpak-spawn --host --env=GIT_CONFIG_GLOBAL=0 git status", "deny", "deny"],
  ["strace -E PATH=0 wc -l README.md", "deny", "deny"],
  ["bwrap --bind / / --setenv PATH 0 wc -l README.md", "deny", "deny"],
  ["bwrap --bind / / --setenv GIT_CONFIG_GLOBAL 0 -- git status", "deny", "deny"],
  ["envdir ./env git status", "deny", "ask"],
  // strace's long `--env` (getopt_long: the next word, or abbreviated).
  ["strace --env GIT_CONFIG_GLOBAL=0 git status", "deny", "deny"],
  ["strace --en GIT_CONFIG_GLOBAL=0 git status", "deny", "deny"],
  ["strace -f --env=PATH=0 wc -l README.md", "deny", "deny"],
  ["strace -o /dev/null --env GIT_CONFIG_GLOBAL=0 git status", "deny", "deny"],
  // `--setenv=NAME` alone: the caller's value, not known (or the one its own assignment gives).
  ["systemd-run --user --setenv=GIT_CONFIG_GLOBAL git status", "deny", "deny"],
  ["run0 --setenv GIT_CONFIG_GLOBAL git status", "deny", "deny"],
  ["GIT_CONFIG_GLOBAL=0 systemd-run --user -E GIT_CONFIG_GLOBAL git status", "deny", "deny"],
  // runit's chpst reads a directory of variables as envdir does.
  ["chpst -e ./env git status", "deny", "ask"],
  ["chpst -u bob -e ./env git status", "deny", "ask"],
  ["chpst -e./env git status", "deny", "ask"],
  // Everyday: no variable set, or a harmless one.
  ["find src -name '*.ts' | xargs wc -l", "allow", "allow"],
  ["find src -name '*.ts' | xargs -n1 -P4 wc -l", "allow", "allow"],
  ["find src -name '*.ts' | xargs --process-slot-var=SLOT wc -l", "deny", "allow"],
  ["systemd-run --user -E LANG=C make", "deny", "allow"],
  ["strace --env LANG=C -f make", "deny", "allow"],
  ["strace -E LANG make", "deny", "allow"],
  ["chpst -u bob make", "deny", "allow"],
  ["bwrap --bind / / --setenv LANG C wc -l README.md", "deny", "ask"],
];

Deno.test("wrapper options that set the command's environment are read as its assignments", async () => {
  await checkTable(ROWS);
});

Deno.test("a unit's properties other than plain limits are not known (systemd-run -p, run0)", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    ["systemd-run -p Environment=BASH_ENV=./x.sh bash -c true", "deny", "deny"],
    ["systemd-run --property=EnvironmentFile=/tmp/e ls", "deny", "deny"],
    ["systemd-run -p ExecStartPre='/bin/rm -rf src' true", "deny", "deny"],
    [
      "systemd-run -pBindPaths=/home/user/.ssh:/tmp/k sh -c 'echo k >> /tmp/k/authorized_keys'",
      "deny",
      "deny",
    ],
    ["run0 -p BindPaths=/a:/b ls", "deny", "deny"],
    ["run0 --property=RootDirectory=/tmp/r ls", "deny", "deny"],
    ['systemd-run -p "$P" ls', "deny", "deny"],
    // Limits and descriptions change nothing the command reaches.
    ["systemd-run --user -p MemoryMax=1G -p CPUQuota=50% ls", "deny", "allow"],
    ["systemd-run --user --property=TimeoutSec=30 ls", "deny", "allow"],
  ]);
});
