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

/** The long option of `names` that `opt` spells (in full, or as a GNU-style abbreviation). */
export function longOption<T>(
  names: Record<string, T> | undefined,
  opt: string,
  exact: boolean,
): T | undefined {
  if (!names) return undefined;
  if (Object.hasOwn(names, opt)) return names[opt];
  if (exact || opt.length < 4) return undefined;
  for (const n in names) if (n.startsWith(opt)) return names[n];
  return undefined;
}

/** The commands a program's options name: each value with how it runs. */
export function commandOptions(spec: OptionCommandSpec, args: Word[]): [Word, How][] {
  const out: [Word, How][] = [];
  const exact = spec.exact ?? false;
  // A value carried in part of a word: known when the word is static.
  const part = (w: Word, value: string): Word => w.kind === "static" ? literal(value) : w;
  const keyedValue = (keys: Record<string, How>, w: Word) => {
    const m = /^\s*([A-Za-z]+)\s*(?:=\s*|\s+)([\s\S]*)$/.exec(w.value);
    if (w.kind !== "static" && !(m && !Object.hasOwn(keys, m[1].toLowerCase()))) {
      out.push([w, "program"]); // an unknown key may be a command's
    } else if (m && Object.hasOwn(keys, m[1].toLowerCase())) {
      out.push([part(w, m[2]), keys[m[1].toLowerCase()]]);
    }
  };
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : a.prefix;
    if (v === "--" && a.kind === "static") break;
    if (!v.startsWith("-") && spec.operands !== undefined && operands++ === spec.operands) break;
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const opt = eq < 0 ? v : v.slice(0, eq);
      if (a.kind !== "static" && eq < 0) {
        // `--to-$X`: the option itself is not known.
        const names = [...Object.keys(spec.long ?? {}), ...Object.keys(spec.keyed ?? {})];
        if (names.some((n) => n.startsWith(opt))) out.push([a, "program"]);
        continue;
      }
      const how = longOption(spec.long, opt, exact);
      const keys = longOption(spec.keyed, opt, exact);
      if (!how && !keys) continue;
      const value = eq >= 0 ? part(a, a.value.slice(eq + 1)) : args[++i];
      if (!value) continue;
      if (how) out.push([value, how]);
      else keyedValue(keys!, value);
      continue;
    }
    const old = i === 0 && spec.bundled && a.kind === "static" && /^[A-Za-z]+$/.test(v);
    if (!old && !(v.startsWith("-") && v.length > 1)) continue;
    const letters = old ? v : v.slice(1);
    for (let j = 0; j < letters.length; j++) {
      const c = letters[j];
      if (!spec.shortWithArg.includes(c)) continue;
      // Old style: each letter's value is the next word, in order; else the rest or the next.
      const rest = letters.slice(j + 1);
      const value = old || (!rest && a.kind === "static") ? args[++i] : part(a, rest);
      const how = spec.short?.[c];
      const keys = spec.keyed?.[`-${c}`];
      if (value && how) out.push([value, how]);
      else if (value && keys) keyedValue(keys, value);
      if (!old) break;
    }
    // `-x$V`: a cluster that goes on unseen may hold a command option.
    if (a.kind !== "static" && (spec.short || spec.keyed)) {
      if (![...letters].some((c) => spec.shortWithArg.includes(c))) out.push([a, "program"]);
    }
  }
  return out;
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
