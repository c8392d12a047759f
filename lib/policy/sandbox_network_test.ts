/** The sandbox's network allow list: what an entry is, what it allows, the stricter of two. */
import assert from "node:assert/strict";
import {
  entryProblem,
  hostAllowed,
  hostOf,
  networkText,
  strictestNetwork,
} from "./sandbox_network.ts";

Deno.test("hosts are compared in one form: lower case, no trailing dot, dotted IPv4", () => {
  const cases: [string, string | null][] = [
    ["Registry.NPMJS.org.", "registry.npmjs.org"],
    ["2130706433", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["[::0001]", "[::1]"],
    ["bücher.ch", "xn--bcher-kva.ch"],
    ["::1", null], // (an IPv6 address is written in brackets)
    ["x.org:443", null],
    ["x.org:80", null],
    ["evil.org\\@x.org", null],
    ["evil.org@x.org", null],
    ["x.org/p", null],
    ["x.org..", null],
    ["", null],
  ];
  for (const [text, host] of cases) assert.equal(hostOf(text), host, text);
});

Deno.test("an entry is a host, *. and a name, or an IP address; each mistake is named", () => {
  for (const ok of ["registry.npmjs.org", "*.github.com", "localhost", "10.0.0.5", "[::1]"]) {
    assert.equal(entryProblem(ok), null, ok);
  }
  const bad: [string, RegExp][] = [
    ["https://x.org", /without a scheme/],
    ["x.org/api", /without a path/],
    ["x.org:8443", /without a port/],
    ["*", /only at the start/],
    ["x.*.org", /only at the start/],
    ["*x.org", /only at the start/],
    ["*.org", /a name with a dot/],
    ["*.10.0.0.5", /no subdomains/],
    ["user@x.org", /a host name \(letters/],
    ["::1", /a host name \(letters/],
  ];
  for (const [entry, why] of bad) assert.match(entryProblem(entry) ?? "(none)", why, entry);
});

Deno.test("what a list allows, and hostile spellings it does not", () => {
  const list = ["allowed.com", "*.allowed.org", "10.0.0.5", "[::1]"];
  const allowed = ["allowed.com", "a.allowed.org", "a.b.allowed.org", "10.0.0.5", "[::1]"];
  for (const host of allowed) assert.ok(hostAllowed(list, host), host);
  // Spellings of the same host reach the same verdict once in hostOf's form.
  for (const text of ["ALLOWED.COM", "allowed.com.", "A.Allowed.Org."]) {
    assert.ok(hostAllowed(list, hostOf(text)!), text);
  }
  const refused = [
    "allowed.com.evil.org",
    "evilallowed.com",
    "allowed.org", // (*. is for subdomains only)
    "evilallowed.org",
    "allowed.org.evil.net",
    "sub.allowed.com",
    "10.0.0.6",
    "127.0.0.1",
    hostOf("2130706433")!,
    "[::2]",
  ];
  for (const host of refused) assert.ok(!hostAllowed(list, host), host);
  // A `*.` entry never stands for an IP address, even one that ends like it.
  assert.ok(!hostAllowed(["*.0.5"], "10.0.0.5"));
  assert.ok(!hostAllowed([], "allowed.com"));
});

Deno.test("the stricter of two networks: none, then a list, then unrestricted; two lists meet", () => {
  const l = (...allowedDomains: string[]) => ({ allowedDomains });
  assert.equal(strictestNetwork("none", l("x.org")), "none");
  assert.equal(strictestNetwork("unrestricted", "none"), "none");
  assert.deepEqual(strictestNetwork("unrestricted", l("x.org")), l("x.org"));
  assert.deepEqual(strictestNetwork(l("x.org"), "unrestricted"), l("x.org"));
  assert.equal(strictestNetwork("unrestricted", "unrestricted"), "unrestricted");
  assert.deepEqual(
    strictestNetwork(
      l("*.github.com", "npmjs.org", "X.org"),
      l("API.github.com", "*.npmjs.org", "x.org"),
    ),
    l("x.org", "api.github.com"),
  );
  assert.deepEqual(strictestNetwork(l("*.a.com"), l("*.b.a.com")), l("*.b.a.com"));
  assert.deepEqual(strictestNetwork(l("a.com"), l("b.com")), l());
});

Deno.test("the network in words names the allowed hosts", () => {
  assert.equal(networkText("none"), "none");
  assert.match(
    networkText({ allowedDomains: ["x.org", "*.y.org"] }),
    /proxy, to x\.org, \*\.y\.org/,
  );
  assert.match(networkText({ allowedDomains: [] }), /allows no host/);
});
