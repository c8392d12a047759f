/**
 * A `PATH` the command sets: a name it finds in a directory the tool's `PATH` does not hold is
 * that file run (as if given by its path), one it finds nowhere new is the tool's program; a PATH
 * whose directories are not known (relative, another variable, set by `read` or arithmetic) is a
 * command not known, as before.
 */
import { denyList, gateFiles, readOnly } from "../testing_adversarial.ts";
import { bash, configFrom, ctxIn } from "../testing.ts";
import { STARTER_CONFIG } from "../starter.ts";
import type { Action } from "../types.ts";
import assert from "node:assert/strict";

const P = "/home/user/project";
const ctx = ctxIn(P, {
  env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
  files: [
    "/usr/bin/ls",
    "/usr/bin/cat",
    "/usr/bin/rm",
    "/usr/bin/git",
    "/usr/bin/python3",
    "/home/user/.local/bin/uv",
    `${P}/README.md`,
    `${P}/.env`,
    `${P}/src/main.ts`,
    `${P}/bin/ls`,
    `${P}/bin/echo`,
    `${P}/node_modules/typescript/bin/tsc`,
    `${P}/.venv/bin/pytest`,
    `${P}/tools/README`,
  ],
  links: {
    [`${P}/node_modules/.bin/tsc`]: `${P}/node_modules/typescript/bin/tsc`,
    [`${P}/.venv/bin/python`]: "/usr/bin/python3",
    [`${P}/bin/cat`]: "/usr/bin/rm",
  },
});
const starter = configFrom(STARTER_CONFIG, {
  agentDir: "/home/user/.pi/agent",
  home: "/home/user",
});

