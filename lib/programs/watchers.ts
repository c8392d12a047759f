/**
 * Watchers: programs that run a command again and again, at an interval or each time a file
 * changes (watch, entr, watchexec), each with the way it reads its own options and runs the
 * command (through `sh -c`, or as it is).
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { Program, Runner } from "./spec.ts";
import { commandLine, literal, optionValue, unknownWord } from "./words.ts";
import { shlexWords } from "./project_settings.ts";

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

/**
 * entr runs its utility each time a file it watches (the list on its standard input) changes;
 * with `-s` the utility is a shell command (which finds that file in `$0`). Its first argument
 * that is `/_` is replaced with the path of the file that changed (entr.c): one of the files
 * the stage writing its input lists (`find src | entr cat /_`: a path below src), else a file
 * not known (`echo secrets/key | entr cat /_`).
 */
function entr(stage: Stage, run: Runner): void {
  const { at, shell, changed } = entrWords(stage.argv);
  const rest = stage.argv.slice(at);
  if (!rest.length) return;
  if (shell) return run.shell(rest[0], "wrapper:entr");
  if (changed < 0) return run.stage(rest, "wrapper:entr");
  // (One stage for each path the changed file may be, as for xargs's lines; a name with blanks
  // is one line, one file.)
  const listed = run.listed()?.map((
    w,
  ) => (w.listed ? { ...w, listed: { ...w.listed, whole: true as const } } : w)) ??
    [unknownWord("(a file entr watches)")];
  const i = changed - at;
  for (const file of listed) {
    run.stage([...rest.slice(0, i), file, ...rest.slice(i + 1)], "wrapper:entr");
  }
}

/**
 * Where entr's utility starts in its words (`argv.length`: none), whether `-s` runs it through
 * a shell, and where the `/_` is that entr replaces (-1: none).
 */
function entrWords(argv: Word[]): { at: number; shell: boolean; changed: number } {
  let shell = false;
  let at = 1;
  for (; at < argv.length; at++) {
    const w = argv[at];
    // (getopt's: `--` ends its options.)
    if (w.kind === "static" && w.value === "--") {
      at++;
      break;
    }
    if (w.kind !== "static" || !/^-[acdnprsxz]+$/.test(w.value)) break;
    if (w.value.includes("s")) shell = true;
  }
  const changed = shell
    ? -1
    : argv.findIndex((w, n) => n > at && w.kind === "static" && w.value === "/_");
  return { at, shell, changed };
}

/** watchexec's options (the command after them runs through a shell, unless `-n`). */
const WATCHEXEC: OptionGrammar = {
  valued: "wefidsEW",
  // deno-fmt-ignore
  longValued: new Set(["--watch", "--exts", "--filter", "--ignore", "--debounce", "--signal", "--shell", "--env", "--on-busy-update", "--stop-signal", "--stop-timeout", "--delay-run", "--poll", "--project-origin", "--workdir", "--emit-events-to", "--filter-file", "--ignore-file", "--color", "--watch-non-recursive", "--fs-events", "--timings"]),
  // deno-fmt-ignore
  longFlags: new Set(["--restart", "--clear", "--postpone", "--no-vcs-ignore", "--no-project-ignore", "--no-global-ignore", "--no-default-ignore", "--no-discover-ignore", "--notify", "--verbose", "--print-events", "--quiet", "--bell", "--only-emit-events", "--wrap-process", "--no-process-group", "--help", "--version"]),
};

/**
 * watchexec runs its command each time a watched file changes: through a shell (its words joined,
 * as a shell line), or as it is with `-n`/`--shell=none`. After an option it does not know, each
 * later word may begin the command.
 */
function watchexec(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  let direct = false;
  let shell: Word | undefined;
  for (const t of readOptions(values, WATCHEXEC)) {
    if (t.kind === "flag" && t.name === "-n") direct = true;
    if (t.kind === "valued" && t.name === "--shell") {
      shell = optionValue(t, args);
      direct = shell?.value === "none";
    }
    if (t.kind === "unknown" && t.glued === undefined) {
      for (let i = t.at + 1; i < args.length; i++) run.stage(args.slice(i), "wrapper:watchexec");
      return;
    }
    if (t.kind === "operand" || t.kind === "dynamic" || t.kind === "end") {
      const rest = args.slice(t.kind === "end" ? t.at + 1 : t.at);
      if (!rest.length) return;
      if (direct) run.stage(rest, "wrapper:watchexec");
      else if (shell) customShell(shell, commandLine(rest, "joined"), run);
      else run.shell(commandLine(rest, "joined"), "wrapper:watchexec");
      return;
    }
  }
}

/**
 * watchexec's `--shell=SHELL`: SHELL split into a program and its arguments (at blanks; newer
 * versions may read quotes as a shell does: both are judged), then `-c` and the command line.
 */
function customShell(shell: Word, line: Word, run: Runner): void {
  const origin = "wrapper:watchexec --shell";
  if (shell.kind !== "static") {
    run.stage([unknownWord(`(the shell ${shell.text})`), literal("-c"), line], origin);
    return;
  }
  const blanks = shell.value.split(/\s+/).filter((w) => w !== "");
  const quoted = shlexWords(shell.value);
  for (
    const words of quoted && quoted.join("\0") !== blanks.join("\0") ? [blanks, quoted] : [blanks]
  ) {
    if (words.length) run.stage([...words.map(literal), literal("-c"), line], origin);
  }
  if (quoted === null) run.stage([unknownWord(`(the shell ${shell.text})`)], origin);
}

/** The watchers, for the registry (through the wrappers' list). */
export const WATCHER_PROGRAMS: Program[] = [
  { names: ["watch"], runs: watch },
  {
    names: ["entr"],
    runs: entr,
    // (It opens no file its words name: they are its utility's, a stage of their own.)
    noFileOperands: true,
    // (Its `/_` is the file that changed: a word to replace, no path of its own.)
    text: (argv) => {
      const { changed } = entrWords(argv);
      return changed < 0 ? [] : [changed];
    },
  },
  { names: ["watchexec"], runs: watchexec },
];
