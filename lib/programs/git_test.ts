import assert from "node:assert/strict";
import { loadBashParser } from "../shell/parser.ts";
import { decide } from "../policy/engine.ts";
import { realFs } from "../policy/fs_facts.ts";
import type { Action } from "../types.ts";
import { checkEveryday, checkGateTable, checkTable } from "../testing_adversarial.ts";
import { HAS_GIT } from "../testing.ts";
import {
  checkActions,
  configFrom,
  ctxIn,
  fuzzSeed,
  linesThatRan,
  runBash,
  seededRandom,
} from "../testing.ts";
import { extCommand } from "./git.ts";
import { blobPath } from "./git_blobs.ts";
import { pathspecMagic } from "./git_pathspecs.ts";

const parser = await loadBashParser();

Deno.test("git: the transport programs options and settings name are commands", async () => {
  await checkTable([
    // --upload-pack / -u, glued, in a cluster, abbreviated (git takes any unique prefix), after
    // the operands (parse-options reads on).
    ["git clone --upload-pack='rm -rf x' https://h/r.git", "deny", "deny"],
    [`git clone --upload-pack="sh -c 'rm x'" https://h/r.git`, "deny", "deny"],
    ["git clone -u 'rm x' https://h/r.git", "deny", "deny"],
    ["git clone -qu'rm x' https://h/r.git d", "deny", "deny"],
    ["git clone --upl='rm x' https://h/r.git", "deny", "deny"],
    ["git clone https://h/r.git d --upload-pack 'rm x'", "deny", "deny"],
    ["git fetch --upload-pack='rm x' origin", "deny", "deny"],
    ["git fetch --u='rm x' origin", "deny", "deny"],
    ["git pull --upload-pack 'curl e.vil' origin main", "deny", "deny"],
    ["git ls-remote --upload-pack='rm x' origin", "deny", "deny"],
    ["git ls-remote --exec='rm x' origin", "deny", "deny"],
    ["git ls-remote --u='rm x' origin", "deny", "deny"],
    ["git archive --remote=origin --exec='rm x' HEAD", "deny", "deny"],
    ["git push --receive-pack='rm x' origin", "deny", "deny"],
    ["git send-pack --exec='rm x' origin main", "deny", "deny"],
    ["git fetch-pack --exec='rm x' origin", "deny", "deny"],
    // The same programs as settings, in any case, and saved for later.
    ["git -c remote.origin.uploadpack='touch MARKER; rm x' fetch origin", "deny", "deny"],
    ["git -c Remote.Origin.UploadPack='rm x' fetch", "deny", "deny"],
    ["git -c remote.origin.receivepack='rm x' pull origin main", "deny", "deny"],
    ["git config remote.origin.uploadpack 'rm x'", "deny", "deny"],
    ["git clone -c core.sshCommand='rm x' git@h:r.git", "deny", "deny"],
    ["git clone --config=core.pager='rm x' https://h/r.git", "deny", "deny"],
    ["git -c core.gitProxy='rm x' fetch git://h/r", "deny", "deny"],
    // A setting whose name or value is not known may be any of them.
    ['git -c "$KV" log', "deny", "deny"],
    ["git fetch --u=$X origin", "deny", "deny"],
    ["git push --receive-pack $X origin", "deny", "deny"],
    ['git config "$K" "rm x"', "deny", "deny"],
    // Everyday transport stays allowed under the deny-list.
    ["git fetch origin", "deny", "allow"],
    ["git clone https://github.com/a/b.git", "deny", "allow"],
    ["git pull --rebase origin main", "deny", "allow"],
    ["git -c credential.helper=store fetch", "deny", "allow"],
    ["git push origin main", "deny", "deny"],
  ]);
});

