/**
 * The one reader of a program's options: given the words after the program name and the
 * program's grammar (which short letters and long options take a value), it says what each word
 * is: a flag, an option with its value (glued, or the next word), an option the grammar does not
 * know, an operand, the `--` that ends the options, or a word not known statically. The facets
 * (text arguments, the `$safe-bash` checks, a wrapper's command, the links ln makes) read its
 * tokens, each with its own caution: where an option is not known, a reader that must fail closed
 * stops taking words as text or as safe.
 *
 * @example
 * ```ts
 * import { readOptions } from "./argv.ts";
 * readOptions(["-t/", "-k", "2", "f"], { valued: "tk" }).map((t) => t.kind);
 * // ["valued", "valued", "operand"]
 * ```
 *
 * @module
 */
import type { Word } from "../shell/model.ts";

/** How a program takes its options (getopt-style). */
export interface OptionGrammar {
  /**
   * Short options that take no value. When absent, every letter not otherwise named is a flag;
   * when given, a letter in none of the lists is unknown.
   * @default undefined
   */
  flags?: string;
  /** Short options that take a value: the rest of their cluster, or the next word. */
  valued?: string;
  /** Short options whose value is optional and only glued (`xargs -i{}`, `-i` alone). */
  gluedOnly?: string;
  /**
   * Options whose value is optional: glued (`-A3`, `--context=3`), or the next word where it is a
   * number as the program's parser takes one (`number`: ag's strtol, ack's Getopt::Long `:i`);
   * else the next word is read anew (`ag -A KEY` searches for KEY). `long`: long options
   * (listed in `longOptional` too) that take the next word so.
   */
  numbered?: { short: string; long?: ReadonlySet<string>; number: (word: string) => boolean };
  /** Long options without a value (given `=value`, one is unknown). */
  longFlags?: ReadonlySet<string>;
  /** Long options with a value: `--opt=value` or the next word. */
  longValued?: ReadonlySet<string>;
  /** Long options whose value is optional, given only after `=` (`--color=never`). */
  longOptional?: ReadonlySet<string>;
  /** What `-5` is: an option (grep's context lines), an operand, or a cluster of letters. @default "cluster" */
  numbers?: "option" | "operand" | "cluster";
  /**
   * A long option may be abbreviated GNU-style (`--use-comp` for `--use-compress-program`; four
   * characters at least): the one known option it begins is the one meant (one that begins two
   * is none, as getopt_long says). `"all"`: the grammar lists every long option the program
   * takes, so any prefix of one is that one (`su --c CMD`). @default false
   */
  abbreviations?: boolean | "all";
  /**
   * The first word may be option letters without a dash (tar's old form, `tar xIf CMD a.tar`),
   * each valued letter taking the next word in turn. @default false
   */
  bundled?: boolean;
}

/** What one word (or one letter of a cluster) is. */
export interface OptionToken {
  /**
   * `flag`, `valued` (an option with a value), `unknown` (an option the grammar does not know:
   * it may take the next word), `operand`, `end` (`--`), `dynamic` (a word not known statically).
   */
  kind: "flag" | "valued" | "unknown" | "operand" | "end" | "dynamic";
  /** The index of the word in the arguments. */
  at: number;
  /** The option as written: `-x` (a letter of a cluster too) or `--name`; "" for the others. */
  name: string;
  /** A valued option's value, when glued to it (`-d/`, `--opt=v`, the rest of a cluster). */
  glued?: string;
  /** A valued option's value in a word of its own: its index (none past the last word). */
  valueAt?: number;
  /** For an unknown letter of a cluster: the letters after it, left unread. */
  rest?: string;
  /** For an unknown long option: it begins two known ones (getopt_long: "is ambiguous"). */
  ambiguous?: true;
}

const NO_SET: ReadonlySet<string> = new Set();

/**
 * Whether any of `names` (`-R`, `--follow`) is given among a stage's options (the words after the
 * program), read with `grammar`.
 */
export function hasOption(argv: Word[], grammar: OptionGrammar, names: readonly string[]): boolean {
  const values = argv.slice(1).map((w) => (w.kind === "static" ? w.value : null));
  return readOptions(values, grammar).some((t) => t.name !== "" && names.includes(t.name));
}

/** Whether a token is a long option (`--name`; a cluster's letter `-` is `--` too, and short). */
export function isLong(t: OptionToken): boolean {
  return t.name.length > 2 && t.name.startsWith("--");
}

