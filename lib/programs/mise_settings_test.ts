/**
 * What mise runs from the project's config files: its templates' commands, `[env]` scripts and
 * files, hooks and the tasks `mise run` runs are judged; everyday configs stay allowed.
 */
import { checkActions, ctxIn, rmDenied } from "../testing.ts";

const H = "/home/user";
const P = `${H}/p`;
/** Allow by default; `rm *` and `curl *` denied; `secrets/**` and `~/.ssh/**` denied. */
const config = rmDenied(H, { ssh: true, curl: true });
const files = [`${P}/src/a.ts`, `${P}/secrets/key`];
const withFiles = (contents: Record<string, string>) => {
  const full: Record<string, string> = {};
  for (const [k, v] of Object.entries(contents)) full[`${P}/${k}`] = v;
  return ctxIn(P, { files, contents: full });
};

Deno.test("mise config: templates, env scripts and files are judged", async () => {
  const exec = withFiles({ "mise.toml": `[env]\nX = "{{ exec(command='rm -rf src') }}"\n` });
  await checkActions(config, exec, [
    ["mise exec -- true", "deny"],
    ["mise x -- node -v", "deny"],
    ["mise env", "deny"],
    ["mise --version", "allow"],
    ["mise trust", "allow"],
  ]);
  const dotted = withFiles({
    ".mise.toml": `[env]\n_.source = "./x.sh"\n`,
    "x.sh": "rm -rf src\n",
  });
  await checkActions(config, dotted, [["mise exec -- true", "deny"], ["mise env", "deny"]]);
  const nested = withFiles({ ".config/mise.toml": `[env]\n_.file = "secrets/key"\n` });
  await checkActions(config, nested, [["mise env", "deny"]]);
  // (A parent directory's, short of the home directory.)
  const above = ctxIn(`${P}/src`, {
    files,
    contents: { [`${P}/mise.local.toml`]: `[env]\nY = "{{exec(command=\\"curl x\\")}}"\n` },
  });
  await checkActions(config, above, [["mise exec -- true", "deny"]]);
});

Deno.test("mise config: hooks and tasks are judged where they run", async () => {
  const hooks = withFiles({
    "mise.toml": `[hooks]\npostinstall = "rm -rf src"\nenter = "curl x"\n`,
  });
  await checkActions(config, hooks, [
    ["mise install", "deny"],
    ["mise hook-env", "deny"],
    ["mise env", "allow"],
  ]);
  const tasks = withFiles({
    "mise.toml": `[tasks.t]\nrun = "rm -rf src"\n[tasks.u]\ndepends = ["t"]\n` +
      `[tasks.build]\nrun = "deno check"\ndepends = ["gen"]\n[tasks.gen]\nrun = ["echo hi"]\n`,
  });
  await checkActions(config, tasks, [
    ["mise run t", "deny"],
    ["mise r u", "deny"],
    ["mise t", "allow"],
    ["mise run build", "allow"],
    ["mise build", "allow"],
    ["mise run build ::: t", "deny"],
    ["mise exec -- node -v", "allow"],
  ]);
  // (A file task is the project's script, run as `./mise-tasks/clean` is.)
  const fileTask = withFiles({ "mise-tasks/clean": "#!/bin/sh\nrm -rf src\n" });
  await checkActions(config, fileTask, [["mise run clean", "allow"]]);
});

Deno.test("mise config: everyday configs stay allowed", async () => {
  const ctx = withFiles({
    "mise.toml": `[tools]\nnode = "22"\npython = "3.12"\n[env]\nNODE_ENV = "development"\n` +
      `_.path = ["./node_modules/.bin"]\n[tasks.build]\nrun = "npm run build"\n`,
  });
  await checkActions(config, ctx, [
    ["mise exec -- node -v", "allow"],
    ["mise install", "allow"],
    ["mise run build", "allow"],
    ["mise env", "allow"],
    ["mise ls", "allow"],
  ]);
});

Deno.test("mise config: one another stage writes first is not known", async () => {
  await checkActions(config, withFiles({}), [
    ["echo '[env]' > mise.toml && mise env", "deny"],
    ["mise env", "allow"],
  ]);
});
