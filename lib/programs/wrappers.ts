/**
 * Wrappers seen through (RULINGS principle 2): the command a wrapper runs is a stage of its own
 * (`sudo rm x` runs `rm x`; `timeout 5 make` runs `make`; `su -c 'rm x'` runs `rm x`). One table
 * says how each wrapper reads its own options before the command starts; sudo's `-s`/`-i`, watch
 * and su-like programs have their quirks beside it.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, type OptionToken, readOptions } from "./argv.ts";
import type { How, Program, Runner } from "./spec.ts";
import { chdir, literal, unknownWord } from "./words.ts";
import { ENV_ASSIGNMENT } from "./env.ts";

/** How a wrapper's own options are read before the wrapped command starts. */
interface WrapperSpec {
  /** Short options that take a value (`-u root`, `-uroot`). */
  shortWithArg?: string;
  /** Long options that take a value when not given as `--opt=value`. */
  longWithArg?: string[];
  /** Leading `NAME=value` words are assignments, not the command (env). */
  assignments?: boolean;
  /** Words before the command that are operands of the wrapper (timeout DURATION, flock FILE). */
  operands?: number;
  /** Options whose value is a new cwd for the command (sudo -D, env -C). */
  chdir?: string[];
  /** Options after which nothing runs (command -v, sudo -l). */
  noRun?: string[];
  /** Options whose value is itself a shell command string (flock -c, env -S, sudo -s/-i mode). */
  shellString?: string[];
  /** Short options whose value is optional and only glued (`prlimit -n1024`). */
  gluedOnly?: string;
  /** Options whose value is a command it also runs (`faketime --date-prog`, `valgrind --db-command`). */
  commands?: Record<string, How>;
}

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
  },
  doas: { shortWithArg: "uC", noRun: ["-L"] },
  env: {
    shortWithArg: "uCS",
    longWithArg: ["--unset", "--chdir", "--split-string"],
    assignments: true,
    chdir: ["-C", "--chdir"],
    shellString: ["-S", "--split-string"],
  },
  nice: { shortWithArg: "n", longWithArg: ["--adjustment"] },
  nohup: {},
  timeout: { shortWithArg: "ks", longWithArg: ["--kill-after", "--signal"], operands: 1 },
  time: { shortWithArg: "fo", longWithArg: ["--format", "--output"] },
  command: { noRun: ["-v", "-V"] },
  builtin: {},
  exec: { shortWithArg: "a" },
  stdbuf: { shortWithArg: "ioe", longWithArg: ["--input", "--output", "--error"] },
  setsid: {},
  ionice: { shortWithArg: "cnp", longWithArg: ["--class", "--classdata", "--pid"] },
  flock: {
    shortWithArg: "wEc",
    longWithArg: ["--timeout", "--conflict-exit-code", "--command"],
    operands: 1,
    shellString: ["-c", "--command"],
  },
  chrt: { operands: 1 },
  taskset: { operands: 1 },
  unbuffer: {},
  chronic: {},
  caffeinate: {},
  "run-parts": { noRun: [""] },
  strace: { shortWithArg: "abeEIoOpPsSuX" },
  ltrace: { shortWithArg: "aAeEnoOpsSuwxX" },
  unshare: { shortWithArg: "RwSG", longWithArg: ["--root", "--wd", "--setuid", "--setgid"] },
  chroot: { operands: 1, longWithArg: ["--userspec", "--groups"] },
  pkexec: { longWithArg: ["--user"] },
  setpriv: {},
  nsenter: { shortWithArg: "tSGwr", longWithArg: ["--target", "--setuid", "--setgid", "--wd"] },
  firejail: {},
  "systemd-run": {
    shortWithArg: "pEMH",
    longWithArg: [
      "--unit",
      "--property",
      "--description",
      "--slice",
      "--uid",
      "--gid",
      "--nice",
      "--working-directory",
      "--setenv",
      "--machine",
      "--host",
    ],
  },
  sg: { operands: 1, shellString: ["-c"] },
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
  envdir: { operands: 1 },
  ccache: { shortWithArg: "MFodkX" },
  sccache: {},
};

