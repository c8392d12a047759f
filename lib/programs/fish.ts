/**
 * fish: what `fish -c TEXT` (`-C`, `--command`, `--init-command`) runs, and whether fish's text
 * reads as bash reads it. fish's language is not bash's: `set -x NAME VALUE` (`-gx`, `-Ux`,
 * `--export`) and `read -x` export, `alias`/`function`/`abbr` define commands, `(cmd)` and
 * `$(cmd)` substitute, `{a}` is `a`, `\x65` is `e` unquoted and `\'` escapes in single
 * quotes, `$var[1]` indexes, `**` recurses. Its text is read as bash only where it holds none of
 * these (`fish -c 'npm test'`, `fish -c 'ls src | wc -l'`, `fish -c 'echo $HOME'`); any other is
 * code not seen.
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { literal } from "./words.ts";

/** fish's long options that take a value (getopt_long: any unambiguous prefix names one). */
// deno-fmt-ignore
const FISH_LONG_VALUED = ["command", "init-command", "features", "debug", "debug-output",
  "debug-stack-frames", "profile", "profile-startup"];
// deno-fmt-ignore
const FISH_LONG = [...FISH_LONG_VALUED, "interactive", "login", "no-config", "no-execute",
  "print-rusage-self", "print-debug-categories", "private", "help", "version"];

/**
 * fish's `-c TEXT` and `-C TEXT` (`--command`, `--init-command`; each may be given again, all
 * run), or its script: getopt's options (`-cTEXT`, `--command=TEXT`, `--comm TEXT`), the others
 * with a value `-p`, `-d`, `-f`, `-D`, `-o` (`-o FILE`: its debug output).
 */
export function fishPayload(args: Word[]): Word | { script: Word } | null {
  const texts: Word[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") return a;
    const v = a.value;
    if (v === "--") {
      i++;
      break;
    }
    if (!/^-./.test(v)) break;
    let value: Word | undefined;
    let name: string;
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const given = v.slice(2, eq < 0 ? undefined : eq);
      const matches = FISH_LONG.filter((n) => n.startsWith(given));
      const full = FISH_LONG.includes(given) ? given : matches.length === 1 ? matches[0] : given;
      if (!FISH_LONG_VALUED.includes(full)) continue;
      name = full === "command" ? "c" : full === "init-command" ? "C" : "";
      value = eq < 0 ? args[++i] : literal(v.slice(eq + 1));
    } else {
      const at = [...v.slice(1)].findIndex((c) => "cCpdfDo".includes(c)) + 1;
      if (at === 0) continue;
      name = v[at];
      value = at + 1 < v.length ? literal(v.slice(at + 1)) : args[++i];
    }
    if (value && (name === "c" || name === "C")) texts.push(value);
  }
  if (texts.length === 0) return i < args.length ? { script: args[i] } : null;
  const unknown = texts.find((t) => t.kind !== "static");
  return unknown ?? (texts.length === 1 ? texts[0] : literal(texts.map((t) => t.value).join("\n")));
}

/**
 * What fish reads otherwise than bash: an escape, a substitution or block (`(`, `)`, `{`, `}`),
 * a backquote, a glob `?`, a recursive `**`, fish 2's `^` redirection, `$` other than `$NAME`.
 */
const FISH_OTHER = /[\\(){}`?^]|\*\*|\$(?![A-Za-z_]\w*(?![\w[]))/;

/**
 * fish's commands that set, export or define what later commands run, as a command (after a
 * separator, `and`/`or`/`not`/`!`, `command`/`builtin`/`exec`/`time`, `if`/`while`, and
 * assignments), its quotes off (`'se't` is `set`).
 */
const FISH_DEFINES =
  /(?:^|[;&|\n]|\b(?:and|or|not|command|builtin|exec|time|if|while|else|begin)\s|!\s)\s*(?:[A-Za-z_]\w*=\S*\s+)*(?:set|read|alias|abbr|functions?|funcsave|funced|bind|complete|emit|eval|source|\.)(?=[\s;&|]|$)/m;

/** Whether fish's text reads as bash reads it (see the module); else its code is not seen. */
export function fishReadsAsBash(text: string): boolean {
  return !FISH_OTHER.test(text) && !FISH_DEFINES.test(text.replace(/['"]/g, ""));
}
