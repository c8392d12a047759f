/**
 * What the one simple command writing a stage's pipe prints, where the gate can reproduce it
 * exactly: bash's `echo` and `printf` of static words (their escapes as bash's builtins decode
 * them, `printf` with `%s` and `%%` only), `cat` of static files (read as a `< FILE` is) or of its
 * own here-document. Anything else (another writer, a value not known, an option or escape not
 * reproduced here, a name the command defines as a function: the walk gives no writer then) is
 * not known. Database shells judge the text as they judge a here-document's; shells run it.
 *
 * @example
 * ```ts
 * // `echo 'select 1;' | sqlite3 app.db`: the sqlite3 stage's writer prints "select 1;\n".
 * // pipedInput(sqliteStage) -> { texts: ["select 1;\n"] }
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { standardInput } from "./words.ts";
import { ANSI_SIMPLE } from "../shell/words.ts";
import { documentText } from "../shell/read_builtin.ts";

/**
 * What a pipe carries: the texts it may be (one for each way bash may print it: `echo 'a\nb'`
 * prints a backslash unless `xpg_echo` is on), or the files `cat` copies into it, in order.
 */
export type PipedInput = { texts: string[] } | { files: Word[] };

/** What the command writing `stage`'s pipe prints (see the module); null where not known. */
export function pipedInput(stage: Stage): PipedInput | null {
  const input = standardInput(stage);
  const writer = input.from === "pipe" ? stage.input : undefined;
  return writer ? printed(writer, 0) : null;
}

/** The text of the pipe (`cat`'s files read with `read`, as they will be); null where not known. */
export function pipedTexts(
  stage: Stage,
  read: (path: string) => string | null,
): string[] | null {
  const piped = pipedInput(stage);
  if (!piped || "texts" in piped) return piped?.texts ?? null;
  let text = "";
  for (const file of piped.files) {
    const part = read(file.value);
    if (part === null) return null;
    text += part;
  }
  return [text];
}

/**
 * What a stage prints where known: its writer's text as above; a stage of no command is the
 * static here-string or heredoc a loop reads (walk_lines.ts `loopInput`). `nul`: a text may hold
 * a NUL (`printf '%s\0' a b | xargs -0`).
 */
export function printedBy(writer: Stage, opts: { nul?: boolean } = {}): string[] | null {
  if (!writer.argv.length) {
    const text = documentText(writer.redirects);
    return text === null ? null : [text];
  }
  const out = printed(writer, 0, opts.nul);
  return out && "texts" in out ? out.texts : null;
}

/**
 * The texts a stage's standard input reads where known: the pipe's (see `printedBy`) or a static
 * here-string's or heredoc's.
 */
export function inputTexts(stage: Stage, opts: { nul?: boolean } = {}): string[] | null {
  const input = standardInput(stage);
  if (input.from === "document") {
    const text = documentText([input.redirect]);
    return text === null ? null : [text];
  }
  return input.from === "pipe" && stage.input ? printedBy(stage.input, opts) : null;
}

/** A redirect of standard error to another descriptor, or closing it: `2>&1`, `2>&-`. */
const STDERR_DUP = /^2[<>]&/;

/** Whether a word is text bash gives as it is (no glob, no value not known). */
const known = (w: Word) => w.kind === "static" && !w.line && !w.listed && !w.around;

/** What a writer prints; null where not known (`depth`: cats passing a pipe on, bounded). */
function printed(writer: Stage, depth: number, nul = false): PipedInput | null {
  const [name, ...args] = writer.argv;
  if (!name || !writer.argv.every(known) || writer.assignments?.length || depth > 8) return null;
  // (Only its standard error may go elsewhere: `cat x.sql 2>/dev/null`.)
  const own = writer.redirects.filter((r) => !(r.kind === "write" && r.op.startsWith("2")));
  const values = args.map((w) => w.value);
  // (echo's standard error may join the pipe, `echo ls 2>&1 | sh`: it writes there only where
  // writing fails, fixed text. Not printf's, whose messages hold its words: `printf %d 'x;…'`.)
  if (name.value === "echo" && own.every((r) => STDERR_DUP.test(r.op))) {
    return texts(echoTexts(values), nul);
  }
  if (name.value === "printf" && !own.length) return texts(printfText(values), nul);
  if (name.value !== "cat" || values.some((v) => v.startsWith("-") && v !== "--")) return null;
  const files = args.filter((w) => w.value !== "--");
  if (values.indexOf("--") > 0) return null;
  if (files.length) return own.length ? null : { files };
  // `cat` alone copies its standard input: a here-document, a file, the pipe before it.
  const stdin = standardInput(writer);
  // (Of a here-document, its standard error may join the pipe too, `cat <<'E' 2>&1 | sh`: cat
  // writes there only where reading or writing fails, fixed text, no name of the command's,
  // that runs as `cat:`, a command no one has. A file's name is in its message: not so.)
  const kept = stdin.from === "document" ? own.filter((r) => !STDERR_DUP.test(r.op)) : own;
  if (kept.length > 1 || kept.some((r) => !stdin.redirect || r !== stdin.redirect)) return null;
  if (stdin.from === "document") {
    // (A here-string ends with the newline bash adds.)
    const text = documentText([stdin.redirect]);
    return text === null ? null : { texts: [text] };
  }
  if (stdin.from === "file" && stdin.redirect.target && known(stdin.redirect.target)) {
    return { files: [stdin.redirect.target] };
  }
  return stdin.from === "pipe" && writer.input ? printed(writer.input, depth + 1, nul) : null;
}