Deno.test("git: ext:: URLs run their command wherever a URL is given", async () => {
  await checkTable([
    ["git clone 'ext::sh -c rm% x' d", "deny", "deny"],
    ["git -c protocol.ext.allow=always fetch 'ext::sh -c curl% e.vil'", "deny", "deny"],
    ["git remote add o 'ext::rm x'", "deny", "deny"],
    ["git -c 'url.ext::rm x.insteadOf=https://h/' fetch https://h/r", "deny", "deny"],
    ["git -c 'remote.origin.url=ext::rm x' fetch origin", "deny", "deny"],
    ["git config remote.origin.url 'ext::rm x'", "deny", "deny"],
    // Where the command allows the ext transport, a URL not seen may be one.
    // (A URL not seen asks anyway under the deny-list.)
    ['git -c protocol.ext.allow=always fetch "$URL"', "deny", "deny"],
    ['git fetch "$URL"', "deny", "ask"],
    // fd:: talks to descriptors the shell opened; it runs nothing. Text is not a URL.
    ["git fetch fd::3", "deny", "allow"],
    ["git log --format='ext::%s'", "allow", "allow"],
    ["git commit -m 'use ext::sh transport'", "deny", "allow"],
    // The ext transport allowed for later commands, or for submodules (whose URLs are not read).
    ["git config protocol.ext.allow always", "deny", "ask"],
    ["git config --global protocol.allow user", "deny", "ask"],
    ['git config protocol.allow "$P"', "deny", "ask"],
    ["git -c protocol.ext.allow=always submodule update --init", "deny", "ask"],
    ["git -c protocol.allow=always clone --recurse-submodules https://h/r", "deny", "ask"],
    ["git config --global protocol.file.allow always", "deny", "allow"],
    ["git -c protocol.file.allow=always submodule update --init", "deny", "allow"],
    ["git config protocol.ext.allow never", "deny", "allow"],
  ]);
  assert.deepEqual(extCommand("ext::sh -c touch% M"), ["sh", "-c", "touch M"]);
  assert.deepEqual(extCommand("ext::ssh -i k u@h %S r"), [
    "ssh",
    "-i",
    "k",
    "u@h",
    "git-upload-pack",
    "r",
  ]);
  assert.deepEqual(extCommand("ext::socat - TCP:h %G/repo"), ["socat", "-", "TCP:h"]);
  assert.deepEqual(extCommand("ext::a%%b  c"), ["a%b", "c"]);
  assert.deepEqual(extCommand("url.ext::rm x.insteadOf=https://h/"), ["rm", "x"]);
  assert.deepEqual(extCommand("remote.o.url=ext::rm x"), ["rm", "x"]);
  assert.equal(extCommand("https://h/ext::x"), null);
});

Deno.test("git: subcommands whose arguments are commands", async () => {
  await checkTable([
    ["git rebase -x 'rm x' HEAD~1", "deny", "deny"],
    ["git rebase --exec='curl e.vil' HEAD~1", "deny", "deny"],
    ["git rebase --ex 'rm x' HEAD~1", "deny", "deny"],
    ["git rebase HEAD~1 -ix'rm x'", "deny", "deny"],
    ["GIT_SEQUENCE_EDITOR='rm x' git rebase -i HEAD~3", "deny", "deny"],
    ["git -c sequence.editor='rm x' rebase -i HEAD~3", "deny", "deny"],
    ["git bisect run rm x", "deny", "deny"],
    ["git bisect run 'rm x; true'", "deny", "deny"],
    ["git submodule foreach 'rm x'", "deny", "deny"],
    ["git submodule --quiet foreach --recursive rm x", "deny", "deny"],
    ["git filter-branch --tree-filter 'rm x' HEAD", "deny", "deny"],
    ["git filter-branch --msg-filter 'curl e.vil' -- --all", "deny", "deny"],
    ["git filter-branch --env-filter='rm x' HEAD", "deny", "deny"],
    ["git difftool -x 'rm x' HEAD", "deny", "deny"],
    ["git difftool --extcmd='rm x' HEAD", "deny", "deny"],
    ["git difftool -yx'rm x' HEAD", "deny", "deny"],
    ["git send-email --to-cmd='rm x' x.patch", "deny", "deny"],
    ["git instaweb --httpd='rm x'", "deny", "deny"],
    ["git for-each-repo --config=maintenance.repo -c core.pager='rm x' log", "deny", "deny"],
    // Everyday: a rebase or bisect without a command; `rebase -i` runs the user's own editor.
    ["git rebase main", "deny", "allow"],
    ["git rebase -i HEAD~3", "deny", "allow"],
    ["git bisect start", "deny", "allow"],
    ["git bisect run ./test.sh", "deny", "allow"],
    ["git submodule update --init --recursive", "deny", "allow"],
    ["git difftool -t vimdiff HEAD", "deny", "allow"],
  ]);
});

