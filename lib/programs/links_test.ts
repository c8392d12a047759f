import assert from "node:assert/strict";
import { analyzeBash } from "../shell/analyze.ts";
import { loadBashParser } from "../shell/parser.ts";
import { linksMade } from "./expand.ts";
import { throughLinks, treeLinks } from "./links.ts";
import { fakeFs } from "../policy/fs_facts.ts";
import { carriesCommand } from "./env.ts";
import { bash, configFrom, ctxIn } from "../testing.ts";

const parser = await loadBashParser();

/** The links a command makes, as `link -> target`. */
function links(command: string): string[] {
  const a = analyzeBash(
    command,
    { cwd: "/p", home: "/h", env: { HOME: "/h" }, carriesCommand },
    parser,
  );
  assert.equal(a.error, null, command);
  return linksMade(a.stages).map((l) => `${l.link} -> ${l.target}`).sort();
}

Deno.test("madeLinks: the symlinks ln -s and cp -s make, in each of their spellings", () => {
  assert.deepEqual(links("ln -s ~ h"), ["/p/h -> /h", "/p/h/h -> /h"]);
  assert.deepEqual(links("ln -sf /etc"), ["/p/etc -> /etc"]);
  // A relative target is read from the link's directory; with -r from the cwd. (Kept as
  // written: the kernel walks its `..` from where the names before it lead.)
  assert.deepEqual(links("ln -s ../x d/l"), ["/p/d/l -> /p/d/../x", "/p/d/l/x -> /p/d/l/../x"]);
  assert.deepEqual(links("ln -sr x d/l"), ["/p/d/l -> /p/x", "/p/d/l/x -> /p/x"]);
  // Into a directory: -t, or several targets before it; -T: the name itself.
  assert.deepEqual(links("ln -st d /a /b"), ["/p/d/a -> /a", "/p/d/b -> /b"]);
  assert.deepEqual(links("ln --symbolic --target-directory=d /a"), ["/p/d/a -> /a"]);
  assert.deepEqual(links("ln -s /a /b d"), ["/p/d/a -> /a", "/p/d/b -> /b"]);
  assert.deepEqual(links("ln -sT /a d"), ["/p/d -> /a"]);
  assert.deepEqual(links("ln -s -S .bak /a l"), ["/p/l -> /a", "/p/l/a -> /a"]);
  assert.deepEqual(links("cp -rs /h m"), ["/p/m -> /h", "/p/m/h -> /h"]);
  assert.deepEqual(links("cd /q && ln -s -- /a l"), ["/q/l -> /a", "/q/l/a -> /a"]);
  assert.deepEqual(links("ln -s ld/.. L"), ["/p/L -> /p/ld/.."]);
  // Hard links and copies make none; dynamic operands none (the ln stage itself asks).
  assert.deepEqual(links("ln /a l"), []);
  assert.deepEqual(links("cp -r /a l"), []);
  assert.deepEqual(links("ln -s $X l"), []);
});

Deno.test("throughLinks: a path through a link made leads below its target, links in a row too", () => {
  const made = [{ link: "/p/h", target: "/h" }, { link: "/h/l", target: "/etc" }];
  assert.equal(throughLinks("/p/h/.ssh/id_rsa", made), "/h/.ssh/id_rsa");
  assert.equal(throughLinks("/p/h", made), "/h");
  assert.equal(throughLinks("/p/h/l/shadow", made), "/etc/shadow");
  assert.equal(throughLinks("/p/hx", made), null);
  assert.equal(throughLinks("/q", made), null);
});

Deno.test("ln -s: a relative target is judged from the link's directory, not the cwd", async () => {
  // The project is /w/p; its parent /w is another (asking) place; ~/.ssh is denied.
  const config = configFrom({
    policies: {
      p: { defaultAction: "allow", rules: [] },
      out: { defaultAction: "ask", rules: [] },
    },
    locations: { "/w/p": "p", "/": "out" },
    pathProtection: { "~/.ssh/**": "deny" },
  });
  const ctx = ctxIn("/w/p", { files: ["/w/p/d/f", "/w/p/src/a.ts"] });
  const cases: [string, string][] = [
    // Everyday: a link inside the project to a sibling folder.
    ["ln -s ../src d/src", "allow"],
    ["ln -sf ../../src/a.ts d/e/a.ts", "allow"],
    ["ln -s -t d ../src", "allow"],
    // Read from the cwd, the same targets lead out of the project.
    ["ln -s ../src src2", "ask"],
    ["ln -sr ../src d/l", "ask"],
    ["ln ../src d/l", "ask"], // a hard link names an existing file from the cwd
    // `ln -s T DIR` may make DIR itself (T from the cwd) or DIR/T (T from DIR): both judged.
    ["ln -s ../x d", "ask"],
    // Hostile: the link's directory does not hide where the target leads.
    ["ln -s ../../../../home/user/.ssh/id_rsa d/e/k", "deny"],
    ["ln -s ../../.ssh d/k", "ask"],
    ["ln -s /w/secret d/k", "ask"],
  ];
  const home = { ...ctx, home: "/home/user" };
  for (const [command, want] of cases) {
    assert.equal((await bash(config, home, command)).action, want, command);
  }
});

