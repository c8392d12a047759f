/**
 * The `.env` loaders that run a command: what they run after their options is judged as the
 * command it is (the rule `rm *` is not walked around by `dotenv -- rm -rf src`), everyday runs
 * stay allowed, and a Procfile's lines are the commands `foreman start` runs.
 */
import assert from "node:assert/strict";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import { literal } from "./words.ts";
import { minimistCommand } from "./dotenv_runners.ts";
import { isTooBroad } from "./registry.ts";

const H = "/home/user";
const P = `${H}/p`;
/** Allow by default; `rm *`, `curl *` and `sh *` denied; `.env` asked about. */
const config = configFrom({
  policies: {
    open: {
      defaultAction: "allow",
      rules: [
        { action: "deny", tool: "bash", pattern: "rm *" },
        { action: "deny", tool: "bash", pattern: "curl *" },
      ],
    },
  },
  locations: { "/": "open" },
  pathProtection: { ".env": "ask", ".env.test": "ask", "~/.ssh/**": "deny" },
});
const files = [`${P}/README.md`, `${P}/src/main.ts`];
const procfile = "web: npm start\nworker: node worker.js\n";
const ctx = ctxIn(P, { files, contents: { [`${P}/Procfile`]: procfile } });
const hostileProcfile = ctxIn(P, {
  files,
  contents: {
    [`${P}/Procfile`]: "web: npm start\nclean: rm -rf src\n",
    [`${P}/P2`]: "x: curl x | sh\n",
  },
});
const withTestEnv = ctxIn(P, { files, contents: { [`${P}/.env.test`]: "A=1\n" } });

const CARRIERS = [
  "dotenv -- CMD",
  "dotenv -e .env.local -- CMD",
  "dotenv -e.env.local -c dev -- CMD",
  "dotenv -v A=1 --no-expand -- CMD",
  "dotenv run CMD",
  "dotenv -f .env.x run --no-override CMD",
  "env-cmd CMD",
  "env-cmd -- CMD",
  "env-cmd -f .env.x CMD",
  "env-cmd --silent -f .env.x --no-override CMD",
  "env-cmd -xf .env.x CMD",
  "env-cmd -e dev,test -- CMD",
  "env-cmd -e dev test -- CMD",
  "env-cmd --unknown-option CMD",
  "dotenvx run -- CMD",
  "dotenvx run -f .env.x -- CMD",
  "dotenvx run -e A=1 B=2 -- CMD",
  "dotenvx -q run --overload -- CMD",
  "dotenvx run -f .env.x CMD",
  "foreman run CMD",
  "foreman run -e .env.x CMD",
  "honcho run CMD",
  "honcho -e .env.x run -- CMD",
  "bun run CMD",
  "bun run --silent CMD",
];

Deno.test("dotenv runners: the command each carrier runs is judged", async () => {
  const lines = ["rm -rf src", "curl x | sh", "sh -c 'rm -rf src'", "bash -c 'curl x | sh'"];
  await checkActions(
    config,
    ctx,
    CARRIERS.flatMap((c) => lines.map((l) => [c.replace("CMD", l), "deny"] as const)),
  );
});

Deno.test("dotenv runners: a shell line env-cmd runs, a word its env file fills", async () => {
  await checkActions(config, ctx, [
    ["env-cmd --use-shell 'rm -rf src'", "deny"],
    ["env-cmd --use-shell 'npm test && curl x'", "deny"],
    ["env-cmd echo hi --use-shell '&& rm -rf src'", "deny"],
    ["env-cmd --use-shell 'npm test'", "allow"],
    // (`-x`: `$CMD` is the env file's value, not known.)
    ["env-cmd -x '$CMD' src", "deny"],
    ["env-cmd -x echo '$HOME'", "allow"],
  ]);
});

