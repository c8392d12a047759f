/**
 * How xxd reads its arguments (vim's xxd.c, also macOS's): not getopt. Each word after one or two
 * dashes is one option named by its first letter alone (`-ps` is `-p`, `-bits` is `-b`,
 * `--revert` is `-r`); a valued option takes the rest of its word as its value (`-c8`) unless that
 * rest spells its long name (`-cols 8`, `-len 64`), else the next word. The options end at the
 * first word that is none (or `--`); then `xxd [infile [outfile]]`: a second operand is a file it
 * writes (truncated, or patched with `-r`).
 *
 * @module
 */

/** The valued options by letter, with the long names after the letter that take the next word. */
const VALUED: Record<string, string[]> = {
  c: ["ols"],
  g: ["roup"],
  o: ["ffset"],
  s: ["kip", "eek"],
  l: ["en"],
  n: ["ame"],
  R: [],
};
/** The options without a value (`-v`, `-h` print and exit). */
const FLAGS = "abeupiCdrEvh";

/** What xxd makes of its arguments: whether it reverts, and its operands (null: not known). */
export interface XxdArgs {
  revert: boolean;
  operands: (string | null)[];
}

/**
 * xxd's arguments (the words after its name; null for a word not known), or null where an option
 * is one xxd does not know (it then prints its usage; another xxd may know it).
 */
export function xxdArgs(args: readonly (string | null)[]): XxdArgs | null {
  let revert = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    // (A word not known may be an operand: it ends the options, as the most it may be.)
    if (a === null) break;
    const word = a.startsWith("--") && a.length > 2 ? a.slice(1) : a;
    if (word === "--") {
      i++;
      break;
    }
    if (!word.startsWith("-") || word.length < 2) break;
    const letter = word[1];
    const rest = word.slice(2);
    if (letter === "r") revert = true;
    if (FLAGS.includes(letter)) continue;
    const long = VALUED[letter];
    if (!long) return null;
    // (`-capitalize` is `-C`.)
    if (letter === "c" && rest.startsWith("apitalize")) continue;
    if (rest === "" || long.some((l) => rest.startsWith(l))) i++;
  }
  return { revert, operands: args.slice(i) };
}

/**
 * Whether xxd only reads: it dumps (no `-r`, which turns a dump back into bytes) and writes no
 * second operand (`-` is standard output).
 */
export function xxdReadsOnly(args: (string | null)[]): boolean {
  const read = xxdArgs(args);
  if (!read || read.revert || read.operands.length > 2) return false;
  return read.operands.length < 2 || read.operands[1] === "-";
}
