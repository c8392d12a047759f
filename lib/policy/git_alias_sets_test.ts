import { checkActions, configFrom, ctxIn } from "../testing.ts";

const home = "/home/user";
const config = configFrom({
  policies: {
    open: {
      defaultAction: "allow",
      rules: [{ action: "deny", tool: "bash", pattern: "git push *" }],
    },
  },
  locations: { "/": "open" },
  pathProtection: { ".env": "ask", "~/.ssh/**": "deny", "secrets/**": "deny" },
}, { home });
const ctx = ctxIn("/p", {
  home,
  files: ["/p/src/main.ts", "/p/.env", "/p/secrets/key", `${home}/.ssh/id_rsa`],
  contents: { "/p/.git/HEAD": "ref: refs/heads/main\n" },
});

Deno.test("git alias sets: an alias another stage of the command sets is what git runs", async () => {
  await checkActions(config, ctx, [
    // Plain aliases: judged as the git command they stand for (the rules see `git push`).
    ["git config alias.p push && git p origin main", "deny"],
    ["git config --global alias.p 'push --force' ; git p", "deny"],
    ["git config --local alias.P push && git p origin main", "deny"],
    ["git config set alias.p push && git p origin main", "deny"],
    ["git config --add alias.p push && git p origin main", "deny"],
    ["git config --replace-all alias.p push && git p origin main", "deny"],
    ["git config -f ~/.gitaliases alias.p push && git p origin main", "deny"],
    ["git config alias.p push; git -C src p origin main", "deny"],
    // `!` aliases: their text with the words given where they are used.
    ["git config alias.x '!cat' && git x .env", "ask"],
    ["git config alias.x '!f() { cat secrets/\"$1\"; }; f' && git x key", "deny"],
    ["git config --global alias.x '!cat ~/.ssh/id_rsa' ; git x", "deny"],
    // One that may set any alias: a later alias runs a command not known.
    ["git config --edit; git x", "ask"],
    // Everyday: nothing more asked than the commands themselves.
    ["git config alias.st status && git st", "allow"],
    ["git config alias.d diff && git d", "allow"],
    ["git config alias.p push && git status && git log", "allow"],
    ["git config user.name me && git x", "allow"],
  ]);
});