Deno.test("dotenv runners: everyday runs stay allowed", async () => {
  await checkActions(config, ctx, [
    ["dotenv -- npm test", "allow"],
    ["dotenv -e .env.local -- jest --watch", "allow"],
    ["dotenv -p NODE_ENV", "allow"],
    ["env-cmd -f .env.local jest", "allow"],
    ["env-cmd -f .env.local -- node src/main.ts", "allow"],
    ["dotenvx run -f .env.production -- node src/main.ts", "allow"],
    ["dotenvx get KEY", "allow"],
    ["foreman start", "allow"],
    ["foreman start web", "allow"],
    ["honcho start", "allow"],
    ["honcho run python manage.py migrate", "allow"],
    ["foreman run web", "allow"],
    ["bun run build", "allow"],
    ["bun run dev --port 3000", "allow"],
    ["bun run src/main.ts", "allow"],
    ["bun run --filter '*' rm", "allow"],
  ]);
  // (`.env.test` protected: the file it loads asks, no more.)
  await checkActions(config, withTestEnv, [
    ["env-cmd -f .env.test jest", "ask"],
    ["dotenv -e .env.test -- jest", "ask"],
    ["env-cmd -f .env.local jest", "allow"],
  ]);
});

Deno.test("dotenv runners: a Procfile's lines are what start runs", async () => {
  await checkActions(config, hostileProcfile, [
    ["foreman start", "deny"],
    ["honcho start", "deny"],
    ["foreman start clean", "deny"],
    ["foreman run clean", "deny"],
    ["foreman start web", "allow"],
    ["honcho start web", "allow"],
    ["foreman start -f P2", "deny"],
    ["honcho -f P2 start", "deny"],
    ["foreman check", "allow"],
    // (A Procfile another stage writes: its lines are not known.)
    ["echo 'web: npm start' > Procfile && foreman start", "deny"],
  ]);
});

Deno.test("dotenv runners: minimist's command (dotenv-cli)", () => {
  const of = (line: string) => minimistCommand(line.split(" ").map(literal))?.map((w) => w.value);
  // (Options are read after the command too: `-rf` takes `src`.)
  assert.deepEqual(of("rm -rf src"), ["rm"]);
  assert.deepEqual(of("-e .env.x -- rm -rf src"), ["rm", "-rf", "src"]);
  assert.deepEqual(of("-e.env.x jest"), ["jest"]);
  assert.deepEqual(of("-c rm x"), ["x"]);
  assert.deepEqual(of("--no-expand jest"), ["jest"]);
  assert.deepEqual(of("-p X"), []);
});

Deno.test("dotenv runners: saving them broadly would allow anything", () => {
  for (const name of ["dotenv", "env-cmd"]) assert(isTooBroad(name));
  assert(isTooBroad("dotenvx", "run") && !isTooBroad("dotenvx", "get"));
  assert(isTooBroad("foreman", "start") && isTooBroad("honcho", "run"));
  assert(!isTooBroad("foreman", "check"));
});

/** A project whose Procfile is harmless and whose `Procfile.evil` is not. */
const withEvil = (more: Record<string, string> = {}, env: Record<string, string> = {}) =>
  ctxIn(P, {
    files,
    env,
    contents: {
      [`${P}/Procfile`]: "web: npm start\n",
      [`${P}/Procfile.evil`]: "w: rm -rf src\n",
      [`${P}/Procfile.dev`]: "web: npm run dev\n",
      [`${P}/other.env`]: "PROCFILE=Procfile.evil\n",
      [`${P}/dev.env`]: "PORT=5000\nPROCFILE=Procfile.dev\n",
      [`${P}/port.env`]: "PORT=5000\n",
      [`${P}/app/Procfile`]: "web: npm start\n",
      [`${P}/app/.env`]: "PROCFILE = 'Procfile.evil' # the app's\n",
      [`${P}/app/Procfile.evil`]: "w: curl x | sh\n",
      ...more,
    },
  });

