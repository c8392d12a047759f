/**
 * perf runs a command: `perf stat|record|trace [options] CMD`, and the subcommands whose
 * `record` runs perf record with their events (`perf sched|mem|lock|kmem|c2c|kvm|kwork|timechart
 * record CMD`, `perf stat record CMD`, `perf trace record CMD`, `perf kvm stat record CMD`,
 * `perf script record NAME CMD`): the command is after their words and options.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { How, NamedFile, Runner } from "./spec.ts";
import { configEntries } from "./git_config.ts";
import { literal, unknownWord } from "./words.ts";

/** How perf's options are read before its command (a wrapper's spec, wrappers.ts). */
interface PerfSpec {
  shortWithArg: string;
  gluedOnly?: string;
  longWithArg: string[];
  longFlags: string[];
  operands: number;
  commands: Record<string, How>;
}

/**
 * The options whose value is a command line perf stat runs before and after each run, through
 * the shell (`system(3)`: builtin-stat.c); perf's parse-options takes any prefix of one that is
 * of no other (`--pr` is `--pre`).
 */
const PERF_COMMANDS: Record<string, How> = { "--pre": "line", "--post": "line" };

/** perf's long options (those of stat, record and trace). */
// deno-fmt-ignore
const PERF_LONG_VALUED = ["--event", "--output", "--pid", "--tid", "--repeat", "--cpu", "--cgroup",
  "--count", "--freq", "--mmap-pages", "--delay", "--field-separator", "--post", "--pre",
  "--call-graph", "--uid", "--filter", "--control", "--metrics", "--interval-print", "--realtime",
  "--branch-filter", "--clockid", "--input", "--pf", "--bpf-prog", "--type", "--ldlat", "--guestmount",
  "--guestkallsyms", "--guestmodules", "--guestvmlinux"];
// deno-fmt-ignore
const PERF_LONG_FLAGS = ["--all-cpus", "--no-inherit", "--scale", "--detailed", "--verbose",
  "--quiet", "--append", "--big-num", "--no-big-num", "--no-aggr", "--per-socket", "--per-core",
  "--per-thread", "--stat", "--no-buildid", "--no-buildid-cache", "--raw-samples", "--null",
  "--sync", "--transaction", "--json-output", "--group", "--branch-any", "--data", "--period",
  "--no-samples", "--timestamp", "--weight", "--force", "--summary", "--with-summary", "--time"];

/** A perf subcommand's options: the letters that take a value, those that take one only glued. */
function perfSpec(valued: string, gluedOnly: string, operands = 1): PerfSpec {
  return {
    shortWithArg: valued,
    gluedOnly: gluedOnly || undefined,
    longWithArg: PERF_LONG_VALUED,
    longFlags: PERF_LONG_FLAGS,
    operands,
    commands: PERF_COMMANDS,
  };
}

/** perf stat's, record's and trace's options (`perf stat -h`): `-n`, `-c`, `-T`, `-s` are flags. */
const PERF: Record<string, PerfSpec> = {
  stat: perfSpec("bCDeGIMoprtx", ""),
  record: perfSpec("cCDeFGjkmoprtu", "ISz"),
  trace: perfSpec("CDeFGimoptu", ""),
};

/** Any subcommand's options (another's letters are read as any of theirs). */
const ANY = perfSpec("bcCDeFGiIjkmMoprtux", "");

/**
 * perf mem's and c2c's own options before record's (`perf mem record -D`, `-p`, `perf c2c record
 * -k`, `-u` are flags there, record's take a value): both readings are judged.
 */
const OWN: Record<string, string> = { mem: "etCx", c2c: "e" };

/** What perf's own options, before its subcommand, say (perf.c `handle_options`). */
export interface PerfOwn {
  /**
   * The words from the subcommand on, after perf's name (`--help`, `-h` read as `help`, `-v`,
   * `-vv` as `version`, as perf does); null where an option makes perf print and exit
   * (`--exec-path` without `=DIR`, `--html-path`, `--list-cmds`, `--list-opts`, a value missing).
   */
  argv: Word[] | null;
  /** `--exec-path=DIR`: perf finds its programs there, and puts DIR first in the PATH. */
  execPaths: Word[];
  /** `--buildid-dir DIR` (and `=DIR`): the build-id cache perf writes below. */
  buildidDirs: Word[];
}

/** perf's own options that take the next word (`--debugfs-dir=DIR` also glued). */
const OWN_VALUED = new Set(["--debugfs-dir", "--buildid-dir", "--debug"]);
/** perf's own options that print and exit. */
const OWN_EXITS = new Set(["--html-path", "--list-cmds", "--list-opts"]);
/** perf's own options that change nothing judged here. */
const OWN_FLAGS = new Set(["-p", "--paginate", "--no-pager"]);
/** The words perf reads as a help or version subcommand (`--help`, `-vv`). */
const OWN_SUB: Record<string, string> = {
  "--help": "help",
  "-h": "help",
  "--version": "version",
  "-v": "version",
  "-vv": "version",
};

