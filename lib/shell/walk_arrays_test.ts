import assert from "node:assert/strict";
import { STARTER_CONFIG } from "../starter.ts";
import { checkTable, denyList } from "../testing_adversarial.ts";
import { bash, configFrom, ctxIn, fuzzSeed, seededRandom } from "../testing.ts";
import type { Action } from "../types.ts";
import { analyzeBash } from "./analyze.ts";
import { analysesOf, runScripts, type Tally } from "./oracle_testing.ts";
import { loadBashParser } from "./parser.ts";
import { HELD, markedStages } from "./analyze_testing.ts";
import { arrayFollowed } from "./walk_arrays.ts";

const parser = await loadBashParser();
const env = { cwd: "/p", home: "/h", env: { HOME: "/h", ...HELD }, carriesCommand: () => false };

/** The stages of a command as text (see `markedStages`). */
function stages(command: string): string[] {
  return markedStages(command, env);
}

Deno.test("arrays: an array of words assigned where it surely runs is those words", () => {
  assert.deepEqual(stages('a=(x "y z" s/*.ts ~/k p{1,2}); cat "${a[@]}"'), [
    "cat x y z ~s/*.ts /h/k p1 p2",
  ]);
  // Unquoted, each word plain text; `"${a[*]}"` joined by a blank; a count is a number.
  assert.deepEqual(stages('a=(x y); cat ${a[@]} "${a[*]}" ${a[*]} "${#a[@]}"'), [
    "cat x y x y x y ${#a[@]}",
  ]);
  assert.deepEqual(stages('a=(); cat "${a[@]}" "${a[*]}"'), ["cat "]);
  assert.deepEqual(stages('a=(rm -rf s); "${a[@]}"'), ["rm -rf s"]);
  assert.deepEqual(stages('a=(x y); for f in "${a[@]}"; do cat "$f"; done'), ["cat x", "cat y"]);
  assert.deepEqual(stages('declare -a a=(x y); for f in "${a[@]}"; do cat "$f"; done').slice(1), [
    "cat x",
    "cat y",
  ]);
  assert.deepEqual(stages('declare a=(x y)\ncat "${a[@]}"').slice(1), ["cat x y"]);
  assert.deepEqual(stages('a=(\n  x\n  y\n)\ncat "${a[@]}"'), ["cat x y"]);
  assert.deepEqual(stages('a=(x); (cat "${a[@]}"); true && cat "${a[@]}"'), [
    "cat x",
    "true",
    "cat x",
  ]);
  // (Other variables stay followed where arrays are used.)
  assert.deepEqual(stages('a=(x); X=s; cat "${a[@]}" $X'), ["cat x s"]);
  assert.deepEqual(stages("(( ${#a[@]} )) && cat x"), [":", "cat x"]);
});

