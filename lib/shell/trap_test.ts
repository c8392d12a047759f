/** `trap`: its handler, and whether it may change the shell before a later command. */
import assert from "node:assert/strict";
import { staticWord } from "./model.ts";
import { handlerKeepsState, plainNames, trapRunsLater } from "./trap.ts";
import { bash, ctxIn } from "../testing.ts";
import { checkTable, denyList, gateFiles } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";

Deno.test("trap: a handler that only prints, exits, kills, waits or removes keeps the shell", () => {
  for (
    const text of [
      "echo failed",
      "exit 1",
      "echo interrupted; exit 130",
      'echo "Error on line $LINENO" >&2; exit 1',
      "kill $(jobs -p)",
      "kill $SERVER 2>/dev/null",
      'rm -f "$TMP" "${OUT}"; exit $?',
      "wait; echo done &>/dev/null || true",
      "printf '%s\\n' 'cd ~/.ssh' >&2",
      'echo "$(cd ~/.ssh)"',
    ]
  ) assert.ok(handlerKeepsState(text), text);
  for (
    const text of [
      "cd ~/.ssh",
      "echo x; pushd ~/.ssh",
      "echo x && cd ~/.ssh",
      "echo x\ncd ~/.ssh",
      "source ~/.x",
      ". ~/.x",
      'eval "$X"',
      "F=~/.ssh/id_rsa",
      "F=x echo",
      "echo ${F:=~/.ssh/id_rsa}",
      "echo $((F=1))",
      "echo $[F=1]",
      "printf -v F %s x",
      "wait -p F",
      "set -- ~/.ssh/id_rsa",
      "shopt -s dotglob",
      "read F",
      "declare F=x",
      "cleanup",
      "{ cd ~/.ssh; }",
      "(cd ~/.ssh)",
      "if true; then cd ~/.ssh; fi",
      "echo `cd ~/.ssh`",
      "echo \\; cd ~/.ssh",
      "$'cd' ~/.ssh",
      "$X",
      "cat <<E\nx\nE",
      "echo 'unclosed",
    ]
  ) assert.ok(!handlerKeepsState(text), text);
});

Deno.test("trap: such a handler runs later without changing what follows, where no name is redefined", () => {
  const argv = (...words: string[]) => words.map(staticWord);
  assert.equal(trapRunsLater(argv("trap", "echo failed", "ERR"), true), false);
  assert.equal(trapRunsLater(argv("trap", "echo failed", "ERR")), true);
  assert.equal(trapRunsLater(argv("trap", "cd /x", "INT"), true), true);
  assert.equal(trapRunsLater(argv("trap", "cd /x", "EXIT"), true), false);
  // (Under `shopt -s extdebug` a DEBUG handler that fails skips the command: `cd` too.)
  assert.equal(trapRunsLater(argv("trap", "false", "DEBUG"), true), true);
  assert.equal(trapRunsLater(argv("trap", "false", "INT", "debug"), true), true);
  assert.ok(plainNames("trap 'echo x' INT; ls"));
  assert.ok(!plainNames("echo() { cd ~/.ssh; }; trap 'echo x' INT"));
  assert.ok(!plainNames("function echo { cd ~/.ssh; }; trap 'echo x' INT"));
  assert.ok(!plainNames("alias echo='cd ~/.ssh'; trap 'echo x' INT"));
  assert.ok(!plainNames("enable -f x.so echo; trap 'echo x' INT"));
});

Deno.test("trap: verdicts of handlers that keep the shell, and of those that may not", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    // The handler moves, assigns, sources, or is a function or a name redefined: later commands
    // may run elsewhere or read other values.
    ["trap 'cd ~/.ssh' INT; cat id_rsa", "deny", "ask"],
    ["trap 'echo x; cd ~/.ssh' INT; cat id_rsa", "deny", "ask"],
    ["trap 'F=~/.ssh/id_rsa' ERR; F=README.md; false; cat \"$F\"", "deny", "ask"],
    ["trap 'echo ${F:=~/.ssh/id_rsa}' ERR; F=README.md; false; cat \"$F\"", "deny", "ask"],
    ["f() { cd ~/.ssh; }; trap f ERR; false; cat id_rsa", "deny", "ask"],
    ["echo() { cd ~/.ssh; }; trap 'echo x' INT; cat id_rsa", "deny", "ask"],
    ["alias echo='cd ~/.ssh'; trap 'echo x' INT; cat id_rsa", "deny", "ask"],
    ['trap "$H" INT; ls', "deny", "deny"],
    ["cd ~/.ssh; shopt -s extdebug; trap false DEBUG; cd /tmp; cat id_rsa", "deny", "deny"],
    ["trap 'source ~/.x' TERM; ls", "deny", "deny"],
    // An option not seen as written (`"-v"`, `-"v"`, `$V`) may assign: printf -v.
    ["X=notes.txt; trap 'printf \"-v\" X %s .env' ERR; false; cat $X", "deny", "ask"],
    ["X=notes.txt; trap 'printf -\"v\" X %s .env' ERR; false; cat $X", "deny", "ask"],
    ["V=-v; X=notes.txt; trap 'printf $V X %s .env' ERR; false; cat $X", "deny", "ask"],
  ]);
  const rows: [string, Action, Action][] = [
    // [command, deny-list, gate's own files]
    ["trap 'echo failed' ERR; ls src", "allow", "allow"],
    ['trap \'printf "Error on line %s\\n" "$LINENO" >&2\' ERR; ls src', "allow", "allow"],
    ["trap 'echo x' INT; wc -l src/main.ts", "allow", "allow"],
    ["trap 'exit 1' INT TERM; npm test", "allow", "allow"],
    [
      "trap 'echo \"Error on line $LINENO\" >&2; exit 1' ERR; npm run build; npm test",
      "allow",
      "allow",
    ],
    ["trap 'kill $(jobs -p)' EXIT INT TERM; npm run dev & sleep 2; npm test", "allow", "allow"],
    ["npm run dev & S=$!; trap 'kill $S 2>/dev/null' EXIT INT TERM; npm test", "allow", "allow"],
    ["trap 'echo stopped' INT; F=src/main.ts; cat \"$F\"", "allow", "allow"],
    // (The handler's own stages are judged as ever: what `rm` removes is not known.)
    ['trap \'rm -f "$T"\' INT; F=src/main.ts; cat "$F"', "deny", "ask"],
  ];
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/package.json", "/home/user/project/src/main.ts"],
  });
  const wrong: string[] = [];
  for (const [command, dl, g] of rows) {
    const a = (await bash(denyList, ctx, command)).action;
    const b = (await bash(gateFiles, ctx, command)).action;
    if (a !== dl) wrong.push(`deny-list: ${command} got ${a}, want ${dl}`);
    if (b !== g) wrong.push(`gate: ${command} got ${b}, want ${g}`);
  }
  assert.deepEqual(wrong, []);
});
