import assert from "node:assert/strict";
import {
  decodeAnsiC,
  fallbackSplit,
  heredocWord,
  joinContinuations,
  joinLines,
  shellQuote,
  unescapeDoubleQuoted,
  unescapeUnquoted,
} from "./words.ts";
import { runBash } from "./testing.ts";

const NL = "\n";
const BS = "\\";
/** A backslash-newline line continuation. */
const C = BS + NL;

Deno.test("joinContinuations joins backslash-newline where bash does", () => {
  const cases: [string, string][] = [
    [`r${C}m -rf /`, "rm -rf /"],
    [`ls ${C}  -la`, "ls   -la"],
    [`echo "a${C}b"`, 'echo "ab"'],
    [`echo \`r${C}m x\``, "echo `rm x`"],
    [`echo $(r${C}m x)`, "echo $(rm x)"],
    [`echo "$(r${C}m x)"`, 'echo "$(rm x)"'],
    [`echo $((1 ${C}+ 2))`, "echo $((1 + 2))"],
    // An escaped backslash before the newline is a backslash, not a continuation.
    [`echo ${BS}${BS}${C}z`, `echo ${BS}${BS}z`],
    [`echo ${BS}${BS}${NL}z`, `echo ${BS}${BS}${NL}z`],
    // `\$'…'` is an escaped `$` and a plain single-quoted string: the rest is unquoted.
    [`echo ${BS}$'a${BS}' ; r${C}m -rf / #'`, `echo ${BS}$'a${BS}' ; rm -rf / #'`],
    // `<<` inside arithmetic is a shift, not a heredoc.
    [`echo $((1<<2))${NL}# x ${C}rm -rf /`, `echo $((1<<2))${NL}# x ${C}rm -rf /`],
    [`x=$((1<<2))${NL}r${C}m y`, `x=$((1<<2))${NL}rm y`],
    // Quotes nested in `$(…)` inside double quotes do not confuse the quoting.
    [`echo "$(echo "'")"; r${C}m -rf / #'`, `echo "$(echo "'")"; rm -rf / #'`],
    [`x=$(case a in a) echo "'";; esac); r${C}m q`, `x=$(case a in a) echo "'";; esac); rm q`],
  ];
  for (const [src, want] of cases) assert.equal(joinContinuations(src), want, src);
});

Deno.test("joinContinuations keeps continuations in single quotes, $'…', comments", () => {
  for (
    const src of [
      `echo 'a${C}b'`,
      `echo $'a${C}b'`,
      `echo $'it${BS}'s ${C}'`, // `\'` does not end `$'…'`
      `# c ${C}rm -rf /`,
      `ls # c ${C}rm -rf /`,
    ]
  ) {
    assert.equal(joinContinuations(src), src, src);
  }
  // A comment ends at its newline; the next line is joined as usual.
  assert.equal(joinContinuations(`# c ${C}r${C}m`), `# c ${C}rm`);
  // `#` in the middle of a word, or right after `$(…)`, starts no comment.
  assert.equal(joinContinuations(`echo a#b ${C}c`), "echo a#b c");
  assert.equal(joinContinuations(`echo $(echo)#c ${C}rm -rf /`), "echo $(echo)#c rm -rf /");
});

Deno.test("joinContinuations: heredoc bodies with a quoted delimiter stay literal", () => {
  const quoted = [
    `cat <<'EOF'${NL}a${C}b${NL}EOF${NL}r${C}m x`,
    `cat <<"EOF"${NL}a${C}b${NL}EOF${NL}r${C}m x`,
    `cat <<${BS}EOF${NL}a${C}b${NL}EOF${NL}r${C}m x`,
    `cat <<E"O"F${NL}a${C}b${NL}EOF${NL}r${C}m x`,
    `cat <<-'EOF'${NL}\ta${C}b${NL}\tEOF${NL}r${C}m x`,
  ];
  for (const src of quoted) {
    const want = src.replace(`r${C}m x`, "rm x");
    assert.equal(joinContinuations(src), want, src);
  }
  // Unquoted: the body is joined, and the joined line is what ends the heredoc.
  assert.equal(
    joinContinuations(`cat <<EOF${NL}a${C}b${NL}EOF${NL}r${C}m x`),
    `cat <<EOF${NL}ab${NL}EOF${NL}rm x`,
  );
  assert.equal(
    joinContinuations(`cat <<EOF${NL}E${C}OF${NL}r${C}m w${NL}EOF`),
    `cat <<EOF${NL}EOF${NL}rm w${NL}EOF`,
  );
  // Two heredocs on one line: both bodies follow, in order.
  assert.equal(
    joinContinuations(`cat <<'A' <<B${NL}x${C}y${NL}A${NL}p${C}q${NL}B`),
    `cat <<'A' <<B${NL}x${C}y${NL}A${NL}pq${NL}B`,
  );
});

Deno.test("joinLines reports where it joined", () => {
  assert.deepEqual(joinLines("ls -la"), { text: "ls -la", joined: [] });
  assert.deepEqual(joinLines(`r${C}m a${C}b`), { text: "rm ab", joined: [1, 4] });
  assert.deepEqual(joinLines(`echo 'a${C}b'`).joined, []);
});