const grammars = new Map<string, OptionGrammar>();

/** A wrapper's option grammar (made once per wrapper). */
function grammarOf(name: string, w: WrapperSpec): OptionGrammar {
  let g = grammars.get(name);
  if (!g) {
    g = {
      valued: w.shortWithArg ?? "",
      gluedOnly: w.gluedOnly,
      longValued: new Set(w.longWithArg ?? []),
      numbers: name === "nice" ? "option" : "operand", // nice -10 cmd
    };
    grammars.set(name, g);
  }
  return g;
}

/** An option's value: glued to it, or the word it took. */
function valueOf(t: OptionToken, args: Word[]): Word | undefined {
  return t.glued !== undefined
    ? literal(t.glued)
    : t.valueAt === undefined
    ? undefined
    : args[t.valueAt];
}

/** The command a wrapper runs: its words after the wrapper's own options and operands. */
function wrapped(name: string, w: WrapperSpec, stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  let cwds = stage.cwds;
  let operands = w.operands ?? 0;
  let start = args.length;
  let seen = -1; // the last word whose whole-word checks ran
  for (const t of readOptions(values, grammarOf(name, w))) {
    if (t.kind === "dynamic") {
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
      if (w.assignments && ENV_ASSIGNMENT.test(v)) {
        run.environment([args[t.at]]);
        continue;
      }
      if (operands > 0) {
        operands--;
        continue;
      }
      start = t.at;
      break;
    }
    const value = t.kind === "valued" || t.glued !== undefined ? valueOf(t, args) : undefined;
    if (value && w.chdir?.includes(t.name)) cwds = chdir(cwds, value);
    if (w.commands && (t.kind === "valued" || t.kind === "unknown") && t.name in w.commands) {
      const v = value ?? (t.glued === undefined ? undefined : literal(t.glued));
      if (v) run.command(v, w.commands[t.name], `wrapper:${name}`);
    }
    if (value && w.shellString?.includes(t.name)) {
      run.shell(value, `wrapper:${name}`, cwds);
      return;
    }
    if (
      t.at !== seen && name === "sudo" && /^-[^-]*[si]/.test(v) && !/^-[^-]*[ugCDhprtTU]/.test(v)
    ) {
      // sudo -s / -i with a command runs it through a shell.
      const rest = args.slice(t.at + 1);
      if (rest.length) run.stage(rest, "wrapper:sudo", cwds);
      else run.stage([unknownWord("(interactive shell)")], "wrapper:sudo", cwds);
      return;
    }
    seen = t.at;
  }
  // `NAME=value` words after `--` are the command's environment: `env -- A=1 rm` runs `rm`.
  // (A bare sudo or exec runs nothing we can see.)
  while (
    w.assignments && start < args.length && args[start].kind === "static" &&
    ENV_ASSIGNMENT.test(args[start].value)
  ) run.environment([args[start++]]);
  const rest = args.slice(start);
  if (rest.length) run.stage(rest, `wrapper:${name}`, cwds);
}

/** watch runs its arguments through `sh -c` (with -x/--exec: directly). */
function watch(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  let exec = false;
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : "";
    if (v === "-x" || v === "--exec") exec = true;
    else if (v === "-n" || v === "--interval" || v === "-q" || v === "--equexit") i++;
    else if (!v.startsWith("-") || v === "--") {
      if (v === "--") i++;
      break;
    }
  }
  const rest = args.slice(i);
  if (!rest.length) return;
  if (exec) run.stage(rest, "watch");
  else {
    const dynamic = rest.some((w) => w.kind !== "static");
    const text = rest.map((w) => w.value).join(" ");
    run.shell({ value: text, kind: dynamic ? "dynamic" : "static", prefix: "", text }, "watch");
  }
}

