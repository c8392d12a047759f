/**
 * Whether text `sh`, `dash`, `ash` or `posh` runs reads as bash reads it. `/bin/sh` is dash on
 * Debian and Ubuntu (and posix-mode bash elsewhere), which has none of bash's extensions: it reads
 * `$'…'` and `$"…"` as a `$` and a quote (`cat $'\' secrets/key #'` runs `cat $\ secrets/key`),
 * `$[1+2]` as it is, `{a,b}` and `{1..3}` as they are, `[[` as a command, `((…))` as subshells (`((cat .env))` runs
 * cat), `cmd &> f` as `cmd &` and `> f` (both readings judged: `dashReadings`), `|&`, `<(…)`, `;&`
 * and `;;&` as errors, a here-string `<<<` otherwise, `function` as a command name, an array's `a=(…)`, `${a[…]}` and
 * the operators `${x/a/b}`, `${x:1:2}`, `${x^^}`, `${x,,}`, `${!x}`, `${x@Q}` as errors, `==` in
 * `[`/`test` as an error, `echo` with its escapes always on (`echo '.en\0166' | xargs cat` reads
 * `.env`) and no `-e`, `read` with `-r` and `-p` alone, and knows no `shopt` (`globstar`, `extglob`).
 * Where the text holds any of these, bash's reading does not hold for dash (nor for both at
 * once): its commands are not known. The text is read with its quoting as both shells read it
 * (`quoting`): what is quoted is the same to both (`echo "{a,b}"`, `grep -E '(a|b){2}'`), save
 * what commands see of their words (`[ a "==" b ]`, `echo "a\tb" | cat`); where the quoting is
 * not sure (a here-document, a backquote), the whole text is read, quotes and all.
 *
 * @module
 */

/** The shells that read as POSIX sh does, without bash's extensions. */
export const DASH_LIKE: ReadonlySet<string> = new Set(["sh", "dash", "ash", "posh"]);

