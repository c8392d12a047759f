/**
 * Downloaders, cloners and extractors whose names come from the URL, a list, the server or a
 * rewriting pattern write below the directory they work in: judged as `tar -x` there, under the
 * gate's own-file protection (a `.pi/settings.json` in the project) and a deny-list that protects
 * `~/.ssh` (reached through `keys`). And the other names of known programs (`grm`, `gfind`,
 * `coreutils --coreutils-prog=rm`) are those programs, to the registry and to the rules.
 */
import assert from "node:assert/strict";
import { checkGateTable, checkTable } from "../testing_adversarial.ts";
import { ctxIn } from "../testing.ts";
import type { Action } from "../types.ts";
import { programNamed } from "./registry.ts";
import { canonicalName } from "./other_names.ts";

const ctx = ctxIn("/home/user/project", {
  files: [
    "/home/user/project/README.md",
    "/home/user/project/a.tar",
    "/home/user/project/urls.txt",
    "/home/user/project/src/main.ts",
    "/home/user/project/.pi/settings.json",
    "/home/user/.pi/agent/settings.json",
    "/home/user/.ssh/id_rsa",
    "/tmp/out/x",
  ],
  links: { "/home/user/project/keys": "/home/user/.ssh" },
});

/** [command, under the deny-list, under the gate's own-file protection] */
const NAMED_BY_SOURCE: [string, Action, Action][] = [
  // Cloners: the directory is named after the repository.
  ["cd .pi && gh repo clone x/extensions", "allow", "ask"],
  ["cd .pi && gh repo clone https://github.com/x/extensions -u up", "allow", "ask"],
  ["cd .pi && gh repo fork x/y --clone --fork-name extensions", "allow", "ask"],
  ["cd .pi && glab repo clone x/extensions", "allow", "ask"],
  ["cd .pi && glab repo clone -g group", "allow", "ask"],
  ["cd .pi && hg clone https://x/extensions", "allow", "ask"],
  ["cd .pi && hg clone -r tip https://x/extensions", "allow", "ask"],
  ["cd ~/.pi/agent && hg clone https://x/extensions", "allow", "ask"],
  ["cd .pi && bzr branch https://x/extensions", "allow", "ask"],
  ["cd .pi && brz checkout https://x/extensions", "allow", "ask"],
  ["cd .pi && darcs clone https://x/extensions", "allow", "ask"],
  ["cd .pi && fossil clone https://x/y", "allow", "ask"],
  ["cd .pi && cookiecutter gh:x/y", "allow", "ask"],
  ["cookiecutter gh:x/y -o .pi", "allow", "ask"],
  ["cd keys && hg clone https://x/y .", "deny", "allow"],
  // Downloaders: the names are a list's, the server's, or the URL's.
  ["wget -i urls.txt -P .pi", "allow", "ask"],
  ["cd .pi && wget -i ../urls.txt", "allow", "ask"],
  ["cd .pi && wget --input-file=../urls.txt", "allow", "ask"],
  ["cd .pi && cat ../urls.txt | wget -i -", "allow", "ask"],
  ["cd .pi && wget -e input=../urls.txt", "allow", "ask"],
  ["cd ~/.pi/agent && wget -nd -r https://x/", "allow", "ask"],
  ["cd .pi && wget2 https://x/settings.json", "allow", "ask"],
  ["cd .pi && axel https://x/settings.json", "allow", "ask"],
  ["cd ~/.pi/agent && axel https://x/a", "allow", "ask"],
  ["axel -n 4 -o .pi https://x/a", "allow", "ask"],
  ["cd .pi && http -d https://x/settings.json", "allow", "ask"],
  ["cd .pi && http --download https://x/dl", "allow", "ask"],
  ["cd .pi && xh -d https://x/dl", "allow", "ask"],
  ["http -o .pi/settings.json https://x/a", "allow", "ask"],
  ["cd keys && axel https://x/authorized_keys", "deny", "allow"],
  // Extractors that rewrite the members' names: bsdtar's `-s` (macOS's tar), GNU tar's
  // `--transform` and `--strip-components`.
  ["bsdtar -xf a.tar -s ',^,.pi/extensions/,'", "allow", "ask"],
  ["bsdtar -xf a.tar -s ',x.js,.pi/settings.json,' x.js", "allow", "ask"],
  ["tar -xf a.tar -s ',x.js,.pi/settings.json,' x.js", "allow", "ask"],
  ["tar xsf a.tar ,x.js,.pi/settings.json, x.js", "allow", "ask"],
  ["tar -xf a.tar --transform 's,x.js,.pi/settings.json,' x.js", "allow", "ask"],
  ["tar -xf a.tar --xform=s,x.js,.pi/settings.json, x.js", "allow", "ask"],
  ["tar -xf a.tar --strip-components=1 a/.pi/settings.json", "allow", "ask"],
  ["tar --strip 1 -xf a.tar a/.pi/settings.json", "allow", "ask"],
  ["pax -rw -s ',^,../,' src /tmp/out", "ask", "ask"],
  // Everyday forms, elsewhere or by names that reach nothing protected.
  ["gh repo clone x/y", "allow", "allow"],
  ["gh repo clone x/y /tmp/out/y", "allow", "allow"],
  ["hg clone https://x/y", "allow", "allow"],
  ["glab repo clone x/y", "allow", "allow"],
  ["wget https://x/a.tgz", "allow", "allow"],
  ["cd /tmp/out && wget -i /home/user/project/urls.txt", "allow", "allow"],
  ["cd /tmp/out && axel https://x/a", "allow", "allow"],
  ["http GET https://x/a", "allow", "allow"],
  ["xh https://x/a", "allow", "allow"],
  ["http -o out.json https://x/a", "allow", "allow"],
  // (A member at the top may be a symlink, `x.js -> .pi`, its entries written through: below the
  // cwd. One below a directory reaches below that one.)
  ["tar -xf a.tar x.js", "allow", "ask"],
  ["tar -xf a.tar src/x.js", "allow", "allow"],
  ["tar -tf a.tar -s ,a,b,", "allow", "allow"],
  ["tar -xf a.tar -C /tmp/out --strip-components=1", "allow", "allow"],
];