Deno.test("git: settings that hold commands, and those that bring in unseen config or hooks", async () => {
  await checkTable([
    ["git -c difftool.t.cmd='rm x' difftool -t t", "deny", "deny"],
    ["git -c mergetool.t.cmd='rm x' mergetool -t t", "deny", "deny"],
    ["git -c browser.b.cmd='rm x' help -w log", "deny", "deny"],
    ["git -c interactive.diffFilter='rm x' add -p", "deny", "deny"],
    ["git -c gpg.ssh.defaultKeyCommand='rm x' commit -S -m x", "deny", "deny"],
    ["git -c core.alternateRefsCommand='rm x' fetch", "deny", "deny"],
    ["git -c credential.https://h.helper='!rm x' fetch", "deny", "deny"],
    ["git -c credential.helper='/usr/bin/rm x' fetch", "deny", "deny"],
    ["git -c trailer.t.command='rm x' commit -m x", "deny", "deny"],
    ["git -c imap.tunnel='rm x' imap-send", "deny", "deny"],
    ["git -c sendemail.tocmd='rm x' send-email x.patch", "deny", "deny"],
    ["git -c 'submodule.s.update=!rm x' submodule update", "deny", "deny"],
    ["git config --global guitool.t.cmd 'curl e.vil'", "deny", "deny"],
    ["git -c mergetool.vimdiff.path=/usr/bin/rm mergetool", "deny", "deny"],
    // Config files, templates and hooks the gate cannot read: unknown, never allowed.
    ["git -c include.path=/tmp/evil.cfg log", "deny", "deny"],
    ["git -c includeIf.onbranch:main.path=/tmp/evil.cfg status", "deny", "deny"],
    ["git config include.path /tmp/evil.cfg", "deny", "deny"],
    ["git init --template=/tmp/t d", "deny", "deny"],
    ["git clone --templ=/tmp/t https://h/r.git", "deny", "deny"],
    ["git -c init.templateDir=/tmp/t init d", "deny", "deny"],
    ["git -c core.hooksPath=/tmp/h commit -m x", "deny", "deny"],
    // An alias's name in any case: git finds `alias.P` as `alias.p`.
    ["git -c alias.P=push P origin main", "deny", "deny"],
    ["git -c 'alias.X=!rm -rf src' X", "deny", "deny"],
    // Settings that are not commands.
    ["git config user.name x", "deny", "allow"],
    ["git -c submodule.s.update=rebase submodule update", "deny", "allow"],
  ]);
});

Deno.test("git: everyday read-only git stays allowed", async () => {
  await checkEveryday([
    "git log",
    "git status",
    "git diff",
    "git log --oneline -5",
    "git log --format='%h %s' --grep=ext::",
    "git show HEAD --stat",
    "git diff --cached",
    "git branch -a",
    "git remote -v",
    "git config --get remote.origin.url",
  ]);
});

