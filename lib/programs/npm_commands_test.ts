/** npm's commands as npm derefs them, and pnpm's after `recursive`/`multi`/`m`/`pm`. */
import assert from "node:assert/strict";
import { STARTER_CONFIG } from "../starter.ts";
import { adversarialCtx, checkTable, denyList } from "../testing_adversarial.ts";
import { checkActions, configFrom } from "../testing.ts";
import { npmCommand } from "./npm_commands.ts";

const starter = configFrom(STARTER_CONFIG, {
  agentDir: "/home/user/.pi/agent",
  home: "/home/user",
});

Deno.test("npmCommand: names, aliases, unique prefixes and camelCase, as cmd-list.js derefs", () => {
  const cases: [string, string | undefined][] = [
    ["exec", "exec"],
    ["x", "exec"],
    ["exe", "exec"],
    ["explo", "explore"],
    ["explor", "explore"],
    ["run-script", "run"],
    ["rum", "run"],
    ["urn", "run"],
    ["run", "run"],
    ["t", "test"],
    ["tst", "test"],
    ["tes", "test"],
    ["i", "install"],
    ["in", "install"],
    ["isntall", "install"],
    ["add", "install"],
    ["insta", "install"],
    ["it", "install-test"],
    ["cit", "install-ci-test"],
    ["sit", "install-ci-test"],
    ["ic", "ci"],
    ["clean-install", "ci"],
    ["install-cl", "ci"],
    ["installTest", "install-test"],
    ["start", "start"],
    ["sto", "stop"],
    ["resta", "restart"],
    ["pu", "publish"],
    ["publ", "publish"],
    ["list", "ls"],
    ["la", "ll"],
    ["v", "view"],
    // (Ambiguous prefixes and other words: no command, npm says so.)
    ["e", undefined],
    ["ex", undefined],
    ["ru", undefined],
    ["te", undefined],
    ["frob", undefined],
    ["constructor", undefined],
  ];
  for (const [word, want] of cases) assert.equal(npmCommand(word), want, word);
});

Deno.test("npm: each spelling of exec and explore runs its command", async () => {
  // deno-fmt-ignore
  await checkTable([
    ["npm exe rm -rf src", "deny", "deny"],
    ["npm exe -- rm -rf src", "deny", "deny"],
    ["npm x rm -rf src", "deny", "deny"],
    ["npm --prefix sub exe -c 'curl evil'", "deny", "deny"],
    ["npm explo x -- rm -rf src", "deny", "deny"],
    ["npm explor x -- curl evil", "deny", "deny"],
  ]);
});

Deno.test("npm: a command spelled otherwise is judged by the rules that name it", async () => {
  // (The starter asks before `npm publish*`.)
  // deno-fmt-ignore
  await checkActions(starter, adversarialCtx, [
    ["npm publish", "ask"],
    ["npm pu", "ask"],
    ["npm publ --tag beta", "ask"],
    ["npm --tag beta publish", "ask"],
    // Everyday spellings stay allowed.
    ["npm t", "allow"],
    ["npm tst", "allow"],
    ["npm i", "allow"],
    ["npm i -D typescript", "allow"],
    ["npm ci", "allow"],
    ["npm it", "allow"],
    ["npm run build", "allow"],
    ["npm run-script lint", "allow"],
    ["npm --prefix web test", "allow"],
    ["npm ls", "allow"],
    ["npm x tsc -- --noEmit", "allow"],
  ]);
  await checkActions(denyList, adversarialCtx, [["npm i", "allow"], ["npm t", "allow"]]);
});

Deno.test("pnpm: the command after recursive, multi, m and pm runs as it does first", async () => {
  // deno-fmt-ignore
  await checkTable([
    ["pnpm recursive exec rm -rf src", "deny", "deny"],
    ["pnpm multi exec rm -rf src", "deny", "deny"],
    ["pnpm m exec rm -rf src", "deny", "deny"],
    ["pnpm m --filter app exec rm -rf src", "deny", "deny"],
    ["pnpm -r exec rm -rf src", "deny", "deny"],
    ["pnpm pm exec rm -rf src", "deny", "deny"],
    ["pnpm pm recursive exec curl evil", "deny", "deny"],
    ["pnpm m dlx rm x", "deny", "deny"],
    ["pnpm m curl evil", "deny", "deny"], // not a pnpm command: pnpm runs it
  ]);
  // deno-fmt-ignore
  await checkActions(starter, adversarialCtx, [
    ["pnpm -r test", "allow"],
    ["pnpm m run build", "allow"],
    ["pnpm recursive install", "allow"],
    ["pnpm m rm lodash", "allow"],
    ["pnpm pm install", "allow"],
  ]);
});
