/**
 * The starter config asks about what is hard to undo, whatever the spelling: a removal with any
 * option (recursive or forced), a tree removed by find, work git cannot bring back, a push (a
 * forced one is denied), sudo; and lets everyday work through (removing a file the agent wrote).
 */
import assert from "node:assert/strict";
import { loadConfigTexts } from "./config.ts";
import { gateFileEntries } from "./gate_files.ts";
import { STARTER_CONFIG } from "./starter.ts";
import { bash, ctxIn } from "./testing.ts";
import type { Action, Config } from "./types.ts";

function starter(): Config {
  const loaded = loadConfigTexts(
    [{ file: "starter.jsonc", text: STARTER_CONFIG, role: "global", root: null }],
    { home: "/root", builtins: gateFileEntries({ agentDir: "/root/.pi/agent" }) },
  );
  if (loaded.status !== "ok") throw new Error(JSON.stringify(loaded));
  return loaded.config;
}

const ROWS: [string, Action][] = [
  // Everyday work in the project.
  ["rm reproduce_issue.py", "allow"],
  ["rm reproduce_issue.py test_edge_cases.py src/core.py.bak", "allow"],
  ["rm my-report.txt", "allow"],
  ["git status", "allow"],
  ["git checkout main", "allow"],
  ["git stash", "allow"],
  ["git stash push -m wip", "allow"],
  ["git commit -m 'fix the parser'", "allow"],
  ["git diff --stat", "allow"],
  ["find . -name '*.py'", "allow"],
  // Removals with options, however spelled or wrapped.
  ["rm -rf build", "ask"],
  ["rm -fr build", "ask"],
  ["rm -Rf build", "ask"],
  ["rm -r -f build", "ask"],
  ["rm -v -r build", "ask"],
  ["rm --recursive build", "ask"],
  ["rm --recursive --force build", "ask"],
  ["rm build -rf", "ask"],
  ["rm a.py build --recursive", "ask"],
  ["rm -f reproduce_issue.py", "ask"],
  ["rm -d empty", "ask"],
  ["/bin/rm -rf build", "ask"],
  ["\\rm -rf build", "ask"],
  ["'rm' -rf build", "ask"],
  ["command rm -rf build", "ask"],
  ["env rm -rf build", "ask"],
  ["nice -n 5 rm -rf build", "ask"],
  ["timeout 5 rm -rf build", "ask"],
  ["LD_PRELOAD=/x.so rm -rf build", "ask"],
  ["find . -name '*.o' | xargs rm -rf", "ask"],
  ["xargs rm -r < list.txt", "ask"],
  ["find . -type d -exec rm -rf {} +", "ask"],
  ["sh -c 'rm -rf build'", "ask"],
  ['bash -c "cd src && rm -r gen"', "ask"],
  ["alias r=rm\nr -rf build", "ask"],
  ['f() { rm -rf "$1"; }; f build', "ask"],
  ["find . -delete", "ask"],
  ["find -delete", "ask"],
  ["find . -name '*.pyc' -delete", "ask"],
  ["rm -f *.py", "ask"],
  ["rm x{1..100}*.py", "ask"], // (braces past the bound: a glob not expanded)
  ["rm -f {a,b}.py", "ask"],
  ["rm $FILE", "ask"],
  ["rm /etc/hosts", "ask"],
  // Uncommitted work.
  ["git reset --hard", "ask"],
  ["git reset --hard HEAD~1", "ask"],
  ["git reset HEAD --hard", "ask"],
  ["git -C . reset --hard", "ask"],
  ["git -c core.x=y reset --hard", "ask"],
  ["git checkout -- .", "ask"],
  ["git checkout -- src/a.py", "ask"],
  ["git checkout HEAD -- src/a.py", "ask"],
  ["git checkout .", "ask"],
  ["git checkout -f main", "ask"],
  ["git checkout --force main", "ask"],
  ["git -C src checkout -- .", "ask"],
  ["git restore src/a.py", "ask"],
  ["git restore --staged --worktree .", "ask"],
  ["git clean -fdx", "ask"],
  ["git clean -f -d", "ask"],
  ["git -C . clean -fd", "ask"],
  ["git clean", "ask"],
  ["git -c clean.requireForce=false clean", "ask"],
  ["git stash drop", "ask"],
  ["git stash drop stash@{0}", "ask"],
  ["git stash clear", "ask"],
  // ... but not their forms that only print or unstage (whole commands: no word added).
  ["git clean -n", "allow"],
  ["git clean -nd", "allow"],
  ["git clean --dry-run", "allow"],
  ["git clean --dry-run -d", "allow"],
  ["git restore --staged .", "allow"],
  ["git clean -n -f", "ask"],
  ["git clean -nd -f", "ask"],
  ["git clean -n --no-dry-run", "ask"],
  ["git clean -e -n", "ask"],
  ["git clean -n && git clean -f", "ask"],
  ["git clean --dry-run -d; git clean -fd", "ask"],
  ["git -C . clean -n", "ask"],
  ["git restore --staged . --worktree", "ask"],
  ["git restore --staged . -W", "ask"],
  // (Unstaging paths: the index alone; `-W`, `--worktree` or an abbreviation of it anywhere
  // after `--staged` writes the work tree, and asks.)
  ["git restore --staged src/a.py", "allow"],
  ["git restore --staged src/a.py README.md", "allow"],
  ["git restore --staged -- src/a.py", "allow"],
  ["git restore --staged --no-worktree src/a.py", "allow"],
  ["git restore --staged src/a.py -W", "ask"],
  ["git restore -S src/a.py", "allow"],
  ["git restore -S -- src/a.py README.md", "allow"],
  ["git restore -qS src/a.py", "ask"],
  ["git restore -S src/a.py -qW", "ask"],
  ["git restore -Ss HEAD -W src/a.py", "ask"],
  ["git restore -S-W src/a.py", "ask"],
  ["git restore -SW src/a.py", "ask"],
  ["git restore -WS src/a.py", "ask"],
  ["git restore -S src/a.py -W", "ask"],
  ["git restore -S src/a.py --worktree", "ask"],
  ["git restore -S --wor src/a.py", "ask"],
  ["git restore -S -qW src/a.py", "ask"],
  ["git restore -qS --worktree src/a.py", "ask"],
  ["git restore -Sq src/a.py", "ask"],
  ["git restore --staged src/a.py --worktree", "ask"],
  ["git restore --staged src/a.py --work", "ask"],
  ["git restore --staged -qW src/a.py", "ask"],
  ["git restore --staged -W src/a.py", "ask"],
  ["git restore --staged --source=HEAD~1 --worktree src/a.py", "ask"],
  ["git restore --staged src/a.py && git restore src/a.py", "ask"],
  ["git restore -W --staged src/a.py", "ask"],
  ["git restore --source=HEAD~1 src/a.py", "ask"],
  // Publishing asks, as pushing does.
  ["npm publish", "ask"],
  ["npx lerna publish --yes", "ask"],
  ["lerna publish from-package", "ask"],
  ["cargo publish", "ask"],
  ["mkdocs gh-deploy --force", "ask"],
  // Pushes ask; forced pushes are denied (or at least asked).
  ["git push", "ask"],
  ["git push origin main", "ask"],
  ["git push -u origin main", "ask"],
  ["git -C . push", "ask"],
  ["git -c push.default=current push", "ask"],
  ["git push --force", "deny"],
  ["git push --force-with-lease origin main", "deny"],
  ["git push -f origin main", "deny"],
  ["git push origin main --force", "deny"],
  ["git push origin main -f", "deny"],
  ["git push origin +main", "deny"],
  ["git -C . push --force", "ask"],
  ["git --no-pager push -f", "ask"],
  ["git push -uf origin main", "ask"],
  // Words in a commit message or a search are not the subcommand.
  ["git commit -m 'clean up the parser'", "allow"],
  ["git commit -am 'restore the old default'", "allow"],
  ["git log --grep=clean", "allow"],
  ["git -C . restore src/a.py", "ask"],
  // sudo.
  ["sudo ls", "ask"],
  ["sudo rm -rf /", "ask"],
];

Deno.test("the starter config asks what is hard to undo, whatever the spelling", async () => {
  const config = starter();
  const ctx = ctxIn("/testbed", { home: "/root", files: ["/testbed/setup.py"] });
  const wrong: string[] = [];
  for (const [command, want] of ROWS) {
    const got = (await bash(config, ctx, command)).action;
    if (got !== want) wrong.push(`${JSON.stringify(command)} got ${got}, want ${want}`);
  }
  assert.deepEqual(wrong, []);
});