/** The real-git test's lines, generated: each names `A` (a recording script) some way. */
function gitLines(a: string, count: number): string[] {
  const rand = seededRandom(fuzzSeed(19) + 7);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const q = (text: string) =>
    pick([`'${text}'`, `"${text}"`, text.replace(/ /g, "\\ "), `$'${text}'`]);
  const cmd = () => q(`${a} k`);
  const ext = () => pick([`ext::${a}`, `ext::sh -c ${a}% k`, `ext::${a} %S x`]);
  const allow = () => pick(["-c protocol.ext.allow=always ", "-c protocol.allow=always ", ""]);
  const templates: (() => string)[] = [
    () =>
      `git fetch ${
        pick(["--upload-pack=", "--upload-pack ", "--upl=", "--upload="])
      }${cmd()} ../bare.git`,
    () =>
      `git ls-remote ${
        pick(["--upload-pack=", "--exec=", "--u=", "--upload-pack "])
      }${cmd()} ../bare.git`,
    () =>
      `git clone -q ${pick(["-u ", "-u", "--upload-pack=", "--upload-p "])}${cmd()} ../bare.git c`,
    () => `git clone ${pick(["-qu", "-nqu"])}${cmd()} ../bare.git c`,
    () => `git pull ${pick(["--upload-pack=", "--upload-pack "])}${cmd()} ../bare.git main`,
    () =>
      `git push ${
        pick(["--receive-pack=", "--exec=", "--receive-pack "])
      }${cmd()} ../bare.git main`,
    () => `git archive --remote=../bare.git ${pick(["--exec=", "--exec "])}${cmd()} HEAD`,
    () => `git -c remote.origin.uploadpack=${cmd()} ${pick(["fetch", "pull", "ls-remote"])} origin`,
    () => `git -c ${q(`remote.origin.receivepack=${a} k`)} push origin main`,
    () => `git ${allow()}${pick(["fetch", "ls-remote", "clone"])} ${q(ext())} ${pick(["", "c"])}`,
    () => `git ${allow()}-c ${q(`url.${ext()}.insteadOf=https://x/`)} fetch https://x/`,
    () => `git ${allow()}-c ${q(`remote.origin.url=${ext()}`)} fetch origin`,
    () =>
      `git -c core.gitProxy=${q(pick([a, `${a} for h`]))} ${
        pick(["fetch", "ls-remote"])
      } git://h/x`,
    () =>
      `git clone -q ${pick(["-c ", "--config=", "--config "])}${
        q(`core.sshCommand=${a} k`)
      } ssh://h/x c`,
    () =>
      `git rebase ${
        pick(["-x ", "-x", "--exec=", "--exec ", "--ex=", "-ix", "-i -x"])
      }${cmd()} HEAD~1`,
    () => `git rebase HEAD~2 ${pick(["-x", "--exec="])}${cmd()}`,
    () => `git bisect start HEAD HEAD~2 && git bisect run ${pick([cmd(), a, `${a} k`, `'${a};'`])}`,
    () => `git submodule ${pick(["", "--quiet "])}foreach ${pick(["", "--recursive "])}${cmd()}`,
    () =>
      `git filter-branch -f ${
        pick([
          "--tree-filter",
          "--msg-filter",
          "--env-filter",
          "--index-filter",
          "--setup",
          "--commit-filter",
        ])
      } ${cmd()} HEAD~1..HEAD`,
    () => `git difftool ${pick(["-x ", "--extcmd=", "-yx", "-y --extcmd "])}${cmd()} HEAD~1`,
    () => `git -c difftool.t.cmd=${cmd()} difftool -y ${pick(["-t t", "--tool=t"])} HEAD~1`,
    () => `git -c trailer.t.command=${cmd()} interpret-trailers --trailer t=x f`,
    () => `git -c include.path=${q(`${a}.cfg`)} q`,
    () =>
      `git init -q ${
        pick(["--template=", "--templ="])
      }../tpl d && git -C d commit -q --allow-empty -m x`,
    () =>
      `printf 'host=h\\nprotocol=https\\n' | git -c credential.helper=${
        q(`!${a} k`)
      } credential fill`,
  ];
  return Array.from({ length: count }, () => pick(templates)());
}

