import { checkTable } from "../testing_adversarial.ts";
import { checkActions, ctxIn, secretsDenied } from "../testing.ts";

const P = "/home/user/project";
const ctx = ctxIn(P, {
  files: [`${P}/src/main.ts`, `${P}/src/util.ts`, `${P}/a.ts`, `${P}/secrets/key`, `${P}/.env`],
});
const config = secretsDenied("/home/user");

Deno.test("entr: its `/_` is a file it watches, one of those its input lists", async () => {
  await checkActions(config, ctx, [
    // The first `/_` after the utility is the file that changed: one of the listed paths.
    ["find secrets | entr cat /_", "deny"],
    ["find secrets -type f | entr -c cp /_ /tmp/x", "deny"],
    ["find secrets | entr -x cat /_", "deny"],
    ["find secrets | entr -r -- cat /_", "deny"],
    // A list not known: a file not known.
    ["echo secrets/key | entr cat /_", "ask"],
    ["cat list.txt | entr cat /_", "ask"],
    ["entr cat /_ < list.txt", "ask"],
    // Everyday.
    ["find src | entr cat /_", "allow"],
    ["find src -name '*.ts' | entr -cp wc -l /_", "allow"],
    ["find src | entr -r deno test", "allow"],
    ["find src | entr -r -- wc -l /_", "allow"],
    ["find src | entr -s 'deno test'", "allow"],
  ]);
});

Deno.test("glob scope: what entr and xargs run starts after their input's words were expanded", async () => {
  await checkActions(config, ctx, [
    // (What runs after it read its input does not change what `ls`'s glob matched.)
    ["ls *.ts | entr -r npm test", "allow"],
    ["ls src/*.ts | entr -r npm test", "allow"],
    ["ls src/*.ts | entr -s 'npm test'", "allow"],
    ["ls -d src src/*.ts | entr -d make", "allow"],
    // Not so for a stage that does not read them first, nor a later glob.
    ["ls src/* | entr -r sh -c 'ln -s ../secrets src/x'; cat src/*/key", "deny"],
    ["ls *.ts | tee /dev/null | npm test", "ask"],
  ]);
});

Deno.test("watchexec --shell=SHELL: its words, then -c and the command line", async () => {
  await checkTable([
    ["watchexec --shell='sh -c rm${IFS}-rf${IFS}src' -- x", "deny", "deny"],
    ["watchexec --shell='sh -c \"cat .env\"' -- x", "deny", "deny"],
    ["watchexec --shell rm -- x", "deny", "deny"],
    ["watchexec --shell='bash -c \"cat ~/.ssh/id_rsa\"' -e ts -- npm test", "deny", "deny"],
    ['watchexec --shell="$S" -- make', "deny", "ask"],
    // Its everyday forms.
    ["watchexec -e ts -- npm test", "deny", "allow"],
    ["watchexec --shell=bash -e ts -- npm test", "deny", "allow"],
    ["watchexec --shell='bash -eu' -- npm test", "deny", "allow"],
    ["watchexec --shell=none -- npm test", "deny", "allow"],
  ]);
});