/** What dash's syntax reads otherwise than bash (see the module): looked for outside quotes. */
const SYNTAX_OTHER = new RegExp(
  [
    /\$['"[]/, // $'…' $"…" $[…]
    /(?<!\$)\{[^\s{}]*(?:,|\.\.)[^\s{}]*\}/, // {a,b} {1..3} (not ${x:-a,b})
    /(?:^|[\s;&|(!])(?:\[\[|function)(?=[\s;&|()<>]|$)/, // [[ … ]], function f
    /(?<!\$)\(\(/, // ((…))
    /\|&|[<>]\(|;;?&|<<</, // |& <(…) >(…) ;& ;;& <<<
    /\w=\(|\w\[[^\]]*\]\+?=|\$\{[#!]?\w+(?:\[|\/|\^|,|@|:(?![-=?+]))|\$\{!/, // arrays, ${x/…}
  ].map((r) => r.source).join("|"),
);

/** What dash's commands read otherwise than bash's: looked for in the words they are given. */
const WORDS_OTHER = new RegExp(
  [
    /(?:^|[\s;&|(])(?:\[|test)\s[^;&|\n\]]*\s==\s/, // [ a == b ], test a == b
    /\b(?:shopt|globstar|extglob)\b/,
    /\bread(?:\s+-[rp]+)*\s+-[rp]*[^rp\s]/, // read with an option dash has not (it has -r, -p)
  ].map((r) => r.source).join("|"),
);

/**
 * `echo` where dash prints otherwise (escapes, always read by dash; `-e`, `-E`) and what it
 * prints is read again: piped or substituted (to the terminal or a file, it opens nothing).
 */
const ECHO_OTHER = /\becho(?:\s+-n)*\s+(?:-[neE]*[eE](?=\s|$)|[^|;&\n)`]*\\)/;
const ECHO_READ = /\||\$\(|`/;

/** Whether text dash runs reads as bash reads it, `&>` aside (see the module). */
export function dashReadsAsBash(text: string): boolean {
  const views = quoting(text);
  if (views === null) return false;
  if (SYNTAX_OTHER.test(views.syntax) || WORDS_OTHER.test(views.words)) return false;
  return !(ECHO_OTHER.test(views.words) && ECHO_READ.test(views.syntax));
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

/** A text's two views, as both shells read its quoting (`quoting`). */
interface Views {
  /** The text with what is quoted blanked out (`_`): where bash's and dash's syntax apply. */
  syntax: string;
  /** The text with its quoting taken away: the words as the commands are given them. */
  words: string;
}

/** Thrown where dash quotes the text otherwise than bash (`$'…'`, `$"…"`). */
const OTHER = Symbol("other");
/** Thrown where the scan is not sure of the quoting (a here-document, a backquote, …). */
const UNSURE = Symbol("unsure");

/** What, quoted, would read as syntax or part words in a view of the words: blanked out there. */
const SPECIAL = /[\s|;&<>()`\]]/;

/**
 * The text as bash and dash both read its quoting (null: dash reads a quote otherwise): single
 * quotes; double quotes with their `\` (before `$`, `` ` ``, `"`, `\`, a newline) and their `$(…)`
 * and `${…}`; `\` outside quotes; `$'…'` and `$"…"`, which dash reads as a `$` and a quote; a
 * comment. Where the scan is not sure (a here-document, whose body it does not follow; a backquote,
 * whose quoting differs between shells; a `case` in `$(…)`, whose `)` it does not match; quotes in
 * `${…}`), the text is read whole, quotes and all (and, for the words, without its quote marks).
 */
function quoting(text: string): Views | null {
  const scan = new QuoteScan(text);
  try {
    scan.code(false, false);
    return { syntax: scan.syntax, words: scan.words };
  } catch (e) {
    if (e === OTHER) return null;
    if (e !== UNSURE) throw e;
    return { syntax: text, words: `${text}\n${text.replace(/['"\\]/g, "")}` };
  }
}

/** The scan behind `quoting`: its place in the text and the two views so far. */
class QuoteScan {
  i = 0;
  syntax = "";
  words = "";
  constructor(readonly text: string) {}

  /**
   * Unquoted text up to its end, or (`inner`) the `)` closing a `$(` (`arith`: `$((`, where `#`
   * starts no comment).
   */
  code(inner: boolean, arith: boolean): void {
    const t = this.text;
    let [depth, wordStart] = [0, true];
    while (this.i < t.length) {
      const c = t[this.i];
      if (c === "\\" && t[this.i + 1] === "\n") { // (a line continued: nothing between)
        this.i += 2;
        continue;
      }
      if (c === "`" || t.startsWith("<<", this.i) && !t.startsWith("<<<", this.i)) throw UNSURE;
      if (
        inner && !arith && wordStart && t.startsWith("case", this.i) && /\s/.test(t[this.i + 4])
      ) {
        throw UNSURE;
      }
      if (c === ")" && inner && depth === 0) return void this.i++;
      const atWord = wordStart;
      wordStart = false;
      if (c === "\\") this.quoted(t[this.i + 1] ?? "", "__"), this.i += 2;
      else if (t.startsWith("<<<", this.i)) this.plain("<<<"), this.i += 3;
      else if (c === "'") this.single();
      else if (c === '"') this.double();
      else if (c === "$") this.dollar(false);
      else if (c === "#" && atWord && !arith) {
        const end = t.indexOf("\n", this.i); // (a comment)
        this.i = end < 0 ? t.length : end;
      } else {
        depth += c === "(" ? 1 : c === ")" ? -1 : 0;
        wordStart = /[\s;&|()<>]/.test(c);
        this.plain(c);
        this.i++;
      }
    }
  }

  /** `'…'`: the same to both shells. */
  single(): void {
    const end = this.text.indexOf("'", this.i + 1);
    const stop = end < 0 ? this.text.length : end;
    this.syntax += "_";
    for (const c of this.text.slice(this.i + 1, stop)) this.quoted(c, "_");
    this.syntax += "_";
    this.i = stop + 1;
  }

  /** `"…"`: `\` before `$`, `` ` ``, `"`, `\` or a newline; `$(…)`, `${…}` read within. */
  double(): void {
    const t = this.text;
    this.syntax += "_";
    this.i++;
    while (this.i < t.length && t[this.i] !== '"') {
      const c = t[this.i];
      if (c === "$") this.dollar(true);
      else if (c === "`") throw UNSURE;
      else if (c === "\\" && '$`"\\\n'.includes(t[this.i + 1] ?? " ")) {
        if (t[this.i + 1] !== "\n") this.quoted(t[this.i + 1], "__");
        this.i += 2;
      } else this.quoted(c, "_"), this.i++;
    }
    this.syntax += "_";
    this.i++;
  }

  /** `$…`, in double quotes or not: a substitution read as code, a parameter as it is. */
  dollar(inQuotes: boolean): void {
    const t = this.text;
    const next = t[this.i + 1] ?? "";
    if (next === "(") {
      const arith = t[this.i + 2] === "(";
      this.plain("$(");
      this.i += 2;
      this.code(true, arith);
      this.plain(")");
    } else if (next === "{") {
      const end = t.indexOf("}", this.i);
      const param = t.slice(this.i, end + 1);
      if (end < 0 || /['"`\\]|\$\(/.test(param)) throw UNSURE;
      this.plain(param);
      this.i = end + 1;
    } else if ((next === "'" || next === '"') && !inQuotes) throw OTHER;
    else if (next === "$" || next === "[") {
      this.plain(`$${next}`);
      this.i += 2;
    } else {
      if (inQuotes) this.quoted("$", "_");
      else this.plain("$");
      this.i++;
    }
  }

  /** What reads the same in both views. */
  plain(s: string): void {
    this.syntax += s;
    this.words += s;
  }

  /** A quoted character: blanked out in the syntax (`blank`), a word's in the words. */
  quoted(c: string, blank: string): void {
    this.syntax += blank;
    this.words += SPECIAL.test(c) ? "_" : c;
  }
}
