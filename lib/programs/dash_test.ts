/** Text sh (dash) runs: read as bash only where both read it alike (lib/programs/dash.ts). */
import assert from "node:assert/strict";
import { checkTable } from "../testing_adversarial.ts";
import { dashReadings, dashReadsAsBash } from "./dash.ts";

/** What `SHELL -c TEXT` prints (stdout and stderr) in a directory of its own, with `a`, `b`. */
function output(shell: string, text: string, dir: string): string {
  const out = new Deno.Command(shell, {
    args: ["-c", text, "zero"],
    cwd: dir,
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin", LC_ALL: "C" },
    stdin: "null",
  }).outputSync();
  const d = new TextDecoder();
  // (The shells name themselves in their errors: only whether there was one is compared.)
  return d.decode(out.stdout) + (d.decode(out.stderr) ? "(error)" : "") + out.code;
}

/** Each construct dash reads otherwise than bash: the two print differently. */
// deno-fmt-ignore
const OTHER = [
  "cat $'\\' a #'", "printf '[%s]' $\"a\"", "printf '[%s]' {a,b}", "printf '[%s]' {1..2}",
  "[[ -f a ]] && echo y", "((echo a))", "diff <(echo a) b", "echo a |& cat",
  "case x in x) echo 1;& y) echo 2;; esac", "cat <<< a", "function f { echo f; }; f",
  "a=(1 2); echo ${a[1]}", "x=ab; echo ${x/a/c}", "x=abc; echo ${x:1:1}", "x=ab; echo ${x^^}",
  "x=AB; echo ${x,,}", "x=a; y=x; echo ${!y}", "[ a == a ] && echo y", "shopt -s extglob; echo y",
  "read -n 1 v <<EOF\nab\nEOF\necho $v", "echo '.en\\0166' | cat", "echo -e 'a\\tb' | cat",
  "printf '%s' \"$(echo 'x\\ty')\"", "a[1]=x; echo ${a[1]}", "echo $[1+2]", "echo \"$[1+2]\"",
  // Quoted, yet read otherwise: a brace expansion after (or around) a quoted part, a quote dash
  // closes elsewhere, a backslash-newline (gone before a word is read), code in `$(…)` and `${…}`
  // within double quotes, what commands see of their quoted words, a comment's quote.
  "echo \"x\"{a,b}", "echo 'x'{a,b}", "echo {a,\"b c\"}", "echo \"$\"{a,b}", "echo \\${a,b}",
  "echo \"a\" $'b'", "echo 'a' $\"b\"", "echo \"a\\\\\" {a,b}", "echo $$$'x' | tr -d 0-9",
  "echo a\\\n{a,b}", "echo a\\\n#{x,y}", "[\\\n[ -f a ]] && echo y", "echo '[['; [[ -f a ]] && echo y",
  "echo \"[[\" && [[ -f a ]] && echo y", "echo \"$(echo {a,b})\"", "x=ab; echo \"${x/a/c}\"",
  "[ a \"==\" a ] && echo y", "[ a \\== a ] && echo y", "\"read\" -n 1 v </dev/null; echo $?",
  "echo \"a|b\\tc\" | cat", "echo \"a b\\tc\" | cat", "echo a #it's\necho {x,y}",
  "echo \"`echo {a,b}`\"", "x=1; echo \"$(case $x in 1) echo {a,b};; esac)\"",
  "cat <<E\nit's\nE\necho {a,b}", "echo a; [[", "\"shopt\" -s extglob; echo y",
];

/** Everyday text both read alike. */
// deno-fmt-ignore
const SAME = [
  "ls | wc -l", "cat a b", "set -e; echo hi", "for f in a b; do wc -c \"$f\"; done",
  "x=${X:-a}; cat \"$x\"", "echo $((1+2))", "test -f a && echo y", "[ a = a ] && echo y",
  "f() { echo f; }; f", "cat ${Y:-a,b} 2>/dev/null; echo $?", "echo $1 ${#1} ${1%o}",
"read -r v <<EOF\nab\nEOF\necho $v", "awk '{print $1}' a", "find . -name a",
  "echo {} x", "cat a 2>&1 >/dev/null", "echo -n x | cat", "x=$(cat a); echo \"$x\"",
  "echo == a", "echo \"$1\" | tr -d '{()},\\!'",
  // Quoted: the same text to both shells.
  "echo \"{a,b}\" 'c {d,e}' \"{1..3}\"", "echo \"a {b}\"", "grep -E '(A|B){1}' a",
  "awk \"{print \\$1}\" a", "echo \"{}\"", "printf '%s\\n' \"$@\"", "echo \"{a: .b, c: .d}\"",
  "echo \"[[ x ]]\" '((a))' \"function f\" 'a=(1)' \"<<< x\" '|&' \"\\${x/a/b}\" \"x[1]=y\"",
  "echo \"$'a'\" \"$\"a\"\" \"a\\$'b\" \\$'x' $$'x' | tr -d 0-9", "echo {a\\,b} \\{a,b} {a,b\\}",
  "echo \"a\\\n{a,b}\"", "echo \"$(echo \"{a,b}\")\" \"${x:-a,b}\" \"$((1+2))\"",
  "echo a #it's {x,y}\necho b", "echo 'test a == b' \"[ a == b ]\" \"read -n 1\"",
  "echo a\"#\"b '{a,b}'#c", "x=a; echo \"${x}\"{}",
];

