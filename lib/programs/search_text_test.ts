import assert from "node:assert/strict";
import type { Word } from "../shell/model.ts";
import { programNamed } from "./registry.ts";
import { literal, unknownWord } from "./words.ts";
import { bash, configFrom, ctxIn } from "../testing.ts";

/**
 * The indexes (into `args`, the words after the program or after `git grep`) its `text` facet
 * gives, null standing for a word not known statically.
 */
function searchText(program: string, args: (string | null)[]): number[] {
  const words: Word[] = args.map((a) => (a === null ? unknownWord("$x") : literal(a)));
  const [name, ...sub] = program.split(" ");
  const argv = [literal(name), ...sub.map(literal), ...words];
  const text = programNamed(name)?.text;
  return text ? [...text(argv)].map((i) => i - 1 - sub.length) : [];
}

Deno.test("searchText: the pattern operand and text option values, not files", () => {
  assert.deepEqual(searchText("grep", ["-rn", "/api/users", "src"]), [1]);
  assert.deepEqual(searchText("grep", ["-A", "3", "-m5", "/x", "f"]), [0, 1, 2, 3]);
  assert.deepEqual(searchText("grep", ["-e", "/a", "-e", "/b", "/etc/f"]), [0, 1, 2, 3]);
  assert.deepEqual(searchText("grep", ["--regexp=/a", "/etc/f"]), [0]);
  assert.deepEqual(searchText("grep", ["--include=*.ts", "-r", "/x", "."]), [0, 2]);
  assert.deepEqual(searchText("grep", ["--color", "/x", "f"]), [0, 1]);
  assert.deepEqual(searchText("grep", ["-5", "/x", "f"]), [1]);
  assert.deepEqual(searchText("grep", ["--", "-x", "f"]), [1]);
  assert.deepEqual(searchText("rg", ["-g", "*.ts", "/api", "src"]), [0, 1, 2]);
  assert.deepEqual(searchText("git grep", ["-n", "/api", "HEAD", "--", "src"]), [1]);
});

Deno.test("searchText: field tools' delimiters and lists are text; their output files are not", () => {
  assert.deepEqual(searchText("cut", ["-d/", "-f2", "f"]), [0, 1]);
  assert.deepEqual(searchText("cut", ["-d", "/", "-f", "2", "/etc/f"]), [0, 1, 2, 3]);
  assert.deepEqual(searchText("cut", ["-sd/", "f"]), [0]);
  assert.deepEqual(searchText("cut", ["--delimiter=/", "f"]), [0]);
  assert.deepEqual(searchText("sort", ["-t/", "-k2", "-o", "/etc/out", "f"]), [0, 1]);
  assert.deepEqual(searchText("sort", ["--output=/etc/out", "-t", "/"]), [1, 2]);
  assert.deepEqual(searchText("paste", ["-d/", "a", "b"]), [0]);
  assert.deepEqual(searchText("join", ["-t/", "-1", "2", "a", "b"]), [0, 1, 2]);
  assert.deepEqual(searchText("column", ["-t", "-s/", "f"]), [1]);
  // An option this reader does not know may take the next word: from there on, nothing is text.
  assert.deepEqual(searchText("sort", ["-t/", "-X", "-k2", "/x"]), [0]);
  assert.deepEqual(searchText("cut", ["--frob", "-d/", "f"]), []);
});

Deno.test("searchText: files of patterns, a later -e and unknown options leave words as files", () => {
  // -f's value is a file; with patterns from -e or -f no operand is a pattern.
  assert.deepEqual(searchText("grep", ["-f", "/etc/pats", "f"]), []);
  assert.deepEqual(searchText("grep", ["--file=/etc/pats", "f"]), []);
  assert.deepEqual(searchText("grep", ["--exclude-from", "/etc/x", "/p", "f"]), [2]);
  // GNU grep takes options after operands: `/x` is a file here. To one that stops at the first
  // operand, `-e`'s value is a file too: it stays a possible one.
  assert.deepEqual(searchText("grep", ["/x", "-e", "/y", "/etc/f"]), [1]);
  assert.deepEqual(searchText("grep", ["-r", "/x", "src", "--include=*.ts"]), [3, 1]);
  // rg --files takes no pattern: every operand is a path.
  assert.deepEqual(searchText("rg", ["--files", "/etc"]), []);
  // An option this reader does not know may take the next word: nothing is text.
  assert.deepEqual(searchText("grep", ["-Q", "/x", "f"]), []);
  assert.deepEqual(searchText("grep", ["--frobnicate", "/x", "f"]), []);
  // An unknown word where the pattern would be: no pattern is known.
  assert.deepEqual(searchText("grep", [null, "/x"]), []);
  assert.deepEqual(searchText("cat", ["/x"]), []);
});

const config = configFrom({
  policies: {
    project: { defaultAction: "allow", rules: [] },
    outside: { defaultAction: "deny", rules: [] },
  },
  locations: { "/": "outside", "$cwd": "project" },
  pathProtection: { "~/.ssh/**": "deny" },
});
const ctx = ctxIn("/home/user/project", {
  files: ["/home/user/project/src/app.ts", "/etc/passwd", "/home/user/.ssh/id_rsa"],
});

Deno.test("patterns: searches for path-like text in the project are allowed; files outside are not", async () => {
  const cases: [string, string][] = [
    ['grep -rn "/api/users" src', "allow"],
    ["grep -rn /etc/passwd src", "allow"],
    ['rg "/api/v1" src', "allow"],
    ['git grep -n "/api"', "allow"],
    ['git -C src grep "/api"', "allow"],
    ['grep -rn "import" --include=*.ts --exclude-dir=node_modules src', "allow"],
    ["grep -e /usr/local -e /opt src/app.ts", "allow"],
    ["sed '/^#/d' src/app.ts", "allow"],
    ["cut -d/ -f2 src/app.ts", "allow"],
    ["sort -t/ -k2 src/app.ts", "allow"],
    ["cut -d / -f 2 src/app.ts", "allow"],
    ['IFS=/ read -r a b <<< "x/y"', "allow"],
    ["git log --grep=/api --oneline", "allow"],
    ['git log -S "/usr/lib" --format="%h/%s"', "allow"],
    ["awk '/^root/ {print}' src/app.ts", "allow"],
    // ... and what they open is still judged.
    ["grep root /etc/passwd", "deny"],
    ["grep -f /etc/passwd src/app.ts", "deny"],
    ["grep --file=/etc/passwd src/app.ts", "deny"],
    ["grep /x -e y /etc/passwd", "deny"],
    ["grep -r key ~/.ssh", "deny"],
    ["grep -e x ~/.ssh/id_rsa", "deny"],
    ["rg --files /etc", "deny"],
    ["grep -Q /etc/passwd src/app.ts", "deny"],
    ["awk '/^root/' /etc/passwd", "deny"],
    ["sed -n '/x/p' /etc/passwd", "deny"],
    ["cut -d/ -f1 /etc/passwd", "deny"],
    ["git log --grep=x -- /etc/passwd", "deny"],
    ["sort -t/ -o /etc/passwd src/app.ts", "deny"],
    ["sort -t/ -X /etc/passwd src/app.ts", "deny"],
  ];
  const wrong: string[] = [];
  for (const [command, want] of cases) {
    const got = (await bash(config, ctx, command)).action;
    if (got !== want) wrong.push(`${command}: got ${got}, want ${want}`);
  }
  assert.deepEqual(wrong, []);
});
