/**
 * More programs that load `.env` files without naming them (dotenv_tools.ts): with `.env` there
 * and protected, each asks; without one, none does; the options that name other files or turn
 * loading off are read as each program reads them.
 */
import assert from "node:assert/strict";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import { programNamed } from "./registry.ts";
import { literal } from "./words.ts";
import { actrcOptions, goExpand } from "./dotenv_tools.ts";

const H = "/home/user";
const P = `${H}/p`;
const config = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { ".env": "ask", ".env.*": "deny", "secrets/**": "deny", "~/.ssh/**": "deny" },
});
const files = [`${P}/README.md`, `${P}/src/main.ts`, `${P}/secrets/key`, `${H}/.ssh/id_rsa`];
const project = { [`${P}/foundry.toml`]: "[profile.default]\n", [`${P}/Cargo.toml`]: "" };
const withEnv = ctxIn(P, { files, contents: { ...project, [`${P}/.env`]: "KEY=1\n" } });
const without = ctxIn(P, { files, contents: { ...project, [`${P}/web/.env`]: "KEY=2\n" } });

const LOADING = [
  "forge build",
  "forge test -vvv",
  "cast call 0x0 'f()'",
  "anvil",
  "chisel",
  "cd src && forge build",
  "diesel migration run",
  "cd src && diesel setup",
  "sqlx migrate run",
  "cargo-sqlx sqlx prepare",
  "sentry-cli releases list",
  "nuxi dev",
  "npx nuxi build",
  "nuxt generate",
  "nuxi preview",
  "act",
  "act -l",
  "act pull_request -j test",
  "astro dev",
  "npx astro build",
  "wrangler deploy",
  "wrangler dev",
  "dotenv-linter",
  "dotenv-linter check",
  "dotenv-linter fix",
];

Deno.test("dotenv tools: the .env each loads unnamed is judged as read", async () => {
  await checkActions(config, withEnv, LOADING.map((c) => [c, "ask"] as const));
});

Deno.test("dotenv tools: a project without .env sees no prompt", async () => {
  await checkActions(config, without, LOADING.map((c) => [c, "allow"] as const));
});

Deno.test("dotenv tools: options that load another file, or none", async () => {
  await checkActions(config, withEnv, [
    // Hostile: the file an option names is read, from the directory the program reads it in.
    ["act --secret-file secrets/key", "deny"],
    ["act -C src --secret-file ../secrets/key", "deny"],
    ["act -C src --env-file=../secrets/key", "deny"],
    ["act --var-file=secrets/key -l", "deny"],
    ["SENTRY_DOTENV_PATH=secrets/key sentry-cli info", "deny"],
    ["nuxi dev --dotenv ../p/secrets/key", "deny"],
    ["nuxi dev --cwd src --dotenv ../secrets/key", "deny"],
    ["nuxi build web --dotenv=../secrets/key", "deny"],
    ["dotenv-linter fix secrets/key", "deny"],
    ["dotenv-linter fix .", "ask"],
    ["astro dev --mode staging", "ask"],
    ["wrangler dev --env staging", "ask"],
    // Everyday: loading turned off, another file named, help.
    ["sqlx migrate run --no-dotenv", "allow"],
    ["SENTRY_LOAD_DOTENV=0 sentry-cli releases list", "allow"],
    ["SENTRY_DOTENV_PATH=ci.env sentry-cli info", "allow"],
    ["nuxt dev --dotenv .env.ci", "deny"],
    ["nuxi dev --dotenv ci.env", "allow"],
    ["nuxi info", "allow"],
    ["nuxi init app", "allow"],
    ["forge --version", "allow"],
    ["diesel --help", "allow"],
    ["act --version", "allow"],
    ["act --env-file ci.env --secret-file ci.secrets", "allow"],
    ["dotenv-linter compare ci.env other.env", "allow"],
    ["dotenv-linter --version", "allow"],
    ["dotenv-linter src", "allow"],
    ["wrangler --version", "allow"],
    ["astro add react", "allow"],
  ]);
});

