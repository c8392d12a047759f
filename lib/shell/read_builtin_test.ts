/** bash's `read` of known text (lib/shell/read_builtin.ts), held to bash itself. */
import assert from "node:assert/strict";
import { staticWord } from "./model.ts";
import { documentText, mapfileArray, readArray, readValues } from "./read_builtin.ts";

/** [IFS prefix or null, read's words, the here-string's text]. */
// deno-fmt-ignore
const CASES: [string | null, string[], string][] = [
  [null, ["-r", "f"], "secrets/key"],
  [null, ["f"], "secrets/key"],
  [null, ["-r", "f"], "  a b  "],
  [null, ["-r", "a", "b"], "  x   y  z  "],
  [null, ["-r", "a", "b", "c"], "x"],
  [null, [], "  x  y "],
  [null, ["-r"], "  x  y "],
  [null, ["-r", "--", "a"], " x "],
  [":", ["-r", "a", "b"], "x:secrets/key"],
  [":", ["-r", "a", "b"], "x:y:"],
  [":", ["-r", "a", "b"], "x:y:z:"],
  [":", ["-r", "a"], "x:"],
  [":", ["-r", "a"], "x::"],
  [":", ["-r", "a", "b", "c"], "x::y"],
  [":", ["-r", "a", "b"], ":x"],
  [": ", ["-r", "a", "b"], " x : y : "],
  [" :", ["-r", "a", "b"], "x : :y"],
  ["", ["-r", "a", "b"], " x y "],
  ["", ["-r", "a"], " x y "],
  [",", ["-r", "a", "b"], " x , y "],
  [null, ["-r", "-n", "3", "a", "b"], "x yz"],
  [null, ["-rn3", "a"], "abcdef"],
  [null, ["-r", "-N", "4", "a"], " x y z"],
  [null, ["-r", "-N", "4", "a", "b"], "x yzw"],
  [null, ["-r", "-d", ",", "a"], " x y,z"],
  [null, ["-r", "-d", "", "a"], " x y"],
  [null, ["-rd", ",", "a", "b"], "p q r,s"],
  [null, ["-r", "-s", "-p", "prompt: ", "a"], "v"],
  [null, ["-r", "a"], ""],
  [null, ["-r", "a"], "a\\b"],
];

Deno.test("read of a here-string assigns what bash assigns", () => {
  for (const [ifs, args, text] of CASES) {
    const names = args.filter((a, i) =>
      /^[a-z]$/.test(a) && !/^-[a-zA-Z]*[dnNp]$/.test(args[i - 1] ?? "")
    );
    const shown = names.length ? names : ["REPLY"];
    const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
    const script =
      `${ifs === null ? "" : `IFS=${q(ifs)} `}read ${args.map(q).join(" ")} <<< ${q(text)}; ` +
      `printf '[%s]' ${shown.map((n) => `"$${n}"`).join(" ")}`;
    const out = new Deno.Command("bash", { args: ["-c", script], clearEnv: true }).outputSync();
    const bash = new TextDecoder().decode(out.stdout);
    const prefixes = ifs === null ? [] : [staticWord(`IFS=${ifs}`)];
    const ours = readValues(args.map(staticWord), prefixes, text + "\n");
    assert.ok(ours !== null, script);
    assert.equal(ours.map(([, v]) => `[${v}]`).join(""), bash, script);
    assert.deepEqual(ours.map(([n]) => n), shown, script);
  }
});

/** [IFS prefix or null, the builtin's words (the array named `a`), the here-string's text]. */
// deno-fmt-ignore
const ARRAYS: [string | null, string[], string][] = [
  [null, ["read", "-ra", "a"], "x secrets/key"],
  [null, ["read", "-a", "a"], "  x   y  "],
  [null, ["read", "-r", "-a", "a"], ""],
  [null, ["read", "-r", "-a", "a"], "   "],
  [null, ["read", "-ra", "a", "-d", ","], "a b,c"],
  [null, ["read", "-r", "-n", "3", "-a", "a"], "a b c"],
  [null, ["read", "-r", "-d", "", "-a", "a"], "a b"],
  [":", ["read", "-ra", "a"], "x:"],
  [":", ["read", "-ra", "a"], "x::"],
  [":", ["read", "-ra", "a"], ":x"],
  [":", ["read", "-ra", "a"], "::"],
  [",", ["read", "-ra", "a"], " x , y "],
  [", ", ["read", "-ra", "a"], "x , y,,z"],
  ["", ["read", "-ra", "a"], " x y "],
  [null, ["mapfile", "-t", "a"], "x\nsecrets/key"],
  [null, ["mapfile", "a"], "x\nsecrets/key"],
  [null, ["readarray", "-t", "a"], ""],
  [null, ["mapfile", "-t", "a"], "\n\nx"],
  [null, ["mapfile", "-t", "-s", "1", "-n", "1", "a"], "x\ny\nz"],
  [null, ["mapfile", "-ts1", "a"], "x\ny\nz"],
  [null, ["mapfile", "-n", "0", "-t", "a"], "x\ny"],
  [null, ["mapfile", "-s", "5", "a"], "x\ny"],
  [null, ["mapfile", "-d", ",", "a"], "x,y"],
  [null, ["mapfile", "-t", "-d", ",", "a"], "x,y,"],
  [null, ["mapfile", "-t", "-d", "", "a"], "x"],
  [null, ["mapfile", "-t", "--", "a"], "x\\y"],
];

