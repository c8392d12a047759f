/**
 * Words as bash reads them, from the nodes of the syntax tree: quote removal, escapes, `~`
 * prefixes, the expansions whose value is known (`$HOME`, `$PWD`, `$TMPDIR`), brace and glob
 * words, and the words tree-sitter splits or joins otherwise than bash ({@linkcode wordGroups}).
 *
 * @module
 */
import type { Cwds } from "./cwds.ts";
import { type Around, type LineOf, staticWord, type Word } from "./model.ts";
import { ASSIGNMENT_PREFIX, isAssignmentShaped, isExpansion, mayRun, rootOf } from "./nodes.ts";
import { VALUE_MISREAD, valueMisread } from "./repairs.ts";
import type { LiteNode } from "./syntax_tree.ts";
import type { WalkContext, WordGroup } from "./walk_context.ts";
import { assigned, expansionEvaluation } from "./walk_evaluation.ts";
import { runTimeGlob } from "./run_time_parts.ts";
import { type Part, substitutionPart, wordOutput } from "./substitution_outputs.ts";
import { type Known, knownPart } from "./walk_values.ts";
import { affixPart, emptyPart, EXPANDABLE, operatorPart, pwd, stateOf } from "./walk_parameters.ts";
import { decodeAnsiC, unescapeDoubleQuoted, unescapeUnquoted, unquotedText } from "./words.ts";
import { hasGlob, literalPattern } from "./pathname_expansion.ts";
import { elementPart } from "./array_elements.ts";
import { type BraceChar, braceChars, expandBraces, hasBraces } from "./braces.ts";

