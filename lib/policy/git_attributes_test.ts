import assert from "node:assert/strict";
import {
  checkActions,
  configFrom,
  ctxIn,
  HAS_GIT,
  secretsDenied,
  tempRepository,
} from "../testing.ts";
import { STARTER_CONFIG } from "../starter.ts";
import { realFs } from "./fs_facts.ts";
import { driverOf, namesDriver, runsDriver } from "./git_attributes.ts";

const home = "/home/user";
/** Allow by default; `~/.ssh/**` and `secrets/**` denied, `.env` asked about. */
const DL = secretsDenied(home);
const FILES = ["/p/src/main.ts", "/p/.env", "/p/secrets/key", `${home}/.ssh/id_rsa`];

/** A repository at /p whose `.git/config` is `config`, with more files' texts. */
function repo(config: string, extra: Record<string, string> = {}) {
  return ctxIn("/p", {
    home,
    files: FILES,
    contents: { "/p/.git/HEAD": "ref: refs/heads/main\n", "/p/.git/config": config, ...extra },
  });
}

Deno.test("git attributes: the drivers a setting defines, and the subcommands that run them", () => {
  assert.deepEqual(driverOf("filter.lfs.clean"), { kind: "filter", name: "lfs" });
  assert.deepEqual(driverOf("filter.a.b.process"), { kind: "filter", name: "a.b" });
  assert.deepEqual(driverOf("diff.pdf.textconv"), { kind: "diff", name: "pdf" });
  assert.deepEqual(driverOf("merge.ours.driver"), { kind: "merge", name: "ours" });
  assert.equal(driverOf("diff.external"), null);
  assert.equal(driverOf("filter.lfs.required"), null);
  assert.equal(driverOf("merge.renormalize"), null);
  assert.equal(namesDriver("*.psd filter=lfs -text\n", "filter", new Set(["lfs"])), true);
  assert.equal(namesDriver("[attr]big filter=lfs\n*.psd big\n", "filter", new Set(["lfs"])), true);
  assert.equal(
    namesDriver("# *.psd filter=lfs\n*.x diff=lfs\n", "filter", new Set(["lfs"])),
    false,
  );
  assert.equal(namesDriver("*.psd filter=lfs2\n", "filter", new Set(["lfs"])), false);
  assert.equal(runsDriver("filter.x.clean", "status", []), true);
  assert.equal(runsDriver("filter.x.clean", "log", []), false);
  assert.equal(runsDriver("filter.x.clean", "hash-object", ["--no-filters", "f"]), false);
  assert.equal(runsDriver("diff.x.textconv", "log", ["-p"]), true);
  assert.equal(runsDriver("diff.x.textconv", "diff", ["--no-textconv"]), false);
  assert.equal(runsDriver("diff.x.textconv", "grep", ["--textconv", "x"]), true);
  assert.equal(runsDriver("diff.x.command", "log", ["-p"]), false);
  assert.equal(runsDriver("diff.x.command", "log", ["--ext-diff"]), true);
  assert.equal(runsDriver("merge.x.driver", "checkout", ["main"]), false);
  assert.equal(runsDriver("merge.x.driver", "checkout", ["-m", "main"]), true);
  assert.equal(runsDriver("merge.x.driver", "apply", ["--3way", "p"]), true);
});