Deno.test("arrays: what may change an array, or is read otherwise, leaves it unknown", () => {
  const unknown = (command: string) => {
    const a = analyzeBash(command, env, parser);
    const cat = a.stages.findLast((s) => s.argv[0].value === "cat");
    const known = cat?.argv.slice(1).every((w) => w.kind !== "dynamic");
    assert.ok(a.error !== null || cat === undefined || !known, command);
  };
  for (
    const c of [
      'a=(x); a[i]=y; cat "${a[@]}"',
      'a=(x); a[0]+=y; cat "${a[@]}"',
      'a=(x); a[0]=$Y; cat "${a[@]}"',
      'a=(x); if c; then a[0]=y; fi; cat "${a[@]}"',
      'a=(x); a[-2]=y; cat "${a[@]}"',
      'a=(x); unset a[0]; cat "${a[@]}"',
      "a=(x); unset 'a[i]'; cat \"${a[@]}\"",
      "a=(x); c && unset 'a[0]'; cat \"${a[@]}\"",
      'a=(x); ((a[0]=1)); cat "${a[@]}"',
      'a=(x); if c; then a+=(y); fi; cat "${a[@]}"',
      'a=(x); (a+=(y)); a+=($Y); cat "${a[@]}"',
      'a=(x*); cat "${a[1]}"',
      'a=(x*); cat "${a[@]:1}"',
      'a=(x y); cat "${a[2]}" "${a[-3]}"',
      'a=(x); a=(y); cat "${a[@]}"',
      'a=(x); a=y; cat "${a[@]}"',
      'a=(x); read -a a < f; cat "${a[@]}"',
      'a=(x); read a\\ < f; cat "${a[@]}"',
      'a=(x); read "a" < f; cat "${a[@]}"',
      'a=(x); mapfile -t a < f; cat "${a[@]}"',
      'a=(x); readarray a < f; cat "${a[@]}"',
      'a=(x); unset a; cat "${a[@]}"',
      'a=(x); declare a; cat "${a[@]}"',
      'a=(x); declare -a a; cat "${a[@]}"',
      'a=(x); printf -v a y; cat "${a[@]}"',
      'a=(x); for a in y; do :; done; cat "${a[@]}"',
      'a=(x); : ${a:=y}; cat "${a[@]}"',
      'a=(x); (( a[0]=1 )); cat "${a[@]}"',
      'a=(x); (( a""[0]=1 )); cat "${a[@]}"',
      'a=(x); exec {a}>f; cat "${a[@]}"',
      'a=(x); coproc a { cat; }; cat "${a[@]}"',
      'a=(x); eval "$c"; cat "${a[@]}"',
      'a=(x); source f; cat "${a[@]}"',
      'a=(x); $c; cat "${a[@]}"',
      'a=(x); f() { :; }; cat "${a[@]}"',
      'a=(x); declare -n r=$n; r=(y); cat "${a[@]}"',
      'a=(x); cd d; cat "${a[@]}"',
      "a=(x); IFS=/; cat ${a[@]}",
      "a=(x); alias b=c; cat ${a[@]}",
      'a=(x); let b=1; cat "${a[@]}"',
      'a=(x); select b in c; do :; done; cat "${a[@]}"',
      'a=(x); trap "$c" DEBUG; cat "${a[@]}"',
      // Assigned where it may not run, or not reach on.
      'true && a=(x); cat "${a[@]}"',
      'if t; then a=(x); fi; cat "${a[@]}"',
      '(a=(x)); cat "${a[@]}"',
      'a=(x) | true; cat "${a[@]}"',
      'for i in 1; do a=(x); done; cat "${a[@]}"',
      'f() { a=(x); cat "${a[@]}"; }; f',
      // Inside a loop, later rounds see what earlier ones did.
      'a=(x); for i in 1 2; do cat "${a[@]}"; done',
      // Words not known, or read otherwise than the nodes say.
      'a=(x $(date)); cat "${a[@]}"',
      'a=([0]=x); cat "${a[@]}"',
      'a=(x=~/k); cat "${a[@]}"',
      'a=(x "y z"); cat ${a[@]}',
      "a=(s/*); cat ${a[@]}",
      'a=(s/*); cat "${a[*]}"',
      'a=(x # c\n y); cat "${a[@]}"',
      'PIPESTATUS=(x); cat "${PIPESTATUS[@]}"',
      // Uses not followed.
      'a=(x y); cat "${a[$i]}"',
      'a=(x y); cat "${a[@]:$i}"',
      'a=(x y); cat "${a[@]: -1}"',
      'a=(x y); cat "${a[2]}/z" "z${a[-3]}"',
      'a=(x s/*); cat "${a[0]}/z"',
      'a=(x s/*); cat "${a[*]}"/z',
      'a=(x y); cat "${!a[1]}"',
      'a=(x s/*); cat "${!a[@]}"',
      'a=(x y); cat "z${a[@]}"',
      'a=(x y); cat "$a"',
      'a=(); "${a[@]}" rm x; cat "${a[@]}"',
    ]
  ) unknown(c);
});

