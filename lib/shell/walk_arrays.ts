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
import { picked, pickOf } from "./array_elements.ts";
import { arithmeticNumber } from "./parameter_ops.ts";
import type { Cwds } from "./cwds.ts";
import { staticWord, type Word } from "./model.ts";
import type { LiteNode } from "./syntax_tree.ts";
import type { WalkContext } from "./walk_context.ts";
import type { BuiltinEffect } from "./builtin_assignments.ts";
import type { KnownList } from "./walk_values.ts";
import { namesIfs, withoutQuotedData } from "./walk_values.ts";
import { groupWords } from "./walk_words.ts";
import { unquotedText } from "./words.ts";

/** Names bash keeps or reads itself: an array of them is not the command's to follow. */
const SPECIAL =
  /^(BASH\w*|COMP\w*|READLINE\w*|PIPESTATUS|FUNCNAME|GROUPS|DIRSTACK|MAPFILE|COPROC\w*|HISTCMD|RANDOM|SRANDOM|SECONDS|LINENO|EPOCH\w*|OPTIND|OPTARG|OPTERR|PPID|UID|EUID|SHELLOPTS|IFS|PATH|HOME|PWD|OLDPWD|CDPATH|TMPDIR|GLOBIGNORE|HISTFILE|REPLY|PS\d|_)$/;

/**
 * Text that may change an array, or how its words are split and joined, from where the walk does
 * not see it: aliases, `let`, `select`, `local`, `typeset`, `IFS` (but `IFS=… read`, for `read`
 * alone, which `namesIfs` holds to a command's start).
 */
const NOT_FOLLOWED =
  /\b(alias|let|select|local|typeset)\b|\bIFS\b(?!=(''|""|[\w:,./@%+-]*)[ \t]+read\b)/;

/** What may follow an array's name where it is used: `[@]}`, `[*]}`, `[N]}`, `[@]:N}`, `[@]:N:M}`. */
const USE = /^\[(?:[@*]\](?::\d+(?::\d+)?)?|-?\d+\])\}/;

/** An element's literal index after an array's name: `[N]` (`[-N]`, from the end). */
const ELEMENT = /^\[-?\d+\](=|[ \t\n;&|)]|$)/;

/**
 * Whether the array's name at `at` of `text` (quotes and escapes removed) is an element set or
 * unset the walk follows (`assignElement`, `dropElement`): `NAME[N]=` at a command's start (not
 * in arithmetic, `((a[1]=2))`), or `unset NAME[N]` (quoted where bash runs it: unquoted, bash
 * globs the word and the walk follows nothing).
 */
