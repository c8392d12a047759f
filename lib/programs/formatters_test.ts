/**
 * A stage that rewrites files before a program reads its settings (`prettier --write . && npm
 * test`) leaves those settings known where what it may rewrite is not them: a formatter the files
 * of its languages (unless a plugin, an override, a forced parser or an `include` widens them), a
 * patch the files its diff names.
 */
import assert from "node:assert/strict";
import { gateFiles } from "../testing_adversarial.ts";
import { checkActions, ctxIn } from "../testing.ts";
import { FORMATTER_PROGRAMS, ruffChanges } from "./formatters.ts";
import { literal } from "./words.ts";

const H = "/home/user";
const EVIL = "logs-dir=/home/user/.pi/agent/extensions\n";
const PLAIN = "registry=https://registry.npmjs.org/\nsave-exact=true\n";
const DIFF = "--- a/src/main.ts\n+++ b/src/main.ts\n@@ -1 +1 @@\n-a\n+b\n";
const NPMRC_DIFF = "--- a/.npmrc\n+++ b/.npmrc\n@@ -1 +1 @@\n-a\n+b\n";
const ctx = ctxIn(`${H}/f1`, {
  files: [`${H}/.ssh/id_rsa`, `${H}/f1/src/main.ts`],
  contents: {
    [`${H}/f1/.npmrc`]: PLAIN,
    [`${H}/f1/.prettierrc`]: '{ "semi": false, "singleQuote": true }\n',
    [`${H}/f1/package.json`]: '{ "name": "x", "overrides": { "a": "1" } }\n',
    [`${H}/f1/fix.diff`]: DIFF,
    [`${H}/f1/npmrc.diff`]: NPMRC_DIFF,
    [`${H}/f1/pyproject.toml`]: "[tool.ruff]\nline-length = 100\n[tool.black]\nline-length = 100\n",
    [`${H}/f2/.npmrc`]: PLAIN,
    [`${H}/f2/.prettierrc.json`]: '{ "plugins": ["prettier-plugin-ini"] }\n',
    [`${H}/f3/.npmrc`]: PLAIN,
    [`${H}/f3/package.json`]: '{ "name": "x", "prettier": "@acme/prettier-config" }\n',
    [`${H}/f4/.npmrc`]: PLAIN,
    [`${H}/f4/prettier.config.js`]: "export default { overrides: [] };\n",
    [`${H}/f5/.npmrc`]: PLAIN,
    [`${H}/f5/.prettierrc.yaml`]:
      "overrides:\n  - files: .npmrc\n    options:\n      parser: yaml\n",
    [`${H}/p1/.npmrc`]: PLAIN,
    [`${H}/p1/pyproject.toml`]: '[tool.ruff]\nextend-include = ["*.npmrc", ".npmrc"]\n',
    [`${H}/p2/.npmrc`]: PLAIN,
    [`${H}/p2/pyproject.toml`]: '[tool.black]\ninclude = "\\\\.(py|npmrc)$"\n',
    [`${H}/p3/.npmrc`]: PLAIN,
    [`${H}/p3/ruff.toml`]: 'extend = "../shared/ruff.toml"\n',
  },
});