Deno.test("dotenv tools: where each looks: parents, the project root, the act directory", async () => {
  const nested = ctxIn(`${P}/src`, {
    files,
    contents: { ...project, [`${P}/.env`]: "KEY=1\n" },
  });
  await checkActions(config, nested, [
    // dotenvy's nearest `.env` up; foundry's project root (foundry.toml's directory).
    ["diesel migration run", "ask"],
    ["sqlx migrate run", "ask"],
    ["sentry-cli info", "ask"],
    ["forge build", "ask"],
    // Vite's, nuxt's, act's and wrangler's: the cwd's (or the root given).
    ["astro dev", "allow"],
    ["astro dev --root ..", "ask"],
    ["nuxi dev", "allow"],
    ["nuxi dev ..", "ask"],
    ["nuxi dev --cwd ..", "ask"],
    ["act", "allow"],
    ["act -C ..", "ask"],
    ["act --directory=..", "ask"],
    ["wrangler dev", "allow"],
    ["dotenv-linter", "allow"],
    ["dotenv-linter ..", "ask"],
    ["dotenv-linter -r", "ask"],
  ]);
});

Deno.test("dotenv tools: act's .actrc options and the mode files", async () => {
  const rc = (text: string) => ctxIn(P, { files, contents: { ...project, [`${P}/.actrc`]: text } });
  await checkActions(config, rc("--secret-file secrets/key\n-P ubuntu-latest=node:16\n"), [
    ["act", "deny"],
    ["act --secret-file ci.secrets", "allow"],
  ]);
  await checkActions(config, rc("-P ubuntu-latest=node:16\n"), [["act", "allow"]]);
  const modes = ctxIn(P, {
    files,
    contents: {
      ...project,
      [`${P}/.env.production`]: "K=1\n",
      [`${P}/.dev.vars`]: "K=2\n",
    },
  });
  const devVars = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { ".env.*": "deny", ".dev.vars": "ask" },
  });
  await checkActions(devVars, modes, [
    ["astro build", "deny"],
    ["astro dev", "allow"],
    ["astro dev --mode production", "deny"],
    ["wrangler dev", "ask"],
    ["wrangler deploy", "allow"],
    ["dotenv-linter", "deny"],
  ]);
});

Deno.test("dotenv tools: dotenv-linter fix rewrites the .env files of the trees it is given", () => {
  const facets = programNamed("dotenv-linter")!;
  const argv = (c: string) => c.split(" ").map(literal);
  const rewrites = (c: string) => facets.rewritesTrees!(argv(c));
  assert.equal(rewrites("dotenv-linter fix"), "cwd");
  assert.equal(rewrites("dotenv-linter fix ."), "named");
  assert.equal(rewrites("dotenv-linter fix -r src"), "named");
  assert.equal(rewrites("dotenv-linter fix --dry-run"), null);
  assert.equal(rewrites("dotenv-linter"), null);
  assert.equal(rewrites("dotenv-linter check ."), null);
  assert.equal(rewrites("dotenv-linter compare .env .env.ci"), null);
  const given = { read: () => "", home: H };
  const changes = (c: string, file: string) => facets.changesBelow!(argv(c), P, file, given);
  assert.equal(changes("dotenv-linter fix", `${P}/.env`), true);
  assert.equal(changes("dotenv-linter fix", `${P}/.env.production`), true);
  assert.equal(changes("dotenv-linter fix", `${P}/prod.env`), true);
  assert.equal(changes("dotenv-linter fix", `${P}/.envrc`), false);
  assert.equal(changes("dotenv-linter fix", `${P}/src/main.ts`), false);
  assert.equal(changes("dotenv-linter fix", `${P}/web/.env`), false);
  assert.equal(changes("dotenv-linter fix -r", `${P}/web/.env`), true);
});

Deno.test("dotenv tools: vercel env pull writes .env.local, or the file it names", async () => {
  await checkActions(config, withEnv, [
    ["vercel env pull", "deny"],
    ["vc env pull --environment=preview", "deny"],
    ["vercel env pull ci.env", "allow"],
    ["vercel env ls", "allow"],
    ["vercel deploy", "allow"],
  ]);
});

