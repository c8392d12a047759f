/**
 * Programs that load `.env` files without naming them: a project protecting `.env` is asked
 * before they load one that is there; a project without one sees no prompt.
 */
import { checkActions, configFrom, ctxIn } from "../testing.ts";

const H = "/home/user";
const P = `${H}/p`;
/** Allow by default, `.env` asked about (the README's example), `.env.*` denied. */
const config = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { ".env": "ask", ".env.*": "deny", "~/.ssh/**": "deny" },
});
const files = [`${P}/README.md`, `${P}/src/main.ts`, `${H}/.ssh/id_rsa`];
/** A project with `.env` (and a Pipfile, a package.json above `src`). */
const project = { [`${P}/Pipfile`]: "[packages]\n", [`${P}/package.json`]: "{}\n" };
const withEnv = ctxIn(P, {
  files,
  contents: { ...project, [`${P}/.env`]: "KEY=1\n", [`${P}/web/.env`]: "KEY=2\n" },
});
/** A project with none (an empty one is none either). */
const without = ctxIn(P, { files, contents: { ...project, [`${P}/web/.env`]: "" } });

const LOADING = [
  "bun test",
  "bun run dev",
  "bun src/main.ts",
  "bun install",
  "NODE_ENV=production bun run build",
  "pipenv run pytest",
  "pipenv shell",
  "pipenv install requests",
  "npx prisma migrate dev",
  "prisma generate --schema src/schema.prisma",
  "npx vite build",
  "vite",
  "vite dev --port 3000",
  "pnpm exec vite build --mode staging",
  "next build",
  "npx next dev",
  "npx dotenv -- printenv",
  "dotenv list",
  "dotenvx run -- node src/main.ts",
  "npx env-cmd printenv",
  "foreman start",
  "honcho start web",
  "cd src && pipenv run pytest",
  "cd src && npx prisma db push",
];

Deno.test("dotenv loads: the .env a program loads unnamed is judged as read", async () => {
  await checkActions(config, withEnv, LOADING.map((c) => [c, "ask"] as const));
});

Deno.test("dotenv loads: a project without .env sees no prompt", async () => {
  await checkActions(config, without, LOADING.map((c) => [c, "allow"] as const));
});

Deno.test("dotenv loads: options that load another file or none", async () => {
  await checkActions(config, withEnv, [
    // (What they name instead is judged as it is.)
    ["bun --no-env-file test", "allow"],
    ["bun --env-file=ci.env test", "allow"],
    ["bun --version", "allow"],
    ["PIPENV_DONT_LOAD_ENV=1 pipenv run pytest", "allow"],
    ["PIPENV_DOTENV_LOCATION=ci.env pipenv run pytest", "allow"],
    ["PIPENV_DOTENV_LOCATION=.env pipenv run pytest", "ask"],
    ["pipenv --version", "allow"],
    ["dotenv -e ci.env -- printenv", "allow"],
    ["dotenv -e .env -- printenv", "ask"],
    ["dotenv -f .env get KEY", "ask"],
    ["dotenvx run -f ci.env -- node x", "allow"],
    ["env-cmd -f ci.env printenv", "allow"],
    ["foreman start -e ci.env", "allow"],
    ["prisma --version", "allow"],
    ["next lint", "allow"],
    // (The subdirectory's own: bun and vite load the cwd's; a root given is vite's.)
    ["cd src && bun test", "allow"],
    ["cd web && bun test", "ask"],
    ["vite build web", "ask"],
    ["bun --cwd web test", "ask"],
    ["next build web", "ask"],
  ]);
});

Deno.test("dotenv loads: the mode's files, where a pattern protects them", async () => {
  const ctx = ctxIn(P, {
    files,
    contents: { [`${P}/.env.production.local`]: "K=1\n", [`${P}/.env.test`]: "K=2\n" },
  });
  await checkActions(config, ctx, [
    ["bun test", "deny"],
    ["bun run dev", "allow"],
    ["NODE_ENV=production bun run x", "deny"],
    ["NODE_ENV=$E bun run x", "deny"],
    ["vite build", "deny"],
    ["vite dev", "allow"],
    ["vite dev --mode production", "deny"],
    ["next build", "deny"],
    ["next dev", "allow"],
    ["dotenv -c production -- printenv", "deny"],
    ["dotenv -c -- printenv", "allow"],
    ["dotenvx run --convention=nextjs -- printenv", "deny"],
  ]);
});

/** The project with `.env` in `web/` only, and a secret. */
const webOnly = ctxIn(P, {
  files: [...files, `${P}/secrets/key`],
  // (A Procfile's lines are what `start` runs: dotenv_runners_test.ts.)
  contents: { ...project, [`${P}/web/.env`]: "KEY=2\n", [`${P}/Procfile`]: "web: npm start\n" },
});
const guarded = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { ".env": "ask", "~/.ssh/**": "deny", "secrets/**": "deny" },
});