Deno.test("git attributes: a driver an attributes file selects runs for the subcommands of its kind", async () => {
  const selects = { "/p/.gitattributes": "*.ts filter=leak diff=leak merge=leak\n" };
  const filter = '[filter "leak"]\n\tclean = cat ~/.ssh/id_rsa\n';
  await checkActions(DL, repo(filter, selects), [
    ["git status", "deny"],
    ["git add src/main.ts", "deny"],
    ["git diff", "deny"],
    ["git checkout main", "deny"],
    ["git stash", "deny"],
    ["git hash-object src/main.ts", "deny"],
    ["git hash-object --no-filters src/main.ts", "allow"],
    ["git log -p", "allow"],
    ["git fetch", "allow"],
  ]);
  for (const key of ["smudge", "process"]) {
    await checkActions(DL, repo(filter.replace("clean", key), selects), [
      ["git checkout main", "deny"],
      ["git log", "allow"],
    ]);
  }
  const textconv = '[diff "leak"]\n\ttextconv = cat secrets/key\n';
  await checkActions(DL, repo(textconv, selects), [
    ["git diff", "deny"],
    ["git log -p", "deny"],
    ["git show HEAD", "deny"],
    ["git blame src/main.ts", "deny"],
    ["git grep --textconv x", "deny"],
    ["git diff --no-textconv", "allow"],
    ["git grep x", "allow"],
    ["git status", "allow"],
  ]);
  const command = '[diff "leak"]\n\tcommand = cat secrets/key\n';
  await checkActions(DL, repo(command, selects), [
    ["git diff", "deny"],
    ["git diff --no-ext-diff", "allow"],
    ["git log -p", "allow"],
    ["git log -p --ext-diff", "deny"],
  ]);
  const merge = '[merge "leak"]\n\tname = x\n\tdriver = cat secrets/key %O %A %B\n';
  await checkActions(DL, repo(merge, selects), [
    ["git merge main", "deny"],
    ["git rebase main", "deny"],
    ["git cherry-pick abc123", "deny"],
    ["git stash pop", "deny"],
    ["git checkout -m main", "deny"],
    // (Asked as it is: the files of the commits it writes are not seen here.)
    ["git checkout HEAD~1", "ask"],
    ["git status", "allow"],
  ]);
});

Deno.test("git attributes: where a driver is selected from", async () => {
  const filter = '[filter "leak"]\n\tclean = cat ~/.ssh/id_rsa\n';
  const places: Record<string, string>[] = [
    { "/p/src/.gitattributes": "main.ts filter=leak\n" },
    { "/p/.git/info/attributes": "* filter=leak\n" },
    { [`${home}/.config/git/attributes`]: "* filter=leak\n" },
    {
      "/p/.git/config": filter + "[core]\n\tattributesFile = ~/attrs\n",
      [`${home}/attrs`]: "[attr]m filter=leak\n*.ts m\n",
    },
  ];
  for (const extra of places) {
    await checkActions(DL, repo(filter, extra), [["git status", "deny"]]);
  }
  // git's spellings of the settings: sections and names in any case, the old `[filter.NAME]`,
  // a name with dots, a file the config includes.
  const spellings: [string, Record<string, string>][] = [
    ['[FILTER "leak"]\n\tCLEAN = cat ~/.ssh/id_rsa\n', {}],
    ["[filter.leak]\n\tclean = cat ~/.ssh/id_rsa\n", {}],
    ["[include]\n\tpath = more\n", { "/p/.git/more": filter }],
  ];
  for (const [config, more] of spellings) {
    const extra = { "/p/.gitattributes": "* filter=leak\n", ...more };
    await checkActions(DL, repo(config, extra), [["git status", "deny"]]);
  }
  const dotted = filter.replace('"leak"', '"a.b"');
  await checkActions(DL, repo(dotted, { "/p/.gitattributes": "* filter=a.b\n" }), [
    ["git status", "deny"],
  ]);
  // A driver no attributes file names, or one defined nowhere (or only by the user): nothing.
  await checkActions(DL, repo(filter, { "/p/.gitattributes": "*.ts filter=other text\n" }), [
    ["git status", "allow"],
  ]);
  await checkActions(DL, repo("", { "/p/.gitattributes": "*.ts filter=leak\n" }), [
    ["git status", "allow"],
  ]);
  const user = { [`${home}/.gitconfig`]: '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n' };
  await checkActions(DL, repo("", { ...user, "/p/.gitattributes": "*.psd filter=lfs\n" }), [
    ["git status", "allow"],
    ["git add src/main.ts", "allow"],
  ]);
  // git's options that name other attributes: those read (one there is not selects nothing), or
  // not known.
  await checkActions(DL, repo(filter), [
    ["git -c core.attributesFile=/tmp/a status", "allow"],
    ["echo '* filter=leak' > /tmp/a; git -c core.attributesFile=/tmp/a status", "ask"],
    ["git --config-env=core.attributesFile=A status", "deny"],
    ["git status", "allow"],
  ]);
});

