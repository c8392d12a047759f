import assert from "node:assert/strict";
import { loadBashParser } from "../shell/parser.ts";
import {
  checkActions,
  ctxIn,
  gitIndexBytes,
  HAS_GIT,
  secretsDenied,
  tempRepository,
} from "../testing.ts";
import { realFs } from "../policy/fs_facts.ts";
import { decide } from "../policy/engine.ts";
import { literal } from "./words.ts";
import { indexAdditions } from "./git_staged.ts";

const home = "/home/user";
/** Allow by default; `secrets/**` denied, `.env` asked about (the hunt's DL). */
const DL = secretsDenied(home);

const FILES = ["/p/src/main.ts", "/p/README.md", "/p/.env", "/p/secrets/key", "/p/.git/HEAD"];
const index = (tracked: string[]) => ({ "/p/.git/index": gitIndexBytes(tracked) });
const IGNORED = ctxIn("/p", { files: FILES, bytes: index(["src/main.ts", "README.md"]), home });
const TRACKED = ctxIn("/p", {
  files: FILES,
  bytes: index(["src/main.ts", "README.md", "secrets/key"]),
  home,
});

Deno.test("git staged: what a stage adds to the index, from its words", () => {
  const adds = (command: string) =>
    indexAdditions(
      {
        argv: command.split(" ").map(literal),
        redirects: [],
        text: command,
        origin: "top",
        cwds: ["/p"],
      },
      (p) => (p === "/p/src" || p === "/p" ? "directory" : p === "/p/new" ? "none" : "file"),
    );
  assert.deepEqual(adds("git add src/main.ts README.md"), ["/p/src/main.ts", "/p/README.md"]);
  assert.deepEqual(adds("git add -- .env"), ["/p/.env"]);
  assert.deepEqual(adds("git add -u"), []);
  for (const none of ["git commit -am x", "git stash", "git stash push -m wip", "git fetch"]) {
    assert.deepEqual(adds(none), [], none);
  }
  assert.deepEqual(adds("git -c alias.d=diff d"), []);
  for (
    const unknown of [
      "git add -A",
      "git add .",
      "git add src",
      "git add -f src",
      "git add --all",
      "git add -Av",
      "git add '*.ts'",
      "git add :/",
      "git add new",
      "git add --pathspec-from-file=list",
      "git stash -u",
      "git stash push --include-untracked",
      "git stash pop",
      "git reset HEAD~3",
      "git checkout main",
      "git update-index --add --stdin",
      "git -C /q add x",
      "git -c alias.d=!sh d",
      "python3 x.py",
    ]
  ) {
    assert.equal(adds(unknown), null, unknown);
  }
});

Deno.test("git staged: an earlier stage that adds only what it names keeps the index trusted", async () => {
  await checkActions(DL, IGNORED, [
    ["git add src/main.ts && git diff --cached", "allow"],
    ["git commit -am x && git log -p -1", "allow"],
    ["git stash && git diff", "allow"],
    ["git add -u && git diff --cached", "allow"],
    ["cd src && git add main.ts && git diff --cached", "allow"],
    ["git add README.md && git commit -m x && git show", "allow"],
    ["git fetch && git diff", "allow"],
    // (What may add files it does not name: what there is counts.)
    ["git add . && git diff --staged", "ask"],
    ["git add -A && git diff --cached", "ask"],
    ["git add src && git diff --cached", "ask"],
    ["git stash -u && git stash show -p", "ask"],
    ["git -c alias.a='add -A' a && git diff --cached", "ask"],
    // (A protected file it names is in the index then.)
    ["git add .env && git diff --cached", "ask"],
  ]);
});

Deno.test("git staged: an alias set in the command to a subcommand is that subcommand", async () => {
  await checkActions(DL, IGNORED, [
    ["git -c alias.d=diff d", "allow"],
    ["git -c alias.d='diff --cached' d", "allow"],
  ]);
  await checkActions(DL, TRACKED, [
    ["git -c alias.d=diff d", "ask"],
    ["git -c alias.d='!git diff' d", "ask"],
  ]);
});

Deno.test({
  name: "git staged: a real repository whose ignored secrets an earlier stage may add",
  ignore: !HAS_GIT,
}, async () => {
  const parser = await loadBashParser();
  const repo = tempRepository(["src/main.ts", "secrets/key", ".env", "README.md"]);
  const { dir, git: run } = repo;
  try {
    repo.write([".gitignore"], "secrets/\n.env\n");
    run("add", ".");
    const ctx = { cwd: dir, home, env: { HOME: home }, fs: realFs() };
    const at = (command: string) =>
      decide(DL, { tool: "bash", input: { command } }, ctx, { parser }).action;
    assert.equal(at("git diff"), "allow");
    assert.equal(at("git add src/main.ts && git diff --cached"), "allow");
    assert.equal(at("git commit -am x && git log -p -1"), "allow");
    assert.equal(at("git -c alias.d=diff d"), "allow");
    assert.equal(at("git add -A && git diff --cached"), "ask");
    assert.equal(at("git checkout-index -a --prefix=/tmp/z/x-"), "allow");
    run("add", "-f", "secrets/key");
    assert.equal(at("git checkout-index -a --prefix=/tmp/z/x-"), "ask");
    assert.equal(at("git diff HEAD:src"), "ask");
    assert.equal(at("git diff ':!src'"), "ask");
  } finally {
    repo.remove();
  }
});
