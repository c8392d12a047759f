/**
 * Wrappers seen through (RULINGS principle 2): the command a wrapper runs is a stage of its own
 * (`sudo rm x` runs `rm x`; `bash -c 'rm x'` runs `rm x`; `find . -exec rm {} ;` runs `rm`), and
 * the inline code an interpreter evaluates is recognised for eval classification.
 */
import type { Redirect, Stage, Word } from "../shell/bash.ts";
import { cdInto } from "../shell/paths.ts";
import { awkEffects, AWKS, sedEffects, SEDS } from "./scripts.ts";
import type { EvalShape } from "../types.ts";

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

/** git settings whose values are commands git runs. */
const GIT_COMMAND_KEYS =
  /^(core\.(pager|editor|sshcommand|fsmonitor|hookspath|askpass)|alias\..+|pager\..+|diff\.external|diff\..+\.(textconv|command)|sequence\.editor|credential\.helper|gpg(\..+)?\.program|filter\..+\.(clean|smudge|process)|merge\..+\.driver|uploadpack\.packobjectshook)$/;

/**
 * Environment variables whose value is a shell command some program runs: pagers, editors, ssh
 * commands, less's input filters, bash's prompt command.
 */
const SHELL_ENV = new Set([
  "PAGER",
  "GIT_PAGER",
  "MANPAGER",
  "SYSTEMD_PAGER",
  "GH_PAGER",
  "BAT_PAGER",
  "DELTA_PAGER",
  "PSQL_PAGER",
  "EDITOR",
  "VISUAL",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "SUDO_EDITOR",
  "GH_EDITOR",
  "FCEDIT",
  "GIT_SSH_COMMAND",
  "RSYNC_RSH",
  "PROMPT_COMMAND",
  "LESSOPEN",
  "LESSCLOSE",
]);
/** Environment variables whose value is a program some program runs (with arguments of its own). */
const PROGRAM_ENV = new Set([
  "GIT_SSH",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "GIT_EXTERNAL_DIFF",
  "CVS_RSH",
]);
/**
 * Environment variables that make a shell or git run commands from elsewhere: a file bash or sh
 * sources first, git settings (which can hold commands) and git's own programs.
 */
const CODE_ENV =
  /^(BASH_ENV|ENV|GIT_CONFIG_PARAMETERS|GIT_CONFIG_COUNT|GIT_CONFIG_(KEY|VALUE)_\d+|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|GIT_EXEC_PATH)$/;
