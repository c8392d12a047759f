/**
 * The files compiler drivers name: their own options' values and those of the lists they pass to
 * the linker, assembler and preprocessor (`-Wl,…`, `-Wa,…`, `-Wp,…`, `-Xlinker`), read by each
 * tool's grammar; and the everyday compiles that name none of the protected files.
 */
import assert from "node:assert/strict";
import { COMPILER_PROGRAMS, driverFiles, responseWords } from "./compilers.ts";
import { checkActions, ctxIn, rmDenied } from "../testing.ts";
import { literal } from "./words.ts";
import type { Word } from "../shell/model.ts";

const paths = (cmd: string, read?: (p: string) => string | null) =>
  driverFiles(cmd.split(" ").map(literal), undefined, { read }).map((f) => f.path);
/** The files ld's words name. */
const driverFilesOf = (cmd: string, read: (p: string) => string | null) =>
  COMPILER_PROGRAMS.find((p) => p.names.includes("ld"))!
    .namedFiles!(cmd.split(" ").map(literal), undefined, { read }).map((f) => f.path);
/** Linker scripts that name no files. */
const ld = () => "SECTIONS { .text : { *(.text) } }";

Deno.test("driverFiles: pass-through lists are read by the linker's, assembler's and cpp's grammars", () => {
  assert.deepEqual(paths("gcc x.c -Wl,-o,out/a"), ["out/a"]);
  assert.deepEqual(paths("gcc x.c -Wl,-Map=m.map,--output=o,-T,s.ld", ld), ["m.map", "o", "s.ld"]);
  assert.deepEqual(paths("gcc x.c -Wl,-o -Wl,out/a"), ["out/a"]);
  assert.deepEqual(paths("gcc x.c -Xlinker -o -Xlinker out/a"), ["out/a"]);
  assert.deepEqual(paths("clang x.c --for-linker=--version-script=v.map"), ["v.map"]);
  assert.deepEqual(paths("gcc -c x.c -Wa,-adhln=l.lst,-I,inc"), ["l.lst", "inc"]);
  assert.deepEqual(paths("gcc -c x.c -Wp,-MD,d.d"), ["d.d"]);
  assert.deepEqual(paths("gcc -c x.c -Xpreprocessor -MF -Xpreprocessor d.d"), ["d.d"]);
  assert.deepEqual(paths("clang -c x.c -Xclang -load -Xclang p.so"), ["p.so"]);
  // An operand of the linker is an input file; text values are none (`-rpath`, `-soname`, `-z`).
  assert.deepEqual(paths("gcc x.c -Wl,lib.a,-rpath,/opt/l,-soname,l.so.1,-z,relro,-lm"), ["lib.a"]);
  // (`--build-id` takes its value after `=` only: the next word is an input file.)
  // (An input file not known that has no object's name may be a linker script: files not known.)
  assert.deepEqual(paths("gcc x.c -Wl,--build-id,k"), ["k", null]);
  assert.deepEqual(paths("gcc x.c -Wl,--build-id=sha1,-Ttext=0x0,-Tl.ld", ld), ["l.ld"]);
  // `~` is not expanded inside a word: ld opens `./~/…`.
  assert.deepEqual(paths("gcc x.c -Wl,-o,~/k"), ["./~/k"]);
});

Deno.test("driverFiles: ld's long options abbreviated, with one dash or two, name their files", () => {
  assert.deepEqual(paths("gcc k.s -Wl,--oformat=binary,--outp=o"), ["o"]);
  assert.deepEqual(paths("gcc x.c -Wl,-Ma=m,--depend=d,--scr=s,--retain=r", ld), [
    "m",
    "d",
    "s",
    "r",
  ]);
  // (An abbreviation of several options names the file any of them would: `versi`.)
  assert.deepEqual(paths("gcc x.c -Wl,--versi=v,--dyn=l"), ["v", "l"]);
  assert.deepEqual(paths("gcc x.c -Wl,--scr,s", ld), ["s", "s"]);
  // With one dash also read as letters: ld writes `-outp=F` to `utp=F`.
  assert.deepEqual(paths("gcc x.c -Wl,-outp=o"), ["o", "utp=o"]);
  const read = (p: string) => (p === "l.rsp" ? "--outp=o -Ma m" : null);
  assert.deepEqual(paths("gcc x.c -Wl,@l.rsp", read), ["l.rsp", "o", "m", "m", null]);
  // Everyday flags begin no valued option; text values name nothing.
  assert.deepEqual(paths("gcc x.c -Wl,--as-needed,--gc-sections,-O1,--hash-style=gnu"), []);
  assert.deepEqual(paths("gcc x.c -Wl,--build-id=sha1,--wrap=malloc,--defs=x=1"), []);
});

