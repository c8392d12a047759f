/**
 * docker compose reads its project's compose files: their bind mounts, env files, secrets,
 * configs and builds outside the project are judged as `docker run`'s mounts and files are.
 */
import assert from "node:assert/strict";
import { denyList, gateFiles } from "../testing_adversarial.ts";
import { checkActions, ctxIn } from "../testing.ts";
import { interpolate } from "./compose_files.ts";

const H = "/home/user";
const P = `${H}/p`;
const svc = (body: string) => `services:\n  web:\n    image: nginx\n${body}`;
const ctx = ctxIn(P, {
  files: [`${P}/README.md`, `${H}/.ssh/id_rsa`, `${H}/.pi/agent/settings.json`],
  contents: {
    [`${P}/.env`]: "TAG=1\nKEYS=/home/user/.ssh\n",
    [`${P}/compose.yaml`]: svc("    volumes:\n      - ./data:/data\n      - db:/var/lib/db\n") +
      "volumes:\n  db: {}\n",
    [`${P}/data/x.db`]: "",
    [`${P}/sub/dir/x.txt`]: "",
    [`${P}/short/compose.yml`]: svc("    volumes:\n      - ~/.ssh:/k:ro\n"),
    [`${P}/long/docker-compose.yaml`]: svc(
      "    volumes:\n      - type: bind\n        source: ${HOME}/.ssh\n        target: /k\n",
    ),
    [`${P}/flow/docker-compose.yml`]: 'services: {web: {image: x, volumes: ["~/.ssh:/k"]}}\n',
    [`${P}/over/compose.yaml`]: svc("    volumes: [./a:/a]\n"),
    [`${P}/over/compose.override.yaml`]: svc("    env_file: /home/user/.ssh/id_rsa\n"),
    [`${P}/envfile.yml`]: svc(
      "    env_file:\n      - path: ~/.ssh/id_rsa\n        required: false\n",
    ),
    [`${P}/envlist.yml`]: svc("    env_file: [app.env, /home/user/.ssh/id_rsa]\n"),
    [`${P}/dflt.yml`]: svc("    volumes:\n      - ${NOPE:-~/.ssh}:/k\n"),
    [`${P}/dotenv.yml`]: svc("    volumes:\n      - ${KEYS}:/k\n"),
    [`${P}/safe.env`]: "KEYS=/tmp\n",
    [`${P}/secret.yml`]: svc("") + "secrets:\n  k:\n    file: ~/.ssh/id_rsa\n",
    [`${P}/config.yml`]: svc("") + "configs:\n  k:\n    file: /home/user/.ssh/id_rsa\n",
    [`${P}/device.yml`]: svc("    volumes: [k:/k]\n") +
      "volumes:\n  k:\n    driver_opts: {type: none, o: bind, device: /home/user/.ssh}\n",
    [`${P}/build.yml`]: svc("    build:\n      context: ~/.ssh\n"),
    [`${P}/buildfile.yml`]: svc("    build:\n      context: .\n      dockerfile: ../.ssh/id_rsa\n"),
    [`${P}/include.yml`]: "include:\n  - short/compose.yml\n",
    [`${P}/extends.yml`]:
      "services:\n  a:\n    extends:\n      file: envfile.yml\n      service: web\n",
    [`${P}/anchor.yml`]:
      'x-k: &k\n  volumes: ["~/.ssh:/k"]\nservices:\n  a:\n    <<: *k\n    image: x\n',
    [`${P}/odd.yml`]: "services:\n  a:\n    ? complex\n    : key\n",
    [`${P}/ok.yml`]: svc(
      "    build: .\n    env_file: [./app.env]\n    volumes:\n      - ./src:/src:ro\n" +
        "      - /var/run/docker.sock:/var/run/docker.sock\n      - cache:/cache\n" +
        "    command: >\n      sh -c 'echo $$HOME # not a comment'\n",
    ) + "volumes:\n  cache:\n",
    [`${P}/pi.yml`]: svc('    volumes: ["~/.pi/agent:/cfg"]\n'),
  },
});

Deno.test("compose: the bind mounts and env files of the files it finds", async () => {
  await checkActions(denyList, ctx, [
    ["cd short && docker compose up -d", "deny"],
    ["cd short && docker compose run web", "deny"],
    ["cd short && docker compose config", "deny"],
    ["cd short && docker-compose up", "deny"],
    ["cd short && podman compose up", "deny"],
    ["cd short && podman-compose up", "deny"],
    ["cd long && docker compose up", "deny"],
    ["cd flow && docker compose up", "deny"],
    ["cd over && docker compose up", "deny"], // (its override file)
    ["docker compose --project-directory short up", "deny"],
    ["docker --context x compose --project-directory=short up", "deny"],
    // Everyday: a bind in the project, a named volume, what reads no project.
    ["docker compose up -d", "allow"],
    ["cd sub/dir && docker compose ps", "allow"], // (the compose.yaml above the cwd)
    ["docker compose logs -f web", "allow"],
    ["cd short && docker compose version", "allow"],
    ["cd short && docker compose ls", "allow"],
  ]);
});

