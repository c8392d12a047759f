/**
 * A path glob protected at any depth (`secrets/**`) below a tree a stage copies, moves, removes or
 * hands to a program its wrapper runs is reached only where a name it ends in is there (the
 * names below the stage's operands: a source's land below the destination), where the walk is
 * complete and no other stage changes the tree first. A `.env` below is found the same way.
 * Judged on a real directory.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bash, secretsDenied } from "../testing.ts";
import { realFs } from "./fs_facts.ts";
import type { Action, Context } from "../types.ts";

const HOME = "/home/user";
const DP = secretsDenied(HOME, { agentDir: `${HOME}/.pi/agent` });

/** A new directory with these files (a name ending in `/`: a directory; `=>`: a symlink). */
async function tree(files: string[]): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "pi-land-" }));
  for (const name of files) {
    const [path, link] = name.split("=>");
    await Deno.mkdir(join(dir, path.endsWith("/") ? path : join(path, "..")), { recursive: true });
    if (link !== undefined) await Deno.symlink(link.replace("$D", dir), join(dir, path));
    else if (!path.endsWith("/")) await Deno.writeTextFile(join(dir, path), "x\n");
  }
  return dir;
}

/** Each command's verdict under the deny-list config in `dir/proj` (every wrong one listed). */
async function check(dir: string, rows: [string, Action][], unlisted: string[] = []) {
  const cwd = `${dir}/proj`;
  const real = realFs();
  // (Directories listed as failing: mode 000 does not stop root, who runs the tests.)
  const locked = unlisted.map((d) => `${dir}/${d}`);
  const fs = locked.length === 0
    ? real
    : { ...real, entries: (d: string) => (locked.includes(d) ? null : real.entries!(d)) };
  const ctx: Context = { cwd, home: HOME, env: { HOME, PATH: "/usr/bin:/bin" }, fs };
  const wrong: string[] = [];
  for (const [command, want] of rows) {
    const got = (await bash(DP, ctx, command.replaceAll("$D", dir))).action;
    if (got !== want) wrong.push(`${command} got ${got}, want ${want}`);
  }
  await Deno.remove(dir, { recursive: true });
  assert.deepEqual(wrong, []);
}

const EVERYDAY = [
  "proj/src/main.ts",
  "proj/tests/a_test.ts",
  "proj/packages/core/src/x.ts",
  "proj/packages/ui/src/y.ts",
  "proj/.venv/bin/",
  "evil/secrets/key",
  "envy/.env",
  "clean/lib/a.ts",
];

Deno.test("a tree a stage copies, moves or removes without a protected name below: allowed", async () => {
  await check(await tree(EVERYDAY), [
    ["mv tests t2", "allow"],
    ["mv tests src", "allow"],
    ["cp -r . $D/bk", "allow"],
    ["cp -a src $D/bk2", "allow"],
    ["rsync -a . $D/bk3", "allow"],
    ["rsync -a --delete src/ $D/clean/", "allow"],
    ["cp -r $D/clean/ src", "allow"],
    ["rm -r tests", "allow"],
    ["chmod -R u+w packages", "allow"],
    ["python -m venv .venv", "allow"],
    ["python3 -m venv --clear .venv", "allow"],
  ]);
});

Deno.test("a program its wrapper runs given a tree without a protected name: allowed", async () => {
  await check(await tree(EVERYDAY), [
    ["npx vitest run packages/core", "allow"],
    ["npx eslint packages/*/src", "allow"],
    ["npx prettier --write .", "allow"],
  ]);
});

Deno.test("the names of a source land below the destination: asked", async () => {
  await check(await tree(EVERYDAY), [
    // (A source holding `secrets/`, and the destination's own name.)
    ["cp -r $D/evil/ .", "ask"],
    ["cp -r $D/evil src", "ask"],
    ["mv $D/evil tests/", "ask"],
    ["rsync -a $D/evil/ .", "ask"],
    ["cp -r -- $D/evil src", "ask"],
    ["cp -t src -r $D/evil", "ask"],
    ["ln -s $D/evil/secrets tests/", "deny"],
    ["mv $D/x secrets", "deny"],
    // (What another stage makes there first, a word not known, a remote source.)
    ["mkdir -p q/secrets && mv q tests/", "ask"],
    ["mkdir -p tests/secrets; cp -r tests $D/q", "ask"],
    ['cp -r "$X" .', "ask"],
    ["rsync -a host:x .", "ask"],
    ["rsync -a host:x src", "ask"],
    // (A program that says nothing of its files names the directory: its own names.)
    ["tool --outdir secrets", "deny"],
    ["npx tool --outdir secrets", "deny"],
  ]);
});

Deno.test("a `.env` below a tree copied, moved or removed is found the same way", async () => {
  await check(await tree(EVERYDAY), [
    ["cp -r $D/envy src", "ask"],
    ["mv $D/envy tests/", "ask"],
    ["rm -r $D/envy", "ask"],
    ["npx prettier --write $D/envy", "ask"],
    ["cp -r $D/clean src", "allow"],
  ]);
});

Deno.test("symlinks inside a copied tree are followed as the program follows them", async () => {
  await check(await tree([...EVERYDAY, "proj/docs/keys=>$D/evil"]), [
    // (cp -L copies what the link leads to: `docs/keys/secrets/key`.)
    ["cp -rL docs $D/out", "ask"],
    ["rsync -aL docs/ $D/out2", "ask"],
    // (Without it, the link is copied as a link, its name alone.)
    ["cp -r docs $D/out3", "allow"],
  ]);
});

Deno.test("a tree too large to walk asks as before", async () => {
  const files = [...EVERYDAY];
  for (let i = 0; i < 80; i++) files.push(`proj/big/d${i}/f.ts`);
  await check(await tree(files), [
    ["cp -r big $D/bk", "ask"],
    ["mv big b2", "ask"],
    ["npx vitest run big", "ask"],
    ["cp -r src $D/bk2", "allow"],
  ]);
});

Deno.test("a directory inside a tree that cannot be listed leaves its names not known: asked", async () => {
  const files = [...EVERYDAY, "proj/dst/locked/secrets/key", "proj/dst/a.ts", "proj/ok/locked/"];
  await check(await tree(files), [
    // (chmod -R opens `locked` before it goes below; another user may list it.)
    ["chmod -R a+rwX dst", "ask"],
    ["chown -R user dst", "ask"],
    ["rm -rf dst", "ask"],
    ["cp -r dst /tmp/o", "ask"],
    ["mv dst d2", "ask"],
    ["rsync -a dst/ $D/o2/", "ask"],
    ["cp -rL dst $D/o3", "ask"],
    // (The directory itself is copied, moved or removed as its name: the tree around is listed.)
    ["cp -r src $D/o4", "allow"],
    ["rm -rf src", "allow"],
  ], ["proj/dst/locked"]);
});

Deno.test("a repository's object store is not known by its names: copying it asks as before", async () => {
  await check(await tree([...EVERYDAY, "proj/.git/objects/a8/b3e7", "proj/.git/HEAD"]), [
    ["cp -r .git $D/g", "ask"],
    ["cp -r .git/objects $D/objs", "ask"],
    ["rsync -a .git/ $D/g2/", "ask"],
    ["cp -r . $D/bk", "ask"], // (the project's .git with it)
    ["mv tests t2", "allow"],
    ["cp -r src $D/bk2", "allow"],
  ]);
});