/** Prompts: bash expands them (command substitutions too) when it shows them or traces. */
const PROMPT_ENV = /^(PS0|PS1|PS2|PS4)$/;
/** A substitution in a value: `$(…)`, `` `…` ``. */
const SUBSTITUTION = /\$\(|`/;

/** The name of a `NAME=value` / `NAME+=value` word. */
const ASSIGNED = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;

/** Whether a `NAME=value` text assigns a variable whose value some program runs. */
export function carriesCommand(assignment: string): boolean {
  const m = ASSIGNED.exec(assignment);
  if (m === null) return false;
  if (PROMPT_ENV.test(m[1])) return SUBSTITUTION.test(assignment);
  return SHELL_ENV.has(m[1]) || PROGRAM_ENV.has(m[1]) || CODE_ENV.test(m[1]);
}

// deno-fmt-ignore
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox",
  "toybox"]);
/** The other programs `innerStages` looks into (besides WRAPPERS and SHELLS). */
// deno-fmt-ignore
const RUNNERS = new Set(["watch", "trap", "git", "parallel", "at", "batch", "su", "runuser",
  "script", "alias", "eval", "source", ".", "xargs", "find", "fd", "fdfind", "export", "declare",
  "typeset", "local", "readonly"]);
/** Builtins that assign variables: `export PAGER='less -R'`. */
const DECLARATIONS = new Set(["export", "declare", "typeset", "local", "readonly"]);
/** The wrappers, shells and runners `innerStages` looks into for the commands they run. */
const RUNS_OTHERS = new Set([...Object.keys(WRAPPERS), ...SHELLS, ...RUNNERS]);

/** git's own options (before its subcommand) that take a value: `git -C dir`, `git -c k=v`. */
export const GIT_VALUED_OPTIONS: ReadonlySet<string> = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--super-prefix",
  "--config-env",
]);

const INTERPRETERS: Record<
  string,
  {
    language: EvalShape["language"];
    flags: string[];
    subcommand?: string;
    /** Short options whose value is the rest of their cluster (`perl -Mstrict`). */
    valued?: string;
  }
> = {
  python: { language: "python", flags: ["-c"], valued: "WXm" },
  python2: { language: "python", flags: ["-c"], valued: "WXm" },
  python3: { language: "python", flags: ["-c"], valued: "WXm" },
  node: { language: "javascript", flags: ["-e", "--eval", "-p", "--print"], valued: "r" },
  bun: { language: "javascript", flags: ["-e", "--eval", "-p", "--print"], valued: "r" },
  deno: { language: "typescript", flags: [], subcommand: "eval" },
  tsx: { language: "typescript", flags: ["-e", "--eval", "-p", "--print"] },
  "ts-node": { language: "typescript", flags: ["-e", "--eval", "-p", "--print"] },
  ruby: { language: "ruby", flags: ["-e"], valued: "IrEFCxiKTW" },
  perl: { language: "perl", flags: ["-e", "-E"], valued: "MmIixCdD" },
  php: { language: "php", flags: ["-r"] },
};

/**
 * How an option's value runs: a shell command (`sh -c`), a program given arguments of its own, or
 * a configuration file that may hold commands (ssh's `-F`).
 */
type How = "shell" | "program" | "file";

/** Options of a program (not a wrapper) that make it work in another directory. */
interface ChdirSpec {
  /** The options, each taking a directory (`-C dir`, `-Cdir`, `--directory=dir`). */
  options: string[];
  /** They come before the subcommand only (`git -C dir log`; `git commit -C REV` is not one). */
  beforeSubcommand?: boolean;
  /** Options before the subcommand that take a value, so it is not the subcommand. */
  valued?: ReadonlySet<string>;
}

const CHDIR_OPTIONS: Record<string, ChdirSpec> = {
  git: { options: ["-C"], beforeSubcommand: true, valued: GIT_VALUED_OPTIONS },
  make: { options: ["-C", "--directory"] },
  gmake: { options: ["-C", "--directory"] },
  tar: { options: ["-C", "--directory"] },
  patch: { options: ["-d", "--directory"] },
  ninja: { options: ["-C"] },
  go: { options: ["-C"], beforeSubcommand: true },
};

/** The cwds a program's directory options lead it to, or null when it has none. */
function chdirOptions(
  spec: ChdirSpec,
  args: Word[],
  cwds: (string | null)[],
): (string | null)[] | null {
  let moved: (string | null)[] | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (spec.beforeSubcommand && a.kind === "static" && !v.startsWith("-")) break;
    let found = false;
    for (const opt of spec.options) {
      let dir: Word | undefined;
      if (v === opt && a.kind === "static") dir = args[++i];
      else if (opt.startsWith("--") && v.startsWith(opt + "=")) {
        dir = a.kind === "static" ? literal(v.slice(opt.length + 1)) : a;
      } else if (!opt.startsWith("--") && v.startsWith(opt) && v.length > opt.length) {
        dir = a.kind === "static" ? literal(v.slice(opt.length)) : a;
      } else continue;
      if (dir) moved = chdir(moved ?? cwds, dir);
      found = true;
      break;
    }
    if (!found && spec.valued?.has(v)) i++; // another option's value
  }
  return moved;
}

/** Options of a program (not a wrapper) whose values are commands it runs. */
interface CommandOptionSpec {
  /** Short options that take a value: the rest of the cluster or the next word. */
  shortWithArg: string;
  /** Which of those name a command. */
  short?: Record<string, How>;
  /** Long options whose value (`--opt=v` or `--opt v`) names a command. */
  long?: Record<string, How>;
  /** Options whose value is `Key=value` (`-o ProxyCommand=…`), by key (lower case). */
  keyed?: Record<string, Record<string, How>>;
  /** Long options count only when written out in full (no GNU-style abbreviations). */
  exact?: boolean;
  /** The first word may be option letters without a dash, each value a later word (`tar xIf`). */
  bundled?: boolean;
  /** Options end at this many operands (ssh: after the host comes the remote command). */
  operands?: number;
}

const SSH_KEYS: Record<string, How> = {
  proxycommand: "shell",
  localcommand: "shell",
  knownhostscommand: "shell",
};

/** Programs that run commands named in their options (the command runs locally, here). */
const COMMAND_OPTIONS: Record<string, CommandOptionSpec> = {
  tar: {
    shortWithArg: "bCfFgHIKLNTVX",
    short: { I: "shell", F: "shell" },
    long: {
      "--to-command": "shell",
      "--use-compress-program": "shell",
      "--info-script": "shell",
      "--new-volume-script": "shell",
      "--rsh-command": "program",
    },
    keyed: { "--checkpoint-action": { exec: "shell" } },
    bundled: true,
  },
  man: { shortWithArg: "CMPSemprLRE", short: { P: "shell" }, long: { "--pager": "shell" } },
  ssh: {
    shortWithArg: "BbcDEeFIiJLlmOopQRSWw",
    short: { F: "file" },
    keyed: { "-o": SSH_KEYS },
    operands: 1,
  },
  scp: {
    shortWithArg: "cFiJloPSDX",
    short: { S: "program", F: "file" },
    keyed: { "-o": SSH_KEYS },
  },
  sftp: {
    shortWithArg: "BbcDFiJloPRSs",
    short: { S: "program", D: "program", F: "file" },
    keyed: { "-o": SSH_KEYS },
  },
  rsync: { shortWithArg: "eBfTM", short: { e: "shell" }, long: { "--rsh": "shell" } },
  sort: { shortWithArg: "kotST", long: { "--compress-program": "program" } },
  rg: {
    shortWithArg: "ABCEegfjMmrTtd",
    long: { "--pre": "program", "--hostname-bin": "program" },
    exact: true,
  },
};

/** Every program `innerStages` looks into: one lookup answers the stages that run nothing else. */
const LOOKED_INTO = new Set([
  ...RUNS_OTHERS,
  ...AWKS,
  ...SEDS,
  ...Object.keys(COMMAND_OPTIONS),
  ...Object.keys(CHDIR_OPTIONS),
]);

/** The long option of `names` that `opt` spells (in full, or as a GNU-style abbreviation). */
function longOption<T>(
  names: Record<string, T> | undefined,
  opt: string,
  exact: boolean,
): T | undefined {
  if (!names) return undefined;
  if (Object.hasOwn(names, opt)) return names[opt];
  if (exact || opt.length < 4) return undefined;
  for (const n in names) if (n.startsWith(opt)) return names[n];
  return undefined;
}

/** The commands a program's options name: each value with how it runs. */
function commandOptions(spec: CommandOptionSpec, args: Word[]): [Word, How][] {
  const out: [Word, How][] = [];
  const exact = spec.exact ?? false;
  // A value carried in part of a word: known when the word is static.
  const part = (w: Word, value: string): Word => w.kind === "static" ? literal(value) : w;
  const keyedValue = (keys: Record<string, How>, w: Word) => {
    const m = /^\s*([A-Za-z]+)\s*(?:=\s*|\s+)([\s\S]*)$/.exec(w.value);
    if (w.kind !== "static" && !(m && !Object.hasOwn(keys, m[1].toLowerCase()))) {
      out.push([w, "program"]); // an unknown key may be a command's
    } else if (m && Object.hasOwn(keys, m[1].toLowerCase())) {
      out.push([part(w, m[2]), keys[m[1].toLowerCase()]]);
    }
  };
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (v === "--" && a.kind === "static") break;
    if (!v.startsWith("-") && spec.operands !== undefined && operands++ === spec.operands) break;
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const opt = eq < 0 ? v : v.slice(0, eq);
      if (a.kind !== "static" && eq < 0) {
        // `--to-$X`: the option itself is not known.
        const names = [...Object.keys(spec.long ?? {}), ...Object.keys(spec.keyed ?? {})];
        if (names.some((n) => n.startsWith(opt))) out.push([a, "program"]);
        continue;
      }
      const how = longOption(spec.long, opt, exact);
      const keys = longOption(spec.keyed, opt, exact);
      if (!how && !keys) continue;
      const value = eq >= 0 ? part(a, a.value.slice(eq + 1)) : args[++i];
      if (!value) continue;
      if (how) out.push([value, how]);
      else keyedValue(keys!, value);
      continue;
    }
    const old = i === 0 && spec.bundled && a.kind === "static" && /^[A-Za-z]+$/.test(v);
    if (!old && !(v.startsWith("-") && v.length > 1)) continue;
    const letters = old ? v : v.slice(1);
    for (let j = 0; j < letters.length; j++) {
      const c = letters[j];
      if (!spec.shortWithArg.includes(c)) continue;
      // Old style: each letter's value is the next word, in order; else the rest or the next.
      const rest = letters.slice(j + 1);
      const value = old || (!rest && a.kind === "static") ? args[++i] : part(a, rest);
      const how = spec.short?.[c];
      const keys = spec.keyed?.[`-${c}`];
      if (value && how) out.push([value, how]);
      else if (value && keys) keyedValue(keys, value);
      if (!old) break;
    }
    // `-x$V`: a cluster that goes on unseen may hold a command option.
    if (a.kind !== "static" && (spec.short || spec.keyed)) {
      if (![...letters].some((c) => spec.shortWithArg.includes(c))) out.push([a, "program"]);
    }
  }
  return out;
}

/** What expanding a stage needs: a way to analyse a shell string found inside it. */
export interface ExpandOptions {
  /** Analyse shell text as if it ran in `cwd`; returns its stages (null: it cannot be analysed). */
  analyze(text: string, cwd: string | null, origin: string): Stage[] | null;
  depth: number;
}

function basename(w: Word | undefined): string {
  if (!w || w.kind !== "static") return "";
  return w.value.slice(w.value.lastIndexOf("/") + 1);
}

function derived(stage: Stage, argv: Word[], origin: string, cwds?: (string | null)[]): Stage {
  return {
    argv,
    redirects: stage.redirects,
    text: stage.text,
    origin,
    cwds: cwds ?? stage.cwds,
    piped: stage.piped,
  };
}

/**
 * What an awk or sed program runs and touches, as stages: the shell commands it starts, and one
 * stage of the program with the files it writes and reads as its redirects. A program that cannot
 * be seen is an unknown command.
 */
function scriptStages(
  stage: Stage,
  name: string,
  args: Word[],
  to: { analyze: ExpandOptions["analyze"]; more: (s: Stage) => void; out: Stage[] },
): void {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  const e = AWKS.has(name) ? awkEffects(values) : sedEffects(values);
  const origin = `${name} program`;
  const unknown = (what: string, cwds = stage.cwds) =>
    to.more(derived(stage, [unknownWord(`(${what})`)], origin, cwds));
  if (e.opaque) {
    unknown(e.opaque);
    return;
  }
  for (const c of e.commands) {
    if (c.text === null) {
      unknown(`a command the ${name} program makes`);
      continue;
    }
    // The program runs it with `sh -c` where it runs; fed the program's output, its commands
    // read a pipe (`print | "sh"` runs what it prints), and they share the program's standard
    // input otherwise (`curl … | awk '{"sh" | getline}'`).
    const piped = c.piped || stage.piped === true;
    for (const cwd of stage.cwds) {
      const inner = to.analyze(c.text, cwd, origin);
      if (inner === null) unknown(c.text, [cwd]);
      else for (const s of inner) to.more(piped ? { ...s, piped: true } : s);
    }
  }
  // The program opens names as they are: no `~` expansion (`~/x` is a directory `~` here).
  const file = (f: string | null) =>
    f === null
      ? unknownWord(`(a file the ${name} program names)`)
      : literal(f.startsWith("~") ? "./" + f : f);
  const redirects: Redirect[] = [
    ...e.writes.map((f): Redirect => ({ op: ">", kind: "write", target: file(f) })),
    ...e.reads.map((f): Redirect => ({ op: "<", kind: "read", target: file(f) })),
  ];
  if (redirects.length) to.out.push({ ...derived(stage, [stage.argv[0]], origin), redirects });
}

/** A static word. */
function literal(value: string): Word {
  return { value, kind: "static", prefix: value, text: value };
}

/** A placeholder word for a value the wrapper supplies at run time (xargs input, find's `{}`). */
function unknownWord(text: string, prefix = ""): Word {
  return { value: text, kind: prefix ? "glob" : "dynamic", prefix, text };
}

/**
 * The stages a stage runs besides itself: the command inside a wrapper, `bash -c`/`eval`
 * payloads, `find -exec` commands, `xargs` commands. A stage whose payload cannot be seen gets an
 * `unknown` stage (its command name is dynamic), so it is never allowed.
 */
export function innerStages(stage: Stage, opts: ExpandOptions): Stage[] {
  if (opts.depth > 8) return [derived(stage, [unknownWord("(nested too deep)")], "wrapper")];
  const name = basename(stage.argv[0]);
  const carried = stage.assignments !== undefined &&
    stage.assignments.some((a) => carriesCommand(a.value));
  // Most stages run nothing else: answer them before building anything.
  if (!carried && !LOOKED_INTO.has(name)) return [];
  const args = stage.argv.slice(1);
  const out: Stage[] = [];
  const more = (s: Stage) => {
    out.push(s);
    out.push(...innerStages(s, { ...opts, depth: opts.depth + 1 }));
  };
  const shell = (text: Word, origin: string, cwds = stage.cwds) => {
    if (text.kind !== "static") {
      more(derived(stage, [unknownWord(text.text)], origin, cwds));
      return;
    }
    for (const cwd of cwds) {
      const inner = opts.analyze(text.value, cwd, origin);
      if (inner === null) more(derived(stage, [unknownWord(text.text)], origin, [cwd]));
      else for (const s of inner) more(s);
    }
  };
  /** What the variables a command's environment sets make programs run. */
  const environment = (words: Word[]) => {
    for (const w of words) {
      if (!carriesCommand(w.value)) continue;
      const m = ASSIGNED.exec(w.value)!;
      const variable = m[1];
      let value = w.value.slice(m[0].length);
      const origin = `env ${variable}`;
      if (PROMPT_ENV.test(variable) && w.kind === "static" && !value.includes('"')) {
        // A prompt is expanded as a double-quoted string: its substitutions are its commands.
        // (With a `"` in it, which may be a quote inside a substitution: not read.)
        shell(literal(`: "${value}"`), origin);
      } else if (CODE_ENV.test(variable) || PROMPT_ENV.test(variable)) {
        more(derived(stage, [unknownWord(`(commands ${w.text} brings in)`)], origin));
      } else if (value === "") continue; // an empty pager or editor runs nothing
      else if (PROGRAM_ENV.has(variable)) {
        const program = w.kind === "static" ? literal(value) : unknownWord(w.text);
        more(derived(stage, [program, literal("(its arguments)")], origin));
      } else {
        if (variable.startsWith("LESS")) value = value.replace(/^-?\|\|?/, ""); // `|cmd %s`
        shell(w.kind === "static" ? literal(value) : { ...w, value }, origin);
      }
    }
  };
  /** A command some option names (see `How`). */
  const command = (value: Word, how: How, origin: string) => {
    if (how === "shell") shell(value, origin);
    else if (how === "program") {
      more(derived(stage, [value, literal("(its arguments)")], origin));
    } else if (!(value.kind === "static" && value.value === "/dev/null")) {
      more(derived(stage, [unknownWord(`(commands the file ${value.text} may hold)`)], origin));
    }
  };
  if (carried) environment(stage.assignments!);
  if (Object.hasOwn(CHDIR_OPTIONS, name)) {
    // `git -C dir`, `make -C dir`, `tar -C dir`: the command also runs there, so its relative
    // paths name files below dir (judged as well as where they would be from the cwd).
    const moved = chdirOptions(CHDIR_OPTIONS[name], args, stage.cwds);
    if (moved) {
      out.push(derived(stage, stage.argv, `${name} ${CHDIR_OPTIONS[name].options[0]}`, moved));
    }
  }
  if (Object.hasOwn(COMMAND_OPTIONS, name)) {
    for (const [value, how] of commandOptions(COMMAND_OPTIONS[name], args)) {
      command(value, how, `${name} option`);
    }
    return out;
  }
  if (AWKS.has(name) || SEDS.has(name)) {
    scriptStages(stage, name, args, { analyze: opts.analyze, more, out });
    return out;
  }
  if (!RUNS_OTHERS.has(name)) return out;
  if (Object.hasOwn(WRAPPERS, name)) {
    const w = WRAPPERS[name];
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
          more(derived(stage, [unknownWord(next.text)], `wrapper:${name}`, cwds));
          return out;
        }
        break;
      }
      if (w.noRun?.includes(v)) return out;
      if (w.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(v)) {
        environment([a]);
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
          shell(value, `wrapper:${name}`, cwds);
          return out;
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
              shell(value, `wrapper:${name}`, cwds);
              return out;
            }
            break;
          }
        }
        if (name === "sudo" && /^-[^-]*[si]/.test(v) && !/^-[^-]*[ugCDhprtTU]/.test(v)) {
          // sudo -s / -i with a command runs it through a shell.
          const rest = args.slice(i + 1);
          if (rest.length) {
            more(derived(stage, rest, "wrapper:sudo", cwds));
            return out;
          }
          more(derived(stage, [unknownWord("(interactive shell)")], "wrapper:sudo", cwds));
          return out;
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
    // `env -- A=1 rm` runs `rm`.
    while (
      w.assignments && i < args.length && args[i].kind === "static" &&
      /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i].value)
    ) environment([args[i++]]);
    const rest = args.slice(i);
    if (rest.length) more(derived(stage, rest, `wrapper:${name}`, cwds));
    else if (name === "sudo" || name === "doas" || name === "exec") {
      // A bare sudo or exec runs nothing we can see.
    }
    return out;
  }
  if (name === "watch") {
    // watch runs its arguments through `sh -c` (with -x/--exec: directly).
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
    if (!rest.length) return out;
    if (exec) more(derived(stage, rest, "watch"));
    else {
      const dynamic = rest.some((w) => w.kind !== "static");
      const text = rest.map((w) => w.value).join(" ");
      shell({ value: text, kind: dynamic ? "dynamic" : "static", prefix: "", text }, "watch");
    }
    return out;
  }
  if (name === "trap" && args[0] && !(args[0].kind === "static" && /^-/.test(args[0].value))) {
    shell(args[0], "trap"); // the handler runs later, in this shell
    return out;
  }
  if (name === "git") {
    // `git -c key=value`: some settings are commands git runs (pagers, editors, aliases, drivers).
    const aliases = new Map<string, string>();
    const setting = (kv: Word, origin: string) => {
      const eq = kv.value.indexOf("=");
      const key = (eq < 0 ? kv.value : kv.value.slice(0, eq)).toLowerCase();
      if (!GIT_COMMAND_KEYS.test(key)) return;
      const value = eq < 0 ? "" : kv.value.slice(eq + 1);
      gitSetting(key, value, kv, origin);
    };
    const gitSetting = (key: string, value: string, from: Word, origin: string) => {
      if (key === "core.hookspath") {
        more(derived(stage, [unknownWord(`(hooks in ${value})`)], origin));
      } else if (key.startsWith("alias.") && !value.startsWith("!") && from.kind === "static") {
        aliases.set(key.slice(6), value); // `git -c alias.p=push p` runs `git push`
      } else {
        const text = value.replace(/^!/, "");
        shell(from.kind === "static" ? literal(text) : { ...from, value: text }, origin);
      }
    };
    let i = 0;
    for (; i < args.length; i++) {
      const a = args[i];
      const v = a.kind === "static" ? a.value : "";
      if (a.kind === "static" && !v.startsWith("-")) break; // the subcommand
      if (v === "-c" && args[i + 1]) setting(args[++i], "git -c");
      else if (v === "--config-env" || v.startsWith("--config-env=")) {
        // `--config-env=key=VAR`: the value comes from the environment, unseen.
        const kv = v === "--config-env" ? args[++i] : literal(v.slice(13));
        if (kv) setting({ ...kv, kind: "dynamic" }, "git --config-env");
      } else if (v.startsWith("--exec-path=")) {
        more(derived(stage, [unknownWord(`(git programs in ${v.slice(12)})`)], "git"));
      } else if (GIT_VALUED_OPTIONS.has(v)) i++;
    }
    const sub = args[i]?.kind === "static" ? args[i].value : "";
    const rest = args.slice(i + 1);
    if (aliases.has(sub)) {
      const text = ["git", aliases.get(sub), ...rest.map((w) => w.text)].join(" ");
      shell(literal(text), "git alias");
    } else if (sub === "grep") {
      // `git grep -O<cmd>` opens the files it found with the command.
      for (const w of rest) {
        const m = /^(?:-O|--open-files-in-pager=)(.+)$/s.exec(w.value);
        if (m) shell(w.kind === "static" ? literal(m[1]) : { ...w, value: m[1] }, "git grep -O");
      }
    } else if (sub === "config") {
      // `git config [set] key value` saves a command for git to run later.
      const operands: Word[] = [];
      for (let j = 0; j < rest.length; j++) {
        const v = rest[j].kind === "static" ? rest[j].value : "";
        if (/^(-f|--file|--blob|--type|--default|--comment|--value)$/.test(v)) j++;
        else if (!v.startsWith("-") || rest[j].kind !== "static") operands.push(rest[j]);
      }
      if (operands[0]?.value === "set") operands.shift();
      const [key, value] = operands;
      if (key?.kind === "static" && value && GIT_COMMAND_KEYS.test(key.value.toLowerCase())) {
        gitSetting(key.value.toLowerCase(), value.value, value, "git config");
      }
    }
    return out;
  }
  if (DECLARATIONS.has(name)) {
    // `export PAGER=…`, `declare -x EDITOR=…`: later programs of this shell run the value.
    environment(args);
    return out;
  }
  if (name === "fd" || name === "fdfind") {
    // fd -x / -X run a command (its words up to `;`) on what it finds, below its paths.
    for (let i = 0; i < args.length; i++) {
      const v = args[i].kind === "static" ? args[i].value : "";
      if (!/^(-x|--exec|-X|--exec-batch)$/.test(v)) continue;
      const cmd: Word[] = [];
      let j = i + 1;
      for (; j < args.length && !(args[j].kind === "static" && args[j].value === ";"); j++) {
        cmd.push(args[j]);
      }
      if (cmd.length) more(derived(stage, [...cmd, unknownWord("(what fd found)")], `fd ${v}`));
      i = j;
    }
    return out;
  }
  if (name === "parallel") {
    // GNU parallel: the command comes before `:::`; what follows (or stdin) fills it in.
    const end = args.findIndex((a) => a.kind === "static" && /^:::+$/.test(a.value));
    const cmd = xargsCommand(end >= 0 ? args.slice(0, end) : args);
    if (cmd.length) more(derived(stage, [...cmd, unknownWord("(parallel input)")], "parallel"));
    return out;
  }
  if (name === "at" || name === "batch") {
    // Commands come from stdin (or -f FILE): a heredoc or here-string we can read, else unknown.
    const doc = stage.redirects.find((r) => r.kind === "heredoc" || r.kind === "herestring");
    if (doc?.body) shell(doc.body, name);
    else more(derived(stage, [unknownWord("(commands for later)")], name));
    return out;
  }
  if (name === "su" || name === "runuser" || name === "script") {
    const c = args.findIndex((a) =>
      a.kind === "static" && (/^-[a-zA-Z]*c$/.test(a.value) || a.value === "--command")
    );
    if (c >= 0 && args[c + 1]) shell(args[c + 1], `wrapper:${name}`);
    else if (name !== "script") {
      more(derived(stage, [unknownWord("(interactive shell)")], `wrapper:${name}`));
    }
    return out;
  }
  if (name === "alias") {
    // An alias may run later in the same shell (with expand_aliases): judge its text now.
    for (const a of args) {
      const eq = a.value.indexOf("=");
      if (eq <= 0) continue;
      const body = a.value.slice(eq + 1);
      shell(a.kind === "static" ? literal(body) : { ...a, value: body }, "alias");
    }
    return out;
  }
  if (name === "eval") {
    const words = args;
    if (words.length) {
      const dynamic = words.some((w) => w.kind !== "static");
      const text = words.map((w) => w.value).join(" ");
      shell({ value: text, kind: dynamic ? "dynamic" : "static", prefix: "", text }, "eval");
    }
    return out;
  }
  if (name === "source" || name === ".") {
    // The file's commands are not visible here: treat the stage as running anything.
    if (args.length) more(derived(stage, [unknownWord(`(commands of ${args[0].text})`)], "source"));
    return out;
  }
  if (SHELLS.has(name)) {
    const payload = shellPayload(args);
    if (payload === "script") {
      more(
        derived(stage, [
          unknownWord(`(script ${args.find((a) => !a.value.startsWith("-"))?.text ?? ""})`),
        ], `shell:${name}`),
      );
    } else if (payload) shell(payload, `shell:${name}`);
    else {
      // Commands from stdin: a heredoc or here-string we can read, else a pipe or a file we
      // cannot (`bash < script.sh` runs the script, `bash < <(curl …)` what curl fetches).
      const doc = stage.redirects.find((r) => r.kind === "heredoc" || r.kind === "herestring");
      const input = stage.redirects.find((r) =>
        (r.kind === "read" || r.kind === "dup") && /^0?<(&|>)?$/.test(r.op) &&
        !(r.target?.kind === "static" && r.target.value === "/dev/null")
      );
      if (doc?.body) shell(doc.body, `shell:${name} <<`);
      else if (input) {
        const from = input.target?.text ?? input.op;
        more(derived(stage, [unknownWord(`(commands of ${from})`)], `shell:${name}`));
      } else if (doc || stage.piped) {
        more(derived(stage, [unknownWord("(commands from stdin)")], `shell:${name}`));
      }
    }
    return out;
  }
  if (name === "xargs") {
    const cmd = xargsCommand(args);
    const run = cmd.length ? cmd : [literal("echo")];
    more(derived(stage, [...run, unknownWord("(xargs input)")], "xargs"));
    return out;
  }
  if (name === "find") {
    const roots: string[] = [];
    for (const a of args) {
      if (a.kind !== "static" || /^[-(!]/.test(a.value)) break;
      roots.push(a.value);
    }
    if (!roots.length) roots.push(".");
    for (let i = 0; i < args.length; i++) {
      const v = args[i].kind === "static" ? args[i].value : "";
      if (v !== "-exec" && v !== "-execdir" && v !== "-ok" && v !== "-okdir") continue;
      const cmd: Word[] = [];
      let j = i + 1;
      for (; j < args.length; j++) {
        const x = args[j];
        if (x.kind === "static" && (x.value === ";" || x.value === "+")) break;
        if (x.kind === "static" && x.value.includes("{}")) {
          for (const r of roots) cmd.push(unknownWord(x.value, r.endsWith("/") ? r : r + "/"));
        } else cmd.push(x);
      }
      if (cmd.length) more(derived(stage, cmd, `find ${v}`));
      i = j;
    }
    return out;
  }
  return out;
}

