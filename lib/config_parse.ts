/**
 * Parsing a config text (JSONC: comments and trailing commas allowed) into a positioned tree,
 * with syntax errors worded for people, and the check that no object repeats a key.
 *
 * @module
 */
import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import type { ConfigSource } from "./config_files.ts";
import { at, describe, q } from "./config_messages.ts";
import {
  type Diag,
  err,
  type FileInfo,
  lineCol,
  type ParsedFile,
  type PProp,
  type PValue,
  type Seg,
} from "./config_tree.ts";

const PARSE_ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: 'expected a property name in double quotes (e.g. "policies")',
  ValueExpected: "expected a value",
  ColonExpected: "expected a colon (:) after the property name",
  CommaExpected: "expected a comma (,) between entries",
  CloseBraceExpected: "expected a closing brace (})",
  CloseBracketExpected: "expected a closing bracket (])",
  EndOfFileExpected: "expected the end of the file (only one top-level value is allowed)",
  InvalidCommentToken: "invalid comment",
  UnexpectedEndOfComment: "unterminated block comment (missing */)",
  UnexpectedEndOfString: "unterminated string (missing closing quote)",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid unicode escape",
  InvalidEscapeCharacter: "invalid escape character in string",
  InvalidCharacter: "invalid character in string (control characters must be escaped)",
};

/** Parse one config text into a positioned tree; syntax errors go to `d`, and null comes back. */
export function parseFile(s: ConfigSource, index: number, d: Diag): ParsedFile | null {
  const text = s.text.startsWith("\uFEFF") ? s.text.slice(1) : s.text;
  const info: FileInfo = {
    file: s.file,
    role: s.role,
    root: s.root,
    index,
    lineStarts: lineStarts(text),
  };
  const parseErrors: ParseError[] = [];
  const tree = parseTree(text, parseErrors, { allowTrailingComma: true, disallowComments: false });
  if (tree === undefined) {
    const onlyEmpty = parseErrors.every((e) => printParseErrorCode(e.error) === "ValueExpected");
    if (onlyEmpty) {
      err(
        d,
        { info, offset: 0 },
        'the config file is empty; expected an object such as { "policies": { … } }',
      );
      return null;
    }
  }
  if (parseErrors.length > 0) {
    const seen = new Set<number>();
    for (const e of parseErrors) {
      if (seen.has(e.offset)) continue;
      seen.add(e.offset);
      const code = printParseErrorCode(e.error);
      const text = PARSE_ERROR_TEXT[code] ?? "invalid JSON";
      err(d, { info, offset: e.offset }, `syntax error: ${text} (${code})`);
    }
    return null;
  }
  if (tree === undefined) return null;
  const root = toPValue(tree, info);
  if (root.kind !== "object") {
    err(
      d,
      root.pos,
      `the top level of a config file must be an object ({ … }), found ${describe(root)}`,
    );
    return null;
  }
  return { info, root };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

function toPValue(node: Node, info: FileInfo): PValue {
  const pos = { info, offset: node.offset };
  if (node.type === "object") {
    const props: PProp[] = [];
    for (const prop of node.children ?? []) {
      const [keyNode, valueNode] = prop.children ?? [];
      if (keyNode === undefined || valueNode === undefined) continue;
      props.push({
        key: String(keyNode.value),
        keyPos: { info, offset: keyNode.offset },
        value: toPValue(valueNode, info),
      });
    }
    return { kind: "object", props, pos };
  }
  if (node.type === "array") {
    return { kind: "array", items: (node.children ?? []).map((c) => toPValue(c, info)), pos };
  }
  return { kind: "scalar", value: node.type === "null" ? null : node.value, pos };
}

/**
 * A key written twice in one object is an error at the second one: which of the two counts is
 * invisible in the file, and a later `"action": "allow"` could quietly undo a deny above it.
 */
export function checkDuplicates(v: PValue, segs: Seg[], d: Diag): void {
  if (v.kind === "array") {
    v.items.forEach((item, i) => checkDuplicates(item, [...segs, i], d));
    return;
  }
  if (v.kind !== "object") return;
  const first = new Map<string, PProp>();
  for (const p of v.props) {
    const prev = first.get(p.key);
    if (prev === undefined) {
      first.set(p.key, p);
      continue;
    }
    const { line, column } = lineCol(prev.keyPos);
    err(
      d,
      p.keyPos,
      `${at(segs)}duplicate key ${q(p.key)} (first at line ${line}:${column}); ` +
        `a key may appear once in an object, remove one of them`,
    );
  }
  for (const p of v.props) checkDuplicates(p.value, [...segs, p.key], d);
}
