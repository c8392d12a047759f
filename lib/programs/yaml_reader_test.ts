import assert from "node:assert/strict";
import { readYaml, readYamlDocuments } from "./yaml_reader.ts";

Deno.test("yaml: block and flow forms, quotes, block scalars, anchors and merges", () => {
  const text = `# top
x-base: &base
  env_file: a.env
services:
  web:
    <<: *base
    image: "nginx:1" # pinned
    ports: ['8080:80', "443:443"]
    volumes:
      - ./data:/data
      - type: bind
        source: ~/x
    command: |
      echo # kept
      done
  db: {image: pg, volumes: [
    "v:/var"]}
list:
- a
- - b
`;
  assert.deepEqual(readYaml(text), {
    "x-base": { env_file: "a.env" },
    services: {
      web: {
        env_file: "a.env",
        image: "nginx:1",
        ports: ["8080:80", "443:443"],
        volumes: ["./data:/data", { type: "bind", source: "~/x" }],
        command: "echo # kept\ndone",
      },
      db: { image: "pg", volumes: ["v:/var"] },
    },
    list: ["a", ["b"]],
  });
  assert.deepEqual(readYaml("a: ~\nb:\nc: 'it''s'\n"), { a: null, b: null, c: "it's" });
});

Deno.test("yaml: what it cannot read is not known", () => {
  assert.equal(readYaml("a: b\n  c"), undefined); // (a plain scalar over two lines)
  assert.equal(readYaml("? a\n: b\n"), undefined);
  assert.equal(readYaml("a: *nope\n"), undefined);
  assert.equal(readYaml("a: 'open\n"), undefined);
  assert.equal(readYaml("a: [x\n"), undefined);
  assert.equal(readYaml("a:\n\t- x\n"), undefined);
});

Deno.test("yaml: documents split at `---` and `...`, content on the `---` line, lone CRs", () => {
  assert.deepEqual(readYamlDocuments("a: 1\n---\nb: 2\n...\n---\n...\nc: 3\n"), [
    { a: "1" },
    { b: "2" },
    { c: "3" },
  ]);
  assert.deepEqual(readYamlDocuments("--- {s: [x]}\n--- # c\nb: 2\n"), [{ s: ["x"] }, { b: "2" }]);
  assert.deepEqual(readYamlDocuments("---\na: 1\rb: 2\r\n"), [{ a: "1", b: "2" }]);
  assert.deepEqual(readYamlDocuments("a: |\n  ---\n  x\n"), [{ a: "---\nx\n" }]);
  // (One document's anchors are not another's; text after `...` is not read.)
  assert.equal(readYamlDocuments("a: &x 1\n---\nb: *x\n"), undefined);
  assert.equal(readYamlDocuments("a: 1\n... b\n"), undefined);
  assert.equal(readYamlDocuments("a: 1\u2028b: 2\n"), undefined);
  assert.equal(readYamlDocuments("a: 1\x85b: 2\n"), undefined);
  // A single document's reader: several are not one value.
  assert.equal(readYaml("a: 1\n---\nb: 2\n"), undefined);
  assert.deepEqual(readYaml("---\na: 1\n"), { a: "1" });
  assert.equal(readYaml(""), null);
});

Deno.test("yaml: `''` in single quotes is a quote: a `#` after it is text, not a comment", () => {
  assert.deepEqual(readYaml("k: 'it''s # here'\nv: ['a''b # c', x]\n"), {
    k: "it's # here",
    v: ["a'b # c", "x"],
  });
  assert.deepEqual(readYaml("k: it's # a comment\n"), { k: "it's" });
});
