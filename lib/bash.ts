/**
 * Bash analysis: every simple command bash may run (a stage), its words as bash will see them,
 * its file redirects and the directories it may run in, from the tree-sitter syntax tree.
 */
import { resolve } from "node:path";
import type { BashParser, SyntaxNode } from "./bash_parser.ts";
import {
  decodeAnsiC,
  fallbackSplit,
  joinContinuations,
  unescapeDoubleQuoted,
  unescapeUnquoted,
} from "./shell_words.ts";

/** A word after quote removal and the expansions the engine can know. */
export interface Word {
  /** The value bash will use; unknown parts keep their source text (`$X`, `$(…)`). */
  value: string;
  /** "static": fully known; "glob": known text with unquoted glob characters or braces; "dynamic": contains an expansion whose value is unknown. */
  kind: "static" | "glob" | "dynamic";
  /** The known literal text before the first unknown or glob part. */
  prefix: string;
  /** The source text. */
  text: string;
}

/** A redirect of a stage. */
export interface Redirect {
  /** The operator with its fd, e.g. `>`, `2>>`, `&>`, `<`. */
  op: string;
  /** "write" and "read" have a file target; "dup" (`2>&1`), "heredoc" and "herestring" do not. */
  kind: "write" | "read" | "dup" | "heredoc" | "herestring";
  target: Word | null;
}

/** One simple command of the tree. */
export interface Stage {
  argv: Word[];
  redirects: Redirect[];
  /** The stage's source text. */
  text: string;
  /** Where it sits: "top", "substitution", "subshell", "function", "condition", ... */
  origin: string;
  /** The directories it may run in; null means unknown (after `cd $X`). */
  cwds: (string | null)[];
}

/** The analysis of one bash command. */
export interface BashAnalysis {
  stages: Stage[];
  /** Why the command could not be fully analysed (syntax error, too large, no parser). */
  error: string | null;
}

/** What word decoding may expand. */
export interface BashEnv {
  cwd: string;
  home: string;
  /** Known environment values ($HOME, $TMPDIR, ...). $PWD is the stage's cwd. */
  env: Record<string, string | undefined>;
}

/** Variables whose values the engine may expand (RULINGS principle 3). */
const EXPANDABLE = new Set(["HOME", "PWD", "TMPDIR"]);
/** Special parameters that always expand to digits or flags, never to a path. */
const NUMERIC_PARAMS = new Set(["?", "$", "#", "!", "-"]);
/** Input larger than this is not analysed (never allowed). */
export const MAX_COMMAND_LENGTH = 65536;
const MAX_STAGES = 1000;
const MAX_CWDS = 8;

/** Analyse a bash command. Without a parser, the fallback splitter is used. */
export function analyzeBash(
  command: string,
  env: BashEnv,
  parser: BashParser | null,
): BashAnalysis {
  if (command.length > MAX_COMMAND_LENGTH) {
    return { stages: [], error: `the command is longer than ${MAX_COMMAND_LENGTH} characters` };
  }
  if (!parser) return analyzeFallback(command, env);
  const source = joinContinuations(command);
  const tree = parser.parse(source);
  if (!tree) return { stages: [], error: "the bash parser returned no tree" };
  try {
    const walker = new Walker(env);
    walker.walk(tree.rootNode, [env.cwd], "top", []);
    if (walker.error) return { stages: walker.stages, error: walker.error };
    if (tree.rootNode.hasError) {
      return { stages: walker.stages, error: syntaxErrorAt(tree.rootNode) };
    }
    return { stages: walker.stages, error: null };
  } finally {
    tree.delete();
  }
}

function syntaxErrorAt(root: SyntaxNode): string {
  const stack: SyntaxNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.isError || n.isMissing) {
      const what = n.isMissing
        ? `missing ${n.type}`
        : `unexpected ${JSON.stringify(n.text.slice(0, 20))}`;
      return `syntax error at column ${n.startIndex + 1}: ${what}`;
    }
    for (const c of [...n.children].reverse()) if (c && c.hasError) stack.push(c);
  }
  return "syntax error";
}

function analyzeFallback(command: string, env: BashEnv): BashAnalysis {
  const split = fallbackSplit(command);
  if (!split) {
    return {
      stages: [],
      error: "the bash parser is not available and the command is not plain words",
    };
  }
  const stages = split.map((s) => ({
    argv: s.words.map((w): Word => ({ value: w, kind: "static", prefix: w, text: w })),
    redirects: [],
    text: s.text,
    origin: "top",
    cwds: [env.cwd],
  }));
  return { stages, error: null };
}

type Cwds = (string | null)[];

