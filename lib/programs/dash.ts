/**
 * Whether text `sh`, `dash`, `ash` or `posh` runs reads as bash reads it. `/bin/sh` is dash on
 * Debian and Ubuntu (and posix-mode bash elsewhere), which has none of bash's extensions: it reads
 * `$'…'` and `$"…"` as a `$` and a quote (`cat $'\' secrets/key #'` runs `cat $\ secrets/key`),
 * `{a,b}` and `{1..3}` as they are, `[[` as a command, `((…))` as subshells (`((cat .env))` runs
 * cat), `cmd &> f` as `cmd &` and `> f` (both readings judged: `dashReadings`), `|&` and `<(…)` as errors, `;&` and `;;&` as errors, a
 * here-string `<<<` otherwise, `function` as a command name, an array's `a=(…)`, `${a[…]}` and
 * the operators `${x/a/b}`, `${x:1:2}`, `${x^^}`, `${x,,}`, `${!x}`, `${x@Q}` as errors, `==` in
 * `[`/`test` as an error, `echo` with its escapes always on (`echo '.en\0166' | xargs cat` reads
 * `.env`) and no `-e`, `read` with `-r` and `-p` alone, and knows no `shopt` (`globstar`, `extglob`).
 * Where the text holds any of these, bash's reading does not hold for dash (nor for both at
 * once): its commands are not known. (Quotes are not looked into: a `{a,b}` in quotes counts too,
 * the stricter reading.)
 *
 * @module
 */

/** The shells that read as POSIX sh does, without bash's extensions. */
export const DASH_LIKE: ReadonlySet<string> = new Set(["sh", "dash", "ash", "posh"]);

/** What dash reads otherwise than bash (see the module). */
const DASH_OTHER = new RegExp(
  [
    /\$['"]/, // $'…' $"…"
    /(?<!\$)\{[^\s{}]*(?:,|\.\.)[^\s{}]*\}/, // {a,b} {1..3} (not ${x:-a,b})
    /(?:^|[\s;&|(!])(?:\[\[|function)(?=\s)/, // [[ … ]], function f
    /(?<!\$)\(\(/, // ((…))
    /\|&|[<>]\(|;;?&|<<</, // |& <(…) >(…) ;& ;;& <<<
    /\w=\(|\w\[[^\]]*\]\+?=|\$\{[#!]?\w+(?:\[|\/|\^|,|@|:(?![-=?+]))|\$\{!/, // arrays, ${x/…}
    /(?:^|[\s;&|(])(?:\[|test)\s[^;&|\n\]]*\s==\s/, // [ a == b ], test a == b
    /\b(?:shopt|globstar|extglob)\b/,
  ].map((r) => r.source).join("|"),
);

/**
 * `echo` where dash prints otherwise (escapes, always read by dash; `-e`, `-E`) and what it
 * prints is read again: piped or substituted (to the terminal or a file, it opens nothing).
 */
const ECHO_OTHER = /\becho(?:\s+-n)*\s+(?:-[neE]*[eE](?=\s|$)|[^|;&\n)`]*\\)/;
const ECHO_READ = /\||\$\(|`/;

/** `read` with an option dash does not have (it knows `-r` and `-p` alone). */
const READ_OPTIONS = /\bread(?:\s+-[rp]+)*\s+-[rp]*[^rp\s]/;

/** Whether text dash runs reads as bash reads it, `&>` aside (see the module). */
export function dashReadsAsBash(text: string): boolean {
  if (DASH_OTHER.test(text) || READ_OPTIONS.test(text)) return false;
  return !(ECHO_OTHER.test(text) && ECHO_READ.test(text));
}

/**
 * The texts that stand for what sh runs, each read as bash: the text itself (posix-mode bash, as
 * `sh` elsewhere, reads `cmd &> f` as bash does) and, where it holds `&>`, the text as dash reads
 * it, `cmd & > f` (cmd in the background, f emptied); null where dash reads it otherwise still.
 */
export function dashReadings(text: string): string[] | null {
  if (!dashReadsAsBash(text)) return null;
  return text.includes("&>") ? [text, text.replaceAll("&>", "& >")] : [text];
}
