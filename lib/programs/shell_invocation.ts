/**
 * How a shell is invoked: its options before its text, script or standard input (bash's, zsh's,
 * the ksh family's and yash's, fish's in fish.ts), and which of them it runs.
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { fishPayload } from "./fish.ts";

/**
 * How a shell reads its options before its text, script or standard input: clusters of letters
 * (`-euo pipefail`, `+x`). A letter of `valued` takes a value: in bash and dash the next word,
 * each in turn (`-oO pipefail extglob`); in the getopt shells (`glued`) the rest of the cluster,
 * else the next word (`zsh -opipefail`). `-` or `--` ends them; the first other word is the text
 * of `-c` (or `+c`, in any cluster), else the script (none with `-s`: the standard input).
 */
interface ShellOptions {
  valued: string;
  glued: boolean;
  /** Long options that take the next word (`--rcfile FILE`). */
  longValued: readonly string[];
  /** Long options also spelled with one dash, before any other option (bash: `-rcfile F`). */
  singleDash?: readonly string[];
}

/**
 * bash's (shell.c), also read for dash, ash, busybox sh and the other `sh`s (which refuse `-O`
 * and the long options: nothing runs).
 */
const BASH_OPTIONS: ShellOptions = {
  valued: "oO",
  glued: false,
  longValued: ["rcfile", "init-file"],
  // deno-fmt-ignore
  singleDash: ["debug", "debugger", "dump-po-strings", "dump-strings", "help", "init-file", "login",
    "noediting", "noprofile", "norc", "posix", "pretty-print", "protected", "rcfile", "restricted",
    "verbose", "version", "wordexp"],
};

/** zsh's (`-o NAME`, `-oNAME`; its other letters are flags, `--NAME` an option set). */
const ZSH_OPTIONS: ShellOptions = { valued: "o", glued: true, longValued: [] };

/**
 * The ksh family's (getopt): ksh93's `-R FILE`, mksh's `-T TTY`, `-o` (a shell that has no such
 * letter refuses to start); yash's `--rcfile`, `--profile`.
 */
const KSH_OPTIONS: ShellOptions = { valued: "oRT", glued: true, longValued: ["rcfile", "profile"] };

function shellOptions(name: string): ShellOptions {
  if (name === "zsh") return ZSH_OPTIONS;
  return /^(r?ksh|mksh|oksh|pdksh|loksh|yash)$/.test(name) ? KSH_OPTIONS : BASH_OPTIONS;
}

/**
 * What a long option of a shell is (`c`: its `-c`; `s`: its `-s`; `valued`: it takes the next
 * word). zsh's: `--emulate MODE`, else `--NAME` sets and `+-NAME` unsets an option
 * (`--shinstdin` is `-s`); yash's: `--cmdline`, `--stdin`, `--profile FILE`, `--rcfile FILE`
 * (any unambiguous prefix; `--profile=FILE` too), `++NAME` unsets; bash's: `--rcfile`,
 * `--init-file`.
 */
function longOption(
  shell: string,
  v: string,
  grammar: ShellOptions,
): "c" | "s" | "valued" | null {
  if (shell === "zsh") {
    return v === "--emulate" || v === "+-emulate"
      ? "valued"
      : namedOption(shell, v[0] + v.slice(2));
  }
  if (shell !== "yash") return grammar.longValued.includes(v.slice(2)) ? "valued" : null;
  const eq = v.indexOf("=");
  const n = v.slice(2, eq < 0 ? undefined : eq).toLowerCase().replace(/[^a-z0-9]/g, "");
  if (n.length < 2) return null;
  if (v[0] === "-" && "cmdline".startsWith(n)) return "c";
  if (v[0] === "-" && "stdin".startsWith(n)) return "s";
  return eq < 0 && ("profile".startsWith(n) || "rcfile".startsWith(n)) ? "valued" : null;
}

