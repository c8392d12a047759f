import assert from "node:assert/strict";
import { checkActions, ctxIn, HAS_GIT, secretsDenied, tempRepository } from "../testing.ts";
import { configEntries } from "./git_config.ts";
import { environmentAliases } from "./git_aliases.ts";

const home = "/home/user";
const config = secretsDenied(home);
const HEAD = { "/p/.git/HEAD": "ref: refs/heads/main\n" };

Deno.test("git aliases: config values decoded as git decodes them", () => {
  if (!HAS_GIT) return;
  const repo = tempRepository();
  try {
    const text = [
      "[alias]",
      "\tst = status",
      '\tl = "log --oneline" # a comment',
      '\tx = !f() { echo \\"$1\\"; }; f',
      '\ty = "!f() { cat \\"$1\\"; }; f"',
      "\tz = !sh -c \\",
      "  'cat .env'",
      "\tt = a\\tb   c",
      "[Alias] Up = push",
      "[alias.sub] k = v",
    ].join("\n") + "\n";
    repo.write(["cfg"], text);
    const entries = configEntries(text)!;
    for (const e of entries) {
      const key = e.section.includes('"')
        ? `${e.section.replace('"', ".")}.${e.key}`
        : `${e.section}.${e.key}`;
      assert.equal(e.value, repo.git("config", "-f", "cfg", "--get", key).replace(/\n$/, ""), key);
    }
    assert.equal(entries.length, 8);
    assert.equal(configEntries('[alias]\n\tx = "open\n'), null);
    assert.equal(configEntries("[alias]\n\tx = bad\\q\n"), null);
  } finally {
    repo.remove();
  }
});

Deno.test("git aliases: the environment's (GIT_CONFIG_COUNT, GIT_CONFIG_PARAMETERS)", () => {
  const env = (vars: Record<string, string>) => (n: string) => vars[n];
  assert.deepEqual(
    environmentAliases(
      "x",
      env({
        GIT_CONFIG_COUNT: "2",
        GIT_CONFIG_KEY_0: "user.name",
        GIT_CONFIG_VALUE_0: "me",
        GIT_CONFIG_KEY_1: "Alias.X",
        GIT_CONFIG_VALUE_1: "!rm -rf",
      }),
    ),
    ["!rm -rf"],
  );
  assert.deepEqual(
    environmentAliases(
      "x",
      env({ GIT_CONFIG_PARAMETERS: "'alias.x'='!cat '\\''a b'\\''' 'core.pager=less'" }),
    ),
    ["!cat 'a b'"],
  );
  assert.equal(environmentAliases("x", env({ GIT_CONFIG_COUNT: "1" })), null);
  assert.equal(environmentAliases("x", env({ GIT_CONFIG_PARAMETERS: "alias.x=!rm" })), null);
});

Deno.test("git aliases: what an alias in the config files runs, a name that is no git command", async () => {
  const gitconfig = [
    "[alias]",
    "\tst = status",
    "\tlg = log --oneline --graph",
    "\tco = checkout",
    "\twipe = !rm -rf",
    "\tsh = !sh -c",
    "\tup = p",
    "\tp = !cat",
    // An alias that hides a git command is ignored by git.
    "\tstatus = !cat ~/.ssh/id_rsa",
    "[include]",
    "\tpath = ~/.config/git/more",
  ].join("\n") + "\n";
  const ctx = ctxIn("/p", {
    home,
    files: ["/p/src/main.ts", "/p/.env", "/p/secrets/key", `${home}/.ssh/id_rsa`],
    contents: {
      ...HEAD,
      "/p/.git/config": "[alias]\n\tlocal = !cat secrets/key\n",
      [`${home}/.gitconfig`]: gitconfig,
      [`${home}/.config/git/more`]: "[alias]\n\tincluded = !sh -c\n",
      "/etc/gitconfig": "[alias]\n\tsys = !cat ~/.ssh/id_rsa\n",
    },
  });
  await checkActions(config, ctx, [
    // Everyday: no more asked than the commands they stand for.
    ["git st", "allow"],
    ["git st -s", "allow"],
    ["git lg -5", "allow"],
    ["git co -b fix/x", "allow"],
    ["git status", "allow"],
    ["git nothere", "allow"],
    // Hostile: the alias's text with the words given it.
    ["git wipe ~/.ssh", "deny"],
    ["git sh 'cat ~/.ssh/id_rsa'", "deny"],
    ["git sh 'cd secrets; cat key'", "deny"],
    ["git Sh 'cd secrets; cat key'", "deny"],
    ["git up .env", "ask"],
    ["git WIPE ~/.ssh", "deny"],
    ["git -C src sh 'cd ..; cat .env'", "ask"],
    ["git included 'cd secrets; cat key'", "deny"],
    ["git local", "deny"],
    ["git sys", "deny"],
    // What another stage writes into the file first is not known: asked.
    ["echo '[alias] q = !x' >> ~/.gitconfig; git q", "ask"],
  ]);
  // A config file that cannot be read, or that git cannot parse: not known.
  const broken = ctxIn("/p", {
    home,
    files: ["/p/src/main.ts"],
    contents: { ...HEAD, [`${home}/.gitconfig`]: '[alias]\n\tx = "open\n' },
  });
  await checkActions(config, broken, [["git st", "ask"], ["git status", "allow"]]);
  // The environment's files: GIT_CONFIG_GLOBAL, XDG_CONFIG_HOME, GIT_CONFIG_NOSYSTEM.
  const moved = ctxIn("/p", {
    home,
    files: ["/p/src/main.ts", `${home}/.ssh/id_rsa`],
    env: { GIT_CONFIG_GLOBAL: "/cfg/g", XDG_CONFIG_HOME: "/xdg", GIT_CONFIG_NOSYSTEM: "1" },
    contents: {
      ...HEAD,
      "/cfg/g": "[alias]\n\tg = !cat ~/.ssh/id_rsa\n",
      [`${home}/.gitconfig`]: "[alias]\n\th = !cat ~/.ssh/id_rsa\n",
      "/etc/gitconfig": "[alias]\n\ts = !cat ~/.ssh/id_rsa\n",
    },
  });
  await checkActions(config, moved, [["git g", "deny"], ["git h", "allow"], ["git s", "allow"]]);
  const env = ctxIn("/p", {
    home,
    files: ["/p/src/main.ts", "/p/secrets/key", `${home}/.ssh/id_rsa`],
    env: { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "alias.e", GIT_CONFIG_VALUE_0: "!sh -c" },
    contents: HEAD,
  });
  await checkActions(config, env, [["git e 'cd secrets; cat key'", "deny"], ["git e2", "allow"]]);
});