function union(...sets: Cwds[]): Cwds {
  const out: Cwds = [];
  for (const s of sets) for (const c of s) if (!out.includes(c)) out.push(c);
  if (out.length > MAX_CWDS) return [...out.slice(0, MAX_CWDS - 1), null];
  return out;
}

const WRITE_OPS = new Set([">", ">>", "&>", "&>>", ">|", "<>"]);
const NOT_TARGETS = /^\/dev\/(null|stdout|stderr|stdin|tty|fd\/\d+)$/;

class Walker {
  stages: Stage[] = [];
  error: string | null = null;
  constructor(private env: BashEnv) {}

  /** Walk a node run in `cwds`; returns the cwds after success and after failure. */
  walk(
    node: SyntaxNode,
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
  ): { ok: Cwds; fail: Cwds } {
    if (this.stages.length > MAX_STAGES) {
      this.error ??= `the command has more than ${MAX_STAGES} stages`;
      return { ok: cwds, fail: cwds };
    }
    switch (node.type) {
      case "comment":
        return { ok: cwds, fail: cwds };
      case "command":
        return this.command(node, cwds, origin, redirects);
      case "declaration_command":
      case "unset_command":
        return this.command(node, cwds, origin, redirects);
      case "redirected_statement": {
        const body = node.childForFieldName("body");
        const own: Redirect[] = [];
        for (const c of node.childrenForFieldName("redirect")) {
          if (c) own.push(...this.redirect(c, cwds, origin));
        }
        if (!body) return { ok: cwds, fail: cwds };
        return this.walk(body, cwds, origin, [...redirects, ...own]);
      }
      case "list": {
        const kids = node.children.filter((c): c is SyntaxNode => !!c && c.type !== "comment");
        const left = kids[0];
        const op = kids[1]?.type;
        const right = kids[2];
        const a = this.walk(left, cwds, origin, redirects);
        if (!right) return a;
        if (op === "&&") {
          const b = this.walk(right, a.ok, origin, redirects);
          return { ok: b.ok, fail: union(a.fail, b.fail) };
        }
        if (op === "||") {
          const b = this.walk(right, a.fail, origin, redirects);
          return { ok: union(a.ok, b.ok), fail: b.fail };
        }
        const b = this.walk(right, union(a.ok, a.fail), origin, redirects);
        return b;
      }
      case "pipeline": {
        for (const c of node.namedChildren) if (c) this.walk(c, cwds, origin, redirects);
        return { ok: cwds, fail: cwds };
      }
      case "subshell":
        this.sequence(node.namedChildren, cwds, "subshell", redirects);
        return { ok: cwds, fail: cwds };
      case "command_substitution":
      case "process_substitution":
        this.sequence(node.namedChildren, cwds, "substitution", []);
        return { ok: cwds, fail: cwds };
      case "function_definition": {
        const body = node.childForFieldName("body");
        if (body) this.walk(body, cwds, "function", []);
        return { ok: cwds, fail: cwds };
      }
      case "program":
      case "compound_statement": {
        const after = this.sequence(node.children, cwds, origin, redirects);
        return { ok: after, fail: after };
      }
      case "if_statement":
      case "while_statement":
      case "until_statement":
      case "for_statement":
      case "c_style_for_statement":
      case "case_statement": {
        // Bodies may run or not, once or many times: every cwd they can reach stays possible.
        const after = this.sequence(
          node.namedChildren,
          cwds,
          origin === "top" ? "compound" : origin,
          redirects,
          true,
        );
        return { ok: after, fail: after };
      }
      case "ERROR":
        this.error ??= syntaxErrorAt(node);
        this.sequence(node.namedChildren, cwds, origin, redirects);
        return { ok: cwds, fail: cwds };
      default: {
        // Words, assignments, tests, arithmetic, heredoc bodies: look for commands inside.
        this.sequence(node.namedChildren, cwds, origin, redirects);
        return { ok: cwds, fail: cwds };
      }
    }
  }

