import assert from "node:assert/strict";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import { checkedNames } from "./checksums.ts";

Deno.test("a checksum list's names: text and binary lines, tagged ones, escaped names", () => {
  assert.deepEqual(checkedNames("abc  src/a.ts\nabc *b.bin\n"), ["src/a.ts", "b.bin"]);
  assert.deepEqual(checkedNames("SHA256 (secrets/key) = abc\r\n"), ["secrets/key"]);
  // (One character after the hash's space says text or binary: the rest is the name.)
  assert.deepEqual(checkedNames("abc  *x\nabc x\nabc **y"), ["*x", "x", "*y"]);
  assert.deepEqual(checkedNames("\\abc  a\\nb\\\\c"), ["a\nb\\c"]);
  assert.deepEqual(checkedNames("  abc  x\n\nnoname\n"), ["x"]);
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
