/**
 * What shell text a command runs (`eval`, `bash -c`, `xargs sh -c`, `find -exec sh -c`, a trap's
 * handler, a script, ...) may find changed in its environment: the variables the analysis
 * otherwise takes from the tool's environment (`HOME`, `PWD`, `TMPDIR`; `CDPATH` for `cd`) that
 * the text around it assigns, exports, unsets, reads or otherwise names, or that a wrapper clears
 * (`env -i`). Inside the nested text their value is not known: the tool's value would be a guess
 * (`export TMPDIR=~; bash -c 'cat $TMPDIR/.ssh/id_rsa'` reads the home's key, not /tmp's).
 *
 * @module
 */
import { cdUnknown } from "../shell/cwds.ts";
import type { BashEnv, Stage } from "../shell/model.ts";
import type { NestedStart } from "../programs/spec.ts";
import { touchedNames } from "../shell/walk_words.ts";

const NONE: ReadonlySet<string> = new Set();

/**
 * The variables a shell text may change for what it runs in turn (see the module): the names it
 * names (quotes and escapes removed, as bash reads them), and `CDPATH` where a `cd` of it may go
 * elsewhere than its operand names (`CDPATH`, `cdable_vars`).
 */
export function changedNames(text: string): ReadonlySet<string> {
  const named = touchedNames(text);
  if (!cdUnknown(text)) return named;
  return new Set([...named, "CDPATH"]);
}

/** Two sets of names as one (either itself where the other is empty). */
export function joinedNames(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> {
  if (!b.size) return a;
  if (!a.size) return b;
  return new Set([...a, ...b]);
}

/**
 * What a nested text the stage `from` runs finds not known: what the whole command may change
 * (`top`, made when first asked) and what the text around `from` does (`Stage.unknownVars`).
 */
export function unknownIn(top: () => ReadonlySet<string>, from?: Stage): ReadonlySet<string> {
  return joinedNames(top(), from?.unknownVars ?? NONE);
}

/**
 * What a nested shell's text is known to start with (handed_env.ts), where the command may not
 * set its startup file (`BASH_ENV`).
 */
export function startOf(
  start: NestedStart | undefined,
  unknown: ReadonlySet<string>,
): Pick<BashEnv, "given" | "parameters" | "listing"> {
  if (start === undefined || unknown.has("BASH_ENV") || unknown.has("ENV")) return {};
  const out: Pick<BashEnv, "given" | "parameters" | "listing"> = {};
  if (start.given?.size) out.given = start.given;
  if (start.parameters) out.parameters = start.parameters;
  if (start.listing) out.listing = start.listing;
  return out;
}
