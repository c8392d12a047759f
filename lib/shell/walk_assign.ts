/**
 * What an assignment alone (`X=src`, `a[1]=x`, `a=(x y)`) gives its variable from here on: the
 * value where it is known and the assignment surely runs (see `Values` in walk_values.ts), else
 * not known; a name or an arithmetic assignment the walk cannot follow stops the following of
 * values.
 *
 * @module
 */
import type { Cwds } from "./cwds.ts";
import type { LiteNode } from "./syntax_tree.ts";
import { assignArray, assignElement } from "./walk_arrays.ts";
import type { WalkContext } from "./walk_context.ts";
import { inArithmetic } from "./walk_evaluation.ts";
import type { Known } from "./walk_values.ts";
import { decodeWord, outputValue } from "./walk_words.ts";

/** Give the variable `node` assigns its value in `ctx`'s values (see the module). */
export function assignValue(ctx: WalkContext, node: LiteNode, cwds: Cwds): void {
  const name = node.childForFieldName("name")?.text ?? "";
  // (In arithmetic, `((i = 0))`, a value is an expression: the command is not followed.)
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || inArithmetic(node)) {
    // (`a[1]=x` of an array followed: walk_arrays.ts.)
    if (!inArithmetic(node) && assignElement(ctx, node, () => decodeWord(ctx, node, cwds))) {
      return;
    }
    ctx.values.stop();
    return;
  }
  if (node.childForFieldName("value")?.type === "array") assignArray(ctx, node, cwds);
  if (!ctx.values.following) return;
  const w = decodeWord(ctx, node, cwds);
  const plus = node.text.startsWith(name + "+=");
  // (A glob's word is text in an assignment; one made of a variable's value is not known.)
  const known = w.kind === "static" || (w.kind === "glob" && !node.text.includes("$"));
  let value: Known | null = known
    ? { value: w.value.slice(name.length + (plus ? 2 : 1)), kind: "text" }
    : plus
    ? null
    : outputValue(ctx, node, cwds);
  if (plus && value) {
    const old = ctx.values.get(name);
    value = old?.kind === "text" ? { value: old.value + value.value, kind: "text" } : null;
  }
  ctx.values.assign(name, value);
}
