/**
 * Arrays of words: `files=(src/index.ts src/*.ts)` or `declare -a files=(…)`, assigned where it
 * surely runs, makes `"${files[@]}"` after it those words, as a `for` list's words are (a glob's
 * word stands for its matches, expanded where the array was assigned); `${files[@]}` where each
 * word is plain text (bash splits and globs them again), `"${files[*]}"` where all are text (one
 * word, joined by blanks). This holds only where nothing else in the command may change the
 * array: its name appears nowhere in the command's text (quotes and escapes removed) but in the
 * one assignment and in those uses and counts (`${#files[@]}`, a number), so no `files[i]=`,
 * `files+=`, `read -a files`, `mapfile files`, `unset files`, `declare files`, `for files in`,
 * `${files:=…}` or arithmetic names it; no alias, `let`, `select`, `local`, `typeset` or `IFS`
 * is anywhere in the command; and nothing before the use may assign names the walk does not see
 * (`Values.stop`: `read`, `eval`, `source`, a function defined, a nameref declared, a command not
 * known by name, `cd`, which moves where a glob's matches are). Anything else leaves the array
 * not known, as before.
 *
 * @module
 */
import type { Cwds } from "./cwds.ts";
import { arithmeticNumber } from "./parameter_ops.ts";
import { staticWord, type Word } from "./model.ts";
import type { LiteNode } from "./syntax_tree.ts";
import type { WalkContext } from "./walk_context.ts";
import { namesIfs, withoutQuotedData } from "./walk_values.ts";
import { groupWords } from "./walk_words.ts";
import { unquotedText } from "./words.ts";

/** Names bash keeps or reads itself: an array of them is not the command's to follow. */
const SPECIAL =
  /^(BASH\w*|COMP\w*|READLINE\w*|PIPESTATUS|FUNCNAME|GROUPS|DIRSTACK|MAPFILE|COPROC\w*|HISTCMD|RANDOM|SRANDOM|SECONDS|LINENO|EPOCH\w*|OPTIND|OPTARG|OPTERR|PPID|UID|EUID|SHELLOPTS|IFS|PATH|HOME|PWD|OLDPWD|CDPATH|TMPDIR|GLOBIGNORE|HISTFILE|REPLY|PS\d|_)$/;

/**
 * Text that may change an array, or how its words are split and joined, from where the walk does
 * not see it: aliases, `let`, `select`, `local`, `typeset`, `IFS` (but `IFS= read`, for `read`
 * alone).
 */
const NOT_FOLLOWED = /\b(alias|let|select|local|typeset)\b|\bIFS\b(?!=(''|"")?[ \t]+read\b)/;

/**
 * A whole word that is the list of an array's words, some of them or one: quote, name, `@` or `*`
 * or an index, and an offset and a length of the list (`"${a[@]:1:2}"`).
 */
const LIST = /^("?)\$\{([A-Za-z_][A-Za-z0-9_]*)\[([@*]|-?\d+)\](?::(\d+)(?::(\d+))?)?\}\1$/;

/** What may follow an array's name where it is used: `[@]}`, `[*]}`, `[N]}`, `[@]:N}`, `[@]:N:M}`. */
const USE = /^\[(?:[@*]\](?::\d+(?::\d+)?)?|-?\d+\])\}/;

/** Text bash leaves as one word with nothing to glob when it expands it unquoted. */
const PLAIN = /^[\w./,:+%@=~-]+$/;

/** The answers for the last source asked about (one command is walked at a time). */
let lastSource = "";
let lastAnswers = new Map<string, boolean>();

/**
 * Whether the array `name` may be followed in `source`: a name of the command's own, the command
 * has nothing of `NOT_FOLLOWED`, and the name appears once as `NAME=(` and otherwise only in
 * `${NAME[@]}`, `${NAME[*]}`, `${#NAME[@]}` and `${#NAME[*]}`.
 */
export function arrayFollowed(source: string, name: string): boolean {
  if (source !== lastSource) {
    lastSource = source;
    lastAnswers = new Map();
  }
  let answer = lastAnswers.get(name);
  if (answer === undefined) lastAnswers.set(name, answer = followed(source, name));
  return answer;
}

