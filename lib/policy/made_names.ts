/**
 * Whether a name glob of pathProtection (`*.pem`, `id_rsa*`, `.env`) may match a name `mktemp`
 * makes from its template (lib/shell/substitution_outputs.ts): the template's text with its run of
 * `X`s (written `?` each in `Output.name`) made of letters and digits, never of other characters.
 *
 * @module
 */

/** A character `mktemp` may put for an `X`. */
const ALNUM = /^[A-Za-z0-9]$/;

/**
 * Whether the protection glob `glob` (`*` any run of characters, `?` one, all else itself) matches
 * some name of the form `name`, where each `?` of `name` is a letter or a digit (`tmp.??????????`):
 * `*.pem` matches none of `tmp.??????????`, and `tmp.*`, `*1` and `.env` are matched as they may
 * be.
 */
export function mayMakeName(glob: string, name: string): boolean {
  const g = [...glob];
  const n = [...name];
  // (Whether g[i..] may match a name of the form n[j..]: a table, filled from the ends.)
  const may: boolean[][] = Array.from({ length: g.length + 1 }, () => []);
  for (let i = g.length; i >= 0; i--) {
    for (let j = n.length; j >= 0; j--) {
      let ok: boolean;
      if (i === g.length) ok = j === n.length;
      else if (g[i] === "*") ok = may[i + 1][j] || (j < n.length && may[i][j + 1]);
      else if (j === n.length) ok = false;
      else if (g[i] === "?") ok = may[i + 1][j + 1];
      else ok = (n[j] === "?" ? ALNUM.test(g[i]) : g[i] === n[j]) && may[i + 1][j + 1];
      may[i][j] = ok;
    }
  }
  return may[0][0];
}
