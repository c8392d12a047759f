/**
 * Shells and the shell builtins that run text: `sh -c TEXT`, `bash script.sh`, `bash <<EOF`,
 * `eval`, `source`, `alias`, `trap`, `export PAGER=…` and `at`/`batch` (commands for later). What
 * the text holds is analysed as bash; what cannot be seen (a script file, a pipe) runs unknown
 * commands. A shell's `-c` text is also an inline eval for eval classification.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { DECLARATION_BUILTINS } from "../shell/keywords.ts";
import type { EvalShape } from "../types.ts";
import type { Program, Runner } from "./spec.ts";
import { literal, programName, unknownWord } from "./words.ts";

/** Builtins that assign variables: `export PAGER='less -R'`. */
const DECLARATIONS = [...DECLARATION_BUILTINS];

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

/** A here-document or here-string that feeds a stage's standard input. */
function document(stage: Stage) {
  return stage.redirects.find((r) => r.kind === "heredoc" || r.kind === "herestring");
}

/** What a shell runs: its `-c` text, a script, or the commands of its standard input. */
function shellRuns(stage: Stage, run: Runner): void {
  const name = programName(stage.argv[0]);
  const args = stage.argv.slice(1);
  const payload = shellPayload(args);
  if (payload === "script") {
    const script = args.find((a) => !a.value.startsWith("-"))?.text ?? "";
    run.stage([unknownWord(`(script ${script})`)], `shell:${name}`);
    return;
  }
  if (payload) {
    run.shell(payload, `shell:${name}`);
    return;
  }
  // Commands from stdin: a heredoc or here-string we can read, else a pipe or a file we
  // cannot (`bash < script.sh` runs the script, `bash < <(curl …)` what curl fetches).
  const doc = document(stage);
  const input = stage.redirects.find((r) =>
    (r.kind === "read" || r.kind === "dup") && /^0?<(&|>)?$/.test(r.op) &&
    !(r.target?.kind === "static" && r.target.value === "/dev/null")
  );
  if (doc?.body) run.shell(doc.body, `shell:${name} <<`);
  else if (input) {
    const from = input.target?.text ?? input.op;
    run.stage([unknownWord(`(commands of ${from})`)], `shell:${name}`);
  } else if (doc || stage.piped) {
    run.stage([unknownWord("(commands from stdin)")], `shell:${name}`);
  }
}

/** A shell's `-c` text as an inline eval. */
function shellEval(stage: Stage): EvalShape | null {
  const payload = shellPayload(stage.argv.slice(1));
  if (!payload || payload === "script") return null;
  return {
    interpreter: programName(stage.argv[0]),
    language: "shell",
    via: "-c",
    source: payload.kind === "static" ? payload.value : null,
  };
}

/** Words joined into the text a builtin runs (`eval`, `watch`). */
function joined(words: Word[]): Word {
  const dynamic = words.some((w) => w.kind !== "static");
  const text = words.map((w) => w.value).join(" ");
  return { value: text, kind: dynamic ? "dynamic" : "static", prefix: "", text };
}

/** The shells, and the builtins that run text in this shell. */
export const SHELL_PROGRAMS: Program[] = [
  {
    // deno-fmt-ignore
    names: ["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox", "toybox"],
    runs: shellRuns,
    evaluates: shellEval,
    tooBroad: true,
  },
  {
    names: ["eval"],
    runs: (stage, run) => {
      if (stage.argv.length > 1) run.shell(joined(stage.argv.slice(1)), "eval");
    },
  },
  {
    // The file's commands are not visible here: treat the stage as running anything.
    names: ["source", "."],
    runs: (stage, run) => {
      const file = stage.argv[1];
      if (file) run.stage([unknownWord(`(commands of ${file.text})`)], "source");
    },
  },
  {
    // An alias may run later in the same shell (with expand_aliases): judge its text now.
    names: ["alias"],
    runs: (stage, run) => {
      for (const a of stage.argv.slice(1)) {
        const eq = a.value.indexOf("=");
        if (eq <= 0) continue;
        const body = a.value.slice(eq + 1);
        run.shell(a.kind === "static" ? literal(body) : { ...a, value: body }, "alias");
      }
    },
  },
  {
    // The handler runs later, in this shell.
    names: ["trap"],
    runs: (stage, run) => {
      const handler = stage.argv[1];
      if (handler && !(handler.kind === "static" && /^-/.test(handler.value))) {
        run.shell(handler, "trap");
      }
    },
  },
  {
    // `export PAGER=…`, `declare -x EDITOR=…`: later programs of this shell run the value.
    names: DECLARATIONS,
    runs: (stage, run) => run.environment(stage.argv.slice(1)),
  },
  {
    // Commands come from stdin (or -f FILE): a heredoc or here-string we can read, else unknown.
    names: ["at", "batch"],
    runs: (stage, run) => {
      const name = programName(stage.argv[0]);
      const doc = document(stage);
      if (doc?.body) run.shell(doc.body, name);
      else run.stage([unknownWord("(commands for later)")], name);
    },
  },
];
