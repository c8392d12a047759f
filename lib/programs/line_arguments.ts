/**
 * The arguments of a stage that read as command lines (see `commandLineArguments`): judged by
 * carried_lines.ts as commands that may run, where the program is not known to take them as text
 * or to run them.
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { programOf } from "./registry.ts";
import { commandLine, literal } from "./words.ts";

/**
 * Where the inline code is in the words of a program by path that is judged as a program not
 * known (`x/python -c CODE`), were it the interpreter its name says (`EvalShape.codeAt`), or the
 * flag's word the code is glued to (`x/node --eval=CODE`, `x/python -cCODE`).
 */
function codeAt(stage: Stage): number | undefined {
  const { unnamed: _, ...name } = stage.argv[0];
  const shape = programOf(name)?.evaluates?.(stage);
  if (!shape || shape.codeAt !== undefined) return shape?.codeAt;
  const glued = (w: Word) => w.kind === "static" && w.value.startsWith(shape.via);
  const at = stage.argv.findIndex((w, i) => i > 0 && glued(w) && w.value !== shape.via);
  return at < 0 ? undefined : at;
}

/** A word that reads as a command line: a program name (maybe by path), blanks, an argument. */
const COMMAND_LINE = /^\s*(?:[\w.+-]*\/)*[A-Za-z_][\w.+-]*[ \t\n]+\S/;
/**
 * A word that reads as a command line that first assigns what it uses (`X=secrets; cat $X/key`,
 * `a=(x y) && cmd`, `X=1 cmd`): names, an array's `(…)` or quoted values, then a command.
 */
const ASSIGNING =
  /^\s*(?:[A-Za-z_]\w*(?:\[[^\]]*\])?\+?=(?:\([^()]*\)|'[^']*'|"[^"]*"|[^\s;&|()'"])*(?:[ \t]*(?:;|&&|\n)\s*|[ \t]+))+[^\s;&|]/;
/** What every command line has (most arguments have none: the pattern is not tried on them). */
const BLANK = /[ \t\n]/;
/** What a command line has where a redirect or `${IFS}` stands for its blanks (`cat<x`). */
const MAY_RUN = /[ \t\n<>]|IFS/;
/**
 * A word shaped as a command line some other way: a group or a subshell first (`{ cmd; }`,
 * `(cmd)`), a redirect before or glued after the name (`<x cmd`, `cmd<x`), an operator or a
 * substitution glued after it (`x;cmd`, `x|cmd`, `x$(cmd)`), quotes or backslashes in the name
 * (`"cmd" x`, `\cmd x`, `c""md x`), a function defined first (`f() { cmd; }; f`). Such a line is
 * one only where one of its commands has a program's name (see `commandLineArguments`'s
 * `shaped`): `'{ "a": 1 }'`'s `a:` is none.
 */