function chdir(cwds: (string | null)[], dir: Word): (string | null)[] {
  if (dir.kind !== "static") return [null];
  return cwds.map((c) => (c === null ? null : cdInto(c, dir.value, true)[0]));
}

/** Where an eval flag stands in a cluster of short options, or -1 (a valued letter ends it). */
function clusterEval(letters: string, interp: { flags: string[]; valued?: string }): number {
  // (An eval flag that ends the cluster takes the next word, even after another: `node -pe`.)
  const last = letters.length - 1;
  if (
    last > 0 && interp.flags.includes(`-${letters[last]}`) &&
    ![...letters.slice(0, last)].some((c) => interp.valued?.includes(c))
  ) {
    return last;
  }
  for (let i = 0; i < letters.length; i++) {
    if (interp.flags.includes(`-${letters[i]}`)) return i;
    if (interp.valued?.includes(letters[i])) return -1;
  }
  return -1;
}

/** The `-c` string of a shell invocation, "script" for `sh file`, or null (stdin). */
function shellPayload(args: Word[]): Word | "script" | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") return a;
    if (a.value === "--") return args[i + 1] ? "script" : null;
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(a.value)) {
      // -c in any cluster (-c, -lc, -ec): the command string is the first operand after the options.
      for (let j = i + 1; j < args.length; j++) {
        if (args[j].kind === "static" && /^([-+][A-Za-z]+|--)$/.test(args[j].value)) continue;
        if (args[j].kind === "static" && args[j].value === "-o") {
          j++;
          continue;
        }
        return args[j];
      }
      return null;
    }
    if (a.value === "-o" || a.value === "+o" || a.value === "-O" || a.value === "+O") {
      i++;
      continue;
    }
    if (/^[-+]/.test(a.value)) {
      if (a.value === "-s" || a.value.endsWith("s")) return null;
      continue;
    }
    return "script";
  }
  return null;
}

