/**
 * cmake's command mode (`cmake -E …`): the commands it runs (`chdir DIR CMD…` in DIR, `env
 * [NAME=VALUE…] CMD…` with that environment, `time CMD…`), what it writes below a directory by
 * names of its own (`copy_directory SRC… DEST`, `tar x…` into the cwd) and the trees it removes
 * (`remove_directory DIR`, `rm -r`). Its other words stay carried lines (a `-DVAR=…` that reads
 * as a command is judged as one).
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { cmakeWrites } from "./cmake.ts";
 * cmakeWrites(["cmake", "-E", "copy_directory", "a", "out"].map(literal));
 * // [{ path: "out", source: "cmake -E copy_directory", below: true }]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";
import type { EvalShape } from "../types.ts";
import { chdir, derived, literal } from "./words.ts";
import { STDIN_FILES, stdinCode } from "./eval_shapes.ts";

/** The `-E` command and its arguments, or null. */
function commandMode(argv: Word[]): { name: string; args: Word[] } | null {
  const at = argv.findIndex((w, i) => i > 0 && w.value === "-E");
  if (at < 0 || argv[at + 1]?.kind !== "static") return null;
  return { name: argv[at + 1].value, args: argv.slice(at + 2) };
}

/** What `cmake -E chdir|env|time` runs, where and with what environment. */
function cmakeRuns(stage: Stage, run: Runner): void {
  const mode = commandMode(stage.argv);
  if (!mode) return;
  const origin = `cmake -E ${mode.name}`;
  if (mode.name === "chdir" && mode.args.length > 1) {
    run.stage(mode.args.slice(1), origin, chdir(stage.cwds, mode.args[0]));
  } else if (mode.name === "time" && mode.args.length) run.stage(mode.args, origin);
  else if (mode.name === "env") {
    const env: Word[] = [];
    let i = 0;
    for (; i < mode.args.length; i++) {
      const v = mode.args[i].value;
      if (v === "--") {
        i++;
        break;
      }
      if (v.startsWith("--unset=")) continue;
      if (v === "--modify") {
        i++;
        continue;
      }
      if (/^[A-Za-z_]\w*=/.test(v)) env.push(mode.args[i]);
      else break;
    }
    const cmd = mode.args.slice(i);
    if (!cmd.length) return;
    run.environment(env);
    run.more({ ...derived(stage, cmd, origin), ...(env.length ? { assignments: env } : {}) });
  }
}

/** What `cmake -E` writes below a directory by names of its own. */
export function cmakeWrites(argv: Word[]): NamedFile[] {
  const mode = commandMode(argv);
  if (!mode) return [];
  const source = `cmake -E ${mode.name}`;
  if (/^copy_directory(_if_different)?$/.test(mode.name) && mode.args.length > 1) {
    const dest = mode.args.at(-1)!;
    return [{ path: dest.kind === "static" ? dest.value : null, source, below: true }];
  }
  if (mode.name === "tar" && /x/.test(mode.args[0]?.value ?? "")) {
    return [{ path: ".", source, below: true }];
  }
  return [];
}

/**
 * The code of `cmake -P SCRIPT` where SCRIPT is its standard input (`-P /dev/stdin <<<CODE`): a
 * CMake script, which runs commands (`execute_process`) and writes files (`file(WRITE …)`). A
 * script file is read where it lies, as `python3 script.py`'s is.
 */
export function cmakeEval(stage: Stage): EvalShape | null {
  const args = stage.argv;
  for (let i = 1; i < args.length; i++) {
    const v = args[i].value;
    if (v === "--") return null;
    if (args[i].kind !== "static" || !v.startsWith("-P")) continue;
    const script = v === "-P" ? args[i + 1] : literal(v.slice(2));
    if (script?.kind === "static" && STDIN_FILES.has(script.value)) {
      return stdinCode(stage, "cmake");
    }
    return null;
  }
  return null;
}

/** cmake. */
export const CMAKE_PROGRAMS: Program[] = [{
  names: ["cmake"],
  optionCommands: cmakeRuns,
  namedFiles: cmakeWrites,
  evaluates: cmakeEval,
  codeOption: true,
  // (`remove_directory DIR`, `rm -r DIR`: every file below DIR.)
  replacesTrees: (argv) => {
    const mode = commandMode(argv);
    return mode !== null && (mode.name === "remove_directory" ||
      (mode.name === "rm" && mode.args.some((w) => /^-[a-zA-Z]*[rR]/.test(w.value))));
  },
}];