/** The texts, unless one holds a NUL (no shell or client reads that as written; `nul`: xargs -0). */
function texts(list: string[] | null, nul = false): PipedInput | null {
  return list && (nul || !list.some((t) => t.includes("\0")))
    ? { texts: [...new Set(list)] }
    : null;
}

/** echo's options: words of `-` and `n`, `e`, `E` before the first other word. */
const ECHO_OPTION = /^-[neE]+$/;

/**
 * What bash's `echo` prints: with `-e` its escapes decoded, with `-E` none; with neither, both
 * readings (`shopt -s xpg_echo` decodes them); with options and `xpg_echo` in POSIX mode, the
 * options printed as words too. Null where an escape is not reproduced here (`\u`).
 */
export function echoTexts(args: string[]): string[] | null {
  if (args.some((a) => a === "--help" || a === "--version")) return null; // (`/bin/echo`'s)
  let at = 0;
  let newline = true;
  let escapes: boolean | null = null;
  for (; at < args.length && ECHO_OPTION.test(args[at]); at++) {
    for (const c of args[at].slice(1)) {
      if (c === "n") newline = false;
      else escapes = c === "e";
    }
  }
  const body = args.slice(at).join(" ");
  const out: string[] = [];
  const add = (text: string, decode: boolean, ends: boolean): boolean => {
    const decoded = decode ? echoEscapes(text) : { text, stop: false };
    if (!decoded) return false;
    out.push(decoded.text + (ends && !decoded.stop ? "\n" : ""));
    return true;
  };
  if (escapes !== true && !add(body, false, newline)) return null;
  if (escapes !== false && !add(body, true, newline)) return null;
  if (at > 0 && !add(args.join(" "), true, true)) return null;
  return out;
}

/** Decode `echo -e`'s escapes; `stop` after `\c` (nothing more is printed). */
function echoEscapes(text: string): { text: string; stop: boolean } | null {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const next = text[i + 1];
    if (c !== "\\" || next === undefined) {
      out += c;
      continue;
    }
    i++;
    if (next === "c") return { text: out, stop: true };
    if (next === "u" || next === "U") return null;
    if (next === "0") {
      const m = /^[0-7]{0,3}/.exec(text.slice(i + 1))![0];
      out += String.fromCharCode(parseInt(m || "0", 8) & 255);
      i += m.length;
    } else if (next === "x" && /^[0-9a-fA-F]/.test(text.slice(i + 1))) {
      const m = /^[0-9a-fA-F]{1,2}/.exec(text.slice(i + 1))![0];
      out += String.fromCharCode(parseInt(m, 16));
      i += m.length;
    } else out += echoEscape(next) ?? `\\${next}`;
  }
  return { text: out, stop: false };
}

/** The one-character escapes echo's `-e` decodes: `$'…'`'s, but for `\'`, `\"` and `\?`. */
function echoEscape(c: string): string | undefined {
  return c === "'" || c === '"' || c === "?" ? undefined : ANSI_SIMPLE[c];
}

/**
 * What bash's `printf FORMAT [ARGS]` prints, for a format of text, escapes (not `\u`), `%s` and
 * `%%`: the format again while arguments are left (once when it takes none). Null otherwise (`-v
 * NAME`, another conversion).
 */
export function printfText(args: string[]): string[] | null {
  const words = args[0] === "--" ? args.slice(1) : args;
  const [format, ...values] = words;
  if (format === undefined || format.startsWith("-")) return null;
  let out = "";
  let used = 0;
  do {
    const before = used;
    for (let i = 0; i < format.length; i++) {
      const c = format[i];
      if (c === "%") {
        const d = format[++i];
        if (d === "%") out += "%";
        else if (d === "s") out += values[used++] ?? "";
        else return null;
      } else if (c === "\\" && i + 1 < format.length) {
        const e = format[++i];
        const octal = /^[0-7]{1,3}/.exec(format.slice(i))?.[0];
        const hex = e === "x" ? /^[0-9a-fA-F]{1,2}/.exec(format.slice(i + 1))?.[0] : undefined;
        if (e === "u" || e === "U") return null;
        if (octal) {
          out += String.fromCharCode(parseInt(octal, 8) & 255);
          i += octal.length - 1;
        } else if (hex) {
          out += String.fromCharCode(parseInt(hex, 16));
          i += hex.length;
        } else if (ANSI_SIMPLE[e] !== undefined) out += ANSI_SIMPLE[e];
        else {
          // (Any other character after `\` is no escape: the `\` is printed, and the character
          // read as it is, a `%` starting a conversion: `\%s`.)
          out += "\\";
          i--;
        }
      } else out += c;
    }
    if (used === before) break;
  } while (used < values.length);
  return [out];
}
