import assert from "node:assert/strict";
import { HAS_GIT, runGit, tempRepository } from "../testing.ts";
import { fakeFs, realFs } from "./fs_facts.ts";
import { ignoredBy, ignorePatterns, ignoreSettings, unignoredNames } from "./git_ignore.ts";

/** Whether `path` is ignored by one `.gitignore` at the top holding `text`. */
const ignored = (text: string, path: string, isDir = false, folded = false) =>
  ignoredBy(ignorePatterns(text, ""), path, isDir, folded);

Deno.test("git ignore: pattern forms (gitignore(5))", () => {
  // A name at any depth; a trailing `/` only directories.
  assert.equal(ignored("key", "secrets/key"), true);
  assert.equal(ignored("key", "key"), true);
  assert.equal(ignored("secrets/", "secrets", true), true);
  assert.equal(ignored("secrets/", "secrets", false), false);
  assert.equal(ignored("secrets/", "a/secrets", true), true);
  // A leading or middle `/` anchors to the file's directory.
  assert.equal(ignored("/secrets", "secrets", true), true);
  assert.equal(ignored("/secrets", "a/secrets", true), false);
  assert.equal(ignored("a/secrets", "a/secrets", true), true);
  assert.equal(ignored("a/secrets", "b/a/secrets", true), false);
  // `*`, `?` stay within a name; `[…]` is one character.
  assert.equal(ignored("*.key", "x/y.key"), true);
  assert.equal(ignored("a/*.key", "a/b/y.key"), false);
  assert.equal(ignored("se?rets", "secrets", true), true);
  assert.equal(ignored("s/?", "s/x"), true);
  assert.equal(ignored("[sS]ecrets", "Secrets", true), true);
  assert.equal(ignored("[!s]ecrets", "secrets", true), false);
  assert.equal(ignored("[a-c]x", "bx"), true);
  assert.equal(ignored("[[:digit:]]x", "5x"), true);
  assert.equal(ignored("a[/]b", "a/b"), false);
  // (An unterminated bracket or an unknown class matches nothing.)
  assert.equal(ignored("[abc", "[abc"), false);
  assert.equal(ignored("[[:nope:]]", "a"), false);
  // `**`: leading, trailing, middle; other runs of stars are one `*`.
  assert.equal(ignored("**/secrets", "a/b/secrets", true), true);
  assert.equal(ignored("**/secrets", "secrets", true), true);
  assert.equal(ignored("secrets/**", "secrets/a/key"), true);
  assert.equal(ignored("secrets/**", "secrets", true), false);
  assert.equal(ignored("a/**/key", "a/key"), true);
  assert.equal(ignored("a/**/key", "a/x/y/key"), true);
  assert.equal(ignored("a**b/c", "ab/c"), true);
  assert.equal(ignored("a**b/c", "ax/yb/c"), false);
  // Comments, blank lines, escapes, trailing spaces.
  assert.equal(ignored("#key", "#key"), false);
  assert.equal(ignored("\\#key", "#key"), true);
  assert.equal(ignored("\\!key", "!key"), true);
  assert.equal(ignored("key   ", "key"), true);
  assert.equal(ignored("key\\ ", "key "), true);
  assert.equal(ignored("key\\ ", "key"), false);
  assert.equal(ignored("k\\*y", "kay"), false);
  assert.equal(ignored("key\r\n", "key"), true);
  // Negation: the last pattern that matches decides.
  assert.equal(ignored("*.key\n!public.key", "public.key"), false);
  assert.equal(ignored("!public.key\n*.key", "public.key"), true);
  // Case: only with core.ignoreCase.
  assert.equal(ignored("secrets/", "SECRETS", true), false);
  assert.equal(ignored("secrets/", "SECRETS", true, true), true);
  // A deeper file's patterns are relative to its directory, and win.
  const rules = [...ignorePatterns("*.key", ""), ...ignorePatterns("!/a.key", "sub/")];
  assert.equal(ignoredBy(rules, "sub/a.key", false, false), false);
  assert.equal(ignoredBy(rules, "sub/x/a.key", false, false), true);
  assert.equal(ignoredBy(rules, "a.key", false, false), true);
});

const home = "/home/user";

/** A fake work tree at /p with `files` and texts. */
function tree(files: string[], contents: Record<string, string> = {}) {
  return fakeFs({ files: ["/p/.git/HEAD", ...files.map((f) => `/p/${f}`)], contents });
}

