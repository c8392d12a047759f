/**
 * Whether a word is a number to the parser of a program whose option takes a number only where
 * the next word is one (`ag -A 3 KEY`, `ack -A 3 KEY`): a word that is not is read anew, as the
 * pattern or a path (`ag -A 99999999999999999999 ~/.ssh/id_rsa` searches the key: strtol's
 * overflow is no number to ag).
 *
 * @example
 * ```ts
 * import { cLong, perlInteger } from "./option_numbers.ts";
 * cLong(" +3"); // true
 * cLong("99999999999999999999"); // false (ERANGE)
 * perlInteger("1_000"); // true
 * ```
 *
 * @module
 */

const LONG_MAX = 9223372036854775807n;

/**
 * A C `long` as strtol reads it in base 10 and the word wholly consumed (ag's options.c): leading
 * white space (C's isspace), a sign, ASCII digits, nothing after them, and no overflow (ERANGE,
 * past a 64-bit `long`).
 */
export function cLong(word: string): boolean {
  const m = /^[ \t\n\v\f\r]*([+-]?)([0-9]+)$/.exec(word);
  if (m === null) return false;
  const digits = m[2].replace(/^0+(?=.)/, "");
  if (digits.length < 19) return true;
  if (digits.length > 19) return false;
  const n = BigInt(digits);
  return m[1] === "-" ? n <= LONG_MAX + 1n : n <= LONG_MAX;
}

/**
 * An integer to Perl's Getopt::Long (its `PAT_INT`: a sign, underscores, ASCII digits; any size;
 * Perl's `$` takes one trailing newline too), as ack reads the value of `-A`, `-B`, `-C`, `-p`.
 */
export function perlInteger(word: string): boolean {
  return /^[-+]?_*[0-9][0-9_]*\n?$/.test(word);
}
