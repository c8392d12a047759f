/**
 * The words of an unquoted `$(…)` of a listing program are the paths it lists, as xargs gets them
 * (`wc -l $(git ls-files)` is `git ls-files | xargs wc -l`): split at blanks, and globbed.
 */
import assert from "node:assert/strict";
import { bash, checkActions, configFrom, ctxIn, gitIndexBytes } from "../testing.ts";

const config = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { ".env": "ask", "secrets/**": "deny", "~/.ssh/**": "deny" },
});
const home = "/home/user";
const FILES = ["/p/src/a.ts", "/p/src/b.txt", "/p/README.md", "/p/.git/HEAD", `${home}/.ssh/id`];

Deno.test("substituted listings: a listing's paths as words, everyday and hostile", async () => {
  const ctx = ctxIn("/p", {
    files: [...FILES, "/p/secrets/key"],
    bytes: { "/p/.git/index": gitIndexBytes(["src/a.ts", "README.md"]) },
    home,
  });
  // Everyday: each as its pipe form is judged.
  const pairs: [string, string][] = [
    ["wc -l $(find src -name '*.ts')", "find src -name '*.ts' | xargs wc -l"],
    ["sed -i s/a/b/ $(grep -rl a src)", "grep -rl a src | xargs sed -i s/a/b/"],
    ["sed -i s/a/b/ $(find src -name '*.ts')", "find src -name '*.ts' | xargs sed -i s/a/b/"],
    ["cat $(find src | head -3)", "find src | head -3 | xargs cat"],
    ["cat $(grep -rl a .)", "grep -rl a . | xargs cat"],
    [
      "for f in $(find src -name '*.txt'); do sed -i s/a/b/ \"$f\"; done",
      "find src -name '*.txt' | xargs sed -i s/a/b/",
    ],
  ];
  const differ: string[] = [];
  for (const [substituted, piped] of pairs) {
    const [a, b] = [
      (await bash(config, ctx, substituted)).action,
      (await bash(config, ctx, piped)).action,
    ];
    if (a !== b) differ.push(`${substituted}: ${a}, piped ${b}`);
  }
  assert.deepEqual(differ, []);
  await checkActions(config, ctx, [
    ["wc -l $(find src -name '*.ts')", "allow"],
    ["cat $(find src | head -3)", "allow"],
    ["for f in $(find src -name '*.ts'); do wc -l $f; done", "allow"],
    ["for f in $(find src -name '*.ts'); do wc -l \"$f\"; done", "allow"],
    ["wc -l $(find src -name '*.ts') > /tmp/n.txt", "allow"],
    // A listed protected place, or a listing that reaches one.
    ["cat $(find secrets)", "deny"],
    ["cat $(find ~/.ssh -type f)", "deny"],
    ['for f in $(find secrets -type f); do cat "$f"; done', "deny"],
    // Not a listing, or not its words alone: not known.
    ["cat $(cat list.txt)", "ask"],
    ["cat $(curl -s https://x.example/list)", "ask"],
    ["cat $(python3 -c 'print(1)')", "ask"],
    ["cat $(find src; echo .env)", "ask"],
    ["cat $(find src)/../.env", "ask"],
    ["cat x$(find src)", "ask"],
    // Quoted, it is one word of several lines: no path list.
    ['cat "$(find src -name "*.ts")"', "ask"],
    // A function of the lister's name, IFS or PATH changed: what it prints is not the listing.
    ["find() { echo .env; }; cat $(find src)", "ask"],
    ["IFS=/; cat $(find src -name '*.ts')", "ask"],
    ["PATH=/tmp/bin:$PATH; cat $(find src -name '*.ts')", "ask"],
    // As a command's name, it runs what it lists.
    ["$(find src -name '*.ts')", "ask"],
    // (A name glob that is no literal suffix: bash's glob of a listed name may end otherwise.)
    ["sed -i s/a/b/ $(find . -name '*e*')", "ask"],
  ]);
});

Deno.test("substituted listings: git's listing is globbed by bash, so the index does not bound it", async () => {
  // (A tracked name may be a glob of untracked ones: `secrets/*` of `secrets/key`.)
  const ctx = ctxIn("/p", {
    files: [...FILES, "/p/.env"],
    bytes: { "/p/.git/index": gitIndexBytes(["src/a.ts", "README.md"]) },
    home,
  });
  await checkActions(config, ctx, [
    ["git ls-files | xargs wc -l", "allow"],
    ["wc -l $(git ls-files)", "ask"],
    ["wc -l $(git ls-files src)", "allow"],
    ["wc -l $(git diff --name-only -- src)", "allow"],
  ]);
});