Deno.test("names from the URL, a list, the server or a pattern: written below where they land", async () => {
  await checkGateTable(ctx, NAMED_BY_SOURCE);
});

/** [command, under read-only, under the deny-list (`rm *` denied, `chmod *` asked)] */
const OTHER_NAMES: [string, Action, Action][] = [
  ["grm -rf src", "deny", "deny"],
  ["/opt/homebrew/bin/grm -rf src", "deny", "deny"],
  ["uu-rm -rf src", "deny", "deny"],
  ["uu_rm src/main.ts", "deny", "deny"],
  ["coreutils --coreutils-prog=rm -rf src", "deny", "deny"],
  ["coreutils rm -rf src", "deny", "deny"],
  ["gtimeout 5 rm -rf src", "deny", "deny"],
  ["genv rm -rf src", "deny", "deny"],
  ["gxargs rm < README.md", "deny", "deny"],
  ["gfind . -delete", "deny", "allow"],
  ["find . -delete", "deny", "allow"],
  ["gfind src -exec rm {} +", "deny", "deny"],
  ["gchmod -R 777 .", "deny", "ask"],
  ["gcp .env /tmp/x", "deny", "deny"],
  ["cp .env /tmp/x", "deny", "deny"],
  ["gln -s ~/.ssh/id_rsa k && cat k", "deny", "deny"],
  // (Another program of such a name is not taken for the tool: gdu browses and deletes.)
  ["gdu src", "deny", "allow"],
  ["gfind src -name '*.ts'", "deny", "allow"],
  ["gsed -n 1p README.md", "deny", "allow"],
];

Deno.test("other names of known programs: the same program to the registry and the rules", async () => {
  await checkTable(OTHER_NAMES);
  assert.equal(canonicalName("grm"), "rm");
  assert.equal(canonicalName("uu-find"), "find");
  assert.equal(canonicalName("gdu"), "gdu");
  assert.equal(canonicalName("gnutar"), "tar");
  assert.equal(canonicalName("git"), "git");
  assert.equal(canonicalName("gh"), "gh");
  assert.equal(programNamed("gfind"), programNamed("find"));
  assert.equal(programNamed("gxargs"), programNamed("xargs"));
});
