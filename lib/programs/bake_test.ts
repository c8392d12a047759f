/**
 * `docker buildx bake`: the builds its bake files and `--set` define are judged as `docker build`.
 */
import assert from "node:assert/strict";
import { checkActions, ctxIn, secretsDenied } from "../testing.ts";
import { readPlainHcl } from "./bake.ts";

const H = "/home/user";
const P = `${H}/p`;
const opts = { agentDir: `${H}/.pi/agent`, home: H };
/** Allow by default, `.env` asked, the keys and `secrets/` denied. */
const open = secretsDenied(H, opts);
const plain = 'group "default" {\n  targets = ["app"]\n}\n\n# the app\ntarget "app" {\n' +
  '  context = "."\n  dockerfile = "Dockerfile"\n  tags = ["app:latest"]\n' +
  '  args = { NODE = "20" }\n  output = ["type=local,dest=dist"]\n}\n';
const ctxWith = (contents: Record<string, string>, files: string[] = []) =>
  ctxIn(P, {
    files: [`${P}/src/main.ts`, `${H}/.ssh/id_rsa`, ...files],
    contents: { [`${P}/Dockerfile`]: "FROM alpine\nCOPY src /app\n", ...contents },
  });

Deno.test("bake: plain HCL is read, a variable, function or template is not", () => {
  assert.deepEqual(readPlainHcl(plain), [{
    context: ".",
    dockerfile: "Dockerfile",
    output: ["type=local,dest=dist"],
  }]);
  assert.deepEqual(
    readPlainHcl('target "a" {\n  output = [{ type = "local", dest = "o" }]\n}'),
    null,
  );
  assert.equal(readPlainHcl('target "a" {\n  context = CTX\n}'), null);
  assert.equal(readPlainHcl('target "a" {\n  context = "${CTX}"\n}'), null);
  assert.equal(readPlainHcl('target "a" {\n  context = upper("x")\n}'), null);
  assert.equal(readPlainHcl('function "f" {\n  result = 1\n}'), null);
  assert.deepEqual(readPlainHcl('variable "V" {\n  default = "x"\n}'), []);
});

Deno.test("bake: --set values are read as bake reads them", async () => {
  await checkActions(open, ctxWith({ [`${P}/docker-bake.hcl`]: plain }), [
    [`docker buildx bake --set '*.output=type=local,dest=${H}/.ssh'`, "deny"],
    [`docker buildx bake --set '*.output=type=local,"dest=${H}/.ssh"'`, "deny"],
    [`docker buildx bake --set app.output+=${H}/.ssh`, "deny"],
    ["docker buildx bake --set '*.secrets=id=a,src=secrets/key'", "deny"],
    [`docker bake --set '*.cache-to=type=local,dest=${H}/.ssh'`, "deny"],
    ["docker buildx bake --set app.args.X=1 --set '*.platform=linux/amd64'", "allow"],
    ["docker buildx bake --set app.frob=1", "ask"],
    ["docker buildx bake https://github.com/x/y.git", "ask"],
  ]);
});

Deno.test("bake: a context --set names is read", async () => {
  await checkActions(open, ctxWith({ [`${P}/docker-bake.hcl`]: plain }, [`${P}/secrets/key`]), [
    ["docker buildx bake --set '*.context=secrets'", "deny"],
    ["docker buildx bake --set app.contexts.k=secrets", "deny"],
  ]);
});

Deno.test("bake: its files' targets are judged; one not read is not known", async () => {
  await checkActions(open, ctxWith({ [`${P}/docker-bake.hcl`]: plain }), [
    ["docker buildx bake", "allow"],
    ["docker buildx bake app --load", "allow"],
    ["docker buildx --builder b bake", "allow"],
  ]);
  const hostile = `target "app" {\n  output = ["type=local,dest=${H}/.ssh"]\n}\n`;
  await checkActions(open, ctxWith({ [`${P}/docker-bake.hcl`]: hostile }), [
    ["docker buildx bake", "deny"],
  ]);
  await checkActions(
    open,
    ctxWith({ [`${P}/b.hcl`]: 'target "a" {\n  secret = ["id=k,src=secrets/key"]\n}' }),
    [
      ["docker buildx bake -f b.hcl", "deny"],
      ["docker buildx bake --file=b.hcl", "deny"],
    ],
  );
  const json = JSON.stringify({
    target: { app: { context: ".", output: [`type=local,dest=${H}/.ssh`] } },
  });
  await checkActions(open, ctxWith({ [`${P}/docker-bake.json`]: json }), [
    ["docker buildx bake", "deny"],
  ]);
  const everyday = JSON.stringify({ target: { app: { context: ".", tags: ["app"] } } });
  await checkActions(open, ctxWith({ [`${P}/docker-bake.json`]: everyday }), [
    ["docker buildx bake", "allow"],
  ]);
  const compose = `services:\n  app:\n    build:\n      context: secrets\n`;
  await checkActions(open, ctxWith({ [`${P}/compose.yaml`]: compose }, [`${P}/secrets/key`]), [
    ["docker buildx bake", "deny"],
  ]);
  await checkActions(
    open,
    ctxWith({ [`${P}/compose.yaml`]: "services:\n  app:\n    build: .\n" }),
    [
      ["docker buildx bake", "allow"],
    ],
  );
  const templated =
    'variable "OUT" {\n  default = "dist"\n}\ntarget "a" {\n  output = ["${OUT}"]\n}';
  await checkActions(open, ctxWith({ [`${P}/docker-bake.hcl`]: templated }), [
    ["docker buildx bake", "ask"],
    ["docker buildx bake -f -", "ask"],
  ]);
});
