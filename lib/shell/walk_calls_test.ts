import assert from "node:assert/strict";
import { STARTER_CONFIG } from "../starter.ts";
import { checkEveryday, checkTable, gateFiles } from "../testing_adversarial.ts";
import { bash, configFrom, ctxIn } from "../testing.ts";
import type { Action } from "../types.ts";
import { markedStages } from "./analyze_testing.ts";

const env = { cwd: "/p", home: "/h", env: { HOME: "/h" }, carriesCommand: () => false };

/** The stages of a command as text (see `markedStages`). */
function stages(command: string): string[] {
  return markedStages(command, env);
}

Deno.test("calls: a body is walked at each call, its parameters the call's words", () => {
  assert.deepEqual(stages('f() { wc -l "$1"; }; f src/a.ts'), ["wc -l src/a.ts"]);
  assert.deepEqual(stages('f() { wc -l "$@"; }; f a b'), ["wc -l a b"]);
  assert.deepEqual(stages("f() { wc -l $@ $*; }; f a b"), ["wc -l a b a b"]);
  assert.deepEqual(stages('f() { echo "$*" "$2" "$3"; }; f a b'), ["echo a b b "]);
  assert.deepEqual(stages('f() { cat "$1"; }; f a; f b'), ["cat a", "cat b"]);
  assert.deepEqual(stages('f() { "$@"; }; f npm test'), ["npm test"]);
  assert.deepEqual(stages('f() { for x in "$@"; do :; done; }; f a'), [":"]);
  assert.deepEqual(stages('set -- a b; wc -l "$@"; cat "$2"'), [
    "set -- a b",
    "wc -l a b",
    "cat b",
  ]);
  // A glob's word stands for its matches in "$@"; after it, which word is which is not known.
  assert.deepEqual(stages('f() { cat "$@"; cat "$2"; }; f s/*.ts x'), [
    "f ~s/*.ts x",
    "cat ~s/*.ts x",
    "cat ?$2",
  ]);
  // The call keeps its redirects (as `:`) and, with an environment, its words.
  assert.deepEqual(stages('f() { cat "$1"; }; f a > out'), [":", "cat a"]);
  assert.deepEqual(stages('f() { cat "$1"; }; X=1 f a'), ["f a", "cat a"]);
  // A body that uses its words in ways not followed leaves the call as it was.
  assert.deepEqual(stages('f() { cat "${1:-x}"; }; f a'), ["f a", "cat ?${1:-x}"]);
});

Deno.test("calls: what changes the parameters leaves them unknown, in the body alone", () => {
  // bash saves the caller's parameters around a call.
  assert.deepEqual(stages('f() { set -- x; cat "$1"; }; set -- a; f; cat "$1"'), [
    "set -- a",
    "f",
    "set -- x",
    "cat ?$1",
    "cat a",
  ]);
  // (`"$@"` running `set`: then a command not known by name, and the command walked as before.)
  assert.deepEqual(stages('g() { "$@"; "$@"; }; g set -- rm x').slice(1), ["?$@", "?$@"]);
  // A later round of a loop sees what earlier ones shifted.
  assert.deepEqual(stages('f() { for i in 1 2; do cat "$1"; shift; done; }; f a b'), [
    "f a b",
    "cat a",
    "shift",
    "cat ?$1",
    "shift",
  ]);
  assert.deepEqual(stages('set -- a b; shift; cat "$1"'), ["set -- a b", "shift", "cat b"]);
  assert.deepEqual(stages('if t; then set -- a; fi; cat "$1"'), ["t", "set -- a", "cat ?$1"]);
  assert.deepEqual(stages('f() { cat "$1"; }; f "$(date)"'), ["date", "f ?$(date)", "cat ?$1"]);
});

Deno.test("calls: bodies not all run at calls the walk sees are walked alone, as before", () => {
  for (
    const c of [
      'f() { cat "$1"; }; eval "f x"',
      'f() { cat "$1"; }; f a; trap "f x" EXIT',
      'f() { cat "$1"; }; export -f f; bash -c "f x"',
      'f() { cat "$1"; }; set -a; f a',
      'f() { cat "$1"; }; $G a',
      'if t; then f() { cat "$1"; }; fi; f a',
      'f() { cat "$1"; f "$1"; }; f a', // (itself again)
      'command_not_found_handle() { cat "$1"; }; nothere a',
    ]
  ) {
    assert.ok(stages(c).includes("cat ?$1"), c);
  }
  // Called before its definition, a program of that name runs.
  assert.deepEqual(stages('f a; f() { cat "$1"; }'), ["f a", "cat ?$1"]);
  // Redefined: each call runs the body defined then.
  assert.deepEqual(stages('f() { cat "$1"; }; f a; f() { rm "$1"; }; f b'), ["cat a", "rm b"]);
  // A function named like a program is called (`command` runs the program).
  assert.deepEqual(stages('cat() { command cat "$1"; }; cat a'), ["command cat a"]);
  // Through a wrapper, a program of that name runs.
  assert.deepEqual(stages('f() { cat "$1"; }; xargs f; f a'), ["xargs f", "cat a"]);
});