Deno.test("dotenv loads: vite's and next's root after a flag, read with their options", async () => {
  await checkActions(guarded, webOnly, [
    // Hostile: a flag takes no value, the next word is the root.
    ["vite web", "ask"],
    ["vite --force web", "ask"],
    ["vite dev --strictPort web", "ask"],
    ["vite build --watch web", "ask"],
    ["vite build -w web", "ask"],
    ["vite build --emptyOutDir web", "ask"],
    ["vite preview --strictPort web", "ask"],
    ["vite optimize --force web", "ask"],
    ["vite --port 3000 web", "ask"],
    ["vite --mode=staging build web", "ask"],
    ["vite --force build", "allow"],
    ["vite --clearScreen serve web", "ask"],
    // (An option vite does not know may take the next word, or not; `--no-X` takes none.)
    ["vite --empty-out-dir web", "ask"],
    ["vite build --no-minify web", "ask"],
    ["next web", "ask"],
    ["next --turbopack web", "ask"],
    ["next dev --turbopack web", "ask"],
    ["next dev --turbo -p 3000 web", "ask"],
    ["next build --debug web", "ask"],
    ["next build -d web", "ask"],
    ["next build --no-lint web", "ask"],
    ["next build --no-mangling --profile web", "ask"],
    ["next start --port=3000 web", "ask"],
    ["next typegen web", "ask"],
    ["next dev -- web", "ask"],
    ["next dev --inspect web", "ask"],
    // Everyday: an option's value is no root; the cwd has no .env.
    ["vite", "allow"],
    ["vite build", "allow"],
    ["vite dev --port 3000", "allow"],
    ["vite -m web", "allow"],
    ["vite --host web", "allow"],
    ["vite -- web", "allow"],
    ["next dev", "allow"],
    ["next build", "allow"],
    ["next dev -p 3000", "allow"],
    ["next dev -H web", "allow"],
    ["next info", "allow"],
    ["next telemetry disable", "allow"],
  ]);
});

Deno.test("dotenv loads: foreman's and honcho's -e lists, honcho's app root before the command", async () => {
  await checkActions(guarded, webOnly, [
    // Hostile: each file of the comma list is read.
    ["foreman start -e .env.ci,secrets/key", "deny"],
    ["foreman start --env=.env.ci,secrets/key", "deny"],
    ["foreman run -e x,secrets/key ls", "deny"],
    ["foreman export -e x,secrets/key systemd out", "deny"],
    ["honcho -e .env.ci,secrets/key start", "deny"],
    ["honcho start -e x,secrets/key", "deny"],
    ["honcho start --en x,secrets/key", "deny"],
    ["honcho check -e x,secrets/key", "deny"],
    ["honcho -e x,../secrets/key -d web start", "deny"],
    ["honcho -d web -e .env.ci,.env run ls", "ask"],
    ["honcho -d web start", "ask"],
    ["honcho --app-root=web start", "ask"],
    ["honcho start --app web", "ask"],
    ["honcho start -d web", "ask"],
    ["foreman start -d web", "ask"],
    ["foreman start --root web", "ask"],
    // (A list not known: its known files, and one that may be anywhere.)
    ["honcho start -e x,secrets/key,$X", "deny"],
    ["honcho start -e .env.ci,$X", "ask"],
    ['foreman start -e "$E"', "ask"],
    ['honcho --env="$E" start', "ask"],
    // Everyday.
    ["foreman start", "allow"],
    ["honcho start", "allow"],
    ["honcho start web", "allow"],
    ["foreman start -e ci.env", "allow"],
    ["honcho -e ci.env,other.env start", "allow"],
    ["honcho export --app web systemd out", "allow"],
    ["foreman check", "allow"],
    ["honcho version", "allow"],
    // (What `run` runs takes its own options.)
    ["honcho run printenv -e x", "allow"],
    ["foreman run printenv -e x", "allow"],
  ]);
});

Deno.test("dotenv loads: foreman's .foreman gives its options", async () => {
  const at = (text: string) =>
    ctxIn(P, {
      files: [...files, `${P}/secrets/key`],
      contents: { ...project, [`${P}/web/.env`]: "KEY=2\n", [`${P}/.foreman`]: text },
    });
  await checkActions(guarded, at("env: x,secrets/key\n"), [
    ["foreman start", "deny"],
    ["foreman start -e ci.env", "allow"],
  ]);
  await checkActions(guarded, at("root: web\nport: 5000\n"), [["foreman start", "ask"]]);
  await checkActions(guarded, at("env: *anchor\n"), [["foreman start", "ask"]]);
  await checkActions(guarded, at("port: 5000\n"), [["foreman start", "allow"]]);
  await checkActions(guarded, webOnly, [
    ["echo 'env: secrets/key' > .foreman && foreman start", "ask"],
  ]);
});

Deno.test("dotenv loads: flask's nearest .env and .flaskenv, dbmate's .env", async () => {
  await checkActions(config, withEnv, [
    ["flask run", "ask"],
    ["flask --app src.main routes", "ask"],
    ["cd src && flask run", "ask"],
    ["flask -e ci.env run", "ask"],
    ["dbmate up", "ask"],
    ["dbmate migrate", "ask"],
    // Everyday: none to load, or loading turned off.
    ["FLASK_SKIP_DOTENV=1 flask run", "allow"],
    ["flask --version", "allow"],
    ["dbmate --env-file ci.env up", "allow"],
    ["dbmate --help", "allow"],
  ]);
  await checkActions(config, without, [["flask run", "allow"], ["dbmate up", "allow"]]);
  const flaskenv = ctxIn(P, { files, contents: { [`${H}/.flaskenv`]: "X=1\n" } });
  const protect = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
    pathProtection: { ".flaskenv": "ask" },
  });
  // (python-dotenv looks up to the root: the home's too.)
  await checkActions(protect, flaskenv, [["flask run", "ask"], ["dbmate up", "allow"]]);
});
