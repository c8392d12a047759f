/**
 * Globs expanded when the call is decided (issue 20, class 3; RULINGS "What can be seen"): the
 * matches are the targets, where they lead through symlinks too; a glob another stage may
 * disturb, one over the bounds or in a directory that cannot be read is judged by its prefix.
 */
import assert from "node:assert/strict";
import { bash, configFrom, ctxIn } from "../testing.ts";
import { checkTable } from "../testing_adversarial.ts";
import type { Context, FsFacts } from "../types.ts";
import { GLOB_BOUNDS } from "../shell/pathname_expansion.ts";
import { realFs } from "./fs_facts.ts";
import { globScope } from "./glob_scope.ts";

/** [command, under read-only, under the deny-list] in the adversarial project. */
// deno-fmt-ignore
const TABLE: [string, "allow" | "ask" | "deny", "allow" | "ask" | "deny"][] = [
  // A match that is a symlink reaches where it leads (innocent.txt -> ~/.ssh/id_rsa).
  ["cat *", "deny", "deny"],
  ["cat *.txt", "deny", "deny"],
  ["cat i?nocent.[t]xt", "deny", "deny"],
  ["cat k*/id_*", "deny", "deny"],
  ["grep -h . k*/*", "deny", "deny"],
  ["cat < inno*", "deny", "deny"],
  ["cp inno* /tmp/x", "deny", "deny"],
  // Hidden names: a component starting with `.` matches them (`.env` is protected).
  ["cat .*", "deny", "deny"],
  ["cat .e*", "deny", "deny"],
  ["cat ./.e?v", "deny", "deny"],
  ["cat */.env", "deny", "deny"],
  ["cat ~/.ss*/id_*", "deny", "deny"],
  ["cat /home/user/.ss?/*", "deny", "deny"],
  ["cat ?env", "allow", "allow"],
  ["shopt -s dotglob; cat ?env", "deny", "deny"],
  // (The shell of a line writes nothing before it: the glob expands, under its -O options.)
  ["bash -O dotglob -c 'cat ?env'", "deny", "deny"],
  ["shopt -s $OPT; cat ?env", "deny", "deny"],
  ["shopt -s nocaseglob; cat .ENV*", "deny", "deny"],
  ["shopt -s globstar; cat **/hosts", "deny", "deny"],
  ["shopt -s extglob; cat @(.e|x)nv", "deny", "deny"],
  ["shopt -s extglob; cat !(README.md)", "deny", "deny"],
  // Another stage may create or rename what the glob matches: judged by its prefix.
  ["touch src/kk && cat src/k*", "deny", "ask"],
  ["mv notes.txt src/key; cat src/k*", "deny", "ask"],
  ["mkdir src/kd && cat src/k*/x", "deny", "ask"],
  ["tar xf a.tar && cat src/k*", "deny", "ask"],
  ["unzip a.zip; cat src/k*", "deny", "ask"],
  // (A checkout where no repository is seen fails, writing nothing; a pull writes files not
  // known. What a checkout writes is read from the repository: git_writes_test.ts.)
  ["git checkout other && cat src/k*", "deny", "allow"],
  ["git pull && cat src/k*", "deny", "ask"],
  ["python3 mk.py; cat src/k*", "deny", "ask"],
  ["echo x > src/kk; cat src/k*", "deny", "ask"],
  ["cat src/k* | tee src/kk", "deny", "ask"],
  ["cat $(touch src/kk) src/k*", "deny", "ask"],
  ["ln -s ~/.ssh k; cat k*/*", "deny", "deny"],
  // `..` after a symlink: listed where the kernel takes it (conf -> ~/.ssh/config.d).
  ["cat conf/../id_*", "deny", "deny"],
  ["cd -P conf/.. && cat id_*", "deny", "deny"],
  ["touch conf/../kk && cat conf/../k*", "deny", "deny"],
  ["touch a.pem && cat *.pem", "deny", "deny"],
  // ... but not a stage that writes elsewhere.
  ["touch build.log && cat src/*.ts", "deny", "allow"],
  // A match that would read as an option (none here) and braces past the bound: by the prefix.
  ["cat src/x{1..100}*", "ask", "ask"],
  // Braces are words of their own first: each glob is expanded (no match: the word as written).
  ["cat src/{a,b}*", "allow", "allow"],
  ["cat {src,keys}/*", "deny", "deny"],
  // Rules match the command as written, not as expanded.
  ["rm -rf *", "deny", "deny"],
  ["rm src/*.o", "deny", "deny"],
  // No match: the word as written.
  ["cat src/*.rs", "allow", "allow"],
  ["shopt -s failglob; cat src/*.rs", "deny", "allow"],
  // Everyday.
  ["ls src/*.ts", "allow", "allow"],
  ["cat src/*.ts | wc -l", "allow", "allow"],
  ["grep -n x src/*.ts", "allow", "allow"],
  ["head -5 src/m*.ts README*", "allow", "allow"],
  // A loop variable over a glob stands for its matches.
  ['for f in src/*.ts; do wc -l "$f"; done', "allow", "allow"],
  ['for f in *; do cat "$f"; done', "deny", "deny"],
  ["x=inno*; cat $x", "deny", "deny"],
];

