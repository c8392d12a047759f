/**
 * What bash's builtins `echo` and `printf` print of known words (substitution_outputs.ts gives
 * `$(printf secrets)/key` its value): `echo` with `-n`, `-e` and `-E` (escapes only where there
 * are none to read), `printf` with `%s`, `%b`, `%q`, `%d`, `%i` and `%%`, flags `-` and `0`,
 * widths and precisions written as digits, the format's escapes, the format used again while
 * words are left. Null where the output is not known here (other conversions, `*` widths,
 * numbers bash reads otherwise, `\c`, `\u`, NUL, text beyond ASCII).
 *
 * @example
 * ```ts
 * printedText("printf", ["%s/%s", "secrets", "key"]); // "secrets/key"
 * printedText("echo", ["-n", "a", "b"]); // "a b"
 * ```
 *
 * @module
 */
import { ANSI_SIMPLE } from "./words.ts";

/** What `echo ARGS` or `printf ARGS` prints, or null where not known. */
export function printedText(program: "echo" | "printf", args: string[]): string | null {
  const out = program === "echo" ? echoText(args) : printfText(args);
  return out === null || /[^\t\n\r -~]/.test(out) ? null : out;
}

/**
 * bash's `echo`: leading words of `n`, `e`, `E` letters alone are options. Escapes are read with
 * `-e`, and without `-E` where `shopt -s xpg_echo` (or `BASHOPTS`) is on, which the command may
 * set however spelled (lib/programs/piped_text.ts gives both readings): a backslash without
 * `-E` is not known here.
 */
function echoText(args: string[]): string | null {
  let newline = true;
  let escapes: boolean | null = null;
  let i = 0;
  for (; i < args.length && /^-[neE]+$/.test(args[i]); i++) {
    for (const c of args[i].slice(1)) {
      if (c === "n") newline = false;
      else escapes = c === "e";
    }
  }
  const words = args.slice(i);
  if (escapes !== false && words.some((w) => w.includes("\\"))) return null;
  return words.join(" ") + (newline ? "\n" : "");
}

/** A conversion: flags, width, precision, letter. */
const CONVERSION = /^%([-0]*)(\d*)(?:\.(\d*))?([sbqdi%])/;

/** bash's `printf FORMAT [ARGUMENTS]` (no `-v`: that assigns, it prints nothing). */
function printfText(args: string[]): string | null {
  if (args[0] === "--") args = args.slice(1);
  const format = args[0];
  if (format === undefined || format.startsWith("-")) return null;
  const words = args.slice(1);
  let out = "";
  let used = 0;
  do {
    const from = used;
    for (let i = 0; i < format.length;) {
      const c = format[i];
      if (c === "\\") {
        const e = escapeAt(format, i);
        if (e === null) return null;
        out += e.text;
        i = e.end;
      } else if (c === "%") {
        const m = CONVERSION.exec(format.slice(i));
        if (m === null) return null;
        i += m[0].length;
        if (m[4] === "%") {
          out += "%";
          continue;
        }
        const text = converted(m[4], m[3], words[used++]);
        if (text === null) return null;
        out += padded(text, m[1], m[2], m[4]);
      } else {
        out += c;
        i++;
      }
    }
    if (used === from) break;
  } while (used < words.length);
  return out;
}

/** One conversion of a word (undefined: none left, an empty string or a zero). */
function converted(letter: string, precision: string | undefined, w: string | undefined) {
  const word = w ?? "";
  switch (letter) {
    case "d":
    case "i": {
      if (precision !== undefined) return null;
      if (w === undefined) return "0";
      return /^[-+]?(0|[1-9]\d{0,14})$/.test(word) ? String(Number(word)) : null;
    }
    case "b":
      if (word.includes("\\")) return null;
      break;
    case "q":
      if (word === "") return "''";
      if (!/^[\w./:+@=%-]+$/.test(word) || word.startsWith("~")) return null;
      break;
  }
  return precision === undefined ? word : word.slice(0, Number(precision || "0"));
}

/**
 * A conversion's text in its width (`-`: on the left; `0`: zeros before a number of `%d`/`%i`,
 * spaces for `%s`, `%b` and `%q`, as bash's printf pads them).
 */
function padded(text: string, flags: string, width: string, letter: string): string {
  const n = Number(width || "0");
  if (text.length >= n) return text;
  if (flags.includes("-")) return text.padEnd(n, " ");
  if (flags.includes("0") && (letter === "d" || letter === "i")) {
    const neg = text.startsWith("-");
    return (neg ? "-" : "") + text.slice(neg ? 1 : 0).padStart(n - (neg ? 1 : 0), "0");
  }
  return text.padStart(n, " ");
}

/** The escape at `i` of a format: its text and where it ends; null for `\c`, `\u`, `\U`. */
function escapeAt(s: string, i: number): { text: string; end: number } | null {
  const c = s[i + 1];
  if (c === undefined) return { text: "\\", end: i + 1 };
  // (printf's format and `%b`'s words take the escapes of `$'…'`.)
  if (c in ANSI_SIMPLE) return { text: ANSI_SIMPLE[c], end: i + 2 };
  if (c === "c" || c === "u" || c === "U") return null;
  const oct = /^[0-7]{1,3}/.exec(s.slice(i + 1));
  if (oct) {
    return { text: String.fromCharCode(parseInt(oct[0], 8) & 0xff), end: i + 1 + oct[0].length };
  }
  const hex = c === "x" ? /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 2)) : null;
  if (hex) return { text: String.fromCharCode(parseInt(hex[0], 16)), end: i + 2 + hex[0].length };
  return { text: "\\" + c, end: i + 2 };
}
