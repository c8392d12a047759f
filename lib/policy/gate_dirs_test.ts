/**
 * A program that says nothing of the files it writes (the registry does not know it, or knows no
 * file facet of it) may write below a directory it names by names of its own: where that
 * directory is one the gate's files lie right below (`.pi`, pi's agent dir), naming it is asked
 * about, whether or not it exists yet. A directory above one (`.`) is not: the program would have
 * to name `.pi/…` itself, which is seen.
 *
 * A stage that may make a tree where none is yet (`cp -r /tmp/x .pi`, `git clone URL .pi`) is
 * judged for what may come to lie below it: the gate's files right below a `.pi` at any depth or
 * in pi's agent dir, and a user's path glob whose leading directory it names (`secrets` for
 * `secrets/**`), not a glob that would lie deeper (`dist/secrets/…`) nor a name glob (`.env`).
 */
import assert from "node:assert/strict";
import { checkGateTable } from "../testing_adversarial.ts";
import { bash, configFrom, ctxIn } from "../testing.ts";

const P = "/home/user/project";

Deno.test("gate dirs: a program with no file knowledge naming .pi may write pi's files", async () => {
  const ctx = ctxIn(P, {
    files: [`${P}/README.md`, `${P}/src/x.ts`, `${P}/.pi/settings.json`],
  });
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    [
      "esbuild cfg/settings.json --loader:.json=copy --outdir=.pi --allow-overwrite",
      "allow",
      "ask",
    ],
    ["esbuild x.ts --outdir=.pi --entry-names=extensions/[name]", "allow", "ask"],
    ["rollup x.js -d .pi --entryFileNames 'extensions/[name].ts'", "allow", "ask"],
    ["hg clone URL .pi", "allow", "ask"],
    ["degit x .pi", "allow", "ask"],
    ["rimraf .pi", "allow", "ask"],
    ["npx rimraf .pi", "allow", "ask"],
    ["somebuilder --out /home/user/.pi/agent", "allow", "ask"],
    ["cargo clean --target-dir .pi", "allow", "ask"],
    ["pytest --basetemp=.pi", "allow", "ask"],
    // ... and programs whose knowledge says so: python's venv and pytest, gh's clones
    ["python3 -m venv --clear .pi", "allow", "ask"],
    ["python3 -m pytest --basetemp=.pi", "allow", "ask"],
    ["python3 -m pytest --basetemp .pi", "allow", "ask"],
    ["gh repo clone owner/repo .pi", "allow", "ask"],
    ["gh gist clone 1234 .pi", "allow", "ask"],
    ["python3 -m venv .venv", "allow", "allow"],
    ["python3 -m pytest -q", "allow", "allow"],
    ["gh repo clone owner/repo", "allow", "allow"],
    // an interpreter hands its operands to the code it runs, whatever it is known to name
    ["python3 -m pip install -t .pi x", "allow", "ask"],
    ["python3 -m black .pi", "allow", "ask"],
    ["perl src/x.pl .pi", "allow", "ask"],
    ["deno run -A npm:rimraf .pi", "allow", "ask"],
    ["python3 src/x.py src", "allow", "allow"],
    ["deno run src/x.ts", "allow", "allow"],
    // an output directory however its option is spelled: case, dashes, shortened, glued
    ["pip install -t.pi x", "allow", "ask"],
    ["pip install --targ .pi x", "allow", "ask"],
    ["pip install --ta=.pi x", "allow", "ask"],
    ["tsc --outdir .pi", "allow", "ask"],
    ["vite build --out-dir .pi", "allow", "ask"],
    ["hugo -d.pi", "allow", "ask"],
    ["javac -d.pi X.java", "allow", "ask"],
    ["helm pull x --untar -d .pi", "allow", "ask"],
    ["go build -o .pi ./...", "allow", "ask"],
    ["tsc --outDir dist", "allow", "allow"],
    ["javac -deprecation X.java", "allow", "allow"],
    ["go build -o bin/app .", "allow", "allow"],
    // a value `TYPE:PATH` names PATH
    ["pytest --cov=src --cov-report=json:.pi/settings.json", "allow", "ask"],
    ["pytest --cov-report=json:/home/user/.pi/agent/settings.json", "allow", "ask"],
    ["pytest --cov-report=html:.pi/extensions", "allow", "ask"],
    // everyday: the project, its output directories, a read of .pi
    ["esbuild src/x.ts --bundle --outdir=dist", "allow", "allow"],
    // (prettier rewrites `.pi/settings.json` below `.`: rewritten_trees_test.ts.)
    ["prettier --write .", "allow", "ask"],
    ["prettier --write src", "allow", "allow"],
    ["rimraf dist", "allow", "allow"],
    ["somebuilder .", "allow", "allow"],
    ["ls .pi", "allow", "allow"],
    ["cat .pi/settings.json", "allow", "allow"],
    ["pytest --cov-report=xml:coverage.xml", "allow", "allow"],
  ]);
});

