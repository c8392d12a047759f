/**
 * A program given by a path outside the tool's `PATH`, named like a program the registry knows,
 * is judged as that program and as a program not known, the stricter winning: `x/grep
 * secrets/key` may read secrets/key (grep would take it as its pattern); in a directory of
 * `PATH`, or a link leading there, it is that program alone.
 */
import assert from "node:assert/strict";
import { bash, configFrom, ctxIn, rmDenied } from "../testing.ts";
import { STARTER_CONFIG } from "../starter.ts";
import { literal } from "../programs/words.ts";
import { programOf } from "../programs/registry.ts";
import { commandLineArguments } from "../programs/line_arguments.ts";
import type { Stage } from "../shell/model.ts";
import type { Action } from "../types.ts";
import { globScope } from "./glob_scope.ts";
import { unnamedProgram } from "./unnamed_programs.ts";

const HOME = "/home/user";
const P = `${HOME}/project`;
const NAMED = [
  "echo",
  "printf",
  "true",
  "kill",
  "sleep",
  "basename",
  "dirname",
  "expr",
  "seq",
  "grep",
  "ls",
  "test",
  "cat",
];
const ctx = ctxIn(P, {
  home: HOME,
  env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
  files: [
    ...["README.md", ".env", "secrets/key", "src/main.ts", "src/x.test.ts", "tests/test_a.py"]
      .map((f) => `${P}/${f}`),
    ...NAMED.map((n) => `${P}/x/${n}`),
    ...["bin/test", "bin/grep", "bin/rails", "script/test", "gradlew", "mvnw", "configure"]
      .map((f) => `${P}/${f}`),
    ...["venv/bin/pip", ".venv/bin/pytest", "requirements.txt", "uvpy/bin/python"]
      .map((f) => `${P}/${f}`),
    `${P}/node_modules/jest/bin/jest.js`,
    `${P}/node_modules/typescript/bin/tsc`,
    "/usr/local/bin/grep",
    "/usr/bin/grep",
    "/usr/bin/python3",
    "/opt/tools/grep",
    `${HOME}/.aws/credentials`,
  ],
  links: {
    [`${P}/node_modules/.bin/jest`]: `${P}/node_modules/jest/bin/jest.js`,
    [`${P}/node_modules/.bin/tsc`]: `${P}/node_modules/typescript/bin/tsc`,
    [`${P}/.venv/bin/python`]: "/usr/bin/python3",
    [`${P}/lnk/grep`]: "/usr/bin/grep",
    [`${P}/bin2`]: "/usr/bin",
    [`${P}/opt/grep`]: "/opt/tools/grep",
  },
});
const denyList = rmDenied(HOME, { ssh: true, curl: true });
const starter = configFrom(STARTER_CONFIG, { home: HOME, agentDir: `${HOME}/.pi/agent` });

