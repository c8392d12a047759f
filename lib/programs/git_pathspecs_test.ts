import assert from "node:assert/strict";
import {
  checkActions,
  ctxIn,
  gitIndexBytes,
  HAS_GIT,
  secretsDenied,
  tempRepository,
} from "../testing.ts";
import { literal } from "./words.ts";
import { icasePathspecs, magicFiles, pathspecGlobs } from "./git_pathspecs.ts";
import type { Stage } from "../shell/model.ts";

const home = "/home/user";
const DL = secretsDenied(home);
const FILES = ["/p/src/main.ts", "/p/README.md", "/p/.env", "/p/secrets/key", "/p/.git/HEAD"];
const REPO = ctxIn("/p", {
  files: FILES,
  bytes: { "/p/.git/index": gitIndexBytes(["src/main.ts", "README.md", "secrets/key", ".env"]) },
  home,
});

/** Each way git is told to match pathspecs in any case, before the command that names them. */
const ICASE_SPELLINGS = [
  "GIT_ICASE_PATHSPECS=1 ",
  "GIT_ICASE_PATHSPECS=true ",
  "GIT_ICASE_PATHSPECS=yes ",
  "GIT_ICASE_PATHSPECS=2 ",
  'GIT_ICASE_PATHSPECS="$X" ',
  "LANG=C GIT_ICASE_PATHSPECS=on ",
];

/** Commands whose pathspecs, in any case, name `secrets` (denied) or `.env` (asked about). */
const NAMED: [string, "deny" | "ask"][] = [
  ["git add -f SECRETS", "deny"],
  ["git grep --untracked -e . -- SECRETS", "deny"],
  ["git grep --no-index . -- .ENV", "ask"],
  ["git diff -- SECRETS", "deny"],
  ["git diff HEAD -- Secrets/Key", "deny"],
  ["git log -p -- SECRETS", "deny"],
  ["git archive HEAD SECRETS", "deny"],
  ["git show HEAD -- SECRETS", "deny"],
  ["git checkout -- SECRETS/KEY", "deny"],
  ["git restore SECRETS", "deny"],
  ["git rm -r --cached SECRETS", "deny"],
  ["git ls-files -- SECRETS", "deny"],
  ["git diff -- ':(top)SECRETS'", "deny"],
  ["git diff -- .Env", "ask"],
];

Deno.test("git pathspecs: in any case, a pathspec names every case spelling of it", async () => {
  for (const [command, want] of NAMED) {
    // (Case told apart: nothing of those is named.)
    await checkActions(DL, REPO, [[command, "allow"], [
      `GIT_ICASE_PATHSPECS=0 ${command}`,
      "allow",
    ]]);
    await checkActions(DL, REPO, ICASE_SPELLINGS.map((e) => [e + command, want] as const));
    await checkActions(DL, REPO, [
      [command.replace(/^git /, "git --icase-pathspecs "), want],
      [command.replace(/^git /, "git --no-pager --icase-pathspecs "), want],
    ]);
    // (Set in the environment the tool runs with.)
    await checkActions(DL, { ...REPO, env: { ...REPO.env, GIT_ICASE_PATHSPECS: "1" } }, [
      [command, want],
    ]);
  }
  // (A glob in any case: `*.ENV` is `*.env`, `.Env`, …)
  await checkActions(DL, REPO, [
    ["GIT_ICASE_PATHSPECS=1 git grep x -- '*.ENV'", "ask"],
    ["git grep x -- ':(icase)*.ENV'", "ask"],
    ["GIT_ICASE_PATHSPECS=1 git diff -- SRC", "allow"],
    ["GIT_ICASE_PATHSPECS=1 git add Src/Main.ts", "allow"],
  ]);
});

Deno.test("git pathspecs: the variable exported, or set alone, makes later pathspecs any case", async () => {
  await checkActions(DL, REPO, [
    ["export GIT_ICASE_PATHSPECS=1; git diff -- SECRETS", "ask"],
    ["export GIT_ICASE_PATHSPECS; GIT_ICASE_PATHSPECS=1; git diff -- SECRETS", "ask"],
    ["declare -x GIT_ICASE_PATHSPECS=1; git log -p -- SECRETS", "ask"],
    ["env GIT_ICASE_PATHSPECS=1 sh -c 'git diff -- SECRETS'", "ask"],
    ["export GIT_ICASE_PATHSPECS=0; git diff -- SECRETS", "allow"],
    ["export GIT_ICASE_PATHSPECS=; git diff -- SECRETS", "allow"],
  ]);
});

