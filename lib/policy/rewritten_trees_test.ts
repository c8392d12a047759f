/**
 * A formatter or a linter's fixes rewrite the files of their languages below the trees they are
 * given, and below the cwd where they name none (`Program.rewritesTrees`, `changesBelow`): the
 * gate's own files of any depth there among them are asked about (`deno fmt .` rewrote
 * `.pi/extensions/pi-controls.jsonc`), where the program may change them: a file of its
 * languages, a directory (`.pi/extensions`) holding one. A mode that writes nothing (`--check`)
 * and a tree without the gate's files stay allowed. Judged on a real directory.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bash, configFrom, secretsDenied } from "../testing.ts";
import { STARTER_CONFIG } from "../starter.ts";
import { realFs } from "./fs_facts.ts";
import type { Action, Config, Context } from "../types.ts";

const HOME = "/home/user";
const AGENT = `${HOME}/.pi/agent`;

const CONFIGS: [string, Config][] = [
  ["starter", configFrom(STARTER_CONFIG, { home: HOME, agentDir: AGENT })],
  [
    "deny-list",
    secretsDenied(HOME, { agentDir: AGENT }),
  ],
];

/** A project in a new directory with these files (and their text). */
async function project(files: Record<string, string>): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-fmt-" }));
  for (const [name, text] of Object.entries(files)) {
    if (name.endsWith("/")) {
      await Deno.mkdir(join(dir, name), { recursive: true });
      continue;
    }
    await Deno.mkdir(join(dir, name, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, name), text);
  }
  return dir;
}

/**
 * Each command's verdict under every config (`[command, verdict]`, or `[command, starter's,
 * deny-list's]`), in `dir` (every wrong one listed).
 */
async function check(dir: string, rows: ([string, Action] | [string, Action, Action])[]) {
  const ctx: Context = { cwd: dir, home: HOME, env: { HOME, PATH: "/usr/bin:/bin" }, fs: realFs() };
  const wrong: string[] = [];
  for (const [n, [name, config]] of CONFIGS.entries()) {
    for (const [command, ...wants] of rows) {
      const want = wants[n] ?? wants[0];
      const got = (await bash(config, ctx, command)).action;
      if (got !== want) wrong.push(`${name}: ${command} got ${got}, want ${want}`);
    }
  }
  await Deno.remove(dir, { recursive: true });
  assert.deepEqual(wrong, []);
}

