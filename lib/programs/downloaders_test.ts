import assert from "node:assert/strict";
import {
  adversarialCtx,
  checkEveryday,
  checkGateTable,
  checkTable,
  denyList,
} from "../testing_adversarial.ts";
import { literal } from "./words.ts";
import { ctxIn } from "../testing.ts";
import { downloadedFiles, serverNamedFiles } from "./downloaders.ts";

const files = (command: string) =>
  downloadedFiles(command.split(" ").map(literal)).map((f) => f.path);

Deno.test("downloaders: the files they write are named after what they fetch", async () => {
  assert.deepEqual(files("wget -N http://x/.env"), [".env"]);
  assert.deepEqual(files("wget -P .pi http://x/settings.json"), [".pi/settings.json"]);
  assert.deepEqual(files("wget -e dir_prefix=.pi http://x/a"), [".pi/a"]);
  assert.deepEqual(files("wget --execute=output_document=.env http://x"), [".env"]);
  assert.deepEqual(files("wget http://x/"), ["index.html"]);
  assert.deepEqual(files("wget -O out http://x/.env"), []);
  // (wget's `-e` value as its parse_line takes it: blanks at both ends left off)
  assert.deepEqual(
    downloadedFiles(["wget", "-e", " output_document = .env \t\n", "http://x"]
      .map(literal)).map((f) => f.path),
    [".env"],
  );
  assert.deepEqual(
    downloadedFiles(["wget", "-e", "dir_prefix=.pi ", "http://x/a"]
      .map(literal)).map((f) => f.path),
    [".pi/a"],
  );
  // (its short options in a cluster: `-qP DIR`, `-qe"CMD"`)
  assert.deepEqual(files("wget -qP .pi http://x/settings.json"), [".pi/settings.json"]);
  assert.deepEqual(files("wget -qeoutput_document=.env http://x"), [".env"]);
  assert.deepEqual(files("wget -qnH -xP .pi http://x/a/b"), [".pi/a/b"]);
  assert.deepEqual(files("curl -O http://x/a.json --output-dir=.pi"), [".pi/a.json"]);
  assert.deepEqual(files("curl -o a.json --output-dir .pi http://x"), [".pi/a.json"]);
  assert.deepEqual(files("curl -w %output{.env}x http://x"), [".env"]);
  assert.deepEqual(files("curl -OJ http://x/a"), [null, "a"]);
  assert.deepEqual(files("curl -sSL http://x/a"), []);
  assert.deepEqual(files("aria2c -o a.json -d .pi http://x"), [".pi/a.json"]);
  // (aria2c also takes the name the server gives: below its directory)
  assert.deepEqual(files("aria2c http://x/.env"), [".", ".env"]);
  assert.deepEqual(files("aria2c -o a.json -d .pi http://x"), [".pi/a.json"]);
  assert.deepEqual(files("aria2c -d .pi http://x/cd"), [".pi", ".pi/cd"]);
  assert.deepEqual(files("aria2c -i /tmp/list"), [null, "."]);
  // (curl's `#N` in `-o` is the Nth URL glob's text: the names each URL gives, or, where they
  // are too many or a URL is not known, a glob of what they may be)
  assert.deepEqual(files("curl -o .pi/#1.json http://x/{settings}"), [".pi/settings.json"]);
  assert.deepEqual(files("curl --output-dir .pi -o #1#2 http://x/{a}[1-2]"), [
    ".pi/a1",
    ".pi/a2",
  ]);
  assert.deepEqual(files("curl -o x[#1].txt http://x/[1-2]"), ["x[1].txt", "x[2].txt"]);
  assert.deepEqual(files("curl -o #1 http://x/{secrets/key}"), ["secrets/key"]);
  assert.deepEqual(files("curl -o #<n> http://x/{<n>a,b}"), ["a", "b", "#<n>", "#<n>"]);
  assert.deepEqual(files("curl -o x#1.txt http://x/[1-1000]"), ["x*.txt"]);
  assert.deepEqual(files("curl -o x[#1].txt --url http://x/[1-1000]"), ["x\\[*\\].txt"]);
  assert.deepEqual(files("curl -g -o #1 http://x/{a}"), []);
  // (`-O` saves each globbed URL under its own name; many: a glob of them)
  assert.deepEqual(files("curl -O http://x/{a,.bashrc}"), ["a", ".bashrc"]);
  assert.deepEqual(files("curl -O http://x/img[1-1000].jpg"), ["img*.jpg"]);
  await checkTable([
    ["curl -o '.#1' 'http://x/{env}'", "deny", "deny"],
    ["curl -o '.pi/#1.json' 'http://x/{settings}' 2>/dev/null || true", "deny", "deny"],
    ["wget -N http://x/.env", "deny", "deny"],
    ["wget --execute=output_document=.env http://x", "deny", "deny"],
    ["aria2c http://x/.env", "deny", "deny"],
  ]);
  await checkEveryday(
    ["wget https://example.com/file.tar.gz", "wget -qO- https://x | head"],
    denyList,
  );
  // [command, deny-list (curl is denied there), gate's own files]
  await checkGateTable(adversarialCtx, [
    ["curl -o '.pi/#1.json' 'http://x/{settings}'", "deny", "ask"],
    ["curl --create-dirs -o '.pi/extensions/#1.ts' 'http://x/[1-2]'", "deny", "ask"],
    ["curl -o 'out_#1.txt' 'http://x/[1-3]'", "deny", "allow"],
  ]);
  // wget's settings by any spelling (case, `_` and `-` ignored), aria2c's names chosen elsewhere
  // [command, deny-list, gate's own files], where `.pi/settings.json` is
  const P = "/home/user/project";
  const pi = ctxIn(P, { files: [`${P}/README.md`, `${P}/.pi/settings.json`] });
  await checkGateTable(pi, [
    ["wget -e dirprefix=.pi/extensions http://x/a.ts", "allow", "ask"],
    ["wget -e DIR-PREFIX=.pi/extensions http://x/a.ts", "allow", "ask"],
    ["wget -e content_disposition=on -P .pi http://x/cd", "ask", "ask"],
    ["wget -e recursive=on -P .pi http://x/", "allow", "ask"],
    ["aria2c -d .pi --allow-overwrite=true http://x/cd", "allow", "ask"],
    ["aria2c -i /tmp/list", "ask", "ask"],
    ["wget -e robots=off http://x/a.txt", "allow", "allow"],
  ]);
});

