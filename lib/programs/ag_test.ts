import assert from "node:assert/strict";
import { checkActions, configFrom, ctxIn } from "../testing.ts";
import { agRead } from "./ag.ts";
import { literal } from "./words.ts";

const read = (line: string) => agRead(["ag", ...line.split(" ")].map(literal));

Deno.test("ag's words: its pattern, the paths after it, -A's value only where a number", () => {
  assert.deepEqual(read("KEY"), { paths: [], text: [1], searches: true, files: false });
  assert.deepEqual(read("KEY src lib"), { paths: [2, 3], text: [1], searches: true, files: false });
  assert.deepEqual(read("-A 3 KEY src"), {
    paths: [4],
    text: [1, 2, 3],
    searches: true,
    files: false,
  });
  // (`-A 99999999999999999999`: strtol's overflow is no number to ag, which reads it again.)
  assert.deepEqual(read("-A 99999999999999999999 KEY"), {
    paths: [3],
    text: [2],
    searches: true,
    files: false,
  });
  // (`-A KEY`: not a number, so ag reads KEY again, as the pattern.)
  assert.deepEqual(read("-A KEY src"), { paths: [3], text: [2], searches: true, files: false });
  assert.deepEqual(read("-iC3 KEY"), { paths: [], text: [1, 2], searches: true, files: false });
  assert.deepEqual(read("--context=3 KEY"), {
    paths: [],
    text: [1, 2],
    searches: true,
    files: false,
  });
  assert.deepEqual(read("-G \\.ts$ KEY src"), {
    paths: [4],
    text: [1, 2, 3],
    searches: true,
    files: false,
  });
  assert.deepEqual(read("--ignore secrets KEY"), {
    paths: [],
    text: [1, 2, 3],
    searches: true,
    files: false,
  });
  // Its file types are options (`--ts`); `--file-s` begins `--file-search-regex` alone.
  assert.deepEqual(read("--ts KEY src"), { paths: [3], text: [2], searches: true, files: false });
  assert.deepEqual(read("--file-s x KEY"), {
    paths: [],
    text: [1, 2, 3],
    searches: true,
    files: false,
  });
  // (`--pa` begins `--pager` and `--path-to-ignore`, `--ign` `--ignore` and `--ignore-case`:
  // each is taken to take the next word, a word kept a path.)
  assert.deepEqual(read("--pa x KEY"), { paths: [], text: [3], searches: true, files: false });
  assert.deepEqual(read("--ign x KEY"), { paths: [], text: [3], searches: true, files: false });
  // The ignore file it reads and the pager it runs are no text.
  assert.deepEqual(read("-p secrets/key KEY src"), {
    paths: [4],
    text: [3],
    searches: true,
    files: false,
  });
  assert.deepEqual(read("--pager less KEY"), {
    paths: [],
    text: [3],
    searches: true,
    files: false,
  });
  assert.deepEqual(read("--path-to-ignore=x KEY"), {
    paths: [],
    text: [2],
    searches: true,
    files: false,
  });
  // `-g` lists names: every operand is a path.
  assert.deepEqual(read("-g key secrets"), {
    paths: [3],
    text: [1, 2],
    searches: false,
    files: false,
  });
  assert.deepEqual(read("-l"), { paths: [], text: [], searches: true, files: false });
  assert.deepEqual(read("--version"), { paths: [], text: [], searches: false, files: false });
  assert.deepEqual(read("-- -x src"), { paths: [3], text: [2], searches: true, files: false });
  // A letter it does not take, or a word not known: nothing is said.
  assert.equal(read("-E KEY src"), null);
  assert.equal(
    agRead([literal("ag"), literal("KEY"), { ...literal("$D"), kind: "dynamic" }]),
    null,
  );
});

const P = "/home/user/project";
const config = configFrom({
  policies: { open: { defaultAction: "allow", rules: [] } },
  locations: { "/": "open" },
  pathProtection: { "secrets/**": "deny", ".env": "ask" },
});
const ctx = ctxIn(P, { files: [`${P}/src/main.ts`, `${P}/README.md`, `${P}/secrets/key`] });

Deno.test("ag with no path searches the cwd's tree; its pattern is text, its pager a command", async () => {
  await checkActions(config, ctx, [
    ["ag KEY", "ask"],
    ["ag -u KEY", "ask"],
    ["ag --hidden KEY", "ask"],
    ["ag -a KEY", "ask"],
    ["ag -A 3 KEY", "ask"],
    ["ag -A KEY", "ask"],
    ["ag --ts KEY", "ask"],
    ["ag -l KEY | xargs cat", "ask"],
    ["ag KEY .", "ask"],
    ["ag KEY secrets", "deny"],
    ["ag -p secrets/key KEY src", "deny"],
    ["ag -g key secrets", "deny"],
    // Everyday forms that name what they search, or read no file.
    ["ag KEY src", "allow"],
    ["ag -A 3 -i KEY src README.md", "allow"],
    ["ag -A KEY src", "allow"],
    ["ag --ts -w KEY src", "allow"],
    ["ag -G \\.ts$ KEY src", "allow"],
    ["ag --ignore secrets KEY src", "allow"],
    ["ag -z KEY src", "allow"],
    ["ag KEY src/*.ts", "allow"],
    ["ag .env src", "allow"],
    ["ag -g \\.ts$", "allow"],
    ["ag --version", "allow"],
    // `--pager` runs shell text fed what ag prints (abbreviated too, and after `-A`).
    ["ag --pager cat KEY src", "allow"],
    ["ag --pager 'cat secrets/key' KEY src", "deny"],
    ["ag --pag='cat secrets/key' KEY src", "deny"],
    ["ag -A --pager='cat secrets/key' KEY src", "deny"],
    // `-A`, `-B`, `-C` take the next word where strtol reads it whole with no overflow: a
    // number past a `long` is the pattern, and the word after it a path ag searches.
    ["ag -v -A 99999999999999999999 secrets/key", "deny"],
    ["ag -v -B 9223372036854775808 .env", "ask"],
    ["ag -v -C 99999999999999999999 secrets", "deny"],
    ["ag -vA 0x10 secrets/key", "deny"],
    ["ag -A '3 ' secrets/key", "deny"],
    ["ag -A 9223372036854775807 .env src", "allow"],
    ["ag -A -9223372036854775808 .env src", "allow"],
    ["ag -A ' +3' .env src", "allow"],
    ["ag -A 0000000000000000000000003 .env src", "allow"],
  ]);
  const clean = ctxIn(P, { files: [`${P}/src/main.ts`, `${P}/README.md`] });
  await checkActions(config, clean, [["ag KEY", "allow"], ["ag -u -l KEY", "allow"]]);
  // Read-only: a pager is no read (`-A`'s word after it is read as ag reads it).
  const ro = configFrom({
    policies: { ro: { defaultAction: "deny", rules: ["$safe-bash"] } },
    locations: { "/": "ro" },
  });
  await checkActions(ro, ctx, [
    ["ag KEY src", "allow"],
    ["ag -A 3 KEY", "allow"],
    ["ag --pager less KEY src", "deny"],
    ["ag -A --pager=less KEY src", "deny"],
    ["ag --pag=less KEY src", "deny"],
  ]);
});