Deno.test("compose: -f, COMPOSE_FILE, stdin, interpolation, includes and extends", async () => {
  await checkActions(denyList, ctx, [
    ["docker compose -f envfile.yml up", "deny"],
    ["docker compose --file=envlist.yml run web", "deny"],
    ["docker compose -f ok.yml -f envlist.yml up", "deny"],
    ["COMPOSE_FILE=ok.yml:envlist.yml docker compose up", "deny"],
    ["docker compose -f dflt.yml up", "deny"],
    ["docker compose -f dotenv.yml up", "deny"], // (`KEYS` from .env)
    ["KEYS=/tmp docker compose -f dotenv.yml up", "allow"],
    ["docker compose -f secret.yml up", "deny"],
    ["docker compose -f config.yml up", "deny"],
    ["docker compose -f device.yml up", "deny"],
    ["docker compose -f build.yml build", "deny"],
    ["docker compose -f buildfile.yml build", "deny"],
    ["docker compose -f include.yml up", "deny"],
    ["docker compose -f extends.yml up", "deny"],
    ["docker compose -f anchor.yml up", "deny"],
    ["docker compose -f - up <<'E'\nservices: {a: {image: x, volumes: ['~/.ssh:/k']}}\nE", "deny"],
    ["docker compose -f - up < c.yml", "deny"], // (not known)
    ["docker compose -f odd.yml up", "deny"], // (not read here: not known)
    ["docker compose -f $F up", "deny"],
    // A file another stage writes first.
    [
      "echo 'services: {a: {volumes: [\"~/.ssh:/k\"]}}' > c.yml && docker compose -f c.yml up",
      "deny",
    ],
    ["cp /tmp/x.yml compose.yaml && docker compose up", "deny"],
    ["docker compose --env-file safe.env -f dotenv.yml up", "allow"],
    ["echo KEYS=/tmp > e.env && docker compose --env-file e.env -f dotenv.yml up", "deny"],
    // Everyday.
    ["docker compose -f ok.yml up -d --build", "allow"],
    ["docker compose build && docker compose up -d", "allow"],
    ["docker compose -f missing.yml up", "allow"],
  ]);
  await checkActions(gateFiles, ctx, [
    ["docker compose -f pi.yml up", "ask"],
    ["docker compose -f ok.yml up", "allow"],
  ]);
});

Deno.test("compose: its own -f files, project directory and words are read, not written", async () => {
  await checkActions(denyList, ctx, [
    // Everyday: one stage's compose file is the next one's, as it is.
    ["docker compose -f ok.yml build && docker compose -f ok.yml up -d", "allow"],
    ["docker compose -f ok.yml pull && docker compose -f ok.yml up", "allow"],
    ["docker compose -f ok.yml down; docker compose -f ok.yml up -d", "allow"],
    ["docker compose -f ok.yml logs web | tail; docker compose -f ok.yml ps", "allow"],
    ["docker-compose --file=ok.yml build && docker-compose --file=ok.yml up", "allow"],
    ["docker compose -p demo -f ok.yml build && docker compose -p demo -f ok.yml up", "allow"],
    ["docker --context c compose -f ok.yml build && docker compose -f ok.yml up", "allow"],
    ["docker compose --project-directory . build && docker compose up", "allow"],
    // Hostile: what binds ~/.ssh is judged still, and a stage that writes the file by its words
    // (a copy out of a container, `config -o`, a container's bind of the project) makes it not
    // known.
    ["docker compose -f ok.yml build && docker compose -f envfile.yml up", "deny"],
    ["docker compose cp web:/x ok.yml && docker compose -f ok.yml up", "deny"],
    ["docker compose config -o ok.yml && docker compose -f ok.yml up", "deny"],
    ["docker compose run -v .:/w web sh && docker compose -f ok.yml up", "deny"],
    ["docker compose -f ok.yml export -o ok.yml web && docker compose -f ok.yml up", "deny"],
  ]);
});

Deno.test("compose: the files it writes on this machine (config -o, export -o, bridge convert)", async () => {
  await checkActions(denyList, ctx, [
    ["docker compose -f ok.yml config -o ~/.ssh/authorized_keys", "deny"],
    ["docker compose -f ok.yml config --output=/home/user/.ssh/config", "deny"],
    ["docker compose -f ok.yml export -o ~/.ssh/id_rsa web", "deny"],
    ["docker compose -f ok.yml bridge convert -o ~/.ssh", "deny"],
    ["docker-compose -f ok.yml bridge convert --output=/home/user/.ssh", "deny"],
    ["cd ~/.ssh && docker compose -f /home/user/p/ok.yml bridge convert -o .", "deny"],
    ["docker compose -f ok.yml bridge convert -o $D", "ask"],
    // Everyday.
    ["docker compose -f ok.yml config -o resolved.yml", "allow"],
    ["docker compose -f ok.yml bridge convert", "allow"],
    ["docker compose -f ok.yml bridge convert -o k8s", "allow"],
  ]);
  await checkActions(gateFiles, ctx, [
    ["docker compose -f ok.yml bridge convert -o ../.pi/agent", "ask"],
    ["docker compose -f ok.yml config -o ../.pi/agent/settings.json", "ask"],
  ]);
});

