import assert from "node:assert/strict";
import type { Action } from "../types.ts";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  awkEffects,
  awkProgram,
  printsOnly,
  type ScriptEffects,
  scriptStrings,
  sedEffects,
} from "./scripts.ts";

/** The effects in a short form: `run cmd`, `run? ` (computed), `piped cmd`, `write f`, `read f`. */
function shown(e: ScriptEffects): string[] {
  if (e.opaque) return [`opaque`];
  return [
    ...e.commands.map((c) => `${c.piped ? "piped" : "run"} ${c.text ?? "?"}`),
    ...e.writes.map((f) => `write ${f ?? "?"}`),
    ...e.reads.map((f) => `read ${f ?? "?"}`),
  ];
}

const awk = (program: string) => shown(awkProgram(program));

Deno.test("awk: system(), pipes and getline commands are the commands it runs", () => {
  assert.deepEqual(awk(`BEGIN{system("rm -rf x")}`), ["run rm -rf x"]);
  assert.deepEqual(awk(`BEGIN { system ( "ls" ) }`), ["run ls"]);
  assert.deepEqual(awk(`BEGIN{system("ls " d)}`), ["run ?"]);
  assert.deepEqual(awk(`BEGIN{c = "ls"; system(c)}`), ["run ?"]);
  assert.deepEqual(awk(`{print | "sort -u"}`), ["piped sort -u"]);
  assert.deepEqual(awk(`{print $1 | "sort " opts}`), ["piped ?"]);
  assert.deepEqual(awk(`{print |& "bc"}`), ["piped bc"]);
  assert.deepEqual(awk(`BEGIN{"date" | getline d}`), ["run date"]);
  assert.deepEqual(awk(`BEGIN{while (("ls" | getline f) > 0) n++}`), ["run ls"]);
  assert.deepEqual(awk(`BEGIN{"ls " dir | getline f}`), ["run ?"]);
  assert.deepEqual(awk(`BEGIN{"a" "b" | getline f}`), ["run ?"]);
});

Deno.test("awk: print redirects write files; getline < reads them; streams are not files", () => {
  assert.deepEqual(awk(`{print > "out.txt"}`), ["write out.txt"]);
  assert.deepEqual(awk(`{print $1, $2 >> "/tmp/log"}`), ["write /tmp/log"]);
  assert.deepEqual(awk(`{printf("%s\\n", $1) > "o"}`), ["write o"]);
  assert.deepEqual(awk(`{print > $1 ".txt"}`), ["write ?"]);
  assert.deepEqual(awk(`{print > "out/" $2}`), ["write ?"]);
  assert.deepEqual(awk(`{print > "/dev/stderr"}`), []);
  assert.deepEqual(awk(`{print "a\\"b" > "q\\"x"}`), [`write q"x`]);
  assert.deepEqual(awk(`BEGIN{getline line < "/etc/passwd"}`), ["read /etc/passwd"]);
  assert.deepEqual(awk(`BEGIN{getline < "f"}`), ["read f"]);
  assert.deepEqual(awk(`BEGIN{while ((getline l < file) > 0) n++}`), ["read ?"]);
  assert.deepEqual(awk(`BEGIN{getline l < "-"}`), []);
});

Deno.test("gawk: /inet names are network connections (read, written, a coprocess), no command", () => {
  assert.deepEqual(awk(`BEGIN{getline l < "/inet/tcp/0/example.com/80"}`), [
    "read /inet/tcp/0/example.com/80",
  ]);
  assert.deepEqual(awk(`BEGIN{print "x" > "/inet4/udp/0/h/53"}`), ["write /inet4/udp/0/h/53"]);
  assert.deepEqual(
    awk(
      `BEGIN{s = "/inet6/tcp/0/h/80"; print "GET /" |& "/inet6/tcp/0/h/80"; ` +
        `while (("/inet6/tcp/0/h/80" |& getline l) > 0) print l}`,
    ),
    ["write /inet6/tcp/0/h/80", "read /inet6/tcp/0/h/80"],
  );
  // (A coprocess that is no /inet name is a command; `|` is always one.)
  assert.deepEqual(awk(`BEGIN{"/inet/x" | getline l; print |& "/inetx"}`), [
    "run /inet/x",
    "piped /inetx",
  ]);
  // None is read-only.
  for (
    const p of [`BEGIN{getline l < "/inet/tcp/0/h/80"; print l}`, `{print > "/inet/udp/0/h/9"}`]
  ) {
    assert.ok(!printsOnly("awk", [p]), p);
  }
});