/**
 * What an option named by `-o NAME` (`+o`) or a long option is: zsh's names, any case, `_` and
 * `-` ignored, `no` before one turning it off (`-o SHIN_STDIN`, `+o noshinstdin`: `-s`); yash's
 * `-o stdin`, `-o cmdline` (any unambiguous prefix). `signed`: the name after its `-` or `+`.
 */
function namedOption(shell: string, signed: string): "c" | "s" | null {
  const on = signed[0] === "-";
  if (shell === "zsh") {
    const n = signed.slice(1).toLowerCase().replace(/[-_]/g, "");
    return (n === "shinstdin" && on) || (n === "noshinstdin" && !on) ? "s" : null;
  }
  if (shell !== "yash" || !on) return null;
  const n = signed.slice(1).toLowerCase().replace(/[^a-z0-9]/g, "");
  if (n.length < 2) return null;
  return "cmdline".startsWith(n) ? "c" : "stdin".startsWith(n) ? "s" : null;
}

/**
 * Whether a word not known is surely a file's name and no option: a glob's matches (a loop's word
 * over a glob too) or a path a program lists that is no symlink (`find scripts -type f -exec bash
 * -n {} \;`), each below a known place that begins with a name (`scripts/*.sh`), never with `-`
 * or `+`. (Another value not known, `scripts/$X`, may be `../../dev/stdin`; a glob's match that
 * leads to a stream is looked for in lib/policy/linked_streams.ts.)
 */
function namedFile(w: Word): boolean {
  if (w.kind === "glob" ? w.pattern === undefined : !w.listed?.noLinks) return false;
  return w.prefix !== "" && !/^[-+]/.test(w.prefix);
}

/** The `-c` string of a shell invocation, the script of `sh file`, or null (stdin). */
export function shellPayload(args: Word[], name = "sh"): Word | { script: Word } | null {
  if (name === "fish") return fishPayload(args);
  const grammar = shellOptions(name);
  let command = false;
  let stdin = false;
  let long = true;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") {
      // A word not known where an option may stand may be one (`-c`, `-s`): not known, as the
      // text. A glob or a listed path that begins with a name is no option: the script, or
      // after `-c` the text (`bash -n scripts/*.sh`, `find … -exec bash -n {} \;`).
      if (command || stdin || !namedFile(a)) return a;
      break;
    }
    const v = a.value;
    if (v === "-" || v === "--" || (name === "zsh" && v === "+-")) {
      i++;
      break;
    }
    if (!/^[-+]./.test(v)) break;
    if (v.startsWith("--") || /^(zsh\+-|yash\+\+)/.test(name + v.slice(0, 2))) {
      const long = longOption(name, v, grammar);
      if (long === "c") command = true;
      else if (long === "s") stdin = true;
      else if (long === "valued") i++;
      continue;
    }
    if (long && v[0] === "-" && grammar.singleDash?.includes(v.slice(1))) {
      if (grammar.longValued.includes(v.slice(1))) i++;
      continue;
    }
    long = false;
    let next = i + 1;
    for (let j = 1; j < v.length; j++) {
      const c = v[j];
      if (c === "c") command = true;
      else if (c === "s") stdin = true;
      else if (grammar.valued.includes(c)) {
        if (!grammar.glued) next++;
        else {
          if (j + 1 === v.length) next++;
          const named = j + 1 === v.length ? args[i + 1]?.value ?? "" : v.slice(j + 1);
          const option = c === "o" ? namedOption(name, v[0] + named) : null;
          if (option === "s") stdin = true;
          else if (option === "c") command = true;
          break;
        }
      }
    }
    i = next - 1;
  }
  if (command) return args[i] ?? null;
  return stdin || i >= args.length ? null : { script: args[i] };
}

/** A shell's script file (`bash FILE`), or null (its `-c` text, its standard input). */
export function shellScript(args: Word[], name: string): Word | null {
  const payload = shellPayload(args, name);
  return payload && "script" in payload ? payload.script : null;
}
