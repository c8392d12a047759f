/**
 * find's expression read as find evaluates it, for what it prints: the names a printing branch
 * can yield are limited by a name test every path to that branch passes (`-name A -not -path P
 * -print`: A; `-name A -o -name B`: A or B; `! -name A`: any name; `-iname A`: A case-folded).
 *
 * @module
 */

/**
 * What is known of a path where a test holds or an action runs: the name globs one of which its
 * last component matches (null: any name), and whether `-type f`/`-type d` holds of it.
 */
export interface Reach {
  names: string[] | null;
  typed: boolean;
}

const ANY: Reach = { names: null, typed: false };

/** Tests and options without a value (true or false of a path, or always true). */
const BARE = new Set([
  "-true",
  "-false",
  "-empty",
  "-readable",
  "-writable",
  "-executable",
  "-nouser",
  "-nogroup",
  "-prune",
  "-quit",
  "-print",
  "-print0",
  "-ls",
  "-delete",
  "-depth",
  "-d",
  "-xdev",
  "-x",
  "-mount",
  "-follow",
  "-noleaf",
  "-daystart",
  "-warn",
  "-nowarn",
  "-ignore_readdir_race",
  "-noignore_readdir_race",
  "-s",
]);

/** Tests, actions and options with one value. */
const VALUED =
  /^-(i?name|i?path|i?wholename|i?regex|i?lname|x?type|user|group|uid|gid|perm|size|[acmB](time|min)|a?c?newer|newer[aBcmt][aBcmt]?|samefile|inum|links|used|fstype|context|fprint0?|fls|printf|maxdepth|mindepth|regextype|files0-from|flags)$/;

/** Actions that run a command on a path, up to `;` or `+`. */
const RUNS = /^-(exec|execdir|ok|okdir)$/;

/** Actions: with none but `-prune`, find prints every path the whole expression holds for. */
const ACTIONS = /^-(print0?|printf|fprint0?|fprintf|fls|ls|delete|quit|exec|execdir|ok|okdir)$/;

/** A node's reach: where it holds (`held`), and where the chosen actions in it run (`runs`). */
interface Node {
  held: Reach;
  runs: Reach | undefined;
}

function both(a: Reach, b: Reach): Reach {
  // (Where both name sets are known, a path matches one of each: either set is a bound.)
  const names = a.names === null
    ? b.names
    : b.names === null || a.names.length <= b.names.length
    ? a.names
    : b.names;
  return { names, typed: a.typed || b.typed };
}

function either(a: Reach | undefined, b: Reach | undefined): Reach | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const names = a.names === null || b.names === null ? null : [...a.names, ...b.names];
  return { names, typed: a.typed && b.typed };
}

/**
 * A name glob of `-iname`, read case-blind: each ASCII letter as a bracket of both cases. Null
 * (any name) for one this cannot say: a bracket or backslash of its own, or a character
 * outside ASCII (which a locale may fold into an ASCII letter).
 */
export function foldedName(name: string): string | null {
  // deno-lint-ignore no-control-regex
  if (/[[\]\\]|[^\x00-\x7f]/.test(name)) return null;
  return name.replace(/[a-zA-Z]/g, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
}

/** What a test holds for, by its name and value. */
function tested(test: string, value: string): Reach {
  // (`-name '*'` filters nothing: read as no filter, as a tree read whole is.)
  if ((test === "-name" || test === "-iname") && /^\**$/.test(value)) return ANY;
  if (test === "-name") return { names: [value], typed: false };
  if (test === "-iname") {
    const folded = foldedName(value);
    return folded === null ? ANY : { names: [folded], typed: false };
  }
  if (test === "-type") return { names: null, typed: /^[fd](,[fd])*$/.test(value) };
  return ANY;
}

/**
 * Where the actions `chosen` picks run (by their index in `words`: an `-exec`), or, with none
 * chosen, what find prints: where its `-print`s and `-print0`s run, or with no action but
 * `-prune`, where the whole expression holds. Any name where the expression is not read (a
 * primary this does not know, a missing value, unbalanced parentheses) or nothing is chosen.
 * `"held"`: where the whole expression holds, whatever its actions.
 */
export function findReach(
  words: string[],
  chosen?: ((at: number) => boolean) | "held",
): Reach {
  const picks = typeof chosen === "function"
    ? chosen
    : (at: number) => words[at] === "-print" || words[at] === "-print0";
  let i = 0;
  let acts = false;
  function fail(): never {
    throw new SyntaxError();
  }
  const primary = (): Node => {
    const w = words[i];
    if (w === undefined) fail();
    if (w === "(") {
      i++;
      const inner = list();
      if (words[i] !== ")") fail();
      i++;
      return inner;
    }
    if (w === "!" || w === "-not") {
      i++;
      const inner = primary();
      return { held: ANY, runs: inner.runs };
    }
    const at = i++;
    let held = ANY;
    if (ACTIONS.test(w)) acts = true;
    if (RUNS.test(w)) {
      while (i < words.length && words[i] !== ";" && words[i] !== "+") i++;
      if (i++ >= words.length) fail();
    } else if (VALUED.test(w)) {
      if (i >= words.length) fail();
      held = tested(w, words[i++]);
    } else if (w === "-fprintf") {
      i += 2;
      if (i > words.length) fail();
    } else if (!BARE.has(w)) fail();
    return { held, runs: picks(at) ? ANY : undefined };
  };
  const and = (): Node => {
    let a = primary();
    while (i < words.length && !/^(-o|-or|,|\))$/.test(words[i])) {
      if (words[i] === "-a" || words[i] === "-and") i++;
      const b = primary();
      a = { held: both(a.held, b.held), runs: either(a.runs, b.runs && both(a.held, b.runs)) };
    }
    return a;
  };
  const or = (): Node => {
    let a = and();
    while (words[i] === "-o" || words[i] === "-or") {
      i++;
      const b = and();
      a = { held: either(a.held, b.held)!, runs: either(a.runs, b.runs) };
    }
    return a;
  };
  const list = (): Node => {
    let a = or();
    while (words[i] === ",") {
      i++;
      const b = or();
      a = { held: b.held, runs: either(a.runs, b.runs) };
    }
    return a;
  };
  if (!words.length) return ANY;
  try {
    const root = list();
    if (i < words.length) return ANY;
    if (chosen === "held") return root.held;
    return (chosen || acts ? root.runs : root.held) ?? ANY;
  } catch (e) {
    if (e instanceof SyntaxError) return ANY;
    throw e;
  }
}
