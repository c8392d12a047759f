/**
 * Builds the nodes of the plain-command reader's shapes: the very tree tree-sitter-bash builds
 * for the command, node for node, in the `Lite` nodes of `syntax_tree.ts`.
 *
 * @module
 */
import type { AssignTok, DoGroup, Piece, Shape, Statement, WordTok } from "./simple_shapes.ts";
import { Lite, type LiteNode } from "./syntax_tree.ts";

/** The tree of the statements of `source` (and the comment that ends it, if any). */
export function build(source: string, statements: Statement[], comment: number | null): LiteNode {
  const b = new Builder(source);
  const root = b.node("program", true, startOf(statements[0].shape), source.length, null, null);
  b.statements(statements, root);
  if (comment !== null) b.node("comment", true, comment, source.length, root, null);
  return root;
}

/** Makes the nodes of one tree, numbered in order. */
class Builder {
  id = 0;
  constructor(readonly source: string) {}

  node(
    type: string,
    named: boolean,
    start: number,
    end: number,
    parent: Lite | null,
    field: string | null,
  ): Lite {
    const n = new Lite(this.source, this.id++, type, named, false, start, end, parent);
    parent?.adopt(n, field);
    return n;
  }

  statements(list: Statement[], parent: Lite, field: string | null = null): void {
    for (const st of list) {
      this.shape(st.shape, parent, field);
      if (st.semi !== null) {
        this.node(st.amp ? "&" : ";", false, st.semi, st.semi + 1, parent, field);
      }
    }
  }

  /** A keyword token at `at`. */
  keyword(word: string, at: number, parent: Lite): void {
    this.node(word, false, at, at + word.length, parent, null);
  }

  doGroup(g: DoGroup, parent: Lite): void {
    const n = this.node("do_group", true, g.start, g.end, parent, "body");
    this.keyword("do", g.start, n);
    this.statements(g.body, n);
    this.keyword("done", g.end - 4, n);
  }

  piece(p: Piece, parent: Lite, field: string | null): void {
    if (p.type === "dollar") {
      this.node("$", false, p.start, p.end, parent, field);
      return;
    }
    const n = this.node(p.type, true, p.start, p.end, parent, field);
    if (p.body) {
      // `$(`, `<(`, `>(` or a backtick; then the statements and `)` or the closing backtick.
      const open = p.ticks ? "`" : this.source.slice(p.start, p.start + 2);
      this.node(open, false, p.start, p.start + open.length, n, null);
      this.statements(p.body, n);
      this.node(p.ticks ? "`" : ")", false, p.end - 1, p.end, n, null);
    } else if (p.type === "simple_expansion" || p.type === "expansion") {
      const open = p.type === "expansion" ? "${" : "$";
      this.node(open, false, p.start, p.start + open.length, n, null);
      const ops = p.ops ?? [];
      // `${#NAME}`: the operator comes first.
      const before = ops.length && ops[0].end <= p.name![0] ? 1 : 0;
      if (before) this.node("#", false, ops[0].start, ops[0].end, n, "operator");
      const name = p.special ? "special_variable_name" : "variable_name";
      this.node(name, true, p.name![0], p.name![1], n, null);
      for (const op of ops.slice(before)) {
        const text = this.source.slice(op.start, op.end);
        this.node(text, false, op.start, op.end, n, "operator");
        if (op.value) this.node(op.value.type, true, op.value.start, op.value.end, n, null);
      }
      if (p.type === "expansion") this.node("}", false, p.end - 1, p.end, n, null);
    } else if (p.type === "string") {
      this.node('"', false, p.start, p.start + 1, n, null);
      const parts = p.parts!;
      // tree-sitter gives blank-only content no node: the closing quote's token spans it.
      if (parts.length === 1 && /^[ \t]+$/.test(this.source.slice(parts[0].start, parts[0].end))) {
        this.node('"', false, p.start + 1, p.end, n, null);
        return;
      }
      for (const part of parts) {
        if (part.type === "word") this.node("string_content", true, part.start, part.end, n, null);
        else if (part.type === "dollar") this.node("$", false, part.start, part.end, n, null);
        else this.piece(part, n, null);
      }
      this.node('"', false, p.end - 1, p.end, n, null);
    }
  }

  word(w: WordTok, parent: Lite, field: string | null): void {
    if (w.pieces.length === 1) return this.piece(w.pieces[0], parent, field);
    const n = this.node("concatenation", true, w.start, w.end, parent, field);
    for (const p of w.pieces) this.piece(p, n, null);
  }

  assignment(a: AssignTok, parent: Lite, field: string | null = null): Lite {
    const n = this.node("variable_assignment", true, a.start, a.end, parent, field);
    this.node("variable_name", true, a.start, a.op, n, "name");
    this.node(a.plus ? "+=" : "=", false, a.op, a.op + (a.plus ? 2 : 1), n, null);
    if (a.value) this.word(a.value, n, "value");
    return n;
  }