Deno.test("downloaders: wget's directories are the URL's path, and a recursion's the server's", async () => {
  await checkTable([
    // A URL ending in `/` is saved as `--default-page`'s name.
    ["wget --default-page=.env http://host/", "deny", "deny"],
    ["wget -P keys --default-page id_rsa http://host/", "deny", "deny"],
    // `-x` keeps the URL's path below the cwd (`-nH` without the host): through `keys`, ~/.ssh.
    ["wget -nH -x http://x/keys/authorized_keys", "deny", "deny"],
    ["wget -nH --cut-dirs=1 -x http://x/a/keys/authorized_keys", "deny", "deny"],
  ]);
  const files = (c: string) =>
    downloadedFiles(
      c.split(" ").map((v) => ({ value: v, kind: "static" as const, prefix: v, text: v })),
    );
  assert.deepEqual(files("wget -x http://h/a/b.txt").map((f) => f.path), ["h/a/b.txt"]);
  assert.deepEqual(files("wget -nH -x -P out http://h/a/b.txt").map((f) => f.path), [
    "out/a/b.txt",
  ]);
  assert.deepEqual(files("wget -r -nd -P .pi http://h/").map((f) => [f.path, f.below]), [
    [".pi", true],
    [".pi/index.html", undefined],
  ]);
  assert.deepEqual(files("wget --content-disposition http://h/dl").map((f) => f.path), [
    null,
    "dl",
  ]);
});