Deno.test("dotenv tools: the variables an .actrc line names, expanded as Go's os.ExpandEnv", async () => {
  const rc = (text: string, home = "") =>
    ctxIn(P, {
      files,
      contents: { ...project, [`${home || P}/.actrc`]: text, [`${P}/ci.secrets`]: "K=1\n" },
    });
  for (
    const line of [
      "--secret-file $PWD/secrets/key",
      "--secret-file ${PWD}/secrets/key",
      "  --env-file\t$PWD/secrets/key  ",
      "\x85--var-file $HOME/p/secrets/key",
      "--input-file=${HOME}/p/secrets/key",
      "-C $PWD/secrets\n--secret-file key",
    ]
  ) {
    await checkActions(config, rc(`-P ubuntu-latest=node:16\n${line}\n`), [["act -l", "deny"]]);
  }
  // (A variable not known: the file act reads is not known.)
  for (
    const line of [
      "$U--secret-file secrets/key",
      "--secret-file $U/secrets/key",
      "--secret-file ${U}",
      "--secret-$U-file secrets/key",
      "-l $U",
      "-C $U",
    ]
  ) {
    await checkActions(config, rc(`-P ubuntu-latest=node:16\n${line}\n`), [["act -l", "ask"]]);
  }
  // (A variable the command sets is the one act expands.)
  await checkActions(config, rc("--secret-file $S\n"), [
    ["S=secrets/key act -l", "deny"],
    ["S=ci.secrets act -l", "allow"],
  ]);
  // (`$PWD`: the directory act runs in; the home's `.actrc` is read from any.)
  await checkActions(config, rc("--secret-file $PWD/../secrets/key\n", H), [
    ["cd src && act -l", "deny"],
    ["act -l", "allow"],
  ]);
  await checkActions(config, rc("--secret-file $HOME/p/secrets/key\n", H), [["act -l", "deny"]]);
  // (Everyday: a `$` in the values of options naming no file, a `$` before no name.)
  for (
    const text of [
      "-P ubuntu-latest=catthehacker/ubuntu:act-latest\n",
      "-s GITHUB_TOKEN=$GITHUB_TOKEN\n--env NODE_ENV=${MODE}\n",
      "--container-options -v $HOME/.cache:/cache\n",
      "--secret-file $PWD/ci.secrets\n",
      "--secret-file ci$.secrets\n# --secret-file $X\n",
    ]
  ) {
    await checkActions(config, rc(text), [["act -l", "allow"]]);
  }
});

Deno.test("dotenv tools: Go's os.Expand", () => {
  const env: Record<string, string> = { A: "a", B_1: "b", "1": "one", "A B": "ab" };
  const x = (s: string) => goExpand(s, (n) => env[n] ?? "");
  assert.equal(x("$A/$B_1/${A}x"), "a/b/ax");
  assert.equal(x("$A-$1$2"), "a-one");
  assert.equal(x("${A B}|${}|${1}|$"), "ab||one|$");
  assert.equal(x("x${A"), "xA");
  assert.equal(x("$/$ $.$$"), "$/$ $.");
});

Deno.test("dotenv tools: the options of an .actrc as act reads them", () => {
  const known = (n: string) => (n === "HOME" ? "/h" : "\0");
  assert.deepEqual(actrcOptions("-P a=b\n--secret-file  x y\n\tnot an option\n", known), [
    "-P",
    "a=b",
    "--secret-file",
    " x y",
  ]);
  assert.deepEqual(actrcOptions("--secret-file $HOME/s\r\n-l\n", known), [
    "--secret-file",
    "/h/s",
    "-l",
  ]);
  assert.deepEqual(actrcOptions("-s T=$T\n", known), ["-s", null]);
  assert.equal(actrcOptions("--secret-file $T\n", known), null);
  assert.equal(actrcOptions("$T\n", known), null);
  // (Go's `\s` is ASCII's: a no-break space does not split.)
  assert.deepEqual(actrcOptions("--env-file\u00a0x\n", known), ["--env-file\u00a0x"]);
});
