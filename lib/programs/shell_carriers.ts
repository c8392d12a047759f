/**
 * Programs that run the command lines they are given through a shell: `hyperfine 'CMD'…` (and its
 * `--setup`, `--prepare`, `--conclude`, `--cleanup`, `--reference` lines; `-S SHELL` names the
 * shell), `nodemon --exec CMD` (and its settings: nodemon.ts), `concurrently 'CMD'…` (and
 * `--teardown`; `npm:script` is `npm run script`) and `sem CMD` (GNU parallel's semaphore). Each line is judged as a bash line (where the
 * shell is not sh-like, `SHELL -c LINE` is judged as that shell's stage).
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { runCommandWords, staticValue } from "./command_words.ts";
import { nodemon } from "./nodemon.ts";
import type { Program, Runner } from "./spec.ts";
import { literal, programName } from "./words.ts";
import { shellQuote } from "../shell/words.ts";
import { DASH_LIKE, dashReadings } from "./dash.ts";

const set = (...names: string[]): ReadonlySet<string> => new Set(names);

/** Shells that read a command line as bash does (their simple commands, redirections). */
const SH_LIKE = set("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "busybox");

/**
 * A command line run by `shell` (null: sh): read as bash, else as the shell's line given `-c
 * LINE` (hyperfine splits `-S "sh -c 'cat .env' x"` into words and runs `sh -c 'cat .env' x -c
 * LINE`: judged as that line).
 */
function lineIn(line: Word, shell: Word | null, run: Runner, origin: string, cwds: Stage["cwds"]) {
  // (hyperfine's own shell is `sh`: dash on Debian, which reads some text otherwise: dash.ts.)
  if (shell === null) {
    if (line.kind !== "static" || dashReadings(line.value)?.length === 1) {
      run.shell(line, origin, { cwds });
    } else run.stage([literal("sh"), literal("-c"), line], origin, cwds);
    return;
  }
  if (shell.kind !== "static") return run.stage([shell, literal("-c"), line], origin, cwds);
  const name = programName(shell);
  if (SH_LIKE.has(name) && !DASH_LIKE.has(name) && !/[\s'"\\$`]/.test(shell.value)) {
    return run.shell(line, origin, { cwds });
  }
  const given = line.kind === "static" ? shellQuote(line.value) : '"$__hyperfine_line"';
  run.shell(literal(`${shell.value} -c ${given}`), origin, { cwds });
  if (line.kind !== "static") run.shell(line, origin, { cwds });
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

/** Past this many sets of parameter values, a line's parameters are not known. */
const MAX_PARAMETER_SETS = 16;

/**
 * The values of a `-P NAME MIN MAX` scan (integers, `-D STEP`) or a `-L NAME a,b` list; null
 * where they are not known or too many.
 */
function parameterValues(
  name: string,
  words: (Word | undefined)[],
  step: string | undefined,
): string[] | null {
  if (words.some((w) => w?.kind !== "static")) return null;
  const [a, b] = words.map((w) => w!.value);
  if (name === "-L" || name === "--parameter-list") return a.split(",");
  const [lo, hi, by] = [Number(a), Number(b), Number(step ?? 1)];
  if (![lo, hi, by].every(Number.isFinite) || by <= 0) return null;
  if ((hi - lo) / by + 1 > MAX_PARAMETER_SETS) return null;
  const out: string[] = [];
  for (let v = lo; v <= hi + 1e-9; v += by) out.push(String(Number(v.toPrecision(12))));
  return out;
}

/**
 * The lines with each set of parameter values in place of `{NAME}` (hyperfine puts the value as
 * written, unquoted); a parameter whose values are not known (or too many sets) is a value not
 * known (`"$__hyperfine_parameter"`, a variable the command does not set).
 */
function withParameters(lines: Word[], params: [string, string[] | null][]): Word[] {
  if (!params.length) return lines;
  let sets: [string, string | null][][] = [[]];
  for (const [name, values] of params) {
    sets = sets.flatMap((set) =>
      (values ?? [null]).map((v): [string, string | null][] => [...set, [name, v]])
    );
  }
  if (sets.length > MAX_PARAMETER_SETS) {
    sets = [params.map(([name]) => [name, null] as [string, string | null])];
  }
  const out: Word[] = [];
  for (const line of lines) {
    if (line.kind !== "static" || !line.value.includes("{")) {
      out.push(line);
      continue;
    }
    for (const set of sets) {
      let text = line.value;
      for (const [name, v] of set) {
        text = text.split(`{${name}}`).join(v ?? '"$__hyperfine_parameter"');
      }
      out.push(literal(text));
    }
  }
  return out;
}

/**
 * hyperfine: each operand is a command line, as are the values of its line options, with each
 * value of its `-P`/`-L` parameters in place of `{NAME}`; `-S SHELL` (`--shell`, a command line
 * of its own) runs them, given `-c LINE`. An option not known: the word after it is judged as a
 * line too.
 */
function hyperfine(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  const values = args.map(staticValue);
  const lines: Word[] = [];
  const scans: [string, string, (Word | undefined)[]][] = [];
  let shell: Word | null = null;
  let step: string | undefined;
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
    if (t.name === "-D" || t.name === "--parameter-step-size") step = value?.value;
    if (value && HYPERFINE_VALUES[t.name]) {
      const rest = args.slice(at + 1, skip + 1);
      scans.push([t.name, value.value, value.kind === "static" ? rest : [undefined]]);
    }
  }
  if (shell?.value === "none") shell = null;
  const params = scans.map(([o, name, w]) => [name, parameterValues(o, w, step)] as const);
  for (const line of withParameters(lines, params.map(([n, v]) => [n, v]))) {
    lineIn(line, shell, run, "hyperfine", stage.cwds);
  }
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
    // (Each runs as `sh -c LINE`: dash on Debian, which reads some text otherwise: dash.ts.)
    if (text.kind === "static" && dashReadings(text.value)?.length !== 1) {
      run.stage([literal("sh"), literal("-c"), text], "concurrently", stage.cwds);
    } else run.shell(text, "concurrently", { cwds: stage.cwds });
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
