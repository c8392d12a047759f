/**
 * The shell lines GNU parallel runs for a command given as words: parallel joins them with
 * spaces (quoting none of them, unless `-q`) and runs the line through a shell, its replacement
 * strings (`{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`, `{1}`…) replaced by each input,
 * shell-quoted, or the input appended where it has none (parallel(1): "If command is given as
 * one argument it is run by the shell", and a command of several words is joined into one).
 *
 * @module
 */
import type { Word } from "../shell/model.ts";
import { shellQuote } from "../shell/words.ts";
import type { Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";

/** Past this many inputs, they are not each judged: the line with its input not known. */
const MAX_INPUTS = 16;

/** A replacement string: `{}`, `{1}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`, `{2/.}`, …. */
const REPLACEMENT = /\{(\d*)(\.|\/|\/\/|\/\.)?\}|\{[#%]\}/g;

/** What a replacement string stands for, given the input `v` (null when it is not known). */
function replaced(token: string, source: string, form: string | undefined, v: string): string {
  if (token === "{#}" || token === "{%}") return "1";
  if (source !== "" && source !== "1") return "";
  const base = v.replace(/^.*\//, "");
  const dir = v.includes("/") ? v.replace(/\/[^/]*$/, "") || "/" : ".";
  if (form === ".") return v.replace(/\.[^./]*$/, "");
  if (form === "/") return base;
  if (form === "//") return dir;
  if (form === "/.") return base.replace(/\.[^.]*$/, "");
  return v;
}

/**
 * The line parallel runs for `input` (null: not known, each replacement string left as it is,
 * so that a path it is part of is judged where it points: `cat secrets/{}`).
 */
function lineFor(cmd: Word[], r: string, input: string | null): string {
  let any = false;
  const words = cmd.map((w) => {
    let text = w.value;
    if (r !== "{}" && text.includes(r)) {
      any = true;
      text = text.split(r).join(input === null ? "{}" : shellQuote(input));
    }
    return text.replace(REPLACEMENT, (token, source: string, form?: string) => {
      if (r !== "{}" && token === "{}") return token;
      any = true;
      return input === null ? token : shellQuote(replaced(token, source, form, input));
    });
  });
  const line = words.join(" ");
  if (any) return line;
  return input === null ? line : `${line} ${shellQuote(input)}`;
}

/** The replacement string `-I`/`--replace` sets instead of `{}`. */
function replacementOf(before: Word[]): string {
  for (let i = 0; i < before.length; i++) {
    const v = before[i].value;
    const m = /^(?:-I|--replace=?)(.*)$/s.exec(v);
    if (m) return m[1] !== "" ? m[1] : before[i + 1]?.value ?? "{}";
  }
  return "{}";
}

/**
 * Report the lines parallel runs for a command of static words: one for each input after a
 * single `:::` (all known), else the line with its input not known (stdin, `::::` files, several
 * input sources) besides the command itself with an input not known appended.
 */
export function commandLines(
  cmd: Word[],
  before: Word[],
  sources: Word[] | null,
  run: Runner,
): void {
  const r = replacementOf(before);
  const pipe = before.some((w) => w.value === "--pipe" || w.value === "--pipepart");
  if (pipe) {
    // (`--pipe`: each block of the input is the command's stdin, no word of it.)
    run.shell(literal(cmd.map((w) => w.value).join(" ")), "parallel");
    return;
  }
  const inputs = sources?.slice(1) ?? [];
  const single = sources !== null && sources[0].value === ":::" &&
    inputs.every((w) => w.kind === "static" && !/^::::?\+?$/.test(w.value)) &&
    inputs.length > 0 && inputs.length <= MAX_INPUTS;
  if (single) {
    for (const w of inputs) run.shell(literal(lineFor(cmd, r, w.value)), "parallel");
    return;
  }
  run.shell(literal(lineFor(cmd, r, null)), "parallel");
  run.stage([...cmd, unknownWord("(parallel input)")], "parallel");
}
