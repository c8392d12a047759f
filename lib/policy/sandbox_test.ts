import assert from "node:assert/strict";
import { configFrom, ctxIn } from "../testing.ts";
import { renderBoundaries, sandboxBoundaries } from "./sandbox.ts";

const HOME = "/home/user";
const files = [
  "/home/user/p/setup.py",
  "/home/user/p/.env",
  "/home/user/p/sub/.env",
  "/home/user/p/node_modules/pkg/.env",
  "/home/user/p/.git/hooks/pre-commit",
  "/home/user/p/.git/config",
  "/home/user/p/vendor/lib.py",
  "/home/user/.ssh/id_rsa",
  "/home/user/.ssh/known_hosts",
  "/home/user/secrets/token",
  "/home/user/.bashrc",
  "/home/user/.pi/agent/extensions/pi-controls.jsonc",
  "/home/user/.pi/agent/settings.json",
  "/tmp/x",
  "/usr/bin/python3",
];

function boundaries(extra: object = {}, cwd = "/home/user/p") {
  const config = configFrom({
    policies: {
      project: { defaultAction: "allow", rules: [] },
      vendored: { defaultAction: "allow", rules: [{ action: "ask", tool: "write" }] },
      outside: { defaultAction: "ask", rules: [] },
      secrets: { defaultAction: "deny", rules: [] },
      scratch: { defaultAction: "allow", rules: [] },
    },
    locations: {
      "/": "outside",
      "$cwd": "project",
      "$cwd/vendor": "vendored",
      "~/secrets": "secrets",
      "/tmp": "scratch",
    },
    pathProtection: { ".env": "ask", "~/.ssh/**": "deny" },
    sandbox: { enabled: true },
    ...extra,
  }, { home: HOME, agentDir: "/home/user/.pi/agent" });
  return sandboxBoundaries(config, ctxIn(cwd, { files, home: HOME }));
}

const paths = (places: { path: string }[]) => places.map((p) => p.path).sort();

Deno.test("writable where pi's write tool may proceed; a place inside that may not is read-only", () => {
  const b = boundaries();
  assert.deepEqual(paths(b.writable), ["/home/user/p", "/tmp"]);
  assert.ok(paths(b.readOnly).includes("/home/user/p/vendor"));
  assert.equal(b.network, "unrestricted");
});

Deno.test("pathProtection deny and a policy denying read are hidden; ask protections read-only", () => {
  const b = boundaries();
  const hidden = paths(b.hidden);
  // `~/.ssh/**`: the directory as a whole.
  assert.ok(hidden.includes("/home/user/.ssh"), hidden.join());
  assert.ok(hidden.includes("/home/user/secrets"), hidden.join());
  const ro = paths(b.readOnly);
  assert.ok(ro.includes("/home/user/p/.env"), ro.join());
  assert.ok(ro.includes("/home/user/p/sub/.env"), ro.join());
  assert.ok(b.unenforced.some((u) => u.includes('".env"')), b.unenforced.join());
  // Installed trees are not searched (said so): a deny glob there would be missed.
  assert.ok(!ro.some((p) => p.includes("node_modules")), ro.join());
  assert.ok(b.unenforced.some((u) => /not searched for in node_modules/.test(u)));
  assert.equal(b.complete, true);
});

Deno.test("the gate's own files and what runs code later stay read-only in a writable place", () => {
  // Home writable: its pi agent dir, shell start-up files and git hooks are still read-only.
  const b = boundaries({ locations: { "/": "outside", "~": "project", "/tmp": "scratch" } });
  const ro = paths(b.readOnly);
  for (
    const p of [
      "/home/user/.pi/agent/extensions",
      "/home/user/.pi/agent/settings.json",
      "/home/user/.bashrc",
      "/home/user/p/.git/hooks",
      "/home/user/p/.git/config",
    ]
  ) assert.ok(ro.includes(p), `${p} not in ${ro.join()}`);
  // pi's project config dir does not exist: made as an empty read-only directory.
  const pi = b.readOnly.find((p) => p.path === "/home/user/p/.pi");
  assert.ok(pi?.absent, JSON.stringify(b.readOnly));
});

Deno.test("read-only config: nothing is writable, the network can be cut off", () => {
  const b = boundaries({
    policies: {
      project: { defaultAction: "sandbox", rules: ["$safe-bash"] },
      outside: { defaultAction: "ask", rules: [] },
    },
    locations: { "/": "outside", "$cwd": "project" },
    sandbox: { network: "none" },
  });
  assert.deepEqual(b.writable, []);
  assert.equal(b.network, "none");
  const text = renderBoundaries(b);
  assert.match(text, /writable: \(none\)/);
  assert.match(text, /hidden \(cannot be read\):\n {4}\/home\/user\/\.ssh\/ /);
});

Deno.test("a policy that denies read everywhere cannot hide the system: it is reported", () => {
  const b = boundaries({
    policies: {
      p: { defaultAction: "allow", rules: [] },
      none: { defaultAction: "deny", rules: [] },
    },
    locations: { "$cwd": "p" },
    defaultPolicy: "none",
  });
  assert.ok(!paths(b.hidden).includes("/"));
  assert.ok(b.unenforced.some((u) => u.includes('"none" denies read')), b.unenforced.join());
  assert.deepEqual(paths(b.writable), ["/home/user/p"]);
});

Deno.test("over 50,000 listed entries the boundaries say they are incomplete (the call asks)", () => {
  const config = configFrom({
    policies: {
      project: { defaultAction: "sandbox", rules: [{ action: "allow", tool: "write" }] },
    },
    locations: { "/": "project" },
    pathProtection: { ".env": "deny" },
    sandbox: { enabled: true },
  }, { home: HOME, agentDir: "/home/user/.pi/agent" });
  // A directory of `size` files listed before the one holding a protected `.env`.
  const withData = (size: number) => {
    const ctx = ctxIn("/home/user/p", {
      files: ["/home/user/p/data/f0", "/home/user/p/zz/.env"],
      home: HOME,
    });
    const entries = ctx.fs.entries!.bind(ctx.fs);
    ctx.fs.entries = (dir) => {
      if (dir === "/home/user/p/data") {
        return Array.from({ length: size }, (_, i) => ({ name: `f${i}`, dir: false, link: false }));
      }
      if (dir === "/home/user/p") {
        return (entries(dir) ?? []).sort((a) => (a.name === "data" ? -1 : 1));
      }
      return entries(dir);
    };
    return sandboxBoundaries(config, ctx);
  };
  const within = withData(49_000);
  assert.equal(within.complete, true);
  assert.ok(paths(within.hidden).includes("/home/user/p/zz/.env"), paths(within.hidden).join());
  const over = withData(50_001);
  assert.equal(over.complete, false);
  assert.ok(
    over.unenforced.includes(
      "protected paths beyond the first 50000 entries listed were not found",
    ),
    over.unenforced.join("\n"),
  );
  // What lies beyond the bound is missed: the `.env` is not hidden, so no call may run sandboxed.
  assert.ok(!paths(over.hidden).includes("/home/user/p/zz/.env"));
});