Deno.test("rewritten trees: a formatter over a tree holding the gate's config", async () => {
  const dir = await project({
    ".pi/extensions/pi-controls.jsonc": "{}\n",
    "src/a.ts": "export const a = 1;\n",
  });
  await check(dir, [
    // the tree it is given, the cwd where it names none, a place above, through a runner
    ["deno fmt .", "ask"],
    ["deno fmt", "ask"],
    ["deno fmt --quiet", "ask"],
    ["deno fmt --line-width 100", "ask"],
    ["deno fmt -- .", "ask"],
    ["deno fmt $DIR", "ask"],
    ["deno fmt src && deno fmt .", "ask"],
    ["cd src && deno fmt ..", "ask"],
    ["prettier --write .", "ask"],
    ["prettier -w .", "ask"],
    ["npx prettier --write .", "ask"],
    ["npx --yes prettier --write .", "ask"],
    // a package with a version, tag or range runs the same program (npx, npm exec, dlx, bunx)
    ["npx prettier@3 --write .", "ask"],
    ["npx -y prettier@latest --write .", "ask"],
    ["npx 'prettier@^3.1' -w .", "ask"],
    ["npm exec prettier@3 -- --write .", "ask"],
    ["npm x -y -- prettier@3.3.3 --write .", "ask"],
    ["pnpm dlx prettier@3 --write .", "ask"],
    ["pnpx prettier@3 --write .", "ask"],
    ["bunx prettier@3 --write .", "ask"],
    ["bun x prettier@3 --write .", "ask"],
    ["yarn dlx prettier@3 --write .", "ask"],
    ["npx --package=prettier@3 prettier --write .", "ask"],
    ["npx -p prettier@3 prettier@3 --write .", "ask"],
    ["npx fmt@npm:prettier@3 --write .", "ask"],
    ["npx @biomejs/biome@1 format --write .", "ask"],
    ["npx @biomejs/biome@latest check --write", "ask"],
    ["biome format --write .", "ask"],
    ["biome check --write", "ask"],
    ["biome lint --fix .", "ask"],
    // a place without the gate's files, a mode that writes nothing
    ["deno fmt src", "allow"],
    ["deno fmt src/a.ts", "allow"],
    ["deno fmt --check", "allow"],
    ["deno fmt --check .", "allow"],
    ["prettier --write src", "allow"],
    ["prettier --check .", "allow"],
    // (a package the runner fetches runs code of its own: what is protected below the tree it
    // is given counts where it is there, none here: landing_names_test.ts)
    ["npx prettier@3 --check .", "allow"],
    ["pnpm dlx prettier@3 --check .", "allow"],
    ["npx @biomejs/biome@1 check .", "allow"],
    ["npx eslint@8 --fix .", "allow"],
    ["uvx ruff@0.5 format .", "allow"],
    ["prettier -l .", "allow"],
    ["biome ci .", "allow"],
    ["biome check .", "allow"],
    ["deno test .", "allow"],
    ["deno lint .", "allow"],
    // programs that change no `.jsonc`
    ["deno lint --fix .", "allow"],
    ["black .", "allow"],
    ["ruff format .", "allow"],
    ["gofmt -w .", "allow"],
    ["cargo fmt", "allow"],
    ["shfmt -w .", "allow"],
    ["terraform fmt -recursive", "allow"],
    ["eslint --fix .", "allow"],
  ]);
});

Deno.test("rewritten trees: each program's files in .pi/extensions", async () => {
  const files: Record<string, string> = {};
  for (const e of ["py", "go", "rs", "ts", "js", "sh", "tf", "rb", "css"]) {
    files[`.pi/extensions/x.${e}`] = "x\n";
  }
  const dir = await project({ ...files, "src/a.py": "x = 1\n" });
  await check(dir, [
    ["black .", "ask"],
    ["ruff format .", "ask"],
    ["ruff check --fix .", "ask"],
    ["ruff check --fix", "ask"],
    ["gofmt -w .", "ask"],
    ["goimports -w .", "ask"],
    ["cargo fmt", "ask"],
    ["cargo +nightly fmt --all", "ask"],
    ["deno lint --fix", "ask"],
    ["eslint --fix .", "ask"],
    ["terraform fmt -recursive", "ask"],
    ["shfmt -w .", "ask"],
    ["shfmt -l -w .", "ask"],
    ["rubocop -a", "ask"],
    ["rubocop --autocorrect-all .", "ask"],
    ["isort .", "ask"],
    ["stylelint --fix .", "ask"],
    ["autopep8 -i -r .pi", "ask"],
    // what writes nothing, what does not walk into `.pi`
    ["black --check .", "allow"],
    ["black --diff .", "allow"],
    ["ruff format --check .", "allow"],
    ["ruff check --no-fix .", "allow"],
    ["gofmt -l .", "allow"],
    ["cargo fmt --check", "allow"],
    ["cargo fmt -- --check", "allow"],
    ["cargo build", "allow"],
    ["terraform fmt", "allow"],
    ["terraform fmt -check -recursive", "allow"],
    ["shfmt -d .", "allow"],
    ["rubocop", "allow"],
    ["rubocop -a src", "allow"],
    ["isort --check-only .", "allow"],
    ["isort --diff .", "allow"],
    ["eslint --fix-dry-run .", "allow"],
    ["stylelint .", "allow"],
    ["autopep8 -i -r .", "allow"],
    ["black src", "allow"],
  ]);
});

