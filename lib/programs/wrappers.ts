/**
 * Wrappers seen through (RULINGS principle 2): the command a wrapper runs is a stage of its own
 * (`sudo rm x` runs `rm x`; `timeout 5 make` runs `make`; `su -c 'rm x'` runs `rm x`). One table
 * says how each wrapper reads its own options before the command starts; sudo's `-s`/`-i` and
 * su-like programs have their quirks beside it (the watchers, watch, entr and watchexec:
 * watchers.ts).
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { How, Program, Runner } from "./spec.ts";
import {
  chdir,
  commandLine,
  derived,
  literal,
  optionValue,
  programName,
  standardInput,
  startsShell,
  unknownWord,
} from "./words.ts";
import { ENV_ASSIGNMENT } from "./env.ts";
import { switchUser } from "./switch_user.ts";
import { USER_SWITCHES, userReset } from "./user_env.ts";
import { startsIn } from "./wrapper_cwd.ts";
import { bwrap } from "./bwrap.ts";
import { firejailFiles, NSPAWN_WRAPPER, nspawnFiles, prootFiles } from "./binds.ts";
import { straceEffects } from "./strace.ts";
import { perfCommands, perfFiles, perfSpecs, perfStage } from "./perf.ts";
import { WATCHER_PROGRAMS } from "./watchers.ts";

/** How a wrapper's own options are read before the wrapped command starts. */
interface WrapperSpec {
  /** Short options that take a value (`-u root`, `-uroot`). */
  shortWithArg?: string;
  /** Long options that take a value when not given as `--opt=value`. */
  longWithArg?: string[];
  /**
   * Long options without a value. Any other long option is not known: it may take the next word
   * or not, so the command may begin at any word after it (each is judged).
   */
  longFlags?: string[];
  /** Leading `NAME=value` words are assignments, not the command (env). */
  assignments?: boolean;
  /**
   * Options whose value is `NAME=VALUE` set in the command's environment (`systemd-run --setenv`,
   * `strace -E`); `NAME` alone passes the caller's own. What they set is judged as an assignment.
   */
  setsEnv?: string[];
  /**
   * `setsEnv`'s `NAME` alone passes the caller's own value (systemd-run's, run0's): a value the
   * caller's environment holds, not known here.
   */
  inheritsEnv?: boolean;
  /** Its first operand is a directory of files that set the command's environment (envdir). */
  envFiles?: boolean;
  /** Options whose value is a directory of such files (`chpst -e DIR`). */
  envDirs?: string[];
  /** Words before the command that are operands of the wrapper (timeout DURATION, flock FILE). */
  operands?: number;
  /** Options whose value is a new cwd for the command (sudo -D, env -C). */
  chdir?: string[];
  /** Options after which nothing runs (command -v, sudo -l). */
  noRun?: string[];
  /** Options whose value is itself a shell command string (flock -c, sg -c). */
  shellString?: string[];
  /**
   * Options whose value is split into words that take the option's place, before the words after
   * it (env -S: `env -S 'rm -i' x` runs `rm -i x`).
   */
  splitString?: string[];
  /** Short options whose value is optional and only glued (`prlimit -n1024`). */
  gluedOnly?: string;
  /** What `-5` is (`nice -10 cmd`: an option; env's `-0`: a flag). @default "operand" */
  numbers?: "option" | "operand" | "cluster";
  /** Words not starting an option that are its flags (env's lone `-`, its `-i`). */
  flagWords?: string[];
  /** Options whose value is a command it also runs (`faketime --date-prog`, `valgrind --db-command`). */
  commands?: Record<string, How>;
  /**
   * With no command it starts a shell, which runs the commands of its standard input (`unshare`,
   * `chroot DIR`, `fakeroot`; see `startsShell`). Options in `shellFlags` do so too, or run the
   * command through a shell (`sudo -s`, `doas -s`).
   */
  shell?: boolean;
  /** Letters of the flags that start a shell (`sudo -s`/`-i`), in a cluster of flags only. */
  shellFlags?: string;
  /**
   * Its options as another version reads them (an option whose value became optional, and so
   * only glued): the command either reading finds is judged.
   */
  otherVersion?: WrapperSpec;
}

/**
 * nsenter's options: `-r`/`-w` and the namespaces take a value only glued (`-w/dir`,
 * `--wd=/dir`); `-W`/`--wdns` the next word before util-linux 2.40, only glued after it (a
 * separate word is then the command): both are read.
 */
