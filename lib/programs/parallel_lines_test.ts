/** The lines GNU parallel runs: columns, inputs combined, its own replacement strings, files. */
import assert from "node:assert/strict";
import { loadBashParser } from "../shell/parser.ts";
import { innerRuns } from "../testing_stages.ts";
import { checkActions, configFrom, ctxIn } from "../testing.ts";

const parser = await loadBashParser();
const runs = (command: string) => innerRuns(parser, command, { listed: false });

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
    ["parallel -a missing.txt cat", "ask"],
    // Everyday.
    ["parallel --colsep , cp {1} {2} ::: a,b", "allow"],
    ["parallel -a ok.txt gzip -k", "allow"],
    ["parallel gzip ::: a b", "allow"],
    ["parallel -j4 'wc -l {}' ::: a b", "allow"],
  ]);
});
