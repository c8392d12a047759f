/**
 * Rule globs: `*` any run of characters (spaces, `/`, newlines too), `?` exactly one, anchored.
 *
 * @module
 */

const cache = new Map<string, RegExp>();

/** Compile a rule glob to an anchored regular expression (cached). */
export function globToRegExp(glob: string): RegExp {
  let re = cache.get(glob);
  if (re) return re;
  let src = "^";
  for (const ch of glob) {
    if (ch === "*") src += "[\\s\\S]*";
    else if (ch === "?") src += "[\\s\\S]";
    else src += ch.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  re = new RegExp(src + "$", "u");
  cache.set(glob, re);
  return re;
}

/** Whether `text` matches the rule glob. */
export function globMatch(glob: string, text: string): boolean {
  return globToRegExp(glob).test(text);
}

/** Specificity: literal characters before the first `*` or `?`, the whole length if none. */
export function specificity(glob: string): number {
  let n = 0;
  for (const ch of glob) {
    if (ch === "*" || ch === "?") return n;
    n++;
  }
  return n;
}