/** The starter config and the gate alone in a project with pi's settings in it. */
const P = "/home/user/app";
const opts = { agentDir: "/home/user/.pi/agent", home: "/home/user" };
const starter = configFrom(STARTER_CONFIG, opts);
const gate = configFrom(
  { policies: { open: { defaultAction: "allow", rules: [] } }, locations: { "/": "open" } },
  opts,
);
const project = ctxIn(P, {
  files: ["src/index.ts", "src/app.tsx", "packages/web/package.json", ".pi/settings.json"]
    .map((f) => `${P}/${f}`).concat(["/home/user/.ssh/id_rsa"]),
  env: { PATH: "/usr/bin:/bin" },
});

Deno.test("calls: everyday helpers are judged by what their bodies run (starter, gate)", async () => {
  const rows: [string, Action, Action][] = [
    ['f() { wc -l "$1"; }; f src/index.ts', "allow", "allow"],
    ['lint() { npx eslint "$@"; }; lint src/index.ts src/app.tsx', "allow", "allow"],
    ['t() { npm test -- "$@"; }; t --run', "allow", "allow"],
    ['check() { npx tsc --noEmit -p "$1"; }; check packages/web', "allow", "allow"],
    ['check() {\n  npx tsc --noEmit -p "$1"\n}\ncheck packages/web\ncheck src', "allow", "allow"],
    ['run_tests() { (cd "$1" && npm test); }; run_tests packages/web', "allow", "allow"],
    [
      'retry() { for i in 1 2 3; do "$@" && return 0; sleep 1; done; return 1; }; retry npm test',
      "allow",
      "allow",
    ],
    ['set -- src/index.ts src/app.tsx; wc -l "$@"', "allow", "allow"],
    // hostile: as the rules say for what the body runs
    ['f() { "$@"; }; f rm -rf src', "ask", "allow"],
    ['f() { cat "$1"; }; f ~/.ssh/id_rsa', "deny", "allow"],
    ['f() { cp /tmp/x "$1"; }; f .pi/settings.json', "ask", "ask"],
    ['f() { wc -l "$1"; }; f "$(cat list.txt)"', "ask", "ask"],
    ['f() { cd "$1" && return; cd /; }; f ~/.ssh; cat id_rsa', "deny", "allow"],
  ];
  const wrong: string[] = [];
  for (const [command, s, g] of rows) {
    const got = [
      (await bash(starter, project, command)).action,
      (await bash(gate, project, command)).action,
    ];
    if (got[0] !== s || got[1] !== g) {
      wrong.push(`${JSON.stringify(command)}: ${got} want ${s},${g}`);
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("calls: parameters under the read-only policy and the deny-list", async () => {
  await checkEveryday([
    'f() { wc -l "$1"; }; f src/main.ts',
    'lint() { wc -l "$@"; }; lint src/main.ts README.md',
    'f() { cat "$*"; }; f src/main.ts',
    "f() { wc -l $@; }; f src/main.ts README.md",
  ]);
  await checkEveryday([
    'check() { npx tsc --noEmit -p "$1"; }; check src',
    'run_tests() { (cd "$1" && npm test); }; run_tests src',
    'retry() { for i in 1 2 3; do "$@" && return 0; sleep 1; done; return 1; }; retry npm test',
    'set -- src/main.ts README.md; wc -l "$@"',
  ], gateFiles);
  // [command, read-only, deny-list]: what really runs, however the call hides it
  await checkTable([
    ['f() { "$@"; }; f rm -rf src', "deny", "deny"],
    ['f() { cat "$1"; }; f ~/.ssh/id_rsa', "deny", "deny"],
    ['f() { cat "$1"; }; f innocent.txt', "deny", "deny"],
    ['f() { cp /tmp/x "$1"; }; f .env', "deny", "deny"],
    ['f() { wc -l "$1"; }; f "$(cat list.txt)"', "deny", "ask"],
    ['f() { "$@"; }; f "$X"', "deny", "deny"],
    ['g() { "$@"; "$@"; }; g set -- rm -rf src', "deny", "deny"],
    ['g() { "$@"; cat "$1"; }; g shift ~/.ssh/id_rsa', "deny", "deny"],
    [
      'f() { for i in 1 2; do cat "$1"; shift; done; }; f src/main.ts ~/.ssh/id_rsa',
      "deny",
      "deny",
    ],
    ['f() { cat "$2"; }; f src/*.ts ~/.ssh/id_rsa', "deny", "deny"],
    ['f() { cat "$@"; }; f src/*.ts ~/.ssh/id_rsa', "deny", "deny"],
    ['f() { f "$@"; }; f src/main.ts', "deny", "ask"],
    ["f() { cat \"$1\"; }; eval 'f ~/.ssh/id_rsa'", "deny", "deny"],
    ["f() { cat \"$1\"; }; f src/main.ts; trap 'f ~/.ssh/id_rsa' EXIT", "deny", "deny"],
    ["f() { cat \"$1\"; }; export -f f; bash -c 'f ~/.ssh/id_rsa'", "deny", "deny"],
    ['f() { cat "$1"; }; set -a; f src/main.ts', "deny", "ask"],
    ['f() { cat "$1"; }; xargs f < list.txt', "deny", "ask"],
    ['f() { cat "$1"; }; command f ~/.ssh/id_rsa', "deny", "deny"],
    ['f() { cat "$1"; }; env f ~/.ssh/id_rsa', "deny", "deny"],
    ['f() { cat "$0"; }; f src/main.ts', "deny", "ask"],
    ['f ~/.ssh/id_rsa; f() { cat "$1"; }', "deny", "deny"],
    ['if true; then f() { cat "$1"; }; fi; f ~/.ssh/id_rsa', "deny", "deny"],
    ['f() { cat "$1"; }; f() { rm -rf "$1"; }; f src', "deny", "deny"],
    ['f() { cd "$1"; }; f ~/.ssh; cat id_rsa', "deny", "deny"],
    ['f() { cd "$1" && return; cd /; }; f ~/.ssh; cat id_rsa', "deny", "deny"],
    ['f() { set -- ~/.ssh/id_rsa; }; set -- src/main.ts; f; cat "$1"', "deny", "deny"],
    ["trap 'set -- ~/.ssh/id_rsa' DEBUG; set -- src/main.ts; cat \"$1\"", "deny", "deny"],
    ['f() { cat "$1"; }; $F ~/.ssh/id_rsa', "deny", "deny"],
    ['command_not_found_handle() { cat "$1"; }; nothere ~/.ssh/id_rsa', "deny", "deny"],
    ['cat() { command cat "$1"; }; cat ~/.ssh/id_rsa', "deny", "deny"],
    ['f() { cat "${1:-x}"; }; f ~/.ssh/id_rsa', "deny", "deny"],
    ["f() { cat; }; f < ~/.ssh/id_rsa", "deny", "deny"],
    ["f() { sh; }; f <<< 'rm -rf src'", "deny", "deny"],
    ["f() { git log; }; PAGER='rm -rf src' f", "deny", "deny"],
    // A function unset runs the program of its name at the calls after it (or again in a loop).
    ["rm() { echo; }; unset -f rm; rm -rf src", "deny", "deny"],
    ["rm() { echo; }; unset rm; rm -rf src", "deny", "deny"],
    ["rm() { echo; }; builtin unset -f rm; rm -rf src", "deny", "deny"],
    ["rm() { echo; }; unset -f $F; rm -rf src", "deny", "deny"],
    ["rm() { echo; }; for i in 1 2; do rm -rf src; unset -f rm; done", "deny", "deny"],
    ["rm() { echo; }; f() { unset -f rm; }; f; rm -rf src", "deny", "deny"],
    // An unquoted parameter is split by IFS, which the command may set however spelled.
    ["f() { cat $1; }; IFS=,; f notes.txt,innocent.txt", "deny", "ask"],
    ["f() { cat $1; }; read $'I\\x46S' <<< ,; f notes.txt,innocent.txt", "deny", "ask"],
    ["f() { cat $1; }; declare $'I\\x46S=,'; f notes.txt,innocent.txt", "deny", "ask"],
    ["f() { cat $1; }; for IFS in ,; do :; done; f notes.txt,innocent.txt", "deny", "ask"],
    ["f() { $1; }; IFS=,; f rm,-rf,src", "deny", "deny"],
    ["f() { cat $@; }; IFS=,; f notes.txt,innocent.txt", "deny", "ask"],
    // bash's name of a function runs to a blank or `(`: `rm{a}` is no `rm`.
    ["function rm{a} { :; }; rm -rf src", "deny", "deny"],
    ["function cat{x} { :; }; cat innocent.txt", "deny", "deny"],
    // A definition's redirects are opened at each call, where it runs, with its parameters.
    ['set -- notes.txt; f() { cat; } < "$1"; f innocent.txt', "deny", "deny"],
    ["f() { cat; } < id_rsa; cd keys; f", "deny", "deny"],
    ['f() { cat; } < "$1"; f innocent.txt', "deny", "deny"],
    // A group whose redirect fails runs nothing: its definitions and values are not sure.
    ["{ rm() { :; }; } < /nonexistent; rm -rf src", "deny", "deny"],
    ["{ cat() { :; }; } > /nonexistent/x; cat innocent.txt", "deny", "deny"],
    ['x=innocent.txt; { x=notes.txt; } </nonexistent; cat "$x"', "ask", "ask"],
    ["{ cd src; } < /nonexistent; cat innocent.txt", "deny", "deny"],
  ]);
});
