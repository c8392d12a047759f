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
