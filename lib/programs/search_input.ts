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
 * ugrep asks the other question (`inputMayBeTerminal`): with no path and no `-r`, it searches the
 * cwd's tree where its standard input is a terminal, else reads it. A runner that gives what it
 * runs a terminal of its own (`script -c`, unbuffer, sudo's and run0's pty, a tmux or screen
 * window), or a redirect from one (`< /dev/tty`), makes it one; pi gives none.
 *
 * @module
 */
import { redirectsStdin, type Stage } from "../shell/model.ts";
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

/**
 * The runners that give what they run a terminal of their own (a pty): `script -c`'s, unbuffer's,
 * sudo's and run0's (`use_pty`, `--pty`), systemd-run's `--pty`, a tmux or screen window's.
 */
const GIVES_TERMINAL =
  /^(?:wrapper:(?:script|unbuffer|sudo|run0|systemd-run)|tmux|screen|shell:(?:script|unbuffer))$/;

/** The runners of `GIVES_TERMINAL` whose stage is the command itself (its input theirs). */
const WRAPS_TERMINAL = /^wrapper:(?:unbuffer|sudo|run0|systemd-run)$/;

/** Terminal devices a redirect may name. */
const TERMINAL = /^\/dev\/(?:tty\w*|pts\/\d+|console|vc\/\d+)$/;

/** The names of standard input itself (a redirect from them leaves it as it was). */
const SAME_INPUT = /^(?:\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/**
 * Whether `stage`'s standard input may be a terminal: a redirect from a terminal device, from a
 * file not known or a descriptor (`<&3`); else, where no redirect, pipe or document of its own
 * sets it, a runner around it that gives it one (`GIVES_TERMINAL`: the stage that runner makes
 * itself, `unbuffer CMD`, has its terminal whatever the runner's own input is). pi gives a
 * command none.
 */
export function inputMayBeTerminal(stage: Stage): boolean {
  const runners = stage.origin.split(" > ");
  if (WRAPS_TERMINAL.test(runners[runners.length - 1])) return true;
  let inherited = !stage.piped;
  for (const r of stage.redirects) {
    if (!redirectsStdin(r)) continue;
    if (r.kind === "heredoc" || r.kind === "herestring") inherited = false;
    else if (r.kind === "dup") {
      if (!r.op.endsWith("-")) return true;
      inherited = false;
    } else if (r.target?.kind !== "static" || TERMINAL.test(r.target.value)) return true;
    else if (!SAME_INPUT.test(r.target.value)) inherited = false;
  }
  return inherited && runners.some((o) => GIVES_TERMINAL.test(o));
}