/**
 * The tokens of `args` (null: a word not known statically) under `grammar`. Options are read
 * after operands too (GNU order); a reader that stops at the first operand stops itself. After
 * `--`, every word is an operand.
 */
export function readOptions(args: (string | null)[], written: OptionGrammar): OptionToken[] {
  const grammar = uniformGrammar(written);
  const out: OptionToken[] = [];
  let options = true;
  let i = 0;
  if (grammar.bundled && args[0] !== null && args[0] !== undefined && /^[A-Za-z]+$/.test(args[0])) {
    i = bundle(args[0], args.length, grammar, out);
  }
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === null) {
      out.push({ kind: "dynamic", at: i, name: "" });
    } else if (!options || a === "-" || !a.startsWith("-")) {
      out.push({ kind: "operand", at: i, name: "" });
    } else if (a === "--") {
      options = false;
      out.push({ kind: "end", at: i, name: "" });
    } else if (a.startsWith("--")) {
      i = longOption(a, i, args, grammar, out);
    } else if (/^-\d+$/.test(a) && (grammar.numbers ?? "cluster") !== "cluster") {
      const option = grammar.numbers === "option";
      out.push({ kind: option ? "flag" : "operand", at: i, name: option ? a : "" });
    } else {
      i = cluster(a, i, args, grammar, out);
    }
  }
  return out;
}

const uniformGrammars = new WeakMap<OptionGrammar, OptionGrammar>();

/**
 * A grammar with every field present, in one order (made once per grammar): programs write
 * their grammars with the fields they need, and reading fields of objects of many shapes is
 * slow in V8 (a megamorphic load each).
 */
function uniformGrammar(g: OptionGrammar): OptionGrammar {
  let u = uniformGrammars.get(g);
  if (!u) {
    // (Typed with every key required: a field added to OptionGrammar and not here does not compile.)
    const all: { [K in keyof Required<OptionGrammar>]: OptionGrammar[K] } = {
      flags: g.flags,
      valued: g.valued,
      gluedOnly: g.gluedOnly,
      numbered: g.numbered,
      longFlags: g.longFlags,
      longValued: g.longValued,
      longOptional: g.longOptional,
      numbers: g.numbers,
      abbreviations: g.abbreviations,
      bundled: g.bundled,
    };
    uniformGrammars.set(g, u = all);
  }
  return u;
}

/** Read tar's old bundled first word: returns the index of the first word after it and its values. */
function bundle(letters: string, count: number, g: OptionGrammar, out: OptionToken[]): number {
  let next = 1;
  for (const c of letters) {
    if (g.valued?.includes(c)) {
      out.push({ kind: "valued", at: 0, name: "-" + c, valueAt: next < count ? next : undefined });
      next++;
    } else out.push({ kind: "flag", at: 0, name: "-" + c });
  }
  return next;
}

/**
 * The long option `name` spells in full, or (with abbreviations) begins; null when none, false
 * when it begins two (as getopt_long: an abbreviation of two options is no option).
 */
function spelled(name: string, g: OptionGrammar): string | null | false {
  const sets = [g.longFlags, g.longOptional, g.longValued];
  for (const set of sets) if (set?.has(name)) return name;
  if (!g.abbreviations || name.length < (g.abbreviations === "all" ? 3 : 4)) return null;
  let found: string | null = null;
  for (const set of sets) {
    for (const full of set ?? NO_SET) {
      if (!full.startsWith(name) || full === found) continue;
      if (found !== null) return false;
      found = full;
    }
  }
  return found;
}

/** Read `--name[=value]` at `i`; returns the index of the last word it used. */
function longOption(
  a: string,
  i: number,
  args: readonly (string | null)[],
  g: OptionGrammar,
  out: OptionToken[],
): number {
  const count = args.length;
  const eq = a.indexOf("=");
  const written = eq > 0 ? a.slice(0, eq) : a;
  const glued = eq > 0 ? a.slice(eq + 1) : undefined;
  const spelling = g.abbreviations ? spelled(written, g) : null;
  const name = spelling || written;
  if ((g.longFlags ?? NO_SET).has(name) && glued === undefined) {
    out.push({ kind: "flag", at: i, name });
  } else if ((g.longOptional ?? NO_SET).has(name)) {
    if (glued === undefined && g.numbered?.long?.has(name)) {
      return numberedValue(name, i, args, g, out);
    }
    out.push({ kind: "valued", at: i, name, glued });
  } else if ((g.longValued ?? NO_SET).has(name)) return valued(name, glued, i, count, out);
  else if (spelling === false) out.push({ kind: "unknown", at: i, name, glued, ambiguous: true });
  else out.push({ kind: "unknown", at: i, name, glued });
  return i;
}