Deno.test("dash: what it reads otherwise than bash is found; what it reads alike is not", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(`${dir}/a`, "A\n");
    Deno.writeTextFileSync(`${dir}/b`, "B\n");
    Deno.writeTextFileSync(`${dir}/.env`, "SECRET\n");
    const wrong: string[] = [];
    for (const text of OTHER) {
      if (dashReadsAsBash(text)) wrong.push(`read as bash: ${text}`);
      const [d, b] = [output("dash", text, dir), output("bash", text, dir)];
      if (d === b) wrong.push(`dash and bash alike: ${text} (${d})`);
    }
    for (const text of SAME) {
      if (!dashReadsAsBash(text)) wrong.push(`not read as bash: ${text}`);
      const [d, b] = [output("dash", text, dir), output("bash", text, dir)];
      if (d !== b) wrong.push(`dash and bash differ: ${text} (${d} / ${b})`);
    }
    // `cmd &> f` is `cmd & > f` to dash: both readings are judged.
    const both = "cat nofile &> o; cat o";
    if (output("dash", both, dir) === output("bash", both, dir)) wrong.push(`alike: ${both}`);
    assert.deepEqual(dashReadings(both), [both, "cat nofile & > o; cat o"]);
    assert.deepEqual(wrong, []);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("dash: sh's text bash reads otherwise is not known, however it is handed to sh", async () => {
  // [command, read-only, deny-list]
  // deno-fmt-ignore
  await checkTable([
    // dash runs `cat $\ .env` (the gate would read one quoted word).
    [`sh -c "cat \\$'\\\\' .env #'"`, "deny", "deny"],
    [`dash -c "cat \\$'\\\\' .env #'"`, "deny", "deny"],
    [`find . -name x -exec sh -c "cat \\$'\\\\' .env #'" \\;`, "deny", "deny"],
    [`echo x | xargs sh -c "cat \\$'\\\\' .env #'"`, "deny", "deny"],
    [`echo "cat \\$'\\\\' .env #'" | sh`, "deny", "deny"],
    [`sh -c '((cat .env))'`, "deny", "deny"],
    ["sh -c 'cat .env &> /dev/null'", "deny", "deny"],
    ["sh -c 'ls &> .env'", "deny", "deny"],
    ["sh -c 'ls src &> /dev/null'", "deny", "allow"],
    ["sh -c 'if [ -f \"${i%.ts}\" ]; then echo == $i; fi'", "deny", "ask"],
    [`sh -c 'mv -v "$1" "$(echo "$1" | tr -d "{()},\\!")"' _ x y`, "deny", "ask"],
    [`sh -c "echo '.en\\\\0166' | xargs cat"`, "deny", "deny"],
    [`hyperfine "cat \\$'\\\\' .env #'"`, "deny", "deny"],
    [`hyperfine -S dash "cat \\$'\\\\' .env #'"`, "deny", "deny"],
    [`concurrently "cat \\$'\\\\' .env #'"`, "deny", "deny"],
    // bash reads it as bash.
    [`bash -c "cat \\$'\\\\' .env #'"`, "deny", "allow"],
    // A bash-ism outside quotes, beside quoted text.
    [`sh -c 'cat "x"{.e,.f}nv'`, "deny", "deny"],
    [`sh -c "cat '.e'{n,}v"`, "deny", "deny"],
    [`sh -c 'echo "{a,b}"; [[ -f .env ]] && cat .env'`, "deny", "deny"],
    // Everyday sh text, quoted bash-isms and all: read as bash reads it.
    [`sh -c 'echo "{a,b}"'`, "deny", "allow"],
    [`sh -c 'echo "a {b}"'`, "deny", "allow"],
    [`sh -c "grep -E '(a|b){2}' README.md"`, "deny", "allow"],
    [`sh -c 'awk "{print \\$1}" README.md'`, "deny", "allow"],
    [`sh -c 'jq "{a: .b, c: .d}" x.json'`, "deny", "allow"],
    [`sh -c "jq '{a,b}' x.json"`, "deny", "allow"],
    [`sh -c 'cat "{a,b}"'`, "deny", "allow"],
    [`sh -c 'cat "{.e,.f}nv"'`, "deny", "allow"],
    // Everyday sh text: read as bash reads it.
    ["sh -c 'ls src | wc -l'", "deny", "allow"],
    ["sh -c 'cat README.md'", "deny", "allow"],
    [`find . -name '*.ts' -exec sh -c 'wc -l "$1"' _ {} \\;`, "deny", "allow"], // ("$1": each listed path)
    ["echo 'echo {} | wc -l' | sh", "deny", "allow"],
    ["hyperfine 'ls src'", "deny", "allow"],
  ]);
});
