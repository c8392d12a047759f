/**
 * Aliases a command defines (`alias ll='ls -l'`) and their uses: a later command named by one
 * runs its text, given the input given where it is used (bash expands them with `shopt -s
 * expand_aliases`; judged so whether or not it is set).
 *
 * @module
 */
import type { Cwds } from "./cwds.ts";
import { redirectsStdin, type Stage, type Word } from "./model.ts";
import type { WalkContext } from "./walk_context.ts";
import { RESERVED_WORDS } from "./keywords.ts";
import { unquotedText } from "./words.ts";
import { withoutQuotedData } from "./walk_values.ts";

/**
 * A function definition's name (`find() {`, `function find`), read off the command's text: a name
 * where a command may start.
 */
const FUNCTION_NAME =
  /(?:^|[\s;&|(){}!`])(?:function\s+([^\s;&|()<>]+)|([^\s;&|()<>'"`$]+)\s*\(\s*\))/g;

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * The names a command may define functions of, read off its text without its quoted data (a
 * definition is never quoted; a text a shell runs is read apart, with its own), and the writers
 * `enable` may turn off. A command of such
 * a name may print anything, so what it writes into a pipe is no listing nor text known
 * (`find() { echo keys/id_rsa; }; find src | xargs cat`).
 */
export function functionNames(source: string): ReadonlySet<string> {
  const enable = source.includes("enable");
  if (!source.includes("(") && !source.includes("function") && !enable) return NO_NAMES;
  const code = withoutQuotedData(source);
  const out = new Set<string>();
  // (`enable -n echo` runs the program of that name, which prints otherwise.)
  if (enable && /\benable\b/.test(unquotedText(source))) { for (const b of WRITERS) out.add(b); }
  if (code.includes("(") || code.includes("function")) {
    for (const m of code.matchAll(FUNCTION_NAME)) out.add(m[1] ?? m[2]);
  }
  return out.size ? out : NO_NAMES;
}

/** The builtins that write a pipe's text, which `enable -n` may turn into programs. */
const WRITERS = ["echo", "printf"];

/**
 * Whether a stage's command name is one the command defines as a function (`names`, see
 * `functionNames`) or an alias so far: then it is no program whose output is known.
 */
export function shadowed(ctx: WalkContext, names: ReadonlySet<string>, stage: Stage): boolean {
  const name = stage.argv[0];
  return !!name && (names.has(name.value) || !!ctx.aliasBox.map?.has(name.value));
}

/**
 * Note the aliases `alias` defines; walk the text of one a command is named by. True when that
 * text may change the directory.
 */
export function aliasUse(
  ctx: WalkContext,
  name: Word,
  argv: Word[],
  cwds: Cwds,
  use: Stage,
): boolean {
  // (`builtin alias` and `command alias` define them too.)
  const at = name.value === "alias" ? 1 : (name.value === "builtin" || name.value === "command") &&
      argv[1]?.kind === "static" && argv[1].value === "alias"
    ? 2
    : 0;
  if (at) {
    for (const w of argv.slice(at)) {
      const m = w.kind === "static" ? /^([^=\s]+)=([\s\S]*)$/.exec(w.value) : null;
      if (!m) continue;
      (ctx.aliasBox.map ??= new Map()).set(m[1], m[2]);
      // (bash expands one named `time`, `!` or `coproc` where the parser reads the word.)
      if (RESERVED_WORDS.has(m[1])) {
        ctx.error ??= "an alias named like one of bash's reserved words";
      }
    }
    return false;
  }
  const map = ctx.aliasBox.map;
  const body = map?.get(name.value);
  // (Only an unquoted name is expanded, and an alias not again inside its own text.)
  if (body === undefined || name.text !== name.value) return false;
  // A text ending in a blank has the next word expanded too (`alias s='sudo '; s ll`).
  let text = body;
  let next = 1;
  for (; next < argv.length && /\s$/.test(text); next++) {
    const w = argv[next];
    const more = w.kind === "static" && w.text === w.value ? map!.get(w.value) : undefined;
    if (more === undefined) break;
    text += more;
  }
  map!.delete(name.value);
  const from = ctx.stages.length;
  try {
    ctx.source([text, ...argv.slice(next).map((w) => w.text)].join(" "), cwds, "alias");
  } finally {
    map!.set(name.value, body);
  }
  // Its commands read the input given where it is used (`alias x=sh; x <<<'rm y'`).
  const stdin = use.redirects.filter(redirectsStdin);
  for (let i = from; i < ctx.stages.length; i++) {
    const s = ctx.stages[i];
    if (s.piped || s.redirects.some(redirectsStdin)) continue;
    if (stdin.length) ctx.stages[i] = { ...s, redirects: [...stdin, ...s.redirects] };
    else if (use.piped) ctx.stages[i] = { ...s, piped: true, input: use.input };
  }
  // (However the name is spelled: `\cd`, `c\d`, `'cd'`.)
  return /(^|[\s;&|({])(cd|pushd|popd)(\s|[;&|)}]|$)/.test(unquotedText(text));
}
