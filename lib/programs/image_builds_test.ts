/**
 * Image builds read their context, Dockerfile, named contexts, secrets and keys, and write only
 * what `--iidfile`, `--metadata-file`, `-o`, `--cache-to` and a `-v` mount name.
 */
import assert from "node:assert/strict";
import { STARTER_CONFIG } from "../starter.ts";
import { checkActions, configFrom, ctxIn, secretsDenied } from "../testing.ts";
import { literal } from "./words.ts";
import { buildFiles, buildFrom, buildReadWords, csvFields } from "./image_builds.ts";

const H = "/home/user";
const P = `${H}/p`;
const opts = { agentDir: `${H}/.pi/agent`, home: H };
const starter = configFrom(STARTER_CONFIG, opts);
/** Allow by default, `.env` asked, the keys and `secrets/` denied. */
const open = secretsDenied(H, opts);
const ctx = ctxIn(P, {
  files: [`${P}/src/main.ts`, `${H}/.ssh/id_rsa`],
  contents: {
    [`${P}/Dockerfile`]: "FROM alpine\nCOPY . /app\n",
    [`${P}/compose.yml`]: "services:\n  app:\n    build: .\n",
    [`${P}/.env`]: "TOKEN=x\n",
  },
});
const words = (s: string) => s.split(" ").map(literal);

Deno.test("image builds: where the build's words start, for each client's spelling", () => {
  assert.equal(buildFrom(words("docker build ."), 1), 2);
  assert.equal(buildFrom(words("docker image build ."), 1), 3);
  assert.equal(buildFrom(words("docker builder build ."), 1), 3);
  assert.equal(buildFrom(words("docker buildx build ."), 1), 3);
  assert.equal(buildFrom(words("docker buildx --builder x b ."), 1), 5);
  assert.equal(buildFrom(words("buildah bud ."), 1), 2);
  assert.equal(buildFrom(words("docker buildx bake"), 1), null);
  assert.equal(buildFrom(words("docker run img"), 1), null);
});

Deno.test("image builds: the words read, up to one not known; those that write are not", () => {
  assert.deepEqual(buildReadWords(words("docker build -t app -f Dockerfile ."), 2), [
    1,
    2,
    3,
    4,
    5,
    6,
  ]);
  // (--iidfile's and -o's words may name what it writes; the context is read.)
  assert.deepEqual(buildReadWords(words("docker build --iidfile id -o out ."), 2), [1, 6]);
  assert.deepEqual(buildReadWords(words("docker build -qo out ."), 2), [1, 4]);
  assert.deepEqual(buildReadWords(words("docker build --metadata-file=m.json ."), 2), [1, 3]);
  // (An option not known may take the next word: the rest may be written.)
  assert.deepEqual(buildReadWords(words("docker build --frob x ."), 2), [1]);
  // (A boolean given a value stays one: podman's `--pull=always`, `--layers=false`.)
  assert.deepEqual(buildReadWords(words("podman build --pull=always --layers=false ."), 2), [
    1,
    2,
    3,
    4,
  ]);
});

Deno.test("image builds: the files inside option values", () => {
  const paths = (s: string) => buildFiles(words(s), 2).map((f) => [f.path, f.below ?? false]);
  assert.deepEqual(paths("docker build --secret id=k,src=a.key ."), [["a.key", false]]);
  assert.deepEqual(paths("docker build --secret src=.env,id=k ."), [[".env", false]]);
  assert.deepEqual(paths("docker build --secret=source=.env,id=k ."), [[".env", false]]);
  assert.deepEqual(paths("docker build --secret id=k,env=TOKEN ."), []);
  assert.deepEqual(paths("docker build --ssh default=a,b ."), [["a", false], ["b", false]]);
  assert.deepEqual(paths("docker build --ssh default ."), []);
  assert.deepEqual(paths("docker build --cache-from src=c,type=local ."), [["c", false]]);
  assert.deepEqual(paths("docker build --cache-from user/app:cache ."), []);
  assert.deepEqual(paths("docker build --cache-to type=local,dest=c ."), [["c", true]]);
  assert.deepEqual(paths("docker build --build-context k=../lib ."), [["../lib", false]]);
  assert.deepEqual(paths("docker build --build-context k=docker-image://alpine ."), []);
  assert.deepEqual(paths("docker build --build-context k=oci-layout://./l@sha256:ab ."), [[
    "./l",
    false,
  ]]);
  assert.deepEqual(paths("docker build -o type=tar,dest=out.tar ."), [["out.tar", false]]);
  assert.deepEqual(paths("podman build -v ./data:/d ."), [["./data", true]]);
  assert.deepEqual(paths("podman build -v ./data:/d:ro ."), [["./data", false]]);
});

Deno.test("image builds: a build reads its context, so a later stage finds the project as it is", async () => {
  await checkActions(starter, ctx, [
    // Everyday.
    ["docker build . && docker compose up", "allow"],
    ["docker build -t app -f Dockerfile . && docker compose up -d", "allow"],
    ["docker buildx build --load -t app . && docker compose up", "allow"],
    ["docker image build -t app . && docker compose up", "allow"],
    ["podman build -t app . && podman compose up", "allow"],
    ["buildah bud -t app . && docker compose up", "allow"],
    ["docker build --secret id=npm,env=NPM_TOKEN -t app . && docker compose up", "allow"],
    ["docker build -t app . && docker run --rm app", "allow"],
    // Hostile: a word that writes makes the compose file not known.
    ["docker build --iidfile compose.yml . && docker compose up", "deny"],
    ["docker build -o . . && docker compose up", "deny"],
    ["docker build -o type=tar,dest=compose.yml . && docker compose up", "deny"],
    ["docker build --cache-to type=local,dest=. . && docker compose up", "deny"],
    ["docker build --frob compose.yml . && docker compose up", "deny"],
    ["podman build -v .:/w . && docker compose up", "deny"],
  ]);
});

