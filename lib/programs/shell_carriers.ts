/**
 * Programs that run the command lines they are given through a shell: `hyperfine 'CMD'…` (and its
 * `--setup`, `--prepare`, `--conclude`, `--cleanup`, `--reference` lines; `-S SHELL` names the
 * shell), `nodemon --exec CMD`, `concurrently 'CMD'…` (and `--teardown`; `npm:script` is `npm run
 * script`) and `sem CMD` (GNU parallel's semaphore). Each line is judged as a bash line (where the
 * shell is not sh-like, `SHELL -c LINE` is judged as that shell's stage).
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { runCommandWords, staticValue } from "./command_words.ts";
import type { Program, Runner } from "./spec.ts";
import { chdir, literal, programName } from "./words.ts";

const set = (...names: string[]): ReadonlySet<string> => new Set(names);

/** Shells that read a command line as bash does (their simple commands, redirections). */
const SH_LIKE = set("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "busybox");

/** A command line run by `shell` (null: sh): read as bash, else as that shell's `-c` stage. */
function lineIn(line: Word, shell: Word | null, run: Runner, origin: string, cwds: Stage["cwds"]) {
  if (shell === null || (shell.kind === "static" && SH_LIKE.has(programName(shell)))) {
    run.shell(line, origin, { cwds });
  } else run.stage([shell, literal("-c"), line], origin, cwds);
}

/** hyperfine's options; the number of words each valued one takes (`-P VAR MIN MAX`). */
const HYPERFINE_VALUES: Record<string, number> = {
  "-P": 3,
  "--parameter-scan": 3,
  "-L": 2,
  "--parameter-list": 2,
};
/** hyperfine's options whose value is a command line. */
const HYPERFINE_LINES = set(
  "-s",
  "--setup",
  "-p",
  "--prepare",
  "--conclude",
  "-c",
  "--cleanup",
  "--reference",
);
const HYPERFINE: OptionGrammar = {
  flags: "NihV",
  valued: "wmMrspcPDLSun",
  // deno-fmt-ignore
  longFlags: set("--ignore-failure", "--show-output", "--help", "--version", "--no-shell"),
  // deno-fmt-ignore
  longValued: set("--warmup", "--min-runs", "--max-runs", "--runs", "--setup", "--prepare",
    "--conclude", "--cleanup", "--parameter-scan", "--parameter-step-size", "--parameter-list",
    "--shell", "--style", "--sort", "--time-unit", "--export-asciidoc", "--export-csv",
    "--export-json", "--export-markdown", "--export-orgmode", "--output", "--input",
    "--command-name", "--min-benchmarking-time", "--reference"),
};

/**
 * hyperfine: each operand is a command line, as are the values of its line options; `-S SHELL`
 * (`--shell`) runs them in SHELL. An option not known: the word after it is judged as a line too.
 */
function hyperfine(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const values = args.map(staticValue);
  const lines: Word[] = [];
  let shell: Word | null = null;
  let skip = -1;
  for (const t of readOptions(values, HYPERFINE)) {
    if (t.at <= skip) continue;
    if (t.kind === "operand" || t.kind === "dynamic") lines.push(args[t.at]);
    if (t.kind === "unknown" && t.glued === undefined && args[t.at + 1]) {
      lines.push(args[t.at + 1]);
    }
    if (t.kind !== "valued") continue;
    const at = t.valueAt ?? t.at;
    const value = t.glued !== undefined ? literal(t.glued) : args[at];
    skip = at + (HYPERFINE_VALUES[t.name] ?? 1) - 1;
    if (value && HYPERFINE_LINES.has(t.name)) lines.push(value);
    if (value && (t.name === "-S" || t.name === "--shell")) shell = value;
  }
  if (shell?.value === "none") shell = null;
  for (const line of lines) lineIn(line, shell, run, "hyperfine", stage.cwds);
}

const NODEMON: OptionGrammar = {
  flags: "VqILCvh",
  valued: "xwideP",
  // deno-fmt-ignore
  longFlags: set("--verbose", "--quiet", "--no-stdin", "--legacy-watch", "--on-change-only",
    "--dump", "--version", "--help", "--spawn", "--no-colors", "--no-update-notifier"),
  // deno-fmt-ignore
  longValued: set("--exec", "--watch", "--ignore", "--delay", "--ext", "--polling-interval",
    "--signal", "--config", "--cwd"),
};

/**
 * nodemon `--exec CMD [script] [args]`: `sh -c` of the command and the words after it, joined
 * (read as unquoted: the strictest reading); `--cwd DIR` runs it there.
 */
function nodemon(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const values = args.map(staticValue);
  let exec: Word | null = null;
  let cwds = stage.cwds;
  let rest: Word[] = [];
  for (const t of readOptions(values, NODEMON)) {
    if (t.kind === "operand" || t.kind === "dynamic" || t.kind === "end") {
      rest = args.slice(t.kind === "end" ? t.at + 1 : t.at);
      break;
    }
    if (t.kind === "unknown" && t.glued === undefined && t.rest === undefined) {
      // (Its value, or the script: the rest from either word.)
      rest = args.slice(t.at + 1);
      break;
    }
    if (t.kind !== "valued") continue;
    const value = t.glued !== undefined
      ? literal(t.glued)
      : t.valueAt === undefined
      ? null
      : args[t.valueAt];
    if (value && (t.name === "-x" || t.name === "--exec")) exec = value;
    if (value && t.name === "--cwd") cwds = chdir(cwds, value);
  }
  if (!exec) return;
  const words = [exec, ...rest];
  const dynamic = words.some((w) => w.kind !== "static");
  const text = words.map((w) => w.value).join(" ");
  run.shell({ value: text, kind: dynamic ? "dynamic" : "static", prefix: "", text }, "nodemon", {
    cwds,
  });
}

const CONCURRENTLY: OptionGrammar = {
  flags: "rgkiPvh",
  valued: "mnscplt",
  // deno-fmt-ignore
  longFlags: set("--raw", "--group", "--timings", "--no-color", "--pad-prefix", "--kill-others",
    "--kill-others-on-fail", "--handle-input", "--passthrough-arguments", "--help", "--version"),
  // deno-fmt-ignore
  longValued: set("--max-processes", "--names", "--name-separator", "--success", "--prefix",
    "--prefix-colors", "--prefix-length", "--timestamp-format", "--kill-signal", "--ks",
    "--restart-tries", "--restart-after", "--default-input-target", "--hide", "--teardown"),
};

/** concurrently's shortcuts: `npm:script` is `npm run script` (pnpm, yarn, bun, node, deno). */
const SHORTCUT = /^(npm|pnpm|yarn|bun|node|deno):(\S+)$/;
const SHORTCUT_RUN: Record<string, string> = { node: "node --run", deno: "deno task" };

/**
 * concurrently: each operand is a command line (options may come between them), and so is
 * `--teardown`'s value; the word after an option not known is judged as a line too.
 */
function concurrently(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const values = args.map(staticValue);
  const lines: Word[] = [];
  for (const t of readOptions(values, CONCURRENTLY)) {
    if (t.kind === "end") {
      lines.push(...args.slice(t.at + 1));
      break;
    }
    if (t.kind === "operand" || t.kind === "dynamic") {
      lines.push(args[t.at]);
      continue;
    }
    if (t.kind === "unknown" && t.glued === undefined && args[t.at + 1]) {
      lines.push(args[t.at + 1]);
    }
    if (t.kind === "valued" && t.name === "--teardown") {
      const value = t.glued !== undefined ? literal(t.glued) : args[t.valueAt ?? t.at + 1] ?? null;
      if (value) lines.push(value);
    }
  }
  for (const line of new Set(lines)) {
    const m = line.kind === "static" ? SHORTCUT.exec(line.value) : null;
    const text = m ? literal(`${SHORTCUT_RUN[m[1]] ?? `${m[1]} run`} ${m[2]}`) : line;
    run.shell(text, "concurrently", { cwds: stage.cwds });
  }
}

/** `sem [options] CMD…` (`parallel --semaphore`): the words of its command joined into a line. */
const SEM: OptionGrammar = {
  valued: "j",
  longFlags: set("--fg", "--bg", "--wait", "--will-cite", "--no-notice"),
  // deno-fmt-ignore
  longValued: set("--jobs", "--id", "--semaphorename", "--timeout", "--semaphoretimeout", "--st",
    "--tmpdir"),
};

/** The programs that run their command lines through a shell. */
export const SHELL_CARRIER_PROGRAMS: Program[] = [
  { names: ["hyperfine"], runs: hyperfine },
  { names: ["nodemon"], runs: nodemon },
  { names: ["concurrently"], runs: concurrently },
  {
    names: ["sem"],
    runs: (stage, run) =>
      runCommandWords(stage.argv.slice(1), { grammar: SEM, joined: true }, stage.cwds, run, "sem"),
  },
];