Deno.test("git aliases: a linked work tree's config and its repository's", async () => {
  const ctx = ctxIn("/w", {
    home,
    files: ["/w/src/main.ts", `${home}/.ssh/id_rsa`],
    contents: {
      "/w/.git": "gitdir: /r/.git/worktrees/w\n",
      "/r/.git/worktrees/w/commondir": "../..\n",
      "/r/.git/worktrees/w/config.worktree": "[alias]\n\twt = !cat ~/.ssh/id_rsa\n",
      "/r/.git/config": "[alias]\n\tcommon = !cat ~/.ssh/id_rsa\n",
    },
  });
  await checkActions(config, ctx, [["git wt", "deny"], ["git common", "deny"], [
    "git st",
    "allow",
  ]]);
});

Deno.test("git aliases: a command git does not build in may be an alias where it is not installed", async () => {
  const ctx = ctxIn("/p", {
    home,
    files: ["/p/src/main.ts", "/p/secrets/key", `${home}/.ssh/id_rsa`],
    contents: {
      ...HEAD,
      "/p/.git/config": "[alias]\n\tgui = !cat ~/.ssh/id_rsa\n\tsvn = !cat secrets/key\n" +
        "\tstatus = !cat ~/.ssh/id_rsa\n",
    },
  });
  await checkActions(config, ctx, [
    ["git gui", "deny"],
    ["git svn", "deny"],
    ["git config alias.send-email '!cat ~/.ssh/id_rsa' && git send-email x.patch", "deny"],
    // A builtin hides its alias.
    ["git status", "allow"],
    ["git submodule update --init", "allow"],
  ]);
});

Deno.test("git aliases: help.autocorrect in the config files runs the command a name is taken for", async () => {
  const files = ["/p/src/main.ts", `${home}/.ssh/id_rsa`];
  const on = (value: string, extra: Record<string, string> = {}) =>
    ctxIn("/p", {
      home,
      files,
      contents: { ...HEAD, [`${home}/.gitconfig`]: `[help]\n\tautocorrect${value}\n`, ...extra },
      env: { PATH: "/usr/local/bin:/usr/bin" },
    });
  for (const value of [" = 1", " = immediate", " = prompt", " = -1", " = 20", ""]) {
    await checkActions(config, on(value), [
      ["git chekout evil", "ask"],
      ["git status", "allow"],
      ["git log --oneline", "allow"],
    ]);
  }
  for (const value of [" = 0", " = never", " = show", " = false"]) {
    await checkActions(config, on(value), [["git chekout evil", "allow"]]);
  }
  // An alias of the name, or a program git-NAME on the PATH, is run instead.
  const named = on(" = 1", {
    "/p/.git/config": "[alias]\n\tst = status\n",
    "/usr/local/bin/git-lfs": "#!/bin/sh\n",
  });
  await checkActions(config, named, [["git st", "allow"], ["git lfs ls-files", "allow"]]);
  // The environment's settings.
  const env = ctxIn("/p", {
    home,
    files,
    contents: HEAD,
    env: {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "help.autoCorrect",
      GIT_CONFIG_VALUE_0: "immediate",
      PATH: "/usr/local/bin:/usr/bin",
    },
  });
  await checkActions(config, env, [["git chekout evil", "ask"], ["git status", "allow"]]);
});
