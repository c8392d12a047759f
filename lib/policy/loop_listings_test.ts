/**
 * `for` loops over globs judged as the lists they are now (loop_listings.ts), in a real temporary
 * directory: a monorepo's loops as their literal lists are, a match leading to a protected place
 * judged there, and the loop read as before wherever the listing may not hold when bash expands
 * it (another stage may change what the glob matches, glob options, too many matches).
 */
import assert from "node:assert/strict";
import { bash, configFrom, secretsDenied } from "../testing.ts";
import { HELD } from "../shell/testing.ts";
import { STARTER_CONFIG } from "../starter.ts";
import type { Action, Config, Context } from "../types.ts";
import { realFs } from "./fs_facts.ts";

const root = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "loop_listings_" }));
const home = `${root}/home`;
const cwd = `${root}/repo`;
for (const d of ["packages/a", "packages/b", "apps/web", ".pi", "many", "dirs/ok"]) {
  Deno.mkdirSync(`${cwd}/${d}`, { recursive: true });
}
Deno.mkdirSync(`${home}/.ssh`, { recursive: true });
Deno.writeTextFileSync(`${home}/.ssh/config`, "Host x\n");
for (const p of ["packages/a", "packages/b", "apps/web"]) {
  Deno.writeTextFileSync(`${cwd}/${p}/package.json`, "{}");
}
for (let i = 0; i < 40; i++) Deno.mkdirSync(`${cwd}/many/m${i}`);
Deno.writeTextFileSync(`${cwd}/notes.txt`, "x");

const ctx: Context = {
  cwd,
  home,
  env: { HOME: home, PATH: "/usr/local/bin:/usr/bin:/bin", ...HELD },
  fs: realFs(),
};
const STARTER = configFrom(STARTER_CONFIG, { home, agentDir: `${home}/.pi/agent` });
const DL = secretsDenied(home, { agentDir: `${home}/.pi/agent` });

async function actions(config: Config, commands: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const c of commands) out.push(`${(await bash(config, ctx, c)).action} ${c}`);
  return out;
}

/** Each command's verdict is `want`, and, where a literal list is given, that list's too. */
async function check(config: Config, rows: readonly [string, Action, string?][]): Promise<void> {
  const got = await actions(config, rows.map((r) => r[0]));
  assert.deepEqual(got, rows.map(([c, want]) => `${want} ${c}`));
  const literal = rows.filter((r) => r[2] !== undefined);
  assert.deepEqual(
    await actions(config, literal.map((r) => r[2]!)),
    literal.map(([, want, l]) => `${want} ${l}`),
  );
}

const PKGS = "packages/a/ packages/b/";

Deno.test("for over a glob: everyday monorepo loops are judged as their literal lists", async () => {
  await check(STARTER, [
    [
      'for d in packages/*/; do (cd "$d" && npm test); done',
      "allow",
      `for d in ${PKGS}; do (cd "$d" && npm test); done`,
    ],
    [
      'for d in packages/*/; do (cd "$d" && ls); done',
      "allow",
      `for d in ${PKGS}; do (cd "$d" && ls); done`,
    ],
    ['for d in packages/*/ apps/*/; do (cd "$d" && npm test); done', "allow"],
    ['for d in */; do (cd "$d" && ls); done', "allow"],
    ['for d in packages/*/; do (cd -- "$d" && npm test); done', "allow"],
    ["for d in packages/*/; do (cd $d && npm test); done", "allow"],
    ['for d in packages/*/; do pushd "$d"; npm test; popd; done', "allow"],
    [
      'for d in packages/*/; do git -C "$d" status; done',
      "allow",
      `for d in ${PKGS}; do git -C "$d" status; done`,
    ],
    [
      'for d in packages/*/; do npm --prefix "$d" test; done',
      "allow",
      `for d in ${PKGS}; do npm --prefix "$d" test; done`,
    ],
    ['for f in *.txt; do cat "$f"; done', "allow"],
    ['for d in packages/*/; do for f in "$d"*.json; do cat "$f"; done; done', "allow"],
    // No match: the word as written (cd fails there).
    [
      'for d in nothing/*/; do (cd "$d" && ls); done',
      "allow",
      `for d in 'nothing/*/'; do (cd "$d" && ls); done`,
    ],
  ]);
});

