/**
 * The values the plain reader (plain_analysis.ts) expands, as the walk gives them: `$HOME`,
 * `$PWD`, `$TMPDIR` from the environment, and a name the environment lacks, that bash does not set
 * itself and the command never assigns, as unset (parameter_ops.ts: `se${ZZ}crets` is `secrets`).
 *
 * @module
 */
import type { Cwds } from "./cwds.ts";
import { MAY_ASSIGN } from "./builtin_assignments.ts";
import type { BashEnv, LineOf, Stage } from "./model.ts";
import { namesIfs } from "./walk_values.ts";
import { mayBeUnset, onlyRead, unsetInEnvironment } from "./parameter_ops.ts";
import { touchedNames } from "./walk_words.ts";

/** What the shortcut needs of the walk's environment: where it runs, what `~` and `$HOME` are. */
export type PlainEnv = Pick<
  BashEnv,
  "cwd" | "home" | "env" | "unknown" | "nested" | "given" | "parameters"
>;

/** What expanding a value needs of the reading of a command. */
export interface ValueReading {
  source: string;
  env: PlainEnv;
  cwds: Cwds;
  /** The expandable names the command may assign (then their value is not known); made when asked. */
  touched: ReadonlySet<string> | null;
  /** The names expanded as unset (the analysis holds while the environment holds none of them). */
  unset?: Set<string>;
}

/** A decimal digit (NaN, outside the text: none). */
export function digit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A character of a variable name (NaN, outside the text: none). */
export function nameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/**
 * The `$NAME`, `${NAME}` or positional parameter (`$1`, `${10}`) at `at`: where it ends, and its
 * value where the walk knows it (`$HOME`, `$PWD`, `$TMPDIR` when set, "" for a name surely unset)
 * or null; null for anything else after a `$` (`$?`, `$@`, `${x:-y}`, a name the environment
 * lacks that the command may assign, `$OLDPWD`).
 */
export function variable(
  r: ValueReading,
  at: number,
  quoted = false,
): { end: number; value: string | null } | null {
  const source = r.source;
  const braced = source.charCodeAt(at + 1) === 123;
  const from = braced ? at + 2 : at + 1;
  let i = from;
  if (digit(source.charCodeAt(from))) {
    // A positional parameter (`$1`, `${10}`; `$10` is `$1` and a `0`): not known.
    if (!braced) return { end: from + 1, value: null };
    while (digit(source.charCodeAt(i))) i++;
    return source.charCodeAt(i) === 125 ? { end: i + 1, value: null } : null;
  }
  for (; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (!(nameChar(c) && (i > from || c < 48 || c > 57))) break;
  }
  if (i === from || (braced && source.charCodeAt(i) !== 125)) return null;
  const end = braced ? i + 1 : i;
  const name = source.slice(from, i);
  // (`$OLDPWD`: where an earlier move started, which the walk follows: dir_stack.ts.)
  if (name === "OLDPWD") return null;
  if (name !== "HOME" && name !== "PWD" && name !== "TMPDIR") {
    if (!unsetInEnvironment(name, r.env.env)) return { end, value: null };
    // (Surely unset, as the walk takes it: stateOf in walk_parameters.ts; checked again against
    // the stages read, `unsetHolds`.)
    // (Inside double quotes, the walk's reading of the text around decides: it reads them.)
    if (quoted || !mayBeUnset(name, r.env) || !onlyRead(source, name)) return null;
    (r.unset ??= new Set()).add(name);
    return { end, value: "" };
  }
  const known = name === "TMPDIR" && r.env.env.TMPDIR === undefined ? null : knownValue(r, name);
  return known === null ? null : { end, value: known };
}

/**
 * Whether the names a reading took to be unset are as the walk takes them: no stage runs a
 * builtin that may assign names (`read`, `export`, `source`, `eval`, …) or a command whose name is
 * not known (either may assign any), which would have the walk stop following values.
 */
export function unsetHolds(stages: readonly Stage[]): boolean {
  return stages.every((s) => {
    const name = s.argv[0];
    return name === undefined || (name.kind === "static" && !MAY_ASSIGN.has(name.value));
  });
}

/**
 * The value the walk gives `$HOME` (or `~`), `$PWD` (the cwd: here always one) and `$TMPDIR`, from
 * the environment; null when the command may assign the name (the walk's values then decide) or,
 * for TMPDIR, "" when unset.
 */
export function knownValue(r: ValueReading, name: "HOME" | "PWD" | "TMPDIR"): string | null {
  r.touched ??= touchedNames(r.source);
  if (r.touched.has(name)) return null;
  // (`$PWD` is the stage's cwd when it is one, known: else the walk tells it.)
  if (name === "PWD") return r.cwds.length === 1 ? r.cwds[0] : null;
  return name === "HOME" ? r.env.env.HOME ?? r.env.home : r.env.env.TMPDIR ?? "";
}

/**
 * What the walk makes of an unquoted `$(…)` word of one pipeline ending in `stage`
 * (substitution_outputs.ts `listingPart`): its words, split, where IFS is surely its default
 * and the command does not change how programs are found (else undefined). Null where the walk
 * may have stopped following values before it (a builtin that may assign): the walk reads it.
 */
export function splitLine(
  r: ValueReading,
  stage: Stage,
  stages: Stage[],
): LineOf | undefined | null {
  if (!unsetHolds(stages)) return null;
  if (r.env.env.BASH_ENV !== undefined || namesIfs(r.source)) return undefined;
  r.touched ??= touchedNames(r.source);
  if (r.touched.has("PATH")) return undefined;
  return { from: stage, raw: true, trimmed: true, split: true };
}

/** Where the single-quoted text at `at` closes: every character as it is (printable ASCII). */
export function singleQuoteEnd(source: string, at: number): number {
  const close = source.indexOf("'", at + 1);
  for (let j = at + 1; j < close; j++) if (!printable(source.charCodeAt(j))) return -1;
  return close;
}

/** A printable ASCII character or a tab. */
export function printable(c: number): boolean {
  return (c >= 32 && c < 127) || c === 9;
}
