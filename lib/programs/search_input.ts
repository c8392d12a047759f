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
 * unless `xargs -a FILE`, `parallel --pipe`, … leave it, see `Runner.alone`). Other runners may
 * give a terminal (tmux, screen, script, unbuffer, systemd-run's pty) that a pipe of their own
 * feeds, or nothing: their stages keep the pipeline's mark, which is not what they read.
 *
 * @example
 * ```ts
 * import { searchesInput } from "./search_input.ts";
 * import { stagesOf } from "../shell/analyze_testing.ts";
 * searchesInput(stagesOf("git diff | rg KEY")[1]); // true
 * searchesInput(stagesOf("rg KEY < /dev/null")[0]); // false
 * ```
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";
import { standardInput } from "./words.ts";

/**
 * The origins of stages whose standard input is what the analysis marks: the pipeline stage's
 * own, a group's, a subshell's, a function's, a shell's command line, wrappers that pass it on as
 * it is (not sudo's or run0's terminal, unbuffer's pty, systemd-run's service), and xargs's and
 * parallel's commands (marked by their module: `Runner.alone`).
 */
const SHARES_INPUT =
  /^(?:top|compound|subshell|function|xargs|parallel|shell:[\w.+-]+|wrapper:(?:env|nice|nohup|timeout|time|command|builtin|exec|stdbuf|ionice|taskset|chrt|setsid|flock|prlimit|eatmydata|nocache|chronic|catchsegv|faketime|fakeroot))$/;

/**
 * Whether `stage`'s standard input is surely one a search reads (a pipe, a here-document, a
 * here-string) where it names no path; false where it may be a terminal, `/dev/null`, a directory
 * or not known.
 */
export function searchesInput(stage: Stage | undefined): boolean {
  if (!stage || !SHARES_INPUT.test(stage.origin)) return false;
  const input = standardInput(stage);
  return input.from === "document" || (input.from === "pipe" && stage.piped === true);
}
