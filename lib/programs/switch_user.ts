/**
 * su, runuser and script: the command they run as another user (`su -c TEXT`, the user's shell
 * with its arguments, `runuser -u USER CMD`), and where a login shell of theirs starts it (the
 * user's home: `su -l u -c 'cat .ssh/id_rsa'` reads that home's key).
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import type { Runner } from "./spec.ts";
import { literal, optionValue, programName, standardInput, startsShell } from "./words.ts";
import { suReset } from "./user_env.ts";

/**
 * su's and runuser's options (util-linux): the flags, and those that take a value; every long one,
 * so getopt_long takes any prefix of one (`--sh SHELL`, `--gr GROUP`, `--c CMD`).
 */
const SU_OPTIONS: OptionGrammar = {
  flags: "lmpfPhV",
  valued: "sgGwcu",
  // deno-fmt-ignore
  longFlags: new Set(["--login", "--preserve-environment", "--fast", "--pty", "--help", "--version"]),
  // deno-fmt-ignore
  longValued: new Set(["--shell", "--group", "--supp-group", "--whitelist-environment", "--command", "--session-command", "--user"]),
  abbreviations: "all",
};

/**
 * su, runuser and script run `-c TEXT` through a shell. Without it, su and runuser start the
 * user's shell (`-s SHELL`) with the words after the user as its arguments (`su - u ./job.sh`
 * runs the script; alone it runs the commands of its standard input, see `startsShell`),
 * `runuser -u USER CMD` runs CMD as it is, and script starts a shell. (A `./script` of the
 * project is not util-linux's.)
 */
export function switchUser(stage: Stage, outer: Runner): void {
  const name = programName(stage.argv[0]);
  const origin = `wrapper:${name}`;
  const args = stage.argv.slice(1);
  // (A login shell starts in the user's home: `su -l u -c 'cat .ssh/id_rsa'` reads its key. One
  // reading no input and given no command runs nothing: `su - postgres`.)
  const bare = standardInput(stage).from === "nothing" && onlyUser(args);
  const place = name === "script" || bare ? outer : userPlace(args, outer);
  // (script runs it on a pty its input feeds, su and runuser with `-P`, `--pty`.)
  const run = name === "script" || withPty(args) ? place.terminal() : place;
  // (`--command` as getopt_long takes it: `--c`, `--comm`, …)
  const command = (v: string) =>
    v.length >= 3 && ("--command".startsWith(v) || "--session-command".startsWith(v));
  // (Each `-c` is judged: getopt keeps the last, `su -c ls -c 'rm x'`.)
  const cs = args.flatMap((a, i) =>
    a.kind === "static" && (/^-[a-zA-Z]*c$/.test(a.value) || command(a.value)) ? [i] : []
  );
  // (Glued: `-c'cmd'`, `--command=cmd`.)
  const glued = args.filter((a) =>
    /^-[a-zA-Z]*c(?!$)/.test(a.prefix) ||
    (a.prefix.startsWith("--") && a.prefix.includes("=") &&
      command(a.prefix.slice(0, a.prefix.indexOf("="))))
  );
  for (const g of glued) {
    const at = g.value.startsWith("--") ? g.value.indexOf("=") + 1 : g.value.indexOf("c") + 1;
    const text = g.value.slice(at);
    run.shell(g.kind === "static" ? literal(text) : { ...g, value: text }, origin);
  }
  for (const c of cs) if (args[c + 1]) run.shell(args[c + 1], origin);
  if (glued.length || cs.length) return;
  if (name === "script") {
    const path = stage.argv[0].value;
    if (path.startsWith("/") || !path.includes("/")) startsShell(run, origin);
  } else userShell(args, name === "runuser", run, origin);
}

/** Whether su's or runuser's words ask for a pty of its own (`-P`, `--pty`). */
function withPty(args: Word[]): boolean {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  for (const t of readOptions(values, SU_OPTIONS)) {
    if (t.kind === "flag" && (t.name === "-P" || t.name === "--pty")) return true;
    if (t.kind === "dynamic") return true;
  }
  return false;
}

/** Whether su's or runuser's words name a user at most: no command, no argument of the shell. */
function onlyUser(args: Word[]): boolean {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  let operands = 0;
  for (const t of readOptions(values, SU_OPTIONS)) {
    if (t.kind === "unknown" || t.kind === "dynamic" || t.kind === "end") return false;
    if (t.kind === "valued" && /^(-[cu]|--(command|session-command|user))$/.test(t.name)) {
      return false;
    }
    if (t.kind === "operand" && values[t.at] !== "-" && ++operands > 1) return false;
  }
  return true;
}

/**
 * The runner of what su or runuser runs: with the variables it sets anew not known (`suReset`:
 * the user's `HOME`), and for a login shell (`-`, `-l`, `--login`) in the home directory of its
 * user (the first operand, `runuser -u`'s, else root), known only for the user running the
 * command.
 */
function userPlace(args: Word[], run: Runner): Runner {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  let login = false;
  let preserve = false;
  let user: string | null | undefined;
  for (const t of readOptions(values, SU_OPTIONS)) {
    if (t.kind === "flag" && (t.name === "-l" || t.name === "--login")) login = true;
    else if (t.kind === "flag" && /^(-[mp]|--preserve-environment)$/.test(t.name)) preserve = true;
    else if (t.kind === "valued" && (t.name === "-u" || t.name === "--user")) {
      const v = optionValue(t, args);
      user ??= v?.kind === "static" ? v.value : null;
    } else if (t.kind === "operand" && values[t.at] === "-") login = true;
    else if (t.kind === "operand" || t.kind === "dynamic") user ??= values[t.at];
  }
  const reset = run.resetting(
    suReset(user === null ? null : user ?? "root", { login, preserve }, run),
  );
  if (!login) return reset;
  return reset.at([user === null ? null : run.home(user ?? "root")]);
}

/** What su (or runuser) without `-c` runs: the user's shell with its arguments, or `-u`'s command. */
function userShell(args: Word[], runuser: boolean, run: Runner, origin: string): void {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  let shell = literal("sh");
  let user = false;
  let direct = false;
  for (const t of readOptions(values, SU_OPTIONS)) {
    if (t.kind === "valued") {
      const value = optionValue(t, args);
      if (value && (t.name === "-s" || t.name === "--shell")) shell = value;
      if (runuser && (t.name === "-u" || t.name === "--user")) direct = user = true;
    } else if (t.kind === "operand" || t.kind === "dynamic") {
      if (values[t.at] === "-") continue;
      // The user, then (or at once, after `runuser -u`) what runs.
      if (!user) {
        user = true;
        continue;
      }
      const rest = args.slice(t.at);
      run.stage(direct ? rest : [shell, ...rest], origin);
      return;
    }
  }
  // (A shell with no arguments: the commands of its standard input.)
  if (!direct) run.stage([shell], origin);
}
