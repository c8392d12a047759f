/**
 * The directories a command may run in, as its statements move the shell: the cwd sets
 * ({@linkcode Cwds}, null for unknown), how they flow on success and failure ({@linkcode Flow}),
 * and where a `cd`/`pushd` leads ({@linkcode cdTarget}).
 *
 * @module
 */
import { resolve } from "node:path";
import type { BashEnv, Word } from "./model.ts";
import { cdInto, MAY_REACH_PROC, processPath, procSpelling } from "./paths.ts";
import { activatedEnvironment } from "./sourced.ts";
import { plainNames, trapRunsLater } from "./trap.ts";
import { unquotedText } from "./words.ts";
import { runTimePattern } from "./run_time_parts.ts";

/** The directories a statement may run in; null means unknown. */
export type Cwds = (string | null)[];
/** The cwds after a statement succeeded and after it failed. */
export type Flow = { ok: Cwds; fail: Cwds };

/** At most this many cwds are told apart; more become unknown. */
const MAX_CWDS = 8;

/** The flow of a statement that does not move: the same cwds either way. */
export function same(cwds: Cwds): Flow {
  return { ok: cwds, fail: cwds };
}

/** Every cwd of the sets (at most MAX_CWDS, the rest unknown). */
export function union(...sets: Cwds[]): Cwds {
  // Mostly the sets are one and the same: keep the first (cwd lists are never changed in place).
  const first = sets[0];
  if (first.length === 1 || first.length <= MAX_CWDS && new Set(first).size === first.length) {
    let more = false;
    for (let i = 1; i < sets.length && !more; i++) {
      if (sets[i] !== first) more = sets[i].some((c) => !first.includes(c));
    }
    if (!more) return first;
  }
  const out: Cwds = [];
  for (const s of sets) for (const c of s) if (!out.includes(c)) out.push(c);
  if (out.length > MAX_CWDS) return [...out.slice(0, MAX_CWDS - 1), null];
  return out;
}

/**
 * Where a statement joined by `op` to the statements before it starts: after `&&` where they
 * succeeded, after `||` where they failed, after `;` (or anything else) either (see `reached`).
 */
export function startAfter(flow: Flow, op: string): Cwds {
  return reached(op === "&&" ? flow.ok : op === "||" ? flow.fail : union(flow.ok, flow.fail));
}

/**
 * Where a statement runs that comes after cwds `at`: those, or, where every way there ended the
 * shell (`exit; cat x`), a directory not known (a statement bash never runs is judged as one that
 * may run anywhere, not as none).
 */
export function reached(at: Cwds): Cwds {
  return at.length ? at : UNREACHED;
}

const UNREACHED: Cwds = [null];

/** The flow of `exit`: nothing runs after it in this shell (ok and fail both empty). */
export const ENDED: Flow = { ok: [], fail: [] };

/**
 * Whether a command ends the shell it runs in: `exit` (also after `builtin`/`command`), where it
 * is the builtin (`exitBuiltin`) and surely runs (no redirect that may fail: `exit 1 <&9` is not
 * run; one to /dev/null cannot fail). The caller knows whether it runs in this shell (a subshell's,
 * a pipeline's or the background's flow is not the shell's).
 */
export function endsShell(
  argv: Word[],
  builtin: boolean,
  redirects: readonly { target?: Word | null; op?: string }[] = [],
): boolean {
  // (A redirect that fails keeps a special builtin from running: `exit 1 <&9` goes on.)
  if (!builtin || redirects.some((r) => r.target?.value !== "/dev/null")) return false;
  const at = builtinAt(argv);
  const name = at < 0 ? undefined : argv[at];
  return name?.kind === "static" && name.value === "exit";
}

/**
 * Whether `exit` is surely the builtin in a command and ends its shell: its text defines no
 * function or alias that may be named so, turns no builtin off (`exit() { :; }`, `enable -n
 * exit`), and sets no `checkjobs` (an interactive shell then keeps going past the first `exit`).
 */