  shape(s: Shape, parent: Lite, field: string | null): void {
    if (s.t === "assignments" && s.assigns.length === 1) {
      this.assignment(s.assigns[0], parent, field);
      return;
    }
    const n = this.node(typeOf(s), true, startOf(s), endOf(s), parent, field);
    switch (s.t) {
      case "declaration":
        this.keyword(s.keyword, s.start, n);
        for (const item of s.items) {
          if ("assign" in item) this.assignment(item.assign, n);
          else if (item.name) {
            this.node("variable_name", true, item.word.start, item.word.end, n, null);
          } else this.word(item.word, n, null);
        }
        return;
      case "compound":
        this.keyword("{", s.start, n);
        this.statements(s.body, n);
        this.keyword("}", s.end - 1, n);
        return;
      case "while":
        this.keyword(s.keyword, s.start, n);
        this.statements(s.condition, n, "condition");
        this.doGroup(s.body, n);
        return;
      case "for":
        this.keyword("for", s.start, n);
        this.node("variable_name", true, s.variable[0], s.variable[1], n, "variable");
        if (s.values) {
          this.keyword("in", s.values.at, n);
          for (const w of s.values.words) this.word(w, n, "value");
        }
        this.node(";", false, s.semi, s.semi + 1, n, null);
        this.doGroup(s.body, n);
        return;
      case "if": {
        this.keyword("if", s.start, n);
        this.statements(s.condition, n, "condition");
        this.keyword("then", s.then, n);
        this.statements(s.body, n);
        for (const e of s.elifs) {
          const c = this.node("elif_clause", true, e.start, endOfList(e.body), n, null);
          this.keyword("elif", e.start, c);
          this.statements(e.condition, c);
          this.keyword("then", e.then, c);
          this.statements(e.body, c);
        }
        if (s.otherwise) {
          const o = s.otherwise;
          const c = this.node("else_clause", true, o.start, endOfList(o.body), n, null);
          this.keyword("else", o.start, c);
          this.statements(o.body, c);
        }
        this.keyword("fi", s.end - 2, n);
        return;
      }
      case "subshell":
        this.node("(", false, s.start, s.start + 1, n, null);
        this.statements(s.body, n);
        this.node(")", false, s.end - 1, s.end, n, null);
        return;
      case "assignments":
        if (s.assigns.length === 1) return; // the node itself is the assignment (below)
        for (const a of s.assigns) this.assignment(a, n);
        return;
      case "command": {
        for (const a of s.assigns) this.assignment(a, n);
        const name = this.node("command_name", true, s.words[0].start, s.words[0].end, n, "name");
        this.word(s.words[0], name, null);
        for (let i = 1; i < s.words.length; i++) this.word(s.words[i], n, "argument");
        return;
      }
      case "redirected":
        this.shape(s.body, n, "body");
        for (const r of s.redirects) {
          const f = this.node("file_redirect", true, r.start, r.end, n, "redirect");
          if (r.fd) this.node("file_descriptor", true, r.fd[0], r.fd[1], f, "descriptor");
          this.node(r.op, false, r.opStart, r.opStart + r.op.length, f, null);
          this.word(r.dest, f, "destination");
          for (const w of r.more) this.word(w, f, "destination");
        }
        return;
      case "pipeline":
        s.parts.forEach((p, i) => {
          if (i > 0) this.node("|", false, s.ops[i - 1], s.ops[i - 1] + 1, n, null);
          this.shape(p, n, null);
        });
        return;
      case "list":
        this.shape(s.left, n, null);
        this.node(s.op, false, s.opStart, s.opStart + s.op.length, n, null);
        this.shape(s.right, n, null);
    }
  }
}

const TYPES: Record<Shape["t"], string> = {
  command: "command",
  assignments: "variable_assignments",
  subshell: "subshell",
  redirected: "redirected_statement",
  pipeline: "pipeline",
  list: "list",
  compound: "compound_statement",
  declaration: "declaration_command",
  while: "while_statement",
  for: "for_statement",
  if: "if_statement",
};

function typeOf(s: Shape): string {
  return TYPES[s.t];
}

/** Where a list of statements ends: at the last one's `;`, if it has one. */
function endOfList(list: Statement[]): number {
  const last = list[list.length - 1];
  return last.semi !== null ? last.semi + 1 : endOf(last.shape);
}

function startOf(s: Shape): number {
  switch (s.t) {
    case "subshell":
    case "compound":
    case "declaration":
    case "while":
    case "for":
    case "if":
      return s.start;
    case "command":
      return s.assigns.length ? s.assigns[0].start : s.words[0].start;
    case "assignments":
      return s.assigns[0].start;
    case "redirected":
      return startOf(s.body);
    case "pipeline":
      return startOf(s.parts[0]);
    case "list":
      return startOf(s.left);
  }
}

function endOf(s: Shape): number {
  switch (s.t) {
    case "subshell":
    case "compound":
    case "declaration":
    case "if":
      return s.end;
    case "while":
    case "for":
      return s.body.end;
    case "command":
      return s.words[s.words.length - 1].end;
    case "assignments":
      return s.assigns[s.assigns.length - 1].end;
    case "redirected":
      return s.redirects[s.redirects.length - 1].end;
    case "pipeline":
      return endOf(s.parts[s.parts.length - 1]);
    case "list":
      return endOf(s.right);
  }
}
