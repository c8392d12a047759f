/**
 * Whether a search program that names no path searches its standard input rather than the cwd's
 * tree. rg and ag decide by what standard input is: rg searches it where it is a regular file, a
 * FIFO or a socket (grep-cli's `is_readable_stdin`), ag where it is a FIFO or a regular file
 * (`fstat` in options.c); a terminal, `/dev/null` or a closed one has them search the cwd.
 *
 * What the stage's input is, is read from the command as bash sets it up: a pipe from the stage
 * before it, a here-document or here-string (a temporary file or a pipe). A file redirect is not
 * counted (`rg KEY < src` gives rg a directory, and it searches the cwd), nor a descriptor. The
 * pipe counts only where the stage has it as the pipeline's stage does (the pipeline's own stage,
 * a group, a subshell, a function, `bash -c`, a wrapper that leaves standard input as it is,
 * xargs and parallel, whose modules mark what they give what they run: `/dev/null` and no pipe
 * unless `xargs -a FILE`, `parallel --pipe`, … leave it, see `Runner.alone`), a runner that
 * gives a terminal of its own, which a pipe may feed (`Stage.terminal`: a search there reads the
 * terminal). Other runners may give nothing: their stages keep the pipeline's mark, which is
 * not what they read.
 *
 * @example
 * ```ts
 * import { searchesInput } from "./search_input.ts";
 * import { stagesOf } from "../shell/analyze_testing.ts";
 * searchesInput(stagesOf("git diff | rg KEY")[1]); // true
 * searchesInput(stagesOf("rg KEY < /dev/null")[0]); // false
 * ```
 *
 * ugrep asks the other question (`inputMayBeTerminal`): with no path and no `-r`, it searches the
 * cwd's tree where its standard input is a terminal, else reads it. A runner that gives what it
 * runs a terminal (`script -c`, unbuffer, sudo's and run0's pty, `su --pty`, a tmux or screen
 * window, `xargs -o`, `parallel --tty`), to it or to a shell, group or wrapper that runs it in
 * turn (`Stage.terminal`), or a redirect from one (`< /dev/tty`), makes it one; pi gives none.
 *
 * @module
 */
import { redirectsStdin, type Stage } from "../shell/model.ts";
import { standardInput } from "./words.ts";

/**
 * The origins of stages whose standard input is what the analysis marks: the pipeline stage's
 * own, a group's, a subshell's, a function's, a shell's command line, wrappers that pass it on as
 * it is, xargs's and parallel's commands (marked by their module: `Runner.alone`), and the
 * runners that give a terminal of their own, which their module marks (`Runner.terminal`:
 * script's, unbuffer's, sudo's, run0's, systemd-run's, `su --pty`'s, a tmux or screen window's).
 * Each runner of a stage's origin is one (`script -qc 'cat f | { rg KEY; }'`).
 */
const SHARES_INPUT =
  /^(?:top|compound|subshell|function|xargs|parallel|tmux|screen|shell:[\w.+-]+|wrapper:(?:env|nice|nohup|timeout|time|command|builtin|exec|stdbuf|ionice|taskset|chrt|setsid|flock|prlimit|eatmydata|nocache|chronic|catchsegv|faketime|fakeroot|script|su|runuser|unbuffer|sudo|run0|systemd-run))$/;

/**
 * Whether `stage`'s standard input is surely one a search reads (a pipe, a here-document, a
 * here-string) where it names no path; false where it may be a terminal (`Stage.terminal`),
 * `/dev/null`, a directory or not known.
 */
export function searchesInput(stage: Stage | undefined): boolean {
  if (!stage || stage.terminal) return false;
  if (!stage.origin.split(" > ").every((o) => SHARES_INPUT.test(o))) return false;
  const input = standardInput(stage);
  return input.from === "document" || (input.from === "pipe" && stage.piped === true);
}

/** Terminal devices a redirect may name. */
const TERMINAL = /^\/dev\/(?:tty\w*|pts\/\d+|console|vc\/\d+)$/;

/**
 * Whether `stage`'s standard input may be a terminal: one a runner gave it (`Stage.terminal`:
 * `script -c`'s, unbuffer's, sudo's and run0's pty, a tmux or screen window, `xargs -o`'s
 * `/dev/tty`, and what those run in turn, `script -qc 'bash -c "ugrep KEY"'`), or a redirect
 * of its own from a terminal device, from a file not known or a descriptor (`<&3`). pi gives a
 * command none.
 */
export function inputMayBeTerminal(stage: Stage): boolean {
  if (stage.terminal) return true;
  for (const r of stage.redirects) {
    if (!redirectsStdin(r) || r.kind === "heredoc" || r.kind === "herestring") continue;
    if (r.kind === "dup") {
      if (!r.op.endsWith("-")) return true;
    } else if (r.target?.kind !== "static" || TERMINAL.test(r.target.value)) return true;
  }
  return false;
}