Deno.test("image builds: what a build reads inside its values is judged", async () => {
  await checkActions(open, ctx, [
    ["docker build --secret src=.env,id=k .", "ask"],
    ["docker build --secret=id=k,source=.env .", "ask"],
    ["buildah bud --secret src=.env,id=k .", "ask"],
    ["docker build --cache-from src=$HOME/.ssh,type=local .", "deny"],
    ["docker build --ssh k=a.pem,$HOME/.ssh/id_rsa .", "deny"],
    ["docker build --build-context k=oci-layout://$HOME/.ssh@sha256:ab .", "deny"],
    ["docker build --cache-to dest=$HOME/.ssh,type=local .", "deny"],
    ["docker build -o type=tar,dest=$HOME/.ssh/x .", "deny"],
    ["buildah bud -v $HOME/.ssh:/k .", "deny"],
    ["docker build -t app .", "allow"],
    // A later stage changes nothing the build read (it has ended); one before or beside it may.
    ["docker build -t app . && docker run --rm app", "allow"],
    ["docker build -t app . && docker push app", "allow"],
    ["cp -r /tmp/k secrets && docker build -t app .", "deny"],
    ["docker build -t app . & cp -r /tmp/k secrets", "deny"],
    ["docker build -t app . | tee log; mv /tmp/k secrets", "deny"],
  ]);
});

Deno.test("image builds: option values read as Go's encoding/csv reads them", () => {
  assert.deepEqual(csvFields("type=local,dest=out"), ["type=local", "dest=out"]);
  assert.deepEqual(csvFields('type=local,"dest=a,b"'), ["type=local", "dest=a,b"]);
  assert.deepEqual(csvFields('"a""b",c,'), ['a"b', "c", ""]);
  // (A quote inside a field, after a quoted one, or not closed; a line break: not read.)
  assert.equal(csvFields('a"b'), null);
  assert.equal(csvFields('"a"b'), null);
  assert.equal(csvFields('"a'), null);
  assert.equal(csvFields(' "a"'), null);
  assert.equal(csvFields("a\nb"), null);
  const paths = (s: string) =>
    buildFiles(s.split(" ").map(literal), 2).map((f) => [f.path, f.below ?? false]);
  assert.deepEqual(paths('docker build -o type=local,"dest=/x" .'), [["/x", true]]);
  assert.deepEqual(paths("docker build -o type=local,DEST=/x ."), [["/x", true]]);
  assert.deepEqual(paths("docker build -o type=oci,dest=/x,tar=false ."), [["/x", true]]);
  assert.deepEqual(paths('docker build --secret id=a,"src=k" .'), [["k", false]]);
  assert.deepEqual(paths("docker build --secret id=k.pem ."), [["k.pem", false]]);
  assert.deepEqual(paths("docker build --secret id=a,type=env ."), []);
  assert.deepEqual(paths('docker build -o type=local,"dest=/x .'), [[null, false]]);
  assert.deepEqual(paths("docker build -o - ."), []);
  assert.deepEqual(paths("docker build -o=out ."), [["out", true]]);
  assert.deepEqual(paths("podman build -v=./d:/d ."), [["./d", true]]);
  // (Past an option not known, one that names files.)
  assert.deepEqual(paths("docker build --frob x -o out ."), [[null, false]]);
  assert.deepEqual(paths("docker build --frob x --tag y ."), []);
});

Deno.test("image builds: quoted, cased and spaced keys, and pflag's `-v=`, are read", async () => {
  await checkActions(open, ctx, [
    [`docker build -o 'type=local,"dest=${H}/.ssh"' .`, "deny"],
    [`docker build -o type=local,DEST=${H}/.ssh .`, "deny"],
    [`docker build -o 'type=local, dest=${H}/.ssh' .`, "deny"],
    [`docker build -o 'type=tar,"dest=${H}/.ssh/authorized_keys"' .`, "deny"],
    [`docker buildx build --output='type=docker,"dest=${H}/.ssh/k"' .`, "deny"],
    [`docker build --cache-to 'type=local,"dest=${H}/.ssh"' .`, "deny"],
    [`docker build --secret 'id=a,"src=secrets/key"' .`, "deny"],
    [`docker build --secret 'id=a,SRC=secrets/key' .`, "deny"],
    [`docker build --secret id=secrets/key .`, "deny"],
    [`podman build -v=${H}/.ssh:/d .`, "deny"],
    [`podman build --volume=${H}/.ssh:/d .`, "deny"],
    [`buildah bud -v=${H}/.ssh:/d .`, "deny"],
    [`docker build -o=${H}/.ssh .`, "deny"],
    [`docker build -f=secrets/key .`, "deny"],
    [`docker build --frob x -o ${H}/.ssh .`, "deny"],
    // Everyday.
    ["docker build -t app .", "allow"],
    ["docker build -o out .", "allow"],
    ["docker build -o type=local,dest=out .", "allow"],
    [
      "docker buildx build --cache-to type=local,dest=.cache --cache-from type=local,src=.cache .",
      "allow",
    ],
    ["docker build --secret id=npm,env=NPM_TOKEN -t app .", "allow"],
  ]);
});
