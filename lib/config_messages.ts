/**
 * The wording of config problems: the path of a value (`policies.open.rules[0]`), quoted names
 * and lists, what a value is ("a string (\"x\")"), and the "did you mean" suggestion for a
 * misspelt key or value.
 *
 * @module
 */
import type { PValue, Seg } from "./config_tree.ts";

/** A path as written in messages: `policies.open.rules[0]`. */
export function fmtPath(segs: readonly Seg[]): string {
  let out = "";
  for (const s of segs) {
    if (typeof s === "number") out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(s)) out += out === "" ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** The `path: ` prefix of a message, empty at the top level. */
export function at(segs: readonly Seg[]): string {
  return segs.length === 0 ? "" : `${fmtPath(segs)}: `;
}

/** A name in double quotes, escaped as JSON. */
export function q(s: string): string {
  return JSON.stringify(s);
}

/** Names quoted and joined with commas. */
export function list(items: readonly string[]): string {
  return items.map(q).join(", ");
}

/** What a value is, for "found …": `a string ("x")`, `an array`, `null`. */
export function describe(v: PValue): string {
  if (v.kind === "object") return "an object";
  if (v.kind === "array") return "an array";
  if (v.value === null) return "null";
  if (typeof v.value === "string") {
    const s = v.value.length > 40 ? `${v.value.slice(0, 40)}…` : v.value;
    return `a string (${q(s)})`;
  }
  return `a ${typeof v.value} (${String(v.value)})`;
}

/** Optimal string alignment distance (edits and adjacent transpositions). */
function editDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push([i, ...new Array(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** The closest candidate: same spelling ignoring case, or at most 2 edits away. */
function suggest(word: string, candidates: Iterable<string>): string | undefined {
  const all = [...candidates];
  const lower = word.toLowerCase();
  const sameCase = all.find((c) => c.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of all) {
    const dist = editDistance(lower, c.toLowerCase());
    if (dist < bestDistance && dist < c.length) {
      best = c;
      bestDistance = dist;
    }
  }
  return best;
}

/** A "; did you mean …?" suffix when a candidate is close, else "". */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const s = suggest(word, candidates);
  return s === undefined ? "" : `; did you mean ${q(s)}?`;
}
