/** The lines GNU parallel runs: columns, inputs combined, its own replacement strings, files. */
import assert from "node:assert/strict";
import { loadBashParser } from "../shell/parser.ts";
import { innerRuns } from "../testing_stages.ts";
import { checkActions, configFrom, ctxIn, rmDenied } from "../testing.ts";
import { plusValue } from "./parallel_lines.ts";

const parser = await loadBashParser();
// (With no settings files to read, those of parallel are not known: not the lines looked at here.)
const runs = (command: string) =>
  innerRuns(parser, command, { listed: false }).filter((l) => l !== "(the options of ~/.parallel)");

Deno.test("parallel: --colsep's columns and the inputs of several sources are {1}, {2}…", () => {
  assert.deepEqual(runs("parallel --colsep , cat {2} ::: x,.env"), ["cat .env"]);
  assert.deepEqual(runs("parallel -C '[;:]' 'cp {1} {2/}' ::: a:d/b 'c;e'"), ["cp a b", "cp c e"]);
  assert.deepEqual(runs("parallel --colsep=, cat ::: x,y"), ["cat x y"]);
  assert.deepEqual(runs("parallel cat {2} {1.} ::: a.c ::: .env"), ["cat .env a"]);
  assert.deepEqual(runs("parallel cat ::: a ::: b c"), ["cat a b", "cat a c"]);
  assert.deepEqual(runs("parallel cat {2} ::: a b :::+ x .env"), ["cat x", "cat .env"]);
  // (One source, no columns: `{2}` is empty.)
  assert.deepEqual(runs("parallel echo {2} ::: x"), ["echo "]);
});

Deno.test("parallel: negative positional strings count the sources from the end ({-n}…)", () => {
  assert.deepEqual(runs("parallel cat .{-1} ::: env"), ["cat .env"]);
  assert.deepEqual(runs("parallel cat .{-1/} ::: x ::: d/env"), ["cat .env"]);
  assert.deepEqual(runs("parallel cp {-2.} {-1//} {-1/.} ::: a/b.c ::: d/e.f"), ["cp a/b d e"]);
  assert.deepEqual(runs("parallel --colsep , cat {-1} ::: x,.env"), ["cat .env"]);
  assert.deepEqual(runs("parallel --plus cat {-1%XX} ::: a ::: .envXX"), ["cat .env"]);
  // (As parallel 20221122 reads them: `{0}` the whole input, `{01}` the first, `{1 /}` one form,
  // a count past the sources a Perl index counted from the end once more, else empty.)
  assert.deepEqual(runs("parallel echo {0} {01} {-01} '{1 /}' ::: a ::: d/b"), [
    "echo a d/b a d/b a",
  ]);
  assert.deepEqual(runs("parallel echo {-3}/{-4}/{-5}/{-7} ::: a ::: b ::: c"), ["echo a/c/b/"]);
  assert.deepEqual(runs("parallel echo {00} {-0} ::: a"), ["echo  "]);
  // Not known: parallel's own string left in the line.
  assert.deepEqual(runs("parallel cat s/{-1}"), ["cat s/{-1}", "cat s/{-1} (parallel input)"]);
});

Deno.test("parallel: its own replacement strings (-I, -i, --er, --bnr, --dnr, --bner)", () => {
  assert.deepEqual(runs("parallel -I XX cat XX {} ::: a"), ["cat a {}"]);
  assert.deepEqual(runs("parallel -iXX cat XX ::: a"), ["cat a"]);
  assert.deepEqual(runs("parallel -i cat {} ::: a"), ["cat a"]);
  assert.deepEqual(runs("parallel --er XX cat XX ::: d/.env.txt"), ["cat d/.env"]);
  assert.deepEqual(runs("parallel --bnr XX cat XX ::: a/.env"), ["cat .env"]);
  assert.deepEqual(runs("parallel --dnr=XX cat XX/.env ::: a/b"), ["cat a/.env"]);
  assert.deepEqual(runs("parallel --bner XX cat XX ::: a/.env.x"), ["cat .env"]);
  // (Another program's `-I` is its own: `grep -I`.)
  assert.deepEqual(runs("parallel grep -I x {} ::: a"), ["grep -I x a"]);
  // Not known: parallel's own strings left in the line, the command given an input not known.
  assert.deepEqual(runs("parallel -I XX cat s/XX"), ["cat s/{}", "cat s/XX (parallel input)"]);
});