Deno.test("gate dirs: a tree made where no .pi is yet may bring pi's files", async () => {
  const ctx = ctxIn(P, {
    files: [`${P}/README.md`, `${P}/src/x.ts`, `${P}/w/.pi`],
    links: { [`${P}/d/.pi`]: `${P}/nowhere` },
  });
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    ["git clone https://x/r .pi", "allow", "ask"],
    ["git clone --depth 1 https://x/r ./.pi", "allow", "ask"],
    ["git worktree add .pi", "allow", "ask"],
    ["git submodule add https://x/r .pi", "allow", "ask"],
    ["cp -r /tmp/x .pi", "allow", "ask"],
    ["cp -a /tmp/x .pi", "allow", "ask"],
    ["cp -rT /tmp/x .pi", "allow", "ask"],
    ["cp -r /tmp/x/. .pi", "allow", "ask"],
    ["cp -r -t .pi /tmp/x", "allow", "ask"],
    ["cp -r --target-directory=.pi /tmp/x", "allow", "ask"],
    ["mv /tmp/x .pi", "allow", "ask"],
    ["ln -s /tmp/x .pi", "allow", "ask"],
    ["ln -sfn /tmp/x .pi", "allow", "ask"],
    ["unzip a.zip -d .pi", "allow", "ask"],
    ["tar -xf a.tar -C .pi", "allow", "ask"],
    ["tar -xf a.tar --directory=.pi", "allow", "ask"],
    ["7z x a.7z -o.pi", "allow", "ask"],
    ["rsync -a /tmp/x/ .pi", "allow", "ask"],
    ["scp -r host:x .pi", "allow", "ask"],
    ["wget -r -nH -P .pi http://x/", "allow", "ask"],
    ["esbuild --outdir=.pi x.ts", "allow", "ask"],
    ["esbuild x.ts --outdir .pi", "allow", "ask"],
    // at any depth, parents not there yet, after cd, in pi's agent dir
    ["cp -r /tmp/x a/b/.pi", "allow", "ask"],
    ["mkdir -p a/b && mv /tmp/x a/b/.pi", "allow", "ask"],
    ["cd src && cp -r /tmp/x .pi", "allow", "ask"],
    ["cp -r /tmp/x ~/.pi/agent", "allow", "ask"],
    ["cp -r /tmp/x ~/.pi", "allow", "ask"],
    ['cp -r /tmp/x "$HOME/.pi/agent"', "allow", "ask"],
    ["ln -s /tmp/x /home/user/.pi/agent", "allow", "ask"],
    // made first by another stage, filled after
    ["mkdir .pi && cp -r /tmp/x/* .pi/", "allow", "ask"],
    ["mkdir -p .pi/extensions && cp x .pi/extensions/", "allow", "ask"],
    // where a file or a dangling link is: replaced by the tree
    ["mv -T /tmp/x d/.pi", "allow", "ask"],
    ["cp -r /tmp/x d/.pi", "allow", "ask"],
    ["ln -sfn /tmp/x w/.pi", "allow", "ask"],
    ["cd w && ln -sf /tmp/x .pi", "allow", "ask"],
    // everyday: a new directory of any other name, an empty .pi, a read
    ["mkdir build", "allow", "allow"],
    ["mkdir .pi", "allow", "allow"],
    ["touch .pi", "allow", "allow"],
    ["cat .pi", "allow", "allow"],
    ["ls .pi", "allow", "allow"],
    ["cp -r src dist", "allow", "allow"],
    ["cp -r /tmp/x .pi2", "allow", "allow"],
    ["cp -r /tmp/x pi", "allow", "allow"],
    ["mv build dist", "allow", "allow"],
    ["git clone https://x/r", "allow", "allow"],
    ["git clone https://x/r newdir", "allow", "allow"],
    ["npm install", "allow", "allow"],
    ["tar xzf x.tgz -C out", "allow", "allow"],
    ["unzip a.zip -d out", "allow", "allow"],
    ["esbuild --outdir=dist x.ts", "allow", "allow"],
    ["mkdir -p build && cp -r src/* build/", "allow", "allow"],
  ]);
});

Deno.test("gate dirs: a tree made where a user's path glob would lie below it", async () => {
  const ctx = ctxIn(P, { files: [`${P}/README.md`, `${P}/src/x.ts`] });
  const protection = {
    "secrets/**": "deny",
    "config/master.key": "ask",
    ".env": "deny",
    "~/.aws/**": "deny",
  };
  const open = { policies: { o: { defaultAction: "allow", rules: [] } }, locations: { "/": "o" } };
  const anyDepth = configFrom({ ...open, pathProtection: protection });
  // (A project's entries lie in its root.)
  const based = configFrom({ ...open, pathProtection: protection }, { root: P });
  const rows: [string, string, string][] = [
    // [command, relative globs, the project's globs]
    ["cp -r /tmp/x secrets", "deny", "deny"],
    ["mv /tmp/x secrets", "deny", "deny"],
    ["git clone https://x/r secrets", "deny", "deny"],
    ["tar -xzf x.tgz -C secrets", "deny", "deny"],
    ["cp -r /tmp/x a/secrets", "deny", "allow"],
    ["cp -r /tmp/x config", "ask", "ask"],
    ["unzip a.zip -d config", "ask", "ask"],
    ["cp -r /tmp/x ~/.aws", "deny", "deny"],
    ["ln -s /tmp/x ~/.aws", "deny", "deny"],
    // a glob that cannot match below the new directory, a name glob, an empty directory
    ["cp -r /tmp/x dist", "allow", "allow"],
    ["cp -r /tmp/x secret", "allow", "allow"],
    ["cp -r /tmp/x configs", "allow", "allow"],
    ["git clone https://x/r app", "allow", "allow"],
    ["mkdir secrets", "allow", "allow"],
    ["mkdir config", "allow", "allow"],
  ];
  const wrong: string[] = [];
  for (const [command, relative, project] of rows) {
    const a = (await bash(anyDepth, ctx, command)).action;
    const b = (await bash(based, ctx, command)).action;
    if (a !== relative) wrong.push(`relative: ${command} got ${a}, want ${relative}`);
    if (b !== project) wrong.push(`project: ${command} got ${b}, want ${project}`);
  }
  assert.deepEqual(wrong, []);
});
