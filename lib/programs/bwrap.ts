/**
 * bubblewrap (`bwrap`): its options take zero to three words each; the first other word starts
 * the command it runs, in the environment its `--setenv NAME VALUE` options give it.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { Runner } from "./spec.ts";
import { derived, literal, unknownWord } from "./words.ts";

/** bwrap's options by how many words each takes (the others are flags). */
// deno-fmt-ignore
const BWRAP_ARITY: Record<string, number> = Object.fromEntries([
  ...["--args", "--argv0", "--userns", "--userns2", "--pidns", "--uid", "--gid", "--hostname",
    "--chdir", "--unsetenv", "--lock-file", "--sync-fd", "--remount-ro", "--exec-label",
    "--file-label", "--proc", "--dev", "--tmpfs", "--mqueue", "--dir", "--seccomp",
    "--add-seccomp-fd", "--block-fd", "--userns-block-fd", "--info-fd", "--json-status-fd",
    "--cap-add", "--cap-drop", "--perms", "--size", "--overlay-src", "--tmp-overlay",
    "--ro-overlay"].map((o) => [o, 1]),
  ...["--bind", "--bind-try", "--dev-bind", "--dev-bind-try", "--ro-bind", "--ro-bind-try",
    "--file", "--bind-data", "--ro-bind-data", "--symlink", "--setenv", "--chmod", "--bind-fd",
    "--ro-bind-fd"].map((o) => [o, 2]),
  ["--overlay", 3],
]);
// deno-fmt-ignore
const BWRAP_FLAGS = new Set(["--unshare-user", "--unshare-user-try", "--unshare-ipc",
  "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup", "--unshare-cgroup-try",
  "--unshare-all", "--share-net", "--clearenv", "--new-session", "--die-with-parent", "--as-pid-1",
  "--disable-userns", "--assert-userns-disabled", "--level-prefix"]);

/** bwrap: its options take zero to three words each; the first other word starts the command. */
export function bwrap(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  let cwds = stage.cwds;
  const env: Word[] = [];
  const command = (rest: Word[]) => {
    if (env.length) run.more({ ...derived(stage, rest, "wrapper:bwrap", cwds), assignments: env });
    else run.stage(rest, "wrapper:bwrap", cwds);
  };
  for (let i = 0; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : null;
    if (v === "--help" || v === "--version") return;
    if (v === "--") {
      if (args[i + 1]) command(args.slice(i + 1));
      return;
    }
    if (v !== null && v.startsWith("-") && v.length > 1) {
      if (v === "--args") {
        run.stage([unknownWord("(arguments from a file descriptor)")], "wrapper:bwrap", cwds);
        return;
      }
      if (BWRAP_FLAGS.has(v)) continue;
      if (!(v in BWRAP_ARITY)) {
        // An option bwrap may have gained: the command is not known.
        run.stage([unknownWord(`(a command after ${v})`)], "wrapper:bwrap", cwds);
        return;
      }
      if (v === "--chdir" && args[i + 1]) cwds = [null];
      if (v === "--setenv") {
        // (`--setenv NAME VALUE`: the command's environment, judged as `NAME=VALUE` is.)
        const [n, value] = [args[i + 1], args[i + 2]];
        const set = n?.kind === "static" && value?.kind === "static"
          ? literal(`${n.value}=${value.value}`)
          : unknownWord(`(the variable --setenv ${n?.text ?? ""} sets)=`);
        run.environment([set]);
        env.push(set);
      }
      i += BWRAP_ARITY[v];
      continue;
    }
    command(args.slice(i));
    return;
  }
}