Deno.test("parallel: a protected file reached through columns, sources, strings and input files", async () => {
  const P = "/home/user/project";
  const config = configFrom({
    policies: {
      open: { defaultAction: "allow", rules: [{ action: "deny", tool: "bash", pattern: "rm *" }] },
    },
    locations: { "/": "open" },
    pathProtection: { ".env": "ask", "secrets/**": "deny", "~/.ssh/**": "deny" },
  }, { agentDir: "/home/user/.pi/agent", home: "/home/user" });
  const ctx = ctxIn(P, {
    files: [`${P}/.env`, `${P}/secrets/key`, `${P}/a`, `${P}/b`],
    contents: { [`${P}/list.txt`]: "a\nsecrets/key\n", [`${P}/ok.txt`]: "a\nb\n" },
  });
  await checkActions(config, ctx, [
    ["parallel --colsep , cat {2} ::: x,.env", "ask"],
    ["parallel -C , cat {2} ::: x,secrets/key", "deny"],
    ["parallel cat {2} ::: x ::: secrets/key", "deny"],
    ["parallel --er XX cat XX ::: secrets/key.txt", "deny"],
    ["parallel --bnr XX cat secrets/XX ::: a/key", "deny"],
    ["parallel -a list.txt cat", "deny"],
    ["parallel --arg-file=list.txt 'wc -l {}'", "deny"],
    ["parallel cat :::: list.txt", "deny"],
    ["parallel cat {2} ::: a :::: list.txt", "deny"],
    ["parallel cat {=s/x/.env/=} ::: x", "deny"],
    ["parallel cat .{-1} ::: env", "ask"],
    ["parallel cat .{-1/} ::: x ::: d/env", "ask"],
    ["parallel cat secret{-1} ::: s/key", "deny"],
    ["parallel cat ~/.ss{-1} ::: h/id_rsa", "deny"],
    ["parallel cat {-2/.} ::: d/a.x ::: x", "allow"],
    ["parallel -a missing.txt cat", "ask"],
    // Everyday.
    ["parallel --colsep , cp {1} {2} ::: a,b", "allow"],
    ["parallel -a ok.txt gzip -k", "allow"],
    ["parallel gzip ::: a b", "allow"],
    ["parallel -j4 'wc -l {}' ::: a b", "allow"],
  ]);
});

Deno.test("parallel --plus: the value of each form, or null where it is not computed", () => {
  assert.equal(plusValue("%.log", "a.log"), "a");
  assert.equal(plusValue("%%.x", "a.x.x"), "a.x");
  assert.equal(plusValue("%%.x.*", "a.x.x"), "a");
  assert.equal(plusValue("%.x", "a.x.x"), "a.x");
  assert.equal(plusValue("#XX", "XXsecrets/key"), "secrets/key");
  assert.equal(plusValue("##a", "aab"), "ab");
  assert.equal(plusValue("/ZZ/secrets", "ZZ/key"), "secrets/key");
  assert.equal(plusValue("//Z/s", "Z/Z"), "s/s");
  assert.equal(plusValue(":-.env", ""), ".env");
  assert.equal(plusValue(":2", "xx.env"), ".env");
  assert.equal(plusValue(":1:3", "x.envx"), ".en");
  assert.equal(plusValue(",,ENV", ".ENV"), ".env");
  assert.equal(plusValue("^^e", ".ene"), ".EnE");
  assert.equal(plusValue("..", "d/k.a.b"), "d/k");
  assert.equal(plusValue("/..", "d/k.a.b"), "k");
  assert.equal(plusValue("+..", "d/k.a.b"), "a.b");
  assert.equal(plusValue("+.", "d/k.a"), "a");
  assert.equal(plusValue("+/", "d/k"), "d");
  assert.equal(plusValue("##", "x"), "1");
  assert.equal(plusValue("0#", "x"), "1");
  assert.equal(plusValue("#[A-Z]*", "XXa"), null);
  assert.equal(plusValue("/(x)/$1", "x"), null);
  assert.equal(plusValue("host", "x"), null);
  assert.equal(plusValue("foo", "x"), undefined);
});