Deno.test("read -a and mapfile of a here-string fill the array bash fills", () => {
  for (const [ifs, args, text] of ARRAYS) {
    const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
    const script =
      `a=(old old old); ${ifs === null ? "" : `IFS=${q(ifs)} `}${args.map(q).join(" ")}` +
      ` <<< ${q(text)}; printf '<%s>' "\${a[@]}"; echo "\${#a[@]} \${!a[*]}"`;
    const out = new Deno.Command("bash", { args: ["-c", script], clearEnv: true }).outputSync();
    const bash = new TextDecoder().decode(out.stdout);
    const prefixes = ifs === null ? [] : [staticWord(`IFS=${ifs}`)];
    const [builtin, ...rest] = args.map(staticWord);
    const ours = builtin.value === "read"
      ? readArray(rest, prefixes, text + "\n")
      : mapfileArray(rest, text + "\n");
    assert.ok(ours !== null, script);
    assert.equal(ours[0], "a", script);
    const words = ours[1];
    const idx = words.map((_, i) => i).join(" ");
    // (printf with no word prints its format once: `<>`.)
    const printed = words.length ? words.map((w) => `<${w}>`).join("") : "<>";
    assert.equal(`${printed}${words.length} ${idx}\n`, bash, script);
  }
});

Deno.test("read -a and mapfile where the array is not known", () => {
  const w = (...s: string[]) => s.map(staticWord);
  for (
    const args of [
      w("-a", "a", "b"), // (a name besides the array)
      w("-N", "2", "-a", "a"),
      w("-a", "a-b"),
      w("-a"),
      w("-t", "1", "-a", "a"),
    ]
  ) assert.equal(readArray(args, [], "x y\n"), null, args.map((a) => a.value).join(" "));
  assert.equal(readArray(w("-a", "a"), [], "x\\ y\n"), null); // (escapes without -r)
  for (
    const args of [
      w("-t"), // (MAPFILE, bash's)
      w("-O", "1", "a"),
      w("-u", "3", "a"),
      w("-C", "f", "a"),
      w("-c", "1", "a"),
      w("-n", "x", "a"),
      w("a", "b"),
      w("-t", "a-b"),
    ]
  ) assert.equal(mapfileArray(args, "x\n"), null, args.map((a) => a.value).join(" "));
});

Deno.test("read of text it cannot reproduce is not known", () => {
  const w = (...s: string[]) => s.map(staticWord);
  for (
    const [args, text] of [
      [w("f"), "a\\ b\n"], // (escapes without -r)
      [w("-a", "arr"), "a b\n"], // (an array: readArray)
      [w("-t", "0", "f"), "a\n"],
      [w("-u", "3", "f"), "a\n"],
      [w("-e", "f"), "a\n"],
      [w("-r", "f-g"), "a\n"],
      [w("-n", "x", "f"), "a\n"],
      // (Beyond ASCII, -n and -N count what the locale says; -d ends at its first byte.)
      [w("-rn", "7", "a", "b"), "é .envX\n"],
      [w("-r", "-N", "2", "a"), "日本\n"],
      [w("-r", "-d", "é", "a"), "xèy\n"],
    ] as [ReturnType<typeof w>, string][]
  ) assert.equal(readValues(args, [], text), null, args.map((a) => a.value).join(" "));
});

Deno.test("read -n counts characters or bytes as the locale says: beyond ASCII, not known", () => {
  const run = (lc: string) =>
    new TextDecoder().decode(
      new Deno.Command("bash", {
        args: ["-c", `LC_ALL=${lc}; read -rn 7 a b <<< "é .envX"; printf '[%s]' "$b"`],
        clearEnv: true,
      }).outputSync().stdout,
    );
  assert.deepEqual([run("C"), run("C.UTF-8")], ["[.env]", "[.envX]"]);
  assert.deepEqual(readValues(["-rn", "7", "a", "b"].map(staticWord), [], "e .envX\n"), [
    ["a", "e"],
    ["b", ".envX"],
  ]);
});

Deno.test("the text a static here-string or heredoc gives standard input", () => {
  const body = staticWord("secrets/key");
  assert.equal(
    documentText([{ op: "<<<", kind: "herestring", target: null, body }]),
    "secrets/key\n",
  );
  assert.equal(
    documentText([{ op: "<<", kind: "heredoc", target: null, body: staticWord("a\n") }]),
    "a\n",
  );
  // (Two inputs: the later wins, and the walk does not keep their order.)
  assert.equal(
    documentText([
      { op: "<<<", kind: "herestring", target: null, body },
      { op: "<", kind: "read", target: staticWord("f"), body },
    ]),
    null,
  );
  assert.equal(documentText([]), null);
});
