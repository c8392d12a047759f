/**
 * A settings file given as a descriptor (`--config <(…)`, `/dev/stdin`, `/proc/self/fd/3`) holds
 * what the command gives it as it runs: not known, where the same text in a file is judged;
 * `/dev/null` is an empty file and a path of the process's own cwd is that file.
 */
import { denyList } from "../testing_adversarial.ts";
import { checkActions, ctxIn } from "../testing.ts";

const P = "/home/user/project";
const EVIL = "services:\n  a:\n    image: x\n    volumes:\n      - /home/user/.ssh:/k\n";

Deno.test("settings files: a descriptor's text is not known, a file's is judged", async () => {
  const ctx = ctxIn(P, {
    contents: {
      [`${P}/evil.yml`]: EVIL,
      [`${P}/ok.yml`]: "services:\n  a:\n    image: x\n",
      [`${P}/nodemon.json`]: '{"exec":"node src/main.ts"}',
      [`${P}/Cargo.toml`]: '[package]\nname = "x"\n',
    },
    files: [`${P}/src/main.ts`],
  });
  await checkActions(denyList, ctx, [
    // Hostile: a process substitution, stdin, a descriptor however spelled.
    ["docker compose -f <(cat evil.yml) up", "deny"],
    ["docker compose -f <(cat ok.yml) up", "deny"],
    ["docker compose -f /dev/stdin up < evil.yml", "deny"],
    ["docker compose -f /dev/fd/3 up 3< evil.yml", "deny"],
    ["docker compose -f //proc/self/fd/3 up 3< evil.yml", "deny"],
    ["cargo --config <(echo 'build.rustc-wrapper=\"curl\"') build", "deny"],
    ["cargo --config /dev/stdin build <<< 'build.rustc-wrapper=\"curl\"'", "deny"],
    ['nodemon --config <(echo \'{"exec":"rm -rf /p"}\')', "deny"],
    ["docker compose -f evil.yml up", "deny"],
    // Everyday: a file, /dev/null, the cwd through /proc/self/cwd.
    ["docker compose -f ok.yml up", "allow"],
    ["docker compose -f /proc/self/cwd/ok.yml up", "allow"],
    ["docker compose -f /proc/self/cwd/evil.yml up", "deny"],
    ["cargo --config /dev/null build", "allow"],
    ["cargo build", "allow"],
    ["nodemon --config nodemon.json", "allow"],
  ]);
});