Deno.test("dotenv runners: the Procfile honcho's env files name (PROCFILE)", async () => {
  await checkActions(config, withEvil(), [
    ["honcho -e other.env start", "deny"],
    ["honcho --env=other.env start", "deny"],
    ["honcho start -e other.env", "deny"],
    ["honcho start --env other.env w", "deny"],
    // (A process the Procfile does not hold: honcho stops.)
    ["honcho start --env other.env web", "allow"],
    ["honcho start --en=other.env", "deny"],
    ["honcho -e port.env,other.env start", "deny"],
    ["honcho -e 'port.env, other.env' start", "deny"],
    ["honcho -e other.env -d . start", "deny"],
    ["honcho -d app start", "deny"],
    ["honcho --app-root app -e .env start", "deny"],
    // (`-f` comes before the env file's PROCFILE.)
    ["honcho -e other.env -f Procfile start", "allow"],
    // (An env file not known: its PROCFILE is not known.)
    ["echo PROCFILE=x > port.env && honcho -e port.env start", "deny"],
    ['honcho -e "$E" start', "deny"],
    // (Everyday: env files without PROCFILE, or naming a harmless one.)
    ["honcho start", "allow"],
    ["honcho -e port.env start", "allow"],
    ["honcho -e dev.env start", "allow"],
    ["honcho start -e dev.env web", "allow"],
    ["honcho -e other.env run npm test", "allow"],
  ]);
  // (`.env` naming it: the file asks, the Procfile's command denies.)
  const dotEnv = (text: string) => withEvil({ [`${P}/.env`]: text });
  for (
    const text of [
      "PROCFILE=Procfile.evil\n",
      'PROCFILE="Procfile.evil"\n',
      '"PROC"FILE=Procfile.evil\n',
      "PROC\\FILE = Procfile.ev il # joined as honcho joins them\n",
      "PORT=1\rPROCFILE=Procfile.evil\n",
    ]
  ) {
    await checkActions(config, dotEnv(text), [["honcho start", "deny"]]);
  }
  await checkActions(config, dotEnv("PORT=5000\n# PROCFILE=Procfile.evil\n"), [
    ["honcho start", "ask"],
  ]);
  // (A backslash honcho's versions read differently, a quote left open: not known.)
  await checkActions(config, dotEnv("PROCFILE=Procfile.d\\\\ev\n"), [["honcho start", "deny"]]);
});

Deno.test("dotenv runners: the environment's PROCFILE (honcho 2) beside Procfile (honcho 1)", async () => {
  await checkActions(config, withEvil(), [
    ["PROCFILE=Procfile.evil honcho start", "deny"],
    ["PROCFILE=Procfile.dev honcho start", "allow"],
    ['PROCFILE="$X" honcho start', "deny"],
    // (The env file's comes first.)
    ["PROCFILE=Procfile.evil honcho -e dev.env start", "allow"],
    ["PROCFILE=Procfile.evil foreman start", "allow"],
  ]);
  await checkActions(config, withEvil({}, { PROCFILE: "Procfile.evil" }), [
    ["honcho start", "deny"],
    ["honcho -e dev.env start", "allow"],
  ]);
  await checkActions(config, hostileProcfile, [["PROCFILE=P3 honcho start", "deny"]]);
});

Deno.test("dotenv runners: a Procfile's lines as each splits them", async () => {
  const procfile = (text: string) =>
    ctxIn(P, { files, contents: { [`${P}/Procfile`]: text, [`${P}/.foreman`]: "" } });
  // (honcho's lines are Python's `splitlines`: each of these breaks a line.)
  for (const br of ["\r", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]) {
    await checkActions(config, procfile(`web: echo hi${br}worker: rm -rf src\n`), [
      ["honcho start", "deny"],
      ["honcho start worker", "deny"],
      ["honcho start web", "allow"],
    ]);
  }
  // (foreman's are `\n`'s only: the rest is echo's words.)
  await checkActions(config, procfile("web: echo hi\x1cworker: rm -rf src\n"), [
    ["foreman start", "allow"],
  ]);
  await checkActions(config, procfile("web: echo hi\x85clean: rm -rf src\n"), [
    ["foreman start", "allow"],
    ["foreman start clean", "allow"],
  ]);
  // (The whitespace after the colon each skips: Python's `\s`, Ruby's.)
  await checkActions(config, procfile("web:\u00a0\x1frm -rf src\n"), [["honcho start", "deny"]]);
  await checkActions(config, procfile("web:\v\frm -rf src\n"), [
    // (honcho: `\v` and `\f` end the line, `web:` holds no command and `rm` no name.)
    ["honcho start", "allow"],
    ["foreman start", "deny"],
  ]);
  await checkActions(config, procfile("web:\trm -rf src\r\n"), [["foreman start", "deny"]]);
  await checkActions(config, procfile("web: npm start\r\nworker: node worker.js\r\n"), [
    ["honcho start", "allow"],
    ["foreman start", "allow"],
  ]);
});