  /** Walk children as `;`-separated statements (`&` runs the previous one in a subshell). */
  sequence(
    children: (SyntaxNode | null)[],
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
    keepAll = false,
  ): Cwds {
    let cur = cwds;
    const seen: Cwds[] = [cwds];
    const kids = children.filter((c): c is SyntaxNode => !!c);
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (!c.isNamed) continue;
      const background = kids[i + 1]?.type === "&";
      const r = this.walk(c, cur, origin, redirects);
      if (!background) cur = union(r.ok, r.fail);
      if (keepAll) seen.push(cur);
    }
    return keepAll ? union(...seen) : cur;
  }

  redirect(node: SyntaxNode, cwds: Cwds, origin: string): Redirect[] {
    if (node.type === "heredoc_redirect") {
      // Everything after the heredoc start on its line (`| sh`, `&& rm x`) and expansions in the
      // body are commands too.
      for (const c of node.namedChildren) {
        if (c && c.type !== "heredoc_start" && c.type !== "heredoc_end") {
          this.walk(c, cwds, origin, []);
        }
      }
      return [{ op: "<<", kind: "heredoc", target: null }];
    }
    if (node.type === "herestring_redirect") {
      for (const c of node.namedChildren) if (c) this.walk(c, cwds, origin, []);
      return [{ op: "<<<", kind: "herestring", target: null }];
    }
    let fd = "";
    let op = "";
    let dest: SyntaxNode | null = null;
    for (const c of node.children) {
      if (!c) continue;
      if (c.type === "file_descriptor") fd = c.text;
      else if (!c.isNamed) op += c.text;
      else dest = c;
    }
    if (dest) this.walk(dest, cwds, origin, []);
    if (op === ">&-" || op === "<&-") return [{ op: fd + op, kind: "dup", target: null }];
    if (op === ">&" || op === "<&") {
      const w = dest ? this.word(dest, cwds[0] ?? this.env.cwd) : null;
      if (!w || (w.kind === "static" && /^(\d+|-)$/.test(w.value))) {
        return [{ op: fd + op, kind: "dup", target: null }];
      }
      return [{ op: fd + op, kind: op === ">&" ? "write" : "read", target: w }];
    }
    const target = dest ? this.word(dest, cwds[0] ?? this.env.cwd) : null;
    return [{ op: fd + op, kind: WRITE_OPS.has(op) ? "write" : "read", target }];
  }

  command(
    node: SyntaxNode,
    cwds: Cwds,
    origin: string,
    redirects: Redirect[],
  ): { ok: Cwds; fail: Cwds } {
    const argv: Word[] = [];
    const own: Redirect[] = [];
    const pwd = cwds[0] ?? this.env.cwd;
    for (const c of node.children) {
      if (!c) continue;
      if (!c.isNamed) {
        // declaration_command and unset_command keywords are anonymous tokens.
        if (node.type !== "command" && argv.length === 0) {
          argv.push({ value: c.text, kind: "static", prefix: c.text, text: c.text });
        }
        continue;
      }
      if (c.type === "variable_assignment") {
        this.sequence(c.namedChildren, cwds, "substitution", []);
        if (node.type !== "command") argv.push(this.word(c, pwd));
        continue;
      }
      if (isRedirect(c)) {
        own.push(...this.redirect(c, cwds, origin));
        continue;
      }
      if (c.type === "comment") continue;
      const target = c.type === "command_name" ? c.namedChildren[0] ?? c : c;
      this.sequence([target], cwds, "substitution", []);
      argv.push(this.word(target, pwd));
    }
    const stage: Stage = {
      argv,
      redirects: [...redirects, ...own],
      text: node.parent?.type === "redirected_statement" &&
          node.parent.childForFieldName("body")?.id === node.id
        ? node.parent.text
        : node.text,
      origin,
      cwds,
    };
    this.stages.push(stage);
    return { ok: this.cdEffect(stage, cwds), fail: cwds };
  }

  /** The cwds after a `cd`/`pushd`/`popd` stage succeeds (unchanged for other commands). */
  cdEffect(stage: Stage, cwds: Cwds): Cwds {
    const name = stage.argv[0];
    if (!name || name.kind !== "static") return cwds;
    if (name.value === "popd") return [null];
    if (name.value !== "cd" && name.value !== "pushd") return cwds;
    const args = stage.argv.slice(1).filter((w, i, all) => {
      const before = all.slice(0, i).some((x) => x.value === "--");
      return before || !(w.kind === "static" && /^-[LPe@]+$/.test(w.value)) && w.value !== "--";
    });
    const arg = args[0];
    if (!arg) return name.value === "cd" ? [this.env.home] : [null];
    if (arg.kind !== "static" || arg.value === "-" || /^[+-]\d+$/.test(arg.value)) return [null];
    const dir = arg.value;
    if (dir.startsWith("/")) return [resolve(dir)];
    return union(cwds.map((c) => (c === null ? null : resolve(c, dir))));
  }

  /** Decode a word node to the value bash will use. */
  word(node: SyntaxNode, pwd: string): Word {
    const parts = this.parts(node, pwd, true);
    let value = "";
    let prefix = "";
    let kind: Word["kind"] = "static";
    for (const p of parts) {
      if (kind === "static" && p.kind !== "dynamic") {
        prefix += p.kind === "glob" ? p.value.slice(0, p.value.search(/[*?[{]/)) : p.value;
      }
      if (p.kind === "dynamic") kind = "dynamic";
      else if (p.kind === "glob" && kind === "static") kind = "glob";
      value += p.value;
    }
    if (
      kind === "static" && parts.some((p) => p.unquoted && /[{}]/.test(p.value)) &&
      /\{[^{}]*(,|\.\.)[^{}]*\}/.test(value)
    ) {
      kind = "glob"; // brace expansion: one word becomes several
      prefix = value.slice(0, value.indexOf("{"));
    }
    return { value, kind, prefix, text: node.text };
  }

  parts(
    node: SyntaxNode,
    pwd: string,
    first: boolean,
  ): { value: string; kind: Word["kind"]; unquoted?: boolean }[] {
    switch (node.type) {
      case "word":
      case "command_name": {
        let text = node.text;
        if (first && (text === "~" || text.startsWith("~/"))) text = this.env.home + text.slice(1);
        const glob = /(^|[^\\])(\\\\)*[*?[]/.test(text);
        return [{ value: unescapeUnquoted(text), kind: glob ? "glob" : "static", unquoted: true }];
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
      case "string": {
        const out: { value: string; kind: Word["kind"] }[] = [];
        const body = node.type === "translated_string" ? node.namedChildren[0] ?? node : node;
        let last = body.startIndex + 1;
        for (const c of body.namedChildren) {
          if (!c) continue;
          // Text between named children (tree-sitter leaves some content unnamed).
          const gap = body.text.slice(last - body.startIndex, c.startIndex - body.startIndex);
          if (gap) out.push({ value: unescapeDoubleQuoted(gap), kind: "static" });
          if (c.type === "string_content") {
            out.push({ value: unescapeDoubleQuoted(c.text), kind: "static" });
          } else {out.push(
              ...this.parts(c, pwd, false).map((p) => ({
                ...p,
                kind: p.kind === "glob" ? "static" as const : p.kind,
              })),
            );}
          last = c.endIndex;
        }
        const tail = body.text.slice(last - body.startIndex, -1);
        if (tail) out.push({ value: unescapeDoubleQuoted(tail), kind: "static" });
        return out;
      }
      case "concatenation": {
        const out: { value: string; kind: Word["kind"]; unquoted?: boolean }[] = [];
        node.namedChildren.forEach((c, i) => {
          if (c) out.push(...this.parts(c, pwd, first && i === 0));
        });
        return out;
      }
      case "simple_expansion":
      case "expansion": {
        const name = simpleName(node);
        if (name !== null && NUMERIC_PARAMS.has(name)) {
          return [{ value: node.text, kind: "static" }];
        }
        if (name !== null && EXPANDABLE.has(name)) {
          const v = name === "PWD"
            ? pwd
            : name === "HOME"
            ? (this.env.env.HOME ?? this.env.home)
            : this.env.env[name];
          if (v !== undefined) return [{ value: v, kind: "static" }];
        }
        return [{ value: node.text, kind: "dynamic" }];
      }
      case "arithmetic_expansion":
        return [{ value: node.text, kind: "static" }];
      case "process_substitution":
        return [{ value: "/dev/fd/63", kind: "static" }];
      case "brace_expression":
        return [{ value: node.text, kind: "glob", unquoted: true }];
      case "variable_assignment": {
        const name = node.childForFieldName("name")?.text ?? "";
        const val = node.childForFieldName("value");
        const op = node.text.slice(name.length).startsWith("+=") ? "+=" : "=";
        return [{ value: name + op, kind: "static" }, ...(val ? this.parts(val, pwd, false) : [])];
      }
      default:
        return [{ value: node.text, kind: "dynamic" }];
    }
  }
}

function isRedirect(n: SyntaxNode): boolean {
  return n.type === "file_redirect" || n.type === "heredoc_redirect" ||
    n.type === "herestring_redirect";
}

/** `$NAME` or `${NAME}` without operators: the name; otherwise null. */
function simpleName(node: SyntaxNode): string | null {
  const m = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[?$#!-])\}|([A-Za-z_][A-Za-z0-9_]*|[?$#!-]))$/.exec(
    node.text,
  );
  return m ? (m[1] ?? m[2]) : null;
}

/** Whether a redirect target is a real file (not /dev/null, /dev/stdout, /dev/fd/N, ...). */
export function isFileTarget(r: Redirect): boolean {
  if (!r.target || (r.kind !== "write" && r.kind !== "read")) return false;
  return !(r.target.kind === "static" && NOT_TARGETS.test(r.target.value));
}

/** The command string rules match: the argv as it runs, then the file redirects. */
export function commandString(stage: Stage): string {
  let s = stage.argv.map((w) => w.value).join(" ");
  for (const r of stage.redirects) if (isFileTarget(r)) s += ` ${r.op} ${r.target!.value}`;
  return s;
}