Deno.test("heredocWord: the delimiter after quote removal and whether it was quoted", () => {
  assert.deepEqual(heredocWord("EOF\n", 0), { delim: "EOF", quoted: false, end: 3 });
  assert.deepEqual(heredocWord("'EOF' x", 0), { delim: "EOF", quoted: true, end: 5 });
  assert.deepEqual(heredocWord('"E O"', 0), { delim: "E O", quoted: true, end: 5 });
  assert.deepEqual(heredocWord("\\EOF", 0), { delim: "EOF", quoted: true, end: 4 });
  assert.deepEqual(heredocWord('E"O"F|sh', 0), { delim: "EOF", quoted: true, end: 5 });
  assert.equal(heredocWord(" EOF", 0), null);
  assert.equal(heredocWord("'EOF", 0), null);
});

Deno.test("decodeAnsiC decodes escapes as bash does", () => {
  const cases: [string, string][] = [
    ["\\x72\\x6d", "rm"],
    ["\\162\\155", "rm"],
    ["\\u0072\\U0000006d", "rm"],
    ["\\x{72}\\x{6d}", "rm"],
    ["\\x{1234}", "4"], // only the low byte
    ["\\0101", "\b1"], // at most three octal digits, the 0 included
    ["\\777", "\xff"],
    ["\\u00e9", "é"],
    ["\\U0001F600", "😀"],
    ["\\cA\\ca\\c[", "\x01\x01\x1b"],
    ["\\c?", "\x7f"],
    ["\\c\\\\x", "\x1cx"], // `\c\\` is control-backslash
    ["\\a\\b\\e\\E\\f\\n\\r\\t\\v", "\x07\b\x1b\x1b\f\n\r\t\v"],
    ["\\\\\\'\\\"\\?", "\\'\"?"],
    ["it\\'s", "it's"],
    // Unknown or incomplete escapes stay as written.
    ["\\q\\xg\\u\\c", "\\q\\xg\\u\\c"],
    ["a\\", "a\\"],
  ];
  for (const [body, want] of cases) assert.equal(decodeAnsiC(body), want, body);
});

Deno.test("decodeAnsiC: a NUL ends the string; bad code points do not throw", () => {
  assert.equal(decodeAnsiC("rm\\0junk"), "rm");
  assert.equal(decodeAnsiC("rm\\x00junk"), "rm");
  assert.equal(decodeAnsiC("rm\\u0000junk"), "rm");
  assert.equal(decodeAnsiC("rm\\c@junk"), "rm");
  assert.equal(decodeAnsiC("\\x{}x"), "");
  assert.equal(decodeAnsiC("a\\UFFFFFFFFb"), "ab");
  assert.equal(decodeAnsiC("a\\U00110000b"), "ab");
});

Deno.test("unescaping: unquoted words and double-quoted text", () => {
  assert.equal(unescapeUnquoted("r\\m"), "rm");
  assert.equal(unescapeUnquoted("a\\ b\\\\c\\*"), "a b\\c*");
  assert.equal(unescapeDoubleQuoted('\\$HOME \\` \\" \\\\'), '$HOME ` " \\');
  // Inside double quotes other backslashes stay; backslash-newline disappears.
  assert.equal(unescapeDoubleQuoted("\\n\\a"), "\\n\\a");
  assert.equal(unescapeDoubleQuoted("a\\\nb"), "ab");
});

Deno.test("fallbackSplit splits plain commands on | || && ; & and newlines", () => {
  const split = (s: string) => fallbackSplit(s)?.map((st) => st.words);
  assert.deepEqual(split("a | b && c; d"), [["a"], ["b"], ["c"], ["d"]]);
  assert.deepEqual(split("a || b & c\nd e"), [["a"], ["b"], ["c"], ["d", "e"]]);
  assert.deepEqual(split("git log --oneline -n 5"), [["git", "log", "--oneline", "-n", "5"]]);
  assert.deepEqual(split(`grep 'a b' "c d" 'r''m'`), [["grep", "a b", "c d", "rm"]]);
  assert.deepEqual(split("  "), []);
  assert.deepEqual(fallbackSplit("ls -la | wc -l")?.map((s) => s.text), ["ls -la", "wc -l"]);
});

Deno.test("fallbackSplit returns null for anything it cannot split for sure", () => {
  for (
    const src of [
      "echo $HOME", // expansions
      "echo ${X}",
      "echo $(id)",
      "echo `id`",
      '"$X"', // quotes containing $
      "'$X'",
      '"a`id`"',
      "echo > f", // redirects
      "cat < f",
      "ls 2>&1",
      "r\\m a", // backslashes
      "echo 'a\\b'",
      "ls *.ts", // globs and braces
      "ls a?",
      "ls [ab]",
      "echo {a,b}",
      "cd ~",
      "X=1 ls", // assignments
      "(ls)", // groups
      "{ ls; }",
      "ls # comment",
      "! ls",
      "echo 'unterminated",
      "if true; then rm -rf x; fi", // compound commands
      "for f in a; do rm $f; done",
      "time rm x",
      "then rm x",
    ]
  ) {
    assert.equal(fallbackSplit(src), null, src);
  }
});

Deno.test("shellQuote: bash reads a quoted word back as it was", async () => {
  assert.equal(shellQuote("plain/path-1.txt"), "plain/path-1.txt");
  assert.equal(shellQuote("it's $HOME"), `'it'\\''s $HOME'`);
  const words = ["a b", "it's", "$HOME", "`x`", "*", "", "\\n", "!x", "~", "a\nb"];
  const printed = await runBash(`printf '%s\\0' ${words.map(shellQuote).join(" ")}`, {
    cwd: "/",
    env: { HOME: "/home/u" },
  });
  assert.deepEqual(printed.split("\0").slice(0, -1), words);
});
