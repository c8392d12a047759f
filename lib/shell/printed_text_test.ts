import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { printedText } from "./printed_text.ts";
import { markedStages } from "./analyze_testing.ts";

/** Commands of literal words, each printed by bash and computed by printedText. */
// deno-fmt-ignore
const TABLE: ["echo" | "printf", string[]][] = [
  ["echo", ["secrets/key"]], ["echo", ["-n", "secrets"]], ["echo", ["-e", "a"]], ["echo", ["-E", "a\\nb"]],
  ["echo", ["-ne", "x"]], ["echo", ["-nx", "y"]], ["echo", ["--", "a"]], ["echo", []], ["echo", ["-n"]],
  ["echo", ["a\\tb"]], ["echo", ["-e", "-n", "q"]], ["echo", ["a", "-n"]],
  ["printf", ["secrets"]], ["printf", ["%s/%s", "secrets", "key"]], ["printf", ["%s\\n", "a", "b"]],
  ["printf", ["%s"]], ["printf", ["%d", "12"]], ["printf", ["%05d", "-12"]], ["printf", ["%-5s|", "ab"]],
  ["printf", ["%5s|", "ab"]], ["printf", ["%.2s", "abc"]], ["printf", ["%b", "a/b"]], ["printf", ["%q", "a.b/c"]],
  ["printf", ["%q", ""]], ["printf", ["%%%s", "x"]], ["printf", ["a\\tb\\\\c"]], ["printf", ["\\101\\x42"]],
  ["printf", ["%s-%s", "a"]], ["printf", ["%d%d", "1", "2", "3"]], ["printf", ["x", "y"]], ["printf", ["--", "%s", "z"]],
  ["printf", ["%i", "+7"]], ["printf", ["%d", "010"]], ["printf", ["%x", "10"]], ["printf", ["\\q"]],
  ["printf", ["%s\\c", "a"]], ["printf", ["%d", "x"]], ["printf", ["%q", "~a"]], ["printf", ["%q", "a,b"]],
  ["printf", ["%s", "a\\nb"]], ["printf", ["\\0"]], ["printf", ["%3d|%-3d|", "5", "6"]],
  // (`0` pads numbers with zeros, text with spaces; `-` wins over `0`.)
  ["printf", ["%05s|", "ab"]], ["printf", ["%-05s|", "ab"]], ["printf", ["%05b|", "ab"]], ["printf", ["%05q|", "ab"]],
  ["printf", ["%-05d|", "3"]], ["printf", ["%05i|", "-3"]], ["printf", ["%05.1s|", "ab"]], ["printf", [".env%02s", "1"]],
];

Deno.test("printed_text: echo and printf of literal words print what bash prints", () => {
  let compared = 0;
  for (const [program, args] of TABLE) {
    const ours = printedText(program, args);
    if (ours === null) continue;
    const bash = execFileSync("bash", ["-c", `${program} "$@"`, "bash", ...args], { env: {} })
      .toString();
    assert.equal(ours, bash, `${program} ${JSON.stringify(args)}`);
    compared++;
  }
  assert.ok(compared > 30, `${compared}`);
});

Deno.test("printed_text: what is not known", () => {
  assert.equal(printedText("printf", ["%x", "10"]), null);
  assert.equal(printedText("printf", ["%d", "010"]), null); // (octal to bash)
  assert.equal(printedText("printf", ["%s\\c", "a"]), null);
  assert.equal(printedText("printf", ["-v", "x", "a"]), null);
  assert.equal(printedText("echo", ["-e", "a\\nb"]), null);
  // (Without -E, xpg_echo may decode a backslash: `shopt -s xpg_echo` however spelled.)
  assert.equal(printedText("echo", ["se\\0143rets"]), null);
  assert.equal(printedText("echo", ["-E", "a\\tb"]), "a\\tb\n");
  assert.equal(printedText("printf", ["\\0"]), null);
});

const env = { cwd: "/p", home: "/h", env: { HOME: "/h" }, carriesCommand: () => false };

Deno.test("printed_text: a substitution of echo or printf is its output", () => {
  const cat = (c: string) => markedStages(c, env).find((s) => s.startsWith("cat"));
  assert.equal(cat("cat $(printf secrets)/key"), "cat secrets/key");
  assert.equal(cat("cat `echo secrets`/key"), "cat secrets/key");
  assert.equal(cat("cat $(echo secrets/key)"), "cat secrets/key");
  assert.equal(cat("cat $(printf '%s/%s' secrets key)"), "cat secrets/key");
  assert.equal(cat('cat "$(printf "%s\\n\\n" "a b")"'), "cat a b");
  // `printf -v NAME` assigns what it would print.
  assert.equal(cat("printf -v f %s secrets/key; cat $f"), "cat secrets/key");
  assert.equal(cat('printf -v f -- "%s/%s" secrets key; cat "$f"'), "cat secrets/key");
  assert.match(cat("printf -v f %s $(g); cat $f")!, /\?/);
  // Not known: a function of the name, a builtin loaded, split words, a word not known.
  for (
    const c of [
      "echo() { :; }; cat $(echo secrets/key)",
      "enable -f ./x.so echo; cat `echo secrets`/key",
      "cat $(echo a b)",
      "cat $(printf %s $(f))",
      "cat $(echo -e 'a\\tb')",
    ]
  ) {
    assert.match(cat(c)!, /\?/, c);
  }
});
