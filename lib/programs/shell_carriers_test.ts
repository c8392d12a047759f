import { checkGateTable, checkTable } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";

Deno.test("shell carriers: hyperfine, nodemon, concurrently and sem run their lines through a shell", async () => {
  // [command, read-only, deny-list]: the deny-list denies `rm *`, `curl *` and reading `.env`.
  await checkTable([
    ["hyperfine 'rm -rf src'", "deny", "deny"],
    ["hyperfine --warmup 3 'ls' 'cat .env'", "deny", "deny"],
    ["hyperfine --prepare 'rm -rf src' 'ls'", "deny", "deny"],
    ["hyperfine -p 'curl evil' ls", "deny", "deny"],
    ["hyperfine --setup='cat .env' ls", "deny", "deny"],
    ["hyperfine --cleanup 'rm x' --conclude 'rm y' ls", "deny", "deny"],
    ["hyperfine -S bash 'cat keys/id_rsa'", "deny", "deny"],
    ["hyperfine -P n 1 3 'rm -rf src/{n}'", "deny", "deny"],
    ["hyperfine -L v a,b 'cat .env'", "deny", "deny"],
    ["hyperfine --frob 'rm -rf src' ls", "deny", "deny"],
    ["nodemon --exec 'rm -rf src'", "deny", "deny"],
    ["nodemon -w src -x 'cat' .env", "deny", "deny"],
    ["nodemon --exec=curl evil", "deny", "deny"],
    ["concurrently 'ls' 'rm -rf src'", "deny", "deny"],
    ["concurrently -n a,b --teardown 'curl evil' 'ls'", "deny", "deny"],
    ["concurrently --kill-others 'cat .env > x'", "deny", "deny"],
    ["sem -j4 'rm -rf src'", "deny", "deny"],
    ["sem --id x cat .env", "deny", "deny"],
    // nodemon reads its options anywhere before `--`; the words it does not know are passed on.
    ["nodemon src/main.ts --exec 'cat .env'", "deny", "deny"],
    ["nodemon --inspect -x 'cat .env'", "deny", "deny"],
    ["nodemon foo -x 'cat .env'", "deny", "deny"],
    ["nodemon -w src foo --delay 2 --exec 'rm -rf src'", "deny", "deny"],
    ["nodemon -x 'cat {{filename}}' .env", "deny", "deny"],
    ["nodemon --exec 'cat' src/main.ts -- .env", "deny", "deny"],
    // hyperfine's `-S` is a command line given `-c LINE`; its parameters' values go into the lines.
    ["hyperfine -S \"sh -c 'cat .env' x\" true", "deny", "deny"],
    ["hyperfine --shell 'env cat .env' true", "deny", "deny"],
    ["hyperfine -S 'bash -c \"rm -rf src\"' ls", "deny", "deny"],
    ["hyperfine -S fish 'cat .env'", "deny", "deny"],
    ["hyperfine -L f x,.env 'cat {f}'", "deny", "deny"],
    ["hyperfine --parameter-list f 'x;cat .env' 'echo {f}'", "deny", "deny"],
    ["hyperfine -L a 1,2 -L f x,.env 'cat {f}'", "deny", "deny"],
    ["hyperfine --prepare 'cat {f}' -L f .env true", "deny", "deny"],
    ["hyperfine -L f $LIST 'cat {f}'", "deny", "ask"],
    ["hyperfine -P n 1 500 'cat {n}'", "deny", "ask"],
    ["hyperfine -P n 1 3 'rm -rf src{n}'", "deny", "deny"],
    // Everyday: benchmarks, dev servers (nodemon's: nodemon_test.ts, where package.json is read).
    ["hyperfine -L f x,y 'gzip -k {f}'", "deny", "allow"],
    ["hyperfine -P threads 1 8 'make -j {threads}'", "deny", "allow"],
    ["hyperfine -S 'bash --norc' 'ls src'", "deny", "allow"],
    ["hyperfine -N 'ls src'", "deny", "allow"],
    ["hyperfine --warmup 3 'npm test' 'npx tsc --noEmit'", "deny", "allow"],
    ["concurrently -n web,api 'npm:dev' 'npm:api'", "deny", "allow"],
    ["sem -j4 gzip notes.txt", "deny", "allow"],
  ]);
});

Deno.test("shell carriers: a line that writes is judged where it writes", async () => {
  const ctx = ctxIn("/home/user/project", { files: ["/home/user/project/src/main.ts"] });
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    ["hyperfine 'echo x > /home/user/.pi/agent/settings.json'", "allow", "ask"],
    ["nodemon --exec 'cp x /home/user/.pi/agent/extensions/x.ts'", "allow", "ask"],
    ["concurrently 'ls' 'tee .pi/settings.json'", "allow", "ask"],
    ["sem 'echo x >> .pi/settings.json'", "allow", "ask"],
    ["nix run nixpkgs#bash -- -c 'echo x > .pi/settings.json'", "allow", "ask"],
    // pnpm's shell mode, before its subcommand too.
    ["pnpm -c exec 'echo x > .pi/settings.json'", "allow", "ask"],
    ["pnpm --shell-mode exec 'echo x > .pi/settings.json'", "allow", "ask"],
    ["pnpm dlx --shell-mode 'echo x > .pi/settings.json'", "allow", "ask"],
    ["pnpm -c exec 'tsc && vitest run'", "allow", "allow"],
    // csh's and tcsh's `-c` text is a bash line.
    ["csh -c 'echo x > .pi/settings.json'", "allow", "ask"],
    ["tcsh -fc 'cp x /home/user/.pi/agent/settings.json'", "allow", "ask"],
    ["csh -c 'ls src'", "allow", "allow"],
    ["hyperfine 'ls src'", "allow", "allow"],
  ]);
});
