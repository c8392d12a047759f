/**
 * The files split and csplit write, by names they make: PREFIX (split's second operand, csplit's
 * `-f`, `x`/`xx` by default) and a suffix (split's letters or digits and `--additional-suffix`,
 * csplit's `-b` format). Each is judged by a name of that shape: the format's number as nothing
 * (a `%.0d` prints none) and as digits, so `csplit -b '%.0d.json' -f .pi/settings` names
 * `.pi/settings.json` and `split --additional-suffix=.pem` names `xaa.pem`.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * import { csplitFiles } from "./splitters.ts";
 * csplitFiles(["csplit", "-f", "part", "a.txt", "5"].map(literal)).map((f) => f.path);
 * // ["part", "part00"]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { staticValue } from "./command_words.ts";
import type { NamedFile } from "./spec.ts";

/** The names a printf format for a number may make: the number printed as nothing, and as `00`. */
function formatted(format: string): string[] {
  const number = /%[-+ #0]*\d*(?:\.\d*)?[diouxX]/g;
  return [format.replace(number, ""), format.replace(number, "00")]
    .map((s) => s.replace(/%%/g, "%"));
}

/** What csplit writes: PREFIX (`-f`, `--prefix`) and its suffix format (`-b`, `--suffix-format`). */
export function csplitFiles(argv: Word[]): NamedFile[] {
  const args = argv.slice(1).map(staticValue);
  let prefix: string | null = "xx";
  let format: string | null = "%02d";
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-f" || a === "--prefix") prefix = args[++i] ?? null;
    else if (a?.startsWith("--prefix=")) prefix = a.slice(9);
    else if (a?.startsWith("-f") && a.length > 2) prefix = a.slice(2);
    else if (a === "-b" || a === "--suffix-format") format = args[++i] ?? null;
    else if (a?.startsWith("--suffix-format=")) format = a.slice(16);
    else if (a?.startsWith("-b") && a.length > 2) format = a.slice(2);
    else if (a === "-n") i++;
  }
  const source = "(the files csplit writes)";
  if (prefix === null || format === null) return [{ path: null, source }];
  return [...new Set(formatted(format))].map((suffix) => ({ path: prefix + suffix, source }));
}

/** What split writes: PREFIX (its second operand) with letters or digits, then its suffix. */
export function splitFiles(argv: Word[]): NamedFile[] {
  const args = argv.slice(1).map(staticValue);
  const operands: (string | null)[] = [];
  let suffix: string | null = "";
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    // (A filter takes the pieces: split's --filter, in fields.ts.)
    if (a === "--filter" || a?.startsWith("--filter=")) return [];
    if (a === null || a === "-" || !a.startsWith("-")) operands.push(a);
    else if (a === "--additional-suffix") suffix = args[++i] ?? null;
    else if (a.startsWith("--additional-suffix=")) suffix = a.slice(20);
    else if (/^-[a-z]*[abClnt]$/.test(a)) i++;
  }
  const prefix = operands.length > 1 ? operands[1] : "x";
  const source = "(the files split writes)";
  if (prefix === null || suffix === null) return [{ path: null, source }];
  return [{ path: `${prefix}aa${suffix}`, source }, { path: `${prefix}00${suffix}`, source }];
}