Deno.test("rewritten trees: settings that widen what it takes, read as they will be", async () => {
  const dir = await project({
    ".pi/extensions/notes.md": "x\n",
    "src/a.py": "x = 1\n",
    "sub/pyproject.toml": "[tool.black]\ninclude = '\\.md$'\n",
    "sub/.pi/extensions/notes.md": "x\n",
    "js/eslint.config.js": "export default [];\n",
    "js/.pi/extensions/notes.md": "x\n",
  });
  await check(dir, [
    ["black .", "allow"],
    ["gofmt -w .", "allow"],
    ["eslint --fix .", "allow"],
    // a settings file another stage writes first, one that widens, a configuration in code
    ["printf '[tool.black]\\ninclude = \"md\"\\n' > pyproject.toml && black .", "ask"],
    ["black sub", "ask"],
    ["cd sub && black .", "ask"],
    ["black --include '.*' .", "ask"],
    ["eslint --fix js", "ask"],
    ["cd js && eslint --fix", "ask"],
    ["deno fmt --ext md .", "ask"],
    ["deno fmt .", "ask"],
  ]);
});

Deno.test("rewritten trees: a directory in .pi/extensions may hold any file", async () => {
  const dir = await project({ ".pi/extensions/pkg/": "", "src/a.go": "package a\n" });
  await check(dir, [
    ["gofmt -w .", "ask"],
    ["gofmt -w src", "allow"],
  ]);
});

Deno.test("rewritten trees: everyday formatting where .pi holds none of a program's files", async () => {
  const settings = await project({ ".pi/settings.json": "{}\n", "src/a.py": "x = 1\n" });
  await check(settings, [
    ["black .", "allow"],
    // (the deny-list asks where a stage may write below a tree another reads, for `secrets/**`)
    ["ruff format . && ruff check --fix .", "allow", "ask"],
    ["isort . && black .", "allow", "ask"],
    ["prettier --write .", "ask"],
    ["deno fmt .", "ask"],
  ]);
  const plain = await project({ "src/a.ts": "export const a = 1;\n", "README.md": "x\n" });
  await check(plain, [
    ["deno fmt && deno lint && deno test", "allow"],
    ["deno fmt . && deno lint --fix .", "allow", "ask"],
    ["prettier --write .", "allow"],
    ["biome check --write .", "allow"],
    ["eslint --fix .", "allow"],
    ["dprint fmt", "allow"],
  ]);
});

Deno.test("rewritten trees: pi's agent dir below the tree a formatter is given", async () => {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-home-" }));
  const agent = join(home, ".pi/agent");
  await Deno.mkdir(join(agent, "extensions"), { recursive: true });
  await Deno.writeTextFile(join(agent, "extensions/pi-controls.jsonc"), "{}\n");
  await Deno.writeTextFile(join(agent, "settings.json"), "{}\n");
  await Deno.mkdir(join(home, "src"));
  const config = configFrom(
    { policies: { p: { defaultAction: "allow", rules: [] } }, locations: { "/": "p" } },
    { home, agentDir: agent },
  );
  const ctx: Context = { cwd: home, home, env: { HOME: home }, fs: realFs() };
  const rows: [string, Action][] = [
    ["deno fmt", "ask"],
    ["prettier --write ~", "ask"],
    ["cd /tmp && deno fmt ~/.pi", "ask"],
    ["biome format --write .pi/agent", "ask"],
    // (A tree given to a program that may write, above pi's agent dir, is asked about already.)
    ["deno fmt --check", "allow"],
    ["cd src && deno fmt", "allow"],
  ];
  const wrong: string[] = [];
  for (const [command, want] of rows) {
    const got = (await bash(config, ctx, command)).action;
    if (got !== want) wrong.push(`${command} got ${got}, want ${want}`);
  }
  await Deno.remove(home, { recursive: true });
  assert.deepEqual(wrong, []);
});