Deno.test("arrays: mapfile and read -a of known text fill the array with its lines, its fields", () => {
  assert.deepEqual(stages("mapfile -t a <<< $'x\\nsecrets/key'; cat \"${a[1]}\"").slice(1), [
    "cat secrets/key",
  ]);
  // (Without -t each line keeps its newline.)
  assert.deepEqual(stages("readarray a <<< $'x\\ny'; cat \"${a[@]}\"").slice(1), ["cat x\n y\n"]);
  assert.deepEqual(stages('mapfile -t -s 1 a <<EOF\nx\ny\nz\nEOF\ncat "${a[@]}"').slice(1), [
    "cat y z",
  ]);
  assert.deepEqual(stages('read -ra a <<< "x  y"; cat "${a[-1]}" "${!a[@]}"').slice(1), [
    "cat y 0 1",
  ]);
  assert.deepEqual(stages('IFS=, read -ra a <<< "x,y z"; cat "${a[@]}"').slice(1), ["cat x y z"]);
  assert.deepEqual(stages('mapfile -t a <<< x; a+=(y); cat "${a[@]}"').slice(1), ["cat x y"]);
  // An element, or `"${a[*]}"`, inside a longer word.
  assert.deepEqual(stages("a=(x); unset 'a[0]'; cat \"${a[@]}\"").slice(1), ["cat"]);
  assert.deepEqual(stages('a=(s k); cat "${a[0]}/${a[1]}" x/${a[1]} "${a[*]}.x"'), [
    "cat s/k x/k s k.x",
  ]);
  // Not known: text not static, a second assignment, a name bash keeps, a loop.
  for (
    const c of [
      'mapfile -t a < f; cat "${a[@]}"',
      'mapfile -t a <<< "$x"; cat "${a[@]}"',
      'mapfile -t a <<< x; mapfile -t a <<< y; cat "${a[@]}"',
      'mapfile -t a <<< x; a[i]=y; cat "${a[@]}"',
      'mapfile -t a <<< x; echo a; cat "${a[@]}"',
      'mapfile -t <<< x; cat "${MAPFILE[@]}"',
      'mapfile -O 1 -t a <<< x; cat "${a[@]}"',
      'true && mapfile -t a <<< x; cat "${a[@]}"',
      'for i in 1; do read -ra a <<< x; done; cat "${a[@]}"',
      'read -a a <<< "x\\ y"; cat "${a[@]}"',
      'IFS=, read -ra a <<< "x,y"; IFS=/; cat "${a[@]}"',
    ]
  ) {
    const a = analyzeBash(c, env, parser);
    const cat = a.stages.findLast((s) => s.argv[0].value === "cat");
    assert.ok(cat?.argv.slice(1).some((w) => w.kind === "dynamic"), c);
  }
});

Deno.test("arrays: a name is followed only where it appears in the assignment and the uses", () => {
  assert.ok(arrayFollowed('a=(x); cat "${a[@]}" ${#a[*]}', "a"));
  // (An element, a slice, an append: what they are is computed where they are walked.)
  assert.ok(arrayFollowed('a=(x); a+=(y); cat "${a[1]}" "${a[-1]}" "${a[@]:1:2}"', "a"));
  assert.deepEqual(stages('a=(x y z); a+=(w); cat "${a[1]}" ${a[-1]} "${a[@]:1:2}" "${a[*]:2}"'), [
    "cat y w y z z w",
  ]);
  assert.ok(arrayFollowed('declare -a a=(x); cat "${a[@]}"', "a"));
  assert.ok(!arrayFollowed('a=(x); cat "${a[@]}"; a=(y)', "a"));
  assert.ok(!arrayFollowed('a=(x); cat "${a[@]}"; echo a', "a"));
  assert.ok(!arrayFollowed('a=(x); r\\ead \\a; cat "${a[@]}"', "a"));
  assert.ok(!arrayFollowed('a=(x); typeset b; cat "${a[@]}"', "a"));
  assert.ok(!arrayFollowed('BASH_ALIASES=(x); cat "${BASH_ALIASES[@]}"', "BASH_ALIASES"));
  // (Filled by a builtin: its one place is not `NAME=(`.)
  assert.ok(arrayFollowed('mapfile -t a <<< x; cat "${a[@]}" "${!a[@]}"', "a", true));
  assert.ok(!arrayFollowed('mapfile -t a <<< x; cat "${a[@]}"', "a"));
  assert.ok(!arrayFollowed('a=(x); cat "${a[@]}"', "a", true));
  assert.ok(!arrayFollowed('mapfile -t a <<< x; read -a a <<< y; cat "${a[@]}"', "a", true));
});

