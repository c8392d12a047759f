/**
 * xargs and GNU parallel: the command they run (after their own options; before `:::` for
 * parallel), completed by words known only at run time (their input), so it is a stage of its own
 * whose last word is unknown.
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import type { Program } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";

/** xargs's short options that take a value. */
const XARGS_WITH_ARG = "adEeIiLlnPs";
/** The command xargs runs: its words after xargs's own options. */
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
/** xargs and parallel. */
export const XARGS_PROGRAMS: Program[] = [
  {
    names: ["xargs"],
    runs: (stage, run) => {
      const cmd = xargsCommand(stage.argv.slice(1));
      const argv = cmd.length ? cmd : [literal("echo")];
      run.stage([...argv, unknownWord("(xargs input)")], "xargs");
    },
  },
  {
    // GNU parallel: the command comes before `:::`; what follows (or stdin) fills it in.
    names: ["parallel"],
    runs: (stage, run) => {
      const args = stage.argv.slice(1);
      const end = args.findIndex((a) => a.kind === "static" && /^:::+$/.test(a.value));
      const cmd = xargsCommand(end >= 0 ? args.slice(0, end) : args);
      if (cmd.length) run.stage([...cmd, unknownWord("(parallel input)")], "parallel");
    },
  },
];