/** [command, read-only, deny-list, gate's own files, starter]. */
const ROWS: [string, Action, Action, Action, Action][] = [
  // Everyday: a project's tool directory first, a directory appended, PATH grown. (Under the
  // read-only policy every PATH set is denied: no `$safe-bash` stage sets one.)
  [`export PATH="$PWD/node_modules/.bin:$PATH" && tsc --noEmit`, "deny", "allow", "allow", "allow"],
  [`PATH="$PWD/node_modules/.bin:$PATH" tsc --noEmit`, "deny", "allow", "allow", "allow"],
  [`PATH=$PWD/.venv/bin:$PATH pytest -q`, "deny", "allow", "allow", "allow"],
  [`export PATH=$PATH:/usr/local/go/bin && git status`, "deny", "allow", "allow", "allow"],
  [`export PATH="$PATH:$HOME/.cargo/bin"; ls -la src`, "deny", "allow", "allow", "allow"],
  [`PATH+=:/opt/x/bin ls -la`, "deny", "allow", "allow", "allow"],
  [`PATH=/usr/bin:$PATH cat README.md`, "deny", "allow", "allow", "allow"],
  // (a builtin is never looked up: bin/echo does not run)
  [`export PATH=$PWD/bin:$PATH; echo hi`, "deny", "allow", "allow", "allow"],
  // A link there to a program the tool's PATH finds is that program (`.venv/bin/python`)
  [`.venv/bin/python -m pytest`, "deny", "allow", "allow", "allow"],
  [`export PATH=$PWD/.venv/bin:$PATH; python -m pytest`, "deny", "allow", "allow", "allow"],
  // A file outside the project runs as `~/.local/bin/uv --version` would
  [`export PATH="$HOME/.local/bin:$PATH"; uv --version`, "deny", "allow", "allow", "ask"],
  // A name found first in a new directory is that file: bin/ls is no ls, bin/cat is rm
  [`export PATH=$PWD/bin:$PATH; cat README.md`, "deny", "deny", "allow", "allow"],
  [`PATH=$PWD/bin:$PATH cat README.md`, "deny", "deny", "allow", "allow"],
  [`PATH=$PWD/bin:$PATH cat -rf src`, "deny", "deny", "allow", "ask"],
  [`PATH="$PWD/bin:$PATH" timeout 5 cat README.md`, "deny", "deny", "allow", "allow"],
  [`declare -x PATH=$PWD/bin:$PATH; cat README.md`, "deny", "deny", "allow", "allow"],
  // ... and any program there may be run by another by name (git's pager, xargs's command)
  [`export PATH=$PWD/bin:$PATH; ls`, "deny", "deny", "allow", "allow"],
  [`PATH=$PWD/bin:$PATH git log`, "deny", "deny", "allow", "allow"],
  // ... or one another stage of the command puts there
  [
    `export PATH=$PWD/tools:$PATH; ln -s /usr/bin/rm tools/ls; ls -rf src`,
    "deny",
    "deny",
    "allow",
    "ask",
  ],
  [
    `export PATH=$PWD/tools:$PATH; ln -s /usr/bin/rm tools/x; git log`,
    "deny",
    "deny",
    "allow",
    "ask",
  ],
  [`export PATH=$PWD/tools:$PATH; cp x tools/ls; ls`, "deny", "allow", "allow", "allow"],
  // A venv's activation script: run as a script is (read where it lies), and then bash looks
  // names up in its `bin` first; the cwd stays where it was.
  [`source .venv/bin/activate && pytest -q`, "deny", "allow", "allow", "allow"],
  [`. .venv/bin/activate && python -m pytest`, "deny", "allow", "allow", "allow"],
  [`source .venv/bin/activate; cat src/main.ts`, "deny", "allow", "allow", "allow"],
  [
    `if [ -d .venv ]; then source .venv/bin/activate; fi; pytest`,
    "deny",
    "allow",
    "allow",
    "allow",
  ],
  [`cd src && source ../.venv/bin/activate && cat main.ts`, "deny", "allow", "allow", "allow"],
  [`source /home/user/project/.venv//bin/activate && pytest`, "deny", "allow", "allow", "allow"],
  // ... whose bin holds what runs: `bin/cat` is rm, `bin/ls` a file there
  [`source bin/activate && cat README.md`, "deny", "deny", "allow", "allow"],
  [`source ./bin/activate; ls`, "deny", "deny", "allow", "allow"],
  [`source .venv/bin/activate && cat .env`, "deny", "deny", "allow", "ask"],
  [`source .venv/bin/activate; rm -rf src`, "deny", "deny", "allow", "ask"],
  // ... and any other file sourced, or one not known, runs what cannot be seen
  [`source scripts/env.sh && ls`, "deny", "deny", "ask", "deny"],
  [`source $VENV/bin/activate && ls`, "deny", "deny", "ask", "deny"],
  [`source "$(venv_dir)/bin/activate" && ls`, "deny", "deny", "ask", "deny"],
  // (What echo prints is known: the venv's script.)
  [`source "$(echo .venv)/bin/activate" && ls`, "deny", "allow", "allow", "allow"],
  [`source .venv/bin/activate.fish && ls`, "deny", "deny", "ask", "deny"],
  [`source .venv/bin/*activate && ls`, "deny", "deny", "ask", "deny"],
  [`source /dev/fd/3 3<.venv/bin/activate && ls`, "deny", "deny", "ask", "deny"],
  // PATHs not known: relative or empty entries, quoted or escaped `$PATH`, other variables,
  // PATH set by read or arithmetic, a value env may split, a PATH set after another
  [`PATH=.:$PATH ls`, "deny", "deny", "ask", "deny"],
  [`PATH=bin:$PATH ls`, "deny", "deny", "ask", "deny"],
  [`PATH=$PATH: ls`, "deny", "deny", "ask", "deny"],
  [`PATH='$PATH':/x ls`, "deny", "deny", "ask", "deny"],
  [`PATH=\\$PATH:/x ls`, "deny", "deny", "ask", "deny"],
  [`PATH=$X:$PATH ls`, "deny", "deny", "ask", "deny"],
  [`PATH="\${PATH#*:}" ls`, "deny", "deny", "ask", "deny"],
  [`export PATH=/x:$PATH; (( PATH=0 )); ls`, "deny", "deny", "ask", "deny"],
  [`PATH=/x:$PATH; read PATH; ls`, "deny", "deny", "ask", "deny"],
  [`PATH=/x:$PATH; PATH=. ls`, "deny", "deny", "ask", "deny"],
  [`env PATH=$PWD/bin:$PATH cat README.md`, "deny", "deny", "ask", "deny"],
  [`PATH=/opt/a; PATH=$PATH:$PWD/bin; ls`, "deny", "deny", "ask", "deny"],
];

Deno.test("a PATH the command sets: each name judged where it finds it", async () => {
  const wrong: string[] = [];
  for (const [command, ...want] of ROWS) {
    const got: Action[] = [];
    for (const config of [readOnly, denyList, gateFiles, starter]) {
      got.push((await bash(config, ctx, command)).action);
    }
    if (got.join() !== want.join()) wrong.push(`${command}: got ${got}, want ${want}`);
  }
  assert.deepEqual(wrong, []);
});

Deno.test("a PATH with `$PATH` is not followed where the tool's PATH is not known", async () => {
  const unknown = ctxIn(P, { files: [`${P}/README.md`] });
  const v = await bash(denyList, unknown, `PATH=/opt/x/bin:$PATH ls`);
  assert.equal(v.action, "deny");
});