Deno.test("driverFiles: a linker script's files: -T F, --script, -dT, -c F (MRI), an input", () => {
  const scripts: Record<string, string> = {
    "s.ld": 'OUTPUT(/home/u/.ssh/authorized_keys) /* INPUT(no) */ INPUT(a.o "b c.o" -lm)\n' +
      "GROUP(libx.a AS_NEEDED(liby.so =/usr/lib/z.a)) SEARCH_DIR(libs) STARTUP(crt.o)\n" +
      "OUTPUT_FORMAT(elf64-x86-64) INCLUDE inc.ld",
    "inc.ld": "OUTPUT(secrets/key)",
    "m.mri": "* an MRI script\nNAME out/x.a\nload a.o, b.o\nEND",
    "plain.ld": "ENTRY(_start) SECTIONS { .text : { *(.text) } }",
  };
  const read = (p: string) => scripts[p] ?? null;
  const all = [
    "/home/u/.ssh/authorized_keys",
    "a.o",
    "b c.o",
    "libx.a",
    "liby.so",
    "libs",
    "crt.o",
    "inc.ld",
    "secrets/key",
  ];
  for (
    const cmd of [
      "ld -T s.ld x.o",
      "ld -Ts.ld x.o",
      "ld --script=s.ld x.o",
      "ld --script s.ld x.o",
      "ld -dT s.ld x.o",
      "ld --default-script=s.ld x.o",
      "ld --scr=s.ld x.o",
    ]
  ) {
    const got = driverFilesOf(cmd, read).filter((p) => p !== "x.o" && p !== "s.ld");
    assert.deepEqual(got, all, cmd);
  }
  assert.deepEqual(paths("gcc -T s.ld x.c", read).slice(1), all);
  assert.deepEqual(paths("gcc x.c -Wl,-T,s.ld", read).slice(1), all);
  assert.deepEqual(paths("gcc x.c -Wl,--script=s.ld", read).slice(1), all);
  // An input of a format the linker does not know is read as a script.
  assert.deepEqual(paths("gcc x.c s.ld", read), [...all]);
  assert.deepEqual(driverFilesOf("ld -c m.mri", read), ["m.mri", "out/x.a", "a.o", "b.o"]);
  assert.deepEqual(driverFilesOf("ld -T plain.ld -o build/k x.o", read), [
    "plain.ld",
    "build/k",
    "x.o",
  ]);
  // Not known (another stage writes it first): files not known.
  assert.deepEqual(paths("gcc -T gen.ld x.c", read), ["gen.ld", null]);
  assert.deepEqual(driverFilesOf("ld gen x.o", read), ["gen", null, "x.o"]);
  assert.deepEqual(driverFilesOf("ld gen.o lib.a x.so.1", read), ["gen.o", "lib.a", "x.so.1"]);
  assert.deepEqual(paths("gcc -o build/x src/a.c src/b.cc src/c.S x.o", read), ["build/x"]);
});