function followed(source: string, name: string): boolean {
  if (SPECIAL.test(name) || NOT_FOLLOWED.test(withoutQuotedData(source)) || namesIfs(source)) {
    return false;
  }
  // (Names as bash reads them: `read a\rr` and `(( a""rr = 1 ))` name `arr`; the option of
  // `declare -a a=(…)` names none.)
  const text = unquotedText(source).replace(/\bdeclare[ \t]+-a[ \t]/g, "declare    ");
  let assignments = 0;
  for (const m of text.matchAll(new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`, "g"))) {
    const after = text.slice(m.index + name.length, m.index + name.length + 24);
    if (after.startsWith("=(")) assignments++;
    else if (after.startsWith("+=(")) continue; // (appends: assignArray)
    else if (
      !USE.test(after) || !/\$\{#?$/.test(text.slice(Math.max(0, m.index - 3), m.index))
    ) {
      return false;
    }
  }
  return assignments === 1;
}

/**
 * The `declare [-a] NAME=(…)` of a declaration command that is that alone, its assignment; null
 * for any other (which may give names attributes: the walk follows nothing after it).
 */
export function arrayDeclaration(node: LiteNode): LiteNode | null {
  const kids = node.children;
  if (kids[0]?.type !== "declare") return null;
  let i = 1;
  if (kids[i]?.type === "word" && kids[i].text === "-a") i++;
  const a = kids[i];
  if (kids.length !== i + 1 || a?.type !== "variable_assignment") return null;
  return a.childForFieldName("value")?.type === "array" ? a : null;
}

/**
 * An array assignment `NAME=(WORDS)` the walk has reached: from here on the array holds its words,
 * where the words are known, the array is followed in the command and the assignment surely runs
 * (`Values.setList`).
 */
export function assignArray(ctx: WalkContext, node: LiteNode, cwds: Cwds): void {
  const name = node.childForFieldName("name");
  const value = node.childForFieldName("value");
  if (name?.type !== "variable_name" || value?.type !== "array") return;
  const append = node.text.startsWith(name.text + "+=");
  if (!ctx.values.sure || !arrayFollowed(ctx.values.source, name.text)) {
    // (An append that may or may not run: the words are not known after it.)
    if (append) ctx.values.forgetList(name.text);
    return;
  }
  const words = arrayWords(ctx, value, cwds);
  const before = append ? ctx.values.list(name.text) : undefined;
  // (`a+=(…)` after the words were kept, expanded where they were: old and new together.)
  const joined = before && (same(before.cwds, cwds) || before.words.every(isStatic))
    ? { words: [...before.words, ...words ?? []], cwds }
    : null;
  if (append && (words === null || joined === null)) ctx.values.forgetList(name.text);
  else if (words !== null) ctx.values.setList(name.text, joined ?? { words, cwds });
}

const isStatic = (w: Word) => w.kind === "static";
const same = (a: readonly (string | null)[], b: readonly (string | null)[]) =>
  a.length === b.length && a.every((c, i) => c === b[i]);

/** The words of `list` that `"${NAME[N]}"` or `"${NAME[@]:OFF:LEN}"` pick (`m`: LIST's match). */
function picked(words: readonly Word[], m: RegExpExecArray): readonly Word[] | null {
  const whole = (m[3] === "@" || m[3] === "*") && m[4] === undefined;
  // (A glob's word is as many elements as it has matches: only a whole list of them is known.)
  if (!whole && !words.every(isStatic)) return null;
  // (Indexes are arithmetic: `010` is 8, `08` an error.)
  const [index, from, length] = [m[3], m[4], m[5]].map((t) =>
    t === undefined || t === "@" || t === "*" ? undefined : arithmeticNumber(t)
  );
  if (index === null || from === null || length === null) return null;
  if (m[3] !== "@" && m[3] !== "*") {
    // (An index from the end where negative; one past either end is not known here.)
    const i = index! < 0 ? words.length + index! : index!;
    return m[4] === undefined && i >= 0 && i < words.length ? [words[i]] : null;
  }
  if (from === undefined) return words;
  return words.slice(from, length === undefined ? undefined : from + length);
}

/**
 * The words of a compound assignment's list: each element's words (braces expanded), static text
 * or a glob's word. Null where one is not known, or bash reads the list otherwise than its nodes
 * say: a `[i]=` subscript (or any `[`), a `~` past an element's start (bash leaves `x=~/a` and
 * `a:~/b` there as they are), a comment, an escaped blank or text between elements.
 */
function arrayWords(ctx: WalkContext, value: LiteNode, cwds: Cwds): Word[] | null {
  const words: Word[] = [];
  const kids = value.children;
  const src = value.text;
  if (kids[0]?.type !== "(") return null;
  for (let i = 1; i < kids.length; i++) {
    const gap = src.slice(
      kids[i - 1].endIndex - value.startIndex,
      kids[i].startIndex - value.startIndex,
    );
    // (Elements are apart by blanks and newlines alone; `(` and `)` need none.)
    if (!/^[ \t\n]*$/.test(gap) || (gap === "" && i > 1 && i < kids.length - 1)) return null;
    const c = kids[i];
    if (i === kids.length - 1) return c.type === ")" ? words : null;
    if (c.type === "comment" || c.text.includes("[") || c.text.indexOf("~", 1) >= 0) return null;
    for (const w of groupWords(ctx, c, cwds, false)) {
      if (w.kind === "dynamic" || (w.kind === "glob" && w.pattern === undefined)) return null;
      words.push(w);
    }
  }
  return null;
}

/**
 * The words a whole word that is `"${NAME[@]}"`, `"${NAME[*]}"`, `${NAME[@]}` or `${NAME[*]}`
 * expands to where the array is known (see the module), or `"${NAME[N]}"` (from the end where
 * N is negative), or `"${NAME[@]:OFFSET:LENGTH}"` (either quoted or not), in a stage run in
 * `cwds`; null
 * otherwise (also for none in a command's place, and for a glob's word where the stage runs
 * elsewhere than the array was assigned).
 */
export function arrayList(
  ctx: WalkContext,
  text: string,
  first: boolean,
  cwds: Cwds,
): Word[] | null {
  const m = LIST.exec(text);
  const list = m === null ? undefined : ctx.values.list(m[2]);
  const words = list && picked(list.words, m!);
  if (!list || !words || (first && !words.length)) return null;
  const globs = words.some((w) => w.kind !== "static");
  const quoted = m![1] === '"';
  if (globs && (cwds.length !== list.cwds.length || cwds.some((c, i) => c !== list.cwds[i]))) {
    return null;
  }
  // Unquoted, bash splits and globs each word again: plain text alone stays as it is.
  if (!quoted && !words.every((w) => w.kind === "static" && PLAIN.test(w.value))) return null;
  if (m![3] !== "*" || !quoted) return words.map((w) => ({ ...w, text }));
  if (globs) return null;
  return [{ ...staticWord(words.map((w) => w.value).join(" ")), text }];
}
