/**
 * Command substitutions whose output the walk knows (RULINGS "What can be seen": `$(pwd)` is the
 * effective cwd, and a few substitutions whose output is a pure function of what is known are
 * evaluated the same way): `$(pwd)`; a number (`$(nproc)`) or git's name of a commit as text
 * bash computes as it runs (run_time_parts.ts); `$(basename WORD [SUFFIX])`, `$(basename -s SUF
 * WORD)` and `$(dirname WORD)` of a known word, as text, and of a loop variable's glob as each
 * match made so (`Around.cut`); `$(mktemp …)` as a new name in a known directory, and `$(which
 * X)`, `$(command -v X)`, `$(type -P X)` as the path the tool's `PATH` finds X at (`Word.output`,
 * judged by the targets). Only where the program is the one the tool runs: the command defines no
 * function of its name and does not change PATH or bash's table of paths.
 *
 * @module
 */
import type { Cut } from "./affixes.ts";
import { basenameOf, dirnameOf } from "./affixes.ts";
import type { Cwds } from "./cwds.ts";
import { BUILTINS, RESERVED_WORDS } from "./keywords.ts";
import type { LineOf, Output, Stage, Word } from "./model.ts";
import { lastCommand } from "./nodes.ts";
import { numericOutput } from "./walk_evaluation.ts";
import { OUTPUT_PROGRAMS, outputPattern } from "./run_time_parts.ts";
import type { LiteNode } from "./syntax_tree.ts";
import type { WalkContext } from "./walk_context.ts";
import { knownPart } from "./walk_values.ts";
import { printedText } from "./printed_text.ts";

/**
 * A word part: its value, whether it is known, and whether it was unquoted. `expanded`: a glob
 * that stands for its matches even inside quotes (a loop variable over a glob's words). `raw`:
 * unquoted text (or such a glob) as a bash pattern, its escapes kept, where it may hold glob
 * characters.
 */
export type Part = {
  value: string;
  kind: Word["kind"];
  unquoted?: boolean;
  expanded?: true;
  raw?: string;
  /** A line `read` took (see `Word.line`). */
  line?: LineOf;
  /** An `expanded` glob whose matches have these made of them (`"${f%.ts}"`: `Around.cut`). */
  cut?: readonly Cut[];
  /** Where an `expanded` glob was expanded (a loop's cwds), when known. */
  at?: readonly (string | null)[];
  /** What a substitution prints, where its form is known (`Word.output`; `value` its text). */
  output?: Output;
  /** Unquoted nothing (an unset parameter): a word of such parts alone is no word. */
  empty?: true;
  /** An unquoted `$NAME` without braces (braces after it lengthen the name: `$f{a,b}`). */
  bare?: true;
};

/** `$(pwd)` (or `$(pwd -L)`): the logical cwd. */
const PWD_SUBSTITUTION = /^\$\(\s*pwd(\s+-L)?\s*\)$/;
/** Characters that keep a value one word with nothing to glob when bash expands it unquoted. */
const PLAIN = /^[\w./,:+%@=~-]*$/;
/** A program's name as `which` and its kin look it up (no `/`: a path is printed as it is). */
const PROGRAM_NAME = /^[\w.+-]+$/;
/** Word nodes a command's arguments may be (anything else: a redirect, an assignment). */
const WORD_NODES = new Set([
  "word",
  "string",
  "raw_string",
  "ansi_c_string",
  "concatenation",
  "simple_expansion",
  "expansion",
  "command_substitution",
  "number",
]);

/** The parts of a word node of a substitution's command (walk_words.ts gives them). */
export type ReadParts = (node: LiteNode) => Part[];

/**
 * The part a command substitution (`$(…)`) is in its word: its value where known, its form where
 * that is known (`Part.output`), else its text, not known.
 */
export function substitutionPart(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  quoted: boolean,
  read: ReadParts,
): Part {
  const part = knownOutput(ctx, node, cwds, quoted, read);
  if (quoted || part.kind !== "dynamic" || part.output) return part;
  return listingPart(ctx, node) ?? part;
}

/**
 * The words of an unquoted `$(…)` whose command or pipeline was the last the walk met (`wc -l
 * $(git ls-files)`, `sed -i … $(grep -rl a .)`): what it prints, split at blanks, as xargs
 * splits it (`Word.line`, `LineOf.split`; the program layer knows whether that is the paths of a
 * listing). Null where IFS may not be its default, the command may define a function of a name
 * in the pipeline or change how programs are found, or the substitution is a command's name.
 */
