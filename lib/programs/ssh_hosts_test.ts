import assert from "node:assert/strict";
import {
  commandWords,
  namesUser,
  optionsHost,
  SCP_OPTIONS,
  sshCommandHost,
  sshProgramHost,
} from "./ssh_hosts.ts";

Deno.test("sshCommandHost: an ssh command line's options and destination", () => {
  const h = (line: string) => sshCommandHost(commandWords(line)!, "given");
  assert.equal(h("ssh"), "given");
  assert.equal(h("/usr/bin/ssh -p 2222 -i /tmp/k"), "given");
  assert.equal(h("ssh -o HostName=127.1"), "127.1");
  assert.equal(h("ssh -oHostName=127.1"), "127.1");
  assert.equal(h("ssh -o 'HostName 127.1'"), "127.1");
  assert.equal(h('ssh -o "hostname=127.1"'), "127.1");
  // (The first value given wins.)
  assert.equal(h("ssh -o HostName=a -o HostName=b"), "a");
  // Its own destination; after it comes the command.
  assert.equal(h("ssh me@localhost"), "localhost");
  assert.equal(h("ssh ssh://me@[::1]:22"), "::1");
  // (ssh reads options after the destination too, up to the command.)
  assert.equal(h("ssh host -o HostName=127.1"), "127.1");
  assert.equal(h("ssh host cmd -o HostName=127.1"), "host");
  // Proxies, jumps, a configuration of its own, values built from the name: not known.
  for (
    const line of [
      "ssh -J jump",
      "ssh -o ProxyJump=jump",
      'ssh -o ProxyCommand="nc 127.0.0.1 22"',
      "ssh -F ./cfg",
      "ssh -o HostName=%h.lan",
      "ssh -Z",
      "nc -q0",
      "env",
    ]
  ) assert.equal(h(line), "", line);
  assert.equal(h("ssh -o ProxyJump=none -J none -F /dev/null"), "given");
  // Wrappers that pass on an ssh command.
  assert.equal(h("sshpass -p pw ssh -o HostName=127.1"), "127.1");
  assert.equal(h("env LC_ALL=C ssh"), "given");
  assert.equal(sshCommandHost([null], "given"), "");
});

Deno.test("optionsHost: scp's own options, its program", () => {
  const h = (line: string) =>
    optionsHost(line.split(" "), SCP_OPTIONS, "given", { program: "-S", server: "-D" });
  assert.equal(h("-P 22 -r a"), "given");
  assert.equal(h("-S /usr/bin/ssh a"), "given");
  assert.equal(h("-S ./myssh a"), "");
  assert.equal(h("-D /usr/lib/sftp-server a"), "");
  assert.equal(h("-J j a"), "");
});

Deno.test("commandWords and sshProgramHost", () => {
  assert.deepEqual(commandWords(`ssh -o "a b" 'c d'e`), ["ssh", "-o", "a b", "c de"]);
  assert.equal(commandWords("ssh $X"), null);
  assert.equal(sshProgramHost("/usr/bin/ssh", "h"), "h");
  assert.equal(sshProgramHost("plink.exe", "h"), "h");
  assert.equal(sshProgramHost("./myssh", "h"), "");
  assert.equal(sshProgramHost(null, "h"), "");
});

Deno.test("namesUser: a login the line chooses, not a path that holds `user`", () => {
  for (const l of ["ssh -l root", "ssh -lroot", "ssh -o User=root", "ssh -o 'user root'"]) {
    assert.equal(namesUser(l), true, l);
  }
  for (const l of ["ssh -i /home/user/.ssh/k", "ssh -p 22", "ssh -o UserKnownHostsFile=/x"]) {
    assert.equal(namesUser(l), false, l);
  }
});

Deno.test("optionsHost: a host canonicalized with CanonicalDomains is not known", () => {
  const scp = (line: string) => optionsHost(line.split(" "), SCP_OPTIONS, "dev");
  assert.equal(scp("-o CanonicalizeHostname=yes -o CanonicalDomains=127.0.0.1.nip.io"), "");
  assert.equal(scp("-o canonicalizehostname=always -oCanonicalDomains=a.com"), "");
  // (Off, first given wins; no domain: the host as it is.)
  assert.equal(
    scp("-o CanonicalizeHostname=no -o CanonicalizeHostname=yes -o CanonicalDomains=x"),
    "dev",
  );
  assert.equal(scp("-o CanonicalizeHostname=yes"), "dev");
  assert.equal(scp("-o CanonicalDomains=127.0.0.1.nip.io"), "dev");
  const h = (line: string) => sshCommandHost(commandWords(line)!, "given");
  assert.equal(h("ssh -o CanonicalizeHostname=yes -o CanonicalDomains=lvh.me"), "");
});
