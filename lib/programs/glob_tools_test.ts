/**
 * Node's file tools that expand their own quoted globs (glob_tools.ts): a remover's glob reaches
 * what it matches (`.env`, the gate's `.pi/`, `secrets/`), a copier's sources and a linter's files
 * too; `-G`/`--no-glob` and shx's `--noglob` leave the word a name; a copier's destination is no
 * glob; `rimraf dist` is judged as `rm -rf dist` is.
 */
import assert from "node:assert/strict";
import { checkActions, configFrom, ctxIn, rmDenied } from "../testing.ts";
import { literal } from "./words.ts";
import { programNamed } from "./registry.ts";

const H = "/home/user";
const P = `${H}/proj`;
const ctx = ctxIn(P, {
  files: [
    `${P}/src/main.ts`,
    `${P}/docs/a.md`,
    `${P}/dist/a.js`,
    `${P}/README.md`,
    `${P}/.env`,
    `${P}/secrets/db.json`,
    `${P}/.pi/settings.json`,
    `${H}/.ssh/id_rsa`,
  ],
  home: H,
});
// (`rm *` is denied by a rule: the removers here are judged by what they reach, not their name.)
const config = rmDenied(H, { ssh: true });

Deno.test("glob tools: a remover's quoted glob reaches what it matches, dot files too", async () => {
  await checkActions(config, ctx, [
    // Hostile: the glob matches what is protected.
    ["rimraf '*'", "deny"],
    ["rimraf --glob '.*'", "ask"],
    ["rimraf '.p?'", "ask"],
    ["rimraf '{dist,.pi}'", "ask"],
    ["rimraf 'secret?'", "deny"],
    [`rimraf '${H}/.ss[h]'`, "deny"],
    ["rimraf -g -- '*'", "deny"],
    ["del '*'", "deny"],
    ["del-cli '.e*'", "ask"],
    ["del '*' '!.env'", "deny"],
    ["shx rm -rf 'secret*'", "deny"],
    ["shx rm -rf '.p*'", "deny"],
    ["npx rimraf '*'", "deny"],
    // Everyday: build output.
    ["rimraf 'dist/**'", "allow"],
    ["rimraf 'dist/*.js'", "allow"],
    ["del 'dist/*'", "allow"],
    ["npx rimraf 'dist/*'", "allow"],
    // No glob: the word is a name.
    ["rimraf -G '*'", "allow"],
    ["rimraf --no-glob '.*'", "allow"],
  ]);
});

Deno.test("glob tools: rimraf DIR is judged as rm -rf DIR (a tree it replaces)", async () => {
  await checkActions(config, ctx, [
    ["rimraf .pi", "ask"],
    ["rimraf secrets", "deny"],
    ["rimraf src/main.ts", "allow"],
  ]);
});

Deno.test("glob tools: copiers and linters read what their globs match", async () => {
  await checkActions(config, ctx, [
    ["cpy --dot '*' dist", "deny"],
    ["cpy 'secrets/*' dist", "deny"],
    ["cpy 'src/*' '.pi'", "ask"],
    ["cpy 'src/*.ts' dist", "allow"],
    ["markdownlint --dot --fix '**/*'", "deny"],
    ["markdownlint --fix 'secrets/*'", "deny"],
    ["markdownlint-cli2 --fix '**/*'", "deny"],
    ["markdownlint --fix '**/*.md'", "allow"],
    ["markdownlint-cli2 '**/*.md' '#node_modules'", "allow"],
    ["markdownlint-cli2 --fix 'docs/**/*.md'", "allow"],
  ]);
});

Deno.test("glob tools: which words each takes for globs", () => {
  const at = (cmd: string) => {
    const argv = cmd.split(" ").map(literal);
    return programNamed(cmd.split(" ")[0])!.globOperands!(argv)?.at ?? [];
  };
  assert.deepEqual(at("rimraf -G a/* -g b/*"), [2, 4]);
  assert.deepEqual(at("rimraf -g a/* -G b/*"), []);
  assert.deepEqual(at("cpy src/* dist/*"), [1]);
  assert.deepEqual(at("cpy --cwd src/* a/* out"), [3]);
  assert.deepEqual(at("markdownlint -c x/*.json docs/*.md"), [3]);
  assert.deepEqual(at("markdownlint-cli2 #x/* :y/* z/*"), [3]);
});