Deno.test("globs: hostile and everyday spellings in the adversarial project", async () => {
  await checkTable(TABLE);
});

Deno.test("globs: a shell's command line expands its globs as the outer line does", async () => {
  // [command, read-only, deny-list]: `keys` leads to ~/.ssh; `*` matches it.
  await checkTable([
    ["bash -c 'cat k*/id_rsa'", "deny", "deny"],
    ["sh -c 'cp k*/id_rsa /tmp/x'", "deny", "deny"],
    ["bash -c 'chown -R a:a *'", "deny", "deny"],
    ["bash -c 'cat src/*.ts'", "deny", "allow"],
  ]);
});

/** A trusted project: allow inside, ask outside, `.env` asks, `~/.ssh` denied. */
const trusted = configFrom({
  policies: {
    project: { defaultAction: "allow", rules: [] },
    outside: { defaultAction: "ask", rules: [] },
  },
  locations: { "/": "outside", "$cwd": "project" },
  pathProtection: { ".env": "ask", "~/.ssh/**": "deny", "*.pem": "deny" },
});

const PROJECT = [
  "/p/.env",
  "/p/tests/test_ext1.py",
  "/p/tests/test_ext2.py",
  "/p/tests/t.py",
  "/p/astropy/io/ascii/connect.py",
  "/p/astropy/io/fits/connect.py",
  "/p/astropy/io/fits/.env",
  "/p/build/a.o",
  "/p/build/b.o",
  "/p/src/a.ts",
  "/p/src/b.ts",
  "/p/deep/x/y/key.pem",
  "/home/user/.ssh/id_rsa",
];

async function action(command: string, ctx: Context = ctxIn("/p", { files: PROJECT })) {
  return (await bash(trusted, ctx, command)).action;
}

Deno.test("globs: everyday spellings in a trusted project with a .env are allowed", async () => {
  for (
    const command of [
      "ls tests/test_ext*",
      "grep -r x astropy/io/*/connect.py",
      "pytest 'tests/t.py::test_x[1]'",
      "pytest tests/t.py::test_x[1]",
      "rm build/*.o",
      "cat src/*.ts | wc -l",
      "cd tests && ls test_*.py",
      "wc -l src/*.ts > /p/counts.txt",
      'for f in src/*.ts; do wc -l "$f"; done',
    ]
  ) {
    assert.equal(await action(command), "allow", command);
  }
});