const NSENTER: WrapperSpec = {
  shortWithArg: "tSGW",
  gluedOnly: "rwmuinpUCT",
  longWithArg: ["--target", "--setuid", "--setgid", "--wdns"],
  // deno-fmt-ignore
  longFlags: ["--all", "--preserve-credentials", "--no-fork", "--follow-context", "--mount", "--uts", "--ipc", "--net", "--pid", "--cgroup", "--user", "--time", "--root", "--wd", "--env", "--join-cgroup", "--keep-caps", "--user-parent"],
  chdir: ["-w", "--wd"],
  shell: true,
};
NSENTER.otherVersion = {
  ...NSENTER,
  shortWithArg: "tSG",
  gluedOnly: "rwmuinpUCTW",
  longWithArg: ["--target", "--setuid", "--setgid"],
  longFlags: [...NSENTER.longFlags!, "--wdns"],
};

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    shortWithArg: "ugCDhprtTU",
    longWithArg: [
      "--user",
      "--group",
      "--close-from",
      "--chdir",
      "--host",
      "--prompt",
      "--role",
      "--type",
      "--command-timeout",
      "--other-user",
    ],
    chdir: ["-D", "--chdir"],
    // deno-fmt-ignore
    longFlags: ["--login", "--shell", "--preserve-env", "--set-home", "--non-interactive", "--stdin", "--background", "--edit", "--bell", "--askpass", "--preserve-groups", "--reset-timestamp"],
    noRun: [
      "-l",
      "--list",
      "-v",
      "--validate",
      "-k",
      "-K",
      "--reset-timestamp",
      "--remove-timestamp",
      "-V",
      "--version",
      "-h",
      "--help",
    ],
    // `sudo A=1 cmd` sets A for cmd (sudo's VAR=value form).
    assignments: true,
    shellFlags: "si",
  },
  doas: { shortWithArg: "uC", noRun: ["-L"], shellFlags: "s" },
  env: {
    shortWithArg: "uCSa",
    longWithArg: ["--unset", "--chdir", "--split-string", "--argv0"],
    // (The signal options take a value only after `=`.)
    // deno-fmt-ignore
    longFlags: ["--ignore-environment", "--null", "--debug", "--default-signal", "--ignore-signal", "--block-signal", "--list-signal-handling"],
    assignments: true,
    chdir: ["-C", "--chdir"],
    splitString: ["-S", "--split-string"],
    numbers: "cluster",
    flagWords: ["-"],
  },
  nice: { shortWithArg: "n", longWithArg: ["--adjustment"], numbers: "option" },
  nohup: {},
  timeout: {
    shortWithArg: "ks",
    longWithArg: ["--kill-after", "--signal"],
    longFlags: ["--preserve-status", "--foreground", "--verbose"],
    operands: 1,
  },
  time: {
    shortWithArg: "fo",
    longWithArg: ["--format", "--output"],
    longFlags: ["--portability", "--append", "--verbose", "--quiet"],
  },
  command: { noRun: ["-v", "-V"] },
  builtin: {},
  exec: { shortWithArg: "a" },
  stdbuf: { shortWithArg: "ioe", longWithArg: ["--input", "--output", "--error"] },
  setsid: { longFlags: ["--ctty", "--fork", "--wait"] },
  ionice: {
    // (`-p`, `-P`, `-u`: the processes of those pids, groups or users; no command.)
    shortWithArg: "cnpPu",
    longWithArg: ["--class", "--classdata", "--pid", "--pgid", "--uid"],
    longFlags: ["--ignore"],
  },
  flock: {
    shortWithArg: "wEc",
    longWithArg: ["--timeout", "--conflict-exit-code", "--command"],
    // deno-fmt-ignore
    longFlags: ["--shared", "--exclusive", "--unlock", "--nonblock", "--nb", "--close", "--no-fork", "--verbose"],
    operands: 1,
    shellString: ["-c", "--command"],
  },
  chrt: {
    // (The priority is its operand; the deadline policy's times are options with values.)
    shortWithArg: "TPD",
    longWithArg: ["--sched-runtime", "--sched-period", "--sched-deadline"],
    // deno-fmt-ignore
    longFlags: ["--batch", "--deadline", "--fifo", "--idle", "--other", "--rr", "--reset-on-fork", "--all-tasks", "--max", "--pid", "--verbose"],
    operands: 1,
  },
  taskset: { operands: 1 },
  unbuffer: {},
  chronic: {},
  caffeinate: {},
  strace: {
    shortWithArg: "abeEIoOpPsSuUX",
    // deno-fmt-ignore
    longWithArg: ["--argv0", "--env", "--attach", "--user", "--detach-on", "--interruptible", "--trace", "--signal", "--status", "--trace-path", "--columns", "--abbrev", "--verbose", "--raw", "--read", "--write", "--kvm", "--output", "--string-limit", "--const-print-style", "--summary-syscall-overhead", "--summary-sort-by", "--summary-columns", "--inject", "--fault"],
    // (With those whose value is optional, given only after `=`.)
    // deno-fmt-ignore
    longFlags: ["--follow-forks", "--successful-only", "--failed-only", "--instruction-pointer", "--stack-traces", "--syscall-number", "--output-append-mode", "--output-separately", "--no-abbrev", "--summary-only", "--summary", "--summary-wall-clock", "--debug", "--seccomp-bpf", "--daemonize", "--quiet", "--relative-timestamps", "--absolute-timestamps", "--timestamps", "--syscall-times", "--strings-in-hex", "--decode-fds", "--decode-pids", "--tips", "--failing-only", "--pidns-translation", "--silent", "--silence", "--kill-on-exit", "--always-show-pid"],
    // (`-E NAME` alone takes NAME out of the command's environment.)
    setsEnv: ["-E", "--env"],
  },
  // (ltrace(1): `-S`, `-c`, `-f`, `-i`, `-r`, `-t`, `-T`, `-C`, `-b`, `-L` are flags.)
  ltrace: {
    shortWithArg: "aADeFlnopsuwx",
    longWithArg: ["--align", "--config", "--debug", "--indent", "--library", "--output"],
    longFlags: ["--demangle", "--no-signals"],
  },
  unshare: {
    // (`-m`, `-u`, … take a file only glued: `-m/proc/1/ns/mnt`, `--mount=FILE`; `-l`,
    // `--load-interp` (util-linux 2.39) a binfmt_misc definition, whose interpreter the kernel
    // runs for the binaries it matches: a program not known.)
    shortWithArg: "RwSGl",
    gluedOnly: "muinpUCT",
    // deno-fmt-ignore
    longWithArg: ["--root", "--wd", "--setuid", "--setgid", "--propagation", "--setgroups", "--monotonic", "--boottime", "--load-interp", "--map-user", "--map-group", "--map-users", "--map-groups"],
    commands: { "-l": "program", "--load-interp": "program" },
    // deno-fmt-ignore
    longFlags: ["--mount", "--uts", "--ipc", "--net", "--pid", "--user", "--cgroup", "--time", "--fork", "--map-root-user", "--map-current-user", "--mount-proc", "--kill-child", "--keep-caps"],
    // (`-w`/`--wd`: the command runs in that directory.)
    chdir: ["-w", "--wd"],
    shell: true,
  },
  chroot: {
    operands: 1,
    longWithArg: ["--userspec", "--groups"],
    longFlags: ["--skip-chdir"],
    shell: true,
  },
  // (pkexec reads its options by their exact names, `-u` too; the command runs in the user's home.)
  pkexec: {
    shortWithArg: "u",
    longWithArg: ["--user"],
    longFlags: ["--keep-cwd", "--disable-internal-agent"],
    shell: true,
  },
  setpriv: {},
  nsenter: NSENTER,
  firejail: { shell: true },
  "systemd-nspawn": NSPAWN_WRAPPER,
  // Shells in another root, as another user or group, or in the service manager.
  fakechroot: {
    shortWithArg: "lde",
    longWithArg: ["--lib", "--elfloader", "--environment"],
    longFlags: ["--use-system-libs"],
    shell: true,
  },
  proot: {
    shortWithArg: "rbmwqkviRS",
    // deno-fmt-ignore
    longWithArg: ["--rootfs", "--bind", "--mount", "--cwd", "--pwd", "--qemu", "--kernel-release", "--verbose", "--change-id"],
    commands: { "-q": "program", "--qemu": "program" },
    shell: true,
  },
  schroot: {
    shortWithArg: "cudno",
    // deno-fmt-ignore
    longWithArg: ["--chroot", "--user", "--directory", "--session-name", "--option"],
    // deno-fmt-ignore
    noRun: ["-l", "--list", "-i", "--info", "--config", "--location", "-b", "--begin-session", "-e", "--end-session", "-h", "--help", "-V", "--version"],
    shell: true,
  },
  run0: {
    shortWithArg: "ugDp",
    // deno-fmt-ignore
    longWithArg: ["--user", "--group", "--chdir", "--unit", "--property", "--description", "--slice", "--nice", "--setenv", "--background", "--machine"],
    chdir: ["-D", "--chdir"],
    setsEnv: ["--setenv"],
    inheritsEnv: true,
    shell: true,
  },
  "systemd-run": {
    // (`-u`/`--unit` names the unit, `--uid` the user: systemd-run(1).)
    shortWithArg: "pEMHuC",
    // deno-fmt-ignore
    longWithArg: ["--unit", "--property", "--path-property", "--socket-property", "--timer-property", "--description", "--slice", "--service-type", "--uid", "--gid", "--nice", "--working-directory", "--setenv", "--machine", "--host", "--on-active", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--capsule", "--expand-environment"],
    // deno-fmt-ignore
    longFlags: ["--user", "--system", "--scope", "--wait", "--pty", "--pipe", "--quiet", "--collect", "--same-dir", "--shell", "--no-block", "--remain-after-exit", "--send-sighup", "--no-ask-password", "--slice-inherit", "--on-timezone-change", "--on-clock-change"],
    chdir: ["--working-directory"],
    setsEnv: ["-E", "--setenv"],
    inheritsEnv: true,
    // (`-S`/`--shell`: an interactive shell, reading the standard input.)
    shellFlags: "S",
  },
  // Exec wrappers that change what the command sees (time, root, limits, display, proxy).
  faketime: {
    shortWithArg: "p",
    longWithArg: ["--date-prog"],
    operands: 1,
    commands: { "--date-prog": "program" },
    noRun: ["-h", "--help", "-v", "--version"],
  },
  fakeroot: {
    shortWithArg: "lsib",
    longWithArg: ["--lib", "--faked"],
    commands: { "--faked": "program" },
    noRun: ["-h", "--help", "-v", "--version"],
    shell: true,
  },
  valgrind: { commands: { "--db-command": "shell" } },
  prlimit: {
    shortWithArg: "po",
    longWithArg: ["--pid", "--output"],
    gluedOnly: "cdefilmnqrstuvxy",
  },
  cpulimit: {
    shortWithArg: "lpePc",
    longWithArg: ["--limit", "--pid", "--exe", "--path", "--cpu"],
    noRun: ["-h", "--help"],
  },
  "xvfb-run": {
    shortWithArg: "efnpsw",
    // deno-fmt-ignore
    longWithArg: ["--error-file", "--auth-file", "--server-num", "--xauth-protocol", "--server-args", "--wait"],
    noRun: ["-h", "--help"],
  },
  torsocks: {
    shortWithArg: "upaP",
    longWithArg: ["--user", "--pass", "--address", "--port"],
    noRun: ["-h", "--help", "--version"],
  },
  proxychains: { shortWithArg: "f" },
  proxychains4: { shortWithArg: "f" },
  "ssh-agent": { shortWithArg: "aEPtO", noRun: ["-k"] },
  "dbus-run-session": {
    longWithArg: ["--config-file", "--dbus-daemon"],
    commands: { "--dbus-daemon": "program" },
    noRun: ["--help", "--version"],
  },
  "dbus-launch": { longWithArg: ["--config-file", "--autolaunch"], noRun: ["--help", "--version"] },
  eatmydata: {},
  catchsegv: {},
  nocache: {},
  trickle: { shortWithArg: "duwtln" },
  gosu: { operands: 1 },
  "su-exec": { operands: 1 },
  setuidgid: { operands: 1 },
  envdir: { operands: 1, envFiles: true },
  // runit's: `-e DIR` is envdir's directory, `-C DIR` the command's cwd.
  chpst: { shortWithArg: "uUbemdopfcrt/CnlL", numbers: "cluster", envDirs: ["-e"], chdir: ["-C"] },
  ccache: { shortWithArg: "MFodkX" },
  sccache: {},
  // Distributed compilers: `distcc gcc …` runs gcc here or elsewhere with the same files.
  distcc: { longFlags: ["--help", "--version", "--show-hosts", "--show-principal"] },
  icecc: {},
  // Personality, logging and line-editing wrappers.
  // deno-fmt-ignore
  setarch: { operands: 1, shell: true, longFlags: ["--addr-no-randomize", "--fdpic-funcptrs", "--mmap-page-zero", "--addr-compat-layout", "--read-implies-exec", "--32bit", "--short-inode", "--whole-seconds", "--sticky-timeouts", "--3gb", "--4gb", "--uname-2.6", "--verbose", "--list"] },
  // (With no program, setarch and its personality names start /bin/sh.)
  linux32: { shell: true },
  linux64: { shell: true },
  i386: { shell: true },
  x86_64: { shell: true },
  logsave: { operands: 1 },
  // (`-z FILTER`: rlwrap's filter.c runs it through `sh -c` where it holds a shell's
  // metacharacters, else split into words: judged as shell text either way.)
  rlwrap: {
    shortWithArg: "bCDefFgHlOpPsStwz",
    // deno-fmt-ignore
    longWithArg: ["--break-chars", "--command-name", "--history-no-dupes", "--extra-char-after-completion", "--file", "--history-format", "--forget-matching", "--history-filename", "--logfile", "--only-cook", "--pre-given", "--histsize", "--substitute-prompt", "--set-term-name", "--polling-interval", "--filter"],
    commands: { "-z": "line", "--filter": "line" },
  },
  msgfilter: { shortWithArg: "iDowE" },
  // Password feeders, NUMA and cgroup placement, profilers, the host from a sandbox.
  sshpass: { shortWithArg: "fdpP" },
  numactl: {
    shortWithArg: "ipmCNw",
    // deno-fmt-ignore
    longWithArg: ["--interleave", "--preferred", "--membind", "--physcpubind", "--cpunodebind", "--preferred-many", "--weighted-interleave"],
    longFlags: ["--all", "--localalloc", "--balancing"],
    noRun: ["-s", "--show", "-H", "--hardware"],
  },
  cgexec: { shortWithArg: "g", longFlags: ["--sticky"] },
  // `perf stat|record|trace [options] CMD`, `perf sched record CMD`: perf.ts.
  perf: {},
  "flatpak-spawn": {
    // deno-fmt-ignore
    longWithArg: ["--directory", "--env", "--unset-env", "--forward-fd", "--sandbox-expose", "--sandbox-expose-ro", "--sandbox-expose-path", "--sandbox-expose-path-ro", "--sandbox-flag", "--app-path", "--usr-path"],
    // deno-fmt-ignore
    longFlags: ["--host", "--watch-bus", "--expose-pids", "--share-pids", "--latest-version", "--sandbox", "--no-network", "--clear-env", "--verbose"],
    chdir: ["--directory"],
    setsEnv: ["--env"],
  },
  // `toolbox run [-c NAME] CMD` (the subcommand is its operand).
  toolbox: {
    shortWithArg: "cdr",
    longWithArg: ["--container", "--distro", "--release"],
    longFlags: ["--assumeyes", "--verbose", "--preserve-fds"],
    operands: 1,
    // (`toolbox enter`.)
    shell: true,
  },
};