Deno.test("driverFiles: lld's own files, gcc 15's diagnostics outputs, clang's <CFGDIR>", () => {
  assert.deepEqual(
    paths(
      "clang x.c -Wl,--print-symbol-order=a,--opt-remarks-filename,b," +
        "--lto-cs-profile-file=c,--thinlto-index-only=d,-plugin-opt=obj-path=e," +
        "--plugin-opt=dwo_dir=f,--load-pass-plugin=g.so",
    ),
    ["a", "b", "c", "d", "e", "f", "g.so"],
  );
  // (Alone, `--thinlto-index-only` and `--time-trace` take no value: the next word is read.)
  assert.deepEqual(paths("clang x.c -Wl,--time-trace,-Map=m,--thinlto-index-only,-o,o"), [
    "m",
    "o",
  ]);
  assert.deepEqual(paths("clang x.c -Wl,-plugin-opt=O2,-plugin-opt=mcpu=x"), []);
  assert.deepEqual(
    paths(
      "gcc -c x.c -fdiagnostics-add-output=sarif:file=a.sarif -fdiagnostics-set-output=" +
        "sarif:version=2.1,file=b.sarif -fdiagnostics-add-output=text",
    ),
    ["a.sarif", "b.sarif"],
  );
  const read = (p: string) => (p === "cfg/c.cfg" ? "-include <CFGDIR>/h.h" : null);
  assert.deepEqual(paths("clang --config=cfg/c.cfg x.c", read), ["cfg/c.cfg", "cfg/h.h"]);
});