Deno.test("awk: comparisons, regexes, strings and comments are not redirects or pipes", () => {
  assert.deepEqual(awk(`$3 > 100 {print $1}`), []);
  assert.deepEqual(awk(`{if ($1 > 5) print $2}`), []);
  assert.deepEqual(awk(`{print ($1 > 5)}`), []);
  assert.deepEqual(awk(`{print $1 >= 2}`), []);
  assert.deepEqual(awk(`/a|b/ {print}`), []);
  assert.deepEqual(awk(`/x > y/ {print}`), []);
  assert.deepEqual(awk(`$0 ~ /[/|]/ {n++}`), []);
  assert.deepEqual(awk(`{print "a | b > c"}`), []);
  assert.deepEqual(awk(`{print} # | "sh" > "x"`), []);
  assert.deepEqual(awk(`{x = $1 / 2; y = $2 / 3; print x}`), []);
  assert.deepEqual(awk(`{a || b; print $1 " system"}`), []);
  // A print's redirect ends with its statement: the next `>` compares.
  assert.deepEqual(awk(`{print > "f"; if (a > b) n++}`), ["write f"]);
});

Deno.test("awk: what this reader cannot see is opaque", () => {
  assert.deepEqual(awk(`{print "unclosed}`), ["opaque"]);
  assert.deepEqual(awk(`/unclosed {print}`), ["opaque"]);
  assert.deepEqual(awk(`@include "lib.awk"`), ["opaque"]);
  assert.deepEqual(awk(`BEGIN{f = "system"; @f("ls")}`), ["opaque"]);
  // The files awk reads are ARGV's: a program that changes it reads files not seen.
  assert.deepEqual(awk(`BEGIN{ARGV[1]=".env";ARGC=2}1`), ["opaque"]);
  assert.deepEqual(awk(`BEGIN{ARGV[ARGC++]="k"}1`), ["opaque"]);
  assert.deepEqual(awk(`BEGIN{n=split(".env",ARGV)}1`), ["opaque"]);
  assert.deepEqual(awk(`BEGIN{delete ARGV[1]}1`), ["opaque"]);
  assert.deepEqual(shown(awkEffects(["-v", "ARGV[1]=.env", "1"])), ["opaque"]);
  assert.deepEqual(awk(`BEGIN { for (i = 1; i < ARGC; i++) print ARGV[i] }`), []);
  assert.deepEqual(awk(`NR==1 && ARGV[1]=="x"{print}`), []);
});

Deno.test("awk: the program comes from the first operand or -e/--source; files make it opaque", () => {
  assert.deepEqual(shown(awkEffects([`{print > "o"}`, "in.txt"])), ["write o"]);
  assert.deepEqual(shown(awkEffects(["-F:", "-v", "x=1", `{print > "o"}`])), ["write o"]);
  assert.deepEqual(shown(awkEffects(["-e", `BEGIN{system("ls")}`, "f"])), ["run ls"]);
  assert.deepEqual(shown(awkEffects([`--source=BEGIN{system("ls")}`])), ["run ls"]);
  assert.deepEqual(shown(awkEffects(["--", `{print | "sh"}`])), ["piped sh"]);
  assert.deepEqual(shown(awkEffects(["-f", "prog.awk", "f"])), ["opaque"]);
  assert.deepEqual(shown(awkEffects(["-fprog.awk"])), ["opaque"]);
  assert.deepEqual(shown(awkEffects(["-i", "lib"])), ["opaque"]);
  assert.deepEqual(shown(awkEffects(["-l", "ext"])), ["opaque"]);
  assert.deepEqual(shown(awkEffects(["-d/tmp/vars", "{print}"])), ["opaque"]);
  assert.deepEqual(shown(awkEffects([null, "f"])), ["opaque"]);
  assert.deepEqual(shown(awkEffects(["-F", ":", null])), ["opaque"]);
  assert.deepEqual(shown(awkEffects([])), []);
});