const grammars = new Map<WrapperSpec, OptionGrammar>();

/** A wrapper's option grammar (made once per wrapper). */
function grammarOf(_name: string, w: WrapperSpec): OptionGrammar {
  let g = grammars.get(w);
  if (!g) {
    g = {
      valued: w.shortWithArg ?? "",
      gluedOnly: w.gluedOnly,
      longValued: new Set(w.longWithArg ?? []),
      longFlags: new Set([...(w.longFlags ?? []), "--help", "--version"]),
      // (Elsewhere `-5` may be a value: timeout's duration.)
      numbers: w.numbers ?? "operand",
      // (getopt_long's: `env --split-s=…` is `--split-string=…`.)
      abbreviations: true,
    };
    grammars.set(w, g);
  }
  return g;
}

/**
 * A word with `=` before the command of env or sudo: a variable it sets. env (GNU, BSD, busybox)
 * and sudo take any such word, whatever its name: `F+=x` sets a variable named `F+` (it does not
 * append to F, as bash's own prefix does), which no shell reads as a variable: only a name bash
 * could read is the command's assignment.
 */
function setting(word: Word, env: Word[], run: Runner): void {
  if (!ENV_ASSIGNMENT.test(word.value)) return;
  run.environment([word]);
  env.push(word);
}