Deno.test("glob tools: globby's `(a|b)` is a group of alternatives, minimatch's a name", async () => {
  await checkActions(config, ctx, [
    // Hostile: fast-glob (globby) reads the group, dot files too.
    ["del '(.env|zz)'", "ask"],
    ["del '(secrets|x)/*'", "deny"],
    ["cpy '(.env|zz)' /tmp/out", "ask"],
    ["cpy 'sec(rets|x)/db.json' /tmp/out", "deny"],
    ["prettier --write '(.env|zz)'", "ask"],
    ["stylelint --fix '(.env|zz)'", "ask"],
    ["markdownlint-cli2 --fix '(.env|zz)'", "ask"],
    ["markdownlint-cli2 --fix '(secrets|docs)/*'", "deny"],
    // Everyday: groups of source files; minimatch's tools read a `(` as a letter.
    ["prettier --write 'src/*.(ts|js)'", "allow"],
    ["cpy 'src/(main|x).ts' dist", "allow"],
    ["cpy 'src/*' dist", "allow"],
    ["del 'dist/(a|b).js'", "allow"],
    ["rimraf '(.env|zz)'", "allow"],
    ["eslint --fix '(.env|zz)'", "allow"],
  ]);
  const at = (cmd: string) => {
    const argv = cmd.split(" ").map(literal);
    return programNamed(cmd.split(" ")[0])!.globOperands!(argv)?.at ?? [];
  };
  // (fast-glob's `isDynamicPattern`: a group with a `|`; `(a)` alone is a name.)
  assert.deepEqual(at("del (a|b) (c) x"), [1]);
  assert.deepEqual(at("rimraf (a|b)"), []);
});

Deno.test("glob tools: markdownlint-cli2's settings add globs it lints and fixes", async () => {
  const at = (files: Record<string, string>) =>
    ctxIn(P, {
      files: [`${P}/README.md`, `${P}/.env`, `${P}/secrets/db.json`, `${P}/docs/a.md`],
      contents: Object.fromEntries(Object.entries(files).map(([k, v]) => [`${P}/${k}`, v])),
      home: H,
    });
  const jsonc = '// fix these\n{"globs": ["secrets/*",], /* and */ "fix": true}';
  await checkActions(config, at({ ".markdownlint-cli2.jsonc": jsonc }), [
    ["markdownlint-cli2 README.md", "deny"],
    ["markdownlint-cli2 --no-globs README.md", "allow"],
  ]);
  await checkActions(config, at({ ".markdownlint-cli2.yaml": "globs:\n  - '.e*'\nfix: true\n" }), [
    ["markdownlint-cli2 README.md", "ask"],
  ]);
  await checkActions(config, at({ ".markdownlint-cli2.yaml": "globs: [docs/*.md, .env]\n" }), [
    ["markdownlint-cli2 README.md", "ask"],
  ]);
  const pkg = JSON.stringify({ name: "x", "markdownlint-cli2": { globs: ["secrets/**"] } });
  await checkActions(config, at({ "package.json": pkg }), [["markdownlint-cli2 '*.md'", "deny"]]);
  await checkActions(config, at({ "lint.jsonc": '{"globs":[".env"]}' }), [
    ["markdownlint-cli2 --config lint.jsonc README.md", "ask"],
    ["markdownlint-cli2 --config=lint.jsonc README.md", "ask"],
    ["markdownlint-cli2 README.md", "allow"],
  ]);
  // (Code, or a file not read: what it adds is not known.)
  await checkActions(config, at({ ".markdownlint-cli2.cjs": "module.exports = {}" }), [
    ["markdownlint-cli2 README.md", "deny"],
  ]);
  await checkActions(config, at({}), [
    ["markdownlint-cli2 --config <(echo '{}') README.md", "deny"],
    [
      'cat > .markdownlint-cli2.jsonc <<\'EOF\'\n{"globs":["secrets/*"]}\nEOF\nmarkdownlint-cli2 README.md',
      "deny",
    ],
    // Everyday.
    ["markdownlint-cli2 README.md 'docs/**/*.md'", "allow"],
  ]);
  const everyday = '{"config": {"MD013": false}, "globs": ["docs/**/*.md"], "fix": true}';
  await checkActions(config, at({ ".markdownlint-cli2.jsonc": everyday }), [
    ["markdownlint-cli2", "allow"],
  ]);
});