Deno.test("formatters: a settings file of another name is not rewritten below the tree", async () => {
  await checkActions(gateFiles, ctx, [
    ["prettier --write . && npm test", "allow"],
    ["npx prettier --write . && npm test", "allow"],
    ["npx --yes prettier . --write && npm ls", "allow"],
    ["prettier --write src && npm test", "allow"],
    ["ruff format . && npm test", "allow"],
    // (ruff takes pyproject.toml too: what the second reads of it is not known.)
    ["ruff check --fix . && ruff format . && npm test", "ask"],
    ["black . && npm test", "allow"],
    ["black -l 100 . && npm run build", "allow"],
    ["gofmt -w . && npm test", "allow"],
    ["goimports -w . && npm test", "allow"],
    ["cargo fmt && npm test", "allow"],
    // What it is given by name it writes whatever the name; an .npmrc another stage writes.
    ["prettier --write .npmrc && npm test", "ask"],
    ["gofmt -w .npmrc && npm test", "ask"],
    ["black .npmrc && npm test", "ask"],
    ["echo logs-dir=/tmp >> .npmrc && prettier --write . && npm test", "ask"],
    // Options that widen what it takes: a plugin, a parser for every file, an include.
    ["prettier --plugin=prettier-plugin-ini --write . && npm test", "ask"],
    ["prettier --plugin prettier-plugin-ini --write . && npm test", "ask"],
    ["prettier --parser yaml --write . && npm test", "ask"],
    ["prettier --config /tmp/p.json --write . && npm test", "ask"],
    ["prettier $OPTS --write . && npm test", "ask"],
    ["ruff format --extension npmrc:python . && npm test", "ask"],
    ["ruff format --config 'extend-include=[\".npmrc\"]' . && npm test", "ask"],
    ["black --include '\\.npmrc$' . && npm test", "ask"],
    // Settings that widen it: a plugin, a shared configuration, one in code, an override.
    ["cd ../f2 && prettier --write . && npm test", "ask"],
    ["cd ../f3 && prettier --write . && npm test", "ask"],
    ["cd ../f4 && prettier --write . && npm test", "ask"],
    ["cd ../f5 && npx prettier --write . && npm test", "ask"],
    ["cd ../p1 && ruff format . && npm test", "ask"],
    ["cd ../p2 && black . && npm test", "ask"],
    ["cd ../p3 && ruff check --fix . && npm test", "ask"],
    // ... or a configuration another stage writes first.
    [
      'echo \'{"plugins":["prettier-plugin-ini"]}\' > .prettierrc && prettier --write . && npm test',
      "ask",
    ],
    [
      'cat > .prettierrc.json <<\'EOF\'\n{"plugins":["x"]}\nEOF\nprettier --write . && npm test',
      "ask",
    ],
    [
      "cat > .prettierrc.json <<'EOF'\n{\"semi\":false}\nEOF\nprettier --write . && npm test",
      "allow",
    ],
    // An .npmrc that says something: known, and judged.
    [`cat > .npmrc <<'EOF'\n${EVIL}EOF\nprettier --write . && npm test`, "ask"],
  ]);
});

Deno.test("patches: the files a diff names are what it writes before a settings reader", async () => {
  await checkActions(gateFiles, ctx, [
    ["patch -p1 < fix.diff && npm test", "allow"],
    ["patch -p1 -i fix.diff && npm test", "allow"],
    ["git apply fix.diff && npm test", "allow"],
    ["git apply --index fix.diff && npm test", "allow"],
    ["patch -p1 < npmrc.diff && npm test", "ask"],
    ["git apply npmrc.diff && npm test", "ask"],
    ["patch -p1 < missing.diff && npm test", "ask"],
    ["git apply $D && npm test", "ask"],
    ["curl -so fix.diff https://x/p && patch -p1 < fix.diff && npm test", "ask"],
  ]);
});

Deno.test("formatters: the files each takes below a tree", () => {
  const given = { read: () => "", home: H };
  const of = (name: string) => FORMATTER_PROGRAMS.find((p) => p.names.includes(name))!;
  const argv = (...w: string[]) => w.map(literal);
  const takes = (name: string, file: string, ...args: string[]) =>
    of(name).changesBelow!(argv(name, ...args), "/p", file, given);
  assert(takes("prettier", "/p/src/a.ts"));
  assert(takes("prettier", "/p/.yarnrc.yml"));
  assert(takes("prettier", "/p/package.json"));
  assert(takes("prettier", "/p/.babelrc"));
  assert(takes("prettier", "/p/README"));
  assert(!takes("prettier", "/p/bin/cli")); // (no `#!` line: no parser)
  const script = { read: () => "#!/usr/bin/env node\n", home: H };
  assert(of("prettier").changesBelow!(argv("prettier"), "/p", "/p/bin/cli", script));
  assert(!takes("prettier", "/p/.npmrc"));
  assert(!takes("prettier", "/p/.git/config"));
  assert(!takes("prettier", "/p/.git/hooks/pre-commit"));
  assert(!takes("prettier", "/p/node_modules/x/a.js"));
  assert(takes("prettier", "/p/node_modules/x/a.js", "--with-node-modules"));
  assert(!takes("prettier", "/p/pyproject.toml"));
  assert(takes("black", "/p/a.pyi"));
  assert(!takes("black", "/p/pyproject.toml"));
  assert(takes("gofmt", "/p/x/a.go"));
  assert(!takes("gofmt", "/p/.a.go"));
  assert(!takes("goimports", "/p/.git/config"));
  // (ruff's linter reads pyproject.toml; its formatter skips it.)
  assert(ruffChanges(argv("ruff", "check", "--fix"), "/p", "/p/pyproject.toml", given));
  assert(!ruffChanges(argv("ruff", "format"), "/p", "/p/pyproject.toml", given));
  assert(!ruffChanges(argv("ruff", "format"), "/p", "/p/.npmrc", given));
  // A settings file not known: anything.
  const unknown = { read: () => null, home: H };
  assert(of("prettier").changesBelow!(argv("prettier"), "/p", "/p/.npmrc", unknown));
  assert(ruffChanges(argv("ruff"), "/p", "/p/.npmrc", unknown));
});