/** The starter config, the deny-list and the gate alone, in a project with pi's settings in it. */
const P = "/home/user/app";
const opts = { agentDir: "/home/user/.pi/agent", home: "/home/user" };
const starter = configFrom(STARTER_CONFIG, opts);
const gate = configFrom(
  { policies: { open: { defaultAction: "allow", rules: [] } }, locations: { "/": "open" } },
  opts,
);
const project = ctxIn(P, {
  files: [
    "src/index.ts",
    "src/lib/util.ts",
    "src/app.tsx",
    "tests/a.test.ts",
    "packages/web/package.json",
    "packages/api/package.json",
    ".pi/settings.json",
  ].map((f) => `${P}/${f}`).concat(["/home/user/.ssh/id_rsa"]),
  env: { PATH: "/usr/bin:/bin" },
});

/** Check rows of [command, starter, deny-list, gate] in the project. */
async function checkRows(rows: [string, Action, Action, Action][]): Promise<void> {
  const wrong: string[] = [];
  for (const [command, s, d, g] of rows) {
    const got = [
      (await bash(starter, project, command)).action,
      (await bash(denyList, project, command)).action,
      (await bash(gate, project, command)).action,
    ];
    if (got.join() !== [s, d, g].join()) {
      wrong.push(`${JSON.stringify(command)}: ${got} want ${s},${d},${g}`);
    }
  }
  assert.deepEqual(wrong, []);
}

Deno.test("arrays: everyday arrays of words are judged by their words (starter, deny-list, gate)", async () => {
  await checkRows([
    ['arr=(src/index.ts src/lib/util.ts); wc -l "${arr[@]}"', "allow", "allow", "allow"],
    [
      'arr=(src/index.ts src/lib/util.ts); for f in "${arr[@]}"; do wc -l "$f"; done',
      "allow",
      "allow",
      "allow",
    ],
    [
      'dirs=(packages/web packages/api); for d in "${dirs[@]}"; do ls "$d"; done',
      "allow",
      "allow",
      "allow",
    ],
    ['args=(--run --reporter=dot); npx vitest "${args[@]}"', "allow", "allow", "allow"],
    ['files=(src/*.ts); wc -l "${files[@]}"', "allow", "allow", "allow"],
    ['files=(src/*.ts); npx prettier --check "${files[@]}"', "allow", "allow", "allow"],
    [
      'declare -a files=(src/index.ts src/lib/util.ts)\nfor f in "${files[@]}"; do wc -l "$f"; done',
      "allow",
      "allow",
      "allow",
    ],
    [
      'shopt -s nullglob\nfiles=(tests/*.test.ts)\n(( ${#files[@]} )) && npx vitest run "${files[@]}"',
      "allow",
      "allow",
      "allow",
    ],
    ["files=(src/index.ts); (( ${#files[@]} ))", "allow", "allow", "allow"],
    ['files=(src/index.ts); echo "${#files[@]}"', "allow", "allow", "allow"], // (as before)
    ["arr=(src/index.ts src/lib/util.ts); wc -l ${arr[@]}", "allow", "allow", "allow"],
    ['arr=(src/index.ts); wc -l "${arr[*]}"', "allow", "allow", "allow"],
    // hostile: as the words they hold
    ['arr=(~/.ssh/id_rsa); cat "${arr[@]}"', "deny", "deny", "allow"],
    ['arr=(~/.ssh/id_rsa); cat "${arr[*]}"', "deny", "deny", "allow"],
    ['arr=(~/.ssh/*); cat "${arr[@]}"', "deny", "deny", "allow"],
    ['arr=(rm -rf src); "${arr[@]}"', "ask", "deny", "allow"],
    ["arr=(rm -rf src); ${arr[@]}", "ask", "deny", "allow"],
    ['arr=(cat); "${arr[@]}" ~/.ssh/id_rsa', "deny", "deny", "allow"],
    ['arr=(.pi/settings.json); cp /tmp/x "${arr[@]}"', "ask", "allow", "ask"],
    // hostile: changed, or read, where the array is not followed
    ['arr=(src/index.ts); arr[i]=.pi/settings.json; cp /tmp/x "${arr[@]}"', "ask", "ask", "ask"],
    // (An element set or unset at a literal index: the words bash then holds.)
    ['arr=(src/index.ts); arr[0]=.pi/settings.json; cp /tmp/x "${arr[@]}"', "ask", "allow", "ask"],
    [
      "arr=(~/.ssh/id_rsa src/index.ts); unset 'arr[0]'; cat \"${arr[@]}\"",
      "allow",
      "allow",
      "allow",
    ],
    ['arr=(a b); arr[5]=src/index.ts; cat "${arr[-1]}" "${arr[@]:2}"', "allow", "allow", "allow"],
    ['arr=(src/index.ts); arr=(.pi/settings.json); cp /tmp/x "${arr[@]}"', "ask", "ask", "ask"],
    ["a=(x); a[$(rm -rf src)]=1", "deny", "deny", "ask"],
    ['arr=(a b); cat "${arr[$(rm -rf src)]}"', "deny", "deny", "ask"],
    // (An append, an index, a slice of words the walk keeps: judged as those words.)
    ['arr=(a b); arr+=(~/.ssh/id_rsa); cat "${arr[@]}"', "deny", "deny", "allow"],
    ['arr=(a); read -a arr < f; cat "${arr[@]}"', "ask", "ask", "ask"],
    ['arr=(a); unset arr; cat "${arr[@]}"', "ask", "ask", "ask"],
    ['declare -A m=([k]=v); cat "${m[@]}"', "ask", "ask", "ask"],
    ['arr=(a ~/.ssh/id_rsa); cat "${arr[1]}"', "deny", "deny", "allow"],
    ['arr=(a ~/.ssh/id_rsa); cat "${arr[-1]}"', "deny", "deny", "allow"],
    ['arr=(a ~/.ssh/id_rsa); cat "${arr[0]}"', "allow", "allow", "allow"],
    ['arr=(a b); cat "${!arr[@]}"', "allow", "allow", "allow"],
    ['arr=(a ~/.ssh/id_rsa); cat "${arr[@]:1}"', "deny", "deny", "allow"],
    ['arr=(a ~/.ssh/id_rsa); if c; then arr+=(b); fi; cat "${arr[@]}"', "ask", "ask", "ask"],
    ['arr=("x\'"); (( ${arr[@]} ))', "deny", "deny", "ask"],
    // (x is known: the nameref names arr, after which nothing is known)
    [
      'x=ar; declare -n r="${x}r"; arr=(a); r+=(~/.ssh/id_rsa); cat "${arr[@]}"',
      "ask",
      "ask",
      "ask",
    ],
    [
      'x=ar; declare -n r="${x}r$1"; arr=(a); r+=(~/.ssh/id_rsa); cat "${arr[@]}"',
      "deny",
      "deny",
      "ask",
    ],
    ['arr=(*); cd ~/.ssh && cat "${arr[@]}"', "ask", "ask", "ask"],
    ['files=(src/*); ln -sf ~/.ssh/id_rsa src/x; cat "${files[@]}"', "deny", "deny", "ask"],
  ]);
});