Deno.test("wget --config: a settings file of its choosing says where it writes", async () => {
  // [command, read-only, deny-list]
  // (Its commands are read as `-e` ones, wget_options_test.ts; one not there, as curl's `-K`, is
  // a command not known.)
  await checkTable([
    ["wget --config=/tmp/w http://x/", "deny", "deny"],
    ["wget --config /tmp/w http://x/", "deny", "deny"],
    ["wget --conf=/tmp/w http://x/", "deny", "deny"],
  ]);
});

Deno.test("downloaders: long options abbreviated as each program takes them", () => {
  // (curl 7.x and 8.x before 8.16's exact names: a prefix of one option, in any case.)
  assert.deepEqual(files("curl --output-d .pi -O http://x/settings.json"), [".pi/settings.json"]);
  assert.deepEqual(files("curl --OUTPUT-DIR .pi -O http://x/settings.json"), [
    ".pi/settings.json",
  ]);
  assert.deepEqual(files("curl --write %output{.pi/x} http://x/a"), [".pi/x"]);
  // (wget's getopt_long.)
  assert.deepEqual(files("wget --directory-p=.pi http://x/settings.json"), [".pi/settings.json"]);
  assert.deepEqual(files("wget --output-doc x http://x/settings.json"), []);
  // (axel's getopt_long, HTTPie's argparse.)
  const served = (c: string) => serverNamedFiles(c.split(" ").map(literal)).map((f) => f.path);
  assert.deepEqual(served("axel --out=.pi/x http://x/a"), [".pi/x", ".pi/x"]);
  assert.deepEqual(served("http --down http://x/a"), ["."]);
});

Deno.test("curl: its outputs pair with its URLs in order, by operation", async () => {
  // (the Nth URL is saved as the Nth `-o`/`-O` says; `--next` starts an operation of its own)
  assert.deepEqual(files("curl -o x http://a/a -O http://x/.env"), [".env"]);
  assert.deepEqual(files("curl -o x -O http://a/a http://x/.env"), [".env"]);
  assert.deepEqual(files("curl -O http://a/a -o x http://x/.env"), ["a"]);
  assert.deepEqual(files("curl -sLO http://a/a http://x/.env"), ["a"]);
  assert.deepEqual(files("curl --remote-name-all http://a/a http://x/.env"), ["a", ".env"]);
  assert.deepEqual(files("curl --remote-name-all -o x http://a/a x.com/.env"), [".env"]);
  assert.deepEqual(files("curl --remote-name-all --no-remote-name-all http://x/.env"), []);
  assert.deepEqual(files("curl -o x http://a/a --next -O http://x/.env"), [".env"]);
  assert.deepEqual(files("curl -o x http://a/a -: -O http://x/.env"), [".env"]);
  assert.deepEqual(files("curl -o x http://a/a -O http://x/s.json --output-dir .pi"), [
    ".pi/x",
    ".pi/s.json",
  ]);
  // (`--output-dir` is its operation's: the next saves in the cwd)
  assert.deepEqual(files("curl --output-dir .pi --next -O http://x/s.json"), ["s.json"]);
  assert.deepEqual(files("curl --output-dir .pi -O http://x/a --next -O http://x/b"), [
    ".pi/a",
    "b",
  ]);
  // (curl 8.13's `--url @FILE`: URLs of a file, saved under their names; a list not read is not
  // known, its URLs may be `file:` ones)
  assert.deepEqual(files("curl --url @list --output-dir .pi"), ["list", null, ".pi"]);
  await checkGateTable(adversarialCtx, [
    [
      "curl -o x https://a.com/a -O https://x.com/.pi/settings.json --output-dir .pi",
      "deny",
      "ask",
    ],
    [
      "curl -o x https://a.com/a --next -O https://x.com/settings.json --output-dir .pi",
      "deny",
      "ask",
    ],
    ["curl --remote-name-all --output-dir .pi https://x.com/settings.json", "deny", "ask"],
    ["curl -o x https://a.com/a -O https://x.com/b.tgz", "deny", "allow"],
    ["curl -sSLO https://x.com/a.tgz https://x.com/b.tgz", "deny", "allow"],
    ["curl --output-dir .pi --next -O https://x.com/settings.json", "deny", "allow"],
  ]);
});