export function exitBuiltin(source: string): boolean {
  return !/\bexit\s*\(|\bfunction\b|\b(alias|enable)\b|checkjobs/.test(source);
}

/**
 * The flow of statements (`a`) and one more (`b`) joined by `op`: after `&&`, success is b's and
 * failure either's; after `||`, the reverse; after `;` (or anything else), b's alone.
 */
export function joinedFlow(a: Flow, op: string, b: Flow): Flow {
  if (op === "&&") return { ok: b.ok, fail: union(a.fail, b.fail) };
  if (op === "||") return { ok: union(a.ok, b.ok), fail: b.fail };
  return b;
}

/** Commands that may change the cwd in ways we cannot follow (they run other shell code). */
const OPAQUE = new Set(["eval", "source", ".", "popd"]);

/**
 * What a cd needs to know: the home directory (null: unknown), CDPATH, and whether a relative cd may
 * lead elsewhere than its operand names (`cdUnknown`).
 */
/** A descriptor's own directory entry: `/proc/self/fd/3`, `/dev/fd/3`. */
const FD_DIR = /^\/(dev\/fd|proc\/[^/]+\/fd)\/\d+\/?$/;

/**
 * Where `cd` into `to` (absolute, as written) leads from `cwd` when it is a path of the process
 * however spelled (see `processPath`): `/proc/self/cwd/x` is `x` in `cwd`; `[null]` where it is
 * not known (another process's, a directory open on a descriptor: `cd /dev/fd/3`); undefined
 * when `to` is no such path.
 */
function procCwd(to: string, cwd: string | null, physical: boolean): Cwds | undefined {
  if (!MAY_REACH_PROC.test(to)) return undefined;
  const proc = procSpelling(to);
  if (proc === undefined) return undefined;
  const mapped = processPath(proc, cwd);
  if (mapped === null || (mapped === undefined && FD_DIR.test(proc))) return [null];
  return cdInto("/", mapped ?? proc, physical);
}

export interface CdFacts {
  home: string | null;
  env: Pick<BashEnv, "env">;
  /** @default false */
  cdpathUnknown?: boolean;
  /** No name of the command can be a function or an alias (`plainNames`). @default false */
  plainNames?: boolean;
}

/**
 * Whether a command may send a relative `cd` elsewhere than its operand names: it assigns
 * `CDPATH`, or sets `cdable_vars` (then `cd NAME` goes to `$NAME` when no directory NAME exists).
 */
export function cdUnknown(source: string): boolean {
  // (Names as bash reads them after quote removal: `export CDP\ATH=…`, `shopt -s cdable_v\ars`.)
  const text = unquotedText(source);
  return text.includes("CDPATH") || text.includes("cdable_vars");
}

/** What a `cd` and a trap's handler need to know of the command's source (see `CdFacts`). */
export function sourceFacts(source: string): Pick<CdFacts, "cdpathUnknown" | "plainNames"> {
  return { cdpathUnknown: cdUnknown(source), plainNames: plainNames(source) };
}

/**
 * Whether `mapfile`'s callback (`-C TEXT`, `-CTEXT`) may change directory: a text not known, one
 * that names cd, pushd or popd however spelled, or a word that may be a function's name (which
 * may move). Bash runs it in the shell itself.
 */
function callbackMoves(args: Word[]): boolean {
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a.kind !== "static" || !a.value.startsWith("-")) continue;
    const at = a.value.indexOf("C");
    if (at < 0 || /[dnOsuc]/.test(a.value.slice(1, at))) continue;
    const text = at < a.value.length - 1 ? a.value.slice(at + 1) : args[k + 1];
    if (text === undefined) return false;
    if (typeof text !== "string" && text.kind !== "static") return true;
    const value = typeof text === "string" ? text : text.value;
    return /(^|[\s;&|({])(cd|pushd|popd|source|\.|eval)(\s|[;&|)}]|$)/.test(unquotedText(value)) ||
      /^[^\s;&|()<>]+$/.test(value.trim());
  }
  return false;
}

/**
 * Where a stage leaves the shell when it succeeds: a `cd`/`pushd` (also after `builtin`/`command`)
 * where it leads, one that may move it unseen (`eval`, `source`, `popd`, a `trap` handler that may
 * run before later commands) anywhere; null when the stage does not change directory. Relative
 * operands may also go through CDPATH.
 */
