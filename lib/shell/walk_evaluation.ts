/**
 * Values bash evaluates as code: a variable the command sets that ends up in arithmetic, an
 * indexed array's subscript or a place where bash reads a name given as text (see
 * {@linkcode Evaluation}). The walk notes assignments and such places as it meets them;
 * {@linkcode evaluationError} judges them once the whole command is walked.
 *
 * @module
 */
import { builtinAt, type Cwds } from "./cwds.ts";
import { type Stage, staticWord, type Word } from "./model.ts";
import type { LiteNode } from "./syntax_tree.ts";
import type { Evaluation, WalkContext } from "./walk_context.ts";
import { decodeAnsiC } from "./words.ts";

/** A value arithmetic reads as a number: nothing in it is evaluated further. */
const NUMBER = /^[-+]?(\d+|0[xX][0-9a-fA-F]+|\d+#[0-9A-Za-z@_]+)$/;
/** A subscript that expands something (`a[$(cmd)]`, `a[$x]`): bash runs it as it reads the name. */
const SUBSCRIPT_CODE = /\[[^\]]*[$`]/;
/**
 * Text that may hold arithmetic or a name bash evaluates (a payload of `eval` or `bash -c`): the
 * builtins that do where a command may start (`localhost` and `/usr/local` are none), a test's
 * `-v NAME`.
 */
const EVAL_SYNTAX =
  /\(\(|\$\[|(?:^|[\s;&|(){}!`])(?:let|declare|typeset|local)\b|-(eq|ne|lt|le|gt|ge)\b|\$\{!|\w\[|(?:^|\s)-v\s/;
/** A name with a subscript, as a test's `-v` reads it (`arr[1]`, `m[key]`). */
const ELEMENT = /^([A-Za-z_][A-Za-z0-9_]*)\[([^\]]*)\]$/;
const ARITHMETIC_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
/** Builtins that take variable names (or arithmetic) as arguments, with their valued options. */
const NAME_READERS: ReadonlyMap<string, string> = new Map([
  ["read", "adinNptu"],
  ["mapfile", "dnOsuCc"],
  ["readarray", "dnOsuCc"],
  ["getopts", ""],
  ["printf", "v"],
  ["wait", "p"],
  ["let", ""],
  ["declare", ""],
  ["typeset", ""],
  ["local", ""],
  ["readonly", ""],
  ["export", ""],
  ["test", ""],
  ["[", ""],
  ["eval", ""],
  ["unset", ""],
]);
export const EVALUATION_ERROR = "a value the command sets may run as code where bash evaluates " +
  "it (arithmetic, an array subscript, ${!x}, a name given as text)";

/** Whether a builtin reads names or arithmetic from its arguments (see builtinEvaluation). */
export function readsNames(name: string): boolean {
  return NAME_READERS.has(name);
}

/**
 * Whether a value is the output of a command that prints a number and nothing else:
 * `$(… | wc -l)` (wc reading its input), `$(nproc)`, `$(getconf _NPROCESSORS_ONLN)`, `$(date
 * +%s)`, `$(id -u)`.
 */
export function numericOutput(val: LiteNode): boolean {
  if (val.type !== "command_substitution") return false;
  // (An output redirect may put other text in the output: `$(wc -l < f 2>&1)`, an error's.)
  if (val.text.includes(">")) return false;
  const body = val.namedChildren;
  if (body.length !== 1) return false;
  let last = body[0].type === "pipeline" ? body[0].namedChildren.at(-1) : body[0];
  // (`$(wc -l < f)`: its input redirected.)
  if (last?.type === "redirected_statement") last = last.childForFieldName("body") ?? undefined;
  if (last?.type !== "command") return false;
  const words = last.namedChildren.map((c) => c.text.replace(/['"]/g, ""));
  // (A word not known may be any option: `--help` prints text.)
  if (words.some((w) => /[$`\\]/.test(w))) return false;
  const [program, ...args] = words;
  if (program === "wc") return args.every((a) => /^-[lcmw]+$/.test(a));
  if (program === "nproc") return args.length === 0 || (args.length === 1 && args[0] === "--all");
  if (program === "getconf") {
    return args.length === 1 && /^_?NPROCESSORS_(ONLN|CONF)$/.test(args[0]);
  }
  // (`date -ud '2003-08-02 17:24:33' +%s`: the seconds of a date, whatever it is; not `--help`.)
  if (program === "date") return args.at(-1) === "+%s" && dateOptions(args.slice(0, -1));
  if (program === "id") return args.length === 1 && /^-[ug]$/.test(args[0]);
  if (program === "grep") return grepCounts(args);
  return false;
}

/**
 * Whether date's words before `+%s` leave it printing numbers (or nothing, on an error): any but
 * `--help` and `--version` (however shortened), which print text.
 */
function dateOptions(args: string[]): boolean {
  return !args.some((a) => /^--[hv]/.test(a));
}

/** Letters of grep's short options that leave its output a count (`-c`): no names (`-l`, `-H`). */
const COUNT_LETTERS = /^-[cviwxFEGPsqaIhnyUoz]+$/;
/** grep's long options that leave it so. */
const COUNT_LONG =
  /^--(count|invert-match|ignore-case|no-ignore-case|word-regexp|line-regexp|fixed-strings|extended-regexp|basic-regexp|perl-regexp|no-messages|quiet|silent|text|no-filename|regexp=.*|max-count=.*|file=.*)$/;

/**
 * Whether grep prints counts and nothing else: `-c` and only options that keep it so, one file at
 * most unless `-h` (several print `file:count`); not `-l`, `-L`, `-H`, `--label`, `-r`, `--help`.
 */
function grepCounts(args: string[]): boolean {
  let count = false;
  let noNames = false;
  let patterns = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-e" || a === "-f" || a === "-m" || a === "--regexp" || a === "--file") {
      if (a !== "-m") patterns = true;
      i++;
    } else if (/^-[ef].|^--(regexp|file)=/.test(a)) patterns = true;
    else if (/^-m\d+$/.test(a)) continue;
    else if (COUNT_LETTERS.test(a)) {
      count ||= a.includes("c");
      noNames ||= a.includes("h");
    } else if (COUNT_LONG.test(a)) {
      count ||= a === "--count";
      noNames ||= a === "--no-filename";
    } else if (a.startsWith("-") && a !== "-") return false;
    else operands.push(a);
  }
  const files = operands.length - (patterns ? 0 : 1);
  return count && (files <= 1 || noNames);
}

/**
 * Whether a command substitution's output is evaluated as arithmetic where it stands
 * (`$(( $(cat f) ))`, `a[$(cat f)]`, `[[ $(cat f) -eq 1 ]]`): an output holding `a[$(cmd)]` runs
 * cmd, and what a command prints is not known.
 */
function arithmeticOutput(node: LiteNode): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === "c_style_for_statement" || p.type === "arithmetic_expansion") return true;
    if (p.type === "subscript") return true;
    if (p.type === "binary_expression") {
      const op = p.children.find((k) => k.type === "test_operator")?.text ?? "";
      if (ARITHMETIC_TESTS.has(op)) {
        for (let t = p.parent; t; t = t.parent) {
          if (t.type === "test_command") return t.children[0]?.type === "[[";
        }
      }
    }
    if (p.type === "program" || p.type === "command" || p.type === "command_substitution") {
      return false;
    }
  }
  return false;
}

/** A `subscript` node (`a[i]`) as its array's name and the text of its index. */
function subscript(node: LiteNode): [string, string] {
  const t = node.text;
  return [node.namedChildren[0]?.text ?? "", t.slice(t.indexOf("[") + 1, t.lastIndexOf("]"))];
}

/**
 * Note a subscript of an array bash may take as indexed (`${a['$(cmd)']}`, `a['$(cmd)']=1`): it
 * removes the quotes and evaluates the index as arithmetic, which runs what the quotes hid from
 * the walk (`$(…)`, backticks, `$'\x24(…)'`). An associative array's is a string.
 */
function noteSubscript(ctx: WalkContext, s: [string, string]): void {
  ctx.evaluation.subscripts.push(s);
  const index = s[1];
  if (/['\\]/.test(index) && /[$`]/.test(index.replace(/['"\\]/g, ""))) {
    (ctx.evaluation.quotedCode ??= []).push(s[0]);
  }
}

/**
 * bash's own variables that hold text the command chose, whatever it assigns, in a text bash
 * evaluates: `$_` (the last word of the command before), the command's own text under `bash -c`
 * and in a trap (`BASH_EXECUTION_STRING`, comments included; `BASH_COMMAND`), the directory stack
 * (`pushd -n 'a[$(cmd)]'`), a function's arguments (`BASH_ARGV`). Not their length (`${#…}`).
 */
const SELF_SET =
  /(^|[^A-Za-z0-9_])_($|[^A-Za-z0-9_])|(^|[^A-Za-z0-9_#])(BASH_EXECUTION_STRING|BASH_COMMAND|DIRSTACK|BASH_ARGV)(?![A-Za-z0-9_])/;
/** The directories `cd` leaves in `PWD` and `OLDPWD` (named by the command), in such a text. */
const MOVED_DIRS = /(^|[^A-Za-z0-9_#])(OLD)?PWD(?![A-Za-z0-9_])/;
/** `$0`, which `BASH_ARGV0` sets, in such a text (`$(( $0 ))`, `${!0}`). */
const ZEROTH = /\$\{?!?0(?![0-9])/;
const MOVES = new Set(["cd", "pushd", "popd"]);

/**
 * Whether a text bash evaluates holds a variable bash itself fills with the command's own text
 * (`SELF_SET`), `$0` where the command sets `BASH_ARGV0`, or `PWD`/`OLDPWD` where it may `cd`.
 */
function selfSetCode(ev: Evaluation, stages: Stage[]): boolean {
  const texts = [...ev.texts, ...ev.subscripts.map((s) => s[1])];
  if (!texts.length) return false;
  if (texts.some((t) => SELF_SET.test(t))) return true;
  if (ev.values.has("BASH_ARGV0") && texts.some((t) => ZEROTH.test(t))) return true;
  return texts.some((t) => MOVED_DIRS.test(t)) &&
    stages.some((s) => MOVES.has(s.argv[builtinAt(s.argv)]?.value ?? ""));
}

/** bash's own variables that evaluate what is assigned to them as arithmetic. */
const SHELL_INTEGERS = ["OPTIND", "RANDOM", "SRANDOM", "HISTCMD"];

/** A positional parameter (`$1`, `${2}`, `$@`, `$*`). */
const POSITIONAL = /\$(?:[1-9@*]|\{[!#]?(?:\d+|[@*])[}:[])/;

/**
 * Whether the command sets its positional parameters (`set -- …`, the arguments of a function
 * it calls) and bash may evaluate one as code (`$(( $1 ))`, `${a[$1]}`): their values are the
 * command's own, and may be `a[$(cmd)]`.
 */
function positionalCode(ev: Evaluation, stages: Stage[]): boolean {
  const texts = [...ev.texts, ...ev.subscripts.map((s) => s[1])];
  if (!texts.some((t) => POSITIONAL.test(t) || /(^|[^\w$])[1-9]\b/.test(t) && t.includes("$"))) {
    return false;
  }
  return ev.functions === true || stages.some((s) => {
    if (s.origin.startsWith("function")) return true;
    // (`set -- …`, also as `builtin set` or `command set`.)
    const at = builtinAt(s.argv);
    return at >= 0 && s.argv[at]?.value === "set" &&
      s.argv.slice(at + 1).some((w) => !/^[-+][a-zA-Z]*$/.test(w.value));
  });
}

/** An array's element at a literal index (`a[1]`, `a[-1]`). */
const LITERAL_ELEMENT = /^[A-Za-z_][A-Za-z0-9_]*\[-?\d+\]$/;

/** The counts of arrays' words in a text: `${#NAME[@]}`, `${#NAME[*]}`. */
const ARRAY_COUNTS = /\$\{#[A-Za-z_][A-Za-z0-9_]*\[[@*]\]\}/g;

/** The error for a variable whose value the command sets and bash may evaluate as code. */
export function evaluationError(ev: Evaluation | undefined, stages: Stage[]): string | null {
  if (!ev) return null;
  // (An associative array's subscripts are strings, not arithmetic.)
  if (ev.quotedCode?.some((a) => !ev.assoc.has(a))) return EVALUATION_ERROR;
  // (`declare -i n; n='a[$(cmd)]'`, `read n`, `n=x` naming a variable that holds one: each
  // assignment evaluates the value; bash's OPTIND, RANDOM, SRANDOM and HISTCMD are integers.)
  for (const n of [...(ev.integers ?? []), ...SHELL_INTEGERS]) {
    if (ev.codeAssigned?.has(n) || ev.readInto?.has(n)) return EVALUATION_ERROR;
  }
  if (positionalCode(ev, stages)) return EVALUATION_ERROR;
  // (A text a wrapper runs, `eval` or `bash -c`, is analysed apart, its own `$_` there.)
  if (selfSetCode(ev, stages)) return EVALUATION_ERROR;
  if (!ev.values.size && !ev.arguments?.size) return null;
  let texts = [...ev.texts];
  for (const [array, index] of ev.subscripts) if (!ev.assoc.has(array)) texts.push(index);
  for (const s of stages) {
    // (`[[ … ]]` evaluates what `testEvaluation` noted, no payload: `[[ -v arr[1] ]]`.)
    if (s.argv[0]?.text === "[[") continue;
    // (`unset 'a[1]'` evaluates the literal index alone, nothing of `a`'s value.)
    const unset = s.argv[builtinAt(s.argv)]?.value === "unset";
    for (const w of s.argv) {
      if (w.kind !== "static" || !EVAL_SYNTAX.test(w.value)) continue;
      if (!unset || !LITERAL_ELEMENT.test(w.value)) texts.push(w.value);
    }
  }
  if (!texts.length) return null;
  // (`${#a[@]}` counts an array's words: nothing in them is evaluated.)
  texts = texts.map((t) => t.includes("${#") ? t.replace(ARRAY_COUNTS, "0") : t);
  for (const name of ev.values) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    const re = new RegExp(`(^|[^A-Za-z0-9_])${name}($|[^A-Za-z0-9_])`);
    if (texts.some((t) => re.test(t))) return EVALUATION_ERROR;
  }
  // (A `NAME=value` argument is no use of NAME where it is itself the text: `awk 'NR==2 {…}'`.)
  for (const [name, words] of ev.arguments ?? []) {
    const re = new RegExp(`(^|[^A-Za-z0-9_])${name}($|[^A-Za-z0-9_])`);
    if (texts.some((t) => !words.has(t) && re.test(t))) return EVALUATION_ERROR;
  }
  return null;
}

/**
 * A loop: `for ((…))` is arithmetic; `for NAME in …` sets NAME to each word, a number only when
 * the words are plain numbers or `{1..9}`.
 */
export function loopEvaluation(ctx: WalkContext, node: LiteNode): void {
  if (node.type === "c_style_for_statement") ctx.evaluation.texts.push(node.text);
  if (node.type === "for_statement") {
    const name = node.childForFieldName("variable")?.text;
    const values = node.childrenForFieldName("value");
    const numbers = node.children.some((c) => c.type === "in") &&
      node.children[0].type === "for" &&
      values.every((v) => NUMBER.test(v.text) || /^\{-?\d+\.\.-?\d+(\.\.-?\d+)?\}$/.test(v.text));
    if (name && !numbers) {
      ctx.evaluation.values.add(name);
      (ctx.evaluation.readInto ??= new Set()).add(name);
    }
  }
}

/** Whether an assignment node is arithmetic (`for ((i = 0; …))`, `$((x = 1))`), not bash's. */
export function inArithmetic(node: LiteNode): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === "c_style_for_statement" || p.type === "arithmetic_expansion") return true;
    if (p.type === "program" || p.type === "command") return false;
  }
  return false;
}

/** Whether a value is one arithmetic expansion and nothing else (`$((n+1))`, `"$((n+1))"`). */
function arithmetic(val: LiteNode): boolean {
  const inner = val.type === "string" && val.namedChildren.length === 1
    ? val.namedChildren[0]
    : val;
  return inner.type === "arithmetic_expansion" && inner.text === val.text.replace(/^"|"$/g, "");
}

/** Note an assignment (`x=…`, `a[i]=…`, `a=(…)`) for `evaluationError`. */
export function assigned(ctx: WalkContext, node: LiteNode): void {
  // (An assignment inside arithmetic, `for ((i = x; …))`, sets a number.)
  if (inArithmetic(node)) return;
  const target = node.childForFieldName("name");
  const val = node.childForFieldName("value");
  let name = target?.text ?? "";
  if (target?.type === "subscript") {
    const s = subscript(target);
    name = s[0];
    noteSubscript(ctx, s);
  }
  if (val?.type === "array") {
    // `a=([i]=v …)`: an indexed array's subscripts are arithmetic, even quoted ones.
    for (const el of val.namedChildren) {
      if (!el.text.startsWith("[")) continue;
      const raw = el.text.slice(1, el.text.indexOf("]"));
      ctx.evaluation.subscripts.push([name, raw]);
      const t = el.text.replace(/['"\\]/g, "");
      if (raw !== t.slice(1, t.indexOf("]")) && SUBSCRIPT_CODE.test(t)) {
        (ctx.evaluation.quotedCode ??= []).push(name);
      }
    }
    // (A subscript the parser splits into words, `[ '$(cmd)' ]=1`, is one to bash.)
    for (const m of val.text.matchAll(/\[([^\]]*\s[^\]]*)\]=/g)) {
      if (/['"\\]/.test(m[1]) && SUBSCRIPT_CODE.test("[" + m[1].replace(/['"\\]/g, ""))) {
        (ctx.evaluation.quotedCode ??= []).push(name);
      }
    }
  }
  // (An arithmetic expansion's value is a number: `count=$((count+1))`.)
  const number = val && (NUMBER.test(val.text) || numericOutput(val) || arithmetic(val));
  if (!number) ctx.evaluation.values.add(name);
  // (An integer given a name evaluates that variable's value: `declare -i y; y=x`.)
  if (val && ctx.evaluation.integers?.has(name) && /^[A-Za-z_]\w*$/.test(val.text)) {
    ctx.evaluation.texts.push(val.text);
  }
  if (
    val && val.type !== "arithmetic_expansion" && !numericOutput(val) &&
    (/[$`]/.test(val.text) || SUBSCRIPT_CODE.test(val.text.replace(/['"\\]/g, "")))
  ) (ctx.evaluation.codeAssigned ??= new Set()).add(name);
}

/**
 * The texts of the subscripts in arithmetic bash evaluates that expand something (`a[$(cmd)]`
 * gives `$(cmd)`): bash runs them as it reads the name. Null when the brackets do not close.
 */
export function subscriptCode(text: string): string[] | null {
  const out: string[] = [];
  for (let i = text.indexOf("["); i >= 0; i = text.indexOf("[", i + 1)) {
    let depth = 0;
    let j = i;
    for (; j < text.length; j++) {
      const c = text[j];
      if (c === "[" || c === "(") depth++;
      else if (c === "]" || c === ")") depth--;
      if (depth === 0) break;
    }
    if (j >= text.length) return null;
    const inner = text.slice(i + 1, j);
    if (/[$`]/.test(inner)) out.push(inner);
    i = j;
  }
  return out;
}

/**
 * Arithmetic bash evaluates from text the parser saw as a string (`let 'a[$(cmd)]=1'`, a quoted
 * `[[ 'a[$(cmd)]' -eq 1 ]]`, `unset 'a[$(cmd)]'`): the commands in its subscripts run, walked as
 * the expansions of a word.
 */
export function arithmeticCode(ctx: WalkContext, text: string, cwds: Cwds): void {
  const code = subscriptCode(text);
  if (code === null) {
    ctx.error ??= EVALUATION_ERROR;
    return;
  }
  // (Quotes in a subscript are characters: `let "a['$(cmd)']=1"` runs cmd.)
  for (const c of code) ctx.source(`: ${c.replace(/'/g, "")}`, cwds, "arithmetic");
}

/**
 * A substitution whose output bash evaluates as arithmetic may run code (`$(( $(cat f) ))`).
 * Returns whether the substitution is read in full (an arithmetic expansion tree-sitter misread).
 */
export function substitutionEvaluation(ctx: WalkContext, node: LiteNode, cwds: Cwds): boolean {
  if (arithmeticOutput(node) && !numericOutput(node)) ctx.error ??= EVALUATION_ERROR;
  // Inside `${x:-…}` tree-sitter reads `$(( … ))` as `$( ( … ) )`, a subshell; bash reads
  // arithmetic there, where a single quote is a character: `${x:-$(( '$(cmd)' ))}` runs cmd.
  if (
    !node.text.startsWith("$((") || !node.text.endsWith("))") ||
    node.namedChildren[0]?.type !== "subshell"
  ) return false;
  // Its arithmetic reading, where tree-sitter reads it as such: what it evaluates, its
  // substitutions and quoted text, the way `echo $(( … ))` is walked.
  ctx.source(`echo ${node.text}`, cwds, "arithmetic");
  // (With quotes, or parentheses bash may read either way, the subshell reading is walked too.)
  return readsAsArithmetic(node.text.slice(3, -2));
}

/**
 * Whether bash reads `$((BODY))` as arithmetic for certain: no quote or backslash in it, and its
 * parentheses balanced with none closing below the opening ones (bash tries arithmetic first and
 * falls back to `$( (…) )` at a `)` it cannot match).
 */
function readsAsArithmetic(body: string): boolean {
  if (/['"\\`]/.test(body)) return false;
  let depth = 0;
  for (const c of body) {
    if (c === "(") depth++;
    else if (c === ")" && --depth < 0) return false;
  }
  return depth === 0;
}

/** `[[ x -eq y ]]` compares numbers: both sides are arithmetic. `[[ -v name ]]` reads a name. */
export function testEvaluation(
  ctx: WalkContext,
  node: LiteNode,
  cwds: Cwds,
  builtin = node.type === "test_command" && node.children[0]?.type !== "[[",
): void {
  if (node.children[0]?.type === "((") quotedArithmetic(ctx, node, cwds);
  // (`[[ s =~ re ]]` sets BASH_REMATCH to what matched: text the command chose.)
  if (!builtin && node.type === "test_command" && node.text.includes("=~")) {
    nameTarget(ctx, staticWord("BASH_REMATCH"));
  }
  // (`[ x -eq 1 ]` is the test builtin: it takes numbers only, and evaluates nothing but the
  // name `-v` reads: `[ -v 'a[$(cmd)]' ]` runs cmd.)
  if (builtin && !node.text.includes("-v")) return;
  for (const c of node.namedChildren) {
    if (c.type === "binary_expression" || c.type === "unary_expression") {
      const op = c.children.find((k) => k.type === "test_operator")?.text ?? "";
      if (ARITHMETIC_TESTS.has(op) && !builtin) {
        ctx.evaluation.texts.push(c.text);
        // A quoted operand is arithmetic too: `[[ 'a[$(cmd)]' -eq 1 ]]` runs cmd.
        for (const side of c.namedChildren) {
          if (/['"\\]/.test(side.text)) arithmeticCode(ctx, decodedText(side), cwds);
        }
      }
      if (op === "-v") {
        const operand = c.namedChildren[c.namedChildren.length - 1];
        // (Decoded: `[[ -v $'a[\x24(cmd)]' ]]` runs cmd.)
        const t = operand ? decodedText(operand) : "";
        if (SUBSCRIPT_CODE.test(t)) ctx.error ??= EVALUATION_ERROR;
        // (`-v NAME[SUB]` evaluates SUB, an indexed array's as arithmetic; not NAME's values:
        // `arr=(a b); [[ -v arr[1] ]]` runs nothing, `[[ -v arr[i] ]]` evaluates i's value.)
        const element = ELEMENT.exec(t);
        if (element && !builtin) ctx.evaluation.subscripts.push([element[1], element[2]]);
        else ctx.evaluation.texts.push(operand?.text ?? "");
      }
    }
    testEvaluation(ctx, c, cwds, builtin);
  }
}

/**
 * `(( … ))` is read as if in double quotes: a single quote there is a character, and what it
 * holds is expanded (`(( '$(rm -rf x)' ))` and `(( 'a[$(cmd)]' ))` run the command): each such
 * text is walked as the expansions of a word.
 */
function quotedArithmetic(ctx: WalkContext, node: LiteNode, cwds: Cwds): void {
  for (const c of node.namedChildren) {
    if (c.type === "raw_string" || c.type === "ansi_c_string") {
      // (A `$'…'` is decoded first: `(( $'a[\x24(cmd)]' ))` runs cmd.)
      const inner = c.type === "raw_string"
        ? c.text.slice(1, -1)
        : decodeAnsiC(c.text.slice(2, -1));
      if (/[$`]/.test(inner)) ctx.source(`: ${inner.replaceAll("'", "")}`, cwds, "arithmetic");
    } else quotedArithmetic(ctx, c, cwds);
  }
}

/** A word's text as bash reads it in arithmetic: quotes removed, a `$'…'` decoded. */
function decodedText(node: LiteNode): string {
  if (node.type === "ansi_c_string") return decodeAnsiC(node.text.slice(2, -1));
  if (node.type === "concatenation") return node.children.map(decodedText).join("");
  return node.text.replace(/['"\\]/g, "");
}

/**
 * Inside double quotes (or an unquoted heredoc body), the word of `${x:-WORD}` (and of the other
 * operators) keeps a single quote as a character and expands what it holds, and decodes a `$'…'`
 * first (bash's extquote): `"${x:-'$(rm -rf x)'}"` runs the command. Each such text is walked as
 * the expansions of a word. (A substitution inside is code of its own, quoted as it says.)
 */
export function quotedExpansionWords(ctx: WalkContext, node: LiteNode, cwds: Cwds): void {
  for (const c of node.namedChildren) {
    if (c.type === "raw_string" || c.type === "ansi_c_string") {
      const inner = c.type === "raw_string"
        ? c.text.slice(1, -1)
        : decodeAnsiC(c.text.slice(2, -1));
      // (A single quote in it is a character too: `$'\'$(cmd)\''` runs cmd.)
      if (/[$`]/.test(inner)) ctx.source(`: ${inner.replaceAll("'", "")}`, cwds, "expansion");
    } else if (!SUBSTITUTIONS.has(c.type)) quotedExpansionWords(ctx, c, cwds);
  }
}

const SUBSTITUTIONS = new Set(["command_substitution", "process_substitution"]);

/**
 * An arithmetic expansion (`$(( … ))`, `$[ … ]`): its text is evaluated (in a place no word is
 * decoded too: `case $((x)) in`), and its `${x:-'…'}` words are read as in double quotes.
 */
export function arithmeticText(ctx: WalkContext, node: LiteNode, cwds: Cwds): void {
  ctx.evaluation.texts.push(node.text);
  quotedStrings(ctx, node, cwds);
}

/** The words of the `${x:-WORD}` expansions in double-quoted text (see quotedExpansionWords). */
export function quotedStrings(ctx: WalkContext, node: LiteNode, cwds: Cwds): void {
  for (const c of node.namedChildren) {
    if (c.type === "expansion") quotedExpansionWords(ctx, c, cwds);
    else if (!SUBSTITUTIONS.has(c.type)) quotedStrings(ctx, c, cwds);
  }
}

/** `${!x}`, `${s:x}`, `${a[x]}` evaluate; `${x@P}` runs the substitutions in x's value. */
export function expansionEvaluation(ctx: WalkContext, node: LiteNode): void {
  const kids = node.children;
  for (let i = 1; i < kids.length; i++) {
    const k = kids[i];
    if (k.type === "!" && i === 1) ctx.evaluation.texts.push(node.text);
    else if (k.type === ":") {
      // The offset and length after the `:` are arithmetic.
      ctx.evaluation.texts.push(kids.slice(i + 1).map((c) => c.text).join(" "));
      break;
    } else if (k.type === "subscript") noteSubscript(ctx, subscript(k));
    else if (k.type === "@" && kids[i + 1]?.text === "P") {
      ctx.error ??= "a prompt expansion (${x@P}) runs the command substitutions in its value";
    }
  }
}

/** Builtins that read names or arithmetic from their arguments (NAME_READERS). */
export function builtinEvaluation(
  ctx: WalkContext,
  name: string,
  args: Word[],
  cwds: Cwds,
): void {
  const valued = NAME_READERS.get(name) ?? "";
  const flags: string[] = [];
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const v = a.kind === "static" ? a.value : "";
    // (An option cluster, or one whose valued letter takes the rest of the word, whatever it
    // holds: `wait -np'a[$(cmd)]'`, `printf -v"$name"`.)
    const cluster = operands.length
      ? undefined
      : /^[-+][A-Za-z]+/.exec(a.kind === "static" ? v : a.prefix)?.[0];
    const at = cluster === undefined
      ? -1
      : [...cluster.slice(1)].findIndex((c) => valued.includes(c));
    if (cluster !== undefined && (cluster === v || at >= 0)) {
      flags.push(cluster.slice(1));
      // A valued option's value is the rest of the cluster or the next word.
      if (at >= 0) {
        const value = a.kind !== "static"
          ? a
          : at + 2 < v.length
          ? staticWord(v.slice(at + 2))
          : args[++i];
        const opt = cluster[at + 1];
        // read -a NAME, printf -v NAME and wait -p NAME name a variable to set.
        const sets = (name === "read" && opt === "a") || (name === "printf" && opt === "v") ||
          (name === "wait" && opt === "p");
        if (value && sets) {
          nameTarget(ctx, value);
        }
      }
    } else if (v === "--" && !operands.length) continue;
    else operands.push(a);
  }
  switch (name) {
    // (Given no name, read sets REPLY and mapfile MAPFILE; getopts sets OPTARG too.)
    case "read":
      for (const w of operands) nameTarget(ctx, w);
      if (!operands.length) nameTarget(ctx, staticWord("REPLY"));
      return;
    case "mapfile":
    case "readarray":
      for (const w of operands) nameTarget(ctx, w);
      if (!operands.length) nameTarget(ctx, staticWord("MAPFILE"));
      return;
    case "getopts":
      if (operands[1]) nameTarget(ctx, operands[1]);
      nameTarget(ctx, staticWord("OPTARG"));
      return;
    case "let":
      for (const w of args) {
        ctx.evaluation.texts.push(w.text);
        if (w.kind === "static") arithmeticCode(ctx, w.value, cwds);
      }
      return;
    case "unset":
      // `unset 'a[$(cmd)]'` evaluates the subscript (an associative array's too).
      for (const w of operands) {
        if (w.kind === "static") arithmeticCode(ctx, w.value, cwds);
        else ctx.evaluation.texts.push(w.value); // (`unset "a[$k]"` evaluates k's value)
      }
      return;
    case "test":
    case "[":
      // (`-v NAME` evaluates NAME's subscript: `test -v 'a[$(cmd)]'` runs cmd. A word not known
      // may be `-v` too: `test "$op" 'a[$(cmd)]'`.)
      args.forEach((w, i) => {
        const v = w.kind === "static" ? w.value === "-v" : w.kind !== "glob";
        if (v && args[i + 1] && !(i + 2 === args.length && args[i + 1].value === "]")) {
          nameTarget(ctx, args[i + 1]);
        }
      });
      return;
    case "eval":
      for (const w of args) if (w.kind === "static") ctx.evaluation.texts.push(w.value);
      return;
    case "printf":
    case "wait":
      return;
  }
  declarationEvaluation(ctx, flags.join(""), operands, cwds);
}

/**
 * `NAME=value` words a program is given as arguments (`env x='a[$(cmd)]' bash -c 'echo $((x))'`,
 * also through another wrapper): env and its kin make them the environment of what they run,
 * where bash may evaluate them. Noted as the command's values, as its assignments are (a number
 * aside).
 */
export function argumentAssignments(ctx: WalkContext, argv: Word[]): void {
  // (Only after a program that makes them an environment: `awk -v n=x 'NR==n'` sets awk's n.)
  const from = argv.findIndex((w) => ENVIRONMENT_SETTERS.test(w.value));
  if (from < 0) return;
  for (let i = from + 1; i < argv.length; i++) {
    const m = ARGUMENT_ASSIGNMENT.exec(argv[i].value);
    if (m === null || NUMBER.test(m[2])) continue;
    const args = ctx.evaluation.arguments ??= new Map();
    let words = args.get(m[1]);
    if (!words) args.set(m[1], words = new Set());
    words.add(argv[i].value);
  }
}

/** Programs whose `NAME=value` arguments become the environment of what they run. */
const ENVIRONMENT_SETTERS = /^(?:.*\/)?(?:env|sudo|doas|run0)$/;
const ARGUMENT_ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;

/** declare, typeset, local, readonly, export: NAME or NAME=value words, with the flags `all`. */
function declarationEvaluation(
  ctx: WalkContext,
  all: string,
  operands: Word[],
  cwds: Cwds,
): void {
  for (const w of operands) {
    const eq = w.value.indexOf("=");
    const named = w.kind === "static" || (eq > 0 && /^[A-Za-z_]\w*$/.test(w.prefix.slice(0, eq)));
    if (!named || SUBSCRIPT_CODE.test(eq < 0 ? w.value : w.value.slice(0, eq))) {
      ctx.error ??= EVALUATION_ERROR;
      return;
    }
    const variable = (eq < 0 ? w.value : w.value.slice(0, eq)).replace(/\[.*$/, "");
    const value = eq < 0 ? null : w.value.slice(eq + 1);
    if (all.includes("A")) ctx.evaluation.assoc.add(variable);
    if (all.includes("i")) {
      (ctx.evaluation.integers ??= new Set()).add(variable);
      if (value !== null) {
        ctx.evaluation.texts.push(value);
        if (w.kind === "static") arithmeticCode(ctx, value, cwds);
      }
    }
    if (all.includes("n") && value !== null) {
      // A nameref: every use of the variable reads `value` as a name.
      if (SUBSCRIPT_CODE.test(value)) ctx.error ??= EVALUATION_ERROR;
      ctx.evaluation.values.add(variable);
    }
  }
}

/** A word a builtin takes as the name of a variable it sets (`read NAME`). */
function nameTarget(ctx: WalkContext, w: Word): void {
  if (w.kind !== "static" || SUBSCRIPT_CODE.test(w.value)) {
    ctx.error ??= EVALUATION_ERROR;
    return;
  }
  const name = w.value.replace(/\[.*$/, "");
  ctx.evaluation.values.add(name);
  (ctx.evaluation.readInto ??= new Set()).add(name);
}

/** `${#NAME}`, `${#NAME[@]}`, `${#NAME[*]}`: a length or a count, digits. */
const COUNT = /\$\{#[A-Za-z_]\w*(?:\[[@*]\])?\}/g;
/** Text with its lengths and counts as a number (`(( ${#a[@]} ))` is `(( 0 ))` to the reader). */
export function counted(text: string): string {
  return text.includes("${#") ? text.replace(COUNT, "0") : text;
}

/**
 * Whether a command's words run nothing of their own: `((n+=1))`, an arithmetic command of names
 * and numbers only, or `time ( … )`, whose subshell tree-sitter reads as time's argument (its
 * commands are walked as a subshell's). `words` are the command's words before `time` and its
 * kin were taken off (`argv`).
 */
export function runsNothing(argv: Word[], words: Word[], node: LiteNode): boolean {
  if (argv.length !== 1) return false;
  if (/^\(\([^'"`$\\[\]]*\)\)$/.test(counted(argv[0].text))) return true;
  return argv !== words &&
    node.namedChildren.some((c) => c.type === "subshell" && c.text === argv[0].text);
}
