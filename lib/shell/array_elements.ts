/**
 * The words of a known array (walk_arrays.ts decides which arrays are known) that an expansion
 * picks: `${NAME[@]}` and `${NAME[*]}` all of them, `${NAME[N]}` one (from the end where N is
 * negative), `${NAME[@]:OFFSET:LENGTH}` a slice, `${!NAME[@]}` their indices (the array is dense:
 * `0 1 …`); and such an expansion as a part of a longer word (`"${a[1]}/x"`, `dir/${a[0]}`,
 * `"x ${a[*]}"`), where it is one word: an element, or `"${NAME[*]}"` joined by a blank.
 *
 * @module
 */
import type { Part } from "./substitution_outputs.ts";
import { knownPart, type Values } from "./walk_values.ts";
import { arithmeticNumber } from "./parameter_ops.ts";

/**
 * A whole word that is the list of an array's words, some of them or one, or their indices:
 * quote, `!`, name, `@` or `*` or an index, and an offset and a length of the list
 * (`"${a[@]:1:2}"`).
 */
export const LIST =
  /^("?)\$\{(!?)([A-Za-z_][A-Za-z0-9_]*)\[([@*]|-?\d+)\](?::(\d+)(?::(\d+))?)?\}\1$/;

/** The parts of LIST's match: quoted, indices, name, subscript, offset, length. */
export interface Pick {
  quoted: boolean;
  indices: boolean;
  name: string;
  at: string;
  offset?: string;
  length?: string;
}

/** `text` as a pick of an array's words, or null. */
export function pickOf(text: string, quoted = false): Pick | null {
  const m = LIST.exec(quoted ? `"${text}"` : text);
  if (m === null || (m[2] === "!" && (/\d/.test(m[4]) || m[5] !== undefined))) return null;
  return {
    quoted: m[1] === '"',
    indices: m[2] === "!",
    name: m[3],
    at: m[4],
    offset: m[5],
    length: m[6],
  };
}

const isStatic = (w: { kind: string }) => w.kind === "static";

/**
 * The words of an array (`words`, at `indices` where sparse) that a pick takes, `make` making
 * an index's or an unset element's word; null where not known.
 */
export function picked<W extends { kind: string; value: string }>(
  list: { words: readonly W[]; indices?: readonly number[] },
  p: Pick,
  make: (text: string) => W,
): readonly W[] | null {
  const { words } = list;
  const whole = (p.at === "@" || p.at === "*") && p.offset === undefined;
  // (A glob's word is as many elements as it has matches: only a whole list of them is known.)
  if ((!whole || p.indices) && !words.every(isStatic)) return null;
  const indices = list.indices ?? words.map((_, i) => i);
  if (p.indices) return indices.map((i) => make(String(i)));
  if (whole) return words;
  // (Indexes are arithmetic: `010` is 8, `08` an error: not known.)
  const number = (t: string | undefined) => t === undefined ? undefined : arithmeticNumber(t);
  const [index, offset, length] = [number(p.at), number(p.offset), number(p.length)];
  if (offset === null || length === null) return null;
  if (p.at !== "@" && p.at !== "*") {
    // (From the end where negative, past the last index: before the first, bash fails; an
    // element not set is empty.)
    if (index == null) return null;
    const i = index < 0 ? (indices.at(-1) ?? -1) + 1 + index : index;
    if (p.offset !== undefined || i < 0) return null;
    const at = indices.indexOf(i);
    return [at < 0 ? make("") : words[at]];
  }
  // (A slice starts at the first element whose index is the offset or past it.)
  const from = indices.findIndex((i) => i >= offset!);
  const rest = from < 0 ? [] : words.slice(from);
  return length === undefined ? rest : rest.slice(0, length);
}

/**
 * An array's expansion inside a longer word as a part (null: not known): an element, quoted or
 * (where IFS is surely the default: `split` false) unquoted text that stays one word or a glob;
 * `"${NAME[*]}"` of static words, joined by a blank.
 */
export function elementPart(
  values: Values,
  text: string,
  quoted: boolean,
  split: boolean,
): Part | null {
  const p = pickOf(text);
  const list = p && values.list(p.name);
  if (!list || !p || p.indices || (split && !quoted)) return null;
  const one = p.at !== "@" && p.at !== "*";
  if (!one && !(p.at === "*" && quoted)) return null;
  const words = picked(list, p, (text) => ({ kind: "static", value: text }));
  if (words === null || !words.every(isStatic)) return null;
  const value = words.map((w) => w.value).join(" ");
  return knownPart({ value, kind: "text" }, quoted);
}