Deno.test("for over a glob: a match that leads to a protected place is judged there", async () => {
  Deno.symlinkSync(`${home}/.ssh`, `${cwd}/dirs/keys`);
  Deno.symlinkSync("/", `${cwd}/dirs/root`);
  try {
    const list = "dirs/keys/ dirs/ok/ dirs/root/";
    await check(DL, [
      [
        'for d in dirs/*/; do (cd "$d" && cat config); done',
        "deny",
        `for d in ${list}; do (cd "$d" && cat config); done`,
      ],
      [
        'for d in dirs/*/; do git -C "$d" log -p; done',
        "deny",
        `for d in ${list}; do git -C "$d" log -p; done`,
      ],
      [
        'for d in dirs/*/; do (cd "$d" && rm -rf *); done',
        "deny",
        `for d in ${list}; do (cd "$d" && rm -rf *); done`,
      ],
      // The gate's files: `.*/` matches `.pi/`.
      [
        'for d in .*/; do (cd "$d" && echo x > settings.json); done',
        "ask",
        `for d in .pi/; do (cd "$d" && echo x > settings.json); done`,
      ],
    ]);
    await check(STARTER, [
      [
        'for d in dirs/*/; do (cd "$d" && npm test); done',
        "deny",
        `for d in ${list}; do (cd "$d" && npm test); done`,
      ],
    ]);
  } finally {
    Deno.removeSync(`${cwd}/dirs/keys`);
    Deno.removeSync(`${cwd}/dirs/root`);
  }
});

Deno.test("for over a glob: read as before where the listing may not hold", async () => {
  // Another stage, not the loop's body, may change what the glob matches first; a later round
  // of an outer loop expands the list after the body's writes; glob options; too many matches.
  await check(STARTER, [
    ['mkdir packages/c; for d in packages/*/; do (cd "$d" && npm test); done', "deny"],
    ['for d in packages/*/; do (cd "$d" && npm test); done & mkdir packages/c', "deny"],
    ['for i in 1 2; do for d in packages/*/; do (cd "$d" && npm test); done; done', "deny"],
    ['shopt -s nullglob; for d in packages/*/; do (cd "$d" && npm test); done', "deny"],
    ['for d in many/*/; do (cd "$d" && npm test); done', "deny"],
  ]);
  // The loop's own body writes after the list was expanded.
  await check(STARTER, [['for d in packages/*/; do (cd "$d" && npm install); done', "allow"]]);
});

Deno.test("for over a glob: a stage that surely starts after the loop cannot change its list", async () => {
  const loop = 'for d in packages/*/; do (cd "$d" && npm test); done';
  // A later element of the top-level list: the list was expanded before it starts.
  await check(STARTER, [
    [
      `${loop} && npm run build`,
      "allow",
      `for d in ${PKGS}; do (cd "$d" && npm test); done && npm run build`,
    ],
    [`${loop}; npm run build`, "allow"],
    [`${loop}\nnpm run build`, "allow"],
    [`${loop} || mkdir packages/c`, "allow"],
    [`git status && ${loop} && npm run build`, "allow"],
    // (A writer before it may change what it lists: `npm ci` may write anywhere in the tree.)
    [`npm ci && ${loop} && npm run build`, "deny"],
    [`mkdir -p dist & ${loop}; npm run build`, "allow"],
  ]);
  // A writer that may run before the list is expanded, or at the same time.
  await check(STARTER, [
    [`mkdir packages/c && ${loop} && npm run build`, "deny"],
    [`mkdir packages/c & ${loop} && npm run build`, "deny"],
    [`${loop} & mkdir packages/c`, "deny"],
    [`${loop} && mkdir packages/c & npm run build`, "deny"],
    [`mkdir packages/c | ${loop} && npm run build`, "deny"],
    [`${loop} | mkdir packages/c`, "deny"],
    [
      `for d in $(mkdir packages/c) packages/*/; do (cd "$d" && npm test); done && npm run build`,
      "deny",
    ],
    [`trap 'mkdir packages/c' DEBUG; ${loop} && npm run build`, "deny"],
    [`${loop} && trap 'mkdir packages/c' EXIT`, "deny"],
    [`f() { mkdir packages/c; }; f; ${loop} && npm run build`, "deny"],
    [`${loop} && f() { mkdir packages/c; } && npm run build`, "deny"],
    [`for i in 1 2; do ${loop} && mkdir packages/c; done`, "deny"],
    [`while true; do ${loop}; mkdir packages/c; done`, "deny"],
    [`(${loop}; npm run build) & mkdir packages/c`, "deny"],
    [`bash -c '${loop.replaceAll("'", "'\\''")}' & mkdir packages/c`, "deny"],
  ]);
});

Deno.test("for over a glob: a later call lists again (the analysis is not cached)", async () => {
  const c = 'for d in dirs/*/; do (cd "$d" && cat config); done';
  assert.equal((await bash(DL, ctx, c)).action, "allow");
  Deno.symlinkSync(`${home}/.ssh`, `${cwd}/dirs/k2`);
  try {
    assert.equal((await bash(DL, ctx, c)).action, "deny");
  } finally {
    Deno.removeSync(`${cwd}/dirs/k2`);
  }
  assert.equal((await bash(DL, ctx, c)).action, "allow");
});

globalThis.addEventListener("unload", () => Deno.removeSync(root, { recursive: true }));
