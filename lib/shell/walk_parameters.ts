/**
 * The values of parameter expansions the walk computes (walk_words.ts asks): the state of a
 * parameter (its text, surely unset, or not known), and `${NAME<op>…}` of it (parameter_ops.ts),
 * `${NAME%PATTERN}` of a loop variable's glob too.
 *
 * @module
 */
import type { Cwds } from "./cwds.ts";
import { affixExpansion, removeAffix } from "./affixes.ts";
import { applyParameterOp, mayBeUnset, parameterOp } from "./parameter_ops.ts";
import type { Part } from "./substitution_outputs.ts";
import type { LiteNode } from "./syntax_tree.ts";
import type { WalkContext } from "./walk_context.ts";
import { knownPart } from "./walk_values.ts";
import { unquotedText } from "./words.ts";

/** Variables whose values the engine may expand (RULINGS principle 3). */
export const EXPANDABLE = ["HOME", "PWD", "TMPDIR"];

/**
 * The one directory `$PWD` names, or null when the stage may run in several or an unknown one, or
 * the command may have given PWD another value: its text names it (`PWD=x`, `read PWD`), a walked
 * builtin assigned it (`v=PW; printf -v "${v}D" x`), or something may have assigned any name
 * (`declare -n r="${v}D"`: `Values.stopped`).
 */
export function pwd(ctx: WalkContext, cwds: Cwds): string | null {
  const { values } = ctx;
  return cwds.length === 1 && !ctx.touched.has("PWD") && !values.stopped &&
      !values.assignedSoFar("PWD")
    ? cwds[0]
    : null;
}

/**
 * The state of a parameter where known: its text, or null where it is surely unset (not in the
 * environment, not bash's own, never assigned by the command: parameter_ops.ts); undefined where
 * not known.
 */
export function stateOf(ctx: WalkContext, name: string, cwds: Cwds): string | null | undefined {
  if (EXPANDABLE.includes(name) && !ctx.touched.has(name)) {
    const v = name === "PWD"
      ? pwd(ctx, cwds)
      : name === "HOME"
      ? (ctx.env.env.HOME ?? ctx.env.home)
      : ctx.env.env[name];
    if (v !== undefined) return v ?? undefined;
  }
  const k = ctx.values.get(name);
  if (k !== undefined) return k.kind === "text" ? k.value : undefined;
  const env = ctx.env;
  if (!mayBeUnset(name, env)) return undefined;
  return ctx.values.neverAssigned(name) ? null : undefined;
}

/**
 * An unset parameter expanded (`$zz`): nothing. Unquoted, a word of nothing else is no word at
 * all (bash drops it): not known here, where the word is not.
 */
export function emptyPart(quoted: boolean): Part {
  return quoted
    ? { value: "", kind: "static" }
    : { value: "", kind: "static", unquoted: true, empty: true };
}

/** `${NAME<op>…}` computed where NAME's state and the operator's word are known; else null. */
export function operatorPart(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  quoted: boolean,
): Part | null {
  if (ctx.calls?.bound || (!quoted && !ctx.values.defaultIfs(ctx.env.env))) return null;
  const o = parameterOp(node.text);
  if (o === null) return null;
  const state = stateOf(ctx, o.name, cwds);
  if (state === undefined) return null;
  // (`shopt -s nocasematch`, or BASHOPTS, makes a replacement's pattern match either case.)
  if (o.op[0] === "/" && /[A-Za-z]/.test(o.word!) && nocasematch(ctx)) return null;
  const value = applyParameterOp(o, state);
  if (value === null) return null;
  if (value === "") return emptyPart(quoted);
  return knownPart({ value, kind: "text" }, quoted);
}

/**
 * Whether `nocasematch` may be on: bash takes it from `BASHOPTS` (or `BASH_ENV` may set it), or
 * the command names it (quotes and escapes aside: `shopt -s nocase\match`), or may have set any
 * option in ways not seen (`eval`, `source`, `shopt "$o"`: what is known stopped).
 */
function nocasematch(ctx: WalkContext): boolean {
  const env = ctx.env.env;
  return /\bnocasematch\b/.test(env.BASHOPTS ?? "") || env.BASH_ENV !== undefined ||
    ctx.values.stopped || /nocasematch/.test(unquotedText(ctx.values.root));
}

/**
 * `${NAME%PATTERN}` and its kin (affixes.ts) of a value the command gave NAME: its text with the
 * affix removed, or (quoted) a loop variable's glob whose matches have it removed. Null otherwise.
 */
export function affixPart(ctx: WalkContext, node: LiteNode, quoted: boolean): Part | null {
  if (node.type !== "expansion" || (!quoted && !ctx.values.defaultIfs(ctx.env.env))) return null;
  const cut = affixExpansion(node.text);
  const k = cut === null ? undefined : ctx.values.get(cut.name);
  if (cut === null || k === undefined) return null;
  if (k.kind === "text") {
    const value = removeAffix(k.value, cut.affix);
    return value === null ? null : knownPart({ value, kind: "text" }, quoted);
  }
  if (k.kind !== "glob" || !quoted || k.pattern === undefined) return null;
  return {
    value: node.text,
    kind: "glob",
    expanded: true,
    raw: k.pattern,
    cut: [cut.affix],
    at: k.at,
  };
}
