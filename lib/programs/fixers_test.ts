import assert from "node:assert/strict";
import { programNamed } from "./registry.ts";
import type { ChangesGiven } from "./spec.ts";
import type { Word } from "../shell/model.ts";
import { literal, unknownWord } from "./words.ts";

const words = (command: string): Word[] => command.split(" ").map(literal);

/** What `command`'s program rewrites (`rewritesTrees`). */
function rewrites(command: string): "named" | "cwd" | null {
  const argv = words(command);
  return programNamed(argv[0].value)!.rewritesTrees!(argv);
}

/** Whether `command`'s program, given `/p`, may change `file`, with these settings files. */
function changes(command: string, file: string, settings: Record<string, string | null> = {}) {
  const argv = words(command);
  const given: ChangesGiven = {
    read: (path) => (path in settings ? settings[path] : ""),
    home: "/h",
  };
  return programNamed(argv[0].value)!.changesBelow!(argv, "/p", file, given);
}

Deno.test("fixers: each writes in its writing modes alone, the cwd where it names no place", () => {
  const table: [string, "named" | "cwd" | null][] = [
    ["deno fmt", "cwd"],
    ["deno fmt .", "named"],
    ["deno fmt --line-width 100", "cwd"],
    ["deno fmt --check", null],
    ["deno fmt --check=true src", null],
    ["deno --quiet fmt", "cwd"],
    ["deno lint --fix", "cwd"],
    ["deno lint --fix src", "named"],
    ["deno lint", null],
    ["deno test .", null],
    ["deno run -A x.ts .", null],
    ["eslint --fix", "cwd"],
    ["eslint --fix src", "named"],
    ["eslint --fix --cache src", "named"],
    ["eslint --fix-dry-run .", null],
    ["eslint .", null],
    ["biome check --write", "cwd"],
    ["biome format --write src", "named"],
    ["biome lint --apply .", "named"],
    ["biome check .", null],
    ["biome ci .", null],
    ["cargo fmt", "cwd"],
    ["cargo +nightly fmt --all", "cwd"],
    ["cargo --color never fmt", "cwd"],
    ["cargo fmt --check", null],
    ["cargo fmt -- --check", null],
    ["cargo fmt -- --emit stdout", null],
    ["cargo build", null],
    ["rustfmt a.rs", "named"],
    ["rustfmt --check a.rs", null],
    ["isort .", "named"],
    ["isort --diff .", null],
    ["isort -c .", null],
    ["autopep8 -i -r .", "named"],
    ["autopep8 -ir .", "named"],
    ["autopep8 --in-place --recursive .", "named"],
    ["autopep8 -i a.py", null],
    ["autopep8 -r -d .", null],
    ["shfmt -w .", "named"],
    ["shfmt -l -w .", "named"],
    ["shfmt -d .", null],
    ["stylelint --fix .", "named"],
    ["stylelint .", null],
    ["rubocop -a", "cwd"],
    ["rubocop -A lib", "named"],
    ["rubocop --autocorrect", "cwd"],
    ["rubocop -aD", "cwd"],
    ["rubocop", null],
    ["rubocop -c a.yml", null],
    ["terraform fmt", "cwd"],
    ["terraform fmt -recursive modules", "named"],
    ["terraform fmt -check", null],
    ["terraform fmt -write=false", null],
    ["terraform apply", null],
    ["dprint fmt", "cwd"],
    ["dprint fmt src/a.ts", "named"],
    ["dprint check", null],
    ["prettier --write .", "named"],
    ["prettier -w .", "named"],
    ["prettier --check .", null],
    ["black .", "named"],
    ["black --check .", null],
    ["gofmt -w .", "named"],
    ["gofmt -l .", null],
    ["ruff format", "cwd"],
    ["ruff format src", "named"],
    ["ruff format --check", null],
    ["ruff check --fix", "cwd"],
    ["ruff check --select E501 src", "named"],
    ["ruff check --no-fix .", null],
    ["ruff --config x.toml check", "cwd"],
    ["ruff clean", null],
  ];
  const wrong = table.filter(([c, want]) => rewrites(c) !== want).map(([c]) => c);
  assert.deepEqual(wrong, []);
  // (A word not known may be a writing option, and need not be a place.)
  const dynamic = [literal("prettier"), unknownWord("$MODE"), literal(".")];
  assert.equal(programNamed("prettier")!.rewritesTrees!(dynamic), "named");
  const deno = [literal("deno"), literal("fmt"), unknownWord("$DIR")];
  assert.equal(programNamed("deno")!.rewritesTrees!(deno), "cwd");
});