/**
 * perf's own options before its subcommand, read as perf.c does (each option a word of its own,
 * `--exec-path` any word it starts; see `PerfOwn`). A word not known, or an option perf does not
 * know (it then exits, or a perf of another version reads it), ends them: the subcommand's
 * readings see it.
 */
export function perfOwn(argv: Word[]): PerfOwn {
  const own: PerfOwn = { argv: null, execPaths: [], buildidDirs: [] };
  let i = 1;
  for (; i < argv.length; i++) {
    const w = argv[i];
    const v = w.kind === "static" ? w.value : "";
    if (!v.startsWith("-") || Object.hasOwn(OWN_SUB, v)) break;
    if (v.startsWith("--exec-path")) {
      if (v[11] !== "=") return own;
      own.execPaths.push(literal(v.slice(12)));
    } else if (OWN_EXITS.has(v)) return own;
    else if (OWN_VALUED.has(v)) {
      if (++i >= argv.length) return own;
      if (v === "--buildid-dir") own.buildidDirs.push(argv[i]);
    } else if (v.startsWith("--buildid-dir=")) own.buildidDirs.push(literal(v.slice(14)));
    else if (!OWN_FLAGS.has(v) && !v.startsWith("--debugfs-dir=")) break;
  }
  const sub = argv[i]?.kind === "static" ? OWN_SUB[argv[i].value] : undefined;
  own.argv = [argv[0], ...(sub ? [literal(sub)] : []), ...argv.slice(sub ? i + 1 : i)];
  return own;
}

/** The stage perf's subcommand makes: its own options taken out; null where perf runs none. */
export function perfStage(stage: Stage): Stage | null {
  const argv = perfOwn(stage.argv).argv;
  return argv === null ? null : argv.length === stage.argv.length ? stage : { ...stage, argv };
}

/**
 * The readings of perf's options before its command: the subcommand's (after perf's own
 * options), and for `perf SUB record` (`perf kvm stat record`, `perf script record NAME`) record's
 * (stat's for `perf stat record`) after those words, and the subcommand's own too.
 */
export function perfSpecs(argv: Word[]): PerfSpec[] {
  const words = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  const at = words.findIndex((v) => v === null || !v.startsWith("-"));
  const sub = at < 0 ? null : words[at];
  let record = -1;
  for (let i = at + 1; at >= 0 && i < words.length && i <= at + 2; i++) {
    if (words[i] === "record") record = i;
    if (words[i] !== "stat") break;
  }
  if (sub === null || record < 0) return [sub && Object.hasOwn(PERF, sub) ? PERF[sub] : ANY];
  const operands = record - at + 1 + (sub === "script" ? 1 : 0);
  const base = sub === "stat" ? PERF.stat : PERF.record;
  const specs = [{ ...base, operands }];
  if (Object.hasOwn(OWN, sub)) specs.push(perfSpec(OWN[sub], "", operands));
  return specs;
}

/**
 * The options of perf's subcommands whose value is a program it runs, and how: `--objdump=PATH`
 * (report, annotate, top, kvm report|top) is put at the start of a shell line, run as `/bin/sh -c
 * "OBJDUMP … \"$1\"" -- FILE` (annotate.c); `--addr2line=PATH` and record's `--clang-path=PATH`
 * are run as programs with arguments of perf's own.
 */
const RUN_OPTIONS: Record<string, How> = {
  "--objdump": "shell",
  "--addr2line": "program",
  "--clang-path": "program",
};

/**
 * Each subcommand's long options that share a first letter with those of `RUN_OPTIONS` it takes
 * (`perf SUB -h`): perf's parse-options takes any prefix of one option and no other (`perf report
 * --o=CMD` is `--objdump`; `perf top --o` is none).
 */
// deno-fmt-ignore
const PREFIXED: Record<string, string[]> = {
  report: ["--objdump", "--addr2line", "--asm-raw"],
  annotate: ["--objdump", "--addr2line", "--asm-raw"],
  top: ["--objdump", "--addr2line", "--asm-raw", "--overwrite", "--all-cgroups", "--all-cpus"],
  record: ["--clang-path", "--clang-opt", "--clockid", "--call-graph", "--cgroup",
    "--code-page-size", "--compression-level", "--control", "--count", "--cpu"],
};
PREFIXED.kvm = PREFIXED.top;

/** The option of `options` that `written` (`--o`) is a prefix of and of no other, if any. */
function prefixOf(written: string, options: readonly string[]): string | null {
  const all = options.filter((o) => o.startsWith(written));
  return written.length > 2 && all.length === 1 ? all[0] : null;
}