const XARGS_WITH_ARG = "adEeIiLlnPs";
function xargsCommand(args: Word[]): Word[] {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") return args.slice(i);
    const v = a.value;
    if (v === "--") return args.slice(i + 1);
    if (v.startsWith("--")) {
      if (
        !v.includes("=") &&
        [
          "--arg-file",
          "--delimiter",
          "--eof",
          "--replace",
          "--max-lines",
          "--max-args",
          "--max-procs",
          "--max-chars",
          "--process-slot-var",
        ].includes(v)
      ) i++;
      continue;
    }
    if (v.startsWith("-") && v.length > 1) {
      const c = v[1];
      // -i, -e and -l take an optional attached value only; the others take the next word.
      if (XARGS_WITH_ARG.includes(c) && v.length === 2 && !"iel".includes(c)) i++;
      continue;
    }
    return args.slice(i);
  }
  return [];
}

/** The inline code eval of a stage, if it is one. */
export function evalShape(stage: Stage): EvalShape | null {
  const name = basename(stage.argv[0]);
  const interp = (Object.hasOwn(INTERPRETERS, name) ? INTERPRETERS[name] : undefined) ??
    (name.startsWith("python3.") && /^python3\.\d+$/.test(name) ? INTERPRETERS.python3 : undefined);
  const shell = SHELLS.has(name);
  if (!shell && !interp) return null;
  const args = stage.argv.slice(1);
  if (shell) {
    const payload = shellPayload(args);
    if (payload && payload !== "script") {
      return {
        interpreter: name,
        language: "shell",
        via: "-c",
        source: payload.kind === "static" ? payload.value : null,
      };
    }
    return null;
  }
  if (!interp) return null;
  if (interp.subcommand) {
    if (args[0]?.kind === "static" && args[0].value === interp.subcommand) {
      const code = args.slice(1).find((a) => !(a.kind === "static" && a.value.startsWith("-")));
      return {
        interpreter: name,
        language: interp.language,
        via: interp.subcommand,
        source: code && code.kind === "static" ? code.value : null,
      };
    }
    return null;
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") break;
    const v = a.value;
    // A cluster of short options with an eval flag (`perl -ne`, `python3 -Sc`, `node -pe`,
    // `perl -nex`): its code is the rest of the cluster, or the next word when the flag ends
    // it. (A letter that takes a value ends the options of the cluster: `perl -Mexperimental`.)
    const letters = /^-[A-Za-z0-9]{2,}$/.test(v) ? v.slice(1) : "";
    const at = clusterEval(letters, interp);
    if (at >= 0) {
      const code = at === letters.length - 1 ? args[i + 1] : literal(letters.slice(at + 1));
      return {
        interpreter: name,
        language: interp.language,
        via: `-${letters[at]}`,
        source: code && code.kind === "static" ? code.value : null,
      };
    }
    const flag = interp.flags.find((f) =>
      v === f || (f.length === 2 && v.startsWith(f) && !v.startsWith("--")) || v.startsWith(f + "=")
    );
    if (flag) {
      const inline = v === flag
        ? null
        : v.slice(v.startsWith(flag + "=") ? flag.length + 1 : flag.length);
      const code = inline !== null ? literal(inline) : args[i + 1];
      return {
        interpreter: name,
        language: interp.language,
        via: flag,
        source: code && code.kind === "static" ? code.value : null,
      };
    }
    if (v === "-m") return null; // a module run, not inline code
    if (!v.startsWith("-")) return null; // a script file
    if (v === "-") break;
  }
  // No script: code from a heredoc or here-string, else from a pipe.
  const doc = stage.redirects.find((r) => r.kind === "heredoc" || r.kind === "herestring");
  if (doc) {
    return {
      interpreter: name,
      language: interp.language,
      via: doc.kind,
      source: doc.body && doc.body.kind === "static" ? doc.body.value : null,
    };
  }
  if (stage.piped) {
    return { interpreter: name, language: interp.language, via: "stdin", source: null };
  }
  return null;
}
