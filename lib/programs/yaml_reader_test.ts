import assert from "node:assert/strict";
import { readYaml } from "./yaml_reader.ts";

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