/** No assigned variable names (shared; never changed). */
const NO_NAMES: ReadonlySet<string> = new Set();
/** The count of an array's words: `${#NAME[@]}`, `${#NAME[*]}`. */
const ARRAY_COUNT = /^\$\{#[A-Za-z_][A-Za-z0-9_]*\[[@*]\]\}$/;
/** Special parameters that always expand to digits or flags, never to a path. */
const NUMERIC_PARAMS = new Set(["?", "$", "#", "!", "-"]);

/** The expandable variables a command's source may assign (then their value is not known). */
export function touchedNames(source: string): ReadonlySet<string> {
  // (Names as bash reads them after quote removal: `read HO\ME` sets HOME.)
  const text = unquotedText(source);
  // Most commands name none of them: skip the three searches when no `HOME`, `PWD` or `TMPDIR`.
  const names = /HOME|PWD|TMPDIR/.test(text)
    ? new Set(EXPANDABLE.filter((n) => BARE_NAMES[n].test(text)))
    : NO_NAMES;
  // (`PATH`: the command may change which program a name runs, or where it is found: no
  // substitution's output is known then, substitution_outputs.ts.)
  return /\$\(|`/.test(text) && LOOKUP_CHANGED.test(text) ? new Set([...names, "PATH"]) : names;
}

/** Text that may change which program a name runs: PATH, bash's table of paths, an alias. */
const LOOKUP_CHANGED = /PATH|\bhash\b|BASH_CMDS|\benable\b|\balias\b/;

/**
 * The text between two word nodes as bash splits it: the escaped blanks glued to the end of the
 * first word, any words of escaped blanks alone, and those glued to the start of the second (one
 * field: both nodes are one word). Null when the gap holds anything but blanks, escaped blanks
 * and line continuations: tree-sitter left out text, and the command is not what it read.
 */
function gapFields(gap: string): string[] | null {
  const fields = [""];
  let blank = false;
  for (let i = 0; i < gap.length; i++) {
    const c = gap[i];
    if (c === " " || c === "\t") {
      if (!blank) fields.push("");
      blank = true;
    } else if (c === "\\" && (gap[i + 1] === " " || gap[i + 1] === "\t")) {
      fields[fields.length - 1] += gap[++i];
      blank = false;
    } else if (c === "\\" && gap[i + 1] === "\n") {
      i++;
    } else {
      return null;
    }
  }
  return fields;
}

/** A gap that only separates two words (one blank, the common case, needs no splitting). */
function plainGap(container: LiteNode, from: number, to: number): boolean {
  if (to - from !== 1) return false;
  const c = container.text[from - container.startIndex];
  return c === " " || c === "\t";
}

/**
 * A `~` prefix that runs into an expansion after it (`~:$HOME`): bash expands the tilde and keeps
 * the rest of the prefix as text, the expansion unexpanded. (A quote after it stops the tilde.)
 */
function tildeTakesExpansion(node: LiteNode, next: LiteNode | undefined): boolean {
  return !!next && node.type === "word" && node.text.startsWith("~") && !node.text.includes("/") &&
    isExpansion(next);
}

/** A node that starts its word, and one inside a word (shared: never changed). */
const FIRST: WordPlace = Object.freeze({ first: true });
const NOT_FIRST: WordPlace = Object.freeze({ first: false });
/** A node inside double quotes (or an unquoted heredoc body): no splitting, no globbing. */
const QUOTED: WordPlace = Object.freeze({ first: false, quoted: true });

/** Where a node sits in its bash word. */
interface WordPlace {
  /** It starts the word. */
  first: boolean;
  /** The word goes on after it. */
  more?: boolean;
  /** The word is shaped like an assignment (`NAME=…`). */
  assignment?: boolean;
  /** It is inside double quotes. */
  quoted?: boolean;
}

/** Whether a node starts right after `from` or one blank after it. */
function plainOrNone(container: LiteNode, from: number, node: LiteNode): boolean {
  return node.startIndex === from || plainGap(container, from, node.startIndex);
}

/**
 * The words bash reads from word nodes in source order (within `container`): nodes with no
 * blank between them are one word, and escaped blanks between nodes are text of the words.
 * `from` and `to` bound the run (the end of a redirect or keyword before it, the start of a
 * redirect after it; null at the container's ends): escaped blanks there belong to its words.
 * A node that is a word alone stands for itself.
 */
export function wordGroups(
  ctx: WalkContext,
  container: LiteNode,
  nodes: LiteNode[],
  from: number | null = null,
  to: number | null = null,
  afterOperator = false,
): (LiteNode | WordGroup)[] {
  if (afterOperator && from !== null && nodes.length && plainOrNone(container, from, nodes[0])) {
    from = null; // `>f` and `> f`: nothing before the destination but the operator
  }
  if (from === null && to === null) {
    // The common case: one blank between the nodes, nothing glued.
    let plain = true;
    for (let i = 1; plain && i < nodes.length; i++) {
      plain = plainGap(container, nodes[i - 1].endIndex, nodes[i].startIndex);
    }
    if (plain) return nodes;
  }
  const out: (LiteNode | WordGroup)[] = [];
  const root = rootOf(container);
  const text = (a: number, b: number) => root.text.slice(a - root.startIndex, b - root.startIndex);
  const blankWord = (f: string) => {
    out.push({ nodes: [], joints: [], lead: f, trail: "", text: f.replace(/[ \t]/g, "\\$&") });
  };
  const fieldsOf = (a: number, b: number): string[] | null => {
    if (b <= a) return [""];
    if (plainGap(root, a, b)) return ["", ""];
    const fields = gapFields(text(a, b));
    if (fields === null) ctx.error ??= "text between words that the parser left out";
    return fields;
  };
  let cur: WordGroup | null = null;
  let start = 0;
  const close = (end: number, trail: string) => {
    if (!cur) return;
    cur.trail = trail;
    cur.text = text(start, end);
    out.push(cur.nodes.length === 1 && !cur.lead && !trail ? cur.nodes[0] : cur);
    cur = null;
  };
  let lead = "";
  if (from !== null && nodes.length) {
    const fields = fieldsOf(from, nodes[0].startIndex) ?? ["", ""];
    if (afterOperator) {
      // What touches the operator begins the destination (a word of blanks when it ends).
      if (fields.length > 1 && fields[0]) blankWord(fields[0]);
    } else if (fields.length === 1 || fields[0] !== "") {
      // A word glued to the redirect before it continues the redirect's word, which tree-sitter
      // ended early (`<<< "a"\b`): what the redirect reads or writes is not what it read.
      ctx.error ??= "a word glued to a redirect the parser ended early";
    }
    for (const f of fields.slice(1, -1)) blankWord(f);
    lead = fields[fields.length - 1];
    if (fields.length === 1 && !afterOperator) lead = "";
  }
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    if (cur) {
      const prev = nodes[i - 1];
      const fields = fieldsOf(prev.endIndex, n.startIndex) ?? ["", ""];
      if (fields.length === 1) {
        (cur as WordGroup).joints.push(fields[0]);
        (cur as WordGroup).nodes.push(n);
        continue;
      }
      close(prev.endIndex + 2 * fields[0].length, fields[0]);
      for (const f of fields.slice(1, -1)) blankWord(f);
      lead = fields[fields.length - 1];
    }
    cur = { nodes: [n], joints: [], lead, trail: "", text: "" };
    start = n.startIndex - 2 * lead.length;
    lead = "";
  }
  if (nodes.length) {
    const endNode = nodes[nodes.length - 1].endIndex;
    const fields = to === null ? [""] : fieldsOf(endNode, to) ?? [""];
    close(endNode + 2 * fields[0].length, fields[0]);
    // A redirect operator ends a word: what touches it is a word of its own.
    for (const f of fields.slice(1)) if (f) blankWord(f);
  } else if (from !== null && to !== null) {
    for (const f of fieldsOf(from, to) ?? []) if (f) blankWord(f);
  }
  return out;
}

/**
 * The word of a group, its substitutions walked when `walk` (a redirect walks its own
 * destination). A node alone decodes as it always did.
 */
export function groupWord(
  ctx: WalkContext,
  g: LiteNode | WordGroup,
  cwds: Cwds,
  walk: boolean,
  many?: Word[],
): Word {
  if (!("nodes" in g)) {
    if (g.type === "variable_assignment") {
      if (walk && mayRun(g)) ctx.sequence(g.namedChildren, cwds, "substitution", []);
      return decodeWord(ctx, g, cwds);
    }
    const target = g.type === "command_name" ? g.namedChildren[0] ?? g : g;
    if (walk && mayRun(target)) ctx.sequence([target], cwds, "substitution", []);
    return decodeWord(ctx, target, cwds, many);
  }
  const parts: Part[] = [];
  if (g.lead) parts.push({ value: g.lead, kind: "static" });
  const assignment = !g.lead && g.nodes.length > 0 && isAssignmentShaped(g.nodes[0]);
  for (let i = 0; i < g.nodes.length; i++) {
    const n = g.nodes[i];
    if (i > 0 && g.joints[i - 1]) parts.push({ value: g.joints[i - 1], kind: "static" });
    if (walk && mayRun(n)) {
      ctx.sequence(
        n.type === "variable_assignment" ? n.namedChildren : [n],
        cwds,
        "substitution",
        [],
      );
    }
    const target = n.type === "command_name" ? n.namedChildren[0] ?? n : n;
    const more = i < g.nodes.length - 1 || g.trail !== "";
    const place = { first: i === 0 && !g.lead, more, assignment };
    for (const p of nodeParts(ctx, target, cwds, place)) parts.push(p);
  }
  if (g.trail) parts.push({ value: g.trail, kind: "static" });
  return braceExpanded(fromParts(parts, g.text), parts, ctx, cwds, many);
}

/**
 * The words of a group as bash expands its braces (`{a,b}.md` is two words): the one word
 * `groupWord` makes when it has none, or they are not known (then that word stands for them).
 */
export function groupWords(
  ctx: WalkContext,
  g: LiteNode | WordGroup,
  cwds: Cwds,
  walk: boolean,
): Word[] {
  const many: Word[] = [];
  const w = groupWord(ctx, g, cwds, walk, many);
  return many.length ? many : [w];
}

/** Decode a word node to the value bash will use. */
export function decodeWord(ctx: WalkContext, node: LiteNode, cwds: Cwds, many?: Word[]): Word {
  // Most words are plain text: no quotes, escapes, expansions, globs, braces or tilde.
  if (node.type === "word" && PLAIN_WORD.test(node.text)) return staticWord(node.text);
  const parts = nodeParts(ctx, node, cwds, FIRST);
  return braceExpanded(fromParts(parts, node.text), parts, ctx, cwds, many);
}

/** The parts of a word node, placed in its bash word as `at` says (a `~` prefix needs it). */
function nodeParts(ctx: WalkContext, node: LiteNode, cwds: Cwds, at: WordPlace): Part[] {
  const { first, more = false } = at;
  switch (node.type) {
    case "word":
    case "command_name": {
      const text = node.text;
      if (first && text.startsWith("~")) return tildeParts(ctx, text, cwds, { more });
      // bash expands `~` after the `=` of an argument shaped like an assignment, and after
      // each `:` of its value (`dd if=~/x`, `x=a:~/b`).
      if (first && text.includes("~") && ASSIGNMENT_PREFIX.test(text)) {
        const eq = text.indexOf("=") + 1;
        return [
          { value: text.slice(0, eq), kind: "static", unquoted: true },
          ...tildeParts(ctx, text.slice(eq), cwds, { assignment: true, more }),
        ];
      }
      if (at.assignment && !first && text.includes(":~")) {
        return tildeParts(ctx, text, cwds, { assignment: true, more, continued: true });
      }
      if (backtickBodies(text)?.length !== 0) return [{ value: text, kind: "dynamic" }];
      return [unquotedPart(text)];
    }
    case "number":
    case "test_operator":
    case "variable_name":
      return [{ value: node.text, kind: "static", unquoted: true }];
    case "raw_string":
      return [{ value: node.text.slice(1, -1), kind: "static" }];
    case "ansi_c_string":
      return [{ value: decodeAnsiC(node.text.slice(2, -1)), kind: "static" }];
    case "translated_string":
    case "string":
      return stringParts(ctx, node, cwds);
    case "concatenation": {
      const out: Part[] = [];
      const kids = node.children;
      const assignment = at.assignment || (first && isAssignmentShaped(kids[0]));
      if (first && assignment && node.text.includes("~") && kids.some(isExpansion)) {
        // bash expands `~` in such a word on its raw text, leaving some expansions as text
        // (`x=~${HOME}` keeps `${HOME}`): what it makes of it is not modelled.
        return [{ value: node.text, kind: "dynamic" }];
      }
      for (let i = 0; i < kids.length; i++) {
        const c = kids[i];
        if (!c.isNamed && c.type !== "$") continue;
        if (first && i === 0 && tildeTakesExpansion(c, kids[i + 1])) {
          // bash expands the `~` and keeps the expansion's text as it is (`~:$HOME`).
          out.push({ value: node.text, kind: "dynamic" });
          return out;
        }
        // `~` starts a tilde prefix only at the start of the word (not after `""`).
        const place = !more && !assignment && i === kids.length - 1
          ? (first && i === 0 ? FIRST : NOT_FIRST)
          : { first: first && i === 0, more: more || i < kids.length - 1, assignment };
        for (const p of nodeParts(ctx, c, cwds, place)) out.push(p);
      }
      return out;
    }
    case "==":
    case "=~":
      // tree-sitter's test operators, as arguments of a command (`test a == b`): plain text.
      return [{ value: node.text, kind: "static", unquoted: true }];
    case "$":
      // (tree-sitter reads `$$` glued to text, `x.$$`, as one `$` token: the shell's pid.)
      return [node.text === "$$" ? { value: "$$", kind: "static" } : dollarPart(node)];
    case "simple_expansion":
    case "expansion": {
      const p = expansionPart(ctx, node, cwds, at.quoted === true);
      // (`$f{a,b}`: bash expands the braces first, into `$fa` and `$fb`.)
      return [at.quoted || node.text[1] === "{" ? p : { ...p, bare: true }];
    }
    case "command_substitution":
      return [
        substitutionPart(
          ctx,
          node,
          cwds,
          at.quoted === true,
          (n) => nodeParts(ctx, n, cwds, FIRST),
        ),
      ];
    case "arithmetic_expansion":
      // A number, but one computed from variables can run code hidden in their values.
      ctx.evaluation.texts.push(node.text);
      return [{
        value: node.text,
        kind: /[A-Za-z_$`]/.test(node.text.slice(2)) ? "dynamic" : "static",
      }];
    case "process_substitution":
      return [{ value: "/dev/fd/63", kind: "static" }];
    case "brace_expression":
      return [{ value: node.text, kind: "glob", unquoted: true }];
    case "variable_assignment": {
      const name = node.childForFieldName("name")?.text ?? "";
      const val = node.childForFieldName("value");
      if (valueMisread(node)) ctx.error ??= VALUE_MISREAD;
      assigned(ctx, node);
      const op = node.text.slice(name.length).startsWith("+=") ? "+=" : "=";
      // In an assignment's value, `~` starts a prefix after the `=` and after every `:`.
      const value = val?.type === "word" && val.text.startsWith("~")
        ? tildeParts(ctx, val.text, cwds, { assignment: true })
        : val
        ? nodeParts(ctx, val, cwds, FIRST)
        : [];
      // (A name with an escape is text glued to a word before it: `v="a"\bx=1` is `v=abx=1`.)
      return [{ value: unescapeUnquoted(name) + op, kind: "static" }, ...value];
    }
    default:
      return [{ value: node.text, kind: "dynamic" }];
  }
}