function elementChange(text: string, at: number, after: string): boolean {
  const before = text.slice(0, at).trimEnd();
  if (ELEMENT.exec(after)?.[1] !== "=") {
    return /(^|[;&|({\n]|\b(do|then|else))[ \t]*unset$/.test(before);
  }
  return !/\(\($/.test(before) &&
    (before === "" || /([;&|({\n]|\b(do|then|else|while|until|if|!))$/.test(before));
}

/** Text bash leaves as one word with nothing to glob when it expands it unquoted. */
const PLAIN = /^[\w./,:+%@=~-]+$/;

/** The answers for the last source asked about (one command is walked at a time). */
let lastSource = "";
let lastAnswers = new Map<string, boolean | null>();

/**
 * Whether the array `name` may be followed in `source`: a name of the command's own, the command
 * has nothing of `NOT_FOLLOWED`, and the name appears once where it is assigned (`NAME=(`, or any
 * other place, which must then be the builtin that fills it: `mapfile -t NAME`, `read -a NAME`)
 * and otherwise only in `${NAME[@]}`, `${NAME[*]}`, `${NAME[N]}`, `${#NAME[@]}`, `${!NAME[@]}`
 * and their kin, and appends `NAME+=(`. (`filled`: asked for such a builtin's, not for `NAME=(`.)
 */
export function arrayFollowed(source: string, name: string, filled = false): boolean {
  if (source !== lastSource) {
    lastSource = source;
    lastAnswers = new Map();
  }
  let answer = lastAnswers.get(name);
  if (answer === undefined) lastAnswers.set(name, answer = followed(source, name));
  return answer !== null && answer === !filled;
}

/**
 * Whether the one place `source` assigns the array `name` is `NAME=(` (true) or another (false);
 * null where it is not one place or the array is not followed.
 */
function followed(source: string, name: string): boolean | null {
  if (SPECIAL.test(name) || NOT_FOLLOWED.test(withoutQuotedData(source)) || namesIfs(source)) {
    return null;
  }
  // (Names as bash reads them: `read a\rr` and `(( a""rr = 1 ))` name `arr`; the option of
  // `declare -a a=(…)` names none.)
  const text = unquotedText(source).replace(/\bdeclare[ \t]+-a[ \t]/g, "declare    ");
  let lists = 0;
  let others = 0;
  for (const m of text.matchAll(new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`, "g"))) {
    const after = text.slice(m.index + name.length, m.index + name.length + 24);
    if (after.startsWith("=(")) lists++;
    else if (after.startsWith("+=(")) continue; // (appends: assignArray)
    else if (ELEMENT.test(after) && elementChange(text, m.index, after)) continue;
    else if (
      !USE.test(after) || !/\$\{[#!]?$/.test(text.slice(Math.max(0, m.index - 3), m.index))
    ) {
      others++;
    }
  }
  return lists + others === 1 ? lists === 1 : null;
}

/**
 * A builtin that filled the array `name` with known text's `words` (`BuiltinEffect.fills`):
 * from here on it holds them, where the array is followed and the builtin surely ran.
 */
export function fillArray(ctx: WalkContext, [name, words]: [string, string[]]): void {
  if (ctx.values.sure && arrayFollowed(ctx.values.source, name, true)) {
    ctx.values.setList(name, { words: words.map((w) => staticWord(w)), cwds: [] });
  }
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
  const source = ctx.values.source;
  // (An append to an array a builtin filled: `mapfile -t a <<< …; a+=(…)`.)
  const followed = arrayFollowed(source, name.text) ||
    (append && arrayFollowed(source, name.text, true));
  if (!ctx.values.sure || !followed) {
    // (An append that may or may not run: the words are not known after it.)
    if (append) ctx.values.forgetList(name.text);
    return;
  }
  const words = arrayWords(ctx, value, cwds);
  const before = append ? ctx.values.list(name.text) : undefined;
  // (`a+=(…)` after the words were kept, expanded where they were: old and new together.)
  const joined = before && (same(before.cwds, cwds) || before.words.every(isStatic))
    ? appended(before, words ?? [], cwds)
    : null;
  if (append && (words === null || joined === null)) ctx.values.forgetList(name.text);
  else if (words !== null) ctx.values.setList(name.text, joined ?? { words, cwds });
}

/** A list with `words` after its own, at the indices after its last (null: not known). */
function appended(before: KnownList, words: Word[], cwds: Cwds): KnownList | null {
  const all = { words: [...before.words, ...words], cwds };
  if (!before.indices) return all;
  // (A sparse list: a glob's word is as many elements as it has matches.)
  if (!words.every(isStatic)) return null;
  const from = (before.indices.at(-1) ?? -1) + 1;
  return { ...all, indices: [...before.indices, ...words.map((_, i) => from + i)] };
}

/**
 * `NAME[N]=VALUE` (`node`, N a literal integer, octal after a leading 0) reached: where the array is known with static
 * words, followed and the assignment surely runs, the element is VALUE from here on (a new
 * index makes it sparse; one from the end before the first fails, not known); elsewhere the
 * array is not known. False where the walk is to follow nothing on (the name is no array the
 * command follows: it may be bash's own, `PATH[0]=x`).
 */
export function assignElement(
  ctx: WalkContext,
  node: LiteNode,
  decode: () => Word,
): boolean {
  const target = node.childForFieldName("name");
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\[(-?\d+)\]$/.exec(target?.text ?? "");
  if (m === null || !followedAnyhow(ctx.values.source, m[1])) return false;
  const [, name, n] = m;
  const value = decode();
  const prefix = `${target!.text}=`;
  const text = value.kind === "static" && value.value.startsWith(prefix)
    ? value.value.slice(prefix.length)
    : null;
  // (The index is arithmetic: `a[010]=x` sets element 8; `a[08]=x` is an error.)
  changeElement(ctx, name, arithmeticNumber(n), text);
  return true;
}

/**
 * What a builtin did to an array (`Values.afterCommand`'s effect): filled it with known words
 * (`fillArray`), or unset an element (`unset 'NAME[N]'`: where the array is not followed, the
 * walk follows nothing on, as for any name it does not know).
 */
export function arrayEffect(ctx: WalkContext, effect: BuiltinEffect | undefined): void {
  if (effect?.fills) fillArray(ctx, effect.fills);
  if (!effect?.drops) return;
  const [name, n] = effect.drops;
  if (followedAnyhow(ctx.values.source, name)) changeElement(ctx, name, n, null, true);
  else ctx.values.stop();
}

const followedAnyhow = (source: string, name: string) =>
  arrayFollowed(source, name) || arrayFollowed(source, name, true);

/**
 * Element `n` (null: an index bash does not read as a number) of the array `name` is `value`
 * (null: not known), or unset (`drop`).
 */
function changeElement(
  ctx: WalkContext,
  name: string,
  n: number | null,
  value: string | null,
  drop = false,
): void {
  const list = ctx.values.list(name);
  ctx.values.assign(name, null); // (`$NAME` is element 0)
  if (
    !list || !ctx.values.sure || !list.words.every(isStatic) || (!drop && value === null) ||
    n === null
  ) {
    return ctx.values.forgetList(name);
  }
  const indices = list.indices ?? list.words.map((_, i) => i);
  const i = n < 0 ? (indices.at(-1) ?? -1) + 1 + n : n;
  if (i < 0) return ctx.values.forgetList(name);
  const entries: [number, Word][] = indices.map((k, j) => [k, list.words[j]]);
  const at = entries.findIndex(([k]) => k >= i);
  const here = at >= 0 && entries[at][0] === i;
  if (drop) {
    if (here) entries.splice(at, 1);
  } else entries.splice(at < 0 ? entries.length : at, here ? 1 : 0, [i, staticWord(value!)]);
  const dense = entries.every(([k], j) => k === j);
  ctx.values.setList(name, {
    words: entries.map(([, w]) => w),
    cwds: list.cwds,
    ...dense ? {} : { indices: entries.map(([k]) => k) },
  });
}

const isStatic = (w: Word) => w.kind === "static";
const same = (a: readonly (string | null)[], b: readonly (string | null)[]) =>
  a.length === b.length && a.every((c, i) => c === b[i]);

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
  const p = pickOf(text);
  const list = p === null ? undefined : ctx.values.list(p.name);
  const words = list && picked(list, p!, staticWord);
  if (!list || !words || (first && !words.length)) return null;
  const globs = words.some((w) => w.kind !== "static");
  const { quoted } = p!;
  if (globs && (cwds.length !== list.cwds.length || cwds.some((c, i) => c !== list.cwds[i]))) {
    return null;
  }
  // Unquoted, bash splits and globs each word again: plain text alone stays as it is.
  if (!quoted && !words.every((w) => w.kind === "static" && PLAIN.test(w.value))) return null;
  if (p!.at !== "*" || !quoted) return words.map((w) => ({ ...w, text }));
  if (globs) return null;
  return [{ ...staticWord(words.map((w) => w.value).join(" ")), text }];
}
