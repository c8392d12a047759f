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
    // Everyday: benchmarks, dev servers.
    ["hyperfine --warmup 3 'npm test' 'npx tsc --noEmit'", "deny", "allow"],
    ["nodemon --exec 'npx tsx' src/main.ts", "deny", "allow"],
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
