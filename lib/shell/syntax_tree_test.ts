import assert from "node:assert/strict";
import { loadBashParser, type SyntaxNode } from "./parser.ts";
import { type LiteNode, liteTree } from "./syntax_tree.ts";

function same(a: SyntaxNode, b: LiteNode, path = "root"): void {
  assert.equal(b.type, a.type, path);
  assert.equal(b.text, a.text, path);
  assert.equal(b.isNamed, a.isNamed, path);
  assert.equal(b.isMissing, a.isMissing, path);
  assert.equal(b.hasError, a.hasError, `${path} hasError`);
  assert.equal(b.startIndex, a.startIndex, path);
  assert.equal(b.endIndex, a.endIndex, path);
  const kids = a.children.filter((c): c is SyntaxNode => !!c);
  assert.equal(b.children.length, kids.length, path);
  assert.equal(b.namedChildren.length, a.namedChildren.length, path);
  for (const field of ["name", "argument", "body", "redirect", "value", "destination"]) {
    assert.equal(
      b.childForFieldName(field)?.text,
      a.childForFieldName(field)?.text ?? undefined,
      `${path}.${field}`,
    );
    assert.equal(
      b.childrenForFieldName(field).length,
      a.childrenForFieldName(field).length,
      `${path}.${field}[]`,
    );
  }
  kids.forEach((c, i) => {
    assert.equal(b.children[i].parent, b);
    same(c, b.children[i], `${path}/${i}:${c.type}`);
  });
}

Deno.test("the plain copy of a tree matches tree-sitter's nodes, fields and error flags", async () => {
  const parser = await loadBashParser();
  for (
    const src of [
      "git status && echo 'héllo 😀' > /tmp/x 2>&1 | grep -v y; (cd a; ls) &",
      'echo "unterminated',
      "if then fi",
      "cat <<EOF | sh\nrm $(id)\nEOF\n",
      "f() { x=$(rm a) y; }; for i in *; do echo $i; done",
      "",
    ]
  ) {
    const tree = parser.parse(src)!;
    try {
      same(tree.rootNode, liteTree(tree.rootNode, src));
    } finally {
      tree.delete();
    }
  }
});