/**
 * The keys of perf's settings (`~/.perfconfig`, `$PERF_CONFIG`) that name programs it runs, and
 * whether it runs each as a shell line: `annotate.objdump`, `annotate.addr2line`,
 * `llvm.clang-path`, `llvm.clang-bpf-cmd-template`, `man.<viewer>.cmd` and `.path` (`perf help`),
 * in any section. perf reads the file with its copy of git's reader (tools/perf/util/config.c):
 * names in any case, values quoted, escaped, with comments (`; x`, `# x`), on a header's line.
 */
const CONFIG_COMMAND: Record<string, boolean> = {
  objdump: true,
  addr2line: false,
  "clang-path": false,
  "clang-bpf-cmd-template": true,
  cmd: true,
  path: false,
};

/**
 * The commands perf's options and settings name (`optionCommands`): see `RUN_OPTIONS` and
 * `CONFIG_COMMAND`. A settings file that cannot be known (or read) is a command not known.
 */
export function perfCommands(stage: Stage, run: Runner): void {
  const own = perfOwn(stage.argv);
  for (const dir of own.execPaths) {
    // (As `PERF_EXEC_PATH` does: `perf archive` runs DIR/perf-archive, `perf stat ls` DIR/ls.)
    run.stage([unknownWord(`(perf's programs in ${dir.value})`)], "perf");
  }
  const args = own.argv?.slice(1) ?? [];
  const sub = args.find((w) => w.kind !== "static" || !w.value.startsWith("-"));
  const options = sub?.kind === "static" ? PREFIXED[sub.value] : undefined;
  for (let i = 0; options && i < args.length; i++) {
    const w = args[i];
    if (w.kind === "static" && w.value === "--") break;
    const m = w.kind === "static" ? /^(--[a-z0-9-]+)(=?)(.*)$/s.exec(w.value) : null;
    const name = m && prefixOf(m[1], options);
    if (!m || !name || !(name in RUN_OPTIONS)) continue;
    const value = m[2] ? literal(m[3]) : args[++i];
    if (value) run.command(value, RUN_OPTIONS[name], "perf");
  }
  const home = run.home(null);
  const file = run.variable("PERF_CONFIG") ?? (home === null ? null : `${home}/.perfconfig`);
  if (file === "/dev/null") return;
  const text = file === null ? null : run.settings(file);
  if (text === null) {
    run.stage([unknownWord(`(the commands ${file ?? "~/.perfconfig"} may name)`)], "perf");
    return;
  }
  // (A file perf finds broken: what it makes of it is not known here.)
  const entries = configEntries(text, { underscore: true });
  if (entries === null) {
    run.stage([unknownWord(`(the commands ${file} may name)`)], "perf");
    return;
  }
  for (const { key, value } of entries) {
    if (!Object.hasOwn(CONFIG_COMMAND, key) || value === null) continue;
    run.command(literal(value), CONFIG_COMMAND[key] ? "shell" : "program", "perf");
  }
}

/**
 * The files perf's options say it writes: `-o`/`--output` (stat, record, trace, inject,
 * timechart, kvm), `perf data convert --to-json FILE`/`--to-ctf DIR`, the script `perf script
 * -g LANG` (`--gen-script`) makes in the cwd (`perf-script.py`, `.pl`), and the settings file
 * `perf config KEY=VALUE` writes.
 */
export function perfFiles(words: Word[]): NamedFile[] {
  const own = perfOwn(words);
  const out: NamedFile[] = own.buildidDirs.map((dir) => ({
    path: dir.kind === "static" ? dir.value : null,
    source: "--buildid-dir",
    below: true,
  }));
  const argv = own.argv ?? [];
  if (argv[1]?.value === "config" && argv.slice(2).some((w) => w.value.includes("="))) {
    // (`perf config [--user|--system] KEY=VALUE…` sets them in its settings file.)
    const system = argv.some((w) => w.value === "--system");
    out.push({ path: system ? "/etc/perfconfig" : "~/.perfconfig", source: "perf config" });
  }
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind === "static" && w.value === "--") break;
    const m = w.kind === "static"
      ? /^(?:(-o|-g)|(--output|--to-json|--to-ctf|--gen-script)(?:=|$))(.*)$/s.exec(w.value)
      : null;
    if (!m) continue;
    const name = m[1] ?? m[2];
    const glued = m[3] !== "" || w.value.includes("=");
    const next = argv[i + 1];
    const value = glued ? m[3] : next?.kind === "static" ? (i++, next.value) : null;
    if (name === "-g" || name === "--gen-script") {
      if (argv[1]?.value !== "script") continue;
      const lang = value ?? "";
      out.push({
        path: /^(perl|pl)$/i.test(lang) ? "perf-script.pl" : "perf-script.py",
        source: name,
      });
    } else out.push({ path: value, source: name });
  }
  return out;
}