Deno.test("git pathspecs: the facets' reading of case", () => {
  const argv = (command: string) => command.split(" ").map(literal);
  const stage = (assignments: string[]): Stage => ({
    argv: argv("git diff"),
    redirects: [],
    text: "",
    origin: "top",
    cwds: ["/p"],
    assignments: assignments.map(literal),
  });
  assert.equal(icasePathspecs(argv("git diff")), false);
  assert.equal(icasePathspecs(argv("git --icase-pathspecs diff")), true);
  assert.equal(icasePathspecs(argv("git diff"), stage(["GIT_ICASE_PATHSPECS=1"])), true);
  assert.equal(icasePathspecs(argv("git diff"), stage(["GIT_ICASE_PATHSPECS=off"])), false);
  assert.equal(icasePathspecs(argv("git diff"), undefined, { GIT_ICASE_PATHSPECS: "1" }), true);
  assert.equal(icasePathspecs(argv("git diff"), undefined, { GIT_ICASE_PATHSPECS: "" }), false);
  // (Set before git, it wins over the tool's environment.)
  assert.equal(
    icasePathspecs(argv("git diff"), stage(["GIT_ICASE_PATHSPECS=0"]), {
      GIT_ICASE_PATHSPECS: "1",
    }),
    false,
  );
  assert.deepEqual(pathspecGlobs(argv("git diff -- *.ENV"), 1, true), ["*.[eE][nN][vV]"]);
  assert.deepEqual(pathspecGlobs(argv("git diff -- :(icase)*.PEM"), 1), ["*.[pP][eE][mM]"]);
  assert.deepEqual(pathspecGlobs(argv("git diff -- *.ENV"), 1), ["*.ENV"]);
  assert.deepEqual(pathspecGlobs(argv("git diff -- SECRETS"), 1, true), []);
  assert.deepEqual(magicFiles(argv("git diff -- SECRETS"), 1, true), [
    { path: "secrets", source: "SECRETS" },
  ]);
  assert.deepEqual(magicFiles(argv("git diff -- SECRETS"), 1), []);
  assert.deepEqual(magicFiles(argv("git diff -- :(top)SECRETS"), 1, true), [
    { path: "secrets", source: ":(top)SECRETS", top: true },
  ]);
});

Deno.test({
  name: "git pathspecs: git matches in any case as the variable says (a real repository)",
  ignore: !HAS_GIT,
}, () => {
  const repo = tempRepository(["secrets/key", ".env"]);
  try {
    repo.git("add", "-f", ".");
    assert.equal(repo.git("ls-files", "--", "SECRETS"), "");
    for (
      const [value, listed] of [["1", true], ["yes", true], ["0", false], ["", false]] as const
    ) {
      const out = new Deno.Command("git", {
        args: ["ls-files", "--", "SECRETS"],
        cwd: repo.dir,
        env: { GIT_ICASE_PATHSPECS: value },
      }).outputSync();
      assert.equal(new TextDecoder().decode(out.stdout).trim() === "secrets/key", listed, value);
    }
    assert.equal(
      repo.git("--icase-pathspecs", "ls-files", "--", ".ENV").trim(),
      ".env",
    );
  } finally {
    repo.remove();
  }
});

Deno.test("git pathspecs: restore's globs reach no file only where it writes the index alone", async () => {
  await checkActions(DL, REPO, [
    // Everyday: unstaging, however spelled.
    ["git restore --staged '*.env'", "allow"],
    ["git restore -S '*.env'", "allow"],
    ["git restore -qS -- '*.env'", "allow"],
    ["git restore --sta 'secret*'", "allow"],
    // Hostile: the work tree too (an abbreviation, a cluster, `--no-staged`, `-s`'s value).
    ["git restore --staged --wor '*.env'", "ask"],
    ["git restore -S --w 'secret*'", "ask"],
    ["git restore -SW '*.env'", "ask"],
    ["git restore --staged --no-st '*.env'", "ask"],
    ["git restore -sStaged '*.env'", "ask"],
    ["git restore --staged $OPT '*.env'", "ask"],
  ]);
});
