import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadBashParser } from "./bash_parser.ts";
import { simpleTree } from "./simple_tree.ts";
import { type LiteNode, liteTree } from "./syntax_tree.ts";

const parser = await loadBashParser();
const corpus = readFileSync(new URL("../testdata/corpus/nl2bash.txt", import.meta.url), "utf8")
  .split("\n").filter((l) => l.trim());

/** A tree as text: every node's type, namedness, range, field and error flag. */
function sexp(n: LiteNode, field: string | null = null): string {
  const kids = n.children.map((c, i) => " " + sexp(c, n.fields[i])).join("");
  const flags = `${n.hasError ? " E" : ""}${n.isMissing ? " M" : ""}`;
  const type = n.isNamed ? n.type : JSON.stringify(n.type);
  return `${field ? field + ":" : ""}(${type} ${n.startIndex}-${n.endIndex}${flags}${kids})`;
}

function treeSitter(source: string): string {
  const tree = parser.parse(source)!;
  try {
    return sexp(liteTree(tree.rootNode, source));
  } finally {
    tree.delete();
  }
}

/** The commands the reader reads, each checked node for node against tree-sitter. */
function agreeing(commands: string[]): number {
  let read = 0;
  for (const c of commands) {
    const mine = simpleTree(c);
    if (!mine) continue;
    read++;
    const [got, want] = [sexp(mine), treeSitter(c)];
    if (got !== want) assert.fail(`${JSON.stringify(c)}\n  read: ${got}\n  tree-sitter: ${want}`);
  }
  return read;
}

Deno.test("simpleTree: every corpus command it reads gets tree-sitter's exact tree", () => {
  const read = agreeing(corpus);
  // It must keep reading most plain commands, or it stops paying for itself.
  assert.ok(read > corpus.length * 0.5, `read ${read} of ${corpus.length}`);
});

