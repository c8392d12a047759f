/**
 * Wrappers seen through (RULINGS principle 2): the command a wrapper runs is a stage of its own
 * (`sudo rm x` runs `rm x`; `timeout 5 make` runs `make`; `su -c 'rm x'` runs `rm x`). One table
 * says how each wrapper reads its own options before the command starts; sudo's `-s`/`-i`, watch
 * and su-like programs have their quirks beside it.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Program, Runner } from "./spec.ts";
import { chdir, literal, unknownWord } from "./words.ts";

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
};

/** The command a wrapper runs: its words after the wrapper's own options and operands. */
function wrapped(name: string, w: WrapperSpec, stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  let i = 0;
  let cwds = stage.cwds;
  let operands = w.operands ?? 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") break;
    const v = a.value;
    if (v === "--") {
      i++;
      // What an option-like word after `--` is depends on the implementation (GNU env runs
      // a program named `--unset=X`, others read it as the option): not known.
      const next = args[i];
      if (next?.kind === "static" && next.value.length > 1 && next.value.startsWith("-")) {
        run.stage([unknownWord(next.text)], `wrapper:${name}`, cwds);
        return;
      }
      break;
    }
    if (w.noRun?.includes(v)) return;
    if (w.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) {
      run.environment([a]);
      continue;
    }
    if (v.startsWith("--")) {
      const [opt, inline] = v.includes("=")
        ? [v.slice(0, v.indexOf("=")), v.slice(v.indexOf("=") + 1)]
        : [v, null];
      const takes = w.longWithArg?.includes(opt);
      const value: Word | undefined = inline !== null
        ? literal(inline)
        : takes
        ? args[++i]
        : undefined;
      if (value && w.chdir?.includes(opt)) cwds = chdir(cwds, value);
      if (value && w.shellString?.includes(opt)) {
        run.shell(value, `wrapper:${name}`, cwds);
        return;
      }
      continue;
    }
    if (name === "nice" && /^-\d+$/.test(v)) continue; // nice -10 cmd
    if (v.startsWith("-") && v.length > 1 && !/^-\d+$/.test(v)) {
      for (let j = 1; j < v.length; j++) {
        if (w.shortWithArg?.includes(v[j])) {
          const rest = v.slice(j + 1);
          const value: Word | undefined = rest ? literal(rest) : args[++i];
          const opt = `-${v[j]}`;
          if (value && w.chdir?.includes(opt)) cwds = chdir(cwds, value);
          if (value && w.shellString?.includes(opt)) {
            run.shell(value, `wrapper:${name}`, cwds);
            return;
          }
          break;
        }
      }
      if (name === "sudo" && /^-[^-]*[si]/.test(v) && !/^-[^-]*[ugCDhprtTU]/.test(v)) {
        // sudo -s / -i with a command runs it through a shell.
        const rest = args.slice(i + 1);
        if (rest.length) run.stage(rest, "wrapper:sudo", cwds);
        else run.stage([unknownWord("(interactive shell)")], "wrapper:sudo", cwds);
        return;
      }
      continue;
    }
    if (operands > 0) {
      operands--;
      continue;
    }
    break;
  }
  // `NAME=value` words after the options (and after `--`) are the command's environment:
  // `env -- A=1 rm` runs `rm`. (A bare sudo or exec runs nothing we can see.)
  while (
    w.assignments && i < args.length && args[i].kind === "static" &&
    /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i].value)
  ) run.environment([args[i++]]);
  const rest = args.slice(i);
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

/** The wrappers: each runs the command its words after its own options make. */
export const WRAPPER_PROGRAMS: Program[] = [
  ...Object.entries(WRAPPERS).map(([name, spec]): Program => ({
    names: [name],
    runs: (stage, run) => wrapped(name, spec, stage, run),
  })),
  { names: ["watch"], runs: watch },
  { names: ["su", "runuser", "script"], runs: switchUser },
];