const SHAPED =
  /^\s*(?:[{(]|\d*&?[<>]|[\w.+/-]*(?:\$?["']|\\|\$\(|`)|[\w.+/-]+(?:\d*[<>;&|]|\s*\(\s*\)))/;
/** A line that goes on another's (`;cmd`, `&& cmd`, `| cmd`): a line once its operator is cut. */
const CONTINUED = /^\s*[;&|]+/;
/** `$IFS` (`cat${IFS}x`): a blank, as the shell splits it (on the value it has by default). */
const IFS = /\$(?:\{IFS[^}]*\}|IFS(?!\w))/g;

/** A setting's value (`--cmd=…`, `hooks.x=…`, `config:tunnels:x=…`): after its key's `=`. */
const KEYED = /^-{0,2}[\w.:@/-]+=/;
/** Marks of a shell command before one (lf's `$cmd`, `!cmd`), and a command in `name(…)`. */
const MARKED = /^[$!&%]+/;
const CALLED = /\w\(([^()]*)\)/g;
/** A label before a command (yt-dlp's `--exec 'before_dl:CMD'`): not a URL's `scheme://`. */
const LABELED = /^[A-Za-z_][\w-]*:(?!\/\/)/;

/**
 * The arguments of a stage that read as command lines (`some-runner 'rm -rf x'`, `--cmd='rm x'`,
 * `hooks.pre-status=rm x`, `start:become(rm x)`, lf's `$rm x`) where the program is not known to
 * take them as text (`git commit -m`, grep's pattern, `echo`) or to run them (a wrapper's command
 * is a stage already): the policy judges each as a command that may run, so a carrier the
 * registry does not know fails closed. Of a program the registry does not know at all, the words
 * from each one `starts` names on (`cmake -E env rm -rf src` from `rm`) are such a line too.
 * The words it hands on to a stage it runs (`handed`: `uv run python -c CODE` from `python` on)
 * are that stage's, judged there as its program takes them. Of a program by path named like an
 * interpreter (`Word.unnamed`: `x/python -c CODE`), the inline code is no line (read so, most code
 * would deny); the words around it are read as any. The lines `SHAPED` alone finds are added to
 * `shaped` too: a line only where one of its commands has a program's name.
 */
export function commandLineArguments(
  stage: Stage,
  starts?: (name: string) => boolean,
  handed?: ReadonlySet<Word>,
  shaped?: Set<Word>,
): Word[] {
  if (stage.argv[0]?.kind !== "static") return [];
  const program = programOf(stage.argv[0]);
  // What it runs on another machine or in a container is a line of its own, always.
  const out: Word[] = program?.runsElsewhere?.(stage.argv) ?? [];
  // (A tool's code option is no line: `pylint --init-hook CODE`; its other words are read.)
  const tool = program?.codeOption === true && program.runs === undefined;
  if (program && !tool && (program.runs || program.evaluates || program.noFileOperands)) return out;
  let text: Set<number> | null = null;
  const add = (value: string, w: Word) => {
    if (value.includes("IFS")) value = value.replace(IFS, " ");
    const plain = BLANK.test(value) && (COMMAND_LINE.test(value) || ASSIGNING.test(value));
    if (!plain && !SHAPED.test(value)) return;
    if (out.some((line) => line.value === value)) return;
    const line = value === w.value ? w : literal(value);
    out.push(line);
    if (!plain) shaped?.add(line);
  };
  const unknown = program === undefined ? starts : undefined;
  const code = stage.argv[0].unnamed || tool ? codeAt(stage) : undefined;
  for (let i = 1; i < stage.argv.length; i++) {
    const w = stage.argv[i];
    if (w.kind !== "static" || handed?.has(w)) continue;
    if (unknown && w.value[0] !== "-") {
      const slash = w.value.lastIndexOf("/");
      if (unknown(slash < 0 ? w.value : w.value.slice(slash + 1))) {
        out.push(commandLine(stage.argv.slice(i), "argv"));
      }
    }
    if (!MAY_RUN.test(w.value) || i === code) continue;
    text ??= new Set(program?.text?.(stage.argv) ?? []);
    if (text.has(i)) continue;
    const keyed = KEYED.exec(w.value);
    const first = keyed ? w.value.slice(keyed[0].length) : w.value;
    // (A setting given as an option's value: `--config=hooks.pre-status=CMD`.)
    const inner = keyed ? KEYED.exec(first) : null;
    // (The word itself where its key is a shell variable's name: `X=secrets; cat $X/key`.)
    if (keyed) add(w.value, w);
    for (const value of inner ? [first, first.slice(inner[0].length)] : [first]) {
      add(value, w);
      if (MARKED.test(value)) add(value.replace(MARKED, ""), w);
      if (CONTINUED.test(value)) add(value.replace(CONTINUED, ""), w);
      if (LABELED.test(value)) add(value.replace(LABELED, ""), w);
      for (const m of value.matchAll(CALLED)) add(m[1], w);
    }
  }
  return out;
}
