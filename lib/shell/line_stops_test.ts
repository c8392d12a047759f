import assert from "node:assert/strict";
import { checkTable } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";
import { markedStages } from "./analyze_testing.ts";
import { arithmeticMayFail, LineStops } from "./line_stops.ts";

const env = { cwd: "/p", home: "/h", env: { HOME: "/h" }, carriesCommand: () => false };
const NONE = { get: () => undefined };
const N3 = {
  get: (n: string) => n === "N" ? { kind: "text", value: "3" } : undefined,
  lineMayStop: () => {},
  lineEnd: () => {},
};

Deno.test("line stops: what may end a line in bash", () => {
  const stops = (text: string, source = text) => new LineStops(source, false, N3).mayStop(text, N3);
  for (
    const text of [
      ": $((1/0))",
      "G=$((1/0)) F=x",
      "{ G=$[1%0] F=x; }",
      "echo $((2**-1))",
      "echo $((08))",
      "echo $((16#zz))",
      "echo $((x+1))", // (x may hold `1/0`)
      "echo $((N=1))",
      "echo $((N+1)); N=1/0", // (not a number where the statement starts and ends)
      "read N; echo $((N+1))",
      "echo $((1+)",
      ": ${x:?msg}",
      ": ${x?}",
      ": ${!x}",
      ": ${X:0:-5}",
      ": ${X:n}",
      ": ${a[@]:1:$k}",
      "a[-5]=x",
      "a[i]=x",
      "UID=1",
      "F=x; BASHOPTS+=:x",
    ]
  ) assert.ok(stops(text), text);
  for (
    const text of [
      "echo $((1+2))",
      "echo $((N + 1)) $(( ${#s} * 2 ))",
      "echo ${X:2:3} ${X: -1} ${X:1} ${X:-d} ${X:+y} ${X:=v}",
      "a[0]=x",
      "make -j$(nproc)",
      "((1/0))",
      'F=README.md; cat "$F"',
    ]
  ) assert.ok(!stops(text), text);
  // A name the command may make readonly: any assignment (`readonly`, `declare -r`, code not seen).
  assert.ok(stops("F=x", "readonly R=1; R=2\nF=x"));
  assert.ok(stops("F=x", "declare -a -r R\nF=x"));
  assert.ok(stops("F=x", 'eval "$c"\nF=x'));
  assert.ok(!stops("F=x", "declare -a R\nF=x"));
  // Under failglob, any statement (a glob may match nothing).
  assert.ok(stops("cat *.md", "shopt -s failglob\ncat *.md"));
  assert.ok(arithmeticMayFail("$((N+1))", NONE));
  // A function that may stop a line: a call may, so every statement may.
  assert.ok(new LineStops("f() { : $((1/0)); }\nf", true, N3).always);
  assert.ok(!new LineStops("f() { : $((1+2)); }\nf", true, N3).always);
});

Deno.test("line stops: what the rest of a stopped line assigns is not known on the next line", () => {
  const last = (command: string) => markedStages(command, env).at(-1);
  const unknown = (command: string) => assert.equal(last(command), "cat ?$F", command);
  unknown('F=a\n: $((1/0)); F=README.md\ncat "$F"');
  for (
    const line of [
      "G=$((1/0)); F=README.md",
      "declare G=$((1/0)) F=README.md",
      "export G=$((1/0)) F=README.md",
      "G=$((1/0)) F=README.md || true",
      "{ G=$((1/0)) F=README.md; }",
      "for i in $((1/0)); do :; done; F=README.md",
      "[[ $((1/0)) ]]; F=README.md",
      ": > $((1/0)); F=README.md",
      "case $((1/0)) in *) ;; esac; F=README.md",
      "printf %d $((1/0)); F=README.md",
      "readonly R=1; R=2; F=README.md",
      "readonly R=1; R+=2; F=README.md",
      "UID=1; F=README.md",
      "X=ab; : ${X:0:-5}; F=README.md",
      ": ${!x}; F=README.md",
      ": $((08)); F=README.md",
      ": $[1/0]; F=README.md",
      ": ${x:?msg}; F=README.md",
      "a[-5]=x; F=README.md",
      ": $((1/0)); F=README.md; \\\n: x",
      "f() { UID=1; }; f; F=README.md",
    ]
  ) unknown(`F=a\n${line}\ncat "$F"`);
  // Within the line, what ran before a command is as the walk has it; a line that cannot stop,
  // and the lines before the one that may, keep their values.
  assert.equal(last('F=a\n: $((1/0)); F=README.md; cat "$F"'), "cat README.md");
  assert.equal(last('N=3\necho $((N+1)); F=README.md\ncat "$F"'), "cat README.md");
  assert.equal(last('F=README.md\n: $((x/2)); G=b\ncat "$F"'), "cat README.md");
  assert.equal(last('F=a\n( : $((1/0)) ); F=README.md\ncat "$F"'), "cat README.md");
  assert.equal(last('F=a\n: $((1/0)) & F=README.md\ncat "$F"'), "cat README.md");
  assert.equal(last('F=a\n((1/0)); F=README.md\ncat "$F"'), "cat README.md");
});

Deno.test("line stops and printf's %n: hostile spellings are caught", async () => {
  // deno-fmt-ignore
  const rows: [string, Action, Action][] = [
    ['F=~/.ssh/id_rsa\n: $((1/0)); F=README.md\ncat "$F"', "deny", "ask"],
    ['F=~/.ssh/id_rsa\n{ G=$((1/0)) F=README.md; }\ncat "$F"', "ask", "ask"],
    ['F=~/.ssh/id_rsa\nreadonly R=1; R=2; F=README.md\ncat "$F"', "deny", "ask"],
    ['F=~/.ssh/id_rsa\nEUID=0; F=README.md\ncat "$F"', "ask", "ask"],
    ['F=~/.ssh/id_rsa\nX=a; : ${X:0:-5}; F=README.md\ncat "$F"', "deny", "ask"],
    ["cd ~/.ssh\n: $((1/0)); cd /home/user/project || exit\ncat id_rsa", "deny", "deny"],
    ['F=README.md; printf %s%n abc F; cat "$F"', "ask", "ask"],
    ['F=README.md; command printf %5n F; cat "$F"', "ask", "ask"],
    ['F=README.md; builtin printf -v X -- %s%ln ab F; cat "$F"', "deny", "ask"],
    ['F=README.md; printf "$fmt" F; cat "$F"', "ask", "ask"],
    // everyday: the value stays known where nothing may stop
    ['F=README.md; printf "%s\\n" "$F"; cat "$F"', "allow", "allow"],
    ['F=README.md\nN=3; echo $((N+1))\ncat "$F"', "allow", "allow"],
    // (read-only denies `: $((1/0))` itself)
    ['F=README.md\n: $((1/0)); cat "$F"', "deny", "allow"],
  ];
  await checkTable(rows);
});