Deno.test("git ignore: what is below a work tree, pruned where a directory is ignored", () => {
  const files = ["src/a.ts", "secrets/key", "secrets/public/x", "logs/a.log", "README.md"];
  const names = (contents: Record<string, string>, env = {}) =>
    unignoredNames("/p", "/p", "/p/.git", tree(files, contents), home, { HOME: home, ...env })
      ?.names.filter((n) => n !== ".gitignore").sort();
  assert.deepEqual(names({}), [
    "README.md",
    "a.log",
    "a.ts",
    "key",
    "logs",
    "public",
    "secrets",
    "src",
    "x",
  ]);
  assert.deepEqual(names({ "/p/.gitignore": "secrets/\nlogs\n" }), ["README.md", "a.ts", "src"]);
  // A file cannot be re-included where a parent directory is excluded.
  assert.deepEqual(names({ "/p/.gitignore": "secrets/\n!secrets/public/\n" }), [
    "README.md",
    "a.log",
    "a.ts",
    "logs",
    "src",
  ]);
  // Where the parent is not excluded, it can.
  assert.deepEqual(
    names({ "/p/.gitignore": "secrets/*\n!secrets/public/\n" })?.includes("x"),
    true,
  );
  assert.deepEqual(
    names({ "/p/.gitignore": "secrets/*\n!secrets/public/\n" })?.includes("key"),
    false,
  );
  // info/exclude and the excludes file (XDG by default, or core.excludesFile).
  assert.deepEqual(names({ "/p/.git/info/exclude": "secrets\n" })?.includes("key"), false);
  assert.deepEqual(names({ [`${home}/.config/git/ignore`]: "secrets\n" })?.includes("key"), false);
  assert.deepEqual(
    names({ "/x/git/ignore": "secrets\n" }, { XDG_CONFIG_HOME: "/x" })?.includes("key"),
    false,
  );
  assert.deepEqual(
    names({
      [`${home}/.config/git/ignore`]: "secrets\n",
      [`${home}/.gitconfig`]: "[core]\n\texcludesFile = ~/.ignore\n",
    })?.includes("key"),
    true,
  );
  assert.deepEqual(
    names({
      [`${home}/.ignore`]: "secrets\n",
      [`${home}/.gitconfig`]: "[core]\n\texcludesFile = ~/.ignore\n",
    })?.includes("key"),
    false,
  );
  // A nested .gitignore re-includes below it.
  assert.deepEqual(
    names({ "/p/.gitignore": "key\n", "/p/secrets/.gitignore": "!key\n" })?.includes("key"),
    true,
  );
  // The user's config where GIT_CONFIG_GLOBAL puts it.
  assert.equal(
    names({ "/x": "[core]\n\texcludesFile = ~/.ignore\n", [`${home}/.ignore`]: "secrets\n" }, {
      GIT_CONFIG_GLOBAL: "/x",
    })?.includes("key"),
    false,
  );
  // Not known: a config variable not followed, a setting not a path, a conditional include
  // that sets it.
  assert.equal(names({}, { GIT_CONFIG_PARAMETERS: "'core.excludesfile'='/x'" }), undefined);
  assert.equal(names({ [`${home}/.gitconfig`]: '[core]\n excludesFile = "a\\"b"\n' }), undefined);
  assert.equal(
    names({
      [`${home}/.gitconfig`]: '[includeIf "gitdir:~/w/"]\n path = ~/.w\n',
      [`${home}/.w`]: "[core]\n ignorecase = true\n",
    }),
    undefined,
  );
  // core.ignoreCase in the repository's config.
  assert.deepEqual(
    names({ "/p/.gitignore": "SECRETS/\n", "/p/.git/config": "[core]\n\tignorecase = true\n" })
      ?.includes("key"),
    false,
  );
});

Deno.test("git ignore: settings read from the config files", () => {
  const fs = fakeFs({
    files: [],
    contents: {
      [`${home}/.gitconfig`]: "[include]\n path = .more\n[user]\n name = x\n",
      [`${home}/.more`]: "[core]\n excludesfile = /etc/ign\n",
    },
  });
  const s = ignoreSettings("/p/.git", "/p/.git", fs, home, {});
  assert.equal(s?.excludesFile, "/etc/ign");
  assert.equal(s?.ignoreCase, false);
  const settings = (contents: Record<string, string>) =>
    ignoreSettings("/p/.git", "/p/.git", fakeFs({ files: [], contents }), home, {});
  // A value goes on past a line ending in a backslash: what follows is no setting.
  const continued = settings({
    [`${home}/.gitconfig`]: "[core]\n\tpager = less \\\n\texcludesFile = /x/ign\n",
  });
  assert.equal(continued?.excludesFile, `${home}/.config/git/ignore`);
  // (An even number of them ends the value.)
  const ended = settings({
    [`${home}/.gitconfig`]: "[core]\n\tpager = less \\\\\n\texcludesFile = /x/ign\n",
  });
  assert.equal(ended?.excludesFile, "/x/ign");
  // A work tree's config is read only where the repository's turns it on.
  const worktree = { "/p/.git/config.worktree": "[core]\n\texcludesFile = /x/ign\n" };
  assert.equal(settings(worktree)?.excludesFile, `${home}/.config/git/ignore`);
  const on = settings({
    ...worktree,
    "/p/.git/config": "[extensions]\n\tworktreeConfig = true\n",
  });
  assert.equal(on?.excludesFile, "/x/ign");
  // (Not from the user's config.)
  const user = settings({
    ...worktree,
    [`${home}/.gitconfig`]: "[extensions]\n\tworktreeConfig = true\n",
  });
  assert.equal(user?.excludesFile, `${home}/.config/git/ignore`);
});

