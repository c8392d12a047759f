/** The hooks darcs runs, from its options and the repository's `_darcs/prefs/defaults`. */
import { checkActions, configFrom, ctxIn } from "../testing.ts";

const P = "/home/user/p";
const config = configFrom({
  policies: {
    open: { defaultAction: "allow", rules: [{ action: "deny", tool: "bash", pattern: "rm *" }] },
  },
  locations: { "/": "open" },
});
const files = [`${P}/src/a.ts`];
const defaults = (text: string) =>
  ctxIn(P, { files, contents: { [`${P}/_darcs/prefs/defaults`]: text } });

Deno.test("darcs hooks: the defaults' and the options' hooks are judged", async () => {
  await checkActions(config, defaults("ALL prehook rm -rf src\n"), [
    ["darcs whatsnew", "deny"],
    ["darcs what", "deny"],
    ["darcs whatsnew --no-prehook", "allow"],
  ]);
  await checkActions(config, defaults("record posthook rm -rf src\n"), [
    ["darcs record -m x", "deny"],
    ["darcs whatsnew", "allow"],
  ]);
  await checkActions(config, defaults(""), [
    ["darcs whatsnew --prehook='rm -rf src'", "deny"],
    ["darcs whatsnew --posthook 'rm -rf src' --run-posthook", "deny"],
  ]);
});

Deno.test("darcs hooks: everyday defaults and commands stay allowed", async () => {
  await checkActions(config, defaults("whatsnew posthook echo done\nALL summary\n"), [
    ["darcs whatsnew", "allow"],
    ["darcs record -m x -a", "allow"],
  ]);
  await checkActions(config, ctxIn(P, { files }), [["darcs whatsnew", "allow"]]);
  await checkActions(config, ctxIn(P, { files }), [[
    "echo x > _darcs/prefs/defaults && darcs whatsnew",
    "deny",
  ]]);
});