/**
 * envdir's directory: each file in it sets (or unsets) the variable it is named after, none of
 * them seen, so the command's environment is not known.
 */
function envFiles(w: WrapperSpec, operands: number, dir: Word, env: Word[], run: Runner): void {
  if (!w.envFiles || operands !== (w.operands ?? 0)) return;
  const set = unknownWord(`(the variables the files of ${dir.text} set)=`);
  run.environment([set]);
  env.push(set);
}

/**
 * `NAME=VALUE` for a variable a wrapper passes on from its own environment: the value the stage's
 * own assignment gives (`X=1 run0 --setenv=X …`), else the caller's, not known (`NAME=$NAME`).
 */
function callerValue(name: string, stage: Stage): Word {
  const own = (stage.assignments ?? []).findLast((a) => a.prefix.startsWith(name + "="));
  if (own) return own;
  const text = `${name}=$${name}`;
  return { value: text, kind: "dynamic", prefix: name + "=", text };
}

/**
 * What a wrapper's option `name` given `value` sets in the command's environment: `NAME=VALUE`
 * (`NAME` alone: the caller's own value, passed on, or taken out), envdir's files; undefined for none.
 */
function optionEnv(w: WrapperSpec, name: string, value: Word, stage: Stage): Word | undefined {
  if (w.envDirs?.includes(name)) {
    return unknownWord(`(the variables the files of ${value.text} set)=`);
  }
  if (!w.setsEnv?.includes(name)) return undefined;
  if (value.kind !== "static") return unknownWord(`(the variable ${value.text} sets)=`);
  if (ENV_ASSIGNMENT.test(value.value)) return value;
  if (w.inheritsEnv && /^[A-Za-z_]\w*$/.test(value.value)) return callerValue(value.value, stage);
  return undefined;
}

