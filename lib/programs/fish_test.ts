/**
 * fish's text is read as bash only where it reads as bash does (fish.ts); zsh's and yash's long
 * options (shells.ts): `--emulate MODE`, `+-NAME`, `--shinstdin`, yash's `--cmdline`, `--stdin`.
 */
import assert from "node:assert/strict";
import { fishReadsAsBash } from "./fish.ts";
import { checkTable } from "../testing_adversarial.ts";

Deno.test("fishReadsAsBash: fish's own syntax and its defining commands are not bash's", () => {
  for (
    const text of [
      "ls",
      "npm test",
      "git status; npm run build",
      "cat src/main.ts | grep foo > out.txt",
      "echo $HOME/x",
      "test -f x && echo 'set -x' || echo \"read on\"",
      "git commit -m 'the set of files'",
    ]
  ) assert.equal(fishReadsAsBash(text), true, text);
  for (
    const text of [
      "set -gx GIT_PAGER 'rm -rf src'; git log",
      "set -x LD_PRELOAD ./x.so; ls",
      "set --export PAGER x",
      "se't' -Ux PAGER x",
      "true; and set -x PAGER x",
      "not set PAGER x",
      "FOO=1 set -x PAGER x",
      "echo rm | read -x PAGER",
      "alias ls 'rm -rf src'",
      "function ls; rm -rf src; end",
      "abbr -a ls rm",
      "eval ls",
      "cat secr\\x65ts/key",
      "cat secr\\u0065ts/key",
      "cat secr\\X65ts/key",
      "cat secr\\o145ts/key",
      "echo 'a\\'' ; rm -rf src ; echo ''",
      "cat secrets/{key}",
      "echo (cat .env)",
      "echo $(cat .env)",
      "echo $argv[1]",
      "echo $$name",
      "cat **/id_rsa",
      "cat ?env",
      "ls ^.env",
    ]
  ) assert.equal(fishReadsAsBash(text), false, text);
});

Deno.test("fish's text that is not bash's is code not seen; bash-like text is read", async () => {
  await checkTable([
    ["fish -c 'set -gx GIT_PAGER \"rm -rf src\"; git log'", "deny", "deny"],
    ["fish -c 'set -x PAGER \"cat .env\"; git log'", "deny", "deny"],
    ["fish -c 'cat .\\x65nv'", "deny", "deny"],
    ["fish -C 'cat .\\u0065nv' -c ls", "deny", "deny"],
    ["fish <<< 'cat .\\x65nv'", "deny", "deny"],
    ["echo 'cat .\\x65nv' | fish", "deny", "deny"],
    ["fish -c 'rm -rf src'", "deny", "deny"],
    ["fish -c 'cat .env'", "deny", "deny"],
    ["fish -c 'ls'", "deny", "allow"],
    ["fish -c 'npm test'", "deny", "allow"],
    ["fish <<< 'git status'", "deny", "allow"],
  ]);
});

Deno.test("zsh's and yash's long options: -c and -s by name, --emulate's value", async () => {
  await checkTable([
    ["zsh --emulate sh -c 'rm -rf src'", "deny", "deny"],
    ["zsh +-emulate sh -c 'rm -rf src'", "deny", "deny"],
    ["zsh +-BSD_ECHo -c 'rm -rf src'", "deny", "deny"],
    ["zsh --bsd-echo -c 'rm -rf src'", "deny", "deny"],
    ["zsh --shinstdin x <<< 'rm -rf src'", "deny", "deny"],
    ["zsh --SHIN-STDIN x <<< 'rm -rf src'", "deny", "deny"],
    ["zsh -o SHIN_STDIN x <<< 'rm -rf src'", "deny", "deny"],
    ["zsh -oshinstdin x <<< 'rm -rf src'", "deny", "deny"],
    ["zsh +o noshinstdin x <<< 'rm -rf src'", "deny", "deny"],
    ["yash --cmdline 'rm -rf src'", "deny", "deny"],
    ["yash --cmd 'rm -rf src'", "deny", "deny"],
    ["yash --CMD-LINE 'rm -rf src'", "deny", "deny"],
    ["yash -o cmdline 'rm -rf src'", "deny", "deny"],
    ["yash --stdin x <<< 'rm -rf src'", "deny", "deny"],
    ["yash --profile x -c 'rm -rf src'", "deny", "deny"],
    ["yash --rcfile=x -c 'rm -rf src'", "deny", "deny"],
  ]);
});
