/**
 * The programs compiler drivers run or load: the directories they find their programs in (`-B`,
 * `--prefix`, clang's `--gcc-toolchain=`), the linker a path names (`--ld-path=`, `-fuse-ld=`),
 * `-wrapper`'s program, plugins (`-fplugin=`, `-Xclang -load`), and the specs files that name
 * programs and options (`-specs=F`).
 */
import assert from "node:assert/strict";
import { specsWords } from "./compiler_commands.ts";
import { checkActions, ctxIn, rmDenied } from "../testing.ts";

Deno.test("specsWords: option specs give their options, other specs name programs", () => {
  // Debian's dpkg specs and newlib's nano.specs: options only.
  assert.deepEqual(
    specsWords("*self_spec:\n+ %{!r:%{!fpie:%{!fPIE:%{!fpic:%{!fPIC:%{!fno-pic:-fPIE}}}}}}\n"),
    { driver: ["-fPIE"], linker: [], assembler: [] },
  );
  assert.deepEqual(
    specsWords(
      "%rename link nano_link\n\n*nano_libc:\n-lc_nano\n\n*link:\n%(nano_link) " +
        "%:replace-outfile(-lc -lc_nano)\n\n*startfile:\ncrt0%O%s crti.o%s\n",
    ),
    { driver: ["-lc_nano"], linker: ["-lc_nano", "crt0.o", "crti.o"], assembler: [] },
  );
  assert.deepEqual(specsWords("*link:\n+ -Map=build/x.map %{v}\n"), {
    driver: [],
    linker: ["-Map=build/x.map"],
    assembler: [],
  });
  // A spec function or substitution in a word: the word not known, never left out.
  const link = (body: string) => specsWords(`*link:\n${body}\n`)?.linker;
  assert.deepEqual(link("+ --output=%:getenv(PWD /.env)"), [null]);
  assert.deepEqual(link("+ --output %:getenv(PWD /.env)"), ["--output", null]);
  assert.deepEqual(link("-o %:if-exists-else(%:getenv(HOME /x) y)"), ["-o", null]);
  assert.deepEqual(link("-o %:version-compare(>= 4 mf -x)"), ["-o", null]);
  assert.deepEqual(link("-o %b.env -Map=%{o*}.map %*"), ["-o", null, null, null]);
  assert.deepEqual(link("-Map=a%%b.map %{v} %(x) %<s"), ["-Map=a%b.map"]);
  assert.deepEqual(link("%:remove-outfile(-lc) %:replace-outfile(-lc .env)"), [".env"]);
  assert.deepEqual(link("%:replace-outfile(-lc %:getenv(H /x))"), [null]);
  assert.equal(specsWords("*link:\n%:include(x.specs)\n"), null);
  // The linker, a command of its own line, a pipe, another specs file, a suffix's compiler.
  assert.equal(specsWords("*linker:\n/tmp/x/ld\n"), null);
  assert.equal(specsWords("*cc1:\n+ -DX\n/tmp/x/as foo\n"), null);
  assert.equal(specsWords("*cc1:\n-DX | /tmp/x/p\n"), null);
  assert.equal(specsWords("%include /tmp/x.specs\n"), null);
  assert.equal(specsWords("*self_spec:\n-specs=/tmp/x.specs\n"), null);
  assert.equal(specsWords(".zz:\nzc %i\n"), null);
  assert.equal(specsWords("*post_link:\ntouch x\n"), null);
  assert.equal(specsWords("*x:\ny\n\n%rename x linker\n"), null);
});

