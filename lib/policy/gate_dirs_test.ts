/**
 * A program that says nothing of the files it writes (the registry does not know it, or knows no
 * file facet of it) may write below a directory it names by names of its own: where that
 * directory is one the gate's files lie right below (`.pi`, pi's agent dir), naming it is asked
 * about, whether or not it exists yet. A directory above one (`.`) is not: the program would have
 * to name `.pi/…` itself, which is seen.
 */
import { checkGateTable } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";

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
    ["prettier --write .", "allow", "allow"],
    ["rimraf dist", "allow", "allow"],
    ["somebuilder .", "allow", "allow"],
    ["ls .pi", "allow", "allow"],
    ["cat .pi/settings.json", "allow", "allow"],
    ["pytest --cov-report=xml:coverage.xml", "allow", "allow"],
  ]);
});
