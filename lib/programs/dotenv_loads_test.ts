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
