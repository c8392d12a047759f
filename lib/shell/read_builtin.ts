/**
 * What bash's `read` builtin assigns when the text it reads is known: a here-string or a
 * here-document of static text (`read -r f <<< secrets/key`, `IFS=: read -r a b <<< "x:y"`), as
 * bash(1) and its read.def do it:
 *
 * - it reads up to the delimiter (a newline; `-d D` the first character of D, `-d ''` a NUL), or
 *   at most N characters with `-n N` (a delimiter still ends it), or exactly N with `-N N`
 *   (delimiters read as text, the whole text to the first name, not split); a here-string ends
 *   with a newline;
 * - the line is split by `IFS` (a `IFS=…` before `read`, else blank, tab and newline): IFS
 *   whitespace at both ends is dropped, each name but the last takes one field (a field ends at
 *   IFS whitespace and at most one other IFS character), and the last takes the rest, with its
 *   separators, unless the rest is one field and a separator (`x:` gives `x`); names left over are
 *   empty.
 *
 * Not known: without `-r` where the text holds a backslash (escapes and continued lines), text
 * beyond ASCII with `-n`/`-N` (characters in a UTF-8 locale, bytes in the C locale) or a `-d` of
 * one (its first byte ends the line), `-a`
 * (an array), `-t` (`-t 0` assigns nothing), `-u`, `-e`, `-i`, `-E`, an option not known, a
 * name or option value not static.
 *
 * @module
 */
import type { Redirect, Word } from "./model.ts";

/** The text a command's standard input reads where it is a static here-string or heredoc. */
export function documentText(redirects: readonly Redirect[]): string | null {
  let text: string | null = null;
  let inputs = 0;
  for (const r of redirects) {
    if (r.kind === "heredoc" || r.kind === "herestring") {
      inputs++;
      const b = r.body;
      if (b?.kind !== "static" || b.line || b.listed) return null;
      // (bash adds a newline to a here-string.)
      text = r.kind === "herestring" ? b.value + "\n" : b.value;
    } else if (/^0?</.test(r.op) || r.op === "<>" || /^0[<>]/.test(r.op)) inputs++;
  }
  return inputs === 1 ? text : null;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The values `read ARGS` (`argv` after `read`) gives its names reading `text`, with `IFS` as the
 * `IFS=…` among `prefixes` sets it; null where not known (see the module).
 */
export function readValues(
  args: Word[],
  prefixes: Word[],
  text: string,
): [name: string, value: string][] | null {
  let ifs = " \t\n";
  for (const p of prefixes) {
    if (p.kind !== "static") return null;
    if (p.value.startsWith("IFS=")) ifs = p.value.slice(4);
  }
  let raw = false;
  let delim = "\n";
  let count: { n: number; exact: boolean } | null = null;
  const names: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") return null;
    if (a.value === "--") {
      i++;
      break;
    }
    if (!/^-./.test(a.value)) break;
    for (let j = 1; j < a.value.length; j++) {
      const l = a.value[j];
      if (l === "r") raw = true;
      else if (l === "s") continue;
      else if ("dnNp".includes(l)) {
        const rest = a.value.slice(j + 1);
        const value = rest !== "" ? rest : args[++i]?.kind === "static" ? args[i].value : null;
        if (value === null) return null;
        if (l === "d") delim = value === "" ? "\0" : value[0];
        else if (l === "n" || l === "N") {
          if (!/^\d+$/.test(value)) return null;
          count = { n: Number(value), exact: l === "N" };
        }
        break;
      } else return null;
    }
  }
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static" || !NAME.test(a.value)) return null;
    names.push(a.value);
  }
  const whole = !names.length;
  if (whole) names.push("REPLY");
  if (!raw && text.includes("\\")) return null;
  // (`-n`/`-N` count characters in a UTF-8 locale and bytes in the C locale: beyond ASCII, which
  // the locale decides, not known.)
  // (`-d` takes D's first byte: `-d é` also ends at `è`.)
  if ((count || delim > "\x7f") && /\P{ASCII}/u.test(text)) return null;
  if (count?.exact) {
    // (`-N`: exactly N characters, delimiters and all, unsplit, to the first name.)
    return names.map((n, k) => [n, k === 0 ? text.slice(0, count!.n) : ""]);
  }
  let line = text.slice(0, text.includes(delim) ? text.indexOf(delim) : text.length);
  if (count) line = line.slice(0, count.n);
  // (No name: REPLY takes the line as it is, not split, no IFS whitespace dropped.)
  if (whole) return [["REPLY", line]];
  return splitFields(line, ifs, names);
}

/** The line split by `ifs` among `names`, as read does (see the module). */
function splitFields(line: string, ifs: string, names: string[]): [string, string][] {
  const white = (c: string | undefined) =>
    c !== undefined && " \t\n".includes(c) && ifs.includes(c);
  const sep = (c: string | undefined) => c !== undefined && ifs.includes(c);
  /** One field of `s` from `at` (at no IFS whitespace) and where the next begins. */
  const field = (s: string, at: number): [string, number] => {
    let end = at;
    while (end < s.length && !sep(s[end])) end++;
    let next = end;
    while (white(s[next])) next++;
    if (sep(s[next]) && !white(s[next])) {
      next++;
      while (white(s[next])) next++;
    }
    return [s.slice(at, end), next];
  };
  let at = 0;
  while (white(line[at])) at++;
  const out: [string, string][] = [];
  for (let k = 0; k < names.length - 1; k++) {
    const [f, next] = field(line, at);
    out.push([names[k], f]);
    at = next;
  }
  let end = line.length;
  while (end > at && white(line[end - 1])) end--;
  const rest = line.slice(at, end);
  // (The rest that is one field and a separator is that field.)
  const [f, next] = rest === "" ? ["", 0] : field(rest, 0);
  out.push([names[names.length - 1], next >= rest.length ? f : rest]);
  return out;
}
