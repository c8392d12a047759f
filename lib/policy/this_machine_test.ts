import assert from "node:assert/strict";
import { ctxIn } from "../testing.ts";
import type { Context } from "../types.ts";
import { hereFile, inetAton, ipv6Groups, machineNow, thisMachine } from "./this_machine.ts";

const ctx: Context = {
  ...ctxIn("/p", {
    env: { USER: "me" },
    home: "/home/me",
    contents: {
      "/etc/hosts": "127.0.0.1 localhost\n127.0.1.1 box box.lan # Debian's own name\n" +
        "10.1.2.3 db.internal\n192.168.1.7 gw\n::1 ip6-localhost ip6-loopback\n",
      "/home/me/.ssh/config":
        "Host dev dev-*\n  HostName 127.0.0.1\nHost web\n  HostName web.prod\n" +
        "Host self\n HostName=box\nHost *.corp\n  User me\n",
    },
  }),
  machine: () => ({ hostname: "Box.example.com", addresses: ["192.168.1.7", "fe80::1%eth0"] }),
};

Deno.test("inetAton reads every form getaddrinfo takes", () => {
  const lo = 0x7f000001;
  for (const s of ["127.0.0.1", "127.1", "127.0.1", "2130706433", "0x7f.1", "0177.0.0.1"]) {
    assert.equal(inetAton(s), lo, s);
  }
  assert.equal(inetAton("0x7f000001"), lo);
  assert.equal(inetAton("0"), 0);
  for (const s of ["127.1.", "256.0.0.1", "1.2.3.4.5", "08.1", "host", "127.0.0.1x", ""]) {
    assert.equal(inetAton(s), null, s);
  }
});

