import assert from "node:assert/strict";
import { checkEveryday, checkTable, denyList } from "../testing_adversarial.ts";
import { literal } from "./words.ts";
import { downloadedFiles } from "./downloaders.ts";

const files = (command: string) =>
  downloadedFiles(command.split(" ").map(literal)).map((f) => f.path);

Deno.test("downloaders: the files they write are named after what they fetch", async () => {
  assert.deepEqual(files("wget -N http://x/.env"), [".env"]);
  assert.deepEqual(files("wget -P .pi http://x/settings.json"), [".pi/settings.json"]);
  assert.deepEqual(files("wget -e dir_prefix=.pi http://x/a"), [".pi/a"]);
  assert.deepEqual(files("wget --execute=output_document=.env http://x"), [".env"]);
  assert.deepEqual(files("wget http://x/"), ["index.html"]);
  assert.deepEqual(files("wget -O out http://x/.env"), []);
  assert.deepEqual(files("curl -O http://x/a.json --output-dir=.pi"), [".pi/a.json"]);
  assert.deepEqual(files("curl -o a.json --output-dir .pi http://x"), [".pi/a.json"]);
  assert.deepEqual(files("curl -w %output{.env}x http://x"), [".env"]);
  assert.deepEqual(files("curl -OJ http://x/a"), [null, "a"]);
  assert.deepEqual(files("curl -sSL http://x/a"), []);
  assert.deepEqual(files("aria2c -o a.json -d .pi http://x"), [".pi/a.json"]);
  assert.deepEqual(files("aria2c http://x/.env"), [".env"]);
  await checkTable([
    ["wget -N http://x/.env", "deny", "deny"],
    ["wget --execute=output_document=.env http://x", "deny", "deny"],
    ["aria2c http://x/.env", "deny", "deny"],
  ]);
  await checkEveryday(
    ["wget https://example.com/file.tar.gz", "wget -qO- https://x | head"],
    denyList,
  );
});