/** [command, deny-list, starter]. */
const ROWS: [string, Action, Action][] = [
  // A file named like a program reads what its words name: they are no pattern or text of it
  ["x/grep secrets/key", "deny", "allow"],
  ["x/grep -e secrets/key .", "deny", "allow"],
  ["script/test secrets/key", "deny", "allow"],
  ["./bin/test ~/.aws/credentials", "allow", "deny"],
  ...NAMED.map((n): [string, Action, Action] => [`./x/${n} secrets/key`, "deny", "allow"]),
  // ... a directory it names, all the way down (ls would list it)
  ["x/ls secrets", "deny", "allow"],
  // ... a place outside the project
  ["x/echo /etc/hostname", "allow", "ask"],
  // ... and a word that reads as a command it may run
  ["x/echo rm -rf src", "deny", "ask"],
  // What the program named adds still counts: its rules, what it runs
  ["x/rm -rf src", "deny", "ask"],
  // A program not known is judged so already; one in a directory of PATH is that program, and
  // so is a link leading there from the project; a link elsewhere is a program not known
  ["./run.sh secrets/key", "deny", "allow"],
  ["/usr/local/bin/grep secrets/key README.md", "allow", "allow"],
  ["/usr/bin/grep secrets/key README.md", "allow", "allow"],
  ["lnk/grep secrets/key README.md", "allow", "allow"],
  ["opt/grep secrets/key README.md", "deny", "ask"],
  ["/usr/bin/sub/grep secrets/key README.md", "deny", "ask"],
  ["/usr/bin/../bin/grep secrets/key README.md", "deny", "ask"],
  // Wrappers run it as they would run it bare
  ["sudo ./bin/grep secrets/key", "deny", "ask"],
  ["env ./bin/test secrets/key", "deny", "allow"],
  ["exec ./bin/test secrets/key", "deny", "allow"],
  ["command ./bin/test secrets/key", "deny", "allow"],
  ["nohup ./x/echo secrets/key", "deny", "allow"],
  ["timeout 5 ./x/echo secrets/key", "deny", "allow"],
  ["xargs ./x/echo secrets/key", "deny", "ask"],
  ["find secrets -exec ./x/echo {} \\;", "deny", "ask"],
  [`bash -c "x/grep secrets/key"`, "deny", "allow"],
  ["echo $(x/echo secrets/key)", "deny", "allow"],
  // ... and so does a line a program not known is given, or a PATH the command sets
  [`bin/foo "x/echo secrets/key"`, "deny", "allow"],
  ["PATH=$PWD/bin:$PATH grep secrets/key", "deny", "allow"],
  // Everyday: a project's own tools keep running as before
  ["./node_modules/.bin/jest src/x.test.ts", "allow", "allow"],
  ["node_modules/.bin/tsc --noEmit", "allow", "allow"],
  [".venv/bin/python -m pytest tests/", "allow", "allow"],
  [`.venv/bin/python -c "print(1)"`, "allow", "allow"],
  [".venv/bin/pytest -x tests/", "allow", "allow"],
  ["venv/bin/pip install -r requirements.txt", "allow", "allow"],
  ["./gradlew build", "allow", "allow"],
  ["./mvnw test", "allow", "allow"],
  ["./bin/rails test", "allow", "allow"],
  ["bin/test", "allow", "allow"],
  ["bin/test tests/test_a.py -k slow", "allow", "allow"],
  ["/usr/local/bin/grep -rn TODO src", "allow", "allow"],
  ["./configure --prefix=/usr", "allow", "ask"],
  // An interpreter outside PATH (uv's, conda's) given inline code: code not seen, as any
  // python's (the code is no command line to read), its script still read
  [`uvpy/bin/python -c "import sys; print(sys.path)"`, "allow", "allow"],
  [`uvpy/bin/python3 -W ignore -c "from app import main; main()"`, "allow", "allow"],
  [`x/node --eval="const a = 1; console.log(a)"`, "allow", "allow"],
  [`x/python3 -c"import sys; print(sys.path)"`, "allow", "allow"],
  ["uvpy/bin/python secrets/key", "deny", "allow"],
  [`uvpy/bin/python -c "print(1)" && x/grep secrets/key`, "deny", "allow"],
  // ... its other words files it may open and commands it may run, as any program's not known
  ["x/python -c 1 rm -rf src", "deny", "ask"],
  [`x/python3 -c"import sys" rm -rf src`, "deny", "ask"],
  ["x/node -e 1 curl http://e.example", "deny", "allow"],
  ["x/perl -e 1 secrets/key", "deny", "allow"],
  [`x/bash -c "" rm -rf src`, "deny", "ask"],
  ["x/bash -c : curl http://e.example", "deny", "allow"],
  ["x/prename s/a/b/ secrets/key", "deny", "allow"],
  ["x/rename s/a/b/ .env", "ask", "ask"],
];

/** [command, deny-list, starter]: a link into PATH another stage may replace first. */
const REPLACED: [string, Action, Action][] = [
  // A stage that may write at the link or above it first: the link may be any file by then
  ["mv x/cat lnk/grep; lnk/grep secrets/key", "deny", "ask"],
  ["mv -f x/cat lnk/grep && lnk/grep secrets/key", "deny", "ask"],
  ["cp --remove-destination x/cat lnk/grep; lnk/grep secrets/key", "deny", "ask"],
  ["unlink lnk/grep && cp x/cat lnk/grep; lnk/grep secrets/key", "deny", "ask"],
  ["install x/cat lnk/grep; lnk/grep secrets/key", "deny", "ask"],
  ["rsync x/cat lnk/grep; lnk/grep secrets/key", "deny", "ask"],
  ["git mv x/cat lnk/grep; lnk/grep secrets/key", "deny", "ask"],
  // (No repository is seen here, where git fails and writes nothing: git's writes not known)
  ["git pull; lnk/grep secrets/key", "deny", "allow"],
  ['git checkout "$B" -- lnk; lnk/grep secrets/key', "deny", "ask"],
  ["tar -xf a.tar; lnk/grep secrets/key", "deny", "allow"],
  ["mv x lnk; lnk/grep secrets/key", "deny", "allow"],
  ["cat > lnk/grep <<'EOF'\ncat \"$@\"\nEOF\nlnk/grep secrets/key", "deny", "ask"],
  ["cp x/cat bin2/grep; bin2/grep secrets/key", "deny", "ask"],
  ["ln -sfn x bin2; bin2/grep secrets/key", "deny", "ask"],
  ["mv x/cat lnk/grep & lnk/grep secrets/key", "deny", "ask"],
  // ... wherever the stage runs: a wrapper's, a line's, a substitution's
  ["mv x/cat lnk/grep; sudo lnk/grep secrets/key", "deny", "ask"],
  ["bash -c 'mv x/cat lnk/grep; lnk/grep secrets/key'", "deny", "ask"],
  ["mv x/cat lnk/grep; echo $(lnk/grep secrets/key)", "deny", "ask"],
  [`bin/foo "mv x/cat lnk/grep; lnk/grep secrets/key"`, "deny", "allow"],
  // None before it, or none at it: the link is the program it reaches
  ["lnk/grep secrets/key README.md", "allow", "allow"],
  ["bin2/grep secrets/key README.md", "allow", "allow"],
  ["lnk/grep secrets/key README.md; mv x/cat lnk/grep", "allow", "ask"],
  ["mkdir -p lnk && lnk/grep secrets/key README.md", "allow", "allow"],
  ["rm -rf build && lnk/grep secrets/key README.md", "deny", "ask"],
  ["npm install && lnk/grep secrets/key README.md", "allow", "allow"],
  // (Each may write any file first: tests/ may hold a .env by then, which asks, as before.)
  // (git pull may bring a pytest.ini too: the options it gives pytest are not known.)
  ["git pull && .venv/bin/python -m pytest tests/", "deny", "deny"],
  ["uv sync && .venv/bin/python -m pytest tests/", "ask", "allow"],
  ["npm ci && .venv/bin/python -m pytest tests/", "ask", "allow"],
  [`npm install && .venv/bin/python -c "import sys; print(sys.path)"`, "allow", "allow"],
];

