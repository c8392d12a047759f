/**
 * git's words that name lines or revisions, not files: `-L RANGE` of `git log` and `git blame`
 * (`-L '/fn/,+5:src/x.ts'`, `-L :main`), and a range of revisions one end of which is not known
 * before it runs (`"$(git describe --tags --abbrev=0)"..HEAD`).
 *
 * @module
 */
import type { Word } from "../shell/model.ts";

/** git subcommands whose operands before `--` may be revisions (`log A..B`). */
const REVISION_LISTS = new Set(["log", "show", "shortlog", "whatchanged", "rev-list", "diff"]);

/**
 * The indexes of such words, as text: `-L`'s value (lines by numbers or regexes; the file `log`
 * names after its last `:` is read as `REV:path` is, see `gitObjectFiles`; `blame`'s is its
 * operand; a value not known stays a word that may be a path), and a revision range with an end
 * not known (as a path git would take it for only a file of that name in the work tree, which
 * a name ending or starting in `..` hardly is: no path reaching anywhere). Up to `--`.
 */
export function rangeText(argv: Word[], at: number, sub: string): number[] {
  const lines = sub === "log" || sub === "blame" || sub === "annotate";
  const revisions = REVISION_LISTS.has(sub);
  if (!lines && !revisions) return [];
  const out: number[] = [];
  for (let i = at + 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.kind !== "static") {
      if (revisions && REVISION_RANGE.test(w.text)) out.push(i);
      continue;
    }
    if (w.value === "--") break;
    if (!lines) continue;
    if (w.value === "-L" && argv[i + 1]?.kind === "static") out.push(++i);
    else if (w.value.startsWith("-L") && w.value.length > 2) out.push(i);
  }
  return out;
}

/** A range whose unknown end is quoted (`"$(…)"`, `"$X"`, `"${X}"`: one word), the other a name. */
const REVISION_RANGE =
  /^("\$(\([^"]*\)|\{?\w+\}?)"\.\.\.?[\w@^~{}\/.-]*|[\w@^~{}\/-]+\.\.\.?"\$(\([^"]*\)|\{?\w+\}?)")$/;