Deno.test("glob tools: cpy's sources are found below its --cwd", async () => {
  const sub = ctxIn(P, {
    files: [`${P}/src/main.ts`, `${P}/conf/.env`, `${P}/conf/app.json`, `${H}/.ssh/id_rsa`],
    home: H,
  });
  const everywhere = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "**/.env": "ask", "~/.ssh/**": "deny" },
  }, { home: H, agentDir: `${H}/.pi/agent` });
  await checkActions(everywhere, sub, [
    // Hostile: a plain name or a glob below DIR.
    ["cpy --cwd=conf .env /tmp/out", "ask"],
    ["cpy --cwd conf '.e*' /tmp/out", "ask"],
    ["cpy --cwd=conf '(.env|x)' /tmp/out", "ask"],
    [`cpy --cwd=${H}/.ssh id_rsa /tmp/out`, "deny"],
    [`cpy --cwd=${H} '.ss[h]/*' /tmp/out`, "deny"],
    ['cpy --cwd="$D" app.json /tmp/out', "ask"],
    // Everyday.
    // (Where DIR holds no protected file: the word `--cwd=DIR` names DIR itself too.)
    ["cpy --cwd=src main.ts /tmp/out", "allow"],
    ["cpy --cwd src '*.ts' /tmp/out", "allow"],
    ["cpy --cwd=src '*' /tmp/out", "allow"],
    ["cpy 'src/*.ts' /tmp/out", "allow"],
  ]);
});

Deno.test("glob tools: cpy's destination is found from its --cwd too", async () => {
  const sub = ctxIn(P, {
    files: [`${P}/src/main.ts`, `${H}/w/x.pub`, `${H}/w/evil.ts`, `${H}/.ssh/id_rsa`],
    home: H,
  });
  const everywhere = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "**/.env": "ask", "~/.ssh/**": "deny" },
  }, { home: H, agentDir: `${H}/.pi/agent` });
  await checkActions(everywhere, sub, [
    // Hostile: `../.ssh` from `~/w` is `~/.ssh`; `../.pi/agent/extensions` the gate's own.
    [`cpy --cwd=${H}/w x.pub ../.ssh`, "deny"],
    [`cpy --cwd ${H}/w x.pub ../.ssh/`, "deny"],
    [`cpy --cwd=${H}/w x.pub ../.ssh --flat`, "deny"],
    [`cpy --base cwd --cwd=${H}/w x.pub ../.ssh`, "deny"],
    [`cpy --cwd=${H}/w evil.ts ../.pi/agent/extensions`, "ask"],
    [`cpy --cwd=../w evil.ts ../.pi/agent/extensions`, "ask"],
    // (A destination bash expands first, or not known: below what is known of it, or anywhere.)
    [`cpy --cwd=${H}/w x.pub "$D"`, "ask"],
    [`cpy --cwd=${H}/w x.pub ../.ss*`, "ask"],
    ['cpy --cwd="$D" main.ts out', "ask"],
    // Everyday: the readme's `cpy . '../dist/' --cwd=src`, an absolute destination.
    ["cpy --cwd=src main.ts ../dist", "allow"],
    ["cpy . '../dist/' --cwd=src", "allow"],
    ["cpy --cwd=src main.ts /tmp/out", "allow"],
    ["cpy src/main.ts dist", "allow"],
  ]);
});