Deno.test("arrays: hostile arrays under the read-only policy and the deny-list", async () => {
  // [command, read-only, deny-list]: what really runs, however the array hides it (an array
  // changed, or assigned where it may not run, is not known: asked where not denied)
  await checkTable([
    ['a=(~/.ssh/id_rsa); cat "${a[@]}"', "deny", "deny"],
    ['a=(rm -rf src); "${a[@]}"', "deny", "deny"],
    ['a=(src/main.ts); a[0]=~/.ssh/id_rsa; cat "${a[@]}"', "deny", "deny"],
    ['a=(src/main.ts); a[$i]=~/.ssh/id_rsa; cat "${a[@]}"', "ask", "ask"],
    ['a=(src/main.ts ~/.ssh/id_rsa); unset \'a[0]\'; cat "${a[0]}" "${a[@]}"', "deny", "deny"],
    ['a=(src/main.ts); a[3]=~/.ssh/id_rsa; cat "${a[-1]}"', "deny", "deny"],
    ['a=(src/main.ts); a+=(~/.ssh/id_rsa); cat "${a[@]}"', "deny", "deny"],
    ['a=(src/main.ts); read -a a < f; cat "${a[@]}"', "deny", "ask"],
    ['a=(src/main.ts); eval "a=(~/.ssh/id_rsa)"; cat "${a[@]}"', "deny", "deny"],
    ['a=(src/main.ts); trap "a=(~/.ssh/id_rsa)" DEBUG; cat "${a[@]}"', "deny", "ask"],
    ['if true; then a=(~/.ssh/id_rsa); fi; cat "${a[@]}"', "ask", "ask"],
    ["a=(x); a[$(rm -rf src)]=1", "deny", "deny"],
  ]);
});

