/**
 * The reader of option values that name commands (`tar -I CMD`, `ssh -o ProxyCommand=CMD`, `rg
 * --pre CMD`, `sort --compress-program=CMD`): each program module declares which of its options
 * do (an `OptionCommandSpec`), and this reads them the way the program does (clusters, glued
 * values, GNU-style abbreviations of long options, `Key=value` settings, tar's old bundled form).
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import type { How, Program } from "./spec.ts";
import { type OptionGrammar, readOptions } from "./argv.ts";
import { literal } from "./words.ts";

/** Options of a program (not a wrapper) whose values are commands it runs. */
export interface OptionCommandSpec {
  /** Short options that take a value: the rest of the cluster or the next word. */
  shortWithArg: string;
  /** Which of those name a command. */
  short?: Record<string, How>;
  /** Long options whose value (`--opt=v` or `--opt v`) names a command. */
  long?: Record<string, How>;
  /** Options whose value is `Key=value` (`-o ProxyCommand=…`), by key (lower case). */
  keyed?: Record<string, Record<string, How>>;
  /** Long options count only when written out in full (no GNU-style abbreviations). */
  exact?: boolean;
  /** The first word may be option letters without a dash, each value a later word (`tar xIf`). */
  bundled?: boolean;
  /** Options end at this many operands (ssh: after the host comes the remote command). */
  operands?: number;
}

const grammars = new WeakMap<OptionCommandSpec, OptionGrammar>();

/** The option grammar a spec describes (made once per spec). */
function grammarOf(spec: OptionCommandSpec): OptionGrammar {
  let g = grammars.get(spec);
  if (!g) {
    const keyedLong = Object.keys(spec.keyed ?? {}).filter((k) => k.startsWith("--"));
    g = {
      valued: spec.shortWithArg,
      longValued: new Set([...Object.keys(spec.long ?? {}), ...keyedLong]),
      abbreviations: !spec.exact,
      bundled: spec.bundled,
    };
    grammars.set(spec, g);
  }
  return g;
}

/** A value carried in part of a word: known when the word is static. */
function part(w: Word, value: string): Word {
  return w.kind === "static" ? literal(value) : w;
}

/** The commands a program's options name: each value with how it runs. */
export function commandOptions(spec: OptionCommandSpec, args: Word[]): [Word, How][] {
  const out: [Word, How][] = [];
  /** A `Key=value` setting: its value when the key names a command (an unseen key may). */
  const keyedValue = (keys: Record<string, How>, w: Word) => {
    const m = /^\s*([A-Za-z]+)\s*(?:=\s*|\s+)([\s\S]*)$/.exec(w.value);
    if (w.kind !== "static" && !(m && !Object.hasOwn(keys, m[1].toLowerCase()))) {
      out.push([w, "program"]); // an unknown key may be a command's
    } else if (m && Object.hasOwn(keys, m[1].toLowerCase())) {
      out.push([part(w, m[2]), keys[m[1].toLowerCase()]]);
    }
  };
  const named = (option: string, value: Word | undefined) => {
    if (!value) return;
    const how = option.startsWith("--") ? spec.long?.[option] : spec.short?.[option[1]];
    const keys = spec.keyed?.[option];
    if (how) out.push([value, how]);
    else if (keys) keyedValue(keys, value);
  };
  const values = args.map((a) => (a.kind === "static" ? a.value : null));
  let operands = 0;
  for (const t of readOptions(values, grammarOf(spec))) {
    if (t.kind === "end") break;
    const a = args[t.at];
    if (t.kind === "dynamic") {
      if (!a.prefix.startsWith("-")) {
        if (spec.operands !== undefined && operands++ === spec.operands) break;
      } else unseenOption(spec, a, named, out);
      continue;
    }
    if (t.kind === "operand") {
      if (!a.value.startsWith("-") && spec.operands !== undefined && operands++ === spec.operands) {
        break;
      }
      continue;
    }
    if (t.kind !== "valued") continue;
    const value = t.glued !== undefined
      ? part(a, t.glued)
      : t.valueAt === undefined
      ? undefined
      : args[t.valueAt];
    named(t.name, value);
  }
  return out;
}

/**
 * An option word not known statically (`--to-$X`, `-I$CMD`, `--pre=$X`): what it may name, with
 * the word itself as the value.
 */
function unseenOption(
  spec: OptionCommandSpec,
  a: Word,
  named: (option: string, value: Word) => void,
  out: [Word, How][],
): void {
  const v = a.prefix;
  if (v.startsWith("--")) {
    const eq = v.indexOf("=");
    const opt = eq < 0 ? v : v.slice(0, eq);
    if (eq < 0) {
      // `--to-$X`: the option itself is not known.
      const names = [...Object.keys(spec.long ?? {}), ...Object.keys(spec.keyed ?? {})];
      if (names.some((n) => n.startsWith(opt))) out.push([a, "program"]);
      return;
    }
    const full = longOption(spec, opt);
    if (full) named(full, a);
    return;
  }
  if (v.length < 2) return;
  const letters = v.slice(1);
  for (const c of letters) {
    if (!spec.shortWithArg.includes(c)) continue;
    named(`-${c}`, a);
    break;
  }
  // `-x$V`: a cluster that goes on unseen may hold a command option.
  if ((spec.short || spec.keyed) && ![...letters].some((c) => spec.shortWithArg.includes(c))) {
    out.push([a, "program"]);
  }
}

/** The long option (naming a command) that `opt` spells, in full or abbreviated GNU-style. */
function longOption(spec: OptionCommandSpec, opt: string): string | undefined {
  for (const names of [spec.long, spec.keyed]) {
    if (names && Object.hasOwn(names, opt)) return opt;
  }
  if (spec.exact || opt.length < 4) return undefined;
  for (const names of [spec.long, spec.keyed]) {
    for (const n in names ?? {}) if (n.startsWith(opt)) return n;
  }
  return undefined;
}

/** The `optionCommands` facet of a program whose option values name commands. */
export function optionCommands(spec: OptionCommandSpec): NonNullable<Program["optionCommands"]> {
  return (stage: Stage, run) => {
    const name = stage.argv[0].value.slice(stage.argv[0].value.lastIndexOf("/") + 1);
    for (const [value, how] of commandOptions(spec, stage.argv.slice(1))) {
      run.command(value, how, `${name} option`);
    }
  };
}
