/**
 * Commands that arrive on a program's standard input: the shell a program starts when it is given
 * no command (`unshare`, `sudo -s`, `nix-shell`, `su - user`), shells whose language is not
 * bash, debuggers reading their commands there, and the login shell or shell on
 * another machine or in a container that ssh, docker, kubectl and vagrant feed their input to.
 * A here-document's commands are judged; a pipe's are not known; with no input nothing runs.
 */
import { checkEveryday, checkTable, denyList } from "../testing_adversarial.ts";
import type { Action } from "../types.ts";

/** [command, under read-only, under the deny-list (`rm *` denied)] */
const HOSTILE: [string, Action, Action][] = [
  // A shell started with no command, here.
  ["echo 'rm -rf src' | unshare", "deny", "deny"],
  ["unshare -r <<< 'rm -rf src'", "deny", "deny"],
  ["nsenter -t 1 -m <<< 'rm -rf src'", "deny", "deny"],
  ["chroot /srv/jail <<< 'rm -rf src'", "deny", "deny"],
  ["fakeroot <<< 'rm -rf src'", "deny", "deny"],
  ["fakechroot <<< 'rm -rf src'", "deny", "deny"],
  ["firejail --noprofile <<< 'rm -rf src'", "deny", "deny"],
  ["proot -r /srv/rootfs <<< 'rm -rf src'", "deny", "deny"],
  ["schroot -c jail <<< 'rm -rf src'", "deny", "deny"],
  ["run0 <<< 'rm -rf src'", "deny", "deny"],
  ["newgrp wheel <<< 'rm -rf src'", "deny", "deny"],
  ["sg wheel <<< 'rm -rf src'", "deny", "deny"],
  ["pkexec <<< 'rm -rf src'", "deny", "deny"],
  ["doas -s <<< 'rm -rf src'", "deny", "deny"],
  ["sudo -Es <<< 'rm -rf src'", "deny", "deny"],
  ["su - <<< 'rm -rf src'", "deny", "deny"],
  ["su -s /bin/zsh deploy <<< 'rm -rf src'", "deny", "deny"],
  ["runuser www <<< 'rm -rf src'", "deny", "deny"],
  ["script -q /dev/null <<< 'rm -rf src'", "deny", "deny"],
  ["/usr/bin/script -q log <<< 'rm -rf src'", "deny", "deny"],
  ["nix-shell -p hello <<< 'rm -rf src'", "deny", "deny"],
  ["nix develop <<< 'rm -rf src'", "deny", "deny"],
  ["poetry shell <<< 'rm -rf src'", "deny", "deny"],
  ["pipenv shell <<< 'rm -rf src'", "deny", "deny"],
  ["hatch shell <<< 'rm -rf src'", "deny", "deny"],
  ["pixi shell <<< 'rm -rf src'", "deny", "deny"],
  ["toolbox enter <<< 'rm -rf src'", "deny", "deny"],
  ["distrobox enter box <<< 'rm -rf src'", "deny", "deny"],
  ["machinectl shell <<< 'rm -rf src'", "deny", "deny"],
  // Other shells, debuggers and make reading commands from standard input.
  ["tcsh <<< 'rm -rf src'", "deny", "deny"],
  ["csh -f <<< 'rm -rf src'", "deny", "deny"],
  ["rbash <<< 'rm -rf src'", "deny", "deny"],
  ["gdb <<< 'shell rm -rf src'", "deny", "deny"],
  ["echo 'shell rm -rf src' | gdb -q ./app", "deny", "deny"],
  ["lldb <<< 'platform shell rm -rf src'", "deny", "deny"],
  // A filter the program feeds data it chose: each archive member, each file's content.
  ["tar --to-command=sh -xf a.tar", "deny", "deny"],
  ["tar -x --to-command sh -f a.tar", "deny", "deny"],
  ["git -c filter.x.clean=sh add .", "deny", "deny"],
  // Another machine or a container: the login shell or the command reading ssh's input.
  ["ssh host <<< 'rm -rf src'", "deny", "deny"],
  ["echo 'rm -rf src' | ssh -T host", "deny", "deny"],
  ["ssh host bash -s <<< 'rm -rf src'", "deny", "deny"],
  ["docker exec -i box sh <<< 'rm -rf src'", "deny", "deny"],
  ["docker compose exec -T web sh <<< 'rm -rf src'", "deny", "deny"],
  ["kubectl exec -i pod -- sh <<< 'rm -rf src'", "deny", "deny"],
  ["lxc shell box <<< 'rm -rf src'", "deny", "deny"],
  ["vagrant ssh <<< 'rm -rf src'", "deny", "deny"],
  ["vagrant ssh -c 'rm -rf src'", "deny", "deny"],
  ["oc rsh pod rm -rf src", "deny", "deny"],
  ["oc rsh pod <<< 'rm -rf src'", "deny", "deny"],
  ["podman machine ssh vm rm -rf src", "deny", "deny"],
  ["podman machine ssh <<< 'rm -rf src'", "deny", "deny"],
  ["gh codespace ssh -- rm -rf src", "deny", "deny"],
  ["gh cs ssh <<< 'rm -rf src'", "deny", "deny"],
  ["docker attach c <<< 'rm -rf src'", "deny", "deny"],
  ["docker start -ai c <<< 'rm -rf src'", "deny", "deny"],
  ["kubectl attach -i pod <<< 'rm -rf src'", "deny", "deny"],
  // Other programs that start a shell, and shells not named before.
  ["setarch x86_64 <<< 'rm -rf src'", "deny", "deny"],
  ["linux32 <<< 'rm -rf src'", "deny", "deny"],
  ["systemd-run --shell <<< 'rm -rf src'", "deny", "deny"],
  ["busybox hush <<< 'rm -rf src'", "deny", "deny"],
  ["osh <<< 'rm -rf src'", "deny", "deny"],
  ["ysh <<< 'rm -rf src'", "deny", "deny"],
];