Deno.test("compilers: the programs a driver runs from directories, paths and files it is given", async () => {
  const H = "/home/user";
  const P = `${H}/project`;
  const config = rmDenied(H, { ssh: true });
  const ctx = ctxIn(P, {
    files: [`${P}/x.c`, `${P}/.env`, `${P}/secrets/key`],
    contents: {
      [`${P}/evil.specs`]: "*linker:\n/tmp/x/ld\n",
      [`${P}/out.specs`]: "*link:\n+ -o secrets/key\n",
      [`${P}/wrap.specs`]: "*self_spec:\n+ -wrapper /home/user/.ssh/x\n",
      [`${P}/pie.specs`]: "*self_spec:\n+ %{!r:%{!fpie:%{!fPIE:-fPIE}}}\n",
      [`${P}/env.specs`]: "*link:\n+ --output=%:getenv(PWD /.env)\n",
      [`${P}/cond.specs`]: "*link:\n+ %{!r:-o %:if-exists(/home/user/.ssh/id)}\n",
      [`${P}/map.specs`]: "*link:\n+ -Map=build/x.map %{v} %(link_gcc_c_sequence)\n",
      [`${P}/args.rsp`]: "-B/tmp/x/",
      [`${P}/cfg/sub/x.cfg`]: "--ld-path=<CFGDIR>/../../../.ssh/ld\n",
      [`${P}/evil.ld`]: "OUTPUT(/home/user/.ssh/authorized_keys)\n",
      [`${P}/inc.ld`]: "INCLUDE evil.ld\n",
      [`${P}/evil.mri`]: "NAME secrets/key\nLOAD a.o\n",
      [`${P}/project.ld`]: "INPUT(build/a.o build/b.o)\nOUTPUT(build/k.elf)\n",
      [`${P}/linker.ld`]: "ENTRY(_start)\nSECTIONS { . = 0x100000; .text : { *(.text*) } }\n",
    },
  });
  await checkActions(config, ctx, [
    // The directories it runs cc1, as, collect2 and ld from: commands not known.
    ["gcc -B/tmp/x/ -c x.c", "deny"],
    ["gcc -B /tmp/x/ -c x.c", "deny"],
    ["gcc --prefix=/tmp/x/ x.c", "deny"],
    ["gcc --prefix /tmp/x/ x.c", "deny"],
    ["gcc --pref /tmp/x/ x.c", "deny"],
    ["g++ -Bbuild/ x.c", "deny"],
    ["gcc @args.rsp x.c", "deny"],
    // (In clang's configuration file, <CFGDIR> is its directory: /home/user/.ssh/ld here.)
    ["clang --config cfg/sub/x.cfg x.c", "deny"],
    ["clang --gcc-toolchain=/tmp/x x.c", "deny"],
    ["clang --gcc-install-dir=/tmp/x/lib/gcc/x86_64-linux-gnu/12 x.c", "deny"],
    ["clang -ccc-install-dir /tmp/x x.c", "deny"],
    ["zig cc -B/tmp/x x.c", "deny"],
    ["gcc -B$D x.c", "deny"],
    // The linker, wrapper and plugins a path names: that program run.
    ["clang --ld-path=$HOME/.ssh/x x.c", "deny"],
    ["clang -fuse-ld=$HOME/.ssh/ld x.c", "deny"],
    ["gcc -wrapper $HOME/.ssh/x,-v x.c", "deny"],
    ["gcc -fplugin=$HOME/.ssh/p.so -c x.c", "deny"],
    ["gcc --plugin=$HOME/.ssh/p.so -c x.c", "deny"],
    ["clang -fpass-plugin=$HOME/.ssh/p.so -c x.c", "deny"],
    ["clang -Xclang -load -Xclang $HOME/.ssh/p.so -c x.c", "deny"],
    // A specs file: the programs it names, the options it gives.
    ["gcc -specs=evil.specs x.c", "deny"],
    ["gcc --specs evil.specs x.c", "deny"],
    ["gcc --sp evil.specs x.c", "deny"],
    ["gcc -specs=out.specs x.c", "deny"],
    ["gcc -specs=wrap.specs x.c", "deny"],
    ["gcc -specs=env.specs main.o", "ask"],
    ["gcc -specs=cond.specs main.o", "ask"],
    ["printf '*linker:\\n/tmp/x\\n' > s.specs; gcc -specs=s.specs x.c", "deny"],
    // The options clang and gcc take from the environment, set before them or exported first.
    ["CCC_OVERRIDE_OPTIONS='#+-Wl,-o,secrets/key' clang x.c", "deny"],
    ["export CCC_OVERRIDE_OPTIONS='#x-o s/build/secrets/'; clang -o build/key x.c", "deny"],
    ["GCC_COMPARE_DEBUG='-fplugin=/tmp/p.so' gcc -c x.c", "deny"],
    // Linker scripts: the files they write and read (OUTPUT, INPUT, INCLUDE, MRI's NAME).
    ["ld -T evil.ld a.o", "deny"],
    ["ld --script=inc.ld a.o", "deny"],
    ["ld -dT evil.ld a.o", "deny"],
    ["ld -c evil.mri", "deny"],
    ["ld evil.ld a.o", "deny"],
    ["gcc -Wl,-T,evil.ld x.c", "deny"],
    ["gcc -Wl,--script=evil.ld x.c", "deny"],
    ["gcc -T evil.ld x.c", "deny"],
    ["gcc -nostdlib x.c evil.ld", "deny"],
    ["printf 'OUTPUT(/home/user/.ssh/authorized_keys)' > s.ld && ld -T s.ld a.o", "ask"],
    ["ld -T project.ld", "allow"],
    ["ld -T linker.ld -o build/k.elf build/a.o", "allow"],
    ["gcc -c x.c -o build/x.o && ld -o build/x build/x.o", "allow"],
    // Everyday.
    ["gcc -specs=pie.specs -o build/x x.c", "allow"],
    ["gcc -specs=map.specs -o build/x x.c", "allow"],
    ["arm-none-eabi-gcc --specs=nano.specs --specs=nosys.specs -o build/x.elf x.c", "allow"],
    ["gcc -O2 -Iinclude -o build/x src/*.c", "allow"],
    ["cc -c x.c", "allow"],
    ["clang -fuse-ld=lld x.c", "allow"],
    ["clang -fuse-ld=mold -o build/x x.c", "allow"],
    ["gcc -fplugin=annobin -fplugin-arg-annobin-disable -c x.c", "allow"],
    ["gcc -T linker.ld -nostdlib -o build/k.elf x.c", "allow"],
  ]);
});
