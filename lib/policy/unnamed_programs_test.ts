/**
 * A program given by a path outside the tool's `PATH`, named like a program the registry knows,
 * is judged as that program and as a program not known, the stricter winning: `x/grep
 * secrets/key` may read secrets/key (grep would take it as its pattern); in a directory of
 * `PATH`, or a link leading there, it is that program alone.
 */
import assert from "node:assert/strict";
import { bash, configFrom, ctxIn } from "../testing.ts";
import { STARTER_CONFIG } from "../starter.ts";
import { literal } from "../programs/words.ts";
import { programOf } from "../programs/registry.ts";
import type { Stage } from "../shell/model.ts";
import type { Action } from "../types.ts";
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
    [`${P}/opt/grep`]: "/opt/tools/grep",
  },
});
const denyList = configFrom({
  policies: {
    open: { defaultAction: "allow", rules: [{ action: "deny", tool: "bash", pattern: "rm *" }] },
  },
  locations: { "/": "open" },
  pathProtection: { ".env": "ask", "~/.ssh/**": "deny", "secrets/**": "deny" },
}, { home: HOME, agentDir: `${HOME}/.pi/agent` });
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
  // python's (its words are no command lines to read), its script still read
  [`uvpy/bin/python -c "import sys; print(sys.path)"`, "allow", "allow"],
  ["uvpy/bin/python secrets/key", "deny", "allow"],
  [`uvpy/bin/python -c "print(1)" && x/grep secrets/key`, "deny", "allow"],
];

Deno.test("a program given by path outside PATH is judged as a program not known too", async () => {
  const wrong: string[] = [];
  for (const [command, ...want] of ROWS) {
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
});
