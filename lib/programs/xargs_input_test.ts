/** xargs's items of known text (lib/programs/xargs_input.ts), held to GNU xargs itself. */
import assert from "node:assert/strict";
import { staticWord } from "../shell/model.ts";
import { checkTable } from "../testing_adversarial.ts";
import { XARGS_GRAMMAR } from "./xargs.ts";
import { splitting, xargsItems } from "./xargs_input.ts";

/** [xargs's options, its input]. */
// deno-fmt-ignore
const CASES: [string[], string][] = [
  [[], "secrets/key\n"],
  [[], "a b\n"],
  [[], "  a\t b  \n\n c \n"],
  [[], "'a b' \"c d\" e\\ f\n"],
  [[], "a'b c'd\n"],
  [[], "a\\\\b\n"],
  [[], "no newline"],
  [["-n1"], "a b c\n"],
  [["-I{}"], "  a b  \nc\n"],
  [["-I", "{}"], "'x y' z\n"],
  [["-i"], "p q\n"],
  [["--replace=@"], " r\n"],
  [["-0"], "a b\0c\nd\0"],
  [["-0"], "a b\n"],
  [["--null"], "x\0y\0"],
  [["-d", "\\n"], " a b \nc\n"],
  [["-d,"], "a,b c,d\n"],
  [["--delimiter=:"], "x:y"],
  [["-E", "_"], "a _ b\n"],
  [["-e_"], "a _ b\n"],
  [["--eof=END"], "a\nEND\nb\n"],
  [["-E", "_"], "'_' b\n"],
  [["-s", "100", "-x", "-r"], "a b\n"],
  // An empty quote is an empty item (not at the input's end); `-0`, `-d` keep empty items.
  [[], "a '' b\n"],
  [[], "''\n.e nv\n"],
  [[], "\n\n\"\"\n"],
  [[], " ''  \n"],
  [[], "a ''"],
  [[], "a\n''"],
  [[], "''"],
  [["-n2"], "'' \"\" a\n"],
  [["-I{}"], "''\nx\n\n  \"\" \n'' y\n"],
  [["-I{}"], "''"],
  [["-d,"], "a,,b,"],
  [["-d,"], "a,,"],
  [["-0"], "a\0\0b\0"],
  [["-0"], "\0"],
  // `-E` has no effect with `-0` or `-d`, in either order.
  [["-0", "-E", "a"], "a\0b\0"],
  [["-E", "b", "-d,"], "a,b,c"],
  [["-d,", "--eof=b"], "a,b,c"],
  [["-E", ""], "a '' b\n"],
  // Only C's blanks are skipped before an item: a no-break space, U+3000 or U+FEFF is part of it.
  [[], "\u00a0/.ssh/id_rsa\n"],
  [[], " \u3000a \ufeffb\n"],
  [[], "\v\f\r a\vb\n"],
];

/** What GNU xargs prints running a shell that prints `[ITEM]` a line with the items of `input`. */
async function xargsRun(options: string[], input: string): Promise<string> {
  // (With `-I R`, R stands where the item goes.)
  const r = /^(-I|-i|--replace)/.test(options.join(" "))
    ? [options.join(" ").includes("@") ? "@" : "{}"]
    : [];
  const child = new Deno.Command("xargs", {
    args: [...options, "sh", "-c", 'for a; do printf "[%s]\\n" "$a"; done', "_", ...r],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(input));
  await w.close();
  return new TextDecoder().decode((await child.output()).stdout);
}

Deno.test("xargs splits known input as GNU xargs does", async () => {
  for (const [options, input] of CASES) {
    const out = await xargsRun(options, input);
    const real = out.split("]\n").filter((s) => s !== "").map((s) => s.slice(1));
    const how = splitting(options.map(staticWord), XARGS_GRAMMAR);
    assert.ok(how, options.join(" "));
    const ours = xargsItems(input, how);
    const label = `${options.join(" ")} ${JSON.stringify(input)}`;
    // (With several items a run prints them one to a line: the items in order.)
    assert.deepEqual(ours, real, label);
  }
});

Deno.test("xargs input not known where xargs stops", () => {
  const how = (...o: string[]) => splitting(o.map(staticWord), XARGS_GRAMMAR)!;
  assert.equal(xargsItems("'a b\n", how()), null); // an unmatched quote
  assert.equal(splitting(["-a", "f"].map(staticWord), XARGS_GRAMMAR), null);
  assert.equal(splitting(["-L", "1"].map(staticWord), XARGS_GRAMMAR), null);
  assert.equal(splitting(["-d", "\\x41"].map(staticWord), XARGS_GRAMMAR), null);
});

Deno.test("xargs and while read of echo, printf and here-strings: judged as the words they pass", async () => {
  // deno-fmt-ignore
  await checkTable([
    ["echo .env | xargs cat", "deny", "deny"],
    ["printf '%s\\n' src/a.ts .env | xargs -n1 cat", "deny", "deny"],
    ["printf '%s\\0' src/a.ts .env | xargs -0 cat", "deny", "deny"],
    ["xargs cat <<< .env", "deny", "deny"],
    ["xargs -I{} cat {} <<< .env", "deny", "deny"],
    ["echo . | xargs -I{} cat {}/.env", "deny", "deny"],
    ["echo .env | while read -r f; do cat \"$f\"; done", "deny", "deny"],
    ["while read -r f; do cat \"$f\"; done <<< .env", "deny", "deny"],
    ["read -r f <<< .env; cat \"$f\"", "deny", "deny"],
    ["echo src/a.ts | xargs cat", "allow", "allow"],
    ["xargs -I{} wc -l {} <<< src/a.ts", "allow", "allow"],
    ["echo src/a.ts | while read -r f; do wc -l \"$f\"; done", "allow", "allow"],
    // (xargs takes the quotes away: the item is src/a.ts.)
    ["echo \"'src/a.ts'\" | xargs cat", "allow", "allow"],
    // An empty quote is an item: here `$0`, so `$1$2` is `.env`; `-E` does nothing with `-0`.
    ["printf \"''\\n.e nv\\n\" | xargs sh -c 'cat \"$1$2\"'", "deny", "deny"],
    ["printf \"'' .e nv\\n\" | xargs sh -c 'cat \"$1$2\"'", "deny", "deny"],
    ["printf 'x\\0.env\\0' | xargs -0 -E x cat", "deny", "deny"],
    ["printf 'x,.env' | xargs -E x -d, cat", "deny", "deny"],
    ["printf 'x .env' | xargs -E x cat", "allow", "allow"],
    ["printf \"'' src/a.ts\\n\" | xargs cat", "allow", "allow"],
    // Not known: a value not known, an unmatched quote, an input file.
    ["echo \"$X\" | xargs cat", "ask", "ask"],
    ["echo \"'.env\" | xargs cat", "ask", "ask"],
  ]);
});