function listingPart(ctx: WalkContext, node: LiteNode): Part | null {
  if (!ctx.values.defaultIfs(ctx.env.env) || ctx.touched.has("PATH")) return null;
  if (!node.text.startsWith("$(") || node.namedChildren.length !== 1 || inCommandName(node)) {
    return null;
  }
  const body = node.namedChildren[0]!;
  if (!/^(command|pipeline|redirected_statement)$/.test(body.type)) return null;
  const last = lastCommand(body);
  const walked = ctx.lastCommand;
  if (last === null || walked?.node !== last.id) return null;
  for (let s: Stage | undefined = walked.stage; s; s = s.input) {
    const name = s.argv[0];
    if (name?.kind !== "static" || ctx.defined.has(name.value)) return null;
  }
  const line: LineOf = { from: walked.stage, raw: true, trimmed: true, split: true };
  return { value: node.text, kind: "dynamic", line };
}

/** The part a substitution is where what it prints is known (see `substitutionPart`). */
function knownOutput(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  quoted: boolean,
  read: ReadParts,
): Part {
  const unknown: Part = { value: node.text, kind: "dynamic" };
  // (Unquoted, bash splits the output by IFS: at blanks alone where IFS is surely its default.)
  if (!quoted && !ctx.values.defaultIfs(ctx.env.env)) return unknown;
  // `$(pwd)` is the effective cwd (RULINGS principle 3): bash's builtin prints the directory it
  // moved to, whatever the command gave PWD (`PWD=/x; pwd` prints the cwd, not `/x`).
  const dir = PWD_SUBSTITUTION.test(node.text) && ctx.values.plainPwd && cwds.length === 1
    ? cwds[0]
    : null;
  if (dir !== null) {
    const known = knownPart({ value: dir, kind: "text" }, quoted);
    if (known) return known;
  }
  if (redefinesOutput(ctx.defined)) return unknown;
  // The output of a command that prints a number and nothing else (`make -j$(nproc)`) is a
  // number, as an arithmetic expansion's is: no place, no option, no more words. (So is git's
  // name of a commit: `git show $(git merge-base HEAD main)`.)
  if (numericOutput(node) || outputPattern(node.text) !== null) {
    return { value: node.text, kind: "static" };
  }
  const argv = commandWords(node);
  if (argv === null || ctx.touched.has("PATH")) return unknown;
  const program = argv[0].text;
  if (program === "basename" || program === "dirname") {
    return pathPart(program, argv.slice(1).map(read), node.text, quoted) ?? unknown;
  }
  const args = staticArgs(argv.slice(1).map(read));
  if (args === null) return unknown;
  // (Not in a command's name, which stays not known: RULINGS principle 3, `$(echo rm) x`.)
  if (program === "echo" || program === "printf") {
    return inCommandName(node) ? unknown : printedPart(program, args, quoted, node);
  }
  if (program === "mktemp") {
    const made = mktempOutput(args, ctx.touched.has("TMPDIR") ? null : ctx.env.env.TMPDIR, cwds);
    if (
      made === null || (!quoted && !PLAIN.test(made.dir + "/" + made.name.replaceAll("?", "x")))
    ) return unknown;
    return { value: node.text, kind: "dynamic", output: { program, ...made, rest: "" } };
  }
  const name = searchedName(program, args, ctx.defined);
  if (name === null) return unknown;
  return { value: node.text, kind: "dynamic", output: { program: "which", name, split: !quoted } };
}

/**
 * The command words of a substitution that is one simple command of a static program name and
 * words alone (no assignment, redirect, pipe or list; one blank between words), or null.
 */
function commandWords(node: LiteNode): LiteNode[] | null {
  // (A backtick pair without backslashes reads its text as `$(…)` does.)
  const form = node.text.startsWith("$(") || (node.text[0] === "`" && !node.text.includes("\\"));
  if (!form || node.namedChildren.length !== 1) return null;
  const command = node.namedChildren[0]!;
  if (command.type !== "command") return null;
  const kids = command.namedChildren.filter((k): k is LiteNode => k !== null);
  const name = kids[0];
  if (name?.type !== "command_name" || !/^[a-z]+$/.test(name.text)) return null;
  if (!OUTPUT_PROGRAMS.has(name.text)) return null;
  for (let i = 1; i < kids.length; i++) {
    if (!WORD_NODES.has(kids[i].type)) return null;
    const gap = command.text.slice(
      kids[i - 1].endIndex - command.startIndex,
      kids[i].startIndex - command.startIndex,
    );
    if (!/^[ \t]+$/.test(gap)) return null;
  }
  return kids;
}

/** Whether a node is (a piece of) a command's name. */
function inCommandName(node: LiteNode): boolean {
  let n = node.parent;
  while (n && (n.type === "concatenation" || n.type === "string")) n = n.parent;
  return n?.type === "command_name";
}

/**
 * What `echo` or `printf` prints of known words (printed_text.ts), its trailing newlines removed:
 * as text where bash keeps it one word (quoted, or plain), else not known.
 */