/**
 * Unquoted text with `~` prefixes: at its start, and in an assignment's value after every
 * unescaped `:` (`PATH=~/bin:~/x`). `continued`: the text goes on a bash word begun before
 * it, so its start is no prefix; `more`: the word goes on after it.
 */
function tildeParts(
  ctx: WalkContext,
  text: string,
  cwds: Cwds,
  opts: { assignment?: boolean; more?: boolean; continued?: boolean } = {},
): Part[] {
  const segments = opts.assignment ? splitUnescaped(text, ":") : [text];
  const out: Part[] = [];
  segments.forEach((seg, i) => {
    if (i > 0) out.push({ value: ":", kind: "static", unquoted: true });
    const last = i === segments.length - 1;
    const prefix = seg.startsWith("~") && !(i === 0 && opts.continued);
    const part = prefix ? tildePrefix(ctx, seg, cwds, last && !!opts.more) : null;
    out.push(part ?? unquotedPart(seg));
  });
  return out;
}

/**
 * One `~` prefix expanded, or null when bash leaves it: it runs to the first `/`, and a quoted
 * or escaped character in it stops the expansion, as does the word going on past it (`more`).
 * A `:` ends the user name (`~:x` is `$HOME:x`). `~NAME` of the user running it (`$USER`, else
 * `$LOGNAME`) is the home the environment gives (not moved by assigning HOME); others' and `~-`
 * are not known.
 */