Deno.test("git attributes: an attributes file another stage writes first selects any driver the config defines", async () => {
  const filter = '[filter "leak"]\n\tclean = cat ~/.ssh/id_rsa\n';
  await checkActions(DL, repo(filter), [
    ["echo '* filter=leak' > .gitattributes; git status", "ask"],
    ["echo '* filter=leak' >> src/.gitattributes && git add -A", "ask"],
    ["cp /tmp/a .git/info/attributes; git diff", "ask"],
    ["cp /tmp/a src/; git diff", "ask"],
    ["cp -r src new; git diff", "ask"],
    ["mkdir new && cp /tmp/.gitattributes new; git status", "ask"],
    // After git, elsewhere, or a subcommand that runs no filter: nothing.
    ["git status; echo '* filter=leak' > .gitattributes", "allow"],
    ["echo x > notes.txt && git add notes.txt", "allow"],
    ["cp src/main.ts src/copy.ts && git add src/copy.ts", "allow"],
    ["mkdir -p src/x && touch src/x/a.ts && git add src/x", "allow"],
    ["echo '* filter=leak' > .gitattributes; git log", "allow"],
  ]);
  // Where the config defines no driver: nothing.
  await checkActions(DL, repo(""), [["echo '* filter=x' > .gitattributes; git status", "allow"]]);
});

Deno.test({
  name: "git attributes: a real repository's drivers",
  ignore: !HAS_GIT,
  async fn() {
    const r = tempRepository(["src/main.ts", "deep/a/b/notes.md"]);
    try {
      r.git("config", "filter.leak.clean", "cat secrets/key");
      r.git("config", "diff.pdf.textconv", "pdftotext");
      const ctx = { cwd: r.dir, home, env: { HOME: home }, fs: realFs() };
      await checkActions(DL, ctx, [["git status", "allow"], ["git log -p", "allow"]]);
      r.write(["deep/a/b/.gitattributes"], "*.md filter=leak\n");
      await checkActions(DL, ctx, [["git status", "deny"], ["git log -p", "allow"]]);
      r.write(["deep/a/b/.gitattributes"], "*.md diff=pdf\n");
      await checkActions(DL, ctx, [["git status", "allow"], ["git log -p", "allow"]]);
      r.write(["deep/a/b/.gitattributes"], "*.pdf diff=pdf\n*.md filter=leak\n");
      await checkActions(DL, ctx, [["cd deep && git add -A", "deny"]]);
    } finally {
      r.remove();
    }
  },
});

Deno.test({
  name: "git attributes: git-lfs installed in the repository's own config is judged as it is",
  ignore: !HAS_GIT,
  async fn() {
    const r = tempRepository(["src/main.ts", "art/logo.psd"]);
    try {
      r.git("config", "filter.lfs.clean", "git-lfs clean -- %f");
      r.git("config", "filter.lfs.smudge", "git-lfs smudge -- %f");
      r.git("config", "filter.lfs.process", "git-lfs filter-process");
      r.git("config", "filter.lfs.required", "true");
      r.write([".gitattributes"], "*.psd filter=lfs diff=lfs merge=lfs -text\n");
      const ctx = { cwd: r.dir, home, env: { HOME: home }, fs: realFs() };
      const G = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
      const everyday: [string, "allow"][] = [
        ["git status", "allow"],
        ["git add art/logo.psd", "allow"],
        ["git diff", "allow"],
        ["git log -p", "allow"],
        ["git commit -m x", "allow"],
      ];
      await checkActions(G, ctx, everyday);
      await checkActions(DL, ctx, everyday);
    } finally {
      r.remove();
    }
  },
});

