import assert from "node:assert/strict";
import { literal } from "../programs/words.ts";
import { embeddedValue, gluedValues } from "./embedded_values.ts";

const glued = (...words: string[]) => gluedValues(words.map(literal)).map((g) => g.value);
/** What a word of a program not known names: its embedded value and its glued guesses. */
const named = (word: string) => [embeddedValue(word), ...glued("frob", word)];

Deno.test("glued values: a name's letters and a trailing slash name that directory, not the root", () => {
  // (`protoc -Iproto/`, `7z x -oout/`: `proto/` and the other splits of the run, never `/`.)
  assert.equal(embeddedValue("-Iproto/"), null);
  assert.equal(embeddedValue("-oout//"), null);
  assert.deepEqual(glued("protoc", "-Iproto/"), ["proto/", "roto/", "oto/", "to/", "o/"]);
  assert.ok(!glued("7zz", "x", "a.zip", "-oout/").includes("/"));
  // A run of one or two letters may be an option and its value, the root: still judged.
  assert.equal(embeddedValue("-o/"), "/");
  assert.equal(embeddedValue("-xC/"), "/");
  assert.equal(embeddedValue("-o@/"), "/");
  assert.equal(embeddedValue("-o/etc/x"), "/etc/x");
  assert.equal(embeddedValue("-Iproto/etc"), "/etc");
  assert.equal(embeddedValue("--out=/"), "/");
  assert.ok(named("-xC/").includes("/"));
  assert.ok(named("-Iproto/../../etc").includes("/../../etc"));
  assert.ok(!named("-Iproto/").includes("/"));
  assert.ok(!named("-Isrc//").some((v) => v !== null && /^\/+$/.test(v)));
});