export function cdTarget(argv: Word[], cwds: Cwds, facts: CdFacts): Cwds | null {
  const i = builtinAt(argv);
  if (i < 0) return null;
  const name = argv[i];
  if (!name) return null;
  if (name.kind !== "static") return union(cwds, [null]); // `$X /etc` may be `cd /etc`
  if (OPAQUE.has(name.value)) {
    // (A venv's activation script stays where it is: see sourced.ts.)
    if (name.value !== "eval" && name.value !== "popd" && activatedEnvironment(argv[i + 1])) {
      return null;
    }
    return union(cwds, [null]);
  }
  // A handler that runs before later commands may move them (`trap 'cd ~/.ssh' DEBUG`).
  if (name.value === "trap") {
    return trapRunsLater(argv.slice(i), facts.plainNames) ? union(cwds, [null]) : null;
  }
  // A callback `mapfile -C` runs in this shell may move it (`mapfile -C 'cd keys;:'`).
  if (name.value === "mapfile" || name.value === "readarray") {
    return callbackMoves(argv.slice(i + 1)) ? union(cwds, [null]) : null;
  }
  if (name.value !== "cd" && name.value !== "pushd") return null;
  // (`pushd -n dir` puts dir on the stack and stays.)
  if (
    name.value === "pushd" && argv.some((w, k) => k > i && w.kind === "static" && w.value === "-n")
  ) {
    return null;
  }
  const { args, physical } = operands(argv.slice(i + 1));
  const arg = args[0];
  if (!arg) return name.value === "cd" ? [facts.home] : [null];
  if (arg.kind !== "static" || arg.value === "-" || /^[+-]\d+$/.test(arg.value)) return [null];
  // (`cd $?`, `cd $(nproc)`: a directory named by a number bash computes as it runs.)
  if (runTimePattern(arg.value) !== null) return [null];
  const dir = arg.value;
  // `cd /proc/self/cwd/..`: bash's own cwd (see processPath), however /proc is spelled
  // (`//proc/…`, `../../proc/…`); a directory open on a descriptor (`cd /dev/fd/3`) is not known.
  // (Each place cd may take it, lexical and as written, with a path of the process mapped.)
  const from = (base: string, cwd: string | null) =>
    union(...cdInto(base, dir, physical).map((to) => procCwd(to, cwd, physical) ?? [to]));
  const into = (base: string | null) => base === null ? [null] : from(base, base);
  if (dir.startsWith("/")) {
    if (!MAY_REACH_PROC.test(dir)) return cdInto("/", dir, physical);
    return union(...cwds.map((c) => from("/", c)));
  }
  const plain = union(...cwds.map(into));
  if (/^\.\.?(\/|$)/.test(dir)) return plain;
  if (facts.cdpathUnknown) return union(plain, [null]);
  const cdpath = facts.env.env.CDPATH;
  if (!cdpath) return plain;
  // Each CDPATH entry (an empty one is the cwd) is tried before the plain relative path.
  const bases = cdpath.split(":").flatMap((
    p,
  ) => (p === "" ? cwds : cwds.map((c) => absoluteIn(p, c))));
  return union(...bases.map(into), plain);
}

function absoluteIn(path: string, cwd: string | null): string | null {
  if (path.startsWith("/")) return path;
  return cwd === null ? null : resolve(cwd, path);
}

/**
 * Where the builtin a stage runs is named, after `builtin [--]` and `command [-p] [--]` (which run
 * it all the same); -1 when `command -v`/`-V` only describes it.
 */
/**
 * Where the builtin a stage runs stands in its argv, past `builtin`, `command [-p] [--]` (`command
 * set -- …` is `set`); -1 for `command -v`/`-V`, which only describes.
 */
export function builtinAt(argv: Word[]): number {
  let i = 0;
  for (;;) {
    const w = argv[i];
    if (w?.kind !== "static" || (w.value !== "builtin" && w.value !== "command")) return i;
    i++;
    while (w.value === "command" && argv[i]?.kind === "static" && /^-[pvV]+$/.test(argv[i].value)) {
      if (/[vV]/.test(argv[i].value)) return -1;
      i++;
    }
    if (argv[i]?.kind === "static" && argv[i].value === "--") i++;
  }
}

/**
 * The operands of cd/pushd, options (`-L`, `-P`, `-e`, `-@`) and `--` dropped, and whether the
 * last of `-L`/`-P` is `-P`.
 */
function operands(args: Word[]): { args: Word[]; physical: boolean } {
  const out: Word[] = [];
  let options = true;
  let physical = false;
  for (const w of args) {
    if (options && w.kind === "static" && w.value === "--") options = false;
    else if (options && w.kind === "static" && /^-[LPe@]+$/.test(w.value)) {
      const last = Math.max(w.value.lastIndexOf("L"), w.value.lastIndexOf("P"));
      if (last > 0) physical = w.value[last] === "P";
    } else out.push(w);
  }
  return { args: out, physical };
}
