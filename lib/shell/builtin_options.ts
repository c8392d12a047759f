/**
 * How each builtin that assigns variables reads its words, as its getopt does (bash(1)): one
 * grammar per builtin and one reader, which builtin_assignments.ts (what a builtin changes) and
 * read_builtin.ts (what `read` and `mapfile` give) both read.
 *
 * @module
 */
import type { Word } from "./model.ts";

/**
 * How a builtin reads its words, as its getopt does: options first (letters joined or apart,
 * `--` ends them, a value the rest of its word or else the next word), then operands. An
 * option letter not listed leaves what it does not known.
 */
export interface Grammar {
  /** Option letters that take no value. */
  flags: string;
  /** Option letters that take a value. */
  valued?: string;
  /** Of `valued`, those whose value names a variable the builtin assigns. */
  named?: string;
  /** `+x` is an option too (it takes an attribute away). */
  plus?: true;
  /**
   * Its options are the same in every bash: with another letter it fails and changes nothing
   * (`printf '- item'`). Else such a letter may be a newer bash's: what it does is not known.
   */
  fixed?: true;
  /** Letters with which it changes no variable (`unset -f`: the names are functions'). */
  inert?: string;
  /** Letters with which it may change any variable: code runs, a nameref, arithmetic. */
  runs?: string;
  /**
   * What its operands are: names it assigns, the name it assigns as its second (`getopts`), a
   * printf format, `NAME[=value]` declarations; none: nothing it assigns (`wait`'s jobs).
   */
  operands?: "names" | "second" | "format" | "declarations";
  /** The name it assigns when given none (`read`: REPLY). */
  dflt?: string;
  /** The names it assigns besides (`getopts`: OPTARG, OPTIND). */
  also?: string[];
}

/** What a declaration builtin knows: `-`/`+` with these letters (bash(1)). */
const declares = (flags: string, more: Partial<Grammar>): Grammar => ({
  flags,
  plus: true,
  operands: "declarations",
  ...more,
});
const MAPFILE: Grammar = {
  flags: "t",
  valued: "dnOsuCc",
  runs: "C", // (a callback)
  operands: "names",
  dflt: "MAPFILE",
};
export const GRAMMARS: Record<string, Grammar> = {
  read: { flags: "Eers", valued: "adinNptu", named: "a", operands: "names", dflt: "REPLY" },
  mapfile: MAPFILE,
  readarray: MAPFILE,
  printf: { flags: "", valued: "v", named: "v", fixed: true, operands: "format" },
  getopts: { flags: "", operands: "second", also: ["OPTARG", "OPTIND"] },
  wait: { flags: "fn", valued: "p", named: "p" },
  // (`-C` runs a command, `-F` a function.)
  compgen: { flags: "abcdefgjksuv", valued: "ACFGPSVWXo", named: "V", runs: "CF" },
  unset: { flags: "fnv", inert: "f", operands: "names" },
  // (`-f`/`-F`: the names are functions'; `-n` makes a nameref, but `export -n` takes the
  // export attribute away; `-i`: see the module.)
  export: declares("fnp", { inert: "f" }),
  declare: declares("aAfFgiIlnprtux", { inert: "fF", runs: "in" }),
  typeset: declares("aAfFgiIlnprtux", { inert: "fF", runs: "in" }),
  local: declares("aAiIlnprtux", { runs: "in" }),
  readonly: declares("aAfp", { inert: "f" }),
};

/** A builtin's words read: its option letters, the names their values give, its operands. */
export interface Reading {
  letters: string;
  names: string[];
  /** Each valued letter with its value, in order (`read -d , -n 3`: `d` `,`, `n` `3`). */
  values: [letter: string, value: string][];
  operands: Word[];
  /**
   * Where the reading stopped short: at an option letter the grammar does not list, or at a
   * word not known where an option or an option's value may stand.
   */
  stop?: "invalid" | "unknown";
}

/** `args` read by `grammar`, up to where it stops short if it does. */
export function readOptions(args: Word[], grammar: Grammar): Reading {
  const { flags, valued = "", named = "" } = grammar;
  const option = grammar.plus ? /^[-+]./ : /^-./;
  let letters = "";
  const names: string[] = [];
  const values: Reading["values"] = [];
  let i = 0;
  const stop = (at: Reading["stop"]): Reading => ({
    letters,
    names,
    values,
    operands: [],
    stop: at,
  });
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.kind !== "static") return stop("unknown");
    if (a.value === "--") {
      i++;
      break;
    }
    if (!option.test(a.value)) break;
    for (let j = 1; j < a.value.length; j++) {
      const l = a.value[j];
      letters += l;
      if (flags.includes(l)) continue;
      if (!valued.includes(l)) return stop("invalid");
      const rest = a.value.slice(j + 1);
      const value = rest !== "" ? rest : args[++i]?.kind === "static" ? args[i].value : null;
      if (value === null) return stop("unknown");
      values.push([l, value]);
      if (named.includes(l)) names.push(value);
      break;
    }
  }
  return { letters, names, values, operands: args.slice(i) };
}
