/** Container clients' `cp`: `CONTAINER:PATH` is a path in the container, not this machine's. */
import assert from "node:assert/strict";
import { STARTER_CONFIG } from "../starter.ts";
import { adversarialCtx, checkTable } from "../testing_adversarial.ts";
import { checkActions, configFrom } from "../testing.ts";
import { containerPath } from "./container_copies.ts";

const opts = { agentDir: "/home/user/.pi/agent", home: "/home/user" };
const starter = configFrom(STARTER_CONFIG, opts);
/** The project allowed, the rest asked, `.env` asked and the keys denied. */
const project = configFrom({
  policies: {
    project: { defaultAction: "allow", rules: [] },
    outside: { defaultAction: "ask", rules: [] },
  },
  locations: { "/": "outside", "/home/user/project": "project" },
  pathProtection: { ".env": "ask", "~/.ssh/**": "deny" },
}, opts);

Deno.test("container cp: which operand is a container's, as each client reads it", () => {
  assert.equal(containerPath("app:/app/logs", "docker"), "/app/logs");
  assert.equal(containerPath("app:logs", "docker"), "logs");
  assert.equal(containerPath("3f2a9c1b:/x", "docker"), "/x");
  // A word starting with `.` or `/` is local whatever its colons; so is one with no colon.
  assert.equal(containerPath("./a:b", "docker"), null);
  assert.equal(containerPath("/tmp/a:b", "docker"), null);
  assert.equal(containerPath("logs", "docker"), null);
  // A name docker takes for no container's (`~/x`, an empty one): read as before.
  assert.equal(containerPath("~/x:y", "docker"), null);
  assert.equal(containerPath(":/x", "docker"), null);
  // kubectl's pod may be in a namespace.
  assert.equal(containerPath("prod/api-7d9f8:/var/log/a.log", "kubectl"), "/var/log/a.log");
  assert.equal(containerPath("prod/api/x:/a", "kubectl"), null);
  assert.equal(containerPath("prod/api:/a", "docker"), null);
});

Deno.test("container cp: a container's path is no place of this machine", async () => {
  const rows = [
    ["docker cp app:/app/logs ./logs", "allow"],
    ["docker cp ./dist app:/usr/share/nginx/html", "allow"],
    ["docker container cp app:/app/logs ./logs", "allow"],
    ["docker --context prod cp app:/app/logs ./logs", "allow"],
    ["docker compose cp api:/app/out.log ./out.log", "allow"],
    ["docker compose -f c.yml cp --index 2 api:/app/out.log ./out.log", "allow"],
    ["docker-compose cp api:/app/out.log ./out.log", "allow"],
    ["podman cp app:/app/logs ./logs", "allow"],
    ["nerdctl cp -L app:/app/logs ./logs", "allow"],
    ["kubectl cp api-7d9f8:/var/log/app.log ./app.log", "allow"],
    ["kubectl cp prod/api-7d9f8:/var/log/app.log ./app.log -c app", "allow"],
    ["kubectl -n prod cp ./dist api:/srv/www", "allow"],
    ["oc cp api:/tmp/dump.sql ./dump.sql", "allow"],
    // A local word with a colon stays local.
    ["docker cp ./a:b app:/x", "allow"],
    // The local operand is judged where it is.
    ["docker cp app:/app/logs /tmp/logs", "ask"],
    ["docker cp /etc/hosts app:/etc/hosts", "ask"],
    // What is protected, judged as this machine's path, there and here.
    ["docker cp app:/home/user/.ssh/id_rsa ./k", "deny"],
    ["docker cp ./x app:/home/user/.ssh/authorized_keys", "deny"],
    ["kubectl cp prod/api:/home/user/.ssh/id_rsa ./k", "deny"],
    ["docker cp app:/app/.env ./env", "ask"],
    ["docker cp app:.env ./env", "ask"],
    ["docker cp ~/.ssh/id_rsa app:/x", "deny"],
    ["kubectl cp ~/.ssh/id_rsa api:/x", "deny"],
    ["docker cp app:/x ~/.ssh/id_rsa", "deny"],
    ["docker cp .env app:/x", "ask"],
    // A container not known before it runs: read as before.
    ['docker cp "$C:/app/logs" ./logs', "ask"],
  ] as const;
  await checkActions(project, adversarialCtx, rows);
  await checkActions(starter, adversarialCtx, [
    ["docker cp app:/app/logs ./logs", "allow"],
    ["docker cp app:/root/.ssh/id_rsa ./k", "deny"],
    ["docker cp app:/home/user/.aws/credentials ./c", "deny"],
  ]);
  // [command, read-only, deny-list]: the copy writes here, and the keys stay denied.
  await checkTable([
    ["docker cp app:/app/logs ./logs", "deny", "allow"],
    ["docker cp app:/home/user/.ssh/id_rsa ./k", "deny", "deny"],
    ["docker cp keys/id_rsa app:/x", "deny", "deny"],
  ]);
});
