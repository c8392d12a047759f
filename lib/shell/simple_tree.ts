/**
 * The syntax tree of a plain command, built without tree-sitter. Most commands an agent runs are
 * words, quotes, escapes, `$NAME`, `${NAME:-word}`-style operators, globs, `$(…)`, `<(…)`, `( … )`,
 * `{ …; }`, `while`/`until`/`for`/`if` on one line, `export`-style declarations, pipes,
 * `&&`/`||`/`;`/`&`, file redirects and a trailing comment; for those this reader builds the very
 * tree tree-sitter-bash would (node for node, with its quirks), in a fraction of the time. Anything
 * else (`case`, functions, tests, heredocs, `${…}` with quoted or nested words, arithmetic,
 * newlines, control characters, and every spot where tree-sitter's reading is odd) returns null and
 * goes to tree-sitter. `simple_tree_test.ts` holds it to tree-sitter on the corpus and on fuzz.
 *
 * The work is split: `simple_words.ts` and `simple_reader.ts` read the command into shapes
 * (`simple_shapes.ts`), `simple_builder.ts` makes the nodes.
 *
 * @module
 */
import { build } from "./simple_builder.ts";
import { Reader } from "./simple_reader.ts";
import { OUTSIDE, type Statement } from "./simple_shapes.ts";
import type { LiteNode } from "./syntax_tree.ts";

/**
 * What the reader leaves to tree-sitter wherever it is: control characters (newlines too), blanks
 * other than space and tab, invisible formatting characters and surrogate pairs. (Offsets are
 * UTF-16 indexes on both sides.)
 */
const UNREAD =
  /[^\t\x20-\x7e\xa1-\u167f\u1681-\u180d\u180f-\u1fff\u2010-\u2027\u2030-\u205e\u2070-\u2fff\u3001-\ud7ff\ue000-\ufefe\uff00-\uffef]/;

/** The tree tree-sitter-bash would build for `source`, or null when the reader cannot say. */
export function simpleTree(source: string): LiteNode | null {
  if (source.length > 4096 || UNREAD.test(source)) return null;
  const r = new Reader(source);
  let statements: Statement[];
  try {
    statements = r.statements(null);
  } catch (e) {
    if (e === OUTSIDE) return null;
    throw e;
  }
  return build(source, statements, r.comment);
}