/** A seeded generator (mulberry32): the same commands on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// deno-fmt-ignore
const NAMES = ["ls", "git", "a", "a+b", "a:b", "~x", "~/bin/x", "./x", "../x", "/bin/ls", "a^b",
  "a,b", "a-b", "a_b", "a.b", "-x", "10", "x1", "'ls'", '"ls"', "l's'", 'g"it"', "a'b'c", "+",
  ":", "~", ".", "..", "a~b", "x*", "x?", "*", "if", "for", "x=1", "a@b", "a%b", "{", "done",
  "$a", "${a}", "$a/x", '"$a"', "r\\m", "{}", "a{b}", "(a)", "(cd x && ls)", "( a; b )", "(a | b)",
  "(a) > f", "(a)x", "((a))", "( a )", "(a;)", "$(a)", "$(a) b", "(a 2>&1)", "(a && (b))", "()",
  "!", "! a", "!a", "a!", "x=1", "FOO=bar", "x=", "x+=1", "a=b=c", "x=$(a)", "x='a'", 'x="a b"',
  "x=a$b", "x=(a)", "x=1 y=2", "a[1]=x", "1x=2", "x=~/a", "x=`a`", "_x=1", "x=1 y=", "x==a",
  "x=-1", "x=2>", "x={a,b}", "x=[a]", "x=!a", "x=$?", "x=a\\ b", "$'a'", "$'a\\nb'", "$'a\\'b'",
  "a$'b'", "$''", "$'a'b", "$'\\\\'", "'a'$'b'", "$'", "x=$'a'", "$'a b'", "$'$x'"];
// deno-fmt-ignore
const WORDS = ["ls", "a", "-la", "-1", "10", "2", "x=1", "--x=y", "~", "~/a", "*.txt", "?", "*",
  "for", "done", "if", "in", "then", "export", "%s", "a:b", "^", "+1", "2#1", "0x1f", "-", "--",
  "=", "a=", "==", "=~", "a,b", "@x", "time", "echo", "cd", "..", "/tmp", "a.b", "-n", "esac",
  "x%", "1a", "a1", "-la2", "{", "}", "$a", "${a}", "$1", "$_", "$12", "$1a", "${1}", "${a", "{}",
  "{a,b}", "a{b}", "\\;", "\\ ", "a\\ b", "\\|", "\\'", '\\"', "\\$", "\\\\", "\\{", "\\1", "\\",
  "$", "a$", "$a$b", "{$a}", "$?", "$@", "${a}b", "$0", "$HOME", "~$a", "[abc]", "a[1]", "[0-9]*",
  "]", "[", "[[", "]]", "[!a]", "*[a-z]", "[$a]", "['a']", "a]b", "[a", "x[", "]x", "[]", "[{}]",
  "{[a]}", "[\\]]", "a[b]c[d]", "$(a)", "$(a b)", "$( a | b )", "a$(b)c", "$(a)$(b)", "$(a;b)",
  "$(a > f)", "$(a $(b))", "$(", ")", "$()", "$((1))", "$(a)x", "'$(a)'", "$( a )", "$(a;)",
  "$(cd x && y)", "$(a | b | c && d)", "x$(a)", "$(a)1", "{$(a)}", "[$(a)]", "$(a)'b'", "$?", "$#",
  "$$", "$!", "$-", "$*", "$_a", "$01", "$?a", "a$?", "$$a", "$#a", "$@a", "$?$?", "${?}", "${#}",
  "x=1", "y=", "a=b", "`a`", "`a b`", "` a `", "`a | b`", "`a;b`", "a`b`", "`a`b", "`a``b`", "``", "`a", "`$(a)`",
  "$(`a`)", "`a \\b`", "`(a)`", "`a > f`", "`a`'b'", "'`a`'", "`cd x && y`", "`a $b`", "!", "!=",
  "!a", "a!b", "!!", "!-a", "!(a)", "[!a]", "a!", "!$a", "!'a'", '!"a"', "!~", "=!"];
// deno-fmt-ignore
const QUOTES = ["'a b'", "''", '"a"', '""', '" "', '"  a"', '"a!b"', "\"x'y\"", "'x\"y'", '"\t"',
  '" a "', "'-1'", '"10"', '"#"', "'$x'", "'é'", '"a\tb"', '"$a"', '"a$b c"', '"${a}b"', '"$a $b"',
  '" $a"', '"$a "', '"$"', '"a\\b"', '"$1"', '"$a$b"', '"{$a}"', '"${a}"', '"$_"', '"a$"', '"\\.x$"', '"$(a)"', '"$\'a\'"', '"`a`"', '"a `b` c"', '"`a b`x"', '"`"', '"$?"', '"a$@b"', '"$$"', '"$#"', '"a $(b) c"', '"$(a | b)"', '" $(a)"', '"$(a) "', '"$(a)$b"',
  '"a\\"b"', '"\\$x"', '"\\\\"', '"\\ "', '"a\\nb$"', '" $"', '"$ "', '"$%"', '"\\"', '"$a\\.b"'];
// deno-fmt-ignore
const OPS = ["|", "||", "&&", ";", "&", "|&", ";;", " | ", " && ", " ; ", "; ", " || ", "\n"];
// deno-fmt-ignore
const REDIRECTS = [">", ">>", "<", "2>", "2>&1", ">&2", "&>", "&>>", ">|", "<&0", "1>", "12>",
  "-2>", "0<", ">&-", "<>", "<<", "<<<", ">& ", "> ", "< ", "2> ", ">&", "3<", ">(", "<("];
const ODD = ["$x", "\\", "(", ")", "#", "{x}", "[a]", "é", "`", "$(a)", "\r", "!", "\\;"];

function generate(rand: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const word = () => {
    let s = "";
    const n = 1 + Math.floor(rand() * 3);
    for (let i = 0; i < n; i++) {
      const r = rand();
      s += r < 0.6 ? pick(WORDS) : r < 0.95 ? pick(QUOTES) : pick(ODD);
    }
    return s;
  };
  let s = rand() < 0.2 ? pick([" ", "\t"]) : "";
  const commands = 1 + Math.floor(rand() * 6);
  for (let c = 0; c < commands; c++) {
    if (c > 0) s += pick(OPS);
    s += pick(NAMES);
    const args = Math.floor(rand() * 4);
    for (let i = 0; i < args; i++) s += (rand() < 0.9 ? " " : "\t") + word();
    const redirects = rand() < 0.4 ? 1 + Math.floor(rand() * 2) : 0;
    for (let i = 0; i < redirects; i++) {
      s += (rand() < 0.7 ? " " : "") + pick(REDIRECTS) + (rand() < 0.3 ? " " : "") + word();
    }
    if (rand() < 0.05) s += " " + word();
  }
  if (rand() < 0.1) s += pick([";", " ;", "; ", " ", "&&", "|"]);
  return s;
}

Deno.test("simpleTree: fuzzed commands it reads get tree-sitter's exact tree", () => {
  // Set PI_CONTROLS_FUZZ_SEED to run another seed.
  const seeds = [Number(Deno.env.get("PI_CONTROLS_FUZZ_SEED") ?? 7), 1009, 4242];
  for (const seed of seeds) {
    const rand = random(seed);
    const commands = Array.from({ length: 80_000 }, () => generate(rand));
    const read = agreeing(commands);
    assert.ok(read > 2000, `seed ${seed}: read only ${read} of ${commands.length}`);
  }
});

Deno.test("simpleTree: what it does not read goes to tree-sitter", () => {
  for (
    const c of [
      "echo a$?",
      "echo $?x",
      "echo ${a:-b}",
      "echo $_x",
      "ls $A/$B/c",
      "find . -exec rm {}\\; -o -exec x '{}'\\;",
      "tr \\  x",
      "echo {1..3}",
      "rm { }",
      'echo "$a $b"',
      "echo a\\",
      "echo `a` x `b`",
      "echo $((1 + 2))",
      "((x++))",
      "echo $()",
      "echo " + "$(".repeat(17) + "x" + ")".repeat(17),
      "(".repeat(1000) + "x" + ")".repeat(1000),
      "( )",
      "(a)b",
      "echo $(a",
      "echo `a` `b`",
      "echo `a\\b`",
      "echo `a",
      "a)",
      "a\nb",
      "if true; then x; fi",
      "FOO=1 a:b",
      "x=|y",
      "export A=1",
      "cat - 2>&1",
      "a | b | c && d",
      "head -la2>f",
      "x 0<f",
      "echo a > f b",
      "> f echo",
      "cat <<EOF",
      "cat <(ls)",
      "x >&-",
      "a & b",
      "a |& b",
      "echo 'unterminated",
      'echo "unterminated',
      "echo héllo",
      "echo [ x",
      "echo ] [",
      "{ a; }",
      "a && ",
      "",
      "   ",
      "x ==",
      "if'x'",
      "a@b c",
    ]
  ) {
    assert.equal(simpleTree(c), null, JSON.stringify(c));
  }
});

Deno.test("simpleTree: plain commands are read, with their redirects and operators", () => {
  for (
    const c of [
      "git status",
      "ls -la src/ | grep -v test > out.txt 2>&1",
      "cd build && make -j4 || echo 'failed' ; rm -f a.o",
      "a | b > f && c",
      "a && b | c",
      'find . -name "*.ts" -newer package.json',
      "NODE_ENV=test FOO= npm run build > out.log 2>&1",
      "x=1 y=$(date)",
      'printf "%s  " a  ',
      "echo " + "$(".repeat(15) + "x" + ")".repeat(15),
    ]
  ) {
    const tree = simpleTree(c);
    assert.ok(tree, JSON.stringify(c));
    assert.equal(sexp(tree), treeSitter(c), c);
  }
});