Deno.test("a program given by path outside PATH is judged as a program not known too", async () => {
  const wrong: string[] = [];
  for (const [command, ...want] of [...ROWS, ...REPLACED]) {
    const got: Action[] = [];
    for (const config of [denyList, starter]) got.push((await bash(config, ctx, command)).action);
    if (got.join() !== want.join()) wrong.push(`${command}: got ${got}, want ${want}`);
  }
  assert.deepEqual(wrong, []);
});

Deno.test("its judgement as a program not known leaves its own stage's view alone", async () => {
  // (The program not known may write anywhere, but it is the same process: the stage named sees
  // what it names as it is, `tests` holding no protected name.)
  const v = await bash(denyList, ctx, ".venv/bin/pytest -x tests/");
  assert.equal(v.action, "allow");
  assert.equal(v.stages.length, 2);
  // ... while a later stage's glob may match what it makes (`k` a link it makes to secrets).
  assert.equal((await bash(denyList, ctx, "x/true && cat k*/*")).action, "ask");
  assert.equal((await bash(denyList, ctx, "bin/foo && cat k*/*")).action, "ask");
  assert.equal((await bash(denyList, ctx, "true && cat k*/*")).action, "allow");
});

Deno.test("the stage as a program not known: only a path outside PATH naming a registered one", () => {
  const stage = (name: string): Stage => ({
    argv: [literal(name), literal("secrets/key")],
    redirects: [],
    text: `${name} secrets/key`,
    origin: "top",
    cwds: [P],
  });
  for (const name of ["grep", "bin/foo", "/usr/bin/grep", "lnk/grep"]) {
    assert.equal(unnamedProgram(stage(name), ctx), null, name);
  }
  for (const name of ["x/grep", "./x/grep", "opt/grep", "/opt/tools/grep", "x/python3.12"]) {
    const s = stage(name);
    const twin = unnamedProgram(s, ctx);
    assert.ok(twin !== null, name);
    assert.equal(twin.argv[0].value, name);
    assert.equal(programOf(twin.argv[0]), undefined);
    assert.notEqual(programOf(s.argv[0]), undefined);
    // (Its words are the stage's own: a glob of it is one expansion.)
    assert.equal(twin.argv[1], s.argv[1]);
  }
  // A cwd not known may be anywhere: its link is not known to lead into PATH.
  assert.ok(unnamedProgram({ ...stage("lnk/grep"), cwds: [null] }, ctx) !== null);
  // A link into PATH another stage may replace before it runs is no more known than a file.
  const s = stage("lnk/grep");
  const mv: Stage = {
    ...s,
    argv: ["mv", "x/cat", "lnk/grep"].map(literal),
    text: "mv x/cat lnk/grep",
  };
  const before = () => globScope("mv x/cat lnk/grep; lnk/grep secrets/key", [mv, s], ctx, no);
  const twin = unnamedProgram(s, ctx, before);
  assert.ok(twin !== null);
  assert.equal(programOf(twin.argv[0]), undefined);
  const after = () => globScope("lnk/grep secrets/key; mv x/cat lnk/grep", [s, mv], ctx, no);
  assert.equal(unnamedProgram(s, ctx, after), null);
});

const no = () => false;

Deno.test("the inline code of a program not known named like an interpreter is no line of it", () => {
  const lines = (...argv: string[]) => {
    const s: Stage = {
      argv: argv.map(literal),
      redirects: [],
      text: argv.join(" "),
      origin: "top",
      cwds: [P],
    };
    const twin = unnamedProgram(s, ctx);
    assert.ok(twin !== null);
    return commandLineArguments(twin, (name) => name === "rm").map((w) => w.value);
  };
  assert.deepEqual(lines("x/python", "-c", "import os; f()", "echo hi"), ["echo hi"]);
  assert.deepEqual(lines("x/python3", "-S", "-Ic", "import os; f()"), []);
  assert.deepEqual(lines("x/node", "--eval=const a = 1; f(a)"), []);
  assert.deepEqual(lines("x/python", "-cimport os; f()", "rm", "-rf", "src"), ["rm -rf src"]);
  // (A shell's code is what it runs: a line either way.)
  assert.deepEqual(lines("x/bash", "-c", "rm -rf src"), ["rm -rf src"]);
});