function printedPart(
  program: "echo" | "printf",
  args: string[],
  quoted: boolean,
  node: LiteNode,
): Part {
  const value = printedText(program, args)?.replace(/\n+$/, "");
  if (value === undefined) return { value: node.text, kind: "dynamic" };
  if (value === "") {
    return quoted
      ? { value: "", kind: "static" }
      : { value: "", kind: "static", unquoted: true, empty: true };
  }
  return knownPart({ value, kind: "text" }, quoted) ?? { value: node.text, kind: "dynamic" };
}

/** The words as text where each is known and one word (no brace list, glob or empty field). */
function staticArgs(words: Part[][]): string[] | null {
  const out: string[] = [];
  for (const parts of words) {
    const text = staticText(parts);
    if (text === null) return null;
    out.push(text);
  }
  return out;
}

/** A word's text where all of it is known and bash keeps it one word, or null. */
function staticText(parts: Part[]): string | null {
  let text = "";
  let quotedAny = false;
  for (const p of parts) {
    if (p.kind !== "static" || p.expanded || p.line || p.output || p.cut) return null;
    if (p.unquoted && /[{}]/.test(p.value)) return null;
    // (A number or name bash computes as it runs: `$$`, `$(nproc)`.)
    if (/[$`]/.test(p.value)) return null;
    if (!p.unquoted) quotedAny = true;
    text += p.value;
  }
  // (An unquoted word that is empty is no word.)
  return text === "" && !quotedAny ? null : text;
}

/**
 * `basename` or `dirname` of one word: its text where known, each match of a loop variable's glob
 * made so where the substitution is quoted (`"$(basename "$f" .md)"`). Null where not known:
 * several names (one line each), an option not known, a word not known.
 */
function pathPart(
  program: "basename" | "dirname",
  words: Part[][],
  text: string,
  quoted: boolean,
): Part | null {
  let many = false;
  let suffix: string | null = null;
  let i = 0;
  const operands: Part[][] = [];
  for (; i < words.length; i++) {
    const w = staticText(words[i]);
    if (w === "--") {
      i++;
      break;
    }
    if (w === null || !w.startsWith("-") || w === "-") break;
    if (/^--(zero|z|ze|zer)$/.test(w)) continue;
    if (program === "basename" && /^--(multiple|m|mu|mul|mult|multi|multip|multipl)$/.test(w)) {
      many = true;
    } else if (program === "basename" && /^--s(u(f(f(i(x)?)?)?)?)?=/.test(w)) {
      suffix = w.slice(w.indexOf("=") + 1);
    } else if (program === "basename" && /^--s(u(f(f(i(x)?)?)?)?)?$/.test(w)) {
      suffix = i + 1 < words.length ? staticText(words[++i]) : null;
      if (suffix === null) return null;
    } else if (/^-[az]+$|^-[az]*s/.test(w)) {
      // (Letters: `-a`, `-z`, `-s SUF`, `-sSUF`, `-azs SUF`.)
      const letters = w.slice(1);
      const s = letters.indexOf("s");
      const flags = s < 0 ? letters : letters.slice(0, s);
      if (program === "dirname" && (s >= 0 || flags.includes("a"))) return null;
      if (flags.includes("a")) many = true;
      if (s >= 0) {
        suffix = letters.slice(s + 1) || (i + 1 < words.length ? staticText(words[++i]) : null);
        if (suffix === null) return null;
      }
    } else return null;
  }
  for (; i < words.length; i++) operands.push(words[i]);
  // (`-s` implies `-a`: every operand a name.)
  if (suffix !== null) many = true;
  if (operands.length === 2 && program === "basename" && !many) {
    suffix = staticText(operands.pop()!);
    if (suffix === null) return null;
  }
  if (operands.length !== 1) return null;
  const cut: Cut = program === "basename" ? { op: "basename", suffix: suffix ?? "" } : {
    op: "dirname",
  };
  const name = staticText(operands[0]);
  if (name !== null) {
    const value = (cut.op === "basename" ? basenameOf(name, cut.suffix) : dirnameOf(name))
      .replace(/\n+$/, "");
    return knownPart({ value, kind: "text" }, quoted);
  }
  // A loop variable's glob, quoted, perhaps with affixes removed (`"${f%.md}"`).
  const full = operands[0].filter((p) => p.value !== "" || p.expanded);
  const glob = full.length === 1 ? full[0] : undefined;
  if (!quoted || !glob?.expanded || glob.raw === undefined || glob.unquoted) return null;
  return {
    value: text,
    kind: "glob",
    expanded: true,
    raw: glob.raw,
    cut: [...(glob.cut ?? []), cut],
    ...(glob.at ? { at: glob.at } : {}),
  };
}

/**
 * Where `mktemp ARGS` makes its new name (coreutils): the directory (absolute, as written) and the
 * name as a glob (its last run of `X`s each a `?`). With `-p DIR`/`--tmpdir[=DIR]`, `-t` or no
 * template, in DIR, `$TMPDIR` or `/tmp` (`-t`: `$TMPDIR` first); otherwise where the template
 * says, from the cwd. Null where not known: a relative place in a cwd not known, `TMPDIR`
 * assigned by the command, an option not known, a template it refuses or with glob characters.
 */
export function mktempOutput(
  args: string[],
  tmpdir: string | null | undefined,
  cwds: Cwds,
): { dir: string; name: string } | null {
  let destDir: string | null = null;
  let useDir = false;
  let t = false;
  let suffix: string | null = null;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith("-") || a === "-") operands.push(a);
    else if (/^--(directory|dry-run|quiet)$/.test(a)) continue;
    else if (a === "--tmpdir") useDir = true;
    else if (a.startsWith("--tmpdir=")) [useDir, destDir] = [true, a.slice(9)];
    else if (a.startsWith("--suffix=")) suffix = a.slice(9);
    else if (a === "--suffix" && i + 1 < args.length) suffix = args[++i];
    else if (/^-[dqut]+$|^-[dqut]*p/.test(a)) {
      const p = a.indexOf("p");
      if (a.slice(0, p < 0 ? a.length : p).includes("t")) [useDir, t] = [true, true];
      if (p >= 0) {
        useDir = true;
        destDir = a.slice(p + 1) || (i + 1 < args.length ? args[++i] : null);
        if (destDir === null) return null;
      }
    } else return null;
  }
  if (operands.length > 1) return null;
  if (tmpdir === null) return null;
  const env = tmpdir || null;
  let template = operands[0];
  if (template === undefined) [template, useDir] = ["tmp.XXXXXXXXXX", true];
  if (suffix !== null) {
    if (suffix.includes("/") || !template.endsWith("X")) return null;
    template += suffix;
  }
  let path = template;
  if (useDir) {
    const base = t ? env ?? (destDir || null) ?? "/tmp" : (destDir || null) ?? env ?? "/tmp";
    if (t ? template.includes("/") : template.startsWith("/")) return null;
    path = base.replace(/\/+$/, "") + "/" + template;
  }
  if (!path.startsWith("/")) {
    if (cwds.length !== 1 || cwds[0] === null) return null;
    path = cwds[0] + "/" + path;
  }
  const slash = path.lastIndexOf("/");
  const dir = path.slice(0, slash) || "/";
  const last = path.slice(slash + 1);
  // (The last run of at least 3 `X`s, before the suffix: what mktemp replaces.)
  const m = /^(.*?)(XXX+)([^X]*)$/.exec(last);
  if (m === null || /[*?[\]\\]/.test(last)) return null;
  return { dir, name: m[1] + "?".repeat(m[2].length) + m[3] };
}

/**
 * The program `which X`, `command -v X` or `type -P X` (`-p`) looks up in the tool's `PATH`: X,
 * where it is a name alone (not a path) that is no builtin, keyword or function the command
 * defines (`command -v cd` prints `cd`). Null otherwise.
 */
function searchedName(
  program: string,
  args: string[],
  defined: ReadonlySet<string>,
): string | null {
  const ok = (program === "which" && args.length === 1) ||
    (program === "command" && args.length === 2 && args[0] === "-v") ||
    (program === "type" && args.length === 2 && /^-[pP]$/.test(args[0]));
  const name = args[args.length - 1];
  if (!ok || !PROGRAM_NAME.test(name) || name.startsWith("-")) return null;
  if (BUILTINS.has(name) || RESERVED_WORDS.has(name) || defined.has(name)) return null;
  return name;
}

/**
 * The form of a word whose first part is what a substitution prints (`Part.output`), with static
 * text after it: `/NAME…` below a new directory mktemp makes, none after a program's path.
 */
export function wordOutput(parts: Part[]): Output | undefined {
  let out: Output | undefined;
  let rest = "";
  for (const p of parts) {
    if (out === undefined) {
      if (p.output) out = p.output;
      else if (p.value !== "" || p.kind !== "static" || p.expanded) return undefined;
    } else if (p.kind !== "static" || p.output || p.expanded || p.line) return undefined;
    else rest += p.value;
  }
  if (out === undefined || rest === "") return out;
  if (out.program !== "mktemp" || /[$`*?[{]/.test(rest)) return undefined;
  rest = out.rest + rest;
  // (Below the new name: `"$(mktemp -d)/out"`, never out of it.)
  if (!rest.startsWith("/") || /(^|\/)\.\.(\/|$)/.test(rest)) return undefined;
  return { ...out, rest };
}

/** Whether the command may define a function named as a program whose output the walk knows. */
function redefinesOutput(defined: ReadonlySet<string>): boolean {
  if (defined.size === 0) return false;
  for (const name of OUTPUT_PROGRAMS) if (defined.has(name)) return true;
  return false;
}
