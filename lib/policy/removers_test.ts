/**
 * A stage that only removes names (`find build -name '*.o' | xargs rm`) makes none appear below
 * what its lister walks: the walk's names are looked for as they are now, as a reader's are.
 */
import assert from "node:assert/strict";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import { STARTER_CONFIG } from "../starter.ts";
import { literal } from "../programs/words.ts";
import type { Stage } from "../shell/model.ts";
import { removesOnly } from "./removers.ts";

const home = "/home/user";
const G = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
const files = ["/p/src/main.ts", "/p/build/a.o", "/p/README.md", `${home}/.ssh/id_rsa`];
const ctx = ctxIn("/p", { files, home });

Deno.test("removers: a listing's names are what is there where the stages writing there only remove", async () => {
  await checkActions(G, ctx, [
    ['find build -name "*.o" -exec rm {} \\;', "allow"],
    ['find . -name "*.orig" -exec rm {} \\;', "allow"],
    ['find build -name "*.o" | xargs rm', "allow"],
    ['find build -name "*.o" -print0 | xargs -0 rm', "allow"],
    ['find build -name "*.o" -exec rm {} + 2>/dev/null', "allow"],
    ['find build -name "*.o" -exec rmdir {} \\;', "allow"],
    ['find build -name "*.o" -exec unlink {} \\;', "allow"],
    // (A stage that may make a name there first, or as the listing goes: as before.)
    ['touch build/id_rsa.o; find build -name "*.o" | xargs rm', "deny"],
    ['find build -name "*.o" -exec rm {} \\; -exec touch build/id_rsa.o \\;', "deny"],
    ['find build -name "*.o" | xargs rm > build/id_rsa.o', "deny"],
    ['find build -name "*.o" -exec rm {} \\; -fprint build/id_rsa.o', "deny"],
    ['find build -name "*.o" | xargs sh -c \'rm "$0"\'', "ask"],
    ['find build -name "*.o" | xargs -I{} mv {} {}.x', "ask"],
    ['find build -name "*.o" -exec cp {} {}.x \\;', "ask"],
  ]);
  // (What is there counts.)
  const there = ctxIn("/p", { files: [...files, "/p/build/sub/id_rsa.o"], home });
  await checkActions(G, there, [
    ['find build -name "*.o" | xargs rm', "ask"],
    ['find build -name "*.o" -exec rm {} \\;', "ask"],
  ]);
});

Deno.test("removers: a path glob below a listing a remover walks counts where its name is", async () => {
  const config = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "secrets/**": "deny", ".env": "ask" },
  });
  const clean = ctxIn("/p", { files: ["/p/src/main.ts", "/p/build/a.o"] });
  const secrets = ctxIn("/p", { files: ["/p/build/a.o", "/p/secrets/x.o", "/p/.env"] });
  await checkActions(config, clean, [
    ['find . -name "*.o" | xargs rm', "allow"],
    // (find's own `-delete` is judged by its directory, as `rm -r .` is: not a listing.)
    ['find . -name "*.o" -delete', "ask"],
    ['find . -name ".env" | xargs rm', "allow"],
  ]);
  await checkActions(config, secrets, [
    ['find . -name "*.o" | xargs rm', "ask"],
    ['find . -name ".env" | xargs rm', "ask"],
    ['find build -name "*.o" | xargs rm', "allow"],
  ]);
});

Deno.test("removers: which stages only remove", () => {
  const stage = (...argv: string[]): Stage => ({
    argv: argv.map(literal),
    redirects: [],
    text: argv.join(" "),
    origin: "top",
    cwds: ["/p"],
  });
  for (const s of [stage("rm", "-f", "x"), stage("/bin/rmdir", "d"), stage("unlink", "x")]) {
    assert.equal(removesOnly(s), true, s.text);
  }
  for (const s of [stage("mv", "a", "b"), stage("./rm", "x"), stage("/usrrm", "x")]) {
    assert.equal(removesOnly(s), false, s.text);
  }
  const rm = stage("rm", "{}");
  const find = stage("find", ".", "-exec", "rm", "{}", ";");
  const tops = new Map([[rm, find]]);
  assert.equal(removesOnly(find, [find, rm], tops), true);
  // (A find that runs a command not seen, or writes a file of its own.)
  assert.equal(removesOnly(find, [find], tops), false);
  const fprint = stage("find", ".", "-delete", "-fprint", "out");
  assert.equal(removesOnly(fprint), false);
  const xargs = stage("xargs", "rm");
  assert.equal(removesOnly(xargs), false);
  const written = { ...rm, redirects: [{ op: ">", kind: "write" as const, target: literal("x") }] };
  assert.equal(removesOnly(written), false);
});