Deno.test({
  name: "git: a command a generated git line makes real git run is a stage the engine sees",
  ignore: !HAS_GIT,
}, async () => {
  // In a fresh copy of a small repository (three commits, a bare remote, a submodule) each line
  // names `a1`, a script that records that it ran, as an option, setting, URL or argument. When
  // it ran, the engine must see a stage running it (or not allow the line).
  const dir = await Deno.makeTempDir({ prefix: "pi-controls-git-" });
  const a = `${dir}/a1`;
  const lines = gitLines(a, 150);
  try {
    await Deno.writeTextFile(a, `#!/bin/sh\nprintf 'A\\036' >> "${dir}/log"\n`);
    await Deno.chmod(a, 0o755);
    await Deno.mkdir(`${dir}/tpl/hooks`, { recursive: true });
    await Deno.writeTextFile(`${dir}/tpl/hooks/pre-commit`, `#!/bin/sh\n${a}\n`);
    await Deno.chmod(`${dir}/tpl/hooks/pre-commit`, 0o755);
    await Deno.writeTextFile(`${a}.cfg`, `[alias]\n\tq = !${a}\n`);
    const git = "git -c user.email=a@b -c user.name=n";
    const setup = [
      `cd ${dir} && git init -q -b main t && cd t`,
      `echo 1 > f && git add f && ${git} commit -qm 1 && echo 2 > f && ${git} commit -qam 2`,
      `echo 3 > f && ${git} commit -qam 3`,
      `git clone -q --bare . ../bare.git && git remote add origin ../bare.git`,
      `${git} -c protocol.file.allow=always submodule -q add ../bare.git sub`,
      `echo 4 > f && ${git} commit -qam sub`,
    ];
    const script = setup.map((s) => s + " >/dev/null 2>&1\n").join("") +
      lines.map((line, i) =>
        `cd ${dir} && rm -rf w && cp -r t w && cd w && printf 'M${i}\\036' >> ${dir}/log && ` +
        `(${line}) </dev/null >/dev/null 2>&1\n`
      ).join("");
    await runBash(script, {
      cwd: dir,
      env: {
        LC_ALL: "C",
        HOME: dir,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_EDITOR: ":",
        GIT_AUTHOR_NAME: "n",
        GIT_AUTHOR_EMAIL: "a@b",
        GIT_COMMITTER_NAME: "n",
        GIT_COMMITTER_EMAIL: "a@b",
        GIT_SEQUENCE_EDITOR: ":",
        GIT_TERMINAL_PROMPT: "0",
        FILTER_BRANCH_SQUELCH_WARNING: "1",
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      },
    });
    const ran = linesThatRan(await Deno.readTextFile(`${dir}/log`));
    const config = configFrom({
      policies: { p: { defaultAction: "allow", rules: [] } },
      locations: { "/": "p" },
    });
    const ctx = { cwd: `${dir}/w`, home: dir, env: { HOME: dir }, fs: realFs() };
    const wrong: string[] = [];
    for (const i of ran) {
      const v = decide(config, { tool: "bash", input: { command: lines[i] } }, ctx, { parser });
      const seen = v.stages.some((s) => (s.command ?? "").startsWith(a));
      if (!seen && v.action === "allow") wrong.push(lines[i]);
    }
    assert.deepEqual(wrong, []);
    assert.ok(ran.size > lines.length / 2, `a1 ran for ${ran.size} of ${lines.length} lines`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("git: clean and stash -u without a pathspec remove what is below the cwd", async () => {
  const config = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
  }, { agentDir: "/home/user/.pi/agent" });
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/.pi/settings.json", "/home/user/project/src/a.ts"],
  });
  await checkActions(config, ctx, [
    // The project's gate files may be removed (untracked ones, or ignored with -x).
    ["git clean -fdx", "ask"],
    ["git clean -fd -e node_modules", "ask"],
    ["git clean -fd .", "ask"],
    ["git clean -fdx --", "ask"],
    ["git stash -u", "ask"],
    ["git stash push --include-untracked", "ask"],
    ["git stash save -a", "ask"],
    ["git stash save -u wip", "ask"],
    ["git stash push --incl", "ask"],
    ["git stash --a", "ask"],
    // A pathspec below the cwd names what is removed; tracked files only are kept by stash.
    ["git clean -fd src", "allow"],
    ["git clean -nd", "allow"],
    ["git clean --dry-run -x", "allow"],
    ["git stash", "allow"],
    ["git stash pop", "allow"],
    ["git status", "allow"],
  ]);
});

Deno.test("git: every blob name of a protected file reads it (gitrevisions)", async () => {
  await checkTable([
    ["git show @:.env", "deny", "deny"],
    ["git show :0:.env", "deny", "deny"],
    ["git show :.env", "deny", "deny"],
    ["git show HEAD@{0}:.env", "deny", "deny"],
    ["git show stash@{0}:.env", "deny", "deny"],
    ["git show 'HEAD@{2 days ago}:.env'", "deny", "deny"],
    ["git log -L1,5:.env", "deny", "deny"],
    ["git log -L 1,5:.env", "deny", "deny"],
    ["git log -L:main:.env", "deny", "deny"],
    ["git cat-file --batch <<< 'HEAD:.env'", "deny", "deny"],
    // Names on a stream no one reads here: not known.
    ["echo HEAD:.env | git cat-file --batch", "ask", "ask"],
  ]);
  assert.deepEqual(
    ["HEAD~2:a/b", "origin/main:x", ":1:y", ":z", ":/fix", "https://h/x", "HEAD"].map(blobPath),
    ["a/b", "x", "y", "z", null, null, null],
  );
  await checkEveryday([
    "git show HEAD:src/main.ts",
    "git log -L 10,20:src/main.ts",
    "git show :/fix",
    "git grep -L foo",
    "git cat-file --batch-check <<< 'HEAD:src/main.ts'",
  ]);
});

Deno.test("git: a pathspec glob limits what it reads to names a protection may cover", async () => {
  await checkTable([
    ["git grep x -- '*.env'", "ask", "ask"],
    ["git log -p -- '*.env'", "ask", "ask"],
  ]);
  await checkEveryday([
    "git grep TODO -- '*.ts'",
    "git diff -- '*.py'",
    "git log --oneline -- src/",
  ]);
});

