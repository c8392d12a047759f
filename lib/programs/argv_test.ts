import assert from "node:assert/strict";
import { gluedStart, lettersKnown, type OptionGrammar, readOptions } from "./argv.ts";

/** Tokens as `kind name [value]` strings. */
function read(args: (string | null)[], g: OptionGrammar): string[] {
  return readOptions(args, g).map((t) => {
    const value = t.glued !== undefined
      ? `=${t.glued}`
      : t.valueAt !== undefined
      ? `@${t.valueAt}`
      : t.rest !== undefined
      ? `+${t.rest}`
      : "";
    const mark = t.ambiguous ? "?" : "";
    return `${t.kind}${t.name ? " " + t.name : ""}${value}${mark}`.trim() + `:${t.at}`;
  });
}

const SORT: OptionGrammar = {
  flags: "bnru",
  valued: "ktoS",
  longFlags: new Set(["--reverse"]),
  longValued: new Set(["--key", "--output"]),
  longOptional: new Set(["--color"]),
};

Deno.test("readOptions: clusters, glued and separate values, long options, --", () => {
  assert.deepEqual(read(["-rn", "-k2", "-t", "/", "f"], SORT), [
    "flag -r:0",
    "flag -n:0",
    "valued -k=2:1",
    "valued -t@3:2",
    "operand:4",
  ]);
  assert.deepEqual(read(["--key=2", "--output", "o", "--color", "--reverse"], SORT), [
    "valued --key=2:0",
    "valued --output@2:1",
    "valued --color:3",
    "flag --reverse:4",
  ]);
  // GNU order: options after operands are options; after `--`, nothing is.
  assert.deepEqual(read(["f", "-o", "x", "--", "-r"], SORT), [
    "operand:0",
    "valued -o@2:1",
    "end:3",
    "operand:4",
  ]);
  // A valued option at the end has no value word.
  assert.deepEqual(read(["-o"], SORT), ["valued -o:0"]);
  assert.deepEqual(read(["-", null], SORT), ["operand:0", "dynamic:1"]);
});

Deno.test("readOptions: an option the grammar does not know is unknown, and what follows unread", () => {
  // An unknown letter: the rest of its cluster may be its value or more options.
  assert.deepEqual(read(["-rXo", "out", "f"], SORT), [
    "flag -r:0",
    "unknown -X+o:0",
    "operand:1",
    "operand:2",
  ]);
  // An unknown long option takes no word (the reader that must fail closed stops there).
  assert.deepEqual(read(["--frob", "x"], SORT), ["unknown --frob:0", "operand:1"]);
  // A flag given a value is not that flag.
  assert.deepEqual(read(["--reverse=1"], SORT), ["unknown --reverse=1:0"]);
  // Without `flags`, every letter not valued is a flag.
  assert.deepEqual(read(["-xyz"], { valued: "u" }), ["flag -x:0", "flag -y:0", "flag -z:0"]);
});

Deno.test("readOptions: numbers are options, operands or letters as the program says", () => {
  assert.deepEqual(read(["-5"], { numbers: "option" }), ["flag -5:0"]);
  assert.deepEqual(read(["-5"], { numbers: "operand" }), ["operand:0"]);
  assert.deepEqual(read(["-5"], { flags: "r" }), ["unknown -5:0"]);
  // Optional values are glued only: `xargs -i cmd` runs cmd.
  assert.deepEqual(read(["-i", "cmd"], { gluedOnly: "i" }), ["valued -i:0", "operand:1"]);
  assert.deepEqual(read(["-i{}"], { gluedOnly: "i" }), ["valued -i={}:0"]);
});

Deno.test("gluedStart: the option and value start a word not known begins with", () => {
  const g = { valued: "dH", longValued: new Set(["--header"]) };
  assert.deepEqual(gluedStart("-sH", g), { name: "-H", value: "" });
  assert.deepEqual(gluedStart("-HX: ", g), { name: "-H", value: "X: " });
  assert.deepEqual(gluedStart("--header=X: ", g), { name: "--header", value: "X: " });
  assert.equal(gluedStart("-s", g), null);
  assert.equal(gluedStart("--head", g), null);
  assert.equal(gluedStart("", g), null);
});

Deno.test("lettersKnown: a grammar listing every letter reads a word's glued value itself", () => {
  const g = { flags: "", valued: "oI" };
  assert.equal(lettersKnown(g, "-obuild/x"), true);
  assert.equal(lettersKnown(g, "-Iinclude/"), true);
  // (A letter it does not list, a long option, a grammar that lists no flags: not read.)
  assert.equal(lettersKnown(g, "-fplugin-dir/x"), false);
  assert.equal(lettersKnown(g, "--out/x"), false);
  assert.equal(lettersKnown({ valued: "o" }, "-obuild/x"), false);
  assert.equal(lettersKnown({ flags: "v", valued: "o" }, "-vobuild/x"), true);
});

Deno.test("readOptions: long options' prefixes, as getopt_long takes them", () => {
  const g = { ...SORT, longFlags: new Set(["--reverse", "--random-sort"]) };
  // `true`: a prefix of two letters at least (an option not listed may begin the same way).
  const gnu: OptionGrammar = { ...g, abbreviations: true };
  assert.deepEqual(read(["--rev", "--ou", "o"], gnu), ["flag --reverse:0", "valued --output@2:1"]);
  assert.deepEqual(read(["--k=2"], gnu), ["unknown --k=2:0"]);
  // A prefix of two options is none: marked ambiguous (getopt_long's "is ambiguous").
  assert.deepEqual(read(["--r", "x"], { ...g, abbreviations: "all" }), [
    "unknown --r?:0",
    "operand:1",
  ]);
  assert.deepEqual(read(["--ra"], gnu), ["flag --random-sort:0"]);
  assert.deepEqual(read(["--re"], gnu), ["flag --reverse:0"]);
  // `"all"`: every long option listed, so any unambiguous prefix is one (`--k=2`).
  const all: OptionGrammar = { ...g, abbreviations: "all" };
  assert.deepEqual(read(["--k=2", "--o", "o"], all), ["valued --key=2:0", "valued --output@2:1"]);
  // Spelled in full, an option is that one, though it begins another.
  assert.deepEqual(read(["--key"], { ...all, longValued: new Set(["--key", "--keys"]) }), [
    "valued --key:0",
  ]);
  // Without abbreviations, a prefix is an option not known (and not ambiguous).
  assert.deepEqual(read(["--rev", "--r"], g), ["unknown --rev:0", "unknown --r:1"]);
});
