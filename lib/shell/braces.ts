/**
 * Brace expansion as bash does it, before every other expansion: `{a,b}` (nested, with a
 * preamble and a postscript), sequences `{1..3}`, `{01..10..2}`, `{a..e}`. A `{` that opens no
 * such expression stays a literal (`{x}`, `{}`, an unmatched one, `${`), and so do quoted and
 * escaped braces and commas. Bounded: past `MAX_BRACE_WORDS` words, or a sequence it does not
 * take (`{Z..a}`, an increment of 0), the word is not expanded here.
 *
 * @example
 * ```ts
 * import { braceChars, expandBraces } from "./braces.ts";
 * expandBraces(braceChars("a{b,c{1..2}}"))!.map((w) => w.map((c) => c.ch).join(""));
 * // ["ab", "ac1", "ac2"]
 * ```
 *
 * @module
 */

/** How many words one word may expand into before it is left unexpanded. */
export const MAX_BRACE_WORDS = 64;

/**
 * A character of a word as brace expansion sees it: `active` when unquoted and unescaped (it
 * may be brace syntax, a glob character or a `~`), `quoted` when inside quotes, and the text it
 * has in the word's raw (unquoted) form. A quoted empty string is a character with `ch` "".
 */
export interface BraceChar {
  ch: string;
  active: boolean;
  quoted: boolean;
  raw: string;
}

/** Unquoted text as characters: `\x` is an escaped (inactive) `x`. */
export function braceChars(raw: string): BraceChar[] {
  const out: BraceChar[] = [];
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === "\\" && i + 1 < raw.length) {
      out.push({ ch: raw[i + 1], active: false, quoted: false, raw: raw.slice(i, i + 2) });
      i++;
    } else out.push({ ch: raw[i], active: true, quoted: false, raw: raw[i] });
  }
  return out;
}

/** Whether the characters hold a brace expression bash expands. */
export function hasBraces(chars: BraceChar[]): boolean {
  return firstBrace(chars) !== null;
}

/**
 * The words a word expands into, in bash's order; null when it expands into more than
 * `MAX_BRACE_WORDS` or holds a brace expression not taken here.
 */
export function expandBraces(chars: BraceChar[]): BraceChar[][] | null {
  const out: BraceChar[][] = [];
  let steps = 0;
  const go = (cs: BraceChar[]): boolean => {
    if (++steps > 4 * MAX_BRACE_WORDS) return false;
    const found = firstBrace(cs);
    if (found === null) {
      out.push(cs);
      return out.length <= MAX_BRACE_WORDS;
    }
    if (found === "unknown") return false;
    const before = cs.slice(0, found.start);
    const after = cs.slice(found.end + 1);
    return found.alternatives.every((alt) => go([...before, ...alt, ...after]));
  };
  return go(chars) ? out : null;
}

type Found = { start: number; end: number; alternatives: BraceChar[][] };

/** The leftmost brace expression: where it is and what it expands into. */
function firstBrace(cs: BraceChar[]): Found | "unknown" | null {
  for (let i = 0; i < cs.length; i++) {
    if (!isActive(cs[i], "{") || (i > 0 && isActive(cs[i - 1], "$"))) continue;
    let depth = 1;
    let end = -1;
    const commas: number[] = [];
    for (let j = i + 1; j < cs.length && end < 0; j++) {
      if (isActive(cs[j], "{")) depth++;
      else if (isActive(cs[j], "}") && --depth === 0) end = j;
      else if (isActive(cs[j], ",") && depth === 1) commas.push(j);
    }
    if (end < 0) continue;
    if (commas.length) {
      const bounds = [i, ...commas, end];
      const alternatives = bounds.slice(1).map((to, k) => cs.slice(bounds[k] + 1, to));
      return { start: i, end, alternatives };
    }
    const inner = cs.slice(i + 1, end);
    if (!inner.every((c) => c.active)) continue;
    const seq = sequence(inner.map((c) => c.ch).join(""));
    if (seq === "unknown") return seq;
    if (seq) return { start: i, end, alternatives: seq.map(braceChars) };
  }
  return null;
}

function isActive(c: BraceChar, ch: string): boolean {
  return c.active && c.ch === ch;
}

const NUMBERS = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/;
const LETTERS = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/;

/** The words of a sequence expression's inside (`1..3`, `a..e..2`); null when it is none. */
function sequence(text: string): string[] | "unknown" | null {
  const n = NUMBERS.exec(text);
  const l = n ? null : LETTERS.exec(text);
  if (!n && !l) return null;
  const step = Math.abs(Number((n ?? l)![3] ?? "1"));
  if (step === 0) return "unknown";
  if (l && /[a-z]/.test(l[1]) !== /[a-z]/.test(l[2])) return "unknown";
  const from = n ? Number(n[1]) : l![1].charCodeAt(0);
  const to = n ? Number(n[2]) : l![2].charCodeAt(0);
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) return "unknown";
  if (Math.abs(to - from) / step >= MAX_BRACE_WORDS) return "unknown";
  // `{01..10}`: as wide as the wider end, zeros first.
  const padded = n && [n[1], n[2]].some((e) => /^-?0\d/.test(e));
  const width = n ? Math.max(n[1].length, n[2].length) : 0;
  const out: string[] = [];
  const dir = to >= from ? 1 : -1;
  for (let v = from; dir > 0 ? v <= to : v >= to; v += dir * step) {
    if (l) out.push(String.fromCharCode(v));
    else if (padded) {
      out.push((v < 0 ? "-" : "") + String(Math.abs(v)).padStart(width - (v < 0 ? 1 : 0), "0"));
    } else out.push(String(v));
  }
  return out;
}