Deno.test("fixers: each changes the files of its languages, or any its settings may take", () => {
  const table: [string, string, boolean, Record<string, string | null>?][] = [
    ["deno fmt .", "/p/.pi/extensions/pi-controls.jsonc", true],
    ["deno fmt .", "/p/.pi/settings.json", true],
    ["deno fmt .", "/p/.npmrc", false],
    ["deno fmt .", "/p/node_modules/x/a.ts", false],
    ["deno fmt .", "/p/.pi/npm/x.txt", false],
    ["deno fmt --ext md .", "/p/x.txt", true],
    ["deno fmt .", "/p/x.txt", true, { "/p/deno.json": '{"fmt": {"include": ["**"]}}' }],
    ["deno fmt .", "/p/x.txt", true, { "/p/deno.jsonc": null }],
    ["deno fmt .", "/p/x.txt", false, { "/p/deno.json": '{"fmt": {"lineWidth": 100}}' }],
    ["deno lint --fix .", "/p/a.ts", true],
    ["deno lint --fix .", "/p/a.json", false],
    ["deno test .", "/p/.npmrc", true],
    ["eslint --fix .", "/p/a.js", true],
    ["eslint --fix .", "/p/a.jsonc", false],
    ["eslint --fix .", "/p/a.jsonc", true, { "/p/eslint.config.js": "export default [];" }],
    ["eslint --fix .", "/p/x/a.jsonc", true, { "/p/eslint.config.mjs": null }],
    ["eslint --fix .", "/p/a.jsonc", true, { "/p/package.json": '{"eslintConfig": {}}' }],
    ["eslint --fix .", "/p/a.jsonc", false, { "/p/package.json": '{"name": "x"}' }],
    ["eslint --fix --ext .jsonc .", "/p/a.jsonc", true],
    ["biome check --write .", "/p/a.jsonc", true],
    ["biome check --write .", "/p/.npmrc", false],
    ["biome check --write .", "/p/.npmrc", true, {
      "/p/biome.json": '{"files":{"includes":["**"]}}',
    }],
    ["cargo fmt", "/p/a.rs", true],
    ["cargo fmt", "/p/a.jsonc", false],
    ["cargo build", "/p/a.jsonc", true],
    ["isort .", "/p/a.pyx", true],
    ["isort .", "/p/a.md", false],
    ["isort .", "/p/a.md", true, { "/p/setup.cfg": "[isort]\nsupported_extensions = md\n" }],
    ["autopep8 -i -r .", "/p/src/a.py", true],
    ["autopep8 -i -r .", "/p/.pi/extensions/a.py", false],
    ["autopep8 -i -r .", "/p/bin/tool", true, { "/p/bin/tool": "#!/usr/bin/env python3\n" }],
    ["autopep8 -i -r .", "/p/bin/tool", false, { "/p/bin/tool": "#!/bin/sh\n" }],
    ["shfmt -w .", "/p/a.bash", true],
    ["shfmt -w .", "/p/run", true, { "/p/run": "#!/bin/bash\n" }],
    ["shfmt -w .", "/p/a.json", false],
    ["shfmt -w .", "/p/.git/hooks/pre-commit", false],
    ["stylelint --fix .", "/p/a.scss", true],
    ["stylelint --fix .", "/p/a.jsonc", false],
    ["stylelint --fix .", "/p/a.jsonc", true, { "/p/.stylelintrc.json": '{"extends": "x"}' }],
    ["stylelint --fix --custom-syntax x .", "/p/a.jsonc", true],
    ["rubocop -a", "/p/Gemfile", true],
    ["rubocop -a", "/p/a.rake", true],
    ["rubocop -a", "/p/a.jsonc", false],
    ["rubocop -a", "/p/a.jsonc", true, { "/p/.rubocop.yml": "AllCops:\n  Include: ['**/*']\n" }],
    ["rubocop -a", "/p/a.jsonc", true, { "/h/.rubocop.yml": "x: 1\n" }],
    ["terraform fmt", "/p/main.tf", true],
    ["terraform fmt", "/p/mod/main.tf", false],
    ["terraform fmt -recursive", "/p/mod/main.tf", true],
    ["terraform fmt -recursive", "/p/mod/x.json", false],
    ["dprint fmt", "/p/a.ts", false],
    ["dprint fmt", "/p/a.ts", true, {
      "/p/dprint.json": '{"plugins": ["https://plugins.dprint.dev/typescript-0.93.0.wasm"]}',
    }],
    ["dprint fmt", "/p/a.jsonc", false, {
      "/p/dprint.json": '{"plugins": ["https://plugins.dprint.dev/typescript-0.93.0.wasm"]}',
    }],
    ["dprint fmt", "/p/a.jsonc", true, {
      "/p/dprint.json": '{"plugins": ["https://plugins.dprint.dev/exec-0.5.0.json@abc"]}',
    }],
    ["dprint fmt", "/p/a.jsonc", true, { "/p/.dprint.json": null }],
    ["ruff format .", "/p/pyproject.toml", false],
    ["ruff check --fix .", "/p/pyproject.toml", true],
  ];
  const wrong = table.filter(([c, f, want, s]) => changes(c, f, s) !== want)
    .map(([c, f]) => `${c}: ${f}`);
  assert.deepEqual(wrong, []);
});