Deno.test("parallel --plus, --rpl, --parens: the files its forms reach, Perl not seen", async () => {
  const P = "/home/user/project";
  const config = rmDenied("/home/user");
  const files = [`${P}/.env`, `${P}/secrets/key`, `${P}/a.log`];
  const ctx = ctxIn(P, { files });
  await checkActions(config, ctx, [
    ["parallel --plus cat ./{#XX} ::: XXsecrets/key", "deny"],
    ["parallel --plus 'cat {%XX}' ::: .envXX", "ask"],
    ["parallel --plus 'cat {/ZZ/secrets}' ::: ZZ/key", "deny"],
    ["parallel --plus 'cat {2%.x}' ::: a ::: .env.x", "ask"],
    ["parallel --plus 'cat {:2}' ::: xx.env", "ask"],
    // Not computed: a value not known, not the input appended.
    ["parallel --plus 'cat {#[A-Z]*}' ::: XXsecrets/key", "ask"],
    ["parallel --plus 'cat {choose_k}' ::: a", "ask"],
    // `--rpl` and `--parens` (and a prefix of them) define Perl it runs.
    ["parallel --rpl 'QQ s/ZZ/secr\\x65ts/' cat ./QQ ::: ZZ/key", "deny"],
    ["parallel --rp='QQ s/Z/x/' cat ./QQ ::: a", "deny"],
    ["parallel --parens ,,,, cat ,,s/Z/secrets/,, ::: Z/key", "deny"],
    // Everyday.
    ["parallel --plus echo {%.log} ::: a.log", "allow"],
    ["parallel --plus gzip {%.log}.log ::: a.log", "allow"],
    ["parallel --plus 'echo {#} {##} {foo}' ::: a", "allow"],
    ["parallel -j4 gzip ::: a.log", "allow"],
  ]);
});

Deno.test("parallel: the options of ~/.parallel/config, -J profiles and $PARALLEL", async () => {
  const P = "/home/user/project";
  const config = rmDenied("/home/user");
  const files = [`${P}/.env`, `${P}/secrets/key`, `${P}/a.log`];
  const at = (contents: Record<string, string>, env?: Record<string, string>) =>
    ctxIn(P, { files, contents, env });
  await checkActions(config, at({ "/home/user/.parallel/config": "--rpl 'QQ s/Z/x/'\n" }), [
    ["parallel cat ./QQ ::: Z/key", "deny"],
  ]);
  await checkActions(config, at({ "/home/user/.parallel/fast": "# mine\n--plus -j8\n" }), [
    ["parallel -J fast 'cat {%XX}' ::: .envXX", "ask"],
    ["parallel -J fast 'gzip {%.log}.log' ::: a.log", "allow"],
  ]);
  await checkActions(config, at({}, { PARALLEL: "--plus" }), [
    ["parallel 'cat {#XX}' ::: XXsecrets/key", "deny"],
  ]);
  await checkActions(config, at({}), [
    ["parallel -J ./prof cat ::: a", "deny"],
    ["echo --rpl > ~/.parallel/config; parallel cat ::: a", "deny"],
    ["parallel gzip ::: a.log", "allow"],
  ]);
});
