/**
 * What a command hands the shell text another shell runs (`bash -c '…'`, `sh -c`, `find -exec sh
 * -c '…' _ {} \;`, `xargs sh -c`, `env X=… sh -c`), as bash does it: the variables it exported
 * (`export F=x`, `F=x; export F`; not after `export -n F` or `unset F`, and never one merely
 * assigned: `F=x; bash -c 'echo $F'` prints nothing), its prefix assignments (`F=x bash -c …`),
 * env's `NAME=value` (not after `env -i`, nor a name `env -u` takes away), and the words after
 * the text as `$0 $1 …`. A wrapper hands on what it is given where it keeps the environment
 * (`nice`, `timeout`, `xargs`, `find -exec`, `sudo -E`, `sudo --preserve-env=F`; `sudo` alone
 * resets it, `exec -c` clears it). The values are known there only where nothing else may set
 * them first: a non-interactive, non-login `bash`, `sh` or `dash` with no `BASH_ENV` (its startup
 * file) in its environment or named by the command; `zsh` reads `~/.zshenv` first, an interactive
 * shell its rc files. Everything else in the text stays as before: not known.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * const stage = { argv: [literal("bash"), literal("-c"), literal("cat $F")], redirects: [],
 *   text: "", origin: "top", cwds: ["/p"], assignments: [literal("F=README.md")] };
 * handedBy(stage); // Map { "F" => "README.md" }
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { programName } from "./words.ts";

/** Wrappers that run their command in the environment they are given, as it is. */
const KEEPS = new Set([
  "nice",
  "nohup",
  "timeout",
  "time",
  "command",
  "stdbuf",
  "setsid",
  "ionice",
  "flock",
  "chrt",
  "taskset",
  "xargs",
  "find",
]);

const NAME_VALUE = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;

/**
 * The variables a stage's process has with a value known as text: the shell's exported ones
 * where it was made (`Stage.handed`), changed by its own `NAME=value` prefixes (one not known
 * takes its name away). Undefined: none known.
 */
export function handedBy(stage: Stage): ReadonlyMap<string, string> | undefined {
  const own = stage.assignments;
  if (!own?.length) return stage.handed;
  const out = new Map(stage.handed);
  for (const a of own) set(out, a);
  return out.size ? out : undefined;
}

/**
 * A variable as the stage's program finds it: its own `NAME=value` prefix, else what the shell
 * exported with a known value (`export NAME=v`, env's), else `env`'s (the tool's environment);
 * null where not known (a value not known, a name the text around may change), undefined where
 * not set.
 */
export function stageVariable(
  stage: Stage | undefined,
  name: string,
  env: Readonly<Record<string, string | undefined>> | undefined,
): string | null | undefined {
  let value: string | null | undefined = stage?.handed?.get(name);
  let given = value !== undefined;
  for (const a of stage?.assignments ?? []) {
    const m = NAME_VALUE.exec(a.kind === "static" ? a.value : a.prefix);
    if (m?.[1] !== name) continue;
    const text = a.kind === "static" ? a.value.slice(m[0].length) : null;
    value = text === null ? null : m[2] ? (given && value !== null ? value + text : null) : text;
    given = true;
  }
  if (given) return value;
  return stage?.unknownVars?.has(name) ? null : env?.[name];
}

/** `NAME=value` (`NAME+=value`) given to `out`: its text, or the name taken away. */
function set(out: Map<string, string>, a: Word): void {
  const m = NAME_VALUE.exec(a.kind === "static" ? a.value : a.prefix);
  if (m === null) return;
  const old = out.get(m[1]);
  const value = a.kind === "static" ? a.value.slice(m[0].length) : null;
  if (value === null || (m[2] && old === undefined)) out.delete(m[1]);
  else out.set(m[1], m[2] ? old + value : value);
}

/**
 * What a wrapper stage hands the command it runs (see the module): undefined for none known,
 * or where the wrapper may change its environment otherwise.
 */