/** Statements that assign the array A. */
// deno-fmt-ignore
const ASSIGNMENTS = ["A=(a1 'a 2')", "A=(b*)", "A=(z*)", "declare -a A=(c1 c2)", "declare A=(d1)", "A=()",
  "A=(x{1,2} ~/k)", "A=(q\\ r)", "A=(\n  n1\n  n2\n)", "A=($X)", "A=(\"$@\")", "A=(y=~/k)",
  "mapfile -t A <<< $'m1\\nm 2'", "readarray A <<< $'r1\\nr2'", "mapfile -t -s 1 A <<EOF\ns0\ns1\nEOF",
  "read -ra A <<< ' f1  f2 '", "IFS=: read -ra A <<< 'c1:c 2:'", "read -a A <<< ''"];
/** Statements that change A, change what it expands to, or leave it as it is. */
// deno-fmt-ignore
const STATEMENTS = [...ASSIGNMENTS, "A+=(e)", "A[0]=f", "A[1]=g", "unset A", "unset 'A[0]'",
  "read -a A <<< 'h1 h2'", "mapfile -t A <<< m", "A=i", "for A in j; do :; done", "declare -n R=A; R=(nn)",
  "eval 'A=(ev)'", "( A=(sub) )", "{ A=(grp); }", "if true; then A=(br); fi", "f() { A=(fn); }; f",
  "A+=(e2 'e 3')", "if true; then A+=(br2); fi", "( A+=(sub2) )", "A+=(b*)",
  "A=($(echo s1 s2))", "trap 'A=(t)' DEBUG", "set -- p1 p2", "let A[0]=7", "((A[1]=8))", ": ${A:=w}",
  "printf -v A %s pv", "A=([0]=i0 [3]=i3)", "read A <<< r", "cd sub", "shopt -s nullglob", "IFS=/",
  "X=x1", "true", "false", "A=(k) | true", "A=(l) &", "declare -a A", "A=(\"${A[@]}\" m)", "true",
  "false", ": x", "cat /dev/null", "X=x1", "cd sub", "shopt -s nullglob", "set -- p1 'p 2'",
  "A[3]=h3", "A[-1]=n1", "A[1]=~/t", "A[0]=", "unset 'A[-1]'", "unset 'A[2]'", "unset \"A[1]\"",
  "unset -v 'A[5]'", "A[-9]=bad", "A[2]=$X", "A[1]=t2 true", "true && A[0]=c0", "A[0]+=p"];
const OPS = [" && ", " || ", "; ", " | ", "; ", "\n"];
/** The ways a recorder expands A. */
// deno-fmt-ignore
const USES = ['"${A[@]}"', "${A[@]}", '"${A[*]}"', "${A[*]}", '"${A[0]}"', '"${A[1]}"', '"${A[-1]}"',
  "${A[-1]}", '"${A[@]:1}"', '"${A[@]:0:1}"', '"${A[*]:1}"', "${A[@]:1:5}", '"${A[-3]}"',
  '"${!A[@]}"', "${!A[*]}", '"${A[0]}/x"', "y/${A[1]}", '"${A[*]}.z"', '"${A[-1]}${A[0]}"',
  '"${A[2]}"', '"${A[3]}"', '"${A[@]:2}"', '"${A[@]:1:2}"', '"${A[-2]}"'];

/** Lines of an assignment of A, a few statements, and recorders of A among them. */
function arrayLines(random: () => number, count: number, root: string): string[] {
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    let k = 0;
    const rec = () => `printf '<%s>' ${USES[(n + k) % USES.length]} > ${root}/${n}.${k++}`;
    let line = pick(ASSIGNMENTS);
    for (let i = Math.floor(random() * 3); i > 0; i--) {
      line += pick(OPS) + (random() < 0.4 ? rec() : pick(STATEMENTS));
    }
    out.push(line + pick(OPS) + rec());
  }
  return out;
}

