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

/** A suffix length `-a N` gives (null: not known). */
function lengthOf(value: string | null | undefined): number | null {
  return value && /^\d+$/.test(value) ? Number(value) : null;
}

/** What split writes: PREFIX (its second operand) with letters or digits, then its suffix. */
export function splitFiles(argv: Word[]): NamedFile[] {
  const args = argv.slice(1).map(staticValue);
  const operands: (string | null)[] = [];
  let suffix: string | null = "";
  // (`-a N`: the letters or digits between them; two, growing as needed, by default.)
  let length: number | null = 2;
  let explicit = false;
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
    else if (/^(-[a-z]*a|--suffix-length)$/.test(a)) {
      [length, explicit] = [lengthOf(args[++i]), true];
    } else if (/^-[a-z]*a\d/.test(a)) {
      [length, explicit] = [lengthOf(a.slice(a.indexOf("a") + 1)), true];
    } else if (a.startsWith("--suffix-length=")) [length, explicit] = [lengthOf(a.slice(16)), true];
    else if (/^-[a-z]*[bClnt]$/.test(a)) i++;
  }
  const prefix = operands.length > 1 ? operands[1] : "x";
  const source = "(the files split writes)";
  if (prefix === null || suffix === null) return [{ path: null, source }];
  // (Each piece's name: the prefix, N letters, digits or hex digits, the suffix; a glob of them,
  // the prefix's and suffix's glob characters escaped. Without `-a`, the two grow by two when
  // they run out: `zaaa` after `yz`.)
  const escape = (s: string) => s.replace(/[*?[\\]/g, "\\$&");
  const lengths = length === null ? [] : explicit ? [Math.max(length, 1)] : [2, 4, 6];
  const middles = length === null ? ["*"] : lengths.map((n) => "[0-9a-z]".repeat(n));
  // (With names of that shape, `xaa.pem`, for the name globs a protection has, `*.pem`.)
  const shapes = ["a", "0"].map((c) => ({
    path: prefix + c.repeat(lengths[0] ?? 2) + suffix,
    source,
  }));
  const built = middles.map((m) => ({
    path: escape(prefix) + m + escape(suffix),
    source,
    pattern: true,
  }));
  return [...shapes, ...built];
}
