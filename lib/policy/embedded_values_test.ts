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

Deno.test("glued values: of a program not known, every rest of a leading run, whatever it holds", () => {
  // (`-psecrets` may be `-p secrets`: a bare name is judged where it is there or protected.)
  assert.deepEqual(glued("frob", "-psecrets"), [
    "secrets",
    "ecrets",
    "crets",
    "rets",
    "ets",
    "ts",
    "s",
  ]);
  assert.ok(glued("frob", "-Xtkeys", "f").includes("keys"));
  assert.ok(glued("frob", "-ftkeys").includes("tkeys"));
  // After `--`, no word is an option; punctuation alone names nothing.
  assert.deepEqual(glued("frob", "--", "-psecrets"), []);
  assert.deepEqual(glued("frob", "-t,"), []);
  assert.deepEqual(glued("frob", "-l"), []);
});

Deno.test("glued values: by a grammar, the rest after its valued letter; after a letter not known, the rest too", () => {
  assert.deepEqual(glued("cp", "-rtsecrets", "f"), ["secrets"]);
  assert.deepEqual(glued("cp", "-rT", "a", "b"), []);
  assert.deepEqual(glued("mktemp", "-dpsecrets"), ["secrets"]);
  assert.deepEqual(glued("cpio", "-iDsecrets"), ["secrets"]);
  assert.deepEqual(glued("cp", "--", "-tsecrets", "x"), []);
  // A program none of whose short options takes a value: its clusters glue none (`rm -rf` with
  // a file `f` here names no `f`); another's, after the letter that does.
  assert.deepEqual(glued("rm", "-rf", "x"), []);
  assert.deepEqual(glued("chmod", "-Rf", "x"), []);
  assert.deepEqual(glued("mkdir", "-pm700", "d"), ["700"]);
  assert.deepEqual(glued("touch", "-crkeys", "f"), ["keys"]);
  // (sort's grammar names its flags: `-Q` is none of them, and may take `keys`.)
  assert.ok(glued("sort", "-Qkeys").includes("keys"));
});

Deno.test("glued values: none for a program whose single-dash words are whole (find's primaries)", () => {
  assert.deepEqual(glued("find", ".", "-name", "x.txt", "-newer", "f", "-print0"), []);
  assert.deepEqual(glued("find", "-Dtree", "-O3", "src", "-iname", "*.ts"), []);
  // (A program not known reads the same words as clusters: `-name` may be `-n ame`.)
  assert.ok(glued("frob", "-name").includes("ame"));
});
