/**
 * xargs and GNU parallel: the command they run (after their own options; before `:::` for
 * parallel), completed by words known only at run time (their input), so it is a stage of its own
 * whose last word is unknown.
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { Program } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";

/**
 * xargs's options (GNU's and BSD's common ones): -i, -e and -l take an optional attached value
 * only; the others that take a value take the next word.
 */
const XARGS: OptionGrammar = {
  flags: "0oprtx",
  valued: "adEILnPs",
  gluedOnly: "iel",
  // deno-fmt-ignore
  longFlags: new Set(["--null", "--interactive", "--no-run-if-empty", "--verbose", "--exit",
    "--open-tty", "--show-limits", "--help", "--version"]),
  // deno-fmt-ignore
  longValued: new Set(["--arg-file", "--delimiter", "--eof", "--replace", "--max-lines",
    "--max-args", "--max-procs", "--max-chars", "--process-slot-var"]),
};

/** GNU parallel's options that take a value (any other letter is a flag). */
const PARALLEL: OptionGrammar = {
  valued: "adEIjLnNPsSC",
  // deno-fmt-ignore
  longValued: new Set(["--arg-file", "--delimiter", "--eof", "--replace", "--max-lines",
    "--max-args", "--max-procs", "--max-chars", "--jobs", "--sshlogin", "--colsep", "--joblog",
    "--results", "--tmpdir", "--workdir", "--halt", "--delay", "--timeout", "--retries",
    "--memfree", "--load", "--tagstring", "--basefile", "--return", "--env", "--arg-sep",
    "--arg-file-sep"]),
  longFlags: new Set(["--tty", "--keep-order", "--verbose", "--dry-run", "--null", "--pipe"]),
};

/** How many options a reader does not know it follows both ways before it gives up. */
const UNKNOWN_OPTIONS = 4;

/**
 * The commands xargs (or parallel) may run: its words after its own options. Where an option is
 * one the grammar does not know, it may take the next word or not: both readings are kept (the
 * strictest verdict of the two decides), and past a few such options the command is not known.
 */
function commandsOf(args: Word[], grammar: OptionGrammar, unknowns = 0): Word[][] {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "dynamic" || t.kind === "operand") return [args.slice(t.at)];
    if (t.kind === "end") return [args.slice(t.at + 1)];
    if (t.kind !== "unknown") continue;
    if (unknowns >= UNKNOWN_OPTIONS) return [[unknownWord(`(a command after ${args[t.at].text})`)]];
    const after = args.slice(t.at + 1);
    const out: Word[][] = [];
    for (const reading of [after, after.slice(1)]) {
      for (const cmd of commandsOf(reading, grammar, unknowns + 1)) {
        if (!out.some((c) => c.length === cmd.length && c.every((w, i) => w === cmd[i]))) {
          out.push(cmd);
        }
      }
    }
    return out;
  }
  return [[]];
}

/** xargs and parallel. */
export const XARGS_PROGRAMS: Program[] = [
  {
    names: ["xargs"],
    runs: (stage, run) => {
      for (const cmd of commandsOf(stage.argv.slice(1), XARGS)) {
        const argv = cmd.length ? cmd : [literal("echo")];
        run.stage([...argv, unknownWord("(xargs input)")], "xargs");
      }
    },
  },
  {
    // GNU parallel: the command comes before `:::`; what follows (or stdin) fills it in.
    names: ["parallel"],
    runs: (stage, run) => {
      const args = stage.argv.slice(1);
      const end = args.findIndex((a) => a.kind === "static" && /^:::+$/.test(a.value));
      for (const cmd of commandsOf(end >= 0 ? args.slice(0, end) : args, PARALLEL)) {
        if (cmd.length) run.stage([...cmd, unknownWord("(parallel input)")], "parallel");
      }
    },
  },
];
