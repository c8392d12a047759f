import assert from "node:assert/strict";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import { checkedNames } from "./checksums.ts";

Deno.test("a checksum list's names: text and binary lines, tagged ones, escaped names", () => {
  assert.deepEqual(checkedNames("abc  src/a.ts\nabc *b.bin\n"), [
    "src/a.ts",
    " src/a.ts",
    "b.bin",
    "*b.bin",
  ]);
  assert.deepEqual(checkedNames("SHA256 (secrets/key) = abc\r\n"), [
    "secrets/key",
  ]);
  // (One character after the hash's blank says text or binary: the rest is the name; BSD's
  // reversed form, `HASH name`, has none.)
  assert.deepEqual(checkedNames("abc x\nabc **y"), ["x", "*y", "**y"]);
  assert.deepEqual(checkedNames("\\abc  a\\nb\\\\c"), ["a\nb\\c", " a\nb\\c"]);
  assert.deepEqual(checkedNames("  abc  x\n\n# a comment\n"), ["x", " x"]);
});

Deno.test("a checksum list's names as coreutils' split_3 and shasum read them", () => {
  const names = (line: string) => checkedNames(line)?.filter((n) => n.includes(".env"));
  // Tagged: no space needed before `(`, blanks around `=`, the name up to the last `)`.
  assert.deepEqual(names("MD5(.env)=d41d8cd9"), [".env"]);
  assert.deepEqual(names("MD5 (.env)  =\td41d8cd9"), [".env"]);
  assert.deepEqual(names("BLAKE2b-256 (.env) = d41d8cd9"), [".env"]);
  assert.deepEqual(names("MD5 (a) b (.env) = d41d8cd9"), ["a) b (.env"]);
  assert.deepEqual(names("\\MD5 (\\\\.env) = d41d8cd9"), ["\\.env"]);
  // (shasum: `SHA1 (name) = HEX` with anything after.)
  assert.deepEqual(names("SHA1 (.env) = ff)x"), [".env"]);
  // Untagged: a tab after the digest too; `*`, ` `, or shasum's `^`, `U` after it.
  assert.deepEqual(names("d41d8cd9\t.env"), [".env"]);
  assert.deepEqual(names("d41d8cd9\t*.env"), [".env", "*.env"]);
  assert.deepEqual(names("d41d8cd9 U.env"), [".env", "U.env"]);
  // A line read as none of these: the list's names are not known.
  assert.equal(checkedNames("d41d8cd9  a\nnoname\n"), null);
  assert.equal(checkedNames("MD5 (.env) = x\n(.env)\n"), null);
  assert.deepEqual(checkedNames("# only\n\n\r\n"), []);
});

const P = "/home/user/project";
const config = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { "secrets/**": "deny", ".env": "ask" },
});
const ctx = ctxIn(P, {
  files: [`${P}/src/main.ts`, `${P}/README.md`, `${P}/secrets/key`, `${P}/.env`],
  contents: {
    [`${P}/SUMS`]: "d41d8cd98f00b204e9800998ecf8427e  src/main.ts\n",
    [`${P}/list`]: "d41d8cd98f00b204e9800998ecf8427e  secrets/key\n",
    [`${P}/tagged`]: "MD5 (.env) = d41d8cd98f00b204e9800998ecf8427e\n",
    [`${P}/glued`]: "MD5(.env)=d41d8cd98f00b204e9800998ecf8427e\n",
    [`${P}/spaced`]: "MD5 (.env)\t=  d41d8cd98f00b204e9800998ecf8427e\n",
    [`${P}/tabbed`]: "d41d8cd98f00b204e9800998ecf8427e\t.env\n",
    [`${P}/garbled`]: "d41d8cd98f00b204e9800998ecf8427e  src/main.ts\n???\n",
    [`${P}/names`]: "secrets/key\n",
  },
});

Deno.test("checksum tools with -c read the files their lists name; file -f, --files0-from", async () => {
  await checkActions(config, ctx, [
    ["md5sum -c list", "deny"],
    ["md5sum --check list", "deny"],
    ["md5sum --ch list", "deny"],
    ["sha256sum -wc SUMS list", "deny"],
    ["md5sum --quiet -c list", "deny"],
    ["b2sum -l 128 -c list", "deny"],
    ["cksum -c tagged", "ask"],
    ["sha1sum -c tagged", "ask"],
    ["md5sum -c glued", "ask"],
    ["md5sum -c spaced", "ask"],
    ["md5sum -c tabbed", "ask"],
    ["md5sum -c garbled", "ask"],
    ["sha224sum -c list", "deny"],
    ["sha384sum -c list", "deny"],
    ["sha512sum -c list", "deny"],
    ["shasum -a 256 -c list", "deny"],
    ["shasum -a256 -c SUMS", "allow"],
    // A list not known now (another stage writes it, standard input): files not known.
    ["md5sum -c", "ask"],
    ["md5sum -c - < SUMS", "ask"],
    ["echo x > SUMS; md5sum -c SUMS", "ask"],
    ["file -f names", "ask"],
    ["file -bf names", "ask"],
    ["file --files-from=names", "ask"],
    ["file --files names", "ask"],
    ["wc --files0-from=names", "ask"],
    ["wc -l --files0-from names", "ask"],
    ["du --files0-from=names", "ask"],
    // Everyday forms.
    ["sha256sum -c SUMS", "allow"],
    ["md5sum -c SUMS --quiet", "allow"],
    ["md5sum src/main.ts README.md", "allow"],
    ["sha256sum src/main.ts > SUMS", "allow"],
    ["b2sum -l 256 README.md", "allow"],
    ["file README.md src/main.ts", "allow"],
    ["file -F : -b README.md", "allow"],
    ["wc -l README.md", "allow"],
    ["du -sh src", "allow"],
  ]);
});