function tildePrefix(ctx: WalkContext, seg: string, cwds: Cwds, more: boolean): Part | null {
  const slash = seg.indexOf("/");
  const prefix = slash === -1 ? seg : seg.slice(0, slash);
  if (prefix.includes("\\") || (slash === -1 && more)) return null;
  const colon = prefix.indexOf(":");
  const head = colon === -1 ? prefix : prefix.slice(0, colon);
  const env = ctx.env.env;
  const dir = head === "~"
    ? (ctx.touched.has("HOME") ? null : env.HOME ?? ctx.env.home)
    : head === "~+"
    ? pwd(ctx, cwds)
    : head.length > 1 && head.slice(1) === (env.USER ?? env.LOGNAME)
    ? env.HOME ?? ctx.env.home
    : null;
  if (dir === null) return { value: seg, kind: "dynamic" };
  const tail = unquotedPart(seg.slice(head.length));
  return { ...tail, value: dir + tail.value, raw: literalPattern(dir) + tail.raw };
}

function stringParts(ctx: WalkContext, node: LiteNode, cwds: Cwds): Part[] {
  const body = node.type === "translated_string" ? node.namedChildren[0] ?? node : node;
  return textParts(ctx, body, 1, 1, cwds, (t) => [{
    value: unescapeDoubleQuoted(t),
    kind: "static",
  }]);
}

