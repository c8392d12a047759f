import assert from "node:assert/strict";
import { echoTexts, printfText } from "./piped_text.ts";
import { runBash } from "../testing.ts";
import { shellQuote } from "../shell/words.ts";
import { checkEveryday, checkTable, denyList } from "../testing_adversarial.ts";

/** Each byte of a text (every character below 256) in hex. */
const hex = (text: string) =>
  [...text].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");

/** What bash prints for each line of `script`, a line of hex each. */
async function printedBy(lines: string[]): Promise<string[]> {
  const script = lines.map((l) => `${l} | od -An -v -tx1 | tr -d ' \\n'; echo`).join("\n");
  const out = await runBash(script, { cwd: "/", env: {} });
  return out.split("\n").slice(0, lines.length);
}

// deno-fmt-ignore
const ECHO: string[][] = [
  ["select 1;"], ["a", "b"], [], ["-n", "x"], ["-e", "a\\nb"], ["-E", "a\\nb"], ["-ne", "x\\ty"],
  ["-e", "a\\cb"], ["-e", "a\\0101b"], ["-e", "a\\101b"], ["-e", "a\\x41g\\xg"], ["-e", "a\\qb\\"],
  ["-e", "\\\\!x"], ["-n"], ["-", "x"], ["--", "x"], ["-nx", "y"], ["x", "-n"], ["-eE", "a\\nb"],
  ["-Ee", "a\\e\\E\\a\\b\\f\\r\\v"], ["a\\nb"], ["\\dt"],
];

// deno-fmt-ignore
const PRINTF: string[][] = [
  ["select 1;\\n"], ["%s\\n", "a", "b", "c"], ["%s|%s\\n", "a", "b", "c"], ["x\\n", "a", "b"],
  ["a\\101b\\0101\\8\\c\\q"], ["\\x41\\xg\\\"\\'\\?\\\\"], ["100%%\\n"], ["--", "%s", "-x"],
  ["\\e\\E\\a\\b\\f\\r\\t\\v"], ["%s", "a\\nb"], ["trailing\\"],
  // (a `\` before a character that is no escape is printed, and `%` then starts a conversion)
  ["\\%s\\n", "rm -rf src"], ["cd keys;\\%s", "x"], ["\\%%"], ["\\q\\%s", "y"],
];

Deno.test("piped text: echo and printf print what bash's builtins print", async () => {
  const echo = ECHO.map((args) => ({ args, texts: echoTexts(args)! }));
  const lines = echo.flatMap(({ args }) => {
    const words = args.map(shellQuote).join(" ");
    return [`echo ${words}`, `(shopt -s xpg_echo; echo ${words})`];
  });
  const printf = PRINTF.map((args) => ({ args, text: printfText(args)![0] }));
  lines.push(...printf.map(({ args }) => `printf ${args.map(shellQuote).join(" ")}`));
  const got = await printedBy(lines);
  echo.forEach(({ args, texts }, i) => {
    const [plain, xpg] = [got[2 * i], got[2 * i + 1]];
    assert.ok(texts.map(hex).includes(plain), `echo ${args.join(" ")}: ${plain}`);
    assert.ok(texts.map(hex).includes(xpg), `xpg_echo: echo ${args.join(" ")}: ${xpg}`);
  });
  printf.forEach(({ args, text }, i) => {
    assert.equal(hex(text), got[2 * echo.length + i], `printf ${args.join(" ")}`);
  });
});

Deno.test("piped text: what is not reproduced is not known", () => {
  assert.equal(echoTexts(["-e", "\\u00e9"]), null);
  assert.equal(echoTexts(["--help"]), null);
  assert.equal(printfText(["%b", "a\\nb"]), null);
  assert.equal(printfText(["%d\\n", "1"]), null);
  assert.equal(printfText(["-v", "x", "y"]), null);
  assert.equal(printfText(["\\u00e9"]), null);
  assert.equal(printfText(["50%"]), null);
  assert.equal(printfText([]), null);
  // With neither -e nor -E, xpg_echo may decode the escapes: both readings.
  assert.deepEqual(echoTexts(["a\\nb"]), ["a\\nb\n", "a\nb\n"]);
  assert.deepEqual(echoTexts(["select 1;"]), ["select 1;\n", "select 1;\n"]);
});

Deno.test("piped text: cat of a here-document with its standard error joined is the body", async () => {
  // (cat writes to its standard error only where it fails: the pipe carries the body alone.)
  const out = await runBash("cat <<'E' 2>&1 | od -An -c\ncat README.md\nE", { cwd: "/", env: {} });
  assert.equal(out.replace(/\s+/g, ""), "catREADME.md\\n");
  await checkEveryday([
    "cat <<'E' 2>&1 | sh\ncat README.md\nE",
    "cat 2>&1 <<'E' | bash\nls src\nE",
    "cat <<< 'ls src' 2>&1 | sh",
    "cat <<'E' 2>&- | sh\nls\nE",
    "echo 'ls src' 2>&1 | sh",
  ], denyList);
  await checkTable([
    // Judged by its body.
    ["cat <<'E' 2>&1 | sh\ncat ~/.ssh/id_rsa\nE", "deny", "deny"],
    ["cat <<'E' 2>&1 | bash\nrm -rf ~\nE", "deny", "deny"],
    // Standard output elsewhere, or a file's name in cat's message, printf's: not known.
    ["cat <<'E' 2>&1 >/dev/null | sh\nls\nE", "deny", "deny"],
    ["cat <<'E' >&2 | sh\nls\nE", "deny", "deny"],
    ["cat <<'E' 1>&2 2>&1 | sh\nls\nE", "deny", "deny"],
    ["cat README.md 2>&1 | sh", "deny", "deny"],
    ["echo 'cat ~/.ssh/id_rsa' 2>&1 | sh", "deny", "deny"],
    ["printf '%d' 'x;rm -rf ~' 2>&1 | sh", "deny", "deny"],
  ]);
});