/** The variables the analysis takes from the environment that `env -i` leaves unset. */
const CLEARED = ["HOME", "TMPDIR"];

/** The command a wrapper runs: its words after the wrapper's own options and operands. */
function wrapped(name: string, w: WrapperSpec, stage: Stage, outer: Runner): void {
  const args = stage.argv.slice(1);
  // (As another user, what runs finds that user's HOME: user_env.ts.)
  const run = USER_SWITCHES.has(name)
    ? outer.resetting(userReset(name, args, grammarOf(name, w), outer))
    : outer;
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  let cwds = startsIn(name, grammarOf(name, w), stage, run) ?? stage.cwds;
  let operands = w.operands ?? 0;
  let start = args.length;
  let seen = -1; // the last word whose whole-word checks ran
  let unknown = -1; // the first long option not known: it may take the next word or not
  const env: Word[] = [];
  let cleared = false; // `env -i`: what it runs finds no HOME nor TMPDIR
  for (const t of readOptions(values, grammarOf(name, w))) {
    if (name === "env" && (t.name === "-i" || t.name.startsWith("--ignore-e"))) cleared = true;
    if (unknown < 0 && t.kind === "unknown" && t.glued === undefined && t.name.startsWith("--")) {
      unknown = t.at;
    }
    if (t.kind === "dynamic") {
      // A word not known that is surely one word (in double quotes) fills an operand the wrapper
      // still takes (`timeout "$T" make`); any other may be the command, or split into it.
      if (operands > 0 && /^"[^"]*"$/.test(args[t.at].text)) {
        envFiles(w, operands, args[t.at], env, run);
        operands--;
        continue;
      }
      start = t.at;
      break;
    }
    const v = values[t.at]!;
    if (t.kind === "end") {
      // What an option-like word after `--` is depends on the implementation (GNU env runs
      // a program named `--unset=X`, others read it as the option): not known.
      const next = args[t.at + 1];
      if (next?.kind === "static" && next.value.length > 1 && next.value.startsWith("-")) {
        run.stage([unknownWord(next.text)], `wrapper:${name}`, cwds);
        return;
      }
      start = t.at + 1;
      break;
    }
    if (t.at !== seen && w.noRun?.includes(v)) return;
    if (t.kind === "operand") {
      if (w.assignments && v.includes("=")) {
        setting(args[t.at], env, run);
        continue;
      }
      if (w.flagWords?.includes(v)) {
        cleared ||= name === "env";
        continue;
      }
      if (operands > 0) {
        envFiles(w, operands, args[t.at], env, run);
        operands--;
        continue;
      }
      start = t.at;
      break;
    }
    const value = t.kind === "valued" || t.glued !== undefined ? optionValue(t, args) : undefined;
    if (value && w.chdir?.includes(t.name)) cwds = chdir(cwds, value);
    // (nsenter's `-w` alone: the working directory of the process it enters, not known here.)
    else if (w.chdir?.includes(t.name) && t.kind !== "valued") cwds = [null];
    else if (w.chdir?.includes(t.name) && t.valueAt === undefined) cwds = [null];
    const set = value && optionEnv(w, t.name, value, stage);
    if (set) run.environment([set]), env.push(set);
    if (w.commands && (t.kind === "valued" || t.kind === "unknown") && t.name in w.commands) {
      const v = value ?? (t.glued === undefined ? undefined : literal(t.glued));
      if (v) run.command(v, w.commands[t.name], `wrapper:${name}`);
    }
    if (value && w.splitString?.includes(t.name)) {
      // The words it splits into, then the rest, read again as the wrapper's own command line.
      const after = args.slice(t.valueAt === undefined ? t.at + 1 : t.valueAt + 1);
      if (value.kind !== "static") {
        run.stage([unknownWord(value.text)], `wrapper:${name}`, cwds);
      } else {
        const words = [name, cleared ? "-i" : "", value.value, commandLine(after, "argv").value];
        const text = words.join(" ");
        run.shell(literal(text), `wrapper:${name}`, { cwds });
      }
      return;
    }
    if (value && w.shellString?.includes(t.name)) {
      run.shell(value, `wrapper:${name}`, { cwds });
      return;
    }
    if (t.at !== seen && w.shellFlags && (shellCluster(v, w) || v === "--shell")) {
      // sudo -s / -i with a command runs it through a shell; alone, the shell.
      const rest = args.slice((t.valueAt ?? t.at) + 1);
      if (rest.length) run.stage(rest, `wrapper:${name}`, cwds);
      else startsShell(run, `wrapper:${name}`, cwds);
      return;
    }
    seen = t.at;
  }
  runAfterOptions(name, w, stage, run, { args, start, env, cleared, unknown, cwds });
}

