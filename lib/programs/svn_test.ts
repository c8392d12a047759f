import { checkActions, ctxIn } from "../testing.ts";
import { checkTable, denyList } from "../testing_adversarial.ts";

Deno.test("svn: the commands its diff, diff3 and editor options and settings name", async () => {
  await checkTable([
    ["svn diff --diff-cmd rm -x '-rf src --'", "deny", "deny"],
    ["svn diff --diff-cmd=rm -x'-rf src --'", "deny", "deny"],
    ["svn diff --diff-cmd sh -x '-c cat${IFS}.env'", "deny", "deny"],
    ["svn diff --diff-cmd cat -x ~/.ssh/id_rsa", "deny", "deny"],
    ['svn diff --diff-cmd "$D"', "deny", "deny"],
    ["svn merge --diff3-cmd rm ^/trunk", "deny", "deny"],
    ["svn commit --editor-cmd 'rm -rf src'", "deny", "deny"],
    ["svn commit --editor-cmd 'cp .env /tmp/x;'", "deny", "deny"],
    ["svn diff --config-option config:helpers:diff-cmd=rm", "deny", "deny"],
    ["svn co --config-option 'config:tunnels:x=rm -rf src' svn+x://h/r", "deny", "deny"],
    ["SVN_EDITOR='rm -rf src' svn commit", "deny", "deny"],
    // Its everyday forms.
    ["svn diff", "deny", "allow"],
    ["svn diff -x -w", "deny", "allow"],
    ["svn diff --diff-cmd colordiff", "deny", "allow"],
    ["svn commit -m 'fix'", "deny", "allow"],
    ["svn status", "deny", "allow"],
  ]);
});

Deno.test("svn: the helpers of its config files, the user's and --config-dir's", async () => {
  const P = "/home/user/project";
  const hostile = "[helpers]\ndiff-cmd = rm\n";
  const ctx = ctxIn(P, {
    files: [`${P}/src/main.ts`],
    contents: {
      "/home/user/.subversion/config": "[helpers]\n# diff-cmd = rm\neditor-cmd = vi\n",
      [`${P}/conf/config`]: hostile,
    },
  });
  await checkActions(denyList, ctx, [
    ["svn diff", "allow"],
    ["svn diff --config-dir conf", "deny"],
  ]);
  const mine = ctxIn(P, {
    files: [`${P}/src/main.ts`],
    contents: { "/home/user/.subversion/config": hostile },
  });
  await checkActions(denyList, mine, [["svn diff", "deny"]]);
});