export function passedOn(stage: Stage): ReadonlyMap<string, string> | undefined {
  const name = programName(stage.argv[0]);
  if (KEEPS.has(name)) return handedBy(stage);
  if (name === "env") return envPassed(stage);
  if (name === "exec") {
    // (`exec -c`: a clean environment; `-a NAME` takes a word.)
    return stage.argv.some((w) => w.kind !== "static" || /^-[^-]*c/.test(w.value))
      ? undefined
      : handedBy(stage);
  }
  if (name === "sudo") return sudoPassed(stage);
  return undefined;
}

/** env: what it is given, less `-u NAME` (`--unset=NAME`, `-uNAME`); nothing after `-i`/`-`. */
function envPassed(stage: Stage): ReadonlyMap<string, string> | undefined {
  const given = handedBy(stage);
  if (given === undefined) return undefined;
  const out = new Map(given);
  const args = stage.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    if (w.kind !== "static") return undefined;
    const v = w.value;
    if (v === "--" || !v.startsWith("-") || NAME_VALUE.test(v)) break;
    if (v === "-" || v === "-i" || v.startsWith("--ig")) return undefined;
    let unset: string | undefined;
    if (v === "-u" || v === "--unset" || v === "--un" || v === "--uns") unset = args[++i]?.value;
    else if (v.startsWith("--u") && v.includes("=")) unset = v.slice(v.indexOf("=") + 1);
    else if (/^-[0v]*u./.test(v)) unset = v.slice(v.indexOf("u") + 1);
    else if (!/^-[0v]+$/.test(v)) return undefined; // (`-C`, `-S`, `-i` in a cluster, …)
    if (unset === undefined) return undefined;
    out.delete(unset);
  }
  return out.size ? out : undefined;
}

/**
 * sudo: its `env_reset` leaves nothing of the caller's but what sudoers keeps (a local setting,
 * not known), short of `-E`/`--preserve-env` (all) or `--preserve-env=LIST` (those names).
 */
function sudoPassed(stage: Stage): ReadonlyMap<string, string> | undefined {
  const given = handedBy(stage);
  if (given === undefined) return undefined;
  let kept: Set<string> | "all" | null = null;
  for (const w of stage.argv.slice(1)) {
    if (w.kind !== "static" || !w.value.startsWith("-") || w.value === "--") break;
    const v = w.value;
    if (v === "--preserve-env" || /^-[A-Za-z]*E/.test(v) && !v.startsWith("--")) kept = "all";
    else if (v.startsWith("--preserve-env=") && kept !== "all") {
      kept ??= new Set();
      for (const n of v.slice(15).split(",")) kept.add(n);
    }
  }
  if (kept === null) return undefined;
  if (kept === "all") return given;
  const out = new Map([...given].filter(([n]) => (kept as Set<string>).has(n)));
  return out.size ? out : undefined;
}

/** Options of bash, sh and dash that read no startup file and leave the values as they are. */
const PLAIN_OPTIONS = /^-[cefhnuvxBCEHPT]*c[cefhnuvxBCEHPT]*$/;

/**
 * The values and parameters a shell stage's `-c` text starts with (see the module), or null where
 * they are not known there: another shell, an interactive or login one, an option not plain, a
 * `BASH_ENV` it may find (`startup`: the tool's environment or the command may set one).
 */
export function shellStart(
  stage: Stage,
  payload: Word,
  startup: boolean,
): { given?: ReadonlyMap<string, string>; parameters?: Word[] } | null {
  const name = programName(stage.argv[0]);
  if (name !== "bash" && name !== "sh" && name !== "dash") return null;
  const at = stage.argv.indexOf(payload);
  if (at < 0) return null;
  for (let i = 1; i < at; i++) {
    const w = stage.argv[i];
    if (w.kind !== "static" || !(PLAIN_OPTIONS.test(w.value) || w.value === "--")) return null;
  }
  const given = handedBy(stage);
  if (startup || given?.has("BASH_ENV") || given?.has("ENV")) return null;
  // (`$0` a word that may be several or none, xargs's or a glob's: which word is `$1` is not known.)
  const zero = stage.argv[at + 1];
  if (zero !== undefined && zero.kind !== "static") return given ? { given } : null;
  return { given, parameters: stage.argv.slice(at + 2) };
}