Deno.test("arrays: where the analysis knows an array's words, bash expands it to them", async () => {
  const root = Deno.realPathSync(await Deno.makeTempDir());
  await Deno.mkdir(`${root}/sub`);
  for (const f of ["b1", "b 2", "sub/b3"]) await Deno.writeTextFile(`${root}/${f}`, "");
  const lines = arrayLines(seededRandom(fuzzSeed(20261206)), 800, root);
  try {
    await runScripts(root, lines, { HOME: root });
    const env = { cwd: root, home: root, env: { HOME: root } };
    const wrong: string[] = [];
    const tally: Tally = { compared: 0, unread: 0 };
    let known = 0;
    for (const line of lines) {
      for (const [by, a] of analysesOf(line, env, tally)) {
        for (const s of a.stages) {
          const file = s.argv[0]?.value === "printf"
            ? s.redirects.find((r) => r.target?.value.startsWith(`${root}/`))?.target?.value
            : undefined;
          const words = s.argv.slice(2);
          if (file === undefined || !words.every((w) => w.kind === "static")) continue;
          // (A recorder the line never reached, or one in a pipeline another stage cut short.)
          let printed: string;
          try {
            printed = Deno.readTextFileSync(file);
          } catch {
            continue;
          }
          known++;
          const want = words.length ? words.map((w) => `<${w.value}>`).join("") : "<>";
          if (printed !== want) {
            wrong.push(`${by}: ${JSON.stringify(line)} ${file}: ${want}, bash ${printed}`);
          }
        }
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(known > 100, `${known} lists known`);
    assert.ok(tally.unread < tally.compared, `${tally.unread} not fully analysed`);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("arrays: an element's index is arithmetic (a leading 0 is octal), as bash reads it", () => {
  // [command, whether the walk knows what printf is given]: where it does, bash prints it.
  const cases: [string, boolean][] = [
    ["a=(x y z); a[010]=q; printf '<%s>' \"${a[8]}\"", true],
    ['a=(x y z); a[010]=q; printf \'<%s>\' "${a[@]}" "${a[10]}"', true],
    ["a=(x y z); a[00]=q; printf '<%s>' \"${a[@]}\"", true],
    ["a=(x y z); a[-01]=q; printf '<%s>' \"${a[@]}\"", true],
    ["a=(0 1 2 3 4 5 6 7 8 9 10); unset 'a[010]'; printf '<%s>' \"${a[@]}\"", true],
    ["a=(0 1 2 3 4 5 6 7 8 9 10); unset 'a[-010]'; printf '<%s>' \"${a[@]}\"", true],
    ["a=(x y z); a[10]=q; printf '<%s>' \"${a[10]}\"", true],
    // (Not known: an index bash's arithmetic rejects, stops the line; an index in a list.)
    ["a=(x y z); a[08]=q; printf '<%s>' \"${a[@]}\"", false],
    ["a=(x y z); unset 'a[09]'; printf '<%s>' \"${a[@]}\"", false],
    ["a=([010]=q); printf '<%s>' \"${a[8]}\"", false],
    ["declare -a a=([010]=q); printf '<%s>' \"${a[8]}\"", false],
  ];
  const wrong: string[] = [];
  for (const [c, known] of cases) {
    const out = new Deno.Command("bash", { args: ["-c", c], env: { PATH: "/usr/bin:/bin" } })
      .outputSync();
    const printed = new TextDecoder().decode(out.stdout);
    const a = analyzeBash(c, env, parser);
    const words = a.stages.find((s) => s.argv[0]?.value === "printf")?.argv.slice(2) ?? [];
    const walk = words.length && words.every((w) => w.kind === "static")
      ? words.map((w) => `<${w.value}>`).join("")
      : null;
    if ((walk !== null) !== known) wrong.push(`${c}: the walk gives ${walk}`);
    else if (walk !== null && walk !== printed) wrong.push(`${c}: ${walk}, bash ${printed}`);
  }
  assert.deepEqual(wrong, []);
});

Deno.test("arrays: an octal index names the element bash sets or unsets (read-only, deny-list)", async () => {
  await checkTable([
    ['a=(x y z); a[010]=~/.ssh/id_rsa; cat "${a[8]}"', "deny", "deny"],
    ['a=(0 1 2 3 4 5 6 7 8 9 ~/.ssh/id_rsa); unset "a[010]"; cat "${a[@]}"', "deny", "deny"],
    ['a=(x y z); a[010]=README.md; cat "${a[8]}"', "allow", "allow"],
  ]);
});