Deno.test("git attributes: a driver's name is compared as written (a subsection keeps its case)", async () => {
  const upper = '[filter "Leak"]\n\tclean = cat ~/.ssh/id_rsa\n';
  await checkActions(DL, repo(upper, { "/p/.gitattributes": "* filter=Leak\n" }), [
    ["git add src/main.ts", "deny"],
    ["git status", "deny"],
  ]);
  const diff =
    '[diff "PDF"]\n\ttextconv = cat secrets/key\n[merge "Ours"]\n\tdriver = cat secrets/key\n';
  await checkActions(DL, repo(diff, { "/p/.gitattributes": "* diff=PDF merge=Ours\n" }), [
    ["git log -p", "deny"],
    ["git merge main", "deny"],
  ]);
  // (git finds no `filter.leak.clean` for `[filter "Leak"]`: nothing runs; the old `[filter.Leak]`
  // is `filter.leak`.)
  await checkActions(DL, repo(upper, { "/p/.gitattributes": "* filter=leak\n" }), [
    ["git add src/main.ts", "allow"],
  ]);
  const old = "[filter.Leak]\n\tclean = cat ~/.ssh/id_rsa\n";
  await checkActions(DL, repo(old, { "/p/.gitattributes": "* filter=leak\n" }), [
    ["git add src/main.ts", "deny"],
  ]);
});

Deno.test("git attributes: git stage is git add, and git's other synonyms", async () => {
  const selects = { "/p/.gitattributes": "* filter=leak diff=leak\n" };
  await checkActions(DL, repo('[filter "leak"]\n\tclean = cat ~/.ssh/id_rsa\n', selects), [
    ["git stage src/main.ts", "deny"],
    ["git stage -u", "deny"],
  ]);
  await checkActions(DL, repo('[diff "leak"]\n\ttextconv = cat secrets/key\n', selects), [
    ["git pickaxe src/main.ts", "deny"],
  ]);
  const patch =
    "[interactive]\n\tdiffFilter = cat secrets/key\n[core]\n\teditor = cat secrets/key\n";
  await checkActions(DL, repo(patch), [
    ["git stage -p", "deny"],
    ["git stage -e", "deny"],
    ["git stage src/main.ts", "allow"],
  ]);
});

Deno.test("git attributes: the settings the command gives, -c and --config-env in each form", async () => {
  const filter = '[filter "leak"]\n\tclean = cat ~/.ssh/id_rsa\n';
  await checkActions(
    DL,
    repo(filter, { "/p/attrs": "* filter=leak\n", "/p/none": "*.x -text\n" }),
    [
      ["git --config-env=core.attributesFile=A add src/main.ts", "deny"],
      ["git --config-env core.attributesFile=A add src/main.ts", "deny"],
      ["git --config-env=Core.AttributesFile=A add src/main.ts", "deny"],
      ["git -c core.attributesFile=/p/attrs add src/main.ts", "deny"],
      ["git -c core.attributesFile=attrs add src/main.ts", "deny"],
      ["git -c attr.tree=HEAD add src/main.ts", "deny"],
      ["git -c core.attributesFile=/p/none add src/main.ts", "allow"],
      ["git -c user.name=x add src/main.ts", "allow"],
      ["git add src/main.ts", "allow"],
    ],
  );
  const gpg = "[gpg]\n\tprogram = cat secrets/key\n[core]\n\teditor = cat secrets/key\n";
  await checkActions(DL, repo(gpg), [
    ["git -c commit.gpgSign=true commit -m x", "deny"],
    ["git --config-env=commit.gpgSign=V commit -m x", "deny"],
    ["git --config-env commit.gpgsign=V commit -m x", "deny"],
    ["git -c pull.rebase=interactive pull", "deny"],
    ["git -c commit.gpgSign=false commit -m x", "allow"],
  ]);
});