Deno.test({
  name: "git ignore: the walk agrees with git's own ls-files on a real repository",
  ignore: !HAS_GIT,
}, () => {
  const dir = Deno.makeTempDirSync();
  const git = (...args: string[]) =>
    runGit(dir, args, {
      HOME: dir + "/home",
      XDG_CONFIG_HOME: dir + "/home/.config",
      GIT_CONFIG_NOSYSTEM: "1",
    });
  try {
    git("init", "-q");
    const files = [
      "src/a.ts",
      "src/b.log",
      "src/keep.log",
      "secrets/key",
      "secrets/public/x",
      "deep/a/b/c.key",
      "deep/a/b/d.txt",
      "Build/out.o",
      "build/out.o",
      "n/x",
      "n/y/z",
      "docs/secrets/k",
      "t/[x]",
      "sp ace",
      "e!x",
      "#h",
      "lib/k/key",
      "lib/k/other",
    ];
    for (const f of files) {
      Deno.mkdirSync(`${dir}/${f.slice(0, f.lastIndexOf("/") + 1) || "."}`, { recursive: true });
      Deno.writeTextFileSync(`${dir}/${f}`, "x");
    }
    Deno.writeTextFileSync(
      `${dir}/.gitignore`,
      [
        "*.log",
        "!keep.log",
        "/secrets/",
        "!secrets/public",
        "**/b/*.key",
        "build/",
        "n/*",
        "!n/y",
        "docs/**/k",
        "\\#h",
        "sp\\ ace",
        "[!a-z]x",
        "lib/k/*",
        "!lib/k/other",
      ].join("\n") + "\n",
    );
    Deno.mkdirSync(`${dir}/deep/a`, { recursive: true });
    Deno.writeTextFileSync(`${dir}/deep/a/.gitignore`, "!c.key\nd.*\n");
    const expected = git("ls-files", "-o", "--exclude-standard").split("\n").filter(Boolean)
      .sort();
    const got = unignoredNames(dir, dir, `${dir}/.git`, realFs(), dir + "/home", {
      HOME: dir + "/home",
      GIT_CONFIG_NOSYSTEM: "1",
    });
    assert.deepEqual(got?.paths.slice().sort(), expected);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("git ignore: names beyond ASCII are matched byte by byte, as git's wildmatch does", () => {
  if (!HAS_GIT) return;
  const repo = tempRepository([
    "é.env",
    "e.env",
    "ée.txt",
    "密钥",
    "密x",
    "ab",
    "aé",
    "É.md",
    "x/ñ/k",
    "r/é",
    "r/z",
  ]);
  try {
    repo.write(
      [".gitignore"],
      [
        "?.env", // one byte: `e.env`, not `é.env` (two)
        "??e.txt", // two bytes: `ée.txt`
        "密??", // the second character is three bytes: not `密钥` (`??` is two)
        "[!a]é", // one byte, then é: not `aé`
        "x/?/k", // not `ñ` (two bytes)
        "r/[^a-y]", // a range of bytes: `z`, not é's first byte then its second
        "é.MD",
      ].join("\n") + "\n",
    );
    const got = unignoredNames(repo.dir, repo.dir, `${repo.dir}/.git`, realFs(), "/nonexistent", {
      HOME: "/nonexistent",
      GIT_CONFIG_NOSYSTEM: "1",
    });
    const listed = repo.git("-c", "core.quotePath=false", "ls-files", "-o", "--exclude-standard")
      .split("\n").filter(Boolean).sort();
    assert.ok(listed.includes("é.env") && !listed.includes("e.env"));
    assert.deepEqual(got?.paths.slice().sort(), listed);
    // Case-blind (`core.ignoreCase`) folds ASCII alone: `É.md` is no `é.MD`.
    const rules = ignorePatterns("é.MD\n[a-z]b\n", "");
    assert.equal(ignoredBy(rules, "É.md", false, true), false);
    assert.equal(ignoredBy(rules, "é.md", false, true), true);
    assert.equal(ignoredBy(rules, "Ab", false, true), true);
    // A name whose bytes are not known (read as U+FFFD) is not taken to be ignored.
    assert.equal(ignoredBy(ignorePatterns("*\n", ""), "a\uFFFD", false, false), false);
  } finally {
    repo.remove();
  }
});