const sed = (...args: (string | null)[]) => shown(sedEffects(args));

Deno.test("sed: w, W, s///w write; r, R read; e and s///e run", () => {
  assert.deepEqual(sed("w out", "f"), ["write out"]);
  assert.deepEqual(sed("-n", "/x/W /tmp/o", "f"), ["write /tmp/o"]);
  assert.deepEqual(sed("s/a/b/gw changed.txt", "f"), ["write changed.txt"]);
  assert.deepEqual(sed("1r /etc/hosts", "f"), ["read /etc/hosts"]);
  assert.deepEqual(sed("$R other", "f"), ["read other"]);
  assert.deepEqual(sed("1e date", "f"), ["run date"]);
  assert.deepEqual(sed("e", "f"), ["run ?"]);
  assert.deepEqual(sed("s/.*/ls/e", "f"), ["run ?"]);
  // A file name runs to the end of the line, `;` and all.
  assert.deepEqual(sed("w a; p", "f"), ["write a; p"]);
  assert.deepEqual(sed("/x/{w a\np\n}", "f"), ["write a"]);
  assert.deepEqual(sed("w /dev/stdout", "f"), []);
  // A label ends at a blank: what follows is a command (GNU sed runs `:a e rm x`'s rm).
  assert.deepEqual(sed(":a e rm -rf .pi", "f"), ["run rm -rf .pi"]);
  assert.deepEqual(sed(":x r .env", "f"), ["read .env"]);
  assert.deepEqual(sed("-n", "b end ; w out", "f"), ["write out"]);
  assert.deepEqual(sed("t  x w out", "f"), ["write out"]);
});

Deno.test("sed: addresses, s and y parts, text and labels hide no commands", () => {
  assert.deepEqual(sed("/^w /d", "f"), []);
  assert.deepEqual(sed("\\,w x,d", "f"), []);
  assert.deepEqual(sed("s/w/e/g", "f"), []);
  assert.deepEqual(sed("s|/usr/local|/opt|g", "f"), []);
  assert.deepEqual(sed("s/a\\/w/b/", "f"), []);
  assert.deepEqual(sed("y/abc/xyz/", "f"), []);
  assert.deepEqual(sed("1a write this down", "f"), []);
  assert.deepEqual(sed("/x/i\\\nread me\\\nand this", "f"), []);
  assert.deepEqual(sed(":a;N;$!ba;s/\\n/ /g", "f"), []);
  assert.deepEqual(sed(":a s/x/y/;ta", "f"), []);
  assert.deepEqual(sed("/start/,/end/!d", "f"), []);
  assert.deepEqual(sed("0~3 p", "f"), []);
  assert.deepEqual(sed("5q", "f"), []);
  assert.deepEqual(sed("# w comment\np", "f"), []);
  assert.deepEqual(sed("1!G;h;$!d", "f"), []);
});