Deno.test("compose: interpolation as compose does it", () => {
  const vars = (n: string) => ({ A: "a", E: "", U: null } as Record<string, string | null>)[n];
  assert.equal(interpolate("${A}/x/$A/$$A", vars), "a/x/a/$A");
  assert.equal(interpolate("${Z:-~/.ssh}", vars), "~/.ssh");
  assert.equal(interpolate("${E:-d}|${E-d}|${A:+y}|${Z+y}", vars), "d||y|");
  assert.equal(interpolate("${Z:-${A}/k}", vars), "a/k");
  assert.equal(interpolate("${U}/x", vars), null);
  assert.equal(interpolate("${A", vars), null);
});

const ssh = (k: string) => svc(`    volumes:\n      - \${${k}}:/k\n`);
const ctx2 = ctxIn(P, {
  files: [`${P}/README.md`, `${H}/.ssh/id_rsa`],
  contents: {
    [`${P}/.env`]: "TAG=1\n",
    [`${P}/multi.yml`]: "services: {a: {image: x}}\n---\n" + svc('    volumes: ["~/.ssh:/k"]\n'),
    [`${P}/head.yml`]: "services: {a: {image: x}}\n--- {services: {b: {volumes: ['~/.ssh:/k']}}}\n",
    [`${P}/end.yml`]: "services: {a: {image: x}}\n...\n" + svc('    volumes: ["~/.ssh:/k"]\n'),
    [`${P}/cr.yml`]: "services:\r  web:\r    volumes:\r      - ~/.ssh:/k\r",
    [`${P}/nel.yml`]: "services:\n  web:\x85    volumes: [~/.ssh:/k]\n",
    [`${P}/type.yml`]: svc(
      "    volumes:\n      - type: ${MOUNT_KIND:-bind}\n        source: data\n        target: /k\n",
    ) + "volumes:\n  data: {}\n",
    [`${P}/typessh.yml`]: svc(
      "    volumes:\n      - type: ${MOUNT_KIND:-bind}\n        source: /home/user/.ssh\n        target: /k\n",
    ),
    [`${P}/provider.yml`]: "services:\n  a:\n    provider:\n      type: ${P}\n",
    [`${P}/sub/.env`]: "KEYS=/home/user/.ssh\n",
    [`${P}/sub/c.yml`]: ssh("KEYS"),
    [`${P}/up/compose.yaml`]: ssh("KEYS"),
    [`${P}/up/.env`]: "KEYS=/home/user/.ssh\n",
    [`${P}/up/down/x.txt`]: "",
    [`${P}/inc.yml`]: "include:\n  - sub/c.yml\n",
    [`${P}/ok.yml`]: svc("    image: app:${TAG}\n    volumes: [./src:/src]\n"),
    [`${P}/plain.yml`]: svc("    volumes: [./src:/src]\n"),
    [`${P}/safe.env`]: "KEYS=/tmp\n",
  },
});

Deno.test("compose: every document of a file, its lines as YAML breaks them", async () => {
  await checkActions(denyList, ctx2, [
    ["docker compose -f multi.yml up", "deny"],
    ["docker compose -f head.yml up", "deny"],
    ["docker compose -f end.yml up", "deny"],
    ["docker compose -f cr.yml up", "deny"],
    ["docker compose -f nel.yml up", "deny"], // (not known)
    ["docker compose -f plain.yml up -d", "allow"],
  ]);
});

Deno.test("compose: every value interpolated before the model is read", async () => {
  await checkActions(denyList, ctx2, [
    ["docker compose -f typessh.yml up", "deny"],
    ["MOUNT_KIND=bind docker compose -f typessh.yml up", "deny"],
    ["P=rm docker compose -f provider.yml up", "deny"],
    ["docker compose -f type.yml up", "allow"], // (a bind of ./data in the project)
  ]);
});

Deno.test("compose: the .env of the project directory, and of an include's", async () => {
  await checkActions(denyList, ctx2, [
    ["docker compose -f sub/c.yml up", "deny"], // (sub/.env)
    ["cd up/down && docker compose up", "deny"], // (up/.env, beside the file found above)
    ["COMPOSE_FILE=up/compose.yaml docker compose up", "deny"],
    ["docker compose --workdir up up", "deny"], // (--project-directory's old name)
    ["docker compose -f inc.yml up", "deny"], // (sub/.env for the included file)
    ["docker compose -f sub/c.yml --env-file safe.env up", "allow"],
    ["docker compose --project-directory . -f sub/c.yml up", "allow"],
  ]);
});

Deno.test("compose: `config` prints the .env values it interpolates", async () => {
  await checkActions(denyList, ctx2, [
    ["docker compose -f ok.yml config", "deny"], // (.env's TAG printed)
    ["docker compose -f plain.yml config --environment", "deny"],
    ["docker compose -f ok.yml convert", "deny"],
    // What prints no .env value.
    ["docker compose -f plain.yml config", "allow"],
    ["docker compose -f ok.yml config --no-interpolate", "allow"],
    ["docker compose -f ok.yml up -d", "allow"],
  ]);
});
