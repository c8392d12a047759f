/**
 * Programs that expand their own quoted glob operands (prettier, eslint, stylelint, dprint,
 * deno's fmt/lint/test): each such word is judged as the glob it is, by the program's rules, its
 * matches where they can be listed (dot files too where the program takes them), else below its
 * literal prefix; a formatter's rewrite applies to what the glob reaches.
 */
import assert from "node:assert/strict";
import { checkActions, ctxIn, rmDenied } from "../testing.ts";
import { literal } from "../programs/words.ts";
import { ownGlobs } from "./own_globs.ts";
import type { Stage } from "../shell/model.ts";

const H = "/home/user";
const P = `${H}/proj`;
const ctx = ctxIn(P, {
  files: [
    `${P}/src/main.ts`,
    `${P}/src/app.css`,
    `${P}/README.md`,
    `${P}/package.json`,
    `${P}/.env`,
    `${P}/secrets/db.json`,
    `${P}/.pi/extensions/pi-controls.jsonc`,
    `${P}/.pi/settings.json`,
    `${H}/.pi/agent/extensions/pi-controls.jsonc`,
    `${H}/.ssh/id_rsa`,
  ],
  home: H,
});
const config = rmDenied(H, { ssh: true });

Deno.test("own globs: a quoted glob a program expands reaches what it matches, dot files too", async () => {
  await checkActions(config, ctx, [
    // Hostile: what the glob matches is protected.
    ["prettier '**/*.json'", "deny"],
    ["prettier --write '**/*.json'", "deny"],
    ["prettier --write '.pi/*'", "ask"],
    ["prettier --write '.pi/**'", "ask"],
    ["prettier --write '{src,.pi}/**'", "ask"],
    ["prettier -w '@(src|.pi)/*'", "ask"],
    ["prettier --write '**/*.jsonc'", "ask"],
    ["npx prettier -w '**/*.jsonc'", "ask"],
    [`prettier --write '${H}/.pi/**'`, "ask"],
    [`prettier '${H}/.ss[h]/*'`, "deny"],
    ["prettier --check 'secret?/*'", "deny"],
    ["prettier -- '**/*.json'", "deny"],
    ["eslint '**/*.json'", "deny"],
    ["eslint --fix '.pi/**'", "ask"],
    ["dprint fmt '**/*.jsonc'", "ask"],
    ["deno fmt '.pi/*'", "ask"],
    ["deno lint '**/*.json'", "deny"],
    ["cd .pi && prettier --write '*'", "ask"],
    ["cd src && prettier --write '../.pi/*'", "ask"],
    ["touch .pi/new.json && prettier --write '.pi/*.json'", "ask"],
    ["bash -c \"prettier --write '.pi/*'\"", "ask"],
    ["stylelint --fix --globby-options '{\"dot\":true}' '**/*.jsonc'", "ask"],
    // Everyday: globs over the sources.
    ["prettier --write 'src/**/*.ts'", "allow"],
    ["prettier --check '**/*.{ts,css,md}'", "allow"],
    ["prettier --write '*.md'", "allow"],
    ["npx prettier --write 'src/**/*.{ts,tsx}'", "allow"],
    ["eslint 'src/**/*.ts'", "allow"],
    ["eslint --fix 'src/**' --rule 'quotes: [2, double]'", "allow"],
    ["stylelint --fix '**/*.css'", "allow"],
    ["deno fmt 'src/**/*.ts'", "allow"],
    ["deno test 'src/**'", "allow"],
    // deno's `*` takes no dot directory (real deno 2: `.pi` left alone).
    ["deno fmt '**/*.jsonc'", "allow"],
    ["dprint fmt 'src/**'", "allow"],
  ]);
});

Deno.test("own globs: the words, their brace alternatives and the program's rules", () => {
  const of = (...words: string[]) => ownGlobs({ argv: words.map(literal) } as Stage);
  const globs = of("prettier", "-w", "{src,.pi}/**", "--ignore-path", "x*", "README.md");
  assert.deepEqual([...globs!.words.keys()], [2]);
  assert.deepEqual(globs!.words.get(2)!.map((w) => [w.pattern, w.prefix]), [
    ["src/**", "src/"],
    [".pi/**", ".pi/"],
  ]);
  assert.equal(globs!.options.dotglob, true);
  assert.equal(of("deno", "fmt", "**/*.md")!.options.dotglob, false);
  // (An exclusion names nothing; a program that expands nothing itself has none.)
  assert.equal(of("prettier", "!secrets/**"), null);
  assert.equal(of("cat", "**/*.json"), null);
  assert.equal(of("deno", "run", "x*.ts"), null);
  // (A word past the brace bounds: below the text before its braces.)
  const many = of("eslint", "src/{1..99}{a,b}/x")!.words.get(1)!;
  assert.deepEqual(many.map((w) => [w.value, w.pattern]), [["src/*", undefined]]);
});

Deno.test("own globs: a `\\` is an escape or a `/` as the program takes it", async () => {
  await checkActions(config, ctx, [
    // deno (2.9) and dprint (0.54) take it for a `/`: these rewrite .pi/settings.json.
    ["deno fmt '.pi\\*.json'", "ask"],
    ["deno fmt '.pi\\/*.json'", "ask"],
    ["deno fmt '\\.pi/*.json'", "ask"], // (joined to the cwd first: `./.pi/*.json`)
    ["deno fmt '.pi/\\*.json'", "ask"],
    ["deno lint --fix '.pi\\**'", "ask"],
    ["deno fmt 'secrets\\*'", "deny"],
    ["dprint fmt '.pi\\*.json'", "ask"],
    ["dprint check 'secrets\\*.json'", "deny"],
    // prettier's fast-glob, eslint's minimatch and stylelint's globby take it for an escape:
    // `\*` is a literal `*`, `\.` a `.` (eslint 9 matches nothing with one).
    ["prettier --write '\\.pi/*.json'", "ask"],
    ["prettier --write 'secret\\s/*'", "deny"],
    ["eslint --fix '\\.pi/*.json'", "ask"],
    // Everyday.
    ["deno fmt 'src\\*.ts'", "allow"],
    ["prettier --write '.pi\\*.json'", "allow"],
    ["prettier --write '.pi/\\*.json'", "allow"],
    ["eslint --fix '.pi\\*.json'", "allow"],
    ["stylelint --fix 'src\\*.css'", "allow"],
  ]);
  const of = (...words: string[]) => ownGlobs({ argv: words.map(literal) } as Stage);
  const patterns = (...words: string[]) =>
    [...of(...words)!.words.values()].flat().map((w) => w.pattern);
  assert.deepEqual(patterns("deno", "fmt", "\\.pi\\*.json", "/x\\*"), [".pi/*.json", "/x/*"]);
  assert.deepEqual(patterns("dprint", "fmt", "\\.pi\\*.json"), ["/.pi/*.json"]);
  assert.deepEqual(patterns("prettier", "\\.pi\\*.json"), ["\\.pi\\*.json"]);
});
