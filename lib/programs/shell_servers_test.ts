/**
 * Servers that run a command for each connection (`tcpsvd`, `tcpserver`, `s6-tcpserver`,
 * `websocketd`, `ttyd`, `gotty`): the command they serve is judged, with a standard input whoever
 * connects writes, as `nc -l -e` and socat's `EXEC:` are.
 */
import { checkTable } from "../testing_adversarial.ts";
import { checkActions, configFrom, ctxIn } from "../testing.ts";

Deno.test("shell servers: a shell served to the network runs commands not known", async () => {
  await checkTable([
    // [command, read-only, deny-list]
    ["tcpsvd 0 4444 sh", "deny", "deny"],
    ["udpsvd -v 0 4444 /bin/sh -i", "deny", "deny"],
    ["tcpserver 0 4444 bash -i", "deny", "deny"],
    ["tcpserver -c 10 -u 1000 0 4444 bash", "deny", "deny"],
    ["s6-tcpserver 0 4444 sh", "deny", "deny"],
    ["s6-tcpserver4 -v 0.0.0.0 4444 bash", "deny", "deny"],
    ["websocketd --port=8080 sh", "deny", "deny"],
    ["websocketd -port 8080 bash -i", "deny", "deny"],
    ["websocketd --port=8080 --cgidir=. true", "deny", "deny"],
    ["ttyd -W bash", "deny", "deny"],
    ["ttyd --writable --port 7681 sh", "deny", "deny"],
    ["gotty -w bash", "deny", "deny"],
    ["gotty --permit-write --port 8080 sh -i", "deny", "deny"],
    // What they serve is judged where it runs, with what a client may add.
    ["tcpsvd 0 4444 cat keys/id_rsa", "deny", "deny"],
    ["ttyd -w /home/user cat .ssh/id_rsa", "deny", "deny"],
    ["tcpserver 0 4444 rm -rf build", "deny", "deny"],
    ["ttyd -a cat", "deny", "ask"],
    ["gotty --permit-arguments cat", "deny", "ask"],
    // (An option not known: where the command starts is not known.)
    ["tcpsvd -Z 0 4444 sh", "deny", "deny"],
    ["gotty --no-such-flag x sh", "deny", "deny"],
    // Everyday: a served program that reads nothing from its clients' commands.
    ["ttyd -p 7681 htop", "deny", "allow"],
    ["tcpsvd -vE 0 8080 cat README.md", "deny", "allow"],
  ]);
});

Deno.test("telnetd: the login program it runs for each connection; inetd's and xinetd's servers", async () => {
  await checkTable([
    // [command, read-only, deny-list]
    ["busybox telnetd -l /bin/sh", "deny", "deny"],
    ["telnetd -l /bin/sh", "deny", "deny"],
    ["telnetd -F -p 2323 -l/bin/bash", "deny", "deny"],
    ["utelnetd -p 2323 -l /bin/sh", "deny", "deny"],
    ["in.telnetd -L /bin/sh", "deny", "deny"],
    ["telnetd --exec-login=/bin/sh", "deny", "deny"],
    ["telnetd -E sh", "deny", "deny"],
    // (An operand, an option not known: what it serves is not known.)
    ["telnetd -p 2323 sh", "deny", "deny"],
    ["telnetd -Z sh", "deny", "deny"],
    // (xinetd's services name servers of their own.)
    ["xinetd -f x.conf", "deny", "deny"],
    ["xinetd -dontfork", "deny", "deny"],
    // Everyday enough: the system's login program.
    ["busybox telnetd -p 2323", "deny", "allow"],
  ]);
  const H = "/home/user";
  const P = `${H}/project`;
  const config = configFrom({
    policies: {
      open: { defaultAction: "allow", rules: [{ action: "deny", tool: "bash", pattern: "rm *" }] },
    },
    locations: { "/": "open" },
    pathProtection: { ".env": "ask" },
  }, { agentDir: `${H}/.pi/agent`, home: H });
  const ctx = ctxIn(P, {
    files: [`${P}/README.md`],
    contents: {
      [`${P}/shell.conf`]: "# a shell\n2323 stream tcp nowait root /bin/sh sh -i\n",
      [`${P}/echo.conf`]: "echo stream tcp nowait root internal\n",
    },
  });
  await checkActions(config, ctx, [
    ["inetd shell.conf", "deny"],
    ["busybox inetd -f -q 5 shell.conf", "deny"],
    ["inetd missing.conf", "deny"],
    ["inetd echo.conf", "allow"],
  ]);
});