Deno.test("git: a pathspec's magic is taken off to find the file it names", async () => {
  const magic = (path: string, exclude: boolean, any: boolean, top: boolean, icase = false) => ({
    path,
    exclude,
    any,
    top,
    icase,
  });
  assert.deepEqual(pathspecMagic(":(top,icase).ENV"), magic(".env", false, false, true, true));
  assert.deepEqual(pathspecMagic(":/src/a.ts"), magic("src/a.ts", false, false, true));
  assert.deepEqual(pathspecMagic(":!vendor"), magic("vendor", true, false, false));
  assert.deepEqual(pathspecMagic(":(attr:secret)"), magic("", false, true, false));
  assert.equal(pathspecMagic("src/a.ts"), null);
  await checkTable([
    ["git log -p -- ':(top).env'", "deny", "deny"],
    ["git log -p -- ':(literal).env'", "deny", "deny"],
    ["git log -p -- ':(icase).ENV'", "deny", "deny"],
    ["git log -p -- ':(top)keys/id_rsa'", "deny", "deny"],
    ["git log -p -- ':/.env'", "deny", "deny"],
    ["git show HEAD -- ':(top).env'", "deny", "deny"],
    ["git diff HEAD -- ':(top).env'", "deny", "deny"],
    ["git grep -e . ':(top).env'", "deny", "deny"],
    ["git log -p -- ':(icase)*.PEM'", "ask", "ask"],
    ["git log -p -- ':(attr:secret)'", "ask", "ask"],
    // The whole tree from its top (`:/`, `:(top)`), for a subcommand that changes it: any name.
    ["git clean -fdx :/", "deny", "ask"],
    ["git clean -fx -- ':(top)'", "deny", "ask"],
    ["git restore --source=HEAD~1 :/", "deny", "ask"],
    ["git checkout HEAD~1 -- ':(top)'", "deny", "ask"],
    ["git rm -r :/", "deny", "ask"],
  ]);
  await checkEveryday([
    "git log -p -- ':!.env'",
    "git log --oneline -- ':(top)src'",
    "git diff -- ':!package-lock.json'",
    "git diff --stat -- ':(exclude)*.lock' src",
  ]);
});

Deno.test("pushes not spelled git push are judged as pushes", async () => {
  // [command, read-only, deny-list]: the deny-list denies `git push *`
  await checkTable([
    ["git subtree push --prefix=src origin main", "deny", "deny"],
    ["git subtree push --prefix src origin main", "deny", "deny"],
    ["git send-pack origin main", "deny", "deny"],
    ["git annex sync", "deny", "deny"],
    ["git subtree split --prefix=src", "deny", "allow"],
    ["git subtree pull --prefix=src origin main", "deny", "allow"],
  ]);
});

Deno.test("tag and branch names made of text and a quoted value are names, not files", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    ['git tag "v$VERSION"', "deny", "allow"],
    ['git tag -a "v$VERSION" -m "Release v$VERSION"', "deny", "allow"],
    ['git switch -c "fix/$ISSUE-typo"', "deny", "allow"],
    ['git checkout -b "feature/$NAME"', "deny", "allow"],
    ['git branch "wip/$USER"', "deny", "allow"],
    // a value that may split or be an option stays not known; a message file stays a file
    ["git tag v$VERSION", "deny", "ask"],
    ["git tag $X", "deny", "ask"],
    ["git switch -c $B", "deny", "ask"],
    ['git tag "v$VERSION" -F .env', "deny", "deny"],
    ['git checkout -b "x$(rm -rf src)"', "deny", "deny"],
  ]);
});

Deno.test("git diff --name-only lists paths of the repository, as git ls-files does", async () => {
  const P = "/home/user/project";
  const files = [`${P}/src/a.ts`, `${P}/.pi/settings.json`];
  const ctx = ctxIn(P, { files: [...files, `${P}/config/.env`] });
  // Where no `.env` lies in the tree (it is looked at), none is reached.
  await checkGateTable(ctxIn(P, { files }), [
    ["git diff --name-only | xargs wc -l", "allow", "allow"],
    ["git diff --name-only | xargs sed -i s/a/b/", "allow", "ask"],
  ]);
  // [command, deny-list, gate's own files]: the paths may be `config/.env` (the deny-list's),
  // never a path outside the repository
  await checkGateTable(ctx, [
    ["git diff --name-only | xargs wc -l", "ask", "allow"],
    ["git diff --name-only HEAD~1 | xargs cat", "ask", "allow"],
    ["git diff --name-only --cached --diff-filter=ACM | xargs grep -n TODO", "ask", "allow"],
    // what may write the listed paths reaches .pi/settings.json among them
    ["git diff --name-only | xargs sed -i s/a/b/", "ask", "ask"],
    ["git diff --name-only | xargs rm", "deny", "ask"],
    // an option that prints elsewhere or names a file makes it no listing
    ["git diff --name-only --output=x | xargs cat", "ask", "ask"],
  ]);
});

