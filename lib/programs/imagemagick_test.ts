import assert from "node:assert/strict";
import { adversarialCtx, checkGateTable, checkTable } from "../testing_adversarial.ts";
import { literal } from "./words.ts";
import { imageMagickFiles } from "./imagemagick.ts";

const files = (...argv: string[]) => imageMagickFiles(argv.map(literal)).map((f) => f.path);

Deno.test("ImageMagick: the names it writes, as it builds them", () => {
  assert.deepEqual(files("convert", "a.png", "b.jpg"), ["b.jpg"]);
  assert.deepEqual(files("convert", "a.png", "png:out.png"), ["out.png"]);
  assert.deepEqual(files("convert", "in.gif", "frame_%03d.png"), ["frame_*.png"]);
  assert.deepEqual(files("magick", "a.png", "-resize", "50%", "b.png"), ["b.png"]);
  assert.deepEqual(files("convert", "a.png", "-write", ".pi/x.json", "b.png"), [
    ".pi/x.json",
    "b.png",
  ]);
  // a name `-set` builds may be anywhere
  assert.deepEqual(files("convert", "rose:", "-set", "filename:f", "x", "%[filename:f].json"), [
    null,
  ]);
  // mogrify writes each input, beside it with -format's extension, below -path
  assert.deepEqual(files("mogrify", "-resize", "50%", "a.png", "b.png"), ["a.png", "b.png"]);
  assert.deepEqual(files("mogrify", "-format", "json", ".pi/settings.png"), [".pi/settings.json"]);
  assert.deepEqual(files("mogrify", "-path", "out", "-format", "jpg", "src/a.png"), ["out/a.jpg"]);
  assert.deepEqual(files("magick", "mogrify", "-format", "json", "x.png"), ["x.json"]);
});

Deno.test("ImageMagick: hostile names are judged where they lead", async () => {
  // [command, deny-list, gate's own files]
  await checkGateTable(adversarialCtx, [
    ["convert rose: -set filename:f settings '.pi/%[filename:f].json'", "ask", "ask"],
    ["convert rose: -set filename:f x -format '{}' 'info:.pi/%[filename:f].ts'", "ask", "ask"],
    ["mogrify -format json .pi/settings.png", "allow", "ask"],
    ["magick mogrify -format json .pi/settings.png", "allow", "ask"],
    ["convert a.png -write .pi/settings.json b.png", "allow", "ask"],
    ["convert a.png 'png:|rm -rf src'", "deny", "ask"],
    // everyday
    ["convert a.png b.jpg", "allow", "allow"],
    ["convert in.gif frame_%03d.png", "allow", "allow"],
    ["mogrify -resize 50% src/a.png", "allow", "allow"],
  ]);
  await checkTable([["convert 'png:a.png' .env", "deny", "deny"]]);
});