/** Where a wrapper's own options end (see `wrapped`). */
interface AfterOptions {
  args: Word[];
  /** The first word of the command it runs (`args.length`: none). */
  start: number;
  /** The variables it sets for that command. */
  env: Word[];
  /** `env -i`: the command finds no HOME nor TMPDIR. */
  cleared: boolean;
  /** The first long option not known (-1: none). */
  unknown: number;
  cwds: (string | null)[];
}

/** The command a wrapper runs after its own options (and what it may run after one not known). */
function runAfterOptions(
  name: string,
  w: WrapperSpec,
  stage: Stage,
  run: Runner,
  { args, start, env, cleared, unknown, cwds }: AfterOptions,
): void {
  // (On a terminal of its own, what it runs reads that: `sudo A=1 ugrep KEY`.)
  const pty = PTY.has(name);
  // `NAME=value` words after `--` are the command's environment: `env -- A=1 rm` runs `rm`.
  // (A bare sudo or exec runs nothing we can see.)
  while (
    w.assignments && start < args.length && args[start].kind === "static" &&
    args[start].value.includes("=")
  ) setting(args[start++], env, run);
  const rest = args.slice(start);
  // (What env sets is the command's environment: `env CC=… make` is `CC=… make`.)
  if (rest.length && (env.length || cleared)) {
    const inner = derived(
      pty ? { ...stage, terminal: true } : stage,
      rest,
      `wrapper:${name}`,
      cwds,
    );
    if (env.length) inner.assignments = env;
    if (cleared) inner.unknownVars = new Set([...stage.unknownVars ?? [], ...CLEARED]);
    run.more(inner);
  } else if (rest.length) run.stage(rest, `wrapper:${name}`, cwds);
  else if (w.shell) startsShell(run, `wrapper:${name}`, cwds);
  // After an option not known, which words are its value and the wrapper's is not known: the
  // command may begin at any later word (each is judged; past a few, it is not known).
  if (unknown < 0) return;
  const later = args.length - unknown - 1;
  if (later > MAX_STARTS) {
    run.stage([unknownWord(`(a command after ${args[unknown].text})`)], `wrapper:${name}`, cwds);
    return;
  }
  for (let i = unknown + 1; i < args.length; i++) {
    if (i !== start && args[i].kind === "static") {
      run.stage(args.slice(i), `wrapper:${name}${GUESSED}`, cwds);
    }
  }
}