/**
 * The parts of quoted text with expansions inside (a string, a heredoc body): literal text
 * between and in `*_content` nodes goes through `text`; expansions are decoded, never globs.
 * `open`/`close`: delimiter lengths at either end (`"` of a string, nothing for a body).
 */
export function textParts(
  ctx: WalkContext,
  node: LiteNode,
  open: number,
  close: number,
  cwds: Cwds,
  text: (t: string) => Part[],
): Part[] {
  const out: Part[] = [];
  const src = node.text;
  let last = open;
  const literal = (t: string) => {
    if (t) out.push(...text(t));
  };
  for (const c of node.namedChildren) {
    if (!c) continue;
    literal(src.slice(last, c.startIndex - node.startIndex));
    if (c.type === "string_content" || c.type === "heredoc_content") literal(c.text);
    else {
      for (const p of nodeParts(ctx, c, cwds, QUOTED)) {
        out.push(
          p.expanded || p.line || p.output
            ? p
            : { value: p.value, kind: p.kind === "glob" ? "static" : p.kind },
        );
      }
    }
    last = c.endIndex - node.startIndex;
  }
  literal(src.slice(last, src.length - close));
  return out;
}

function expansionPart(ctx: WalkContext, node: LiteNode, cwds: Cwds, quoted: boolean): Part {
  // (An operator of a parameter whose state is known: `${zz:-w}`, `${f//x/y}`.)
  const op = node.type === "expansion" ? operatorPart(ctx, node, cwds, quoted) : null;
  if (node.type === "expansion") {
    expansionEvaluation(ctx, node);
    // `${x=v}` assigns x as it expands (and `${!x=v}` the variable x names).
    if (node.text.includes("=")) ctx.values.stop();
  }
  if (op) return op;
  const name = simpleName(node);
  if (name !== null && NUMERIC_PARAMS.has(name)) return { value: node.text, kind: "static" };
  if (name !== null && EXPANDABLE.includes(name) && !ctx.touched.has(name)) {
    const v = name === "PWD"
      ? pwd(ctx, cwds)
      : name === "HOME"
      ? (ctx.env.env.HOME ?? ctx.env.home)
      : ctx.env.env[name];
    if (v !== undefined && v !== null) return { value: v, kind: "static" };
  }
  // (Where the last move ran, after it surely succeeded: text bash splits unquoted, as it globs.)
  const old = name === "OLDPWD" ? ctx.oldpwd(node) : null;
  if (old !== null && (quoted || !/[\s*?[\]\\]/.test(old))) return { value: old, kind: "static" };
  if (name !== null && stateOf(ctx, name, cwds) === null) return emptyPart(quoted);
  // (`${#NAME[@]}`: how many words an array holds, a number computed as it runs, as `$#` is.)
  if (name === null && ARRAY_COUNT.test(node.text)) return { value: node.text, kind: "static" };
  // A value the command gave the variable (RULINGS principle 3), or a parameter of a call.
  if (name === null) {
    // (An element of a known array, `"${a[1]}/x"`; a whole word of it is walk_word_lists.ts'.)
    const e = ctx.values.lists
      ? elementPart(ctx.values, node.text, quoted, !ctx.values.defaultIfs(ctx.env.env))
      : null;
    if (e) return e;
    const p = ctx.calls?.bound ? ctx.calls.parameter(node.text, quoted) : null;
    return p ?? affixPart(ctx, node, quoted) ?? { value: node.text, kind: "dynamic" };
  }
  const k = ctx.values.get(name);
  // (Unquoted, bash splits it by IFS: at blanks alone where IFS is surely its default.)
  const split = !quoted && !ctx.values.defaultIfs(ctx.env.env);
  const known = k === undefined || split ? null : knownPart(k, quoted);
  return known ?? { value: node.text, kind: "dynamic" };
}

