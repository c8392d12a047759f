/**
 * The shell lines GNU parallel runs for a command given as words: parallel joins them with
 * spaces (quoting none of them, unless `-q`) and runs the line through a shell, its replacement
 * strings (`{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`, `{1}`…) replaced by each input,
 * shell-quoted, or the input appended where it has none (parallel(1): "If command is given as
 * one argument it is run by the shell", and a command of several words is joined into one).
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { shellQuote } from "../shell/words.ts";
import type { Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";

/** Past this many inputs, they are not each judged: the line with its input not known. */
const MAX_INPUTS = 16;

/**
 * A replacement string: `{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`, and the positional
 * ones, `{n}`, `{n.}`, `{n/}`, `{n//}`, `{n/.}`, whose `n` may be negative (the n-th source from
 * the end: man parallel, "{n}") and followed by blanks (parallel's `\{(-?\d+) \s* …` in
 * `replacement_counts_and_lengths`): `{-1}`, `{-2/.}`, `{01}`, `{1 .}`.
 */
const REPLACEMENT = /\{(?:(-?\d+)\s*)?(\.|\/|\/\/|\/\.)?\}|\{[#%]\}/y;

/**
 * A `{…}` form `--plus` adds (man parallel, "--plus"), after an input source's number: `{..}`,
 * `{+.}`, `{:-str}`, `{:n:m}`, `{#re}`, `{%%re}`, `{/re/str}`, `{^^str}`, `{,,str}`, `{##}`,
 * `{0#}`, `{slot}`, `{choose_k}`…: which are is `plusValue`'s.
 */
const PLUS = /\{(?:(-?\d+)\s*)?([^}]*)\}/y;

/** A value parallel puts in that is not known here (a variable the command does not set). */
const NOT_KNOWN = '"$__parallel_value"';

/** A Perl regular expression read the same way by JavaScript's (no class, group or escape). */
const SIMPLE_RE = /^[\w.\-\/ ,:@+*?^$]*$/;

/**
 * What `--plus`'s form `{body}` makes of `v` (parallel's `--rpl`s for it): the text where it is
 * simple; null where it is a value not known here (a regular expression of other syntax, the
 * host, a choice among inputs); undefined where `body` is none of its forms (`{foo}` stays).
 */
export function plusValue(body: string, v: string): string | null | undefined {
  if (/^(?:##|0#|0%|slot)$/.test(body)) return "1";
  if (/^(?:sshlogin|host|agrp|hgrp|choose_k|uniq)$/.test(body)) return null;
  if (body === "+/") return v.includes("/") ? v.replace(/\/[^/]*$/, "") : "";
  if (body === "+.") return v.includes(".") ? v.replace(/^.*\./s, "") : "";
  const ext = /^(\/)?(\+)?(\.{2,3})$/.exec(body);
  if (ext) {
    const re = new RegExp(`(?:\\.[^./]+){${ext[3].length}}$`);
    if (ext[2]) return re.test(v) ? re.exec(v)![0].slice(1) : "";
    return (ext[1] ? v.replace(/^.*\//, "") : v).replace(re, "");
  }
  let m = /^:-(.+)$/s.exec(body);
  if (m) return v === "" || v === "0" ? m[1] : v;
  if ((m = /^:(\d+)(?::(\d+))?$/.exec(body))) {
    return m[2] === undefined ? v.slice(Number(m[1])) : v.substr(Number(m[1]), Number(m[2]));
  }
  // (The longer tag first, as parallel tries them: `{%%x}` is `%%`'s.)
  m = /^(##|%%|\^\^|,,|#|%|\^|,)(.+)$/s.exec(body) ?? /^(\/\/?)([^/]+)\/(.*)$/s.exec(body);
  if (!m || (m[1].startsWith("#") && m[2].startsWith("#"))) return undefined;
  if (!SIMPLE_RE.test(m[2]) || (m[3] !== undefined && !SIMPLE_RE.test(m[3]))) return null;
  // (`#` and `%` make the expression's quantifiers lazy: computed where it has none.)
  if ((m[1] === "#" || m[1] === "%") && /[*+?]/.test(m[2])) return null;
  let re: RegExp;
  try {
    re = new RegExp(m[2], m[1] === "//" || m[1] === "^^" || m[1] === ",," ? "g" : "");
  } catch {
    return null;
  }
  if (m[1] === "/" || m[1] === "//") return m[3].includes("$") ? null : v.replace(re, m[3]);
  if (m[1][0] === "#") {
    const at = new RegExp(`^(?:${m[2]})`).exec(v);
    return at ? v.slice(at[0].length) : v;
  }
  if (m[1][0] === "%") {
    const tail = new RegExp(`^(${m[1] === "%" ? ".*" : ".*?"})(?:${m[2]})$`, "s").exec(v);
    return tail ? tail[1] : v;
  }
  const upper = m[1][0] === "^";
  const at = m[1].length === 1 ? new RegExp(`^(?:${m[2]})`) : re;
  return v.replace(at, (x) => (upper ? x.toUpperCase() : x.toLowerCase()));
}

/**
 * The options that set a replacement string of one's own instead of one of parallel's: `-I STR`
 * (`--replace`, `-iSTR`) for `{}`, `--er` (`--extensionreplace`) for `{.}`, `--bnr` for `{/}`,
 * `--dnr` for `{//}`, `--bner` for `{/.}`, `--seqreplace` for `{#}`, `--slotreplace` for `{%}`.
 */
const CUSTOM: Record<string, string> = {
  "-I": "{}",
  "--replace": "{}",
  "-i": "{}",
  "--er": "{.}",
  "--extensionreplace": "{.}",
  "--bnr": "{/}",
  "--basenamereplace": "{/}",
  "--dnr": "{//}",
  "--dirnamereplace": "{//}",
  "--bner": "{/.}",
  "--basenameextensionreplace": "{/.}",
  "--seqreplace": "{#}",
  "--slotreplace": "{%}",
};

/** One input: its whole text and its fields (`{1}`, `{2}`…: its sources' values, or columns). */
interface Input {
  whole: string;
  fields: string[];
}

/**
 * The value of input source `source` (`{2}`'s `2`, `{-1}`'s `-1`; "" or `0` the whole input), as
 * parallel finds it (`CommandLine::replace_placeholders`): `n` > 0 the n-th field, else the field
 * at `fields + n`, a Perl index (still negative: counted from the end once more); none is "".
 */
function sourceValue(source: string, input: Input): string {
  if (source === "" || source === "0") return input.whole;
  const n = Number(source);
  const count = input.fields.length;
  let at = n > 0 ? n - 1 : count + n;
  if (at < 0) at += count;
  return input.fields[at] ?? "";
}

/** What a replacement string stands for, given the input. */
function replaced(token: string, source: string, form: string | undefined, input: Input): string {
  if (token === "{#}" || token === "{%}") return "1";
  const v = sourceValue(source, input);
  const base = v.replace(/^.*\//, "");
  const dir = v.includes("/") ? v.replace(/\/[^/]*$/, "") || "/" : ".";
  if (form === ".") return v.replace(/\.[^./]*$/, "");
  if (form === "/") return base;
  if (form === "//") return dir;
  if (form === "/.") return base.replace(/\.[^.]*$/, "");
  return v;
}

/** The options of parallel that change its lines: its replacement strings, `--colsep`. */
interface LineOptions {
  /** Its own replacement strings, longest first, and the string of parallel's each stands for. */
  custom: [string, string][];
  /** `--colsep`'s regular expression; undefined: none; null: one not known. */
  colsep?: RegExp | null;
  /** `-a FILE` (`--arg-file`): its files, null for one not known. */
  files: (string | null)[];
  /** `--plus`: its replacement strings too (see `plusValue`). */
  plus: boolean;
}

/** The line options among parallel's options (the words before its command). */
function lineOptions(options: Word[]): LineOptions {
  const out: LineOptions = { custom: [], files: [], plus: false };
  for (let i = 0; i < options.length; i++) {
    const v = options[i].value;
    // (Getopt::Long takes a prefix: `--plu`; `--pl` is also `--plain`.)
    if (/^--plus?$/.test(v) && v.length > 4) out.plus = true;
    const m = /^(-[IiaC]|--[a-z-]+)(=?)(.*)$/s.exec(v);
    if (!m) continue;
    const [, name, eq, glued] = m;
    if (!CUSTOM[name] && !/^(-a|--arg-file|-C|--colsep)$/.test(name)) continue;
    const value = eq || glued || name === "-i"
      ? (name === "-i" && !glued ? "{}" : glued)
      : options[++i]?.kind === "static"
      ? options[i].value
      : null;
    if (CUSTOM[name]) out.custom.push([value ?? "\0", CUSTOM[name]]);
    if (name === "-a" || name === "--arg-file") out.files.push(value === "-" ? null : value);
    if (name === "-C" || name === "--colsep") {
      try {
        out.colsep = value === null ? null : new RegExp(value);
      } catch {
        out.colsep = null;
      }
    }
  }
  out.custom.sort((a, b) => b[0].length - a[0].length);
  return out;
}

/**
 * The line parallel runs for `input` (null: not known, each replacement string left as
 * parallel's own, so that a path it is part of is judged where it points: `cat secrets/{}`).
 */
function lineFor(cmd: Word[], o: LineOptions, input: Input | null): string {
  let any = false;
  const redefined = new Set(o.custom.map(([, r]) => r));
  const put = (token: string, source: string, form?: string) => {
    any = true;
    return input === null ? token : shellQuote(replaced(token, source, form, input));
  };
  const words = cmd.map((w) => {
    let text = "";
    const v = w.value;
    for (let i = 0; i < v.length;) {
      const own = o.custom.find(([s]) => s !== "" && v.startsWith(s, i));
      if (own) {
        const m = /^\{(\d*)(.*)\}$/.exec(own[1])!;
        text += put(own[1], m[1], m[2] || undefined);
        i += own[0].length;
        continue;
      }
      REPLACEMENT.lastIndex = i;
      const m = REPLACEMENT.exec(v);
      if (m && !(m[1] === undefined && redefined.has(m[0]))) {
        text += put(m[0], m[1] ?? "", m[2]);
        i += m[0].length;
        continue;
      }
      PLUS.lastIndex = i;
      const p = o.plus ? PLUS.exec(v) : null;
      const value = p && input !== null
        ? plusValue(p[2], sourceValue(p[1] ?? "", input))
        : undefined;
      if (p && value !== undefined) {
        any = true;
        // (One it does not compute: a value not known, not the text of the form.)
        text += input === null ? p[0] : value === null ? NOT_KNOWN : shellQuote(value);
        i += p[0].length;
        continue;
      }
      text += v[i++];
    }
    return text;
  });
  const line = words.join(" ");
  if (any || input === null) return line;
  return `${line} ${input.fields.map(shellQuote).join(" ")}`;
}

/**
 * The inputs parallel reads from its sources (`-a FILE`, then each `::: WORDS` or `:::: FILE`,
 * all combined; `:::+`, `::::+` linked to the one before), each split into its columns by
 * `--colsep`; null where one is not known (stdin, a file that cannot be read, too many).
 */
function inputsOf(sources: Word[] | null, o: LineOptions, run: Runner): Input[] | null {
  const lists: { values: string[]; linked: boolean; files: boolean }[] = [];
  const file = (path: string | null) => {
    const text = path === null ? null : run.read(path);
    if (text === null || text.length > 65536) return null;
    return text.split("\n").filter((l, i, all) => l !== "" || i < all.length - 1);
  };
  for (const path of o.files) {
    const values = file(path);
    if (values === null) return null;
    lists.push({ values, linked: false, files: true });
  }
  for (const w of sources ?? []) {
    const sep = w.kind === "static" ? /^(::::?)(\+?)$/.exec(w.value) : null;
    if (sep) {
      lists.push({ values: [], linked: sep[2] === "+", files: sep[1] === "::::" });
      continue;
    }
    const last = lists[lists.length - 1];
    if (w.kind !== "static" || !last) return null;
    const values = last.files ? file(w.value) : [w.value];
    if (values === null) return null;
    last.values.push(...values);
  }
  if (!lists.length) return null;
  let records: string[][] = [[]];
  for (const { values, linked } of lists) {
    records = linked
      ? records.map((r, i) => [...r, values[i % values.length] ?? ""])
      : records.flatMap((r) => values.map((v) => [...r, v]));
    if (records.length > MAX_INPUTS) return null;
  }
  if (o.colsep === null) return null;
  return records.map((r) => ({
    whole: r.join(" "),
    fields: o.colsep ? r.flatMap((v) => v.split(o.colsep!)) : r,
  }));
}

/** parallel's options that give what it runs blocks of its standard input, not words. */
const PIPES = ["pipe", "spreadstdin", "pipepart", "pipe-part"];

/**
 * Whether parallel's options (`options`, its words before the command) give the command blocks
 * of its standard input (`--pipe`, `--spreadstdin`, `--pipepart`): Getopt::Long takes a prefix
 * (`--spread`, `--pipe=` is no such option), and bundles short ones with no long among them.
 */
export function pipesInput(options: Word[]): boolean {
  return options.some((w) => {
    const long = /^--([a-z-]{2,})$/.exec(w.value)?.[1];
    return long !== undefined && PIPES.some((o) => o.startsWith(long));
  });
}

/**
 * Report the lines parallel runs for a command of static words (`options`: parallel's own words
 * before it): one for each input where all are known, else the line with its input not known
 * (stdin, a file not read) besides the command itself with an input not known appended.
 */
export function commandLines(
  cmd: Word[],
  options: Word[],
  sources: Word[] | null,
  run: Runner,
): void {
  if (pipesInput(options)) {
    // (`--pipe`: each block of the input is the command's stdin, no word of it.)
    run.shell(literal(cmd.map((w) => w.value).join(" ")), "parallel");
    return;
  }
  const o = lineOptions(options);
  const inputs = inputsOf(sources, o, run);
  if (inputs?.length) {
    for (const input of inputs) run.shell(literal(lineFor(cmd, o, input)), "parallel");
    return;
  }
  run.shell(literal(lineFor(cmd, o, null)), "parallel");
  run.stage([...cmd, unknownWord("(parallel input)")], "parallel");
}