Deno.test("globs: a match that is protected, or an expansion that cannot be seen, asks", async () => {
  assert.equal(await action("cat astropy/io/*/.env"), "ask");
  assert.equal(await action("cat .e*"), "ask");
  assert.equal(await action("cat ~/.ss*/id_*"), "deny");
  assert.equal(await action("shopt -s globstar; cat **/key*"), "deny");
  assert.equal(await action("cat **/key*"), "allow"); // (`*/key*`: no match)
  // Over the bounds: by the prefix, where a .env may lie.
  const files = Array.from({ length: GLOB_BOUNDS.entries + 1 }, (_, i) => `/p/big/f${i}`);
  assert.equal(await action("cat big/f1*", ctxIn("/p", { files })), "ask");
  // A directory that exists but cannot be read: by the prefix.
  const base = ctxIn("/p", { files: PROJECT });
  const fs: FsFacts = {
    ...base.fs,
    entries: (d) => (d === "/p/src" ? null : base.fs.entries!(d)),
  };
  assert.equal(await action("cat src/*.ts", { ...base, fs }), "ask");
  assert.equal(await action("cat build/*.o", { ...base, fs }), "allow");
  // dotglob and globstar, set in the command, widen what a glob matches.
  const flat = ctxIn("/p", { files: ["/p/.env", "/p/a.txt", "/p/a/b/id_rsa"] });
  assert.equal(await action("cat *", flat), "allow");
  assert.equal(await action("shopt -s dotglob; cat *", flat), "ask");
  assert.equal(await action("cat */id_rsa", flat), "allow");
  const guarded = configFrom({
    policies: { project: { defaultAction: "allow", rules: [] } },
    locations: { "/": "project" },
    pathProtection: { "/p/a/b/*": "deny" },
  });
  assert.equal((await bash(guarded, flat, "cat **/id_rsa")).action, "allow");
  assert.equal((await bash(guarded, flat, "shopt -s globstar; cat **/id_rsa")).action, "deny");
  // A match that reads as an option is not a path to the program: by the prefix.
  const dashed = ctxIn("/p", { files: ["/p/x/-rf", "/p/x/a"] });
  assert.equal(await action("ls x/*", dashed), "allow");
  assert.equal(await action("cd x && ls *", dashed), "ask");
});

Deno.test("globs: rules match the command as written, not as expanded", async () => {
  const config = configFrom({
    policies: {
      project: {
        defaultAction: "allow",
        rules: [
          { action: "ask", tool: "bash", pattern: "rm -rf *" },
          { action: "deny", tool: "bash", pattern: "rm -rf a.txt" },
        ],
      },
    },
    locations: { "/": "project" },
  });
  const ctx = ctxIn("/p", { files: ["/p/a.txt"] });
  assert.equal((await bash(config, ctx, "rm -rf *")).action, "ask");
  assert.equal((await bash(config, ctx, "rm -rf a.txt")).action, "deny");
});