/**
 * The origin's mark of a stage a wrapper may run after an option not known (each later word is
 * tried as the command): its program name is a guess, no text for the stages that hold the word
 * (see `innerTextWords`).
 */
export const GUESSED = " (after an option not known)";

/** Whether `v` is a cluster of a wrapper's flags with one that starts a shell (`-s`, `-Es`). */
function shellCluster(v: string, w: WrapperSpec): boolean {
  if (!/^-[^-]/.test(v)) return false;
  const letters = v.slice(1);
  // (A letter that takes a value ends the cluster: `-us` is `-u s`.)
  const valued = [...letters].findIndex((c) => w.shortWithArg?.includes(c));
  const flags = valued < 0 ? letters : letters.slice(0, valued);
  return [...flags].some((c) => w.shellFlags!.includes(c));
}

/** Past this many words after an option not known, where the command starts is not known. */
const MAX_STARTS = 12;

/**
 * start-stop-daemon `--start`: runs `--startas` (else `--exec`) with the words after `--`, in
 * the `--chdir` directory; `--stop` and the others run nothing.
 */
function startStopDaemon(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const end = args.findIndex((a) => a.kind === "static" && a.value === "--");
  const own = end >= 0 ? args.slice(0, end) : args;
  const values = own.map((a) => (a.kind === "static" ? a.value : null));
  const grammar: OptionGrammar = {
    valued: "xanugpcrdNPIksRO",
    // deno-fmt-ignore
    longValued: new Set(["--exec", "--startas", "--name", "--user", "--group", "--pidfile",
      "--chuid", "--chroot", "--chdir", "--nicelevel", "--procsched", "--iosched", "--umask",
      "--signal", "--retry", "--remove-pidfile", "--notify-timeout", "--output", "--ppid"]),
  };
  const found: Record<string, Word> = {};
  let cwds = stage.cwds;
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "dynamic") {
      run.stage([unknownWord(`(a command after ${own[t.at].text})`)], "start-stop-daemon");
      return;
    }
    const value = t.kind === "valued" ? optionValue(t, own) : undefined;
    if (!value) continue;
    found[t.name] = value;
    if (t.name === "-d" || t.name === "--chdir") cwds = chdir(cwds, value);
  }
  const program = found["-a"] ?? found["--startas"] ?? found["-x"] ?? found["--exec"];
  if (program) {
    run.stage([program, ...(end >= 0 ? args.slice(end + 1) : [])], "start-stop-daemon", cwds);
  }
}