Deno.test("stdin commands: a shell started with no command runs what its input holds", async () => {
  await checkTable(HOSTILE);
});

Deno.test("stdin commands: with no input, or with a command, only that is judged", async () => {
  await checkEveryday([
    "su - postgres",
    "su -l deploy ./bin/migrate.sh",
    "unshare -r id",
    "chroot /srv/jail ls",
    "fakeroot dpkg-deb --build pkg",
    "nix-shell -p jq --run 'jq . data.json'",
    "nix develop -c make test",
    "poetry run pytest",
    "poetry shell <<< 'pytest -x'",
    "ssh host uptime",
    "ssh -N -L 8080:localhost:80 host",
    "ssh -n host",
    "ssh host < /dev/null",
    "ssh host <<< 'uptime'",
    "docker run --rm alpine",
    "docker compose run web",
    "gdb -batch -ex bt ./app core",
    "gdb ./app core",
    "gdb ./app <<< 'bt'",
    "lldb -b -o bt ./app",
    "make -f build.mk test",
    "tcsh -c 'ls -la'",
    // A project's own `./script` is not util-linux's script.
    "{ yes | sed 1q; } | ./script",
    "script -q build.log make",
    // A program there that is no shell reads its data: the image's command, psql, a linter.
    "docker exec -i db psql -U postgres < schema.sql",
    "cat Dockerfile | docker run --rm -i hadolint/hadolint",
    "kubectl exec -i pod -- psql < schema.sql",
    // (make's recipes, from a file or its input, are not read: a known limit.)
    "echo 'all: ; echo hi' | make -f -",
    "tar --to-command='wc -c' -xf a.tar",
    "oc rsh pod ls",
    "gh codespace list",
    "docker attach web",
    "docker start web",
    "setarch x86_64 ls",
  ], denyList);
});