Deno.test("driverFiles: a glob in a pass-through list leaves the list as written", () => {
  const glob = (value: string): Word => ({
    value,
    kind: "glob",
    prefix: value.slice(0, value.search(/[?*[]/)),
    text: value,
  });
  const files = (argv: Word[], words?: (w: Word) => string[] | null) =>
    driverFiles(argv, undefined, { globs: words && { words, dotglob: false } })
      .map((f) => f.path);
  const gcc = ["gcc", "x.c"].map(literal);
  // (No match: bash passes the word as written.)
  assert.deepEqual(files([...gcc, glob("-Wl,-o,/k,-z,a?")], () => ["-Wl,-o,/k,-z,a?"]), ["/k"]);
  assert.deepEqual(files([...gcc, glob("-Wp,-MD,.env,-D,X?")], () => ["-Wp,-MD,.env,-D,X?"]), [
    ".env",
  ]);
  // Matches not known: the word as written, and files not known.
  assert.deepEqual(files([...gcc, glob("-Wl,-o,/k,-z,a?")]), [null, "/k"]);
  assert.deepEqual(files([...gcc, glob("-Wl,-o,x*")], () => ["-Wl,-o,x1", "-Wl,-o,x2"]), [
    "x1",
    "x2",
  ]);
});

Deno.test("driverFiles: a value joined to a preprocessor option of more letters", () => {
  assert.deepEqual(paths("gcc -E -iquotesecrets -include key x.c"), ["secrets", "key"]);
  assert.deepEqual(
    paths("gcc -isystemA -idirafterB -iprefixC -iwithprefixD -iwithprefixbeforeE -imultilibF x.c"),
    ["A", "B", "C", "D", "E", "F"],
  );
  assert.deepEqual(paths("gcc -isysrootR -imacrosM -includeI -MFd.d -c x.c"), [
    "R",
    "M",
    "I",
    "d.d",
  ]);
  assert.deepEqual(paths("gcc -c x.c -Wp,-iquoteQ,-MFd.d,-MDe.d"), ["Q", "d.d", "e.d"]);
});

Deno.test("driverFiles: the driver's own options and the files beside its output", () => {
  assert.deepEqual(paths("gcc -O2 -Wall -o build/x x.c -lm -DX=1 -std=c99 -march=native"), [
    "build/x",
  ]);
  assert.deepEqual(paths("gcc -c x.c -MD -o build/x.o"), ["build/x.o", "build/x.d"]);
  assert.deepEqual(paths("gcc -c x.c -MMD -obuild/x.o"), ["build/x.o", "build/x.d"]);
  assert.deepEqual(paths("gcc -include h.h -imacros m.h -specs=s.specs x.c"), [
    "h.h",
    "m.h",
    "s.specs",
  ]);
  assert.deepEqual(paths("gcc -fprofile-use=p.gcda -fmodule-file=m=m.pcm -fplugin=./p.so x.c"), [
    "p.gcda",
    "m.pcm",
    "./p.so",
  ]);
  assert.deepEqual(
    driverFiles(["gcc", "-save-temps=obj", "-c", "x.c", "-o", "o/x.o"].map(literal))
      .map((f) => [f.path, f.pattern === true]),
    [["o/x.o", false], ["o/x[.-]*", true]],
  );
  assert.deepEqual(
    driverFiles(["gcc", "-fprofile-generate=prof", "x.c"].map(literal)).map((f) => f.below),
    [true],
  );
});

Deno.test("driverFiles: response and configuration files are read for the options they hold", () => {
  const read = (p: string) =>
    p === "args.rsp" ? "-Wl,-o,'out/a b' @more" : p === "more" ? "-MF d" : null;
  assert.deepEqual(paths("gcc @args.rsp x.c", read), ["args.rsp", "more", "d", "out/a b"]);
  assert.deepEqual(paths("clang --config c.cfg x.c", read), ["c.cfg", null]);
  // (The driver reads `@F` after `-Xlinker` too: its first word is the linker's, the rest the
  // driver's, given to the linker in order with its inputs: `-o` takes the next, `.env`.)
  const opts = (p: string) => (p === "o.txt" ? "-o .env\n" : p === "m.txt" ? "-Map\n" : null);
  assert.deepEqual(paths("gcc -Xlinker @o.txt main.o", opts), ["o.txt", ".env"]);
  assert.deepEqual(paths("gcc -Wl,@o.txt main.o", opts), ["o.txt", ".env"]);
  assert.deepEqual(paths("gcc -Xlinker @m.txt m.map main.o", opts), ["m.txt", "m.map"]);
  assert.deepEqual(paths("gcc -Wl,-o .env main.o"), [".env"]);
  assert.deepEqual(paths("gcc -Xlinker --outp main.o"), ["main.o", "main.o"]);
  // (An option with its value, or none: no input taken.)
  assert.deepEqual(paths("gcc -Wl,-o,a main.o -Wl,--as-needed b.o -Xlinker -z c.o"), ["a"]);
  assert.deepEqual(responseWords(`a "b c" d\\ e 'f'`), ["a", "b c", "d e", "f"]);
});

Deno.test("toolFiles: ld, as and cpp read their response files before their options", () => {
  // (libiberty's expandargv: the words of each `@F` in its place, then the options: a `-o` that
  // ends one file takes the first word of the next, `-o @F` F's first word.)
  const files: Record<string, string> = {
    "a.rsp": "x.o -o",
    "b.rsp": "out/k y.o",
    "o.rsp": "out/k\n",
    "w.rsp": "-o",
    "map.rsp": "-Map",
    "n.rsp": "@a.rsp @b.rsp",
  };
  const read = (p: string) => files[p] ?? null;
  const ldFiles = (cmd: string) => driverFilesOf(cmd, read);
  assert.deepEqual(ldFiles("ld @a.rsp @b.rsp"), ["a.rsp", "b.rsp", "x.o", "out/k", "y.o"]);
  assert.deepEqual(ldFiles("ld @n.rsp"), ["n.rsp", "a.rsp", "b.rsp", "x.o", "out/k", "y.o"]);
  assert.deepEqual(ldFiles("ld -o @o.rsp x.o"), ["o.rsp", "out/k", "x.o"]);
  assert.deepEqual(ldFiles("ld --output @o.rsp x.o"), ["o.rsp", "out/k", "x.o"]);
  assert.deepEqual(ldFiles("ld @map.rsp @o.rsp x.o"), ["map.rsp", "o.rsp", "out/k", "x.o"]);
  assert.deepEqual(paths("gcc -Wl,-o,@o.rsp x.o", read), ["o.rsp", "out/k"]);
  assert.deepEqual(paths("gcc -Wl,-Map,@o.rsp x.o", read), ["o.rsp", "out/k"]);
  assert.deepEqual(paths("gcc -Wl,@w.rsp -Wl,@o.rsp x.o", read), ["w.rsp", "o.rsp", "out/k"]);
  assert.deepEqual(paths("gcc -Wl,@a.rsp -Wl,@b.rsp", read), [
    "a.rsp",
    "b.rsp",
    "x.o",
    "out/k",
    "y.o",
  ]);
  // (A file not known: files not known, and a word not known in its place.)
  assert.deepEqual(ldFiles("ld -o @missing x.o"), ["missing", null, "x.o"]);
  // Everyday: a response file of inputs and flags.
  files["objs.rsp"] = "a.o b.o --as-needed -lm";
  assert.deepEqual(ldFiles("ld -o app @objs.rsp"), ["objs.rsp", "app", "a.o", "b.o"]);
});

Deno.test("compilers: a protected file named inside a pass-through list is reached", async () => {
  const H = "/home/user";
  const P = `${H}/project`;
  const config = rmDenied(H, { ssh: true });
  const ctx = ctxIn(P, {
    files: [`${P}/x.c`, `${P}/.env`, `${P}/secrets/key`, `${P}/.pi/settings.json`],
    contents: {
      [`${P}/args.rsp`]: "-Wl,-o,secrets/key",
      [`${P}/opts.txt`]: "-o .pi/settings.json\n",
      [`${P}/key.rsp`]: "secrets/key\n",
      [`${P}/ends.rsp`]: "x.o -o\n",
      [`${P}/gate.rsp`]: ".pi/settings.json\n",
    },
  });
  await checkActions(config, ctx, [
    ["gcc x.c -Wl,-o,.pi/settings.json", "ask"],
    ["gcc x.c -Wl,-o,$HOME/.ssh/authorized_keys", "deny"],
    ["clang x.c -Wl,@$HOME/.ssh/id_rsa", "deny"],
    ["gcc -c x.c -Wp,-MD,.pi/settings.json", "ask"],
    ["gcc x.c -Wl,-Map=secrets/key", "deny"],
    ["g++ x.c -Wl,--output=secrets/key", "deny"],
    ["cc x.c -Wl,-T,secrets/key", "deny"],
    ["c++ x.c -Wl,--version-script=secrets/key", "deny"],
    ["clang -c x.c -Wa,@secrets/key", "deny"],
    ["gcc -c x.c -Wa,-al=secrets/key", "deny"],
    ["gcc x.c -Wl,-o -Wl,secrets/key", "deny"],
    ["clang++ x.c -Xlinker -o -Xlinker secrets/key", "deny"],
    ["gcc -Xlinker @opts.txt main.o", "ask"],
    ["gcc -Wl,@opts.txt main.o", "ask"],
    ["gcc -Wl,-o .pi/settings.json main.o", "ask"],
    ["gcc -Xlinker -o .pi/settings.json main.o", "ask"],
    ["gcc x.c -Wl,secrets/key", "deny"],
    ["gcc -c x.c -MD -o secrets/key.o", "deny"],
    ["gcc @args.rsp x.c", "deny"],
    ["ld -o @key.rsp x.o", "deny"],
    ["gcc -Wl,-o,@key.rsp x.o", "deny"],
    ["ld @ends.rsp @key.rsp", "deny"],
    ["ld @ends.rsp @gate.rsp", "ask"],
    ["gcc -fprofile-use=secrets/key x.c", "deny"],
    ["ld x.o -Map secrets/key", "deny"],
    ["ld x.o -o.pi/settings.json", "ask"],
    ["as -al=secrets/key x.s", "deny"],
    ["cpp -MD secrets/key x.c", "deny"],
    ["gcc -nostdlib -Wl,--oformat=binary -Wl,--outp=$HOME/.ssh/authorized_keys k.s", "deny"],
    ["gcc -nostdlib -Wl,--oformat=binary,--outp=.pi/settings.json k.s", "ask"],
    ["gcc x.c -Wl,-Ma=secrets/key", "deny"],
    ["ld --scr=secrets/key x.o", "deny"],
    ["gcc x.c -Wl,-o,$HOME/.ssh/authorized_keys,-z,a?", "deny"],
    ["gcc x.c -Wp,-MD,.env,-D,X?", "ask"],
    ["gcc -E -iquotesecrets -include key x.c", "deny"],
    ["cpp -isystemsecrets -include key x.c", "deny"],
    ["gcc -c x.c -Wp,-MF.env", "ask"],
    // Other names of the drivers and tools: versioned, a target's, POSIX's, zig's.
    ["gcc-12 x.c -Wl,-o,secrets/key", "deny"],
    ["clang++-17 x.c -Wl,-Map=secrets/key", "deny"],
    ["x86_64-linux-gnu-gcc-12 x.c -Wl,-o,secrets/key", "deny"],
    ["arm-none-eabi-ld x.o -Map secrets/key", "deny"],
    ["x86_64-w64-mingw32-g++-posix x.c -Wl,-o,secrets/key", "deny"],
    ["musl-gcc x.c -Wl,-o,secrets/key", "deny"],
    // The compilers distributed compilers and caches run.
    ["distcc gcc x.c -Wl,-o,secrets/key", "deny"],
    ["icecc g++ -c x.c -Wp,-MD,.pi/settings.json", "ask"],
    ["ccache clang x.c -Wl,-Map=secrets/key", "deny"],
    ["distcc gcc -O2 -c x.c -o build/x.o", "allow"],
    ["c99 x.c -Wl,-o,secrets/key", "deny"],
    ["gfortran x.c -Wl,-o,secrets/key", "deny"],
    ["emcc x.c -Wl,-o,secrets/key", "deny"],
    ["zig cc x.c -Wl,-o,secrets/key", "deny"],
    ["gcc-12 -O2 -Wall -o build/x x.c -lm", "allow"],
    // gcc's variables, set before it or exported first: the dependency file it writes, the
    // directories of headers and libraries it reads, those it runs programs from.
    ["DEPENDENCIES_OUTPUT=.env gcc -c x.c", "ask"],
    ["export SUNPRO_DEPENDENCIES='secrets/key x.o'; gcc -c x.c", "deny"],
    ["CPATH=secrets gcc -E -include key x.c", "deny"],
    ["export C_INCLUDE_PATH=include:secrets; gcc -E x.c", "deny"],
    ["LIBRARY_PATH=$HOME/.ssh gcc x.c", "deny"],
    ["COMPILER_PATH=/tmp/x gcc x.c", "deny"],
    ["export GCC_EXEC_PREFIX=/tmp/x/; gcc x.c", "deny"],
    ["CPATH=include LIBRARY_PATH=lib:build gcc x.c", "allow"],
    ["DEPENDENCIES_OUTPUT='build/x.d x.o' gcc -c x.c", "allow"],
    // Letters read as the driver reads them: the value glued to the first, no other split.
    ["gcc x.c -o$HOME/.ssh/authorized_keys", "deny"],
    ["gcc -Isecrets/ -E x.c", "deny"],
    ["gfortran -Jsecrets/m x.f90", "deny"],
    ["ld -Tsecrets/key x.o", "deny"],
    ["gcc -Wall -O2 -Iinclude/ -c x.c -o build/x.o", "allow"],
    ["gcc -Llib/ -Ibuild/include x.c -obuild/x", "allow"],
    ["ld -Llib/ x.o -obuild/x", "allow"],
    // Everyday compiles name nothing protected.
    ["gcc -O2 -Wall -o build/x x.c -lm", "allow"],
    ["cc -c -Wl,--as-needed x.c", "allow"],
    ["clang -fsanitize=address -g x.c", "allow"],
    ["gcc -shared -fPIC -Wl,-soname,libx.so.1 -Wl,-rpath,'$ORIGIN' -o libx.so x.c", "allow"],
    ["gcc -c x.c -MMD -MP -MF build/x.d -o build/x.o", "allow"],
    ["gcc -Wl,-z,relro,-z,now -Wl,--build-id -Wl,-Map=build/x.map -o build/x x.c", "allow"],
  ]);
});