/**
 * The commands inside the unescaped backtick pairs of some text, with the backslashes bash removes
 * there (before `` ` ``, `\\` and `$`); null when a backtick is not closed.
 */
export function backtickBodies(text: string): string[] | null {
  const out: string[] = [];
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "`" && open === -1) open = i;
    else if (text[i] === "`") {
      out.push(text.slice(open + 1, i).replace(/\\([`\\$])/g, "$1"));
      open = -1;
    }
  }
  return open === -1 ? out : null;
}

/** Whether text holds more than one pair of backticks (`` `a` `b` ``: two substitutions). */
export function backtickPairs(text: string): boolean {
  return text.indexOf("`", 1) < text.length - 1;
}

/** Text split at each `sep` not escaped by a backslash. */
function splitUnescaped(text: string, sep: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === sep) {
      out.push(text.slice(from, i));
      from = i + 1;
    }
  }
  out.push(text.slice(from));
  return out;
}

/** Unquoted text as a part: escapes removed, a glob when it has an unescaped `*`, `?` or `[`. */
function unquotedPart(text: string): Part {
  const glob = /(^|[^\\])(\\\\)*[*?[]/.test(text);
  return {
    value: unescapeUnquoted(text),
    kind: glob ? "glob" : "static",
    unquoted: true,
    raw: text,
  };
}

/**
 * A word with unquoted braces that bash expands into several: a glob of its prefix. Where the
 * caller takes several words (`many`, a command's arguments, a loop's list), the words bash
 * expands it into go there (see braces.ts), when every part is known and within bounds.
 */
function braceExpanded(
  w: Word,
  parts: Part[],
  ctx: WalkContext,
  cwds: Cwds,
  many?: Word[],
): Word {
  if (parts.some((p) => p.unquoted && p.value.includes("{"))) {
    // (`$f{a,b}`: bash expands the braces first, into `$fa` and `$fb`: not known here.)
    if (parts.some((p, i) => p.bare && parts[i + 1]?.unquoted && parts[i + 1].value[0] === "{")) {
      return { value: w.text, kind: "dynamic", prefix: "", text: w.text };
    }
    const words = expandedWords(ctx, parts, cwds);
    // (No brace expression bash expands: `{x}`, `\{a,b\}`; the word is as it is.)
    if (words === "none") return w;
    if (words && many) many.push(...words);
  }
  if (
    w.kind === "static" && parts.some((p) => p.unquoted && /[{}]/.test(p.value)) &&
    /\{[^{}]*(,|\.\.)[^{}]*\}/.test(w.value)
  ) {
    return { ...w, kind: "glob", prefix: w.value.slice(0, w.value.indexOf("{")) };
  }
  return w;
}

/**
 * The words bash expands braces in a word into; "none" when it has no brace expression, null
 * when they are not known here.
 */
function expandedWords(ctx: WalkContext, parts: Part[], cwds: Cwds): Word[] | "none" | null {
  const chars: BraceChar[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p.kind === "dynamic" || p.expanded || p.line) return null;
    if (p.unquoted) {
      chars.push(
        ...(p.raw !== undefined
          ? braceChars(p.raw)
          : [...p.value].map((ch) => ({ ch, active: true, quoted: false, raw: ch }))),
      );
    } else if (!p.value) chars.push({ ch: "", active: false, quoted: true, raw: "" });
    else {
      for (const ch of p.value) chars.push({ ch, active: false, quoted: true, raw: "" });
    }
  }
  if (!hasBraces(chars)) return "none";
  const out: Word[] = [];
  for (const alt of expandBraces(chars) ?? []) {
    // (An empty unquoted word is removed; a `~` past the start is not followed here.)
    if (!alt.length) continue;
    if (alt.some((c, i) => i > 0 && c.active && c.ch === "~")) return null;
    out.push(braceWord(ctx, alt, cwds));
  }
  return out.length ? out : null;
}

/** One word of a brace expansion, its `~` prefix expanded. */
function braceWord(ctx: WalkContext, chars: BraceChar[], cwds: Cwds): Word {
  const parts: Part[] = [];
  for (let i = 0; i < chars.length;) {
    const quoted = chars[i].quoted;
    let j = i;
    while (j < chars.length && chars[j].quoted === quoted) j++;
    const run = chars.slice(i, j);
    if (quoted) parts.push({ value: run.map((c) => c.ch).join(""), kind: "static" });
    else {
      const raw = run.map((c) => c.raw).join("");
      const more = j < chars.length;
      parts.push(
        ...(i === 0 && run[0].active && run[0].ch === "~"
          ? tildeParts(ctx, raw, cwds, { more })
          : [unquotedPart(raw)]),
      );
    }
    i = j;
  }
  const text = chars.map((c) => c.quoted ? c.ch : c.raw).join("");
  return fromParts(parts, text);
}

/** A word from its parts: the known prefix stops at the first unknown part or glob character. */
export function fromParts(parts: Part[], text: string): Word {
  let value = "";
  let prefix = "";
  let kind: Word["kind"] = "static";
  let output = false;
  // (A word of unset parameters alone, unquoted, is no word: bash drops it.)
  if (parts.length && parts.every((p) => p.empty)) {
    return { value: text, kind: "dynamic", prefix: "", text };
  }
  for (const p of parts) {
    if (kind === "static" && p.kind !== "dynamic" && !p.cut) {
      prefix += p.kind === "glob" ? p.value.slice(0, p.value.search(/[*?[{]/)) : p.value;
    }
    if (p.output) output = true;
    if (p.kind === "dynamic") kind = "dynamic";
    else if (p.kind === "glob" && kind === "static") kind = "glob";
    value += p.value;
  }
  // (What a substitution prints, where its form is known: `$(mktemp)`, `$(which node)`.)
  const form = output ? wordOutput(parts) : undefined;
  if (form) return { value, kind: "dynamic", prefix: "", text, output: form };
  // A glob word as a pattern, when every glob part has its raw text (a brace part has none).
  let pattern: string | null = null;
  if (kind === "glob") {
    pattern = "";
    for (const p of parts) {
      if (p.raw !== undefined) pattern += p.raw;
      else if (p.kind === "glob") {
        pattern = null;
        break;
      } else {
        // (A part bash computes as it runs, `$?*`: the names it may be, as a plain glob.)
        const timed = p.kind === "static" && /[$`]/.test(p.value) ? runTimeGlob(p.value) : null;
        pattern += timed ?? literalPattern(p.value);
      }
    }
  }
  // A glob's match stands for itself alone: with text around it (`"x$f/y"`), the word is that
  // text and the match, which the whole as a glob may not reach (`~/.ss*/k` when k is new): not
  // known but to what builds it from each match (`Word.around`).
  if (
    kind === "glob" && parts.some((p) => p.expanded) &&
    parts.some((p) => (!p.expanded && p.value) || p.cut)
  ) {
    const around = aroundOf(parts);
    return around
      ? { value, kind: "dynamic", prefix, text, around }
      : { value, kind: "dynamic", prefix, text };
  }
  // A word that is a line `read` took and nothing else (`"$f"`) is that line.
  const line = parts.length <= 3 ? lineOf(parts) : undefined;
  if (line) return { value, kind, prefix, text, line };
  return kind === "glob" && pattern !== null && hasGlob(pattern)
    ? { value, kind, prefix, text, pattern }
    : { value, kind, prefix, text };
}

/** Parts that are one expanded glob and static text around it, as that (`Word.around`). */
function aroundOf(parts: Part[]): Around | undefined {
  let at = -1;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (p.expanded) {
      if (at >= 0 || p.raw === undefined) return undefined;
      at = i;
    } else if (p.kind !== "static" || p.line) return undefined;
  }
  const glob = parts[at];
  // (Where the loop expanded its list: the matches are names there.)
  if (glob.at?.length !== 1 || glob.at[0] === null) return undefined;
  const text = (from: number, to: number) => parts.slice(from, to).map((p) => p.value).join("");
  return {
    at: glob.at[0],
    pattern: glob.raw!,
    before: text(0, at),
    after: text(at + 1, parts.length),
    ...(glob.cut ? { cut: glob.cut } : {}),
  };
}

/** The line the parts are, when one of them is one and the others are empty. */
function lineOf(parts: Part[]): LineOf | undefined {
  const full = parts.filter((p) => p.value !== "" || p.line);
  return full.length === 1 ? full[0].line : undefined;
}

/** A word bash takes as it is written (every character literal, none special anywhere). */
const PLAIN_WORD = /^[A-Za-z0-9_./,:+%@=-]+$/;

/** A name used other than as `$NAME`/`${NAME}` (assigned, read into, exported, looped over). */
function bareName(name: string): RegExp {
  return new RegExp(`(?<![\\w$])(?<!\\$\\{)${name}(?!\\w)`);
}
/** bareName of each expandable variable, compiled once. */
const BARE_NAMES: Record<string, RegExp> = Object.fromEntries(
  EXPANDABLE.map((n) => [n, bareName(n)]),
);

/** `$NAME` or `${NAME}` without operators: the name; otherwise null. */
function simpleName(node: LiteNode): string | null {
  const m = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[?$#!-])\}|([A-Za-z_][A-Za-z0-9_]*|[?$#!-]))$/.exec(
    node.text,
  );
  return m ? (m[1] ?? m[2]) : null;
}

/**
 * A `$` tree-sitter read as plain text (`grep ^$`). When the command goes on right after it, the
 * `$` began an expansion that tree-sitter split off into the next word (`$HOME/$X/id_rsa` is read
 * as `$HOME/$` and `X/id_rsa`): its value is not known.
 */
function dollarPart(node: LiteNode): Part {
  let root = node;
  while (root.parent) root = root.parent;
  const after = root.text[node.endIndex - root.startIndex];
  const ends = after === undefined || " \t\n|&;<>()`".includes(after);
  return ends ? { value: "$", kind: "static", unquoted: true } : { value: "$", kind: "dynamic" };
}

/**
 * An assignment of what a substitution prints, where its form is known (`X=$(mktemp)`,
 * `X="$(which node)"`: `Word.output`), or null.
 */
export function outputValue(ctx: WalkContext, node: LiteNode, cwds: Cwds): Known | null {
  const val = node.childForFieldName("value");
  if (!val || !/^"?\$\(/.test(val.text)) return null;
  const w = decodeWord(ctx, val, cwds);
  return w.output ? { value: w.value, kind: "output", output: w.output } : null;
}
