import assert from "node:assert/strict";
import { checkEveryday, denyList } from "../testing_adversarial.ts";
import { literal } from "./words.ts";
import { compressedNames } from "./compressors.ts";

const names = (command: string) =>
  compressedNames(command.split(" ").map(literal)).map((n) => n.path);

Deno.test("compressors: the files they write are named after their operands", async () => {
  assert.deepEqual(names("gunzip -f .env.gz"), [".env", ".env.gz.gz"]);
  assert.deepEqual(names("gzip -Sv .en"), [".env"]);
  assert.deepEqual(names("gzip -f .en -S v"), [".env"]);
  assert.deepEqual(names("xz -d a.tar.xz"), ["a.tar", "a.tar.xz.xz"]);
  assert.deepEqual(names("zstd -d /t/s.json.zst --output-dir-flat .pi"), [
    ".pi/s.json",
    ".pi/s.json.zst.zst",
  ]);
  assert.deepEqual(names("gzip notes.txt"), ["notes.txt.gz"]);
  assert.deepEqual(names("gunzip -f .env-gz"), [".env", ".env-gz.gz"]);
  assert.deepEqual(names("gunzip -N x.gz"), [null]);
  // To standard output, or a test or listing: no file.
  assert.deepEqual(names("gunzip -c x.gz"), []);
  assert.deepEqual(names("gzip -dc .env.gz"), []);
  assert.deepEqual(names("xz -l a.xz"), []);
  await checkEveryday(
    ["gzip -k notes.txt", "gunzip -c notes.txt.gz | head", "xz -t notes.txt.xz"],
    denyList,
  );
});