/** su, runuser and script run `-c TEXT` through a shell; su and runuser alone start one. */
function switchUser(stage: Stage, run: Runner): void {
  const name = stage.argv[0].value.slice(stage.argv[0].value.lastIndexOf("/") + 1);
  const args = stage.argv.slice(1);
  const c = args.findIndex((a) =>
    a.kind === "static" && (/^-[a-zA-Z]*c$/.test(a.value) || a.value === "--command")
  );
  if (c >= 0 && args[c + 1]) run.shell(args[c + 1], `wrapper:${name}`);
  else if (name !== "script") run.stage([unknownWord("(interactive shell)")], `wrapper:${name}`);
}

/** bwrap's options by how many words each takes (the others are flags). */
// deno-fmt-ignore
const BWRAP_ARITY: Record<string, number> = Object.fromEntries([
  ...["--args", "--argv0", "--userns", "--userns2", "--pidns", "--uid", "--gid", "--hostname",
    "--chdir", "--unsetenv", "--lock-file", "--sync-fd", "--remount-ro", "--exec-label",
    "--file-label", "--proc", "--dev", "--tmpfs", "--mqueue", "--dir", "--seccomp",
    "--add-seccomp-fd", "--block-fd", "--userns-block-fd", "--info-fd", "--json-status-fd",
    "--cap-add", "--cap-drop", "--perms", "--size", "--overlay-src", "--tmp-overlay",
    "--ro-overlay"].map((o) => [o, 1]),
  ...["--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind", "--ro-bind-try",
    "--file", "--bind-data", "--ro-bind-data", "--symlink", "--setenv", "--chmod", "--bind-fd",
    "--ro-bind-fd"].map((o) => [o, 2]),
  ["--overlay", 3],
]);
// deno-fmt-ignore
const BWRAP_FLAGS = new Set(["--unshare-user", "--unshare-user-try", "--unshare-ipc",
  "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup", "--unshare-cgroup-try",
  "--unshare-all", "--share-net", "--clearenv", "--new-session", "--die-with-parent", "--as-pid-1",
  "--disable-userns", "--assert-userns-disabled", "--level-prefix"]);

/** bwrap: its options take zero to three words each; the first other word starts the command. */
function bwrap(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  let cwds = stage.cwds;
  for (let i = 0; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : null;
    if (v === "--help" || v === "--version") return;
    if (v === "--") {
      if (args[i + 1]) run.stage(args.slice(i + 1), "wrapper:bwrap", cwds);
      return;
    }
    if (v !== null && v.startsWith("-") && v.length > 1) {
      if (v === "--args") {
        run.stage([unknownWord("(arguments from a file descriptor)")], "wrapper:bwrap", cwds);
        return;
      }
      if (BWRAP_FLAGS.has(v)) continue;
      if (!(v in BWRAP_ARITY)) {
        // An option bwrap may have gained: the command is not known.
        run.stage([unknownWord(`(a command after ${v})`)], "wrapper:bwrap", cwds);
        return;
      }
      if (v === "--chdir" && args[i + 1]) cwds = [null];
      i += BWRAP_ARITY[v];
      continue;
    }
    run.stage(args.slice(i), "wrapper:bwrap", cwds);
    return;
  }
}

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
    const value = t.kind === "valued" ? valueOf(t, own) : undefined;
    if (!value) continue;
    found[t.name] = value;
    if (t.name === "-d" || t.name === "--chdir") cwds = chdir(cwds, value);
  }
  const program = found["-a"] ?? found["--startas"] ?? found["-x"] ?? found["--exec"];
  if (program) {
    run.stage([program, ...(end >= 0 ? args.slice(end + 1) : [])], "start-stop-daemon", cwds);
  }
}

/** The wrappers: each runs the command its words after its own options make. */
export const WRAPPER_PROGRAMS: Program[] = [
  ...Object.entries(WRAPPERS).map(([name, spec]): Program => ({
    names: [name],
    runs: (stage, run) => wrapped(name, spec, stage, run),
  })),
  { names: ["watch"], runs: watch },
  { names: ["su", "runuser", "script"], runs: switchUser },
  { names: ["bwrap"], runs: bwrap },
  { names: ["start-stop-daemon"], runs: startStopDaemon },
];