Deno.test("globs: on the real filesystem, a match made since the last decision is seen", async () => {
  const root = Deno.realPathSync(Deno.makeTempDirSync());
  try {
    Deno.mkdirSync(`${root}/home/.ssh`, { recursive: true });
    Deno.writeTextFileSync(`${root}/home/.ssh/id_rsa`, "");
    Deno.mkdirSync(`${root}/p/src`, { recursive: true });
    Deno.writeTextFileSync(`${root}/p/src/a.ts`, "");
    const ctx: Context = { cwd: `${root}/p`, home: `${root}/home`, env: {}, fs: realFs() };
    const config = configFrom({
      policies: { project: { defaultAction: "allow", rules: [] } },
      locations: { "/": "project" },
      pathProtection: { "~/.ssh/**": "deny" },
    });
    assert.equal((await bash(config, ctx, "cat src/k*")).action, "allow");
    assert.equal((await bash(config, ctx, "cat src/*")).action, "allow");
    Deno.symlinkSync(`${root}/home/.ssh/id_rsa`, `${root}/p/src/key`);
    assert.equal((await bash(config, ctx, "cat src/k*")).action, "deny");
    assert.equal((await bash(config, ctx, "cat src/*")).action, "deny");
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("globs: another stage disturbs a glob where the directory it lists really is", () => {
  const ctx = ctxIn("/p", { files: ["/q/deep/a", "/q/other/b"], links: { "/p/l": "/q/deep" } });
  const word = (value: string) => ({ value, kind: "static" as const, prefix: value, text: value });
  const touch = {
    argv: [word("touch"), word("/q/oz")],
    redirects: [],
    text: "touch /q/oz",
    origin: "top",
    cwds: ["/p"],
  };
  const scope = globScope("touch /q/oz; cat l/../o*", [touch], ctx, () => false);
  // `/p/l/..` is /q, where the kernel takes it; lexically it would be /p.
  assert.equal(scope.disturbed("/p/l/..", undefined), true);
  assert.equal(scope.disturbed("/p", undefined), false);
  assert.equal(scope.disturbed("/q/deep", undefined), false);
  assert.equal(scope.disturbed("/q/deep", touch), false); // (its own stage: expanded before it runs)
});

Deno.test("a writer at a path: one at it or above it, not below it, elsewhere or naming no place", () => {
  const ctx = ctxIn("/p", {
    files: ["/usr/bin/grep", "/p/x"],
    links: { "/p/lnk/grep": "/usr/bin/grep" },
  });
  const stage = (text: string) => ({
    argv: text.split(" ").map((value) => ({
      value,
      kind: "static" as const,
      prefix: value,
      text: value,
    })),
    redirects: [],
    text,
    origin: "top",
    cwds: ["/p"],
  });
  const at = (writer: string) =>
    globScope(writer, [stage(writer)], ctx, () => false).disturbed(
      "/p/lnk/grep",
      undefined,
      undefined,
      { at: true },
    );
  for (
    const w of ["mv x lnk/grep", "mv x lnk", "rm -rf lnk", "cp x /usr/bin/grep", "tar -xf a.tar"]
  ) {
    assert.equal(at(w), true, w);
  }
  // (`npm install` may write anywhere, but names no place there: judged by its command.)
  for (
    const w of [
      "mkdir -p lnk/grep/sub",
      "rm -rf build",
      "cp x lnk/other",
      "mkdir lnk",
      "npm install",
    ]
  ) {
    assert.equal(at(w), false, w);
  }
  // Without `at`, what may change what a glob there lists counts.
  const scope = globScope("", [stage("npm install")], ctx, () => false);
  assert.equal(scope.disturbed("/p/lnk/grep", undefined), true);
});

Deno.test("a glob bash expanded before a stage started is not disturbed by it or what it runs", async () => {
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/src/a.ts", "/home/user/project/src/b.ts"],
  });
  const config = configFrom({
    policies: { p: { defaultAction: "allow", rules: [] } },
    locations: { "/": "p" },
    pathProtection: { "*.pem": "deny" },
  });
  const rows: [string, string][] = [
    // a wrapper's words are expanded before the wrapper runs the command
    ["npx eslint src/*", "allow"],
    ["npx prettier --write src/*", "allow"],
    ["timeout 60 cat src/*", "allow"],
    ["env CI=1 wc -l src/*", "allow"],
    ['for f in src/*; do npx prettier --write "$f"; done', "allow"],
    // a stage after the glob's, in a plain sequence, starts after its expansion
    // (npm run build may write anything: a `src/x.pem` for `src/*` to match)
    ["cat src/*; npm run build", "allow"],
    ["wc -l src/* && npm run build", "allow"],
    // ... not one before it, in a pipeline, in the background, in a loop or through a function
    ["npm run build && cat src/*", "ask"],
    ["cat src/* | npm run build", "ask"],
    ["cat src/* & npm run build", "ask"],
    ["for i in 1 2; do cat src/*; npm run build; done", "ask"],
    ["f() { npm run build; }; f; cat src/*", "ask"],
    ["bash -c 'npm run build; cat src/*'", "ask"],
    // the shell of a command line writes nothing before its line runs: its globs expand as the
    // outer line's do (not a shell with a redirect of its own, nor through another wrapper)
    ["bash -c 'cat src/*'", "allow"],
    ["sh -c 'wc -l src/*.ts'", "allow"],
    ["bash -c 'cat src/*' > src/out.txt", "ask"],
    ["sudo bash -c 'cat src/*'", "ask"],
  ];
  const wrong: string[] = [];
  for (const [command, want] of rows) {
    const got = (await bash(config, ctx, command)).action;
    if (got !== want) wrong.push(`${command}: got ${got}, want ${want}`);
  }
  assert.deepEqual(wrong, []);
});