Deno.test("treeLinks: a tree with more directories than the walk lists is known too large at once", () => {
  // 40 directories of 10 each: 441 in all, over the bound of 256.
  const files: string[] = [];
  for (let i = 0; i < 40; i++) for (let j = 0; j < 10; j++) files.push(`/t/d${i}/e${j}/f`);
  files.push("/h/.ssh/id_rsa", "/etc/passwd");
  const fs = fakeFs({ files, links: { "/t/key": "/h/.ssh/id_rsa", "/t/d0/e0/deep": "/etc" } });
  let listed = 0;
  const counted = { ...fs, entries: (d: string) => (listed++, fs.entries!(d)) };
  const found = treeLinks("/t", counted);
  assert.equal(found.complete, false);
  // Known from the first listings (the tree's root and its 40 directories find 441): the rest
  // would only cost a lookup each.
  assert.ok(listed <= 41, `${listed} listings`);
  // What was listed is still seen: the link at the top leads where it leads.
  assert.deepEqual(found.links, ["/h/.ssh/id_rsa"]);
  // A tree within the bound is walked whole.
  const small = fakeFs({
    files: ["/s/a/b/c", "/s/x/y", "/etc/passwd"],
    links: { "/s/a/b/k": "/etc/passwd" },
  });
  assert.deepEqual(treeLinks("/s", small), {
    links: ["/etc/passwd"],
    complete: true,
    splits: false,
    dashes: false,
  });
});

Deno.test("listings: a name printed as it is that starts with `-` is an option to what it is handed to", async () => {
  // GNU wc given a listed name `--files0-from=.env` reads the names .env holds.
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(`${dir}/.env`, "secret\0");
    Deno.writeTextFileSync(`${dir}/secret`, "TOKEN\n");
    Deno.writeTextFileSync(`${dir}/--files0-from=.env`, "");
    const out = new Deno.Command("bash", { args: ["-c", "ls | xargs -n1 wc"], cwd: dir })
      .outputSync();
    assert.match(new TextDecoder().decode(out.stdout), /\bsecret\n/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
  const config = configFrom({
    policies: { p: { defaultAction: "allow", rules: [] } },
    locations: { "/": "p" },
    pathProtection: { ".env": "deny" },
  });
  const plain = ctxIn("/p", { files: ["/p/src/a.ts", "/p/README.md"] });
  const dashed = ctxIn("/p", { files: ["/p/src/a.ts", "/p/README.md", "/p/--files0-from=x"] });
  // [command, with no such name, with one]
  const cases: [string, string, string][] = [
    ["ls | xargs -n1 wc", "allow", "ask"],
    ["ls | xargs -I{} wc {}", "allow", "ask"],
    ['ls | while read -r f; do wc "$f"; done', "allow", "ask"],
    ["git ls-files | xargs wc -l", "allow", "ask"],
    ["grep -rl x | xargs wc", "allow", "ask"],
    ["rg -l x | xargs wc", "allow", "ask"],
    // find prints `./--files0-from=x`, and a named place before each name: no option.
    ["find . -type f | xargs wc -l", "allow", "allow"],
    ["find . -print0 | xargs -0 wc", "allow", "allow"],
    ["grep -rl x . | xargs wc", "allow", "allow"],
    ["git ls-files src | xargs wc -l", "allow", "allow"],
  ];
  const wrong: string[] = [];
  for (const [command, a, b] of cases) {
    const [x, y] = [
      (await bash(config, plain, command)).action,
      (await bash(config, dashed, command)).action,
    ];
    if (x !== a || y !== b) wrong.push(`${command}: ${x} ${y}, want ${a} ${b}`);
  }
  assert.deepEqual(wrong, []);
});

Deno.test("treeLinks: a directory inside that cannot be listed leaves the walk incomplete", () => {
  const files = ["/t/a/x.ts", "/t/locked/l/y", "/t/f.ts", "/home/u/.ssh/id"];
  const fs = fakeFs({ files, links: { "/t/a/k": "/home/u/.ssh" }, unlisted: ["/t/locked"] });
  assert.equal(treeLinks("/t", fs).complete, false);
  assert.equal(treeLinks("/t/locked", fs).complete, false);
  // (A file has nothing below it; a tree listed throughout is complete.)
  assert.equal(treeLinks("/t/f.ts", fs).complete, true);
  assert.deepEqual(treeLinks("/t/a", fs), {
    links: ["/home/u/.ssh"],
    complete: true,
    splits: false,
    dashes: false,
  });
});
