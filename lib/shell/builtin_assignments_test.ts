import assert from "node:assert/strict";
import { type BuiltinEffect, builtinEffect } from "./builtin_assignments.ts";
import { staticWord, type Word } from "./model.ts";

/** `command`'s words, static but for `$v` (not known). */
function effect(command: string): BuiltinEffect | null {
  const dynamic: Word = { value: "$v", kind: "dynamic", prefix: "", text: "$v" };
  return builtinEffect(command.split(" ").map((w) => w === "$v" ? dynamic : staticWord(w)));
}
const NONE = { assigns: [] };
const names = (...n: string[]) => ({ assigns: n.map((name) => [name, null]) });

Deno.test("builtins: one getopt reading; an inert letter decides whatever follows it", () => {
  // (`-f`: functions' names. The options before read alike; what follows cannot make it assign.)
  assert.deepEqual(effect("unset -f $v"), NONE);
  assert.deepEqual(effect("unset -v -f -x"), NONE); // (bash: invalid option)
  assert.deepEqual(effect("unset -fx X"), NONE); // (was: not known)
  assert.deepEqual(effect("declare -f $v"), NONE); // (was: not known)
  assert.deepEqual(effect("declare -fv X"), NONE); // (was: not known)
  assert.deepEqual(effect("declare -a -f -%n"), NONE);
  // Without one, a letter a grammar does not list may be a newer bash's: not known.
  assert.equal(effect("declare -v X"), null);
  assert.equal(effect("read -Z X"), null);
  assert.equal(effect("unset -x X"), null);
  assert.equal(effect("local -f X"), null);
});

Deno.test("builtins: printf's one option: another letter fails before the format is read", () => {
  // (`printf '- item'`: bash says `- : invalid option` and prints nothing.)
  assert.deepEqual(effect("printf -%.0s 1 2"), NONE);
  assert.deepEqual(effect("printf -v X -a z"), NONE); // (was: X assigned)
  assert.deepEqual(effect("printf -%n X"), NONE); // (was: not known)
  assert.deepEqual(effect("printf -v X -v Y %s"), names("X", "Y")); // (was: Y; bash: Y)
  assert.deepEqual(effect("printf -vX -- -%s z"), names("X"));
  assert.equal(effect("printf -- -%n X"), null);
  assert.equal(effect("printf -v $v %s"), null);
});

Deno.test("builtins: getopts and compgen read their options as bash's getopt does", () => {
  // `--` ends getopts' options: its name is the second word after (was: `ab`, X kept its value).
  assert.deepEqual(effect("getopts -- ab X"), names("X", "OPTARG", "OPTIND"));
  assert.equal(effect("getopts -a X"), null); // (was: X; bash: invalid option)
  assert.equal(effect("getopts -- ab"), null);
  // An option's value is the next word, whatever it is; a word ends the options.
  assert.deepEqual(effect("compgen -W -V X"), NONE); // (was: X)
  assert.deepEqual(effect("compgen -W -C X"), NONE); // (was: not known)
  assert.deepEqual(effect("compgen -A file -- -C X"), NONE); // (was: not known)
  assert.deepEqual(effect("compgen -VX -a"), names("X")); // (was: not known)
  assert.deepEqual(effect("compgen -av X"), NONE);
  assert.deepEqual(effect("compgen -V X -W a"), names("X"));
  assert.equal(effect("compgen -x X"), null); // (was: nothing)
  assert.equal(effect("compgen -aC cmd"), null);
  assert.equal(effect("compgen -F f"), null);
});

Deno.test("builtins: the export attribute given and taken away (what a nested shell is handed)", () => {
  assert.deepEqual(effect("export F=x G")?.exports, ["F", "G"]);
  assert.deepEqual(effect("export -n F")?.unexports, ["F"]);
  assert.equal(effect("export -n F")?.exports, undefined);
  assert.equal(effect("export -p")?.exports, undefined);
  // (`declare -x` and `+x` alike: not told apart, never taken to export.)
  assert.deepEqual(effect("declare -x F=x")?.unexports, ["F"]);
  assert.deepEqual(effect("declare +x F")?.unexports, ["F"]);
  assert.equal(effect("declare F=x")?.unexports, undefined);
  // (A variable unset loses its attributes.)
  assert.deepEqual(effect("unset F G")?.unexports, ["F", "G"]);
});
