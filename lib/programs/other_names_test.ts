/**
 * The other names known programs are installed under: Homebrew's `g` tools, uutils', and
 * compilers under a version or a target's prefix.
 */
import assert from "node:assert/strict";
import { canonicalName, registryName } from "./other_names.ts";
import { programNamed } from "./registry.ts";

Deno.test("canonicalName: GNU tools with a g, uutils' with uu-", () => {
  assert.equal(canonicalName("grm"), "rm");
  assert.equal(canonicalName("uu-find"), "find");
  assert.equal(canonicalName("gdu"), "gdu");
  assert.equal(registryName("gsed"), "gsed");
});

Deno.test("canonicalName: compilers and their tools under a version or a target", () => {
  const names: [string, string][] = [
    ["gcc-12", "gcc"],
    ["g++-13", "g++"],
    ["clang-17", "clang"],
    ["clang++-17", "clang++"],
    ["clang-17.0.6", "clang"],
    ["cpp-12", "cpp"],
    ["gfortran-12", "gfortran"],
    ["x86_64-linux-gnu-gcc", "gcc"],
    ["x86_64-linux-gnu-gcc-12", "gcc"],
    ["arm-none-eabi-gcc", "gcc"],
    ["x86_64-w64-mingw32-gcc", "gcc"],
    ["x86_64-w64-mingw32-g++-posix", "g++"],
    ["i686-w64-mingw32-gcc-10-win32", "gcc"],
    ["aarch64-linux-android21-clang++", "clang++"],
    ["musl-gcc", "gcc"],
    ["x86_64-linux-gnu-cpp", "cpp"],
    ["x86_64-linux-gnu-ld", "ld"],
    ["x86_64-linux-gnu-ld.bfd", "ld.bfd"],
    ["arm-none-eabi-as", "as"],
    ["riscv64-unknown-elf-c++", "c++"],
  ];
  for (const [name, is] of names) {
    assert.equal(canonicalName(name), is, name);
    assert.equal(programNamed(name), programNamed(is), name);
  }
  // Other programs: gcc's archivers, clang's tools, a short name after one word.
  for (
    const name of [
      "gcc-ar",
      "gcc-nm-12",
      "x86_64-linux-gnu-gcc-ranlib",
      "clang-format",
      "clang-tidy-17",
      "clang-cl",
      "my-cc",
      "foo-as",
      "cpp-x",
      "gcc-foo",
      "my-tool-x",
    ]
  ) {
    assert.equal(canonicalName(name), name, name);
    assert.equal(programNamed(name), undefined, name);
  }
});