/** Read a cluster of short options at `i`; returns the index of the last word it used. */
function cluster(
  a: string,
  i: number,
  args: readonly (string | null)[],
  g: OptionGrammar,
  out: OptionToken[],
): number {
  const count = args.length;
  for (let j = 1; j < a.length; j++) {
    const c = a[j];
    const name = "-" + c;
    const rest = j < a.length - 1 ? a.slice(j + 1) : undefined;
    if (g.valued?.includes(c)) return valued(name, rest, i, count, out);
    if (g.gluedOnly?.includes(c)) {
      out.push({ kind: "valued", at: i, name, glued: rest });
      return i;
    }
    if (g.numbered?.short.includes(c)) {
      if (rest === undefined) return numberedValue(name, i, args, g, out);
      out.push({ kind: "valued", at: i, name, glued: rest });
      return i;
    }
    if (g.flags === undefined || g.flags.includes(c)) {
      out.push({ kind: "flag", at: i, name });
      continue;
    }
    // A letter the grammar does not know: whether the rest of the word is its value, or more
    // options, cannot be told. The rest is left unread (`rest`), and the next word too.
    out.push({ kind: "unknown", at: i, name, rest });
    return i;
  }
  return i;
}

/**
 * An option at `i` that takes a value: the one glued to it, else the next word (none past the
 * last); returns the index of the last word it used.
 */
function valued(
  name: string,
  glued: string | undefined,
  i: number,
  count: number,
  out: OptionToken[],
): number {
  if (glued !== undefined) {
    out.push({ kind: "valued", at: i, name, glued });
    return i;
  }
  out.push({ kind: "valued", at: i, name, valueAt: i + 1 < count ? i + 1 : undefined });
  return i + 1;
}

/**
 * An option of `numbered` at `i` with no value glued: it takes the next word where that is a
 * number to the program (a word not known is left to be read anew: a token of its own).
 */
function numberedValue(
  name: string,
  i: number,
  args: readonly (string | null)[],
  g: OptionGrammar,
  out: OptionToken[],
): number {
  const next = args[i + 1];
  if (typeof next === "string" && g.numbered!.number(next)) {
    out.push({ kind: "valued", at: i, name, valueAt: i + 1 });
    return i + 1;
  }
  out.push({ kind: "valued", at: i, name });
  return i;
}

/**
 * The option a word not known statically starts with, where its known start (`prefix`) holds
 * the option and the start of a value glued to it (`-H"X: $T"`, `-sd"a=$A"`, `--header="X:
 * $T"`): the option's name (a long one as `spell` gives it) and the known start of its value;
 * null where the known start does not say (`-s$X`, `--head$X`).
 */
export function gluedStart(
  prefix: string,
  grammar: OptionGrammar,
  spell: (name: string) => string = (name) => name,
): { name: string; value: string } | null {
  if (prefix.startsWith("--")) {
    const eq = prefix.indexOf("=");
    if (eq < 0) return null;
    const name = spell(prefix.slice(0, eq));
    const g = uniformGrammar(grammar);
    const valued = g.longValued?.has(name) || g.longOptional?.has(name);
    return valued ? { name, value: prefix.slice(eq + 1) } : null;
  }
  if (!prefix.startsWith("-")) return null;
  for (let j = 1; j < prefix.length; j++) {
    const c = prefix[j];
    if (grammar.valued?.includes(c)) return { name: "-" + c, value: prefix.slice(j + 1) };
    if (grammar.flags !== undefined && !grammar.flags.includes(c)) return null;
  }
  return null;
}

/**
 * Whether `grammar` reads the letters of a short-option word itself (`-obuild/x`, `-Iinclude/`):
 * it lists every letter (`flags` given) and each up to the first that takes a value is known, so
 * the value glued there is the one the program sees (no other split of the word is).
 */
export function lettersKnown(grammar: OptionGrammar | undefined, word: string): boolean {
  if (grammar?.flags === undefined || word[0] !== "-" || word[1] === "-") return false;
  const valued = (grammar.valued ?? "") + (grammar.gluedOnly ?? "") +
    (grammar.numbered?.short ?? "");
  for (let j = 1; j < word.length; j++) {
    if (valued.includes(word[j])) return true;
    if (!grammar.flags.includes(word[j])) return false;
  }
  return true;
}