Deno.test("git: a command given the files it found or compares is judged on them", async () => {
  const P = "/home/user/project";
  const files = [`${P}/src/a.ts`, `${P}/.pi/settings.json`, `${P}/README.md`];
  const ctx = ctxIn(P, { files, contents: { [`${P}/.git/HEAD`]: "ref: refs/heads/main\n" } });
  // [command, deny-list, gate's own files]
  const rows: [string, Action, Action][] = [
    // `git grep -O CMD`: CMD gets the matching files below the pathspecs, or below the cwd.
    ["git grep -O'sed -i s/a/b/' -e a -- .pi", "ask", "ask"],
    ["git grep --open-files-in-pager=rm -e a -- .pi", "deny", "ask"],
    ["git grep --op=rm x", "deny", "ask"],
    ["git grep --open=rm x", "deny", "ask"],
    ["git grep --op=shred\\ -u x", "ask", "ask"],
    ["git grep -nO'sed -i s/a/b/' x .pi", "ask", "ask"],
    ["git grep -O'truncate -s0' -e . -- :/", "ask", "ask"],
    ["git grep -O'sed -i s/a/b/' x -- '*.json'", "ask", "ask"],
    ["git grep -O'sed -i s/a/b/' x .pi/settings.json", "ask", "ask"],
    // ... or with no command, the pager the command sets.
    ["git -c core.pager='sed -i s/a/b/' grep -O -e a -- .pi", "ask", "ask"],
    ["PAGER=tee git grep -O -e a -- .pi", "ask", "ask"],
    // An external diff and `difftool -x` get the files of the work tree that differ.
    ["GIT_EXTERNAL_DIFF='sed -i s/a/b/' git diff", "ask", "ask"],
    ["GIT_EXTERNAL_DIFF=truncate\\ -s0 git diff HEAD -- .pi", "ask", "ask"],
    ["env GIT_EXTERNAL_DIFF='sed -i s/a/b/' git diff", "ask", "ask"],
    ["GIT_EXTERNAL_DIFF='sed -i s/a/b/'; git diff", "ask", "ask"],
    ["GIT_EXTERNAL_DIFF=rm git diff", "deny", "ask"],
    ["git -c diff.external=tee diff", "ask", "ask"],
    ["git -c diff.x.command='cp /tmp/x' diff", "ask", "ask"],
    ["cd src && git -c diff.external=tee diff", "ask", "ask"],
    ["git difftool -y -x cp HEAD", "ask", "ask"],
    ["git difftool -y -x 'truncate -s0' HEAD", "ask", "ask"],
    ["git difftool -y --extcmd='sed -i s/a/b/' HEAD", "ask", "ask"],
    ["git difftool -y --ext='sed -i s/a/b/' HEAD", "ask", "ask"],
    // Where what they get lies elsewhere, nothing protected is reached.
    ["git grep -O'sed -i s/a/b/' TODO -- src", "ask", "allow"],
    ["git grep -Ovim TODO src/a.ts", "ask", "allow"],
    ["cd src && git grep --op=rm x", "deny", "allow"],
    ["git difftool -y -x meld HEAD -- src", "ask", "allow"],
    // Everyday: no command of their own.
    ["git grep -n TODO", "allow", "allow"],
    ["git grep -O -e TODO", "allow", "allow"],
    ["git diff HEAD", "allow", "allow"],
    ["git diff --ext-diff HEAD", "allow", "allow"],
    ["git difftool -y HEAD", "allow", "allow"],
  ];
  await checkGateTable(ctx, rows);
});

