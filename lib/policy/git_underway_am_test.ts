/** A `git am` session under way: the patches its state names (`rebase-apply/`). */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { realFs } from "./fs_facts.ts";
import { checkActions, configFrom, HAS_GIT, secretsDenied, tempRepository } from "../testing.ts";
import type { Context } from "../types.ts";
import { STARTER_CONFIG } from "../starter.ts";

const home = "/home/nobody";
/** Allow by default; `.env` asked about, `secrets/**` and `~/.ssh/**` denied. */
const DL = secretsDenied(home, { agentDir: `${home}/.pi/agent` });

/**
 * `git am` of two patches of `feat` stopped at the first (a conflict in `src/a.ts`), the second
 * adding `secrets/key` (`secret`) or `docs/b.md`.
 */
function applying(secret: boolean) {
  const repo = tempRepository(["src/a.ts", "README.md"], { init: ["-b", "main"], commit: "one" });
  const g = repo.git;
  g("checkout", "-qb", "feat");
  repo.commit("f1", ["src/a.ts"], "feat");
  repo.commit("f2", [secret ? "secrets/key" : "docs/b.md"]);
  const patches = `${repo.dir}/.patches`;
  g("format-patch", "-q", "-2", "-o", patches);
  g("checkout", "-q", "main");
  repo.commit("m1", ["src/a.ts"], "main");
  try {
    g("am", `${patches}/0001-f1.patch`, `${patches}/0002-f2.patch`);
  } catch { /* (stopped at the conflict) */ }
  rmSync(patches, { recursive: true });
  const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
  return { repo, ctx, state: `${repo.dir}/.git/rebase-apply` };
}

Deno.test({
  name: "git am --continue|--skip|--retry|--abort: the patches its session has left",
  ignore: !HAS_GIT,
  async fn() {
    const hostile = applying(true);
    const { state } = hostile;
    try {
      await checkActions(DL, hostile.ctx, [
        ["git am --continue", "deny"],
        ["git am --cont", "deny"],
        ["git am -r", "deny"],
        ["git am --skip", "deny"],
        ["git am --retry", "deny"],
        ["git am --allow-empty", "deny"],
        // (Back to ORIG_HEAD, main's commit; the session left as it is, or shown.)
        ["git am --abort", "allow"],
        ["git am --quit", "allow"],
        ["git am --show-current-patch", "allow"],
        // (Options that change what a patch writes: not known.)
        ["git am --continue -p2", "ask"],
        ["git am --continue -3", "ask"],
      ]);
      // (ORIG_HEAD's files back: a commit holding `secrets/key`.)
      const feat = hostile.repo.git("rev-parse", "feat").trim();
      const orig = hostile.repo.git("rev-parse", "ORIG_HEAD").trim();
      writeFileSync(`${hostile.repo.dir}/.git/ORIG_HEAD`, `${feat}\n`);
      await checkActions(DL, hostile.ctx, [["git am --abort", "deny"]]);
      writeFileSync(`${hostile.repo.dir}/.git/ORIG_HEAD`, `${orig}\n`);
      const mail = `${state}/0002`;
      // A patch's paths moved by git apply's options the session keeps, read.
      writeFileSync(`${state}/apply-opt`, "'-p2' '--directory=secrets'");
      await checkActions(DL, hostile.ctx, [["git am --continue", "deny"]]);
      writeFileSync(`${state}/apply-opt`, "'--whitespace=fix'");
      await checkActions(DL, hostile.ctx, [["git am --continue", "deny"]]);
      writeFileSync(`${state}/apply-opt`, "'--reject'");
      await checkActions(DL, hostile.ctx, [["git am --continue", "ask"]]);
      writeFileSync(`${state}/apply-opt`, "");
      // A three-way fallback, a mail git decodes, a symlink, a session of git rebase: not known.
      writeFileSync(`${state}/threeway`, "t");
      await checkActions(DL, hostile.ctx, [["git am --continue", "ask"]]);
      writeFileSync(`${state}/threeway`, "f");
      writeFileSync(mail, "Subject: x\nContent-Transfer-Encoding: base64\n\nZGlmZg==\n");
      await checkActions(DL, hostile.ctx, [["git am --continue", "ask"]]);
      const link =
        "diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n" +
        "+/etc\n\\ No newline at end of file\n";
      writeFileSync(mail, `Subject: x\n\n---\n${link}`);
      await checkActions(DL, hostile.ctx, [["git am --continue", "ask"]]);
      // (A name written with a carriage return is the name without it.)
      writeFileSync(
        mail,
        "Subject: x\r\n\r\n---\r\n--- a/.env\r\n+++ b/.env\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n",
      );
      await checkActions(DL, hostile.ctx, [["git am --continue", "ask"]]);
      writeFileSync(mail, "Subject: x\n\nno patch\n");
      await checkActions(DL, hostile.ctx, [["git am --continue", "ask"]]);
      writeFileSync(`${state}/rebasing`, "");
      await checkActions(DL, hostile.ctx, [["git am --skip", "ask"]]);
      // (A state directory without `next` and `last`: none under way; `--abort` removes it.)
      rmSync(state, { recursive: true });
      mkdirSync(state);
      writeFileSync(`${state}/0001`, "x");
      await checkActions(DL, hostile.ctx, [
        ["git am --abort", "allow"],
        ["git am --continue", "allow"],
      ]);
    } finally {
      hostile.repo.remove();
    }
    const everyday = applying(false);
    try {
      const starter = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
      await checkActions(DL, everyday.ctx, [
        ["git am --continue", "allow"],
        ["git am --skip", "allow"],
        ["git am --abort", "allow"],
        // (Another stage that writes the index alone leaves the session as it is; one that may
        // write its mails, not: git_index_only_test.ts.)
        ["git add src/a.ts && git am --continue", "allow"],
        ["git add src/a.ts && echo x >> .git/rebase-apply/0002 && git am --continue", "ask"],
      ]);
      await checkActions(starter, everyday.ctx, [["git am --continue", "allow"]]);
    } finally {
      everyday.repo.remove();
    }
  },
});
