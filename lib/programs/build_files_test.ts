/**
 * A makefile's text read from standard input: its recipes as the shell gets them, and make code
 * anywhere outside a recipe's own shell text (a prerequisite `.SECONDEXPANSION` expands, a
 * directive) as code not seen.
 */
import assert from "node:assert/strict";
import { makefileRecipes } from "./build_files.ts";
import { checkTable } from "../testing_adversarial.ts";

Deno.test("makefileRecipes: recipes as the shell gets them", () => {
  assert.deepEqual(makefileRecipes("all:\n\t@echo $$HOME\n\t-+ls"), ["echo $HOME", "ls"]);
  assert.deepEqual(makefileRecipes("a: b ; cat x\n\tls\nb:\n\tpwd"), ["cat x", "ls", "pwd"]);
  // A line continued with `\`: make keeps the `\`-newline and drops the next line's tab.
  assert.deepEqual(makefileRecipes("all:\n\tcat se\\\n\tcrets/key\n\tls"), [
    "cat se\\\ncrets/key",
    "ls",
  ]);
  assert.deepEqual(makefileRecipes("all:\n\techo a\\\\\n\tls"), ["echo a\\\\", "ls"]);
  // `.ONESHELL:`: a rule's lines are one script.
  assert.deepEqual(makefileRecipes(".ONESHELL:\nall:\n\tcd keys\n\t@cat id_rsa\nb: ; ls"), [
    "cd keys\ncat id_rsa",
    "ls",
  ]);
});

Deno.test("makefileRecipes: make code outside a recipe's shell text is not seen", () => {
  for (
    const text of [
      ".SECONDEXPANSION:\nall: $$(shell rm -rf src)",
      "all: $$(shell rm -rf src)",
      "$$(shell rm x): ; ls",
      "all: $(X)\n\tls",
      "all:\n\techo $(shell ls)",
      "all:\n\techo $$$(X)",
      "SHELL := /bin/sh\nall:\n\tls",
      ".SHELLFLAGS = -xc\nall:\n\tls",
      "all: SHELL=/bin/evil\n\tls",
      "include x:\nall:\n\tls",
      "-include a: b\nall:\n\tls",
      "export a: b\nall:\n\tls",
      ".for x in a: b\nall:\n\tls",
      "vpath %: src\nall:\n\tls",
      "all: a \\\n b\n\tls",
      "\tls",
    ]
  ) assert.equal(makefileRecipes(text), null, text);
});

Deno.test("make from standard input: the class of its make code and its recipes' lines", async () => {
  await checkTable([
    // A prerequisite's `$$(…)` (`.SECONDEXPANSION` runs it), `$$(file <…)`: code not seen.
    ["make -f - <<'E'\n.SECONDEXPANSION:\nall: $$(shell rm -rf src)\nE", "deny", "deny"],
    ["make -f - <<'E'\n.SECONDEXPANSION:\nall: $$(file <.env)\nE", "deny", "deny"],
    ["make -f - <<'E'\nall: $$(shell rm -rf src)\nE", "deny", "deny"],
    // `.ONESHELL:` and a continued line: judged as the one script the shell gets.
    ["make -f - <<'E'\n.ONESHELL:\nall:\n\tcd keys\n\tcat id_rsa\nE", "deny", "deny"],
    ["make -f - <<'E'\nall:\n\tcat .e\\\n\tnv\nE", "deny", "deny"],
    ["make -f - <<'E'\nall:\n\t@-+cat .env\nE", "deny", "deny"],
    // BSD make, remake: make too; remake's debugger reads commands from its input.
    ["bmake -f - <<'E'\nall:\n\tcat .env\nE", "deny", "deny"],
    ["pmake -f /dev/stdin <<'E'\nall:\n\tcat .env\nE", "deny", "deny"],
    ["remake -f - <<'E'\nall:\n\tcat .env\nE", "deny", "deny"],
    ["remake -X <<< 'shell rm -rf src'", "deny", "deny"],
    ["remake --debugger <<< 'shell rm -rf src'", "deny", "deny"],
    // Everyday.
    ["make -f - <<'E'\nall:\n\techo a \\\n\t  b\nE", "deny", "allow"],
    ["make -f - <<'E'\n.ONESHELL:\nall:\n\tcd src\n\tcat main.ts\nE", "deny", "allow"],
    ["make -f - <<'E'\nall: ; echo $$HOME\nE", "deny", "allow"],
    ["bmake -j4 test", "deny", "allow"],
    ["remake -x test", "deny", "allow"],
  ]);
});
