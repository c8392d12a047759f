/**
 * The items GNU xargs reads from input the gate knows (`echo README.md | xargs cat`,
 * `printf '%s\0' a b | xargs -0 cat`, `xargs cat <<< secrets/key`: piped_text.ts), split as
 * xargs(1) and its `read_line`/`read_string` split them:
 *
 * - by default, items are apart by blanks and newlines; single and double quotes hold blanks
 *   (a quote does not reach past its line), a backslash takes the next character as it is, an
 *   empty line is none, and an empty quote (`''`, `""`) is an empty item, short of the input's
 *   end;
 * - with `-I R` (`-i`, `--replace`) an item is a whole line, blanks and all, its leading
 *   whitespace dropped, quotes and backslashes read as above;
 * - with `-0` (`--null`) or `-d D` (`--delimiter`) items end at that character alone, nothing
 *   else is special (the newline echo prints is part of the last item), and an item may be empty;
 * - `-E EOF` (`-e`, `--eof`): the item that is EOF ends the input (not with `-0` or `-d`: "-E has
 *   no effect if -0 or -d is used").
 *
 * Each command gets all the items, or `-n N` of them at a time, or with `-I` one line (`-s`, `-x`
 * limit a command's length: the known texts are short). Null where xargs would stop (a quote
 * left open), the input comes from a file (`-a`), commands take lines
 * (`-L`), xargs asks the terminal (`-p`, `-o`), or an option is not known.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { inputTexts } from "./piped_text.ts";
import { literal } from "./words.ts";

/** How xargs splits its input. */
export interface Splitting {
  /** `-0`/`-d`: the one character that ends an item; null: blanks, quotes and backslashes. */
  delimiter: string | null;
  /** `-I`: an item is a line. */
  lines: boolean;
  /** `-E`: the item that ends the input. */
  eof: string | null;
  /** `-n N`: at most N items to a command (null: all together). */
  per: number | null;
  /** `-r`: no command where there are no items. */
  noEmpty: boolean;
}

/** xargs's splitting from its words (after `xargs`); null where its input is not split so. */
export function splitting(args: Word[], grammar: OptionGrammar): Splitting | null {
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  const out: Splitting = { delimiter: null, lines: false, eof: null, per: null, noEmpty: false };
  for (const t of readOptions(values, grammar)) {
    if (t.kind === "operand" || t.kind === "end") break;
    if (t.kind !== "flag" && t.kind !== "valued") return null;
    const value = t.glued ?? (t.valueAt === undefined ? undefined : values[t.valueAt]);
    if (t.name === "-0" || t.name === "--null") out.delimiter = "\0";
    else if (t.name === "-d" || t.name === "--delimiter") {
      const d = value == null ? null : delimiter(value);
      if (d === null) return null;
      out.delimiter = d;
    } else if (t.name === "-I" || t.name === "-i" || t.name === "--replace") out.lines = true;
    else if (t.name === "-E" || t.name === "-e" || t.name === "--eof") {
      if (value === null) return null;
      // (`-e` and `--eof` alone: no EOF string.)
      out.eof = value === undefined || value === "" ? null : value;
    } else if (t.name === "-n" || t.name === "--max-args") {
      if (value == null || !/^[1-9]\d*$/.test(value)) return null;
      out.per = Number(value);
    } else if (t.name === "-r" || t.name === "--no-run-if-empty") out.noEmpty = true;
    // (Commands of so many lines, from a file, or reading the terminal: not followed here.)
    else if (/^(-[aLlop]|--(arg-file|max-lines|open-tty|interactive))$/.test(t.name)) return null;
  }
  // (`-I` runs a command for each line; `-n` after it is `-n 1`, which it implies.)
  if (out.lines) out.per = 1;
  return out;
}

/** How many commands of known items xargs is followed to run at most. */
const MAX_RUNS = 16;

/**
 * The items of each command xargs runs where its input is text the gate knows (piped_text.ts
 * `inputTexts`), for each way that text may be printed (echo's escapes): all together, or `-n N`
 * at a time, or one line each with `-I`; with no items, one command without any (none with `-r`
 * or `-I`). Null where not known.
 */
export function knownRuns(stage: Stage, grammar: OptionGrammar): Word[][] | null {
  const how = splitting(stage.argv.slice(1), grammar);
  const texts = how && inputTexts(stage, { nul: how.delimiter === "\0" });
  if (!how || !texts) return null;
  const runs: Word[][] = [];
  for (const text of texts) {
    const items = xargsItems(text, how);
    if (items === null || items.join(" ").length > 4096) return null;
    if (!items.length && !how.noEmpty && !how.lines) runs.push([]);
    for (let i = 0; i < items.length; i += how.per ?? items.length) {
      runs.push(items.slice(i, i + (how.per ?? items.length)).map(literal));
    }
  }
  return runs.length > MAX_RUNS ? null : runs;
}

/** `-d`'s character: one, or `\n`, `\t`, `\0`, `\\` and the like (xargs's escapes). */
function delimiter(value: string): string | null {
  if (value.length === 1) return value;
  const named: Record<string, string> = {
    "\\n": "\n",
    "\\t": "\t",
    "\\0": "\0",
    "\\\\": "\\",
    "\\a": "\x07",
    "\\b": "\b",
    "\\f": "\f",
    "\\r": "\r",
    "\\v": "\v",
  };
  return named[value] ?? null;
}

/** The items xargs reads from `text` split by `how`; null where not known (see the module). */
export function xargsItems(text: string, how: Splitting): string[] | null {
  const items = how.delimiter === null ? quotedItems(text, how.lines) : delimited(text, how);
  if (items === null) return null;
  // (`-E` has no effect with `-0` or `-d`: xargs reads no end-of-file item there.)
  const end = how.eof === null || how.delimiter !== null ? -1 : items.indexOf(how.eof);
  return end < 0 ? items : items.slice(0, end);
}

/** Items ending at one character (`-0`, `-d`): the last one without it, if not empty. */
function delimited(text: string, how: Splitting): string[] {
  const items = text.split(how.delimiter!);
  if (items.at(-1) === "") items.pop();
  return items;
}

/** Items apart by blanks (lines, with `lines`), quotes and backslashes read (see the module). */
function quotedItems(text: string, lines: boolean): string[] | null {
  const items: string[] = [];
  let item = "";
  let state: "space" | "norm" | "quote" | "backslash" = "space";
  let quote = "";
  const push = () => {
    items.push(item);
    item = "";
  };
  for (const c of text) {
    if (state === "space") {
      // (C isspace, byte by byte: no other blank, a no-break space is part of the item.)
      if (c === " " || (c >= "\t" && c <= "\r")) continue;
      state = "norm";
    }
    if (state === "norm") {
      if (c === "\n") {
        // (A line of an empty quote alone is an empty item: `''`.)
        push();
        state = "space";
        continue;
      }
      if (!lines && (c === " " || c === "\t")) {
        push();
        state = "space";
        continue;
      }
      if (c === "\\") state = "backslash";
      else if (c === "'" || c === '"') {
        state = "quote";
        quote = c;
      } else item += c;
      continue;
    }
    if (state === "quote") {
      if (c === "\n") return null; // (an unmatched quote: xargs stops)
      if (c === quote) state = "norm";
      else item += c;
      continue;
    }
    state = "norm";
    item += c;
  }
  if (state === "quote") return null;
  // (At the end of the input, an empty quote is none: `a ''` is `a`.)
  if (item !== "") push();
  return items;
}