/**
 * distrobox (and `distrobox-enter`): `enter NAME -- CMD` runs CMD in the container (with this
 * home and, by default, this machine's files); without `--`, an interactive shell.
 */
function distrobox(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const end = args.findIndex((a) => a.kind === "static" && a.value === "--");
  if (end >= 0 && end + 1 < args.length) run.stage(args.slice(end + 1), "wrapper:distrobox");
  else if (args.some((a) => a.value === "enter") || programName(stage.argv[0]) !== "distrobox") {
    startsShell(run, "wrapper:distrobox");
  }
}

/**
 * sg and newgrp (shadow's newgrp.c): `sg [-|-l] GROUP [-c] COMMAND`. After the group, the word
 * after `-c`, else the first word (the others are dropped), runs through `/bin/sh -c`, here (the
 * login environment of `-` does not move it); with no command, and for `newgrp [-|-l] [GROUP]`,
 * a shell (in the home after `-`). A group spelled with `-` is refused.
 */
function newGroup(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const name = programName(stage.argv[0]);
  const origin = `wrapper:${name}`;
  const login = args[0]?.kind === "static" && (args[0].value === "-" || args[0].value === "-l");
  const at = login ? 1 : 0;
  const group = args[at];
  if (!group || name === "newgrp") {
    startsShell(run, origin, login ? [run.home(null)] : undefined);
    return;
  }
  if (args.slice(0, at + 1).some((a) => a.kind !== "static")) {
    // (Which word is the group, and which the command, is not known.)
    run.stage([unknownWord(`(a command after ${group.text})`)], origin);
    return;
  }
  if (group.value.startsWith("-")) return;
  const rest = args.slice(at + 1);
  if (rest.length === 0) {
    startsShell(run, origin, login ? [run.home(null)] : undefined);
    return;
  }
  const c = rest.length > 1 && rest[0].kind === "static" && rest[0].value === "-c";
  run.shell(c ? rest[1] : rest[0], origin);
}

/**
 * The wrappers that run the command on a terminal of their own (`Runner.terminal`): unbuffer's
 * (expect's spawn), sudo's (`use_pty`, the default since 1.9.14), run0's and systemd-run's
 * (`--pty`, a shell's; taken as one whatever its options).
 */
const PTY = new Set(["unbuffer", "sudo", "run0", "systemd-run"]);

/** The wrappers: each runs the command its words after its own options make. */
export const WRAPPER_PROGRAMS: Program[] = [
  ...Object.entries(WRAPPERS).map(([name, spec]): Program => ({
    names: [name],
    // (The directories proot and firejail bind at other places: binds.ts.)
    // (perf's outputs, and the programs its options and settings name: perf.ts.)
    // deno-fmt-ignore
    namedFiles: ({ proot: prootFiles, firejail: firejailFiles, perf: perfFiles,
      "systemd-nspawn": nspawnFiles })[name],
    optionCommands: name === "perf" ? perfCommands : undefined,
    runs: (stage, outer) => {
      const run = PTY.has(name) ? outer.terminal() : outer;
      // `exec` with no command sets the shell's own files: a new standard input is where the
      // shell, and every later command, reads (`exec <<<'rm x'; sh`), which no one reads here.
      const input = standardInput(stage);
      if (name === "exec" && stage.argv.length === 1 && input.redirect) {
        run.stage([unknownWord("(commands later read from the new standard input)")], "exec");
      }
      if (name === "perf") {
        // (After perf's own options: perf.ts.)
        const inner = perfStage(stage);
        for (const sub of inner ? perfSpecs(inner.argv) : []) wrapped(name, sub, inner!, run);
      } else wrapped(name, spec, stage, run);
      if (spec.otherVersion) wrapped(name, spec.otherVersion, stage, run);
      if (name === "strace") straceEffects(stage, run, grammarOf(name, spec));
    },
  })),
  { names: ["sg", "newgrp"], runs: newGroup },
  { names: ["su", "runuser", "script"], runs: switchUser },
  { names: ["bwrap"], runs: bwrap },
  { names: ["start-stop-daemon"], runs: startStopDaemon },
  { names: ["distrobox", "distrobox-enter"], runs: distrobox },
  ...WATCHER_PROGRAMS,
];
