import assert from "node:assert/strict";
import { ctxIn } from "../testing.ts";
import { sshAliases } from "./ssh_config.ts";

const local = (h: string) => h === "127.0.0.1" || h === "localhost";

/** The hosts of `names` that the aliases of a configuration make this machine. */
function aliased(contents: Record<string, string>, names: string[]): string[] {
  const ctx = ctxIn("/p", { contents, home: "/h" });
  const aliases = sshAliases(ctx, "/h", local);
  return names.filter((n) => aliases.some((a) => a.test(n)));
}

const NAMES = ["dev", "inc", "deep", "mt", "sys", "prod", "web"];

Deno.test("sshAliases: Host blocks whose HostName is this machine", () => {
  const config = "Host dev d?v\n  HostName 127.0.0.1\nHost web\n  HostName web.prod\n";
  assert.deepEqual(aliased({ "/h/.ssh/config": config }, NAMES), ["dev"]);
  // Before any Host, a setting applies to every host.
  assert.deepEqual(aliased({ "/h/.ssh/config": "HostName localhost\n" }, NAMES), NAMES);
});

Deno.test("sshAliases: Include is followed (globs, relative to ~/.ssh or /etc/ssh, nested)", () => {
  const contents = {
    "/h/.ssh/config": "Include config.d/*\nInclude ~/.ssh/extra\nHost web\n HostName web.prod\n",
    "/h/.ssh/config.d/a": "Host inc\n  HostName 127.0.0.1\n",
    "/h/.ssh/config.d/b": "Include /h/.ssh/deeper\n",
    "/h/.ssh/deeper": "Host deep\n  HostName localhost\n",
    "/h/.ssh/extra": "Include extra\n", // (includes itself: bounded)
    "/etc/ssh/ssh_config": "Include /etc/ssh/ssh_config.d/*.conf\n",
    "/etc/ssh/ssh_config.d/x.conf": "Host sys\n  HostName 127.0.0.1\n",
    "/etc/ssh/ssh_config.d/x.txt": "Host prod\n  HostName 127.0.0.1\n",
  };
  assert.deepEqual(aliased(contents, NAMES), ["inc", "deep", "sys"]);
  // An Include inside a Host block applies to that block's hosts.
  const within = {
    "/h/.ssh/config": "Host web\n  Include web.conf\n",
    "/h/.ssh/web.conf": "HostName 127.0.0.1\n",
  };
  assert.deepEqual(aliased(within, NAMES), ["web"]);
});

Deno.test("sshAliases: a Match block's HostName applies to every host it may match", () => {
  const m = (line: string) =>
    aliased({ "/h/.ssh/config": `${line}\n  HostName localhost\nHost web\n HostName w\n` }, NAMES);
  assert.deepEqual(m("Match host mt"), ["mt"]);
  assert.deepEqual(m("Match originalhost mt,dev"), ["dev", "mt"]);
  assert.deepEqual(m("Match all"), NAMES);
  assert.deepEqual(m("Match exec 'true'"), NAMES);
  assert.deepEqual(m("Match host !prod,*"), NAMES);
  assert.deepEqual(m("Match host mt user me"), NAMES);
});

Deno.test("sshAliases: canonical domains that are this machine make short names this machine", () => {
  const lines = "CanonicalizeHostname yes\nCanonicalDomains example.com 127.0.0.1\n";
  const nip = (h: string) => local(h) || h.endsWith(".127.0.0.1");
  const ctx = (text: string) => ctxIn("/p", { contents: { "/h/.ssh/config": text }, home: "/h" });
  const hits = (text: string, names: string[]) => {
    const aliases = sshAliases(ctx(text), "/h", nip);
    return names.filter((n) => aliases.some((a) => a.test(n)));
  };
  assert.deepEqual(hits(lines, ["dev", "a.b", "a.b.c"]), ["dev", "a.b"]);
  assert.deepEqual(hits(lines + "CanonicalizeMaxDots 2\n", ["a.b.c", "a.b.c.d"]), ["a.b.c"]);
  assert.deepEqual(hits("Host *\n CanonicalizeHostname always\n" + lines.slice(25), ["dev"]), [
    "dev",
  ]);
  // (Off, or no domain of this machine: none.)
  assert.deepEqual(hits("CanonicalizeHostname no\nCanonicalDomains 127.0.0.1\n", ["dev"]), []);
  assert.deepEqual(hits("CanonicalizeHostname yes\nCanonicalDomains example.com\n", ["dev"]), []);
});