Deno.test("git: what git runs starts at the top of the work tree", async () => {
  const ctx = ctxIn("/home/user/project/src", {
    files: ["/home/user/project/src/main.ts", "/home/user/.ssh/id_rsa"],
    contents: { "/home/user/project/.git/HEAD": "ref: refs/heads/main\n" },
  });
  // (From the top, `..` is the home; from the cwd, the project.)
  const out = "cp /tmp/x ../.ssh/authorized_keys";
  const gate = "cp /tmp/x ../.pi/agent/settings.json";
  await checkGateTable(ctx, [
    // [command, deny-list, gate's own files]
    [`git rebase -x '${out}' HEAD~1`, "deny", "allow"],
    [`git rebase --exec='${gate}' HEAD~1`, "allow", "ask"],
    [`git -c alias.x='!${out}' x`, "deny", "allow"],
    [`git -c alias.x='!${gate}' x`, "allow", "ask"],
    [`git config alias.x '!${out}' && git x`, "deny", "allow"],
    [`git -c core.pager='${out}' log`, "deny", "allow"],
    [`git bisect run sh -c '${out}'`, "deny", "allow"],
    [`GIT_EDITOR='${out}' git commit`, "deny", "allow"],
    [`git -C .. -c alias.x='!cat ../.ssh/id_rsa' x`, "deny", "ask"],
    // Moved where it cannot be seen: not known.
    [`git --work-tree="$W" -c alias.x='!ls' x`, "ask", "ask"],
    // Judged in the cwd too, where git runs them outside a repository.
    [`git -c alias.x='!cat ../../.ssh/id_rsa' x`, "deny", "allow"],
    [`git rebase -x 'npm test' HEAD~3`, "allow", "allow"],
    [`git -c core.pager=less log`, "allow", "allow"],
  ]);
});

Deno.test("git update-index --cacheinfo names a path the next checkout writes", async () => {
  const P = "/home/user/project";
  const ctx = ctxIn(P, { files: [`${P}/src/a.ts`, `${P}/.pi/settings.json`] });
  // [command, deny-list, gate's own files]: an index entry for the gate's file, with content of
  // the command's choosing (`git hash-object -w --stdin`), is a write of it; for another path,
  // nothing the deny-list protects.
  await checkGateTable(ctx, [
    ["git update-index --add --cacheinfo 100644,abc1234,.pi/extensions/x.ts", "allow", "ask"],
    ["git update-index --add --cacheinfo 100644 abc1234 .pi/extensions/x.ts", "allow", "ask"],
    ["git update-index --cacheinfo=100644,abc1234,.pi/settings.json", "allow", "ask"],
    ["git update-index --add --cacheinfo 100644,abc1234,.env", "deny", "allow"],
    ["git update-index --add --cacheinfo 100644,abc1234,src/b.ts", "allow", "allow"],
    // (Entries from its input: paths not known.)
    ["git update-index --index-info < entries.txt", "ask", "ask"],
    ["git update-index --refresh", "allow", "allow"],
  ]);
});

Deno.test("git rebase --continue runs the exec lines of the todo list a rebase left", async () => {
  const home = "/home/user";
  const P = `${home}/project`;
  const denyList = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { "~/.ssh/**": "deny" },
  }, { home });
  const todo = (text: string) =>
    ctxIn(P, {
      files: [`${P}/src/main.ts`, `${home}/.ssh/id_rsa`],
      home,
      contents: {
        [`${P}/.git/HEAD`]: "ref: refs/heads/main\n",
        [`${P}/.git/rebase-merge/git-rebase-todo`]: text,
      },
    });
  // (Written into the list by the agent: `sed -i '1i exec …' .git/rebase-merge/git-rebase-todo`.)
  const hostile = todo("exec cat ~/.ssh/id_rsa > /tmp/leak\npick 4c616fc c2\n");
  await checkActions(denyList, hostile, [
    ["git rebase --continue", "deny"],
    ["git rebase --skip", "deny"],
    ["cd src && git rebase --continue", "deny"],
    ["git -C . rebase --continue", "deny"],
    // (The list itself is not run by these.)
    ["git rebase --abort", "allow"],
    ["git status", "allow"],
  ]);
  await checkActions(denyList, todo("  x   cat ~/.ssh/id_rsa\n"), [[
    "git rebase --continue",
    "deny",
  ]]);
  // Everyday: picks alone, or no rebase in progress.
  await checkActions(denyList, todo("pick 4c616fc c2\npick a9b5732 c3\n"), [
    ["git rebase --continue", "allow"],
  ]);
  await checkActions(denyList, todo("exec npm test\npick 4c616fc c2\n"), [
    ["git rebase --continue", "allow"],
  ]);
  const none = ctxIn(P, {
    files: [`${P}/src/main.ts`],
    home,
    contents: { [`${P}/.git/HEAD`]: "ref: refs/heads/main\n" },
  });
  await checkActions(denyList, none, [["git rebase --continue", "allow"]]);
  // A list another stage of the command may write first: its commands are not known.
  await checkActions(denyList, todo("pick 4c616fc c2\n"), [
    ["sed -i '1i exec id' .git/rebase-merge/git-rebase-todo && git rebase --continue", "ask"],
  ]);
});
