import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { realFs } from "./fs_facts.ts";
import { checkActions, configFrom, HAS_GIT, tempRepository } from "../testing.ts";
import type { Action, Context } from "../types.ts";
import { STARTER_CONFIG } from "../starter.ts";

Deno.test({
  name: "protect target: what git ls-files lists is what the index lists",
  ignore: !HAS_GIT,
  async fn() {
    const repo = tempRepository(["src/a.ts", "src/b.ts", "README.md", "docs/x.md"], {
      init: ["-b", "main"],
    });
    const home = `${repo.dir}-home`;
    try {
      repo.git("add", ".");
      repo.git("commit", "-qm", "one");
      // (Untracked: the project's `.env`, a secret below `secrets/`, one beside tracked files.)
      repo.write([".env", "secrets/key", "src/.env"]);
      const ctx: Context = { cwd: repo.dir, home, env: { HOME: home }, fs: realFs() };
      const rows: [string, Action][] = [
        ["git ls-files | xargs wc -l", "allow"],
        ["git ls-files -z | xargs -0 wc -l", "allow"],
        ["git ls-files -c | xargs cat", "allow"],
        ["git ls-files --exclude-standard | xargs cat", "allow"],
        ["git ls-files '*.ts' | xargs grep X", "allow"],
        ["git ls-files src | xargs grep -r X", "allow"],
        ["git ls-files | xargs grep -r X", "allow"],
        ["git diff --name-only | xargs wc -l", "allow"],
        ["cd src && git ls-files | xargs cat", "allow"],
        // (What lists untracked files, or names the index may not: as the tree is.)
        ["git ls-files -o | xargs wc -l", "ask"],
        ["git ls-files --others --exclude-standard | xargs wc -l", "ask"],
        ["git ls-files -i -o --exclude-standard | xargs cat", "ask"],
        ["git ls-files -io --exclude-standard | xargs cat", "ask"],
        ["git ls-files --oth | xargs cat", "ask"],
        ["git diff --name-only HEAD | xargs wc -l", "ask"],
        ["git diff --name-only --cached | xargs wc -l", "ask"],
        ["git diff --name-only --staged | xargs wc -l", "ask"],
        // (Another stage adds to the index first; git told of another index.)
        ["git add .env && git ls-files | xargs cat", "ask"],
        ["git add -A && git ls-files | xargs cat", "ask"],
        // (A stage that may change the tree first: what is there, as before.)
        ["git add src/a.ts && git ls-files | xargs cat", "ask"],
        ["GIT_INDEX_FILE=/tmp/i git ls-files | xargs cat", "ask"],
        ["git ls-files | xargs cat; cat .env", "ask"],
      ];
      const config = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
      await checkActions(config, ctx, rows);
      const open = configFrom({
        policies: { open: { defaultAction: "allow", rules: [] } },
        locations: { "/": "open" },
        pathProtection: { ".env": "ask" },
      }, { home });
      await checkActions(open, ctx, [
        ["git ls-files | xargs cat", "allow"],
        ["git ls-files -o | xargs cat", "ask"],
      ]);
      await checkActions(config, { ...ctx, env: { ...ctx.env, GIT_DIR: `${repo.dir}/.git` } }, [
        ["git ls-files | xargs cat", "ask"],
      ]);
      // (A tracked `.env`; a secret below a path the index lists: a tracked name that is a
      // directory now, a submodule.)
      repo.git("add", "-f", "src/.env");
      await checkActions(config, ctx, [["git ls-files | xargs cat", "ask"]]);
      repo.git("rm", "-q", "--cached", "src/.env");
      rmSync(`${repo.dir}/docs/x.md`);
      mkdirSync(`${repo.dir}/docs/x.md`);
      writeFileSync(`${repo.dir}/docs/x.md/.env`, "K=1");
      await checkActions(config, ctx, [["git ls-files | xargs grep -r K", "ask"]]);
      rmSync(`${repo.dir}/docs/x.md`, { recursive: true });
      await checkActions(config, ctx, [["git ls-files | xargs grep -r K", "allow"]]);
      const oid = repo.git("rev-parse", "HEAD").trim();
      repo.git("update-index", "--add", "--cacheinfo", `160000,${oid},vendor/sub`);
      repo.write(["vendor/sub/.env"]);
      await checkActions(config, ctx, [["git ls-files | xargs grep -r K", "ask"]]);
      // (A path glob: a directory the index lists paths below, `secrets/`, is listed.)
      const anchored = configFrom({
        policies: { open: { defaultAction: "allow", rules: [] } },
        locations: { "/": "open" },
        pathProtection: { [`${repo.dir}/secrets/**`]: "ask", [`${repo.dir}/docs/**`]: "ask" },
      }, { home });
      await checkActions(anchored, ctx, [
        ["git ls-files src | xargs cat", "allow"],
        ["git ls-files | xargs cat", "ask"],
      ]);
      repo.git("rm", "-rq", "--cached", "docs");
      await checkActions(anchored, ctx, [["git ls-files | xargs cat", "allow"]]);
      repo.git("add", "-f", "secrets/key");
      await checkActions(anchored, ctx, [["git ls-files | xargs cat", "ask"]]);
    } finally {
      repo.remove();
    }
  },
});