Deno.test("sed: the script comes from -e/--expression or the first operand; others are opaque", () => {
  assert.deepEqual(sed("-n", "-e", "p", "-e", "w o", "f"), ["write o"]);
  assert.deepEqual(sed("-ne", "w o", "f"), ["write o"]);
  assert.deepEqual(sed("--expression=1r x", "f"), ["read x"]);
  assert.deepEqual(sed("-i", "w o", "f"), ["write o"]);
  assert.deepEqual(sed("-i.bak", "w o", "f"), ["write o"]);
  // BSD's `-i ''` and `-i .bak`: the next word is the script.
  assert.deepEqual(sed("-i", "", "w o", "f"), ["write o"]);
  assert.deepEqual(sed("-i", ".bak", "w o", "f"), ["write o"]);
  // GNU takes options after operands: the script is the -e one (and the first word a file);
  // BSD stops at the first operand (the script then). Both count.
  assert.deepEqual(sed("s/a/b/w o1", "-e", "w o2", "f"), ["write o1", "write o2"]);
  assert.deepEqual(sed("p", "f", "-n", "--expression=w o"), ["write o"]);
  assert.deepEqual(sed("--", "w o", "-e", "p"), ["write o"]);
  assert.deepEqual(sed("-f", "script.sed", "f"), ["opaque"]);
  assert.deepEqual(sed("p", "f", "-f", "script.sed"), ["opaque"]);
  assert.deepEqual(sed("-nf", "script.sed", "f"), ["opaque"]);
  assert.deepEqual(sed("--file=script.sed", "f"), ["opaque"]);
  assert.deepEqual(sed("-X", "p"), ["opaque"]);
  assert.deepEqual(sed(null, "f"), ["opaque"]);
  assert.deepEqual(sed("s/a/b", "f"), ["opaque"]);
  assert.deepEqual(sed("k", "f"), ["opaque"]);
});

Deno.test("scriptStrings: the program and option values are code or data, the rest may be files", () => {
  assert.deepEqual(scriptStrings("awk", ["/^#/ {print}", "/etc/passwd"]), [0]);
  assert.deepEqual(scriptStrings("awk", ["-F", "/", "-v", "d=/usr", "{print}", "f"]), [
    0,
    1,
    2,
    3,
    4,
  ]);
  assert.deepEqual(scriptStrings("gawk", ["-e", "/x/", "/etc/f"]), [0, 1]);
  assert.deepEqual(scriptStrings("awk", ["-f", "/tmp/p.awk", "f"]), []);
  assert.deepEqual(scriptStrings("sed", ["-e", "/a/d", "/etc/x"]), [0, 1]);
  assert.deepEqual(scriptStrings("sed", ["-n", "/^#/p", "/etc/x"]), [1]);
  assert.deepEqual(scriptStrings("sed", ["--expression=/a/d", "/etc/x"]), [0]);
  // BSD's suffix and script may be GNU's script and file: both stay possible files.
  assert.deepEqual(scriptStrings("sed", ["-i", "", "/a/d", "/etc/x"]), []);
  // A script before a later -e is a file to GNU.
  // (and to BSD, the -e and its value are files).
  assert.deepEqual(scriptStrings("sed", ["/a/d", "-e", "/p/", "/etc/x"]), [1]);
  assert.deepEqual(scriptStrings("grep", ["x", "f"]), []);
});

/** A seeded generator (the fuzz cases are the same on every run). */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** Whether a program runs here (the differential tests need the real tools). */
function runs(cmd: string, args: string[]): boolean {
  try {
    return spawnSync(cmd, args, { input: "" }).status === 0;
  } catch {
    return false;
  }
}

/** Scripts built from pieces, each run in an empty directory: the files it created, or null. */
function created(cmd: string, args: string[]): string[] | null {
  const dir = mkdtempSync(join(tmpdir(), "pi-controls-scripts-"));
  try {
    const r = spawnSync(cmd, args, { cwd: dir, input: "" });
    return r.status === 0 ? readdirSync(dir) : null;
  } finally {
    rmSync(dir, { recursive: true });
  }
}

/**
 * Programs joined from pieces (seeded), each run by the real tool in an empty directory: every
 * file it creates must be one the reader finds it writes (or that a command it runs names), and
 * every static file the reader finds must be created. Refused programs are skipped.
 */