Deno.test("ipv6Groups reads compressed, full and dotted-tail forms", () => {
  assert.deepEqual(ipv6Groups("::1"), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(ipv6Groups("0:0:0:0:0:0:0:1"), [0, 0, 0, 0, 0, 0, 0, 1]);
  assert.deepEqual(ipv6Groups("::ffff:127.0.0.1"), [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
  assert.deepEqual(ipv6Groups("::"), [0, 0, 0, 0, 0, 0, 0, 0]);
  for (const s of ["1::2::3", "::g", "1:2:3:4:5:6:7", "::1.2.3", "host"]) {
    assert.equal(ipv6Groups(s), null, s);
  }
});

Deno.test("thisMachine: every spelling that may reach this machine, no other host", () => {
  const here = [
    "localhost",
    "LOCALHOST",
    "localhost.",
    "localhost.localdomain",
    "localhost6",
    "ip6-localhost",
    "ip6-loopback",
    "app.localhost",
    "_outbound",
    "127.0.0.1",
    "127.1",
    "127.255.0.9",
    "2130706433",
    "0x7f.1",
    "0177.0.0.1",
    "0",
    "0.0.0.0",
    "::1",
    "[::1]",
    "0:0:0:0:0:0:0:1",
    "::",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "[::1%lo]",
    "127.0.0.1.nip.io",
    "app-127-0-0-1.sslip.io",
    // The machine's own name (any case, its short name), addresses, and /etc/hosts' names.
    "box.example.com",
    "BOX",
    "box.example.com.",
    "192.168.1.7",
    "fe80::1",
    "::ffff:192.168.1.7",
    "box.lan",
    "gw", // deno-fmt-ignore
  ];
  for (const h of here) assert.ok(thisMachine(h, ctx), h);
  const elsewhere = [
    "prod",
    "deploy.example.com",
    "10.0.0.1",
    "db.internal",
    "box.other.org",
    "128.0.0.1",
    "::2",
    "github.com",
    "1.2.3.4",
    "localhostx",
    "my-localhost.com",
  ];
  for (const h of elsewhere) assert.ok(!thisMachine(h, ctx), h);
  // Without the machine's name known: only the loopback spellings.
  assert.ok(!thisMachine("box.example.com", ctxIn("/p")));
  assert.ok(thisMachine("127.1", ctxIn("/p")));
});

Deno.test("hereFile: absolute as written, relative in the login's home, another's not known", () => {
  const on = (path: string | null, user?: string | null) =>
    hereFile({ path, source: "x", on: { host: "localhost", user } }, ctx)?.path;
  assert.equal(on(".ssh/id_rsa"), "/home/me/.ssh/id_rsa");
  assert.equal(on("."), "/home/me");
  assert.equal(on("~/.ssh/id_rsa"), "/home/me/.ssh/id_rsa");
  assert.equal(on("~"), "/home/me");
  assert.equal(on("~me/x"), "/home/me/x");
  assert.equal(on("/etc/passwd"), "/etc/passwd");
  assert.equal(on(".ssh/id_rsa", "me"), "/home/me/.ssh/id_rsa");
  assert.equal(on(".ssh/id_rsa", "root"), null);
  assert.equal(on("~root/x"), null);
  assert.equal(on(".ssh/id_rsa", null), null);
  assert.equal(on("/etc/passwd", "root"), "/etc/passwd");
  assert.equal(on(null), null);
  // Another machine's file is none here.
  assert.equal(hereFile({ path: "x", source: "x", on: { host: "prod" } }, ctx), undefined);
  const f = hereFile({ path: "d", source: "x", below: true, on: { host: "::1" } }, ctx);
  assert.deepEqual(f, { path: "/home/me/d", source: "x", below: true });
});

Deno.test("machineNow reads the name and addresses of the machine", () => {
  const m = machineNow();
  assert.ok(m && m.hostname.length > 0 && m.addresses.includes("127.0.0.1"));
});

Deno.test("thisMachine: sslip.io's IPv6 dash form and well-known loopback domains", () => {
  for (
    const h of [
      "--1.sslip.io",
      "app---1.sslip.io",
      "0-0-0-0-0-0-0-1.sslip.io",
      "--ffff-7f00-1.sslip.io",
      "--.sslip.io",
      // (nip.io's hex form: the four bytes in eight digits, alone or after a name.)
      "7f000001.nip.io",
      "app-7f000001.nip.io",
      "app.7F000001.nip.io",
      "a.b-7f3a0c01.nip.io",
      "00000000.nip.io",
      "magic-127.0.0.1.nip.io",
      "lvh.me",
      "app.lvh.me",
      "x.localtest.me",
      "a.b.vcap.me",
      "api.localhost.direct",
    ]
  ) assert.equal(thisMachine(h, ctx), true, h);
  for (
    const h of [
      "2a01-4f8-c17-b8f--2.sslip.io",
      "my-host--2.example.com",
      "lvh.me.evil.com",
      "a-b",
      "c0a80101.nip.io",
      "app-7f00001.nip.io",
      "app-17f000001.nip.io",
      "7f000001",
    ]
  ) assert.equal(thisMachine(h, ctx), false, h);
});

Deno.test("thisMachine: an ssh alias whose HostName is any spelling of this machine", () => {
  const names = [
    "dev.localhost",
    "127.0.0.1.nip.io",
    "app.lvh.me",
    "--1.sslip.io",
    "%h.localhost",
    "app-127-0-0-1.sslip.io",
    "0x7f.1",
    "box.lan",
    "box",
  ];
  const config = names.map((n, i) => `Host a${i}\n  HostName ${n}\n`).join("") +
    "Host far\n  HostName prod.example.com\nHost near\n  HostName 10.1.2.3\n";
  const c: Context = {
    ...ctxIn("/p", {
      home: "/home/me",
      contents: { "/home/me/.ssh/config": config, "/etc/hosts": "127.0.1.1 box.lan\n" },
    }),
    machine: () => ({ hostname: "box.example.com", addresses: [] }),
  };
  for (const [i, n] of names.entries()) assert.equal(thisMachine(`a${i}`, c), true, n);
  for (const h of ["far", "near", "a"]) assert.equal(thisMachine(h, c), false, h);
});
