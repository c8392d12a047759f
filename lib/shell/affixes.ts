/**
 * Bash's removal of a prefix or suffix by a pattern (`${f%.ts}`, `${f#./}`), applied to a value
 * the walk knows: a variable's text, or each match of the glob a loop variable went over.
 *
 * @example
 * ```ts
 * removeAffix("src/a.test.ts", { op: "%", pattern: ".*" }); // "src/a.test"
 * removeAffix("src/a.test.ts", { op: "##", pattern: "*\/" }); // "a.test.ts"
 * ```
 *
 * @module
 */

/** One removal: the operator as written and its pattern. */
export interface Affix {
  /** `%`: the shortest suffix, `%%`: the longest; `#`/`##` the same of a prefix. */
  op: "%" | "%%" | "#" | "##";
  /** The pattern, of the characters `AFFIX` lets through only (`*`, `?`, plain text). */
  pattern: string;
}

/**
 * `${NAME%PATTERN}` and its kin whose pattern is plain text with `*` and `?` at most: no quotes,
 * escapes, brackets, expansions, `~` (bash expands it there) or extglob groups, which this reader
 * does not match.
 */
const AFFIX = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(%%?|##?)([\w./,:+@=*?-]*)\}$/;

/** The variable and the removal an expansion's text asks for, or null for any other expansion. */
export function affixExpansion(text: string): { name: string; affix: Affix } | null {
  const m = AFFIX.exec(text);
  if (m === null) return null;
  return { name: m[1], affix: { op: m[2] as Affix["op"], pattern: m[3] } };
}

/** Compiled removal patterns (a handful per corpus). */
const compiled = new Map<string, RegExp>();

function matcher(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (re === undefined) {
    // (In a removal, `*` and `?` match any character, `/` too.)
    const src = pattern.replace(/[.+^${}()|[\]\\/-]/g, "\\$&").replace(/\*/g, "[\\s\\S]*")
      .replace(/\?/g, "[\\s\\S]");
    compiled.set(pattern, re = new RegExp(`^${src}$`));
  }
  return re;
}

/**
 * `value` with the affix removed as bash removes it (unchanged when the pattern matches none);
 * null for a value with other than ASCII in it, where `?` is a character or a byte as the
 * locale says.
 */
export function removeAffix(value: string, affix: Affix): string | null {
  if (/[^ -~\t\n]/.test(value)) return null;
  const re = matcher(affix.pattern);
  const n = value.length;
  switch (affix.op) {
    case "%":
      for (let i = n; i >= 0; i--) if (re.test(value.slice(i))) return value.slice(0, i);
      break;
    case "%%":
      for (let i = 0; i <= n; i++) if (re.test(value.slice(i))) return value.slice(0, i);
      break;
    case "#":
      for (let i = 0; i <= n; i++) if (re.test(value.slice(0, i))) return value.slice(i);
      break;
    case "##":
      for (let i = n; i >= 0; i--) if (re.test(value.slice(0, i))) return value.slice(i);
      break;
  }
  return value;
}
