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
 * What is made of a glob's match before text goes around it (`Around.cut`), in order: an affix
 * removed (`"${f%.md}"`), or what `$(basename …)` or `$(dirname …)` prints of it
 * (substitution_outputs.ts).
 */
export type Cut = Affix | { op: "basename"; suffix: string } | { op: "dirname" };

/**
 * A value with its cuts made in turn (null where one cannot be: `removeAffix`). A substitution's
 * trailing newlines are removed from what it prints.
 */
export function applyCuts(value: string, cuts: readonly Cut[]): string | null {
  let v: string | null = value;
  for (const c of cuts) {
    if (v === null) return null;
    if (c.op === "basename") v = basenameOf(v, c.suffix).replace(/\n+$/, "");
    else if (c.op === "dirname") v = dirnameOf(v).replace(/\n+$/, "");
    else v = removeAffix(v, c);
  }
  return v;
}

/**
 * What coreutils `basename NAME [SUFFIX]` prints of a name (without its newline): trailing
 * slashes dropped, then the last component, then SUFFIX from its end where it is not all of it;
 * a name of slashes alone is `/`.
 */
export function basenameOf(name: string, suffix = ""): string {
  if (name === "") return "";
  let end = name.length;
  while (end > 0 && name[end - 1] === "/") end--;
  if (end === 0) return "/";
  const base = name.slice(name.lastIndexOf("/", end - 1) + 1, end);
  return suffix && base !== suffix && base.endsWith(suffix)
    ? base.slice(0, base.length - suffix.length)
    : base;
}

/**
 * What coreutils `dirname NAME` prints of a name: the name with its last component and the
 * slashes around it removed; `/` where only a leading slash is left, `.` where nothing is.
 */
export function dirnameOf(name: string): string {
  let end = name.length;
  while (end > 0 && name[end - 1] === "/") end--;
  if (end === 0) return name === "" ? "." : "/";
  const slash = name.lastIndexOf("/", end - 1);
  if (slash < 0) return ".";
  let len = slash;
  while (len > 0 && name[len - 1] === "/") len--;
  return len === 0 ? "/" : name.slice(0, len);
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