function differential(opts: {
  pieces: string[];
  seed: number;
  join: (parts: string[], newline: boolean) => string;
  run: (program: string) => string[] | null;
  effects: (program: string) => ScriptEffects;
}): void {
  const random = seeded(opts.seed);
  const wrong: string[] = [];
  let wrote = 0;
  for (let n = 0; n < 300; n++) {
    const parts = Array.from(
      { length: 1 + Math.floor(random() * 3) },
      () => opts.pieces[Math.floor(random() * opts.pieces.length)],
    );
    const program = opts.join(parts, random() < 0.5);
    const files = opts.run(program);
    if (files === null) continue; // refused by the tool
    if (files.length) wrote++;
    const e = opts.effects(program);
    const shown = JSON.stringify(program);
    if (e.opaque) {
      wrong.push(`opaque, but it runs: ${shown}`);
      continue;
    }
    for (const f of files) {
      const found = e.writes.includes(f) || e.commands.some((c) => c.text?.includes(f));
      if (!found) wrong.push(`missed ${f}: ${shown}`);
    }
    for (const f of e.writes) {
      if (f !== null && !files.includes(f)) wrong.push(`no write of ${f}: ${shown}`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(wrote > 50, `only ${wrote} programs wrote a file`);
}

const GNU_SED = runs("sed", ["--version"]) &&
  spawnSync("sed", ["--version"]).stdout.toString().includes("GNU");

Deno.test({
  name: "sed (differential, against GNU sed): every file a script writes is found",
  ignore: !GNU_SED,
  fn() {
    const pieces = [
      "p",
      "d",
      "w out1",
      "s/a/b/w out2",
      "s/[/]/x/w out3",
      "s/a[/]b/c/",
      "/[/]w/d",
      "s|a|b|",
      "y/ab/cd/",
      "1a w nope1",
      "\\,w,p",
      "/w out4/d",
      "s/x/w/",
      "s/[\\]/x/w out5",
      "s/[]/]/x/w out6",
      "s/[[:alpha:]/]/x/w out7",
      "{w out8\n}",
      "$!N",
      ":a",
      "ba",
      "# w nope2",
      "s/a\\/w/b/",
      "/a/,/b/w out9",
      "s/a/b/gw out10",
      "i\\\nw nope3",
      "/[^/]/w out12",
      "s/[a-z]/[/",
      "0~2w out13",
      "s/a/b/ ; w out14",
      "s[a[b[w out15",
      "\\%a[%]%w out16",
      "s/a/b/Iw out17",
      "p # w nope4",
      "y/[/]/",
      "s/a/b/3w out18",
      "l 5",
      "q5",
      "a foo; w nope5",
      "c\\\nfoo\\\nw nope6",
      "/x/I,+3w out20",
      "s/x/[/]/",
      "s/[[.].]]/x/w out21",
      "N;N;D",
      "=",
      "x;G;h",
      ":lbl;w out23",
      "z",
      "F",
    ];
    differential({
      pieces,
      seed: 7,
      join: (parts, newline) => parts.join(newline ? "\n" : ";"),
      run: (script) => created("sed", ["-n", script]),
      effects: (script) => sedEffects(["-n", script]),
    });
  },
});

const AWK = ["mawk", "gawk", "awk"].find((a) => runs(a, ["BEGIN{}"]));

Deno.test({
  name: "awk (differential, against the awk installed): every file a program writes is found",
  ignore: AWK === undefined,
  fn() {
    const pieces = [
      'print > "w1"',
      'print "a" >> "w2"',
      'printf("%s", "x") > "w3"',
      'if (1 > 0) print "x" > "w4"',
      "x = 1 > 0",
      "print (1 > 0)",
      'print "a > \\"n1\\""',
      'system("touch c1")',
      'system ( "touch c2" )',
      'print "x" | "cat > c3"',
      '"touch c4" | getline v',
      'while (("touch c5" | getline l) > 0) n++',
      "n = 4 / 2",
      "m = n / 2 / 1",
      "if ($0 ~ /a|b>c/) n++",
      '# print > "n2"',
      'print 1, 2 > "w5"',
      's = "x" "y"',
      'close("w1")',
      'a[1] = 2; print a[1] > "w6"',
      'getline z < "r1"',
      'print > "/dev/stderr"',
      'print "x" | "sort"',
      "if (n > 1 && m < 2) n++",
      'printf "%d\\n", 3 > "w7"',
      'print n++ > "w8"',
      'k = (n > 1) ? "a" : "b"',
      'print $1 >"w9"',
      'y = "touch n3"',
      'print "a" "b" > "w10"',
      "n = 10 % 3 / 2",
      'n = n /2; system("touch c6"); m = 1/ 2',
      'print /a/ > "w11"',
      'n = (4) / 2; system("touch c8") ; k = 2 / 1',
      "getline; n = NR / 2",
    ];
    differential({
      pieces,
      seed: 11,
      join: (parts, newline) => `BEGIN { ${parts.join(newline ? "\n" : "; ")} }`,
      run: (program) => created(AWK!, [program]),
      effects: awkProgram,
    });
  },
});

Deno.test("printsOnly: sed and awk that run nothing, write nothing and edit nothing in place", () => {
  assert.ok(printsOnly("sed", ["-n", "348,450p", "f"]));
  assert.ok(printsOnly("sed", ["-n", "-e", "1p", "-e", "r other", "f"])); // reading is fine
  assert.ok(printsOnly("awk", ["-F:", "{print $1}", "f"]));
  assert.ok(!printsOnly("sed", ["-n", "-i", "p", "f"]));
  assert.ok(!printsOnly("sed", ["-ni.bak", "p", "f"]));
  assert.ok(!printsOnly("sed", ["--in-place", "-n", "p", "f"]));
  assert.ok(!printsOnly("sed", ["-n", "p", "f", "-i"])); // GNU reads options after operands
  assert.ok(!printsOnly("sed", ["-n", "1w out", "f"]));
  assert.ok(!printsOnly("sed", ["-n", "s/a/b/e", "f"]));
  assert.ok(!printsOnly("sed", ["-n", "p", null])); // a word that may be `-i`
  assert.ok(!printsOnly("awk", ['{print > "o"}', "f"]));
  assert.ok(!printsOnly("awk", ['{print | "sh"}', "f"]));
  assert.equal(sedEffects(["-n", "-i", "p", "f"]).inPlace, true);
  assert.equal(sedEffects(["-n", "--", "p", "-i"]).inPlace, false); // after --, `-i` is a file
});

Deno.test("gawk's network connections are asked about, as bash's /dev/tcp is; never a read", async () => {
  const { checkActions, configFrom, ctxIn } = await import("../testing.ts");
  const open = configFrom({
    policies: { open: { defaultAction: "allow", rules: [] } },
    locations: { "/": "open" },
  });
  const ro = configFrom({
    policies: {
      ro: { defaultAction: "deny", rules: ["$safe-bash", { action: "allow", tool: "read" }] },
    },
    locations: { "/": "ro" },
  });
  const ctx = ctxIn("/p", { files: ["/p/README.md"] });
  const cases: [string, Action, Action][] = [
    [`awk 'BEGIN{getline l < "/inet/tcp/0/example.com/80"; print l}'`, "ask", "deny"],
    [
      `gawk 'BEGIN{print "GET /" |& "/inet/tcp/0/h/80"; "/inet/tcp/0/h/80" |& getline}'`,
      "ask",
      "deny",
    ],
    [`awk '{print > "/inet4/udp/0/h/53"}' README.md`, "ask", "deny"],
    [`awk 'BEGIN{getline l < "README.md"; print l}'`, "allow", "allow"],
  ];
  await checkActions(open, ctx, cases.map(([c, a]) => [c, a]));
  await checkActions(ro, ctx, cases.map(([c, , r]) => [c, r]));
});
